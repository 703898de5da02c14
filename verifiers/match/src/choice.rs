//! `choice`: a multiple-choice letter against the reference letter.
//!
//! The letter is read from, in this order of precedence: `\boxed{B}`; "answer is B", "answer: (B)";
//! a completion that is only a letter (`B`, `(B)`, `B.`); the last `(B)`; the last line that starts
//! with `B.` or `B)`. A completion that offers two different letters where the answer is read
//! ("the answer is B or C", `\boxed{B} \boxed{C}`) is rejected: it names no single choice.

use crate::Judgement;
use guest_common::{FieldError, TaskFields};

/// What the completion names as its choice.
#[derive(Debug, Clone, PartialEq)]
pub enum Choice {
    /// One letter, upper case.
    Letter(char),
    /// Several different letters where one was expected.
    Several(Vec<char>),
    /// No letter could be read.
    None,
}

/// A letter read from the text, and the byte offset just after it.
type Found = (char, usize);

/// Reads the choice named in `text`. A hand-written reader rather than regular expressions: the
/// verifier runs in a fresh instance per completion, where compiling patterns would dominate.
pub fn extract(text: &str) -> Choice {
    let boxed = boxed_letters(text);
    if let Some(&(last, _)) = boxed.last() {
        let mut offered: Vec<char> = boxed.iter().map(|f| f.0).collect();
        offered.sort_unstable();
        offered.dedup();
        return if offered.len() == 1 {
            Choice::Letter(last)
        } else {
            Choice::Several(offered)
        };
    }
    let weaker = [
        after_answer(text),
        whole_letter(text),
        last_parenthesized(text),
        last_line_start(text),
    ];
    let Some((letter, end)) = weaker.into_iter().flatten().next() else {
        return Choice::None;
    };
    match alternative_after(&text[end..]) {
        Some(other) if other != letter => {
            let mut offered = vec![letter, other];
            offered.sort_unstable();
            Choice::Several(offered)
        }
        _ => Choice::Letter(letter),
    }
}

/// Whether `b` may follow a choice letter: closing brackets, punctuation, white space.
fn ends_letter(b: Option<&u8>) -> bool {
    b.is_none_or(|b| b")].:,;!".contains(b) || b.is_ascii_whitespace())
}

fn skip_spaces(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// `word` at `i`, case-insensitively: the offset after it.
fn skip_word(bytes: &[u8], i: usize, word: &str) -> Option<usize> {
    let end = i + word.len();
    (bytes.len() >= end && bytes[i..end].eq_ignore_ascii_case(word.as_bytes())).then_some(end)
}

/// An upper-case letter at `i` (after an optional `(` or `[`) that ends where a letter should.
fn upper_letter_at(bytes: &[u8], i: usize) -> Option<Found> {
    let i = if matches!(bytes.get(i), Some(b'(' | b'[')) {
        i + 1
    } else {
        i
    };
    let b = *bytes.get(i)?;
    (b.is_ascii_uppercase() && ends_letter(bytes.get(i + 1))).then_some((b as char, i + 1))
}

/// Letters in `\boxed{...}` or `\fbox{...}`, also `\boxed{\text{B}}` and `\boxed{(B)}`.
fn boxed_letters(text: &str) -> Vec<Found> {
    let mut found = Vec::new();
    for command in ["\\boxed{", "\\fbox{"] {
        let mut from = 0;
        while let Some(at) = text[from..].find(command) {
            let open = from + at + command.len();
            let Some(close) = matching_brace(text, open) else {
                break;
            };
            let mut inner = text[open..close].trim();
            for wrapper in ["\\textbf{", "\\text{", "\\mathrm{"] {
                if let Some(rest) = inner
                    .strip_prefix(wrapper)
                    .and_then(|r| r.strip_suffix('}'))
                {
                    inner = rest.trim();
                }
            }
            let inner = inner
                .trim_start_matches(['(', '['])
                .trim_end_matches([')', ']', '.'])
                .trim();
            let mut chars = inner.chars();
            if let (Some(c), None) = (chars.next(), chars.next())
                && c.is_ascii_alphabetic()
            {
                found.push((c.to_ascii_uppercase(), close));
            }
            from = close;
        }
    }
    found.sort_by_key(|f| f.1);
    found
}

/// The offset of the `}` that closes the group opened just before `open`.
fn matching_brace(text: &str, open: usize) -> Option<usize> {
    let mut depth = 1usize;
    for (offset, b) in text.as_bytes()[open..].iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + offset);
                }
            }
            _ => {}
        }
    }
    None
}

/// The last "answer is B", "Answer: (C)", "answer is option D".
fn after_answer(text: &str) -> Option<Found> {
    let bytes = text.as_bytes();
    let lower = text.to_ascii_lowercase();
    let mut last = None;
    for (at, _) in lower.match_indices("answer") {
        let mut i = skip_spaces(bytes, at + "answer".len());
        if let Some(after) = skip_word(bytes, i, "is") {
            i = skip_spaces(bytes, after);
        }
        if bytes.get(i) == Some(&b':') {
            i = skip_spaces(bytes, i + 1);
        }
        for word in ["option", "choice"] {
            if let Some(after) = skip_word(bytes, i, word) {
                i = skip_spaces(bytes, after);
            }
        }
        if let Some(found) = upper_letter_at(bytes, i) {
            last = Some(found);
        }
    }
    last
}

