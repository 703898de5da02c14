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

/// `GET /metrics`: the counters, and gauges of what holds a place: sessions alive or starting
/// (every kind), WebSocket connections, in-flight slots held (by requests and by the work they
/// started), and what is held of the memory and disk budgets.
pub async fn metrics(State(state): State<Arc<AppState>>) -> Response {
    let places = state.environments_built().map_or(0, |e| e.places_taken());
    let held = state.budgets.held();
    let (memory_bound, disk_bound) = state.budgets.bounds();
    let options = &state.options;
    let gauges = [
        (
            "rewardbox_live_sessions",
            "Environment sessions alive or starting, of every kind (CodeGym, REPL, episode, DeepGym).",
            places as u64,
        ),
        (
            "rewardbox_websockets_open",
            "WebSocket sessions open.",
            (options.max_sessions.max(1) - state.websockets.available_permits()) as u64,
        ),
        (
            "rewardbox_inflight_slots_held",
            "In-flight slots held, by requests and by the work they started (until it stops), this request aside.",
            // This request holds one itself.
            (options.max_inflight - state.inflight.available_permits()).saturating_sub(1) as u64,
        ),
        (
            "rewardbox_session_memory_held_bytes",
            "Memory held by sessions that keep an instance (each at its memory limit).",
            held.memory,
        ),
        (
            "rewardbox_session_memory_budget_bytes",
            "The most memory sessions may hold together.",
            memory_bound.unwrap_or(0),
        ),
        (
            "rewardbox_disk_held_bytes",
            "Disk held by workspaces and working directories (each at its budget).",
            held.disk,
        ),
        (
            "rewardbox_disk_budget_bytes",
            "The most disk workspaces and working directories may hold together.",
            disk_bound.unwrap_or(0),
        ),
    ];
    (
        [(header::CONTENT_TYPE, "text/plain; version=0.0.4")],
        state.metrics.render(&gauges),
    )
        .into_response()
}
