//! JavaScript test programs (HumanEval-X's `console.assert(...)` functions, MultiPL-E's
//! `assert.deepEqual(...)` through `require('node:assert')`): the trusted program and the
//! candidate's server, both run by the JavaScript runner, whose wire (`guests/js/src/wire.js`)
//! carries every JavaScript value as itself.
//!
//! The trusted program is the task's declaration without the entry point's opening, a stub of
//! the entry point (and of each forwarded function) that calls the live candidate, then the test
//! code, whose assert calls report each result ([`rewrite_asserts`]): `console.assert` goes on
//! after a failure, as in Node; `assert(...)` and `assert.<method>(...)` throw, ending the test
//! run, as in Node. The candidate's program is its own source, after which the runner answers
//! calls until the test program ends.

use crate::langs::StaticCase;
use crate::langs::source::blank;
use rewardbox_languages::js_test_run::{
    SERVED_PROGRAM as SERVE_MARKER, TEST_PROGRAM as TEST_MARKER,
};

/// JavaScript's comments and string and template literals.
fn js_literals() -> &'static [(&'static str, &'static str)] {
    &[
        ("//", "\n"),
        ("/*", "*/"),
        ("\"", "\""),
        ("'", "'"),
        ("`", "`"),
    ]
}

/// The trusted test program: the declaration's helpers, the entry point and each of `forward`
/// calling the candidate, then `test` with its asserts reporting.
pub fn trusted_program(
    declaration: &str,
    entry: &str,
    forward: &[String],
    test: &str,
) -> Result<String, String> {
    let start = definition_start(declaration, entry).ok_or_else(|| {
        format!(
            "the declaration does not define `{entry}` (`function {entry}(` or `const {entry} =`)"
        )
    })?;
    let mut stubs = String::new();
    for name in std::iter::once(entry).chain(forward.iter().map(String::as_str)) {
        if !is_identifier(name) {
            return Err(format!(
                "`{name}` is not a JavaScript function name (\"tests.forward\" lists names)"
            ));
        }
        stubs.push_str(&format!(
            "function {name}(...args) {{ return __rb_remote(\"{name}\", args, new.target !== undefined); }}\n"
        ));
    }
    Ok(format!(
        "{TEST_MARKER}{prefix}\n;{stubs}{test}\n",
        prefix = &declaration[..start],
        test = rewrite_asserts(test).0,
    ))
}

/// The candidate's program: its whole source, marked to answer the test program's calls.
pub fn candidate_program(program: &str) -> String {
    format!("{SERVE_MARKER}{program}\n")
}

/// The cases of `test`: each assert call, by the line it starts on.
pub fn cases(test: &str) -> Vec<StaticCase> {
    rewrite_asserts(test).1
}

/// The function a declaration opens: the last one it defines at its top level
/// (`const hasCloseElements = (numbers, threshold) => {` → `hasCloseElements`).
pub fn entry_of_declaration(declaration: &str) -> Option<String> {
    definitions(declaration).pop().map(|(_, name)| name)
}

/// Whether `name` is a JavaScript identifier (ASCII: the names a test or a task gives).
pub(crate) fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The identifier starting at `at` in `code`, if one does.
fn identifier_at(code: &str, at: usize) -> Option<&str> {
    let bytes = code.as_bytes();
    if at >= bytes.len()
        || !is_identifier_byte(bytes[at])
        || bytes[at].is_ascii_digit()
        || (at > 0 && is_identifier_byte(bytes[at - 1]))
    {
        return None;
    }
    let end = at
        + bytes[at..]
            .iter()
            .take_while(|b| is_identifier_byte(**b))
            .count();
    Some(&code[at..end])
}

fn skip_blanks(code: &str, mut at: usize) -> usize {
    let bytes = code.as_bytes();
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// The functions `declaration` defines outside every bracket: where each definition starts
/// (`async`, `function`, `const`, `let` or `var`) and the name it defines.
fn definitions(declaration: &str) -> Vec<(usize, String)> {
    let code = blank(declaration, js_literals);
    let bytes = code.as_bytes();
    let mut found = Vec::new();
    let mut depth = 0i32;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth -= 1,
            _ => {}
        }
        let Some(word) = identifier_at(&code, i) else {
            i += 1;
            continue;
        };
        let after = skip_blanks(&code, i + word.len());
        if depth == 0 {
            let defined = match word {
                // TypeScript's too: `function f<T>(`, `const f: (a: T) => T =`.
                "function" => identifier_at(&code, after).filter(|name| {
                    code[skip_blanks(&code, after + name.len())..].starts_with(['(', '<'])
                }),
                "const" | "let" | "var" => identifier_at(&code, after).filter(|name| {
                    code[skip_blanks(&code, after + name.len())..].starts_with(['=', ':'])
                }),
                _ => None,
            };
            if let Some(name) = defined {
                let start = match code[..i].trim_end().strip_suffix("async") {
                    Some(before) if !before.ends_with(|c: char| is_identifier_byte(c as u8)) => {
                        before.len()
                    }
                    _ => i,
                };
                found.push((start, name.to_string()));
            }
        }
        i += word.len();
    }
    found
}

