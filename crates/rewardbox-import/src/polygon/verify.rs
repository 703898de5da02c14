//! The jury's solutions judged by rewardbox, each against what its tag requires, as Polygon's
//! invocations check them: `main` and `accepted` accepted with every point, `wrong-answer` WA,
//! `time-limit-exceeded` TLE, `time-limit-exceeded-or-accepted` either, `rejected` anything but
//! accepted, `failed` a checker failure. A solution's verdict is its first test not accepted.

use crate::kattis::TaskShape;
use crate::kattis::verify::completion_verdict;
use crate::polygon::package::{Package, Tag};
use crate::polygon::task::task;
use rewardbox::{Scorer, Task};
use std::collections::BTreeMap;

/// One solution's check.
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// Its path in the package.
    pub solution: String,
    /// Its tag.
    pub tag: Tag,
    /// The verdict rewardbox gave (`AC`, `WA`, `PE`, `TLE`, `MLE`, `RTE`, `OLE`, `CE`, `JE` for
    /// a judge error), or why it was not judged.
    pub got: Result<String, String>,
    /// Its score in [0, 1].
    pub score: f64,
    /// The verdict's detail.
    pub detail: String,
}

impl Check {
    /// Whether the verdict is one the tag allows (a solution rewardbox cannot run does not).
    pub fn agrees(&self) -> bool {
        match &self.got {
            Ok(got) => self.tag.allows(got, self.score >= 1.0),
            Err(_) => self.tag == Tag::DoNotRun,
        }
    }
}

/// Judges every solution of `package` (that rewardbox can run, but `do-not-run` ones) with
/// `time_limit` seconds. A checker or interactor that does not build refuses the package,
/// naming the compiler's message.
/// A solution the host was too busy to judge (a masked error) is judged again, up to three
/// times, after a growing pause.
pub fn verify(package: &Package, scorer: &Scorer, time_limit: f64) -> Result<Vec<Check>, String> {
    for (what, program) in [
        ("checker", &package.checker),
        ("interactor", &package.interactor),
    ] {
        let Some(program) = program else { continue };
        let built = scorer.install(|| scorer.runners().prepare(program.language, &program.source));
        if let Err(outcome) = built {
            let message: String = outcome.stderr.trim().chars().take(4000).collect();
            return Err(format!(
                "the {what} {} ({}) does not build: {message}",
                program.name, program.language
            ));
        }
    }
    let mut checks: Vec<Option<Check>> = vec![None; package.solutions.len()];
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, solution) in package.solutions.iter().enumerate() {
        if solution.tag == Tag::DoNotRun {
            checks[i] = Some(Check {
                solution: solution.path.clone(),
                tag: solution.tag,
                got: Err("do-not-run".into()),
                score: 0.0,
                detail: String::new(),
            });
        } else {
            by_language
                .entry(solution.program.language)
                .or_default()
                .push(i);
        }
    }
    let mut tasks = Vec::new();
    for (language, indices) in &by_language {
        let completions = indices
            .iter()
            .map(|&i| package.solutions[i].program.source.clone())
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
    }
    let results = crate::rejudge::score_judging_busy_again(scorer, &tasks);
    for (result, indices) in results.iter().zip(by_language.values()) {
        if result.is_invalid() {
            return Err(result.detail.clone().unwrap_or_default());
        }
        for (completion, &i) in result.results.iter().zip(indices) {
            let solution = &package.solutions[i];
            let got = completion_verdict(completion);
            checks[i] = Some(Check {
                solution: solution.path.clone(),
                tag: solution.tag,
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
    fn a_check_agrees_with_its_tag() {
        let check = |tag, got: Result<&str, &str>, score| Check {
            solution: String::new(),
            tag,
            got: got.map(str::to_string).map_err(str::to_string),
            score,
            detail: String::new(),
        };
        assert!(check(Tag::Main, Ok("AC"), 1.0).agrees());
        assert!(!check(Tag::Main, Ok("AC"), 0.4).agrees());
        assert!(check(Tag::WrongAnswer, Ok("WA"), 0.4).agrees());
        assert!(!check(Tag::Accepted, Err("Java"), 0.0).agrees());
        assert!(check(Tag::DoNotRun, Err("do-not-run"), 0.0).agrees());
    }
}
