//! `normalized`: the completion equals a reference after folding case, whitespace, surrounding
//! punctuation and unicode compatibility forms (NFKC).

use crate::Judgement;
use guest_common::{FieldError, TaskFields};
use unicode_normalization::UnicodeNormalization;

/// Characters stripped from both ends of an answer, besides white space.
fn is_surrounding_punctuation(c: char) -> bool {
    matches!(
        c,
        '.' | ','
            | ';'
            | ':'
            | '!'
            | '?'
            | '\''
            | '"'
            | '`'
            | '('
            | ')'
            | '['
            | ']'
            | '{'
            | '}'
            | '«'
            | '»'
            | '‹'
            | '›'
            | '“'
            | '”'
            | '„'
            | '‘'
            | '’'
            | '‚'
            | '…'
            | '¡'
            | '¿'
            | '。'
            | '、'
            | '-'
            | '–'
            | '—'
            | '*'
            | '_'
    )
}

/// Folds `text` to its comparison form: NFKC, lower case, runs of white space as one space, and
/// no white space or punctuation at either end.
pub fn normalize(text: &str) -> String {
    let folded: String = text.nfkc().collect::<String>().to_lowercase();
    let words: Vec<&str> = folded.split_whitespace().collect();
    words
        .join(" ")
        .trim_matches(|c: char| c.is_whitespace() || is_surrounding_punctuation(c))
        .to_string()
}

/// Judges `completion` by comparing normalized forms with each reference.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let references = task.required_answers("reference")?;
    let answer = normalize(completion);
    Ok(if references.iter().any(|r| normalize(r) == answer) {
        Judgement::pass("equals the reference after normalization")
    } else {
        Judgement::fail(format!(
            "normalized answer {answer:?} differs from the reference"
        ))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds_case_space_punctuation_and_compatibility_forms() {
        assert_eq!(normalize("  The   Eiffel\tTower. "), "the eiffel tower");
        assert_eq!(normalize("“Paris!”"), "paris");
        assert_eq!(normalize("ＰＡＲＩＳ"), "paris"); // full-width letters fold under NFKC
        assert_eq!(normalize("ﬁne"), "fine"); // the ligature fi
        assert_eq!(normalize("x² "), "x2");
    }

    #[test]
    fn keeps_inner_punctuation_and_distinct_words() {
        assert_eq!(normalize("St. Louis"), "st. louis");
        assert_ne!(normalize("New York"), normalize("NewYork"));
    }

    #[test]
    fn judges_against_any_reference() {
        let task = TaskFields::parse(r#"{"reference": ["New York City", "NYC"]}"#).unwrap();
        assert!(judge(&task, "new york city.").unwrap().passed);
        assert!(judge(&task, "(nyc)").unwrap().passed);
        assert!(!judge(&task, "Boston").unwrap().passed);
    }
}
