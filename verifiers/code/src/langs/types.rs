//! The types a typed call carries, read from the entry point's declaration in C++, Rust or Go.
//!
//! Only the task's declaration is read here (trusted text): the candidate's program is never
//! parsed. A type outside the model (a pointer, a struct, a trait object) is an error naming it,
//! so that the task says what to change instead of grading on a guess.

use crate::langs::source::split_top_level;
use crate::langs::structs::StructDef;

/// A type of the entry point's parameters or results.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// `bool`.
    Bool,
    /// An integer of `bits` bits (a Go `int` is 64, a C++ `long` 32, as in wasm32).
    Int {
        /// Whether it is signed.
        signed: bool,
        /// Its width.
        bits: u8,
    },
    /// A character: C++'s `char` (one byte), Rust's `char` or Go's `rune` (a code point).
    Char,
    /// A float of 32 or 64 bits.
    Float {
        /// Its width.
        bits: u8,
    },
    /// A string (`std::string`, `String`, `&str`, Go's `string`).
    Str,
    /// A sequence with its length (`vector`, `Vec`, a slice, `deque`, Go's `[]T`).
    Seq(Box<Ty>),
    /// An array of a fixed length (`std::array<T, N>`, `[T; N]`, Go's `[N]T`).
    Array(Box<Ty>, usize),
    /// A set, compared without order (`set`, `unordered_set`, `HashSet`, `BTreeSet`).
    Set(Box<Ty>),
    /// A map, compared without order (`map`, `unordered_map`, `HashMap`, `BTreeMap`,
    /// Go's `map[K]V`).
    Map(Box<Ty>, Box<Ty>),
    /// A tuple or a pair.
    Tuple(Vec<Ty>),
    /// A value that may be absent (`optional`, `Option`, a Go pointer).
    Option(Box<Ty>),
    /// No value (`void`, `()`).
    Unit,
    /// A value of any type, held with its type's name (Go's `interface{}` / `any`; see
    /// [`crate::kinds::typed_calls::dynamic`]).
    Dynamic,
    /// C++'s dynamic value (`std::any`, `boost::any`): a value held with its type, one of
    /// [`crate::kinds::typed_calls::cpp_any::CPP_TYPES`], or empty.
    CppAny,
    /// A C++ struct the declaration defines: its fields in order, each named
    /// ([`crate::langs::structs`]).
    Struct {
        /// The struct's name.
        name: String,
        /// Each field's name and type.
        fields: Vec<(String, Ty)>,
    },
}

/// Reads a C++ type (`const vector<pair<int, string>>&`, `long long`, `std::map<char,int>`).
/// `aliases` maps names the declaration defines (`typedef long long ll;`) to their types.
pub fn cpp(text: &str, aliases: &[(String, String)]) -> Result<Ty, String> {
    cpp_depth(text, aliases, &[], 0)
}

/// [`cpp`], where the declaration also defines `structs`.
pub fn cpp_with_structs(
    text: &str,
    aliases: &[(String, String)],
    structs: &[StructDef],
) -> Result<Ty, String> {
    cpp_depth(text, aliases, structs, 0)
}

