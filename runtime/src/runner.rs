//! Candidate-program runtimes: the CPython component ([`PythonComponent`]), instantiated in a fresh
//! Store with the candidate's limits for every `sandbox.run` / `sandbox.call` / live candidate a
//! verifier asks for. Set up once per process (compiled lazily, cached as `.cwasm`), shared by
//! every thread.

use crate::bindings::python::PythonPre;
use crate::bindings::runner::RunnerPre;
use crate::bindings::sandbox;
use crate::bindings::types::{self, RunOutcome, RunStatus};
use crate::cache::ComponentCache;
use crate::compiled::CompiledPrograms;
use crate::host::HostContext;
use crate::javascript::{JS_RUNNER_WASM, JavaScriptComponent};
use crate::limits::Limits;
use crate::memo::RunMemo;
use crate::python::{PythonComponent, PythonVerdict};
use crate::sandbox::{Job, JobState, RunFailure};
use rewardbox_toolchains::toolchain::CompileLimits;
use rewardbox_toolchains::{Language, Toolchains};
use std::sync::{Arc, OnceLock};
use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Engine, Store};

/// The CPython component, when this build has one (built by `build.rs` with componentize-py).
#[cfg(rewardbox_python_runner)]
pub static PYTHON_RUNNER_WASM: Option<&[u8]> =
    Some(include_bytes!(env!("REWARDBOX_PYTHON_RUNNER_WASM")));
/// The CPython component, when this build has one: this one was built without componentize-py
/// (run `scripts/setup.sh`, which installs it, then rebuild).
#[cfg(not(rewardbox_python_runner))]
pub static PYTHON_RUNNER_WASM: Option<&[u8]> = None;

/// Languages a candidate may be written in: Python when this build embeds CPython, and the
/// compiled languages (each needs its compiler on the host; see [`Runners::available`]).
pub fn languages() -> Vec<&'static str> {
    Language::ALL
        .iter()
        .filter(|l| **l != Language::Python || PYTHON_RUNNER_WASM.is_some())
        .map(|l| l.name())
        .collect()
}

/// Limits of a candidate run unless the verifier asks for others: fuel for a few seconds of
/// Python, 256 MiB, 1 MiB of output, and a wall-clock safety net.
pub const CANDIDATE_DEFAULT: Limits = Limits {
    fuel: 10_000_000_000,
    wall_ms: 20_000,
    memory_bytes: 256 << 20,
    output_bytes: 1 << 20,
};

type Loaded = Result<Arc<PythonComponent>, String>;

/// The runtimes of this process, loaded on first use.
pub struct Runners {
    engine: Engine,
    cache: ComponentCache,
    linker: Linker<JobState>,
    python: OnceLock<Loaded>,
    javascript: OnceLock<Result<Arc<JavaScriptComponent>, String>>,
    compiled: CompiledPrograms,
    /// Limits of a candidate run where the verifier leaves them unset.
    pub defaults: Limits,
    /// Limits of a Python verifier run through `sandbox.python-verify` where unset.
    pub verifier_defaults: Limits,
    /// The most a verifier may ask for a candidate's run (`None`: no cap).
    pub max_candidate: Option<Limits>,
    /// Outcomes of earlier identical `run`s.
    pub run_memo: RunMemo<RunOutcome>,
    /// Results of earlier identical `call`s.
    pub call_memo: RunMemo<Vec<Result<String, RunOutcome>>>,
    /// Verdicts of earlier identical Python verifications.
    pub verdict_memo: RunMemo<PythonVerdict>,
}

impl Runners {
    /// Runtimes compiled for `engine`, cached in `cache`; Python verifiers they run get
    /// `verifier_defaults` where the caller sets no limit.
    pub fn new(
        engine: Engine,
        cache: ComponentCache,
        verifier_defaults: Limits,
    ) -> anyhow::Result<Runners> {
        let mut linker = Linker::new(&engine);
        wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
            .map_err(|e| anyhow::anyhow!("linking WASI for the runners: {e}"))?;
        crate::sleep::cap_sleeps(&mut linker)
            .map_err(|e| anyhow::anyhow!("linking capped sleeps for the runners: {e}"))?;
        types::add_to_linker::<JobState, HasSelf<JobState>>(&mut linker, |state| state)
            .map_err(|e| anyhow::anyhow!("linking the runners' types: {e}"))?;
        sandbox::add_to_linker::<JobState, HasSelf<JobState>>(&mut linker, |state| state)
            .map_err(|e| anyhow::anyhow!("linking the sandbox interface for the runners: {e}"))?;
        let toolchains = Toolchains::new(cache.dir(), CompileLimits::default());
        Ok(Runners {
            engine,
            cache,
            linker,
            python: OnceLock::new(),
            javascript: OnceLock::new(),
            compiled: CompiledPrograms::new(toolchains),
            defaults: CANDIDATE_DEFAULT,
            verifier_defaults,
            max_candidate: None,
            run_memo: RunMemo::default(),
            call_memo: RunMemo::default(),
            verdict_memo: RunMemo::default(),
        })
    }

