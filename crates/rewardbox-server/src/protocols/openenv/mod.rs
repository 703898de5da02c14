//! OpenEnv environment servers (the interface TRL's `environment_factory` and OpenEnv's clients
//! speak): each environment family is a complete OpenEnv server under its own base URL —
//! `/openenv/coding` (code in every language rewardbox runs, Python as a REPL),
//! `/openenv/episode` (DeepGym-style episodes), `/openenv/codegym/<FileStem>` (each CodeGym
//! environment of `--env-dir`) — and `rewardbox serve --openenv <name>` serves one of them at the
//! root as well, as OpenEnv deployments expect.
//!
//! Under each base: `GET /ws` (one environment per connection), stateless `POST /reset` and
//! `POST /step`, `GET /state`, `/metadata`, `/schema`, `/openapi.json`, `/health`, and `POST /mcp`.

pub mod codegym;
pub mod coding;
pub mod coding_reward;
pub mod env;
pub mod episode;
pub mod http;
pub mod mcp;
pub mod openapi;
pub mod ws;

use crate::error::ApiError;
use crate::state::AppState;
use axum::Router;
use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::middleware::{Next, from_fn_with_state};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use env::{Family, Target};
use std::collections::HashMap;
use std::sync::Arc;

/// Which environment a name given to `--openenv` (or found in a URL) stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EnvName {
    /// `coding`.
    Coding,
    /// `episode`.
    Episode,
    /// `codegym/<FileStem>`.
    CodeGym(String),
}

impl EnvName {
    /// Reads `coding`, `episode` or `codegym/<FileStem>`.
    pub fn parse(name: &str) -> Result<EnvName, String> {
        match name {
            "coding" => Ok(EnvName::Coding),
            "episode" => Ok(EnvName::Episode),
            _ => match name.strip_prefix("codegym/") {
                Some(stem) if plain_stem(stem) => Ok(EnvName::CodeGym(stem.to_string())),
                _ => Err(format!(
                    "{name:?} is not an environment rewardbox serves over OpenEnv: coding, \
                     episode, or codegym/<FileStem> (a file of --env-dir)"
                )),
            },
        }
    }
}

/// A file stem the environments directory may hold (no path, no hidden file).
fn plain_stem(stem: &str) -> bool {
    !stem.is_empty()
        && !stem.starts_with('.')
        && stem
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

/// The family `name` stands for on this server; a CodeGym environment must be a file of
/// `--env-dir`.
fn family(state: &Arc<AppState>, name: &EnvName) -> Result<Arc<dyn Family>, ApiError> {
    Ok(match name {
        EnvName::Coding => Arc::new(coding::Coding::new(state.clone())),
        EnvName::Episode => Arc::new(episode::Episodes::new(state.clone())),
        EnvName::CodeGym(stem) => {
            let envs = state.codegym_environments()?;
            let dir = envs.options().env_dir.clone().unwrap_or_default();
            if !rewardbox_envs::env_file(&dir, stem).is_file() {
                return Err(ApiError::status(
                    StatusCode::NOT_FOUND,
                    format!("no CodeGym environment {stem:?} in the environments directory"),
                ));
            }
            Arc::new(codegym::CodeGym::new(envs, stem))
        }
    })
}

/// The endpoints of one environment, relative to its base URL (`/health` apart: it is served
/// without the token).
fn endpoints() -> Router<Arc<AppState>> {
    Router::new()
        .route("/ws", get(ws::connect))
        .route("/reset", post(http::reset))
        .route("/step", post(http::step))
        .route("/state", get(http::state))
        .route("/metadata", get(http::metadata))
        .route("/schema", get(http::schema))
        .route("/openapi.json", get(http::openapi))
        .route("/mcp", post(mcp::endpoint))
}

/// Sets the request's [`Target`] to `name`'s family (a 404 for an unknown CodeGym file).
async fn mount(state: Arc<AppState>, name: EnvName, mut request: Request, next: Next) -> Response {
    match family(&state, &name) {
        Ok(family) => {
            request.extensions_mut().insert(Target(family));
            next.run(request).await
        }
        Err(e) => e.into_response(),
    }
}

async fn mount_named(
    State((state, name)): State<(Arc<AppState>, EnvName)>,
    request: Request,
    next: Next,
) -> Response {
    mount(state, name, request, next).await
}

async fn mount_codegym(
    State(state): State<Arc<AppState>>,
    Path(params): Path<HashMap<String, String>>,
    request: Request,
    next: Next,
) -> Response {
    let stem = params.get("stem").cloned().unwrap_or_default();
    match EnvName::parse(&format!("codegym/{stem}")) {
        Ok(name) => mount(state, name, request, next).await,
        Err(e) => ApiError::status(StatusCode::NOT_FOUND, e).into_response(),
    }
}

/// `name`'s endpoints at the router's root.
pub fn at_root(state: &Arc<AppState>, name: EnvName) -> Router<Arc<AppState>> {
    endpoints().layer(from_fn_with_state((state.clone(), name), mount_named))
}

/// Every environment under `/openenv/...`.
pub fn mounted(state: &Arc<AppState>) -> Router<Arc<AppState>> {
    Router::new()
        .nest("/openenv/coding", at_root(state, EnvName::Coding))
        .nest("/openenv/episode", at_root(state, EnvName::Episode))
        .nest(
            "/openenv/codegym/{stem}",
            endpoints().layer(from_fn_with_state(state.clone(), mount_codegym)),
        )
}

/// The health routes of the root and of every base URL, served without the token (as
/// `/healthz` is).
pub fn health() -> Router<Arc<AppState>> {
    Router::new()
        .route("/health", get(http::health))
        .route("/openenv/coding/health", get(http::health))
        .route("/openenv/episode/health", get(http::health))
        .route("/openenv/codegym/{stem}/health", get(http::health))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_names_are_read_and_paths_refused() {
        assert_eq!(EnvName::parse("coding"), Ok(EnvName::Coding));
        assert_eq!(EnvName::parse("episode"), Ok(EnvName::Episode));
        assert_eq!(
            EnvName::parse("codegym/Toy_1_I__SumListEnv"),
            Ok(EnvName::CodeGym("Toy_1_I__SumListEnv".into()))
        );
        for bad in [
            "",
            "codegym/",
            "codegym/../x",
            "codegym/a/b",
            "codegym/.hidden",
            "other",
        ] {
            assert!(EnvName::parse(bad).is_err(), "{bad}");
        }
    }
}
