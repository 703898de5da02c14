//! DeepGym-style multi-turn episodes: an agent edits and runs code in a workspace directory that
//! persists across steps, each action running in a fresh sandbox, with an optional per-step
//! reward and a final verdict from verifiers.
//!
//! An episode is described by a JSON object (DeepGym's multi-turn environment):
//! `{"task", "files": {path: text}, "setup_code", "step_verifier_code", "final_verifier_code",
//! "max_steps", "timeout_per_step"}`. Actions are `{"action_type": "code", "content": python}`
//! (run with the workspace as working directory; its output is the observation),
//! `{"action_type": "write_file", "path", "content"}` and `{"action_type": "done"}`; as in
//! DeepGym, an action whose output holds a line `DONE` (or a JSON object with `"done": true`)
//! ends the episode too. Verifiers
//! run as DeepGym's scripts do (`__main__`, in the workspace, read-only) in a trusted sandbox
//! that may load the agent's files as live candidates (`deepgym_solution.load_solution`); the
//! last JSON object they print, with a `score`, is the verdict.
//!
//! The workspace is a host temporary directory the sandboxes see at `/workspace` (read-write for
//! actions, read-only for verifiers), removed with the episode. Its size is checked after every
//! step: past the limit the episode ends. A step can write past it before the check by what it
//! can write within its fuel and wall-clock budget.

use crate::environments::Environments;
use crate::error::EnvError;
use crate::session::{last_line, status_name};
use rewardbox::Limits;
use rewardbox::candidates::program_in;
use rewardbox::candidates::{RunOutcome, RunStatus};
use rewardbox::sandboxes::Mount;
use rewardbox::sandboxes::check_disk_budget;
use serde_json::Value;
use std::path::{Component, Path, PathBuf};
use std::sync::Mutex;

/// Where the sandboxes see the workspace.
pub const WORKSPACE: &str = "/workspace";

/// What describes an episode (DeepGym's multi-turn environment).
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeSpec {
    /// The task, for the agent.
    pub task: String,
    /// Files written into the workspace before setup.
    pub files: Vec<(String, String)>,
    /// Python run in the workspace after the files; its output is the first observation.
    pub setup_code: String,
    /// A verifier run after each step, for a per-step reward.
    pub step_verifier_code: String,
    /// The verifier run at the end, for the verdict.
    pub final_verifier_code: String,
    /// The episode ends after this many steps.
    pub max_steps: u32,
    /// Wall-clock limit of a step, in seconds.
    pub timeout_per_step: u32,
}

impl EpisodeSpec {
    /// Reads the JSON description; the error names the field.
    pub fn from_json(value: &Value) -> Result<EpisodeSpec, EnvError> {
        let bad = |m: String| EnvError::BadRequest(m);
        let text = |field: &str| -> Result<String, EnvError> {
            match value.get(field) {
                None | Some(Value::Null) => Ok(String::new()),
                Some(Value::String(s)) => Ok(s.clone()),
                Some(_) => Err(bad(format!("\"{field}\" must be a string"))),
            }
        };
        let number = |field: &str, default: u32| -> Result<u32, EnvError> {
            match value.get(field) {
                None | Some(Value::Null) => Ok(default),
                Some(v) => v
                    .as_u64()
                    .filter(|n| (1..=u64::from(u32::MAX)).contains(n))
                    .map(|n| n as u32)
                    .ok_or_else(|| bad(format!("\"{field}\" must be a positive integer"))),
            }
        };
        let mut files = Vec::new();
        if let Some(map) = value.get("files").filter(|v| !v.is_null()) {
            let map = map
                .as_object()
                .ok_or_else(|| bad("\"files\" must be an object of path -> text".into()))?;
            for (path, content) in map {
                let content = content
                    .as_str()
                    .ok_or_else(|| bad(format!("\"files.{path}\" must be text")))?;
                relative_path(path)?;
                files.push((path.clone(), content.to_string()));
            }
        }
        Ok(EpisodeSpec {
            task: text("task")?,
            files,
            setup_code: text("setup_code")?,
            step_verifier_code: text("step_verifier_code")?,
            final_verifier_code: text("final_verifier_code")?,
            max_steps: number("max_steps", 10)?,
            timeout_per_step: number("timeout_per_step", 30)?,
        })
    }
}

