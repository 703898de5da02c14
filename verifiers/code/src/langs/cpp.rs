//! C++ test programs (HumanEval-X's and MultiPL-E's `int main(){ assert(...); }`): the trusted
//! program and the candidate's server, generated around [`WIRE`].
//!
//! The trusted program is the task's declaration with the entry point's body replaced by a call
//! through the wire, followed by the test code, whose `assert(...)` statements report each result
//! and go on ([`crate::langs::source::rewrite_calls`]). The candidate's program is its
//! own source followed by a `main` that answers calls of the entry point. Both get a codec of
//! the wire for each struct the declaration defines whose values cross
//! ([`crate::langs::structs::cpp`]).

use crate::langs::StaticCase;
use crate::langs::source::{
    Signature, blank, call_lines, last_definition, rewrite_calls, split_top_level,
    trailing_identifier, without_closing_brace,
};
use crate::langs::structs;

/// The wire header, included in both programs.
pub const WIRE: &str = include_str!("../wire/wire.hpp");

/// The name test code's asserts are rewritten to (a variadic macro of [`WIRE`], so that braces
/// with commas inside, `assert(f({1, 2}) == 3)`, are one argument as g++ reads them).
const ASSERT_MACRO: &str = "RB_ASSERT_";

/// The trusted test program: `declaration` (the task's, ending with the entry point's opening
/// brace) with the entry point forwarding to the candidate, then `test`. The forwarding passes
/// each parameter's declared type (`decltype` of the parameter), so that an argument taken by
/// non-const reference comes back changed, as natively.
pub fn trusted_program(declaration: &str, entry: &str, test: &str) -> Result<String, String> {
    let signature = find_signature(declaration, entry)?;
    let names = parameter_names(signature.parameters)?;
    let list = names.join(", ");
    let (types, args): (String, String) = names
        .iter()
        .map(|n| (format!(", decltype({n})"), format!(", {n}")))
        .unzip();
    // The structs' codecs between their definitions and the entry point, the signature's line
    // number kept for the compiler's messages.
    let codecs = struct_codecs(&signature, entry)?;
    let prefix = if codecs.is_empty() {
        signature.prefix.to_string()
    } else {
        let line = signature.prefix.matches('\n').count() + 1;
        format!(
            "{}\n{codecs}#line {line} \"declaration\"\n",
            signature.prefix
        )
    };
    Ok(format!(
        "{options}{WIRE}\n#line 1 \"declaration\"\n{prefix}{text} {{\n    return ::rewardbox_wire::call<decltype({entry}({list})){types}>(0{args});\n}}\n#line 1 \"test\"\n{test}\n",
        options = wire_options(&[declaration, test]),
        text = signature.text,
        test = rewrite_calls(
            &without_closing_brace(test, cpp_comments),
            "assert",
            ASSERT_MACRO,
            cpp_comments
        ),
    ))
}

/// The candidate's program: `program` (its whole source, with the entry point defined), then a
/// `main` answering calls of `entry` until the test program ends. The calls go through a
/// function with the declaration's parameters, which calls `entry` as the test code does, so
/// that overload resolution picks the candidate's function where a standard one has its name
/// (`strlen`, `unique`). `signed main`: a candidate's `#define int long long` leaves it valid.
/// The codecs of the structs whose values cross come after the program, which defines them.
pub fn candidate_program(program: &str, declaration: &str, entry: &str) -> Result<String, String> {
    let signature = find_signature(declaration, entry)?;
    let names = parameter_names(signature.parameters)?;
    let parameters = declarators(signature.parameters).join(", ");
    Ok(format!(
        "{}{WIRE}\n#line 1 \"solution\"\n{program}\n#line 1 \"rewardbox-serve\"\n{}static decltype(auto) rewardbox_entry({parameters}) {{ return {entry}({}); }}\nsigned main() {{ return ::rewardbox_wire::serve(&rewardbox_entry); }}\n",
        wire_options(&[program]),
        struct_codecs(&signature, entry)?,
        names.join(", ")
    ))
}

