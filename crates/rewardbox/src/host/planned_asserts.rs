//! Planned asserts, run by the host: the calls of an [`AssertsPlan`] made in the candidate's
//! sandbox, and their results compared here with Python's `==` on plain values, giving the
//! verdict the checking sandbox (`rb_asserts.run`) would give, case for case and word for word,
//! with one sandbox per completion instead of two.
//!
//! Wherever this module cannot be sure of the checking sandbox's answer (a result it cannot read
//! or show exactly, a handle whose truth the candidate decides, the host failing a run) it gives
//! no verdict, and the asserts run live.

use crate::host::asserts_plan::{AssertsPlan, CallArgs, Op, Shown, Test};
use crate::host::live::LiveCandidate;
use crate::runners::bindings::types::{
    self, CallError, CaseStatus, CaseVerdict, Raised, RunOutcome, RunStatus, Target, Verdict,
};
use rewardbox_python_values::{Value, head, preview, splitlines, str_repr, strip};
use serde_json::Value as Json;

/// What an asserts task gives a plan, read as the checking sandbox reads it.
#[derive(Debug, Clone)]
pub struct PlannedTask {
    /// `entry_point`.
    pub entry: String,
    /// `setup`, when set.
    pub setup: Option<String>,
    /// `language`, `python` when unset.
    pub language: String,
    /// `candidate_limits`.
    pub limits: types::Limits,
}

impl PlannedTask {
    /// The task's parts, or `None` when the task holds something only the checking sandbox can
    /// judge (limits that are not plain non-negative integers, a setup that is not text).
    pub fn read(task: &str) -> Option<PlannedTask> {
        let Ok(Json::Object(task)) = serde_json::from_str::<Json>(task) else {
            return None;
        };
        let entry = task.get("entry_point")?.as_str()?.to_string();
        let setup = match task.get("setup") {
            None | Some(Json::Null) => None,
            Some(Json::String(s)) if s.is_empty() => None,
            Some(Json::String(s)) => Some(s.clone()),
            Some(_) => return None,
        };
        let language = match task.get("language") {
            None | Some(Json::Null) => "python".to_string(),
            Some(Json::String(s)) if s.is_empty() => "python".to_string(),
            Some(Json::String(s)) => s.clone(),
            Some(_) => return None,
        };
        let limits = limits(task.get("candidate_limits"))?;
        Some(PlannedTask {
            entry,
            setup,
            language,
            limits,
        })
    }
}

/// `rb_proxy.limits_from`: an unset or empty spec is the host's defaults; each field a plain
/// non-negative integer that fits its WIT type.
fn limits(spec: Option<&Json>) -> Option<types::Limits> {
    let none = types::Limits {
        fuel: None,
        wall_ms: None,
        memory_bytes: None,
        output_bytes: None,
    };
    let spec = match spec {
        None | Some(Json::Null) | Some(Json::Bool(false)) => return Some(none),
        Some(Json::Object(spec)) if spec.is_empty() => return Some(none),
        Some(Json::Object(spec)) => spec,
        _ => return None,
    };
    // `None` outer: a field the host cannot take as is; `Some(None)`: unset.
    let field = |name: &str| -> Option<Option<u64>> {
        match spec.get(name) {
            None | Some(Json::Null) => Some(None),
            Some(Json::Number(n)) => n.as_u64().map(Some),
            Some(_) => None,
        }
    };
    let small = |n: Option<u64>| -> Option<Option<u32>> {
        match n {
            None => Some(None),
            Some(n) => u32::try_from(n).ok().map(Some),
        }
    };
    let memory = match field("memory_mb")? {
        Some(mb) => Some(mb.checked_mul(1 << 20)?),
        None => None,
    };
    Some(types::Limits {
        fuel: field("fuel")?,
        wall_ms: small(field("wall_ms")?)?,
        memory_bytes: memory,
        output_bytes: small(field("output_bytes")?)?,
    })
}

/// Why a call (or the loading) failed, as the checking sandbox shows it: the case status and
/// `str()` of the exception it raises.
struct Failure {
    status: CaseStatus,
    text: String,
}

