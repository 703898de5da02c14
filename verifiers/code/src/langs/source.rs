//! Reading the task's own source text (a declaration, test code), shared by the languages: the
//! entry point's signature, top-level splitting, and rewriting calls of a name outside comments
//! and literals. Only trusted text is read here: the candidate's program is never parsed.

/// The entry point's signature in a declaration that ends with its opening brace.
#[derive(Debug, Clone, PartialEq)]
pub struct Signature<'a> {
    /// Everything before the signature: includes, helpers.
    pub prefix: &'a str,
    /// The signature, from the first code of its statement to the opening brace (excluded).
    pub text: &'a str,
    /// The text between the parameter list's parentheses.
    pub parameters: &'a str,
    /// The text after the parameter list (`-> bool`, `const`), before the brace.
    pub after: &'a str,
}

impl<'a> Signature<'a> {
    /// Finds `entry`'s definition: the last place, outside every brace pair, comment and
    /// literal, where `entry` is followed by a parameter list and then (after qualifiers such as
    /// `const` or `-> T`) by the opening brace of a body. The declaration may go on into the
    /// body (some of HumanEval-X's do): only what comes before the brace is the signature.
    /// `literals` are the language's comments and literals; `statement_start` says where the
    /// statement holding a position starts (after the last `;`, `}` or preprocessor line).
    pub fn find(
        declaration: &'a str,
        entry: &str,
        literals: Literals,
        statement_start: fn(&str, usize) -> usize,
    ) -> Result<Signature<'a>, String> {
        let code = blank(declaration, literals);
        let depths = brace_depths(&code);
        let found = name_positions(&code, entry)
            .into_iter()
            .rev()
            .filter(|&at| depths[at] == 0)
            .find_map(|at| definition_after(&code, at + entry.len()).map(|d| (at, d)));
        let Some((name_at, (open, close, brace))) = found else {
            return Err(format!(
                "the declaration does not define `{entry}` (no `{entry}(...) {{` outside a body)"
            ));
        };
        // The statement's first code: the comments before it (a doc comment, a prompt's
        // examples) belong to the prefix.
        let start = statement_start(&code, name_at);
        let start = start + code[start..].len() - code[start..].trim_start().len();
        Ok(Signature {
            prefix: &declaration[..start],
            text: declaration[start..brace].trim_end(),
            parameters: &declaration[open + 1..close],
            after: declaration[close + 1..brace].trim(),
        })
    }
}

/// The brace depth at each byte of `code` (comments and literals blanked).
fn brace_depths(code: &str) -> Vec<usize> {
    let mut depth = 0usize;
    code.bytes()
        .map(|b| {
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth
        })
        .collect()
}

/// When a parameter list opens at `after` (after blanks) and is followed by a body's `{` (with
/// only qualifiers between: no `;`, `=` or `(`), its `(`, `)` and `{` positions.
fn definition_after(code: &str, after: usize) -> Option<(usize, usize, usize)> {
    let rest = &code[after..];
    let open = after + (rest.len() - rest.trim_start().len());
    if !code[open..].starts_with('(') {
        return None;
    }
    let close = matching(code, open)?;
    let tail = &code[close + 1..];
    let brace = tail.find(['{', ';', '='])?;
    if tail.as_bytes()[brace] != b'{' {
        return None;
    }
    Some((open, close, close + 1 + brace))
}

/// The last function `text` defines outside every brace pair: the name before the last
/// parameter list followed by a body (`bool has_close_elements(vector<float> numbers, float
/// threshold){` → `has_close_elements`), skipping `keywords` (`if`, `for`, `fn`...).
pub fn last_definition(text: &str, literals: Literals, keywords: &[&str]) -> Option<String> {
    let code = blank(text, literals);
    let depths = brace_depths(&code);
    let bytes = code.as_bytes();
    let mut last = None;
    let mut i = 0;
    while i < bytes.len() {
        if (bytes[i].is_ascii_alphabetic() || bytes[i] == b'_')
            && (i == 0 || !is_identifier_byte(bytes[i - 1]))
        {
            let end = i + code[i..]
                .bytes()
                .take_while(|b| is_identifier_byte(*b))
                .count();
            let name = &code[i..end];
            if depths[i] == 0 && !keywords.contains(&name) && definition_after(&code, end).is_some()
            {
                last = Some(name.to_string());
            }
            i = end;
        } else {
            i += 1;
        }
    }
    last
}