fn cpp_depth(
    text: &str,
    aliases: &[(String, String)],
    structs: &[StructDef],
    depth: usize,
) -> Result<Ty, String> {
    if depth > 32 {
        return Err(format!("the type `{text}` nests too deeply"));
    }
    let unsupported = || {
        Err(format!(
            "the C++ type `{}` cannot cross as a call's value (typed calls carry integers, \
             floats, bool, char, std::string, vector, deque, list, array, set, map, pair, tuple, \
             optional, std::any, boost::any and the plain structs the declaration defines)",
            text.trim()
        ))
    };
    let cleaned = text.replace("std::", "").replace("&&", "").replace('&', "");
    let words: Vec<&str> = cleaned
        .split_whitespace()
        .filter(|w| !matches!(*w, "const" | "volatile" | "typename" | "struct"))
        .collect();
    let joined = words.join(" ");
    if joined.contains('*') {
        return unsupported();
    }
    if let Some(open) = joined.find('<') {
        let Some(inner) = joined[open + 1..].strip_suffix('>') else {
            return unsupported();
        };
        let name = joined[..open].trim();
        let args: Vec<&str> = split_top_level(inner, ',')
            .into_iter()
            .map(str::trim)
            .collect();
        let arg = |i: usize| -> Result<Box<Ty>, String> {
            let a = args
                .get(i)
                .ok_or_else(|| format!("`{name}` needs an argument"))?;
            Ok(Box::new(cpp_depth(a, aliases, structs, depth + 1)?))
        };
        return match name {
            "vector" | "deque" | "list" => Ok(Ty::Seq(arg(0)?)),
            "set" | "multiset" | "unordered_set" | "unordered_multiset" => Ok(Ty::Set(arg(0)?)),
            "map" | "unordered_map" | "multimap" | "unordered_multimap" => {
                Ok(Ty::Map(arg(0)?, arg(1)?))
            }
            "pair" | "tuple" => Ok(Ty::Tuple(
                args.iter()
                    .map(|a| cpp_depth(a, aliases, structs, depth + 1))
                    .collect::<Result<_, _>>()?,
            )),
            "optional" => Ok(Ty::Option(arg(0)?)),
            "array" => {
                let n = args
                    .get(1)
                    .and_then(|n| n.trim().parse().ok())
                    .ok_or_else(|| format!("`{joined}` needs a literal length"))?;
                Ok(Ty::Array(arg(0)?, n))
            }
            _ => unsupported(),
        };
    }
    let int = |signed, bits| Ok(Ty::Int { signed, bits });
    match joined.as_str() {
        "bool" => Ok(Ty::Bool),
        "char" | "signed char" => Ok(Ty::Char),
        "unsigned char" | "uint8_t" => int(false, 8),
        "int8_t" => int(true, 8),
        "short" | "short int" | "signed short" | "int16_t" => int(true, 16),
        "unsigned short" | "unsigned short int" | "uint16_t" => int(false, 16),
        "int" | "signed" | "signed int" | "int32_t" | "long" | "long int" | "signed long" => {
            int(true, 32)
        }
        "unsigned" | "unsigned int" | "uint32_t" | "size_t" | "unsigned long"
        | "unsigned long int" => int(false, 32),
        "long long" | "long long int" | "signed long long" | "int64_t" => int(true, 64),
        "unsigned long long" | "unsigned long long int" | "uint64_t" => int(false, 64),
        "float" => Ok(Ty::Float { bits: 32 }),
        "double" | "long double" => Ok(Ty::Float { bits: 64 }),
        "string" => Ok(Ty::Str),
        "void" => Ok(Ty::Unit),
        "any" | "boost::any" => Ok(Ty::CppAny),
        name => match aliases.iter().rev().find(|(alias, _)| alias == name) {
            Some((_, target)) => cpp_depth(target, aliases, structs, depth + 1),
            None => match structs.iter().find(|s| s.name == name) {
                Some(found) => Ok(Ty::Struct {
                    name: found.name.clone(),
                    fields: found
                        .fields
                        .iter()
                        .map(|(field, ty)| {
                            Ok((field.clone(), cpp_depth(ty, aliases, structs, depth + 1)?))
                        })
                        .collect::<Result<_, String>>()?,
                }),
                None => unsupported(),
            },
        },
    }
}

