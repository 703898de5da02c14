//! `POST /get_reward`: OpenRLHF's remote reward model. OpenRLHF sends `{"query": [...]}` (each
//! the prompt and the response in its chat template), with `"prompts"` and `"labels"` in recent
//! versions, and reads `"rewards"` (and `"scores"`) back.
//!
//! Each query's response is the query without its prompt (when the prompt is a prefix). Its
//! label is the reference answer for the server's `--reward-verifier` (`math` by default), or a
//! JSON object of task fields naming its own `"verifier"`. A masked result (the verifier failed)
//! gets `--masked-reward` (OpenRLHF takes numbers only) and 1.0 in `extra_logs.masked`; every
//! `extra_logs` value is a list of numbers (OpenRLHF makes each a tensor), and why a result was
//! masked is in `details`.

use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rewardbox::InputLine;
use rewardbox::Status;
use serde_json::{Map, Value, json};
use std::collections::HashMap;
use std::sync::Arc;

fn strings(body: &Value, name: &str) -> Result<Option<Vec<String>>, ApiError> {
    match body.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_string))
            .collect::<Option<Vec<_>>>()
            .map(Some)
            .ok_or_else(|| ApiError::bad_field(name, "must be a list of strings")),
        Some(_) => Err(ApiError::bad_field(name, "must be a list of strings")),
    }
}

/// The task fields a label stands for.
fn fields_of(label: &Value, default_verifier: &str) -> Map<String, Value> {
    let object = match label {
        Value::Object(map) => Some(map.clone()),
        Value::String(s) if s.trim_start().starts_with('{') => {
            serde_json::from_str::<Map<String, Value>>(s).ok()
        }
        _ => None,
    };
    match object {
        Some(map) if map.contains_key("verifier") => map,
        _ => {
            let mut map = Map::new();
            map.insert("verifier".into(), json!(default_verifier));
            map.insert("reference".into(), label.clone());
            map
        }
    }
}

/// `POST /get_reward`.
pub async fn get_reward(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let body = parse_json(&body)?;
    let queries = strings(&body, "query")?.ok_or_else(|| {
        ApiError::bad_field("query", "is missing (a list of prompt + response texts)")
    })?;
    let prompts = strings(&body, "prompts")?;
    let labels = match body.get("labels") {
        None | Some(Value::Null) => None,
        Some(Value::Array(items)) => Some(items.clone()),
        Some(_) => return Err(ApiError::bad_field("labels", "must be a list")),
    };
    for (name, len) in [
        ("prompts", prompts.as_ref().map(Vec::len)),
        ("labels", labels.as_ref().map(Vec::len)),
    ] {
        if len.is_some_and(|n| n != queries.len()) {
            return Err(ApiError::bad_field(name, "must have one entry per query"));
        }
    }
    let Some(labels) = labels else {
        return Err(ApiError::bad_field(
            "labels",
            "is missing: each query needs its reference answer (or task fields)",
        ));
    };
    // Queries whose labels make the same task fields (the samples of one prompt) are one task's
    // completions, so that a verifier's failure on one of them is the completion's doing where
    // the verifier judges another (docs/guide/scoring.md). `place[i]`: query i's task and its
    // completion there.
    let mut task_of_fields: HashMap<String, usize> = HashMap::new();
    let mut tasks: Vec<(usize, Map<String, Value>, Vec<Value>)> = Vec::new();
    let mut place = Vec::with_capacity(queries.len());
    for (i, query) in queries.iter().enumerate() {
        let response = prompts
            .as_ref()
            .and_then(|p| query.strip_prefix(p[i].as_str()))
            .unwrap_or(query);
        let fields = fields_of(&labels[i], &state.options.reward_verifier);
        let t = *task_of_fields
            .entry(serde_json::to_string(&fields).expect("a JSON object serializes"))
            .or_insert_with(|| {
                tasks.push((i, fields, Vec::new()));
                tasks.len() - 1
            });
        place.push((t, tasks[t].2.len()));
        tasks[t].2.push(json!(response));
    }
    let lines: Vec<InputLine> = tasks
        .into_iter()
        .map(|(first, mut fields, completions)| {
            fields.insert("id".into(), json!(first.to_string()));
            fields.insert("completions".into(), Value::Array(completions));
            InputLine {
                number: first + 1,
                text: Ok(Value::Object(fields).to_string()),
            }
        })
        .collect();
    let scoring = state.clone();
    let task_results = blocking(move || scoring.scorer.score_lines(&lines)).await?;
    state.metrics.completions(&task_results);
    let masked_reward = state.options.masked_reward;
    let mut rewards = Vec::with_capacity(place.len());
    let mut details = Vec::with_capacity(place.len());
    let mut masked = Vec::with_capacity(place.len());
    let mut passed = Vec::with_capacity(place.len());
    let mut fuel = Vec::with_capacity(place.len());
    let flag = |b: bool| if b { 1.0 } else { 0.0 };
    // One answer per query: its completion's result, or its task's rejection.
    for &(t, c) in &place {
        let result = &task_results[t];
        match result.results.get(c) {
            Some(r) if r.status == Status::Ok => {
                rewards.push(r.score);
                details.push(json!(""));
                masked.push(0.0);
                passed.push(flag(r.passed));
                fuel.push(r.fuel as f64);
            }
            Some(r) => {
                rewards.push(masked_reward);
                details.push(json!(r.detail));
                masked.push(1.0);
                passed.push(0.0);
                fuel.push(r.fuel as f64);
            }
            None => {
                rewards.push(masked_reward);
                details.push(json!(result.detail.clone().unwrap_or_default()));
                masked.push(1.0);
                passed.push(0.0);
                fuel.push(0.0);
            }
        }
    }
    // OpenRLHF turns every `extra_logs` value into a tensor: numbers only there. Why a result
    // was masked goes in `details`, which it does not read.
    Ok(Json(json!({
        "rewards": rewards,
        "scores": rewards,
        "extra_logs": {"masked": masked, "passed": passed, "fuel": fuel},
        "details": details,
    })))
}
