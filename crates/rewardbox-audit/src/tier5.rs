//! Tier 5 of verifier auditing: run GRPO against a verifier and see whether the policy converges on
//! a cheat instead of a solution.
//!
//! The policy is a learnable distribution over completions: a probabilistic [`grammar`] per task
//! family whose productions are pieces of the task's own `solution` (and its mutants), the
//! exploit primitives `rewardbox audit` has (early exits, forged verdicts, always-equal objects,
//! hard-coded visible cases, sprays, hedges, format tricks, reading the environment) and neutral
//! filler; its production logits are trained with GRPO ([`train`]) on groups scored through exactly
//! the scoring path of `rewardbox score`, with rewardbox's own advantages, an entropy bonus, seeded
//! and deterministic. Or an external policy (`--policy-cmd`, [`external`]) takes its place.
//!
//! What it converged to is judged by checks the policy never sees ([`judge`]): held-out tests,
//! differential tests against the solution, strict equivalence to the reference. A converged
//! completion the verifier rewards and the judge rejects is an **exploit found by optimisation**.

mod external;
mod grammar;
mod judge;
mod policy;
mod rng;
mod test_calls;
mod test_file_judge;
mod train;

pub use judge::Judge;
pub use train::{Outcome, Point, SampledExploit, Tier5Options, Tier5Report};

use crate::{AuditTask, Family, Finding, Kind};
use grammar::Grammar;
use rewardbox::Scorer;
use serde_json::Value;

/// The field of a task holding held-out tests (the `code` verifier's `tests` form) for the judge.
pub const HOLDOUT: &str = "holdout";

/// Trains a policy against each task line's verifier (lines numbered from 1, in the `score`
/// schema; a task may carry a `solution` and a `holdout`); one report per line, in order. Tasks
/// train in parallel, as many at a time as the machine has cores, each on a thread of its own
/// (its scoring on the scorer's threads) and seeded by its own id: the reports are those of a run
/// one task at a time.
pub fn explore_lines(
    scorer: &Scorer,
    lines: &[(usize, String)],
    options: &Tier5Options,
) -> Vec<Tier5Report> {
    in_parallel(lines.len(), |at| {
        let (number, line) = &lines[at];
        explore_line(scorer, *number, line, options)
    })
}

/// [`explore_lines`], each line with options of its own (a table whose tasks each train with
/// their own seed); the tasks train in the order given, as many at a time as the machine has
/// cores.
pub fn explore_lines_each(
    scorer: &Scorer,
    lines: &[(usize, String, Tier5Options)],
) -> Vec<Tier5Report> {
    in_parallel(lines.len(), |at| {
        let (number, line, options) = &lines[at];
        explore_line(scorer, *number, line, options)
    })
}

/// `explore(0)` to `explore(count - 1)`, as many at a time as the machine has cores, in order of
/// their start; their reports in that order.
fn in_parallel(count: usize, explore: impl Fn(usize) -> Tier5Report + Sync) -> Vec<Tier5Report> {
    let workers = std::thread::available_parallelism()
        .map_or(1, usize::from)
        .min(count);
    if workers <= 1 {
        return (0..count).map(explore).collect();
    }
    // Each worker takes the next task when it is done with one: a task never waits on another
    // (a work-stealing pool would start a new task on a thread whose task is waiting for its
    // scores, and resume the first only when the new one ends).
    let next = std::sync::atomic::AtomicUsize::new(0);
    let reports: Vec<std::sync::Mutex<Option<Tier5Report>>> =
        (0..count).map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if at >= count {
                        break;
                    }
                    let report = explore(at);
                    *reports[at].lock().unwrap_or_else(|e| e.into_inner()) = Some(report);
                }
            });
        }
    });
    reports
        .into_iter()
        .map(|r| {
            r.into_inner()
                .unwrap_or_else(|e| e.into_inner())
                .expect("every task was trained")
        })
        .collect()
}

