//! Floor 4 of rewardbox: the HTTP server and its protocols.
//!
//! rewardbox over HTTP: `rewardbox serve`.
//!
//! - `POST /score`: tasks in the CLI's schema (one object, a list, or JSONL), results as the CLI
//!   writes them;
//! - `POST /run_code`: SandboxFusion's API, so verl's `sandbox_fusion_url` and SandboxFusion's
//!   client work unchanged;
//! - CodeGym's environment server (`/start`, `/step`, `/is_done`, `/is_success`, `/reward`,
//!   `/reset`, `/stop`, `/get_attribute`, `/get_instance`, `/release_instance`) over the
//!   sessions of `rewardbox-envs`;
//! - `POST /get_reward`: OpenRLHF's remote reward model;
//! - `GET /healthz`, `GET /metrics` (Prometheus text).
//!
//! axum on tokio; every sandboxed call runs on a blocking thread (scoring on the scorer's rayon
//! pool), never on a tokio worker. A bearer token, a body size limit, a bound on requests in
//! flight (429 with `Retry-After` past it), the operator's maxima on every limit a request asks
//! for, and verifier files only from a directory the operator allowed.

#![deny(missing_docs)]

mod error;
mod guard;
mod held;
mod listen;
mod metrics;
mod observe;
mod protocols;

use protocols::{codegym, deepgym, nemo_gym, openenv, openrlhf, sandbox_fusion, score};
mod options;
mod state;

pub use options::ServerOptions;
pub use protocols::openenv::coding_reward::CodingReward;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use state::AppState;
use std::future::Future;
use std::sync::Arc;

/// The application: every route over `state`. With a root environment (`--openenv`), its OpenEnv
/// endpoints take the root's `/reset`, `/step` and `/state`, and CodeGym's own endpoints are not
/// served (every CodeGym environment is still reachable over OpenEnv).
fn router(state: Arc<AppState>, root: Option<openenv::EnvName>) -> Router {
    let mut protected = Router::new()
        .route("/score", post(score::score))
        .route("/run_code", post(sandbox_fusion::run_code))
        .route("/get_reward", post(openrlhf::get_reward))
        .route("/seed_session", post(nemo_gym::seed_session))
        .route("/verify", post(nemo_gym::verify))
        .route("/metrics", get(observe::metrics))
        .merge(deepgym::routes())
        .merge(openenv::mounted(&state));
    protected = match root {
        Some(name) => protected.merge(openenv::at_root(&state, name)),
        None => protected
            .route("/start", post(codegym::start))
            .route("/step", post(codegym::step))
            .route("/reset", post(codegym::reset))
            .route("/stop", post(codegym::stop))
            .route("/is_done", get(codegym::is_done))
            .route("/is_success", get(codegym::is_success))
            .route("/reward", get(codegym::reward))
            .route("/get_attribute", get(codegym::get_attribute))
            .route("/get_instance", get(codegym::get_instance))
            .route("/release_instance", get(codegym::release_instance)),
    };
    let protected = protected.layer(axum::middleware::from_fn_with_state(
        state.clone(),
        guard::admit,
    ));
    Router::new()
        .route("/healthz", get(observe::healthz))
        .merge(openenv::health())
        .merge(protected)
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::same_site,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            observe::observe,
        ))
        .layer(DefaultBodyLimit::max(state.options.max_body_bytes))
        .with_state(state)
}

/// Serves on `listener` until `shutdown` completes, then gives the requests in flight
/// `options.drain` to finish.
pub async fn serve(
    options: ServerOptions,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    anyhow::ensure!(
        options.token.as_ref().is_none_or(|t| !t.trim().is_empty()),
        "the token is empty: give a non-empty one, or none"
    );
    let root = match &options.openenv {
        Some(name) => Some(root_environment(name, options.env_dir.as_deref())?),
        None => None,
    };
    let state = tokio::task::spawn_blocking(move || AppState::new(options)).await??;
    state.port.store(
        listener.local_addr()?.port(),
        std::sync::atomic::Ordering::Relaxed,
    );
    let state = Arc::new(state);
    let reaper = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(5));
        loop {
            tick.tick().await;
            if let Some(envs) = reaper.environments_built().cloned() {
                let _ = tokio::task::spawn_blocking(move || envs.reap()).await;
            }
            let idle = reaper.deepgym_sessions.take_idle();
            if !idle.is_empty() {
                let _ = tokio::task::spawn_blocking(move || drop(idle)).await;
            }
        }
    });
    let limits = listen::ConnectionLimits {
        max_connections: state.options.max_connections,
        header_timeout: state.options.header_timeout,
        drain: state.options.drain,
    };
    listen::serve_connections(listener, router(state, root), limits, shutdown).await;
    Ok(())
}

/// The environment `--openenv` names, checked: a CodeGym one must be a file of `--env-dir`.
fn root_environment(
    name: &str,
    env_dir: Option<&std::path::Path>,
) -> anyhow::Result<openenv::EnvName> {
    let parsed = openenv::EnvName::parse(name).map_err(|e| anyhow::anyhow!(e))?;
    if let openenv::EnvName::CodeGym(stem) = &parsed {
        let Some(dir) = env_dir else {
            anyhow::bail!("--openenv {name} serves a CodeGym environment: give --env-dir DIR too");
        };
        let file = rewardbox_envs::env_file(dir, stem);
        anyhow::ensure!(
            file.is_file(),
            "--openenv {name}: there is no {} in the environments directory",
            file.display()
        );
    }
    Ok(parsed)
}

/// Binds `options.host:options.port` and serves until Ctrl-C or SIGTERM (what `rewardbox serve`
/// runs). Prints the address it listens on.
pub fn run(options: ServerOptions) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_name("rewardbox-http")
        // Blocking work runs in a request's in-flight slot (a WebSocket step takes one too), so
        // that many threads suffice; the rest are for closing sessions and the like.
        .max_blocking_threads(options.max_inflight.saturating_add(64))
        // Sessions' guests run on its blocking threads: room for their stack.
        .thread_stack_size(rewardbox::sandboxes::THREAD_STACK_BYTES)
        .build()?;
    let served = runtime.block_on(async move {
        let address = std::net::SocketAddr::new(options.host, options.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| anyhow::anyhow!("cannot listen on {address}: {e}"))?;
        eprintln!("rewardbox: serving on http://{}", listener.local_addr()?);
        serve(options, listener, shutdown_signal()).await
    });
    // Work still running after the drain (a verifier past it) is not waited for.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    served
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut signal) =
            tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            signal.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = terminate => {},
    }
    eprintln!("rewardbox: shutting down: the requests in flight get the drain time to finish");
}
