//! The calls that test code in C, C++, Rust, Go, JavaScript or TypeScript makes of a task's entry
//! point, each call's arguments read as JSON values when every one of them is a literal (or a
//! variable the test code sets to one).
//!
//! HumanEval-X and MultiPL-E ship their tests as a program in the candidate's language
//! (`assert (f({1.0, 2.0}, 0.3) == true);`, `assert_eq!(f(vec![1.0], 0.3), true);`,
//! `assert.Equal(true, F([]float64{1.0}, 0.3))`, `console.assert(f([1.0], 0.3) === true)`).
//! Tier 5's judge turns those calls into call tests whose expected values are the task
//! solution's results, and makes new inputs from their types and shapes.
//!
//! The literals read: numbers (suffixes such as `f`, `LL`, `i64`, `_f64` and `as` casts
//! dropped), strings and characters (a character is a string of one), booleans, `null`, `nil`
//! and `None`; lists as each language writes them (`{...}`, `[...]`, `vec![...]`, `&[...]`,
//! `[]T{...}`, `std::vector<T>({...})`, `vector<T>{...}`), tuples (`(a, b)`, `make_tuple`),
//! `Some(x)` as `x`, and wrappers that keep a value (`String::from`, `.to_string()`, `.into()`,
//! `std::string(...)`, C casts `(long)1`). A call with any other argument is left out.

use serde_json::{Number, Value};
use std::collections::HashMap;