/// A path inside the workspace: relative, without `..`.
fn relative_path(path: &str) -> Result<PathBuf, EnvError> {
    let p = Path::new(path);
    let plain = !path.is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)));
    if plain {
        Ok(p.to_path_buf())
    } else {
        Err(EnvError::BadRequest(format!(
            "{path:?} must be a relative path inside the workspace (no '..', no leading '/')"
        )))
    }
}

/// The outcome of one step of an episode.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeStep {
    /// What the action printed (or what it did).
    pub observation: String,
    /// The step verifier's score, when there is one and it gave a verdict.
    pub reward: Option<f64>,
    /// Why the step verifier gave no verdict (the step itself happened).
    pub reward_error: Option<String>,
    /// Whether the episode is over (`done`, or `max_steps` reached).
    pub done: bool,
    /// Steps taken, this one included.
    pub step: u32,
}

/// The final verdict of an episode.
#[derive(Debug, Clone, PartialEq)]
pub struct EpisodeVerdict {
    /// In [0, 1].
    pub score: f64,
    /// The verifier's `passed` (else score == 1).
    pub passed: bool,
    /// The verifier's details.
    pub details: String,
}

struct State {
    steps: u32,
    done: bool,
    broken: Option<(String, String)>,
}

/// A running episode: its workspace and progress. Dropping it removes the workspace.
pub struct Episode {
    envs: Environments,
    spec: EpisodeSpec,
    /// A private temp directory, removed when the episode is dropped.
    workspace: tempfile::TempDir,
    first_observation: String,
    /// The SHA-256 of each file the environment put into the workspace (its files and what its
    /// setup wrote), by path: such a file, still as it was, is the environment's own code, which
    /// a verifier may load; any other is the agent's and runs as a live candidate.
    baseline: Vec<(String, String)>,
    state: Mutex<State>,
}

impl Environments {
    /// Starts an episode: writes its files into a fresh workspace and runs its setup code.
    pub fn start_episode(&self, spec: EpisodeSpec) -> Result<Episode, EnvError> {
        let workspace = tempfile::Builder::new()
            .prefix("rewardbox-episode-")
            .tempdir()
            .map_err(|e| host_error("a temporary workspace", e))?;
        let mut episode = Episode {
            envs: self.clone(),
            spec,
            workspace,
            first_observation: String::new(),
            baseline: Vec::new(),
            state: Mutex::new(State {
                steps: 0,
                done: false,
                broken: None,
            }),
        };
        for (path, content) in &episode.spec.files {
            episode.write(path, content)?;
        }
        if !episode.spec.setup_code.trim().is_empty() {
            let code = episode.spec.setup_code.clone();
            let outcome = episode.run_code(&code, true, true);
            if outcome.status != RunStatus::Ok || outcome.exit_code.unwrap_or(0) != 0 {
                return Err(EnvError::StartFailed {
                    status: "start_error".into(),
                    detail: format!("the setup code failed: {}", last_line(&outcome.stderr)),
                });
            }
            episode.first_observation = format!("{}{}", outcome.stdout, outcome.stderr);
        }
        episode.baseline = file_digests(episode.workspace.path());
        Ok(episode)
    }
}

impl Episode {
    /// The task and the setup's output: what the agent sees first.
    pub fn first_observation(&self) -> &str {
        &self.first_observation
    }

    /// The task of the episode.
    pub fn task(&self) -> &str {
        &self.spec.task
    }

    /// The host directory of the workspace.
    pub fn workspace(&self) -> &Path {
        self.workspace.path()
    }

