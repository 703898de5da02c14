//! `numeric`: the final number of the completion against the reference, within a tolerance.
//!
//! Recognised number forms: `42`, `-3.5`, `.5`, `1,234,567.5` (comma thousands separators),
//! `-3.5e2`, fractions `3/4` and `\frac{3}{4}` (also `\dfrac`, `\tfrac`). A minus sign counts only
//! when it is not glued to a preceding letter or digit, so `5-3` reads as 5 and 3. A trailing `%`
//! is ignored (`50%` reads as 50).
//!
//! Tolerance: `"tolerance"` (default 1e-6) sets both the absolute and the relative tolerance;
//! `"abs_tolerance"` and `"rel_tolerance"` set either one. The completion passes when
//! `|x - ref| <= abs_tolerance` or `|x - ref| <= rel_tolerance * |ref|`.

use crate::Judgement;
use guest_common::{FieldError, TaskFields};

/// Default absolute and relative tolerance.
pub const DEFAULT_TOLERANCE: f64 = 1e-6;

/// A number found in text, with the text it was read from.
#[derive(Debug, Clone, PartialEq)]
pub struct FoundNumber {
    /// Its value.
    pub value: f64,
    /// The text it was read from, as written.
    pub text: String,
    /// Byte range in the text it was found in.
    pub span: (usize, usize),
}

/// Every number in `text`, in order of appearance.
///
/// A hand-written scanner rather than a regular expression: a verifier runs in a fresh instance
/// for every completion, and compiling a pattern there would cost more than the whole comparison.
pub fn numbers_in(text: &str) -> Vec<FoundNumber> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'\\'
            && let Some((value, end)) = latex_fraction(bytes, i)
        {
            push(&mut found, text, i, end, value);
            i = end;
            continue;
        }
        let starts_number =
            bytes[i].is_ascii_digit() || (bytes[i] == b'.' && digit_at(bytes, i + 1));
        if !starts_number {
            i += 1;
            continue;
        }
        let (value, end) = plain_number(bytes, i);
        let start = sign_start(text, i);
        let value = if start < i { value.map(|v| -v) } else { value };
        if let Some(v) = value {
            push(&mut found, text, start, end, v);
        }
        i = end;
    }
    found
}

fn push(found: &mut Vec<FoundNumber>, text: &str, start: usize, end: usize, value: f64) {
    if value.is_finite() {
        found.push(FoundNumber {
            value,
            text: text[start..end].to_string(),
            span: (start, end),
        });
    }
}

fn digit_at(bytes: &[u8], i: usize) -> bool {
    bytes.get(i).is_some_and(u8::is_ascii_digit)
}

fn digits_end(bytes: &[u8], mut i: usize) -> usize {
    while digit_at(bytes, i) {
        i += 1;
    }
    i
}

fn spaces_end(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        i += 1;
    }
    i
}

/// Where a number starting at `digits` really starts: at a minus sign right before it, unless the
/// sign is glued to a letter or digit (`5-3`, `x-1`), in which case it is an operator.
fn sign_start(text: &str, digits: usize) -> usize {
    let before = &text[..digits];
    let sign_len = if before.ends_with('-') {
        1
    } else if before.ends_with('−') {
        '−'.len_utf8()
    } else {
        return digits;
    };
    let glued = before[..digits - sign_len]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric());
    if glued { digits } else { digits - sign_len }
}

/// `42`, `1,234.5`, `.5`, `-3.5e2` (sign handled by the caller), or `3/4`, starting at `start`.
/// Returns the value (None for `n/0`) and where the number ends.
fn plain_number(bytes: &[u8], start: usize) -> (Option<f64>, usize) {
    let mut end = digits_end(bytes, start);
    let mut digits: String = String::from_utf8_lossy(&bytes[start..end]).into_owned();
    // Thousands separators: `1,234,567`, only after 1 to 3 leading digits, groups of exactly 3.
    if (1..=3).contains(&(end - start)) {
        while bytes.get(end) == Some(&b',') && digits_end(bytes, end + 1) == end + 4 {
            digits.push_str(std::str::from_utf8(&bytes[end + 1..end + 4]).expect("ascii digits"));
            end += 4;
        }
    }
    let mut decimal = false;
    if bytes.get(end) == Some(&b'.') && digit_at(bytes, end + 1) {
        let fraction_end = digits_end(bytes, end + 1);
        digits.push_str(std::str::from_utf8(&bytes[end..fraction_end]).expect("ascii digits"));
        end = fraction_end;
        decimal = true;
    }
    if matches!(bytes.get(end), Some(b'e' | b'E')) {
        let mut j = end + 1;
        if matches!(bytes.get(j), Some(b'+' | b'-')) {
            j += 1;
        }
        if digit_at(bytes, j) {
            let exponent_end = digits_end(bytes, j);
            digits.push_str(std::str::from_utf8(&bytes[end..exponent_end]).expect("ascii"));
            return (digits.parse().ok(), exponent_end);
        }
    }
    if !decimal {
        let slash = spaces_end(bytes, end);
        if bytes.get(slash) == Some(&b'/') {
            let denominator = spaces_end(bytes, slash + 1);
            if digit_at(bytes, denominator) {
                let denominator_end = digits_end(bytes, denominator);
                let den = std::str::from_utf8(&bytes[denominator..denominator_end])
                    .expect("ascii digits");
                return (ratio(&digits, den), denominator_end);
            }
        }
    }
    (digits.parse().ok(), end)
}

