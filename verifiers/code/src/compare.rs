//! Comparing a candidate's output with the expected one, on the verifier's side.

use serde_json::Value;

/// Whether `actual` stdout matches `expected` token by token (white space is not significant);
/// numeric tokens may differ by `tolerance` (absolute or relative) when one is given and at least
/// one of the two is not an integer: two integers are compared exactly, so `1000001` never
/// matches `1000000`, whatever the tolerance.
///
/// Reads both only as far as their first difference: what a program prints past it (a megabyte
/// of junk, say) costs the verifier nothing.
pub fn stdout_matches(actual: &str, expected: &str, tolerance: Option<f64>) -> bool {
    same_sequence(
        actual.split_whitespace(),
        expected.split_whitespace(),
        |x, y| x == y || tolerance.is_some_and(|t| floats_close(x, y, t)),
    )
}

/// Whether `a` and `b` have as many items, each pair `same`: read only up to the first pair
/// that is not, or the first item one of them has and the other does not.
fn same_sequence<T>(
    mut a: impl Iterator<Item = T>,
    mut b: impl Iterator<Item = T>,
    same: impl Fn(&T, &T) -> bool,
) -> bool {
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if same(&x, &y) => {}
            _ => return false,
        }
    }
}

/// Whether `token` is an integer as a program prints one: an optional sign and decimal digits.
fn is_integer(token: &str) -> bool {
    let digits = token.strip_prefix(['-', '+']).unwrap_or(token);
    !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

fn floats_close(x: &str, y: &str, tolerance: f64) -> bool {
    if is_integer(x) && is_integer(y) {
        return false;
    }
    match (x.parse::<f64>(), y.parse::<f64>()) {
        (Ok(a), Ok(b)) if a.is_finite() && b.is_finite() => within(a, b, tolerance),
        _ => false,
    }
}

pub(crate) fn within(a: f64, b: f64, tolerance: f64) -> bool {
    let diff = (a - b).abs();
    diff <= tolerance || diff <= tolerance * a.abs().max(b.abs())
}

/// Whether `actual` stdout matches `expected` line by line, as LiveCodeBench grades stdin
/// programs: both trimmed, the same number of lines, and each pair of lines (trimmed) equal as
/// text or, when every white-space-separated token of both is a decimal number, equal in value
/// token by token (`1.50` is `1.5`, `1e3` is `1000`, `-0` is `0`; no tolerance, and a NaN equals
/// nothing). White space is Python's (`str.strip`, `str.split`).
///
/// Reads both only as far as their first difference, as [`stdout_matches`] does.
pub fn lines_match(actual: &str, expected: &str) -> bool {
    fn lines(text: &str) -> impl Iterator<Item = &str> {
        python_strip(text).split('\n').map(python_strip)
    }
    same_sequence(lines(actual), lines(expected), |x, y| {
        if x == y {
            return true;
        }
        let numbers = |line: &str| -> Option<Vec<Decimal>> {
            line.split(is_python_space)
                .filter(|t| !t.is_empty())
                .map(Decimal::parse)
                .collect()
        };
        match (numbers(x), numbers(y)) {
            (Some(p), Some(q)) => p.len() == q.len() && p.iter().zip(&q).all(|(m, n)| m.equals(n)),
            _ => false,
        }
    })
}

/// White space as Python's `str.isspace` sees it: Unicode's, and the four separators
/// `\x1c`-`\x1f`.
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

fn python_strip(text: &str) -> &str {
    text.trim_matches(is_python_space)
}

/// A number as Python's `decimal.Decimal` reads a string: its value, normalised, for equality.
#[derive(Debug, PartialEq)]
enum Decimal {
    /// Not a number: equal to nothing.
    NaN,
    /// An infinity, negative or not.
    Infinite { negative: bool },
    /// Zero (of either sign: `-0` equals `0`).
    Zero,
    /// `±d1d2...dn × 10^exponent`, `digits` without leading or trailing zeros.
    Finite {
        negative: bool,
        digits: String,
        exponent: i128,
    },
}

/// The largest adjusted exponent (of a number's first digit) CPython's `decimal` reads; past it,
/// `Decimal(text)` raises.
const DECIMAL_MAX_ADJUSTED_EXPONENT: i128 = 999_999_999_999_999_999;

impl Decimal {
    /// Reads `token` as CPython's `Decimal(token)` does: a sign, digits with an optional point, an
    /// optional exponent, `Inf`/`Infinity`/`NaN`/`sNaN` (with a payload) in any case, every `_`
    /// ignored; `None` when Python would raise. Only ASCII digits (Python also reads other
    /// scripts' decimal digits).
    fn parse(token: &str) -> Option<Decimal> {
        let token: String = token.chars().filter(|c| *c != '_').collect();
        let (negative, body) = match token.as_bytes().first()? {
            b'-' => (true, &token[1..]),
            b'+' => (false, &token[1..]),
            _ => (false, token.as_str()),
        };
        let lower = body.to_ascii_lowercase();
        if lower == "inf" || lower == "infinity" {
            return Some(Decimal::Infinite { negative });
        }
        for nan in ["snan", "nan"] {
            if let Some(payload) = lower.strip_prefix(nan) {
                return payload
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                    .then_some(Decimal::NaN);
            }
        }
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], Some(&body[at + 1..])),
            None => (body, None),
        };
        let exponent: i128 = match exponent {
            None => 0,
            Some(text) => {
                let (minus, digits) = match text.as_bytes().first()? {
                    b'-' => (true, &text[1..]),
                    b'+' => (false, &text[1..]),
                    _ => (false, text),
                };
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return None;
                }
                let digits = digits.trim_start_matches('0');
                // Longer than any exponent `decimal` reads (and than an i128 holds).
                if digits.len() > 30 {
                    return None;
                }
                let value: i128 = if digits.is_empty() {
                    0
                } else {
                    digits.parse().ok()?
                };
                if minus { -value } else { value }
            }
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let is_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if (whole.is_empty() && fraction.is_empty()) || !is_digits(whole) || !is_digits(fraction) {
            return None;
        }
        // The value is <whole><fraction> × 10^(exponent - len(fraction)).
        let all = format!("{whole}{fraction}");
        let significant = all.trim_start_matches('0');
        let last_digit_exponent = exponent - fraction.len() as i128;
        let adjusted = last_digit_exponent + significant.len().max(1) as i128 - 1;
        if adjusted > DECIMAL_MAX_ADJUSTED_EXPONENT {
            return None;
        }
        let trailing = significant.len() - significant.trim_end_matches('0').len();
        let significant = significant.trim_end_matches('0');
        if significant.is_empty() {
            return Some(Decimal::Zero);
        }
        Some(Decimal::Finite {
            negative,
            digits: significant.to_string(),
            exponent: last_digit_exponent + trailing as i128,
        })
    }

    /// `==` between two decimals: a NaN equals nothing, not even itself.
    fn equals(&self, other: &Decimal) -> bool {
        !matches!(self, Decimal::NaN) && self == other
    }
}

