//! A Python REPL in a persistent sandbox: cells run one after another in one namespace (what is
//! defined in one is there in the next), each with a fresh fuel, wall-clock and output budget,
//! the memory limit holding for the session's life.
//!
//! A cell ends as `python3 cell.py` would: status 0, 1 after an uncaught exception (its
//! traceback on stderr), or `sys.exit`'s code, which ends the cell but not the session (as in a
//! notebook kernel). A cell that ends the interpreter itself (`os._exit`, a limit, a crash) ends
//! with that status; the next cell starts a fresh interpreter, and its outcome says so.

use crate::environments::{Environments, SessionSlot};
use crate::error::EnvError;
use crate::session::last_line;
use rewardbox::Limits;
use rewardbox::candidates::LiveCandidate;
use rewardbox::candidates::{CallError, RunOutcome, RunStatus, Target};
use serde_json::{Value, json};

/// The driver the interpreter holds: `run(code, stdin)` executes a cell.
const DRIVER: &str = include_str!("driver.py");

/// Value JSON of no keyword arguments.
const NO_KWARGS: &str = r#"{"$d":[]}"#;

/// How one cell ended.
#[derive(Debug, Clone, PartialEq)]
pub struct CellOutcome {
    /// What the cell wrote to standard output.
    pub stdout: String,
    /// What it wrote to standard error (a traceback, the sandbox's reason for stopping it).
    pub stderr: String,
    /// `Ok` or `ExitedNonzero` when the cell ran to its end (its `exit_code` is set); a limit or
    /// a crash otherwise, which also ended the interpreter.
    pub status: RunStatus,
    /// The status `python3` would end with, when there is one (an exit, an exception, a trap
    /// with a native counterpart).
    pub exit_code: Option<i32>,
    /// Fuel the cell used.
    pub fuel: u64,
    /// Whether this cell ended the interpreter: the next cell starts a fresh one.
    pub ended_interpreter: bool,
    /// Whether this cell ran in a fresh interpreter after an earlier one ended.
    pub restarted: bool,
}

/// A Python REPL session. Holds one of the environments' session slots until dropped.
pub struct Repl {
    envs: Environments,
    live: Option<LiveCandidate>,
    /// An interpreter of this session ended: the next one is a restart.
    ended_before: bool,
    _slot: SessionSlot,
}

impl Environments {
    /// A REPL session (its interpreter starts with its first cell). Fails when as many sessions
    /// are alive as allowed.
    pub fn start_repl(&self) -> Result<Repl, EnvError> {
        Ok(Repl {
            _slot: self.reserve()?,
            envs: self.clone(),
            live: None,
            ended_before: false,
        })
    }
}

impl Repl {
    /// Runs one cell with `stdin` as its standard input, within `limits` (fuel, wall clock and
    /// output for this cell; the memory limit is the environments' own, for the interpreter's
    /// life). `Err` only when the host could not start an interpreter.
    pub fn run(
        &mut self,
        code: &str,
        stdin: &str,
        limits: &Limits,
    ) -> Result<CellOutcome, EnvError> {
        let restarted = self.live.is_none() && self.ended_before;
        let mut limits = *limits;
        limits.memory_bytes = self.envs.options().limits.memory_bytes;
        let live = match &mut self.live {
            Some(live) => {
                live.renew(&limits);
                live
            }
            None => {
                let opened = self.envs.open_live(DRIVER, &limits).map_err(|error| {
                    EnvError::StartFailed {
                        status: "start_error".into(),
                        detail: format!(
                            "the Python interpreter did not start: {}",
                            describe(&error)
                        ),
                    }
                })?;
                self.live.insert(opened)
            }
        };
        let target = Target {
            handle: None,
            name: "run".into(),
        };
        let args = Value::Array(vec![json!(code), json!(stdin)]).to_string();
        let answer = live.call(&target, &args, NO_KWARGS);
        let output = live.take_output();
        let fuel = live.fuel_used();
        let outcome = match answer {
            Ok(status) => CellOutcome {
                stdout: output.stdout,
                stderr: output.stderr,
                status: RunStatus::Ok,
                exit_code: Some(serde_json::from_str::<i32>(&status).unwrap_or(1)),
                fuel,
                ended_interpreter: false,
                restarted,
            },
            Err(CallError::Ended(ended)) => ended_cell(ended, output, fuel, restarted),
            Err(other) => CellOutcome {
                stdout: output.stdout,
                stderr: format!("{}rewardbox: {}\n", output.stderr, describe(&other)),
                status: RunStatus::Crashed,
                exit_code: Some(1),
                fuel,
                ended_interpreter: false,
                restarted,
            },
        };
        let outcome = CellOutcome {
            status: match outcome.status {
                RunStatus::Ok if outcome.exit_code != Some(0) => RunStatus::ExitedNonzero,
                other => other,
            },
            ..outcome
        };
        if outcome.ended_interpreter {
            self.live = None;
            self.ended_before = true;
        }
        Ok(outcome)
    }

    /// Forgets everything the cells defined: the next cell starts a fresh interpreter (not
    /// counted as a restart).
    pub fn reset(&mut self) {
        self.live = None;
        self.ended_before = false;
    }
}

/// A cell that ended its interpreter: what it wrote before and after, and how it ended.
fn ended_cell(
    ended: RunOutcome,
    before: rewardbox::candidates::Output,
    fuel: u64,
    restarted: bool,
) -> CellOutcome {
    let status = match ended.status {
        // `os._exit(n)`: the interpreter exited as a process would.
        RunStatus::Ok | RunStatus::ExitedNonzero => {
            if ended.exit_code.unwrap_or(0) == 0 {
                RunStatus::Ok
            } else {
                RunStatus::ExitedNonzero
            }
        }
        other => other,
    };
    CellOutcome {
        stdout: before.stdout + &ended.stdout,
        stderr: before.stderr + &ended.stderr,
        status,
        exit_code: ended.exit_code,
        fuel: fuel.max(ended.fuel_used),
        ended_interpreter: true,
        restarted,
    }
}

fn describe(error: &CallError) -> String {
    match error {
        CallError::Raised(raised) => format!("{}: {}", raised.type_name, raised.message),
        CallError::Ended(outcome) => match last_line(&outcome.stderr) {
            line if line.is_empty() => "it ended".into(),
            line => line,
        },
        CallError::Invalid(message) => message.clone(),
    }
}
