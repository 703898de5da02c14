//! How a candidate run ended, as data: the outcome of a runner's `run`, the results of its `call`,
//! and the outcomes of runs that did not return (an exit, a limit, a trap) or could not be made.

use crate::runners::bindings::types::{RunOutcome, RunStatus};
use crate::runners::linker::CandidateState;
use rewardbox_sandbox::{Job, RunFailure};
use wasmtime::Store;

/// The outcome of a runner's `run` in `job`: what the runner said, with the output the host
/// captured, or how the instance ended when it did not return (or filled a directory past its
/// budget).
pub fn run_outcome<X: Send>(job: &Job<X>, result: wasmtime::Result<RunOutcome>) -> RunOutcome {
    // A last write may have crossed a directory's budget after the last check.
    let result = match (result, job.check_disk()) {
        (Ok(_), Err(exceeded)) => Err(wasmtime::Error::new(exceeded)),
        (result, _) => result,
    };
    match result {
        Ok(outcome) => RunOutcome {
            status: outcome.status,
            exit_code: outcome.exit_code,
            stdout: job.stdout.text(),
            stderr: job.stderr.text(),
            fuel_used: job.fuel_used(),
        },
        Err(error) => failed(job, &error),
    }
}

/// The results of a runner's `call` of `expected` argument lists in `job`: each value, or its
/// error as a failed program's outcome; `Err` when the instance ended (every case lost).
fn call_results(
    job: &Job<()>,
    result: wasmtime::Result<Vec<Result<String, String>>>,
    expected: usize,
) -> Result<Vec<Result<String, RunOutcome>>, RunOutcome> {
    let fuel_used = job.fuel_used();
    match result {
        Ok(results) if results.len() == expected => Ok(results
            .into_iter()
            .map(|r| r.map_err(|message| error_outcome(message, fuel_used)))
            .collect()),
        Ok(_) => Err(crashed("the runner returned the wrong number of results")),
        Err(error) => Err(failed(job, &error)),
    }
}

/// Calls a runner component's `call` on `args_json` in fresh jobs that `job` makes: `call`
/// instantiates the component in the store it is given and calls it on the argument lists it is
/// given. All the lists go to one instance; when it dies mid-way, each list gets a fresh instance
/// of its own.
pub fn call_in_fresh_jobs(
    job: impl Fn() -> Job<()>,
    args_json: &[String],
    call: impl Fn(
        &mut Store<CandidateState>,
        &[String],
    ) -> wasmtime::Result<Vec<Result<String, String>>>,
) -> Vec<Result<String, RunOutcome>> {
    call_each(args_json, |args| {
        let mut job = job();
        let result = call(&mut job.store, args);
        call_results(&job, result, args.len())
    })
}

/// Calls `call_once` on all of `args_json` in one instance; when that instance dies mid-way (fuel,
/// memory, an exit), re-runs the cases one per fresh instance, so that each gets its own outcome.
fn call_each(
    args_json: &[String],
    call_once: impl Fn(&[String]) -> Result<Vec<Result<String, RunOutcome>>, RunOutcome>,
) -> Vec<Result<String, RunOutcome>> {
    match call_once(args_json) {
        Ok(results) => results,
        Err(outcome) if args_json.len() <= 1 => vec![Err(outcome); args_json.len()],
        Err(_) => args_json
            .iter()
            .map(|args| match call_once(std::slice::from_ref(args)) {
                Ok(mut one) => one
                    .pop()
                    .unwrap_or_else(|| Err(crashed("the runner returned no result"))),
                Err(outcome) => Err(outcome),
            })
            .collect(),
    }
}

/// An exception (or refused value) in one call: the message, as a failed program's stderr.
pub fn error_outcome(message: String, fuel_used: u64) -> RunOutcome {
    RunOutcome {
        status: RunStatus::ExitedNonzero,
        exit_code: Some(1),
        stdout: String::new(),
        stderr: message,
        fuel_used,
    }
}

