//! Values of a dynamic type (Go's `interface{}` / `any`): each carries the name of the type it
//! holds, as Go's `reflect` writes it (`int`, `float64`, `[]interface {}`), and crosses with it.
//!
//! A case's JSON gives the held type as a Go literal would get it in an `interface{}`: an integer
//! is an `int`, a number with a fraction or exponent a `float64`, a string a `string`, `true` a
//! `bool`, `null` a nil interface, a list a `[]interface {}` and an object a
//! `map[string]interface {}` of values typed the same way (Go's default types of untyped
//! constants: `assert.Equal(6.0, f())` asks for a `float64`). `{"$type": "rune", "value": "c"}`
//! names any other type of [`GO_TYPES`]. Two dynamic values are equal when they hold the same
//! type and equal values, as `reflect.DeepEqual` (testify's `assert.Equal`) compares them.

use crate::typed_calls::types::{self, Ty};
use crate::typed_calls::values::{Val, from_json};
use serde_json::Value;

/// The types a Go interface value may hold to cross, as `reflect.Type.String()` names them: the
/// ones of `program_tests/wire.go`'s registry that typed calls read (not complex numbers or
/// structs). `tests/typed_calls.rs` sends each through a Go candidate and back.
pub const GO_TYPES: &[&str] = &[
    "bool",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "float32",
    "float64",
    "string",
    "[]interface {}",
    "map[interface {}]interface {}",
    "map[string]interface {}",
    "[]int",
    "[]string",
    "[]float64",
    "[]bool",
    "[][]int",
    "[]int32",
    "[]uint8",
    "map[string]int",
    "map[int]int",
    "map[int32]int",
    "map[string]string",
    "map[string]bool",
    "[2]int",
    "[2]float64",
    "[2]string",
    "[2]interface {}",
    "[][2]int",
];

/// A value together with the type it is held as.
#[derive(Debug, Clone, PartialEq)]
pub struct Held {
    /// The held type's name (`reflect`'s).
    pub name: String,
    /// The held type.
    pub ty: Ty,
    /// The value.
    pub value: Val,
}

/// Reads `json` as a Go interface value (see the module's documentation).
pub fn go_from_json(json: &Value) -> Result<Val, String> {
    let held = |name: &str, value: Val| {
        Ok(Val::Held(Box::new(Held {
            name: name.to_string(),
            ty: types::go(name)?,
            value,
        })))
    };
    match json {
        Value::Null => Ok(Val::Nil),
        Value::Bool(b) => held("bool", Val::Bool(*b)),
        Value::Number(n) if n.is_f64() => held("float64", from_json(json, &float64())?),
        Value::Number(n) => match n.as_i64() {
            Some(i) => held("int", Val::Int(i128::from(i))),
            None => Err(format!(
                "{n} does not fit a Go int: name its type, {{\"$type\": \"uint64\", \"value\": {n}}}"
            )),
        },
        Value::String(s) => held("string", Val::Str(s.as_bytes().to_vec())),
        Value::Array(_) => held(
            "[]interface {}",
            from_json(json, &Ty::Seq(Box::new(Ty::Dynamic)))?,
        ),
        Value::Object(o) if o.contains_key("$type") => {
            let (Some(Value::String(name)), Some(value), 2) =
                (o.get("$type"), o.get("value"), o.len())
            else {
                return Err(
                    "a typed value is {\"$type\": \"<Go type>\", \"value\": <value>}".to_string(),
                );
            };
            let Some(written) = types::go_typed(name)
                .ok()
                .filter(|t| GO_TYPES.contains(&t.name.as_str()))
            else {
                return Err(format!(
                    "a Go interface value of type `{}` cannot cross (the types that do: {})",
                    name.trim(),
                    GO_TYPES.join(", ")
                ));
            };
            // Read as written (a `rune` from a character), held as Go holds it (an `int32`).
            let value = from_json(value, &written.ty)?;
            held(&written.name, value)
        }
        Value::Object(o) if o.len() == 1 && o.contains_key("$f") => {
            held("float64", from_json(json, &float64())?)
        }
        Value::Object(_) => held(
            "map[string]interface {}",
            from_json(json, &Ty::Map(Box::new(Ty::Str), Box::new(Ty::Dynamic)))?,
        ),
    }
}

fn float64() -> Ty {
    Ty::Float { bits: 64 }
}