    /// The engine the runners are compiled for.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The CPython component, compiling it on first use.
    pub fn python(&self) -> Loaded {
        self.python
            .get_or_init(|| {
                let wasm = PYTHON_RUNNER_WASM.ok_or_else(|| {
                    "this build has no Python runtime (build it with componentize-py installed: \
                     run scripts/setup.sh, then rebuild)"
                        .to_string()
                })?;
                let component = self
                    .cache
                    .load(&self.engine, wasm)
                    .map_err(|e| format!("the Python runtime: {e:#}"))?;
                let pre = self
                    .linker
                    .instantiate_pre(&component)
                    .and_then(PythonPre::new)
                    .map_err(|e| format!("linking the Python runtime: {e:#}"))?;
                Ok(Arc::new(PythonComponent::new(pre)))
            })
            .clone()
    }

    /// The JavaScript runner, compiling it on first use.
    pub fn javascript(&self) -> Result<Arc<JavaScriptComponent>, String> {
        self.javascript
            .get_or_init(|| {
                let component = self
                    .cache
                    .load(&self.engine, JS_RUNNER_WASM)
                    .map_err(|e| format!("the JavaScript runtime: {e:#}"))?;
                let pre = self
                    .linker
                    .instantiate_pre(&component)
                    .and_then(RunnerPre::new)
                    .map_err(|e| format!("linking the JavaScript runtime: {e:#}"))?;
                Ok(Arc::new(JavaScriptComponent::new(pre)))
            })
            .clone()
    }

    /// Executes `source` in `language` once in a fresh instance and calls `entry` on each JSON
    /// argument list: Python and JavaScript; other languages' results are `unsupported`.
    pub fn call(
        &self,
        language: &str,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        let refused = |message: String| vec![Err(unsupported(message)); args_json.len()];
        match Language::parse(language) {
            Some(Language::Python) => match self.python() {
                Ok(python) => python.call(&self.engine, source, entry, args_json, limits, seed),
                Err(message) => refused(message),
            },
            Some(Language::JavaScript) => match self.javascript() {
                Ok(js) => js.call(&self.engine, source, entry, args_json, limits, seed),
                Err(message) => refused(message),
            },
            Some(other) => refused(format!(
                "a {} program cannot be called: it is run on stdin (`sandbox.run`)",
                other.name()
            )),
            None => refused(unknown_language(language)),
        }
    }

    /// The Python runtime for candidates in `language`, which must name Python: only Python
    /// candidates can be held live.
    pub fn get(&self, language: &str) -> Loaded {
        match Language::parse(language) {
            Some(Language::Python) => self.python(),
            Some(other) => Err(format!(
                "a {} candidate cannot be held live: only Python candidates can",
                other.name()
            )),
            None => Err(unknown_language(language)),
        }
    }

    /// Whether this host can run candidates in `language`, or why not (what to install).
    pub fn available(&self, language: &str) -> Result<(), String> {
        match Language::parse(language) {
            Some(Language::Python) => self.python().map(|_| ()),
            Some(Language::JavaScript) => self.javascript().map(|_| ()),
            Some(compiled) => self.compiled.toolchains().available(compiled),
            None => Err(unknown_language(language)),
        }
    }

    /// The compilers of compiled languages.
    pub fn toolchains(&self) -> &Toolchains {
        self.compiled.toolchains()
    }

