//! A CodeGym environment of `--env-dir` over OpenEnv: one family per environment file
//! (`codegym/<FileStem>`).
//!
//! A reset starts the environment from its configuration (`config`: the JSON object, or its text,
//! that follows `<FileStem>@` in CodeGym's environment string; `{}` when absent) and observes what
//! it shows first. A step's action is the CodeGym call, `{"name": ..., "parameters": {...}}` (or
//! `{"action": "<that call as JSON text>"}`, as a model writes it); the observation is `{text,
//! ok}` (what CodeGym's step returns), the reward the environment's, `done` its `finished`. An
//! exception the environment raises is the step's observation (`ok: false`), as CodeGym's server
//! answers it; a step that crosses a limit ends the episode (`done`, no reward, `metadata.error`).

use super::env::{
    EnvSession, Family, OpenEnvError, Reply, Schemas, no_other_fields, observation_schema,
    state_schema, text_field,
};
use rewardbox_envs::{EnvError, Environments, Session};
use serde_json::{Map, Value, json};

/// The fields a reset may hold.
const RESET_FIELDS: &[&str] = &["seed", "episode_id", "config"];

/// One environment file of the environments directory.
pub struct CodeGym {
    envs: Environments,
    stem: String,
}

impl CodeGym {
    /// The family of environment file `stem` (checked when a session starts).
    pub fn new(envs: Environments, stem: &str) -> CodeGym {
        CodeGym {
            envs,
            stem: stem.to_string(),
        }
    }
}

impl Family for CodeGym {
    fn name(&self) -> String {
        format!("codegym/{}", self.stem)
    }

    fn description(&self) -> String {
        format!(
            "The CodeGym environment {}, in a persistent WebAssembly sandbox: reset with its \
             config, step with its calls ({{\"name\", \"parameters\"}}).",
            self.stem
        )
    }

    fn schemas(&self) -> Schemas {
        Schemas {
            action: json!({
                "title": "CodeGymAction", "type": "object",
                "description": "A call of the environment: {name, parameters}, or the call as JSON text in action",
                "properties": {
                    "name": {"type": "string", "description": "The environment's function to call"},
                    "parameters": {"type": "object", "additionalProperties": true, "default": {}},
                    "action": {"type": "string", "description": "The call {name, parameters} as JSON text"},
                    "metadata": {"type": "object", "additionalProperties": true},
                },
                "additionalProperties": false,
            }),
            observation: observation_schema(
                "CodeGymObservation",
                json!({
                    "text": {"type": "string", "description": "What the environment answered"},
                    "ok": {"type": "boolean", "description": "Whether it executed the call"},
                }),
                &["text", "ok"],
            ),
            state: state_schema(
                "CodeGymState",
                json!({
                    "env_str": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "done": {"type": "boolean"},
                }),
            ),
        }
    }

    fn open(&self) -> Result<Box<dyn EnvSession>, OpenEnvError> {
        Ok(Box::new(CodeGymSession {
            envs: self.envs.clone(),
            stem: self.stem.clone(),
            session: None,
            episode_id: None,
            step_count: 0,
            done: false,
        }))
    }
}

struct CodeGymSession {
    envs: Environments,
    stem: String,
    session: Option<Session>,
    episode_id: Option<String>,
    step_count: u64,
    done: bool,
}

impl Drop for CodeGymSession {
    fn drop(&mut self) {
        if let Some(session) = self.session.take() {
            session.close();
        }
    }
}

fn reply(text: String, ok: bool, reward: Option<f64>, done: bool) -> Reply {
    let mut observation = Map::new();
    observation.insert("text".into(), json!(text));
    observation.insert("ok".into(), json!(ok));
    Reply {
        observation,
        reward,
        done,
        metadata: Map::new(),
    }
}

/// The call a step's action stands for, as the JSON text CodeGym's step takes.
fn call_of(action: &Map<String, Value>) -> Result<String, OpenEnvError> {
    if let Some(text) = text_field(action, "action")? {
        no_other_fields(action, &["action", "metadata"])?;
        return Ok(text.to_string());
    }
    no_other_fields(action, &["name", "parameters", "metadata"])?;
    let name = text_field(action, "name")?.ok_or_else(|| {
        OpenEnvError::Validation(
            "\"name\" is missing: an action is {\"name\": <function>, \"parameters\": {...}} \
             (or {\"action\": <that as JSON text>})"
                .into(),
        )
    })?;
    let parameters = match action.get("parameters") {
        None | Some(Value::Null) => json!({}),
        Some(p @ Value::Object(_)) => p.clone(),
        Some(_) => {
            return Err(OpenEnvError::Validation(
                "\"parameters\" must be an object".into(),
            ));
        }
    };
    Ok(json!({"name": name, "parameters": parameters}).to_string())
}

impl EnvSession for CodeGymSession {
    fn reset(&mut self, options: &Map<String, Value>) -> Result<Reply, OpenEnvError> {
        no_other_fields(options, RESET_FIELDS)?;
        let config = match options.get("config") {
            None | Some(Value::Null) => "{}".to_string(),
            Some(Value::String(text)) => text.clone(),
            Some(object @ Value::Object(_)) => object.to_string(),
            Some(_) => {
                return Err(OpenEnvError::Validation(
                    "\"config\" must be the environment's configuration: an object, or its JSON text"
                        .into(),
                ));
            }
        };
        if let Some(old) = self.session.take() {
            old.close();
        }
        let env_str = format!("{}@{}", self.stem, config);
        let session = self.envs.start_named(None, None, &env_str)?;
        let first = session.first_observation().to_string();
        self.session = Some(session);
        self.episode_id = Some(match text_field(options, "episode_id")? {
            Some(id) => id.to_string(),
            None => rewardbox_envs::new_id()
                .map_err(|e| OpenEnvError::Execution(format!("no episode id: {e}")))?,
        });
        self.step_count = 0;
        self.done = false;
        Ok(reply(first, true, None, false))
    }

    fn step(
        &mut self,
        action: &Map<String, Value>,
        _timeout_s: Option<f64>,
    ) -> Result<Reply, OpenEnvError> {
        let call = call_of(action)?;
        let Some(session) = &self.session else {
            return Err(OpenEnvError::Validation(format!(
                "reset first: the CodeGym environment {} starts from its config \
                 (reset(config={{...}}))",
                self.stem
            )));
        };
        self.step_count += 1;
        let step = match session.step(&call) {
            Ok(step) => step,
            Err(EnvError::Raised { type_name, message }) => {
                return Ok(reply(
                    format!("Error: {type_name}: {message}"),
                    false,
                    None,
                    self.done,
                ));
            }
            Err(e @ (EnvError::StepFailed { .. } | EnvError::Broken { .. })) => {
                self.done = true;
                let mut broken = reply(format!("Error: {e}"), false, None, true);
                broken.metadata.insert("error".into(), json!(e.kind()));
                return Ok(broken);
            }
            Err(other) => return Err(other.into()),
        };
        self.done = session.done()?;
        let reward = session.reward()?;
        Ok(reply(step.observation, step.ok, Some(reward), self.done))
    }

    fn state(&self) -> Value {
        json!({
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "env_str": self.session.as_ref().map(Session::env_str),
            "done": self.done,
        })
    }
}
