//! OpenEnv's coding environment in every language rewardbox runs: `CodeAction{code, language?,
//! stdin?, timeout_s?}` → `CodeObservation{stdout, stderr, exit_code}`, state `{episode_id,
//! step_count, last_exit_code, language}`.
//!
//! Python persists across steps like a REPL (a [`Repl`]: what one step defines, the next sees);
//! C, C++, Rust and JavaScript steps are whole programs, each compiled (cached) and run in a fresh
//! sandbox. A step's time limit (`timeout_s`, 10 s by default) becomes fuel at the runner's
//! calibrated rate, as `/run_code`'s `run_timeout` does, so the same code gets the same answer on
//! a busy server. The exit code is what the native process would end with; a program the sandbox
//! stopped (fuel, memory, output) ends with 137, as a killed process does, and the metadata's
//! `status` says why. Steps and resets are rewarded as OpenEnv's own `coding_env` rewards them
//! (its safety and quality transforms: [`super::coding_reward`]), or not at all with
//! `--coding-reward none`.

use super::coding_reward::{self, CodingReward};
use super::env::{
    EnvSession, Family, OpenEnvError, Reply, Schemas, no_other_fields, observation_schema,
    state_schema, text_field,
};
use crate::state::AppState;
use rewardbox::Limits;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::limits_for_seconds;
use rewardbox::candidates::{RunOutcome, RunStatus};
use rewardbox_envs::{CellOutcome, Repl};
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};
use std::sync::Arc;

/// A step's time limit when it gives none, in seconds (SandboxFusion's `run_timeout` default).
const DEFAULT_TIMEOUT_S: f64 = 10.0;

/// The fields a step's action may hold (`metadata` is OpenEnv's base action's).
const ACTION_FIELDS: &[&str] = &["code", "language", "stdin", "timeout_s", "metadata"];

/// The fields a reset may hold.
const RESET_FIELDS: &[&str] = &["seed", "episode_id", "language"];

/// The coding environment.
pub struct Coding {
    app: Arc<AppState>,
}

impl Coding {
    /// The coding environment of this server.
    pub fn new(app: Arc<AppState>) -> Coding {
        Coding { app }
    }
}

impl Family for Coding {
    fn name(&self) -> String {
        "coding".into()
    }

    fn description(&self) -> String {
        "Runs code and returns its stdout, stderr and exit code, in a WebAssembly sandbox with \
         fuel, memory and output limits: Python persistent across steps like a REPL, C, C++, \
         Rust, Go, JavaScript and TypeScript as whole programs."
            .into()
    }

    fn schemas(&self) -> Schemas {
        Schemas {
            action: json!({
                "title": "CodeAction", "type": "object", "additionalProperties": false,
                "required": ["code"],
                "properties": {
                    "code": {"type": "string", "description": "The code to run"},
                    "language": {"type": "string", "default": "python",
                                  "enum": ["python", "c", "cpp", "rust", "rust-release", "javascript", "go", "typescript"],
                                  "description": "Its language (aliases such as py, c++, js are taken too); the episode's by default"},
                    "stdin": {"type": "string", "default": "", "description": "Its standard input"},
                    "timeout_s": {"type": "number", "exclusiveMinimum": 0, "default": DEFAULT_TIMEOUT_S,
                                   "description": "Its time limit, in seconds of native work (enforced as fuel)"},
                    "metadata": {"type": "object", "additionalProperties": true},
                },
            }),
            observation: observation_schema(
                "CodeObservation",
                json!({
                    "stdout": {"type": "string", "default": ""},
                    "stderr": {"type": "string", "default": ""},
                    "exit_code": {"type": "integer", "default": 0},
                }),
                &[],
            ),
            state: state_schema(
                "CodeState",
                json!({
                    "last_exit_code": {"type": "integer", "default": 0},
                    "language": {"type": "string", "default": "python"},
                }),
            ),
        }
    }

    fn open(&self) -> Result<Box<dyn EnvSession>, OpenEnvError> {
        let envs = self.app.environments().map_err(OpenEnvError::Execution)?;
        Ok(Box::new(CodingSession {
            app: self.app.clone(),
            repl: envs.start_repl()?,
            language: Language::Python,
            episode_id: None,
            step_count: 0,
            last_exit_code: 0,
        }))
    }
}

