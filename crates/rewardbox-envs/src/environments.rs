//! [`Environments`]: the environment files of a directory and the sessions started from them.
//!
//! Built once per process: its own engine (each session's instance maps its own memory, so
//! thousands can be alive), the compiled CPython component, and the session table. Starting a
//! session is a fresh instance that loads the environment's file and creates the environment.

use crate::budget::{Amount, Budgets, Hold};
use crate::env_str::EnvString;
use crate::error::EnvError;
use crate::session::{Session, SessionCell, SessionState, SessionTable, call_driver, status_name};
use rewardbox::candidates::CallError;
use rewardbox::candidates::HostServices;
use rewardbox::candidates::LiveCandidate;
use rewardbox::candidates::PythonRunner;
use rewardbox::candidates::Runners;
use rewardbox::sandboxes::DiskBudget;
use rewardbox::sandboxes::{Sandboxes, SandboxesBuilder};
use rewardbox::{ComponentCache, Limits};
use serde_json::json;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The program of a session's instance (`guests/python/rb_env.py` holds the environment).
const SESSION_PROGRAM: &str =
    "from rb_env import load, start, step, reset, reward, done, get_attribute, observation\n";

/// How [`Environments`] runs sessions.
#[derive(Debug, Clone)]
pub struct EnvOptions {
    /// Where the environment files (`<FileStem>.py`) are; none: no CodeGym environments, only
    /// the built-in ones (REPLs, episodes).
    pub env_dir: Option<PathBuf>,
    /// Budget of every call into a session (fuel, wall clock, output); `memory_bytes` is the
    /// session's memory limit, for its whole life.
    pub limits: Limits,
    /// A session unused for this long is closed.
    pub idle_ttl: Duration,
    /// At most this many sessions alive at once.
    pub max_sessions: usize,
    /// Where compiled components are cached.
    pub cache: ComponentCache,
    /// Seed of the sessions' random source (the same seed, the same episode).
    pub seed: u64,
    /// What an episode's workspace may hold, enforced while its code writes and on `write_file`.
    pub workspace_budget: DiskBudget,
    /// The most any request may ask for: an episode's `timeout_per_step` is clamped to its wall
    /// clock (none: no bound beyond the episode's own).
    pub max_limits: Option<Limits>,
    /// What the sessions alive may hold together, shared with whatever else of the process
    /// holds memory or disk for its clients: each session that keeps an instance (a CodeGym
    /// environment, a REPL) holds its whole memory limit, each episode its whole workspace
    /// budget. Unbounded by default.
    pub budgets: Arc<Budgets>,
}

impl EnvOptions {
    /// Defaults for `env_dir`: 2·10^9 fuel (about a second of Python), 10 s and 1 MiB of output
    /// per call, 256 MiB per session, sessions idle for 10 minutes closed, at most 4,096 alive,
    /// an episode's workspace at most 64 MiB in 10,000 entries.
    pub fn new(env_dir: impl Into<PathBuf>) -> Self {
        EnvOptions {
            env_dir: Some(env_dir.into()),
            ..EnvOptions::without_files()
        }
    }

    /// The defaults of [`EnvOptions::new`] without an environments directory: for Python REPLs
    /// and episodes, which need no environment files.
    pub fn without_files() -> Self {
        EnvOptions {
            env_dir: None,
            limits: Limits {
                fuel: 2_000_000_000,
                wall_ms: 10_000,
                memory_bytes: 256 << 20,
                output_bytes: 1 << 20,
            },
            idle_ttl: Duration::from_secs(600),
            max_sessions: 4096,
            cache: ComponentCache::user_default(),
            seed: 0,
            workspace_budget: DiskBudget {
                bytes: 64 << 20,
                entries: DiskBudget::DEFAULT.entries,
            },
            max_limits: None,
            budgets: Budgets::unbounded(),
        }
    }
}

/// The environments of a directory and their live sessions. Cheap to clone and `Sync`: share
/// one per process.
#[derive(Clone)]
pub struct Environments {
    inner: Arc<Inner>,
}

/// An environment file: its text, and its compiled code once a session has compiled it (base64
/// of `marshal`, handed to the next sessions so that they skip compiling).
struct EnvFile {
    source: String,
    code: Mutex<Option<serde_json::Value>>,
}

