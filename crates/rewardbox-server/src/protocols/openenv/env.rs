//! What an environment served over OpenEnv is: a [`Family`] (its name, metadata and JSON schemas)
//! that opens [`EnvSession`]s, each of which resets, steps and reports its state.
//!
//! Every method that may run a sandbox is blocking: the transports call them on blocking threads.

use crate::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The environment family a request's route serves (set by the route's layer).
#[derive(Clone)]
pub struct Target(pub Arc<dyn Family>);

impl<S: Send + Sync> FromRequestParts<S> for Target {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Target, ApiError> {
        parts
            .extensions
            .get::<Target>()
            .cloned()
            .ok_or_else(|| ApiError::internal("no environment is mounted on this route"))
    }
}

/// An environment family: one OpenEnv server's worth (one base URL).
pub trait Family: Send + Sync + 'static {
    /// Its name, as `/metadata` gives it (`coding`, `codegym/<FileStem>`, `episode`).
    fn name(&self) -> String;
    /// What it is, for `/metadata`.
    fn description(&self) -> String;
    /// JSON schemas of its action, observation and state (`/schema`).
    fn schemas(&self) -> Schemas;
    /// A fresh session (no sandbox yet: a reset or a first step starts one). Blocking.
    fn open(&self) -> Result<Box<dyn EnvSession>, OpenEnvError>;
}

/// One environment instance: what a WebSocket connection holds, or what a stateless HTTP call
/// opens and closes.
pub trait EnvSession: Send {
    /// Starts a new episode with `options` (the reset message's data: `seed`, `episode_id` and the
    /// family's own fields). Blocking.
    fn reset(&mut self, options: &Map<String, Value>) -> Result<Reply, OpenEnvError>;
    /// Applies `action` (the step message's data), with `timeout_s` when the caller gave one.
    /// Blocking.
    fn step(
        &mut self,
        action: &Map<String, Value>,
        timeout_s: Option<f64>,
    ) -> Result<Reply, OpenEnvError>;
    /// The state: at least `episode_id` and `step_count`.
    fn state(&self) -> Value;
}

/// JSON schemas of a family's messages.
#[derive(Debug, Clone)]
pub struct Schemas {
    /// What a step's data must be.
    pub action: Value,
    /// What a step's observation is.
    pub observation: Value,
    /// What `state` answers.
    pub state: Value,
}

/// The answer to a reset or a step, as OpenEnv serialises an observation.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reply {
    /// The observation's own fields (without `done`, `reward` and `metadata`).
    pub observation: Map<String, Value>,
    /// The reward, when the step earned one.
    pub reward: Option<f64>,
    /// Whether the episode is over.
    pub done: bool,
    /// What else is worth knowing (fuel, why a sandbox stopped, a verifier's details).
    pub metadata: Map<String, Value>,
}

impl Reply {
    /// OpenEnv's wire form: `{"observation": {..., "metadata"}, "reward", "done", "metadata"?}`
    /// (metadata in the observation for typed clients, beside it for generic ones when there
    /// is some).
    pub fn to_json(&self) -> Value {
        let mut observation = self.observation.clone();
        observation.insert("metadata".into(), Value::Object(self.metadata.clone()));
        let mut reply = json!({
            "observation": observation,
            "reward": self.reward,
            "done": self.done,
        });
        if !self.metadata.is_empty() {
            reply["metadata"] = Value::Object(self.metadata.clone());
        }
        reply
    }
}

/// Why a reset or a step failed, each kind with OpenEnv's error code.
#[derive(Debug, Clone, PartialEq)]
pub enum OpenEnvError {
    /// The message's data is not what the family takes (`VALIDATION_ERROR`; HTTP 422).
    Validation(String),
    /// The environment failed to act (`EXECUTION_ERROR`; HTTP 500).
    Execution(String),
    /// The sessions open hold as much memory or disk as the server's budget allows
    /// (`CAPACITY_REACHED`; HTTP 503): says which.
    OverBudget(String),
    /// As many sessions are open as allowed (`CAPACITY_REACHED`; HTTP 503).
    Capacity {
        /// Sessions open.
        active: usize,
        /// The most allowed.
        max: usize,
    },
}

