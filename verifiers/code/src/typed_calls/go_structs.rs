//! Go structs in typed calls: a struct type the declaration defines (`type Point struct { X, Y
//! int }`) crosses as its fields in order, as C++'s and Rust's do; Go's wire
//! (`program_tests/wire.go`) carries a struct by reflection, so the candidate's server needs
//! nothing more. Its fields must be exported, as the wire reads only those.

use crate::program_tests::source::{blank, is_identifier};
use crate::typed_calls::cpp_structs::StructDef;

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
    let mut found = Vec::new();
    let mut search = 0;
    while let Some(at) = code[search..].find("struct") {
        let at = search + at;
        search = at + "struct".len();
        // `Name struct {`: the word before is the type's name.
        let before = code[..at].trim_end();
        let name_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &before[name_start..];
        let keyword = before[..name_start].trim_end();
        if !is_identifier(name)
            || !(keyword.ends_with("type") || keyword.ends_with('(') || keyword.ends_with('\n'))
        {
            continue;
        }
        let rest = code[search..].trim_start();
        if !rest.starts_with('{') {
            continue;
        }
        let body_start = code.len() - rest.len() + 1;
        let Some(close) = code[body_start..].find('}') else {
            break;
        };
        let body = &code[body_start..body_start + close];
        search = body_start + close + 1;
        if let Some(fields) = fields(body) {
            found.push(StructDef {
                name: name.to_string(),
                fields,
            });
        }
    }
    found
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
        let prefix = "package main\n\nimport \"fmt\"\n\n// type Commented struct { A int }\ntype Point struct {\n\tX, Y int\n\tLabel string `json:\"label\"`\n}\n\ntype (\n\tPair struct{ A []int; B map[string]float64 }\n\thidden struct{ a int }\n)\ntype Embeds struct {\n\tPoint\n}\nvar _ = fmt.Sprint\n";
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
                "Pair{A []int; B map[string]float64}"
            ]
        );
    }
}