    /// Runs `source` in `language` with `stdin` in a fresh instance: Python in the CPython
    /// component, other languages compiled first (cached). A language this host cannot run is an
    /// `unsupported` outcome saying why.
    pub fn run(
        &self,
        language: &str,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        match Language::parse(language) {
            Some(Language::Python) => match self.python() {
                Ok(python) => python.run(&self.engine, source, stdin, limits, seed),
                Err(message) => unsupported(message),
            },
            Some(Language::JavaScript) => match self.javascript() {
                Ok(js) => js.run(&self.engine, source, stdin, limits, seed),
                Err(message) => unsupported(message),
            },
            Some(compiled) => self.compiled.run(
                &self.engine,
                &self.linker,
                compiled,
                source,
                stdin,
                limits,
                seed,
            ),
            None => unsupported(unknown_language(language)),
        }
    }
}

/// Compiles the CPython runtime and every built-in verifier into `cache` unless they are there
/// already, so that processes started afterwards (scoring workers) load them instead of each
/// compiling its own. Returns how many were compiled.
pub fn precompile(cache: &ComponentCache) -> anyhow::Result<usize> {
    if cache.dir().is_none() {
        return Ok(0);
    }
    let engine = crate::engine::build_engine(1)?;
    let mut wasms: Vec<&[u8]> = crate::builtin::BUILTINS.iter().map(|b| b.wasm).collect();
    wasms.dedup_by_key(|w| w.as_ptr());
    wasms.extend(PYTHON_RUNNER_WASM);
    wasms.push(JS_RUNNER_WASM);
    let mut compiled = 0;
    for wasm in wasms {
        if !cache.contains(&engine, wasm) {
            cache.load(&engine, wasm)?;
            compiled += 1;
        }
    }
    Ok(compiled)
}

/// The outcome of a runner's `run` in `job`: what the runner said, with the output the host
/// captured, or how the instance ended when it did not return.
pub(crate) fn run_outcome(job: &Job, result: wasmtime::Result<RunOutcome>) -> RunOutcome {
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
    job: &Job,
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

/// Calls a runner component's `call` on `args_json` in fresh jobs with `limits`: `call` instantiates
/// the component in the store it is given and calls it on the argument lists it is given. All the
/// lists go to one instance; when it dies mid-way, each list gets a fresh instance of its own.
pub(crate) fn call_in_fresh_jobs(
    engine: &Engine,
    limits: &Limits,
    seed: u64,
    args_json: &[String],
    call: impl Fn(&mut Store<JobState>, &[String]) -> wasmtime::Result<Vec<Result<String, String>>>,
) -> Vec<Result<String, RunOutcome>> {
    call_each(args_json, |args| {
        let mut job = Job::new(engine, limits, seed, b"", HostContext::default());
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

/// A Python exception (or refused value) in one call: the message, as a failed program's stderr.
pub(crate) fn error_outcome(message: String, fuel_used: u64) -> RunOutcome {
    RunOutcome {
        status: RunStatus::ExitedNonzero,
        exit_code: Some(1),
        stdout: String::new(),
        stderr: message,
        fuel_used,
    }
}

/// The outcome of a run this host cannot make: `unsupported`, with the reason.
pub(crate) fn unsupported(message: String) -> RunOutcome {
    RunOutcome {
        status: RunStatus::Unsupported,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

fn unknown_language(language: &str) -> String {
    format!(
        "no runner for language {language:?} (rewardbox runs {})",
        languages().join(", ")
    )
}

pub(crate) fn crashed(message: &str) -> RunOutcome {
    RunOutcome {
        status: RunStatus::Crashed,
        exit_code: None,
        stdout: String::new(),
        stderr: format!("rewardbox: {message}"),
        fuel_used: 0,
    }
}

/// How a run that did not return ended: `os._exit(n)`, a limit, or a trap.
pub(crate) fn failed(job: &Job, error: &wasmtime::Error) -> RunOutcome {
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

/// The limits of one candidate run: the verifier's request where set, the defaults elsewhere,
/// each at most `max`'s when there is a cap.
pub fn candidate_limits(
    requested: &types::Limits,
    defaults: &Limits,
    max: Option<&Limits>,
) -> Limits {
    let limits = Limits {
        fuel: requested.fuel.unwrap_or(defaults.fuel),
        wall_ms: requested.wall_ms.map_or(defaults.wall_ms, u64::from),
        memory_bytes: requested.memory_bytes.unwrap_or(defaults.memory_bytes),
        output_bytes: requested
            .output_bytes
            .map_or(defaults.output_bytes, u64::from),
    };
    match max {
        Some(max) => limits.clamp_to(max),
        None => limits,
    }
}
