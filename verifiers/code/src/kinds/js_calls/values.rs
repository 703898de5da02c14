//! JavaScript values on the verifier's side: read from a task's value JSON (JSON with tags), sent
//! to and read from the JavaScript runner's wire (`guests/js/src/wire.js`), compared and shown.

use crate::compare::within;
use serde_json::{Map, Value, json};

/// A JavaScript value, as the wire carries it.
#[derive(Debug, Clone, PartialEq)]
pub enum JsValue {
    /// `undefined` (an array's hole reads as it).
    Undefined,
    /// `null`.
    Null,
    /// A boolean.
    Bool(bool),
    /// A number (with `-0`, `NaN` and the infinities).
    Number(f64),
    /// A BigInt, by its decimal digits (`-12`).
    BigInt(String),
    /// A string.
    String(String),
    /// An array.
    Array(Vec<JsValue>),
    /// A plain object: its keys in order.
    Object(Vec<(String, JsValue)>),
    /// A `Map`: its entries in insertion order.
    Map(Vec<(JsValue, JsValue)>),
    /// A `Set`: its items in insertion order.
    Set(Vec<JsValue>),
    /// A `Date`: its time in milliseconds (`None`: an invalid date).
    Date(Option<f64>),
}

/// The tags of value JSON a JavaScript call test may use. `$fs`, `$b` and `$c` are Python's
/// (frozenset, bytes, complex): listed so that a task using them is told JavaScript has none.
pub const TAGS: [&str; 8] = ["$t", "$s", "$d", "$f", "$type", "$fs", "$b", "$c"];

/// Whether `value` holds a tag of value JSON anywhere.
pub fn has_tags(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(has_tags),
        Value::Object(object) => tag_of(object).is_some() || object.values().any(has_tags),
        _ => false,
    }
}

/// The tag an object is: one key of [`TAGS`] (`$type` with its `value`).
fn tag_of(object: &Map<String, Value>) -> Option<&str> {
    let mut keys = object.keys().map(String::as_str);
    match (object.len(), keys.next()) {
        (1, Some(tag)) if TAGS.contains(&tag) => Some(tag),
        (2, _) if object.contains_key("$type") && object.contains_key("value") => Some("$type"),
        _ => None,
    }
}

/// Reads a task's value: JSON as `JSON.parse` reads it, and the tags: `{"$f": "nan" | "inf" |
/// "-inf"}` a number, `{"$s": [...]}` a `Set`, `{"$d": [[key, value], ...]}` a `Map`, `{"$t":
/// [...]}` an array (JavaScript has no tuple), `{"$type": "undefined"}`, `{"$type": "bigint",
/// "value": "123"}`, `{"$type": "Date", "value": <ms>}`.
pub fn from_task(value: &Value) -> Result<JsValue, String> {
    Ok(match value {
        Value::Null => JsValue::Null,
        Value::Bool(b) => JsValue::Bool(*b),
        Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => JsValue::String(s.clone()),
        Value::Array(items) => JsValue::Array(all(items)?),
        Value::Object(object) => match tag_of(object) {
            None => JsValue::Object(
                object
                    .iter()
                    .map(|(k, v)| Ok((k.clone(), from_task(v)?)))
                    .collect::<Result<_, String>>()?,
            ),
            Some(tag) => tagged(tag, object)?,
        },
    })
}

fn all(items: &[Value]) -> Result<Vec<JsValue>, String> {
    items.iter().map(from_task).collect()
}

fn list<'a>(value: &'a Value, tag: &str) -> Result<&'a [Value], String> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{{\"{tag}\": ...}} must hold a list, not {value}"))
}

