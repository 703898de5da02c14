//! Admission: the bearer token, and the bound on requests in flight (429 with `Retry-After`).

use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Lets a request through when it carries the token (if one is set) and a slot is free.
pub async fn admit(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if let Some(token) = &state.options.token {
        let given = request
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        if !given.is_some_and(|g| constant_time_eq(g.as_bytes(), token.as_bytes())) {
            return ApiError::status(
                StatusCode::UNAUTHORIZED,
                "a bearer token is required: send \"Authorization: Bearer <token>\"",
            )
            .into_response();
        }
    }
    let Ok(permit) = state.inflight.clone().try_acquire_owned() else {
        state.metrics.rejected();
        let mut response = ApiError::status(
            StatusCode::TOO_MANY_REQUESTS,
            format!(
                "{} requests are in flight, the most this server takes; retry shortly",
                state.options.max_inflight
            ),
        )
        .into_response();
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        return response;
    };
    let response = next.run(request).await;
    drop(permit);
    response
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