/// The outcome of each case so far: unset (never ran), passed, or its first failure.
type CaseResult = Option<Result<(), (CaseStatus, String)>>;

/// Runs `plan` against the candidate `open` starts; the verdict, or `None` when only the
/// checking sandbox can give it.
pub fn run_plan(
    plan: &AssertsPlan,
    entry: &str,
    open: impl FnOnce() -> Result<LiveCandidate, CallError>,
) -> Option<Verdict> {
    let mut live = match open() {
        Ok(live) => live,
        Err(error) => {
            let failure = failure(plan, error)?;
            let detail = format!("loading the program failed: {}", preview(&failure.text));
            return Some(verdict(vec![(
                "program".to_string(),
                failure.status,
                detail,
            )]));
        }
    };
    let has_entry = live.members().iter().any(|m| m.name == entry);
    let mut call = |args: &CallArgs| -> Option<Result<Value, Failure>> {
        if !has_entry {
            return Some(Err(Failure {
                status: CaseStatus::ExitedNonzero,
                text: plan.missing.clone(),
            }));
        }
        let target = Target {
            handle: None,
            name: entry.to_string(),
        };
        match live.call(&target, &args.args, &args.kwargs) {
            Ok(json) => rewardbox_python_values::parse(&json).ok().map(Ok),
            Err(error) => failure(plan, error).map(Err),
        }
    };
    let mut results: Vec<CaseResult> = vec![None; plan.cases.len()];
    for step in &plan.steps {
        let text = &plan.cases[step.case].1;
        let outcome = match call(&step.call)? {
            Err(failed) => Err((failed.status, preview(&format!("{text}: {}", failed.text)))),
            Ok(value) => judge(&step.test, &value, text, &mut call)?,
        };
        let result = &mut results[step.case];
        match outcome {
            Ok(()) if result.is_none() => *result = Some(Ok(())),
            Ok(()) => {}
            Err(failed) => {
                if !matches!(result, Some(Err(_))) {
                    *result = Some(Err(failed));
                }
            }
        }
    }
    let cases = plan
        .cases
        .iter()
        .zip(results)
        .enumerate()
        .filter_map(|(index, ((line, _), result))| {
            let id = if *line > 0 {
                format!("assert {} (line {line})", index + 1)
            } else {
                format!("assert {}", index + 1)
            };
            Some(match result? {
                Ok(()) => (id, CaseStatus::Passed, "held".to_string()),
                Err((status, detail)) => (id, status, detail),
            })
        })
        .collect();
    Some(verdict(cases))
}

/// Whether `value` passes `test`: `Ok`, or the failing case's status and detail; `None` when
/// only the checking sandbox can tell.
fn judge(
    test: &Test,
    value: &Value,
    text: &str,
    call: &mut impl FnMut(&CallArgs) -> Option<Result<Value, Failure>>,
) -> Option<Result<(), (CaseStatus, String)>> {
    match test {
        Test::Compare {
            op,
            call_left,
            value: literal,
            repr,
            again,
        } => {
            let holds = match op {
                Op::Eq => value.python_eq(literal),
                Op::NotEq => !value.python_eq(literal),
                Op::Is | Op::IsNot => {
                    let same = match literal {
                        Value::None => value.is_none(),
                        Value::Bool(true) => value.is_true(),
                        Value::Bool(false) => value.is_false(),
                        _ => return None,
                    };
                    same == (*op == Op::Is)
                }
            };
            if holds {
                return Some(Ok(()));
            }
            // The message's own call comes first; if it fails, that failure is the case's.
            if let Some(args) = again
                && let Err(failed) = call(args)?
            {
                let detail = preview(&format!("{text}: {}", failed.text));
                return Some(Err((failed.status, detail)));
            }
            let shown = value.repr()?;
            let (left, right) = if *call_left {
                (shown.as_str(), repr.as_str())
            } else {
                (repr.as_str(), shown.as_str())
            };
            let detail = preview(&format!("{text} (left: {left}, right: {right})"));
            Some(Err((CaseStatus::Wrong, detail)))
        }
        Test::Truth { negate, message } => {
            if value.truth()? != *negate {
                return Some(Ok(()));
            }
            let detail = match message {
                Some(message) => format!("{text} ({message})"),
                None => text.to_string(),
            };
            Some(Err((CaseStatus::Wrong, preview(&detail))))
        }
    }
}