/// The type aliases a C++ declaration defines before its signature: `typedef T name;`,
/// `using name = T;` and `#define name T` (an object-like macro naming a type).
pub fn cpp_aliases(prefix: &str) -> Vec<(String, String)> {
    let mut aliases = Vec::new();
    for statement in prefix.split([';', '\n']) {
        let statement = statement.trim();
        if let Some(rest) = statement.strip_prefix("#define ") {
            let mut parts = rest.trim().splitn(2, char::is_whitespace);
            if let (Some(name), Some(target)) = (parts.next(), parts.next())
                && !name.contains('(')
            {
                aliases.push((name.to_string(), target.trim().to_string()));
            }
        } else if let Some(rest) = statement.strip_prefix("typedef ") {
            if let Some((target, name)) = rest.trim().rsplit_once(char::is_whitespace) {
                aliases.push((name.to_string(), target.trim().to_string()));
            }
        } else if let Some(rest) = statement.strip_prefix("using ")
            && let Some((name, target)) = rest.split_once('=')
        {
            aliases.push((name.trim().to_string(), target.trim().to_string()));
        }
    }
    aliases
}

/// Reads a Rust type (`&[i32]`, `Vec<(String, i64)>`, `Option<&str>`, `HashMap<char, usize>`).
pub fn rust(text: &str) -> Result<Ty, String> {
    rust_depth(text, &[], 0)
}

/// [`rust`], where the declaration also defines `structs`.
pub fn rust_with_structs(text: &str, structs: &[StructDef]) -> Result<Ty, String> {
    rust_depth(text, structs, 0)
}

fn rust_depth(text: &str, structs: &[StructDef], depth: usize) -> Result<Ty, String> {
    if depth > 32 {
        return Err(format!("the type `{text}` nests too deeply"));
    }
    let unsupported = || {
        Err(format!(
            "the Rust type `{}` cannot cross as a call's value (typed calls carry integers, \
             floats, bool, char, String and &str, Vec, slices, arrays, VecDeque, HashSet, \
             BTreeSet, HashMap, BTreeMap, tuples, Option, Box and the structs the declaration \
             defines)",
            text.trim()
        ))
    };
    let mut t = text.trim();
    // References, their lifetimes and `mut`.
    while let Some(rest) = t.strip_prefix('&') {
        t = rest.trim_start();
        if t.starts_with('\'') {
            t = t
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r)
                .trim_start();
        }
        t = t.strip_prefix("mut ").unwrap_or(t).trim_start();
    }
    if t.starts_with("dyn ") || t.starts_with("impl ") {
        return unsupported();
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let parts: Vec<&str> = split_top_level(inner, ',')
            .into_iter()
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.is_empty() {
            return Ok(Ty::Unit);
        }
        return Ok(Ty::Tuple(
            parts
                .iter()
                .map(|p| rust_depth(p, structs, depth + 1))
                .collect::<Result<_, _>>()?,
        ));
    }
    if let Some(inner) = t.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        let parts = split_top_level(inner, ';');
        let element = Box::new(rust_depth(parts[0], structs, depth + 1)?);
        return match parts.get(1) {
            None => Ok(Ty::Seq(element)),
            Some(n) => n
                .trim()
                .parse()
                .map(|n| Ty::Array(element, n))
                .map_err(|_| format!("`{t}` needs a literal length")),
        };
    }
    let (path, args) = match t.find('<') {
        Some(open) => match t[open + 1..].strip_suffix('>') {
            Some(inner) => (&t[..open], split_top_level(inner, ',')),
            None => return unsupported(),
        },
        None => (t, Vec::new()),
    };
    let name = path.rsplit("::").next().unwrap_or(path).trim();
    let arg = |i: usize| -> Result<Box<Ty>, String> {
        let a = args
            .get(i)
            .ok_or_else(|| format!("`{name}` needs an argument"))?;
        Ok(Box::new(rust_depth(a, structs, depth + 1)?))
    };
    let int = |signed, bits| Ok(Ty::Int { signed, bits });
    match name {
        "Vec" | "VecDeque" => Ok(Ty::Seq(arg(0)?)),
        "HashSet" | "BTreeSet" => Ok(Ty::Set(arg(0)?)),
        "HashMap" | "BTreeMap" => Ok(Ty::Map(arg(0)?, arg(1)?)),
        "Option" => Ok(Ty::Option(arg(0)?)),
        "Box" => Ok(*arg(0)?),
        "bool" => Ok(Ty::Bool),
        "char" => Ok(Ty::Char),
        "i8" => int(true, 8),
        "i16" => int(true, 16),
        "i32" | "isize" => int(true, 32),
        "i64" => int(true, 64),
        "i128" => int(true, 128),
        "u8" => int(false, 8),
        "u16" => int(false, 16),
        "u32" | "usize" => int(false, 32),
        "u64" => int(false, 64),
        "u128" => int(false, 128),
        "f32" => Ok(Ty::Float { bits: 32 }),
        "f64" => Ok(Ty::Float { bits: 64 }),
        "String" | "str" => Ok(Ty::Str),
        _ => match structs.iter().find(|s| s.name == name) {
            Some(found) if args.is_empty() => Ok(Ty::Struct {
                name: found.name.clone(),
                fields: found
                    .fields
                    .iter()
                    .map(|(field, ty)| Ok((field.clone(), rust_depth(ty, structs, depth + 1)?)))
                    .collect::<Result<_, String>>()?,
            }),
            _ => unsupported(),
        },
    }
}

