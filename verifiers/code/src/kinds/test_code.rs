//! A benchmark's own test code, as written, in the candidate's language (`tests.asserts` with a
//! `language` other than Python): HumanEval-X's and MultiPL-E's C++ `main()` of asserts, Rust
//! `#[test]` functions.
//!
//! The test code never enters the candidate's sandbox. It is compiled into a trusted program of
//! its own, where the function under test is a stub that sends its arguments to the live
//! candidate and returns the value the candidate sends back (the host's `interact`: each
//! program's standard output is the other's standard input). The candidate's program is compiled
//! with a server that answers those calls. Values cross in a typed wire encoding generated from
//! the signature in the task's declaration, so every type of the language crosses as itself
//! (integers of each width, floats with -0.0, NaN and the infinities, strings, containers,
//! tuples, optionals). The candidate cannot end the test run as passed: the verdict is the
//! trusted program's report, and a candidate that exits ends it as failed.
//!
//! Each assert (C++) or test function (Rust) is a case; the test run passes when it ran to its
//! end with no failed case.

use crate::kinds::contest::spec::{Convention, ProblemProgram, ValidatorLimits};
use crate::langs::{StaticCase, cpp, go, js, rust};
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, Outcome, RunStatus, Sandbox, compile_detail, exit_detail,
    failure_status, unsupported,
};

/// The benchmark's test code for a non-Python candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct ProgramTests {
    /// The test code as the benchmark ships it (`tests.asserts`).
    pub test: String,
    /// The task's declaration: everything before the entry point's body, ending with its
    /// opening brace (`tests.declaration`; HumanEval-X's `declaration`). Helpers it defines are
    /// part of the trusted program too.
    pub declaration: String,
    /// The function the test code calls (`tests.entry_point`, else the function the declaration
    /// opens).
    pub entry_point: String,
    /// Signatures of the candidate's other functions that the test code calls (`tests.forward`,
    /// Rust: `fn encode_cyclic(s: &str) -> String`), forwarded to the candidate as the entry
    /// point is.
    pub forward: Vec<String>,
    /// Go: import into the candidate's program the standard packages CodeGeeX's harness adds to
    /// a HumanEval-X program that uses them (`tests.add_imports`; off by default, when a program
    /// must import what it uses, as MultiPL-E's harness requires).
    pub add_imports: bool,
}

/// The marker opening each line of the trusted program's report on its stderr (the test code's
/// here, and a test file's runner's in [`crate::kinds::test_files`]).
pub(crate) const REPORT: &str = "\u{1e}rb-";

/// The two programs of a test run, generated for one language.
struct Programs {
    trusted: String,
    candidate: String,
    cases: Vec<StaticCase>,
}

fn programs(language: &str, tests: &ProgramTests, program: &str) -> Result<Programs, GradeError> {
    let invalid = |why: String| {
        GradeError::InvalidTask(format!(
            "\"tests.asserts\" cannot be run as {language} test code: {why}"
        ))
    };
    match language {
        "cpp" if !tests.forward.is_empty() => Err(GradeError::InvalidTask(
            "\"tests.forward\" is supported for rust test code only".into(),
        )),
        "cpp" => Ok(Programs {
            trusted: cpp::trusted_program(&tests.declaration, &tests.entry_point, &tests.test)
                .map_err(invalid)?,
            candidate: cpp::candidate_program(program, &tests.declaration, &tests.entry_point)
                .map_err(invalid)?,
            cases: cpp::cases(&tests.test),
        }),
        "rust" | "rust-release" => Ok(Programs {
            trusted: rust::trusted_program(
                &tests.declaration,
                &tests.entry_point,
                &tests.forward,
                &tests.test,
            )
            .map_err(invalid)?,
            candidate: rust::candidate_program(
                program,
                &tests.declaration,
                &tests.entry_point,
                &tests.forward,
            )
            .map_err(invalid)?,
            cases: rust::cases(&tests.test),
        }),
        // TypeScript's programs are JavaScript's: the runner strips the types of both.
        "javascript" | "typescript" => Ok(Programs {
            trusted: js::trusted_program(
                &tests.declaration,
                &tests.entry_point,
                &tests.forward,
                &tests.test,
            )
            .map_err(invalid)?,
            candidate: js::candidate_program(program),
            cases: js::cases(&tests.test),
        }),
        "go" => Ok(Programs {
            trusted: go::trusted_program(
                &tests.declaration,
                &tests.entry_point,
                &tests.forward,
                &tests.test,
            )
            .map_err(invalid)?,
            candidate: go::candidate_program(
                program,
                &tests.entry_point,
                &tests.forward,
                tests.add_imports,
            )
            .map_err(invalid)?,
            cases: go::cases(&tests.test),
        }),
        other => Err(GradeError::InvalidTask(format!(
            "\"tests.asserts\" in {other} is not supported: test code runs for python, cpp, rust, \
             rust-release, javascript, typescript and go candidates"
        ))),
    }
}

