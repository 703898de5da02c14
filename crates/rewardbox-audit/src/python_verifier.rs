//! Attacks on Python verifiers that judge a program (DeepGym's `verify(solution_path, ...)`, or a
//! `verify(task, completion)` that loads the completion): the program cheats of [`program`] as
//! every function the verifier calls on the solution or the prompt names, and a solution that
//! returns the first test case's expected value whatever it is asked.
//!
//! The functions come from the verifier's source (`name` in `sol.name(...)` or `getattr(sol,
//! "name")`, where `sol` holds what `load_solution(...)` returned, or `namespace["name"]`) and from
//! the prompt (`def name(` and `` `name(``), as DeepGym's own adversarial tester finds them.

use super::program::function_cheats;
use super::{Attack, AuditTask, Family};
use serde_json::Value;

/// At most this many functions are attacked.
const MAX_ENTRIES: usize = 3;

/// Whether `word` can be a Python function name.
fn identifier(word: &str) -> bool {
    word.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !word.starts_with("__")
}

/// The identifier that ends at byte `end` of `text`.
fn identifier_before(text: &str, end: usize) -> Option<&str> {
    let start = text[..end]
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let word = &text[start..end];
    identifier(word).then_some(word)
}

/// The identifier that starts at byte `start` of `text`.
fn identifier_at(text: &str, start: usize) -> Option<&str> {
    let rest = &text[start..];
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let word = &rest[..end];
    identifier(word).then_some(word)
}

/// The names the verifier binds to a loaded solution.
fn solution_variables(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (at, _) in code.match_indices("load_solution(") {
        let line_start = code[..at].rfind('\n').map_or(0, |i| i + 1);
        let before = &code[line_start..at];
        if let Some((target, _)) = before.split_once('=')
            && let Some(name) = identifier_at(target.trim(), 0)
            && name == target.trim()
        {
            names.push(name.to_string());
        }
    }
    names
}

/// The functions the verifier calls on the solution and the prompt names, in that order.
pub fn entry_points(verifier_code: &str, prompt: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if !found.iter().any(|f| f == name) {
            found.push(name.to_string());
        }
    };
    for variable in solution_variables(verifier_code) {
        let dotted = format!("{variable}.");
        for (at, _) in verifier_code.match_indices(&dotted) {
            let preceded = verifier_code[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
            if !preceded && let Some(name) = identifier_at(verifier_code, at + dotted.len()) {
                add(name);
            }
        }
        for quote in ['"', '\''] {
            let pattern = format!("getattr({variable}, {quote}");
            for (at, _) in verifier_code.match_indices(&pattern) {
                if let Some(name) = identifier_at(verifier_code, at + pattern.len()) {
                    add(name);
                }
            }
        }
    }
    for (at, _) in prompt.match_indices("def ") {
        if let Some(name) = identifier_at(prompt, at + 4) {
            add(name);
        }
    }
    for (at, _) in prompt.match_indices('(') {
        if at > 0
            && let Some(name) = identifier_before(prompt, at)
            && prompt[..at - name.len()].ends_with('`')
        {
            add(name);
        }
    }
    found.truncate(MAX_ENTRIES);
    found
}

/// The expected value of the task's first test case (`expected`, `output` or `answer`).
fn first_expected(task: &AuditTask) -> Option<&Value> {
    let first = task.fields.get("test_cases")?.as_array()?.first()?;
    ["expected", "output", "answer"]
        .iter()
        .find_map(|key| first.get(*key))
}

/// The attacks for a Python verifier that judges a program.
pub fn attacks(task: &AuditTask) -> Vec<Attack> {
    let code = task.text("verifier_code").unwrap_or("");
    let prompt = task.prompt().unwrap_or("");
    let entries = entry_points(code, prompt);
    let several = entries.len() > 1;
    let mut out = Vec::new();
    for entry in &entries {
        for mut attack in function_cheats(entry) {
            if several {
                attack.name = format!("{}@{entry}", attack.name);
            }
            out.push(attack);
        }
        if let Some(expected) = first_expected(task) {
            let program = format!(
                "```python\nimport json\ndef {entry}(*args, **kwargs):\n    return json.loads({:?})\n```",
                expected.to_string()
            );
            let name = if several {
                format!("hardcode-first-case-value@{entry}")
            } else {
                "hardcode-first-case-value".into()
            };
            out.push(Attack::wrong(Family::Program, name, program));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_functions_a_verifier_calls_and_a_prompt_names() {
        let verifier = "from deepgym_solution import load_solution\n\
                        def verify(solution_path, test_cases_path=None):\n    \
                        sol = load_solution(solution_path)\n    \
                        fn = getattr(sol, 'two_sum')\n    \
                        ok = sol.is_valid(1) and notsol.other(2)\n    \
                        return {'score': float(ok)}\n";
        let prompt = "Write `max_profit(prices)` and also def helper(x): ...";
        assert_eq!(
            entry_points(verifier, prompt),
            ["is_valid", "two_sum", "helper"]
        );
        assert_eq!(entry_points("", "Implement `solve(n)`."), ["solve"]);
        assert!(entry_points("x = 1", "no code here").is_empty());
    }
}
