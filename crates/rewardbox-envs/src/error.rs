//! What can go wrong with environments and sessions, each with a message that says what to do.

use std::fmt;

/// An error of an environment or a session.
#[derive(Debug, Clone, PartialEq)]
pub enum EnvError {
    /// The environment string cannot be read.
    BadEnvString(String),
    /// No environment file for the string in the environments directory.
    UnknownEnvironment(String),
    /// The environment did not start: its file failed to load, no class accepted the string, or
    /// it crossed a limit while starting. `status` is one of [`crate::SESSION_STATUSES`].
    StartFailed {
        /// Why, as [`crate::SESSION_STATUSES`] names it.
        status: String,
        /// What happened, for a person.
        detail: String,
    },
    /// As many sessions are alive as allowed.
    TooManySessions {
        /// The most sessions alive at once.
        limit: usize,
    },
    /// The sessions alive hold as much memory or disk as the operator's budget allows: says which.
    OverBudget(String),
    /// No live session has this id (never started, closed, or expired).
    UnknownSession(String),
    /// A live session already has the id a start asked for (another client's, perhaps).
    SessionInUse(String),
    /// The session broke in an earlier step (`status`: why); close it and start another.
    Broken {
        /// Why it broke, as [`crate::SESSION_STATUSES`] names it.
        status: String,
        /// What happened, for a person.
        detail: String,
    },
    /// This step crossed a limit, exited or trapped: the session is now broken.
    StepFailed {
        /// Why, as [`crate::SESSION_STATUSES`] names it.
        status: String,
        /// What happened, for a person.
        detail: String,
    },
    /// The environment raised an exception in this call; the session lives on.
    Raised {
        /// The exception's type (`ValueError`).
        type_name: String,
        /// Its message.
        message: String,
    },
    /// The request was malformed (an action that is not text, say).
    BadRequest(String),
    /// An episode's verifier gave no verdict (it crashed, or printed none); the episode goes on.
    VerifierFailed(String),
}

impl EnvError {
    /// A short, stable name for the kind of error (for reports and HTTP bodies).
    pub fn kind(&self) -> &'static str {
        match self {
            EnvError::BadEnvString(_) => "bad_env_str",
            EnvError::UnknownEnvironment(_) => "unknown_environment",
            EnvError::StartFailed { .. } => "start_error",
            EnvError::TooManySessions { .. } => "too_many_sessions",
            EnvError::OverBudget(_) => "over_budget",
            EnvError::UnknownSession(_) => "unknown_session",
            EnvError::SessionInUse(_) => "session_in_use",
            EnvError::Broken { .. } => "broken",
            EnvError::StepFailed { .. } => "step_failed",
            EnvError::Raised { .. } => "raised",
            EnvError::BadRequest(_) => "bad_request",
            EnvError::VerifierFailed(_) => "verifier_error",
        }
    }
}

impl fmt::Display for EnvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnvError::BadEnvString(m) | EnvError::BadRequest(m) => f.write_str(m),
            EnvError::OverBudget(m) => f.write_str(m),
            EnvError::UnknownEnvironment(m) => f.write_str(m),
            EnvError::VerifierFailed(m) => write!(f, "the verifier gave no verdict: {m}"),
            EnvError::StartFailed { status, detail } => {
                write!(f, "the environment did not start ({status}): {detail}")
            }
            EnvError::TooManySessions { limit } => write!(
                f,
                "{limit} sessions are alive, the most allowed: close some (or let idle ones \
                 expire), or raise the limit"
            ),
            EnvError::UnknownSession(id) => {
                write!(
                    f,
                    "no live session {id:?} (never started, closed, or expired)"
                )
            }
            EnvError::SessionInUse(id) => write!(
                f,
                "a live session already has the id {id:?}: close it first (/stop), or start \
                 without a session_id to get a fresh one"
            ),
            EnvError::Broken { status, detail } => write!(
                f,
                "the session broke in an earlier step ({status}: {detail}); close it and start another"
            ),
            EnvError::StepFailed { status, detail } => {
                write!(
                    f,
                    "the step failed ({status}): {detail}; the session is now broken"
                )
            }
            EnvError::Raised { type_name, message } => {
                write!(f, "the environment raised {type_name}: {message}")
            }
        }
    }
}

impl std::error::Error for EnvError {}