/// The entry point a declaration opens, for `language` (the function whose body it begins).
pub fn entry_of_declaration(language: &str, declaration: &str) -> Option<String> {
    match language {
        "cpp" => cpp::entry_of_declaration(declaration),
        "rust" | "rust-release" => rust::entry_of_declaration(declaration),
        "javascript" | "typescript" => js::entry_of_declaration(declaration),
        "go" => go::entry_of_declaration(declaration),
        _ => None,
    }
}

/// What the trusted program reported, case by case.
#[derive(Debug, Default)]
struct Report {
    /// `(id, passed, detail)` in the order reported.
    results: Vec<(String, Option<bool>, String)>,
    /// The candidate ended during a call.
    candidate_ended: bool,
    /// The candidate sent something that is not an answer.
    malformed: Option<String>,
    /// The test code passed a value that cannot cross to the candidate (a function): the task's
    /// fault, not the candidate's.
    untyped: Option<String>,
    /// What the candidate's last call that threw said (C++: its exception's `what()`).
    threw: Option<String>,
}

fn read_report(stderr: &str) -> Report {
    let mut report = Report::default();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix(REPORT) else {
            continue;
        };
        let mut words = rest.splitn(4, ' ');
        match (words.next(), words.next(), words.next()) {
            (Some("case"), Some(id), Some(state)) => {
                let detail = words.next().unwrap_or("").to_string();
                let passed = match state {
                    "pass" => Some(true),
                    "fail" => Some(false),
                    _ => None,
                };
                report
                    .results
                    .push((id.replace('\u{1f}', " "), passed, detail));
            }
            (Some("wire"), Some("ended"), _) => report.candidate_ended = true,
            (Some("wire"), Some("untyped"), what) => {
                report.untyped = Some(rest_of_line(what, words.next()));
            }
            (Some("wire"), Some("threw"), what) => {
                report.threw = Some(rest_of_line(what, words.next()));
            }
            (Some("wire"), Some("malformed"), what) => {
                report.malformed = Some(what.unwrap_or("message").to_string());
            }
            _ => {}
        }
    }
    report
}

/// A report line's text after its two words (`first` word and the `rest`), trimmed.
pub(crate) fn rest_of_line(first: Option<&str>, rest: Option<&str>) -> String {
    [first.unwrap_or(""), rest.unwrap_or("")]
        .join(" ")
        .trim()
        .to_string()
}