    /// Applies one action (`{"action_type": "code" | "write_file" | "done", ...}`).
    pub fn step(&self, action: &Value) -> Result<EpisodeStep, EnvError> {
        let mut state = self.state.lock().expect("episode lock");
        if let Some((status, detail)) = &state.broken {
            return Err(EnvError::Broken {
                status: status.clone(),
                detail: detail.clone(),
            });
        }
        if state.done {
            return Err(EnvError::BadRequest(
                "the episode is over; read its score".into(),
            ));
        }
        let kind = action
            .get("action_type")
            .and_then(Value::as_str)
            .unwrap_or("code");
        let content = action.get("content").and_then(Value::as_str).unwrap_or("");
        let observation = match kind {
            "code" => {
                let outcome = self.run_code(content, true, false);
                match outcome.status {
                    RunStatus::Ok | RunStatus::ExitedNonzero => {
                        format!("{}{}", outcome.stdout, outcome.stderr)
                    }
                    other => format!(
                        "{}{}\n[the code {}]",
                        outcome.stdout,
                        outcome.stderr,
                        status_name(other).replace('_', " ")
                    ),
                }
            }
            "write_file" => {
                let path = action.get("path").and_then(Value::as_str).ok_or_else(|| {
                    EnvError::BadRequest("a write_file action needs \"path\"".into())
                })?;
                self.write(path, content)?;
                format!("wrote {path}")
            }
            "done" => String::new(),
            "bash" => {
                return Err(EnvError::BadRequest(
                    "bash actions are not available: the sandbox runs no processes (use \"code\")"
                        .into(),
                ));
            }
            other => {
                return Err(EnvError::BadRequest(format!(
                    "unknown action_type {other:?} (code, write_file or done)"
                )));
            }
        };
        state.steps += 1;
        let size = dir_size(self.workspace.path());
        let limit = self.envs.options().workspace_budget.bytes;
        if size > limit {
            let detail = format!("the workspace holds {size} bytes, above the limit of {limit}");
            state.broken = Some(("workspace_exceeded".into(), detail.clone()));
            let _ = std::fs::remove_dir_all(self.workspace.path());
            return Err(EnvError::StepFailed {
                status: "workspace_exceeded".into(),
                detail,
            });
        }
        state.done =
            kind == "done" || signals_done(&observation) || state.steps >= self.spec.max_steps;
        let (reward, reward_error) = if self.spec.step_verifier_code.trim().is_empty() {
            (None, None)
        } else {
            match self.verify(&self.spec.step_verifier_code, true) {
                Ok(verdict) => (Some(verdict.score), None),
                Err(EnvError::VerifierFailed(why)) => (None, Some(why)),
                Err(other) => return Err(other),
            }
        };
        Ok(EpisodeStep {
            observation,
            reward,
            reward_error,
            done: state.done,
            step: state.steps,
        })
    }

    /// Whether the episode is over.
    pub fn done(&self) -> bool {
        self.state.lock().expect("episode lock").done
    }

    /// The final verifier's verdict on the workspace as it is now.
    pub fn score(&self) -> Result<EpisodeVerdict, EnvError> {
        if let Some((status, detail)) = &self.state.lock().expect("episode lock").broken {
            return Ok(EpisodeVerdict {
                score: 0.0,
                passed: false,
                details: format!("the episode broke ({status}): {detail}"),
            });
        }
        if self.spec.final_verifier_code.trim().is_empty() {
            return Err(EnvError::BadRequest(
                "the episode has no final_verifier_code".into(),
            ));
        }
        let acted = self.state.lock().expect("episode lock").steps > 0;
        self.verify(&self.spec.final_verifier_code, acted)
    }

