//! Mutation fuzzing: small changes to the task's known-good solution. Every arithmetic,
//! comparison, boolean and augmented-assignment operator is swapped for each other of its family
//! (spaced or not: `a+b` and `a + b`), integer constants become n+1, n-1, 0 and 1, returned values
//! become constants, `not` is dropped and lines are deleted. A mutant that scores as high as the
//! solution is one the tests cannot tell from it: a weak-test finding.

use super::{Attack, Expect, Family};

/// Most mutants tried per task.
pub const MAX_MUTANTS: usize = 60;

/// Operator families: each operator found is replaced by every other of its family.
const FAMILIES: &[&[&str]] = &[
    &["+", "-", "*", "/", "//", "%", "**"],
    &["<", "<=", ">", ">=", "==", "!="],
    &["+=", "-=", "*=", "/=", "//=", "%="],
];

/// Word swaps, matched as whole words.
const WORD_SWAPS: &[(&str, &str)] = &[
    ("and", "or"),
    ("or", "and"),
    ("True", "False"),
    ("False", "True"),
];

/// Characters operators are made of: an operator's neighbours must not be one of them.
const OPERATOR_CHARS: &[u8] = b"+-*/%<>=!";

/// The first place `op` is used as a binary operator in `line`: between an operand (a name, a
/// number, a closing bracket) and another (or an opening bracket), not part of a longer operator.
fn binary_operator(line: &str, op: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut from = 0;
    while let Some(rel) = line[from..].find(op) {
        let at = from + rel;
        let end = at + op.len();
        from = at + 1;
        if at > 0 && OPERATOR_CHARS.contains(&b[at - 1])
            || b.get(end).is_some_and(|c| OPERATOR_CHARS.contains(c))
        {
            continue;
        }
        let before = line[..at].trim_end().bytes().last();
        let after = line[end..].trim_start().bytes().next();
        let operand_before =
            before.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b')' | b']' | b'_'));
        let operand_after = after
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'(' | b'[' | b'_' | b'-'));
        if operand_before && operand_after {
            return Some(at);
        }
    }
    None
}

/// The first whole-word use of `word` in `line`.
fn whole_word(line: &str, word: &str) -> Option<usize> {
    let b = line.as_bytes();
    let is_word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    line.match_indices(word).map(|(i, _)| i).find(|&i| {
        (i == 0 || !is_word(b[i - 1])) && b.get(i + word.len()).is_none_or(|c| !is_word(*c))
    })
}

/// The program inside a completion: its last fenced block, else the whole text.
fn program_of(completion: &str) -> (String, String, String) {
    if let Some(open) = completion
        .rfind("```python")
        .or_else(|| completion.rfind("```py"))
    {
        let body_start = completion[open..]
            .find('\n')
            .map_or(completion.len(), |n| open + n + 1);
        if let Some(close) = completion[body_start..].find("```") {
            let close = body_start + close;
            return (
                completion[..body_start].to_string(),
                completion[body_start..close].to_string(),
                completion[close..].to_string(),
            );
        }
    }
    (String::new(), completion.to_string(), String::new())
}

fn is_mutable(line: &str) -> bool {
    let t = line.trim_start();
    !(t.is_empty()
        || t.starts_with('#')
        || t.starts_with("def ")
        || t.starts_with("class ")
        || t.starts_with("import ")
        || t.starts_with("from ")
        || t.starts_with('@')
        || t.contains('"')
        || t.contains('\''))
}

