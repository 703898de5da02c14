//! `/healthz`, `/metrics`, and the middleware that counts every request.

use crate::state::AppState;
use axum::extract::{MatchedPath, Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;
use std::time::Instant;

/// Records every request's route, status and latency.
pub async fn observe(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let started = Instant::now();
    state.metrics.started();
    let response = next.run(request).await;
    state.metrics.finished(
        &route,
        response.status().as_u16(),
        started.elapsed().as_secs_f64(),
    );
    response
}

/// `GET /healthz`: the server answers.
pub async fn healthz() -> &'static str {
    "ok\n"
}

/// `GET /metrics`.
pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let live =
        state.environments_built().map_or(0, |e| e.live_sessions()) + state.deepgym_sessions.len();
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(live),
    )
        .into_response()
}
