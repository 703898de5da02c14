//! Comparing a candidate's output with the expected one, on the verifier's side.

use serde_json::Value;

/// Whether `actual` stdout matches `expected` token by token (white space is not significant);
/// numeric tokens may differ by `tolerance` (absolute or relative) when one is given and at least
/// one of the two is not an integer: two integers are compared exactly, so `1000001` never
/// matches `1000000`, whatever the tolerance.
pub fn stdout_matches(actual: &str, expected: &str, tolerance: Option<f64>) -> bool {
    let a: Vec<&str> = actual.split_whitespace().collect();
    let e: Vec<&str> = expected.split_whitespace().collect();
    a.len() == e.len()
        && a.iter()
            .zip(&e)
            .all(|(x, y)| x == y || tolerance.is_some_and(|t| floats_close(x, y, t)))
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
