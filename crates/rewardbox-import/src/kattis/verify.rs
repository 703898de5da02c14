//! The jury's submissions judged by rewardbox, each against the verdict its directory promises,
//! as problemtools' `verifyproblem` checks a package: `accepted` must be accepted (with the best
//! score, in a scoring problem), `partially_accepted` accepted without it, `wrong_answer`,
//! `time_limit_exceeded` and `run_time_error` must get that verdict.

use crate::kattis::package::{Expected, Package};
use crate::kattis::task::{TaskShape, task};
use rewardbox::{Scorer, Status, Task};
use serde_json::{Value, json};
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
    detail
        .split([' ', ':', ';'])
        .next()
        .unwrap_or("")
        .to_string()
}

/// A judged completion's verdict code (`AC`, `WA`, ...), `JE` when the verifier failed (a judge
/// error: the package's programs, never the submission).
pub(crate) fn completion_verdict(completion: &rewardbox::CompletionResult) -> String {
    match completion.status {
        Status::Ok => verdict_code(&completion.detail),
        _ => "JE".to_string(),
    }
}

/// Judges every submission of `package` (that rewardbox can run) with `time_limit` seconds. A
/// package whose output validator does not build is refused, naming the compiler's message: it
/// is the package's fault, and no submission could be judged.
/// A solution the host was too busy to judge (a masked error) is judged again, up to three
/// times, after a growing pause.
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
    // A pass-fail package without group settings is judged case by case in order, its verdict
    // the first failing case's. When there are fewer submissions than threads, each one's cases
    // are split into runs of consecutive cases, one per idle thread, judged in parallel and put
    // back together in order (each run stops at its own first failure, so a failing submission
    // may cost a run per part: only threads that would be idle pay for it). A scoring package,
    // or one whose groups set how a rejection or a score counts, is judged whole.
    let cases = package.cases.len();
    let judged = package
        .submissions
        .iter()
        .filter(|s| s.program.is_ok())
        .count();
    let parts = if splits_into_parts(package) {
        (scorer.threads() / judged.max(1)).clamp(1, cases)
    } else {
        1
    };
    let mut tasks = Vec::new();
    let mut owners: Vec<(usize, Vec<usize>)> = Vec::new();
    for (language, indices) in &by_language {
        let completions: Vec<String> = indices
            .iter()
            .map(|&i| {
                package.submissions[i]
                    .program
                    .as_ref()
                    .map(|p| p.source.clone())
                    .unwrap_or_default()
            })
            .collect();
        let mut value = task(
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
        if parts == 1 {
            tasks.push(Task::from_value(value).map_err(|e| e.message)?);
            owners.push((0, indices.clone()));
            continue;
        }
        // The cases taken out once, so that each part copies only the rest of the task.
        let all = match value["tests"]["judge"]["cases"].take() {
            Value::Array(all) => all,
            _ => return Err(format!("{}: the judge task has no cases", package.name)),
        };
        for part in 0..parts {
            let mut split = value.clone();
            let range = part * cases / parts..(part + 1) * cases / parts;
            split["tests"]["judge"]["cases"] = Value::Array(all[range].to_vec());
            split["id"] = json!(format!("{}/{language}/part {}", package.name, part + 1));
            tasks.push(Task::from_value(split).map_err(|e| e.message)?);
            owners.push((part, indices.clone()));
        }
    }
    let results = crate::rejudge::score_judging_busy_again(scorer, &tasks);
    // Each submission's parts in order: the first that is not accepted gives the verdict.
    let mut verdicts: Vec<Option<(String, f64, String)>> = vec![None; package.submissions.len()];
    for (result, (part, indices)) in results.iter().zip(&owners) {
        if result.is_invalid() {
            return Err(result.detail.clone().unwrap_or_default());
        }
        for (completion, &i) in result.results.iter().zip(indices) {
            let got = completion_verdict(completion);
            let decided = verdicts[i]
                .as_ref()
                .is_some_and(|(code, _, _)| code != "AC");
            if *part == 0 || !decided {
                let detail = if parts > 1 && got == "AC" {
                    format!("AC ({cases} cases)")
                } else {
                    completion.detail.clone()
                };
                verdicts[i] = Some((got, completion.score, detail));
            }
        }
    }
    for (i, verdict) in verdicts.into_iter().enumerate() {
        if let Some((got, score, detail)) = verdict {
            let submission = &package.submissions[i];
            checks[i] = Some(Check {
                submission: submission.path.clone(),
                expected: submission.expected,
                got: Ok(got),
                score,
                detail,
            });
        }
    }
    Ok(checks.into_iter().flatten().collect())
}

/// Whether a package's verdict is its first failing case's, cases judged in order with nothing
/// carried between them: pass-fail (no scoring, no custom score), with no group setting
/// (`on_reject`, `grading`, scores, flags) that changes how a case counts, and more than one case.
fn splits_into_parts(package: &Package) -> bool {
    !package.metadata.scoring
        && !package.metadata.custom_score
        && package.metadata.legacy_root_group.is_empty()
        && package.groups.values().all(|settings| settings.is_empty())
        && package.cases.len() > 1
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
