//! The jury's submissions judged by rewardbox, each against the verdict its directory promises,
//! as problemtools' `verifyproblem` checks a package: `accepted` must be accepted (with the best
//! score, in a scoring problem), `partially_accepted` accepted without it, `wrong_answer`,
//! `time_limit_exceeded` and `run_time_error` must get that verdict.

use crate::package::{Expected, Package};
use crate::task::{TaskShape, task};
use rewardbox::{Scorer, Status, Task};
use std::collections::BTreeMap;

/// One submission's check.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Its path in the package.
    pub submission: String,
    /// What its directory promises.
    pub expected: Expected,
    /// The verdict rewardbox gave (`AC`, `WA`, `TLE`, `RTE`, `OLE`, `CE`, `JE` for a judge
    /// error), or why it was not judged.
    pub got: Result<String, String>,
    /// Its score in [0, 1].
    pub score: f64,
    /// The verdict's detail.
    pub detail: String,
}

impl Check {
    /// Whether the verdict is the one promised (a submission rewardbox cannot run is not). A
    /// memory limit counts as the run-time error the format files it under: natively the
    /// allocation fails and the program crashes.
    pub fn agrees(&self) -> bool {
        match (&self.got, self.expected) {
            (Ok(got), Expected::Accepted) => got == "AC" && self.score >= 1.0,
            (Ok(got), Expected::PartiallyAccepted) => got == "AC" && self.score < 1.0,
            (Ok(got), Expected::RunTimeError) => got == "RTE" || got == "MLE",
            (Ok(got), expected) => got == expected.verdict(),
            (Err(_), _) => false,
        }
    }
}

/// The judge's verdict code at the start of the code verifier's detail.
fn verdict_code(detail: &str) -> String {
    detail.split([' ', ':']).next().unwrap_or("").to_string()
}

/// Judges every submission of `package` (that rewardbox can run) with `time_limit` seconds. A
/// package whose output validator does not build is refused, naming the compiler's message: it
/// is the package's fault, and no submission could be judged.
pub fn verify(package: &Package, scorer: &Scorer, time_limit: f64) -> Result<Vec<Check>, String> {
    if let Some(validator) = &package.validator {
        let built = scorer.install(|| {
            scorer
                .runners()
                .prepare(validator.language, &validator.source)
        });
        if let Err(outcome) = built {
            let message: String = outcome.stderr.trim().chars().take(4000).collect();
            return Err(format!(
                "the output validator {} ({}) does not build: {message}",
                validator.name, validator.language
            ));
        }
    }
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let mut checks: Vec<Option<Check>> = vec![None; package.submissions.len()];
    for (i, submission) in package.submissions.iter().enumerate() {
        match &submission.program {
            Ok(program) => by_language.entry(program.language).or_default().push(i),
            Err(why) => {
                checks[i] = Some(Check {
                    submission: submission.path.clone(),
                    expected: submission.expected,
                    got: Err(why.to_string()),
                    score: 0.0,
                    detail: String::new(),
                })
            }
        }
    }
    let mut tasks = Vec::new();
    let mut owners = Vec::new();
    for (language, indices) in &by_language {
        let completions = indices
            .iter()
            .map(|&i| {
                package.submissions[i]
                    .program
                    .as_ref()
                    .map(|p| p.source.clone())
                    .unwrap_or_default()
            })
            .collect();
        let value = task(
            package,
            TaskShape {
                id: format!("{}/{language}", package.name),
                language,
                time_limit,
                completions,
                whole: true,
                solution: None,
            },
        )?;
        tasks.push(Task::from_value(value).map_err(|e| e.message)?);
        owners.push(indices.clone());
    }
    let results = scorer.score_tasks(&tasks);
    for (result, indices) in results.iter().zip(&owners) {
        if result.is_invalid() {
            return Err(result.detail.clone().unwrap_or_default());
        }
        for (completion, &i) in result.results.iter().zip(indices) {
            let submission = &package.submissions[i];
            let got = match completion.status {
                Status::Ok => verdict_code(&completion.detail),
                _ => "JE".to_string(),
            };
            checks[i] = Some(Check {
                submission: submission.path.clone(),
                expected: submission.expected,
                got: Ok(got),
                score: completion.score,
                detail: completion.detail.clone(),
            });
        }
    }
    Ok(checks.into_iter().flatten().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_agrees_as_verifyproblem_requires() {
        let check = |expected, got: &str, score| Check {
            submission: String::new(),
            expected,
            got: Ok(got.into()),
            score,
            detail: String::new(),
        };
        assert!(check(Expected::Accepted, "AC", 1.0).agrees());
        assert!(
            !check(Expected::Accepted, "AC", 0.7).agrees(),
            "not the best score"
        );
        assert!(check(Expected::PartiallyAccepted, "AC", 0.7).agrees());
        assert!(!check(Expected::PartiallyAccepted, "AC", 1.0).agrees());
        assert!(!check(Expected::PartiallyAccepted, "WA", 0.0).agrees());
        assert!(check(Expected::TimeLimitExceeded, "TLE", 0.0).agrees());
        assert!(!check(Expected::WrongAnswer, "TLE", 0.0).agrees());
        assert!(check(Expected::RunTimeError, "RTE", 0.0).agrees());
        assert!(check(Expected::RunTimeError, "MLE", 0.0).agrees());
        assert!(!check(Expected::WrongAnswer, "MLE", 0.0).agrees());
        assert_eq!(verdict_code("WA on secret/1: wrong"), "WA");
        assert_eq!(verdict_code("AC (3 cases)"), "AC");
        assert_eq!(verdict_code("CE: compile error: x"), "CE");
    }
}
