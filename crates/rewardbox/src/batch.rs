//! Rayon fan-out over tasks x completions, order-preserving.
//!
//! Every (task, completion) pair is one job; all jobs of a batch go to the pool at once so that a
//! task with many completions does not leave threads idle. Results come back in input order.

use crate::scorer::Scorer;
use crate::task::{Task, TaskError};
use crate::verifier::{Judge, Judged};
use rayon::prelude::*;
use rewardbox_sandbox::limits::Limits;
use rewardbox_types::{CompletionResult, Status, TaskResult};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

/// One line of JSONL input: its 1-based number and its text.
#[derive(Debug, Clone)]
pub struct InputLine {
    /// 1-based line number in the input.
    pub number: usize,
    /// The line, without its line ending; `Err` when it was not valid UTF-8.
    pub text: Result<String, ()>,
}

/// A task ready to score, or the result that rejects it.
enum Prepared<'a> {
    Ready {
        task: &'a Task,
        verifier: Arc<dyn Judge>,
        line: Option<usize>,
    },
    Rejected(TaskResult),
}

impl Scorer {
    /// Scores every completion of `task`.
    pub fn score_task(&self, task: &Task) -> TaskResult {
        self.score_tasks(std::slice::from_ref(task))
            .pop()
            .expect("one result per task")
    }

    /// Scores every completion of every task, in parallel; one result per task, in order.
    pub fn score_tasks(&self, tasks: &[Task]) -> Vec<TaskResult> {
        let prepared = tasks.iter().map(|task| self.prepare(task, None)).collect();
        self.run_until(prepared, &AtomicBool::new(false))
    }

    /// Reads and scores JSONL lines, in parallel; one result per line, in order. A malformed line
    /// becomes an `invalid_task` result naming its line number and field; the others are scored.
    pub fn score_lines(&self, lines: &[InputLine]) -> Vec<TaskResult> {
        self.score_lines_until(lines, &AtomicBool::new(false))
    }

    /// [`Scorer::score_lines`], given up once `cancelled` is set (the one who asked went away):
    /// completions not yet started are not judged but answered as masked `verifier_error`s
    /// saying so. Those under way stop too when the calling thread's cancellation flag is set
    /// ([`rewardbox_sandbox::cancel`]): their jobs end at their next check.
    pub fn score_lines_until(
        &self,
        lines: &[InputLine],
        cancelled: &AtomicBool,
    ) -> Vec<TaskResult> {
        let parsed: Vec<Result<Task, TaskResult>> = self.pool.install(|| {
            lines
                .par_iter()
                .map(|line| match &line.text {
                    Ok(text) => {
                        Task::from_json_line(text).map_err(|e| rejected(e, Some(line.number)))
                    }
                    Err(()) => Err(TaskResult::invalid(
                        None,
                        Some(line.number),
                        format!("line {}: not valid UTF-8", line.number),
                    )),
                })
                .collect()
        });
        let prepared = parsed
            .iter()
            .zip(lines)
            .map(|(parsed, line)| match parsed {
                Ok(task) => self.prepare(task, Some(line.number)),
                Err(result) => Prepared::Rejected(result.clone()),
            })
            .collect();
        self.run_until(prepared, cancelled)
    }

    fn prepare<'a>(&self, task: &'a Task, line: Option<usize>) -> Prepared<'a> {
        match self.registry.resolve_task(task) {
            Ok(verifier) => Prepared::Ready {
                task,
                verifier,
                line,
            },
            Err(message) => Prepared::Rejected(rejected(
                TaskError {
                    id: Some(task.id.clone()),
                    message: format!("\"verifier\": {message}"),
                },
                line,
            )),
        }
    }

    fn run_until(&self, prepared: Vec<Prepared<'_>>, cancelled: &AtomicBool) -> Vec<TaskResult> {
        let jobs: Vec<(usize, usize)> = prepared
            .iter()
            .enumerate()
            .flat_map(|(t, p)| match p {
                Prepared::Ready { task, .. } => {
                    (0..task.completions.len()).map(|c| (t, c)).collect()
                }
                Prepared::Rejected(_) => Vec::new(),
            })
            .collect();
        // The caller's cancellation flag follows every judgement onto the pool's threads.
        let cancel = rewardbox_sandbox::cancel::current();
        // Per task, once a verifier has failed on one of its completions: whether the verifier
        // judges the task's solution without failing.
        let solutions_judged: Vec<OnceLock<bool>> =
            prepared.iter().map(|_| OnceLock::new()).collect();
        let judged: Vec<Judged> = self.pool.install(|| {
            jobs.par_iter()
                .map(|&(t, c)| {
                    let Prepared::Ready { task, verifier, .. } = &prepared[t] else {
                        unreachable!("only ready tasks have jobs")
                    };
                    if cancelled.load(Ordering::Relaxed)
                        || cancel.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
                    {
                        return Judged::Result(CompletionResult::verifier_error(
                            "not judged: the request was cancelled (its client went away)",
                            0,
                            0,
                        ));
                    }
                    let mut limits = self.options.limits.with(&task.limits);
                    if let Some(max) = &self.options.max_limits {
                        limits = limits.clamp_to(max);
                    }
                    rewardbox_sandbox::cancel::with_cancel(cancel.clone(), || {
                        let completion = &task.completions[c];
                        match verifier.judge(
                            self.engine(),
                            &task.verifier_input,
                            completion,
                            &limits,
                            self.options.seed,
                        ) {
                            Judged::VerifierFailed(failed) => self.whose_failure(
                                task,
                                verifier.as_ref(),
                                &limits,
                                completion,
                                failed,
                                &solutions_judged[t],
                            ),
                            judged => judged,
                        }
                    })
                })
                .collect()
        });

        let mut judged = judged.into_iter();
        prepared
            .into_iter()
            .map(|p| match p {
                Prepared::Rejected(result) => result,
                Prepared::Ready { task, line, .. } => {
                    let mut mine: Vec<Judged> =
                        judged.by_ref().take(task.completions.len()).collect();
                    if task.solution.is_none() {
                        put_to_the_other_completions(task, &mut mine);
                    }
                    collect_task(task, line, mine)
                }
            })
            .collect()
    }
}