/// `text` with comments and literals (`literals`) turned to spaces, lines and byte offsets kept.
pub fn blank(text: &str, literals: Literals) -> String {
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    // The bytes that may open a comment or literal: code between them is copied as it is.
    let openers: Vec<u8> = literals()
        .iter()
        .map(|(open, _)| open.as_bytes()[0])
        .collect();
    let mut i = 0;
    while i < text.len() {
        let plain = bytes[i..]
            .iter()
            .position(|b| !b.is_ascii() || openers.contains(b))
            .unwrap_or(bytes.len() - i);
        out.push_str(&text[i..i + plain]);
        i += plain;
        if i == text.len() {
            break;
        }
        let opened = literals()
            .iter()
            .find(|(open, _)| text[i..].starts_with(open));
        match opened {
            Some((open, close)) => {
                let mut j = i + open.len();
                // Whole characters at a time: a comment or literal may hold any text.
                let char_after = |j: usize| j + text[j..].chars().next().map_or(1, char::len_utf8);
                while j < text.len() {
                    if open.len() == 1 && bytes[j] == b'\\' {
                        j = if j + 1 < text.len() {
                            char_after(j + 1)
                        } else {
                            j + 1
                        };
                        continue;
                    }
                    if text[j..].starts_with(close) {
                        j += close.len();
                        break;
                    }
                    j = char_after(j);
                }
                let j = j.min(text.len());
                out.extend(
                    text[i..j]
                        .bytes()
                        .map(|b| if b == b'\n' { '\n' } else { ' ' }),
                );
                i = j;
            }
            None => {
                let c = text[i..].chars().next().unwrap_or(' ');
                if c.is_ascii() {
                    out.push(c);
                } else {
                    out.extend(std::iter::repeat_n(' ', c.len_utf8()));
                }
                i += c.len_utf8();
            }
        }
    }
    out
}

fn is_identifier_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where `name` occurs as a whole identifier in `text`.
fn name_positions(text: &str, name: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    text.match_indices(name)
        .map(|(at, _)| at)
        .filter(|&at| {
            let before = at == 0 || !is_identifier_byte(bytes[at - 1]);
            let end = at + name.len();
            let after = end >= bytes.len() || !is_identifier_byte(bytes[end]);
            before && after
        })
        .collect()
}

/// The position of the bracket matching the one at `open` (`(`, `[` or `{`), in blanked code.
pub fn matching(text: &str, open: usize) -> Option<usize> {
    let (opening, closing) = match text.as_bytes().get(open)? {
        b'(' => (b'(', b')'),
        b'[' => (b'[', b']'),
        b'{' => (b'{', b'}'),
        _ => return None,
    };
    let mut depth = 0usize;
    for (i, &b) in text.as_bytes()[open..].iter().enumerate() {
        if b == opening {
            depth += 1;
        } else if b == closing {
            depth -= 1;
            if depth == 0 {
                return Some(open + i);
            }
        }
    }
    None
}

/// Whether `name` is an identifier of the C family (C, C++, Rust, Go): a letter or `_`, then
/// letters, digits and `_`.
pub fn is_identifier(name: &str) -> bool {
    name.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// Where `word` occurs as a whole word outside every brace pair of `code` (blanked).
pub fn top_level_words(code: &str, word: &str) -> Vec<usize> {
    let depths = brace_depths(code);
    name_positions(code, word)
        .into_iter()
        .filter(|&at| depths[at] == 0)
        .collect()
}

/// `text` split at `separator` where it is outside every bracket pair (`()`, `[]`, `{}`, `<>`).
pub fn split_top_level(text: &str, separator: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            // `->` in a Rust type is not a closing bracket.
            '>' if previous == '-' => {}
            ')' | ']' | '}' | '>' => depth -= 1,
            c if c == separator && depth == 0 => {
                parts.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
        previous = c;
    }
    parts.push(&text[start..]);
    parts
}

/// The identifier `text` ends with, if it ends with one.
pub fn trailing_identifier(text: &str) -> Option<&str> {
    let text = text.trim_end();
    let start = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_alphanumeric() || *c == '_')
        .last()
        .map(|(i, _)| i)?;
    let name = &text[start..];
    (!name.starts_with(|c: char| c.is_ascii_digit())).then_some(name)
}

