//! The [`Scorer`]: everything built once per process — the engine and its epoch ticker, the linker,
//! the verifier registry with its compiled components, and the thread pool — shared by every job.

use crate::host::{HostServices, INSTANCES_PER_THREAD};
use crate::registry::{VerifierPaths, VerifierRegistry};
use crate::runners::{DEFAULT_PYTHON_ENGINE, Runners};
use crate::sandboxes::{Sandboxes, SandboxesBuilder};
use crate::verifier::Judge;
use rewardbox_languages::PythonEngine;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::engine::build_engine;
use rewardbox_sandbox::limits::Limits;
use std::sync::Arc;
use wasmtime::Engine;

/// How a [`Scorer`] is set up.
#[derive(Debug, Clone)]
pub struct ScorerOptions {
    /// Scoring threads; `None` uses every core.
    pub threads: Option<usize>,
    /// Where compiled components are cached.
    pub cache: ComponentCache,
    /// Limits for each verifier run, unless a task overrides them.
    pub limits: Limits,
    /// Seed of the guests' random source. The same seed gives the same verdicts and fuel.
    pub seed: u64,
    /// Which verifier paths tasks may name.
    pub verifier_paths: VerifierPaths,
    /// The most a task's `"limits"` may ask for (a server's operator caps them); `None`: no cap.
    pub max_limits: Option<Limits>,
    /// The most a verifier may ask for its candidates' runs; `None`: no cap.
    pub max_candidate_limits: Option<Limits>,
    /// The engine of Python programs run on stdin/stdout when a task names none
    /// (`"python_engine"`): `auto` (Monty, CPython behind it) by default.
    pub python_engine: PythonEngine,
}

impl Default for ScorerOptions {
    fn default() -> Self {
        ScorerOptions {
            threads: None,
            cache: ComponentCache::user_default(),
            limits: Limits::default(),
            seed: 0,
            verifier_paths: VerifierPaths::Any,
            max_limits: None,
            max_candidate_limits: None,
            python_engine: DEFAULT_PYTHON_ENGINE,
        }
    }
}

/// Scores completions with sandboxed verifiers. Build one per process and share it: it is `Sync`,
/// and every call fans out over its own thread pool.
pub struct Scorer {
    /// The engine, its ticker (the scorer's wall-clock limits tick while it lives), the runners
    /// and the host services.
    pub(crate) sandboxes: Sandboxes,
    pub(crate) registry: VerifierRegistry,
    pub(crate) pool: rayon::ThreadPool,
    pub(crate) options: ScorerOptions,
}

impl Scorer {
    /// Builds the engine, the linker and the thread pool. Components are compiled on first use.
    pub fn new(options: ScorerOptions) -> anyhow::Result<Scorer> {
        let threads = options
            .threads
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        anyhow::ensure!(threads > 0, "the number of threads must be at least 1");
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("rewardbox-{i}"))
            .stack_size(rewardbox_sandbox::engine::THREAD_STACK_BYTES)
            .build()?;
        let sandboxes = SandboxesBuilder::for_runs(threads)
            .cache(options.cache.clone())
            .verifier_limits(options.limits)
            .max_candidate_limits(options.max_candidate_limits)
            .python_engine(options.python_engine)
            .build()?;
        let registry = VerifierRegistry::new(
            sandboxes.services().clone(),
            options.cache.clone(),
            options.limits,
            options.verifier_paths.clone(),
        );
        Ok(Scorer {
            sandboxes,
            registry,
            pool,
            options,
        })
    }

    /// The number of scoring threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The engine every component of this scorer is compiled for.
    pub fn engine(&self) -> &Engine {
        self.sandboxes.engine()
    }

    /// The options this scorer was built with.
    pub fn options(&self) -> &ScorerOptions {
        &self.options
    }

    /// The candidate runtimes this scorer's verifiers use (the CPython component, the memos).
    pub fn runners(&self) -> &Arc<Runners> {
        self.registry.services().runners()
    }

    /// What this scorer's trusted instances are offered (the runners, the trusted CPython).
    pub fn services(&self) -> &Arc<HostServices> {
        self.registry.services()
    }

    /// How many verifiers compiled from tasks' `verifier_code` are held now (at most
    /// [`crate::registry::MAX_LOADED_SOURCES`]).
    pub fn loaded_verifier_sources(&self) -> usize {
        self.registry.loaded_sources()
    }

    /// Runs `work` on the scorer's thread pool (where instances of its engine are sized to run),
    /// waiting for it.
    pub fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        let cancel = rewardbox_sandbox::cancel::current();
        self.pool
            .install(move || rewardbox_sandbox::cancel::with_cancel(cancel, work))
    }

    /// The verifier a task would use for `spec` (a built-in name or a component path), loading it
    /// if needed. Useful to fail fast before a long batch.
    pub fn verifier(&self, spec: &str) -> Result<Arc<dyn Judge>, String> {
        self.registry.resolve(spec)
    }
}

/// Compiles the runtimes (CPython, Monty, JavaScript) and every built-in verifier into `cache` unless they are there
/// already, so that processes started afterwards (scoring workers) load them instead of each
/// compiling its own. Returns how many were compiled.
pub fn precompile(cache: &ComponentCache) -> anyhow::Result<usize> {
    if cache.dir().is_none() {
        return Ok(0);
    }
    let engine = build_engine(1, INSTANCES_PER_THREAD)?;
    let mut wasms: Vec<&[u8]> = crate::builtin::BUILTINS.iter().map(|b| b.wasm).collect();
    wasms.dedup_by_key(|w| w.as_ptr());
    wasms.extend(crate::runners::PYTHON_RUNNER_WASM);
    wasms.push(crate::runners::monty::MONTY_RUNNER_WASM);
    let mut compiled = 0;
    for wasm in wasms {
        if !cache.contains(&engine, wasm) {
            cache.load(&engine, wasm)?;
            compiled += 1;
        }
    }
    // The JavaScript runner is cached as its snapshot with the engine set up.
    use crate::runners::javascript::{JS_RUNNER_WASM, JavaScriptRunner, PREPARE_ENGINE};
    if !cache.contains_derived(&engine, JS_RUNNER_WASM, PREPARE_ENGINE) {
        JavaScriptRunner::load(&engine, cache).map_err(anyhow::Error::msg)?;
        compiled += 1;
    }
    Ok(compiled)
}
