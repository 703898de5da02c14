//! Python `call` tests whose values are more than JSON: arguments and expected values written
//! in value JSON's tags (`{"$t": [...]}` a tuple, `{"$s": [...]}` a set, `{"$fs": [...]}` a
//! frozenset, `{"$d": [[key, value], ...]}` a dict with any keys, `{"$f": "nan" | "inf" |
//! "-inf"}`, `{"$b": "<base64>"}` bytes, `{"$c": [real, imag]}` a complex), as EvalPlus's and
//! MBPP+'s inputs are. Such a case is an assert, `assert f(*args) == expected`, written as
//! Python source from the values and run against the live candidate as asserts are: the result
//! is compared with Python's own `==` (a tuple is not a list, a set equals a set in any order, a
//! NaN equals nothing).
//!
//! Plain JSON call tests keep JSON's comparison (a tuple returned equals the list expected).

use serde_json::Value;

/// The tags of value JSON (`guests/python/rb_values.py`) a call test may use.
const TAGS: [&str; 7] = ["$t", "$s", "$fs", "$d", "$f", "$b", "$c"];

/// Whether `value` holds a value JSON tag anywhere.
pub fn has_tags(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(has_tags),
        Value::Object(object) => {
            (object.len() == 1 && object.keys().all(|k| TAGS.contains(&k.as_str())))
                || object.values().any(has_tags)
        }
        _ => false,
    }
}

/// `value` as a Python expression building it.
pub fn python_literal(value: &Value) -> Result<String, String> {
    Ok(match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Number(n) if n.is_f64() => {
            let x = n.as_f64().unwrap_or(0.0);
            // Rust's shortest digits read back as the same float in Python; an integral one
            // needs its point.
            let text = format!("{x:?}");
            if text.contains(['.', 'e', 'E']) {
                text
            } else {
                format!("{text}.0")
            }
        }
        Value::Number(n) => n.to_string(),
        // A JSON string literal is a Python one (serde_json escapes only what both read alike).
        Value::String(s) => serde_json::to_string(s).map_err(|e| e.to_string())?,
        Value::Array(items) => format!("[{}]", joined(items)?),
        Value::Object(object) if object.len() == 1 => {
            let (tag, inner) = object
                .iter()
                .next()
                .map(|(k, v)| (k.as_str(), v))
                .unwrap_or(("", value));
            match tag {
                "$t" => {
                    let items = list(inner, "$t")?;
                    match items.len() {
                        1 => format!("({},)", joined(items)?),
                        _ => format!("({})", joined(items)?),
                    }
                }
                "$s" | "$fs" => {
                    let items = list(inner, tag)?;
                    let set = if items.is_empty() {
                        "set()".to_string()
                    } else {
                        format!("{{{}}}", joined(items)?)
                    };
                    if tag == "$fs" {
                        format!("frozenset({set})")
                    } else {
                        set
                    }
                }
                "$d" => {
                    let entries = list(inner, "$d")?
                        .iter()
                        .map(|entry| match entry.as_array().map(Vec::as_slice) {
                            Some([k, v]) => {
                                Ok(format!("{}: {}", python_literal(k)?, python_literal(v)?))
                            }
                            _ => Err(format!(
                                "{{\"$d\": ...}} holds {entry}, not a [key, value] pair"
                            )),
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    format!("{{{}}}", entries.join(", "))
                }
                "$f" => match inner.as_str() {
                    Some(which @ ("nan" | "inf" | "-inf")) => format!("float('{which}')"),
                    _ => {
                        return Err(format!(
                            "{{\"$f\": {inner}}} is not \"nan\", \"inf\" or \"-inf\""
                        ));
                    }
                },
                "$b" => {
                    let text = inner
                        .as_str()
                        .ok_or("{\"$b\": ...} must be a base64 string")?;
                    let bytes = base64(text).ok_or_else(|| format!("{text:?} is not base64"))?;
                    let escaped: String = bytes.iter().map(|b| format!("\\x{b:02x}")).collect();
                    format!("b'{escaped}'")
                }
                "$c" => match inner.as_array().map(Vec::as_slice) {
                    Some([re, im]) if re.is_number() && im.is_number() => {
                        format!("complex({}, {})", python_literal(re)?, python_literal(im)?)
                    }
                    _ => return Err(format!("{{\"$c\": {inner}}} is not [real, imag]")),
                },
                _ => dict(object)?,
            }
        }
        Value::Object(object) => dict(object)?,
    })
}

fn joined(items: &[Value]) -> Result<String, String> {
    Ok(items
        .iter()
        .map(python_literal)
        .collect::<Result<Vec<_>, _>>()?
        .join(", "))
}

fn list<'a>(value: &'a Value, tag: &str) -> Result<&'a [Value], String> {
    value
        .as_array()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{{\"{tag}\": ...}} must hold a list"))
}

