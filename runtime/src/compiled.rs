//! Candidates in compiled languages (C, C++, Rust): compiled by the confined toolchains of
//! [`rewardbox_toolchains`] into `wasi:cli/command` components, then run like any guest, each run
//! in a fresh instance with the candidate's limits.
//!
//! Once per process: the toolchains. Once per distinct program: compiling it (cached on disk by
//! the toolchains) and turning it into native code (kept in memory). Per run: an instance.

use crate::bindings::types::{RunOutcome, RunStatus};
use crate::host::HostContext;
use crate::limits::Limits;
use crate::runner::{crashed, failed, unsupported};
use crate::sandbox::{Job, JobState};
use rewardbox_toolchains::cache::Key;
use rewardbox_toolchains::{CompileError, Language, Toolchains};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};
use wasmtime_wasi::p2::bindings::sync::CommandPre;

/// Programs kept compiled to native code per process before the memo starts over.
const NATIVE_ENTRIES: usize = 64;

/// The compiled languages' runner: the toolchains, and the native code of programs seen lately.
pub struct CompiledPrograms {
    toolchains: Toolchains,
    native: Mutex<HashMap<Key, Arc<CommandPre<JobState>>>>,
}

impl CompiledPrograms {
    /// A runner compiling with `toolchains`.
    pub fn new(toolchains: Toolchains) -> Self {
        CompiledPrograms {
            toolchains,
            native: Mutex::new(HashMap::new()),
        }
    }

    /// The toolchains programs are compiled with.
    pub fn toolchains(&self) -> &Toolchains {
        &self.toolchains
    }

    /// The program, ready to instantiate: compiled (or found in a cache) and linked.
    fn program(
        &self,
        engine: &Engine,
        linker: &Linker<JobState>,
        language: Language,
        source: &str,
    ) -> Result<Arc<CommandPre<JobState>>, RunOutcome> {
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
        if let Some(pre) = self.lock().get(&compiled.key) {
            return Ok(pre.clone());
        }
        let pre = Component::new(engine, &*compiled.component)
            .and_then(|component| linker.instantiate_pre(&component))
            .and_then(CommandPre::new)
            .map_err(|e| crashed(&format!("loading the compiled program failed: {e:#}")))?;
        let pre = Arc::new(pre);
        let mut native = self.lock();
        if native.len() >= NATIVE_ENTRIES {
            native.clear();
        }
        native.insert(compiled.key, pre.clone());
        Ok(pre)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<Key, Arc<CommandPre<JobState>>>> {
        self.native.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Compiles `source` in `language` (cached) and runs it with `stdin` in a fresh instance.
    #[allow(clippy::too_many_arguments)]
    pub fn run(
        &self,
        engine: &Engine,
        linker: &Linker<JobState>,
        language: Language,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        let pre = match self.program(engine, linker, language, source) {
            Ok(pre) => pre,
            Err(outcome) => return outcome,
        };
        let mut job = Job::new(
            engine,
            limits,
            seed,
            stdin.as_bytes(),
            HostContext::default(),
        );
        let result = pre
            .instantiate(&mut job.store)
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
