//! Rust test code (HumanEval-X's and MultiPL-E's `#[cfg(test)] mod tests { #[test] fn ... }`):
//! the trusted program and the candidate's server, generated around [`WIRE`].
//!
//! The trusted program is the task's declaration with the entry point's body replaced by a call
//! through the wire, then the test code compiled as ordinary code (`#[cfg(test)]` dropped, each
//! `#[test]` function made callable) and a `main` that runs the test functions in order, as
//! `cargo test` runs them, reporting each. A failed `assert!` panics and ends the test program,
//! as it ends the test under `panic = "abort"`.

use crate::program_tests::StaticCase;
use crate::program_tests::source::{
    Signature, blank, last_definition, split_top_level, trailing_identifier,
};

/// The wire module, appended to both programs.
pub const WIRE: &str = include_str!("wire.rs");

/// Crates a declaration may name that are part of every Rust installation.
const STANDARD_CRATES: [&str; 5] = ["std", "core", "alloc", "self", "super"];

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

/// `declaration` without `use` items of crates other than the standard library's: the trusted
/// program has no third-party crates, and its declaration's items are its own.
fn without_foreign_uses(declaration: &str) -> String {
    declaration
        .lines()
        .filter(|line| {
            let Some(path) = line.trim().strip_prefix("use ") else {
                return true;
            };
            let root: String = path
                .trim_start_matches("::")
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            STANDARD_CRATES.contains(&root.as_str())
        })
        .collect::<Vec<_>>()
        .join("\n")
}

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
    let Some(referenced) = ty.strip_prefix('&') else {
        return Ok((ty.to_string(), ""));
    };
    let mut inner = referenced.trim_start();
    if inner.starts_with('\'') {
        inner = inner
            .split_once(char::is_whitespace)
            .map_or("", |(_, rest)| rest)
            .trim_start();
    }
    let (inner, passing) = match inner.strip_prefix("mut ") {
        Some(rest) => (rest.trim(), "&mut "),
        None => (inner.trim(), "&"),
    };
    let owned = if inner == "str" {
        "String".to_string()
    } else if let Some(element) = inner.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        if split_top_level(element, ';').len() > 1 {
            inner.to_string()
        } else {
            format!("Vec<{element}>")
        }
    } else {
        inner.to_string()
    };
    Ok((owned, passing))
}

/// The trusted test program: the declaration's helpers, the entry point forwarding to the
/// candidate, the test code, and a `main` running its test functions.
pub fn trusted_program(declaration: &str, entry: &str, test: &str) -> Result<String, String> {
    let signature = Signature::find(declaration, entry, rust_literals, item_start)?;
    let parameters = parameters(signature.parameters)?;
    for p in &parameters {
        owned_and_passing(&p.ty)?;
    }
    let sends: String = parameters
        .iter()
        .map(|p| format!(" rewardbox_wire::Put::put(&{}, out);", p.name))
        .collect();
    let tests = test_functions(test);
    let runs: String = tests
        .iter()
        .map(|path| {
            format!(
                "    rewardbox_wire::case(\"{path}\", \"start\");\n    {path}();\n    rewardbox_wire::case(\"{path}\", \"pass\");\n"
            )
        })
        .collect();
    Ok(format!(
        "#![allow(unused, deprecated, non_snake_case, non_camel_case_types)]\n{prefix}\n{text} {{\n    rewardbox_wire::call(0, |out| {{{sends} }})\n}}\n{test}\nfn main() {{\n{runs}}}\n{WIRE}",
        prefix = without_foreign_uses(signature.prefix),
        text = signature.text,
        test = callable_tests(test),
    ))
}

/// The candidate's program: `program` (its whole source), then a `main` answering calls of
/// `entry`, whose parameter types the task's `declaration` gives.
pub fn candidate_program(program: &str, declaration: &str, entry: &str) -> Result<String, String> {
    let signature = Signature::find(declaration, entry, rust_literals, item_start)?;
    let parameters = parameters(signature.parameters)?;
    let mut receive = String::new();
    let mut arguments = Vec::new();
    for (i, p) in parameters.iter().enumerate() {
        let (owned, passing) = owned_and_passing(&p.ty)?;
        receive.push_str(&format!(
            "        let mut a{i}: {owned} = rewardbox_wire::Take::take(input);\n"
        ));
        arguments.push(format!("{passing}a{i}"));
    }
    Ok(format!(
        "{program}\nfn main() {{\n    rewardbox_wire::serve(|input, out| {{\n{receive}        let answer = {entry}({});\n        rewardbox_wire::Put::put(&answer, out);\n    }});\n}}\n{WIRE}",
        arguments.join(", ")
    ))
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

/// The cases of `test`: its test functions.
pub fn cases(test: &str) -> Vec<StaticCase> {
    test_functions(test)
        .into_iter()
        .map(|path| StaticCase {
            label: format!("test {path}"),
            id: path,
        })
        .collect()
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
    fn the_declaration_keeps_standard_uses_only() {
        let declaration = "\nuse std::{cmp::max, collections::HashMap};\nuse rand::Rng;\nuse regex::Regex;\nuse md5;\nuse std::any::Any;\n\nfn f(x: i32) -> i32{\n";
        let kept = without_foreign_uses(declaration);
        assert!(kept.contains("use std::{cmp::max, collections::HashMap};"));
        assert!(kept.contains("use std::any::Any;"));
        assert!(!kept.contains("rand") && !kept.contains("regex") && !kept.contains("md5"));
        assert_eq!(entry_of_declaration(declaration).as_deref(), Some("f"));
    }

    #[test]
    fn the_trusted_program_forwards_each_parameter_by_name() {
        let declaration = "use std::collections::HashMap;\nfn greatest_common_divisor(mut a:i32,mut b:i32) -> i32{\n";
        let trusted = trusted_program(declaration, "greatest_common_divisor", "").unwrap();
        assert!(trusted.contains(
            "fn greatest_common_divisor(mut a:i32,mut b:i32) -> i32 {\n    rewardbox_wire::call(0, |out| { rewardbox_wire::Put::put(&a, out); rewardbox_wire::Put::put(&b, out); })\n}"
        ));
        let candidate =
            candidate_program("fn x() {}", declaration, "greatest_common_divisor").unwrap();
        assert!(candidate.contains("let answer = greatest_common_divisor(a0, a1);"));
    }
}
