//! Candidate runtimes: one module per runtime ([`python`] — CPython, [`monty`] — Monty, the fast
//! tier of Python programs, with [`python_engine`] choosing between the two, [`javascript`] — Boa,
//! [`typescript`] — Boa after the runner strips the types, [`compiled`] — C, C++, Rust and Go
//! through confined compilers), each behind the [`Runtime`] trait,
//! and [`Runners`], the set of them a process uses, which answers `run` and `call` for a language.
//!
//! Every run is a fresh instance in a fresh [`rewardbox_sandbox::Job`] with the candidate's limits
//! and nothing in its store beyond the sandbox core's: a candidate never reaches the host's
//! `sandbox` interface (see [`linker`]). The runtimes are compiled lazily (cached as `.cwasm`),
//! once per process, and shared by every thread; identical runs are answered from [`memo`].
//!
//! This layer sits on the sandbox core and knows nothing of verifiers, live candidates' owners or
//! the host interface.

pub mod bindings;
pub mod checker;
pub mod communication;
pub mod compiled;
pub mod interactive;
pub mod javascript;
pub mod linker;
pub mod memo;
pub mod monty;
pub mod outcome;
pub mod prepared;
pub mod python;
pub mod python_engine;
pub mod runner_component;
pub mod runtime;
pub mod time_limit;
pub mod typescript;

use crate::runners::bindings::types::{self, InvocationOutcome, RunOutcome};
use crate::runners::compiled::CompiledPrograms;
use crate::runners::javascript::JavaScriptRunner;
use crate::runners::memo::RunMemo;
use crate::runners::monty::MontyRunner;
use crate::runners::outcome::unsupported;
use crate::runners::python::PythonRunner;
use crate::runners::python_engine::PythonEngines;
use crate::runners::typescript::TypeScriptRunner;
use rewardbox_languages::PythonEngine;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::stack::with_room;
use rewardbox_toolchains::CompileLimits;
use rewardbox_toolchains::{Language, Toolchains};
use std::sync::{Arc, OnceLock};
use wasmtime::Engine;

pub use python::PYTHON_RUNNER_WASM;
pub use runtime::Runtime;

/// Languages a candidate may be written in: Python when this build embeds CPython, and the others
/// (each compiled language needs its compiler on the host; see [`Runners::available`]).
pub fn languages() -> Vec<&'static str> {
    Language::ALL
        .iter()
        .filter(|l| **l != Language::Python || PYTHON_RUNNER_WASM.is_some())
        .map(|l| l.name())
        .collect()
}

/// The engine of Python programs whose task names none: `auto`, Monty with CPython behind it.
/// It is the default because the differential test of `crates/rewardbox/tests/all/python_engines.rs` holds on every
/// Python program of the suite (see [`python_engine`]).
pub const DEFAULT_PYTHON_ENGINE: PythonEngine = PythonEngine::Auto;

/// Limits of a candidate run unless the verifier asks for others: 10^10 fuel (about a second of
/// sandboxed Python; [`time_limit`] turns a time limit into fuel), 256 MiB, 1 MiB of output, and
/// a wall-clock safety net.
pub const CANDIDATE_DEFAULT: Limits = Limits {
    fuel: 10_000_000_000,
    wall_ms: 20_000,
    memory_bytes: 256 << 20,
    output_bytes: 1 << 20,
};

/// A runtime loaded on first use, or why it cannot be.
type Loaded<R> = Result<Arc<R>, String>;

/// The candidate runtimes of this process, loaded on first use.
pub struct Runners {
    engine: Engine,
    cache: ComponentCache,
    python: OnceLock<Loaded<PythonRunner>>,
    python_frameworks: OnceLock<Loaded<PythonRunner>>,
    monty: OnceLock<Loaded<MontyRunner>>,
    javascript: OnceLock<Loaded<JavaScriptRunner>>,
    compiled: Arc<CompiledPrograms>,
    /// The engine of a Python program whose language names none (`python`, not `python@monty`).
    pub python_engine: PythonEngine,
    /// Limits of a candidate run where the caller leaves them unset.
    pub defaults: Limits,
    /// The most a caller may ask for a candidate's run (`None`: no cap).
    pub max_candidate: Option<Limits>,
    /// Outcomes of earlier identical `run`s.
    pub run_memo: RunMemo<RunOutcome>,
    /// Results of earlier identical `call`s.
    pub call_memo: RunMemo<Vec<Result<String, RunOutcome>>>,
    /// Outcomes of earlier identical checker runs (output validators).
    pub checker_memo: RunMemo<InvocationOutcome>,
}

