//! C++'s dynamic values (`std::any`, `boost::any`, as HumanEval-X's CPP/22 and MultiPL-E's C++
//! pass a list of them): each holds a value of one of [`CPP_TYPES`] and crosses with its place in
//! that list, the tag order of `wire/wire.hpp`'s `DynamicTypes`, or is empty.
//!
//! A case's JSON gives the held type as a C++ literal would get it: an integer an `int` (a
//! `long long` beyond `int`'s range, an `unsigned long long` beyond that), a number with a
//! fraction or exponent a `double`, a string a `std::string`, `true` a `bool`, `null` an empty
//! value, a list a `std::vector` of dynamic values and an object a `std::map<std::string, ...>`
//! of them. `{"$type": "const char*", "value": "a"}` names any other type of the list (`char`,
//! `float`, `long`, `vector<int>`...). Two dynamic values are equal when they hold the same type
//! and equal values (both empty: equal).

use crate::langs::types::{self, Ty};

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

#[cfg(test)]
mod tests {
    use super::*;

    /// `DynamicTypes` as `wire.hpp` lists them, written as [`CPP_TYPES`] writes them.
    fn listed_in_wire_hpp() -> Vec<String> {
        let source = include_str!("../../wire/wire.hpp");
        let start = source.find("using DynamicTypes = std::tuple<").unwrap();
        let list = &source[start + "using DynamicTypes = std::tuple<".len()..];
        let list = &list[..list.find(">;").unwrap()];
        crate::langs::source::split_top_level(list, ',')
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