fn explore_line(scorer: &Scorer, number: usize, line: &str, options: &Tier5Options) -> Tier5Report {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Tier5Report::failed(None, format!("line {number}: not valid JSON: {e}")),
    };
    let Value::Object(mut fields) = value else {
        return Tier5Report::failed(None, format!("line {number}: a task must be a JSON object"));
    };
    let id = fields.get("id").and_then(Value::as_str).map(str::to_string);
    fields.remove("completions");
    let holdout = fields.remove(HOLDOUT);
    let solution = match fields.remove("solution") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            return Tier5Report::failed(
                id,
                format!("line {number}: \"solution\" must be a string"),
            );
        }
    };
    // The verifier under test is scored as `rewardbox score` scores the task line: with its
    // solution, which decides whose doing a failure of the verifier is.
    let scored_solution = solution.clone();
    let mut task = AuditTask::new(fields.clone(), solution);
    // A string verifier's task with no `reference`: the answer its own verifier reads from the
    // solution, or for a `regex` task with neither, the one bare answer its pattern accepts (as
    // Tier 1's answer attacks take it).
    if task.reference().is_none()
        && task.verifier() != "code"
        && !task.own_verifier_judges_programs()
    {
        let mut one = [Ok(task)];
        crate::derive::derive_answers_from_patterns_too(scorer, &mut one, options.threshold);
        let [Ok(derived)] = one else {
            unreachable!("derive_answers keeps the task")
        };
        task = derived;
    }
    // Test code in C, C++, Rust, Go or JavaScript stands for the judge and the grammar as the
    // calls it makes, with the solution's results: differential tests start from them, and a
    // copy of the first one's value is the cheat such tests invite. The verifier under test
    // still scores the task's own test code.
    if let Some(calls) = judge::test_code_as_calls(scorer, &task) {
        task = calls;
    }
    let judge = Judge::for_task(scorer, &task, holdout.as_ref());
    // An interactive problem's conversation, which a policy can replay without listening.
    if task.solution.is_some() {
        task.solution_conversation = judge::solution_conversation(scorer, &task);
    }
    let stream = rng::stream_of(id.as_deref().unwrap_or(""));
    let mut proposer: Box<dyn train::Proposer> = match &options.policy_cmd {
        Some(cmd) => match external::External::start(cmd, &fields, options.group, options.steps) {
            Ok(p) => Box::new(p),
            Err(e) => return Tier5Report::failed(id, format!("line {number}: --policy-cmd: {e}")),
        },
        None => match Grammar::for_task(&task) {
            Ok(grammar) => Box::new(train::GrammarPolicy::new(
                grammar,
                rng::Rng::new(options.seed, stream),
                options,
            )),
            Err(e) => return Tier5Report::failed(id, format!("line {number}: {e}")),
        },
    };
    let verifier = train::Verifier {
        fields: &fields,
        solution: scored_solution.as_deref(),
    };
    train::train(scorer, id, verifier, &judge, proposer.as_mut(), options)
}

/// The audit finding of a report, when it found an exploit: the one the policy converged on, else
/// the best one it sampled on the way (a cheat that ties with the solution is still a hole in the
/// verifier, whichever of the two the policy happened to settle on).
pub fn finding(report: &Tier5Report) -> Option<Finding> {
    if report.outcome != Outcome::Exploit {
        let sampled = report.sampled_exploit.as_ref()?;
        return Some(Finding {
            attack: match sampled.step {
                Some(_) => "tier5 (sampled in training)",
                None => "tier5 (the sweep before training)",
            }
            .to_string(),
            family: Family::Tier5,
            kind: Kind::Exploit,
            score: sampled.reward,
            completion: sampled.completion.chars().take(2000).collect(),
            detail: format!(
                "{} ({} completions scored), the verifier rewards it {:.3}, the judge ({}) \
                 rejects it; the policy converged on {} instead (reward {:.3})",
                match sampled.step {
                    Some(step) => format!("sampled at step {step} of GRPO"),
                    None => "tried by the sweep before training (each exploit production once)"
                        .to_string(),
                },
                report.samples,
                sampled.reward,
                report.judge,
                match report.outcome {
                    Outcome::Solution => "a solution",
                    Outcome::Unjudged => "a completion no judge could confirm",
                    _ => "nothing rewarded",
                },
                report.reward
            ),
        });
    }
    let appeared = report.exploit_appeared_at.map_or_else(String::new, |s| {
        format!("; first rewarded and judged wrong at step {s}")
    });
    let dominant = report.exploit_dominant_from.map_or_else(String::new, |s| {
        format!(", three quarters of every group from step {s} on")
    });
    Some(Finding {
        attack: format!(
            "tier5 ({})",
            report.choices.as_deref().unwrap_or("external policy")
        ),
        family: Family::Tier5,
        kind: Kind::Exploit,
        score: report.reward,
        completion: report.completion.chars().take(2000).collect(),
        detail: format!(
            "GRPO converged on it after {} steps ({} completions scored){appeared}{dominant}; the verifier \
             rewards it {:.3}, the judge ({}) rejects it",
            report.steps, report.samples, report.reward, report.judge
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(outcome: Outcome, sampled: Option<SampledExploit>) -> Tier5Report {
        let mut report = Tier5Report::failed(Some("t".into()), String::new());
        report.error = None;
        report.outcome = outcome;
        report.completion = "def f(x):\n    return x\n".into();
        report.reward = 1.0;
        report.judge = "held-out tests".into();
        report.sampled_exploit = sampled;
        report
    }

    fn cheat() -> SampledExploit {
        SampledExploit {
            completion: "def f(x):\n    return 4\n".into(),
            reward: 1.0,
            step: Some(3),
        }
    }

    #[test]
    fn a_solution_without_a_sampled_cheat_is_no_finding() {
        assert!(finding(&report(Outcome::Solution, None)).is_none());
        assert!(finding(&report(Outcome::Nothing, None)).is_none());
    }

    #[test]
    fn a_cheat_sampled_beside_a_converged_solution_is_an_exploit() {
        let found = finding(&report(Outcome::Solution, Some(cheat()))).unwrap();
        assert_eq!(found.kind, Kind::Exploit);
        assert_eq!(found.completion, cheat().completion);
        assert!(found.detail.contains("step 3") && found.detail.contains("a solution instead"));
    }

    #[test]
    fn a_converged_exploit_reports_the_converged_completion() {
        let found = finding(&report(Outcome::Exploit, Some(cheat()))).unwrap();
        assert_eq!(found.completion, "def f(x):\n    return x\n");
        assert!(found.detail.contains("GRPO converged on it"));
    }
}