/// Mutants of `solution`, at most [`MAX_MUTANTS`], spread over its lines.
pub fn mutants(solution: &str) -> Vec<Attack> {
    let (head, program, tail) = program_of(solution);
    let lines: Vec<&str> = program.lines().collect();
    let mut found: Vec<(String, String)> = Vec::new();
    let mut in_docstring = false;
    for (i, line) in lines.iter().enumerate() {
        // Text inside triple-quoted strings (docstrings) is not code.
        let quotes = line.matches("\"\"\"").count() + line.matches("'''").count();
        let was_in = in_docstring;
        if quotes % 2 == 1 {
            in_docstring = !in_docstring;
        }
        if was_in || quotes > 0 || !is_mutable(line) {
            continue;
        }
        let mut push = |name: String, new_line: String| {
            let mut copy: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
            copy[i] = new_line;
            found.push((name, format!("{head}{}\n{tail}", copy.join("\n"))));
        };
        for family in FAMILIES {
            for op in *family {
                let Some(at) = binary_operator(line, op) else {
                    continue;
                };
                for other in family.iter().filter(|o| *o != op) {
                    push(
                        format!("mutant-line{}-{op}-to-{other}", i + 1),
                        format!("{}{other}{}", &line[..at], &line[at + op.len()..]),
                    );
                }
            }
        }
        for (from, to) in WORD_SWAPS {
            if let Some(at) = whole_word(line, from) {
                push(
                    format!("mutant-line{}-{from}-to-{to}", i + 1),
                    format!("{}{to}{}", &line[..at], &line[at + from.len()..]),
                );
            }
        }
        if let Some(at) = whole_word(line, "not") {
            let rest = line[at + 3..].trim_start();
            push(
                format!("mutant-line{}-drop-not", i + 1),
                format!("{}{rest}", &line[..at]),
            );
        }
        if let Some((start, end)) = first_integer(line) {
            let n: i64 = line[start..end].parse().unwrap_or(0);
            let mut values = vec![n + 1, n - 1, 0, 1];
            values.retain(|v| *v != n);
            values.dedup();
            for v in values {
                push(
                    format!("mutant-line{}-constant-{v}", i + 1),
                    format!("{}{v}{}", &line[..start], &line[end..]),
                );
            }
        }
        let t = line.trim_start();
        if let Some(value) = t.strip_prefix("return ") {
            let indent = &line[..line.len() - t.len()];
            for constant in ["0", "1", "None"] {
                if value.trim() != constant {
                    push(
                        format!("mutant-line{}-return-{constant}", i + 1),
                        format!("{indent}return {constant}"),
                    );
                }
            }
        }
        if !t.ends_with(':')
            && !t.starts_with("return")
            && !t.starts_with("elif")
            && !t.starts_with("else")
        {
            let indent = &line[..line.len() - t.len()];
            push(
                format!("mutant-line{}-deleted", i + 1),
                format!("{indent}pass"),
            );
        }
    }
    let step = found.len().div_ceil(MAX_MUTANTS).max(1);
    found
        .into_iter()
        .step_by(step)
        .take(MAX_MUTANTS)
        .map(|(name, completion)| Attack {
            name,
            family: Family::Mutation,
            completion,
            expect: Expect::Mutant,
        })
        .collect()
}

fn first_integer(line: &str) -> Option<(usize, usize)> {
    let b = line.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit()
            && (i == 0
                || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_' || b[i - 1] == b'.'))
        {
            let start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'.' || b[i].is_ascii_alphabetic()) {
                continue;
            }
            return Some((start, i));
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutates_operators_constants_and_lines() {
        let solution = "```python\ndef add(a, b):\n    s = a + b\n    return s * 1\n```";
        let m = mutants(solution);
        let texts: Vec<&str> = m.iter().map(|a| a.completion.as_str()).collect();
        assert!(texts.iter().any(|t| t.contains("s = a - b")), "{texts:?}");
        assert!(
            texts.iter().any(|t| t.contains("return s * 2")),
            "{texts:?}"
        );
        assert!(texts.iter().any(|t| t.contains("    pass")), "{texts:?}");
        assert!(texts.iter().any(|t| t.contains("s = a * b")), "{texts:?}");
        assert!(texts.iter().any(|t| t.contains("return 0")), "{texts:?}");
        assert!(
            m.iter()
                .all(|a| a.completion.starts_with("```python\ndef add(a, b):"))
        );
    }

    #[test]
    fn swaps_every_operator_of_a_family_spaced_or_not() {
        let m = mutants("```python\na, b = map(int, input().split())\nprint(a+b)\n```");
        let texts: Vec<&str> = m.iter().map(|a| a.completion.as_str()).collect();
        for swapped in [
            "print(a-b)",
            "print(a*b)",
            "print(a**b)",
            "print(a//b)",
            "print(a%b)",
        ] {
            assert!(
                texts.iter().any(|t| t.contains(swapped)),
                "{swapped}: {texts:?}"
            );
        }
        let m = mutants(
            "```python\ndef f(x):\n    if x <= 3 and not x == 0:\n        x += 2\n    return x\n```",
        );
        let texts: Vec<&str> = m.iter().map(|a| a.completion.as_str()).collect();
        for swapped in [
            "x < 3",
            "x >= 3",
            "x != 0",
            " or ",
            "if x <= 3 and x == 0",
            "x -= 2",
            "x *= 2",
        ] {
            assert!(
                texts.iter().any(|t| t.contains(swapped)),
                "{swapped}: {texts:?}"
            );
        }
        assert_eq!(
            binary_operator("y = -x", "-"),
            None,
            "a sign is not a binary operator"
        );
        assert_eq!(binary_operator("y = a ** b", "*"), None);
        assert_eq!(binary_operator("y = a ** b", "**"), Some(6));
    }

    #[test]
    fn leaves_docstrings_alone() {
        let solution = "```python\ndef f(x):\n    \"\"\"\n    Return x + 1 when x > 0.\n    \"\"\"\n    return x\n```";
        let m = mutants(solution);
        assert!(
            m.iter()
                .all(|a| a.completion.contains("Return x + 1 when x > 0.")),
            "{m:?}"
        );
    }
}
