//! Interactive runs: a candidate and an interactor (a contest's interactive output validator) run
//! at once, each one's standard output the other's standard input ([`rewardbox_sandbox::pipe`]).
//!
//! Both programs are compiled first, so that neither waits on the other's compiler. The
//! interactor runs on a thread of its own; the candidate on the caller's. Whichever ends first is
//! recorded (a judge's verdict depends on it). When the interactor ends first with an exit code
//! other than the one with which it accepts (Kattis's 42, testlib's 0) the candidate is stopped:
//! its verdict is the interactor's, and nothing it does after that can change it. The candidate's
//! outcome carries what it wrote to the interactor as its stdout (its transcript).

use crate::runners::Runners;
use crate::runners::bindings::types::{
    Interaction, Invocation, InvocationOutcome, RunOutcome, RunStatus,
};
use crate::runners::checker::{Checker, run_checker};
use rewardbox_sandbox::engine::THREAD_STACK_BYTES;
use rewardbox_sandbox::job::{JobIo, RunFailure};
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::pipe::duplex;
use std::sync::Mutex;

/// The exit code with which a Kattis interactor accepts.
pub const KATTIS_ACCEPTED: i32 = 42;

/// The exit code with which a testlib interactor (Codeforces' Polygon) accepts: `_ok`.
pub const TESTLIB_ACCEPTED: i32 = 0;

/// One of the two programs: its language, source and limits.
#[derive(Debug, Clone, Copy)]
pub struct Party<'a> {
    /// A language name or alias.
    pub language: &'a str,
    /// The program.
    pub source: &'a str,
    /// Its limits for the whole run.
    pub limits: &'a Limits,
}

/// The outcome of a program that was not started because its peer could not be.
pub(crate) fn not_run(why: &str) -> RunOutcome {
    RunOutcome {
        status: RunStatus::Ok,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: not run: {why}"),
        fuel_used: 0,
    }
}

/// Runs `candidate` against `interactor` (given `invocation`'s command line and files, as a
/// checker is), seeded with `seed`; `accepts` is the exit code with which the interactor accepts
/// ([`KATTIS_ACCEPTED`], [`TESTLIB_ACCEPTED`]).
pub fn interact(
    runners: &Runners,
    candidate: Party<'_>,
    interactor: Party<'_>,
    invocation: &Invocation,
    seed: u64,
    accepts: i32,
) -> Interaction {
    if let Err(outcome) = runners.prepare(interactor.language, interactor.source) {
        return Interaction {
            candidate: not_run("the interactor could not be started"),
            interactor: InvocationOutcome {
                outcome,
                feedback: Vec::new(),
            },
            interactor_first: true,
            deadlock: false,
        };
    }
    if let Err(outcome) = runners.prepare(candidate.language, candidate.source) {
        return Interaction {
            candidate: outcome,
            interactor: InvocationOutcome {
                outcome: not_run("the candidate could not be started"),
                feedback: Vec::new(),
            },
            interactor_first: false,
            deadlock: false,
        };
    }
    let (candidate_end, interactor_end) = duplex();
    let first: Mutex<Option<bool>> = Mutex::new(None);
    let record = |interactor_ended: bool| {
        let mut first = first.lock().unwrap_or_else(|e| e.into_inner());
        first.get_or_insert(interactor_ended);
    };
    let cancel = rewardbox_sandbox::cancel::current();
    let (candidate_outcome, interactor_outcome) = std::thread::scope(|scope| {
        let interactor_thread = std::thread::Builder::new()
            .name("rewardbox-interactor".into())
            .stack_size(THREAD_STACK_BYTES)
            .spawn_scoped(scope, || {
                let outcome = rewardbox_sandbox::cancel::with_cancel(cancel, || {
                    let checker = Checker {
                        language: interactor.language,
                        source: interactor.source,
                        invocation,
                    };
                    let pipe = Some(&interactor_end);
                    run_checker(runners, checker, "", interactor.limits, seed, pipe)
                });
                record(true);
                interactor_end.close();
                if outcome.outcome.exit_code != Some(accepts) {
                    candidate_end.stop();
                }
                outcome
            })
            .expect("starting the interactor's thread");
        let io = JobIo {
            pipe: Some(&candidate_end),
            ..JobIo::default()
        };
        let outcome = runners.run_with(
            candidate.language,
            candidate.source,
            io,
            candidate.limits,
            seed,
        );
        record(false);
        candidate_end.close();
        let interactor = interactor_thread
            .join()
            .unwrap_or_else(|_| InvocationOutcome {
                outcome: crate::runners::outcome::crashed("the interactor's thread panicked"),
                feedback: Vec::new(),
            });
        (outcome, interactor)
    });
    let interactor_first = first
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .unwrap_or(false);
    let mut candidate_outcome = candidate_outcome;
    // What it said to the interactor: its stdout went there, and a judge may record it.
    candidate_outcome.stdout = String::from_utf8_lossy(&candidate_end.written()).into_owned();
    if interactor_first && interactor_outcome.outcome.exit_code != Some(accepts) {
        as_stopped(&mut candidate_outcome);
    }
    Interaction {
        candidate: candidate_outcome,
        interactor: interactor_outcome,
        interactor_first,
        deadlock: candidate_end.deadlocked(),
    }
}

