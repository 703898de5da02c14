//! Replaying action lists against environments (`rewardbox env run`): the offline way to test an
//! environment. One episode per input line: `{"env_str", "actions": [...]}` for a CodeGym
//! environment (an action is a JSON string, or an object that is serialised to one), or
//! `{"episode": {...}, "actions": [...]}` for a DeepGym-style episode (see [`crate::episode`]),
//! answered by a line with every observation and the final reward or score.

use crate::check::env_str_of;
use crate::environments::Environments;
use crate::episode::EpisodeSpec;
use crate::error::EnvError;
use serde_json::{Value, json};

/// Replays the episode of one input line (1-based `line`); the result is one JSON object:
/// `{"line", "id", "env_str", "observation", "steps": [...], "reward", "done", "status"}`, where
/// each step is `{"action", "ok", "observation", "fuel"}` or `{"action", "error", "kind"}` and
/// `status` is `ok`, or how the episode could not go on (`bad_line`, `start_error`, a limit, or
/// the error that kept the final reward from being read, such as `raised`, with a `detail`).
pub fn replay(envs: &Environments, line: usize, text: &str) -> Value {
    let episode: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return failed(
                line,
                "bad_line",
                format!("line {line}: not valid JSON: {e}"),
            );
        }
    };
    if let Some(spec) = episode.get("episode") {
        return replay_episode(envs, line, &episode, spec);
    }
    let env_str = match env_str_of(&episode) {
        Ok(s) => s,
        Err(e) => return failed(line, "bad_line", format!("line {line}: {e}")),
    };
    let Some(actions) = episode.get("actions").and_then(Value::as_array) else {
        return failed(
            line,
            "bad_line",
            format!("line {line}: \"actions\" must be a list"),
        );
    };
    let session = match envs.start(None, &env_str) {
        Ok(s) => s,
        Err(e) => {
            let mut out = failed(line, "start_error", e.to_string());
            out["env_str"] = json!(env_str);
            return out;
        }
    };
    let mut steps = Vec::new();
    let mut status = "ok".to_string();
    for action in actions {
        let text = match action {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        match session.step(&text) {
            Ok(step) => steps.push(json!({
                "action": text, "ok": step.ok, "observation": step.observation, "fuel": step.fuel,
            })),
            Err(e) => {
                steps.push(json!({"action": text, "error": e.to_string(), "kind": e.kind()}));
                if let EnvError::StepFailed { status: why, .. } = &e {
                    status = why.clone();
                    break;
                }
            }
        }
    }
    // The final reward and `finished`; should reading them fail, the episode says why instead of
    // showing a bare null.
    let mut detail = None;
    let (reward, done) = if status == "ok" {
        let reward = session.reward();
        let done = session.done();
        if let Some(e) = reward.as_ref().err().or(done.as_ref().err()) {
            status = match e {
                EnvError::StepFailed { status, .. } | EnvError::Broken { status, .. } => {
                    status.clone()
                }
                other => other.kind().to_string(),
            };
            detail = Some(format!("reading the reward: {e}"));
        }
        (
            reward.map_or(Value::Null, |r| json!(r)),
            done.map_or(Value::Null, |d| json!(d)),
        )
    } else {
        (Value::Null, Value::Null)
    };
    let mut out = json!({
        "line": line, "id": episode.get("id").cloned().unwrap_or(Value::Null), "env_str": env_str,
        "observation": session.first_observation(), "steps": steps, "reward": reward,
        "done": done, "status": status,
    });
    if let Some(detail) = detail {
        out["detail"] = json!(detail);
    }
    session.close();
    out
}

fn failed(line: usize, status: &str, detail: String) -> Value {
    json!({"line": line, "status": status, "detail": detail, "steps": []})
}

/// A DeepGym-style episode: `{"line", "id", "observation", "steps": [{"action", "observation",
/// "reward", "done"} or {"action", "error", "kind"}], "score", "passed", "details", "status"}`.
fn replay_episode(envs: &Environments, line: usize, episode: &Value, spec: &Value) -> Value {
    let Some(actions) = episode.get("actions").and_then(Value::as_array) else {
        return failed(
            line,
            "bad_line",
            format!("line {line}: \"actions\" must be a list"),
        );
    };
    let spec = match EpisodeSpec::from_json(spec) {
        Ok(spec) => spec,
        Err(e) => return failed(line, "bad_line", format!("line {line}: \"episode\": {e}")),
    };
    let running = match envs.start_episode(spec) {
        Ok(e) => e,
        Err(e) => return failed(line, "start_error", e.to_string()),
    };
    let mut steps = Vec::new();
    let mut status = "ok".to_string();
    for action in actions {
        match running.step(action) {
            Ok(step) => {
                let mut entry = json!({
                    "action": action, "observation": step.observation, "reward": step.reward, "done": step.done,
                });
                if let Some(why) = step.reward_error {
                    entry["reward_error"] = json!(why);
                }
                steps.push(entry);
            }
            Err(e) => {
                steps.push(json!({"action": action, "error": e.to_string(), "kind": e.kind()}));
                if let EnvError::StepFailed { status: why, .. } = &e {
                    status = why.clone();
                    break;
                }
            }
        }
        if running.done() {
            break;
        }
    }
    let (score, passed, details) = match running.score() {
        Ok(v) => (json!(v.score), json!(v.passed), json!(v.details)),
        Err(e) => (Value::Null, Value::Null, json!(e.to_string())),
    };
    json!({
        "line": line, "id": episode.get("id").cloned().unwrap_or(Value::Null),
        "observation": running.first_observation(), "steps": steps, "score": score,
        "passed": passed, "details": details, "status": status,
    })
}