impl OpenEnvError {
    /// OpenEnv's code for the error.
    pub fn code(&self) -> &'static str {
        match self {
            OpenEnvError::Validation(_) => "VALIDATION_ERROR",
            OpenEnvError::Execution(_) => "EXECUTION_ERROR",
            OpenEnvError::Capacity { .. } | OpenEnvError::OverBudget(_) => "CAPACITY_REACHED",
        }
    }

    /// What to tell the client.
    pub fn message(&self) -> String {
        match self {
            OpenEnvError::Validation(m)
            | OpenEnvError::Execution(m)
            | OpenEnvError::OverBudget(m) => m.clone(),
            OpenEnvError::Capacity { active, max } => format!(
                "{active} sessions are open, the most this server allows ({max}): close one, or \
                 retry when one ends (idle sessions close by themselves)"
            ),
        }
    }

    /// The `data` of OpenEnv's error frame.
    pub fn frame_data(&self) -> Value {
        let mut data = json!({"message": self.message(), "code": self.code()});
        if let OpenEnvError::Capacity { active, max } = self {
            data["active_sessions"] = json!(active);
            data["max_sessions"] = json!(max);
        }
        data
    }
}

impl From<rewardbox_envs::EnvError> for OpenEnvError {
    fn from(error: rewardbox_envs::EnvError) -> Self {
        use rewardbox_envs::EnvError;
        match error {
            EnvError::TooManySessions { limit } => OpenEnvError::Capacity {
                active: limit,
                max: limit,
            },
            EnvError::OverBudget(m) => OpenEnvError::OverBudget(m),
            EnvError::BadEnvString(m) | EnvError::BadRequest(m) => OpenEnvError::Validation(m),
            EnvError::UnknownEnvironment(m) => OpenEnvError::Validation(m),
            other => OpenEnvError::Execution(other.to_string()),
        }
    }
}

/// The fields a message's data must not hold beyond `known`: the error names the first stranger.
pub fn no_other_fields(data: &Map<String, Value>, known: &[&str]) -> Result<(), OpenEnvError> {
    match data.keys().find(|k| !known.contains(&k.as_str())) {
        Some(field) => Err(OpenEnvError::Validation(format!(
            "unknown field {field:?} (this environment takes: {})",
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

/// An optional text field.
pub fn text_field<'a>(
    data: &'a Map<String, Value>,
    field: &str,
) -> Result<Option<&'a str>, OpenEnvError> {
    match data.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(OpenEnvError::Validation(format!(
            "\"{field}\" must be a string"
        ))),
    }
}

/// The schema of OpenEnv's base state (`episode_id`, `step_count`) with `more` properties.
pub fn state_schema(title: &str, more: Value) -> Value {
    let mut properties = json!({
        "episode_id": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null,
                        "description": "Unique identifier for the current episode"},
        "step_count": {"type": "integer", "minimum": 0, "default": 0,
                        "description": "Number of steps taken in the current episode"},
    });
    if let (Some(base), Value::Object(more)) = (properties.as_object_mut(), more) {
        base.extend(more);
    }
    json!({"title": title, "type": "object", "additionalProperties": true, "properties": properties})
}

/// The schema of an observation with `properties` beside OpenEnv's `done`, `reward`, `metadata`.
pub fn observation_schema(title: &str, properties: Value, required: &[&str]) -> Value {
    let mut all = json!({
        "done": {"type": "boolean", "default": false, "description": "Whether the episode has terminated"},
        "reward": {"anyOf": [{"type": "boolean"}, {"type": "integer"}, {"type": "number"}, {"type": "null"}],
                   "default": null, "description": "Reward signal from the last action"},
        "metadata": {"type": "object", "additionalProperties": true,
                     "description": "Additional metadata for the observation"},
    });
    if let (Some(base), Value::Object(properties)) = (all.as_object_mut(), properties) {
        base.extend(properties);
    }
    json!({"title": title, "type": "object", "additionalProperties": false,
           "properties": all, "required": required})
}