/// The outcome of a candidate stopped because its interactor had ended and decided, the same
/// whichever came first after that: the candidate seeing the end of its input and ending well,
/// or the host stopping it. Nothing it did after the interactor ended matters, so a run does
/// not report (and a verifier does not pay to read) which of the two won the race.
fn as_stopped(outcome: &mut RunOutcome) {
    if outcome.status != RunStatus::Ok {
        return;
    }
    outcome.exit_code = None;
    let stopped = format!("rewardbox: the program {}", RunFailure::Stopped);
    if let Some(kept) = outcome.stderr.strip_suffix(&stopped) {
        outcome.stderr = kept.to_string();
    }
    if !outcome.stderr.is_empty() && !outcome.stderr.ends_with('\n') {
        outcome.stderr.push('\n');
    }
    outcome.stderr.push_str(&stopped);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a verifier reads of an outcome.
    fn seen(o: &RunOutcome) -> (RunStatus, Option<i32>, String, String) {
        (o.status, o.exit_code, o.stdout.clone(), o.stderr.clone())
    }

    fn outcome(exit_code: Option<i32>, stderr: &str) -> RunOutcome {
        RunOutcome {
            status: RunStatus::Ok,
            exit_code,
            stdout: String::new(),
            stderr: stderr.to_string(),
            fuel_used: 7,
        }
    }

    #[test]
    fn a_candidate_stopped_after_its_interactor_decided_reads_the_same_either_way() {
        let stopped = format!("rewardbox: the program {}", RunFailure::Stopped);
        // It saw the end of its input and ended well, or the host stopped it first.
        for (ended, was_stopped) in [
            (outcome(Some(0), ""), outcome(None, &stopped)),
            (
                outcome(None, "debug line\n"),
                outcome(None, &format!("debug line\n{stopped}")),
            ),
            (
                outcome(Some(0), "no newline"),
                outcome(None, &format!("no newline\n{stopped}")),
            ),
        ] {
            let (mut a, mut b) = (ended, was_stopped);
            as_stopped(&mut a);
            as_stopped(&mut b);
            assert_eq!(seen(&a), seen(&b));
            assert_eq!(a.exit_code, None);
            assert!(a.stderr.ends_with(&stopped));
        }
        // A candidate that failed on its own keeps its outcome.
        let mut crashed = RunOutcome {
            status: RunStatus::Crashed,
            ..outcome(Some(139), "boom")
        };
        let before = seen(&crashed);
        as_stopped(&mut crashed);
        assert_eq!(seen(&crashed), before);
    }
}