/// Reads a Go type (`[]int`, `map[string][]float64`, `[3]rune`, `*int`).
pub fn go(text: &str) -> Result<Ty, String> {
    go_typed(text).map(|t| t.ty)
}

/// A Go type as typed calls carry it, and as `reflect` names it.
#[derive(Debug, Clone, PartialEq)]
pub struct GoType {
    /// How its values cross.
    pub ty: Ty,
    /// Its name as `reflect` gives it (and `%T` prints it): `rune` is `int32`, `byte` `uint8`,
    /// `interface{}` and `any` are `interface {}`, with no other spaces (`map[string][]int32`).
    pub name: String,
}

/// Reads a Go type with its `reflect` name (see [`GoType`]).
pub fn go_typed(text: &str) -> Result<GoType, String> {
    go_depth(text.trim(), &[], 0)
}

/// [`go`], where the declaration also defines `structs`.
pub fn go_with_structs(text: &str, structs: &[StructDef]) -> Result<Ty, String> {
    go_depth(text.trim(), structs, 0).map(|t| t.ty)
}

fn go_depth(t: &str, structs: &[StructDef], depth: usize) -> Result<GoType, String> {
    if depth > 32 {
        return Err(format!("the type `{t}` nests too deeply"));
    }
    let unsupported = || {
        Err(format!(
            "the Go type `{t}` cannot cross as a call's value (typed calls carry integers, \
             floats, bool, rune, string, slices, arrays, maps, pointers, interface{{}} and the \
             struct types the declaration defines, of exported fields)"
        ))
    };
    let inner = |text: &str| go_depth(text.trim(), structs, depth + 1);
    if let Some(rest) = t.strip_prefix("[]") {
        let element = inner(rest)?;
        return Ok(GoType {
            ty: Ty::Seq(Box::new(element.ty)),
            name: format!("[]{}", element.name),
        });
    }
    if let Some(rest) = t.strip_prefix('*') {
        let target = inner(rest)?;
        return Ok(GoType {
            ty: Ty::Option(Box::new(target.ty)),
            name: format!("*{}", target.name),
        });
    }
    if let Some(rest) = t.strip_prefix('[') {
        let Some((n, element)) = rest.split_once(']') else {
            return unsupported();
        };
        let n: usize = n
            .trim()
            .parse()
            .map_err(|_| format!("`{t}` needs a literal length"))?;
        let element = inner(element)?;
        return Ok(GoType {
            ty: Ty::Array(Box::new(element.ty), n),
            name: format!("[{n}]{}", element.name),
        });
    }
    if let Some(rest) = t.strip_prefix("map[") {
        let Some(close) = go_map_key_end(rest) else {
            return unsupported();
        };
        let (key, value) = (inner(&rest[..close])?, inner(&rest[close + 1..])?);
        return Ok(GoType {
            ty: Ty::Map(Box::new(key.ty), Box::new(value.ty)),
            name: format!("map[{}]{}", key.name, value.name),
        });
    }
    let int = |signed, bits| Ty::Int { signed, bits };
    let compact: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let (ty, name) = match compact.as_str() {
        "bool" => (Ty::Bool, t),
        "int" | "int64" => (int(true, 64), t),
        "int8" => (int(true, 8), t),
        "int16" => (int(true, 16), t),
        "int32" => (int(true, 32), t),
        "uint" | "uint64" | "uintptr" => (int(false, 64), t),
        "uint8" => (int(false, 8), t),
        "byte" => (int(false, 8), "uint8"),
        "uint16" => (int(false, 16), t),
        "uint32" => (int(false, 32), t),
        "rune" => (Ty::Char, "int32"),
        "float32" => (Ty::Float { bits: 32 }, t),
        "float64" => (Ty::Float { bits: 64 }, t),
        "string" => (Ty::Str, t),
        "any" | "interface{}" => (Ty::Dynamic, "interface {}"),
        name => match structs.iter().find(|s| s.name == name) {
            Some(found) => {
                let fields = found
                    .fields
                    .iter()
                    .map(|(field, ty)| Ok((field.clone(), inner(ty)?.ty)))
                    .collect::<Result<_, String>>()?;
                let ty = Ty::Struct {
                    name: found.name.clone(),
                    fields,
                };
                return Ok(GoType {
                    ty,
                    name: format!("main.{name}"),
                });
            }
            None => return unsupported(),
        },
    };
    Ok(GoType {
        ty,
        name: name.to_string(),
    })
}

