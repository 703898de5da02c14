//! A package's YAML files (`problem.yaml`, `testdata.yaml`) read as JSON values.
//!
//! YAML's aliases repeat what an anchor holds, and a loader copies it at each: a few hundred
//! bytes of aliases of aliases (a "billion laughs") would grow into gigabytes. So a document's
//! size with every alias expanded is measured from the parser's events first, without building
//! anything, and a document past [`MAX_EXPANDED`] is refused before it is loaded.

use serde_json::{Map, Number, Value};
use std::collections::HashMap;
use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::Marker;
use yaml_rust2::{Yaml, YamlLoader};

/// The most a document may hold with its aliases expanded: values, plus the bytes of its scalars.
pub const MAX_EXPANDED: u64 = 1 << 20;

/// The first document of `text` as a JSON value (an empty file is `null`); an error names the
/// line and column, or says that its aliases expand past [`MAX_EXPANDED`].
pub fn parse(text: &str) -> Result<Value, String> {
    let mut size = ExpandedSize::default();
    Parser::new_from_str(text)
        .load(&mut size, true)
        .map_err(|e| e.to_string())?;
    if size.total > MAX_EXPANDED {
        return Err(format!(
            "its aliases expand it past {MAX_EXPANDED} values and bytes (a document of {} bytes); \
             write the values out",
            text.len()
        ));
    }
    let documents = YamlLoader::load_from_str(text).map_err(|e| e.to_string())?;
    Ok(documents.into_iter().next().map_or(Value::Null, to_json))
}

/// The size of a stream's documents with every alias expanded, measured from the parser's events:
/// each value counts 1 and each scalar its bytes too; an alias counts what its anchor counted.
#[derive(Default)]
struct ExpandedSize {
    /// The collections open, innermost last: their anchor and their size so far.
    open: Vec<(usize, u64)>,
    /// The size of each anchored value.
    anchors: HashMap<usize, u64>,
    total: u64,
}

impl ExpandedSize {
    /// A value of `size` ends (anchored as `anchor`, when not 0).
    fn value(&mut self, anchor: usize, size: u64) {
        if anchor != 0 {
            self.anchors.insert(anchor, size);
        }
        match self.open.last_mut() {
            Some((_, parent)) => *parent = parent.saturating_add(size),
            None => self.total = self.total.saturating_add(size),
        }
    }
}

impl MarkedEventReceiver for ExpandedSize {
    fn on_event(&mut self, event: Event, _mark: Marker) {
        match event {
            Event::Scalar(text, _, anchor, _) => self.value(anchor, 1 + text.len() as u64),
            Event::SequenceStart(anchor, _) | Event::MappingStart(anchor, _) => {
                self.open.push((anchor, 1));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                if let Some((anchor, size)) = self.open.pop() {
                    self.value(anchor, size);
                }
            }
            Event::Alias(anchor) => {
                let size = self.anchors.get(&anchor).copied().unwrap_or(1);
                self.value(0, size);
            }
            _ => {}
        }
    }
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

    #[test]
    fn aliases_are_measured_before_they_are_expanded() {
        assert_eq!(
            parse("base: &b {x: 1}\nother: *b\n").unwrap(),
            json!({"base": {"x": 1}, "other": {"x": 1}})
        );
        // Nine levels of ten aliases each: 10^9 values once expanded, in 400 bytes.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for level in 1..10 {
            let p = level - 1;
            bomb.push_str(&format!(
                "a{level}: &a{level} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let error = parse(&bomb).unwrap_err();
        assert!(error.contains("aliases expand"), "{error}");
    }
}