fn tagged(tag: &str, object: &Map<String, Value>) -> Result<JsValue, String> {
    let inner = &object[tag];
    Ok(match tag {
        "$t" => JsValue::Array(all(list(inner, tag)?)?),
        "$s" => JsValue::Set(all(list(inner, tag)?)?),
        "$d" => JsValue::Map(
            list(inner, tag)?
                .iter()
                .map(|entry| match entry.as_array().map(Vec::as_slice) {
                    Some([k, v]) => Ok((from_task(k)?, from_task(v)?)),
                    _ => Err(format!(
                        "{{\"$d\": ...}} holds {entry}, not a [key, value] pair"
                    )),
                })
                .collect::<Result<_, _>>()?,
        ),
        "$f" => JsValue::Number(match inner.as_str() {
            Some("nan") => f64::NAN,
            Some("inf") => f64::INFINITY,
            Some("-inf") => f64::NEG_INFINITY,
            _ => {
                return Err(format!(
                    "{{\"$f\": {inner}}} is not \"nan\", \"inf\" or \"-inf\""
                ));
            }
        }),
        "$type" => typed(inner, object.get("value"))?,
        python => {
            return Err(format!(
                "{{\"{python}\": ...}} is a Python value (frozenset, bytes or complex), which \
                 JavaScript has not"
            ));
        }
    })
}

/// `{"$type": name, "value": ...}`: a JavaScript value JSON has no literal for.
fn typed(name: &Value, value: Option<&Value>) -> Result<JsValue, String> {
    match (name.as_str(), value) {
        (Some("undefined"), None) => Ok(JsValue::Undefined),
        (Some("bigint"), Some(Value::String(digits))) => bigint(digits)
            .map(JsValue::BigInt)
            .ok_or_else(|| format!("{{\"$type\": \"bigint\"}}: {digits:?} is not an integer")),
        (Some("bigint"), Some(Value::Number(n))) if n.is_i64() || n.is_u64() => {
            Ok(JsValue::BigInt(n.to_string()))
        }
        (Some("Date"), Some(Value::Number(n))) => Ok(JsValue::Date(n.as_f64())),
        (Some("Date"), Some(Value::Null)) => Ok(JsValue::Date(None)),
        _ => Err(format!(
            "{{\"$type\": {name}{}}} is not one of {{\"$type\": \"undefined\"}}, {{\"$type\": \
             \"bigint\", \"value\": \"<digits>\"}}, {{\"$type\": \"Date\", \"value\": <ms>}}",
            value
                .map(|v| format!(", \"value\": {v}"))
                .unwrap_or_default()
        )),
    }
}

/// `digits` as `BigInt(digits).toString()` writes it, if it is an integer.
fn bigint(digits: &str) -> Option<String> {
    let (negative, magnitude) = match digits.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, digits),
    };
    if magnitude.is_empty() || !magnitude.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let magnitude = magnitude.trim_start_matches('0');
    Some(match (negative, magnitude) {
        (_, "") => "0".into(),
        (true, m) => format!("-{m}"),
        (false, m) => m.into(),
    })
}

/// `value` in the wire's tagged JSON.
pub fn to_wire(value: &JsValue) -> Value {
    match value {
        JsValue::Undefined => json!({"u": 0}),
        JsValue::Null => Value::Null,
        JsValue::Bool(b) => Value::Bool(*b),
        JsValue::Number(x) if x.is_nan() => json!({"n": "NaN"}),
        JsValue::Number(x) if x.is_infinite() => {
            json!({"n": if *x > 0.0 { "Infinity" } else { "-Infinity" }})
        }
        JsValue::Number(x) if *x == 0.0 && x.is_sign_negative() => json!({"n": "-0"}),
        JsValue::Number(x) => json!(x),
        JsValue::BigInt(digits) => json!({ "b": digits }),
        JsValue::String(s) => Value::String(s.clone()),
        JsValue::Array(items) => Value::Array(items.iter().map(to_wire).collect()),
        JsValue::Object(entries) => {
            json!({"o": entries.iter().map(|(k, v)| json!([k, to_wire(v)])).collect::<Vec<_>>()})
        }
        JsValue::Map(entries) => json!({
            "m": entries.iter().map(|(k, v)| json!([to_wire(k), to_wire(v)])).collect::<Vec<_>>()
        }),
        JsValue::Set(items) => json!({"s": items.iter().map(to_wire).collect::<Vec<_>>()}),
        JsValue::Date(time) => json!({ "d": time }),
    }
}

