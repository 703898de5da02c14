//! Candidates in compiled languages (C, C++, Rust): compiled by the confined toolchains of
//! [`rewardbox_toolchains`] into `wasi:cli/command` components, then run like any guest, each run
//! in a fresh instance with the candidate's limits.
//!
//! Once per process: the toolchains. Once per distinct program: compiling it (cached on disk by
//! the toolchains) and turning it into native code (kept in memory): by Cranelift, except a Go
//! program's, which wasmtime's baseline compiler makes native code several times faster, its
//! copies charged per byte through the host meter as Cranelift charges them (see
//! [`rewardbox_sandbox::engine::build_baseline_engine`] for why Go and only Go). Per run: an
//! instance.

use crate::runners::bindings::types::{RunOutcome, RunStatus};
use crate::runners::linker::{CandidateState, candidate_linker, link_meter};
use crate::runners::outcome::{crashed, failed, unsupported};
use crate::runners::runtime::Runtime;
use rewardbox_sandbox::Job;
use rewardbox_sandbox::engine::{EpochTicker, build_baseline_engine};
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_toolchains::disk_cache::Key;
use rewardbox_toolchains::{CompileError, Language, Toolchains, runs_on_baseline_compiler};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};
use wasmtime_wasi::p2::bindings::sync::CommandPre;

/// The name a program given no command line sees as `argv[0]`, as a native `./main` would.
pub const PROGRAM_NAME: &str = "./main";

/// Programs kept compiled to native code per process before the memo starts over.
const NATIVE_ENTRIES: usize = 64;

/// The compiled languages' runner: the toolchains, the linker of compiled programs, and the native
/// code of programs seen lately.
pub struct CompiledPrograms {
    toolchains: Toolchains,
    linker: Linker<CandidateState>,
    /// The engine of Go programs, made on the first one (or why it could not be).
    baseline: OnceLock<Result<Baseline, String>>,
    native: Mutex<HashMap<Key, Arc<CommandPre<CandidateState>>>>,
}

/// The engine of the programs wasmtime's baseline compiler makes native code (Go's), with its
/// linker and the ticker of its epoch (wall-clock limits), which lives as long as the engine.
struct Baseline {
    engine: Engine,
    linker: Linker<CandidateState>,
    _ticker: EpochTicker,
}

/// The runtime of one compiled language (see [`CompiledPrograms::runtime`]).
pub struct CompiledRuntime {
    programs: Arc<CompiledPrograms>,
    language: Language,
}

impl CompiledPrograms {
    /// A runner compiling with `toolchains`, its programs linked for `engine`.
    pub fn new(engine: &Engine, toolchains: Toolchains) -> anyhow::Result<Self> {
        Ok(CompiledPrograms {
            toolchains,
            linker: candidate_linker(engine, None)?,
            baseline: OnceLock::new(),
            native: Mutex::new(HashMap::new()),
        })
    }

    /// The toolchains programs are compiled with.
    pub fn toolchains(&self) -> &Toolchains {
        &self.toolchains
    }

