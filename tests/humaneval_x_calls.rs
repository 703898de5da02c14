//! Typed call tests on real declarations: HumanEval-X's C++ problems (`tests/data/humaneval-x`,
//! as the benchmark ships them), their asserts of the form `f(literals) == literal` (or
//! `issame(f(literals), literal)`, `f(literals)`, `!f(literals)`) turned into `call` cases of
//! JSON (our own conversion, in this file), typed by each problem's own `declaration`.
//!
//! On every third problem with such asserts: the canonical solution passes every case (it
//! passes them natively, under g++), and `return {};` fails at least one, unless every case
//! expects the type's empty value. No problem is an invalid task but those whose values are
//! `boost::any`: each declaration's types are read, and each literal fits its parameter.

mod common;
#[path = "support/humaneval_x.rs"]
mod humaneval_x_data;

use humaneval_x_data::{problems, rows, score};
use serde_json::{Value, json};

/// A C++ literal as JSON: numbers (an integral one as an integer), strings, chars (a string of
/// one character), `true`/`false`, braced lists. `None` for anything else (a variable, a call).
fn literal(text: &str) -> Option<Value> {
    let mut parser = Literal {
        bytes: text.trim().as_bytes(),
        at: 0,
    };
    let value = parser.value()?;
    parser.blanks();
    (parser.at == parser.bytes.len()).then_some(value)
}

struct Literal<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Literal<'_> {
    fn blanks(&mut self) {
        while self.at < self.bytes.len() && self.bytes[self.at].is_ascii_whitespace() {
            self.at += 1;
        }
    }

    fn value(&mut self) -> Option<Value> {
        self.blanks();
        match *self.bytes.get(self.at)? {
            b'{' => {
                self.at += 1;
                let mut items = Vec::new();
                loop {
                    self.blanks();
                    if self.bytes.get(self.at) == Some(&b'}') {
                        self.at += 1;
                        return Some(Value::Array(items));
                    }
                    items.push(self.value()?);
                    self.blanks();
                    match self.bytes.get(self.at)? {
                        b',' => self.at += 1,
                        b'}' => {}
                        _ => return None,
                    }
                }
            }
            quote @ (b'"' | b'\'') => {
                self.at += 1;
                let mut out = Vec::new();
                loop {
                    let b = *self.bytes.get(self.at)?;
                    self.at += 1;
                    match b {
                        b'\\' => {
                            let escaped = *self.bytes.get(self.at)?;
                            self.at += 1;
                            out.push(match escaped {
                                b'n' => b'\n',
                                b't' => b'\t',
                                b'0' => 0,
                                other => other,
                            });
                        }
                        b if b == quote => break,
                        b => out.push(b),
                    }
                }
                Some(Value::String(String::from_utf8(out).ok()?))
            }
            b't' if self.bytes[self.at..].starts_with(b"true") => {
                self.at += 4;
                Some(Value::Bool(true))
            }
            b'f' if self.bytes[self.at..].starts_with(b"false") => {
                self.at += 5;
                Some(Value::Bool(false))
            }
            b'-' | b'+' | b'.' | b'0'..=b'9' => {
                let start = self.at;
                self.at += 1;
                while self.at < self.bytes.len()
                    && (self.bytes[self.at].is_ascii_alphanumeric()
                        || self.bytes[self.at] == b'.'
                        || (matches!(self.bytes[self.at], b'-' | b'+')
                            && matches!(self.bytes[self.at - 1], b'e' | b'E')))
                {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).ok()?;
                let text = text.trim_end_matches(['f', 'F', 'l', 'L', 'u', 'U']);
                if let Ok(n) = text.parse::<i64>() {
                    return Some(json!(n));
                }
                let x: f64 = text.parse().ok()?;
                Some(if x.fract() == 0.0 && x.abs() < 1e15 {
                    json!(x as i64)
                } else {
                    json!(x)
                })
            }
            _ => None,
        }
    }
}

/// `text` up to the parenthesis that closes the one before it (`text` starts after an opening
/// parenthesis), and the rest after it.
fn closing(text: &str) -> Option<(&str, &str)> {
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '{' => depth += 1,
            ')' | '}' if depth > 0 => depth -= 1,
            ')' => return Some((&text[..i], &text[i + 1..])),
            _ => {}
        }
    }
    None
}

