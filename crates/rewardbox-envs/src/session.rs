//! A session: one environment in a sandboxed CPython instance that persists across steps.
//!
//! Every call (`step`, `reset`, `reward`, `done`, `get_attribute`) gets a fresh fuel, wall-clock
//! and output budget; the session's memory limit holds across its life. A call that crosses a
//! limit, exits or traps fails and breaks the session (every later call says why); an exception
//! the environment raises fails that call only. Other sessions never notice either.

use crate::error::EnvError;
use crate::value::to_plain;
use rewardbox::Limits;
use rewardbox::candidates::LiveCandidate;
use rewardbox::candidates::{CallError, RunStatus, Target};
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Why a session broke, or an instance of `env check` ended: the names reports use.
pub const STATUSES: &[&str] = &[
    "fuel_exhausted",
    "timeout",
    "memory_exceeded",
    "output_exceeded",
    "crashed",
    "exited",
];

/// Value JSON of no keyword arguments.
const NO_KWARGS: &str = r#"{"$d":[]}"#;

/// The outcome of one step.
#[derive(Debug, Clone, PartialEq)]
pub struct StepResult {
    /// Whether the environment executed the action (CodeGym's first return value).
    pub ok: bool,
    /// The observation the environment returned.
    pub observation: String,
    /// Fuel the step used.
    pub fuel: u64,
    /// Wall time of the step, in microseconds.
    pub wall_us: u64,
}

pub(crate) struct SessionState {
    pub(crate) live: LiveCandidate,
    pub(crate) env_str: String,
    pub(crate) broken: Option<(String, String)>,
    /// Fuel and wall time of the last call.
    pub(crate) last: (u64, u64),
}

/// A session's state behind its lock, and when it was last used.
pub(crate) struct SessionCell {
    pub(crate) state: Mutex<SessionState>,
    /// Milliseconds since the environments' start, at the last call.
    pub(crate) last_used_ms: AtomicU64,
    /// What the session holds of the budgets, given back when it is dropped.
    pub(crate) _hold: crate::budget::Hold,
}

/// What a session needs of the table that holds it (the environments that started it).
pub(crate) trait SessionTable: Send + Sync {
    /// Milliseconds since the table's start: when a session was last used.
    fn now_ms(&self) -> u64;
    /// The budget of one call into a session.
    fn step_limits(&self) -> Limits;
    /// Takes session `id` out of the table; whether it was there.
    fn remove(&self, id: &str) -> bool;
}

/// A live session. Cheap to clone; every clone reaches the same session. `close` (or the idle
/// time-to-live) ends it.
#[derive(Clone)]
pub struct Session {
    pub(crate) id: String,
    pub(crate) cell: Arc<SessionCell>,
    pub(crate) owner: Arc<dyn SessionTable>,
    pub(crate) observation: Arc<str>,
}

impl Session {
    /// The session's id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The observation the environment gave when it started (`get_obs()` or `_get_obs()`, else
    /// empty).
    pub fn first_observation(&self) -> &str {
        &self.observation
    }

    /// The environment string the session was started with.
    pub fn env_str(&self) -> String {
        self.cell
            .state
            .lock()
            .expect("session lock")
            .env_str
            .clone()
    }

    /// Applies one action (CodeGym: a JSON string `{"name": ..., "parameters": {...}}`).
    pub fn step(&self, action: &str) -> Result<StepResult, EnvError> {
        let started = Instant::now();
        let (value, fuel) = self.call_with_fuel("step", &[json!(action)])?;
        let (ok, observation) = match &value {
            Value::Array(pair) if pair.len() == 2 => (
                pair[0].as_bool().unwrap_or(false),
                pair[1].as_str().unwrap_or_default().to_string(),
            ),
            other => (true, other.to_string()),
        };
        Ok(StepResult {
            ok,
            observation,
            fuel,
            wall_us: started.elapsed().as_micros() as u64,
        })
    }

    /// Resets the environment, with `options` when given; returns its message.
    pub fn reset(&self, options: Option<&Value>) -> Result<String, EnvError> {
        let args = options.map(|o| vec![o.clone()]).unwrap_or_default();
        let value = self.call("reset", &args)?;
        Ok(value
            .as_str()
            .map_or_else(|| value.to_string(), str::to_string))
    }

    /// The environment's reward.
    pub fn reward(&self) -> Result<f64, EnvError> {
        let value = self.call("reward", &[])?;
        value
            .as_f64()
            .ok_or_else(|| EnvError::BadRequest(format!("the reward is not a number: {value}")))
    }