    /// Writes `content` at `path` in the workspace. Directories are made one level at a time and
    /// the file opened without following a link, so a link the agent planted (a directory or the
    /// file itself) never leads the host out of the workspace; the workspace's byte budget holds.
    fn write(&self, path: &str, content: &str) -> Result<(), EnvError> {
        use std::os::unix::fs::OpenOptionsExt;
        let relative = relative_path(path)?;
        let out = || EnvError::BadRequest(format!("{path:?} leads through a link or a file"));
        let mut dir = self.workspace.path().to_path_buf();
        let parents: Vec<_> = relative
            .parent()
            .into_iter()
            .flat_map(|p| p.components())
            .collect();
        for part in parents {
            dir.push(part);
            match std::fs::symlink_metadata(&dir) {
                Ok(meta) if meta.is_dir() => {}
                Ok(_) => return Err(out()),
                Err(_) => std::fs::create_dir(&dir).map_err(|e| host_error(path, e))?,
            }
        }
        let target = self.workspace.path().join(&relative);
        if std::fs::symlink_metadata(&target).is_ok_and(|m| m.file_type().is_symlink()) {
            return Err(EnvError::BadRequest(format!("{path:?} is a symbolic link")));
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&target)
            .map_err(|e| host_error(path, e))?;
        std::io::Write::write_all(&mut file, content.as_bytes())
            .map_err(|e| host_error(path, e))?;
        check_disk_budget(self.workspace.path(), self.envs.options().workspace_budget).map_err(
            |exceeded| {
                let _ = std::fs::remove_file(&target);
                EnvError::BadRequest(format!("writing {path:?}: the workspace {exceeded}"))
            },
        )
    }

    /// Runs Python `code` as `__main__` in a fresh sandbox with the workspace as working
    /// directory; `trusted` code (setup, verifiers) may open live candidates.
    fn run_code(&self, code: &str, writable: bool, trusted: bool) -> RunOutcome {
        let program = program_in(WORKSPACE, code, "<step>");
        let options = self.envs.options();
        let mut limits = Limits {
            wall_ms: u64::from(self.spec.timeout_per_step) * 1000,
            ..options.limits
        };
        // The operator's bound holds over what the episode asks for.
        if let Some(max) = &options.max_limits {
            limits = limits.clamp_to(max);
        }
        let mounts = [Mount {
            host: self.workspace.path(),
            guest: WORKSPACE,
            writable,
            budget: Some(self.envs.options().workspace_budget),
        }];
        let services = self.envs.services();
        let outcome = if trusted {
            // The agent's code a verifier loads runs as a live candidate that sees the workspace
            // (read-only), so that it imports its other files as natively.
            let context = services
                .context(options.seed)
                .with_candidate_dir(self.workspace.path().to_path_buf(), WORKSPACE);
            services.python().map(|python| {
                python.run_trusted(
                    services.engine(),
                    context,
                    &program,
                    "",
                    &limits,
                    options.seed,
                    &mounts,
                )
            })
        } else {
            services.runners().python().map(|python| {
                python.run_with_files(
                    services.engine(),
                    &program,
                    "",
                    &limits,
                    options.seed,
                    &mounts,
                )
            })
        };
        match outcome {
            Ok(outcome) => outcome,
            Err(message) => RunOutcome {
                status: RunStatus::Crashed,
                exit_code: None,
                stdout: String::new(),
                stderr: message,
                fuel_used: 0,
            },
        }
    }

