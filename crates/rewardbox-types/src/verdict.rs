//! The result taxonomy: [`Status`], [`CompletionResult`], [`CaseResult`], [`TaskResult`].
//!
//! `ok` means a verdict was reached (its score may be 0). `verifier_error` means the verifier
//! failed: the result carries `mask: true` so that a trainer leaves it out of its statistics
//! instead of reading a poisoned 0. `invalid_task` is for a whole input line that is malformed.

use serde::{Deserialize, Serialize};

/// The status of a completion's result, or of a whole task line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// A verdict was reached.
    Ok,
    /// The verifier trapped, ran out of a limit, returned a malformed verdict or an error.
    VerifierError,
    /// The task line itself is malformed.
    InvalidTask,
}

/// How a sandboxed candidate run ended (the WIT `run-status`): data about the run, never a
/// verdict; a verifier decides what it means for a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunStatus {
    /// It returned normally (exit code 0 or no exit at all).
    Ok,
    /// It exited with a non-zero code (or raised).
    ExitedNonzero,
    /// It ran out of fuel.
    FuelExhausted,
    /// It ran past the wall-clock safety net.
    Timeout,
    /// It tried to grow memory past its limit.
    MemoryExceeded,
    /// It wrote more than its output limit.
    OutputExceeded,
    /// It trapped or the runtime failed for another reason (see its stderr).
    Crashed,
    /// It did not compile: its stderr holds the compiler's message.
    CompileError,
    /// The host cannot run the language (unknown, or its compiler is not installed). Never the
    /// program's fault: a verifier reports it as its own failure.
    Unsupported,
}

impl RunStatus {
    /// Every run status, in the order of the WIT `run-status` enum.
    pub const ALL: [RunStatus; 9] = [
        RunStatus::Ok,
        RunStatus::ExitedNonzero,
        RunStatus::FuelExhausted,
        RunStatus::Timeout,
        RunStatus::MemoryExceeded,
        RunStatus::OutputExceeded,
        RunStatus::Crashed,
        RunStatus::CompileError,
        RunStatus::Unsupported,
    ];
}

/// Why one test case of a completion passed or failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseStatus {
    /// The case passed.
    Passed,
    /// The candidate's answer was wrong.
    Wrong,
    /// The candidate ran out of fuel.
    FuelExhausted,
    /// The candidate ran past the wall-clock safety net.
    Timeout,
    /// The candidate tried to use more memory than allowed.
    MemoryExceeded,
    /// The candidate wrote more output than allowed.
    OutputExceeded,
    /// The candidate crashed (an uncaught exception, a trap).
    Crashed,
    /// The candidate exited with a non-zero code.
    ExitedNonzero,
    /// No program could be found in the completion.
    NoCodeFound,
    /// The candidate returned a value that is not canonical JSON.
    NotJson,
    /// The candidate program did not compile (C, C++, Rust): the detail holds the compiler's
    /// message.
    CompileError,
}

impl CaseStatus {
    /// Every case status, in the order of the WIT `case-status` enum.
    pub const ALL: [CaseStatus; 11] = [
        CaseStatus::Passed,
        CaseStatus::Wrong,
        CaseStatus::FuelExhausted,
        CaseStatus::Timeout,
        CaseStatus::MemoryExceeded,
        CaseStatus::OutputExceeded,
        CaseStatus::Crashed,
        CaseStatus::ExitedNonzero,
        CaseStatus::NoCodeFound,
        CaseStatus::NotJson,
        CaseStatus::CompileError,
    ];
}

/// The verdict on one test case.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseResult {
    /// The case's name, as the verifier gave it.
    pub id: String,
    /// Why it passed or failed.
    pub status: CaseStatus,
    /// Its score in [0, 1].
    pub score: f64,
    /// A human-readable reason.
    pub detail: String,
}

