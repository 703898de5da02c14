//! The default output validator of the Kattis problem package format, as problemtools'
//! `default_validator` judges: the output and the answer compared token by token, strings without
//! regard to ASCII case unless `case_sensitive`, white space only separating tokens unless
//! `space_change_sensitive`, and, when a float tolerance is set, every answer token that reads as
//! a float (integers included: `1000001` is within 1e-6 of `1000000`) compared by value, accepted
//! within the absolute or the relative tolerance (relative to the answer).
//!
//! Tokens read as floats the way glibc's `scanf` reads them ([`crate::kinds::contest::scanf_float`]). The
//! messages are the validator's `judgemessage.txt`, shortened to one line.

use crate::kinds::contest::scanf_float;

/// The validator's flags (`validator_flags` of `problem.yaml`, a test group's
/// `output_validator_flags`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Flags {
    /// `case_sensitive`: string tokens must be equal byte for byte.
    pub case_sensitive: bool,
    /// `space_change_sensitive`: the white space between, before and after tokens must be the
    /// answer's, character for character.
    pub space_change_sensitive: bool,
    /// `float_absolute_tolerance ε` (or `float_tolerance ε`).
    pub absolute: Option<f64>,
    /// `float_relative_tolerance ε` (or `float_tolerance ε`).
    pub relative: Option<f64>,
}

impl Flags {
    /// Reads the flags as the validator's command line gives them. A flag it does not know, or a
    /// tolerance that is not a number, is an error naming it (the validator itself would stop
    /// with a judge error). A flag given twice keeps its last value, as the validator does.
    pub fn parse<S: AsRef<str>>(args: &[S]) -> Result<Flags, String> {
        let mut flags = Flags::default();
        let mut args = args.iter().map(AsRef::as_ref);
        while let Some(arg) = args.next() {
            let mut tolerance = || {
                let value = args.next().ok_or_else(|| format!("{arg} needs a value"))?;
                scanf_float::parse(value.as_bytes())
                    .ok_or_else(|| format!("{arg} {value:?}: the value is not a number"))
            };
            match arg {
                "case_sensitive" => flags.case_sensitive = true,
                "space_change_sensitive" => flags.space_change_sensitive = true,
                "float_absolute_tolerance" => flags.absolute = Some(tolerance()?),
                "float_relative_tolerance" => flags.relative = Some(tolerance()?),
                "float_tolerance" => {
                    let t = tolerance()?;
                    flags.absolute = Some(t);
                    flags.relative = Some(t);
                }
                other => {
                    return Err(format!(
                        "{other:?} is not a flag of the default output validator (case_sensitive, \
                         space_change_sensitive, float_tolerance ε, float_absolute_tolerance ε, \
                         float_relative_tolerance ε)"
                    ));
                }
            }
        }
        Ok(flags)
    }

    fn uses_floats(&self) -> bool {
        self.absolute.is_some_and(|t| t >= 0.0) || self.relative.is_some_and(|t| t >= 0.0)
    }
}

/// The default validator's judgement.
#[derive(Debug, Clone, PartialEq)]
pub enum Judgement {
    /// The output is accepted (exit code 42).
    Accepted,
    /// Wrong answer (exit code 43), with the validator's message.
    Wrong(String),
}

/// White space as C's `isspace` sees it in the C locale.
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

/// One side of the comparison: a byte cursor that counts lines.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Cursor<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn next_byte(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        if b == b'\n' {
            self.line += 1;
        }
        Some(b)
    }

    /// The next token, white space before it skipped (as `istream >> string` does).
    fn token(&mut self) -> Option<&'a [u8]> {
        while self.peek().is_some_and(is_space) {
            self.next_byte();
        }
        let start = self.pos;
        while self.peek().is_some_and(|b| !is_space(b)) {
            self.pos += 1;
        }
        (self.pos > start).then(|| &self.bytes[start..self.pos])
    }
}

/// A token for a message: at most about 30 bytes of it, as the validator truncates.
fn shown(token: &[u8]) -> String {
    const LIMIT: usize = 30;
    let text = String::from_utf8_lossy(token);
    if token.len() <= LIMIT + 5 {
        return text.into_owned();
    }
    let cut: String = text.chars().take(LIMIT).collect();
    format!("{cut}...")
}

/// How a C `%d` shows a byte the validator read with `get()` (−1 at the end of the output).
fn code(b: Option<u8>) -> i32 {
    b.map_or(-1, i32::from)
}

