//! A package's YAML files (`problem.yaml`, `testdata.yaml`) read as JSON values.

use serde_json::{Map, Number, Value};
use yaml_rust2::{Yaml, YamlLoader};

/// The first document of `text` as a JSON value (an empty file is `null`); an error names the
/// line and column.
pub fn parse(text: &str) -> Result<Value, String> {
    let documents = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    Ok(documents.into_iter().next().map_or(Value::Null, to_json))
}

fn to_json(yaml: Yaml) -> Value {
    match yaml {
        Yaml::Real(text) => text
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map_or(Value::String(text), Value::Number),
        Yaml::Integer(n) => Value::Number(n.into()),
        Yaml::String(s) => Value::String(s),
        Yaml::Boolean(b) => Value::Bool(b),
        Yaml::Array(items) => Value::Array(items.into_iter().map(to_json).collect()),
        Yaml::Hash(entries) => Value::Object(
            entries
                .into_iter()
                .map(|(k, v)| (key(k), to_json(v)))
                .collect::<Map<String, Value>>(),
        ),
        Yaml::Alias(_) | Yaml::Null | Yaml::BadValue => Value::Null,
    }
}

/// A mapping's key as text (YAML allows numbers and booleans as keys).
fn key(yaml: Yaml) -> String {
    match yaml {
        Yaml::String(s) | Yaml::Real(s) => s,
        Yaml::Integer(n) => n.to_string(),
        Yaml::Boolean(b) => b.to_string(),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn problem_yaml_becomes_json() {
        let value = parse(
            "name: A Different Problem\nvalidation: custom interactive\nlimits:\n  time_multiplier: 5\n  \
             time_safety_margin: 2.5\n# a comment\nvalidator_flags: float_tolerance 1e-6\nkeywords:\n",
        )
        .unwrap();
        assert_eq!(
            value,
            json!({
                "name": "A Different Problem",
                "validation": "custom interactive",
                "limits": {"time_multiplier": 5, "time_safety_margin": 2.5},
                "validator_flags": "float_tolerance 1e-6",
                "keywords": null
            })
        );
        assert_eq!(parse("").unwrap(), Value::Null);
        assert!(parse("a: [1, 2").unwrap_err().contains("line"));
    }
}