/// The type Go's default typing gives `value` when JSON writes it (the name a reader of a case's
/// detail need not be told).
pub fn default_name(value: &Val) -> Option<&'static str> {
    match value {
        Val::Bool(_) => Some("bool"),
        Val::Int(_) => Some("int"),
        Val::Float(_) => Some("float64"),
        Val::Str(_) => Some("string"),
        Val::List(items) if items.iter().all(|i| matches!(i, Val::Held(_) | Val::Nil)) => {
            Some("[]interface {}")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn name_of(v: &Val) -> &str {
        match v {
            Val::Held(h) => &h.name,
            _ => "",
        }
    }

    #[test]
    fn json_gets_the_type_a_go_literal_gets_in_an_interface() {
        let table = [
            (json!(1), "int"),
            (json!(-7), "int"),
            (json!(6.0), "float64"),
            (json!(2.5e3), "float64"),
            (json!({"$f": "nan"}), "float64"),
            (json!("s"), "string"),
            (json!(true), "bool"),
            (json!([1, "a", null]), "[]interface {}"),
            (json!({"k": 1}), "map[string]interface {}"),
            (json!({"$type": "rune", "value": "c"}), "int32"),
            (json!({"$type": "byte", "value": 7}), "uint8"),
            (
                json!({"$type": "[]interface{}", "value": [1]}),
                "[]interface {}",
            ),
            (
                json!({"$type": "[2]interface {}", "value": [null, 1]}),
                "[2]interface {}",
            ),
            (
                json!({"$type": "map[interface{}]interface{}", "value": {"a": 1}}),
                "map[interface {}]interface {}",
            ),
            (
                json!({"$type": "uint64", "value": 18446744073709551615u64}),
                "uint64",
            ),
        ];
        for (json, name) in table {
            let v = go_from_json(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(name_of(&v), name, "{json}");
        }
        assert_eq!(go_from_json(&json!(null)), Ok(Val::Nil));
        // The value inside is read by the held type.
        let rune = go_from_json(&json!({"$type": "rune", "value": "c"})).unwrap();
        assert!(matches!(&rune, Val::Held(h) if h.value == Val::Int(99)));
        let nested = go_from_json(&json!([1, 2.5])).unwrap();
        let Val::Held(h) = nested else { panic!() };
        let Val::List(items) = &h.value else { panic!() };
        assert_eq!(
            items.iter().map(name_of).collect::<Vec<_>>(),
            ["int", "float64"]
        );
    }

    #[test]
    fn a_type_that_does_not_cross_is_named() {
        for (json, word) in [
            (json!({"$type": "complex128", "value": 1}), "complex128"),
            (json!({"$type": "chan int", "value": 1}), "chan int"),
            (json!({"$type": "[]rune", "value": "x"}), "is not a list"),
            (json!({"$type": "int8", "value": 300}), "8-bit"),
            (json!({"$type": "int"}), "\"$type\""),
            (json!(18446744073709551615u64), "does not fit a Go int"),
        ] {
            let err = go_from_json(&json).unwrap_err();
            assert!(err.contains(word), "{json}: {err}");
        }
    }

    /// The names `wire.go` registers (`rewardboxWireTypes`), read from its list of zero values.
    fn registered_in_wire_go() -> Vec<String> {
        let source = include_str!("../program_tests/wire.go");
        let start = source.find("for _, v := range []interface{}{").unwrap();
        let list = &source[start..];
        let list = &list[list.find('\n').unwrap()..list.find("} {").unwrap()];
        crate::program_tests::source::split_top_level(list, ',')
            .into_iter()
            .map(str::trim)
            .filter(|item| !item.is_empty())
            .map(|item| match item {
                "false" => "bool".to_string(),
                "\"\"" => "string".to_string(),
                _ => match item.strip_suffix("(0)") {
                    Some(conversion) => conversion.to_string(),
                    None => {
                        // A composite literal; `struct{}{}` is registered too, a type typed
                        // calls do not carry.
                        let ty = item.strip_suffix("{}").unwrap();
                        types::go_typed(ty).map_or_else(|_| ty.to_string(), |t| t.name)
                    }
                },
            })
            .collect()
    }

    #[test]
    fn every_type_that_crosses_is_one_wire_go_registers() {
        let registered = registered_in_wire_go();
        assert!(registered.len() > 30, "{registered:?}");
        for name in GO_TYPES {
            assert!(
                registered.iter().any(|r| r == name),
                "{name}: {registered:?}"
            );
        }
    }

    #[test]
    fn go_names_are_reflects() {
        for (text, name) in [
            ("rune", "int32"),
            ("[]byte", "[]uint8"),
            ("interface{}", "interface {}"),
            ("any", "interface {}"),
            (
                "map[interface{}] interface{}",
                "map[interface {}]interface {}",
            ),
            ("[ 2 ]interface{}", "[2]interface {}"),
            ("[][2]int", "[][2]int"),
            ("map[string][]rune", "map[string][]int32"),
        ] {
            assert_eq!(
                types::go_typed(text).map(|t| t.name).as_deref(),
                Ok(name),
                "{text}"
            );
        }
        // Every name of the list is a type typed calls read.
        for name in GO_TYPES {
            assert_eq!(types::go_typed(name).map(|t| t.name).as_deref(), Ok(*name));
        }
    }
}
