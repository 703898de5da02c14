//! DeepGym's `APIEnvironment` (an inline single-turn environment) read into a rewardbox task for
//! the `python` verifier, which runs DeepGym verifiers unmodified; and its results read back into
//! DeepGym's `RunResult`.
//!
//! Read as DeepGym's API reads it: `task` and `verifier_code` required, `timeout` and
//! `case_timeout` in 1..=3600 seconds, the verifier modes, difficulties and size caps it accepts,
//! unknown fields ignored (its client sends its whole `Environment`). `timeout` is the verifier's
//! time budget, enforced as fuel at the Python runner's rate (the same code, the same verdict on a
//! busy server). `env_vars` are accepted and not passed on (the sandbox has no environment of the
//! host's), and a solution language other than Python is refused: DeepGym's verifiers run it as a
//! subprocess, which the sandbox does not have.

use crate::error::ApiError;
use axum::http::StatusCode;
use rewardbox::candidates::limits_for_seconds;
use rewardbox::{CaseStatus, CompletionResult, Status};
use rewardbox::{Limits, Task};
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

/// The sandbox id results carry.
pub const SANDBOX_ID: &str = "rewardbox";

/// A 422 naming the field, as DeepGym's API (FastAPI) answers a body it does not accept.
pub fn invalid(field: &str, message: impl Into<String>) -> ApiError {
    ApiError {
        status: StatusCode::UNPROCESSABLE_ENTITY,
        detail: format!("\"{field}\" {}", message.into()),
        field: Some(field.to_string()),
    }
}

/// An inline DeepGym environment, checked.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiEnvironment {
    /// The prompt.
    pub task: String,
    /// The verifier's source.
    pub verifier_code: String,
    /// Its name, when the client gave one.
    pub name: Option<String>,
    /// Seconds the verifier may take.
    pub timeout: u64,
    /// Test cases handed to the verifier (`/judge/test_cases.json`).
    pub test_cases: Option<Value>,
    /// Files beside the verifier.
    pub support_files: Map<String, Value>,
}

fn text(fields: &Map<String, Value>, field: &str, max: usize) -> Result<Option<String>, ApiError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.chars().count() <= max => Ok(Some(s.clone())),
        Some(Value::String(_)) => Err(invalid(field, format!("is longer than {max} characters"))),
        Some(_) => Err(invalid(field, "must be a string")),
    }
}

fn seconds(fields: &Map<String, Value>, field: &str, default: u64) -> Result<u64, ApiError> {
    match fields.get(field) {
        None | Some(Value::Null) => Ok(default),
        Some(v) => v
            .as_u64()
            .filter(|s| (1..=3600).contains(s))
            .ok_or_else(|| invalid(field, "must be an integer number of seconds in 1..=3600")),
    }
}

