//! What every request shares: the scorer, the environments, the metrics, the in-flight bound.

use crate::metrics::Metrics;
use crate::options::ServerOptions;
use rewardbox::{Scorer, ScorerOptions, VerifierPaths};
use rewardbox_envs::{EnvOptions, Environments};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU16, Ordering};
use tokio::sync::Semaphore;

/// The server's state, built once.
pub struct AppState {
    pub options: ServerOptions,
    pub scorer: Scorer,
    pub envs: Option<Environments>,
    pub metrics: Metrics,
    pub inflight: Arc<Semaphore>,
    /// The port the server listens on (what CodeGym's `get_instance` answers).
    pub port: AtomicU16,
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
        })?;
        let envs = match &options.env_dir {
            Some(dir) => {
                let mut env_options = EnvOptions::new(dir);
                env_options.limits = env_options.limits.clamp_to(&options.max_limits);
                env_options.cache = options.cache.clone();
                env_options.idle_ttl = options.session_ttl;
                env_options.max_sessions = options.max_sessions;
                env_options.seed = options.seed;
                Some(Environments::new(env_options)?)
            }
            None => None,
        };
        Ok(AppState {
            inflight: Arc::new(Semaphore::new(options.max_inflight)),
            metrics: Metrics::default(),
            port: AtomicU16::new(options.port),
            options,
            scorer,
            envs,
        })
    }
}

/// [`blocking`], for work whose sandboxes end when the client hangs up: the request's future is
/// dropped then, which sets the work's cancellation flag, and every job the work runs stops at
/// its next periodic check (within 10 ms of execution; see `rewardbox::sandbox::cancel`).
pub async fn blocking_until_hung_up<T: Send + 'static>(
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
    blocking(move || rewardbox::sandbox::cancel::with_cancel(Some(flag), work)).await
}

/// Runs blocking (sandboxed) work off the tokio workers.
pub async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, crate::error::ApiError> {
    tokio::task::spawn_blocking(work)
        .await
        .map_err(|e| crate::error::ApiError::internal(format!("the work failed: {e}")))
}
