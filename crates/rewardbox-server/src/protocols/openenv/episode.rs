//! DeepGym-style episodes over OpenEnv: a reset describes the episode (`task`, `files`,
//! `setup_code`, `step_verifier_code`, `final_verifier_code`, `max_steps`, `timeout_per_step`);
//! a step is an action (`{"action_type": "code" | "write_file" | "done", "content", "path"}`)
//! run in a fresh sandbox on the episode's workspace. The observation is `{content, step}`; the
//! reward is the step verifier's score, and on the last step the final verifier's (its `passed`
//! and `details` in the metadata). A verifier that gives no verdict leaves the reward out
//! (`null`) and says why in `metadata.verifier_error`: never a 0 the agent did not earn.

use super::env::{
    EnvSession, Family, OpenEnvError, Reply, Schemas, no_other_fields, observation_schema,
    state_schema, text_field,
};
use crate::state::AppState;
use rewardbox_envs::{EnvError, Episode, EpisodeSpec, SessionSlot};
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// The fields of an episode's description.
const SPEC_FIELDS: &[&str] = &[
    "task",
    "files",
    "setup_code",
    "step_verifier_code",
    "final_verifier_code",
    "max_steps",
    "timeout_per_step",
];

/// The episodes family.
pub struct Episodes {
    app: Arc<AppState>,
}

impl Episodes {
    /// The episodes of this server.
    pub fn new(app: Arc<AppState>) -> Episodes {
        Episodes { app }
    }
}

impl Family for Episodes {
    fn name(&self) -> String {
        "episode".into()
    }

    fn description(&self) -> String {
        "DeepGym-style multi-turn episodes: an agent writes files and runs Python in a workspace \
         that persists across steps, each action in a fresh WebAssembly sandbox, rewarded by the \
         episode's step and final verifiers."
            .into()
    }

    fn schemas(&self) -> Schemas {
        Schemas {
            action: json!({
                "title": "EpisodeAction", "type": "object", "additionalProperties": false,
                "properties": {
                    "action_type": {"type": "string", "enum": ["code", "write_file", "done"], "default": "code"},
                    "content": {"type": "string", "default": "", "description": "Python to run, or the file's text"},
                    "path": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": null,
                             "description": "The file write_file writes, relative to the workspace"},
                    "metadata": {"type": "object", "additionalProperties": true},
                },
            }),
            observation: observation_schema(
                "EpisodeObservation",
                json!({
                    "content": {"type": "string", "description": "What the action printed or did"},
                    "step": {"type": "integer", "description": "Steps taken so far"},
                }),
                &["content", "step"],
            ),
            state: state_schema(
                "EpisodeState",
                json!({
                    "task": {"type": "string"},
                    "done": {"type": "boolean"},
                }),
            ),
        }
    }

    fn open(&self) -> Result<Box<dyn EnvSession>, OpenEnvError> {
        let envs = self.app.environments().map_err(OpenEnvError::Execution)?;
        Ok(Box::new(EpisodeSession {
            _slot: envs.reserve_workspace()?,
            envs,
            episode: None,
            episode_id: None,
            step_count: 0,
        }))
    }
}

struct EpisodeSession {
    envs: rewardbox_envs::Environments,
    episode: Option<Episode>,
    episode_id: Option<String>,
    step_count: u64,
    /// Held for the session's life: episodes count against the session cap.
    _slot: SessionSlot,
}

fn reply(content: &str, step: u64, reward: Option<f64>, done: bool) -> Reply {
    let mut observation = Map::new();
    observation.insert("content".into(), json!(content));
    observation.insert("step".into(), json!(step));
    Reply {
        observation,
        reward,
        done,
        metadata: Map::new(),
    }
}

impl EnvSession for EpisodeSession {
    fn reset(&mut self, options: &Map<String, Value>) -> Result<Reply, OpenEnvError> {
        let mut known = SPEC_FIELDS.to_vec();
        known.extend(["seed", "episode_id"]);
        no_other_fields(options, &known)?;
        let spec = EpisodeSpec::from_json(&Value::Object(options.clone()))?;
        if spec.final_verifier_code.trim().is_empty() && spec.step_verifier_code.trim().is_empty() {
            return Err(OpenEnvError::Validation(
                "an episode needs \"final_verifier_code\" or \"step_verifier_code\": without \
                 one, nothing rewards it"
                    .into(),
            ));
        }
        self.episode = None;
        let episode = self.envs.start_episode(spec)?;
        let first = if episode.first_observation().is_empty() {
            episode.task().to_string()
        } else {
            episode.first_observation().to_string()
        };
        self.episode = Some(episode);
        self.episode_id = Some(match text_field(options, "episode_id")? {
            Some(id) => id.to_string(),
            None => rewardbox_envs::new_id()
                .map_err(|e| OpenEnvError::Execution(format!("no episode id: {e}")))?,
        });
        self.step_count = 0;
        Ok(reply(&first, 0, None, false))
    }

    fn step(
        &mut self,
        action: &Map<String, Value>,
        _timeout_s: Option<f64>,
    ) -> Result<Reply, OpenEnvError> {
        no_other_fields(action, &["action_type", "content", "path", "metadata"])?;
        let Some(episode) = &self.episode else {
            return Err(OpenEnvError::Validation(
                "reset first: an episode starts from its description (task, files, verifiers)"
                    .into(),
            ));
        };
        let step = match episode.step(&Value::Object(action.clone())) {
            Ok(step) => step,
            Err(e @ EnvError::BadRequest(_)) => {
                return Err(OpenEnvError::Validation(e.to_string()));
            }
            Err(e @ (EnvError::StepFailed { .. } | EnvError::Broken { .. })) => {
                // The workspace outgrew its limit: the episode is over, the final verdict says
                // what it is worth (0: it broke).
                self.step_count += 1;
                let mut ended = reply(&format!("Error: {e}"), self.step_count, None, true);
                ended.metadata.insert("error".into(), json!(e.kind()));
                final_verdict(episode, &mut ended);
                return Ok(ended);
            }
            Err(other) => return Err(other.into()),
        };
        self.step_count += 1;
        let mut answer = reply(&step.observation, self.step_count, step.reward, step.done);
        if let Some(why) = step.reward_error {
            answer.metadata.insert("verifier_error".into(), json!(why));
        }
        if step.done {
            final_verdict(episode, &mut answer);
        }
        Ok(answer)
    }

    fn state(&self) -> Value {
        json!({
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "task": self.episode.as_ref().map(Episode::task),
            "done": self.episode.as_ref().is_some_and(Episode::done),
        })
    }
}

/// The final verifier's verdict as the last step's reward (when the episode has one).
fn final_verdict(episode: &Episode, reply: &mut Reply) {
    match episode.score() {
        Ok(verdict) => {
            reply.reward = Some(verdict.score);
            reply
                .metadata
                .insert("passed".into(), json!(verdict.passed));
            reply
                .metadata
                .insert("details".into(), json!(verdict.details));
        }
        // No final verifier: the step verifier's reward stands.
        Err(EnvError::BadRequest(_)) => {}
        Err(e) => {
            reply.reward = None;
            reply
                .metadata
                .insert("verifier_error".into(), json!(e.to_string()));
        }
    }
}