fn dict(object: &serde_json::Map<String, Value>) -> Result<String, String> {
    let entries = object
        .iter()
        .map(|(k, v)| {
            Ok(format!(
                "{}: {}",
                python_literal(&Value::String(k.clone()))?,
                python_literal(v)?
            ))
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(format!("{{{}}}", entries.join(", ")))
}

/// Standard base64 (padding optional).
fn base64(text: &str) -> Option<Vec<u8>> {
    let digit = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let text = text.trim_end_matches('=').as_bytes();
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    for chunk in text.chunks(4) {
        let digits: Vec<u32> = chunk.iter().map(|&c| digit(c)).collect::<Option<_>>()?;
        if digits.len() == 1 {
            return None;
        }
        let word = digits.iter().fold(0u32, |w, d| (w << 6) | d) << (6 * (4 - digits.len()));
        out.extend_from_slice(&word.to_be_bytes()[1..digits.len()]);
    }
    Some(out)
}

/// The assert a tagged call case is: `assert f(a, b) == expected`.
pub fn assert_of(entry: &str, args: &[Value], expected: &Value) -> Result<String, String> {
    let args = joined(args)?;
    Ok(format!(
        "assert {entry}({args}) == {}",
        python_literal(expected)?
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn value_json_is_written_as_python() {
        let table = [
            (json!({"$t": [1]}), "(1,)"),
            (json!({"$t": [1, "a"]}), "(1, \"a\")"),
            (json!({"$t": []}), "()"),
            (json!({"$s": []}), "set()"),
            (json!({"$s": [3, 1]}), "{3, 1}"),
            (json!({"$fs": [1]}), "frozenset({1})"),
            (json!({"$d": [[{"$t": [1, 2]}, null]]}), "{(1, 2): None}"),
            (json!({"a": [true, false]}), "{\"a\": [True, False]}"),
            (json!({"$f": "-inf"}), "float('-inf')"),
            (json!(-0.0), "-0.0"),
            (json!(2.0), "2.0"),
            (json!(1e-7), "1e-7"),
            (json!(12345678901234567890u64), "12345678901234567890"),
            (json!({"$b": "AP8="}), "b'\\x00\\xff'"),
            (json!({"$c": [1, -2.5]}), "complex(1, -2.5)"),
            (json!("é\n\"x\""), "\"é\\n\\\"x\\\"\""),
        ];
        for (value, python) in table {
            assert_eq!(python_literal(&value).as_deref(), Ok(python), "{value}");
        }
        assert!(python_literal(&json!({"$f": "NaN!"})).is_err());
        assert!(python_literal(&json!({"$b": "A"})).is_err());
        assert!(has_tags(&json!([1, [{"$s": [1]}]])));
        assert!(!has_tags(&json!([1, {"a": 2}, {"$x": 1}])));
        assert_eq!(
            assert_of("f", &[json!({"$t": [1, 2]})], &json!({"$s": [1]})).unwrap(),
            "assert f((1, 2)) == {1}"
        );
    }
}