/// `a, b` split at the commas outside braces, parentheses and literals.
fn top_level_commas(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if let Some(q) = quote {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == q {
                quote = None;
            }
            continue;
        }
        match c {
            '"' | '\'' => quote = Some(c),
            '(' | '{' => depth += 1,
            ')' | '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The call `entry(literals)` at the start of `text`: its JSON arguments and what follows.
fn call_of<'a>(text: &'a str, entry: &str) -> Option<(Vec<Value>, &'a str)> {
    let rest = text.trim_start().strip_prefix(entry)?.trim_start().strip_prefix('(')?;
    let (inside, after) = closing(rest)?;
    let args = if inside.trim().is_empty() {
        Vec::new()
    } else {
        top_level_commas(inside)
            .into_iter()
            .map(literal)
            .collect::<Option<Vec<_>>>()?
    };
    Some((args, after))
}

/// The call case one line of C++ test code states, when it states one in literals.
fn case_of(line: &str, entry: &str) -> Option<Value> {
    let inner = line.trim().strip_prefix("assert")?.trim_start().strip_prefix('(')?;
    let (inner, _) = closing(inner)?;
    let inner = inner.trim();
    if let Some(pair) = inner.strip_prefix("issame") {
        let (inside, _) = closing(pair.trim_start().strip_prefix('(')?)?;
        let parts = top_level_commas(inside);
        let [call, expected] = parts.as_slice() else {
            return None;
        };
        let (args, after) = call_of(call, entry)?;
        if !after.trim().is_empty() {
            return None;
        }
        return Some(json!({"args": args, "expected": literal(expected)?}));
    }
    let (negated, call) = match inner.strip_prefix('!').or_else(|| inner.strip_prefix("not ")) {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let (args, after) = call_of(call, entry)?;
    let after = after.trim();
    if after.is_empty() {
        return Some(json!({"args": args, "expected": !negated}));
    }
    let expected = literal(after.strip_prefix("==")?)?;
    (!negated).then(|| json!({"args": args, "expected": expected}))
}

/// The function a HumanEval-X C++ declaration opens: the name before the parenthesis of its
/// last line that has one.
fn entry_of(declaration: &str) -> String {
    let line = declaration.lines().rev().find(|l| l.contains('(')).unwrap_or("");
    let before = line[..line.find('(').unwrap_or(0)].trim_end();
    let start = before
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    before[start..].to_string()
}

/// Whether `value` is what `return {};` gives for any type.
fn empty(value: &Value) -> bool {
    match value {
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        _ => false,
    }
}

#[test]
fn humaneval_x_cpp_asserts_as_typed_calls_grade_canonical_and_default_solutions() {
    let all = problems("cpp");
    let raw = rows("cpp");
    let mut tasks = Vec::new();
    let mut expectations = Vec::new();
    for (problem, row) in all.iter().zip(&raw) {
        let declaration = row["declaration"].as_str().unwrap();
        let entry = entry_of(declaration);
        let cases: Vec<Value> = row["test"]
            .as_str()
            .unwrap()
            .lines()
            .filter_map(|line| case_of(line, &entry))
            .collect();
        if cases.is_empty() {
            continue;
        }
        expectations.push(cases.iter().all(|c| empty(&c["expected"])));
        tasks.push(json!({
            "id": problem.task_id, "verifier": "code", "language": "cpp", "extract": "whole",
            "tests": {"call": {"entry_point": entry, "cases": cases},
                      "declaration": declaration, "float_tolerance": 1e-4},
            "completions": [
                format!("{declaration}{}", problem.canonical_solution),
                format!("{declaration}    return {{}};\n}}\n"),
            ],
        }));
    }
    // Most of the benchmark's asserts are in this form.
    assert!(tasks.len() > 100, "{} problems converted", tasks.len());
    let picked: Vec<usize> = (0..tasks.len()).step_by(3).collect();
    let cases: usize = picked
        .iter()
        .map(|&i| tasks[i]["tests"]["call"]["cases"].as_array().map_or(0, Vec::len))
        .sum();
    eprintln!(
        "{} of 164 problems have asserts in literals; {} graded, {cases} calls",
        tasks.len(),
        picked.len()
    );
    let chosen: Vec<Value> = picked.iter().map(|&i| tasks[i].clone()).collect();
    let scorer = common::scorer();
    let results = score(&scorer, &chosen);
    let mut failures = Vec::new();
    for ((task, &i), result) in chosen.iter().zip(&picked).zip(&results) {
        let id = task["id"].as_str().unwrap();
        let detail = result.detail.clone().unwrap_or_default();
        if task["tests"]["declaration"].as_str().unwrap().contains("boost::any") {
            // Values of `boost::any` have no type to cross as (natively: Boost's headers).
            if !detail.contains("the C++ type `boost::any` cannot cross") {
                failures.push(format!("{id} should be invalid: {result:?}"));
            }
            continue;
        }
        if result.status.is_some() {
            failures.push(format!("{id}: {detail}"));
            continue;
        }
        let canonical = &result.results[0];
        if canonical.score != 1.0 {
            failures.push(format!("{id} canonical: {}", canonical.detail));
        }
        let default = &result.results[1];
        if default.passed && !expectations[i] {
            failures.push(format!("{id} default passed: {}", default.detail));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn cpp_literals_and_assert_lines_convert_as_written() {
    assert_eq!(literal("{1.0, 2.5, -3}"), Some(json!([1, 2.5, -3])));
    assert_eq!(literal("{{\"a\", \"b\\\"c\"}, {}}"), Some(json!([["a", "b\"c"], []])));
    assert_eq!(literal("'x'"), Some(json!("x")));
    assert_eq!(literal("1e-3"), Some(json!(0.001)));
    assert_eq!(literal("a"), None);
    assert_eq!(
        case_of("    assert (f({1, 2}, \"x,)\") == true);", "f"),
        Some(json!({"args": [[1, 2], "x,)"], "expected": true}))
    );
    assert_eq!(
        case_of("assert (issame(f(3) , {4, 5}));", "f"),
        Some(json!({"args": [3], "expected": [4, 5]}))
    );
    assert_eq!(
        case_of("assert (not f(3));", "f"),
        Some(json!({"args": [3], "expected": false}))
    );
    assert_eq!(case_of("assert (abs(f(3) - 1) < 1e-4);", "f"), None);
    assert_eq!(case_of("assert (f(a) == 1);", "f"), None);
    assert_eq!(case_of("assert (f(3) == g(1));", "f"), None);
}