/// The result for one completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompletionResult {
    /// The reward, in [0, 1]. 0 when the status is not `ok`.
    pub score: f64,
    /// Whether the verifier accepted the completion.
    pub passed: bool,
    /// `ok` or `verifier_error`.
    pub status: Status,
    /// Why: the verifier's explanation, or what went wrong.
    pub detail: String,
    /// Fuel the verifier consumed (deterministic).
    pub fuel: u64,
    /// Wall time of the verification, in microseconds (not deterministic).
    pub wall_us: u64,
    /// True when the result must be left out of training statistics (`verifier_error`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mask: bool,
    /// Per-case verdicts, for verifiers that run test cases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cases: Vec<CaseResult>,
}

impl CompletionResult {
    /// A masked `verifier_error` result with `detail`.
    pub fn verifier_error(detail: impl Into<String>, fuel: u64, wall_us: u64) -> Self {
        CompletionResult {
            score: 0.0,
            passed: false,
            status: Status::VerifierError,
            detail: detail.into(),
            fuel,
            wall_us,
            mask: true,
            cases: Vec::new(),
        }
    }

    /// Whether this is a masked `verifier_error` because the host was too busy to give a run,
    /// or a compiler, the CPU it needed (its detail says "the host was too busy" or "the host is
    /// too busy"): a fault of the moment, neither the completion's nor the verifier's, that a
    /// caller may judge again.
    pub fn host_was_busy(&self) -> bool {
        self.status == Status::VerifierError && says_host_busy(&self.detail)
    }
}

/// Whether a detail or message says the host was too busy to give a run, or a compiler, the CPU
/// it needed: the words of a masked error that is the host's passing fault and says nothing
/// about the program (see [`CompletionResult::host_was_busy`]).
pub fn says_host_busy(text: &str) -> bool {
    HOST_BUSY.iter().any(|phrase| text.contains(phrase))
}

/// What the detail of a run or a compile the host was too busy to give its CPU says.
const HOST_BUSY: [&str; 2] = ["the host was too busy", "the host is too busy"];

/// The result for one task line: its completions' results, or why the line is invalid.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TaskResult {
    /// The task's `id`, when it could be read.
    pub id: Option<String>,
    /// The 1-based input line, for invalid lines read from a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// `invalid_task` for a malformed line; absent otherwise (each result has its own status).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// Why the line is invalid, naming the line and the field: `line 3: "completions" must be a
    /// list of strings`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// One result per completion, in the task's order. Empty for an invalid line.
    pub results: Vec<CompletionResult>,
}

impl TaskResult {
    /// An `invalid_task` result.
    pub fn invalid(id: Option<String>, line: Option<usize>, detail: String) -> Self {
        TaskResult {
            id,
            line,
            status: Some(Status::InvalidTask),
            detail: Some(detail),
            results: Vec::new(),
        }
    }

    /// Whether the whole line was rejected.
    pub fn is_invalid(&self) -> bool {
        self.status == Some(Status::InvalidTask)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_masked_error_that_says_the_host_was_busy_is_the_hosts_passing_fault() {
        let masked = |detail: &str| CompletionResult::verifier_error(detail, 0, 0);
        assert!(
            masked("case 3: was not judged: the host was too busy to run it (it got 9 ms)")
                .host_was_busy()
        );
        assert!(masked("the host is too busy to compile: the compiler got 0.1 s").host_was_busy());
        assert!(!masked("the verifier trapped").host_was_busy());
        // A candidate's own output saying so is its output, scored, not a mask.
        let scored = CompletionResult {
            status: Status::Ok,
            mask: false,
            ..masked("expected \"1\", got \"the host was too busy\"")
        };
        assert!(!scored.host_was_busy());
        // The words alone, as a case's detail or an audit's finding carries them.
        assert!(says_host_busy(
            "the host is too busy to compile: the compiler got 0.1 s"
        ));
        assert!(says_host_busy("stopped: the host was too busy to run it"));
        assert!(!says_host_busy("the program ran out of fuel"));
    }
}
