//! The JavaScript runtime (`guests/js`: the Boa engine as a component of the `runner` world):
//! Node.js-style programs on stdin (`run`) and functions called on JSON arguments (`call`), each
//! in a fresh instance with the candidate's limits.

use crate::runners::bindings::types::RunOutcome;
use crate::runners::outcome::unsupported;
use crate::runners::runner_component::RunnerComponent;
use crate::runners::runtime::Runtime;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_toolchains::Language;
use wasmtime::Engine;

/// The JavaScript runner component.
pub static JS_RUNNER_WASM: &[u8] = rewardbox_builtins::JS_RUNNER;

/// The runner's export that sets up its engine, run once before the snapshot every run starts
/// from.
pub const PREPARE_ENGINE: &str = "prepare-engine";

/// The JavaScript runner, compiled and linked for candidate instances.
pub struct JavaScriptRunner {
    runner: RunnerComponent,
}

impl JavaScriptRunner {
    /// Compiles (or loads from `cache`) the JavaScript runner, snapshotted with its engine set
    /// up (`prepare-engine`: parsing Node's surroundings was most of a short program's run), and
    /// links it.
    pub fn load(engine: &Engine, cache: &ComponentCache) -> Result<JavaScriptRunner, String> {
        RunnerComponent::load_prepared(
            engine,
            cache,
            JS_RUNNER_WASM,
            PREPARE_ENGINE,
            Language::JavaScript,
            "the JavaScript runtime",
        )
        .map(|runner| JavaScriptRunner { runner })
    }
}

impl Runtime for JavaScriptRunner {
    /// Standard input only: the runner reads all of it before the program's first line runs, so
    /// a JavaScript program can neither talk through a pipe nor (yet) read arguments and files.
    /// The exception: the two programs of a test run, which read their input a line at a time
    /// ([`rewardbox_languages::js_test_run`]).
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        // A test run's programs talk through the pipe; the interactor's arguments and files (a
        // contest's) mean nothing to them.
        let refused = if rewardbox_languages::js_test_run::is_test_run(source) {
            None
        } else if io.pipe.is_some() {
            Some(
                "a JavaScript program cannot run interactively: the JavaScript runner reads all of standard input before the program starts",
            )
        } else if !io.args.is_empty() || !io.mounts.is_empty() {
            Some(
                "a JavaScript program cannot be given arguments or files (write checking programs in Python, C, C++ or Rust)",
            )
        } else {
            None
        };
        if let Some(reason) = refused {
            return unsupported(reason.to_string());
        }
        self.runner.run(engine, source, io, limits, seed)
    }

    /// When the instance dies mid-way, the cases are re-run one per fresh instance.
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
