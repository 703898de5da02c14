//! Grading a program on the task's tests through a [`Sandbox`]: every candidate run happens in a
//! fresh sandbox the host creates; the tests and expected values stay on this side.

use crate::compare::{preview, stdout_matches, values_equal};
use crate::judge::spec::{ProblemProgram, ValidatorLimits};
use crate::spec::{AssertSource, CallCase, Spec, Tests};
use serde_json::{Value, json};

/// How a sandboxed run ended (mirrors the WIT `run-status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunStatus {
    /// Returned, or exited with code 0.
    Ok,
    /// Exited with another code (or raised).
    ExitedNonzero,
    /// Ran out of fuel.
    FuelExhausted,
    /// Ran past the wall-clock safety net.
    Timeout,
    /// Grew memory past its limit.
    MemoryExceeded,
    /// Wrote more than its output limit.
    OutputExceeded,
    /// Trapped (stack overflow, runtime failure).
    Crashed,
    /// Did not compile: stderr holds the compiler's message.
    CompileError,
    /// The host cannot run the language: stderr says why. Never the program's fault.
    Unsupported,
}

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
}

/// Why one case passed or failed (mirrors the WIT `case-status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseStatus {
    /// Right output.
    Passed,
    /// Wrong output.
    Wrong,
    /// Out of fuel.
    FuelExhausted,
    /// Out of time.
    Timeout,
    /// Out of memory.
    MemoryExceeded,
    /// Too much output.
    OutputExceeded,
    /// Trapped.
    Crashed,
    /// Exited (non-zero, or at all during a call) or raised.
    ExitedNonzero,
    /// The returned value is not plain JSON (a subclass, a custom object, NaN).
    NotJson,
    /// The completion holds no program.
    NoCodeFound,
    /// The program did not compile.
    CompileError,
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

/// Grades `program` on the spec's tests (all but `judge`, which [`crate::judge`] grades).
pub fn grade(
    spec: &Spec,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    match &spec.tests {
        Tests::Stdio(cases) => cases
            .iter()
            .enumerate()
            .map(|(i, case)| {
                let id = format!("stdio {}", i + 1);
                let outcome = sandbox.run(&spec.language, program, &case.stdin);
                let (status, detail) = match outcome.status {
                    RunStatus::Unsupported => return Err(unsupported(&outcome)),
                    RunStatus::CompileError => {
                        (CaseStatus::CompileError, compile_detail(&outcome.stderr))
                    }
                    RunStatus::Ok if outcome.exit_code.unwrap_or(0) == 0 => {
                        if stdout_matches(&outcome.stdout, &case.stdout, spec.float_tolerance) {
                            (CaseStatus::Passed, "output matches".to_string())
                        } else {
                            (
                                CaseStatus::Wrong,
                                format!(
                                    "expected {:?}, got {:?}",
                                    preview(case.stdout.trim()),
                                    preview(outcome.stdout.trim())
                                ),
                            )
                        }
                    }
                    _ => (failure_status(&outcome), exit_detail(&outcome)),
                };
                Ok(CaseResult { id, status, detail })
            })
            .collect(),
        Tests::Call {
            entry_point,
            cases,
            declaration: Some(declaration),
            add_imports,
            record,
        } => crate::typed_calls::grade(
            &crate::typed_calls::TypedCalls {
                language: &spec.language,
                declaration,
                entry_point,
                cases,
                add_imports: *add_imports,
                tolerance: spec.float_tolerance,
                record: *record,
            },
            program,
            sandbox,
        ),
        Tests::Call {
            entry_point, cases, ..
        } if crate::js_calls::takes(&spec.language, cases) => crate::js_calls::grade(
            &spec.language,
            program,
            entry_point,
            cases,
            spec.float_tolerance,
            sandbox,
        ),
        Tests::Call {
            entry_point, cases, ..
        } => call_cases(spec, program, entry_point, cases, sandbox),
        Tests::Program(tests) => {
            crate::program_tests::grade(&spec.language, tests, program, sandbox)
        }
        Tests::Judge(_) => Err(GradeError::Failed(
            "judge tests are graded by the judge module".into(),
        )),
        Tests::Asserts {
            source,
            entry_point,
            setup,
            reference,
        } => {
            let check = json!({
                "entry_point": entry_point,
                "setup": setup,
                "language": spec.language,
                "candidate_limits": sandbox.candidate_limits(),
            })
            .to_string();
            if let Some(reference) = reference {
                // The same run for every completion of the task: the host remembers it.
                let failure = sandbox
                    .check(source, &check, reference)?
                    .into_iter()
                    .find(|case| case.status != CaseStatus::Passed);
                if let Some(case) = failure {
                    return Err(GradeError::InvalidTask(format!(
                        "\"tests.reference\" fails its own asserts: {}: {}",
                        case.id, case.detail
                    )));
                }
            }
            sandbox.check(source, &check, program)
        }
    }
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

fn call_cases(
    spec: &Spec,
    program: &str,
    entry: &str,
    cases: &[CallCase],
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let args: Vec<String> = cases
        .iter()
        .map(|c| Value::Array(c.args.clone()).to_string())
        .collect();
    let results = sandbox.call(&spec.language, program, entry, &args);
    if let Some(Err(refused)) = results
        .iter()
        .find(|r| matches!(r, Err(o) if o.status == RunStatus::Unsupported))
    {
        return Err(unsupported(refused));
    }
    Ok(cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let id = format!("call {}", i + 1);
            let (status, detail) = match results.get(i) {
                None => (CaseStatus::Crashed, "no result for this case".to_string()),
                Some(Ok(json)) => match serde_json::from_str::<Value>(json) {
                    Ok(actual) if values_equal(&actual, &case.expected, spec.float_tolerance) => {
                        (CaseStatus::Passed, "returned the expected value".into())
                    }
                    Ok(actual) => (
                        CaseStatus::Wrong,
                        format!(
                            "{entry}({}) returned {}, expected {}",
                            preview(&args[i][1..args[i].len() - 1]),
                            preview(&actual.to_string()),
                            preview(&case.expected.to_string())
                        ),
                    ),
                    Err(_) => (
                        CaseStatus::NotJson,
                        "the runner returned malformed JSON".into(),
                    ),
                },
                Some(Err(outcome)) if outcome.stderr.starts_with("not_json:") => {
                    (CaseStatus::NotJson, preview(outcome.stderr.trim()))
                }
                Some(Err(outcome)) => (failure_status(outcome), exit_detail(outcome)),
            };
            CaseResult { id, status, detail }
        })
        .collect())
}
