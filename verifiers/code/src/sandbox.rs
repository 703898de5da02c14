//! The port: the host's `sandbox` interface as the test kinds use it ([`Sandbox`]), how a run
//! ended ([`Outcome`]), and what a case's verdict says ([`CaseResult`], with the one
//! [`CaseStatus`] of `rewardbox-types`). Every candidate run happens in a fresh sandbox the host
//! creates; the tests and expected values stay on this side.

use crate::compare::preview;
use crate::fields::AssertSource;
use crate::kinds::contest::spec::{ProblemProgram, ValidatorLimits};
use serde_json::Value;

pub use rewardbox_types::{CaseStatus, RunStatus};

/// What a sandboxed run handed back.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub status: RunStatus,
    /// Its exit code, when it exited.
    pub exit_code: Option<i32>,
    /// What it wrote to stdout.
    pub stdout: String,
    /// What it wrote to stderr (and the host's note on how it ended).
    pub stderr: String,
}

/// A file given to a checking program (under `/data/`), or one it wrote (under `/feedback/`).
#[derive(Debug, Clone, PartialEq)]
pub struct CheckerFile {
    /// Its path under its directory.
    pub path: String,
    /// Its bytes.
    pub contents: Vec<u8>,
}

/// How a checking program's run ended, with the feedback files it wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckerOutcome {
    /// How it ended.
    pub outcome: Outcome,
    /// What it wrote under `/feedback/`.
    pub feedback: Vec<CheckerFile>,
}

/// How a submission and an interactor talking to each other ended.
#[derive(Debug, Clone, PartialEq)]
pub struct InteractionOutcome {
    /// The submission's run (its stdout went to the interactor).
    pub candidate: Outcome,
    /// The interactor's run.
    pub interactor: CheckerOutcome,
    /// Whether the interactor ended first.
    pub interactor_first: bool,
    /// Whether both waited to read with nothing to read.
    pub deadlock: bool,
}

/// How a manager and the submission's processes talking to it ended (a CMS communication task,
/// or a grader calling the submission's functions).
#[derive(Debug, Clone, PartialEq)]
pub struct CommunicationOutcome {
    /// The manager's run: its stdout and stderr are its own.
    pub manager: CheckerOutcome,
    /// Each of the submission's processes, in order (their stdout went to the manager).
    pub processes: Vec<Outcome>,
    /// Whether the manager and a process both waited to read with nothing to read.
    pub deadlock: bool,
}

/// The host's `sandbox` interface, as the grader uses it.
pub trait Sandbox {
    /// Runs `source` with `stdin` in a fresh sandbox.
    fn run(&self, language: &str, source: &str, stdin: &str) -> Outcome;
    /// Executes `source` once in a fresh sandbox and calls `entry` on each JSON argument list.
    fn call(
        &self,
        language: &str,
        source: &str,
        entry: &str,
        args_json: &[String],
    ) -> Vec<Result<String, Outcome>>;
    /// Runs asserts against `program` as a live candidate, in a checking sandbox of their own:
    /// one result per assert. `check` is the task's JSON for the checking sandbox.
    fn check(
        &self,
        asserts: &AssertSource,
        check: &str,
        program: &str,
    ) -> Result<Vec<CaseResult>, GradeError>;
    /// The candidate limits, as a task's `candidate_limits` object.
    fn candidate_limits(&self) -> Value;
    /// Runs a problem's checking program (an output validator) in a sandbox of its own with
    /// `stdin`, `args` and `files` under `/data/`.
    fn run_checker(
        &self,
        checker: &ProblemProgram,
        stdin: &str,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> CheckerOutcome;
    /// Runs the candidate `source` (with the candidate limits) and `interactor` (with `args`,
    /// `files` and `limits`) talking to each other.
    fn interact(
        &self,
        language: &str,
        source: &str,
        interactor: &ProblemProgram,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> InteractionOutcome;
    /// Runs `processes` instances of the candidate `source` (with the candidate limits) and
    /// `manager` (with `stdin`, `args` then the pipes' paths, `files` and `limits`) talking to
    /// each other: process `i`'s stdin and stdout are the manager's files `/fifo/m_to_u<i>` and
    /// `/fifo/u<i>_to_m`.
    #[allow(clippy::too_many_arguments)]
    fn communicate(
        &self,
        language: &str,
        source: &str,
        processes: u32,
        manager: &ProblemProgram,
        stdin: &str,
        args: &[String],
        files: &[CheckerFile],
        limits: &ValidatorLimits,
    ) -> CommunicationOutcome;
}

/// The result of one case.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseResult {
    /// `stdio 3`, `call 2`.
    pub id: String,
    /// Why it passed or failed.
    pub status: CaseStatus,
    /// What happened, briefly.
    pub detail: String,
}

/// Grading could not happen.
#[derive(Debug, Clone, PartialEq)]
pub enum GradeError {
    /// The task's tests are unusable (the reference fails its own asserts): names the field.
    InvalidTask(String),
    /// Something else failed.
    Failed(String),
}

/// The case status of a run that ended other than by returning normally.
pub fn failure_status(outcome: &Outcome) -> CaseStatus {
    match outcome.status {
        RunStatus::Ok | RunStatus::ExitedNonzero => CaseStatus::ExitedNonzero,
        RunStatus::FuelExhausted => CaseStatus::FuelExhausted,
        RunStatus::Timeout => CaseStatus::Timeout,
        RunStatus::MemoryExceeded => CaseStatus::MemoryExceeded,
        RunStatus::OutputExceeded => CaseStatus::OutputExceeded,
        RunStatus::Crashed | RunStatus::Unsupported => CaseStatus::Crashed,
        RunStatus::CompileError => CaseStatus::CompileError,
    }
}

fn last_line(text: &str) -> String {
    preview(
        text.lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim(),
    )
}

/// The compiler's message, as much as fits a case's detail.
pub fn compile_detail(message: &str) -> String {
    const MAX: usize = 1200;
    // The first error, not the warnings before it (rustc and clang print those first).
    let message = message.trim();
    let message = message
        .match_indices("error")
        .map(|(at, _)| at)
        .find(|&at| at == 0 || message[..at].ends_with('\n') || message[..at].ends_with(": "))
        .map_or(message, |at| message[at..].trim());
    let mut cut = message.len().min(MAX);
    while !message.is_char_boundary(cut) {
        cut -= 1;
    }
    let ellipsis = if cut < message.len() { "…" } else { "" };
    format!("compile error: {}{ellipsis}", &message[..cut])
}

/// A run the host could not make (its language has no runner here): the verifier's failure,
/// never the candidate's.
pub(crate) fn unsupported(outcome: &Outcome) -> GradeError {
    GradeError::Failed(outcome.stderr.trim().to_string())
}

/// How a program ended, for a case's detail: its exit code and the last line of its stderr.
pub fn exit_detail(outcome: &Outcome) -> String {
    let code = outcome
        .exit_code
        .map(|c| format!(" (exit code {c})"))
        .unwrap_or_default();
    let why = last_line(&outcome.stderr);
    if why.is_empty() {
        format!("the program ended{code}")
    } else {
        format!("the program ended{code}: {why}")
    }
}
