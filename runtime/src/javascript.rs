//! The JavaScript runner (`guests/js`: the Boa engine as a component of the `runner` world):
//! Node.js-style programs on stdin (`run`) and functions called on JSON arguments (`call`), each
//! in a fresh instance with the candidate's limits.

use crate::bindings::runner::{Runner, RunnerPre};
use crate::bindings::types::RunOutcome;
use crate::host::HostContext;
use crate::limits::Limits;
use crate::runner::{crashed, error_outcome, failed};
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
        match result {
            Ok(outcome) => RunOutcome {
                status: outcome.status,
                exit_code: outcome.exit_code,
                stdout: job.stdout.text(),
                stderr: job.stderr.text(),
                fuel_used: job.fuel_used(),
            },
            Err(error) => failed(&job, &error),
        }
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
        match self.call_once(engine, source, entry, args_json, limits, seed) {
            Ok(results) => results,
            Err(outcome) if args_json.len() <= 1 => vec![Err(outcome); args_json.len()],
            Err(_) => args_json
                .iter()
                .map(|args| {
                    let one = std::slice::from_ref(args);
                    match self.call_once(engine, source, entry, one, limits, seed) {
                        Ok(mut one) => one
                            .pop()
                            .unwrap_or_else(|| Err(crashed("the runner returned no result"))),
                        Err(outcome) => Err(outcome),
                    }
                })
                .collect(),
        }
    }

    fn call_once(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Result<Vec<Result<String, RunOutcome>>, RunOutcome> {
        let mut job = Job::new(engine, limits, seed, b"", HostContext::default());
        let result = self
            .pre
            .instantiate(&mut job.store)
            .and_then(|r: Runner| r.call_call(&mut job.store, source, entry, args_json));
        let fuel_used = job.fuel_used();
        match result {
            Ok(results) if results.len() == args_json.len() => Ok(results
                .into_iter()
                .map(|r| r.map_err(|message| error_outcome(message, fuel_used)))
                .collect()),
            Ok(_) => Err(crashed("the runner returned the wrong number of results")),
            Err(error) => Err(failed(&job, &error)),
        }
    }
}