/// `test` without a `}` before its first item: MultiPL-E's test code opens with the brace
/// closing the candidate's function, which is not in the trusted program. Lines and byte
/// offsets are kept.
pub fn without_closing_brace(test: &str, literals: Literals) -> String {
    let code = blank(test, literals);
    let mut test = test.to_string();
    if let Some(at) = code.find(|c: char| !c.is_whitespace())
        && code[at..].starts_with('}')
    {
        test.replace_range(at..at + 1, " ");
    }
    test
}

/// The spans of `text` that are not code: each `(opening, closing)` pair of the language's
/// comments and literals, as [`rewrite_calls`] takes them.
pub type Literals = fn() -> &'static [(&'static str, &'static str)];

/// `text` with each call of `name` (the identifier followed by optional blanks and `(`) outside
/// comments and literals renamed to `replacement`. Lines are kept as they are, so that a
/// compiler's line numbers still point into `text`.
pub fn rewrite_calls(text: &str, name: &str, replacement: &str, literals: Literals) -> String {
    let mut out = String::with_capacity(text.len());
    for_each_call(text, name, literals, |segment, is_call| {
        out.push_str(if is_call { replacement } else { segment });
    });
    out
}

/// The 1-based lines of `text` holding a call of `name` outside comments and literals, with the
/// line's text, each line once.
pub fn call_lines(text: &str, name: &str, literals: Literals) -> Vec<(usize, String)> {
    let mut lines = Vec::new();
    let mut line = 1;
    for_each_call(text, name, literals, |segment, is_call| {
        if is_call && lines.last().is_none_or(|(l, _)| *l != line) {
            let shown = text.lines().nth(line - 1).unwrap_or("").trim().to_string();
            lines.push((line, shown));
        }
        line += segment.matches('\n').count();
    });
    lines
}

