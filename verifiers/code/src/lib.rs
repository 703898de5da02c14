//! Floor 1 of rewardbox: a built-in verifier component (programs graded on tests).
//!
//! The `code` verifier of rewardbox: extracts the program from a completion and grades it on the
//! task's tests. Every run of the candidate happens in a fresh sandbox the host creates (the
//! `sandbox` interface of the WIT); the tests, the expected values and the reference solution never
//! enter it, so a program cannot read, patch or forge them.
//!
//! Task fields: `"tests"` (`{"stdio": [...]}` with an optional `"compare"`, `"tokens"` or
//! `"lines"`; `{"call": {"entry_point", "cases"}}`, or
//! `{"asserts", "entry_point", "setup"}`), `"scoring"` (`"fraction"` or `"all"`),
//! `"float_tolerance"`, `"language"` (`"python"`, `"c"`, `"cpp"`, `"rust"`, `"go"`, `"javascript"`, `"typescript"`;
//! call tests of C, C++, Rust and Go typed by `tests.declaration`: [`typed_calls`]), `"extract"` (`"fenced"`: the last fenced block,
//! else the whole text when it compiles; `"whole"`: the completion as it is), `"prelude"` (source
//! put before the program), `"candidate_limits"`
//! (`{"fuel", "wall_ms", "memory_mb", "output_bytes"}` for each candidate run).

pub mod compare;
pub mod fields;
pub mod grade;
pub mod harness;
pub mod kinds;
pub mod langs;
pub mod sandbox;
pub mod spec;

pub use grade::{Judgement, Program, find_program, judge};

use fields::AssertSource;
use guest_common::{FieldError, TaskFields};
use kinds::contest::spec::{ProblemProgram, ValidatorLimits};
use rewardbox_languages::{Language, PythonEngine};
use sandbox::{
    CaseResult, CaseStatus, CheckerFile, CheckerOutcome, CommunicationOutcome, GradeError,
    InteractionOutcome, Outcome, Sandbox,
};
use serde_json::{Value, json};

wit_bindgen::generate!({
    path: "../../wit",
    world: "verifier",
});

use rewardbox::core::{sandbox as host, types};

/// The host's sandbox, with the candidate limits and the Python engine the task asks for.
struct HostSandbox {
    limits: types::Limits,
    /// The task's `python_engine`: which interpreter runs a Python program on stdin/stdout
    /// (`None`: the host's default).
    python_engine: Option<PythonEngine>,
}

impl HostSandbox {
    fn from_task(task: &TaskFields) -> Result<Self, FieldError> {
        let mut limits = types::Limits {
            fuel: None,
            wall_ms: None,
            memory_bytes: None,
            output_bytes: None,
        };
        if let Some(v) = task.get("candidate_limits") {
            let obj = v
                .as_object()
                .ok_or_else(|| FieldError::new("candidate_limits", "must be an object"))?;
            for (key, value) in obj {
                let n = value.as_u64().ok_or_else(|| {
                    FieldError::new(
                        &format!("candidate_limits.{key}"),
                        "must be a positive integer",
                    )
                })?;
                match key.as_str() {
                    "fuel" => limits.fuel = Some(n),
                    "wall_ms" => limits.wall_ms = Some(n.min(u64::from(u32::MAX)) as u32),
                    "memory_mb" => limits.memory_bytes = Some(n.saturating_mul(1 << 20)),
                    "output_bytes" => limits.output_bytes = Some(n.min(u64::from(u32::MAX)) as u32),
                    other => {
                        return Err(FieldError::new(
                            &format!("candidate_limits.{other}"),
                            "is not a limit (fuel, wall_ms, memory_mb, output_bytes)",
                        ));
                    }
                }
            }
        }
        Ok(HostSandbox {
            limits,
            python_engine: python_engine_of(task)?,
        })
    }

    /// The language the host is asked to run a program in: a Python program with the task's
    /// engine when it names one (`python@monty`).
    fn run_language(&self, language: &str) -> String {
        match self.python_engine {
            Some(engine) if Language::parse(language) == Some(Language::Python) => {
                engine.language()
            }
            _ => language.to_string(),
        }
    }
}

