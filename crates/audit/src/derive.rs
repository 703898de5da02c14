//! The answer of a task that has a known-good `solution` but no `reference` (a `regex` task, say):
//! read from the solution by the task's own verifier. Candidates (the last boxed answer, what
//! follows "answer is", the last number, the last line, the whole text) are scored as the
//! verifier would score completions; the first it accepts is the answer the answer attacks start
//! from.

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

/// Fills in `derived_answer` for every task without a `reference` that has a `solution` and a
/// verifier other than `code` (whose solutions are programs): one scoring batch for all of them.
pub fn derive_answers(
    scorer: &Scorer,
    tasks: &mut [Result<AuditTask, Box<TaskReport>>],
    threshold: f64,
) {
    let mut asked: Vec<(usize, Vec<String>, Task)> = Vec::new();
    for (index, task) in tasks.iter().enumerate() {
        let Ok(task) = task else { continue };
        let Some(solution) = &task.solution else {
            continue;
        };
        if task.reference().is_some() || task.verifier() == "code" {
            continue;
        }
        let candidates = answer_candidates(solution);
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
        let accepted = candidates
            .into_iter()
            .zip(&result.results)
            .find(|(_, r)| r.score >= threshold)
            .map(|(c, _)| c);
        if let Ok(task) = &mut tasks[index] {
            task.derived_answer = accepted;
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
}
