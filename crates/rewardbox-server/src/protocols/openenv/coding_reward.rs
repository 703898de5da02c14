//! The rewards of OpenEnv's coding environment (`coding_env`), as its clients expect them: its
//! server passes every observation through a safety transform and then a quality transform.
//!
//! - **Safety**: code that matches one of `import\s+os`, `import\s+subprocess`, `eval\(`,
//!   `exec\(`, `__import__`, `open\(` (searched in that order, anywhere in the text) is rewarded
//!   -1.0 and the first pattern found is named in the metadata's `safety_violation`; other code
//!   starts from 0.0.
//! - **Quality**: +0.1 when the code, stripped of surrounding whitespace, is at most 100
//!   characters; -0.2 when it does not parse as Python.
//!
//! So a short safe step earns 0.1, a long one 0.0, `import os` -0.9, a short syntax error -0.1, a
//! long one -0.2; a reset earns 0.0. A step in another language is judged the same way, its
//! "does not parse" being "does not compile" (C, C++, Rust, Go); JavaScript and TypeScript are
//! not parsed apart from their run, and get no syntax penalty.

use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::RunStatus;
use rewardbox::candidates::Runners;

/// How the coding environment rewards a step.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CodingReward {
    /// `coding_env`'s transforms (the default: what its clients expect).
    #[default]
    CodingEnv,
    /// No reward: the environment runs code and does not judge it.
    None,
}

impl CodingReward {
    /// The reward named on the command line: `coding-env` or `none`.
    pub fn parse(name: &str) -> Result<CodingReward, String> {
        match name {
            "coding-env" | "coding_env" => Ok(CodingReward::CodingEnv),
            "none" => Ok(CodingReward::None),
            other => Err(format!(
                "no coding reward named {other:?} (coding-env: OpenEnv coding_env's safety and \
                 quality rewards; none: no reward)"
            )),
        }
    }
}

/// The patterns `coding_env`'s safety transform searches for, in its order, as it names them.
pub const DANGEROUS_PATTERNS: [&str; 6] = [
    r"import\s+os",
    r"import\s+subprocess",
    r"eval\(",
    r"exec\(",
    r"__import__",
    r"open\(",
];

/// The penalty of code that matches a dangerous pattern.
const SAFETY_PENALTY: f64 = -1.0;
/// The bonus of code at most [`CONCISE_CHARACTERS`] long.
const CONCISE_BONUS: f64 = 0.1;
/// The longest code that is concise, in characters once stripped.
const CONCISE_CHARACTERS: usize = 100;
/// The penalty of code that does not parse.
const SYNTAX_PENALTY: f64 = -0.2;

/// A step's reward: the code's text, and whether it parses in its language. Also the pattern
/// that made it unsafe, if one did.
pub fn step_reward(code: &str, parses: bool) -> (f64, Option<&'static str>) {
    let violation = first_dangerous_pattern(code);
    let mut reward = if violation.is_some() {
        SAFETY_PENALTY
    } else {
        0.0
    };
    if python_strip(code).chars().count() <= CONCISE_CHARACTERS {
        reward += CONCISE_BONUS;
    }
    if !parses {
        reward += SYNTAX_PENALTY;
    }
    (reward, violation)
}

/// The reward of a reset: the quality transform's 0.0 (there is no code to judge).
pub const RESET_REWARD: f64 = 0.0;

/// The first of [`DANGEROUS_PATTERNS`] found anywhere in `code`.
fn first_dangerous_pattern(code: &str) -> Option<&'static str> {
    let import_then = |module: &str| {
        code.match_indices("import").any(|(at, word)| {
            let rest = &code[at + word.len()..];
            let name = rest.trim_start_matches(python_space);
            name.len() < rest.len() && name.starts_with(module)
        })
    };
    let found = [
        import_then("os"),
        import_then("subprocess"),
        code.contains("eval("),
        code.contains("exec("),
        code.contains("__import__"),
        code.contains("open("),
    ];
    DANGEROUS_PATTERNS
        .iter()
        .zip(found)
        .find_map(|(pattern, found)| found.then_some(*pattern))
}

/// Whether Python's `str.isspace` (and so `\s` and `str.strip`) takes `c` as whitespace: Unicode's
/// white space and the four separators U+001C to U+001F.
fn python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// `code.strip()`, as Python strips.
fn python_strip(code: &str) -> &str {
    code.trim_matches(python_space)
}

/// A Python program that exits 0 when its standard input parses as Python (`ast.parse`) and 3
/// when it is a syntax error.
const PARSE_CHECK: &str = "import ast, sys\ntry:\n    ast.parse(sys.stdin.buffer.read().decode('utf-8'))\nexcept SyntaxError:\n    sys.exit(3)\n";

/// Whether `code` parses as Python, checked in a sandbox of its own (as `coding_env` calls
/// `ast.parse`): a check the code makes fail some other way (nesting that exhausts the parser,
/// say) is a parse failure too, the code's own doing. `Err` when this host cannot run the check.
pub fn parses_as_python(runners: &Runners, code: &str, seed: u64) -> Result<bool, String> {
    let outcome = runners.run(
        "python@cpython",
        PARSE_CHECK,
        code,
        &CANDIDATE_DEFAULT,
        seed,
    );
    match outcome.status {
        RunStatus::Ok => Ok(true),
        RunStatus::Unsupported => Err(format!(
            "cannot check the code's syntax for its reward: {}",
            outcome.stderr.trim()
        )),
        _ => Ok(false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coding_envs_rewards() {
        let long = format!(
            "x = 1\n{}",
            "# a comment that makes the code long\n".repeat(4)
        );
        assert!(python_strip(&long).chars().count() > CONCISE_CHARACTERS);
        let table: &[(&str, bool, f64, Option<&str>)] = &[
            ("x = 5", true, 0.1, None),
            (&long, true, 0.0, None),
            ("import os", true, -0.9, Some(r"import\s+os")),
            (
                "import\t\n  subprocess",
                true,
                -0.9,
                Some(r"import\s+subprocess"),
            ),
            ("import osmosis", true, -0.9, Some(r"import\s+os")),
            ("importos", true, 0.1, None),
            ("print(eval('1'))", true, -0.9, Some(r"eval\(")),
            ("exec('x=1')", true, -0.9, Some(r"exec\(")),
            ("m = __import__('math')", true, -0.9, Some("__import__")),
            ("f = open('x')", true, -0.9, Some(r"open\(")),
            ("eval('1'); import os", true, -0.9, Some(r"import\s+os")),
            ("print('Hello'", false, -0.1, None),
            (&format!("{long}print("), false, -0.2, None),
            ("open(", false, -1.1, Some(r"open\(")),
        ];
        for &(code, parses, reward, violation) in table {
            let (got, named) = step_reward(code, parses);
            assert!((got - reward).abs() < 1e-12, "{code:?}: {got} != {reward}");
            assert_eq!(named, violation, "{code:?}");
        }
        // Python's strip takes the separators U+001C..U+001F and Unicode spaces.
        assert_eq!(python_strip("\u{1c}\u{3000} x \u{85}"), "x");
        assert_eq!(
            CodingReward::parse("none"),
            Ok(CodingReward::None),
            "the other reward"
        );
        assert!(
            CodingReward::parse("shaped")
                .unwrap_err()
                .contains("coding-env")
        );
    }
}