/// The task's `python_engine` (`"auto"`, `"cpython"` or `"monty"`), for Python tasks only.
fn python_engine_of(task: &TaskFields) -> Result<Option<PythonEngine>, FieldError> {
    let Some(value) = task.get("python_engine") else {
        return Ok(None);
    };
    let engines = || PythonEngine::ALL.map(PythonEngine::name).join("\", \"");
    let engine = value
        .as_str()
        .and_then(PythonEngine::parse)
        .ok_or_else(|| FieldError::new("python_engine", format!("must be \"{}\"", engines())))?;
    let language = task.get("language").and_then(Value::as_str);
    if language.is_some_and(|l| Language::parse(l) != Some(Language::Python)) {
        return Err(FieldError::new(
            "python_engine",
            "applies to Python programs only (this task's \"language\" is another)",
        ));
    }
    Ok(Some(engine))
}

/// Limits of a problem's own programs (validators, interactors) unless the task sets them: a
/// minute of native work's worth of fuel, 512 MiB, 8 MiB of output, as judges give validators.
const VALIDATOR_FUEL: u64 = 600_000_000_000;
const VALIDATOR_MEMORY_BYTES: u64 = 512 << 20;
const VALIDATOR_OUTPUT_BYTES: u32 = 8 << 20;
const VALIDATOR_WALL_MS: u32 = 120_000;

fn validator_limits(limits: &ValidatorLimits) -> types::Limits {
    types::Limits {
        fuel: Some(limits.fuel.unwrap_or(VALIDATOR_FUEL)),
        wall_ms: Some(limits.wall_ms.unwrap_or(VALIDATOR_WALL_MS)),
        memory_bytes: Some(limits.memory_bytes.unwrap_or(VALIDATOR_MEMORY_BYTES)),
        output_bytes: Some(limits.output_bytes.unwrap_or(VALIDATOR_OUTPUT_BYTES)),
    }
}

fn invocation(args: &[String], files: &[CheckerFile]) -> types::Invocation {
    types::Invocation {
        args: args.to_vec(),
        files: files
            .iter()
            .map(|f| types::File {
                path: f.path.clone(),
                contents: f.contents.clone(),
            })
            .collect(),
    }
}

fn checker_outcome(checked: types::InvocationOutcome) -> CheckerOutcome {
    CheckerOutcome {
        outcome: outcome(checked.outcome),
        feedback: checked
            .feedback
            .into_iter()
            .map(|f| CheckerFile {
                path: f.path,
                contents: f.contents,
            })
            .collect(),
    }
}

fn outcome(o: types::RunOutcome) -> Outcome {
    Outcome {
        status: o.status.into(),
        exit_code: o.exit_code,
        stdout: o.stdout,
        stderr: o.stderr,
    }
}

impl Sandbox for HostSandbox {
    fn run(&self, language: &str, source: &str, stdin: &str) -> Outcome {
        outcome(host::run(
            &self.run_language(language),
            source,
            stdin,
            self.limits,
        ))
    }

    fn call(
        &self,
        language: &str,
        source: &str,
        entry: &str,
        args_json: &[String],
    ) -> Vec<Result<String, Outcome>> {
        host::call(language, source, entry, args_json, self.limits)
            .into_iter()
            .map(|r| r.map_err(outcome))
            .collect()
    }