impl ApiEnvironment {
    /// Reads DeepGym's `APIEnvironment` at `field` of a request.
    pub fn from_json(value: Option<&Value>, field: &str) -> Result<ApiEnvironment, ApiError> {
        let Some(Value::Object(fields)) = value else {
            return Err(invalid(
                field,
                "must be an environment object (task, verifier_code, ...)",
            ));
        };
        let at = |name: &str| format!("{field}.{name}");
        let scoped = |e: ApiError| ApiError {
            detail: format!("\"{field}.{}", e.detail.trim_start_matches('"')),
            field: e.field.map(|f| format!("{field}.{f}")),
            ..e
        };
        let task = text(fields, "task", 100_000)
            .map_err(scoped)?
            .ok_or_else(|| invalid(&at("task"), "is missing (the prompt)"))?;
        let verifier_code = text(fields, "verifier_code", 500_000)
            .map_err(scoped)?
            .filter(|code| !code.trim().is_empty())
            .ok_or_else(|| {
                invalid(
                    &at("verifier_code"),
                    "is missing (the verifier's Python source)",
                )
            })?;
        let language = text(fields, "language", 50).map_err(scoped)?;
        if let Some(language) = &language
            && Language::parse(language) != Some(Language::Python)
        {
            return Err(invalid(
                &at("language"),
                format!(
                    "is {language:?}: rewardbox runs DeepGym verifiers against Python solutions \
                     (DeepGym's verifiers run other languages as subprocesses, which its sandbox \
                     does not have)"
                ),
            ));
        }
        let timeout = seconds(fields, "timeout", 30).map_err(scoped)?;
        seconds(fields, "case_timeout", 10).map_err(scoped)?;
        if let Some(mode) = text(fields, "verifier_mode", 50).map_err(scoped)?
            && !["auto", "script", "verify_function", "body"].contains(&mode.as_str())
        {
            return Err(invalid(
                &at("verifier_mode"),
                "must be one of auto, script, verify_function, body",
            ));
        }
        if let Some(level) = text(fields, "difficulty", 50).map_err(scoped)?
            && !["easy", "medium", "hard"].contains(&level.as_str())
        {
            return Err(invalid(&at("difficulty"), "must be easy, medium or hard"));
        }
        let support_files = match fields.get("support_files") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(files)) if files.len() <= 50 => {
                for (name, content) in files {
                    let plain = !name.is_empty()
                        && !name.contains('/')
                        && !name.starts_with('.')
                        && !["verifier.py", "deepgym_solution.py", "test_cases.json"]
                            .contains(&name.as_str());
                    if !plain || !content.is_string() {
                        return Err(invalid(
                            &at("support_files"),
                            format!(
                                "holds {name:?}: support files are plain file names (not \
                                 verifier.py, deepgym_solution.py or test_cases.json) with text"
                            ),
                        ));
                    }
                }
                files.clone()
            }
            Some(_) => {
                return Err(invalid(
                    &at("support_files"),
                    "must be an object of at most 50 file name -> text",
                ));
            }
        };
        let test_cases = match fields.get("test_cases") {
            None | Some(Value::Null) => None,
            Some(Value::Array(cases))
                if cases.len() <= 100 && cases.iter().all(Value::is_object) =>
            {
                Some(Value::Array(cases.clone()))
            }
            Some(_) => {
                return Err(invalid(
                    &at("test_cases"),
                    "must be a list of at most 100 objects",
                ));
            }
        };
        match fields.get("env_vars") {
            None | Some(Value::Null) | Some(Value::Object(_)) => {}
            Some(_) => {
                return Err(invalid(
                    &at("env_vars"),
                    "must be an object of name -> text",
                ));
            }
        }
        Ok(ApiEnvironment {
            task,
            verifier_code,
            name: text(fields, "name", 200).map_err(scoped)?,
            timeout,
            test_cases,
            support_files,
        })
    }

    /// The task's fields (without completions): what `rewardbox import deepgym` makes of an
    /// environment folder, with the verifier's time budget.
    pub fn task_fields(&self) -> Map<String, Value> {
        let budget = limits_for_seconds(Language::Python, self.timeout as f64, Limits::default());
        let mut fields = Map::new();
        fields.insert(
            "id".into(),
            json!(self.name.clone().unwrap_or_else(|| "deepgym".into())),
        );
        fields.insert("verifier".into(), json!("python"));
        fields.insert("verifier_code".into(), json!(self.verifier_code));
        fields.insert("prompt".into(), json!(self.task));
        if let Some(cases) = &self.test_cases {
            fields.insert("test_cases".into(), cases.clone());
        }
        if !self.support_files.is_empty() {
            fields.insert(
                "support_files".into(),
                Value::Object(self.support_files.clone()),
            );
        }
        fields.insert(
            "limits".into(),
            json!({"fuel": budget.fuel, "wall_ms": budget.wall_ms}),
        );
        fields
    }

    /// The task scoring `outputs`.
    pub fn task(&self, outputs: Vec<String>) -> Result<Task, ApiError> {
        let mut fields = self.task_fields();
        fields.insert("completions".into(), json!(outputs));
        Task::from_value(Value::Object(fields))
            .map_err(|e| ApiError::status(StatusCode::UNPROCESSABLE_ENTITY, e.message))
    }

    /// A short hash of everything that grades the environment (verifier, cases, support files),
    /// as DeepGym's `verifier_hash`.
    pub fn grading_hash(&self) -> String {
        let mut hasher = Sha256::new();
        hasher.update(self.verifier_code.as_bytes());
        hasher.update([0]);
        hasher.update(
            self.test_cases
                .as_ref()
                .map(Value::to_string)
                .unwrap_or_default(),
        );
        hasher.update([0]);
        hasher.update(Value::Object(self.support_files.clone()).to_string());
        let digest = hasher.finalize();
        digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
    }
}

