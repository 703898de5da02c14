//! The answer of a task that has no `reference`, read by the task's own verifier.
//!
//! - With a known-good `solution` (a `regex` task, say): candidates from the solution (the last
//!   boxed answer, what follows "answer is", the last number, the last line, the whole text) are
//!   scored as the verifier would score completions; the first it accepts is the answer the answer
//!   attacks start from.
//! - With neither (a `regex` task given only its pattern; Tier 5 only): the shortest strings the
//!   pattern describes (each alternative, two members of each character class), scored the same
//!   way. When the verifier accepts exactly one of them, that is the answer; when it accepts
//!   several different ones, no answer is derived and they are kept: the verifier cannot say
//!   which is right.

use super::{AuditTask, TaskReport};
use rewardbox::{Scorer, Task};
use serde_json::Value;

/// Possible final answers in `solution`, most answer-like first, without repeats.
pub fn answer_candidates(solution: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let text = solution.trim();
    if let Some(at) = text.rfind("\\boxed{") {
        let inner = &text[at + 7..];
        let mut depth = 1;
        if let Some(end) = inner.char_indices().find_map(|(i, c)| {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        }) {
            found.push(inner[..end].to_string());
        }
    }
    let lower = text.to_ascii_lowercase();
    for anchor in ["answer is", "answer:"] {
        if let Some(at) = lower.rfind(anchor) {
            let rest = text[at + anchor.len()..].trim_start();
            let end = rest.find(['\n']).unwrap_or(rest.len());
            found.push(rest[..end].trim_end_matches(['.', ' ']).to_string());
        }
    }
    if let Some(number) = last_number(text) {
        found.push(number);
    }
    if let Some(line) = text.lines().rev().find(|l| !l.trim().is_empty()) {
        found.push(line.trim().to_string());
    }
    found.push(text.to_string());
    let mut out: Vec<String> = Vec::new();
    for candidate in found {
        let candidate = candidate.trim().to_string();
        if !candidate.is_empty() && !out.contains(&candidate) {
            out.push(candidate);
        }
    }
    out
}

/// The last number written in `text` (`-3`, `391`, `2.5`).
fn last_number(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let end = b.iter().rposition(u8::is_ascii_digit)? + 1;
    let mut start = end;
    while start > 0 && (b[start - 1].is_ascii_digit() || b[start - 1] == b'.') {
        start -= 1;
    }
    if start > 0 && b[start - 1] == b'-' {
        start -= 1;
    }
    Some(text[start..end].trim_start_matches('.').to_string())
}

/// Most examples drawn from one pattern.
const MOST_EXAMPLES: usize = 12;

/// The shortest strings `pattern` describes, a few of them: each alternative, each repetition at
/// its fewest (one for `*`-free `+`), two members of each character class (a letter and its other
/// case count as one), anchors and word boundaries as nothing. Empty when the pattern does not
/// parse (the verifier says why when it runs).
pub fn pattern_examples(pattern: &str, case_insensitive: bool) -> Vec<String> {
    let Ok(hir) = regex_syntax::ParserBuilder::new()
        .case_insensitive(case_insensitive)
        .build()
        .parse(pattern)
    else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    for example in examples(&hir) {
        let example = example.trim().to_string();
        if !example.is_empty() && !out.contains(&example) {
            out.push(example);
        }
    }
    out
}

fn examples(hir: &regex_syntax::hir::Hir) -> Vec<String> {
    use regex_syntax::hir::{Class, HirKind};
    match hir.kind() {
        HirKind::Empty | HirKind::Look(_) => vec![String::new()],
        HirKind::Literal(literal) => vec![String::from_utf8_lossy(&literal.0).into_owned()],
        HirKind::Class(Class::Unicode(class)) => {
            let chars = class
                .ranges()
                .iter()
                .flat_map(|r| (r.start()..=r.end()).take(256));
            class_members(chars)
        }
        HirKind::Class(Class::Bytes(class)) => {
            let chars = class
                .ranges()
                .iter()
                .flat_map(|r| (r.start()..=r.end()).map(char::from));
            class_members(chars)
        }
        HirKind::Repetition(repetition) => {
            let inner = examples(&repetition.sub);
            let times = repetition.min.min(8) as usize;
            if times == 0 {
                return vec![String::new()];
            }
            inner.into_iter().map(|e| e.repeat(times)).collect()
        }
        HirKind::Capture(capture) => examples(&capture.sub),
        HirKind::Concat(parts) => {
            let mut out = vec![String::new()];
            for part in parts {
                let next = examples(part);
                out = out
                    .iter()
                    .flat_map(|prefix| next.iter().map(move |e| format!("{prefix}{e}")))
                    .take(MOST_EXAMPLES)
                    .collect();
            }
            out
        }
        HirKind::Alternation(branches) => branches
            .iter()
            .flat_map(examples)
            .take(MOST_EXAMPLES)
            .collect(),
    }
}

