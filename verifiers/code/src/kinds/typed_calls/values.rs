//! Values of a typed call: read from the task's JSON by their declared type, compared as the
//! type compares them, and shown in a case's detail.
//!
//! Plain JSON carries what it can (`[1, 2]` for a vector, `"abc"` for a string, `null` for an
//! absent optional); the tags of rewardbox's value JSON carry the rest: `{"$f": "nan" | "inf" |
//! "-inf"}` a float that is not finite, `{"$t": [...]}` a tuple (a plain list is accepted too),
//! `{"$s": [...]}` a set (or a list), `{"$d": [[key, value], ...]}` a map with keys that are not
//! strings (or the list of pairs alone, as C++ writes a map's initialiser; an object is accepted
//! when the keys are strings or numbers written as strings).
//! `-0.0` is a float's negative zero. A dynamic value is read as [`crate::kinds::typed_calls::dynamic`]
//! (Go's `interface{}`) and [`crate::kinds::typed_calls::cpp_any`] (C++'s `std::any`) say.

use crate::compare::within;
use crate::kinds::typed_calls::cpp_any;
use crate::kinds::typed_calls::dynamic;
use crate::langs::types::{self, Ty};
use serde_json::Value;

/// A value of a [`Ty`].
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// `bool`.
    Bool(bool),
    /// Any integer (and a C++ `char`'s byte, a Rust `char`'s or Go `rune`'s code point).
    Int(i128),
    /// A float (a 32-bit one widened).
    Float(f64),
    /// A string's bytes (UTF-8 for Rust; C++ and Go strings may hold any bytes).
    Str(Vec<u8>),
    /// A sequence, array, set (in any order), tuple, or map entries (key, value as a pair).
    List(Vec<Val>),
    /// An absent optional, a nil pointer, slice or map.
    Nil,
    /// A present optional.
    Some(Box<Val>),
    /// No value.
    Unit,
    /// A dynamic value: the type it holds and the value.
    Held(Box<Held>),
}

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

/// Reads `json` as a value of `ty`, or says why it is not one.
pub fn from_json(json: &Value, ty: &Ty) -> Result<Val, String> {
    let wrong = |what: &str| Err(format!("{} is not {what}", short(json)));
    match ty {
        Ty::Bool => json
            .as_bool()
            .map(Val::Bool)
            .map_or_else(|| wrong("a bool"), Ok),
        Ty::Int { signed, bits } => {
            let n = json
                .as_i64()
                .map(i128::from)
                .or_else(|| json.as_u64().map(i128::from));
            match n {
                Some(n) if in_range(n, *signed, *bits) => Ok(Val::Int(n)),
                Some(_) => wrong(&format!(
                    "in the range of a {}{bits}-bit integer",
                    sign(*signed)
                )),
                None => wrong("an integer"),
            }
        }
        Ty::Char => match json {
            Value::String(s) if s.chars().count() == 1 => Ok(Val::Int(i128::from(u32::from(
                s.chars().next().unwrap_or('\0'),
            )))),
            Value::Number(n) if n.as_u64().is_some_and(|c| c <= 0x10ffff) => {
                Ok(Val::Int(i128::from(n.as_u64().unwrap_or(0))))
            }
            _ => wrong("a character (a string of one character, or its code)"),
        },
        // A 32-bit float's value is the nearest `f32`, as the language's literal of that type.
        Ty::Float { bits: 32 } => match from_json(json, &Ty::Float { bits: 64 })? {
            Val::Float(x) => Ok(Val::Float(f64::from(x as f32))),
            other => Ok(other),
        },
        Ty::Float { .. } => match json {
            Value::Number(n) => n
                .as_f64()
                .map(Val::Float)
                .map_or_else(|| wrong("a float"), Ok),
            Value::Object(o) if o.len() == 1 => match o.get("$f").and_then(Value::as_str) {
                Some("nan") => Ok(Val::Float(f64::NAN)),
                Some("inf") => Ok(Val::Float(f64::INFINITY)),
                Some("-inf") => Ok(Val::Float(f64::NEG_INFINITY)),
                _ => wrong("a float ({\"$f\": \"nan\" | \"inf\" | \"-inf\"})"),
            },
            _ => wrong("a float"),
        },
        Ty::Str => json
            .as_str()
            .map(|s| Val::Str(s.as_bytes().to_vec()))
            .map_or_else(|| wrong("a string"), Ok),
        Ty::Seq(element) => match json {
            Value::Null => Ok(Val::Nil),
            _ => list(tagged(json, "$s").unwrap_or(json), element).map(Val::List),
        },
        Ty::Array(element, n) => {
            let items = list(json, element)?;
            if items.len() == *n {
                Ok(Val::List(items))
            } else {
                wrong(&format!("an array of {n} elements"))
            }
        }
        Ty::Set(element) => list(tagged(json, "$s").unwrap_or(json), element).map(Val::List),
        Ty::Map(key, value) => map(json, key, value),
        Ty::Tuple(types) => {
            let items = tagged(json, "$t").unwrap_or(json);
            match items.as_array() {
                Some(items) if items.len() == types.len() => items
                    .iter()
                    .zip(types)
                    .map(|(item, ty)| from_json(item, ty))
                    .collect::<Result<_, _>>()
                    .map(Val::List),
                _ => wrong(&format!("a tuple of {} elements", types.len())),
            }
        }
        Ty::Option(inner) => match json {
            Value::Null => Ok(Val::Nil),
            other => Ok(Val::Some(Box::new(from_json(other, inner)?))),
        },
        Ty::Unit => match json {
            Value::Null => Ok(Val::Unit),
            _ => wrong("null (the function returns nothing)"),
        },
        Ty::Dynamic => go_held(json),
        Ty::CppAny => cpp_held(json),
        Ty::Struct { name, fields } => structure(json, name, fields),
    }
}