struct Inner {
    options: EnvOptions,
    python: Arc<PythonRunner>,
    /// The engine (its ticker running while these environments live), the runners, the host
    /// services.
    sandboxes: Sandboxes,
    sources: Mutex<HashMap<String, Arc<EnvFile>>>,
    sessions: Mutex<HashMap<String, Arc<SessionCell>>>,
    /// Sessions alive or starting (a place is taken before a start, so the cap holds).
    places: Mutex<usize>,
    epoch: Instant,
}

impl Environments {
    /// Sets up the engine and compiles (or loads from the cache) the CPython component.
    pub fn new(options: EnvOptions) -> anyhow::Result<Environments> {
        if let Some(dir) = &options.env_dir {
            anyhow::ensure!(
                dir.is_dir(),
                "the environments directory {} does not exist",
                dir.display()
            );
        }
        let sandboxes = SandboxesBuilder::for_sessions()
            .cache(options.cache.clone())
            .verifier_limits(options.limits)
            .build()?;
        let python = sandboxes
            .runners()
            .python()
            .map_err(|e| anyhow::anyhow!(e))?;
        Ok(Environments {
            inner: Arc::new(Inner {
                options,
                python,
                sandboxes,
                sources: Mutex::default(),
                sessions: Mutex::default(),
                places: Mutex::default(),
                epoch: Instant::now(),
            }),
        })
    }

    /// The options these environments run with.
    pub fn options(&self) -> &EnvOptions {
        &self.inner.options
    }

    /// Starts a session from an environment string (`codegym_v1@<FileStem>@<json>`, or without
    /// `codegym_v1@` with `env_name` `codegym_v1`). With `session_id`, the session gets that id,
    /// unless a live session has it ([`EnvError::SessionInUse`]); without, an unguessable one
    /// (128 random bits).
    pub fn start(&self, session_id: Option<&str>, env_str: &str) -> Result<Session, EnvError> {
        self.start_named(session_id, None, env_str)
    }

    /// [`Environments::start`] with the environment's name given apart, as CodeGym's client
    /// sends it.
    pub fn start_named(
        &self,
        session_id: Option<&str>,
        env_name: Option<&str>,
        env_str: &str,
    ) -> Result<Session, EnvError> {
        let parsed = EnvString::parse(env_name, env_str)?;
        let source = self.inner.source(&parsed.stem)?;
        self.reap();
        if let Some(id) = session_id
            && self
                .inner
                .sessions
                .lock()
                .expect("sessions lock")
                .contains_key(id)
        {
            return Err(EnvError::SessionInUse(id.to_string()));
        }
        let inner = &self.inner;
        let hold = inner.take_place(inner.instance())?;
        match inner.open(&parsed, &source) {
            Ok((state, observation)) => {
                let id = match session_id {
                    Some(id) => id.to_string(),
                    None => new_id().map_err(|e| EnvError::StartFailed {
                        status: "host_error".into(),
                        detail: format!("the host could not draw a session id: {e}"),
                    })?,
                };
                let cell = Arc::new(SessionCell {
                    state: Mutex::new(state),
                    last_used_ms: AtomicU64::new(inner.now_ms()),
                    _hold: hold,
                });
                {
                    let mut sessions = inner.sessions.lock().expect("sessions lock");
                    if sessions.contains_key(&id) {
                        // A racing start with the same id: the first one keeps it.
                        drop(sessions);
                        inner.give_back();
                        return Err(EnvError::SessionInUse(id));
                    }
                    sessions.insert(id.clone(), cell.clone());
                }
                Ok(Session {
                    id,
                    cell,
                    owner: inner.clone(),
                    observation: observation.into(),
                })
            }
            Err(e) => {
                inner.give_back();
                Err(e)
            }
        }
    }

    /// A place among the [`EnvOptions::max_sessions`] sessions alive at once, for a sandbox held
    /// across calls outside the CodeGym session table (a REPL, an episode): given back when the
    /// slot is dropped. Fails with [`EnvError::TooManySessions`] when none is free.
    pub fn reserve(&self) -> Result<SessionSlot, EnvError> {
        self.reserve_for(self.inner.instance())
    }

    /// A place for an episode, which holds a workspace (its budget, from
    /// [`EnvOptions::disk_budget`]) and no instance between its steps.
    pub fn reserve_workspace(&self) -> Result<SessionSlot, EnvError> {
        self.reserve_for(Amount {
            memory: 0,
            disk: self.inner.options.workspace_budget.bytes,
        })
    }

