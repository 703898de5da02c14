//! NeMo Gym's resources server, so that a NeMo Gym agent server (and NeMo RL through it) uses
//! rewardbox as its verifier:
//!
//! - `POST /seed_session`: the task row; answers `{}` and sets the session cookie NeMo Gym's
//!   agents carry to `/verify` (rewardbox keeps no per-session state: `/verify` carries the task);
//! - `POST /verify`: `{responses_create_params, response: {output: [...]}, verifier_metadata:
//!   {<rewardbox task fields>}, ...}`. The completion is the last assistant message of
//!   `response.output` (its `output_text` parts); the task is `verifier_metadata`, scored exactly
//!   as `rewardbox score` scores it. The answer is the request with `reward` and
//!   `reward_components` (`score`, `passed`, and `cases_passed` for verifiers that run cases)
//!   added, and rewardbox's result under `rewardbox`. A masked result (the verifier failed, not
//!   the model) is NeMo Gym's failed rollout: `reward` 0.0 with `_ng_failure_class:
//!   "verifier_error"`, which its rollout collection writes to the failures file and retries
//!   instead of training on.

use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use rewardbox::InputLine;
use rewardbox::{CaseStatus, CompletionResult, Status};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The cookie `/seed_session` sets.
const SESSION_COOKIE: &str = "rewardbox_nemo_session";

/// `POST /seed_session`.
pub async fn seed_session(body: Bytes) -> Result<Response, ApiError> {
    if !body.iter().all(u8::is_ascii_whitespace) {
        parse_json(&body)?;
    }
    let id =
        rewardbox_envs::new_id().map_err(|e| ApiError::internal(format!("no session id: {e}")))?;
    let cookie = format!("{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Lax");
    let mut response = Json(json!({})).into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_str(&cookie).map_err(|e| ApiError::internal(e.to_string()))?,
    );
    Ok(response)
}

/// The text of the last assistant message of a Responses API `output` list.
fn completion(response: &Value) -> Result<String, ApiError> {
    let output = response
        .get("output")
        .and_then(Value::as_array)
        .ok_or_else(|| ApiError::bad_field("response.output", "must be a list of output items"))?;
    let last = output.iter().rev().find(|item| {
        item.get("type").and_then(Value::as_str) == Some("message")
            && item.get("role").and_then(Value::as_str) == Some("assistant")
    });
    let Some(message) = last else {
        // The model said nothing: an empty completion, scored as the verifier scores it.
        return Ok(String::new());
    };
    Ok(match message.get("content") {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter(|p| p.get("type").and_then(Value::as_str) == Some("output_text"))
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        _ => String::new(),
    })
}

/// `POST /verify`.
pub async fn verify(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let Value::Object(mut request) = parse_json(&body)? else {
        return Err(ApiError::bad_request("the body must be a JSON object"));
    };
    let response = request
        .get("response")
        .ok_or_else(|| ApiError::bad_field("response", "is missing (the model's response)"))?;
    let text = completion(response)?;
    let mut task = match request.get("verifier_metadata") {
        Some(Value::Object(fields)) => fields.clone(),
        Some(_) => {
            return Err(ApiError::bad_field(
                "verifier_metadata",
                "must be an object of rewardbox task fields",
            ));
        }
        None => {
            return Err(ApiError::bad_field(
                "verifier_metadata",
                "is missing: it holds the rewardbox task (\"verifier\" and its fields)",
            ));
        }
    };
    if !task.contains_key("id") {
        task.insert("id".into(), json!("nemo-gym"));
    }
    task.insert("completions".into(), json!([text]));
    let line = InputLine {
        number: 1,
        text: Ok(Value::Object(task).to_string()),
    };
    let scoring = state.clone();
    let results = blocking(move || scoring.scorer.score_lines(std::slice::from_ref(&line))).await?;
    state.metrics.completions(&results);
    let task_result = &results[0];
    let Some(result) = task_result.results.first() else {
        return Err(ApiError::bad_field(
            "verifier_metadata",
            task_result
                .detail
                .clone()
                .unwrap_or_else(|| "is not a valid task".into())
                .replace("line 1: ", ""),
        ));
    };
    if result.status == Status::Ok {
        request.insert("reward".into(), json!(result.score));
        request.insert("reward_components".into(), components(result));
    } else {
        request.insert("reward".into(), json!(0.0));
        request.insert("_ng_failure_class".into(), json!("verifier_error"));
    }
    request.insert("rewardbox".into(), summary(result));
    Ok(Json(Value::Object(request)))
}

fn components(result: &CompletionResult) -> Value {
    let mut components = Map::new();
    components.insert("score".into(), json!(result.score));
    components.insert(
        "passed".into(),
        json!(if result.passed { 1.0 } else { 0.0 }),
    );
    if !result.cases.is_empty() {
        let passed = result
            .cases
            .iter()
            .filter(|c| c.status == CaseStatus::Passed)
            .count();
        components.insert(
            "cases_passed".into(),
            json!(passed as f64 / result.cases.len() as f64),
        );
    }
    Value::Object(components)
}

fn summary(result: &CompletionResult) -> Value {
    json!({
        "status": result.status,
        "passed": result.passed,
        "score": result.score,
        "mask": result.mask,
        "detail": result.detail,
        "fuel": result.fuel,
        "cases": result.cases,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_completion_is_the_last_assistant_message() {
        let response = json!({"output": [
            {"type": "reasoning", "summary": [{"type": "summary_text", "text": "thinking"}]},
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "first"}]},
            {"type": "function_call", "name": "f", "arguments": "{}", "call_id": "c"},
            {"type": "function_call_output", "call_id": "c", "output": "42"},
            {"type": "message", "role": "assistant", "content": [
                {"type": "output_text", "text": "The answer is "},
                {"type": "refusal", "refusal": "no"},
                {"type": "output_text", "text": "\\boxed{42}"}]},
        ]});
        assert_eq!(completion(&response).unwrap(), "The answer is \\boxed{42}");
        assert_eq!(completion(&json!({"output": []})).unwrap(), "");
        assert!(completion(&json!({"output": "text"})).is_err());
    }
}