    fn check(
        &self,
        asserts: &AssertSource,
        check: &str,
        program: &str,
    ) -> Result<Vec<CaseResult>, GradeError> {
        let (mode, source) = match asserts {
            AssertSource::Check(source) => (types::PythonMode::Asserts, source.clone()),
            AssertSource::List(items) => (
                types::PythonMode::AssertList,
                Value::from(items.clone()).to_string(),
            ),
            AssertSource::Module { framework, spec } => (
                match framework {
                    fields::TestFramework::Pytest => types::PythonMode::Pytest,
                    fields::TestFramework::Unittest => types::PythonMode::Unittest,
                },
                spec.clone(),
            ),
        };
        let what = match asserts {
            AssertSource::Module { framework, .. } => format!("tests.{}", framework.key()),
            _ => "tests.asserts".to_string(),
        };
        let no_limits = types::Limits {
            fuel: None,
            wall_ms: None,
            memory_bytes: None,
            output_bytes: None,
        };
        match host::python_verify(mode, &source, check, program, no_limits) {
            Ok(verdict) => Ok(verdict
                .cases
                .into_iter()
                .map(|c| CaseResult {
                    id: c.id,
                    status: CaseStatus::from(c.status),
                    detail: c.detail,
                })
                .collect()),
            Err(types::VerifyError::InvalidTask(m)) => Err(GradeError::InvalidTask(format!(
                "\"{what}\" cannot be run: {m}"
            ))),
            Err(types::VerifyError::Failed(m)) => Err(GradeError::Failed(format!(
                "running \"{what}\" failed: {m}"
            ))),
        }
    }

    fn run_checker(
        &self,
        checker: &ProblemProgram,
        stdin: &str,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> CheckerOutcome {
        checker_outcome(host::run_checker(
            &checker.language,
            &checker.source,
            stdin,
            &invocation(args, files),
            validator_limits(limits),
        ))
    }

    fn interact(
        &self,
        language: &str,
        source: &str,
        interactor: &ProblemProgram,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> InteractionOutcome {
        let interaction = host::interact(
            language,
            source,
            self.limits,
            &interactor.language,
            &interactor.source,
            &invocation(args, files),
            validator_limits(limits),
            interactor.convention.accepts(),
        );
        InteractionOutcome {
            candidate: outcome(interaction.candidate),
            interactor: checker_outcome(interaction.interactor),
            interactor_first: interaction.interactor_first,
            deadlock: interaction.deadlock,
        }
    }

    fn communicate(
        &self,
        language: &str,
        source: &str,
        processes: u32,
        manager: &ProblemProgram,
        stdin: &str,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> CommunicationOutcome {
        let communication = host::communicate(
            language,
            source,
            self.limits,
            processes,
            &manager.language,
            &manager.source,
            &invocation(args, files),
            stdin,
            validator_limits(limits),
        );
        CommunicationOutcome {
            manager: checker_outcome(communication.manager),
            processes: communication.candidates.into_iter().map(outcome).collect(),
            deadlock: communication.deadlock,
        }
    }

    fn candidate_limits(&self) -> Value {
        let mut limits = serde_json::Map::new();
        let l = &self.limits;
        let fields = [
            ("fuel", l.fuel),
            ("wall_ms", l.wall_ms.map(u64::from)),
            ("memory_mb", l.memory_bytes.map(|b| b >> 20)),
            ("output_bytes", l.output_bytes.map(u64::from)),
        ];
        for (name, value) in fields {
            if let Some(v) = value {
                limits.insert(name.into(), json!(v));
            }
        }
        Value::Object(limits)
    }
}

rewardbox_types::case_status_conversions!(types::CaseStatus);
rewardbox_types::run_status_conversions!(types::RunStatus);

struct CodeVerifier;

impl Guest for CodeVerifier {
    fn verify(task: String, completion: String) -> Result<Verdict, VerifyError> {
        let task = TaskFields::parse(&task).map_err(|e| VerifyError::InvalidTask(e.0))?;
        let sandbox = HostSandbox::from_task(&task).map_err(|e| VerifyError::InvalidTask(e.0))?;
        let j = judge(&task, &completion, &sandbox).map_err(|e| match e {
            GradeError::InvalidTask(m) => VerifyError::InvalidTask(m),
            GradeError::Failed(m) => VerifyError::Failed(m),
        })?;
        Ok(Verdict {
            score: j.score,
            passed: j.passed,
            detail: j.detail,
            cases: j
                .cases
                .into_iter()
                .map(|c| types::CaseVerdict {
                    score: f64::from(u8::from(c.status == CaseStatus::Passed)),
                    id: c.id,
                    status: c.status.into(),
                    detail: c.detail,
                })
                .collect(),
        })
    }
}

export!(CodeVerifier);
