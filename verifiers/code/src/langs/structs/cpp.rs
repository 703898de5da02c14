//! C++ structs: a plain struct the declaration defines (`struct Point { int x; int y; };`,
//! LeetCode's and contest problems' value types) crosses as its fields in order, each by its
//! own type, through a codec of the wire ([`codecs`]) written here from the definition.

use crate::langs::source::{
    blank, is_identifier, matching, split_top_level, top_level_words, trailing_identifier,
};
use crate::langs::structs::StructDef;

/// C and C++ comments and literals, blanked before the definitions are read.
fn literals() -> &'static [(&'static str, &'static str)] {
    &[("//", "\n"), ("/*", "*/"), ("\"", "\""), ("'", "'")]
}

/// The plain structs `prefix` (the declaration before the entry point) defines at its top level
/// (`struct P { ... };`, `class P { public: ... };`, `typedef struct { ... } P;`). Member
/// functions, constructors, static members and access labels are not fields. A struct with a
/// member a call cannot fill (an array, a pointer, a bit field) is left out: naming it in the
/// signature is then an unknown type.
pub fn read(prefix: &str) -> Vec<StructDef> {
    let code = blank(prefix, literals);
    let mut keywords: Vec<(usize, &str)> = ["struct", "class"]
        .into_iter()
        .flat_map(|k| top_level_words(&code, k).into_iter().map(move |at| (at, k)))
        .collect();
    keywords.sort_unstable();
    keywords
        .into_iter()
        .filter_map(|(at, keyword)| definition(&code, at + keyword.len()))
        .collect()
}

/// The struct defined after `struct`/`class` at `at`, if this is a definition (not a forward
/// declaration or an elaborated type `struct P p;`) of a plain struct whose every member is a
/// field a call can fill.
fn definition(code: &str, at: usize) -> Option<StructDef> {
    let rest = &code[at..];
    let open = rest.find(['{', ';', '('])?;
    if rest.as_bytes()[open] != b'{' {
        return None;
    }
    let head = rest[..open].trim();
    // `struct P(` of a parameter, `struct P<T>`, `struct P = ...`: no plain definition here.
    // `struct P : Base`: a base's fields are not read here.
    if head.contains(['(', ')', '<', '>', '=', ',', ':']) {
        return None;
    }
    // `struct P final`.
    let named = head.split_whitespace().next().unwrap_or("");
    let end = matching(code, at + open)?;
    // `typedef struct { ... } P;`: the name comes after the body.
    let after = code[end + 1..].split(';').next().unwrap_or("").trim();
    let name = if named.is_empty() { after } else { named };
    let fields = fields(&code[at + open + 1..end])?;
    is_identifier(name).then(|| StructDef {
        name: name.to_string(),
        fields,
    })
}

/// The fields of a struct's body, or `None` when a member is one a call cannot fill.
fn fields(body: &str) -> Option<Vec<(String, String)>> {
    let mut fields = Vec::new();
    // Member functions' bodies end without `;`: cut them out first.
    let mut flat = String::new();
    let mut depth = 0usize;
    for c in body.chars() {
        match c {
            '{' => {
                depth += 1;
                if depth == 1 {
                    flat.push(';');
                }
            }
            '}' => depth = depth.saturating_sub(1),
            _ if depth == 0 => flat.push(c),
            _ => {}
        }
    }
    for statement in flat.split(';') {
        let mut statement = statement.trim();
        for label in ["public:", "private:", "protected:"] {
            if let Some(rest) = statement.strip_prefix(label) {
                statement = rest.trim();
            }
        }
        if statement.is_empty()
            || statement.contains('(')
            || statement.starts_with("static ")
            || statement.starts_with("using ")
            || statement.starts_with("typedef ")
            || statement.starts_with("friend ")
            || statement.starts_with("template")
            || statement.starts_with(':')
            || statement.starts_with('=')
        {
            continue;
        }
        let declarators = split_top_level(statement, ',');
        let first = split_top_level(declarators[0], '=')[0].trim();
        let (ty, name) = split_name(first)?;
        fields.push((name.to_string(), ty.to_string()));
        for more in &declarators[1..] {
            let name = split_top_level(more, '=')[0].trim();
            if !is_identifier(name) {
                return None;
            }
            fields.push((name.to_string(), ty.to_string()));
        }
    }
    (!fields.is_empty()).then_some(fields)
}