/// A value the wire carried, read back; an error names what is malformed.
pub fn from_wire(value: &Value) -> Result<JsValue, String> {
    Ok(match value {
        Value::Null => JsValue::Null,
        Value::Bool(b) => JsValue::Bool(*b),
        Value::Number(n) => JsValue::Number(n.as_f64().unwrap_or(f64::NAN)),
        Value::String(s) => JsValue::String(s.clone()),
        Value::Array(items) => JsValue::Array(
            items
                .iter()
                .map(|item| match item {
                    Value::Object(o) if o.len() == 1 && o.contains_key("h") => {
                        Ok(JsValue::Undefined)
                    }
                    _ => from_wire(item),
                })
                .collect::<Result<_, _>>()?,
        ),
        Value::Object(object) if object.len() == 1 => {
            let (tag, body) = object.iter().next().expect("one entry");
            wire_tagged(tag, body)?
        }
        other => return Err(format!("{other} is not a tagged value")),
    })
}

fn pairs(body: &Value, what: &str) -> Result<Vec<(Value, Value)>, String> {
    body.as_array()
        .ok_or_else(|| format!("a {what} that is not a list"))?
        .iter()
        .map(|pair| match pair.as_array().map(Vec::as_slice) {
            Some([k, v]) => Ok((k.clone(), v.clone())),
            _ => Err(format!("a {what} entry that is not a pair")),
        })
        .collect()
}

fn wire_tagged(tag: &str, body: &Value) -> Result<JsValue, String> {
    Ok(match (tag, body) {
        ("u", _) => JsValue::Undefined,
        ("n", Value::String(s)) => JsValue::Number(match s.as_str() {
            "NaN" => f64::NAN,
            "Infinity" => f64::INFINITY,
            "-Infinity" => f64::NEG_INFINITY,
            "-0" => -0.0,
            _ => return Err(format!("the number {s:?}")),
        }),
        ("b", Value::String(s)) => {
            JsValue::BigInt(bigint(s).ok_or_else(|| format!("the BigInt {s:?}"))?)
        }
        ("d", Value::Null) => JsValue::Date(None),
        ("d", Value::Number(n)) => JsValue::Date(n.as_f64()),
        ("o", _) => JsValue::Object(
            pairs(body, "object")?
                .into_iter()
                .map(|(k, v)| match k {
                    Value::String(k) => Ok((k, from_wire(&v)?)),
                    _ => Err("an object key that is not a string".to_string()),
                })
                .collect::<Result<_, _>>()?,
        ),
        ("m", _) => JsValue::Map(
            pairs(body, "Map")?
                .iter()
                .map(|(k, v)| Ok((from_wire(k)?, from_wire(v)?)))
                .collect::<Result<_, String>>()?,
        ),
        ("s", Value::Array(items)) => {
            JsValue::Set(items.iter().map(from_wire).collect::<Result<_, _>>()?)
        }
        _ => return Err(format!("the tag {tag:?} holding {body}")),
    })
}

/// Whether the candidate's `actual` value is the `expected` one: as Node's
/// `assert.deepStrictEqual` compares them (types and prototypes matter: a `Set` is not an array,
/// `undefined` is not `null`, `1n` is not `1`; object keys, `Map` entries and `Set` items in any
/// order), but numbers by value as `===` compares them (`-0` is `0`), a `NaN` matching a `NaN`,
/// within `tolerance` when one is given.
pub fn equal(actual: &JsValue, expected: &JsValue, tolerance: Option<f64>) -> bool {
    use JsValue as V;
    let same = |a: &JsValue, e: &JsValue| equal(a, e, tolerance);
    match (actual, expected) {
        (V::Number(a), V::Number(e)) => numbers_equal(*a, *e, tolerance),
        (V::Date(a), V::Date(e)) => match (a, e) {
            (Some(a), Some(e)) => a == e || (a.is_nan() && e.is_nan()),
            (None, None) => true,
            (Some(x), None) | (None, Some(x)) => x.is_nan(),
        },
        (V::Array(a), V::Array(e)) => {
            a.len() == e.len() && a.iter().zip(e).all(|(a, e)| same(a, e))
        }
        (V::Object(a), V::Object(e)) => {
            a.len() == e.len()
                && e.iter()
                    .all(|(key, e)| a.iter().any(|(k, a)| k == key && same(a, e)))
        }
        (V::Map(a), V::Map(e)) => {
            a.len() == e.len() && matched(a, e, |(ak, av), (ek, ev)| same(ak, ek) && same(av, ev))
        }
        (V::Set(a), V::Set(e)) => a.len() == e.len() && matched(a, e, same),
        _ => actual == expected,
    }
}

