//! OpenEnv's HTTP endpoints of one environment: stateless `POST /reset` and `POST /step` (a fresh
//! environment each, closed after), `GET /state`, `/metadata`, `/schema`, `/openapi.json`.

use super::env::{EnvSession, Family, OpenEnvError, Reply, Target};
use super::openapi;
use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{OriginalUri, State};
use axum::http::StatusCode;
use serde_json::{Map, Value, json};
use std::sync::Arc;

impl From<OpenEnvError> for ApiError {
    fn from(error: OpenEnvError) -> ApiError {
        let status = match error {
            OpenEnvError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            OpenEnvError::Capacity { .. } | OpenEnvError::OverBudget(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            OpenEnvError::Execution(_) => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::status(status, error.message())
    }
}

/// A JSON object body (an empty body is `{}`), or a 422 naming what it is instead.
fn object_body(body: &Bytes) -> Result<Map<String, Value>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(Map::new());
    }
    match parse_json(body)? {
        Value::Object(map) => Ok(map),
        _ => Err(ApiError::status(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the body must be a JSON object",
        )),
    }
}

/// Opens a session of `family`, does `work` with it and closes it, on a blocking thread.
pub async fn with_fresh_session<T: Send + 'static>(
    family: Arc<dyn Family>,
    work: impl FnOnce(&mut dyn EnvSession) -> Result<T, OpenEnvError> + Send + 'static,
) -> Result<T, ApiError> {
    let done = blocking(move || {
        let mut session = family.open()?;
        work(session.as_mut())
    })
    .await?;
    Ok(done?)
}

/// `POST /reset`: the first observation of a fresh episode (`{seed?, episode_id?, ...}`).
pub async fn reset(Target(family): Target, body: Bytes) -> Result<Json<Value>, ApiError> {
    let options = object_body(&body)?;
    let reply: Reply = with_fresh_session(family, move |s| s.reset(&options)).await?;
    Ok(Json(reply.to_json()))
}

/// `POST /step`: `{action, timeout_s?, request_id?}` applied to a fresh environment.
pub async fn step(Target(family): Target, body: Bytes) -> Result<Json<Value>, ApiError> {
    let mut request = object_body(&body)?;
    let action = match request.remove("action") {
        Some(Value::Object(action)) => action,
        Some(_) => return Err(unprocessable("\"action\" must be an object")),
        None => return Err(unprocessable("\"action\" is missing")),
    };
    let timeout_s = match request.get("timeout_s") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_f64()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or_else(|| unprocessable("\"timeout_s\" must be a positive number"))?,
        ),
    };
    let reply = with_fresh_session(family, move |s| s.step(&action, timeout_s)).await?;
    Ok(Json(reply.to_json()))
}

fn unprocessable(message: &str) -> ApiError {
    ApiError::status(StatusCode::UNPROCESSABLE_ENTITY, message)
}

/// `GET /state`: a fresh environment's state.
pub async fn state(Target(family): Target) -> Result<Json<Value>, ApiError> {
    let state = with_fresh_session(family, |s| Ok(s.state())).await?;
    Ok(Json(state))
}

/// `GET /metadata`.
pub async fn metadata(Target(family): Target) -> Json<Value> {
    Json(json!({
        "name": family.name(),
        "description": family.description(),
        "readme_content": null,
        "version": env!("CARGO_PKG_VERSION"),
        "author": "rewardbox",
        "documentation_url": null,
    }))
}

/// `GET /schema`.
pub async fn schema(Target(family): Target) -> Json<Value> {
    let schemas = family.schemas();
    Json(json!({
        "action": schemas.action,
        "observation": schemas.observation,
        "reset_observation": schemas.observation,
        "state": schemas.state,
    }))
}

/// `GET /openapi.json`: the environment's endpoints, relative to its base URL.
pub async fn openapi(Target(family): Target, OriginalUri(uri): OriginalUri) -> Json<Value> {
    let base = uri
        .path()
        .strip_suffix("/openapi.json")
        .unwrap_or("")
        .to_string();
    Json(openapi::document(family.as_ref(), &base))
}

/// `GET /health`: healthy, in the body OpenEnv's and DeepGym's clients both read.
pub async fn health(State(_): State<Arc<AppState>>) -> Json<Value> {
    Json(json!({
        "status": "healthy",
        "version": env!("CARGO_PKG_VERSION"),
        "leaked_sandboxes": 0,
    }))
}
