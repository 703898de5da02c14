//! `POST /v1/run` (`{environment, model_output}` → `RunResult`) and `POST /v1/run/batch`
//! (`{environment, outputs, max_parallel}` → `BatchResult`): the outputs are one task's
//! completions, scored in parallel over the server's cores (`max_parallel` is accepted; the
//! server's own thread count bounds the work).

use super::environment::{ApiEnvironment, invalid, run_result};
use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rewardbox::{CompletionResult, Status};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

/// The most characters of one model output DeepGym's API takes.
const MAX_OUTPUT_CHARS: usize = 500_000;

fn output(value: Option<&Value>, field: &str) -> Result<String, ApiError> {
    match value {
        Some(Value::String(s)) if s.chars().count() <= MAX_OUTPUT_CHARS => Ok(s.clone()),
        Some(Value::String(_)) => Err(invalid(field, "exceeds 500,000 characters")),
        Some(_) => Err(invalid(field, "must be a string (the model's output)")),
        None => Err(invalid(field, "is missing (the model's output)")),
    }
}

/// Scores `outputs` against `environment` as one task; one result per output.
async fn score(
    state: &Arc<AppState>,
    environment: &ApiEnvironment,
    outputs: Vec<String>,
) -> Result<Vec<CompletionResult>, ApiError> {
    let task = environment.task(outputs)?;
    let scoring = state.clone();
    let result = blocking(move || scoring.scorer.score_task(&task)).await?;
    state.metrics.completions(std::slice::from_ref(&result));
    if let Some(detail) = result.detail {
        return Err(invalid("environment", detail));
    }
    Ok(result.results)
}

/// `POST /v1/run`.
pub async fn run(State(state): State<Arc<AppState>>, body: Bytes) -> Result<Json<Value>, ApiError> {
    let request = parse_json(&body)?;
    let environment = ApiEnvironment::from_json(request.get("environment"), "environment")?;
    let model_output = output(request.get("model_output"), "model_output")?;
    let results = score(&state, &environment, vec![model_output]).await?;
    Ok(Json(run_result(&results[0])))
}

/// `POST /v1/run/batch`.
pub async fn run_batch(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let started = Instant::now();
    let request = parse_json(&body)?;
    let environment = ApiEnvironment::from_json(request.get("environment"), "environment")?;
    let outputs = match request.get("outputs") {
        Some(Value::Array(items)) if items.len() <= 1000 => items
            .iter()
            .enumerate()
            .map(|(i, item)| output(Some(item), &format!("outputs[{i}]")))
            .collect::<Result<Vec<_>, _>>()?,
        Some(Value::Array(_)) => return Err(invalid("outputs", "holds more than 1,000 outputs")),
        _ => return Err(invalid("outputs", "must be a list of model outputs")),
    };
    match request.get("max_parallel") {
        None | Some(Value::Null) => {}
        Some(v) if v.as_u64().is_some_and(|n| (1..=100).contains(&n)) => {}
        Some(_) => return Err(invalid("max_parallel", "must be an integer in 1..=100")),
    }
    let results = if outputs.is_empty() {
        Vec::new()
    } else {
        score(&state, &environment, outputs).await?
    };
    Ok(Json(batch_result(
        &results,
        started.elapsed().as_secs_f64() * 1000.0,
    )))
}

/// DeepGym's `BatchResult`: headline totals count a result without a verdict as a failed 0, the
/// `judged_*` totals leave it out.
fn batch_result(results: &[CompletionResult], execution_time_ms: f64) -> Value {
    let judged: Vec<&CompletionResult> =
        results.iter().filter(|r| r.status == Status::Ok).collect();
    let passed = judged.iter().filter(|r| r.passed).count();
    let score: f64 = judged.iter().map(|r| r.score).sum();
    json!({
        "results": results.iter().map(run_result).collect::<Vec<_>>(),
        "total": results.len(),
        "passed": passed,
        "failed": results.len() - passed,
        "avg_score": score / results.len().max(1) as f64,
        "execution_time_ms": execution_time_ms,
        "no_verdict_count": results.len() - judged.len(),
        "judged_count": judged.len(),
        "judged_pass_rate": passed as f64 / judged.len().max(1) as f64,
        "judged_mean_score": score / judged.len().max(1) as f64,
    })
}

/// `GET /v1/capabilities`: what this server offers of DeepGym's API.
pub async fn capabilities() -> Json<Value> {
    Json(json!({
        "version": env!("CARGO_PKG_VERSION"),
        "sync_run": true,
        "batch_run": true,
        "async_jobs": false,
        "registered_environments": false,
        "named_environment_run": false,
        "verifier_audit": true,
        "benchmark_audit": false,
        "sessions": true,
    }))
}
