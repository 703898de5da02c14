//! Python's `==` between built-in values, and the keys that make sets and dicts compare in
//! linear time.
//!
//! Numbers compare by value across `bool`, `int`, `float` and `complex`, exactly (an `int` and a
//! `float` are equal only when the float is that integer); a NaN equals nothing, since the two
//! sides are never the same object; a list never equals a tuple, nor a `str` a `bytes`; a `set`
//! equals a `frozenset` with the same elements; a handle equals nothing.

use crate::value::{Int, Value};
use std::collections::{HashMap, HashSet};

/// A number, as Python compares numbers.
enum Number<'a> {
    Int(std::borrow::Cow<'a, Int>),
    Float(f64),
    Complex(f64, f64),
}

fn number(value: &Value) -> Option<Number<'_>> {
    Some(match value {
        Value::Bool(b) => Number::Int(std::borrow::Cow::Owned(Int::from_bool(*b))),
        Value::Int(i) => Number::Int(std::borrow::Cow::Borrowed(i)),
        Value::Float(f) => Number::Float(*f),
        Value::Complex(re, im) => Number::Complex(*re, *im),
        _ => return None,
    })
}

fn numbers_equal(a: &Number<'_>, b: &Number<'_>) -> bool {
    match (a, b) {
        (Number::Int(x), Number::Int(y)) => x == y,
        (Number::Int(i), Number::Float(f)) | (Number::Float(f), Number::Int(i)) => {
            Int::from_integral_float(*f).is_some_and(|exact| &exact == i.as_ref())
        }
        (Number::Float(x), Number::Float(y)) => x == y,
        (Number::Complex(re1, im1), Number::Complex(re2, im2)) => re1 == re2 && im1 == im2,
        (Number::Complex(re, im), other) | (other, Number::Complex(re, im)) => {
            *im == 0.0 && numbers_equal(&Number::Float(*re), other)
        }
    }
}

impl Value {
    /// Python's `self == other` between two values decoded apart from each other.
    pub fn python_eq(&self, other: &Value) -> bool {
        if let (Some(a), Some(b)) = (number(self), number(other)) {
            return numbers_equal(&a, &b);
        }
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Str(a), Value::Str(b)) => a == b,
            (Value::Bytes(a), Value::Bytes(b)) => a == b,
            (Value::List(a), Value::List(b)) | (Value::Tuple(a), Value::Tuple(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.python_eq(y))
            }
            (Value::Set { items: a, .. }, Value::Set { items: b, .. }) => sets_equal(a, b),
            (Value::Dict(a), Value::Dict(b)) => dicts_equal(a, b),
            _ => false,
        }
    }

    /// A key equal for two hashable values exactly when Python finds them equal, or `None` for
    /// a value equal to nothing else (a NaN, a handle, or anything holding one). Unhashable
    /// values (lists, dicts, sets) have none either.
    pub(crate) fn hash_key(&self) -> Option<String> {
        Some(match self {
            Value::None => "N".to_string(),
            Value::Bool(b) => int_key(&Int::from_bool(*b)),
            Value::Int(i) => int_key(i),
            Value::Float(f) => float_key(*f)?,
            Value::Complex(re, im) if *im == 0.0 => float_key(*re)?,
            Value::Complex(re, im) => format!("c{}/{}", float_key(*re)?, float_key(*im)?),
            Value::Str(s) => format!("s{}:{s}", s.len()),
            Value::Bytes(b) => {
                let hex: String = b.iter().map(|byte| format!("{byte:02x}")).collect();
                format!("b{hex}")
            }
            Value::Tuple(items) => {
                let keys: Option<Vec<String>> = items.iter().map(Value::hash_key).collect();
                let keys = keys?;
                let inner: String = keys.iter().map(|k| format!("{}:{k}", k.len())).collect();
                format!("t{}({inner})", items.len())
            }
            Value::Set {
                frozen: true,
                items,
            } => {
                let keys: Option<Vec<String>> = items.iter().map(Value::hash_key).collect();
                let mut keys = keys?;
                keys.sort();
                let inner: String = keys.iter().map(|k| format!("{}:{k}", k.len())).collect();
                format!("F{}({inner})", items.len())
            }
            Value::List(_) | Value::Dict(_) | Value::Set { .. } | Value::Handle { .. } => {
                return None;
            }
        })
    }
}

fn int_key(i: &Int) -> String {
    format!("i{}", i.decimal())
}

/// An integral float keys as the integer it equals; any other by its bits (`-0.0` is integral).
fn float_key(f: f64) -> Option<String> {
    if f.is_nan() {
        return None;
    }
    Some(match Int::from_integral_float(f) {
        Some(i) => int_key(&i),
        None => format!("f{:x}", f.to_bits()),
    })
}

/// Two sets are equal when they have as many elements and each of one is in the other; an
/// element equal to nothing (a NaN, a handle) makes them unequal.
fn sets_equal(a: &[Value], b: &[Value]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let keys: Option<HashSet<String>> = b.iter().map(Value::hash_key).collect();
    let Some(keys) = keys else { return false };
    a.iter()
        .all(|x| x.hash_key().is_some_and(|k| keys.contains(&k)))
}

/// Two dicts are equal when they have as many entries and each key of one maps to an equal
/// value in the other.
fn dicts_equal(a: &[(Value, Value)], b: &[(Value, Value)]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut by_key = HashMap::with_capacity(b.len());
    for (k, v) in b {
        let Some(key) = k.hash_key() else {
            return false;
        };
        by_key.insert(key, v);
    }
    a.iter().all(|(k, v)| {
        k.hash_key()
            .and_then(|key| by_key.get(&key))
            .is_some_and(|other| v.python_eq(other))
    })
}
