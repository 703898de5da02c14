//! What the host offers verifier components beyond WASI: the `sandbox` interface, through which a
//! verifier asks for a candidate program to be run in a fresh sandbox of its own.

use crate::bindings::{sandbox, types};
use crate::engine::ticks_for;
use crate::memo;
use crate::runner::{Runners, candidate_limits};
use crate::sandbox::JobState;
use std::sync::Arc;
use std::time::Instant;

/// Host-side context a verifier's job carries for its `sandbox` calls.
#[derive(Clone, Default)]
pub struct HostContext {
    runners: Option<Arc<Runners>>,
    seed: u64,
    /// Wall-clock ticks spent in candidate runs not yet credited back to the verifier's own
    /// deadline (the verifier's wall-clock limit covers its own work, not its candidates').
    pub(crate) credit_ticks: u64,
}

impl HostContext {
    /// A context whose `sandbox` calls run candidates with `runners`, seeded with `seed`.
    pub fn new(runners: Arc<Runners>, seed: u64) -> Self {
        HostContext {
            runners: Some(runners),
            seed,
            credit_ticks: 0,
        }
    }

    fn credit(&mut self, started: Instant) {
        self.credit_ticks += ticks_for(started.elapsed().as_millis() as u64);
    }
}

fn unavailable(message: String) -> types::RunOutcome {
    types::RunOutcome {
        status: types::RunStatus::Crashed,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

impl types::Host for JobState {}

impl sandbox::Host for JobState {
    fn run(
        &mut self,
        language: String,
        source: String,
        stdin: String,
        limits: types::Limits,
    ) -> types::RunOutcome {
        let Some(runners) = self.host.runners.clone() else {
            return unavailable("this job cannot run candidate programs".into());
        };
        let started = Instant::now();
        let limits = candidate_limits(&limits, &runners.defaults);
        let seed = self.host.seed;
        let key = memo::key(
            &[language.as_bytes(), source.as_bytes(), stdin.as_bytes()],
            &limits,
            seed,
        );
        let outcome = match runners.get(&language) {
            Ok(runner) => runners.run_memo.get_or_compute(key, || {
                runner.run(runners.engine(), &source, &stdin, &limits, seed)
            }),
            Err(message) => unavailable(message),
        };
        self.host.credit(started);
        outcome
    }

    fn call(
        &mut self,
        language: String,
        source: String,
        entry: String,
        args_json: Vec<String>,
        limits: types::Limits,
    ) -> Vec<Result<String, types::RunOutcome>> {
        let Some(runners) = self.host.runners.clone() else {
            return vec![
                Err(unavailable("this job cannot run candidate programs".into()));
                args_json.len()
            ];
        };
        let started = Instant::now();
        let limits = candidate_limits(&limits, &runners.defaults);
        let seed = self.host.seed;
        let mut parts: Vec<&[u8]> = vec![language.as_bytes(), source.as_bytes(), entry.as_bytes()];
        parts.extend(args_json.iter().map(|a| a.as_bytes()));
        let key = memo::key(&parts, &limits, seed);
        let results = match runners.get(&language) {
            Ok(runner) => runners.call_memo.get_or_compute(key, || {
                runner.call(runners.engine(), &source, &entry, &args_json, &limits, seed)
            }),
            Err(message) => vec![Err(unavailable(message)); args_json.len()],
        };
        self.host.credit(started);
        results
    }
}
