//! The [`Scorer`]: everything built once per process — the engine and its epoch ticker, the linker,
//! the verifier registry with its compiled components, and the thread pool — shared by every job.

use crate::bindings::Verifier;
use crate::cache::ComponentCache;
use crate::engine::{EpochTicker, build_engine};
use crate::limits::Limits;
use crate::registry::VerifierRegistry;
use crate::runner::Runners;
use crate::sandbox::JobState;
use crate::verifier::Judge;
use std::sync::Arc;
use wasmtime::Engine;
use wasmtime::component::{HasSelf, Linker};

/// Which paths a task's `"verifier"` may name (a component or a Python file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VerifierPaths {
    /// Any path this process can read (the CLI and library: the user's own files).
    Any,
    /// Only files inside this directory, named relative to it (a server's operator allows them).
    Within(std::path::PathBuf),
    /// None: built-ins and `python` with `verifier_code` only (a server without an allowed
    /// directory).
    Forbidden,
}

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
        }
    }
}

/// Scores completions with sandboxed verifiers. Build one per process and share it: it is `Sync`,
/// and every call fans out over its own thread pool.
pub struct Scorer {
    pub(crate) engine: Engine,
    pub(crate) registry: VerifierRegistry,
    pub(crate) pool: rayon::ThreadPool,
    pub(crate) options: ScorerOptions,
    _ticker: EpochTicker,
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
            .build()?;
        let engine = build_engine(threads)?;
        let linker = build_linker(&engine)?;
        let ticker = EpochTicker::start(&engine);
        let mut runners = Runners::new(engine.clone(), options.cache.clone(), options.limits)?;
        runners.max_candidate = options.max_candidate_limits;
        let runners = Arc::new(runners);
        let registry = VerifierRegistry::new(
            engine.clone(),
            linker,
            options.cache.clone(),
            runners,
            options.limits,
            options.verifier_paths.clone(),
        );
        Ok(Scorer {
            engine,
            registry,
            pool,
            options,
            _ticker: ticker,
        })
    }

    /// The number of scoring threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The engine every component of this scorer is compiled for.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The options this scorer was built with.
    pub fn options(&self) -> &ScorerOptions {
        &self.options
    }

    /// The candidate runtimes this scorer's verifiers use (the CPython component, the memos).
    pub fn runners(&self) -> &Arc<Runners> {
        self.registry.runners()
    }

    /// Runs `work` on the scorer's thread pool (where instances of its engine are sized to run),
    /// waiting for it.
    pub fn install<T: Send>(&self, work: impl FnOnce() -> T + Send) -> T {
        self.pool.install(work)
    }

    /// The verifier a task would use for `spec` (a built-in name or a component path), loading it
    /// if needed. Useful to fail fast before a long batch.
    pub fn verifier(&self, spec: &str) -> Result<Arc<dyn Judge>, String> {
        self.registry.resolve(spec)
    }
}

/// The linker every verifier is instantiated with: WASI (sync) and the host's `sandbox` interface.
fn build_linker(engine: &Engine) -> anyhow::Result<Linker<JobState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking WASI: {e}"))?;
    crate::sleep::cap_sleeps(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking capped sleeps: {e}"))?;
    Verifier::add_to_linker::<JobState, HasSelf<JobState>>(&mut linker, |state| state)
        .map_err(|e| anyhow::anyhow!("linking the sandbox interface: {e}"))?;
    Ok(linker)
}
