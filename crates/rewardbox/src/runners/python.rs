//! The CPython runtime (`guests/python`, built with componentize-py): runs a candidate program,
//! calls its function, or starts it for a live candidate, each in a fresh instance.
//!
//! The same component is also the trusted runtime of Python verifiers, which import the host's
//! `sandbox` interface; that side lives in the host layer ([`crate::host::python_verifier`]). Here,
//! in a candidate's instance, those imports trap.

use crate::runners::bindings::RunnerPre;
use crate::runners::bindings::types::RunOutcome;
use crate::runners::linker::CandidateState;
use crate::runners::runner_component::RunnerComponent;
use crate::runners::runtime::Runtime;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::{Job, Mount};
use rewardbox_toolchains::Language;
use wasmtime::Engine;
use wasmtime::component::Component;

/// The CPython component, when this build has one (built with componentize-py).
pub static PYTHON_RUNNER_WASM: Option<&[u8]> = rewardbox_builtins::PYTHON_RUNNER;

/// The CPython component with pytest in its snapshot (the trusted runtime of `tests.pytest` test
/// modules), when this build has one.
pub static PYTHON_FRAMEWORKS_WASM: Option<&[u8]> = rewardbox_builtins::PYTHON_FRAMEWORKS;

/// The CPython component, compiled and linked for candidate instances.
pub struct PythonRunner {
    runner: RunnerComponent,
}

impl PythonRunner {
    /// Compiles (or loads from `cache`) the CPython component and links it for candidates.
    pub fn load(engine: &Engine, cache: &ComponentCache) -> Result<PythonRunner, String> {
        let wasm = PYTHON_RUNNER_WASM.ok_or_else(|| {
            "this build has no Python runtime (build it with componentize-py installed: run \
             scripts/setup.sh, then rebuild)"
                .to_string()
        })?;
        PythonRunner::load_component(engine, cache, wasm, "the Python runtime")
    }

    /// [`PythonRunner::load`] for the component with pytest in its snapshot, whose instances
    /// run pytest test modules (trusted code only: candidates run in [`PythonRunner::load`]'s).
    pub fn load_frameworks(
        engine: &Engine,
        cache: &ComponentCache,
    ) -> Result<PythonRunner, String> {
        let wasm = PYTHON_FRAMEWORKS_WASM.ok_or_else(|| {
            "this build has no pytest (install pytest's pinned packages with \
             scripts/python-tools.sh, then rebuild: the build puts them in a Python runtime of its own)"
                .to_string()
        })?;
        PythonRunner::load_component(engine, cache, wasm, "the Python runtime with pytest")
    }

    fn load_component(
        engine: &Engine,
        cache: &ComponentCache,
        wasm: &[u8],
        what: &str,
    ) -> Result<PythonRunner, String> {
        RunnerComponent::load(engine, cache, wasm, Language::Python, what).map(|runner| {
            PythonRunner {
                runner: runner.with_scratch(),
            }
        })
    }

    /// The compiled component, for the trusted side to link with the host's interface.
    pub fn component(&self) -> &Component {
        &self.runner.component
    }

    /// A fresh job for a program of this runtime: `io` and its own `/tmp`, `limits`, `seed`,
    /// sleeps at CPython's time-limit rate.
    pub fn job(&self, engine: &Engine, io: JobIo<'_>, limits: &Limits, seed: u64) -> Job<()> {
        self.runner.job(engine, io, limits, seed)
    }

    /// The component linked for candidate instances.
    pub fn pre(&self) -> &RunnerPre<CandidateState> {
        &self.runner.pre
    }

    /// Runs `source` with `stdin` in a fresh instance that sees `mounts` (a workspace, say).
    pub fn run_with_files(
        &self,
        engine: &Engine,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
        mounts: &[Mount<'_>],
    ) -> RunOutcome {
        let io = JobIo {
            mounts,
            ..JobIo::stdin(stdin.as_bytes())
        };
        self.run_with(engine, source, io, limits, seed)
    }
}

impl Runtime for PythonRunner {
    /// A command line becomes `sys.argv` (CPython in the component was initialised before the
    /// run, so the program is run under a line that sets it).
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let with_argv;
        let source = match io.args {
            [] => source,
            argv => {
                with_argv = program_with_argv(argv, source);
                &with_argv
            }
        };
        rewardbox_sandbox::stack::with_room(|| self.runner.run(engine, source, io, limits, seed))
    }

    /// When the instance dies mid-way (fuel, memory, `os._exit`), the cases are re-run one per
    /// fresh instance, so that each gets its own outcome.
    fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        self.runner
            .call(engine, source, entry, args_json, limits, seed)
    }
}

/// A Python program that runs `code` as `__main__` with `argv` as `sys.argv` (its tracebacks
/// naming `argv[0]`, its lines numbered as written).
fn program_with_argv(argv: &[String], code: &str) -> String {
    let argv_json = serde_json::to_string(argv).expect("strings serialise");
    let quote = |text: &str| serde_json::to_string(text).expect("a string serialises");
    format!(
        "import sys as _rb_sys\n_rb_sys.argv = {argv_json}\ndel _rb_sys\n\
         exec(compile({code}, {filename}, \"exec\"), {{\"__name__\": \"__main__\"}})\n",
        code = quote(code),
        filename = quote(&argv[0]),
    )
}

/// A Python program that runs `code` as `__main__` (its tracebacks naming `filename`) with `dir`
/// as the working directory and first on `sys.path`: how a program is run over a mounted
/// workspace.
pub fn program_in(dir: &str, code: &str, filename: &str) -> String {
    let quote = |text: &str| serde_json::to_string(text).expect("a string serialises");
    format!(
        "import os as _rb_os, sys as _rb_sys\n_rb_os.chdir({dir})\n_rb_sys.path.insert(0, {dir})\n\
         del _rb_os, _rb_sys\nexec(compile({code}, {filename}, \"exec\"), {{\"__name__\": \"__main__\"}})\n",
        dir = quote(dir),
        code = quote(code),
        filename = quote(filename),
    )
}
