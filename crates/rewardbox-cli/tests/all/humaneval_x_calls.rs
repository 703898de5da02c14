//! Typed call tests on real declarations: HumanEval-X's C++ problems (`tests/data/humaneval-x`,
//! as the benchmark ships them), their asserts of the form `f(literals) == literal` (or
//! `issame(f(literals), literal)`, `f(literals)`, `!f(literals)`) turned into `call` cases of
//! JSON (our own conversion, in this file), typed by each problem's own `declaration`.
//!
//! On every sixth problem with such asserts: the canonical solution passes every case (it
//! passes them natively, under g++), and `return {};` fails at least one, unless every case
//! expects the type's empty value. No problem is an invalid task but Rust/22 (`Box<dyn Any>`):
//! each declaration's types are read, and each literal fits its parameter.

use crate::common;
use crate::humaneval_x_data;

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
                number(text.trim_end_matches(['f', 'F', 'l', 'L', 'u', 'U']))
            }
            _ => None,
        }
    }
}

/// Each character of `text` outside string and character literals, with the depth of the
/// brackets around it, until `visit` says stop (and gives what it found).
fn scan<T>(text: &str, mut visit: impl FnMut(usize, char, i32) -> Option<T>) -> Option<T> {
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
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            _ => {}
        }
        if let Some(found) = visit(i, c, depth) {
            return Some(found);
        }
    }
    None
}

