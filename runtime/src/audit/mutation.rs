//! Mutation fuzzing: small changes to the task's known-good solution (operators, comparisons,
//! constants, deleted lines). A mutant that scores as high as the solution is one the tests cannot
//! tell from it: a weak-test finding.

use super::{Attack, Expect, Family};

/// Most mutants tried per task.
pub const MAX_MUTANTS: usize = 40;

const SWAPS: &[(&str, &str)] = &[
    (" + ", " - "),
    (" - ", " + "),
    (" * ", " + "),
    (" // ", " * "),
    (" / ", " * "),
    (" % ", " // "),
    (" <= ", " < "),
    (" >= ", " > "),
    (" < ", " <= "),
    (" > ", " >= "),
    (" == ", " != "),
    (" != ", " == "),
    (" and ", " or "),
    (" or ", " and "),
    ("True", "False"),
    ("False", "True"),
    ("+= 1", "+= 2"),
    ("-= 1", "-= 2"),
];

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
        for (from, to) in SWAPS {
            if let Some(at) = line.find(from) {
                push(
                    format!("mutant-line{}-{}", i + 1, from.trim()),
                    format!("{}{}{}", &line[..at], to, &line[at + from.len()..]),
                );
            }
        }
        if let Some((start, end)) = first_integer(line) {
            let n: i64 = line[start..end].parse().unwrap_or(0);
            push(
                format!("mutant-line{}-constant", i + 1),
                format!("{}{}{}", &line[..start], n + 1, &line[end..]),
            );
        }
        let t = line.trim_start();
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
        assert!(
            m.iter()
                .all(|a| a.completion.starts_with("```python\ndef add(a, b):"))
        );
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