impl Runners {
    /// Runtimes compiled for `engine`, cached in `cache`.
    pub fn new(engine: Engine, cache: ComponentCache) -> anyhow::Result<Runners> {
        let toolchains = Toolchains::new(cache.dir(), CompileLimits::default());
        Ok(Runners {
            compiled: Arc::new(CompiledPrograms::new(&engine, toolchains)?),
            engine,
            cache,
            python: OnceLock::new(),
            python_frameworks: OnceLock::new(),
            monty: OnceLock::new(),
            javascript: OnceLock::new(),
            python_engine: DEFAULT_PYTHON_ENGINE,
            defaults: CANDIDATE_DEFAULT,
            max_candidate: None,
            run_memo: RunMemo::default(),
            call_memo: RunMemo::default(),
            checker_memo: RunMemo::default(),
        })
    }

    /// The engine the runtimes are compiled for.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The compiled-component cache the runtimes load from.
    pub fn cache(&self) -> &ComponentCache {
        &self.cache
    }

    /// The CPython runtime, compiling it on first use.
    pub fn python(&self) -> Loaded<PythonRunner> {
        self.python
            .get_or_init(|| PythonRunner::load(&self.engine, &self.cache).map(Arc::new))
            .clone()
    }

    /// The CPython runtime with pytest in its snapshot (trusted test modules only), compiling it
    /// on first use.
    pub fn python_frameworks(&self) -> Loaded<PythonRunner> {
        self.python_frameworks
            .get_or_init(|| PythonRunner::load_frameworks(&self.engine, &self.cache).map(Arc::new))
            .clone()
    }

    /// The Monty runtime (the fast tier of Python programs), compiling it on first use.
    pub fn monty(&self) -> Loaded<MontyRunner> {
        self.monty
            .get_or_init(|| MontyRunner::load(&self.engine, &self.cache).map(Arc::new))
            .clone()
    }

    /// The runtime of Python programs in `engine`.
    pub fn python_in(&self, engine: PythonEngine) -> Result<Arc<dyn Runtime>, String> {
        let cpython = self.python()?;
        if engine == PythonEngine::CPython {
            return Ok(cpython);
        }
        Ok(Arc::new(PythonEngines {
            engine,
            monty: self.monty()?,
            cpython,
        }))
    }

    /// The JavaScript runtime, compiling it on first use.
    pub fn javascript(&self) -> Loaded<JavaScriptRunner> {
        self.javascript
            .get_or_init(|| JavaScriptRunner::load(&self.engine, &self.cache).map(Arc::new))
            .clone()
    }

    /// The compilers of compiled languages.
    pub fn toolchains(&self) -> &Toolchains {
        self.compiled.toolchains()
    }

    /// The runtime of candidates in `language`, or why this host has none.
    pub fn runtime(&self, language: &str) -> Result<Arc<dyn Runtime>, String> {
        match Language::parse(language) {
            Some(Language::Python) => {
                let engine = rewardbox_languages::python_engine::split_engine(language)
                    .ok()
                    .and_then(|(_, engine)| engine)
                    .unwrap_or(self.python_engine);
                self.python_in(engine)
            }
            Some(Language::JavaScript) => self.javascript().map(|r| r as Arc<dyn Runtime>),
            Some(Language::TypeScript) => self
                .javascript()
                .map(|r| Arc::new(TypeScriptRunner::new(r)) as Arc<dyn Runtime>),
            Some(compiled) => Ok(Arc::new(self.compiled.runtime(compiled))),
            None => Err(unknown_language(language)),
        }
    }

    /// Compiles `source` ahead of its run when `language` is compiled (C, C++, Rust), so that
    /// the run's own time is the program's alone (SandboxFusion reports the two apart); the
    /// outcome the run would have when it cannot be compiled. Nothing to do for other languages.
    pub fn prepare(&self, language: &str, source: &str) -> Result<(), RunOutcome> {
        match Language::parse(language) {
            Some(compiled) if compiled.is_compiled() => {
                with_room(|| self.compiled.prepare(&self.engine, compiled, source))
            }
            _ => Ok(()),
        }
    }

    /// Whether this host can run candidates in `language`, or why not (what to install).
    pub fn available(&self, language: &str) -> Result<(), String> {
        match Language::parse(language) {
            Some(Language::Python) => self.python().map(|_| ()),
            Some(Language::JavaScript | Language::TypeScript) => self.javascript().map(|_| ()),
            Some(compiled) => self.compiled.toolchains().available(compiled),
            None => Err(unknown_language(language)),
        }
    }

    /// Runs `source` in `language` with `stdin` in a fresh instance. A language this host cannot
    /// run is an `unsupported` outcome saying why.
    pub fn run(
        &self,
        language: &str,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        with_room(|| match self.runtime(language) {
            Ok(runtime) => runtime.run(&self.engine, source, stdin, limits, seed),
            Err(message) => unsupported(message),
        })
    }

