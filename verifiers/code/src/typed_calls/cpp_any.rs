//! C++'s dynamic values (`std::any`, `boost::any`, as HumanEval-X's CPP/22 and MultiPL-E's C++
//! pass a list of them): each holds a value of one of [`CPP_TYPES`] and crosses with its place in
//! that list, the tag order of `program_tests/wire.hpp`'s `DynamicTypes`, or is empty.
//!
//! A case's JSON gives the held type as a C++ literal would get it: an integer an `int` (a
//! `long long` beyond `int`'s range, an `unsigned long long` beyond that), a number with a
//! fraction or exponent a `double`, a string a `std::string`, `true` a `bool`, `null` an empty
//! value, a list a `std::vector` of dynamic values and an object a `std::map<std::string, ...>`
//! of them. `{"$type": "const char*", "value": "a"}` names any other type of the list (`char`,
//! `float`, `long`, `vector<int>`...). Two dynamic values are equal when they hold the same type
//! and equal values (both empty: equal).

use crate::typed_calls::dynamic::Held;
use crate::typed_calls::types::{self, Ty};
use crate::typed_calls::values::{Val, from_json};
use serde_json::Value;

/// The types a C++ dynamic value may hold to cross, as C++ writes them without `std::` (`any`:
/// the dynamic type itself), in the tag order of `wire.hpp`'s `DynamicTypes`.
pub const CPP_TYPES: &[&str] = &[
    "bool",
    "char",
    "signed char",
    "unsigned char",
    "short",
    "unsigned short",
    "int",
    "unsigned",
    "long",
    "unsigned long",
    "long long",
    "unsigned long long",
    "float",
    "double",
    "long double",
    "string",
    "const char*",
    "vector<any>",
    "vector<int>",
    "vector<long>",
    "vector<long long>",
    "vector<float>",
    "vector<double>",
    "vector<string>",
    "vector<char>",
    "vector<bool>",
    "list<any>",
    "map<string, any>",
    "map<int, int>",
    "map<long, long>",
    "map<long long, long long>",
    "map<string, int>",
    "map<string, long>",
    "map<string, string>",
    "map<string, double>",
    "pair<any, any>",
];

/// The type held under `name`, one of [`CPP_TYPES`]: how its value crosses (`const char*` as a
/// string, `long double` as a `double`, as the wire's codecs carry them).
pub fn held_type(name: &str) -> Result<Ty, String> {
    match name {
        "const char*" => Ok(Ty::Str),
        _ => types::cpp(name, &[]),
    }
}

/// `name` as [`CPP_TYPES`] writes it, if it names one of them: `std::` and `boost::` dropped,
/// spaces as C++ programmers vary them, and the long forms of the integer types
/// (`unsigned int`, `long long int`).
pub fn canonical_name(name: &str) -> Option<&'static str> {
    let text = name.replace("std::", "").replace("boost::", "");
    // Words and punctuation, rejoined: words apart by one space, `, ` after a comma, nothing
    // around `<`, `>` and `*`.
    let mut spaced = String::new();
    let mut word = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            if word {
                spaced.push(' ');
            }
            spaced.push(c);
            while let Some(&next) = chars.peek().filter(|n| n.is_alphanumeric() || **n == '_') {
                spaced.push(next);
                chars.next();
            }
            word = true;
        } else if !c.is_whitespace() {
            spaced.push(c);
            if c == ',' {
                spaced.push(' ');
            }
            word = false;
        }
    }
    for (long, short) in [
        ("short int", "short"),
        ("long int", "long"),
        ("unsigned int", "unsigned"),
        ("signed int", "int"),
        ("char const*", "const char*"),
    ] {
        spaced = spaced.replace(long, short);
    }
    CPP_TYPES.iter().copied().find(|t| *t == spaced)
}

/// Reads `json` as a C++ dynamic value (see the module's documentation).
pub fn from_task(json: &Value) -> Result<Val, String> {
    let held = |name: &'static str, value: Val| -> Result<Val, String> {
        Ok(Val::Held(Box::new(Held {
            name: name.to_string(),
            ty: held_type(name)?,
            value,
        })))
    };
    match json {
        Value::Null => Ok(Val::Nil),
        Value::Bool(b) => held("bool", Val::Bool(*b)),
        Value::Number(n) if n.is_f64() => held("double", from_json(json, &double())?),
        Value::Number(n) => {
            let (i, u) = (n.as_i64(), n.as_u64());
            match (i.and_then(|i| i32::try_from(i).ok()), i, u) {
                (Some(int), _, _) => held("int", Val::Int(i128::from(int))),
                (None, Some(long_long), _) => held("long long", Val::Int(i128::from(long_long))),
                (None, None, Some(unsigned)) => {
                    held("unsigned long long", Val::Int(i128::from(unsigned)))
                }
                _ => Err(format!("{n} is not an integer C++ can hold")),
            }
        }
        Value::Object(o) if o.len() == 1 && o.contains_key("$f") => {
            held("double", from_json(json, &double())?)
        }
        Value::String(s) => held("string", Val::Str(s.as_bytes().to_vec())),
        Value::Array(_) => held(
            "vector<any>",
            from_json(json, &Ty::Seq(Box::new(Ty::CppAny)))?,
        ),
        Value::Object(o) if o.contains_key("$type") => {
            let (Some(Value::String(name)), Some(value), 2) =
                (o.get("$type"), o.get("value"), o.len())
            else {
                return Err(
                    "a typed value is {\"$type\": \"<C++ type>\", \"value\": <value>}".to_string(),
                );
            };
            let Some(name) = canonical_name(name) else {
                return Err(format!(
                    "a C++ dynamic value holding a `{}` cannot cross (the types that do: {})",
                    name.trim(),
                    CPP_TYPES.join(", ")
                ));
            };
            held(name, from_json(value, &held_type(name)?)?)
        }
        Value::Object(_) => held(
            "map<string, any>",
            from_json(json, &Ty::Map(Box::new(Ty::Str), Box::new(Ty::CppAny)))?,
        ),
    }
}