    /// Whether the episode is over (the environment's `finished`).
    pub fn done(&self) -> Result<bool, EnvError> {
        Ok(self.call("done", &[])?.as_bool().unwrap_or(false))
    }

    /// An attribute of the environment as plain JSON; a callable one is called (so `solve`
    /// runs the environment's own solution), as CodeGym's server does.
    pub fn get_attribute(&self, name: &str) -> Result<Value, EnvError> {
        self.call("get_attribute", &[json!(name)])
    }

    /// Fuel and wall time (microseconds) of the session's last call.
    pub fn last_cost(&self) -> (u64, u64) {
        self.cell.state.lock().expect("session lock").last
    }

    /// Ends the session and frees its sandbox.
    pub fn close(self) {
        self.owner.remove(&self.id);
    }

    /// Calls `name` of the environment driver with `args`, within a fresh budget.
    pub(crate) fn call(&self, name: &str, args: &[Value]) -> Result<Value, EnvError> {
        self.call_with_fuel(name, args).map(|(v, _)| v)
    }

    fn call_with_fuel(&self, name: &str, args: &[Value]) -> Result<(Value, u64), EnvError> {
        let mut state = self.cell.state.lock().expect("session lock");
        self.cell
            .last_used_ms
            .store(self.owner.now_ms(), Ordering::Relaxed);
        let state = &mut *state;
        call_driver(state, &self.owner.step_limits(), name, args)
    }
}

/// One call of the session driver (`guests/python/rb_env.py`) within a fresh per-call budget:
/// the plain JSON of what it returned, and the fuel it used.
pub(crate) fn call_driver(
    state: &mut SessionState,
    limits: &rewardbox::Limits,
    name: &str,
    args: &[Value],
) -> Result<(Value, u64), EnvError> {
    if let Some((status, detail)) = &state.broken {
        return Err(EnvError::Broken {
            status: status.clone(),
            detail: detail.clone(),
        });
    }
    let started = Instant::now();
    state.live.renew(limits);
    let args = Value::Array(args.iter().map(to_value_json).collect()).to_string();
    let target = Target {
        handle: None,
        name: name.to_string(),
    };
    let answer = state.live.call(&target, &args, NO_KWARGS);
    let _ = state.live.take_output();
    let fuel = state.live.fuel_used();
    state.last = (fuel, started.elapsed().as_micros() as u64);
    match answer {
        Ok(text) => to_plain(&text)
            .map(|v| (v, fuel))
            .map_err(EnvError::BadRequest),
        Err(CallError::Raised(raised)) => Err(EnvError::Raised {
            type_name: raised.type_name,
            message: raised.message,
        }),
        Err(CallError::Ended(outcome)) => {
            let status = status_name(outcome.status).to_string();
            let detail = last_line(&outcome.stderr);
            state.broken = Some((status.clone(), detail.clone()));
            Err(EnvError::StepFailed { status, detail })
        }
        Err(CallError::Invalid(message)) => Err(EnvError::BadRequest(message)),
    }
}

/// The report name of how a sandboxed run ended.
pub fn status_name(status: RunStatus) -> &'static str {
    match status {
        RunStatus::FuelExhausted => "fuel_exhausted",
        RunStatus::Timeout => "timeout",
        RunStatus::MemoryExceeded => "memory_exceeded",
        RunStatus::OutputExceeded => "output_exceeded",
        RunStatus::Crashed | RunStatus::CompileError | RunStatus::Unsupported => "crashed",
        RunStatus::Ok | RunStatus::ExitedNonzero => "exited",
    }
}

/// The last line of `text` that is not blank, trimmed and cut to 500 characters: why a run ended.
pub(crate) fn last_line(text: &str) -> String {
    text.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .chars()
        .take(500)
        .collect()
}

/// Value JSON of a plain JSON value: objects become `{"$d": [[key, value], ...]}`.
fn to_value_json(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(to_value_json).collect()),
        Value::Object(map) => {
            let pairs: Vec<Value> = map
                .iter()
                .map(|(k, v)| Value::Array(vec![Value::String(k.clone()), to_value_json(v)]))
                .collect();
            let mut tagged = Map::new();
            tagged.insert("$d".into(), Value::Array(pairs));
            Value::Object(tagged)
        }
        other => other.clone(),
    }
}
