//! What the host offers verifier components beyond WASI: the `sandbox` interface, through which a
//! verifier runs a candidate program in a fresh sandbox of its own, holds one as a live candidate,
//! or runs a Python verifier in a trusted sandbox of its own.

use crate::bindings::{sandbox, types};
use crate::engine::ticks_for;
use crate::live::LiveCandidate;
use crate::memo;
use crate::runner::{Runners, candidate_limits, unsupported};
use crate::sandbox::JobState;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::component::Resource;

/// Live candidates one job may hold open at once.
pub const MAX_OPEN_CANDIDATES: usize = 4;

/// Host-side context a verifier's job carries for its `sandbox` calls.
#[derive(Clone, Default)]
pub struct HostContext {
    runners: Option<Arc<Runners>>,
    seed: u64,
    open_candidates: usize,
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
            open_candidates: 0,
            credit_ticks: 0,
        }
    }

    fn credit(&mut self, started: Instant) {
        self.credit_ticks += ticks_for(started.elapsed().as_millis() as u64);
    }
}

const NO_RUNNERS: &str = "this sandbox cannot run candidate programs";

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
            return unsupported(NO_RUNNERS.into());
        };
        let started = Instant::now();
        let limits = candidate_limits(&limits, &runners.defaults, runners.max_candidate.as_ref());
        let seed = self.host.seed;
        let key = memo::key(
            &[language.as_bytes(), source.as_bytes(), stdin.as_bytes()],
            &limits,
            seed,
        );
        let outcome = runners.run_memo.get_or_compute(key, || {
            runners.run(&language, &source, &stdin, &limits, seed)
        });
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
            return vec![Err(unsupported(NO_RUNNERS.into())); args_json.len()];
        };
        let started = Instant::now();
        let limits = candidate_limits(&limits, &runners.defaults, runners.max_candidate.as_ref());
        let seed = self.host.seed;
        let mut parts: Vec<&[u8]> = vec![language.as_bytes(), source.as_bytes(), entry.as_bytes()];
        parts.extend(args_json.iter().map(|a| a.as_bytes()));
        let key = memo::key(&parts, &limits, seed);
        let results = runners.call_memo.get_or_compute(key, || {
            runners.call(&language, &source, &entry, &args_json, &limits, seed)
        });
        self.host.credit(started);
        results
    }

    fn python_verify(
        &mut self,
        mode: types::PythonMode,
        source: String,
        task: String,
        completion: String,
        limits: types::Limits,
    ) -> Result<types::Verdict, types::VerifyError> {
        let Some(runners) = self.host.runners.clone() else {
            return Err(types::VerifyError::Failed(NO_RUNNERS.into()));
        };
        let started = Instant::now();
        let limits = candidate_limits(
            &limits,
            &runners.verifier_defaults,
            runners.max_candidate.as_ref(),
        );
        let seed = self.host.seed;
        let verdict = match runners.python() {
            Ok(python) => python.prepare_and_verify(
                &runners,
                runners.engine(),
                mode,
                &source,
                &task,
                &completion,
                &limits,
                seed,
            ),
            Err(message) => Err(types::VerifyError::Failed(message)),
        };
        self.host.credit(started);
        verdict
    }
}

fn invalid(message: &str) -> types::CallError {
    types::CallError::Invalid(message.to_string())
}

impl JobState {
    fn live(
        &mut self,
        candidate: &Resource<LiveCandidate>,
    ) -> Result<&mut LiveCandidate, types::CallError> {
        self.table
            .get_mut(candidate)
            .map_err(|e| invalid(&format!("not a live candidate of this sandbox: {e}")))
    }

    /// Runs `f` on a live candidate, crediting the time it takes to this job's deadline.
    fn with_live<T>(
        &mut self,
        candidate: &Resource<LiveCandidate>,
        f: impl FnOnce(&mut LiveCandidate) -> Result<T, types::CallError>,
    ) -> Result<T, types::CallError> {
        let started = Instant::now();
        let result = self.live(candidate).and_then(f);
        self.host.credit(started);
        result
    }
}

impl sandbox::HostCandidate for JobState {
    fn open(
        &mut self,
        language: String,
        source: String,
        limits: types::Limits,
    ) -> Result<Resource<LiveCandidate>, types::CallError> {
        let Some(runners) = self.host.runners.clone() else {
            return Err(invalid(NO_RUNNERS));
        };
        if self.host.open_candidates >= MAX_OPEN_CANDIDATES {
            return Err(invalid(&format!(
                "at most {MAX_OPEN_CANDIDATES} live candidates may be open at once in one verification"
            )));
        }
        let started = Instant::now();
        let limits = candidate_limits(&limits, &runners.defaults, runners.max_candidate.as_ref());
        let opened = match runners.get(&language) {
            Ok(python) => python.open_live(runners.engine(), &source, &limits, self.host.seed),
            Err(message) => Err(invalid(&message)),
        };
        self.host.credit(started);
        let live = opened?;
        let resource = self
            .table
            .push(live)
            .map_err(|e| invalid(&format!("the host could not hold another candidate: {e}")))?;
        self.host.open_candidates += 1;
        Ok(resource)
    }

    fn members(&mut self, candidate: Resource<LiveCandidate>) -> Vec<types::Member> {
        self.live(&candidate)
            .map(|live| live.members().to_vec())
            .unwrap_or_default()
    }

    fn call(
        &mut self,
        candidate: Resource<LiveCandidate>,
        target: types::Target,
        args: String,
        kwargs: String,
    ) -> Result<String, types::CallError> {
        self.with_live(&candidate, |live| live.call(&target, &args, &kwargs))
    }

    fn get(
        &mut self,
        candidate: Resource<LiveCandidate>,
        target: types::Target,
    ) -> Result<String, types::CallError> {
        self.with_live(&candidate, |live| live.get(&target))
    }

    fn take_output(&mut self, candidate: Resource<LiveCandidate>) -> types::Output {
        self.live(&candidate)
            .map(LiveCandidate::take_output)
            .unwrap_or(types::Output {
                stdout: String::new(),
                stderr: String::new(),
            })
    }

    fn fuel_used(&mut self, candidate: Resource<LiveCandidate>) -> u64 {
        self.live(&candidate).map_or(0, |live| live.fuel_used())
    }

    fn drop(&mut self, candidate: Resource<LiveCandidate>) -> wasmtime::Result<()> {
        self.table.delete(candidate)?;
        self.host.open_candidates = self.host.open_candidates.saturating_sub(1);
        Ok(())
    }
}
