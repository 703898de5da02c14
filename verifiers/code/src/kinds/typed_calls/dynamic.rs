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

/// The types a Go interface value may hold to cross, as `reflect.Type.String()` names them: the
/// ones of `wire/wire.go`'s registry that typed calls read (not complex numbers or
/// structs). `crates/rewardbox/tests/all/typed_calls.rs` sends each through a Go candidate and back.
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::langs::types;

    /// The names `wire.go` registers (`rewardboxWireTypes`), read from its list of zero values.
    fn registered_in_wire_go() -> Vec<String> {
        let source = include_str!("../../wire/wire.go");
        let start = source.find("for _, v := range []interface{}{").unwrap();
        let list = &source[start..];
        let list = &list[list.find('\n').unwrap()..list.find("} {").unwrap()];
        crate::langs::source::split_top_level(list, ',')
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
