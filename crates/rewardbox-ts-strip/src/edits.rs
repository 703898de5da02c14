//! The output being written: a copy of the source in which spans are blanked to spaces (line
//! breaks kept, so every line and column of what remains stays where it was), and the tokens the
//! parser read, to find what the syntax tree has no node for (`?`, `!`, `private`, `implements`).

use oxc_parser::{Kind, Token};
use oxc_span::Span;

/// The source being stripped and its tokens.
pub struct Edits<'s> {
    source: &'s str,
    out: Vec<u8>,
    tokens: &'s [Token],
}

impl<'s> Edits<'s> {
    /// An unchanged copy of `source`, whose tokens (in source order) are `tokens`.
    pub fn new(source: &'s str, tokens: &'s [Token]) -> Edits<'s> {
        Edits {
            source,
            out: source.as_bytes().to_vec(),
            tokens,
        }
    }

    /// The source text.
    pub fn source(&self) -> &'s str {
        self.source
    }

    /// Blanks `start..end` to spaces, keeping its line breaks (`\n`, `\r`, U+2028, U+2029).
    pub fn blank(&mut self, start: u32, end: u32) {
        let (start, end) = (start as usize, (end as usize).min(self.source.len()));
        if start >= end {
            return;
        }
        for (at, c) in self.source[start..end].char_indices() {
            if !matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}') {
                let at = start + at;
                self.out[at..at + c.len_utf8()].fill(b' ');
            }
        }
    }

    /// Blanks `span`.
    pub fn blank_span(&mut self, span: Span) {
        self.blank(span.start, span.end);
    }

    /// Blanks `span` and writes `;` where it started: what stood there was a statement or a
    /// class member, and an empty one keeps the code before it from running into the code after
    /// it (`let a = 1\ntype T = 2\n(f)()` must not become a call of `1`).
    pub fn blank_statement(&mut self, span: Span) {
        self.blank_span(span);
        self.put(span.start, b';');
    }

    /// Writes the ASCII `byte` at `at`, which must have been blanked.
    pub fn put(&mut self, at: u32, byte: u8) {
        let at = at as usize;
        debug_assert_eq!(self.out[at], b' ', "only a blanked byte is written over");
        self.out[at] = byte;
    }

    /// The tokens that start in `start..end`.
    pub fn tokens_in(&self, start: u32, end: u32) -> &'s [Token] {
        let from = self.tokens.partition_point(|t| t.start() < start);
        let to = self.tokens.partition_point(|t| t.start() < end);
        &self.tokens[from..to.max(from)]
    }

    /// The first token of `kind` starting in `start..end`.
    pub fn find(&self, kind: Kind, start: u32, end: u32) -> Option<Token> {
        self.tokens_in(start, end)
            .iter()
            .find(|t| t.kind() == kind)
            .copied()
    }

    /// The last token of `kind` starting in `start..end`.
    pub fn find_last(&self, kind: Kind, start: u32, end: u32) -> Option<Token> {
        self.tokens_in(start, end)
            .iter()
            .rev()
            .find(|t| t.kind() == kind)
            .copied()
    }

    /// The first token starting at or after `at`.
    pub fn next_token(&self, at: u32) -> Option<Token> {
        let i = self.tokens.partition_point(|t| t.start() < at);
        self.tokens.get(i).copied()
    }

    /// Blanks every token in `start..end` whose kind is one of `kinds` (TypeScript's modifiers
    /// before a class member's name).
    pub fn blank_tokens(&mut self, kinds: &[Kind], start: u32, end: u32) {
        for token in self.tokens_in(start, end) {
            if kinds.contains(&token.kind()) {
                self.blank(token.start(), token.end());
            }
        }
    }

    /// The stripped program.
    pub fn finish(self) -> String {
        String::from_utf8(self.out).expect("only whole characters are blanked, to ASCII")
    }
}