/// Judges `output` (the submission's) against `answer` (the answer file) with `flags`.
pub fn judge(answer: &[u8], output: &[u8], flags: &Flags) -> Judgement {
    if answer == output {
        return Judgement::Accepted;
    }
    let mut judge = Cursor::new(answer);
    let mut user = Cursor::new(output);
    let wrong = |judge: &Cursor, user: &Cursor, what: String| {
        Judgement::Wrong(format!(
            "wrong answer on line {} of output (line {} of the answer): {what}",
            user.line, judge.line
        ))
    };
    let mut tokens = 0usize;
    loop {
        while judge.peek().is_some_and(is_space) {
            let expected = judge.next_byte();
            if flags.space_change_sensitive {
                let got = user.next_byte();
                if got != expected {
                    let what = format!(
                        "space change error: got {} expected {}",
                        code(got),
                        code(expected)
                    );
                    return wrong(&judge, &user, what);
                }
            }
        }
        while user.peek().is_some_and(is_space) {
            let got = user.next_byte();
            if flags.space_change_sensitive {
                let what = format!(
                    "space change error: judge out of space, got {} from user",
                    code(got)
                );
                return wrong(&judge, &user, what);
            }
        }
        let Some(expected) = judge.token() else {
            break;
        };
        let Some(got) = user.token() else {
            let what = match (tokens, user.pos) {
                (0, 0) => "user output was empty",
                (0, _) => "user output contained only white space",
                _ => "user EOF while judge had more output",
            };
            let what = format!("{what} (next judge token: {})", shown(expected));
            return wrong(&judge, &user, what);
        };
        let judge_float = if flags.uses_floats() {
            scanf_float::parse(expected)
        } else {
            None
        };
        if let Some(j) = judge_float {
            let Some(u) = scanf_float::parse(got) else {
                return wrong(
                    &judge,
                    &user,
                    format!("expected float, got: {}", shown(got)),
                );
            };
            let difference = (j - u).abs();
            let within_absolute = flags.absolute.is_some_and(|t| difference <= t);
            let within_relative = flags.relative.is_some_and(|t| difference <= t * j.abs());
            if !within_absolute && !within_relative {
                let what = format!(
                    "too large difference: judge {}, user {}, absolute error {difference:e}",
                    shown(expected),
                    shown(got)
                );
                return wrong(&judge, &user, what);
            }
        } else {
            let equal = if flags.case_sensitive {
                expected == got
            } else {
                expected.eq_ignore_ascii_case(got)
            };
            if !equal {
                let what = format!(
                    "string tokens mismatch: judge {:?}, user {:?}",
                    shown(expected),
                    shown(got)
                );
                return wrong(&judge, &user, what);
            }
        }
        tokens += 1;
    }
    if let Some(extra) = user.token() {
        return wrong(&judge, &user, format!("trailing output: {}", shown(extra)));
    }
    Judgement::Accepted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &str) -> Flags {
        Flags::parse(&args.split_whitespace().collect::<Vec<_>>()).unwrap()
    }

    fn accepted(answer: &str, output: &str, args: &str) -> bool {
        judge(answer.as_bytes(), output.as_bytes(), &flags(args)) == Judgement::Accepted
    }

    #[test]
    fn judgements_as_problemtools_gives_them() {
        // (answer, output, flags, accepted): each row checked against problemtools'
        // default_validator binary.
        let table = [
            ("NO", "no", "", true),
            ("NO", "no", "case_sensitive", false),
            ("é", "É", "", false), // ASCII case only
            ("1000000", "1000001", "float_tolerance 1e-6", true),
            ("1000000", "1000001", "", false),
            ("0", "1e-7", "float_relative_tolerance 1e-6", false),
            ("0", "1e-7", "float_absolute_tolerance 1e-6", true),
            (
                "1",
                "1.0000001",
                "float_absolute_tolerance 1e-6 float_relative_tolerance 0",
                true,
            ),
            ("16", "0x10", "float_tolerance 1e-9", true),
            ("100000", "1e5", "float_tolerance 1e-9", true),
            ("1e400", "1E400", "float_tolerance 0.1", true), // not floats: strings, no case
            ("INF", "inf", "", true),
            ("1e", "1", "float_tolerance 0", true),
            ("a b\n", "a b", "space_change_sensitive", false),
            ("a b", "a b\n", "space_change_sensitive", false),
            ("a  b", "a b", "space_change_sensitive", false),
            ("a\tb", "a b", "space_change_sensitive", false),
            (" a", "a", "space_change_sensitive", false),
            ("a b\n", "a b\n", "space_change_sensitive", true),
            ("a  b\n\n", "a b", "", true),
            ("", "", "", true),
            ("", "  \n", "", true),
            ("a", "", "", false),
            ("", "a", "", false),
            ("1 2", "1 2 3", "", false),
            ("3.14", "3.1400000001", "float_tolerance 1e-6", true),
            ("3.14", "abc", "float_tolerance 1e-6", false),
            ("abc", "ABC", "float_tolerance 1e-6", true), // a string answer token: strings
        ];
        for (answer, output, args, expected) in table {
            assert_eq!(
                accepted(answer, output, args),
                expected,
                "{answer:?} / {output:?} / {args}"
            );
        }
    }

    #[test]
    fn messages_say_where_and_what() {
        let Judgement::Wrong(message) = judge(b"1\n2\nNO\n", b"1\n2\nYES\n", &Flags::default())
        else {
            panic!("a wrong token");
        };
        assert_eq!(
            message,
            "wrong answer on line 3 of output (line 3 of the answer): string tokens mismatch: \
             judge \"NO\", user \"YES\""
        );
        let Judgement::Wrong(message) = judge(b"5", b"", &Flags::default()) else {
            panic!("empty output");
        };
        assert!(
            message.contains("user output was empty (next judge token: 5)"),
            "{message}"
        );
        let Judgement::Wrong(message) = judge(b"5", b"5 6", &Flags::default()) else {
            panic!("trailing output");
        };
        assert!(message.ends_with("trailing output: 6"), "{message}");
    }

    #[test]
    fn flags_are_read_as_the_validator_reads_them() {
        assert_eq!(
            flags("float_tolerance 1e-6 case_sensitive"),
            Flags {
                case_sensitive: true,
                space_change_sensitive: false,
                absolute: Some(1e-6),
                relative: Some(1e-6),
            }
        );
        let last_wins = flags("float_absolute_tolerance 1 float_absolute_tolerance 2");
        assert_eq!(last_wins.absolute, Some(2.0));
        assert!(Flags::parse(&["bogus"]).unwrap_err().contains("\"bogus\""));
        assert!(Flags::parse(&["float_tolerance"]).is_err());
        assert!(Flags::parse(&["float_tolerance", "x"]).is_err());
    }
}