/// A number literal (its suffixes removed) as JSON: an integral one as an integer, which a
/// float parameter takes too.
fn number(text: &str) -> Option<Value> {
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

/// `text` up to the parenthesis that closes the one before it (`text` starts after an opening
/// parenthesis), and the rest after it.
fn closing(text: &str) -> Option<(&str, &str)> {
    scan(text, |i, c, depth| {
        (c == ')' && depth < 0).then(|| (&text[..i], &text[i + 1..]))
    })
}

/// `a, b` split at the commas outside brackets and literals.
fn top_level_commas(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut start = 0;
    scan(text, |i, c, depth| {
        if c == ',' && depth == 0 {
            parts.push(&text[start..i]);
            start = i + 1;
        }
        None::<()>
    });
    parts.push(&text[start..]);
    parts
}

/// The call `entry(literals)` at the start of `text`: its JSON arguments and what follows.
fn call_of<'a>(text: &'a str, entry: &str) -> Option<(Vec<Value>, &'a str)> {
    let rest = text
        .trim_start()
        .strip_prefix(entry)?
        .trim_start()
        .strip_prefix('(')?;
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
    let inner = line
        .trim()
        .strip_prefix("assert")?
        .trim_start()
        .strip_prefix('(')?;
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
    let (negated, call) = match inner
        .strip_prefix('!')
        .or_else(|| inner.strip_prefix("not "))
    {
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

/// A Rust literal as JSON: numbers (type suffixes and `_` dropped), strings (with
/// `.to_string()`, `String::from`), chars, `true`/`false`, `vec![...]`, arrays, slices,
/// tuples (as lists), `Some(x)` (as x), `None` (null), `HashMap::from([...])` (as pairs).
fn rust_literal(text: &str) -> Option<Value> {
    let mut parser = RustLiteral {
        text: text.trim(),
        at: 0,
    };
    let value = parser.value()?;
    parser.blanks();
    (parser.at == parser.text.len()).then_some(value)
}

struct RustLiteral<'a> {
    text: &'a str,
    at: usize,
}

impl RustLiteral<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn blanks(&mut self) {
        let rest = self.rest();
        self.at += rest.len() - rest.trim_start().len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.blanks();
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    /// Items up to `close`, separated by commas (a trailing one allowed).
    fn items(&mut self, close: &str) -> Option<Vec<Value>> {
        let mut items = Vec::new();
        loop {
            if self.eat(close) {
                return Some(items);
            }
            items.push(self.value()?);
            if !self.eat(",") && !self.rest().trim_start().starts_with(close) {
                return None;
            }
        }
    }

    fn value(&mut self) -> Option<Value> {
        let value = self.bare()?;
        // Conversions that keep the value.
        while [".to_string()", ".to_owned()", ".into()", ".to_vec()"]
            .iter()
            .any(|m| self.eat(m))
        {}
        Some(value)
    }

    fn bare(&mut self) -> Option<Value> {
        self.blanks();
        while self.eat("&") {
            self.eat("mut ");
        }
        if self.eat("vec![") || self.eat("[") {
            return self.items("]").map(Value::Array);
        }
        if self.eat("(") {
            let items = self.items(")")?;
            return Some(
                if items.len() == 1 && !self.text[..self.at - 1].trim_end().ends_with(',') {
                    items.into_iter().next()?
                } else {
                    Value::Array(items)
                },
            );
        }
        if self.eat("Some(") {
            let v = self.value()?;
            return self.eat(")").then_some(v);
        }
        if self.eat("String::from(") || self.eat("HashMap::from(") {
            let v = self.value()?;
            return self.eat(")").then_some(v);
        }
        for (word, value) in [
            ("None", Value::Null),
            ("true", json!(true)),
            ("false", json!(false)),
            ("String::new()", json!("")),
            ("Vec::new()", json!([])),
            ("HashMap::new()", json!([])),
        ] {
            if self.eat(word) {
                return Some(value);
            }
        }
        let rest = self.rest();
        let quote = rest.chars().next()?;
        if quote == '"' || quote == '\'' {
            let mut out = String::new();
            let mut chars = rest[1..].char_indices();
            while let Some((i, c)) = chars.next() {
                match c {
                    '\\' => {
                        let (_, escaped) = chars.next()?;
                        out.push(match escaped {
                            'n' => '\n',
                            't' => '\t',
                            '0' => '\0',
                            other => other,
                        });
                    }
                    c if c == quote => {
                        self.at += 1 + i + 1;
                        return Some(Value::String(out));
                    }
                    c => out.push(c),
                }
            }
            return None;
        }
        let length = rest
            .char_indices()
            .find(|&(i, c)| {
                !(c.is_ascii_alphanumeric()
                    || c == '_'
                    || c == '.' && rest[i + 1..].starts_with(|d: char| d.is_ascii_digit())
                    || (c == '-' && i == 0))
            })
            .map_or(rest.len(), |(i, _)| i);
        let digits: String = rest[..length].chars().filter(|&c| c != '_').collect();
        let digits = [
            "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "usize", "isize", "f32", "f64",
        ]
        .iter()
        .find_map(|suffix| digits.strip_suffix(suffix))
        .unwrap_or(&digits)
        .to_string();
        self.at += length;
        number(&digits)
    }
}

/// The `assert_eq!(call, literal)`, `assert!(call == literal)`, `assert!(call)` and
/// `assert!(!call)` statements of Rust test code, as call cases, where they are in literals.
fn rust_cases(test: &str, entry: &str) -> Vec<Value> {
    let call = |text: &str| -> Option<Vec<Value>> {
        let rest = text
            .trim()
            .strip_prefix(entry)?
            .trim_start()
            .strip_prefix('(')?;
        let (inside, after) = closing(rest)?;
        if !after.trim().is_empty() {
            return None;
        }
        if inside.trim().is_empty() {
            return Some(Vec::new());
        }
        top_level_commas(inside)
            .into_iter()
            .map(rust_literal)
            .collect()
    };
    let mut cases = Vec::new();
    for (at, _) in test.match_indices("assert") {
        let rest = &test[at..];
        let (eq, rest) = if let Some(r) = rest.strip_prefix("assert_eq!(") {
            (true, r)
        } else if let Some(r) = rest.strip_prefix("assert!(") {
            (false, r)
        } else {
            continue;
        };
        let Some((inside, _)) = closing(rest) else {
            continue;
        };
        let case = if eq {
            let parts = top_level_commas(inside);
            match parts.as_slice() {
                [a, b] | [a, b, _] => match (call(a), rust_literal(b)) {
                    (Some(args), Some(expected)) => Some((args, expected)),
                    _ => None,
                },
                _ => None,
            }
        } else {
            let inside = inside.trim();
            match inside.split_once("==") {
                Some((a, b)) => call(a).zip(rust_literal(b)),
                None => match inside.strip_prefix('!') {
                    Some(negated) => call(negated).map(|args| (args, json!(false))),
                    None => call(inside).map(|args| (args, json!(true))),
                },
            }
        };
        if let Some((args, expected)) = case {
            cases.push(json!({"args": args, "expected": expected}));
        }
    }
    cases
}

/// A Go literal as JSON, read where a value of type `ty` (Go type text) is expected: numbers,
/// strings (interpreted and raw), runes (a string of one character), `true`/`false`, `nil`
/// (null), composite literals of slices and arrays (lists) and maps (lists of pairs), their
/// elements' types elided or not, and conversions `T(x)` of a literal (x). Where `ty` is
/// `interface{}` the value keeps the type Go gives it: a composite literal, a conversion or a
/// rune is `{"$type": T, "value": ...}` (rewardbox's typed JSON); numbers, strings and bools
/// have Go's default types already.
fn go_value(text: &str, ty: &str) -> Option<Value> {
    let text = text.trim();
    let dynamic = is_interface(ty);
    let typed = |name: &str, value: Value| {
        if dynamic {
            json!({"$type": name, "value": value})
        } else {
            value
        }
    };
    // A composite literal: its type (elided inside another: `{1, 2}`), then braces.
    if text.starts_with('[') || text.starts_with("map[") || text.starts_with('{') {
        let open = literal_brace(text)?;
        let own = text[..open].trim();
        let literal_ty = if own.is_empty() { ty } else { own };
        let inner = text[open + 1..].strip_suffix('}')?;
        let items: Vec<&str> = top_level_commas(inner)
            .into_iter()
            .filter(|i| !i.trim().is_empty())
            .collect();
        let value = match literal_ty.strip_prefix("map[") {
            Some(rest) => {
                // The key's type ends at the bracket that closes `map[`.
                let close = scan(rest, |i, c, depth| (c == ']' && depth < 0).then_some(i))?;
                let (key_ty, value_ty) = (&rest[..close], &rest[close + 1..]);
                items
                    .into_iter()
                    .map(|item| {
                        let (k, v) = split_key(item)?;
                        Some(json!([go_value(k, key_ty)?, go_value(v, value_ty)?]))
                    })
                    .collect::<Option<Vec<_>>>()?
            }
            None => {
                let element_ty = &literal_ty[literal_ty.find(']')? + 1..];
                items
                    .into_iter()
                    .map(|item| go_value(item, element_ty))
                    .collect::<Option<Vec<_>>>()?
            }
        };
        return Some(typed(literal_ty, Value::Array(value)));
    }
    if text == "nil" {
        return Some(Value::Null);
    }
    if let Some(raw) = text.strip_prefix('`').and_then(|t| t.strip_suffix('`')) {
        return Some(json!(raw));
    }
    // A conversion of a literal: `float64(3)`, `int64(-1)`.
    if let Some(open) = text.find('(')
        && text.ends_with(')')
        && text[..open].chars().all(|c| c.is_ascii_alphanumeric())
        && !text[..open].is_empty()
    {
        let name = &text[..open];
        return Some(typed(
            name,
            go_value(&text[open + 1..text.len() - 1], name)?,
        ));
    }
    // A float constant is a float64 in an interface, integral or not (`6.00`).
    if dynamic
        && text.contains(['.', 'e', 'E'])
        && !text.starts_with("0x")
        && let Ok(x) = text.parse::<f64>()
    {
        return Some(json!(x));
    }
    let value = literal(text)?;
    Some(if text.starts_with('\'') {
        typed("rune", value)
    } else {
        value
    })
}

/// Where a Go composite literal's braces open: the first `{` past its type (whose
/// `interface{}`s have braces of their own).
fn literal_brace(text: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = text[from..].find('{').map(|i| from + i) {
        let before = text[..at].trim_end();
        if !before.ends_with("interface") {
            return Some(at);
        }
        from = at + text[at..].find('}')? + 1;
    }
    None
}

/// Whether a Go type text is the empty interface.
fn is_interface(ty: &str) -> bool {
    let compact: String = ty.chars().filter(|c| !c.is_whitespace()).collect();
    compact == "interface{}" || compact == "any"
}

/// The parameter types and the result type of a Go declaration's last `func` line
/// (`func F(a, b int, s []string) interface{} {`), grouped parameters given their type.
fn go_signature(declaration: &str) -> Option<(Vec<String>, String)> {
    let line = declaration.lines().rev().find(|l| l.starts_with("func "))?;
    let open = line.find('(')?;
    let (inside, after) = closing(&line[open + 1..])?;
    let mut types: Vec<String> = Vec::new();
    let mut pending = 0;
    for parameter in top_level_commas(inside) {
        match parameter.trim().split_once(' ') {
            Some((_, ty)) => {
                types.extend(std::iter::repeat_n(ty.trim().to_string(), pending + 1));
                pending = 0;
            }
            None if !parameter.trim().is_empty() => pending += 1,
            None => {}
        }
    }
    let result = after.trim().strip_suffix('{')?.trim().to_string();
    Some((types, result))
}

/// `key: value` split at its top-level colon.
fn split_key(item: &str) -> Option<(&str, &str)> {
    let mut quote: Option<char> = None;
    let mut depth = 0i32;
    for (i, c) in item.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'' | '`') => quote = Some(c),
            (None, '(' | '[' | '{') => depth += 1,
            (None, ')' | ']' | '}') => depth -= 1,
            (None, ':') if depth == 0 => return Some((&item[..i], &item[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The `assert.Equal(expected, F(literals))` lines of Go test code (testify), as call cases,
/// where they are in literals, read by the types of the entry point's `declaration`.
fn go_cases(test: &str, entry: &str, declaration: &str) -> Vec<Value> {
    let Some((parameters, result)) = go_signature(declaration) else {
        return Vec::new();
    };
    test.lines()
        .filter_map(|line| {
            let inner = line.trim().strip_prefix("assert.Equal(")?;
            let (inside, _) = closing(inner)?;
            let parts = top_level_commas(inside);
            let [expected, call] = parts.as_slice() else {
                return None;
            };
            let rest = call.trim().strip_prefix(entry)?.strip_prefix('(')?;
            let (args, after) = closing(rest)?;
            if !after.trim().is_empty() {
                return None;
            }
            let args = if args.trim().is_empty() {
                Vec::new()
            } else {
                top_level_commas(args)
                    .into_iter()
                    .enumerate()
                    .map(|(i, arg)| go_value(arg, parameters.get(i).map_or("", String::as_str)))
                    .collect::<Option<Vec<_>>>()?
            };
            Some(json!({"args": args, "expected": go_value(expected, &result)?}))
        })
        .collect()
}

/// The function a HumanEval-X C++ declaration opens: the name before the parenthesis of its
/// last line that has one.
fn entry_of(declaration: &str) -> String {
    let line = declaration
        .lines()
        .rev()
        .find(|l| l.contains('('))
        .unwrap_or("");
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

/// The file's problems whose test code states call cases in literals, as typed-call tasks
/// (canonical solution, `return <default>`), each with whether every case expects the empty
/// value a default returns.
fn converted(file: &str) -> Vec<(Value, bool)> {
    let (language, tolerance) = match file {
        // HumanEval-X's C++ tests compare floats within 1e-4 (`issame`, `abs(a - b) < 1e-4`).
        "cpp" => ("cpp", json!(1e-4)),
        // Its Rust and Go tests compare floats with `==` (Go: testify's `Equal`).
        other => (other, Value::Null),
    };
    problems(file)
        .iter()
        .zip(rows(file))
        .filter_map(|(problem, row)| {
            // The declaration and the program's prefix as `rewardbox import humanevalx` makes
            // them (C++: with the headers CodeGeeX's harness adds; Go: the prompt, with its
            // package clause and imports).
            let declaration = problem.tests["declaration"].as_str().unwrap();
            let prefix = &problem.program_prefix;
            let test = row["test"].as_str().unwrap();
            let entry = entry_of(declaration);
            let cases: Vec<Value> = match file {
                "cpp" => test.lines().filter_map(|l| case_of(l, &entry)).collect(),
                "rust" => rust_cases(test, &entry),
                _ => go_cases(test, &entry, declaration),
            };
            let default = match file {
                "cpp" => "    return {};\n}\n".to_string(),
                "rust" => "    return Default::default();\n}\n".to_string(),
                _ => humaneval_x_data::go_default_completion(declaration),
            };
            if cases.is_empty() {
                return None;
            }
            let all_empty = cases.iter().all(|c| empty(&c["expected"]));
            let mut tests = json!({"call": {"entry_point": entry, "cases": cases},
                                   "declaration": declaration});
            if let Some(add) = problem.tests.get("add_imports") {
                tests["add_imports"] = add.clone();
            }
            if !tolerance.is_null() {
                tests["float_tolerance"] = tolerance.clone();
            }
            let task = json!({
                "id": problem.task_id, "verifier": "code", "language": language,
                "extract": "whole", "tests": tests,
                "completions": [
                    format!("{prefix}{}", problem.canonical_solution),
                    format!("{prefix}{default}"),
                ],
            });
            Some((task, all_empty))
        })
        .collect()
}

/// Canonical solutions whose verdict depends on Go's randomised map order, natively too: run
/// after run, `go test` passes and fails them (rewardbox's sandbox seeds the order, so each of
/// its runs gives the same verdict).
const ORDER_DEPENDENT: &[(&str, &str)] = &[(
    "Go/95",
    "reads the first two keys in map order only: {\"p\", \"A\", \"B\"} is upper case when      A and B come first (3 of 30 native runs)",
)];

/// Grades every sixth of `file`'s converted problems: canonical solutions pass, defaults fail
/// (but where every case expects the empty value); a problem may be an invalid task only when it
/// names a type of `untyped`.
fn canonical_pass_defaults_fail(file: &str, untyped: &[&str], also: &str) {
    let tasks = converted(file);
    // Most of the benchmark's asserts are in these forms.
    assert!(tasks.len() > 100, "{} problems converted", tasks.len());
    // Every sixth, and each whose declaration names `also`.
    let chosen: Vec<&(Value, bool)> = tasks
        .iter()
        .enumerate()
        .filter(|(i, (task, _))| {
            i % 6 == 0
                || (!also.is_empty()
                    && task["tests"]["declaration"]
                        .as_str()
                        .is_some_and(|d| d.contains(also)))
        })
        .map(|(_, t)| t)
        .collect();
    let calls: usize = chosen
        .iter()
        .map(|(t, _)| t["tests"]["call"]["cases"].as_array().map_or(0, Vec::len))
        .sum();
    eprintln!(
        "{file}: {} of 164 problems have asserts in literals; {} graded, {calls} calls",
        tasks.len(),
        chosen.len()
    );
    let scorer = common::scorer();
    let only_tasks: Vec<Value> = chosen.iter().map(|(t, _)| t.clone()).collect();
    let results = score(&scorer, &only_tasks);
    let mut failures = Vec::new();
    let mut untyped_problems = 0;
    for ((task, all_empty), result) in chosen.iter().zip(&results) {
        let id = task["id"].as_str().unwrap();
        let detail = result.detail.clone().unwrap_or_default();
        // An invalid task is right only when it names a type the file's values use that typed
        // calls do not carry.
        let explained = untyped
            .iter()
            .any(|ty| detail.contains(&format!("type `{ty}` cannot cross")));
        if result.status.is_some() && explained {
            untyped_problems += 1;
            continue;
        }
        if result.status.is_some() {
            failures.push(format!("{id}: {detail}"));
            continue;
        }
        let canonical = &result.results[0];
        if canonical.score != 1.0 && !ORDER_DEPENDENT.iter().any(|(p, _)| *p == id) {
            failures.push(format!("{id} canonical: {}", canonical.detail));
        }
        let default = &result.results[1];
        if default.passed && !all_empty {
            failures.push(format!("{id} default passed: {}", default.detail));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{file}: {untyped_problems} graded problems take values typed calls do not carry");
    // Most problems are typed: a check that took them all for invalid would pass vacuously.
    assert!(
        untyped_problems * 2 < chosen.len(),
        "{untyped_problems} of {}",
        chosen.len()
    );
}

#[test]
fn humaneval_x_cpp_asserts_as_typed_calls_grade_canonical_and_default_solutions() {
    // No problem is refused: CPP/22's `boost::any` values are typed calls' too, though this
    // file's conversion does not give its literals their C++ types (`'c'` a `char` in an `any`);
    // crates/rewardbox/tests/all/typed_calls.rs converts its test by hand.
    canonical_pass_defaults_fail("cpp", &[], "");
}

#[test]
fn humaneval_x_go_asserts_as_typed_calls_grade_canonical_and_default_solutions() {
    // Every problem whose values are `interface{}` (13 of them) is graded, each value with the
    // type Go gives its literal.
    canonical_pass_defaults_fail("go", &[], "interface{}");
}

#[test]
fn humaneval_x_rust_asserts_as_typed_calls_grade_canonical_and_default_solutions() {
    canonical_pass_defaults_fail("rust", &["dyn Any"], "");
}

#[test]
fn cpp_literals_and_assert_lines_convert_as_written() {
    assert_eq!(literal("{1.0, 2.5, -3}"), Some(json!([1, 2.5, -3])));
    assert_eq!(
        literal("{{\"a\", \"b\\\"c\"}, {}}"),
        Some(json!([["a", "b\"c"], []]))
    );
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

#[test]
fn rust_literals_and_asserts_convert_as_written() {
    assert_eq!(
        rust_literal("vec![\"a\".to_string(), String::from(\"b\")]"),
        Some(json!(["a", "b"]))
    );
    assert_eq!(rust_literal("(1.5f32, -2)"), Some(json!([1.5, -2])));
    assert_eq!(rust_literal("Some(1_000i64)"), Some(json!(1000)));
    assert_eq!(rust_literal("None"), Some(Value::Null));
    assert_eq!(rust_literal("&[1, 2,]"), Some(json!([1, 2])));
    assert_eq!(
        rust_literal("HashMap::from([(\"p\", 1), (\"q\", 2)])"),
        Some(json!([["p", 1], ["q", 2]]))
    );
    assert_eq!(rust_literal("x"), None);
    let test = "#[test]\nfn t() {\n    assert_eq!(f(vec![1, 2], \"a,b\"), 3);\n    assert!(f(vec![], \"\") == 0);\n    assert!(!g(1));\n    assert!(f(vec![1], \"x\").is_empty());\n    assert!((f(vec![1], \"x\") - 1.0).abs() < 1e-4);\n}\n";
    assert_eq!(
        rust_cases(test, "f"),
        vec![
            json!({"args": [[1, 2], "a,b"], "expected": 3}),
            json!({"args": [[], ""], "expected": 0}),
        ]
    );
}

#[test]
fn go_literals_convert_with_the_types_go_gives_them() {
    let any = "interface{}";
    assert_eq!(
        go_value(
            r#"[]interface{}{4, nil, 'c', 2.0, []string{"a"}, int64(3), []interface{}{}}"#,
            "[]interface{}"
        ),
        Some(json!([
            4,
            null,
            {"$type": "rune", "value": "c"},
            2.0,
            {"$type": "[]string", "value": ["a"]},
            {"$type": "int64", "value": 3},
            {"$type": "[]interface{}", "value": []}
        ]))
    );
    // Only an interface keeps the literal's own type.
    assert!(go_value("6.00", any).unwrap().is_f64());
    assert_eq!(go_value("6.00", "float64"), Some(json!(6)));
    assert_eq!(go_value("'c'", "rune"), Some(json!("c")));
    assert_eq!(
        go_value("[2]interface{}{nil, 1}", "[2]interface{}"),
        Some(json!([null, 1]))
    );
    assert_eq!(
        go_value(
            r#"map[interface{}]interface{}{"p": 5}"#,
            "map[interface{}]interface{}"
        ),
        Some(json!([["p", 5]]))
    );
    assert_eq!(
        go_value("[][2]int{{1, 2}}", "[][2]int"),
        Some(json!([[1, 2]]))
    );
    assert_eq!(
        go_signature("package main\n\nfunc AnyInt(x, y, z interface{}) bool {\n"),
        Some((vec![any.to_string(); 3], "bool".to_string()))
    );
    assert_eq!(
        go_signature("func F(a int, s []string) (int, string) {\n"),
        Some((
            vec!["int".to_string(), "[]string".to_string()],
            "(int, string)".to_string()
        ))
    );
}
