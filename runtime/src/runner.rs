//! Candidate-program runtimes: the CPython runner component, instantiated in a fresh Store with the
//! candidate's limits for every `sandbox.run` / `sandbox.call` a verifier makes. Set up once per
//! process (compiled lazily, cached as `.cwasm`), shared by every thread.

use crate::bindings::runner::{Runner, RunnerPre};
use crate::bindings::types::{self, RunOutcome, RunStatus};
use crate::cache::ComponentCache;
use crate::host::HostContext;
use crate::limits::Limits;
use crate::memo::RunMemo;
use crate::sandbox::{Job, JobState, RunFailure};
use std::sync::{Arc, OnceLock};
use wasmtime::Engine;
use wasmtime::component::Linker;

/// The CPython runner component, when this build has one (built by `build.rs` with
/// componentize-py).
#[cfg(rewardbox_python_runner)]
pub static PYTHON_RUNNER_WASM: Option<&[u8]> =
    Some(include_bytes!(env!("REWARDBOX_PYTHON_RUNNER_WASM")));
/// The CPython runner component, when this build has one: this one was built without
/// componentize-py (run `scripts/setup.sh`, which installs it, then rebuild).
#[cfg(not(rewardbox_python_runner))]
pub static PYTHON_RUNNER_WASM: Option<&[u8]> = None;

/// Languages a candidate may be written in.
pub fn languages() -> Vec<&'static str> {
    if PYTHON_RUNNER_WASM.is_some() {
        vec!["python"]
    } else {
        Vec::new()
    }
}

/// Limits of a candidate run unless the verifier asks for others: fuel for a few seconds of
/// Python, 256 MiB, 1 MiB of output, and a wall-clock safety net.
pub const CANDIDATE_DEFAULT: Limits = Limits {
    fuel: 10_000_000_000,
    wall_ms: 20_000,
    memory_bytes: 256 << 20,
    output_bytes: 1 << 20,
};

type Loaded = Result<Arc<RunnerComponent>, String>;

/// The runtimes of this process, loaded on first use.
pub struct Runners {
    engine: Engine,
    cache: ComponentCache,
    linker: Linker<JobState>,
    python: OnceLock<Loaded>,
    /// Limits of a candidate run where the verifier leaves them unset.
    pub defaults: Limits,
    /// Outcomes of earlier identical `run`s.
    pub run_memo: RunMemo<RunOutcome>,
    /// Results of earlier identical `call`s.
    pub call_memo: RunMemo<Vec<Result<String, RunOutcome>>>,
}

impl Runners {
    /// Runtimes compiled for `engine`, cached in `cache`.
    pub fn new(engine: Engine, cache: ComponentCache) -> anyhow::Result<Runners> {
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(|e| anyhow::anyhow!("linking WASI for the runners: {e}"))?;
        Ok(Runners {
            engine,
            cache,
            linker,
            python: OnceLock::new(),
            defaults: CANDIDATE_DEFAULT,
            run_memo: RunMemo::default(),
            call_memo: RunMemo::default(),
        })
    }

    /// The engine the runners are compiled for.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The runner for `language`, compiling it on first use.
    pub fn get(&self, language: &str) -> Loaded {
        match language {
            "python" | "python3" | "py" => self
                .python
                .get_or_init(|| {
                    let wasm = PYTHON_RUNNER_WASM.ok_or_else(|| {
                        "this build has no Python runner (build it with componentize-py installed: \
                         run scripts/setup.sh, then rebuild)"
                            .to_string()
                    })?;
                    let component = self
                        .cache
                        .load(&self.engine, wasm)
                        .map_err(|e| format!("the Python runner: {e:#}"))?;
                    let pre = self
                        .linker
                        .instantiate_pre(&component)
                        .and_then(RunnerPre::new)
                        .map_err(|e| format!("linking the Python runner: {e:#}"))?;
                    Ok(Arc::new(RunnerComponent { pre }))
                })
                .clone(),
            other => Err(format!(
                "no runner for language {other:?} (available: {})",
                languages().join(", ")
            )),
        }
    }
}

/// One runtime component, linked and ready to instantiate.
pub struct RunnerComponent {
    pre: RunnerPre<JobState>,
}

impl RunnerComponent {
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

    /// Executes `source` once in a fresh instance and calls `entry` on each argument list. When the
    /// instance dies mid-way (fuel, memory, `os._exit`), the cases are re-run one per fresh
    /// instance, so that each gets its own outcome.
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
                    match self.call_once(
                        engine,
                        source,
                        entry,
                        std::slice::from_ref(args),
                        limits,
                        seed,
                    ) {
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

/// A Python exception (or refused value) in one call: the message, as a failed program's stderr.
fn error_outcome(message: String, fuel_used: u64) -> RunOutcome {
    RunOutcome {
        status: RunStatus::ExitedNonzero,
        exit_code: Some(1),
        stdout: String::new(),
        stderr: message,
        fuel_used,
    }
}

fn crashed(message: &str) -> RunOutcome {
    RunOutcome {
        status: RunStatus::Crashed,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

/// How a run that did not return ended: `os._exit(n)`, a limit, or a trap.
fn failed(job: &Job, error: &wasmtime::Error) -> RunOutcome {
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
        RunFailure::Timeout { .. } => RunStatus::Timeout,
        RunFailure::MemoryExceeded { .. } => RunStatus::MemoryExceeded,
        RunFailure::OutputExceeded { .. } => RunStatus::OutputExceeded,
        RunFailure::StackOverflow | RunFailure::Trap { .. } => RunStatus::Crashed,
    };
    if !stderr.is_empty() && !stderr.ends_with('\n') {
        stderr.push('\n');
    }
    stderr.push_str(&format!("rewardbox: the program {failure}"));
    RunOutcome {
        status,
        exit_code: None,
        stdout,
        stderr,
        fuel_used,
    }
}

/// The limits of one candidate run: the verifier's request where set, the defaults elsewhere.
pub fn candidate_limits(requested: &types::Limits, defaults: &Limits) -> Limits {
    Limits {
        fuel: requested.fuel.unwrap_or(defaults.fuel),
        wall_ms: requested.wall_ms.map_or(defaults.wall_ms, u64::from),
        memory_bytes: requested.memory_bytes.unwrap_or(defaults.memory_bytes),
        output_bytes: requested
            .output_bytes
            .map_or(defaults.output_bytes, u64::from),
    }
}