fn numbers_equal(a: f64, e: f64, tolerance: Option<f64>) -> bool {
    a == e
        || (a.is_nan() && e.is_nan())
        || (a.is_finite() && e.is_finite() && tolerance.is_some_and(|t| within(a, e, t)))
}

/// Whether each of `expected` is matched by a distinct item of `actual` (both the same length).
fn matched<T>(actual: &[T], expected: &[T], same: impl Fn(&T, &T) -> bool) -> bool {
    let mut used = vec![false; actual.len()];
    expected.iter().all(|e| {
        let found = actual
            .iter()
            .enumerate()
            .find(|(i, a)| !used[*i] && same(a, e));
        found.map(|(i, _)| used[i] = true).is_some()
    })
}

/// `value` as JavaScript writes it in a case's detail: `undefined`, `-0`, `12n`, `[1, 2]`,
/// `{a: 1}`, `Map(1) {"k" => 1}`, `Set(2) {1, 2}`.
pub fn show(value: &JsValue) -> String {
    let joined = |items: &[JsValue]| items.iter().map(show).collect::<Vec<_>>().join(", ");
    match value {
        JsValue::Undefined => "undefined".into(),
        JsValue::Null => "null".into(),
        JsValue::Bool(b) => b.to_string(),
        JsValue::Number(x) => number(*x),
        JsValue::BigInt(digits) => format!("{digits}n"),
        JsValue::String(s) => Value::String(s.clone()).to_string(),
        JsValue::Array(items) => format!("[{}]", joined(items)),
        JsValue::Object(entries) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|(k, v)| format!("{}: {}", key(k), show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        JsValue::Map(entries) => format!(
            "Map({}) {{{}}}",
            entries.len(),
            entries
                .iter()
                .map(|(k, v)| format!("{} => {}", show(k), show(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        JsValue::Set(items) => format!("Set({}) {{{}}}", items.len(), joined(items)),
        JsValue::Date(Some(time)) => format!("Date({})", number(*time)),
        JsValue::Date(None) => "Date(NaN)".into(),
    }
}

/// A number as JavaScript's `String(x)` writes the common ones.
fn number(x: f64) -> String {
    if x.is_nan() {
        "NaN".into()
    } else if x.is_infinite() {
        if x > 0.0 { "Infinity" } else { "-Infinity" }.into()
    } else if x == 0.0 && x.is_sign_negative() {
        "-0".into()
    } else if x.fract() == 0.0 && x.abs() < 1e21 {
        format!("{x:.0}")
    } else {
        format!("{x}")
    }
}

/// An object key as JavaScript writes it: bare when it is an identifier.
fn key(k: &str) -> String {
    if crate::langs::js::is_identifier(k) {
        k.into()
    } else {
        Value::String(k.into()).to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(text: &str) -> JsValue {
        from_task(&serde_json::from_str(text).unwrap()).unwrap()
    }

    #[test]
    fn tags_read_as_the_javascript_values_they_name() {
        let table = [
            (r#"{"$f": "nan"}"#, "NaN"),
            (r#"{"$f": "-inf"}"#, "-Infinity"),
            ("-0.0", "-0"),
            (r#"{"$s": [1, "a"]}"#, r#"Set(2) {1, "a"}"#),
            (
                r#"{"$d": [[1, [2]], ["k", null]]}"#,
                r#"Map(2) {1 => [2], "k" => null}"#,
            ),
            (r#"{"$t": [1, 2.5]}"#, "[1, 2.5]"),
            (r#"{"$type": "undefined"}"#, "undefined"),
            (r#"{"$type": "bigint", "value": "-0012"}"#, "-12n"),
            (r#"{"$type": "bigint", "value": 7}"#, "7n"),
            (r#"{"$type": "Date", "value": 0}"#, "Date(0)"),
            (
                r#"{"a b": 1, "c": {"$s": []}}"#,
                r#"{"a b": 1, c: Set(0) {}}"#,
            ),
        ];
        for (json, shown) in table {
            assert_eq!(show(&task(json)), shown, "{json}");
        }
    }

    #[test]
    fn a_bad_tag_says_what_it_should_hold() {
        let table = [
            (r#"{"$f": "NaN"}"#, "is not \"nan\""),
            (r#"{"$s": 1}"#, "must hold a list"),
            (r#"{"$d": [[1]]}"#, "not a [key, value] pair"),
            (r#"{"$fs": [1]}"#, "is a Python value"),
            (r#"{"$type": "symbol"}"#, "is not one of"),
            (
                r#"{"$type": "bigint", "value": "1.5"}"#,
                "is not an integer",
            ),
        ];
        for (json, why) in table {
            let error = from_task(&serde_json::from_str(json).unwrap()).unwrap_err();
            assert!(error.contains(why), "{json}: {error}");
        }
    }

    #[test]
    fn only_a_tag_alone_in_its_object_is_a_tag() {
        assert!(has_tags(&json!([1, {"$s": [1]}])));
        assert!(has_tags(&json!({"k": {"$type": "bigint", "value": "1"}})));
        assert!(!has_tags(&json!({"$s": [1], "other": 2})));
        assert!(!has_tags(&json!({"$set": [1]})));
        assert!(!has_tags(&json!([1, "$s", {"a": -0.0}])));
    }

    #[test]
    fn every_value_crosses_the_wire_and_back_as_itself() {
        let values = [
            r#"[{"$f": "nan"}, {"$f": "inf"}, -0.0, 1.5, 3, "x", null, true]"#,
            r#"{"$d": [[{"$s": [1]}, {"$type": "undefined"}]]}"#,
            r#"{"b": 1, "a": [{"$type": "bigint", "value": "123456789012345678901234567890"}]}"#,
            r#"[{"$type": "Date", "value": 86400000}, {"$type": "Date", "value": null}]"#,
        ];
        for text in values {
            let value = task(text);
            let back = from_wire(&to_wire(&value)).unwrap();
            assert_eq!(show(&back), show(&value), "{text}");
            assert!(equal(&back, &value, None), "{text}");
        }
    }

    #[test]
    fn holes_read_as_undefined_and_malformed_answers_are_named() {
        let value = from_wire(&json!([1, {"h": 0}, {"u": 0}])).unwrap();
        assert_eq!(show(&value), "[1, undefined, undefined]");
        for bad in [
            json!({"n": "1e999"}),
            json!({"q": 1}),
            json!({"o": [[1, 2]]}),
            json!({}),
        ] {
            assert!(from_wire(&bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_compare_as_deep_strict_equality_with_numbers_by_value() {
        let table = [
            ("-0.0", "0", true),
            (r#"{"$f": "nan"}"#, r#"{"$f": "nan"}"#, true),
            (r#"{"$f": "nan"}"#, "0", false),
            (r#"{"$f": "inf"}"#, r#"{"$f": "-inf"}"#, false),
            (r#"{"$type": "undefined"}"#, "null", false),
            (r#"{"$type": "bigint", "value": "1"}"#, "1", false),
            (r#"{"$s": [1, 2]}"#, r#"{"$s": [2, 1]}"#, true),
            (r#"{"$s": [1, 2]}"#, "[1, 2]", false),
            (r#"{"$s": [1, 1.0]}"#, r#"{"$s": [1, 2]}"#, false),
            (
                r#"{"$d": [["a", 1], ["b", 2]]}"#,
                r#"{"$d": [["b", 2], ["a", 1]]}"#,
                true,
            ),
            (r#"{"$d": [["a", 1]]}"#, r#"{"a": 1}"#, false),
            (r#"{"a": 1, "b": 2}"#, r#"{"b": 2, "a": 1}"#, true),
            (r#"{"a": 1}"#, r#"{"a": 1, "b": 2}"#, false),
            ("[1, 2]", "[1, 2, 3]", false),
            (r#""1""#, "1", false),
        ];
        for (actual, expected, same) in table {
            assert_eq!(
                equal(&task(actual), &task(expected), None),
                same,
                "{actual} vs {expected}"
            );
        }
        assert!(equal(
            &task("0.30000000000000004"),
            &task("0.3"),
            Some(1e-9)
        ));
        assert!(!equal(&task(r#"{"$f": "inf"}"#), &task("1e308"), Some(1.0)));
    }
}
