//! DeepGym's HTTP API (`deepgym.api`), close enough that DeepGym's own client (`AsyncDeepGym(
//! api_url=...)`: `run`, `run_batch`) and its request and response models work unchanged against
//! `rewardbox serve`: `POST /v1/run`, `POST /v1/run/batch`, `POST /v1/sessions`,
//! `POST /v1/sessions/{id}/step`, `POST /v1/sessions/{id}/score`, `DELETE /v1/sessions/{id}`,
//! `POST /v1/audit/verifier`, `GET /v1/capabilities` (and `GET /health`, served with OpenEnv's).
//!
//! Its verifier contract is kept: a verifier's verdict is a score in [0, 1] with `passed`; a
//! result the verifier could not judge (it crashed before reading the solution, printed no
//! verdict, ran out of its own budget) is DeepGym's "no verdict" — exit code 2, `error_type`
//! `verifier_error` — which TRL and verl leave out of training. Its client's `X-API-Key` header
//! carries the server's token.

pub mod audit;
pub mod environment;
pub mod run;
pub mod session;
pub mod sessions;

use crate::state::AppState;
use axum::Router;
use axum::routing::{get, post};
use std::sync::Arc;

/// DeepGym's routes.
pub fn routes() -> Router<Arc<AppState>> {
    Router::new()
        .route("/v1/run", post(run::run))
        .route("/v1/run/batch", post(run::run_batch))
        .route("/v1/capabilities", get(run::capabilities))
        .route("/v1/sessions", post(sessions::create))
        .route("/v1/sessions/{id}/step", post(sessions::step))
        .route("/v1/sessions/{id}/score", post(sessions::score))
        .route("/v1/sessions/{id}", axum::routing::delete(sessions::close))
        .route("/v1/audit/verifier", post(audit::audit_verifier))
}