/// `\frac{3}{4}`, `\dfrac{-1}{8}`, `\tfrac{1}{2}` at `start`: the value and where it ends.
fn latex_fraction(bytes: &[u8], start: usize) -> Option<(f64, usize)> {
    let rest = &bytes[start..];
    let command_len = [&b"\\frac"[..], b"\\dfrac", b"\\tfrac"]
        .iter()
        .find(|c| rest.starts_with(c))?
        .len();
    let (numerator, after) = braced_integer(bytes, start + command_len, true)?;
    let (denominator, end) = braced_integer(bytes, after, false)?;
    Some((ratio(&numerator, &denominator)?, end))
}

/// `{ -12 }` at `start`: the integer's text and where the group ends.
fn braced_integer(bytes: &[u8], start: usize, allow_minus: bool) -> Option<(String, usize)> {
    if bytes.get(start) != Some(&b'{') {
        return None;
    }
    let mut i = spaces_end(bytes, start + 1);
    let first = i;
    if allow_minus && bytes.get(i) == Some(&b'-') {
        i += 1;
    }
    if !digit_at(bytes, i) {
        return None;
    }
    let digits_stop = digits_end(bytes, i);
    let close = spaces_end(bytes, digits_stop);
    (bytes.get(close) == Some(&b'}')).then(|| {
        (
            String::from_utf8_lossy(&bytes[first..digits_stop]).into_owned(),
            close + 1,
        )
    })
}

fn ratio(numerator: &str, denominator: &str) -> Option<f64> {
    let n: f64 = numerator.parse().ok()?;
    let d: f64 = denominator.parse().ok()?;
    (d != 0.0).then(|| n / d)
}

/// The last number in `text`, the model's final answer by convention.
pub fn final_number(text: &str) -> Option<FoundNumber> {
    numbers_in(text).pop()
}

/// Another answer offered right before the final number (`400 or 391`, `391, 400`, `3 and 4`): a
/// hedge, which is not an answer.
pub fn hedged_with(text: &str) -> Option<FoundNumber> {
    let mut numbers = numbers_in(text);
    let last = numbers.pop()?;
    let previous = numbers.pop()?;
    // Formatting between the two (`$`, `\\boxed{`, braces, spaces) does not count.
    let between: String = text[previous.span.1..last.span.0]
        .to_ascii_lowercase()
        .replace("\\boxed", "")
        .replace("\\text", "")
        .chars()
        .filter(|c| {
            !matches!(c, '$' | '\\' | '{' | '}' | '(' | ')' | '[' | ']') && !c.is_whitespace()
        })
        .collect();
    let connector = matches!(
        between.as_str(),
        "" | "or" | "and" | "," | ",or" | "ormaybe" | "and/or" | ";"
    );
    (connector && previous.value != last.value).then_some(previous)
}

/// Whether `x` is within the tolerances of `reference`.
pub fn within(x: f64, reference: f64, abs_tolerance: f64, rel_tolerance: f64) -> bool {
    let diff = (x - reference).abs();
    diff <= abs_tolerance || diff <= rel_tolerance * reference.abs()
}

