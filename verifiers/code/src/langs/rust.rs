//! Rust test code, in either of the two forms benchmarks ship: HumanEval-X's `#[cfg(test)] mod
//! tests { #[test] fn ... }`, and MultiPL-E's `fn main() { let candidate = f; assert_eq!(...); }`
//! (whose text opens with the `}` closing the candidate's function; it is dropped here). The
//! trusted program and the candidate's server are generated around [`WIRE`].
//!
//! The trusted program is the task's declaration with the entry point's body replaced by a call
//! through the wire, then the test code compiled as ordinary code.
//! - Test functions: `#[cfg(test)]` dropped, each `#[test]` function made callable, and a `main`
//!   that runs them in order, as `cargo test` runs them, reporting each. A failed `assert!` panics
//!   and ends the test program, as it ends the test under `panic = "abort"`.
//! - A `main` of asserts: each line holding `assert!`, `assert_eq!` or `assert_ne!` is a case; the
//!   asserts report their result and go on (as the C++ form's do), so every assert is a case, and
//!   the run passes when it reaches its end with none failed.

use crate::langs::StaticCase;
use crate::langs::source::{
    Signature, blank, call_lines, last_definition, rewrite_calls, split_top_level,
    trailing_identifier, without_closing_brace,
};
use crate::langs::structs;

/// The wire module, appended to both programs.
pub const WIRE: &str = include_str!("../wire/wire.rs");

/// Rust's comments and string literals (a `'` also opens a lifetime, so it is not one).
fn rust_literals() -> &'static [(&'static str, &'static str)] {
    &[("//", "\n"), ("/*", "*/"), ("\"", "\"")]
}

/// Where the item holding `at` starts: after the last `;` or `}` before it.
fn item_start(text: &str, at: usize) -> usize {
    text[..at].rfind([';', '}']).map_or(0, |i| i + 1)
}

/// The function a declaration opens: the last one it defines outside every body.
pub fn entry_of_declaration(declaration: &str) -> Option<String> {
    last_definition(declaration, rust_literals, RUST_KEYWORDS)
}

/// Words followed by a parenthesis and a brace that are not functions.
const RUST_KEYWORDS: &[&str] = &["if", "for", "while", "match", "fn", "return", "in", "loop"];

/// A parameter of the entry point: its name and its type as the declaration writes them.
struct Parameter {
    name: String,
    ty: String,
}

fn parameters(list: &str) -> Result<Vec<Parameter>, String> {
    if list.trim().is_empty() {
        return Ok(Vec::new());
    }
    split_top_level(list.trim().trim_end_matches(','), ',')
        .into_iter()
        .map(|parameter| {
            let (pattern, ty) = parameter
                .split_once(':')
                .ok_or_else(|| format!("the parameter `{}` has no type", parameter.trim()))?;
            let name = trailing_identifier(pattern)
                .filter(|n| *n != "mut" && *n != "_")
                .ok_or_else(|| {
                    format!(
                        "the parameter `{}` is not a plain name (the test program forwards each \
                         parameter by its name)",
                        parameter.trim()
                    )
                })?;
            Ok(Parameter {
                name: name.to_string(),
                ty: ty.trim().to_string(),
            })
        })
        .collect()
}

/// How the candidate's server makes an argument of type `ty` from a received value: the owned
/// type it receives, and how it passes it (`&`, `&mut` or by value).
fn owned_and_passing(ty: &str) -> Result<(String, &'static str), String> {
    if ty.contains("dyn ") || ty.contains("impl ") {
        return Err(format!(
            "the parameter type `{ty}` is not a value (trait objects and `impl Trait` cannot \
             cross between the test program and the candidate)"
        ));
    }
    let Some((inner, mutable)) = borrowed(ty) else {
        return Ok((ty.to_string(), ""));
    };
    let passing = if mutable { "&mut " } else { "&" };
    let owned = if inner == "str" {
        "String".to_string()
    } else if let Some(element) = slice_element(inner) {
        format!("Vec<{element}>")
    } else {
        inner.to_string()
    };
    Ok((owned, passing))
}

