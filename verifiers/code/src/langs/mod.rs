//! The candidate languages' program texts: each language's test-code program and server
//! (`c`, `cpp`, `rust`, `go`, `js`), the declarations of its types ([`types`], [`structs`]),
//! and the source scanning they share ([`source`]). Below the test kinds, which assemble them.

pub mod c;
pub mod cpp;
pub mod go;
pub mod js;
pub mod rust;
pub mod source;
pub mod structs;
pub mod types;

use guest_common::FieldError;
use rewardbox_languages::Language;

/// A case as the test code defines it: its id and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct StaticCase {
    /// The id reported by the trusted program (`line 7`, `tests::test_f`).
    pub id: String,
    /// The assert's text, or the test function's name.
    pub label: String,
}

impl StaticCase {
    /// The case of the test code's line `line` (1-based), whose text is `text`.
    pub fn line(line: usize, text: &str) -> StaticCase {
        StaticCase {
            id: format!("line {line}"),
            label: format!("`{text}` (line {line})"),
        }
    }
}

/// The canonical name of `language` (any spelling of the shared `languages` table), or an error
/// naming the field and what is accepted.
pub fn canonical_language(language: &str) -> Result<&'static str, FieldError> {
    if let Some(known) = Language::parse(language) {
        return Ok(known.name());
    }
    let supported: Vec<&str> = Language::ALL.iter().map(|l| l.name()).collect();
    if rewardbox_languages::has_no_runner(language) {
        return Err(FieldError::new(
            "language",
            format!(
                "is {language:?}, which has no runner yet (candidates can be written in {})",
                supported.join(", ")
            ),
        ));
    }
    Err(FieldError::new(
        "language",
        format!(
            "is {language:?}, which rewardbox does not know (use {})",
            supported.join(", ")
        ),
    ))
}
