//! Go structs: a struct type the declaration defines (`type Point struct { X, Y
//! int }`) crosses as its fields in order, as C++'s and Rust's do; Go's wire
//! (`wire/wire.go`) carries a struct by reflection, so the candidate's server needs
//! nothing more. Its fields must be exported, as the wire reads only those.

use crate::langs::source::{blank, is_identifier, matching, top_level_words, trailing_identifier};
use crate::langs::structs::StructDef;

/// Go's comments and literals (a field's tag among them), blanked before the definitions are read.
fn literals() -> &'static [(&'static str, &'static str)] {
    &[("//", "\n"), ("/*", "*/"), ("\"", "\""), ("`", "`")]
}

/// The struct types with exported fields `prefix` (the declaration before the entry point)
/// defines at its top level (`type P struct {...}`, also inside a `type (...)` group). A struct
/// with an unexported or embedded field is left out: naming it in the signature is then an
/// unknown type.
pub fn read(prefix: &str) -> Vec<StructDef> {
    let code = blank(prefix, literals);
    top_level_words(&code, "struct")
        .into_iter()
        .filter_map(|at| {
            // `Name struct {`: the word before is the type's name, after `type` (or on its own
            // line of a `type (...)` group).
            let before = code[..at].trim_end();
            let name = trailing_identifier(before)?;
            let keyword = before[..before.len() - name.len()].trim_end_matches([' ', '\t']);
            if !(keyword.ends_with("type") || keyword.ends_with('(') || keyword.ends_with('\n')) {
                return None;
            }
            let rest = &code[at + "struct".len()..];
            let body_open = code.len() - rest.trim_start().len();
            if !code[body_open..].starts_with('{') {
                return None;
            }
            Some(StructDef {
                name: name.to_string(),
                fields: fields(&code[body_open + 1..matching(&code, body_open)?])?,
            })
        })
        .collect()
}

/// `X, Y int; Name string` → the fields; `None` when one is unexported or embedded.
fn fields(body: &str) -> Option<Vec<(String, String)>> {
    let mut fields = Vec::new();
    for line in body.split(['\n', ';']) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (names, last) = match line.rsplit_once(',') {
            Some((names, last)) => (
                names.split(',').map(str::trim).collect::<Vec<_>>(),
                last.trim(),
            ),
            None => (Vec::new(), line),
        };
        let (name, ty) = last.split_once(char::is_whitespace)?;
        let ty = ty.trim();
        for name in names.into_iter().chain([name]) {
            let exported = name.chars().next().is_some_and(|c| c.is_uppercase());
            if !is_identifier(name) || !exported || ty.is_empty() {
                return None;
            }
            fields.push((name.to_string(), ty.to_string()));
        }
    }
    (!fields.is_empty()).then_some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn struct_types_with_exported_fields_are_read() {
        let prefix = "package main\n\nimport \"fmt\"\n\n// type Commented struct { A int }\ntype Point struct {\n\tX, Y int\n\tLabel string `json:\"label\"`\n}\n\ntype (\n\tPair struct{ A []int; B map[string]float64 }\n\thidden struct{ a int }\n\tThird struct{ C int }\n)\ntype Nested struct {\n\tInner struct{ A int }\n\tB int\n}\ntype After struct{ D string }\ntype Embeds struct {\n\tPoint\n}\nvar _ = fmt.Sprint\n";
        let shown: Vec<String> = read(prefix)
            .iter()
            .map(|s| {
                let fields: Vec<String> =
                    s.fields.iter().map(|(n, t)| format!("{n} {t}")).collect();
                format!("{}{{{}}}", s.name, fields.join("; "))
            })
            .collect();
        assert_eq!(
            shown,
            [
                "Point{X int; Y int; Label string}",
                "Pair{A []int; B map[string]float64}",
                "Third{C int}",
                "Nested{Inner struct{ A int }; B int}",
                "After{D string}",
            ]
        );
    }
}