/// What a reference type borrows, and whether mutably: `&'a mut Vec<i32>` → (`Vec<i32>`, true);
/// `None` for a type that is not a reference.
fn borrowed(ty: &str) -> Option<(&str, bool)> {
    let mut inner = ty.trim().strip_prefix('&')?.trim_start();
    if inner.starts_with('\'') {
        inner = inner
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest)
            .trim_start();
    }
    Some(match inner.strip_prefix("mut ") {
        Some(rest) => (rest.trim(), true),
        None => (inner.trim(), false),
    })
}

/// The element type of a slice type (`[i32]` → `i32`); `None` for an array (`[i32; 3]`) or
/// another type.
fn slice_element(ty: &str) -> Option<&str> {
    let element = ty.strip_prefix('[')?.strip_suffix(']')?;
    (split_top_level(element, ';').len() == 1).then_some(element)
}

/// How the test code's variable that a `&mut` parameter borrows takes the candidate's value of
/// it after the call (read from the answer's `input`), as natively the function changes it: a
/// slice element by element (its length cannot change), another type whole. `None` for a
/// parameter that is not `&mut`, and for a `&mut str` (which only changes in place, case
/// conversions; not carried back).
fn write_back(p: &Parameter) -> Option<String> {
    let (inner, true) = borrowed(&p.ty)? else {
        return None;
    };
    let name = &p.name;
    match inner {
        "str" => None,
        _ if slice_element(inner).is_some() => Some(format!(
            "    let changed: Vec<_> = rewardbox_wire::Take::take(&mut input);\n    for (to, from) in {name}.iter_mut().zip(changed) {{\n        *to = from;\n    }}\n"
        )),
        _ => Some(format!(
            "    *{name} = rewardbox_wire::Take::take(&mut input);\n"
        )),
    }
}

/// One function of the candidate's that the test code calls: its signature and parameters.
struct Forwarded<'a> {
    signature: Signature<'a>,
    name: String,
    parameters: Vec<Parameter>,
}

/// Signatures of the candidate's other functions (`fn name(...) -> T`, with or without the
/// opening brace), each ending with its brace as a declaration does.
fn braced(others: &[String]) -> Vec<String> {
    others
        .iter()
        .map(|o| format!("{} {{", o.trim().trim_end_matches('{').trim_end()))
        .collect()
}

/// The functions the trusted program forwards to the candidate, in wire order: the entry point
/// (function 0, its signature in `declaration`), then each of `others` ([`braced`] signatures
/// of the candidate's other functions that the test code calls).
fn forwarded<'a>(
    declaration: &'a str,
    entry: &str,
    others: &'a [String],
) -> Result<Vec<Forwarded<'a>>, String> {
    let mut all = vec![(declaration, entry.to_string())];
    for other in others {
        let name = entry_of_declaration(other)
            .ok_or_else(|| format!("`{other}` is not a function's signature"))?;
        all.push((other.as_str(), name));
    }
    all.into_iter()
        .map(|(text, name)| {
            let signature = Signature::find(text, &name, rust_literals, item_start)?;
            let parameters = parameters(signature.parameters)?;
            for p in &parameters {
                owned_and_passing(&p.ty)?;
            }
            Ok(Forwarded {
                signature,
                name,
                parameters,
            })
        })
        .collect()
}

/// The forwarding functions of the trusted program: each sends its arguments as a call of its
/// wire number and returns the candidate's answer; one taking arguments by `&mut` first takes
/// their changed values into the test code's variables ([`write_back`]).
fn stubs(functions: &[Forwarded]) -> String {
    functions
        .iter()
        .enumerate()
        .map(|(id, f)| {
            let sends: String = f
                .parameters
                .iter()
                .map(|p| format!(" rewardbox_wire::Put::put(&{}, out);", p.name))
                .collect();
            let text = f.signature.text.trim_start();
            let text = text.strip_prefix("pub ").unwrap_or(text);
            let changes: String = f.parameters.iter().filter_map(write_back).collect();
            if changes.is_empty() {
                format!("{text} {{\n    rewardbox_wire::call({id}, |out| {{{sends} }})\n}}\n")
            } else {
                format!(
                    "{text} {{\n    let (result, mut input) = rewardbox_wire::call_changing({id}, |out| {{{sends} }});\n{changes}    result\n}}\n"
                )
            }
        })
        .collect()
}