/// The outcome of a run this host cannot make: `unsupported`, with the reason.
pub fn unsupported(message: String) -> RunOutcome {
    RunOutcome {
        status: RunStatus::Unsupported,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

/// The outcome of a runtime that failed on its own (not the program): `crashed`, with the reason.
pub fn crashed(message: &str) -> RunOutcome {
    // On one line: a case's detail is the last line of a run's stderr, and wasmtime's errors
    // span several (an instance too large for the pool ends with a breakdown of its sizes).
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    RunOutcome {
        status: RunStatus::Crashed,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

/// How a run that did not return ended: an exit with a code, a limit, or a trap.
pub fn failed<X: Send>(job: &Job<X>, error: &wasmtime::Error) -> RunOutcome {
    let (stdout, mut stderr, fuel_used) = (job.stdout.text(), job.stderr.text(), job.fuel_used());
    if let Some(exit) = error.downcast_ref::<wasmtime_wasi::I32Exit>() {
        return RunOutcome {
            status: if exit.0 == 0 {
                RunStatus::Ok
            } else {
                RunStatus::ExitedNonzero
            },
            exit_code: Some(exit.0),
            stdout,
            stderr,
            fuel_used,
        };
    }
    let failure = job.classify(error);
    let status = match &failure {
        RunFailure::FuelExhausted { .. } => RunStatus::FuelExhausted,
        // A native judge sees a deadlock when its wall clock ends: the time limit.
        RunFailure::Timeout { .. } | RunFailure::Deadlock => RunStatus::Timeout,
        // Not the program's doing: a verifier reports it as its own failure, masked.
        RunFailure::HostBusy { .. } | RunFailure::HostRefused { .. } | RunFailure::Cancelled => {
            RunStatus::Unsupported
        }
        RunFailure::MemoryExceeded { .. } => RunStatus::MemoryExceeded,
        RunFailure::OutputExceeded { .. } | RunFailure::DiskBudgetExceeded(_) => {
            RunStatus::OutputExceeded
        }
        RunFailure::StackOverflow | RunFailure::Trap { .. } | RunFailure::UncaughtException => {
            RunStatus::Crashed
        }
        // Its peer decided without it: it ended well as far as it got (its stderr says so).
        RunFailure::Stopped => RunStatus::Ok,
    };
    if !stderr.is_empty() && !stderr.ends_with('\n') {
        stderr.push('\n');
    }
    let exit_code = match &failure {
        // Natively a stack that meets its limit is SIGSEGV, whichever stack it was.
        RunFailure::StackOverflow => Some(128 + 11),
        RunFailure::Trap { .. } => native_status(error, &stderr),
        // `std::terminate` aborts: SIGABRT.
        RunFailure::UncaughtException => Some(128 + 6),
        _ => None,
    };
    stderr.push_str(&format!("rewardbox: the program {failure}"));
    RunOutcome {
        status,
        exit_code,
        stdout,
        stderr,
        fuel_used,
    }
}

/// The status a native process ends with where a program trapped (as a shell reports it,
/// 128 + the signal): a Rust panic exits 101; `abort()` (and so a failed C `assert`, and
/// `std::process::abort`) is SIGABRT, 134; a wild memory access, a call through a bad pointer or
/// a stack overflow is SIGSEGV, 139; an integer division by zero or `INT_MIN / -1` is SIGFPE, 136.
/// `None` for a trap with no native counterpart.
fn native_status(error: &wasmtime::Error, stderr: &str) -> Option<i32> {
    use wasmtime::Trap;
    match error.downcast_ref::<Trap>()? {
        // Rust's panic handler prints "thread '…' panicked at" before it aborts.
        Trap::UnreachableCodeReached if stderr.contains("panicked at") => Some(101),
        Trap::UnreachableCodeReached => Some(128 + 6),
        Trap::MemoryOutOfBounds
        | Trap::HeapMisaligned
        | Trap::TableOutOfBounds
        | Trap::IndirectCallToNull
        | Trap::BadSignature
        | Trap::NullReference
        | Trap::StackOverflow => Some(128 + 11),
        Trap::IntegerDivisionByZero | Trap::IntegerOverflow => Some(128 + 8),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A program whose instance the pool cannot hold (60,000 functions whose addresses it takes
    /// need 1.9 MB of VM context) is told why on one line, not by the last line of wasmtime's
    /// breakdown.
    #[test]
    fn a_crash_is_said_on_one_line() {
        let outcome = crashed(
            "loading the compiled program failed: instance allocation for this module requires \
             1920320 bytes which exceeds the configured maximum of 1048576 bytes; breakdown of \
             allocation requirement:\n\n * 99.98% - 1920320 bytes - module functions\n",
        );
        assert_eq!(outcome.status, RunStatus::Crashed);
        assert_eq!(outcome.stderr.lines().count(), 1, "{}", outcome.stderr);
        assert!(
            outcome.stderr.ends_with(
                "exceeds the configured maximum of 1048576 bytes; breakdown of \
                            allocation requirement: * 99.98% - 1920320 bytes - module functions"
            ),
            "{}",
            outcome.stderr
        );
    }
}
