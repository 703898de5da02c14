//! `exact`: the completion equals the reference (or one of the references) after trimming.

use crate::Judgement;
use guest_common::{FieldError, TaskFields};

/// Judges `completion` by exact comparison with `reference` after trimming surrounding whitespace.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let references = task.required_answers("reference")?;
    let answer = completion.trim();
    Ok(if references.iter().any(|r| r.trim() == answer) {
        Judgement::pass("equals the reference")
    } else {
        Judgement::fail("differs from the reference")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(task: &str, completion: &str) -> bool {
        judge(&TaskFields::parse(task).unwrap(), completion)
            .unwrap()
            .passed
    }

    #[test]
    fn trims_but_is_otherwise_exact() {
        assert!(run(r#"{"reference": "Paris"}"#, "  Paris\n"));
        assert!(!run(r#"{"reference": "Paris"}"#, "paris"));
        assert!(!run(r#"{"reference": "Paris"}"#, "Paris."));
        assert!(run(
            r#"{"reference": ["Paris", "Paris, France"]}"#,
            "Paris, France"
        ));
        assert!(run(r#"{"reference": 391}"#, "391"));
    }

    #[test]
    fn missing_reference_is_a_task_error() {
        let err = judge(&TaskFields::parse("{}").unwrap(), "x").unwrap_err();
        assert_eq!(err.0, "\"reference\" is missing");
    }
}
