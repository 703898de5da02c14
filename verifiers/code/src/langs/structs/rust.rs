//! Rust structs: a struct with named fields the declaration defines (`struct Point { x: i64,
//! y: i64 }`) crosses as its fields in order, as a C++ one does
//! ([`crate::langs::structs::cpp`]), by the wire's `Put` and `Take` implemented for it
//! ([`impls`]), written here from the definition.

use crate::langs::source::{blank, is_identifier, matching, split_top_level, top_level_words};
use crate::langs::structs::StructDef;

/// Rust's comments and literals, blanked before the definitions are read.
fn literals() -> &'static [(&'static str, &'static str)] {
    &[("//", "\n"), ("/*", "*/"), ("\"", "\"")]
}

/// The structs with named fields `prefix` (the declaration before the entry point) defines at
/// its top level. Tuple structs, unit structs and generic ones are left out: naming one in the
/// signature is then an unknown type.
pub fn read(prefix: &str) -> Vec<StructDef> {
    let code = blank(prefix, literals);
    top_level_words(&code, "struct")
        .into_iter()
        .filter_map(|at| {
            let rest = &code[at + "struct".len()..];
            let open = rest.find(['{', ';', '('])?;
            let name = rest[..open].trim();
            let body_open = at + "struct".len() + open;
            let body = &code[body_open + 1..matching(&code, body_open)?];
            if !is_identifier(name) || body.contains('{') {
                return None;
            }
            Some(StructDef {
                name: name.to_string(),
                fields: fields(body)?,
            })
        })
        .collect()
}

/// `pub x: i64, y: Vec<String>,` → the fields; `None` when one is not `name: Type`.
fn fields(body: &str) -> Option<Vec<(String, String)>> {
    let mut fields = Vec::new();
    for field in split_top_level(body, ',') {
        let mut field = field.trim();
        // Attributes (`#[allow(dead_code)]`) and visibility.
        while field.starts_with("#[") {
            field = field[field.find(']')? + 1..].trim();
        }
        for visibility in ["pub(crate) ", "pub(super) ", "pub "] {
            if let Some(rest) = field.strip_prefix(visibility) {
                field = rest.trim();
            }
        }
        if field.is_empty() {
            continue;
        }
        let (name, ty) = field.split_once(':')?;
        let (name, ty) = (name.trim(), ty.trim());
        if !is_identifier(name) || ty.is_empty() || ty.starts_with(':') {
            return None;
        }
        fields.push((name.to_string(), ty.to_string()));
    }
    (!fields.is_empty()).then_some(fields)
}

/// The wire's `Put` and `Take` for each of `structs` (those whose values cross,
/// [`crate::langs::structs::used_by`]: an impl is compiled whether used or not).
pub fn impls(structs: &[&StructDef]) -> String {
    let mut out = String::new();
    for s in structs {
        let puts: String = s
            .fields
            .iter()
            .map(|(f, _)| format!(" rewardbox_wire::Put::put(&self.{f}, out);"))
            .collect();
        let takes: String = s
            .fields
            .iter()
            .map(|(f, _)| format!(" {f}: rewardbox_wire::Take::take(input),"))
            .collect();
        out.push_str(&format!(
            "impl rewardbox_wire::Put for {name} {{\n    fn put(&self, out: &mut rewardbox_wire::Out) {{{puts} }}\n}}\nimpl rewardbox_wire::Take for {name} {{\n    fn take(input: &mut rewardbox_wire::In) -> Self {{ {name} {{{takes} }} }}\n}}\n",
            name = s.name
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::langs::structs::used_by;

    #[test]
    fn structs_with_named_fields_are_read() {
        let prefix = "use std::collections::HashMap;\n// struct Commented { a: i32 }\n#[derive(Debug, Clone, PartialEq)]\npub struct Point {\n    pub x: i64,\n    #[allow(dead_code)]\n    y: i64,\n}\nstruct Pair(i32, i32);\nstruct Unit;\nstruct Generic<T> { t: T }\nstruct Named { name: String, counts: HashMap<String, Vec<usize>> }\nimpl Point { fn norm(&self) -> i64 { self.x } }\n";
        let shown: Vec<String> = read(prefix)
            .iter()
            .map(|s| {
                let fields: Vec<String> =
                    s.fields.iter().map(|(n, t)| format!("{n}: {t}")).collect();
                format!("{}{{{}}}", s.name, fields.join(", "))
            })
            .collect();
        assert_eq!(
            shown,
            [
                "Point{x: i64, y: i64}",
                "Named{name: String, counts: HashMap<String, Vec<usize>>}",
            ]
        );
    }

    #[test]
    fn the_impls_put_and_take_each_field_in_order() {
        let structs = read("struct P { x: i32, s: String }");
        let code = impls(&used_by(&structs, &["Option<P>"]));
        assert!(code.contains("impl rewardbox_wire::Put for P"), "{code}");
        assert!(
            code.contains(
                "rewardbox_wire::Put::put(&self.x, out); rewardbox_wire::Put::put(&self.s, out);"
            ),
            "{code}"
        );
        assert!(
            code.contains("P { x: rewardbox_wire::Take::take(input), s:"),
            "{code}"
        );
        assert!(impls(&used_by(&structs, &["bool"])).is_empty());
    }
}