/// The trusted test program: the declaration's helpers, the entry point (and the candidate's
/// other functions in `others`) forwarding to the candidate, the test code, and a `main`
/// running its test functions.
pub fn trusted_program(
    declaration: &str,
    entry: &str,
    others: &[String],
    test: &str,
) -> Result<String, String> {
    let others = braced(others);
    let functions = forwarded(declaration, entry, &others)?;
    let prefix = functions[0].signature.prefix;
    let stubs = stubs(&functions) + &struct_impls(prefix, &functions);
    let tests = test_functions(test);
    if tests.is_empty()
        && let Some(main) = top_level_main(test)
    {
        return Ok(main_form_program(prefix, &stubs, test, main));
    }
    let runs: String = tests
        .iter()
        .map(|path| {
            format!(
                "    rewardbox_wire::case(\"{path}\", \"start\");\n    {path}();\n    rewardbox_wire::case(\"{path}\", \"pass\");\n"
            )
        })
        .collect();
    Ok(format!(
        "#![allow(unused, deprecated, non_snake_case, non_camel_case_types)]\n{prefix}\n{stubs}{test}\nfn main() {{\n{runs}}}\n{WIRE}",
        test = callable_tests(test),
    ))
}

/// The candidate's program: `program` (its whole source), then a `main` answering calls of
/// `entry` (and of the functions `others` declares), whose parameter types the task gives.
pub fn candidate_program(
    program: &str,
    declaration: &str,
    entry: &str,
    others: &[String],
) -> Result<String, String> {
    let mut arms = String::new();
    let others = braced(others);
    let functions = forwarded(declaration, entry, &others)?;
    for (id, function) in functions.iter().enumerate() {
        let mut receive = String::new();
        let mut arguments = Vec::new();
        // The arguments the caller's variables take back (the same as its stub's, [`stubs`]).
        let mut changes = String::new();
        for (i, p) in function.parameters.iter().enumerate() {
            let (owned, passing) = owned_and_passing(&p.ty)?;
            receive.push_str(&format!(
                "            let mut a{i}: {owned} = rewardbox_wire::Take::take(input);\n"
            ));
            arguments.push(format!("{passing}a{i}"));
            if write_back(p).is_some() {
                changes.push_str(&format!(" rewardbox_wire::Put::put(&a{i}, out);"));
            }
        }
        let changes = if changes.is_empty() {
            changes
        } else {
            format!("            if changed {{{changes} }}\n")
        };
        arms.push_str(&format!(
            "        {id} => {{\n{receive}            let answer = {}({});\n            rewardbox_wire::Put::put(&answer, out);\n{changes}        }}\n",
            function.name,
            arguments.join(", ")
        ));
    }
    Ok(format!(
        "{program}\n{}fn main() {{\n    rewardbox_wire::serve(|function, changed, input, out| match function {{\n{arms}        _ => input.malformed(\"call\"),\n    }});\n}}\n{WIRE}",
        struct_impls(functions[0].signature.prefix, &functions)
    ))
}

/// What `declaration` holds before the entry point's signature (its `use`s, helpers, structs).
pub fn prefix<'a>(declaration: &'a str, entry: &str) -> Result<&'a str, String> {
    Signature::find(declaration, entry, rust_literals, item_start).map(|s| s.prefix)
}

/// The entry point's types as `declaration` writes them: each parameter's type and the return
/// type (`()` when the signature has no `->`).
pub fn entry_types(declaration: &str, entry: &str) -> Result<(Vec<String>, String), String> {
    let signature = Signature::find(declaration, entry, rust_literals, item_start)?;
    let parameters = parameters(signature.parameters)?
        .into_iter()
        .map(|p| p.ty)
        .collect();
    Ok((parameters, return_type(signature.after).to_string()))
}

/// The return type written after a signature's parameter list (`-> Vec<i64> where ...`), `()`
/// when it has no `->`.
fn return_type(after: &str) -> &str {
    match after.find("->") {
        Some(at) => {
            let ty = after[at + 2..].trim();
            ty.split(" where ").next().unwrap_or(ty).trim()
        }
        None => "()",
    }
}

/// The wire's `Put` and `Take` for the structs `prefix` defines whose values cross: those the
/// forwarded functions' parameter and return types name, at any depth
/// ([`crate::langs::structs::rust`]).
fn struct_impls(prefix: &str, functions: &[Forwarded]) -> String {
    let defined = structs::rust::read(prefix);
    let types: Vec<&str> = functions
        .iter()
        .flat_map(|f| {
            f.parameters
                .iter()
                .map(|p| p.ty.as_str())
                .chain([return_type(f.signature.after)])
        })
        .collect();
    structs::rust::impls(&structs::used_by(&defined, &types))
}