/// Two members of a character class, the most answer-like first (digits, lower-case letters,
/// upper-case letters, then anything printable); a letter's other case is not a second member.
fn class_members(chars: impl Iterator<Item = char>) -> Vec<String> {
    let mut members: Vec<char> = chars.filter(|c| !c.is_control()).collect();
    let rank = |c: &char| match c {
        '0'..='9' => 0,
        'a'..='z' => 1,
        'A'..='Z' => 2,
        c if c.is_alphanumeric() => 3,
        ' ' => 5,
        _ => 4,
    };
    members.sort_by_key(|c| (rank(c), *c));
    // Case variants are one member: `k`, `K` and the Kelvin sign; `s`, `S` and the long s.
    let fold = |c: &str| c.to_uppercase().to_lowercase();
    let mut out: Vec<String> = Vec::new();
    for c in members {
        let c = c.to_string();
        if out.iter().all(|o| fold(o) != fold(&c)) {
            out.push(c);
        }
        if out.len() == 2 {
            break;
        }
    }
    out
}

/// Fills in `derived_answer` for every task without a `reference` that has a `solution` and a
/// verifier that judges answers (not `code`, nor a verifier of the task's own that judges
/// programs: their solutions are programs): one scoring batch for all of them.
pub fn derive_answers(
    scorer: &Scorer,
    tasks: &mut [Result<AuditTask, Box<TaskReport>>],
    threshold: f64,
) {
    derive(scorer, tasks, threshold, false);
}

/// [`derive_answers`], and for every `regex` task with neither `reference` nor `solution`, the
/// answer from its pattern: the one bare string it accepts of those the pattern describes
/// ([`pattern_examples`]), else `accepted_answers` when it accepts several different ones.
/// Tier 5 uses this; Tier 1 does not, since a pattern alone cannot tell an answer task from one
/// that asks for a mention (`"search": true` for a keyword), where several answers are no cheat.
pub fn derive_answers_from_patterns_too(
    scorer: &Scorer,
    tasks: &mut [Result<AuditTask, Box<TaskReport>>],
    threshold: f64,
) {
    derive(scorer, tasks, threshold, true);
}

fn derive(
    scorer: &Scorer,
    tasks: &mut [Result<AuditTask, Box<TaskReport>>],
    threshold: f64,
    from_patterns: bool,
) {
    let mut asked: Vec<(usize, Vec<String>, Task)> = Vec::new();
    for (index, task) in tasks.iter().enumerate() {
        let Ok(task) = task else { continue };
        if task.reference().is_some()
            || task.verifier() == "code"
            || task.own_verifier_judges_programs()
        {
            continue;
        }
        let candidates = match &task.solution {
            Some(solution) => answer_candidates(solution),
            None if from_patterns && task.verifier() == "regex" => {
                let Some(pattern) = task.fields.get("pattern").and_then(Value::as_str) else {
                    continue;
                };
                let folded = task
                    .fields
                    .get("case_insensitive")
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                pattern_examples(pattern, folded)
            }
            None => continue,
        };
        if candidates.is_empty() {
            continue;
        }
        let mut value = Value::Object(task.fields.clone());
        value["completions"] = Value::from(candidates.clone());
        if let Ok(scoring) = Task::from_value(value) {
            asked.push((index, candidates, scoring));
        }
    }
    if asked.is_empty() {
        return;
    }
    let scoring: Vec<Task> = asked.iter().map(|(_, _, t)| t.clone()).collect();
    let results = scorer.score_tasks(&scoring);
    for ((index, candidates, _), result) in asked.into_iter().zip(results) {
        let accepted: Vec<String> = candidates
            .into_iter()
            .zip(&result.results)
            .filter(|(_, r)| r.score >= threshold)
            .map(|(c, _)| c)
            .collect();
        let Ok(task) = &mut tasks[index] else {
            continue;
        };
        if task.solution.is_some() || accepted.len() == 1 {
            task.derived_answer = accepted.into_iter().next();
        } else if accepted.len() > 1 {
            task.accepted_answers = accepted;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn candidates_are_the_likely_answers_most_likely_first() {
        assert_eq!(answer_candidates("391"), vec!["391"]);
        let c = answer_candidates("We add them.\nThe answer is $\\boxed{\\frac{1}{2}}$.");
        assert_eq!(c[0], "\\frac{1}{2}");
        assert!(c.contains(&"2".to_string()), "{c:?}");
        let c = answer_candidates("17 * 23 = 391, so the answer is 391.");
        assert_eq!(c[0], "391");
        assert_eq!(last_number("it is -2.5 now").as_deref(), Some("-2.5"));
    }

    /// The shortest strings a pattern describes: every alternative, a repetition at its fewest,
    /// two members of a class (case variants one), anchors and boundaries as nothing.
    #[test]
    fn a_pattern_gives_its_shortest_examples() {
        let table: &[(&str, bool, &[&str])] = &[
            (r"42", false, &["42"]),
            (r"^\s*42\.?\s*$", false, &["42"]),
            (r"\bParis\b", false, &["Paris"]),
            (r"(?i)paris", false, &["paris"]),
            (r"paris", true, &["paris"]),
            (r"-?\d+", false, &["0", "1"]),
            (r"[0-9]+", false, &["0", "1"]),
            (r"(yes|no)", false, &["yes", "no"]),
            (r"answer: (7|seven)", false, &["answer: 7", "answer: seven"]),
            (r"x{3}", false, &["xxx"]),
            (r"\(", false, &["("]),
        ];
        for (pattern, folded, expected) in table {
            assert_eq!(pattern_examples(pattern, *folded), *expected, "{pattern}");
        }
        assert!(pattern_examples("(", false).is_empty());
    }
}
