//! A task: one prompt's verifier, fields and group of completions, read from a JSON object.
//!
//! Required: `id` (string), `verifier` (string), `completions` (list of strings). Optional:
//! `limits` (see [`LimitOverrides`]), and `verifier_code` (the source of a Python verifier, for
//! `"verifier": "python"`). Every other field belongs to the verifier and is passed to it
//! untouched.

use rewardbox_sandbox::limits::LimitOverrides;
use serde_json::{Map, Value};

/// One task, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// The task's id, echoed in its result.
    pub id: String,
    /// A built-in verifier name or a path to a verifier component.
    pub verifier: String,
    /// The completions to score, in order.
    pub completions: Vec<String>,
    /// Limits that override the scorer's defaults for this task.
    pub limits: LimitOverrides,
    /// The source of the task's Python verifier (`"verifier": "python"`).
    pub verifier_code: Option<String>,
    /// The task's known-good completion (`"solution"`, when a string). A verifier that fails on
    /// a completion but judges this without failing has failed on what the completion gave it:
    /// the completion scores 0 rather than a masked `verifier_error`.
    pub solution: Option<String>,
    /// The JSON the verifier receives: every field but `completions` and `limits`.
    pub verifier_input: String,
}

/// Why a task was rejected: a message that names the field at fault, and the id when known.
#[derive(Debug, Clone, PartialEq)]
pub struct TaskError {
    /// The task's id, when it could be read.
    pub id: Option<String>,
    /// What is wrong, e.g. `"completions" must be a list of strings`.
    pub message: String,
}

impl Task {
    /// Reads one JSONL line.
    pub fn from_json_line(line: &str) -> Result<Task, TaskError> {
        let value: Value = serde_json::from_str(line).map_err(|e| TaskError {
            id: None,
            message: format!("not valid JSON: {e}"),
        })?;
        Task::from_value(value)
    }

    /// Reads a task from a JSON value, which must be an object.
    pub fn from_value(value: Value) -> Result<Task, TaskError> {
        let Value::Object(mut fields) = value else {
            return Err(TaskError {
                id: None,
                message: "a task must be a JSON object".into(),
            });
        };
        let id = match fields.get("id") {
            Some(Value::String(id)) => id.clone(),
            Some(_) => {
                return Err(TaskError {
                    id: None,
                    message: "\"id\" must be a string".into(),
                });
            }
            None => {
                return Err(TaskError {
                    id: None,
                    message: "\"id\" is missing".into(),
                });
            }
        };
        let fail = |message: String| TaskError {
            id: Some(id.clone()),
            message,
        };
        let verifier = match fields.get("verifier") {
            Some(Value::String(v)) if !v.is_empty() => v.clone(),
            Some(_) => return Err(fail("\"verifier\" must be a non-empty string".into())),
            None => return Err(fail("\"verifier\" is missing".into())),
        };
        let completions = match fields.remove("completions") {
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|item| match item {
                    Value::String(s) => Ok(s),
                    _ => Err(fail("\"completions\" must be a list of strings".into())),
                })
                .collect::<Result<Vec<String>, TaskError>>()?,
            Some(_) => return Err(fail("\"completions\" must be a list of strings".into())),
            None => return Err(fail("\"completions\" is missing".into())),
        };
        let limits = match fields.remove("limits") {
            None | Some(Value::Null) => LimitOverrides::default(),
            Some(value) => LimitOverrides::from_json(&value).map_err(&fail)?,
        };
        let verifier_code = match fields.get("verifier_code") {
            None | Some(Value::Null) => None,
            Some(Value::String(code)) => Some(code.clone()),
            Some(_) => {
                return Err(fail(
                    "\"verifier_code\" must be a string of Python source".into(),
                ));
            }
        };
        if verifier == "python" && verifier_code.is_none() {
            return Err(fail(
                "\"verifier_code\" is missing: a \"python\" verifier needs its source \
                 (or give \"verifier\" as a path to a .py file)"
                    .into(),
            ));
        }
        // Read only when it is a string: a task whose `solution` is something else is scored as
        // a task without one.
        let solution = fields
            .get("solution")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(Task {
            id,
            verifier,
            completions,
            limits,
            verifier_code,
            solution,
            verifier_input: Value::Object(fields).to_string(),
        })
    }

    /// A task for `verifier` with the verifier's `fields` (an object) and `completions`.
    pub fn new(
        id: &str,
        verifier: &str,
        fields: Map<String, Value>,
        completions: Vec<String>,
    ) -> Result<Task, TaskError> {
        let mut object = fields;
        object.insert("id".into(), Value::String(id.into()));
        object.insert("verifier".into(), Value::String(verifier.into()));
        object.insert("completions".into(), Value::from(completions));
        Task::from_value(Value::Object(object))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(line: &str) -> String {
        Task::from_json_line(line).unwrap_err().message
    }

    #[test]
    fn reads_a_task_and_keeps_verifier_fields() {
        let t = Task::from_json_line(
            r#"{"id": "q17", "verifier": "numeric", "reference": "391", "tolerance": 1e-6,
                "completions": ["391", "400"], "limits": {"fuel": 1000}}"#,
        )
        .unwrap();
        assert_eq!(t.id, "q17");
        assert_eq!(t.completions, vec!["391", "400"]);
        assert_eq!(t.limits.fuel, Some(1000));
        let input: Value = serde_json::from_str(&t.verifier_input).unwrap();
        assert_eq!(input["reference"], "391");
        assert_eq!(input["verifier"], "numeric");
        assert!(input.get("completions").is_none() && input.get("limits").is_none());
    }

    #[test]
    fn errors_name_the_field() {
        assert!(error("{not json").starts_with("not valid JSON"));
        assert_eq!(error("[1]"), "a task must be a JSON object");
        assert_eq!(
            error(r#"{"verifier": "exact", "completions": []}"#),
            "\"id\" is missing"
        );
        assert_eq!(
            error(r#"{"id": 3, "verifier": "exact", "completions": []}"#),
            "\"id\" must be a string"
        );
        assert_eq!(
            error(r#"{"id": "a", "completions": []}"#),
            "\"verifier\" is missing"
        );
        assert_eq!(
            error(r#"{"id": "a", "verifier": "exact"}"#),
            "\"completions\" is missing"
        );
        assert_eq!(
            error(r#"{"id": "a", "verifier": "exact", "completions": "x"}"#),
            "\"completions\" must be a list of strings"
        );
        assert_eq!(
            error(r#"{"id": "a", "verifier": "exact", "completions": [1]}"#),
            "\"completions\" must be a list of strings"
        );
        assert_eq!(
            error(r#"{"id": "a", "verifier": "exact", "completions": [], "limits": {"fuel": 0}}"#),
            "\"limits.fuel\" must be a positive integer"
        );
    }

    #[test]
    fn keeps_the_id_of_a_rejected_task() {
        let e = Task::from_json_line(r#"{"id": "a", "verifier": "exact"}"#).unwrap_err();
        assert_eq!(e.id.as_deref(), Some("a"));
    }
}
