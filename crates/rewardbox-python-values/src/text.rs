//! Python's own reading of text where the checking sandbox's messages depend on it: what
//! `str.split`, `str.strip` and `str.splitlines` take for white space and line ends.

/// How long a case's detail may be, in characters, before it is cut with `…`.
pub const PREVIEW_CHARS: usize = 160;

/// The checking sandbox's preview of a detail: runs of whitespace (as Python's `str.split`
/// finds them) become one space, ends trimmed, and past [`PREVIEW_CHARS`] characters it is cut
/// to one less, with `…`.
pub fn preview(text: &str) -> String {
    let joined = text
        .split(python_space)
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    if joined.chars().count() <= PREVIEW_CHARS {
        return joined;
    }
    let mut cut: String = joined.chars().take(PREVIEW_CHARS - 1).collect();
    cut.push('…');
    cut
}

/// Python's `str.isspace` for one character: Unicode's white space, and the four information
/// separators (U+001C to U+001F) Python counts too.
pub fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// Python's `str.strip()`.
pub fn strip(text: &str) -> &str {
    text.trim_matches(python_space)
}

/// Python's `str.splitlines()`: lines end at `\n`, `\r`, `\r\n`, `\v`, `\f`, the file, group
/// and record separators, U+0085 and the line and paragraph separators; the ends are dropped.
pub fn splitlines(text: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        let ends = matches!(
            c,
            '\n' | '\r'
                | '\u{b}'
                | '\u{c}'
                | '\u{1c}'
                | '\u{1d}'
                | '\u{1e}'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if !ends {
            continue;
        }
        lines.push(&text[start..at]);
        start = at + c.len_utf8();
        if c == '\r' && chars.peek().is_some_and(|&(_, next)| next == '\n') {
            chars.next();
            start += 1;
        }
    }
    if start < text.len() {
        lines.push(&text[start..]);
    }
    lines
}

/// The first `count` characters of `text` (Python's `text[:count]`).
pub fn head(text: &str, count: usize) -> &str {
    match text.char_indices().nth(count) {
        Some((at, _)) => &text[..at],
        None => text,
    }
}