/// The wire's codecs of the structs defined before `signature` whose values cross: those its
/// parameter and return types name, at any depth.
fn struct_codecs(signature: &Signature, entry: &str) -> Result<String, String> {
    let defined = structs::cpp::read(signature.prefix);
    if defined.is_empty() {
        return Ok(String::new());
    }
    let returns = return_type(signature.text, entry);
    let mut types: Vec<&str> = named_declarators(signature.parameters)?
        .into_iter()
        .map(|d| d.before_name)
        .collect();
    types.push(&returns);
    Ok(structs::cpp::codecs(&structs::used_by(&defined, &types)))
}

/// The parts of [`WIRE`] a program needs beyond the standard library's: the codec of
/// `boost::any` when one of `sources` includes `<boost/any.hpp>` (so that a program that does not
/// include Boost compiles without it, as natively).
fn wire_options(sources: &[&str]) -> &'static str {
    if sources.iter().any(|s| s.contains("boost/any.hpp")) {
        "#define REWARDBOX_WIRE_BOOST_ANY 1\n"
    } else {
        ""
    }
}

/// Each parameter of a C++ parameter list without its default value (`int x = 3` → `int x`).
fn declarators(parameters: &str) -> Vec<&str> {
    split_top_level(parameters, ',')
        .into_iter()
        .map(|p| split_top_level(p, '=')[0].trim())
        .filter(|p| !p.is_empty() && *p != "void")
        .collect()
}

/// The entry point's types as `declaration` writes them: each parameter's type (its name and
/// default value removed), the return type, and the text before the signature (where aliases
/// such as `typedef long long ll;` are defined).
pub fn entry_types(declaration: &str, entry: &str) -> Result<EntryTypes, String> {
    let signature = find_signature(declaration, entry)?;
    let parameters = named_declarators(signature.parameters)?
        .into_iter()
        .map(|d| {
            let (declarator, ty, array) = (d.text, d.before_name.trim(), d.after_name.trim());
            if array.is_empty() {
                Ok(ty.to_string())
            } else {
                Err(format!(
                    "the parameter `{declarator}` is a C array, whose length a call cannot \
                     carry; declare it as a std::vector"
                ))
            }
        })
        .collect::<Result<Vec<_>, String>>()?;
    Ok(EntryTypes {
        parameters,
        returns: return_type(signature.text, entry),
        prefix: signature.prefix.to_string(),
    })
}

/// `entry`'s definition in a C or C++ declaration (see [`Signature::find`]).
pub(crate) fn find_signature<'a>(
    declaration: &'a str,
    entry: &str,
) -> Result<Signature<'a>, String> {
    Signature::find(declaration, entry, cpp_comments, statement_start)
}

/// One parameter of a C or C++ parameter list, its default value removed, cut at its name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Declarator<'a> {
    /// The whole declarator (`const int a[]`).
    pub text: &'a str,
    /// What comes before the name: the type, or its start (`const int `).
    pub before_name: &'a str,
    /// What comes after it: array brackets (`[]`), or nothing.
    pub after_name: &'a str,
}

/// Each parameter of a C or C++ parameter list, cut at its name: `int a[], int n = 3` → (`int `,
/// `[]`), (`int `, ``).
pub(crate) fn named_declarators(parameters: &str) -> Result<Vec<Declarator<'_>>, String> {
    Ok(declarators(parameters)
        .into_iter()
        .zip(parameter_names(parameters)?)
        .map(|(text, name)| {
            // `parameter_names` read the name from the declarator: it is there.
            let cut = text.rfind(name.as_str()).unwrap_or(text.len());
            Declarator {
                text,
                before_name: &text[..cut],
                after_name: &text[(cut + name.len()).min(text.len())..],
            }
        })
        .collect())
}