    /// Runs a verifier script on the workspace (read-only) and reads its verdict. A verifier that
    /// gives none after it consulted the agent's work (once the agent `acted`) failed on that
    /// work: a judged 0, as DeepGym scores it; before, it has no verdict (masked).
    fn verify(&self, code: &str, acted: bool) -> Result<EpisodeVerdict, EnvError> {
        let mark = crate::environments::new_id()
            .map_err(|e| EnvError::VerifierFailed(format!("no mark for the verifier: {e}")))?;
        let outcome = self.run_code(&guarded(code, &mark, &self.baseline), false, true);
        let line = format!("\n{mark}\n");
        let consulted = acted && outcome.stdout.contains(&line);
        let stdout = outcome.stdout.replace(&line, "\n");
        let verdict = stdout
            .lines()
            .rev()
            .filter_map(|l| serde_json::from_str::<Value>(l.trim()).ok())
            .find(|v| v.get("score").is_some_and(Value::is_number));
        let Some(verdict) = verdict else {
            let why = format!(
                "it printed no JSON object with a score ({}): {}",
                status_name(outcome.status),
                last_line(&outcome.stderr)
            );
            if consulted {
                return Ok(EpisodeVerdict {
                    score: 0.0,
                    passed: false,
                    details: format!("the verifier failed on the agent's work: {why}"),
                });
            }
            return Err(EnvError::VerifierFailed(why));
        };
        let score = verdict["score"].as_f64().unwrap_or(f64::NAN);
        if !(0.0..=1.0).contains(&score) {
            return Err(EnvError::VerifierFailed(format!(
                "its score {score} is outside [0, 1]"
            )));
        }
        Ok(EpisodeVerdict {
            score,
            passed: verdict
                .get("passed")
                .and_then(Value::as_bool)
                .unwrap_or(score == 1.0),
            details: verdict
                .get("details")
                .map(|d| d.as_str().map_or_else(|| d.to_string(), str::to_string))
                .unwrap_or_default(),
        })
    }
}

/// The verifier `code` run under the guard that prints `mark` once it consults the workspace and
/// runs the agent's code the verifier loads as live candidates, the files of `baseline` still as
/// they were excepted (see `episode_guard.py`).
fn guarded(code: &str, mark: &str, baseline: &[(String, String)]) -> String {
    let quote = |text: &str| serde_json::to_string(text).expect("a string serialises");
    let trusted: serde_json::Map<String, Value> = baseline
        .iter()
        .map(|(path, digest)| (path.clone(), Value::String(digest.clone())))
        .collect();
    include_str!("episode_guard.py")
        .replace(
            "_rb_guard(MARK, WORKSPACE, TRUSTED)",
            &format!(
                "_rb_guard({}, {}, {})",
                quote(mark),
                quote(WORKSPACE),
                Value::Object(trusted)
            ),
        )
        .replace(
            "_rb_compile(VERIFIER,",
            &format!("_rb_compile({},", quote(code)),
        )
}

/// The SHA-256 (hex) of every regular file under `dir`, by its path relative to `dir`
/// (`/`-separated); links are not followed.
fn file_digests(dir: &Path) -> Vec<(String, String)> {
    use sha2::{Digest, Sha256};
    let mut found = Vec::new();
    let mut pending = vec![(dir.to_path_buf(), String::new())];
    while let Some((at, prefix)) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(&at) else {
            continue;
        };
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{prefix}{name}");
            match entry.file_type() {
                Ok(t) if t.is_dir() => pending.push((entry.path(), format!("{path}/"))),
                Ok(t) if t.is_file() => {
                    if let Ok(bytes) = std::fs::read(entry.path()) {
                        let digest = Sha256::digest(&bytes);
                        let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
                        found.push((path, hex));
                    }
                }
                _ => {}
            }
        }
    }
    found.sort();
    found
}

/// Whether an action's output ends the episode, as DeepGym reads it: a line `DONE`, or a line
/// holding a JSON object with `"done": true`.
fn signals_done(output: &str) -> bool {
    output.lines().map(str::trim).any(|line| {
        line == "DONE"
            || (line.starts_with('{')
                && line.ends_with('}')
                && serde_json::from_str::<Value>(line)
                    .is_ok_and(|v| v.get("done") == Some(&Value::Bool(true))))
    })
}

fn dir_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => dir_size(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

/// The host failed at something on `what` (a path in the workspace, as the request named it;
/// never the host's own path).
fn host_error(what: impl std::fmt::Display, e: std::io::Error) -> EnvError {
    EnvError::StartFailed {
        status: "host_error".into(),
        detail: format!("the host could not use {what}: {e}"),
    }
}
