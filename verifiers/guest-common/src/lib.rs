//! Floor 0 of rewardbox: what the verifier components share.
//!
//! Helpers shared by rewardbox's verifier components.
//!
//! A verifier receives the task as a JSON object. These helpers read its fields and, when a field is
//! missing or has the wrong type, return a [`FieldError`] whose message names the field, so that the
//! host can report `line N: "reference" must be a string` for the whole line.

#![deny(missing_docs)]

use serde_json::{Map, Value};

/// A task field that is missing or malformed. The message names the field, quoted.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldError(pub String);

impl FieldError {
    /// A field that has the wrong type or value: `"<field>" <what>`.
    pub fn new(field: &str, what: impl std::fmt::Display) -> Self {
        FieldError(format!("\"{field}\" {what}"))
    }
}

impl std::fmt::Display for FieldError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The fields of one task, as the host passed them to `verify`.
#[derive(Debug, Clone)]
pub struct TaskFields {
    fields: Map<String, Value>,
}

impl TaskFields {
    /// Parses the task JSON the host passed in. The host only passes objects, so a failure here
    /// means a host bug or a hand-written call; it is reported as a task error all the same.
    pub fn parse(task_json: &str) -> Result<Self, FieldError> {
        match serde_json::from_str::<Value>(task_json) {
            Ok(Value::Object(fields)) => Ok(TaskFields { fields }),
            Ok(_) => Err(FieldError("the task must be a JSON object".into())),
            Err(e) => Err(FieldError(format!("the task is not valid JSON: {e}"))),
        }
    }

    /// The raw value of a field, if present and not `null`.
    pub fn get(&self, field: &str) -> Option<&Value> {
        self.fields.get(field).filter(|v| !v.is_null())
    }

    /// A required field holding a string.
    pub fn required_str(&self, field: &str) -> Result<&str, FieldError> {
        match self.get(field) {
            Some(Value::String(s)) => Ok(s),
            Some(_) => Err(FieldError::new(field, "must be a string")),
            None => Err(FieldError::new(field, "is missing")),
        }
    }

    /// A required field holding one accepted answer or a list of accepted answers. Numbers are
    /// accepted and rendered as JSON renders them (`391`, `0.5`).
    pub fn required_answers(&self, field: &str) -> Result<Vec<String>, FieldError> {
        let as_answer = |v: &Value| match v {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            _ => None,
        };
        match self.get(field) {
            None => Err(FieldError::new(field, "is missing")),
            Some(Value::Array(items)) if !items.is_empty() => items
                .iter()
                .map(as_answer)
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| {
                    FieldError::new(field, "must be a string, a number, or a list of them")
                }),
            Some(v) => as_answer(v).map(|s| vec![s]).ok_or_else(|| {
                FieldError::new(
                    field,
                    "must be a string, a number, or a non-empty list of them",
                )
            }),
        }
    }

    /// An optional non-negative, finite number.
    pub fn optional_non_negative(&self, field: &str) -> Result<Option<f64>, FieldError> {
        match self.get(field) {
            None => Ok(None),
            Some(Value::Number(n)) => match n.as_f64() {
                Some(x) if x.is_finite() && x >= 0.0 => Ok(Some(x)),
                _ => Err(FieldError::new(field, "must be a non-negative number")),
            },
            Some(_) => Err(FieldError::new(field, "must be a non-negative number")),
        }
    }

    /// An optional boolean, `default` when absent.
    pub fn optional_bool(&self, field: &str, default: bool) -> Result<bool, FieldError> {
        match self.get(field) {
            None => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(_) => Err(FieldError::new(field, "must be true or false")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_the_field_at_fault() {
        let t = TaskFields::parse(r#"{"reference": 3, "tolerance": "x", "search": 1}"#).unwrap();
        assert_eq!(
            t.required_answers("reference").unwrap(),
            vec!["3".to_string()]
        );
        assert_eq!(
            t.required_str("reference").unwrap_err().0,
            "\"reference\" must be a string"
        );
        assert_eq!(
            t.required_str("pattern").unwrap_err().0,
            "\"pattern\" is missing"
        );
        assert!(
            t.optional_non_negative("tolerance")
                .unwrap_err()
                .0
                .starts_with("\"tolerance\"")
        );
        assert!(t.optional_bool("search", false).is_err());
        assert!(!t.optional_bool("absent", false).unwrap());
    }

    #[test]
    fn answers_accept_lists() {
        let t = TaskFields::parse(r#"{"reference": ["a", 2], "bad": [], "worse": [{}]}"#).unwrap();
        assert_eq!(t.required_answers("reference").unwrap(), vec!["a", "2"]);
        assert!(t.required_answers("bad").is_err());
        assert!(t.required_answers("worse").is_err());
    }
}