struct CodingSession {
    app: Arc<AppState>,
    repl: Repl,
    language: Language,
    episode_id: Option<String>,
    step_count: u64,
    last_exit_code: i32,
}

fn language(data: &Map<String, Value>) -> Result<Option<Language>, OpenEnvError> {
    let Some(name) = text_field(data, "language")? else {
        return Ok(None);
    };
    Language::parse(name).map(Some).ok_or_else(|| {
        OpenEnvError::Validation(format!(
            "language {name:?} is not one rewardbox runs ({})",
            Language::all_names()
        ))
    })
}

impl EnvSession for CodingSession {
    fn reset(&mut self, options: &Map<String, Value>) -> Result<Reply, OpenEnvError> {
        no_other_fields(options, RESET_FIELDS)?;
        self.language = language(options)?.unwrap_or(Language::Python);
        self.episode_id = Some(match text_field(options, "episode_id")? {
            Some(id) => id.to_string(),
            None => rewardbox_envs::new_id()
                .map_err(|e| OpenEnvError::Execution(format!("no episode id: {e}")))?,
        });
        self.step_count = 0;
        self.last_exit_code = 0;
        self.repl.reset();
        let mut reply = code_reply("", "", 0, Map::new());
        if self.app.options.coding_reward == CodingReward::CodingEnv {
            reply.reward = Some(coding_reward::RESET_REWARD);
        }
        Ok(reply)
    }

    fn step(
        &mut self,
        action: &Map<String, Value>,
        timeout_s: Option<f64>,
    ) -> Result<Reply, OpenEnvError> {
        no_other_fields(action, ACTION_FIELDS)?;
        let code = text_field(action, "code")?.ok_or_else(|| {
            OpenEnvError::Validation("\"code\" is missing (the code to run)".into())
        })?;
        let language = language(action)?.unwrap_or(self.language);
        let stdin = text_field(action, "stdin")?.unwrap_or("");
        let seconds = match action.get("timeout_s").filter(|v| !v.is_null()) {
            Some(v) => Some(
                v.as_f64()
                    .filter(|s| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| {
                        OpenEnvError::Validation(
                            "\"timeout_s\" must be a positive number of seconds".into(),
                        )
                    })?,
            ),
            None => timeout_s,
        }
        .unwrap_or(DEFAULT_TIMEOUT_S);
        let limits = limits_for_seconds(language, seconds, CANDIDATE_DEFAULT)
            .clamp_to(&self.app.options.max_limits);
        let mut reply = if language == Language::Python {
            let cell = self.repl.run(code, stdin, &limits)?;
            cell_reply(cell)
        } else {
            program_reply(self.run_program(language, code, stdin, &limits)?)
        };
        if self.app.options.coding_reward == CodingReward::CodingEnv {
            let parses = match language {
                Language::Python => self.parses_as_python(code)?,
                Language::JavaScript | Language::TypeScript => true,
                _ => reply.metadata.get("status") != Some(&json!("compile_error")),
            };
            let (reward, violation) = coding_reward::step_reward(code, parses);
            reply.reward = Some(reward);
            if let Some(pattern) = violation {
                reply
                    .metadata
                    .insert("safety_violation".into(), json!(pattern));
            }
        }
        self.step_count += 1;
        self.last_exit_code = reply.observation["exit_code"].as_i64().unwrap_or(0) as i32;
        Ok(reply)
    }

    fn state(&self) -> Value {
        json!({
            "episode_id": self.episode_id,
            "step_count": self.step_count,
            "last_exit_code": self.last_exit_code,
            "language": self.language.name(),
        })
    }
}

impl CodingSession {
    /// Whether `code` parses as Python (for its reward), checked in a sandbox of its own.
    fn parses_as_python(&self, code: &str) -> Result<bool, OpenEnvError> {
        let app = &self.app;
        app.scorer
            .install(|| {
                coding_reward::parses_as_python(app.scorer.runners(), code, app.options.seed)
            })
            .map_err(OpenEnvError::Execution)
    }

