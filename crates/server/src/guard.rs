//! Admission: the bearer token (or DeepGym's `X-API-Key`), the bound on requests in flight (429 with `Retry-After`), and the
//! body's deadline. A request holds its in-flight slot from admission to the last byte of its
//! answer (a streamed JSONL answer included) or until its client goes away.

use crate::error::ApiError;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::sync::Arc;

/// Lets a request through when it carries the token (if one is set) and a slot is free.
pub async fn admit(State(state): State<Arc<AppState>>, request: Request, next: Next) -> Response {
    if let Some(token) = &state.options.token {
        let headers = request.headers();
        let bearer = headers
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        // DeepGym's client sends its key as X-API-Key.
        let api_key = headers.get("x-api-key").and_then(|v| v.to_str().ok());
        let admitted = [bearer, api_key]
            .into_iter()
            .flatten()
            .any(|given| constant_time_eq(given.as_bytes(), token.as_bytes()));
        if !admitted {
            return ApiError::status(
                StatusCode::UNAUTHORIZED,
                "a bearer token is required: send \"Authorization: Bearer <token>\" (or \"X-API-Key: <token>\")",
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
    // The body, read whole within its deadline: a client that stalls mid-body gives its slot
    // back (408) instead of holding it.
    let (parts, body) = request.into_parts();
    let limit = state.options.max_body_bytes;
    let bytes = match tokio::time::timeout(
        state.options.body_timeout,
        axum::body::to_bytes(body, limit),
    )
    .await
    {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(_)) => {
            return ApiError::status(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("the body is larger than {limit} bytes, the most this server takes"),
            )
            .into_response();
        }
        Err(_) => {
            return ApiError::status(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "the body did not arrive within {} s",
                    state.options.body_timeout.as_secs_f64()
                ),
            )
            .into_response();
        }
    };
    let request = Request::from_parts(parts, Body::from(bytes));
    let response = next.run(request).await;
    // The slot is given back when the answer's body is dropped: sent to its last byte, or
    // abandoned by a client that went away.
    response.map(|body| {
        Body::new(body.map_frame(move |frame| {
            let _held = &permit;
            frame
        }))
    })
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