/// A struct: an object of its fields by name (each one, no other), or the list of their values
/// in order.
fn structure(json: &Value, name: &str, fields: &[(String, Ty)]) -> Result<Val, String> {
    let values: Vec<&Value> = match json {
        Value::Object(object) => {
            if let Some(extra) = object.keys().find(|k| !fields.iter().any(|(f, _)| f == *k)) {
                return Err(format!("`{name}` has no field `{extra}`"));
            }
            fields
                .iter()
                .map(|(field, _)| {
                    object.get(field).ok_or_else(|| {
                        format!("{} has no `{field}` (a field of `{name}`)", short(json))
                    })
                })
                .collect::<Result<_, _>>()?
        }
        Value::Array(items) if items.len() == fields.len() => items.iter().collect(),
        _ => {
            return Err(format!(
                "{} is not a `{name}` (an object of its fields, or the list of their {} values)",
                short(json),
                fields.len()
            ));
        }
    };
    values
        .into_iter()
        .zip(fields)
        .map(|(value, (field, ty))| {
            from_json(value, ty).map_err(|why| format!("`{name}.{field}`: {why}"))
        })
        .collect::<Result<_, _>>()
        .map(Val::List)
}

fn tagged<'a>(json: &'a Value, tag: &str) -> Option<&'a Value> {
    json.as_object()
        .filter(|o| o.len() == 1)
        .and_then(|o| o.get(tag))
}

fn list(json: &Value, element: &Ty) -> Result<Vec<Val>, String> {
    json.as_array()
        .ok_or_else(|| format!("{} is not a list", short(json)))?
        .iter()
        .map(|item| from_json(item, element))
        .collect()
}

fn map(json: &Value, key: &Ty, value: &Ty) -> Result<Val, String> {
    let listed = match json {
        Value::Array(_) => Some(json),
        _ => tagged(json, "$d"),
    };
    if let Some(entries) = listed {
        let entries = entries
            .as_array()
            .ok_or_else(|| "{\"$d\": ...} must be a list of [key, value] pairs".to_string())?;
        return entries
            .iter()
            .map(|entry| match entry.as_array().map(Vec::as_slice) {
                Some([k, v]) => Ok(Val::List(vec![from_json(k, key)?, from_json(v, value)?])),
                _ => Err(format!("{} is not a [key, value] pair", short(entry))),
            })
            .collect::<Result<_, _>>()
            .map(Val::List);
    }
    match json {
        Value::Null => Ok(Val::Nil),
        Value::Object(object) => object
            .iter()
            .map(|(k, v)| {
                let k = match key {
                    Ty::Str | Ty::Char | Ty::Dynamic | Ty::CppAny => Value::String(k.clone()),
                    _ => serde_json::from_str(k).map_err(|_| {
                        format!("the key {k:?} is not a value of the map's key type")
                    })?,
                };
                Ok(Val::List(vec![from_json(&k, key)?, from_json(v, value)?]))
            })
            .collect::<Result<_, String>>()
            .map(Val::List),
        _ => Err(format!("{} is not a map", short(json))),
    }
}

