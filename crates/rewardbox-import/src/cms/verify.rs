//! The jury's solutions judged by rewardbox, each against its TPS verdict: `model_solution` and
//! `correct` every point; `incorrect` a wrong answer on some test and not every point;
//! `partially_correct` some points but not all; `time_limit`, `memory_limit`, `runtime_error`
//! (or `time_limit_and_runtime_error`) a test that ended so; `failed` not every point.

use crate::cms::package::{Task, Verdict};
use crate::cms::task::{languages, task};
use crate::kattis::TaskShape;
use crate::kattis::verify::completion_verdict;
use rewardbox::{CaseResult, CaseStatus, Scorer, Task as ScoredTask};
use std::collections::BTreeMap;

/// One solution's check.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Its path in the task.
    pub solution: String,
    /// Its verdict in `solutions.json`.
    pub verdict: Verdict,
    /// rewardbox's verdict (`AC`, `WA`, `PC`, `TLE`, ..., `JE` for a judge error) and what its
    /// tests ended with, or why it was not judged.
    pub got: Result<String, String>,
    /// Its score in [0, 1].
    pub score: f64,
    /// The verdict's detail.
    pub detail: String,
    /// Its judged tests, in the order they were judged.
    pub cases: Vec<CaseResult>,
}

impl Check {
    /// Whether rewardbox's judging shows what the verdict asks.
    pub fn agrees(&self) -> bool {
        if self.got.as_deref().map_or(true, |g| g == "JE") {
            return false;
        }
        let full = self.score >= 1.0;
        let any = |wanted: &[CaseStatus]| self.cases.iter().any(|c| wanted.contains(&c.status));
        let slow = [CaseStatus::Timeout, CaseStatus::FuelExhausted];
        let crashed = [CaseStatus::Crashed, CaseStatus::ExitedNonzero];
        match self.verdict {
            Verdict::ModelSolution | Verdict::Correct => full,
            Verdict::Incorrect => !full && any(&[CaseStatus::Wrong]),
            Verdict::PartiallyCorrect => !full && self.score > 0.0,
            Verdict::TimeLimit => !full && any(&slow),
            Verdict::MemoryLimit => !full && any(&[CaseStatus::MemoryExceeded]),
            Verdict::RuntimeError => !full && any(&crashed),
            Verdict::TimeLimitAndRuntimeError => !full && (any(&slow) || any(&crashed)),
            Verdict::Failed => !full,
        }
    }
}

/// Judges every solution of `task` that has a verdict (and is in a language the task takes)
/// with `time_limit` seconds; the others are named in the second list with why.
/// A solution the host was too busy to judge (a masked error) is judged again, up to three
/// times, after a growing pause.
pub fn verify(
    task_read: &Task,
    scorer: &Scorer,
    time_limit: f64,
) -> Result<(Vec<Check>, Vec<String>), String> {
    let takes = languages(task_read);
    let mut skipped = Vec::new();
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, solution) in task_read.solutions.iter().enumerate() {
        if solution.verdict.is_none() {
            skipped.push(format!("{}: no verdict in solutions.json", solution.path));
        } else if takes
            .as_ref()
            .is_some_and(|t| !t.contains(&solution.language))
        {
            skipped.push(format!(
                "{}: the task's grader or stubs take {}, not {}",
                solution.path,
                takes.as_deref().unwrap_or_default().join(", "),
                solution.language
            ));
        } else {
            by_language.entry(solution.language).or_default().push(i);
        }
    }
    let mut tasks = Vec::new();
    for (language, indices) in &by_language {
        let value = task(
            task_read,
            TaskShape {
                id: format!("{}/{language}", task_read.name),
                language,
                time_limit,
                completions: indices
                    .iter()
                    .map(|&i| task_read.solutions[i].source.clone())
                    .collect(),
                whole: true,
                solution: None,
            },
        );
        tasks.push(ScoredTask::from_value(value).map_err(|e| e.message)?);
    }
    let results = crate::rejudge::score_judging_busy_again(scorer, &tasks);
    let mut checks = Vec::new();
    for (result, indices) in results.iter().zip(by_language.values()) {
        if result.is_invalid() {
            return Err(result.detail.clone().unwrap_or_default());
        }
        for (completion, &i) in result.results.iter().zip(indices) {
            let solution = &task_read.solutions[i];
            checks.push(Check {
                solution: solution.path.clone(),
                verdict: solution
                    .verdict
                    .expect("only solutions with verdicts are judged"),
                got: Ok(completion_verdict(completion)),
                score: completion.score,
                detail: completion.detail.clone(),
                cases: completion.cases.clone(),
            });
        }
    }
    checks.sort_by(|a, b| a.solution.cmp(&b.solution));
    Ok((checks, skipped))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_check_agrees_with_its_verdict() {
        let check = |verdict, got: &str, score, statuses: &[CaseStatus]| Check {
            solution: String::new(),
            verdict,
            got: Ok(got.to_string()),
            score,
            detail: String::new(),
            cases: statuses
                .iter()
                .map(|&status| CaseResult {
                    id: String::new(),
                    status,
                    score: 0.0,
                    detail: String::new(),
                })
                .collect(),
        };
        let (pass, wrong, slow) = (
            CaseStatus::Passed,
            CaseStatus::Wrong,
            CaseStatus::FuelExhausted,
        );
        assert!(check(Verdict::ModelSolution, "AC", 1.0, &[pass]).agrees());
        assert!(!check(Verdict::Correct, "WA", 0.5, &[pass, wrong]).agrees());
        assert!(check(Verdict::Incorrect, "WA", 0.5, &[pass, wrong]).agrees());
        assert!(!check(Verdict::Incorrect, "TLE", 0.5, &[pass, slow]).agrees());
        assert!(check(Verdict::TimeLimit, "WA", 0.2, &[wrong, slow]).agrees());
        assert!(
            check(
                Verdict::TimeLimitAndRuntimeError,
                "RTE",
                0.0,
                &[CaseStatus::Crashed]
            )
            .agrees()
        );
        assert!(check(Verdict::PartiallyCorrect, "PC", 0.4, &[wrong]).agrees());
        assert!(!check(Verdict::PartiallyCorrect, "WA", 0.0, &[wrong]).agrees());
        assert!(!check(Verdict::Failed, "JE", 0.0, &[]).agrees());
        assert!(check(Verdict::Failed, "WA", 0.0, &[wrong]).agrees());
    }
}