impl Scorer {
    /// Decides whose doing a verifier's repeatable failure on `completion` was. A policy must not
    /// be able to choose to be masked: a verifier that raises on text it cannot parse, runs out
    /// of fuel on a flood of output or returns a malformed score for a long answer fails because
    /// of what the completion gave it. So when the task names a known-good `solution` and the
    /// verifier judges it without failing (with the same limits and seed; judged once per task
    /// and batch, in `solution_judged`), the failure is the completion's: a result of 0, not
    /// masked. When the completion is the solution, or the verifier fails on the solution too,
    /// it is the verifier's: a masked `verifier_error`. A task without a solution is decided
    /// once its completions are judged, by its other completions (`put_to_the_other_completions`).
    fn whose_failure(
        &self,
        task: &Task,
        verifier: &dyn Judge,
        limits: &Limits,
        completion: &str,
        failed: CompletionResult,
        solution_judged: &OnceLock<bool>,
    ) -> Judged {
        let Some(solution) = task.solution.as_deref() else {
            return Judged::VerifierFailed(failed);
        };
        if solution == completion {
            return Judged::VerifierFailed(failed);
        }
        let judges_solution = *solution_judged.get_or_init(|| {
            verifier
                .judge(
                    self.engine(),
                    &task.verifier_input,
                    solution,
                    limits,
                    self.options.seed,
                )
                .is_verdict()
        });
        if !judges_solution {
            return Judged::VerifierFailed(failed);
        }
        Judged::Result(not_masked(
            &failed,
            "the verifier failed on this completion and judges the task's solution without \
             failing, so the completion caused it",
        ))
    }
}

/// Decides whose doing a verifier's repeatable failure is in a task that names no `solution`:
/// the task's other completions (a GRPO group's siblings) show whether the verifier works on it.
/// When it reached a verdict on another completion of the task, whose text differs, with the same
/// fields, limits and seed, then only the completion's text made it fail on this one: a result of
/// 0, not masked. When it reached none (it failed on every completion, or there is only one),
/// nothing shows the verifier working, and its failures stay masked. `judged` holds the task's
/// judgements in its order, failures not yet turned into a 0 (the task has no solution).
///
/// Only the completions of one task count, never those of another task in the same batch, so a
/// completion's result never depends on how tasks were batched (the CLI's workers score a task
/// without a solution whole for the same reason).
fn put_to_the_other_completions(task: &Task, judged: &mut [Judged]) {
    let verdicts: Vec<usize> = (0..judged.len())
        .filter(|&c| judged[c].is_verdict())
        .collect();
    for (judgement, completion) in judged.iter_mut().zip(&task.completions) {
        let Judged::VerifierFailed(failed) = judgement else {
            continue;
        };
        let Some(other) = verdicts
            .iter()
            .find(|&&o| task.completions[o] != *completion)
        else {
            continue;
        };
        *judgement = Judged::Result(not_masked(
            failed,
            &format!(
                "the verifier failed on this completion and judges completion {} of the same \
                 task without failing, so the completion caused it",
                other + 1
            ),
        ));
    }
}

/// One task's result from its completions' judgements. When the verifier calls the task invalid
/// for any completion, the whole task is `invalid_task`.
fn collect_task(task: &Task, line: Option<usize>, judged: Vec<Judged>) -> TaskResult {
    let mut results = Vec::with_capacity(judged.len());
    for j in judged {
        match j {
            Judged::Result(r) | Judged::VerifierFailed(r) => results.push(r),
            Judged::InvalidTask(message) => {
                return rejected(
                    TaskError {
                        id: Some(task.id.clone()),
                        message,
                    },
                    line,
                );
            }
        }
    }
    TaskResult {
        id: Some(task.id.clone()),
        line: None,
        status: None,
        detail: None,
        results,
    }
}

fn rejected(error: TaskError, line: Option<usize>) -> TaskResult {
    let detail = match line {
        Some(n) => format!("line {n}: {}", error.message),
        None => error.message,
    };
    TaskResult::invalid(error.id, line, detail)
}

/// `failed` (a verifier's failure) as the completion's doing, for the reason `why`: a score of 0,
/// `ok` and not masked, its detail saying why.
fn not_masked(failed: &CompletionResult, why: &str) -> CompletionResult {
    CompletionResult {
        score: 0.0,
        passed: false,
        status: Status::Ok,
        detail: format!("scored 0, not masked: {why} ({})", failed.detail),
        fuel: failed.fuel,
        wall_us: failed.wall_us,
        mask: false,
        cases: Vec::new(),
    }
}
