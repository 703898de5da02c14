//! Judging again what the host was too busy to judge, for the packages' `--verify`: a jury
//! solution masked because the machine starved it of CPU says nothing about the solution or the
//! package, and the load that starved it comes and goes.

use rewardbox::{Scorer, Task, TaskResult};
use std::time::Duration;

/// How many times a completion the host was too busy to judge is judged again.
pub(crate) const MOST_REJUDGES: u64 = 3;

/// `scorer`'s results for `tasks`, each completion the host was too busy to judge
/// ([`rewardbox::CompletionResult::host_was_busy`]) judged again, with the others of its task
/// that were, up to [`MOST_REJUDGES`] times after a pause that grows (2, 4, then 6 s). The last
/// answer stands: one still masked after that stays masked, never turned into a verdict.
pub(crate) fn score_judging_busy_again(scorer: &Scorer, tasks: &[Task]) -> Vec<TaskResult> {
    judged_again(
        |tasks| scorer.score_tasks(tasks),
        tasks,
        Duration::from_secs(2),
    )
}

/// What `score` gives for `tasks`, with the completions it masked as the host's being too busy
/// scored again, the `n`th time after `n` times `pause`.
fn judged_again(
    score: impl Fn(&[Task]) -> Vec<TaskResult>,
    tasks: &[Task],
    pause: Duration,
) -> Vec<TaskResult> {
    let mut results = score(tasks);
    for round in 1..=MOST_REJUDGES {
        // Each task with a completion to judge again, and which of its completions.
        let again: Vec<(usize, Vec<usize>)> = results
            .iter()
            .enumerate()
            .filter_map(|(task, result)| {
                let busy: Vec<usize> = (0..result.results.len())
                    .filter(|&i| result.results[i].host_was_busy())
                    .collect();
                (!busy.is_empty()).then_some((task, busy))
            })
            .collect();
        if again.is_empty() {
            break;
        }
        std::thread::sleep(pause * round as u32);
        let retried: Vec<Task> = again
            .iter()
            .map(|(task, busy)| Task {
                completions: busy
                    .iter()
                    .map(|&i| tasks[*task].completions[i].clone())
                    .collect(),
                ..tasks[*task].clone()
            })
            .collect();
        for ((task, busy), result) in again.iter().zip(score(&retried)) {
            if result.is_invalid() {
                continue;
            }
            for (&i, completion) in busy.iter().zip(result.results) {
                results[*task].results[i] = completion;
            }
        }
    }
    results
}

#[cfg(test)]
mod tests {
    use super::*;
    use rewardbox::CompletionResult;
    use std::cell::RefCell;
    use std::rc::Rc;

    /// The completions each call of a stand-in scorer got, call by call.
    type Calls = Rc<RefCell<Vec<Vec<String>>>>;

    fn task(id: &str, completions: &[&str]) -> Task {
        let line = serde_json::json!({"id": id, "verifier": "exact", "reference": "x",
                                      "completions": completions});
        Task::from_json_line(&line.to_string()).unwrap()
    }

    fn busy() -> CompletionResult {
        CompletionResult::verifier_error(
            "case 2: was not judged: the host was too busy to run it (it got 10 ms of CPU, \
             sleeps included, in its wall-clock limit of 2000 ms)",
            0,
            0,
        )
    }

    fn judged(completion: &str) -> CompletionResult {
        CompletionResult {
            detail: format!("judged {completion}"),
            ..CompletionResult::verifier_error("", 0, 0)
        }
    }

    /// A scorer that masks the completions named in `busy_rounds[n]` as the host's being too
    /// busy in its `n`th call and judges the rest; the calls it got, by completion.
    fn scorer(busy_rounds: Vec<Vec<&'static str>>) -> (impl Fn(&[Task]) -> Vec<TaskResult>, Calls) {
        let calls: Calls = Rc::new(RefCell::new(Vec::new()));
        let seen = calls.clone();
        let score = move |tasks: &[Task]| {
            let round = seen.borrow().len();
            seen.borrow_mut()
                .push(tasks.iter().flat_map(|t| t.completions.clone()).collect());
            tasks
                .iter()
                .map(|t| TaskResult {
                    id: Some(t.id.clone()),
                    line: None,
                    status: None,
                    detail: None,
                    results: t
                        .completions
                        .iter()
                        .map(|c| {
                            match busy_rounds
                                .get(round)
                                .is_some_and(|b| b.contains(&c.as_str()))
                            {
                                true => busy(),
                                false => judged(c),
                            }
                        })
                        .collect(),
                })
                .collect()
        };
        (score, calls)
    }

    #[test]
    fn only_what_the_host_was_too_busy_to_judge_is_judged_again_in_its_place() {
        let tasks = [task("a", &["a0", "a1", "a2"]), task("b", &["b0", "b1"])];
        let (score, calls) = scorer(vec![vec!["a1", "b1"], vec!["b1"]]);
        let results = judged_again(score, &tasks, Duration::ZERO);
        let details: Vec<Vec<String>> = results
            .iter()
            .map(|r| r.results.iter().map(|c| c.detail.clone()).collect())
            .collect();
        assert_eq!(
            details,
            [
                vec!["judged a0", "judged a1", "judged a2"],
                vec!["judged b0", "judged b1"]
            ]
        );
        assert_eq!(
            *calls.borrow(),
            [
                vec!["a0", "a1", "a2", "b0", "b1"],
                vec!["a1", "b1"],
                vec!["b1"]
            ]
        );
    }

    #[test]
    fn a_completion_still_masked_after_the_last_try_stays_masked() {
        let tasks = [task("a", &["a0", "a1"])];
        let always = vec![vec!["a1"]; 10];
        let (score, calls) = scorer(always);
        let results = judged_again(score, &tasks, Duration::ZERO);
        assert!(results[0].results[1].host_was_busy() && results[0].results[1].mask);
        assert_eq!(results[0].results[0].detail, "judged a0");
        assert_eq!(calls.borrow().len(), 1 + MOST_REJUDGES as usize);
    }
}