/// A completion that is only a letter: `B`, `(B)`, `b.`.
fn whole_letter(text: &str) -> Option<Found> {
    let trimmed = text.trim();
    let inner = trimmed
        .trim_end_matches(['.', ':'])
        .trim_start_matches(['(', '['])
        .trim_end_matches([')', ']']);
    let mut chars = inner.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some((c.to_ascii_uppercase(), text.len())),
        _ => None,
    }
}

/// The last `(B)`.
fn last_parenthesized(text: &str) -> Option<Found> {
    let bytes = text.as_bytes();
    bytes.windows(3).enumerate().rev().find_map(|(i, w)| {
        (w[0] == b'(' && w[1].is_ascii_uppercase() && w[2] == b')').then_some((w[1] as char, i + 2))
    })
}

/// The last line that starts with `B.` or `B)`.
fn last_line_start(text: &str) -> Option<Found> {
    let mut offset = 0;
    let mut last = None;
    for line in text.split_inclusive('\n') {
        let bytes = line.as_bytes();
        let i = skip_spaces(bytes, 0);
        if let (Some(&b), Some(b'.' | b')')) = (bytes.get(i), bytes.get(i + 1))
            && b.is_ascii_uppercase()
            && ends_letter(bytes.get(i + 2))
        {
            last = Some((b as char, offset + i + 1));
        }
        offset += line.len();
    }
    last
}

/// Another letter offered right after the answer's: "B or C", "B, C", "B/C", "B and C".
fn alternative_after(rest: &str) -> Option<char> {
    let bytes = rest.as_bytes();
    let mut i = if matches!(bytes.first(), Some(b')' | b']')) {
        1
    } else {
        0
    };
    i = skip_spaces(bytes, i);
    let joiner = ["or", "and", "/", ",", "&"]
        .iter()
        .find_map(|w| skip_word(bytes, i, w))?;
    let i = skip_spaces(bytes, joiner);
    upper_letter_at(bytes, i).map(|(c, _)| c)
}

/// Reads the reference letter: `B`, `(B)`, `B.`, case-insensitive.
fn reference_letter(reference: &str) -> Option<char> {
    let trimmed = reference
        .trim()
        .trim_matches(|c| matches!(c, '(' | ')' | '[' | ']' | '.' | ':'));
    let mut chars = trimmed.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_alphabetic() => Some(c.to_ascii_uppercase()),
        _ => None,
    }
}

/// Judges the letter the completion names against the reference letter.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let references = task.required_answers("reference")?;
    let accepted = references
        .iter()
        .map(|r| reference_letter(r))
        .collect::<Option<Vec<char>>>()
        .ok_or_else(|| {
            FieldError::new(
                "reference",
                "must be a single letter such as \"B\" or \"(B)\"",
            )
        })?;
    Ok(match extract(completion) {
        Choice::Letter(c) if accepted.contains(&c) => Judgement::pass(format!("chose {c}")),
        Choice::Letter(c) => Judgement::fail(format!("chose {c}")),
        Choice::Several(cs) => Judgement::fail(format!(
            "offers several choices ({}), not one",
            cs.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        Choice::None => Judgement::fail("no choice letter found in the completion"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_documented_forms() {
        assert_eq!(extract("(B)"), Choice::Letter('B'));
        assert_eq!(extract("B."), Choice::Letter('B'));
        assert_eq!(extract("b"), Choice::Letter('B'));
        assert_eq!(
            extract("After thinking, the answer is B because..."),
            Choice::Letter('B')
        );
        assert_eq!(extract("Answer: (C)"), Choice::Letter('C'));
        assert_eq!(extract(r"so $\boxed{D}$"), Choice::Letter('D'));
        assert_eq!(extract(r"\boxed{\text{A}}"), Choice::Letter('A'));
        assert_eq!(
            extract("Options (A) and (B) are wrong; it must be (C)"),
            Choice::Letter('C')
        );
        assert_eq!(extract("I think:\nA. no\nC. yes"), Choice::Letter('C'));
        assert_eq!(extract("I cannot tell"), Choice::None);
    }

    #[test]
    fn boxed_wins_over_prose() {
        assert_eq!(
            extract(r"The answer is A. Wait, no: \boxed{B}"),
            Choice::Letter('B')
        );
    }

    #[test]
    fn several_letters_are_not_one_choice() {
        assert_eq!(
            extract("the answer is B or C"),
            Choice::Several(vec!['B', 'C'])
        );
        assert_eq!(
            extract(r"\boxed{B} \boxed{C}"),
            Choice::Several(vec!['B', 'C'])
        );
        assert_eq!(extract(r"\boxed{B} so \boxed{B}"), Choice::Letter('B'));
    }

    #[test]
    fn judges_against_the_reference() {
        let task = TaskFields::parse(r#"{"reference": "(B)"}"#).unwrap();
        assert!(judge(&task, "The answer is B").unwrap().passed);
        assert!(!judge(&task, "The answer is C").unwrap().passed);
        assert!(!judge(&task, "The answer is B or C").unwrap().passed);
        let bad = TaskFields::parse(r#"{"reference": "banana"}"#).unwrap();
        assert!(
            judge(&bad, "B")
                .unwrap_err()
                .0
                .starts_with("\"reference\" must be a single letter")
        );
    }
}