/// The return type a signature's text writes before `entry`, without storage words
/// (`static inline long long f(` → `long long`).
pub(crate) fn return_type(text: &str, entry: &str) -> String {
    let text = &blank(text, cpp_comments);
    let name_at = text
        .match_indices(entry)
        .map(|(at, _)| at)
        .find(|&at| text[at + entry.len()..].trim_start().starts_with('('))
        .unwrap_or(0);
    text[..name_at]
        .split_whitespace()
        .filter(|w| !matches!(*w, "static" | "inline" | "constexpr" | "extern"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The entry point's types, as [`entry_types`] reads them from a declaration.
#[derive(Debug, Clone, PartialEq)]
pub struct EntryTypes {
    /// Each parameter's type, in order.
    pub parameters: Vec<String>,
    /// The return type.
    pub returns: String,
    /// The declaration before the signature.
    pub prefix: String,
}

/// The cases of `test`: each line holding an `assert(...)`, in order.
pub fn cases(test: &str) -> Vec<StaticCase> {
    call_lines(test, "assert", cpp_comments)
        .into_iter()
        .map(|(line, text)| StaticCase::line(line, &text))
        .collect()
}

/// The function a declaration opens: the last one it defines, outside every body
/// (`bool has_close_elements(vector<float> numbers, float threshold){` → `has_close_elements`).
pub fn entry_of_declaration(declaration: &str) -> Option<String> {
    last_definition(declaration, cpp_comments, CPP_KEYWORDS)
}

/// Words followed by a parenthesis and a brace that are not functions.
const CPP_KEYWORDS: &[&str] = &[
    "if", "for", "while", "switch", "catch", "return", "sizeof", "decltype", "alignof", "noexcept",
    "throw",
];

/// Where the statement holding `at` starts: after the last `;`, `}` or preprocessor line before
/// it.
fn statement_start(text: &str, at: usize) -> usize {
    let before = &text[..at];
    let mut start = 0;
    let mut offset = 0;
    for line in before.split_inclusive('\n') {
        let end = offset + line.len();
        if line.trim_start().starts_with('#') && line.ends_with('\n') {
            start = end;
        } else if let Some(i) = line.rfind([';', '}']) {
            start = offset + i + 1;
        }
        offset = end;
    }
    start
}

/// `//` and `/* */` comments, and string and character literals, for [`rewrite_calls`].
fn cpp_comments() -> &'static [(&'static str, &'static str)] {
    &[("//", "\n"), ("/*", "*/"), ("\"", "\""), ("'", "'")]
}

/// The names of a C++ parameter list's parameters (`vector<int> a, float t = 0.5` → a, t).
fn parameter_names(parameters: &str) -> Result<Vec<String>, String> {
    let trimmed = parameters.trim();
    if trimmed.is_empty() || trimmed == "void" {
        return Ok(Vec::new());
    }
    split_top_level(trimmed, ',')
        .into_iter()
        .map(|parameter| {
            let declarator = split_top_level(parameter, '=')[0].trim();
            // `int a[10]`: the name is before the brackets.
            let declarator = match declarator.find('[') {
                Some(bracket) => declarator[..bracket].trim_end(),
                None => declarator,
            };
            match trailing_identifier(declarator) {
                Some(name) if !is_type_word(name) && name.len() < declarator.len() => {
                    Ok(name.to_string())
                }
                _ => Err(format!(
                    "the parameter `{}` has no name (the test program forwards each parameter by its name)",
                    parameter.trim()
                )),
            }
        })
        .collect()
}

fn is_type_word(word: &str) -> bool {
    matches!(
        word,
        "int"
            | "long"
            | "short"
            | "char"
            | "bool"
            | "float"
            | "double"
            | "unsigned"
            | "signed"
            | "const"
            | "auto"
            | "string"
            | "size_t"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameter_names_of_declarations_as_benchmarks_write_them() {
        let table: &[(&str, Result<Vec<&str>, ()>)] = &[
            (
                "vector<float> numbers, float threshold",
                Ok(vec!["numbers", "threshold"]),
            ),
            ("", Ok(vec![])),
            ("void", Ok(vec![])),
            ("map<string, int> m, const string& s", Ok(vec!["m", "s"])),
            ("vector<vector<int>> grid,int k", Ok(vec!["grid", "k"])),
            ("int a[10], long long *p", Ok(vec!["a", "p"])),
            ("string s0,string s1", Ok(vec!["s0", "s1"])),
            ("int x = 3, pair<int,int> q = {1, 2}", Ok(vec!["x", "q"])),
            ("int", Err(())),
            ("vector<int>", Err(())),
        ];
        for (parameters, expected) in table {
            let got = parameter_names(parameters);
            match expected {
                Ok(names) => assert_eq!(
                    got.as_deref(),
                    Ok(&names.iter().map(|s| s.to_string()).collect::<Vec<_>>()[..]),
                    "{parameters}"
                ),
                Err(()) => assert!(got.is_err(), "{parameters}: {got:?}"),
            }
        }
    }

    #[test]
    fn the_trusted_program_forwards_the_entry_point_and_keeps_the_helpers() {
        let declaration = "#include<vector>\nusing namespace std;\ndouble poly(vector<double> xs, double x){\n    return xs[0] + x;\n}\ndouble find_zero(vector<double> xs){\n";
        let test = "#include<assert.h>\nint main(){\n    assert (abs(poly({1}, find_zero({1, 2})))< 1e-3);\n    static_assert(1 == 1);\n    // assert(no)\n    puts(\"assert(no)\");\n}\n";
        let trusted = trusted_program(declaration, "find_zero", test).unwrap();
        assert!(
            trusted.contains("double poly(vector<double> xs, double x){\n    return xs[0] + x;\n}")
        );
        assert!(trusted.contains(
            "double find_zero(vector<double> xs) {\n    return ::rewardbox_wire::call<decltype(find_zero(xs)), decltype(xs)>(0, xs);\n}"
        ));
        assert!(trusted.contains("    RB_ASSERT_ (abs(poly({1}, find_zero({1, 2})))< 1e-3);"));
        assert!(trusted.contains("static_assert(1 == 1);"));
        assert!(trusted.contains("// assert(no)"));
        assert!(trusted.contains("puts(\"assert(no)\");"));
    }

    #[test]
    fn structs_that_cross_get_codecs_between_their_definitions_and_the_entry_point() {
        let declaration = "#include<bits/stdc++.h>\nusing namespace std;\nstruct Point { long long x, y; };\nstruct Local { function<int()> f; };\nstruct Named { string name; vector<Point> at; };\nvector<Named> near(const Point& p, int k){\n";
        let trusted = trusted_program(declaration, "near", "int main(){}\n").unwrap();
        let codec = |s: &str| format!("template <> struct Codec<::{s}>");
        let at = |text: &str| {
            trusted
                .find(text)
                .unwrap_or_else(|| panic!("{text}: {trusted}"))
        };
        assert!(at(&codec("Point")) < at(&codec("Named")));
        assert!(at("struct Named {") < at(&codec("Point")));
        // A struct only the test code's side would use gets none (its field has no codec).
        assert!(!trusted.contains(&codec("Local")), "{trusted}");
        // The signature keeps its line (6) in the compiler's messages.
        assert!(
            trusted.contains("#line 6 \"declaration\"\nvector<Named> near("),
            "{trusted}"
        );
        let candidate = candidate_program(declaration, declaration, "near").unwrap();
        let in_candidate = |text: &str| candidate.find(text).unwrap_or_else(|| panic!("{text}"));
        assert!(in_candidate("#line 1 \"rewardbox-serve\"") < in_candidate(&codec("Point")));
        assert!(in_candidate(&codec("Point")) < in_candidate(&codec("Named")));
        assert!(!candidate.contains(&codec("Local")));
        // Without structs the programs are as before.
        let plain = trusted_program("int f(int a){\n", "f", "").unwrap();
        assert!(!plain.contains("template <> struct Codec<::"), "{plain}");
    }

    #[test]
    fn comments_before_the_signature_are_not_its_return_type() {
        // MultiPL-E's prompts: the problem's text and examples in comments above the function.
        let table = [
            "#include<assert.h>\n#include<bits/stdc++.h>\n// Return the sum.\n// >>> f((std::vector<long>({(long)1, (long)2})))\n// (3)\nlong f(std::vector<long> xs) {\n",
            "/**\n * The sum. */\nlong f(std::vector<long> xs) {\n",
            "long /* the sum */ f(std::vector<long> xs) {\n",
        ];
        for declaration in table {
            let found = entry_types(declaration, "f").unwrap();
            assert_eq!(found.returns, "long", "{declaration}");
            assert_eq!(found.parameters, ["std::vector<long>"], "{declaration}");
        }
    }

    #[test]
    fn a_declaration_without_the_entry_point_is_an_error_naming_it() {
        let err = trusted_program("int f(int a){\n", "g", "").unwrap_err();
        assert!(err.contains("`g`"), "{err}");
        let err = trusted_program("int g(int a);\n", "g", "").unwrap_err();
        assert!(err.contains("`g`"), "{err}");
    }
}