/// `int x` → (`int`, `x`); `None` for what is not one plain field (`int a[3]`, `int* p`,
/// `int& r`, `unsigned b : 3`).
fn split_name(declarator: &str) -> Option<(&str, &str)> {
    if declarator.contains(['[', '*', '&']) || declarator.replace("::", "").contains(':') {
        return None;
    }
    let name = trailing_identifier(declarator)?;
    let ty = declarator.trim_end();
    let ty = ty[..ty.len() - name.len()].trim();
    (!ty.is_empty()).then_some((ty, name))
}

/// A codec of the C++ wire (`rewardbox_wire::Codec<P>`: its fields in order) for each of
/// `structs` (those whose values cross, [`crate::langs::structs::used_by`], in
/// definition order, so that a field's codec comes before the codec using it), for a program
/// after the structs' definitions.
pub fn codecs(structs: &[&StructDef]) -> String {
    let mut out = String::new();
    for s in structs {
        let field_type =
            |f: &str| format!("std::decay_t<decltype(std::declval<::{}&>().{f})>", s.name);
        let puts: String = s
            .fields
            .iter()
            .map(|(f, _)| format!(" Codec<{}>::put(o, v.{f});", field_type(f)))
            .collect();
        let takes: String = s
            .fields
            .iter()
            .map(|(f, _)| format!(" v.{f} = Codec<{}>::take(in);", field_type(f)))
            .collect();
        out.push_str(&format!(
            "namespace rewardbox_wire {{ template <> struct Codec<::{name}> {{\n  static void put(Out& o, const ::{name}& v) {{{puts} }}\n  static ::{name} take(In& in) {{ ::{name} v{{}};{takes} return v; }}\n}}; }}\n",
            name = s.name
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(prefix: &str) -> Vec<String> {
        read(prefix)
            .iter()
            .map(|s| {
                let fields: Vec<String> =
                    s.fields.iter().map(|(n, t)| format!("{t} {n}")).collect();
                format!("{}{{{}}}", s.name, fields.join("; "))
            })
            .collect()
    }

    #[test]
    fn plain_structs_are_read_with_their_fields_in_order() {
        let prefix = "#include <bits/stdc++.h>\nusing namespace std;\n// struct Comment { int no; };\nstruct Point {\n    long long x, y = 0; // a comment\n    Point() {}\n    Point(long long a, long long b) : x(a), y(b) {}\n    bool operator<(const Point& o) const { return x < o.x; }\n    static int count;\n};\ntypedef struct { string name; vector<int> marks; } Student;\nclass Box { public: double w; double h; private: int id; };\nstruct Forward;\nstruct WithArray { int a[3]; };\nstruct Linked { int val; Linked* next; };\n";
        assert_eq!(
            shown(prefix),
            [
                "Point{long long x; long long y}",
                "Student{string name; vector<int> marks}",
                "Box{double w; double h; int id}",
            ]
        );
    }

    #[test]
    fn a_codec_writes_and_reads_each_field_by_its_type() {
        let structs = read("struct P { int x; std::string s; };\nstruct Q { int unused; };");
        let codec = codecs(&[&structs[0]]);
        assert!(!codec.contains("Codec<::Q>"), "{codec}");
        assert!(codec.contains("template <> struct Codec<::P>"), "{codec}");
        assert!(
            codec.contains("Codec<std::decay_t<decltype(std::declval<::P&>().s)>>::put(o, v.s);"),
            "{codec}"
        );
        assert!(codec.contains("v.x = Codec<"), "{codec}");
    }
}