/// The test functions of `test` (`#[test] fn name` inside `mod tests`), as paths from the
/// crate's root, in order.
fn test_functions(test: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut modules: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut pending_test = false;
    let code = blank(test, rust_literals);
    let words = code.split_inclusive(|c: char| {
        !(c.is_ascii_alphanumeric() || c == '_' || c == '#' || c == '[' || c == ']')
    });
    let mut previous = String::new();
    for piece in words {
        let word = piece.trim_end_matches(|c: char| {
            !(c.is_ascii_alphanumeric() || c == '_' || c == '#' || c == '[' || c == ']')
        });
        let tail = &piece[word.len()..];
        if word.contains("#[test]") {
            pending_test = true;
        }
        if previous == "mod" && !word.is_empty() {
            modules.push((word.to_string(), depth));
        }
        if previous == "fn" && pending_test && !word.is_empty() {
            let mut path: Vec<&str> = modules.iter().map(|(m, _)| m.as_str()).collect();
            path.push(word);
            found.push(path.join("::"));
            pending_test = false;
        }
        for c in tail.chars() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth = depth.saturating_sub(1);
                    while modules.last().is_some_and(|(_, d)| *d == depth) {
                        modules.pop();
                    }
                }
                _ => {}
            }
        }
        if !word.is_empty() {
            previous = word.to_string();
        }
    }
    found
}

/// The test code compiled as ordinary code: `#[cfg(test)]` dropped, and each `#[test]` function
/// visible to the crate's `main`.
fn callable_tests(test: &str) -> String {
    test.replace("#[cfg(test)]", "")
        .replace("#[test]", "#[allow(dead_code)] pub(crate)")
        .replace("pub(crate)\n    pub fn", "pub(crate) fn")
}

/// The cases of `test`: its test functions, or, in the `main` form, each line holding an assert.
pub fn cases(test: &str) -> Vec<StaticCase> {
    let functions = test_functions(test);
    if functions.is_empty() && top_level_main(test).is_some() {
        return assert_lines(test)
            .into_iter()
            .map(|(line, text)| StaticCase::line(line, &text))
            .collect();
    }
    functions
        .into_iter()
        .map(|path| StaticCase {
            label: format!("test {path}"),
            id: path,
        })
        .collect()
}

/// The assert macros of the `main` form, and what each is rewritten to.
const ASSERT_MACROS: [(&str, &str); 3] = [
    ("assert!", "rb_assert!"),
    ("assert_eq!", "rb_assert_eq!"),
    ("assert_ne!", "rb_assert_ne!"),
];

/// The assert macros of the `main` form, reporting each result on the trusted program's stderr
/// and going on. `RB_TEST_LINE0` is the line before the test code, so that a case is named by
/// its line in the test code as the task wrote it.
const MAIN_FORM_MACROS: &str = r#"macro_rules! rb_assert {
    ($cond:expr $(,)?) => { rewardbox_wire::check($cond, stringify!($cond).to_string(), line!() - RB_TEST_LINE0) };
    ($cond:expr, $($arg:tt)+) => { rewardbox_wire::check($cond, format!("{}: {}", stringify!($cond), format_args!($($arg)+)), line!() - RB_TEST_LINE0) };
}
macro_rules! rb_assert_eq {
    ($left:expr, $right:expr $(,)?) => { rb_assert_eq!($left, $right, "") };
    ($left:expr, $right:expr, $($arg:tt)+) => {
        match (&$left, &$right) {
            (left, right) => rewardbox_wire::check(*left == *right, format!("{} == {} (left: {:?}, right: {:?}) {}", stringify!($left), stringify!($right), left, right, format_args!($($arg)+)), line!() - RB_TEST_LINE0),
        }
    };
}
macro_rules! rb_assert_ne {
    ($left:expr, $right:expr $(,)?) => { rb_assert_ne!($left, $right, "") };
    ($left:expr, $right:expr, $($arg:tt)+) => {
        match (&$left, &$right) {
            (left, right) => rewardbox_wire::check(*left != *right, format!("{} != {} (left: {:?}, right: {:?}) {}", stringify!($left), stringify!($right), left, right, format_args!($($arg)+)), line!() - RB_TEST_LINE0),
        }
    };
}
"#;

