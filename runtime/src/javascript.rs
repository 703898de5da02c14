//! The JavaScript runner (`guests/js`: the Boa engine as a component of the `runner` world):
//! Node.js-style programs on stdin (`run`) and functions called on JSON arguments (`call`), each
//! in a fresh instance with the candidate's limits.

use crate::bindings::runner::{Runner, RunnerPre};
use crate::bindings::types::RunOutcome;
use crate::host::HostContext;
use crate::limits::Limits;
use crate::runner::{call_in_fresh_jobs, run_outcome};
use crate::sandbox::{Job, JobState};
use wasmtime::Engine;

/// The JavaScript runner component.
pub static JS_RUNNER_WASM: &[u8] = include_bytes!(env!("REWARDBOX_JS_RUNNER_WASM"));

/// The JavaScript runner, linked and ready to instantiate.
pub struct JavaScriptComponent {
    pre: RunnerPre<JobState>,
}

impl JavaScriptComponent {
    /// Wraps the linked component.
    pub fn new(pre: RunnerPre<JobState>) -> Self {
        JavaScriptComponent { pre }
    }

    /// Runs `source` with `stdin` in a fresh instance.
    pub fn run(
        &self,
        engine: &Engine,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let mut job = Job::new(
            engine,
            limits,
            seed,
            stdin.as_bytes(),
            HostContext::default(),
        );
        let result = self
            .pre
            .instantiate(&mut job.store)
            .and_then(|r: Runner| r.call_run(&mut job.store, source));
        run_outcome(&job, result)
    }

    /// Executes `source` once in a fresh instance and calls `entry` on each argument list. When
    /// the instance dies mid-way, the cases are re-run one per fresh instance.
    pub fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        call_in_fresh_jobs(engine, limits, seed, args_json, |store, args| {
            self.pre
                .instantiate(&mut *store)
                .and_then(|r: Runner| r.call_call(&mut *store, source, entry, args))
        })
    }
}
