//! DeepGym's live multi-turn sessions over rewardbox's episodes:
//!
//! - `POST /v1/sessions` `{environment: MultiTurnEnvironment, variant}` → 201 `{session_id,
//!   sandbox_id, observation: {content, step, done}}` (429 past the session cap; a registry name
//!   is a 404: rewardbox has no registry, send the environment inline);
//! - `POST /v1/sessions/{id}/step` `Action{action_type, content, path}` → `{observation,
//!   reward, done}` (reward 0.0 without a step verifier, as DeepGym's);
//! - `POST /v1/sessions/{id}/score` → `RunResult` of the final verifier on the workspace as it is
//!   (a verifier without a verdict is DeepGym's "no verdict": exit code 2, `verifier_error`);
//! - `DELETE /v1/sessions/{id}` → 204.
//!
//! Each action runs in a fresh sandbox on the session's workspace; there is no shell, so
//! `setup_script` and `bash` actions are refused with a message that says what to use instead.

use super::environment::SANDBOX_ID;
use super::session::DeepGymSession;
use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rewardbox_envs::{EnvError, EpisodeSpec};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// What DeepGym's API refuses to take from a client (trusted configuration only), and why
/// rewardbox refuses what its sandbox cannot do.
const REFUSED: &[(&str, &str)] = &[
    ("image", "image and snapshot cannot be set over the API"),
    ("snapshot", "image and snapshot cannot be set over the API"),
    (
        "root_service_start",
        "root_service_start cannot be set over the API",
    ),
    (
        "root_tool_settle",
        "root_tool_settle cannot be set over the API",
    ),
    (
        "cli_provider_egress",
        "cli_provider_egress cannot be set over the API",
    ),
    ("volumes", "volumes cannot be set over the API"),
    ("tools", "tools cannot be set over the API"),
];

fn status(status: StatusCode, detail: impl Into<String>) -> ApiError {
    ApiError::status(status, detail)
}

fn is_set(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(items)) => !items.is_empty(),
        Some(Value::Object(map)) => !map.is_empty(),
        Some(_) => true,
    }
}

/// The episode a `MultiTurnEnvironment` describes, and the actions it allows.
fn episode_of(environment: &Map<String, Value>) -> Result<(EpisodeSpec, Vec<String>), ApiError> {
    for (field, why) in REFUSED {
        if is_set(environment.get(*field)) {
            return Err(status(StatusCode::UNPROCESSABLE_ENTITY, *why));
        }
    }
    if is_set(environment.get("setup_script")) {
        return Err(status(
            StatusCode::BAD_REQUEST,
            "setup_script is Bash, and rewardbox's sandbox runs no processes: put the setup in \
             setup_code (Python) and files",
        ));
    }
    if is_set(environment.get("desktop")) {
        return Err(status(
            StatusCode::BAD_REQUEST,
            "desktop sessions are not available: rewardbox runs code, not a desktop",
        ));
    }
    let mut spec = Map::new();
    for field in [
        "task",
        "files",
        "setup_code",
        "step_verifier_code",
        "final_verifier_code",
        "timeout_per_step",
    ] {
        if let Some(value) = environment.get(field) {
            spec.insert(field.into(), value.clone());
        }
    }
    if !environment.get("task").is_some_and(Value::is_string) {
        return Err(status(
            StatusCode::UNPROCESSABLE_ENTITY,
            "\"environment.task\" is missing (the task for the agent)",
        ));
    }
    // DeepGym's `max_steps: null` is no step limit.
    spec.insert(
        "max_steps".into(),
        match environment.get("max_steps") {
            None => json!(10),
            Some(Value::Null) => json!(u32::MAX),
            Some(v) => v.clone(),
        },
    );
    let spec = EpisodeSpec::from_json(&Value::Object(spec))
        .map_err(|e| status(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let allowed = match environment.get("allowed_actions") {
        None | Some(Value::Null) => vec![
            "code".into(),
            "bash".into(),
            "write_file".into(),
            "done".into(),
        ],
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| {
                status(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "\"environment.allowed_actions\" must be a list of action types",
                )
            })?,
        Some(_) => {
            return Err(status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "\"environment.allowed_actions\" must be a list of action types",
            ));
        }
    };
    Ok((spec, allowed))
}

fn observation(content: &str, step: u64, done: bool) -> Value {
    json!({"content": content, "step": step, "done": done, "screenshot": null, "metadata": null})
}

