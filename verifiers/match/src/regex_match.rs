//! `regex`: the completion must match `pattern`.
//!
//! By default the whole completion, trimmed of surrounding white space, must match; with
//! `"search": true` a match anywhere is enough. `"case_insensitive": true` folds case. Patterns
//! use the syntax of Rust's `regex` crate, which runs in linear time (no backtracking blow-up).

use crate::Judgement;
use guest_common::{FieldError, TaskFields};
use regex::RegexBuilder;

/// Largest compiled pattern accepted, in bytes.
const PATTERN_SIZE_LIMIT: usize = 1 << 22;

/// Judges the completion against the task's `pattern`.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let pattern = task.required_str("pattern")?;
    let search = task.optional_bool("search", false)?;
    let case_insensitive = task.optional_bool("case_insensitive", false)?;
    let anchored = if search {
        pattern.to_string()
    } else {
        format!(r"\A(?:{pattern})\z")
    };
    let regex = RegexBuilder::new(&anchored)
        .case_insensitive(case_insensitive)
        .size_limit(PATTERN_SIZE_LIMIT)
        .build()
        .map_err(|e| {
            FieldError::new("pattern", format!("is not a valid regular expression: {e}"))
        })?;
    let subject = if search {
        completion
    } else {
        completion.trim()
    };
    Ok(match (regex.is_match(subject), search) {
        (true, true) => Judgement::pass("the pattern occurs in the completion"),
        (true, false) => Judgement::pass("the completion matches the pattern"),
        (false, true) => Judgement::fail("the pattern does not occur in the completion"),
        (false, false) => Judgement::fail("the completion does not match the whole pattern"),
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
    fn full_match_by_default() {
        assert!(run(r#"{"pattern": "[0-9]+"}"#, " 123\n"));
        assert!(!run(r#"{"pattern": "[0-9]+"}"#, "x 123"));
        assert!(!run(r#"{"pattern": "a|b"}"#, "ab")); // the alternation is anchored as a whole
    }

    #[test]
    fn search_and_case_options() {
        assert!(run(r#"{"pattern": "[0-9]+", "search": true}"#, "x 123"));
        assert!(run(
            r#"{"pattern": "yes", "case_insensitive": true}"#,
            "YES"
        ));
        assert!(!run(r#"{"pattern": "yes"}"#, "YES"));
    }

    #[test]
    fn invalid_pattern_names_the_field() {
        let task = TaskFields::parse(r#"{"pattern": "("}"#).unwrap();
        assert!(
            judge(&task, "x")
                .unwrap_err()
                .0
                .starts_with("\"pattern\" is not a valid regular expression")
        );
    }
}
