//! Value JSON (what a live candidate hands back) as plain JSON for the host's users: tuples, sets
//! and frozensets become arrays, dicts with string keys objects (other dicts arrays of
//! `[key, value]` pairs), bytes base64 text, non-finite floats the strings `"inf"`, `"-inf"`,
//! `"nan"`, complex numbers `[real, imag]`, and handles `{"handle": n, "type": "..."}`.

use serde_json::{Map, Value};

/// The plain JSON of value JSON `text`.
pub fn to_plain(text: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not value JSON: {e}"))?;
    Ok(plain(value))
}

fn plain(value: Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.into_iter().map(plain).collect()),
        Value::Object(map) if map.len() <= 2 => {
            let mut map = map;
            if let Some(handle) = map.remove("$h") {
                let mut out = Map::new();
                out.insert("handle".into(), handle);
                out.insert("type".into(), map.remove("type").unwrap_or(Value::Null));
                return Value::Object(out);
            }
            let Some((tag, body)) = map.into_iter().next() else {
                return Value::Object(Map::new());
            };
            match (tag.as_str(), body) {
                ("$t" | "$s" | "$fs" | "$c", Value::Array(items)) => {
                    Value::Array(items.into_iter().map(plain).collect())
                }
                ("$d", Value::Array(pairs)) => dict(pairs),
                ("$b" | "$f", text) => text,
                (other, body) => {
                    let mut out = Map::new();
                    out.insert(other.to_string(), plain(body));
                    Value::Object(out)
                }
            }
        }
        other => other,
    }
}

fn dict(pairs: Vec<Value>) -> Value {
    let pairs: Vec<(Value, Value)> = pairs
        .into_iter()
        .filter_map(|pair| match pair {
            Value::Array(mut kv) if kv.len() == 2 => {
                let v = kv.pop()?;
                let k = kv.pop()?;
                Some((plain(k), plain(v)))
            }
            _ => None,
        })
        .collect();
    if pairs.iter().all(|(k, _)| k.is_string()) {
        Value::Object(
            pairs
                .into_iter()
                .map(|(k, v)| (k.as_str().unwrap_or_default().to_string(), v))
                .collect(),
        )
    } else {
        Value::Array(
            pairs
                .into_iter()
                .map(|(k, v)| Value::Array(vec![k, v]))
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tags_become_plain_json() {
        let text = r#"{"$t": [true, "obs", {"$d": [["a", 1], ["b", {"$s": [1, 2]}]]}, {"$d": [[1, "x"]]},
            {"$b": "AAE="}, {"$f": "inf"}, {"$c": [1, 2]}, {"$h": 3, "type": "Env"}]}"#;
        assert_eq!(
            to_plain(text).unwrap(),
            json!([true, "obs", {"a": 1, "b": [1, 2]}, [[1, "x"]], "AAE=", "inf", [1, 2],
                   {"handle": 3, "type": "Env"}])
        );
        assert!(to_plain("{oops").is_err());
    }
}
