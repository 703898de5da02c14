//! CodeGym's environment server over rewardbox's sessions, so that CodeGym's rollout workers
//! point at rewardbox unchanged: `POST /start {session_id?, env_str, env_name}` → `{session_id,
//! observation}`, `POST /step {session_id, action, timeout}` → `{status, observation}`,
//! `GET /is_done`, `GET /is_success`, `GET /reward`, `POST /reset`, `POST /stop`,
//! `GET /get_attribute?session_id&attribute_name` (callables are called), and the instance
//! manager's `GET /get_instance` → `{uid, port}` and `GET /release_instance?uid`. An unknown
//! session is a 404, as CodeGym answers.
//!
//! A step that crosses a limit, exits or traps breaks its session; the step answers `{"status":
//! false, "observation": <why>, "error": <kind>}` rather than an HTTP error, so a rollout sees it.

use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use rewardbox_envs::{EnvError, Environments, Session};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

fn environments(state: &AppState) -> Result<Environments, ApiError> {
    state.codegym_environments()
}

fn env_error(e: EnvError) -> ApiError {
    let status = match &e {
        EnvError::UnknownSession(_) => {
            return ApiError::status(StatusCode::NOT_FOUND, "Session not found");
        }
        EnvError::UnknownEnvironment(_) => StatusCode::NOT_FOUND,
        EnvError::BadEnvString(_) | EnvError::BadRequest(_) => StatusCode::BAD_REQUEST,
        EnvError::TooManySessions { .. } | EnvError::OverBudget(_) => {
            StatusCode::SERVICE_UNAVAILABLE
        }
        EnvError::StartFailed { .. } => StatusCode::UNPROCESSABLE_ENTITY,
        _ => StatusCode::CONFLICT,
    };
    ApiError::status(status, e.to_string())
}

fn text_field<'a>(body: &'a Value, name: &str) -> Result<&'a str, ApiError> {
    match body.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(ApiError::bad_field(name, "must be a string")),
        None => Err(ApiError::bad_field(name, "is missing")),
    }
}

fn session_of(state: &AppState, id: &str) -> Result<Session, ApiError> {
    environments(state)?.get(id).map_err(env_error)
}

/// `POST /start`.
pub async fn start(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body = parse_json(&body)?;
    let envs = environments(&state)?;
    let env_str = text_field(&body, "env_str")?.to_string();
    let env_name = body
        .get("env_name")
        .and_then(Value::as_str)
        .map(str::to_string);
    let session_id = match body.get("session_id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(_) => {
            return Err(ApiError::bad_field(
                "session_id",
                "must be a non-empty string",
            ));
        }
    };
    let session =
        blocking(move || envs.start_named(session_id.as_deref(), env_name.as_deref(), &env_str))
            .await?
            .map_err(env_error)?;
    Ok(Json(json!({
        "session_id": session.id(),
        "observation": session.first_observation(),
    })))
}

/// `POST /step`.
pub async fn step(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body = parse_json(&body)?;
    let session = session_of(&state, text_field(&body, "session_id")?)?;
    let action = match body.get("action") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Object(_)) => body["action"].to_string(),
        Some(_) => {
            return Err(ApiError::bad_field(
                "action",
                "must be a JSON string or an object",
            ));
        }
        None => return Err(ApiError::bad_field("action", "is missing")),
    };
    if let Some(timeout) = body.get("timeout").filter(|v| !v.is_null())
        && !timeout.as_f64().is_some_and(|t| t > 0.0)
    {
        return Err(ApiError::bad_field(
            "timeout",
            "must be a positive number of seconds",
        ));
    }
    let result = blocking(move || session.step(&action)).await?;
    Ok(Json(match result {
        Ok(step) => json!({"status": step.ok, "observation": step.observation}),
        Err(e @ EnvError::UnknownSession(_)) => return Err(env_error(e)),
        Err(e) => json!({"status": false, "observation": format!("Error: {e}"), "error": e.kind()}),
    }))
}

/// `?session_id=...`.
#[derive(Deserialize)]
pub struct SessionQuery {
    session_id: Option<String>,
}