    fn reserve_for(&self, amount: Amount) -> Result<SessionSlot, EnvError> {
        let hold = self.inner.take_place(amount)?;
        Ok(SessionSlot {
            owner: self.inner.clone(),
            _hold: hold,
        })
    }

    /// The places taken: sessions alive or starting, of every kind (CodeGym's, REPLs,
    /// episodes).
    pub fn places_taken(&self) -> usize {
        *self.inner.places.lock().expect("places lock")
    }

    /// The live session `id`.
    pub fn get(&self, id: &str) -> Result<Session, EnvError> {
        let cell = self
            .inner
            .sessions
            .lock()
            .expect("sessions lock")
            .get(id)
            .cloned()
            .ok_or_else(|| EnvError::UnknownSession(id.to_string()))?;
        Ok(Session {
            id: id.to_string(),
            cell,
            owner: self.inner.clone(),
            observation: Arc::from(""),
        })
    }

    /// Closes session `id`; false when there is none.
    pub fn close(&self, id: &str) -> bool {
        self.inner.remove(id)
    }

    /// How many sessions are alive.
    pub fn live_sessions(&self) -> usize {
        self.inner.sessions.lock().expect("sessions lock").len()
    }

    /// Closes the sessions unused for longer than the idle time-to-live; returns how many.
    pub fn reap(&self) -> usize {
        let inner = &self.inner;
        let limit = inner.options.idle_ttl.as_millis() as u64;
        let now = inner.now_ms();
        let expired: Vec<String> = inner
            .sessions
            .lock()
            .expect("sessions lock")
            .iter()
            .filter(|(_, cell)| {
                now.saturating_sub(cell.last_used_ms.load(Ordering::Relaxed)) > limit
                    && cell.state.try_lock().is_ok()
            })
            .map(|(id, _)| id.clone())
            .collect();
        expired.iter().filter(|id| inner.remove(id)).count()
    }

    /// Steps many sessions at once, in parallel over the cores: one result per `(session,
    /// action)`, in order. The same session may appear once.
    pub fn step_many(
        &self,
        steps: &[(Session, String)],
    ) -> Vec<Result<crate::StepResult, EnvError>> {
        use rayon::prelude::*;
        steps
            .par_iter()
            .map(|(session, action)| session.step(action))
            .collect()
    }

    /// The engine's runtimes (for the `sandbox` of Python verifiers run beside sessions).
    pub fn runners(&self) -> &Arc<Runners> {
        self.inner.sandboxes.runners()
    }

    /// A fresh CPython instance of the sessions' engine holding `program` (a REPL's driver):
    /// memory `limits.memory_bytes` for its life, the other limits for loading it.
    pub(crate) fn open_live(
        &self,
        program: &str,
        limits: &Limits,
    ) -> Result<LiveCandidate, CallError> {
        let inner = &self.inner;
        LiveCandidate::open(
            &inner.python,
            inner.sandboxes.engine(),
            program,
            limits,
            inner.options.seed,
        )
    }

    /// What trusted instances beside the sessions are offered (an episode's scripts).
    pub fn services(&self) -> &Arc<HostServices> {
        self.inner.sandboxes.services()
    }
}

impl SessionTable for Inner {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn step_limits(&self) -> Limits {
        self.options.limits
    }

    fn remove(&self, id: &str) -> bool {
        let removed = self
            .sessions
            .lock()
            .expect("sessions lock")
            .remove(id)
            .is_some();
        if removed {
            self.give_back();
        }
        removed
    }
}

/// A place among the sessions alive at once (see [`Environments::reserve`]), and what it holds
/// of the budgets.
pub struct SessionSlot {
    owner: Arc<Inner>,
    _hold: Hold,
}

impl Drop for SessionSlot {
    fn drop(&mut self) {
        self.owner.give_back();
    }
}

impl Inner {
    /// What a session keeping an instance holds: its memory limit, and the budget of the `/tmp`
    /// its instance is given.
    fn instance(&self) -> Amount {
        Amount {
            memory: self.options.limits.memory_bytes,
            disk: rewardbox::sandboxes::SCRATCH_BUDGET.bytes,
        }
    }

    /// Takes one of the `max_sessions` places, holding `amount` of the budgets, or says what is
    /// exhausted: the places, or a budget.
    fn take_place(&self, amount: Amount) -> Result<Hold, EnvError> {
        let mut taken = self.places.lock().expect("places lock");
        if *taken >= self.options.max_sessions {
            return Err(EnvError::TooManySessions {
                limit: self.options.max_sessions,
            });
        }
        let hold = self
            .options
            .budgets
            .take(amount, "one more session")
            .map_err(EnvError::OverBudget)?;
        *taken += 1;
        Ok(hold)
    }