/// DeepGym's `RunResult` of one completion's result. A masked result is DeepGym's "no verdict":
/// exit code 2 and `error_type` `verifier_error` (`RunResult.has_verdict` is false).
pub fn run_result(result: &CompletionResult) -> Value {
    let verdict = result.status == Status::Ok;
    let cases: Vec<Value> = result
        .cases
        .iter()
        .map(|case| {
            let passed = case.status == CaseStatus::Passed;
            json!({
                "id": case.id,
                "passed": passed,
                "score": case.score.clamp(0.0, 1.0),
                "error": if passed { Value::Null } else { json!(case.detail) },
            })
        })
        .collect();
    json!({
        "score": if verdict { result.score } else { 0.0 },
        "passed": verdict && result.passed,
        "output": result.detail,
        "stderr": if verdict { String::new() } else { result.detail.clone() },
        "exit_code": if !verdict { 2 } else if result.passed { 0 } else { 1 },
        "execution_time_ms": result.wall_us as f64 / 1000.0,
        "sandbox_id": SANDBOX_ID,
        "reward_components": null,
        "metrics": {"fuel": result.fuel},
        "seed": null,
        "truncated": false,
        "error_type": if verdict { Value::Null } else { json!("verifier_error") },
        "cases": if cases.is_empty() { Value::Null } else { Value::Array(cases) },
        "isolation": null,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(value: Value) -> Result<ApiEnvironment, ApiError> {
        ApiEnvironment::from_json(Some(&value), "environment")
    }

    #[test]
    fn reads_what_deepgym_accepts_and_names_what_it_refuses() {
        let ok = env(
            json!({"task": "t", "verifier_code": "def verify(p):\n    return 1.0",
                            "name": null, "type": "coding", "image": null, "timeout": 5,
                            "support_files": {"helpers.py": "X = 1"}, "test_cases": [{"a": 1}]}),
        )
        .unwrap();
        assert_eq!(ok.timeout, 5);
        assert_eq!(ok.task_fields()["support_files"]["helpers.py"], "X = 1");
        for (bad, field) in [
            (json!({"verifier_code": "x"}), "environment.task"),
            (json!({"task": "t"}), "environment.verifier_code"),
            (
                json!({"task": "t", "verifier_code": "x", "timeout": 0}),
                "environment.timeout",
            ),
            (
                json!({"task": "t", "verifier_code": "x", "case_timeout": 4000}),
                "environment.case_timeout",
            ),
            (
                json!({"task": "t", "verifier_code": "x", "language": "javascript"}),
                "environment.language",
            ),
            (
                json!({"task": "t", "verifier_code": "x", "verifier_mode": "magic"}),
                "environment.verifier_mode",
            ),
            (
                json!({"task": "t", "verifier_code": "x", "support_files": {"../x": "y"}}),
                "environment.support_files",
            ),
            (
                json!({"task": "t", "verifier_code": "x", "test_cases": [1]}),
                "environment.test_cases",
            ),
            (json!({"task": 3, "verifier_code": "x"}), "environment.task"),
        ] {
            let error = env(bad.clone()).unwrap_err();
            assert_eq!(error.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
            assert_eq!(
                error.field.as_deref(),
                Some(field),
                "{bad}: {}",
                error.detail
            );
        }
    }

    #[test]
    fn a_masked_result_has_no_verdict_and_a_judged_one_keeps_its_score() {
        let masked = CompletionResult::verifier_error("it crashed", 10, 2000);
        let r = run_result(&masked);
        assert_eq!(
            (r["exit_code"].as_i64(), r["error_type"].as_str()),
            (Some(2), Some("verifier_error"))
        );
        let judged = CompletionResult {
            score: 0.5,
            passed: false,
            status: Status::Ok,
            detail: "1/2".into(),
            fuel: 5,
            wall_us: 1500,
            mask: false,
            cases: vec![],
        };
        let r = run_result(&judged);
        assert_eq!(
            (r["score"].as_f64(), r["exit_code"].as_i64()),
            (Some(0.5), Some(1))
        );
        assert!(r["error_type"].is_null());
    }
}