/// `POST /v1/sessions`.
pub async fn create(State(state): State<Arc<AppState>>, body: Bytes) -> Result<Response, ApiError> {
    let request = parse_json(&body)?;
    let environment = match request.get("environment") {
        Some(Value::String(name)) => {
            return Err(status(
                StatusCode::NOT_FOUND,
                format!(
                    "no registered environment {name:?}: rewardbox has no DeepGym registry; send \
                     the environment inline (a MultiTurnEnvironment object)"
                ),
            ));
        }
        Some(Value::Object(environment)) => environment.clone(),
        _ => {
            return Err(status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "\"environment\" must be a multi-turn environment object (or a registry name)",
            ));
        }
    };
    // DeepGym's union reads an object without `type` as multi-turn; a computer-use one needs a
    // desktop.
    if environment.get("type").and_then(Value::as_str) == Some("computer-use") {
        return Err(status(
            StatusCode::BAD_REQUEST,
            "computer-use sessions need a desktop, which rewardbox does not run: send a \
             multi-turn environment",
        ));
    }
    let (spec, allowed) = episode_of(&environment)?;
    let app = state.clone();
    let opened = blocking(move || -> Result<(String, String), ApiError> {
        let envs = app.environments().map_err(ApiError::internal)?;
        let slot = envs.reserve_workspace().map_err(|e| {
            status(
                StatusCode::TOO_MANY_REQUESTS,
                format!("Session limit reached: {e}"),
            )
        })?;
        let episode = envs.start_episode(spec).map_err(|e| match e {
            EnvError::StartFailed { detail, .. } => {
                status(StatusCode::BAD_REQUEST, format!("DeepGym error: {detail}"))
            }
            other => status(StatusCode::BAD_REQUEST, format!("DeepGym error: {other}")),
        })?;
        let first = episode.first_observation().to_string();
        let id = app
            .deepgym_sessions
            .insert(DeepGymSession::new(episode, allowed, slot))
            .map_err(|e| ApiError::internal(format!("no session id: {e}")))?;
        Ok((id, first))
    })
    .await??;
    let (id, first) = opened;
    let body = json!({
        "session_id": id,
        "sandbox_id": format!("{SANDBOX_ID}-{}", &id[..12]),
        "observation": observation(&first, 0, false),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

fn session(state: &AppState, id: &str) -> Result<Arc<DeepGymSession>, ApiError> {
    state
        .deepgym_sessions
        .get(id)
        .ok_or_else(|| status(StatusCode::NOT_FOUND, format!("Session '{id}' not found.")))
}

/// `POST /v1/sessions/{id}/step`.
pub async fn step(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let action = match parse_json(&body)? {
        Value::Object(action) => action,
        _ => {
            return Err(status(
                StatusCode::UNPROCESSABLE_ENTITY,
                "the action must be an object",
            ));
        }
    };
    let held = session(&state, &id)?;
    let kind = action
        .get("action_type")
        .and_then(Value::as_str)
        .unwrap_or("code")
        .to_string();
    if !held.allowed.contains(&kind) {
        let mut allowed = held.allowed.clone();
        allowed.sort();
        return Err(status(
            StatusCode::CONFLICT,
            format!("DeepGym error: Action {kind:?} not allowed here. Allowed: {allowed:?}"),
        ));
    }
    let stepped = blocking(move || held.episode.step(&Value::Object(action))).await?;
    let step = stepped.map_err(|e| match e {
        EnvError::BadRequest(m) => status(StatusCode::CONFLICT, format!("DeepGym error: {m}")),
        other => status(StatusCode::CONFLICT, format!("DeepGym error: {other}")),
    })?;
    if let Some(why) = step.reward_error {
        return Err(status(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("Verifier error: the step verifier gave no verdict: {why}"),
        ));
    }
    Ok(Json(json!({
        "observation": observation(&step.observation, u64::from(step.step), step.done),
        "reward": step.reward.unwrap_or(0.0),
        "done": step.done,
    })))
}

/// `POST /v1/sessions/{id}/score`.
pub async fn score(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let held = session(&state, &id)?;
    let started = std::time::Instant::now();
    let verdict = blocking(move || held.episode.score()).await?;
    let elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    let sandbox_id = format!("{SANDBOX_ID}-{}", &id[..id.len().min(12)]);
    let result = |score: f64, passed: bool, output: String, exit_code: i32, error_type: Value| {
        json!({
            "score": score, "passed": passed, "output": output,
            "stderr": if exit_code == 2 { output.clone() } else { String::new() },
            "exit_code": exit_code, "execution_time_ms": elapsed_ms, "sandbox_id": sandbox_id,
            "reward_components": null, "metrics": null, "seed": null, "truncated": false,
            "error_type": error_type, "cases": null, "isolation": null,
        })
    };
    Ok(Json(match verdict {
        Ok(v) => result(
            v.score,
            v.passed,
            v.details,
            if v.passed { 0 } else { 1 },
            Value::Null,
        ),
        Err(EnvError::BadRequest(_)) => result(
            0.0,
            false,
            "No final verifier provided".into(),
            0,
            json!("no_verifier"),
        ),
        Err(e) => result(0.0, false, e.to_string(), 2, json!("verifier_error")),
    }))
}

/// `DELETE /v1/sessions/{id}`.
pub async fn close(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    let held = state
        .deepgym_sessions
        .remove(&id)
        .ok_or_else(|| status(StatusCode::NOT_FOUND, format!("Session '{id}' not found.")))?;
    // Its workspace is removed off the async workers.
    blocking(move || drop(held)).await?;
    Ok(StatusCode::NO_CONTENT)
}