/// Judges the completion's final number against the reference's.
pub fn judge(task: &TaskFields, completion: &str) -> Result<Judgement, FieldError> {
    let references = task.required_answers("reference")?;
    let tolerance = task
        .optional_non_negative("tolerance")?
        .unwrap_or(DEFAULT_TOLERANCE);
    let abs_tolerance = task
        .optional_non_negative("abs_tolerance")?
        .unwrap_or(tolerance);
    let rel_tolerance = task
        .optional_non_negative("rel_tolerance")?
        .unwrap_or(tolerance);
    let reference_values = references
        .iter()
        .map(|r| final_number(r).map(|n| n.value))
        .collect::<Option<Vec<f64>>>()
        .ok_or_else(|| FieldError::new("reference", "contains no number"))?;
    let Some(answer) = final_number(completion) else {
        return Ok(Judgement::fail("no number found in the completion"));
    };
    if let Some(other) = hedged_with(completion) {
        return Ok(Judgement::fail(format!(
            "several answers ({} and {}): not one final answer",
            other.text, answer.text
        )));
    }
    Ok(
        match reference_values
            .iter()
            .find(|&&r| within(answer.value, r, abs_tolerance, rel_tolerance))
        {
            Some(r) => Judgement::pass(format!(
                "final number {} is within tolerance of {r}",
                answer.text
            )),
            None => Judgement::fail(format!(
                "final number {} differs from the reference by more than the tolerance",
                answer.text
            )),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hedged_answers_are_detected() {
        assert!(hedged_with("it is 400 or 391").is_some());
        assert!(hedged_with("391, 400").is_some());
        assert!(hedged_with("17 * 23 = 391").is_none());
        assert!(hedged_with("between 3 and 3").is_none());
        assert!(hedged_with("391").is_none());
        assert!(hedged_with("$\\boxed{392}$ or $\\boxed{391}$").is_some());
        assert!(hedged_with("\\boxed{3}\\boxed{4}").is_some());
        assert!(hedged_with("3 + 4 = 7").is_none());
    }

    fn value(text: &str) -> Option<f64> {
        final_number(text).map(|n| n.value)
    }

    #[test]
    fn reads_the_documented_forms() {
        assert_eq!(value("391"), Some(391.0));
        assert_eq!(value("the total is 1,234 apples"), Some(1234.0));
        assert_eq!(value("1,234,567.25"), Some(1234567.25));
        assert_eq!(value("x = -3.5e2"), Some(-350.0));
        assert_eq!(value("about 3/4 of them"), Some(0.75));
        assert_eq!(value(r"$\frac{3}{4}$"), Some(0.75));
        assert_eq!(value(r"\dfrac{-1}{8}"), Some(-0.125));
        assert_eq!(value(".5"), Some(0.5));
        assert_eq!(value("50%"), Some(50.0));
        assert_eq!(value("The answer is 42."), Some(42.0));
        assert_eq!(value("no digits here"), None);
    }

    #[test]
    fn takes_the_last_number_and_reads_minus_carefully() {
        assert_eq!(value("first 3, then 4"), Some(4.0));
        assert_eq!(value("5-3"), Some(3.0));
        assert_eq!(value("x-1"), Some(1.0));
        assert_eq!(value("it is -7"), Some(-7.0));
        assert_eq!(value("1,2,3"), Some(3.0));
        assert_eq!(value("1,2345"), Some(2345.0));
        assert_eq!(value("x−4"), Some(4.0));
        assert_eq!(value("t = −4"), Some(-4.0));
        assert_eq!(value("3 / 4"), Some(0.75));
        assert_eq!(value("2e"), Some(2.0));
        assert_eq!(value("1/0"), None); // an undefined ratio is no number
    }

    #[test]
    fn compares_with_absolute_and_relative_tolerance() {
        assert!(within(391.0000001, 391.0, 1e-6, 1e-6));
        assert!(!within(400.0, 391.0, 1e-6, 1e-6));
        assert!(within(1.0e12 + 1.0, 1.0e12, 0.0, 1e-6)); // relative
        assert!(!within(1.0e-9, 2.0e-9, 0.0, 1e-6));
        assert!(within(0.0, 0.0, 0.0, 0.0));
    }

    #[test]
    fn judges_a_task() {
        let task = TaskFields::parse(r#"{"reference": "391", "tolerance": 1e-6}"#).unwrap();
        assert!(judge(&task, "391").unwrap().passed);
        assert!(judge(&task, "so 391.0000001").unwrap().passed);
        assert!(!judge(&task, "400").unwrap().passed);
        let none = judge(&task, "I don't know").unwrap();
        assert_eq!(none.detail, "no number found in the completion");
        let bad = TaskFields::parse(r#"{"reference": "abc"}"#).unwrap();
        assert_eq!(
            judge(&bad, "1").unwrap_err().0,
            "\"reference\" contains no number"
        );
        let neg = TaskFields::parse(r#"{"reference": 1, "tolerance": -1}"#).unwrap();
        assert!(judge(&neg, "1").unwrap_err().0.starts_with("\"tolerance\""));
    }
}
