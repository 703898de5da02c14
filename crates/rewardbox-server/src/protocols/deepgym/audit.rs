//! `POST /v1/audit/verifier` `{environment, verifier_id?, benchmark?, strategies?, persist?}` →
//! DeepGym's `VerifierAuditReport`, from `rewardbox audit`'s attack library run through exactly
//! the scoring path of `/v1/run`.
//!
//! Every known-wrong attack is one of the report's `results` (`strategy`: rewardbox's attack name;
//! `exploited`: it scored at or above 0.5; `inconclusive`: the verifier gave no verdict on it). A
//! right completion the verifier refused and a mutant it could not tell from the solution are
//! named in `patterns` (`false-rejection`, `weak-tests`) with what to do in `recommendations`.
//! `strategies` is read and checked (DeepGym's names) but rewardbox runs its whole library, a
//! superset of DeepGym's heuristic strategies; `persist` is accepted and nothing is stored
//! (`stored: false`).

use super::environment::{ApiEnvironment, invalid};
use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use rewardbox::Status;
use rewardbox_audit::{AuditOptions, Expect, Kind, ScoredAttack, audit_lines_in_full};
use serde_json::{Value, json};
use std::sync::Arc;

/// DeepGym's attack strategies.
const STRATEGIES: &[&str] = &[
    "empty",
    "hardcoded",
    "trivial",
    "overflow",
    "pattern",
    "patch_tampering",
    "llm_attack",
];

/// An attack scoring at or above this got through (DeepGym's pass threshold).
const THRESHOLD: f64 = 0.5;

fn text(request: &Value, field: &str, default: &str) -> Result<String, ApiError> {
    match request.get(field) {
        None | Some(Value::Null) => Ok(default.to_string()),
        Some(Value::String(s)) if s.chars().count() <= 200 => Ok(s.clone()),
        Some(_) => Err(invalid(field, "must be a string of at most 200 characters")),
    }
}

/// `POST /v1/audit/verifier`.
pub async fn audit_verifier(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let request = parse_json(&body)?;
    let environment = ApiEnvironment::from_json(request.get("environment"), "environment")?;
    let benchmark = text(&request, "benchmark", "custom")?;
    let verifier_hash = environment.grading_hash();
    let verifier_id = match text(&request, "verifier_id", "")? {
        id if !id.is_empty() => id,
        _ => environment.name.clone().unwrap_or_else(|| {
            // DeepGym's environment id: a digest of the task.
            use sha2::{Digest, Sha256};
            let digest = Sha256::digest(environment.task.as_bytes());
            digest.iter().take(8).map(|b| format!("{b:02x}")).collect()
        }),
    };
    match request.get("strategies") {
        None | Some(Value::Null) => {}
        Some(Value::Array(items))
            if items.len() <= 20
                && items
                    .iter()
                    .all(|s| s.as_str().is_some_and(|s| STRATEGIES.contains(&s))) => {}
        Some(_) => {
            return Err(invalid(
                "strategies",
                format!(
                    "must be a list of DeepGym's strategies ({})",
                    STRATEGIES.join(", ")
                ),
            ));
        }
    }
    let mut fields = environment.task_fields();
    fields.insert("completions".into(), json!([]));
    let line = Value::Object(fields).to_string();
    let scoring = state.clone();
    let audited = blocking(move || {
        let options = AuditOptions {
            threshold: THRESHOLD,
            attacker_cmd: None,
        };
        audit_lines_in_full(&scoring.scorer, &[(1, line)], &options)
    })
    .await?;
    let (report, attacks) = audited.into_iter().next().expect("one report per line");
    if let Some(error) = report.error {
        return Err(invalid("environment", error));
    }
    let results: Vec<Value> = attacks
        .iter()
        .filter(|a| a.attack.expect == Expect::Wrong)
        .map(attack_result)
        .collect();
    let exploits = results
        .iter()
        .filter(|r| r["exploited"] == json!(true))
        .count();
    let inconclusive = results
        .iter()
        .filter(|r| r["inconclusive"] == json!(true))
        .count();
    let mut patterns = Vec::new();
    let mut recommendations = Vec::new();
    let kinds: Vec<Kind> = report.findings.iter().map(|f| f.kind).collect();
    if kinds.contains(&Kind::Exploit) {
        patterns.push("exploitable");
        recommendations.push(
            "Score the solution's behaviour on hidden inputs, never what it prints or returns \
             unchecked; see each exploited attack's details.",
        );
    }
    if kinds.contains(&Kind::FalseRejection) {
        patterns.push("false-rejection");
        recommendations.push("A right answer was refused: accept its equivalent forms.");
    }
    if kinds.contains(&Kind::WeakTests) {
        patterns.push("weak-tests");
        recommendations.push("Mutants of the solution pass: add test cases that tell them apart.");
    }
    if exploits > 0 {
        recommendations
            .push("Rerun the verifier against private holdouts after patching the weaknesses.");
    }
    let status = if exploits > 0 {
        "exploitable"
    } else if inconclusive > 0 || results.is_empty() {
        "inconclusive"
    } else {
        "robust"
    };
    let risk_score = (status != "inconclusive").then(|| {
        let rate = exploits as f64 / results.len().max(1) as f64;
        let score = (rate + (patterns.len() as f64 * 0.05).min(0.25)).min(1.0);
        let score = if exploits > 0 { score.max(0.55) } else { score };
        (score * 10_000.0).round() / 10_000.0
    });
    let risk_level = risk_score.map(|s| match s {
        s if s >= 0.85 => "critical",
        s if s >= 0.65 => "high",
        s if s >= 0.35 => "medium",
        _ => "low",
    });
    Ok(Json(json!({
        "verifier_id": verifier_id,
        "benchmark": benchmark,
        "attack_type": "white-box",
        "verifier_hash": verifier_hash,
        "status": status,
        "exploitable": exploits > 0,
        "risk_score": risk_score,
        "risk_level": risk_level,
        "patterns": patterns,
        "recommendations": recommendations,
        "attacks_run": results.len(),
        "exploits_found": exploits,
        "report": {
            "environment": environment.task,
            "attacks_run": results.len(),
            "exploits_found": exploits,
            "inconclusive": inconclusive,
            "results": results,
            "is_robust": status == "robust",
        },
        "stored": false,
    })))
}

/// DeepGym's `AttackResult` of one known-wrong attack.
fn attack_result(scored: &ScoredAttack) -> Value {
    let result = &scored.result;
    let judged = result.status == Status::Ok;
    json!({
        "strategy": scored.attack.name,
        "exploited": judged && result.score >= THRESHOLD,
        "score": if judged { result.score } else { 0.0 },
        "details": result.detail,
        "inconclusive": !judged,
        "error_type": if judged { Value::Null } else { json!("verifier_error") },
    })
}