/// The trusted program's stderr without the report's lines: what the test code itself wrote.
fn own_stderr(stderr: &str) -> String {
    stderr
        .lines()
        .filter(|l| !l.starts_with(REPORT))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `tests` against `program` (the candidate's whole source, in `language`): one result per
/// case of the test code.
pub fn grade(
    language: &str,
    tests: &ProgramTests,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let programs = programs(language, tests, program)?;
    let trusted = ProblemProgram {
        language: language.to_string(),
        source: programs.trusted,
        // Its exit code is never read as a verdict: the candidate is stopped when it ends
        // with anything but 42, as a Kattis interactor's rejection stops it.
        convention: Convention::Kattis,
    };
    let interaction = sandbox.interact(
        language,
        &programs.candidate,
        &trusted,
        &[],
        &[],
        &ValidatorLimits::default(),
    );
    let test_run = &interaction.interactor.outcome;
    let candidate = &interaction.candidate;
    for outcome in [test_run, candidate] {
        if outcome.status == RunStatus::Unsupported {
            return Err(unsupported(outcome));
        }
    }
    if test_run.status == RunStatus::CompileError {
        return Err(GradeError::InvalidTask(format!(
            "\"tests.asserts\" with \"tests.declaration\" does not compile as {language}: {}",
            compile_detail(&test_run.stderr)
        )));
    }
    if candidate.status == RunStatus::CompileError {
        let detail = compile_detail(&candidate.stderr);
        return Ok(all_cases(
            &programs.cases,
            CaseStatus::CompileError,
            &detail,
        ));
    }
    let report = read_report(&test_run.stderr);
    if let Some(what) = &report.untyped {
        return Err(GradeError::InvalidTask(format!(
            "\"tests.asserts\" passes the candidate {what}, which cannot cross to another \
             sandbox: test code may pass the candidate data and functions (not symbols, Promises or \
             typed arrays)"
        )));
    }
    let completed = test_run.status == RunStatus::Ok && test_run.exit_code.unwrap_or(0) == 0;
    let (end_status, end_detail) = why_it_ended(test_run, candidate, &report, interaction.deadlock);
    let mut results: Vec<CaseResult> = programs
        .cases
        .iter()
        .map(|case| {
            let reported: Vec<&(String, Option<bool>, String)> =
                report.results.iter().filter(|r| r.0 == case.id).collect();
            let failed = reported.iter().find(|r| r.1 == Some(false));
            let passed = reported.iter().any(|r| r.1 == Some(true));
            let started = !reported.is_empty();
            let (status, detail) = match failed {
                Some(failure) => (
                    CaseStatus::Wrong,
                    format!("{} failed{}", case.label, colon(&failure.2)),
                ),
                None if passed => (CaseStatus::Passed, format!("{} holds", case.label)),
                None if completed && !started => (
                    CaseStatus::Passed,
                    format!("{}: not reached; the test code ran to its end", case.label),
                ),
                None => (end_status, format!("{}: {end_detail}", case.label)),
            };
            CaseResult {
                id: case.id.clone(),
                status,
                detail,
            }
        })
        .collect();
    let all_passed = results.iter().all(|c| c.status == CaseStatus::Passed);
    if !completed && all_passed {
        results.push(CaseResult {
            id: "test program".into(),
            status: end_status,
            detail: end_detail,
        });
    } else if results.is_empty() {
        results.push(CaseResult {
            id: "test program".into(),
            status: CaseStatus::Passed,
            detail: "the test code ran to its end".into(),
        });
    }
    Ok(results)
}

fn colon(detail: &str) -> String {
    if detail.trim().is_empty() {
        String::new()
    } else {
        format!(": {}", detail.trim())
    }
}

/// Why the test run did not reach its end, and whose failure it is (always the candidate's:
/// the test code compiled, and only the candidate's answers differ from run to run).
fn why_it_ended(
    test_run: &Outcome,
    candidate: &Outcome,
    report: &Report,
    deadlock: bool,
) -> (CaseStatus, String) {
    if report.candidate_ended {
        let status = failure_status(candidate);
        return (
            status,
            format!(
                "the candidate ended during a call: {}",
                exit_detail(candidate)
            ),
        );
    }
    if let Some(what) = &report.malformed {
        return (
            CaseStatus::Wrong,
            format!("the candidate's answer is not a value of the declared type ({what})"),
        );
    }
    if deadlock {
        return (
            CaseStatus::Timeout,
            "the test program and the candidate both waited for each other".into(),
        );
    }
    let own = own_stderr(&test_run.stderr);
    let outcome = Outcome {
        stderr: own,
        ..test_run.clone()
    };
    let status = limit_or_wrong(test_run);
    let mut detail = format!(
        "the test code {}",
        exit_detail(&outcome).trim_start_matches("the program ")
    );
    if let Some(what) = &report.threw {
        detail.push_str(&format!("; the candidate's last call threw: {what}"));
    }
    (status, detail)
}

/// A trusted run that hit a limit keeps the limit's status; any other end of it is a failed case
/// (the trusted side ends early only through what the candidate answered).
pub(crate) fn limit_or_wrong(test_run: &Outcome) -> CaseStatus {
    match failure_status(test_run) {
        CaseStatus::ExitedNonzero | CaseStatus::Crashed => CaseStatus::Wrong,
        limit => limit,
    }
}

fn all_cases(cases: &[StaticCase], status: CaseStatus, detail: &str) -> Vec<CaseResult> {
    if cases.is_empty() {
        return vec![CaseResult {
            id: "test program".into(),
            status,
            detail: detail.to_string(),
        }];
    }
    cases
        .iter()
        .map(|case| CaseResult {
            id: case.id.clone(),
            status,
            detail: detail.to_string(),
        })
        .collect()
}
