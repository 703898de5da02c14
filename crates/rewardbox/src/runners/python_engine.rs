//! Python's two engines behind one [`Runtime`], as a task's `python_engine` asks: `auto` runs a
//! program in Monty first (a fresh instance in tens of microseconds) and in CPython when Monty's
//! outcome cannot stand; `monty` in Monty alone; `cpython` in CPython alone. Functions are always
//! called in CPython (Monty's tier runs programs on stdin/stdout only).
//!
//! Monty runs a subset of Python. Its outcome is kept only when the program ended normally
//! (`ok`: it ran to its end, or `sys.exit(0)`) within budgets small enough that CPython would
//! have ended within the task's own (and at most [`MONTY_FUEL_CAP`]). Anything else (an
//! exception, a construct or module Monty lacks, iterating `sys.stdin`, a limit crossed) runs
//! again in CPython, whose outcome is the one reported. A wrong answer is an `ok` run, so it
//! stands: its output is the verifier's to judge. `crates/rewardbox/tests/all/python_engines.rs` runs 458 programs in
//! both engines and checks that an `ok` from screened Monty is CPython's outcome, stdout for
//! stdout.

use crate::runners::bindings::types::{RunOutcome, RunStatus};
use crate::runners::monty::MontyRunner;
use crate::runners::python::PythonRunner;
use crate::runners::runtime::Runtime;
use rewardbox_languages::PythonEngine;
use rewardbox_languages::python_engine::AUTO_MARKER;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use std::sync::Arc;
use wasmtime::Engine;

/// The most fuel CPython burned per unit of Monty's fuel on the same program, over the
/// calibration programs of `crates/rewardbox/tests/all/python_engines.rs` (21 of them), with a margin: 1.59 (modular
/// multiplication in a loop; 1.39 bit operations, 1.27 an integer loop, 0.4 to 1.2 on the others,
/// where Monty mostly burns more than CPython). Monty's budget is the task's divided by it, so a
/// program that ends within it in Monty would have ended within the task's budget in CPython.
pub const CPYTHON_FUEL_PER_MONTY_FUEL: u64 = 2;

/// The most fuel Monty's attempt gets, whatever the task's budget: about a tenth of a second of
/// Monty's work. A program that needs more is compute-bound; it then runs in CPython having lost
/// at most that much (with half the task's budget, a 3M-iteration loop spent 0.5 s in Monty before
/// CPython's 0.9 s).
pub const MONTY_FUEL_CAP: u64 = 1_000_000_000;

/// Monty's memory is a fraction of the task's: CPython holds the same data in more bytes (and its
/// own heap to start with), so a program near the limit runs in CPython, which decides it.
pub const MONTY_MEMORY_SHARE: u64 = 2;

/// Monty and CPython, used as `engine` says.
pub struct PythonEngines {
    /// `auto` or `monty` (`cpython` needs no Monty: use [`PythonRunner`] itself).
    pub engine: PythonEngine,
    /// The fast tier.
    pub monty: Arc<MontyRunner>,
    /// The reference: calls, and what Monty's outcome cannot decide.
    pub cpython: Arc<PythonRunner>,
}

/// The limits of Monty's attempt at a run with `limits`.
pub fn monty_limits(limits: &Limits) -> Limits {
    Limits {
        fuel: (limits.fuel / CPYTHON_FUEL_PER_MONTY_FUEL).min(MONTY_FUEL_CAP),
        memory_bytes: limits.memory_bytes / MONTY_MEMORY_SHARE,
        ..*limits
    }
}

impl Runtime for PythonEngines {
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        match self.engine {
            PythonEngine::CPython => {
                return self.cpython.run_with(engine, source, io, limits, seed);
            }
            PythonEngine::Monty => return self.monty.run_with(engine, source, io, limits, seed),
            PythonEngine::Auto => {}
        }
        if MontyRunner::refusal(&io).is_none() {
            // Marked, so that Monty first screens out what it would run differently.
            let screened = format!("{AUTO_MARKER}{source}");
            let fast = self
                .monty
                .run_with(engine, &screened, io, &monty_limits(limits), seed);
            if fast.status == RunStatus::Ok {
                return fast;
            }
        }
        self.cpython.run_with(engine, source, io, limits, seed)
    }

    fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        self.cpython
            .call(engine, source, entry, args_json, limits, seed)
    }
}