/// How the checking sandbox shows a call error (`rb_proxy._error`), or `None` for what it would
/// not report as the candidate's failure (the host failing the run, a malformed request).
fn failure(plan: &AssertsPlan, error: CallError) -> Option<Failure> {
    match error {
        CallError::Raised(raised) => raised_failure(plan, &raised),
        CallError::Ended(outcome) => ended_failure(&outcome),
        CallError::Invalid(_) => None,
    }
}

/// `rb_proxy._raised`: a built-in exception type raised again on the owner's side, else a
/// `NotPlainData` or a named error.
fn raised_failure(plan: &AssertsPlan, raised: &Raised) -> Option<Failure> {
    let shown = raised
        .builtin
        .then(|| plan.raised.get(&raised.type_name))
        .flatten();
    let text = match shown {
        Some(Shown::Message) => raised.message.clone(),
        Some(Shown::Repr) => str_repr(&raised.message)?,
        Some(Shown::Named) | None if raised.type_name == "NotPlainData" => {
            return Some(Failure {
                status: CaseStatus::NotJson,
                text: raised.message.clone(),
            });
        }
        Some(Shown::Named) | None => format!("{}: {}", raised.type_name, raised.message),
    };
    Some(Failure {
        status: CaseStatus::ExitedNonzero,
        text,
    })
}

/// `rb_proxy.CandidateEnded`: how the candidate ended and the last line of its stderr.
fn ended_failure(outcome: &RunOutcome) -> Option<Failure> {
    let (status, what) = match outcome.status {
        RunStatus::Ok | RunStatus::ExitedNonzero => (
            CaseStatus::ExitedNonzero,
            match outcome.exit_code {
                Some(code) => format!("the candidate exited with code {code}"),
                None => "the candidate exited with code None".to_string(),
            },
        ),
        RunStatus::FuelExhausted => (CaseStatus::FuelExhausted, "fuel exhausted".into()),
        RunStatus::Timeout => (CaseStatus::Timeout, "timeout".into()),
        RunStatus::MemoryExceeded => (CaseStatus::MemoryExceeded, "memory exceeded".into()),
        RunStatus::OutputExceeded => (CaseStatus::OutputExceeded, "output exceeded".into()),
        RunStatus::Crashed => (CaseStatus::Crashed, "crashed".into()),
        RunStatus::CompileError => (CaseStatus::CompileError, "compile error".into()),
        // The host could not run it: never the candidate's failure.
        RunStatus::Unsupported => return None,
    };
    let what = match outcome.status {
        RunStatus::Ok | RunStatus::ExitedNonzero => what,
        _ => format!("the candidate {what}"),
    };
    let tail = splitlines(&outcome.stderr)
        .into_iter()
        .rev()
        .find(|line| !strip(line).is_empty());
    let text = match tail {
        Some(line) => format!("{what}: {}", head(strip(line), 300)),
        None => what,
    };
    Some(Failure { status, text })
}

/// `rb_verify._asserts_verdict`: the share of cases that held, and the first that did not.
fn verdict(cases: Vec<(String, CaseStatus, String)>) -> Verdict {
    let passed = cases
        .iter()
        .filter(|(_, status, _)| *status == CaseStatus::Passed)
        .count();
    let first = cases
        .iter()
        .find(|(_, status, _)| *status != CaseStatus::Passed);
    let mut detail = format!("{passed}/{} asserts held", cases.len());
    if let Some((id, _, why)) = first {
        detail.push_str(&format!("; {id}: {why}"));
    }
    Verdict {
        score: if cases.is_empty() {
            0.0
        } else {
            passed as f64 / cases.len() as f64
        },
        passed: first.is_none() && !cases.is_empty(),
        detail,
        cases: cases
            .into_iter()
            .map(|(id, status, detail)| CaseVerdict {
                id,
                score: if status == CaseStatus::Passed {
                    1.0
                } else {
                    0.0
                },
                status,
                detail,
            })
            .collect(),
    }
}