/// Where the key of a Go map type ends: the bracket that closes `map[` (`rest` follows it).
pub fn go_map_key_end(rest: &str) -> Option<usize> {
    let mut level = 1;
    rest.char_indices().find_map(|(i, c)| {
        match c {
            '[' => level += 1,
            ']' => level -= 1,
            _ => {}
        }
        (level == 0).then_some(i)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(signed: bool, bits: u8) -> Ty {
        Ty::Int { signed, bits }
    }

    #[test]
    fn cpp_types_as_benchmarks_declare_them() {
        let aliases = cpp_aliases(
            "#include<vector>\n#define ll long long\ntypedef unsigned long long ull;\nusing vi = vector<int>;\n",
        );
        let table: &[(&str, Ty)] = &[
            ("int", int(true, 32)),
            ("long", int(true, 32)),
            ("long long", int(true, 64)),
            ("unsigned long long", int(false, 64)),
            ("size_t", int(false, 32)),
            ("const std::string &", Ty::Str),
            ("char", Ty::Char),
            ("float", Ty::Float { bits: 32 }),
            (
                "vector<vector<int>>",
                Ty::Seq(Box::new(Ty::Seq(Box::new(int(true, 32))))),
            ),
            (
                "const map<string, int>&",
                Ty::Map(Box::new(Ty::Str), Box::new(int(true, 32))),
            ),
            (
                "pair<int,int>",
                Ty::Tuple(vec![int(true, 32), int(true, 32)]),
            ),
            (
                "tuple<bool, double, string>",
                Ty::Tuple(vec![Ty::Bool, Ty::Float { bits: 64 }, Ty::Str]),
            ),
            ("optional<long long>", Ty::Option(Box::new(int(true, 64)))),
            ("std::array<char, 3>", Ty::Array(Box::new(Ty::Char), 3)),
            ("set<string>", Ty::Set(Box::new(Ty::Str))),
            ("ll", int(true, 64)),
            ("vector<ull>", Ty::Seq(Box::new(int(false, 64)))),
            ("vi", Ty::Seq(Box::new(int(true, 32)))),
            ("void", Ty::Unit),
            ("boost::any", Ty::CppAny),
            (
                "const std::vector<std::any>&",
                Ty::Seq(Box::new(Ty::CppAny)),
            ),
        ];
        for (text, ty) in table {
            assert_eq!(cpp(text, &aliases).as_ref(), Ok(ty), "{text}");
        }
        for bad in ["int*", "Node", "vector<Node>", "function<int(int)>"] {
            let err = cpp(bad, &aliases).unwrap_err();
            assert!(err.contains("cannot cross"), "{bad}: {err}");
        }
        // An alias that names itself does not loop.
        let looping = vec![("a".to_string(), "a".to_string())];
        assert!(cpp("a", &looping).is_err());
    }

    #[test]
    fn rust_types_as_benchmarks_declare_them() {
        let table: &[(&str, Ty)] = &[
            ("i32", int(true, 32)),
            ("usize", int(false, 32)),
            ("&str", Ty::Str),
            ("&'a str", Ty::Str),
            ("&[i64]", Ty::Seq(Box::new(int(true, 64)))),
            ("&mut Vec<f64>", Ty::Seq(Box::new(Ty::Float { bits: 64 }))),
            ("[u8; 4]", Ty::Array(Box::new(int(false, 8)), 4)),
            (
                "Vec<(String, i32)>",
                Ty::Seq(Box::new(Ty::Tuple(vec![Ty::Str, int(true, 32)]))),
            ),
            ("Option<char>", Ty::Option(Box::new(Ty::Char))),
            (
                "std::collections::HashMap<char, usize>",
                Ty::Map(Box::new(Ty::Char), Box::new(int(false, 32))),
            ),
            ("BTreeSet<i32>", Ty::Set(Box::new(int(true, 32)))),
            ("Box<i32>", int(true, 32)),
            ("()", Ty::Unit),
        ];
        for (text, ty) in table {
            assert_eq!(rust(text).as_ref(), Ok(ty), "{text}");
        }
        for bad in ["Box<dyn Any>", "impl Fn(i32)", "Point", "Rc<i32>"] {
            assert!(rust(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn go_types_as_benchmarks_declare_them() {
        let table: &[(&str, Ty)] = &[
            ("int", int(true, 64)),
            ("[]float64", Ty::Seq(Box::new(Ty::Float { bits: 64 }))),
            (
                "[][]int",
                Ty::Seq(Box::new(Ty::Seq(Box::new(int(true, 64))))),
            ),
            (
                "map[string][]int",
                Ty::Map(
                    Box::new(Ty::Str),
                    Box::new(Ty::Seq(Box::new(int(true, 64)))),
                ),
            ),
            (
                "map[[2]int]bool",
                Ty::Map(
                    Box::new(Ty::Array(Box::new(int(true, 64)), 2)),
                    Box::new(Ty::Bool),
                ),
            ),
            ("[2]int", Ty::Array(Box::new(int(true, 64)), 2)),
            ("rune", Ty::Char),
            ("byte", int(false, 8)),
            ("*int", Ty::Option(Box::new(int(true, 64)))),
            ("interface{}", Ty::Dynamic),
            ("interface {}", Ty::Dynamic),
            ("any", Ty::Dynamic),
            (
                "map[interface{}]interface{}",
                Ty::Map(Box::new(Ty::Dynamic), Box::new(Ty::Dynamic)),
            ),
            ("[2]interface{}", Ty::Array(Box::new(Ty::Dynamic), 2)),
        ];
        for (text, ty) in table {
            assert_eq!(go(text).as_ref(), Ok(ty), "{text}");
        }
        for bad in [
            "interface{ String() string }",
            "error",
            "Point",
            "func(int) int",
            "chan int",
        ] {
            assert!(go(bad).is_err(), "{bad}");
        }
    }
}