/// The function a declaration ends with: the entry point a task's test code calls (C and C++:
/// the name before the last signature's parameters; Rust `fn`, Go `func`, JavaScript `function`
/// or `const name =`).
pub fn entry_point(language: &str, declaration: &str) -> Option<String> {
    let keyword_name = |keyword: &str| {
        declaration
            .rmatch_indices(keyword)
            .filter(|(at, _)| *at == 0 || !is_ident(declaration.as_bytes()[at - 1]))
            .find_map(|(at, _)| {
                let name = identifier_at(declaration, at + keyword.len())?;
                Some(name.to_string())
            })
    };
    match language {
        "rust" | "rust-release" => keyword_name("fn "),
        "go" => keyword_name("func "),
        "javascript" | "typescript" => keyword_name("function ").or_else(|| keyword_name("const ")),
        _ => {
            let line = declaration
                .lines()
                .map(str::trim)
                .rfind(|l| l.contains('(') && !l.starts_with("//") && !l.starts_with('#'))?;
            let before = line[..line.find('(')?].trim_end();
            let start = before
                .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .map_or(0, |i| i + 1);
            let name = &before[start..];
            (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then(|| name.to_string())
        }
    }
}

/// The argument lists of `source`'s calls of `entry` (and of names it binds to `entry`:
/// MultiPL-E's `auto candidate = f;`), in order, each once; a call with an argument that is not
/// a literal is left out.
pub fn calls(source: &str, entry: &str) -> Vec<Vec<Value>> {
    let (variables, aliases) = bindings(source, entry);
    let mut names = vec![entry.to_string()];
    names.extend(aliases);
    let mut found: Vec<(usize, Vec<Value>)> = Vec::new();
    for name in &names {
        for (at, _) in source.match_indices(name.as_str()) {
            let bytes = source.as_bytes();
            if at > 0 && (is_ident(bytes[at - 1]) || bytes[at - 1] == b'.') {
                continue;
            }
            let before = source[..at].trim_end();
            if [
                "fn", "func", "function", "def", "const", "let", "auto", "var",
            ]
            .iter()
            .any(|k| {
                before.ends_with(k) && !before[..before.len() - k.len()].ends_with(is_ident_char)
            }) {
                continue;
            }
            let mut parser = Parser::new(source, at + name.len(), &variables);
            parser.ws();
            if !parser.eat("(") {
                continue;
            }
            if let Some(args) = parser.items(b')')
                && !found.iter().any(|(_, a)| *a == args)
            {
                found.push((at, args));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found.into_iter().map(|(_, args)| args).collect()
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier starting at `at` (after spaces), if one does.
fn identifier_at(text: &str, at: usize) -> Option<&str> {
    let rest = text.get(at..)?.trim_start();
    let end = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
    let name = &rest[..end];
    (!name.is_empty() && !name.as_bytes()[0].is_ascii_digit()).then_some(name)
}

/// The variables `source` sets to literals (`vector<float> a={...};`, `let v: Vec<String> =
/// vec![];`, `const xs = [...]`, `xs := []int{...}`), and the names it binds to `entry`.
fn bindings(source: &str, entry: &str) -> (HashMap<String, Value>, Vec<String>) {
    let mut variables = HashMap::new();
    let mut aliases = Vec::new();
    let bytes = source.as_bytes();
    for (at, _) in source.match_indices('=') {
        let prev = if at > 0 { bytes[at - 1] } else { b' ' };
        let next = bytes.get(at + 1).copied().unwrap_or(b' ');
        if matches!(next, b'=' | b'>')
            || matches!(
                prev,
                b'=' | b'!' | b'<' | b'>' | b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^'
            )
        {
            continue;
        }
        let line_start = source[..at].rfind(['\n', ';', '{']).map_or(0, |i| i + 1);
        let mut left = source[line_start..at].trim_end_matches(':').trim();
        // Rust's and TypeScript's annotation: `let v: Vec<String>`.
        if let Some(colon) = top_level_colon(left) {
            left = left[..colon].trim();
        }
        let left =
            left.trim_end_matches(|c: char| c == ']' || c == '[' || c.is_ascii_digit() || c == ' ');
        let start = left.rfind(|c: char| !is_ident_char(c)).map_or(0, |i| i + 1);
        let name = &left[start..];
        if name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        if identifier_at(source, at + 1) == Some(entry)
            && source[at + 1..].trim_start()[entry.len()..]
                .trim_start()
                .starts_with([';', '\n'])
        {
            aliases.push(name.to_string());
            continue;
        }
        let mut parser = Parser::new(source, at + 1, &variables);
        if let Some(value) = parser.value() {
            parser.spaces();
            if parser.at_end() || parser.peek_is(b';') || parser.peek_is(b'\n') {
                variables.insert(name.to_string(), value);
            }
        }
    }
    (variables, aliases)
}

/// The first `:` of `text` outside brackets that is not part of `::`.
fn top_level_colon(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0i32;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'<' | b'(' | b'[' => depth += 1,
            b'>' | b')' | b']' => depth -= 1,
            b':' if depth == 0
                && bytes.get(i + 1) != Some(&b':')
                && (i == 0 || bytes[i - 1] != b':') =>
            {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

/// A reader of literal values from a position in source text.
struct Parser<'a> {
    text: &'a str,
    at: usize,
    variables: &'a HashMap<String, Value>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str, at: usize, variables: &'a HashMap<String, Value>) -> Parser<'a> {
        Parser {
            text,
            at,
            variables,
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.at..]
    }

    fn at_end(&self) -> bool {
        self.at >= self.text.len()
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn peek_is(&self, b: u8) -> bool {
        self.peek() == Some(b)
    }

    /// Spaces and tabs only (a statement may end at the line's end).
    fn spaces(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r')) {
            self.at += 1;
        }
    }

    /// White space and comments.
    fn ws(&mut self) {
        loop {
            while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                self.at += 1;
            }
            if self.rest().starts_with("//") {
                self.at += self.rest().find('\n').unwrap_or(self.rest().len());
            } else if self.rest().starts_with("/*") {
                self.at += self.rest().find("*/").map_or(self.rest().len(), |i| i + 2);
            } else {
                return;
            }
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn identifier(&mut self) -> Option<&'a str> {
        let rest = self.rest();
        let mut end = 0;
        let bytes = rest.as_bytes();
        while end < bytes.len() {
            if is_ident(bytes[end]) {
                end += 1;
            } else if rest[end..].starts_with("::")
                && bytes.get(end + 2).copied().is_some_and(is_ident)
            {
                end += 2;
            } else {
                break;
            }
        }
        if end == 0 || bytes[0].is_ascii_digit() {
            return None;
        }
        self.at += end;
        Some(&rest[..end])
    }

    /// Skips a balanced `<...>` (a type's parameters).
    fn angle_brackets(&mut self) -> bool {
        if !self.peek_is(b'<') {
            return false;
        }
        let mut depth = 0;
        for (i, b) in self.rest().bytes().enumerate() {
            match b {
                b'<' => depth += 1,
                b'>' => {
                    depth -= 1;
                    if depth == 0 {
                        self.at += i + 1;
                        return true;
                    }
                }
                b';' | b'{' | b'(' | b')' | b'\n' => return false,
                _ => {}
            }
        }
        false
    }

    /// Values separated by commas up to `close` (a trailing comma allowed).
    fn items(&mut self, close: u8) -> Option<Vec<Value>> {
        let mut out = Vec::new();
        self.ws();
        if self.peek_is(close) {
            self.at += 1;
            return Some(out);
        }
        loop {
            out.push(self.value()?);
            self.ws();
            match self.peek()? {
                b',' => {
                    self.at += 1;
                    self.ws();
                    if self.peek_is(close) {
                        self.at += 1;
                        return Some(out);
                    }
                }
                b if b == close => {
                    self.at += 1;
                    return Some(out);
                }
                _ => return None,
            }
        }
    }

    /// One literal value and what follows it that keeps it (`.to_string()`, `as i64`).
    fn value(&mut self) -> Option<Value> {
        self.ws();
        let value = self.primary()?;
        loop {
            let save = self.at;
            self.spaces();
            let kept = [
                ".to_string()",
                ".to_owned()",
                ".into()",
                ".to_vec()",
                ".clone()",
                ".as_str()",
                ".iter().cloned().collect()",
            ]
            .iter()
            .any(|p| self.eat(p));
            if kept {
                continue;
            }
            if self.eat("as ") {
                self.ws();
                self.identifier()?;
                continue;
            }
            self.at = save;
            return Some(value);
        }
    }

    fn primary(&mut self) -> Option<Value> {
        match self.peek()? {
            b'&' => {
                self.at += 1;
                self.eat("mut ");
                self.value()
            }
            b'(' => {
                self.at += 1;
                self.ws();
                // A C cast: `(long)1`, `(float)-2.5`.
                let save = self.at;
                if let Some(_ty) = self.identifier() {
                    while self.eat(" ") || self.eat("*") {}
                    if self.eat(")") {
                        self.ws();
                        if let Some(v) = self.value() {
                            return Some(v);
                        }
                    }
                }
                self.at = save;
                let items = self.items(b')')?;
                // `(x)` is x; `(a, b)` a tuple.
                match <[Value; 1]>::try_from(items) {
                    Ok([one]) => Some(one),
                    Err(items) => Some(Value::Array(items)),
                }
            }
            b'[' => {
                self.at += 1;
                self.ws();
                // Go: `[]T{...}`, `[N]T{...}`, `[][]T{...}`.
                let save = self.at;
                while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.at += 1;
                }
                let digits = self.at > save;
                if self.eat("]") {
                    let after_bracket = self.at;
                    while self.eat("[]") {}
                    self.eat("*");
                    if self.identifier().is_some() {
                        self.angle_brackets();
                        self.ws();
                        if self.eat("{") {
                            return self.items(b'}').map(Value::Array);
                        }
                    }
                    // JavaScript's empty list.
                    self.at = after_bracket;
                    return (!digits).then(|| Value::Array(Vec::new()));
                }
                self.at = save;
                self.items(b']').map(Value::Array)
            }
            b'{' => {
                self.at += 1;
                self.items(b'}').map(Value::Array)
            }
            b'"' => self.string(b'"'),
            b'\'' => self.string(b'\''),
            b'`' => self.string(b'`'),
            b'-' | b'+' | b'.' | b'0'..=b'9' => self.number(),
            _ => self.named(),
        }
    }

    /// A literal that starts with a name: keywords, constructors, wrappers, variables.
    fn named(&mut self) -> Option<Value> {
        let name = self.identifier()?;
        let name = name.strip_prefix("std::").unwrap_or(name);
        match name {
            "true" | "True" => return Some(Value::Bool(true)),
            "false" | "False" => return Some(Value::Bool(false)),
            "null" | "nil" | "None" | "nullptr" | "std::nullopt" | "nullopt" => {
                return Some(Value::Null);
            }
            _ => {}
        }
        if name == "vec" && self.eat("!") {
            return match self.peek()? {
                b'[' => {
                    self.at += 1;
                    self.items(b']').map(Value::Array)
                }
                b'(' => {
                    self.at += 1;
                    self.items(b')').map(Value::Array)
                }
                _ => None,
            };
        }
        let generic = self.angle_brackets();
        self.ws();
        if self.eat("{") {
            // `vector<int>{1, 2}`, a Go struct-less composite `T{...}` of a named slice type.
            return (generic || name.contains("vector") || name.contains("array"))
                .then(|| self.items(b'}').map(Value::Array))
                .flatten();
        }
        if self.eat("(") {
            let items = self.items(b')')?;
            let tuple = name.ends_with("make_tuple")
                || name.ends_with("make_pair")
                || name == "tuple"
                || name == "pair";
            if tuple {
                return Some(Value::Array(items));
            }
            let wraps = generic
                || matches!(
                    name,
                    "Some" | "String::from" | "string" | "String" | "str" | "Box::new" | "optional"
                )
                || name.ends_with("vector")
                || name.ends_with("string");
            if !wraps {
                return None;
            }
            return match <[Value; 1]>::try_from(items) {
                Ok([one]) => Some(one),
                // `std::vector<long>()`: empty.
                Err(items) if items.is_empty() && (generic || name.ends_with("vector")) => {
                    Some(Value::Array(Vec::new()))
                }
                Err(items) if items.is_empty() && name.ends_with("string") => {
                    Some(Value::String(String::new()))
                }
                Err(_) => None,
            };
        }
        if generic {
            return None;
        }
        self.variables.get(name).cloned()
    }

    fn number(&mut self) -> Option<Value> {
        let rest = self.rest();
        let bytes = rest.as_bytes();
        let mut i = 0;
        let negative = match bytes.first()? {
            b'-' => {
                i += 1;
                true
            }
            b'+' => {
                i += 1;
                false
            }
            _ => false,
        };
        if rest[i..].starts_with("0x") || rest[i..].starts_with("0X") {
            let digits_start = i + 2;
            let mut end = digits_start;
            while end < bytes.len() && (bytes[end].is_ascii_hexdigit() || bytes[end] == b'_') {
                end += 1;
            }
            let digits: String = rest[digits_start..end]
                .chars()
                .filter(|c| *c != '_')
                .collect();
            let n = i64::from_str_radix(&digits, 16).ok()?;
            self.at += end;
            self.suffix();
            return Some(Value::from(if negative { -n } else { n }));
        }
        let start = i;
        let mut float = false;
        while i < bytes.len() && (bytes[i].is_ascii_digit() || (bytes[i] == b'_' && i > start)) {
            i += 1;
        }
        if bytes.get(i) == Some(&b'.')
            && !bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'.' || *b == b'_')
        {
            float = true;
            i += 1;
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'_') {
                i += 1;
            }
        }
        if i == start
            || (i == start + 1
                && float
                && !bytes[start].is_ascii_digit()
                && !bytes.get(start + 1).is_some_and(u8::is_ascii_digit))
        {
            return None;
        }
        if matches!(bytes.get(i), Some(b'e' | b'E'))
            && bytes.get(i + 1).is_some_and(|b| {
                b.is_ascii_digit()
                    || ((*b == b'-' || *b == b'+')
                        && bytes.get(i + 2).is_some_and(u8::is_ascii_digit))
            })
        {
            float = true;
            i += 2;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
        }
        let literal: String = rest[..i]
            .chars()
            .filter(|c| *c != '_' && *c != '+')
            .collect();
        self.at += i;
        let suffix = self.suffix();
        float |= suffix.starts_with('f') || suffix.starts_with('F') || suffix.starts_with("_f");
        if float {
            let x: f64 = literal.parse().ok()?;
            Number::from_f64(x).map(Value::Number)
        } else {
            literal.parse::<i64>().ok().map(Value::from)
        }
    }

    /// A number's type suffix (`f`, `LL`, `u64`, `_f64`), skipped.
    fn suffix(&mut self) -> &'a str {
        let rest = self.rest();
        let end = rest.find(|c: char| !is_ident_char(c)).unwrap_or(rest.len());
        self.at += end;
        &rest[..end]
    }

    /// A quoted string (C++'s adjacent literals joined); a character literal is a string of one.
    fn string(&mut self, quote: u8) -> Option<Value> {
        let mut out = String::new();
        loop {
            self.at += 1;
            loop {
                let c = self.rest().chars().next()?;
                self.at += c.len_utf8();
                match c {
                    c if c as u32 == u32::from(quote) => break,
                    '$' if quote == b'`' && self.peek_is(b'{') => return None,
                    '\\' if quote != b'`' => out.push(self.escape()?),
                    c => out.push(c),
                }
            }
            let save = self.at;
            self.ws();
            if quote == b'"' && self.peek_is(b'"') {
                continue;
            }
            self.at = save;
            return Some(Value::String(out));
        }
    }

    fn escape(&mut self) -> Option<char> {
        let c = self.rest().chars().next()?;
        self.at += c.len_utf8();
        Some(match c {
            'n' => '\n',
            't' => '\t',
            'r' => '\r',
            '0' => '\0',
            'a' => '\u{7}',
            'b' => '\u{8}',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'x' => {
                let hex = self.rest().get(..2)?;
                self.at += 2;
                char::from(u8::from_str_radix(hex, 16).ok()?)
            }
            'u' => {
                let code = if self.eat("{") {
                    let end = self.rest().find('}')?;
                    let hex = &self.rest()[..end];
                    self.at += end + 1;
                    u32::from_str_radix(hex, 16).ok()?
                } else {
                    let hex = self.rest().get(..4)?;
                    self.at += 4;
                    u32::from_str_radix(hex, 16).ok()?
                };
                char::from_u32(code)?
            }
            other => other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entry_points_are_the_declarations_last_function() {
        let cpp = "#include<vector>\nusing namespace std;\nbool has_close_elements(vector<float> numbers, float threshold){\n";
        assert_eq!(
            entry_point("cpp", cpp).as_deref(),
            Some("has_close_elements")
        );
        let multipl_e = "#include<assert.h>\n// >>> sum_even((std::vector<long>({(long)1})))\nlong sum_even(std::vector<long> xs) {\n";
        assert_eq!(entry_point("cpp", multipl_e).as_deref(), Some("sum_even"));
        let rust = "use std::cmp::max;\n\nfn longest(strings:Vec<String>) -> Option<String>{\n\n";
        assert_eq!(entry_point("rust", rust).as_deref(), Some("longest"));
        let go = "import (\n    \"strings\"\n)\n\nfunc FilterByPrefix(strings []string,prefix string) []string {\n";
        assert_eq!(entry_point("go", go).as_deref(), Some("FilterByPrefix"));
        let js = "\nconst hasCloseElements = (numbers, threshold) => {\n";
        assert_eq!(
            entry_point("javascript", js).as_deref(),
            Some("hasCloseElements")
        );
        assert_eq!(
            entry_point("javascript", "function countEvens(xs) {\n").as_deref(),
            Some("countEvens")
        );
    }

    #[test]
    fn humaneval_x_calls_in_each_language() {
        let cpp = "#undef NDEBUG\n#include<assert.h>\nint main(){\n    vector<float> a={1.0, 2.0, 3.9};\n    assert (has_close_elements(a, 0.3)==true);\n    assert (has_close_elements({1.0, 2.0, 5.9, 4.0, 5.0}, 0.95) == true);\n    assert (issame(sort_third({5, 6, 3}) , {2, 6}));\n    assert (has_close_elements(a, 0.3)==true);\n}\n";
        assert_eq!(
            calls(cpp, "has_close_elements"),
            [
                vec![json!([1.0, 2.0, 3.9]), json!(0.3)],
                vec![json!([1.0, 2.0, 5.9, 4.0, 5.0]), json!(0.95)],
            ]
        );
        assert_eq!(calls(cpp, "sort_third"), [vec![json!([5, 6, 3])]]);
        let rust = "    fn test_longest() {\n        let v_empty: Vec<String> = vec![];\n        assert!(longest(vec![]) == None);\n        assert!(\n            longest(vec![\"x\".to_string(), \"y\".to_string()])\n                == Some(\"x\".to_string())\n        );\n        assert_eq!(longest(v_empty), None);\n        assert_eq!(longest(vec![String::from(\"a\\n\")]), None);\n    }\n";
        assert_eq!(
            calls(rust, "longest"),
            [
                vec![json!([])],
                vec![json!(["x", "y"])],
                vec![json!(["a\n"])]
            ]
        );
        let go = "func TestLongest(t *testing.T) {\n\tassert := assert.New(t)\n\tassert.Equal(nil, Longest([]string{}))\n\tassert.Equal(\"x\", Longest([]string{\"x\", \"y\", \"z\"}))\n\tassert.Equal(3, Longest([][]int{{1, 2}, {3}}))\n}\n";
        assert_eq!(
            calls(go, "Longest"),
            [
                vec![json!([])],
                vec![json!(["x", "y", "z"])],
                vec![json!([[1, 2], [3]])]
            ]
        );
        let js = "const testLongest = () => {\n  console.assert(longest([]) === null)\n  console.assert(\n    JSON.stringify(longest(['x', \"y\", -2.5e3, true])) === JSON.stringify('x')\n  )\n}\n\ntestLongest()\n";
        assert_eq!(
            calls(js, "longest"),
            [vec![json!([])], vec![json!(["x", "y", -2500.0, true])]]
        );
    }

    #[test]
    fn multipl_e_aliases_casts_and_constructors() {
        let cpp = "}\nint main() {\n    auto candidate = sum_even;\n    assert(candidate((std::vector<long>({(long)1, (long)2, (long)-4}))) == (6));\n    assert(candidate((std::vector<long>())) == (0));\n    assert(candidate(std::make_tuple(1, \"a\" \"b\"), 2.5f, 'c', 10LL) == (0));\n}\n";
        assert_eq!(
            calls(cpp, "sum_even"),
            [
                vec![json!([1, 2, -4])],
                vec![json!([])],
                vec![json!([1, "ab"]), json!(2.5), json!("c"), json!(10)],
            ]
        );
        let rust = "fn main() {\n    let candidate = add;\n    assert_eq!(candidate(2, 3_i64), 5);\n    assert_eq!(candidate(1.5f64, -7 as i32), 5);\n}\n";
        assert_eq!(
            calls(rust, "add"),
            [vec![json!(2), json!(3)], vec![json!(1.5), json!(-7)]]
        );
    }

    #[test]
    fn calls_with_other_arguments_are_left_out() {
        let source = "int main(){\n    int n = read();\n    assert (f(n) == 1);\n    assert (f(g(2)) == 1);\n    assert (f(x + 1) == 1);\n    assert (f(2) == 4);\n}\n";
        assert_eq!(calls(source, "f"), [vec![json!(2)]]);
        // A definition, a method of another object, a longer name.
        let source = "fn f(x: i64) -> i64 { x }\nobj.f(3); ff(4); f (5);";
        assert_eq!(calls(source, "f"), [vec![json!(5)]]);
    }
}

#[cfg(test)]
mod humaneval_x {
    /// The calls of nearly every HumanEval-X problem are read, in each of its languages; those
    /// not read call with values computed in the test (a random string to encode, a polynomial's
    /// root) or with maps.
    #[test]
    fn nearly_every_humaneval_x_problem_gives_calls() {
        for (file, language) in [
            ("cpp", "cpp"),
            ("rust", "rust"),
            ("go", "go"),
            ("js", "javascript"),
        ] {
            let rows = rewardbox_testkit::humaneval_x::rows(file);
            let mut read = 0;
            let mut calls = 0;
            for row in &rows {
                let declaration = row["declaration"].as_str().unwrap();
                let Some(entry) = super::entry_point(language, declaration) else {
                    continue;
                };
                let found = super::calls(row["test"].as_str().unwrap(), &entry);
                calls += found.len();
                read += usize::from(!found.is_empty());
            }
            assert_eq!(rows.len(), 164);
            assert!(
                read >= 158,
                "{language}: calls read in {read} of 164 problems"
            );
            assert!(calls >= 1_050, "{language}: {calls} calls");
        }
    }
}
