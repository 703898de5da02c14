//! Floor 0 of rewardbox: TypeScript types stripped, built into the JavaScript runner.
//!
//! TypeScript to JavaScript as Node.js runs a `.ts` file (its default "strip-only" mode): every
//! annotation, type parameter and argument, `as` / `satisfies` / `!`, TypeScript modifier and
//! type-only declaration is replaced by spaces where it stands, so each line and column of the
//! program that remains is where the author wrote it. What would need generated code (an enum,
//! a namespace holding values, a parameter property, `import x = require()`, `export =`, the
//! `<T>value` assertion) is refused with the message Node gives. Types are not checked: Node does
//! not check them either.
//!
//! The parser is oxc's. It runs where the program will run (the JavaScript runner's sandbox), so
//! a hostile program's source is never parsed by the host.

#![deny(missing_docs)]

mod declarations;
mod edits;
mod visitor;

use edits::Edits;
use oxc_allocator::Allocator;
use oxc_ast_visit::Visit;
use oxc_parser::config::TokensParserConfig;
use oxc_parser::{ParseOptions, Parser};
use oxc_span::SourceType;
use std::fmt;
use visitor::Stripper;

/// Why a TypeScript program could not be turned into JavaScript: Node's `SyntaxError`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StripError {
    /// Node's error code: `ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX` for syntax strip-only mode
    /// refuses, `ERR_INVALID_TYPESCRIPT_SYNTAX` for a program that does not parse.
    pub code: &'static str,
    /// What is wrong, as Node says it where it says the same thing.
    pub message: String,
    /// The line it is on, from 1.
    pub line: usize,
    /// The column it starts at, from 1, in characters.
    pub column: usize,
    /// The text of that line.
    pub source_line: String,
    /// How many characters of that line it covers (at least 1).
    pub width: usize,
}

impl StripError {
    fn at(code: &'static str, message: String, source: &str, start: u32, end: u32) -> StripError {
        let start = (start as usize).min(source.len());
        let end = (end as usize).clamp(start, source.len());
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[start..]
            .find('\n')
            .map_or(source.len(), |i| start + i);
        let source_line = source[line_start..line_end].trim_end_matches('\r');
        StripError {
            code,
            message,
            line: source[..start].matches('\n').count() + 1,
            column: source[line_start..start].chars().count() + 1,
            source_line: source_line.to_string(),
            width: source[start..end.min(line_end)].chars().count().max(1),
        }
    }
}

/// As Node prints it: the place, the line with the construct underlined, then the error.
impl fmt::Display for StripError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "program.ts:{}", self.line)?;
        writeln!(f, "{}", self.source_line)?;
        writeln!(
            f,
            "{}{}",
            " ".repeat(self.column - 1),
            "^".repeat(self.width)
        )?;
        writeln!(f)?;
        write!(f, "SyntaxError [{}]: {}", self.code, self.message)
    }
}

impl std::error::Error for StripError {}

/// The code of a construct strip-only mode refuses.
pub const UNSUPPORTED: &str = "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX";
/// The code of a program that is not TypeScript.
pub const INVALID: &str = "ERR_INVALID_TYPESCRIPT_SYNTAX";

/// A TypeScript program as JavaScript.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stripped {
    /// The JavaScript: the source with its types blanked.
    pub code: String,
    /// Whether it is an ES module (it imports or exports), as Node decides for a `.ts` file with
    /// no `package.json` around it; otherwise it is CommonJS.
    pub es_module: bool,
}

/// How Node reads a file whose `package.json` says nothing: CommonJS (where a `return` at the
/// top level is allowed) unless it imports or exports.
fn parse_options() -> ParseOptions {
    ParseOptions {
        allow_return_outside_function: true,
        ..ParseOptions::default()
    }
}

/// Parses `source` as `source_type`, keeping the tokens.
fn parse<'a>(
    allocator: &'a Allocator,
    source: &'a str,
    source_type: SourceType,
) -> oxc_parser::ParserReturn<'a> {
    Parser::new(allocator, source, source_type)
        .with_options(parse_options())
        .with_config(TokensParserConfig)
        .parse()
}

/// Whether the JavaScript program `source` is an ES module, as Node decides for a `.js` file
/// with no `package.json` around it: it has `import` or `export` declarations (or
/// `import.meta`), or it parses only as a module (a top-level `await`). A program that parses
/// neither way is not one (the engine then reports its error).
pub fn is_es_module(source: &str) -> bool {
    // Cheap first: most programs say none of these words.
    if !["import", "export", "await"]
        .iter()
        .any(|word| source.contains(word))
    {
        return false;
    }
    let allocator = Allocator::default();
    let parsed = parse(&allocator, source, SourceType::cjs().with_unambiguous(true));
    if parsed.diagnostics.is_empty() {
        return parsed.module_record.has_module_syntax;
    }
    parse(&allocator, source, SourceType::mjs())
        .diagnostics
        .is_empty()
}

/// `source` (TypeScript) as the JavaScript Node would run, or why it cannot be.
pub fn strip(source: &str) -> Result<Stripped, StripError> {
    let allocator = Allocator::default();
    let mut parsed = parse(&allocator, source, SourceType::ts().with_unambiguous(true));
    if !parsed.diagnostics.is_empty() {
        // A top-level `await` makes a module of a file that neither imports nor exports.
        let as_module = parse(&allocator, source, SourceType::ts());
        if as_module.diagnostics.is_empty() {
            parsed = as_module;
        }
    }
    if let Some(error) = parsed.diagnostics.iter().next() {
        let (start, end) = error
            .labels
            .first()
            .map_or((0, 0), |l| (l.offset(), l.offset() + l.len()));
        return Err(StripError::at(
            INVALID,
            error.message.to_string(),
            source,
            start,
            end,
        ));
    }
    let mut stripper = Stripper::new(Edits::new(source, &parsed.tokens));
    stripper.visit_program(&parsed.program);
    if let Some((message, span)) = stripper.refused {
        return Err(StripError::at(
            UNSUPPORTED,
            message.to_string(),
            source,
            span.start,
            span.end,
        ));
    }
    let code = stripper.edits.finish();
    // Node tells a module from CommonJS by the JavaScript that remains: `import type` alone
    // leaves none.
    let es_module = is_es_module(&code);
    Ok(Stripped { code, es_module })
}

#[cfg(test)]
mod tests;