    /// Gives back a place (what it held of the budgets goes back with its hold).
    fn give_back(&self) {
        let mut taken = self.places.lock().expect("places lock");
        *taken = taken.saturating_sub(1);
    }

    /// Environment file `stem`.py, read once.
    fn source(&self, stem: &str) -> Result<Arc<EnvFile>, EnvError> {
        if let Some(file) = self.sources.lock().expect("sources lock").get(stem) {
            return Ok(file.clone());
        }
        let Some(dir) = &self.options.env_dir else {
            return Err(EnvError::UnknownEnvironment(format!(
                "no environment {stem:?}: no environments directory is set (--env-dir DIR)"
            )));
        };
        let path = env_file(dir, stem);
        // The message names the environment, never the host's path to it.
        let source = std::fs::read_to_string(&path).map_err(|e| {
            EnvError::UnknownEnvironment(format!(
                "no environment {stem:?} in the environments directory: {}",
                e.kind()
            ))
        })?;
        let file = Arc::new(EnvFile {
            source,
            code: Mutex::new(None),
        });
        self.sources
            .lock()
            .expect("sources lock")
            .insert(stem.to_string(), file.clone());
        Ok(file)
    }

    /// A fresh instance holding the environment, started: its state and first observation.
    fn open(&self, env: &EnvString, file: &EnvFile) -> Result<(SessionState, String), EnvError> {
        let limits = self.options.limits;
        let live = LiveCandidate::open(
            &self.python,
            self.sandboxes.engine(),
            SESSION_PROGRAM,
            &limits,
            self.options.seed,
        )
        .map_err(start_failed)?;
        let mut state = SessionState {
            live,
            env_str: format!("{}@{}", env.stem, env.class_str),
            broken: None,
            last: (0, 0),
        };
        let start = |state: &mut SessionState, name: &str, args: &[serde_json::Value]| {
            call_driver(state, &limits, name, args).map_err(|e| match e {
                EnvError::Raised { type_name, message } => EnvError::StartFailed {
                    status: "start_error".into(),
                    detail: start_message(&type_name, &message),
                },
                EnvError::StepFailed { status, detail } => EnvError::StartFailed { status, detail },
                other => other,
            })
        };
        let code = file.code.lock().expect("code lock").clone();
        let mut load_args = vec![json!(env.stem), json!(file.source)];
        load_args.extend(code.clone());
        let (compiled, _) = start(&mut state, "load", &load_args)?;
        if code.is_none() && compiled.is_string() {
            *file.code.lock().expect("code lock") = Some(compiled);
        }
        let (observation, _) = start(&mut state, "start", &[json!(env.class_str)])?;
        let observation = observation
            .as_str()
            .map_or_else(|| observation.to_string(), str::to_string);
        Ok((state, observation))
    }
}

/// The file of environment `stem` in `dir`.
pub fn env_file(dir: &Path, stem: &str) -> PathBuf {
    dir.join(format!("{stem}.py"))
}

fn start_message(type_name: &str, message: &str) -> String {
    if type_name == "ModuleNotFoundError" {
        format!(
            "the environment file imports a module the sandbox does not have ({message}); \
             it offers the standard library and a small gymnasium"
        )
    } else {
        format!("{type_name}: {message}")
    }
}

fn start_failed(error: CallError) -> EnvError {
    match error {
        CallError::Raised(r) => EnvError::StartFailed {
            status: "start_error".into(),
            detail: start_message(&r.type_name, &r.message),
        },
        CallError::Ended(outcome) => EnvError::StartFailed {
            status: status_name(outcome.status).into(),
            detail: outcome.stderr.lines().last().unwrap_or("").to_string(),
        },
        CallError::Invalid(m) => EnvError::StartFailed {
            status: "start_error".into(),
            detail: m,
        },
    }
}

/// A fresh session id: 128 bits from the operating system's random source, as 32 hex digits, so
/// that no client can guess another's session.
pub fn new_id() -> std::io::Result<String> {
    use std::io::Read;
    let mut bits = [0u8; 16];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut bits)?;
    Ok(bits.iter().map(|b| format!("{b:02x}")).collect())
}