fn double() -> Ty {
    Ty::Float { bits: 64 }
}

/// The type C++ gives `value` when JSON writes it (the name a reader of a case's detail need not
/// be told).
pub fn default_name(value: &Val) -> Option<&'static str> {
    match value {
        Val::Bool(_) => Some("bool"),
        Val::Int(n) if i32::try_from(*n).is_ok() => Some("int"),
        Val::Int(n) if i64::try_from(*n).is_ok() => Some("long long"),
        Val::Int(_) => Some("unsigned long long"),
        Val::Float(_) => Some("double"),
        Val::Str(_) => Some("string"),
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
    fn json_gets_the_type_a_cpp_literal_gets() {
        let table = [
            (json!(4), "int"),
            (json!(-2147483648i64), "int"),
            (json!(2147483648i64), "long long"),
            (json!(18446744073709551615u64), "unsigned long long"),
            (json!(23.2), "double"),
            (json!({"$f": "nan"}), "double"),
            (json!("adasd"), "string"),
            (json!(false), "bool"),
            (json!([1, "a", null]), "vector<any>"),
            (json!({"k": 1}), "map<string, any>"),
            (json!({"$type": "char", "value": "c"}), "char"),
            (
                json!({"$type": "const char *", "value": "a"}),
                "const char*",
            ),
            (json!({"$type": "std::string", "value": "a"}), "string"),
            (json!({"$type": "float", "value": 2.5}), "float"),
            (json!({"$type": "long int", "value": 5}), "long"),
            (
                json!({"$type": "std::vector<std::any>", "value": [1]}),
                "vector<any>",
            ),
            (
                json!({"$type": "std::pair<boost::any,boost::any>", "value": [1, "x"]}),
                "pair<any, any>",
            ),
            (
                json!({"$type": "map<std::string,int>", "value": {"a": 1}}),
                "map<string, int>",
            ),
        ];
        for (json, name) in table {
            let v = from_task(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(name_of(&v), name, "{json}");
        }
        assert_eq!(from_task(&json!(null)), Ok(Val::Nil));
        let Val::Held(list) = from_task(&json!([1, 2.5, null])).unwrap() else {
            panic!()
        };
        let Val::List(items) = &list.value else {
            panic!()
        };
        assert_eq!(
            items.iter().map(name_of).collect::<Vec<_>>(),
            ["int", "double", ""]
        );
        // A float's value is the nearest float.
        let Val::Held(f) = from_task(&json!({"$type": "float", "value": 0.1})).unwrap() else {
            panic!()
        };
        assert_eq!(f.value, Val::Float(f64::from(0.1f32)));
    }

    #[test]
    fn a_type_that_does_not_cross_is_named() {
        for (json, word) in [
            (
                json!({"$type": "set<int>", "value": [1]}),
                "`set<int>` cannot cross",
            ),
            (json!({"$type": "char", "value": "ab"}), "a character"),
            (json!({"$type": "short", "value": 70000}), "16-bit"),
            (json!({"$type": "int"}), "\"$type\""),
        ] {
            let err = from_task(&json).unwrap_err();
            assert!(err.contains(word), "{json}: {err}");
        }
    }

    /// `DynamicTypes` as `wire.hpp` lists them, written as [`CPP_TYPES`] writes them.
    fn listed_in_wire_hpp() -> Vec<String> {
        let source = include_str!("../program_tests/wire.hpp");
        let start = source.find("using DynamicTypes = std::tuple<").unwrap();
        let list = &source[start + "using DynamicTypes = std::tuple<".len()..];
        let list = &list[..list.find(">;").unwrap()];
        crate::program_tests::source::split_top_level(list, ',')
            .into_iter()
            .map(|t| {
                let words: Vec<&str> = t
                    .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .collect();
                let t = if words.contains(&"A") {
                    t.replace("<A>", "<any>")
                        .replace("A, A", "any, any")
                        .replace(", A>", ", any>")
                } else {
                    t.to_string()
                };
                canonical_name(&t).map_or_else(|| format!("unread: {t}"), str::to_string)
            })
            .collect()
    }

    #[test]
    fn the_tags_are_wire_hpps() {
        assert_eq!(listed_in_wire_hpp(), CPP_TYPES);
        for name in CPP_TYPES {
            assert!(held_type(name).is_ok(), "{name}");
            assert_eq!(canonical_name(name), Some(*name));
        }
    }
}