/// Where the last definition of `entry` in `declaration` starts.
fn definition_start(declaration: &str, entry: &str) -> Option<usize> {
    definitions(declaration)
        .into_iter()
        .rev()
        .find(|(_, name)| name == entry)
        .map(|(start, _)| start)
}

/// `test` with each assert call reporting its result (lines kept), and the cases they are.
///
/// - `console.assert(` becomes `__rb_soft_case(L)(`: a failure is reported and the test goes on;
/// - `assert(`, `assert.deepEqual(`, `assert.strict.equal(` become
///   `__rb_case(L, assert, null)(`, `__rb_case(L, assert, "deepEqual")(`,
///   `__rb_case(L, assert.strict, "equal")(`: the call passes when it returns.
///
/// `L` is the line the call starts on. A definition (`function assert(`) is not a call.
pub fn rewrite_asserts(test: &str) -> (String, Vec<StaticCase>) {
    let code = blank(test, js_literals);
    let bytes = code.as_bytes();
    let mut out = String::with_capacity(test.len() + 64);
    let mut cases: Vec<StaticCase> = Vec::new();
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let Some(word) = identifier_at(&code, i) else {
            i += 1;
            continue;
        };
        let after_dot = i > 0 && code[..i].trim_end().ends_with('.');
        let after_function = code[..i].trim_end().ends_with("function");
        let call = match word {
            _ if after_dot || after_function => None,
            "console" => {
                let dot = skip_blanks(&code, i + word.len());
                let method = skip_blanks(&code, dot + 1);
                (code[dot..].starts_with('.') && identifier_at(&code, method) == Some("assert"))
                    .then(|| skip_blanks(&code, method + "assert".len()))
                    .filter(|&paren| code[paren..].starts_with('('))
                    .map(|paren| (paren, None))
            }
            "assert" => {
                let mut path = Vec::new();
                let mut at = skip_blanks(&code, i + word.len());
                while code[at..].starts_with('.') {
                    let member = skip_blanks(&code, at + 1);
                    match identifier_at(&code, member) {
                        Some(name) => {
                            path.push(name);
                            at = skip_blanks(&code, member + name.len());
                        }
                        None => break,
                    }
                }
                code[at..].starts_with('(').then_some((at, Some(path)))
            }
            _ => None,
        };
        let Some((paren, path)) = call else {
            i += word.len();
            continue;
        };
        let line = code[..i].matches('\n').count() + 1;
        let callee = match path {
            None => format!("__rb_soft_case({line})"),
            Some(path) => match path.split_last() {
                None => format!("__rb_case({line}, assert, null)"),
                Some((key, owner)) => {
                    let owner: String = std::iter::once("assert")
                        .chain(owner.iter().copied())
                        .collect::<Vec<_>>()
                        .join(".");
                    format!("__rb_case({line}, {owner}, \"{key}\")")
                }
            },
        };
        out.push_str(&test[copied..i]);
        out.push_str(&callee);
        // The original callee's newlines, so that lines stay where they were.
        out.push_str(&"\n".repeat(code[i..paren].matches('\n').count()));
        copied = paren;
        let shown = call_text(test, &code, i, paren);
        if cases.last().is_none_or(|c| c.id != format!("line {line}")) {
            cases.push(StaticCase::line(line, &shown));
        }
        i = paren;
    }
    out.push_str(&test[copied..]);
    (out, cases)
}

