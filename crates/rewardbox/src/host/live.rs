//! A live candidate: one sandboxed candidate instance, executed once, then called many times by a
//! trusted owner (a checking sandbox through the host's `sandbox` interface, or the host itself
//! for a session). The owner keeps the checks, the expected values and the verdict; the candidate
//! only ever hands back value JSON.
//!
//! Limits hold across all calls of a candidate together: one fuel budget, one output budget, one
//! memory limit, and a wall-clock budget that counts only the time spent inside the candidate.
//! Once it exits, traps or crosses a limit, it has ended: that call and every later one answer
//! the same outcome.

use crate::runners::bindings::Runner;
use crate::runners::bindings::types::{CallError, Member, Output, Raised, RunOutcome, Target};
use crate::runners::linker::CandidateState;
use crate::runners::outcome::failed;
use crate::runners::python::PythonRunner;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::stack::with_room;
use rewardbox_sandbox::{Job, Mount};
use std::time::{Duration, Instant};
use wasmtime::Engine;

/// The file name a live candidate's source is compiled under (its tracebacks name it).
pub const SOURCE_FILE: &str = "solution.py";

/// The most value JSON one answer may hold: a larger answer is the candidate's failure, and never
/// reaches its owner (whose own memory limit it could exhaust).
pub const MAX_ANSWER_BYTES: usize = 8 << 20;

/// A candidate program held in a sandbox of its own for its owner to call.
pub struct LiveCandidate {
    job: Job<()>,
    instance: Runner,
    members: Vec<Member>,
    wall_left: Duration,
    ended: Option<RunOutcome>,
}

impl LiveCandidate {
    /// Starts `source` in a fresh instance of `component` with `limits` and executes it once as
    /// module `solution`. An exception while loading is `raised`; an exit or a limit `ended`.
    pub fn open(
        python: &PythonRunner,
        engine: &Engine,
        source: &str,
        limits: &Limits,
        seed: u64,
    ) -> Result<LiveCandidate, CallError> {
        with_room(|| {
            LiveCandidate::open_here(python, engine, source, SOURCE_FILE, limits, seed, &[])
        })
    }

    /// [`LiveCandidate::open`], the program named `filename`, the candidate seeing `mounts` too
    /// (an episode's workspace, from which the agent's code imports its other files): a
    /// `filename` in one of them is the program's working directory and first import path.
    pub fn open_with_files(
        python: &PythonRunner,
        engine: &Engine,
        source: &str,
        filename: &str,
        limits: &Limits,
        seed: u64,
        mounts: &[Mount<'_>],
    ) -> Result<LiveCandidate, CallError> {
        with_room(|| {
            LiveCandidate::open_here(python, engine, source, filename, limits, seed, mounts)
        })
    }

    /// [`LiveCandidate::open_with_files`] on the current thread.
    fn open_here(
        python: &PythonRunner,
        engine: &Engine,
        source: &str,
        filename: &str,
        limits: &Limits,
        seed: u64,
        mounts: &[Mount<'_>],
    ) -> Result<LiveCandidate, CallError> {
        let io = JobIo {
            mounts,
            ..JobIo::default()
        };
        let mut job = python.job(engine, io, limits, seed);
        let started = Instant::now();
        let instance = match rewardbox_sandbox::instantiate_retrying(|| {
            python.pre().instantiate(&mut job.store)
        }) {
            Ok(instance) => instance,
            Err(error) => return Err(CallError::Ended(failed(&job, &error))),
        };
        let mut live = LiveCandidate {
            job,
            instance,
            members: Vec::new(),
            wall_left: Duration::from_millis(limits.wall_ms),
            ended: None,
        };
        live.wall_left = live.wall_left.saturating_sub(started.elapsed());
        let loaded = live.enter(|instance, store| instance.call_load(store, source, filename));
        match loaded {
            Ok(members) => {
                live.members = members;
                Ok(live)
            }
            Err(error) => Err(error),
        }
    }

    /// The public names of the candidate's module.
    pub fn members(&self) -> &[Member] {
        &self.members
    }

    /// Calls `target` with value JSON `args` (a list) and `kwargs` (a dict).
    pub fn call(&mut self, target: &Target, args: &str, kwargs: &str) -> Result<String, CallError> {
        let answer =
            self.enter(|instance, store| instance.call_invoke(store, target, args, kwargs));
        bounded(answer)
    }

    /// Reads `target` as value JSON.
    pub fn get(&mut self, target: &Target) -> Result<String, CallError> {
        let answer = self.enter(|instance, store| instance.call_inspect(store, target));
        bounded(answer)
    }

    /// What the candidate wrote since the output was last taken.
    pub fn take_output(&mut self) -> Output {
        Output {
            stdout: self.job.stdout.take(),
            stderr: self.job.stderr.take(),
        }
    }

    /// Fuel used so far, loading included (since the last [`LiveCandidate::renew`]).
    pub fn fuel_used(&self) -> u64 {
        self.job.fuel_used()
    }

    /// A fresh budget of fuel, wall clock and output under `limits`, for a candidate held across
    /// steps (a session): each step then has its own budget, and memory stays as it is. An ended
    /// candidate stays ended.
    pub fn renew(&mut self, limits: &Limits) {
        self.job.renew(limits);
        self.wall_left = Duration::from_millis(limits.wall_ms);
    }

    /// How the candidate ended, if it has.
    pub fn ended(&self) -> Option<&RunOutcome> {
        self.ended.as_ref()
    }

    /// Runs one export of the candidate within what is left of its wall-clock budget, and turns
    /// an exit, a trap or a limit into the candidate's end.
    fn enter<T: Send>(
        &mut self,
        call: impl Send
        + FnOnce(
            &Runner,
            &mut wasmtime::Store<CandidateState>,
        ) -> wasmtime::Result<Result<T, CallError>>,
    ) -> Result<T, CallError> {
        if let Some(outcome) = &self.ended {
            return Err(CallError::Ended(outcome.clone()));
        }
        let wall_ms = self.wall_left.as_millis() as u64;
        self.job.set_wall(wall_ms);
        let started = Instant::now();
        let (instance, store) = (&self.instance, &mut self.job.store);
        let result = with_room(|| call(instance, store));
        self.job.call_returned();
        self.wall_left = self.wall_left.saturating_sub(started.elapsed());
        let outcome = match result {
            Ok(Err(CallError::Ended(exit))) => RunOutcome {
                status: exit.status,
                exit_code: exit.exit_code,
                stdout: self.job.stdout.take(),
                stderr: self.job.stderr.take(),
                fuel_used: self.job.fuel_used(),
            },
            Ok(answer) => return answer,
            Err(error) => {
                // The outcome carries what was not taken yet; drain it so that it is not taken twice.
                let outcome = failed(&self.job, &error);
                self.job.stdout.take();
                self.job.stderr.take();
                outcome
            }
        };
        self.ended = Some(outcome.clone());
        Err(CallError::Ended(outcome))
    }
}

/// An answer over [`MAX_ANSWER_BYTES`] becomes the candidate's failure.
fn bounded(answer: Result<String, CallError>) -> Result<String, CallError> {
    match answer {
        Ok(text) if text.len() > MAX_ANSWER_BYTES => Err(CallError::Raised(Raised {
            type_name: "NotPlainData".into(),
            message: format!(
                "the candidate handed back {} bytes of data, above the limit of {MAX_ANSWER_BYTES}",
                text.len()
            ),
            builtin: false,
        })),
        other => other,
    }
}