/// `program` with its top-level `fn main` (a program that tried itself on an example) renamed
/// out of the way of a server's `main`, lines and other text kept.
pub fn without_main(program: &str) -> String {
    let mut program = program.to_string();
    if let Some(at) = top_level_main(&program) {
        program.replace_range(at..at + 4, "rewardbox_candidate_main");
    }
    program
}

/// Where the test code's top-level `fn main` is: the byte offset of the word `main`.
fn top_level_main(test: &str) -> Option<usize> {
    let code = blank(test, rust_literals);
    let bytes = code.as_bytes();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            // MultiPL-E's test code opens with the `}` closing the candidate's function.
            b'}' => depth = depth.saturating_sub(1),
            b'f' if depth == 0
                && code[i..].starts_with("fn")
                && (i == 0 || !is_identifier(bytes[i - 1])) =>
            {
                let rest = &code[i + 2..];
                let name_at = i + 2 + (rest.len() - rest.trim_start().len());
                if code[name_at..].starts_with("main")
                    && !code[name_at + 4..]
                        .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_')
                {
                    return Some(name_at);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

fn is_identifier(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The lines of `test` holding an assert macro, in order, each once.
fn assert_lines(test: &str) -> Vec<(usize, String)> {
    let mut lines: Vec<(usize, String)> = ASSERT_MACROS
        .iter()
        .flat_map(|(name, _)| call_lines(test, name, rust_literals))
        .collect();
    lines.sort_by_key(|(line, _)| *line);
    lines.dedup_by_key(|(line, _)| *line);
    lines
}

/// The trusted program of the `main` form: its `main` renamed and called from ours, a `}` before
/// it (MultiPL-E's, closing the candidate's function) blanked, its asserts reporting.
fn main_form_program(prefix: &str, stubs: &str, test: &str, main: usize) -> String {
    let mut code = test.to_string();
    code.replace_range(main..main + 4, "rewardbox_test_main");
    let code = without_closing_brace(&code, rust_literals);
    let code = ASSERT_MACROS
        .iter()
        .fold(code, |code, (name, replacement)| {
            rewrite_calls(&code, name, replacement, rust_literals)
        });
    let head = format!(
        "#![allow(unused, deprecated, non_snake_case, non_camel_case_types)]\n{prefix}\n{stubs}{MAIN_FORM_MACROS}"
    );
    let line0 = head.matches('\n').count() + 1;
    format!(
        "{head}const RB_TEST_LINE0: u32 = {line0};\n{code}\nfn main() {{\n    rewardbox_test_main();\n}}\n{WIRE}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_are_received_owned_and_passed_as_declared() {
        let table = [
            ("i32", ("i32", "")),
            ("&str", ("String", "&")),
            ("&'a str", ("String", "&")),
            ("&[i64]", ("Vec<i64>", "&")),
            ("&[u8; 4]", ("[u8; 4]", "&")),
            ("&Vec<f64>", ("Vec<f64>", "&")),
            ("&mut Vec<i32>", ("Vec<i32>", "&mut ")),
            ("&f32", ("f32", "&")),
            ("HashMap<&str, &str>", ("HashMap<&str, &str>", "")),
            ("Vec<(i32, String)>", ("Vec<(i32, String)>", "")),
        ];
        for (ty, (owned, passing)) in table {
            assert_eq!(
                owned_and_passing(ty),
                Ok((owned.to_string(), passing)),
                "{ty}"
            );
        }
        assert!(owned_and_passing("Vec<Box<dyn Any>>").is_err());
        assert!(owned_and_passing("&'a dyn Any").is_err());
    }

    #[test]
    fn test_functions_are_found_with_their_module_path() {
        let test = "#[cfg(test)]\nmod tests {\n    use super::*;\n    // #[test] fn commented() {}\n    #[test]\n    fn test_a() { assert_eq!(f(\"}\"), 1); }\n    fn helper() {}\n    #[test]\n    fn test_b() {}\n}\n";
        assert_eq!(test_functions(test), vec!["tests::test_a", "tests::test_b"]);
        let callable = callable_tests(test);
        assert!(!callable.contains("#[cfg(test)]"));
        assert!(callable.contains("#[allow(dead_code)] pub(crate)\n    fn test_a()"));
    }

    #[test]
    fn mutably_borrowed_arguments_are_taken_back_whole_or_element_by_element() {
        let table: &[(&str, Option<&str>)] = &[
            (
                "&mut Vec<i32>",
                Some("*v = rewardbox_wire::Take::take(&mut input);"),
            ),
            (
                "&'a mut HashMap<String, i32>",
                Some("*v = rewardbox_wire::Take::take(&mut input);"),
            ),
            (
                "&mut [i64]",
                Some("for (to, from) in v.iter_mut().zip(changed)"),
            ),
            (
                "&mut [u8; 4]",
                Some("*v = rewardbox_wire::Take::take(&mut input);"),
            ),
            ("&mut str", None),
            ("&[i64]", None),
            ("&Vec<i32>", None),
            ("Vec<i32>", None),
            ("i32", None),
        ];
        for (ty, expected) in table {
            let p = Parameter {
                name: "v".into(),
                ty: ty.to_string(),
            };
            match (write_back(&p), expected) {
                (Some(code), Some(part)) => assert!(code.contains(part), "{ty}: {code}"),
                (got, expected) => assert_eq!(got.is_some(), expected.is_some(), "{ty}: {got:?}"),
            }
        }
        // The stub asks for them and the server sends them, for the same parameters.
        let declaration = "fn f(a: &mut Vec<i32>, b: &[i32], c: &mut [i32]) -> usize {\n";
        let trusted = trusted_program(declaration, "f", &[], "").unwrap();
        assert!(
            trusted.contains("rewardbox_wire::call_changing(0, |out|"),
            "{trusted}"
        );
        let candidate = candidate_program("", declaration, "f", &[]).unwrap();
        assert!(
            candidate.contains(
                "if changed { rewardbox_wire::Put::put(&a0, out); rewardbox_wire::Put::put(&a2, out); }"
            ),
            "{candidate}"
        );
        let plain = trusted_program("fn g(b: &[i32]) -> usize {\n", "g", &[], "").unwrap();
        assert!(!plain.contains("rewardbox_wire::call_changing("), "{plain}");
    }

    #[test]
    fn structs_that_cross_get_the_wires_traits_in_both_programs() {
        // The entry point takes a Point; a forwarded function returns a Shape holding Points; a
        // struct of the test's own side (a field without a codec) gets nothing.
        let declaration = "struct Point { x: i64, y: i64 }\nstruct Shape { corners: Vec<Point>, name: String }\nstruct Local { f: fn() -> i32 }\nfn area(p: &Point) -> i64 {\n";
        let others = ["fn square(side: i64) -> Option<Shape>".to_string()];
        let trusted = trusted_program(declaration, "area", &others, "").unwrap();
        let candidate = candidate_program(declaration, declaration, "area", &others).unwrap();
        for program in [&trusted, &candidate] {
            for s in ["Point", "Shape"] {
                assert!(program.contains(&format!("impl rewardbox_wire::Put for {s} ")));
                assert!(program.contains(&format!("impl rewardbox_wire::Take for {s} ")));
            }
            assert!(!program.contains("for Local "), "{program}");
        }
        let plain = trusted_program("fn f(x: i32) -> i32 {\n", "f", &[], "").unwrap();
        assert!(!plain.contains("impl rewardbox_wire::Put for"), "{plain}");
    }

    #[test]
    fn the_declaration_keeps_its_uses_of_crates() {
        // The host links Rust programs with rand, regex and md5 (among others), which
        // HumanEval-X's declarations name and its tests use (`rng.gen_range` needs `Rng`).
        let declaration = "\nuse std::{cmp::max, collections::HashMap};\nuse rand::Rng;\nuse regex::Regex;\nuse md5;\nuse std::any::Any;\n\nfn f(x: i32) -> i32{\n";
        let trusted = trusted_program(declaration, "f", &[], "").unwrap();
        assert!(
            trusted.contains(
                declaration
                    .trim_end_matches("fn f(x: i32) -> i32{\n")
                    .trim_end()
            )
        );
        assert_eq!(entry_of_declaration(declaration).as_deref(), Some("f"));
    }

    #[test]
    fn a_main_of_asserts_is_found_at_the_top_level_only_and_each_assert_line_is_a_case() {
        // MultiPL-E's form: the brace closing the candidate's function, then `main`.
        let multipl_e = "}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(1, 2), 3);\n    // assert!(false);\n    assert!(candidate(0, 0) == 0, \"zero\");\n    assert_ne!(candidate(1, 1), \"assert!(x)\".len() as i32);\n}\n";
        assert!(top_level_main(multipl_e).is_some());
        let ids: Vec<String> = cases(multipl_e).into_iter().map(|c| c.id).collect();
        assert_eq!(ids, ["line 5", "line 7", "line 8"]);
        let nested = "mod m {\n    fn main() { assert!(true); }\n}\nfn mainly() {}\n";
        assert_eq!(top_level_main(nested), None);
        // Test functions take precedence: HumanEval-X's form is unchanged.
        let both = "fn main() {}\n#[test]\nfn t() { assert!(true); }\n";
        assert_eq!(cases(both)[0].id, "t");
        let trusted =
            trusted_program("fn add(a: i32, b: i32) -> i32 {\n", "add", &[], multipl_e).unwrap();
        assert!(trusted.contains("fn rewardbox_test_main()"));
        assert!(trusted.contains("rb_assert_eq!(candidate(1, 2), 3);"));
        assert!(
            trusted.contains("// assert!(false);"),
            "comments are left alone"
        );
        assert!(
            trusted.contains("\"assert!(x)\""),
            "literals are left alone"
        );
        // The line constant makes `line!()` count from the test code's first line.
        let line0: usize = trusted
            .split("const RB_TEST_LINE0: u32 = ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap()
            .parse()
            .unwrap();
        let line_of_first_assert = trusted
            .lines()
            .position(|l| l.contains("rb_assert_eq!(candidate(1, 2)"))
            .unwrap()
            + 1;
        assert_eq!(line_of_first_assert - line0, 5);
    }

    #[test]
    fn other_functions_the_test_calls_are_forwarded_by_their_wire_number() {
        let declaration = "fn decode(s: &str) -> String {\n";
        let others = ["pub fn encode(s: &str, shift: u8) -> String".to_string()];
        let trusted = trusted_program(declaration, "decode", &others, "").unwrap();
        assert!(trusted.contains("fn decode(s: &str) -> String {\n    rewardbox_wire::call(0,"));
        assert!(trusted.contains(
            "fn encode(s: &str, shift: u8) -> String {\n    rewardbox_wire::call(1, |out| { rewardbox_wire::Put::put(&s, out); rewardbox_wire::Put::put(&shift, out); })"
        ));
        let candidate = candidate_program("fn x() {}", declaration, "decode", &others).unwrap();
        assert!(candidate.contains("0 => {") && candidate.contains("let answer = decode(&a0);"));
        assert!(
            candidate.contains("1 => {") && candidate.contains("let answer = encode(&a0, a1);")
        );
        assert!(candidate.contains("_ => input.malformed(\"call\")"));
        let bad = trusted_program(declaration, "decode", &["let x = 3;".to_string()], "");
        assert!(bad.unwrap_err().contains("let x = 3;"));
    }

    #[test]
    fn the_trusted_program_forwards_each_parameter_by_name() {
        let declaration = "use std::collections::HashMap;\nfn greatest_common_divisor(mut a:i32,mut b:i32) -> i32{\n";
        let trusted = trusted_program(declaration, "greatest_common_divisor", &[], "").unwrap();
        assert!(trusted.contains(
            "fn greatest_common_divisor(mut a:i32,mut b:i32) -> i32 {\n    rewardbox_wire::call(0, |out| { rewardbox_wire::Put::put(&a, out); rewardbox_wire::Put::put(&b, out); })\n}"
        ));
        let candidate =
            candidate_program("fn x() {}", declaration, "greatest_common_divisor", &[]).unwrap();
        assert!(candidate.contains("let answer = greatest_common_divisor(a0, a1);"));
    }

    #[test]
    fn only_a_top_level_main_is_renamed() {
        assert_eq!(
            without_main("fn f() {}\nfn main() { f(); }\n"),
            "fn f() {}\nfn rewardbox_candidate_main() { f(); }\n"
        );
        for kept in [
            "mod m {\n    fn main() {}\n}\n",
            "fn mainly() {}\n",
            "const S: &str = \"fn main() {}\";\n",
            "// fn main() {}\nfn f() {}\n",
        ] {
            assert_eq!(without_main(kept), kept);
        }
    }
}