/// The text of the call whose callee starts at `start` and whose `(` is at `paren`, on one line
/// and at most 160 characters.
fn call_text(test: &str, code: &str, start: usize, paren: usize) -> String {
    let mut depth = 0usize;
    let mut end = code.len();
    for (offset, b) in code.as_bytes()[paren..].iter().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    end = paren + offset + 1;
                    break;
                }
            }
            _ => {}
        }
    }
    let text = test[start..end]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    match text.char_indices().nth(160) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_points_are_found_as_benchmarks_declare_them() {
        let table: &[(&str, Option<&str>)] = &[
            (
                "\nconst hasCloseElements = (numbers, threshold) => {\n",
                Some("hasCloseElements"),
            ),
            (
                "/* f(x) */\nfunction has_close_elements(numbers, threshold){\n",
                Some("has_close_elements"),
            ),
            (
                "const encodeCyclic = (s) => {\n  var groups = [];\n  return groups.join('');\n}\n\nconst decodeCyclic = (s) => {\n",
                Some("decodeCyclic"),
            ),
            ("let f = function (a) {\n", Some("f")),
            ("async function g(a) {\n", Some("g")),
            ("// const h = 1\nvar k = (x) => {\n", Some("k")),
            ("const s = \"function q(\";\n", Some("s")),
            ("f(1);\n", None),
            // TypeScript (MultiPL-E's prompts and typed arrows).
            (
                "//Return length of given string\nfunction strlen(string: string): number {\n",
                Some("strlen"),
            ),
            ("function first<T>(xs: T[]): T {\n", Some("first")),
            (
                "const add: (a: number, b: number) => number = (a, b) => {\n",
                Some("add"),
            ),
            (
                "const sub = (a: number, b: number): number => {\n",
                Some("sub"),
            ),
        ];
        for (declaration, expected) in table {
            assert_eq!(
                entry_of_declaration(declaration).as_deref(),
                *expected,
                "{declaration}"
            );
        }
        let declaration =
            "const poly = (xs, x) => {\n  return 0;\n}\n\nasync function findZero(xs) {\n";
        assert_eq!(
            &declaration[..definition_start(declaration, "findZero").unwrap()],
            "const poly = (xs, x) => {\n  return 0;\n}\n\n"
        );
        assert_eq!(definition_start(declaration, "missing"), None);
    }

    #[test]
    fn asserts_are_rewritten_in_place_and_each_is_a_case() {
        let test = "const assert = require('node:assert');\nfunction test() {\n  let candidate = f;\n  console.assert(\n    candidate(1) === 2\n  )\n  assert.deepEqual(candidate([1, 2]), [2, 4]);\n  assert(candidate(0) === 0, 'zero');\n  assert.strict.equal(candidate(3), 6)\n  // assert(no)\n  s = \"console.assert(no)\";\n  x.assert(y);\n}\nfunction assert2() {}\ntest();\n";
        let (rewritten, cases) = rewrite_asserts(test);
        assert_eq!(rewritten.lines().count(), test.lines().count());
        assert!(rewritten.contains("  __rb_soft_case(4)(\n    candidate(1) === 2\n  )"));
        assert!(
            rewritten.contains("  __rb_case(7, assert, \"deepEqual\")(candidate([1, 2]), [2, 4]);")
        );
        assert!(rewritten.contains("  __rb_case(8, assert, null)(candidate(0) === 0, 'zero');"));
        assert!(rewritten.contains("  __rb_case(9, assert.strict, \"equal\")(candidate(3), 6)"));
        assert!(rewritten.contains("// assert(no)"));
        assert!(rewritten.contains("\"console.assert(no)\""));
        assert!(rewritten.contains("x.assert(y);"));
        assert!(rewritten.starts_with("const assert = require('node:assert');"));
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["line 4", "line 7", "line 8", "line 9"]);
        assert_eq!(
            cases[0].label,
            "`console.assert( candidate(1) === 2 )` (line 4)"
        );
    }

    #[test]
    fn a_multi_line_callee_keeps_its_lines_and_a_definition_is_not_a_call() {
        let test = "function assert(c) { if (!c) throw new Error('no'); }\nconsole\n  .assert(f(1));\nassert(f(2));\n";
        let (rewritten, cases) = rewrite_asserts(test);
        assert_eq!(rewritten.lines().count(), test.lines().count());
        assert!(rewritten.starts_with("function assert(c)"));
        assert!(rewritten.contains("__rb_soft_case(2)\n(f(1));"));
        assert!(rewritten.contains("__rb_case(4, assert, null)(f(2));"));
        let ids: Vec<&str> = cases.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["line 2", "line 4"]);
    }

    #[test]
    fn the_trusted_program_keeps_helpers_and_forwards_the_entry_point() {
        let declaration =
            "const encodeCyclic = (s) => {\n  return s;\n}\n\nconst decodeCyclic = (s) => {\n";
        let test = "const t = () => {\n  console.assert(decodeCyclic(encodeCyclic('abc')) === 'abc')\n}\nt()\n";
        let trusted =
            trusted_program(declaration, "decodeCyclic", &["helper".to_string()], test).unwrap();
        assert!(trusted.starts_with(TEST_MARKER));
        assert!(trusted.contains("const encodeCyclic = (s) => {\n  return s;\n}\n"));
        assert!(!trusted.contains("const decodeCyclic ="));
        assert!(trusted.contains(
            "function decodeCyclic(...args) { return __rb_remote(\"decodeCyclic\", args, new.target !== undefined); }"
        ));
        assert!(
            trusted.contains("function helper(...args) { return __rb_remote(\"helper\", args, new.target !== undefined); }")
        );
        assert!(trusted.contains("__rb_soft_case(2)(decodeCyclic(encodeCyclic('abc')) === 'abc')"));
        let err = trusted_program(declaration, "other", &[], test).unwrap_err();
        assert!(err.contains("`other`"), "{err}");
        let err =
            trusted_program(declaration, "decodeCyclic", &["fn x()".into()], test).unwrap_err();
        assert!(err.contains("tests.forward"), "{err}");
    }
}
