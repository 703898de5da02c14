//! What every request shares: the scorer, the environments, the metrics, the in-flight bound.

use crate::error::ApiError;
use crate::held::Held;
use crate::metrics::Metrics;
use crate::options::ServerOptions;
use crate::protocols::deepgym::session::DeepGymSession;
use axum::http::StatusCode;
use rewardbox::{Scorer, ScorerOptions, VerifierPaths};
use rewardbox_envs::{Budgets, EnvOptions, Environments};
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

/// The server's state, built once.
pub struct AppState {
    pub options: ServerOptions,
    pub scorer: Scorer,
    /// The sessions' environments: built at start with `--env-dir` (CodeGym), else on first
    /// use by a REPL or an episode (see [`AppState::environments`]).
    envs: OnceLock<Environments>,
    pub metrics: Metrics,
    /// WebSocket sessions open (OpenEnv's `/ws`), at most `max_sessions`.
    pub websockets: Arc<Semaphore>,
    /// DeepGym's sessions (`/v1/sessions`), closed after `session_ttl` idle.
    pub deepgym_sessions: Held<DeepGymSession>,
    pub inflight: Arc<Semaphore>,
    /// The port the server listens on (what CodeGym's `get_instance` answers).
    pub port: AtomicU16,
    /// What the sessions and the running programs hold of the server's memory and disk budgets.
    pub budgets: Arc<Budgets>,
}

impl AppState {
    /// Builds the scorer (and the environments, with an environments directory).
    pub fn new(options: ServerOptions) -> anyhow::Result<AppState> {
        let verifier_paths = match &options.verifier_dir {
            Some(dir) => VerifierPaths::Within(dir.clone()),
            None => VerifierPaths::Forbidden,
        };
        let scorer = Scorer::new(ScorerOptions {
            threads: options.threads,
            cache: options.cache.clone(),
            limits: options.limits.clamp_to(&options.max_limits),
            seed: options.seed,
            verifier_paths,
            max_limits: Some(options.max_limits),
            max_candidate_limits: Some(options.max_limits),
            ..ScorerOptions::default()
        })?;
        let budgets = Budgets::new(
            Some(
                options
                    .session_memory_budget
                    .unwrap_or_else(crate::options::default_memory_budget),
            ),
            Some(
                options
                    .disk_budget
                    .unwrap_or_else(crate::options::default_disk_budget),
            ),
        );
        let envs = OnceLock::new();
        if options.env_dir.is_some() {
            let _ = envs.set(Environments::new(env_options(&options, &budgets))?);
        }
        Ok(AppState {
            inflight: Arc::new(Semaphore::new(options.max_inflight)),
            websockets: Arc::new(Semaphore::new(options.max_sessions.max(1))),
            deepgym_sessions: Held::new(options.session_ttl),
            metrics: Metrics::default(),
            port: AtomicU16::new(options.port),
            budgets,
            options,
            scorer,
            envs,
        })
    }

    /// The environments, if they are built (for the reaper and the metrics).
    pub fn environments_built(&self) -> Option<&Environments> {
        self.envs.get()
    }

    /// The environments of `--env-dir`, for CodeGym's sessions (503 without the option).
    pub fn codegym_environments(&self) -> Result<Environments, ApiError> {
        match (&self.options.env_dir, self.envs.get()) {
            (Some(_), Some(envs)) => Ok(envs.clone()),
            _ => Err(ApiError::status(
                StatusCode::SERVICE_UNAVAILABLE,
                "this server serves no CodeGym environments: start it with --env-dir DIR",
            )),
        }
    }

    /// The environments for REPLs and episodes, built on first use (compiling or loading the
    /// CPython component): call it on a blocking thread.
    pub fn environments(&self) -> Result<Environments, String> {
        if let Some(envs) = self.envs.get() {
            return Ok(envs.clone());
        }
        let built = Environments::new(env_options(&self.options, &self.budgets))
            .map_err(|e| format!("the session engine did not start: {e:#}"))?;
        // A racing first use built its own: the first one set is kept, the other dropped.
        Ok(self.envs.get_or_init(|| built).clone())
    }
}

/// How the server's sessions run: the operator's limits, seed, cache, session bounds and budgets.
fn env_options(options: &ServerOptions, budgets: &Arc<Budgets>) -> EnvOptions {
    let mut env_options = match &options.env_dir {
        Some(dir) => EnvOptions::new(dir),
        None => EnvOptions::without_files(),
    };
    env_options.limits = env_options.limits.clamp_to(&options.max_limits);
    env_options.cache = options.cache.clone();
    env_options.idle_ttl = options.session_ttl;
    env_options.max_sessions = options.max_sessions;
    env_options.seed = options.seed;
    env_options.max_limits = Some(options.max_limits);
    env_options.budgets = budgets.clone();
    env_options
}

tokio::task_local! {
    /// The in-flight slot of the request being handled (taken by `guard::admit`): the blocking
    /// work it starts holds it too (see [`blocking`]), so that a request whose client went away
    /// keeps its slot until its work has stopped.
    pub static INFLIGHT: Arc<tokio::sync::OwnedSemaphorePermit>;
}

/// Runs blocking (sandboxed) work off the tokio workers, for the request being handled: when its
/// client hangs up, the request's future is dropped, which sets the work's cancellation flag, and
/// every job the work runs stops at its next periodic check (within 10 ms of execution; see
/// `rewardbox::sandboxes::with_cancel`). The work holds the request's in-flight slot until it ends
/// ([`INFLIGHT`]), so that abandoned work still counts against `--max-inflight`.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, crate::error::ApiError> {
    struct SetOnDrop(Arc<AtomicBool>);
    impl Drop for SetOnDrop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let flag = Arc::new(AtomicBool::new(false));
    let _hung_up = SetOnDrop(flag.clone());
    let slot = INFLIGHT.try_with(Arc::clone).ok();
    tokio::task::spawn_blocking(move || {
        let _slot = slot;
        rewardbox::sandboxes::with_cancel(Some(flag), work)
    })
    .await
    .map_err(|e| crate::error::ApiError::internal(format!("the work failed: {e}")))
}