/// Walks `text` in segments, calling `visit(segment, is_call)`: a call of `name` is one segment
/// (the name itself); everything else comes in segments between calls.
fn for_each_call(text: &str, name: &str, literals: Literals, mut visit: impl FnMut(&str, bool)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut plain_start = 0;
    while i < text.len() {
        if let Some((open, close)) = literals()
            .iter()
            .find(|(open, _)| text[i..].starts_with(open))
        {
            let mut j = i + open.len();
            loop {
                if j >= text.len() {
                    break;
                }
                if open.len() == 1 && bytes[j] == b'\\' {
                    j += 1;
                    if j < text.len() {
                        j += text[j..].chars().next().map_or(1, char::len_utf8);
                    }
                    continue;
                }
                if text[j..].starts_with(close) {
                    j += close.len();
                    break;
                }
                j += text[j..].chars().next().map_or(1, char::len_utf8);
            }
            i = j.min(text.len());
            continue;
        }
        let starts_name = text[i..].starts_with(name)
            && (i == 0 || !is_identifier_byte(bytes[i - 1]))
            && text[i + name.len()..]
                .trim_start_matches([' ', '\t'])
                .starts_with('(')
            && !text[i + name.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
        if starts_name {
            visit(&text[plain_start..i], false);
            visit(&text[i..i + name.len()], true);
            i += name.len();
            plain_start = i;
            continue;
        }
        i += text[i..].chars().next().map_or(1, char::len_utf8);
    }
    visit(&text[plain_start..], false);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c_literals() -> &'static [(&'static str, &'static str)] {
        &[("//", "\n"), ("/*", "*/"), ("\"", "\""), ("'", "'")]
    }

    #[test]
    fn calls_are_found_outside_comments_and_literals_only() {
        let text = "int main(){\n  assert(f(1)==2);\n  // assert(x)\n  s = \"assert(y)\";\n  static_assert(true);\n  assert (g({1, 2}));\n  assertion(1);\n  /* assert(\n  z) */ c = '\\'';\n  assert(h());\n}\n";
        let lines: Vec<usize> = call_lines(text, "assert", c_literals)
            .into_iter()
            .map(|(l, _)| l)
            .collect();
        assert_eq!(lines, vec![2, 6, 10]);
        let rewritten = rewrite_calls(text, "assert", "CHECK", c_literals);
        assert_eq!(rewritten.lines().count(), text.lines().count());
        assert!(rewritten.contains("  CHECK(f(1)==2);"));
        assert!(rewritten.contains("  CHECK (g({1, 2}));"));
        assert!(rewritten.contains("// assert(x)"));
        assert!(rewritten.contains("static_assert(true);"));
        assert!(rewritten.contains("assertion(1);"));
        assert!(rewritten.contains("  CHECK(h());"));
    }

    #[test]
    fn text_in_any_script_inside_comments_and_literals_is_blanked_whole() {
        let text = "int f(){ // 含最大值，含最小值\n  s = \"é\\é\\\"ü\"; /* «x» */ c = '\\é';\n  assert(f());\n}\n";
        let code = blank(text, c_literals);
        assert_eq!(code.len(), text.len());
        assert_eq!(code.lines().count(), text.lines().count());
        assert!(code.is_ascii(), "{code}");
        assert!(code.contains("  assert(f());"), "{code}");
        assert_eq!(
            call_lines(text, "assert", c_literals),
            vec![(3, "assert(f());".to_string())]
        );
        // A text ending inside an escape or a literal.
        assert_eq!(blank("\"\\", c_literals).len(), 2);
        assert_eq!(blank("'é", c_literals).len(), 3);
    }

    #[test]
    fn splitting_respects_brackets() {
        assert_eq!(
            split_top_level("map<int, int> m, vector<pair<int,int>> v, int x", ','),
            vec!["map<int, int> m", " vector<pair<int,int>> v", " int x"]
        );
        assert_eq!(
            split_top_level("f: impl Fn(i32) -> i32, y: (u8, u8)", ','),
            vec!["f: impl Fn(i32) -> i32", " y: (u8, u8)"]
        );
    }

    #[test]
    fn the_signature_is_the_last_declaration_of_the_entry_point() {
        fn after_semicolon(text: &str, at: usize) -> usize {
            text[..at].rfind([';', '}']).map_or(0, |i| i + 1)
        }
        let declaration = "int f(int a);\nint helper(int b){ return f(b); }\n\nlong long\nf(int a, int b) const {\n    int i; for (i=0;i<3;i++)\n    {\n";
        let signature = Signature::find(declaration, "f", c_literals, after_semicolon).unwrap();
        assert_eq!(signature.text, "long long\nf(int a, int b) const");
        assert_eq!(signature.parameters, "int a, int b");
        assert_eq!(signature.after, "const");
        assert!(signature.prefix.ends_with("return f(b); }\n\n"));
        // A comment before the signature is the prefix's.
        let commented = "// f(1) == 2\n/* twice */ int f(int a) {\n";
        let signature = Signature::find(commented, "f", c_literals, after_semicolon).unwrap();
        assert_eq!(signature.prefix, "// f(1) == 2\n/* twice */ ");
        assert_eq!(signature.text, "int f(int a)");
        assert!(Signature::find("int f(int a);", "f", c_literals, after_semicolon).is_err());
        assert_eq!(
            last_definition(declaration, c_literals, &["for", "if", "while"]).as_deref(),
            Some("f")
        );
        assert_eq!(
            last_definition("/* g(){ */ int h(int x) /* x */ {", c_literals, &[]).as_deref(),
            Some("h")
        );
    }
}
