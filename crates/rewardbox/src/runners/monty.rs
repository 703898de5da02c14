//! The Monty runtime (`guests/monty`: pydantic's Monty, a Rust interpreter of a subset of Python,
//! as a component of the `runner` world): Python programs on stdin/stdout, each in a fresh
//! instance with the candidate's limits. An instance starts in tens of microseconds, where a
//! fresh CPython takes about a millisecond; [`crate::runners::python_engine`] decides when its
//! outcome stands.

use crate::runners::bindings::types::RunOutcome;
use crate::runners::outcome::unsupported;
use crate::runners::runner_component::RunnerComponent;
use crate::runners::runtime::Runtime;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_toolchains::Language;
use wasmtime::Engine;

/// The Monty runner component.
pub static MONTY_RUNNER_WASM: &[u8] = rewardbox_builtins::MONTY_RUNNER;

/// The Monty runner, compiled and linked for candidate instances.
pub struct MontyRunner {
    runner: RunnerComponent,
}

impl MontyRunner {
    /// Compiles (or loads from `cache`) the Monty runner and links it.
    pub fn load(engine: &Engine, cache: &ComponentCache) -> Result<MontyRunner, String> {
        RunnerComponent::load(
            engine,
            cache,
            MONTY_RUNNER_WASM,
            Language::Python,
            "the Monty runtime",
        )
        .map(|runner| MontyRunner { runner })
    }

    /// Why this runner cannot give a program what `io` asks, if it cannot: Monty reads standard
    /// input through `input()` only, and has no command line, files or pipe.
    pub fn refusal(io: &JobIo<'_>) -> Option<&'static str> {
        if io.pipe.is_some() {
            Some("the Monty tier cannot run a program interactively (use the cpython engine)")
        } else if !io.args.is_empty() || !io.mounts.is_empty() {
            Some("the Monty tier cannot give a program arguments or files (use the cpython engine)")
        } else {
            None
        }
    }
}

impl Runtime for MontyRunner {
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        if let Some(reason) = MontyRunner::refusal(&io) {
            return unsupported(reason.to_string());
        }
        self.runner.run(engine, source, io, limits, seed)
    }

    /// The Monty tier runs programs only: calls are CPython's (every outcome says so).
    fn call(
        &self,
        _engine: &Engine,
        _source: &str,
        _entry: &str,
        args_json: &[String],
        _limits: &Limits,
        _seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        let outcome = unsupported(
            "the Monty tier runs programs on stdin/stdout only: functions are called in CPython"
                .to_string(),
        );
        vec![Err(outcome); args_json.len()]
    }
}