impl SessionQuery {
    fn id(&self) -> Result<&str, ApiError> {
        self.session_id
            .as_deref()
            .ok_or_else(|| ApiError::bad_field("session_id", "is missing from the query"))
    }
}

async fn ask<T: Send + 'static>(
    state: &AppState,
    id: &str,
    call: impl FnOnce(&Session) -> Result<T, EnvError> + Send + 'static,
) -> Result<T, ApiError> {
    let session = session_of(state, id)?;
    blocking(move || call(&session)).await?.map_err(env_error)
}

/// `GET /is_done?session_id`.
pub async fn is_done(
    State(state): State<Arc<AppState>>,
    Query(query): Query<SessionQuery>,
) -> Result<Json<Value>, ApiError> {
    let done = ask(&state, query.id()?, Session::done).await?;
    Ok(Json(json!({"done": done})))
}

/// `GET /is_success?session_id`: the episode is over with reward 1.
pub async fn is_success(
    State(state): State<Arc<AppState>>,
    Query(query): Query<SessionQuery>,
) -> Result<Json<Value>, ApiError> {
    let success = ask(&state, query.id()?, |s| Ok(s.done()? && s.reward()? >= 1.0)).await?;
    Ok(Json(json!({"success": success})))
}

/// `GET /reward?session_id`.
pub async fn reward(
    State(state): State<Arc<AppState>>,
    Query(query): Query<SessionQuery>,
) -> Result<Json<Value>, ApiError> {
    let reward = ask(&state, query.id()?, Session::reward).await?;
    Ok(Json(json!({"reward": reward})))
}

/// `POST /reset {session_id, options?}`.
pub async fn reset(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body = parse_json(&body)?;
    let options = body.get("options").filter(|v| !v.is_null()).cloned();
    let message = ask(&state, text_field(&body, "session_id")?, move |s| {
        s.reset(options.as_ref())
    })
    .await?;
    Ok(Json(json!({"message": message})))
}

/// `POST /stop {session_id}`.
pub async fn stop(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body = parse_json(&body)?;
    let id = text_field(&body, "session_id")?;
    if environments(&state)?.close(id) {
        Ok(Json(json!({"message": "Session stopped."})))
    } else {
        Err(env_error(EnvError::UnknownSession(id.to_string())))
    }
}

/// `?session_id&attribute_name`.
#[derive(Deserialize)]
pub struct AttributeQuery {
    session_id: Option<String>,
    attribute_name: Option<String>,
}

/// `GET /get_attribute?session_id&attribute_name`.
pub async fn get_attribute(
    State(state): State<Arc<AppState>>,
    Query(query): Query<AttributeQuery>,
) -> Result<Json<Value>, ApiError> {
    let id = query
        .session_id
        .as_deref()
        .ok_or_else(|| ApiError::bad_field("session_id", "is missing from the query"))?;
    let name = query
        .attribute_name
        .clone()
        .ok_or_else(|| ApiError::bad_field("attribute_name", "is missing from the query"))?;
    let value = ask(&state, id, move |s| s.get_attribute(&name)).await?;
    Ok(Json(json!({"attribute_value": value})))
}

/// `GET /get_instance`: CodeGym's instance manager hands out a server; this one is its own.
pub async fn get_instance(State(state): State<Arc<AppState>>) -> Result<Json<Value>, ApiError> {
    environments(&state)?;
    static NEXT: AtomicU64 = AtomicU64::new(1);
    let uid = format!("instance-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    Ok(Json(
        json!({"uid": uid, "port": state.port.load(Ordering::Relaxed)}),
    ))
}

/// `?uid`.
#[derive(Deserialize)]
pub struct InstanceQuery {
    uid: Option<String>,
}

/// `GET /release_instance?uid`.
pub async fn release_instance(Query(query): Query<InstanceQuery>) -> Result<Json<Value>, ApiError> {
    let uid = query
        .uid
        .ok_or_else(|| ApiError::bad_field("uid", "is missing from the query"))?;
    Ok(Json(
        json!({"message": format!("Instance {uid} released.")}),
    ))
}
