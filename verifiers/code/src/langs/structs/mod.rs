//! Structs the task's declaration defines, read from its trusted text, for values that cross
//! between the test program (or the verifier) and the candidate as their fields in order: C++'s
//! ([`cpp`]: a codec of the wire generated for each), Rust's ([`rust`]: the wire's traits
//! implemented for each) and Go's ([`go`]: its wire reads them by reflection).
//!
//! Both ways of testing a candidate use them: the test code's own calls (the programs of
//! [`crate::kinds::test_code`]) and typed call tests ([`crate::kinds::typed_calls`], which also types
//! each field to read a case's JSON).

pub mod cpp;
pub mod go;
pub mod rust;

use crate::langs::source::is_identifier;

/// A struct the declaration defines: its name and its fields (name, type as written), in order.
#[derive(Debug, Clone, PartialEq)]
pub struct StructDef {
    /// The struct's name.
    pub name: String,
    /// Each field: its name and its type as the definition writes it.
    pub fields: Vec<(String, String)>,
}

/// The structs of `structs` that the types written in `types` name, at any depth (directly, in
/// a container, or as a field of a struct they name), in definition order: the ones whose values
/// cross, so the ones the programs need a codec for. A codec is compiled whether used or not
/// (a C++ specialization's members, a Rust impl), so only these get one: a struct the test code
/// uses on its own side, with a field the wire does not carry, must not break the programs.
pub fn used_by<'a>(structs: &'a [StructDef], types: &[&str]) -> Vec<&'a StructDef> {
    let mut names: Vec<&str> = Vec::new();
    let mut pending: Vec<&str> = types.to_vec();
    while let Some(text) = pending.pop() {
        for word in words(text) {
            if names.contains(&word) {
                continue;
            }
            if let Some(s) = structs.iter().find(|s| s.name == word) {
                names.push(&s.name);
                pending.extend(s.fields.iter().map(|(_, ty)| ty.as_str()));
            }
        }
    }
    structs
        .iter()
        .filter(|s| names.contains(&s.name.as_str()))
        .collect()
}

/// The identifiers a type's text writes (`std::vector<Point>` → std, vector, Point).
fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| is_identifier(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(name: &str, fields: &[(&str, &str)]) -> StructDef {
        StructDef {
            name: name.into(),
            fields: fields
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string()))
                .collect(),
        }
    }

    fn names(used: Vec<&StructDef>) -> Vec<&str> {
        used.iter().map(|s| s.name.as_str()).collect()
    }

    #[test]
    fn the_structs_a_signature_names_at_any_depth_in_definition_order() {
        let structs = [
            def("Point", &[("x", "long long"), ("y", "long long")]),
            def("Segment", &[("a", "Point"), ("b", "Point")]),
            def("Unused", &[("f", "std::function<int()>")]),
            def("Tag", &[("name", "string")]),
            def("PointSet", &[("points", "vector<Point>")]),
        ];
        let table: &[(&[&str], &[&str])] = &[
            (&["int", "vector<int>"], &[]),
            (&["const vector<Segment>&", "int"], &["Point", "Segment"]),
            (&["std::map<std::string, Tag>"], &["Tag"]),
            (&["optional<PointSet>"], &["Point", "PointSet"]),
            (
                &["Option<Box<Tag>>", "Segment"],
                &["Point", "Segment", "Tag"],
            ),
            // A word that only contains a struct's name is not it.
            (&["Points", "SegmentTag"], &[]),
        ];
        for (types, expected) in table {
            assert_eq!(names(used_by(&structs, types)), *expected, "{types:?}");
        }
    }
}