    /// Runs `source` in `language` in a fresh instance with what `io` gives it: standard input
    /// or a pipe, a command line, directories. A language this host cannot run, or whose runner
    /// cannot give the program what `io` asks, is an `unsupported` outcome saying why.
    pub fn run_with(
        &self,
        language: &str,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        with_room(|| match self.runtime(language) {
            Ok(runtime) => runtime.run_with(&self.engine, source, io, limits, seed),
            Err(message) => unsupported(message),
        })
    }

    /// Executes `source` in `language` once in a fresh instance and calls `entry` on each JSON
    /// argument list. A language whose programs cannot be called answers `unsupported` outcomes.
    pub fn call(
        &self,
        language: &str,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>> {
        with_room(|| match self.runtime(language) {
            Ok(runtime) => runtime.call(&self.engine, source, entry, args_json, limits, seed),
            Err(message) => vec![Err(unsupported(message)); args_json.len()],
        })
    }

    /// The limits of one candidate run in `language`: `requested` where set,
    /// [`Runners::defaults`] elsewhere, each at most [`Runners::max_candidate`]'s. A `wall_ms`
    /// requested without fuel is a time limit: fuel is derived from it at `language`'s rate
    /// ([`time_limit`]), with a wall-clock net above the time that fuel takes.
    pub fn limits_for(&self, language: &str, requested: &types::Limits) -> Limits {
        candidate_limits(
            requested,
            Language::parse(language),
            &self.defaults,
            self.max_candidate.as_ref(),
        )
    }
}

fn unknown_language(language: &str) -> String {
    format!(
        "no runner for language {language:?} (rewardbox runs {})",
        languages().join(", ")
    )
}

/// The limits of one candidate run: the request where set, the defaults elsewhere, each at most
/// `max`'s when there is a cap. A `wall_ms` requested without fuel, for a run in a known
/// `language`, is a time limit: fuel at that runner's rate ([`time_limit`]).
pub fn candidate_limits(
    requested: &types::Limits,
    language: Option<Language>,
    defaults: &Limits,
    max: Option<&Limits>,
) -> Limits {
    let mut limits = Limits {
        fuel: requested.fuel.unwrap_or(defaults.fuel),
        wall_ms: requested.wall_ms.map_or(defaults.wall_ms, u64::from),
        memory_bytes: requested.memory_bytes.unwrap_or(defaults.memory_bytes),
        output_bytes: requested
            .output_bytes
            .map_or(defaults.output_bytes, u64::from),
    };
    if let (None, Some(wall_ms), Some(language)) = (requested.fuel, requested.wall_ms, language) {
        limits = time_limit::limits_for_seconds(language, f64::from(wall_ms) / 1000.0, limits);
    }
    match max {
        Some(max) => limits.clamp_to(max),
        None => limits,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requested(fuel: Option<u64>, wall_ms: Option<u32>) -> types::Limits {
        types::Limits {
            fuel,
            wall_ms,
            memory_bytes: None,
            output_bytes: None,
        }
    }

    #[test]
    fn a_wall_ms_without_fuel_is_a_time_limit_in_the_runners_fuel() {
        let defaults = CANDIDATE_DEFAULT;
        for language in Language::ALL {
            let limits = candidate_limits(
                &requested(None, Some(2000)),
                Some(language),
                &defaults,
                None,
            );
            assert_eq!(
                limits,
                time_limit::limits_for_seconds(language, 2.0, defaults),
                "{language:?}"
            );
        }
    }

    #[test]
    fn explicit_fuel_or_no_language_keeps_the_request_as_written() {
        let defaults = CANDIDATE_DEFAULT;
        let both = candidate_limits(
            &requested(Some(5), Some(2000)),
            Some(Language::Python),
            &defaults,
            None,
        );
        assert_eq!((both.fuel, both.wall_ms), (5, 2000));
        let unknown = candidate_limits(&requested(None, Some(2000)), None, &defaults, None);
        assert_eq!((unknown.fuel, unknown.wall_ms), (defaults.fuel, 2000));
        let none = candidate_limits(&requested(None, None), Some(Language::C), &defaults, None);
        assert_eq!(none, defaults);
    }

    #[test]
    fn the_operators_maximum_still_caps_a_derived_budget() {
        let max = Limits {
            fuel: 1000,
            wall_ms: 50,
            ..CANDIDATE_DEFAULT
        };
        let limits = candidate_limits(
            &requested(None, Some(60_000)),
            Some(Language::Python),
            &CANDIDATE_DEFAULT,
            Some(&max),
        );
        assert_eq!((limits.fuel, limits.wall_ms), (1000, 50));
    }
}