/// Whether two JSON values are equal as Python's `==` sees them: numbers by value (`1 == 1.0`),
/// lists element-wise, objects key by key; floats within `tolerance` when one is given.
pub fn values_equal(actual: &Value, expected: &Value, tolerance: Option<f64>) -> bool {
    match (actual, expected) {
        (Value::Number(a), Value::Number(b)) => {
            if let (Some(x), Some(y)) = (a.as_i64(), b.as_i64()) {
                return x == y;
            }
            if let (Some(x), Some(y)) = (a.as_u64(), b.as_u64()) {
                return x == y;
            }
            match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => x == y || tolerance.is_some_and(|t| within(x, y, t)),
                _ => false,
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| values_equal(x, y, tolerance))
        }
        (Value::Object(a), Value::Object(b)) => {
            a.len() == b.len()
                && a.iter()
                    .all(|(k, v)| b.get(k).is_some_and(|w| values_equal(v, w, tolerance)))
        }
        _ => actual == expected,
    }
}

/// A short rendering of a value or text for a case's detail.
pub fn preview(s: &str) -> String {
    let t: String = s.chars().take(120).collect();
    if t.len() < s.len() {
        format!("{t}…")
    } else {
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn stdout_is_compared_by_tokens() {
        assert!(stdout_matches("1 2\n3\n", "1 2 3", None));
        assert!(!stdout_matches("1 2", "1 2 3", None));
        assert!(!stdout_matches("0.3333", "0.33333333", None));
        assert!(stdout_matches("0.3333", "0.33333333", Some(1e-3)));
        assert!(!stdout_matches("PASSED", "42", Some(1.0)));
    }

    #[test]
    fn lines_compare_as_livecodebench_does() {
        // (actual, expected, matches): the rule of `lcb_runner`'s stdin grading, checked
        // against Python's `decimal` on each row.
        let table = [
            ("1 2\n3\n", "1 2\n3", true),
            ("  1 2  \n 3 ", "1 2\n3", true),
            ("1 2 3", "1 2\n3", false),     // the lines matter
            ("1\n\n2", "1\n2", false),      // a blank line inside is a line
            ("\n\n1\n2\n\n", "1\n2", true), // around the whole output it is not
            ("1\r\n2\r\n", "1\n2", true),
            ("1  2", "1 2", true),  // numbers: by value, token by token
            ("a  b", "a b", false), // text: as written
            ("1.50", "1.5", true),
            ("1e3", "1000", true),
            ("1E+3", "1000.000", true),
            ("-0", "0", true),
            ("0.000", "-0e5", true),
            ("1_000", "1000", true),
            ("1__000", "1000", true), // CPython's `decimal` drops every underscore
            ("_1", "1", true),
            ("_", "0", false),
            ("NaN12", "NaN12", true),
            ("NaN12", "NaN1", false),
            (".5", "0.5", true),
            ("5.", "5", true),
            (".", "0", false),
            ("0.1", "0.10000000001", false), // no tolerance
            ("0.3333", "0.33333333", false),
            ("Infinity", "inf", true),
            ("-inf", "inf", false),
            ("nan", "nan", true),  // as text
            ("nan", "NaN", false), // a NaN equals nothing
            ("YES", "yes", false),
            ("1 x", "1.0 x", false), // a line with a word is compared as text
            ("0x10", "16", false),
            (
                "12345678901234567890123",
                "1.2345678901234567890123e22",
                true,
            ),
            ("1e999999999999999999", "10e999999999999999998", true),
            ("0.001e1000000000000000001", "1e999999999999999998", true),
            ("1e1000000000000000000", "10e999999999999999999", false), // past decimal's reach
            ("100e999999999999999999", "1e1000000000000000001", false),
            ("", "", true),
            ("", "0", false),
        ];
        for (actual, expected, matches) in table {
            assert_eq!(
                lines_match(actual, expected),
                matches,
                "{actual:?} against {expected:?}"
            );
        }
    }

    #[test]
    fn a_tolerance_never_matches_two_different_integers() {
        // (actual, expected, tolerance, matches)
        let table = [
            ("1000001", "1000000", 1e-6, false),
            ("-1000001", "-1000000", 1e-6, false),
            ("+5", "5", 0.5, false), // as printed: a different token, and both integers
            ("3", "4", 1.0, false),
            ("1000000", "1000000", 1e-6, true),
            ("1000000.5", "1000000", 1e-6, true), // a float against an integer: tolerance
            ("1000000", "1000000.5", 1e-6, true),
            ("3.0", "3", 1e-9, true),
            ("3", "3.0000000001", 1e-9, true),
            ("2.5", "2.4", 1e-3, false),
            ("1e6", "1000001", 1e-6, true), // not an integer as printed
            ("0x10", "16", 1.0, false),     // not a number Rust or C++ streams print
        ];
        for (actual, expected, tolerance, matches) in table {
            assert_eq!(
                stdout_matches(actual, expected, Some(tolerance)),
                matches,
                "{actual} against {expected} within {tolerance}"
            );
        }
    }

    #[test]
    fn values_compare_like_python() {
        assert!(values_equal(&json!(1.0), &json!(1), None));
        assert!(values_equal(
            &json!([1, [2, "a"]]),
            &json!([1, [2, "a"]]),
            None
        ));
        assert!(!values_equal(&json!([1, 2]), &json!([2, 1]), None));
        assert!(!values_equal(&json!(0.1 + 0.2), &json!(0.3), None));
        assert!(values_equal(&json!(0.1 + 0.2), &json!(0.3), Some(1e-9)));
        assert!(!values_equal(&json!("1"), &json!(1), None));
        assert!(!values_equal(&json!(true), &json!(1), None));
        assert!(values_equal(
            &json!({"a": 1, "b": [1]}),
            &json!({"b": [1], "a": 1}),
            None
        ));
        assert!(values_equal(
            &json!(123456789012345678u64),
            &json!(123456789012345678u64),
            None
        ));
    }
}
