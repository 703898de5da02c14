//! Admission: the bearer token (or DeepGym's `X-API-Key`), the bound on requests in flight (429 with `Retry-After`), and the
//! body's deadline. A request holds its in-flight slot from admission to the last byte of its
//! answer (a streamed JSONL answer included) or until its client goes away, and for as long as
//! the work it started runs (see [`crate::state::INFLIGHT`]).
//!
//! Before admission, a server without a token refuses what a web page could send it
//! ([`same_site`]): a `Host` that is not this machine's (DNS rebinding), an `Origin` that is not
//! allowed (a cross-site POST or WebSocket).

use crate::error::ApiError;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use std::sync::Arc;

/// Refuses, on a server without a token, a request a web page may have sent: one whose `Host`
/// is a name other than `localhost` and the operator's allowed hosts (an IP address is always
/// allowed: a page cannot rebind one), or whose `Origin` is neither the server's own nor one the
/// operator allowed. Requests of every non-browser client (no `Origin`, the address as host)
/// pass.
pub async fn same_site(
    State(state): State<Arc<AppState>>,
    request: Request,
    next: Next,
) -> Response {
    if state.options.token.is_some() {
        return next.run(request).await;
    }
    let headers = request.headers();
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !host_allowed(host, &state.options.allowed_hosts) {
        return ApiError::status(
            StatusCode::FORBIDDEN,
            format!(
                "refused: the request names host {host:?}, which is not this server's address; \
                 a web page can reach a server without a token through a name it points here \
                 (DNS rebinding). Use the server's IP address or localhost, allow the name with \
                 --allow-host, or serve with --token"
            ),
        )
        .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = [format!("http://{host}"), format!("https://{host}")];
        let allowed = own.iter().any(|o| o.eq_ignore_ascii_case(origin))
            || state
                .options
                .allowed_origins
                .iter()
                .any(|o| o == "*" || o.trim_end_matches('/').eq_ignore_ascii_case(origin));
        if !allowed {
            return ApiError::status(
                StatusCode::FORBIDDEN,
                format!(
                    "refused: a web page at {origin:?} sent this request, and a server without a \
                     token takes none from other sites; allow it with --allow-origin {origin}, or \
                     serve with --token"
                ),
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether `host` (a `Host` header: a name or address, and maybe a port) may be served without a
/// token: an IP address, `localhost`, or a name of `allowed` (`*`: any).
fn host_allowed(host: &str, allowed: &[String]) -> bool {
    let name = match host.strip_prefix('[') {
        // [::1]:8080
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, port)| {
            if port.chars().all(|c| c.is_ascii_digit()) {
                name
            } else {
                host
            }
        }),
    };
    let name = name.trim_end_matches('.');
    !name.is_empty()
        && (name.parse::<std::net::IpAddr>().is_ok()
            || name.eq_ignore_ascii_case("localhost")
            || allowed
                .iter()
                .any(|a| a == "*" || a.trim_end_matches('.').eq_ignore_ascii_case(name)))
}

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
    let permit = Arc::new(permit);
    let response = crate::state::INFLIGHT
        .scope(permit.clone(), next.run(request))
        .await;
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

#[cfg(test)]
mod tests {
    use super::host_allowed;

    #[test]
    fn hosts_without_a_token() {
        let allowed = ["rewardbox.internal".to_string()];
        for host in [
            "127.0.0.1:8080",
            "127.0.0.1",
            "10.1.2.3:80",
            "[::1]:8080",
            "localhost:8080",
            "LOCALHOST",
            "localhost.:8080",
            "rewardbox.internal:8080",
        ] {
            assert!(host_allowed(host, &allowed), "{host}");
        }
        for host in [
            "",
            "evil.example:8080",
            "evil.example",
            "localhost.evil.example",
            "127.0.0.1.nip.io:8080",
            "rewardbox.internal.evil:80",
        ] {
            assert!(!host_allowed(host, &allowed), "{host}");
        }
        assert!(host_allowed("anything:1", &["*".to_string()]));
    }
}