fn sign(signed: bool) -> &'static str {
    if signed { "signed " } else { "unsigned " }
}

/// Whether `n` fits an integer of `bits` bits.
pub fn in_range(n: i128, signed: bool, bits: u8) -> bool {
    if bits >= 128 {
        return signed || n >= 0;
    }
    if signed {
        let half = 1i128 << (bits - 1);
        (-half..half).contains(&n)
    } else {
        (0..(1i128 << bits)).contains(&n)
    }
}

fn short(json: &Value) -> String {
    crate::compare::preview(&json.to_string())
}

/// Whether `actual` equals `expected`, both of type `ty`: as the language's `==` compares them
/// (`-0.0 == 0.0`; sets and maps without order), except that a NaN expected is matched by a NaN,
/// and floats within `tolerance` when the task gives one. A nil slice or map equals an empty one
/// that is expected (`[]`), as Go programs treat them; `null` expected asks for nil.
pub fn equal(actual: &Val, expected: &Val, ty: &Ty, tolerance: Option<f64>) -> bool {
    match (ty, actual, expected) {
        (Ty::Float { .. }, Val::Float(a), Val::Float(b)) => {
            a == b || (a.is_nan() && b.is_nan()) || tolerance.is_some_and(|t| within(*a, *b, t))
        }
        (Ty::Seq(_) | Ty::Map(..), Val::Nil, Val::List(items)) => items.is_empty(),
        (Ty::Seq(element) | Ty::Array(element, _), Val::List(a), Val::List(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .all(|(x, y)| equal(x, y, element, tolerance))
        }
        (Ty::Tuple(types), Val::List(a), Val::List(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .zip(types)
                    .all(|((x, y), t)| equal(x, y, t, tolerance))
        }
        (Ty::Set(element), Val::List(a), Val::List(b)) => {
            same_elements(a, b, |x, y| equal(x, y, element, tolerance))
        }
        (Ty::Map(key, value), Val::List(a), Val::List(b)) => {
            let entry = Ty::Tuple(vec![(**key).clone(), (**value).clone()]);
            same_elements(a, b, |x, y| equal(x, y, &entry, tolerance))
        }
        (Ty::Struct { fields, .. }, Val::List(a), Val::List(b)) => {
            a.len() == b.len()
                && a.iter()
                    .zip(b)
                    .zip(fields)
                    .all(|((x, y), (_, t))| equal(x, y, t, tolerance))
        }
        (Ty::Option(inner), Val::Some(a), Val::Some(b)) => equal(a, b, inner, tolerance),
        (Ty::Dynamic | Ty::CppAny, Val::Held(a), Val::Held(b)) => {
            a.name == b.name && equal(&a.value, &b.value, &a.ty, tolerance)
        }
        _ => actual == expected,
    }
}

/// Whether `a` and `b` hold the same elements, each matched once, in any order.
fn same_elements(a: &[Val], b: &[Val], eq: impl Fn(&Val, &Val) -> bool) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut used = vec![false; b.len()];
    a.iter().all(|x| {
        let found = (0..b.len()).find(|&j| !used[j] && eq(x, &b[j]));
        if let Some(j) = found {
            used[j] = true;
        }
        found.is_some()
    })
}

/// `value` of type `ty` as the task's JSON writes it, so that [`from_json`] reads it back as the
/// same value: plain JSON where it can say it, the tags otherwise (`{"$f": "nan"}`, `{"$t": ...}`
/// for a tuple, `{"$s": ...}` for a set, `{"$d": ...}` for a map, a struct as the object of its
/// fields). `None` for what JSON cannot carry: a string that is not UTF-8, an integer beyond 64
/// bits, a dynamic value.
pub fn to_json(value: &Val, ty: &Ty) -> Option<Value> {
    let items = |items: &[Val], ty: &Ty| -> Option<Value> {
        items
            .iter()
            .map(|v| to_json(v, ty))
            .collect::<Option<Vec<_>>>()
            .map(Value::Array)
    };
    let tagged =
        |tag: &str, inner: Value| Value::Object([(tag.to_string(), inner)].into_iter().collect());
    Some(match (ty, value) {
        (Ty::Dynamic | Ty::CppAny, _) | (_, Val::Held(_)) => return None,
        (_, Val::Bool(b)) => Value::Bool(*b),
        (Ty::Char, Val::Int(c)) => match u32::try_from(*c).ok().and_then(char::from_u32) {
            Some(ch) => Value::String(ch.to_string()),
            None => Value::from(u64::try_from(*c).ok()?),
        },
        (_, Val::Int(n)) => match i64::try_from(*n) {
            Ok(n) => Value::from(n),
            Err(_) => Value::from(u64::try_from(*n).ok()?),
        },
        (_, Val::Float(x)) if x.is_nan() => tagged("$f", Value::from("nan")),
        (_, Val::Float(x)) if x.is_infinite() => {
            tagged("$f", Value::from(if *x > 0.0 { "inf" } else { "-inf" }))
        }
        (_, Val::Float(x)) => Value::from(*x),
        (_, Val::Str(bytes)) => Value::String(String::from_utf8(bytes.clone()).ok()?),
        (Ty::Seq(e) | Ty::Array(e, _), Val::List(list)) => items(list, e)?,
        (Ty::Set(e), Val::List(list)) => tagged("$s", items(list, e)?),
        (Ty::Tuple(types), Val::List(list)) if list.len() == types.len() => tagged(
            "$t",
            Value::Array(
                list.iter()
                    .zip(types)
                    .map(|(v, t)| to_json(v, t))
                    .collect::<Option<_>>()?,
            ),
        ),
        (Ty::Map(k, v), Val::List(entries)) => tagged(
            "$d",
            Value::Array(
                entries
                    .iter()
                    .map(|entry| match entry {
                        Val::List(kv) if kv.len() == 2 => {
                            Some(Value::Array(vec![to_json(&kv[0], k)?, to_json(&kv[1], v)?]))
                        }
                        _ => None,
                    })
                    .collect::<Option<_>>()?,
            ),
        ),
        (Ty::Struct { fields, .. }, Val::List(list)) if list.len() == fields.len() => {
            Value::Object(
                list.iter()
                    .zip(fields)
                    .map(|(v, (field, t))| Some((field.clone(), to_json(v, t)?)))
                    .collect::<Option<_>>()?,
            )
        }
        (Ty::Option(inner), Val::Some(v)) => to_json(v, inner)?,
        (_, Val::Nil | Val::Unit) => Value::Null,
        _ => return None,
    })
}

/// `value` of type `ty` as a case's detail shows it: JSON where JSON can say it, `(a, b)` for a
/// tuple, `{a, b}` for a set, `{k: v}` for a map, `nan`, `inf`, `nil`.
pub fn show(value: &Val, ty: &Ty) -> String {
    let joined = |items: &[Val], ty: &Ty| -> String {
        items
            .iter()
            .map(|v| show(v, ty))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (ty, value) {
        // With the held type where JSON's form does not say it: `int32(99)`, `[]string["a"]`.
        (_, Val::Held(held)) => {
            let shown = show(&held.value, &held.ty);
            let default = match ty {
                Ty::CppAny => cpp_default_name(&held.value),
                _ => go_default_name(&held.value),
            };
            if default == Some(held.name.as_str()) {
                shown
            } else if matches!(held.value, Val::List(_)) {
                format!("{}{shown}", held.name)
            } else {
                format!("{}({shown})", held.name)
            }
        }
        (_, Val::Bool(b)) => b.to_string(),
        (Ty::Char, Val::Int(c)) => match u32::try_from(*c).ok().and_then(char::from_u32) {
            Some(ch) => serde_json::to_string(&ch.to_string()).unwrap_or_default(),
            None => c.to_string(),
        },
        (_, Val::Int(n)) => n.to_string(),
        (_, Val::Float(x)) if x.is_nan() => "nan".into(),
        (_, Val::Float(x)) if x.is_infinite() => if *x > 0.0 { "inf" } else { "-inf" }.into(),
        (_, Val::Float(x)) => format!("{x:?}"),
        (_, Val::Str(bytes)) => {
            serde_json::to_string(&String::from_utf8_lossy(bytes)).unwrap_or_default()
        }
        (Ty::Seq(e) | Ty::Array(e, _), Val::List(items)) => format!("[{}]", joined(items, e)),
        (Ty::Set(e), Val::List(items)) => format!("{{{}}}", joined(items, e)),
        (Ty::Tuple(types), Val::List(items)) => format!(
            "({})",
            items
                .iter()
                .zip(types)
                .map(|(v, t)| show(v, t))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (Ty::Map(k, v), Val::List(entries)) => format!(
            "{{{}}}",
            entries
                .iter()
                .map(|entry| match entry {
                    Val::List(kv) if kv.len() == 2 => {
                        format!("{}: {}", show(&kv[0], k), show(&kv[1], v))
                    }
                    other => format!("{other:?}"),
                })
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (Ty::Struct { name, fields }, Val::List(items)) => format!(
            "{name}{{{}}}",
            items
                .iter()
                .zip(fields)
                .map(|(v, (field, t))| format!("{field}: {}", show(v, t)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (Ty::Option(inner), Val::Some(v)) => show(v, inner),
        (Ty::Option(_), Val::Nil) => "null".into(),
        (_, Val::Nil) => "nil".into(),
        (_, Val::Unit) => "null".into(),
        (_, other) => format!("{other:?}"),
    }
}

/// Reads `json` as a Go interface value ([`dynamic`] says how).
fn go_held(json: &Value) -> Result<Val, String> {
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
                .filter(|t| dynamic::GO_TYPES.contains(&t.name.as_str()))
            else {
                return Err(format!(
                    "a Go interface value of type `{}` cannot cross (the types that do: {})",
                    name.trim(),
                    dynamic::GO_TYPES.join(", ")
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
fn go_default_name(value: &Val) -> Option<&'static str> {
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

/// Reads `json` as a C++ dynamic value ([`cpp_any`] says how).
fn cpp_held(json: &Value) -> Result<Val, String> {
    let held = |name: &'static str, value: Val| -> Result<Val, String> {
        Ok(Val::Held(Box::new(Held {
            name: name.to_string(),
            ty: cpp_any::held_type(name)?,
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
            let Some(name) = cpp_any::canonical_name(name) else {
                return Err(format!(
                    "a C++ dynamic value holding a `{}` cannot cross (the types that do: {})",
                    name.trim(),
                    cpp_any::CPP_TYPES.join(", ")
                ));
            };
            held(name, from_json(value, &cpp_any::held_type(name)?)?)
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
fn cpp_default_name(value: &Val) -> Option<&'static str> {
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

    fn held_name(v: &Val) -> &str {
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
            let v = go_held(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(held_name(&v), name, "{json}");
        }
        assert_eq!(go_held(&json!(null)), Ok(Val::Nil));
        // The value inside is read by the held type.
        let rune = go_held(&json!({"$type": "rune", "value": "c"})).unwrap();
        assert!(matches!(&rune, Val::Held(h) if h.value == Val::Int(99)));
        let nested = go_held(&json!([1, 2.5])).unwrap();
        let Val::Held(h) = nested else { panic!() };
        let Val::List(items) = &h.value else { panic!() };
        assert_eq!(
            items.iter().map(held_name).collect::<Vec<_>>(),
            ["int", "float64"]
        );
    }

    #[test]
    fn a_go_type_that_does_not_cross_is_named() {
        for (json, word) in [
            (json!({"$type": "complex128", "value": 1}), "complex128"),
            (json!({"$type": "chan int", "value": 1}), "chan int"),
            (json!({"$type": "[]rune", "value": "x"}), "is not a list"),
            (json!({"$type": "int8", "value": 300}), "8-bit"),
            (json!({"$type": "int"}), "\"$type\""),
            (json!(18446744073709551615u64), "does not fit a Go int"),
        ] {
            let err = go_held(&json).unwrap_err();
            assert!(err.contains(word), "{json}: {err}");
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
            let v = cpp_held(&json).unwrap_or_else(|e| panic!("{json}: {e}"));
            assert_eq!(held_name(&v), name, "{json}");
        }
        assert_eq!(cpp_held(&json!(null)), Ok(Val::Nil));
        let Val::Held(list) = cpp_held(&json!([1, 2.5, null])).unwrap() else {
            panic!()
        };
        let Val::List(items) = &list.value else {
            panic!()
        };
        assert_eq!(
            items.iter().map(held_name).collect::<Vec<_>>(),
            ["int", "double", ""]
        );
        // A float's value is the nearest float.
        let Val::Held(f) = cpp_held(&json!({"$type": "float", "value": 0.1})).unwrap() else {
            panic!()
        };
        assert_eq!(f.value, Val::Float(f64::from(0.1f32)));
    }

    #[test]
    fn a_cpp_type_that_does_not_cross_is_named() {
        for (json, word) in [
            (
                json!({"$type": "set<int>", "value": [1]}),
                "`set<int>` cannot cross",
            ),
            (json!({"$type": "char", "value": "ab"}), "a character"),
            (json!({"$type": "short", "value": 70000}), "16-bit"),
            (json!({"$type": "int"}), "\"$type\""),
        ] {
            let err = cpp_held(&json).unwrap_err();
            assert!(err.contains(word), "{json}: {err}");
        }
    }

    fn int32() -> Ty {
        Ty::Int {
            signed: true,
            bits: 32,
        }
    }

    #[test]
    fn json_is_read_by_the_declared_type() {
        let f64t = Ty::Float { bits: 64 };
        assert_eq!(from_json(&json!(3), &f64t), Ok(Val::Float(3.0)));
        let f32t = Ty::Float { bits: 32 };
        assert_eq!(
            from_json(&json!(3.9), &f32t),
            Ok(Val::Float(f64::from(3.9f32)))
        );
        assert!(
            matches!(from_json(&json!({"$f": "-inf"}), &f32t), Ok(Val::Float(x)) if x == f64::NEG_INFINITY)
        );
        let neg_zero = from_json(&json!(-0.0), &f64t).unwrap();
        assert!(matches!(neg_zero, Val::Float(z) if z == 0.0 && z.is_sign_negative()));
        assert!(matches!(from_json(&json!({"$f": "nan"}), &f64t), Ok(Val::Float(x)) if x.is_nan()));
        assert!(from_json(&json!(2147483648i64), &int32()).is_err());
        assert!(
            from_json(
                &json!(-1),
                &Ty::Int {
                    signed: false,
                    bits: 64
                }
            )
            .is_err()
        );
        assert!(from_json(&json!(1.5), &int32()).is_err());
        assert_eq!(from_json(&json!("é"), &Ty::Char), Ok(Val::Int(0xe9)));
        let pair = Ty::Tuple(vec![int32(), Ty::Str]);
        let expected = Val::List(vec![Val::Int(1), Val::Str(b"a".to_vec())]);
        assert_eq!(from_json(&json!([1, "a"]), &pair), Ok(expected.clone()));
        assert_eq!(from_json(&json!({"$t": [1, "a"]}), &pair), Ok(expected));
        assert!(from_json(&json!([1]), &pair).is_err());
        let by_int = Ty::Map(Box::new(int32()), Box::new(Ty::Bool));
        let entries = Val::List(vec![Val::List(vec![Val::Int(7), Val::Bool(true)])]);
        assert_eq!(from_json(&json!({"7": true}), &by_int), Ok(entries.clone()));
        assert_eq!(
            from_json(&json!({"$d": [[7, true]]}), &by_int),
            Ok(entries.clone())
        );
        assert_eq!(from_json(&json!([[7, true]]), &by_int), Ok(entries));
        assert!(from_json(&json!([[7]]), &by_int).is_err());
        let opt = Ty::Option(Box::new(int32()));
        assert_eq!(from_json(&json!(null), &opt), Ok(Val::Nil));
        assert_eq!(
            from_json(&json!(5), &opt),
            Ok(Val::Some(Box::new(Val::Int(5))))
        );
        assert!(from_json(&json!([1, 2]), &Ty::Array(Box::new(int32()), 3)).is_err());
    }

    #[test]
    fn values_compare_as_their_type_does() {
        let f = Ty::Float { bits: 64 };
        assert!(equal(&Val::Float(-0.0), &Val::Float(0.0), &f, None));
        assert!(equal(
            &Val::Float(f64::NAN),
            &Val::Float(f64::NAN),
            &f,
            None
        ));
        assert!(!equal(&Val::Float(1.0), &Val::Float(f64::NAN), &f, None));
        assert!(!equal(&Val::Float(0.1 + 0.2), &Val::Float(0.3), &f, None));
        assert!(equal(
            &Val::Float(0.1 + 0.2),
            &Val::Float(0.3),
            &f,
            Some(1e-9)
        ));
        let set = Ty::Set(Box::new(int32()));
        let a = Val::List(vec![Val::Int(1), Val::Int(2)]);
        let b = Val::List(vec![Val::Int(2), Val::Int(1)]);
        assert!(equal(&a, &b, &set, None));
        assert!(!equal(&a, &b, &Ty::Seq(Box::new(int32())), None));
        let multiset = Val::List(vec![Val::Int(1), Val::Int(1)]);
        assert!(!equal(&multiset, &a, &set, None));
        let seq = Ty::Seq(Box::new(int32()));
        assert!(equal(&Val::Nil, &Val::List(vec![]), &seq, None));
        assert!(!equal(&Val::List(vec![]), &Val::Nil, &seq, None));
    }

    /// What `to_json` writes, `from_json` reads back as the same value, for every type JSON can
    /// carry; what it cannot carry is `None`.
    #[test]
    fn values_written_as_json_read_back_the_same() {
        let f64t = Ty::Float { bits: 64 };
        let table: Vec<(Ty, Value)> = vec![
            (int32(), json!(-7)),
            (
                Ty::Int {
                    signed: false,
                    bits: 64,
                },
                json!(18446744073709551615u64),
            ),
            (Ty::Bool, json!(true)),
            (Ty::Char, json!("é")),
            (f64t.clone(), json!(-0.0)),
            (f64t.clone(), json!(2.5)),
            (f64t.clone(), json!({"$f": "-inf"})),
            (Ty::Str, json!("a\"b")),
            (Ty::Seq(Box::new(int32())), json!([3, 1, 2])),
            (Ty::Seq(Box::new(int32())), json!(null)),
            (Ty::Array(Box::new(Ty::Bool), 2), json!([true, false])),
            (Ty::Set(Box::new(int32())), json!({"$s": [2, 1]})),
            (Ty::Tuple(vec![int32(), Ty::Str]), json!({"$t": [1, "a"]})),
            (
                Ty::Map(Box::new(int32()), Box::new(Ty::Str)),
                json!({"$d": [[7, "x"]]}),
            ),
            (Ty::Option(Box::new(int32())), json!(null)),
            (Ty::Option(Box::new(int32())), json!(4)),
            (
                Ty::Struct {
                    name: "P".into(),
                    fields: vec![("x".into(), int32()), ("y".into(), f64t.clone())],
                },
                json!({"x": 1, "y": 0.5}),
            ),
        ];
        for (ty, json) in table {
            let value = from_json(&json, &ty).unwrap();
            let written = to_json(&value, &ty).unwrap_or_else(|| panic!("{json}"));
            assert_eq!(
                from_json(&written, &ty),
                Ok(value.clone()),
                "{json} -> {written}"
            );
            let nan = from_json(&json!({"$f": "nan"}), &f64t).unwrap();
            assert_eq!(to_json(&nan, &f64t), Some(json!({"$f": "nan"})));
        }
        assert_eq!(to_json(&Val::Str(vec![0xff]), &Ty::Str), None);
        assert_eq!(to_json(&Val::Int(1 << 70), &int32()), None);
    }

    #[test]
    fn values_show_as_a_reader_expects() {
        let ty = Ty::Seq(Box::new(Ty::Tuple(vec![Ty::Char, Ty::Float { bits: 64 }])));
        let v = Val::List(vec![Val::List(vec![Val::Int(97), Val::Float(f64::NAN)])]);
        assert_eq!(show(&v, &ty), "[(\"a\", nan)]");
        let m = Ty::Map(Box::new(Ty::Str), Box::new(int32()));
        let v = Val::List(vec![Val::List(vec![Val::Str(b"k".to_vec()), Val::Int(1)])]);
        assert_eq!(show(&v, &m), "{\"k\": 1}");
    }
}
