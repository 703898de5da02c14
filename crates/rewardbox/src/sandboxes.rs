//! The machinery every front end runs on, built one way: the wasmtime engine, the epoch ticker
//! that makes its wall-clock limits tick, the candidate runners and the services trusted
//! instances are offered ([`SandboxesBuilder`], [`Sandboxes`]). The scorer ([`crate::Scorer`]),
//! the environments (`rewardbox-envs`) and the benchmarks build them here.
//!
//! And what a caller needs of the sandbox core: mounting a directory into a run ([`Mount`]),
//! disk budgets of a writable workspace ([`DiskBudget`], [`check_disk_budget`]), cancelling the
//! runs a request started ([`with_cancel`], [`cancel_flag`]), and room on the stack for a
//! thread that compiles or runs components ([`with_room`], [`THREAD_STACK_BYTES`]).

pub use rewardbox_sandbox::Mount;
pub use rewardbox_sandbox::cancel::{current as cancel_flag, with_cancel};
pub use rewardbox_sandbox::engine::{DEFAULT_INSTANCES_PER_THREAD, THREAD_STACK_BYTES};
pub use rewardbox_sandbox::job::{JobIo, SCRATCH_BUDGET};
pub use rewardbox_sandbox::stack::with_room;
pub use rewardbox_sandbox::workspace::{
    DiskBudget, DiskBudgetExceeded, within as check_disk_budget,
};

use crate::host::{HostServices, INSTANCES_PER_THREAD};
use crate::runners::{DEFAULT_PYTHON_ENGINE, Runners};
use rewardbox_languages::PythonEngine;
use rewardbox_sandbox::cache::ComponentCache;
use rewardbox_sandbox::engine::{EpochTicker, build_engine_with_fuel, build_session_engine};
use rewardbox_sandbox::limits::Limits;
use std::sync::Arc;
use wasmtime::Engine;

/// What an engine for short runs is sized for: [`SandboxesBuilder::for_runs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForRuns {
    threads: usize,
    instances_per_thread: u32,
    fuel: bool,
}

/// An engine for sessions that stay alive between calls (multi-turn environments), instances
/// allocated on demand: [`SandboxesBuilder::for_sessions`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForSessions;

/// Builds [`Sandboxes`]: `SandboxesBuilder::for_runs(threads)` for scoring, `for_sessions()` for
/// environments that stay alive between calls; the rest has defaults (the user's component
/// cache, the default limits, no cap on candidate limits, the default Python engine). What only
/// an engine for runs has (its instances per thread, fuel metering) can only be set on a builder
/// for runs: the purpose is the builder's type.
///
/// ```compile_fail
/// // Fuel metering is a setting of an engine for runs: a sessions builder has none.
/// let _ = rewardbox::SandboxesBuilder::for_sessions().fuel(false);
/// ```
#[derive(Debug, Clone)]
pub struct SandboxesBuilder<Purpose = ForRuns> {
    purpose: Purpose,
    cache: ComponentCache,
    verifier_limits: Limits,
    max_candidate: Option<Limits>,
    python_engine: PythonEngine,
}

impl SandboxesBuilder<ForRuns> {
    /// An engine for short runs on `threads` threads (fuel metered).
    pub fn for_runs(threads: usize) -> SandboxesBuilder<ForRuns> {
        SandboxesBuilder::with_purpose(ForRuns {
            threads,
            instances_per_thread: INSTANCES_PER_THREAD,
            fuel: true,
        })
    }

    /// Component instances one thread may hold at once in the pooling allocator (by default
    /// what a scoring thread needs: a verifier, a Python verifier it runs, the live candidates
    /// it opens and their runs).
    pub fn instances_per_thread(mut self, instances: u32) -> SandboxesBuilder<ForRuns> {
        self.purpose.instances_per_thread = instances;
        self
    }

    /// Whether runs are metered in fuel (default on). Off only to measure what metering costs.
    pub fn fuel(mut self, metered: bool) -> SandboxesBuilder<ForRuns> {
        self.purpose.fuel = metered;
        self
    }

    /// Builds the engine, starts its ticker, and sets up the runners and the host services.
    pub fn build(self) -> anyhow::Result<Sandboxes> {
        let ForRuns {
            threads,
            instances_per_thread,
            fuel,
        } = self.purpose;
        let engine = build_engine_with_fuel(threads, instances_per_thread, fuel)?;
        self.build_on(engine)
    }
}

impl SandboxesBuilder<ForSessions> {
    /// An engine for sessions that stay alive between calls.
    pub fn for_sessions() -> SandboxesBuilder<ForSessions> {
        SandboxesBuilder::with_purpose(ForSessions)
    }

    /// Builds the engine, starts its ticker, and sets up the runners and the host services.
    pub fn build(self) -> anyhow::Result<Sandboxes> {
        let engine = build_session_engine()?;
        self.build_on(engine)
    }
}

impl<Purpose> SandboxesBuilder<Purpose> {
    fn with_purpose(purpose: Purpose) -> SandboxesBuilder<Purpose> {
        SandboxesBuilder {
            purpose,
            cache: ComponentCache::user_default(),
            verifier_limits: Limits::default(),
            max_candidate: None,
            python_engine: DEFAULT_PYTHON_ENGINE,
        }
    }

    /// Where compiled components are cached.
    pub fn cache(mut self, cache: ComponentCache) -> SandboxesBuilder<Purpose> {
        self.cache = cache;
        self
    }

    /// The limits of a trusted instance (a verifier) unless a task sets its own.
    pub fn verifier_limits(mut self, limits: Limits) -> SandboxesBuilder<Purpose> {
        self.verifier_limits = limits;
        self
    }

    /// The most a task's `candidate_limits` may ask for; `None`: no cap.
    pub fn max_candidate_limits(mut self, limits: Option<Limits>) -> SandboxesBuilder<Purpose> {
        self.max_candidate = limits;
        self
    }

    /// Which interpreter runs a Python program on stdin/stdout unless a task says.
    pub fn python_engine(mut self, engine: PythonEngine) -> SandboxesBuilder<Purpose> {
        self.python_engine = engine;
        self
    }

    /// Starts `engine`'s ticker, and sets up the runners and the host services on it.
    fn build_on(self, engine: Engine) -> anyhow::Result<Sandboxes> {
        let ticker = EpochTicker::start(&engine);
        let mut runners = Runners::new(engine.clone(), self.cache)?;
        runners.max_candidate = self.max_candidate;
        runners.python_engine = self.python_engine;
        let services = HostServices::new(Arc::new(runners), self.verifier_limits)?;
        Ok(Sandboxes {
            engine,
            services,
            _ticker: ticker,
        })
    }
}

/// The engine with its ticker running, the candidate runners and the host services. The ticker
/// stops when this is dropped: keep it as long as anything runs on the engine.
pub struct Sandboxes {
    engine: Engine,
    services: Arc<HostServices>,
    _ticker: EpochTicker,
}

impl Sandboxes {
    /// The engine every component is compiled for.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The candidate runners.
    pub fn runners(&self) -> &Arc<Runners> {
        self.services.runners()
    }

    /// What trusted instances are offered (the runners, the trusted CPython).
    pub fn services(&self) -> &Arc<HostServices> {
        &self.services
    }
}
