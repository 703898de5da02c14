//! A C++ program's preamble: the system headers it includes before anything else.
//!
//! Parsing `<iostream>` is most of what compiling a short C++ program costs (1.1 s of 1.2 for an
//! a+b). A header precompiled from exactly the headers a program includes first, in their order,
//! can be included ahead of the program without changing what it means: the program includes the
//! same headers first anyway, and their include guards make its own `#include` lines no-ops
//! afterwards. So only lines that cannot change how a header reads may come before or between
//! them: blank lines, comments, and `#pragma GCC optimize`/`target` (which clang ignores). Any
//! other line (a `#define`, a `using`, a quoted include, a line continued by a backslash) ends
//! the preamble.

/// The headers `source` includes as `#include <name>` before any other line, in order; empty
/// when it includes none first.
pub fn headers(source: &str) -> Vec<String> {
    let mut headers = Vec::new();
    let mut rest = source.strip_prefix('\u{feff}').unwrap_or(source);
    loop {
        rest = rest.trim_start_matches([' ', '\t', '\r', '\n', '\x0c', '\x0b']);
        if let Some(after) = rest.strip_prefix("//") {
            let (line, next) = split_line(after);
            if line.trim_end().ends_with('\\') {
                break;
            }
            rest = next;
        } else if let Some(after) = rest.strip_prefix("/*") {
            let Some(end) = after.find("*/") else { break };
            rest = &after[end + 2..];
        } else if let Some(after) = rest.strip_prefix('#') {
            let (line, next) = split_line(after);
            match directive(line) {
                Some(Directive::Include(name)) => headers.push(name),
                Some(Directive::IgnoredPragma) => {}
                None => break,
            }
            rest = next;
        } else {
            break;
        }
    }
    headers
}

/// A preamble line's directive, after its `#`.
enum Directive {
    /// `include <name>`.
    Include(String),
    /// A `pragma` clang ignores.
    IgnoredPragma,
}

/// `line` (what follows a `#`, to the end of its line) when it may stand in a preamble.
fn directive(line: &str) -> Option<Directive> {
    if line.contains('\\') {
        return None;
    }
    let line = line.trim_start_matches([' ', '\t']);
    if let Some(rest) = line.strip_prefix("include") {
        let rest = rest.trim_start_matches([' ', '\t']).strip_prefix('<')?;
        let (name, after) = rest.split_once('>')?;
        let tail_is_comment = only_a_comment(after.trim());
        let plain = !name.is_empty()
            && !name.starts_with('/')
            && !name.contains("..")
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '/' | '+' | '-'));
        return (tail_is_comment && plain).then(|| Directive::Include(name.to_string()));
    }
    let pragma = line.strip_prefix("pragma")?;
    let mut words = pragma.split_whitespace();
    let ignored = words.next() == Some("GCC")
        && words
            .next()
            .is_some_and(|w| w.starts_with("optimize") || w.starts_with("target"));
    ignored.then_some(Directive::IgnoredPragma)
}

/// Whether `tail` (trimmed) is nothing, a `//` comment, or one `/* */` comment.
fn only_a_comment(tail: &str) -> bool {
    if tail.is_empty() || tail.starts_with("//") {
        return true;
    }
    tail.strip_prefix("/*")
        .and_then(|inner| inner.find("*/").map(|end| end + 2 == inner.len()))
        .unwrap_or(false)
}

/// The line at the start of `text` (without its newline) and what follows it.
fn split_line(text: &str) -> (&str, &str) {
    match text.find('\n') {
        Some(end) => (&text[..end], &text[end + 1..]),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::headers;

    #[test]
    fn the_preamble_is_the_system_headers_included_before_anything_else() {
        let table: &[(&str, &[&str])] = &[
            ("#include <bits/stdc++.h>\nint main(){}", &["bits/stdc++.h"]),
            (
                "\u{feff}// hi\n/* a\n block */\n#pragma GCC optimize(\"O3\")\n# include  <iostream> // io\n#include<vector>\n\n#include <algorithm> /* sort */\nusing namespace std;\n#include <map>\n",
                &["iostream", "vector", "algorithm"],
            ),
            // What could change how a header reads ends it.
            ("#define int long long\n#include <iostream>\n", &[]),
            (
                "#include <iostream>\n#define N 5\n#include <vector>\n",
                &["iostream"],
            ),
            (
                "#include <iostream>\n#pragma pack(1)\n#include <vector>\n",
                &["iostream"],
            ),
            (
                "#include <iostream>\n#undef assert\n#include <vector>\n",
                &["iostream"],
            ),
            ("// continued \\\n#include <iostream>\n", &[]),
            ("#include <iostream> \\\n\n", &[]),
            (
                "#include <iostream>\nint x;\n#include <vector>\n",
                &["iostream"],
            ),
            ("/* unterminated\n#include <iostream>\n", &[]),
            // Only the toolchain's headers, by a plain name.
            ("#include \"bits/stdc++.h\"\n", &[]),
            ("#include </etc/passwd>\n", &[]),
            ("#include <../secret>\n", &[]),
            ("#include <iostream> int x;\n", &[]),
            ("#include <iostream> /* a */ int x; /* b */\n", &[]),
            ("#include MACRO\n", &[]),
            ("int main(){}", &[]),
            ("", &[]),
        ];
        for (source, expected) in table {
            assert_eq!(headers(source), *expected, "{source:?}");
        }
    }
}