    /// Compiles (cached) and runs a whole program in a fresh sandbox of the scorer's engine.
    fn run_program(
        &self,
        language: Language,
        code: &str,
        stdin: &str,
        limits: &Limits,
    ) -> Result<RunOutcome, OpenEnvError> {
        let app = &self.app;
        let runners = app.scorer.runners();
        let outcome = match app
            .scorer
            .install(|| runners.prepare(language.name(), code))
        {
            Ok(()) => app
                .scorer
                .install(|| runners.run(language.name(), code, stdin, limits, app.options.seed)),
            Err(outcome) => outcome,
        };
        if outcome.status == RunStatus::Unsupported {
            return Err(OpenEnvError::Execution(outcome.stderr));
        }
        Ok(outcome)
    }
}

/// The status a native process would end with, or 137 for one the sandbox stopped.
fn exit_code(status: RunStatus, code: Option<i32>) -> i32 {
    match (status, code) {
        (_, Some(code)) => code,
        (RunStatus::Ok, None) => 0,
        (
            RunStatus::FuelExhausted
            | RunStatus::Timeout
            | RunStatus::MemoryExceeded
            | RunStatus::OutputExceeded,
            None,
        ) => 137,
        (RunStatus::Unsupported, None) => 127,
        (RunStatus::ExitedNonzero | RunStatus::Crashed | RunStatus::CompileError, None) => 1,
    }
}

fn status_name(status: RunStatus) -> &'static str {
    match status {
        RunStatus::Ok => "ok",
        RunStatus::ExitedNonzero => "exited_nonzero",
        RunStatus::FuelExhausted => "fuel_exhausted",
        RunStatus::Timeout => "timeout",
        RunStatus::MemoryExceeded => "memory_exceeded",
        RunStatus::OutputExceeded => "output_exceeded",
        RunStatus::Crashed => "crashed",
        RunStatus::CompileError => "compile_error",
        RunStatus::Unsupported => "unsupported",
    }
}

fn code_reply(stdout: &str, stderr: &str, exit_code: i32, metadata: Map<String, Value>) -> Reply {
    let mut observation = Map::new();
    observation.insert("stdout".into(), json!(stdout));
    observation.insert("stderr".into(), json!(stderr));
    observation.insert("exit_code".into(), json!(exit_code));
    Reply {
        observation,
        reward: None,
        done: false,
        metadata,
    }
}

fn cell_reply(cell: CellOutcome) -> Reply {
    let mut metadata = Map::new();
    metadata.insert("status".into(), json!(status_name(cell.status)));
    metadata.insert("fuel".into(), json!(cell.fuel));
    if cell.ended_interpreter {
        metadata.insert("interpreter_ended".into(), json!(true));
    }
    if cell.restarted {
        metadata.insert("restarted".into(), json!(true));
    }
    let code = exit_code(cell.status, cell.exit_code);
    code_reply(&cell.stdout, &cell.stderr, code, metadata)
}

fn program_reply(outcome: RunOutcome) -> Reply {
    let mut metadata = Map::new();
    metadata.insert("status".into(), json!(status_name(outcome.status)));
    metadata.insert("fuel".into(), json!(outcome.fuel_used));
    let code = exit_code(outcome.status, outcome.exit_code);
    code_reply(&outcome.stdout, &outcome.stderr, code, metadata)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopped_programs_end_as_killed_processes_and_native_codes_are_kept() {
        assert_eq!(exit_code(RunStatus::Ok, Some(0)), 0);
        assert_eq!(exit_code(RunStatus::ExitedNonzero, Some(3)), 3);
        assert_eq!(exit_code(RunStatus::Crashed, Some(139)), 139);
        for stopped in [
            RunStatus::FuelExhausted,
            RunStatus::Timeout,
            RunStatus::MemoryExceeded,
            RunStatus::OutputExceeded,
        ] {
            assert_eq!(exit_code(stopped, None), 137, "{stopped:?}");
        }
        assert_eq!(exit_code(RunStatus::CompileError, None), 1);
    }
}
