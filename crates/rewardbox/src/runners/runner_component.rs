//! What every `runner` component has in common (the CPython, JavaScript and Monty runtimes):
//! compiled once through the cache, linked for candidates, and a program run in a fresh instance.

use crate::runners::bindings::types::RunOutcome;
use crate::runners::bindings::{Runner, RunnerPre};
use crate::runners::linker::{CandidateState, candidate_linker};
use crate::runners::outcome::{call_in_fresh_jobs, run_outcome};
use rewardbox_sandbox::Job;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::workspace::DiskBudget;
use rewardbox_toolchains::Language;
use wasmtime::Engine;
use wasmtime::component::Component;

/// A `runner` component compiled for `engine` and linked for candidate instances.
pub struct RunnerComponent {
    /// The compiled component.
    pub component: Component,
    /// The component linked for candidates.
    pub pre: RunnerPre<CandidateState>,
    /// Fuel a program's sleep costs per millisecond: its language's time-limit rate.
    pub sleep_fuel_per_ms: u64,
    /// The budget of each program's own `/tmp`, for a runtime whose programs can use one.
    pub scratch: Option<DiskBudget>,
}

impl RunnerComponent {
    /// Compiles `wasm` (or loads it from `cache`) and links it for programs in `language`;
    /// errors name the runtime as `what`.
    pub fn load(
        engine: &Engine,
        cache: &ComponentCache,
        wasm: &[u8],
        language: Language,
        what: &str,
    ) -> Result<RunnerComponent, String> {
        let component = cache
            .load(engine, wasm)
            .map_err(|e| format!("{what}: {e:#}"))?;
        RunnerComponent::link(engine, component, language, what)
    }

    /// Like [`RunnerComponent::load`], for a component whose export `init` sets it up: the
    /// instance is snapshotted after it ran ([`crate::runners::prepared`]) and every run starts
    /// from there.
    pub fn load_prepared(
        engine: &Engine,
        cache: &ComponentCache,
        wasm: &[u8],
        init: &str,
        language: Language,
        what: &str,
    ) -> Result<RunnerComponent, String> {
        let component = crate::runners::prepared::load_prepared(engine, cache, wasm, init)
            .map_err(|e| format!("{what}: {e:#}"))?;
        RunnerComponent::link(engine, component, language, what)
    }

    fn link(
        engine: &Engine,
        component: Component,
        language: Language,
        what: &str,
    ) -> Result<RunnerComponent, String> {
        let pre = candidate_linker(engine, Some(&component))
            .and_then(|linker| Ok(linker.instantiate_pre(&component)?))
            .and_then(|pre| Ok(RunnerPre::new(pre)?))
            .map_err(|e| format!("linking {what}: {e:#}"))?;
        Ok(RunnerComponent {
            component,
            pre,
            sleep_fuel_per_ms: crate::runners::time_limit::sleep_fuel_per_ms(language),
            scratch: None,
        })
    }

    /// This runtime with a `/tmp` of its own for each program (see [`JobIo::scratch`]).
    pub fn with_scratch(self) -> RunnerComponent {
        RunnerComponent {
            scratch: Some(rewardbox_sandbox::job::SCRATCH_BUDGET),
            ..self
        }
    }

    /// A fresh job for one of this runtime's programs: `io` (with the runtime's `/tmp`, if it
    /// gives one), `limits`, `seed`, and sleeps at the language's rate.
    pub fn job(&self, engine: &Engine, io: JobIo<'_>, limits: &Limits, seed: u64) -> Job<()> {
        let io = JobIo {
            scratch: io.scratch.or(self.scratch),
            ..io
        };
        let mut job = Job::with_io(engine, limits, seed, io, ());
        job.charge_sleeps_at(self.sleep_fuel_per_ms);
        job
    }

    /// Runs `source` in a fresh instance given `io`, with `limits`.
    pub fn run(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let mut job = self.job(engine, io, limits, seed);
        let result =
            rewardbox_sandbox::instantiate_retrying(|| self.pre.instantiate(&mut job.store))
                .and_then(|r: Runner| r.call_run(&mut job.store, source));
        run_outcome(&job, result)
    }

    /// Executes `source` once in a fresh instance and calls `entry` on each JSON argument list;
    /// when the instance dies mid-way (fuel, memory, an exit), the lists are called again one per
    /// fresh instance, so that each gets its own outcome.
    pub fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        call_in_fresh_jobs(
            || self.job(engine, JobIo::default(), limits, seed),
            args_json,
            |store, args| {
                rewardbox_sandbox::instantiate_retrying(|| self.pre.instantiate(&mut *store))
                    .and_then(|r: Runner| r.call_call(&mut *store, source, entry, args))
            },
        )
    }
}