    /// The engine and linker `language`'s programs are made native code and run with: `engine`
    /// (Cranelift), or the baseline compiler's, made on first use.
    fn engine_for<'a>(
        &'a self,
        engine: &'a Engine,
        language: Language,
    ) -> Result<(&'a Engine, &'a Linker<CandidateState>), RunOutcome> {
        if !runs_on_baseline_compiler(language) {
            return Ok((engine, &self.linker));
        }
        let baseline = self.baseline.get_or_init(|| {
            let engine = build_baseline_engine().map_err(|e| format!("{e:#}"))?;
            let mut linker = candidate_linker(&engine, None).map_err(|e| format!("{e:#}"))?;
            link_meter(&mut linker).map_err(|e| format!("linking the meter: {e:#}"))?;
            Ok(Baseline {
                _ticker: EpochTicker::start(&engine),
                engine,
                linker,
            })
        });
        match baseline {
            Ok(baseline) => Ok((&baseline.engine, &baseline.linker)),
            Err(message) => Err(crashed(message)),
        }
    }

    /// The program, ready to instantiate: compiled (or found in a cache) and linked, for the
    /// engine of its language (see [`CompiledPrograms::engine_for`]).
    fn program(
        &self,
        engine: &Engine,
        language: Language,
        source: &str,
    ) -> Result<Arc<CommandPre<CandidateState>>, RunOutcome> {
        let compiled = self
            .toolchains
            .compile(language, source)
            .map_err(|error| match error {
                CompileError::Program(message) => RunOutcome {
                    status: RunStatus::CompileError,
                    exit_code: None,
                    stdout: String::new(),
                    stderr: message,
                    fuel_used: 0,
                },
                CompileError::Unavailable(message) => unsupported(message),
            })?;
        // By what was compiled, not by its source: sources that compile to the same component
        // share its native code.
        if let Some(pre) = self.lock().get(&compiled.content) {
            return Ok(pre.clone());
        }
        let (engine, linker) = self.engine_for(engine, language)?;
        let pre = Component::new(engine, &*compiled.component)
            .and_then(|component| linker.instantiate_pre(&component))
            .and_then(CommandPre::new)
            .map_err(|e| crashed(&format!("loading the compiled program failed: {e:#}")))?;
        let pre = Arc::new(pre);
        let mut native = self.lock();
        if native.len() >= NATIVE_ENTRIES {
            native.clear();
        }
        native.insert(compiled.content, pre.clone());
        Ok(pre)
    }

    /// Compiles `source` in `language` and loads it as native code, so that a run after it
    /// starts at once; the outcome a run would have when it cannot be compiled.
    pub fn prepare(
        &self,
        engine: &Engine,
        language: Language,
        source: &str,
    ) -> Result<(), RunOutcome> {
        self.program(engine, language, source).map(|_| ())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<CommandPre<CandidateState>>>> {
        self.native.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The runtime of programs in `language`.
    pub fn runtime(self: &Arc<Self>, language: Language) -> CompiledRuntime {
        CompiledRuntime {
            programs: self.clone(),
            language,
        }
    }

    /// Compiles `source` in `language` (cached) and runs it in a fresh instance with what `io`
    /// gives it (its command line reaches `main`'s `argv`; without one, `argv` is
    /// [`PROGRAM_NAME`] alone, as natively).
    pub fn run(
        &self,
        engine: &Engine,
        language: Language,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let pre = match self.program(engine, language, source) {
            Ok(pre) => pre,
            Err(outcome) => return outcome,
        };
        let program_name = [PROGRAM_NAME.to_string()];
        let io = JobIo {
            args: if io.args.is_empty() {
                &program_name
            } else {
                io.args
            },
            scratch: io.scratch.or(Some(rewardbox_sandbox::job::SCRATCH_BUDGET)),
            ..io
        };
        // On the engine the program was made native code for (a Go program's is not `engine`).
        let mut job = Job::with_io(pre.engine(), limits, seed, io, ());
        job.charge_sleeps_at(crate::runners::time_limit::sleep_fuel_per_ms(language));
        if let Some(stack_bytes) = rewardbox_toolchains::stack_charged_by_use(language) {
            job.charge_stack_by_use(stack_bytes);
        }
        let result = rewardbox_sandbox::instantiate_retrying(|| pre.instantiate(&mut job.store))
            .and_then(|command| command.wasi_cli_run().call_run(&mut job.store));
        match result {
            Ok(returned) => RunOutcome {
                status: if returned.is_ok() {
                    RunStatus::Ok
                } else {
                    RunStatus::ExitedNonzero
                },
                exit_code: Some(if returned.is_ok() { 0 } else { 1 }),
                stdout: job.stdout.text(),
                stderr: job.stderr.text(),
                fuel_used: job.fuel_used(),
            },
            Err(error) => failed(&job, &error),
        }
    }
}

impl Runtime for CompiledRuntime {
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        self.programs
            .run(engine, self.language, source, io, limits, seed)
    }

    fn call(
        &self,
        _engine: &Engine,
        _source: &str,
        _entry: &str,
        args_json: &[String],
        _limits: &Limits,
        _seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        let refused = unsupported(format!(
            "a {} program cannot be called: it is run on stdin (`sandbox.run`)",
            self.language.name()
        ));
        vec![Err(refused); args_json.len()]
    }
}
