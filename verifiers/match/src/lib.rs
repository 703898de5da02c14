//! Floor 1 of rewardbox: a built-in verifier component (the string verifiers).
//!
//! The string verifiers of rewardbox, in one component: `exact`, `normalized`, `numeric`, `regex`
//! and `choice`. The host passes the task's JSON; its `verifier` field picks the comparison.
//!
//! Each comparison lives in a module of its own and is a pure function from the task fields and
//! the completion to a [`Judgement`]; this file only adapts them to the `verifier` WIT world.

pub mod choice;
pub mod exact;
pub mod normalized;
pub mod numeric;
pub mod regex_match;

use guest_common::{FieldError, TaskFields};

wit_bindgen::generate!({
    path: "../../wit",
    world: "verifier",
});

/// What a comparison decided about one completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// Whether the completion is accepted (score 1) or not (score 0).
    pub passed: bool,
    /// A short human-readable reason.
    pub detail: String,
}

impl Judgement {
    /// An accepted completion.
    pub fn pass(detail: impl Into<String>) -> Self {
        Judgement {
            passed: true,
            detail: detail.into(),
        }
    }

    /// A rejected completion.
    pub fn fail(detail: impl Into<String>) -> Self {
        Judgement {
            passed: false,
            detail: detail.into(),
        }
    }
}

/// Judges `completion` against the task, dispatching on the task's `verifier` field.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    match task.required_str("verifier")? {
        "exact" => exact::judge(task, completion),
        "normalized" => normalized::judge(task, completion),
        "numeric" => numeric::judge(task, completion),
        "regex" => regex_match::judge(task, completion),
        "choice" => choice::judge(task, completion),
        other => Err(FieldError::new(
            "verifier",
            format!(
                "names \"{other}\", which this component does not implement (exact, normalized, numeric, regex, choice)"
            ),
        )),
    }
}

struct MatchVerifier;

impl Guest for MatchVerifier {
    fn verify(task: String, completion: String) -> Result<Verdict, VerifyError> {
        let task = TaskFields::parse(&task).map_err(|e| VerifyError::InvalidTask(e.0))?;
        let judgement = judge(&task, &completion).map_err(|e| VerifyError::InvalidTask(e.0))?;
        Ok(Verdict {
            score: if judgement.passed { 1.0 } else { 0.0 },
            passed: judgement.passed,
            detail: judgement.detail,
            cases: Vec::new(),
        })
    }
}

export!(MatchVerifier);
