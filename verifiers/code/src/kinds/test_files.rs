//! JavaScript and TypeScript test files run by their framework (`tests.jest`, `tests.node_test`):
//! Jest's `describe`/`test`/`expect` files and `node:test` files, as datasets ship them.
//!
//! The test file never enters the candidate's sandbox. It runs in a trusted program of its own,
//! under rewardbox's implementation of the framework (`guests/js/src/testing.js`), where the module
//! it imports as the candidate (`require('./solution')`, `import { f } from './solution.js'`)
//! is a module of stubs: each call runs in the live candidate's program over the wire of
//! [test code](crate::kinds::test_code), each value crossing as itself. The verdict of each test
//! is the trusted program's report on its stderr; the candidate cannot print a passing report,
//! patch `expect` or end the run as passed.

use crate::fields::ScriptFramework;
use crate::kinds::contest::spec::{Convention, ProblemProgram, ValidatorLimits};
use crate::kinds::test_code::{REPORT, limit_or_wrong, rest_of_line};
use crate::langs::js;
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, Outcome, RunStatus, Sandbox, compile_detail, exit_detail,
    failure_status, unsupported,
};
use rewardbox_languages::js_test_run::{TEST_FRAMEWORK, TEST_PROGRAM};

/// A test file and how it imports the candidate.
#[derive(Debug, Clone, PartialEq)]
pub struct TestFile {
    /// The framework that runs it.
    pub framework: ScriptFramework,
    /// The test file's source.
    pub test: String,
    /// The name the tests import the candidate's module as (`./solution`).
    pub module: String,
    /// The test file's name (a case when the file fails to load).
    pub file: String,
}

/// The trusted program: the framework's line, then the test file as written.
fn trusted_program(tests: &TestFile) -> String {
    let form = serde_json::json!({
        "framework": tests.framework.runner_name(),
        "module": tests.module,
        "file": tests.file,
    });
    format!("{TEST_PROGRAM}{TEST_FRAMEWORK}{form}\n{}\n", tests.test)
}

/// How a test ended, as the trusted program reported it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum State {
    Passed,
    /// Skipped, todo, pending: not failed, as the frameworks count them.
    NotRun,
    Failed,
    /// The candidate ended during one of its calls.
    Ended,
}

/// What the trusted program reported.
#[derive(Debug, Default)]
struct Report {
    /// The tests the file declared, in order, before any ran.
    planned: Vec<String>,
    /// Each test's verdict, in the order they ended.
    results: Vec<(String, State, String)>,
    /// Tests that started and did not end.
    started: Vec<String>,
    /// The file's top level ran to its end and the tests started.
    loaded: bool,
    /// Every test ran.
    finished: bool,
    /// The tests called the candidate.
    called: bool,
    /// The candidate answered a call.
    answered: bool,
    /// The framework itself failed: the verifier's fault.
    broke: Option<String>,
    /// The test file passed the candidate a value that cannot cross (a symbol, a Promise).
    untyped: Option<String>,
    /// The candidate's answer was not a value.
    malformed: Option<String>,
}

fn read_report(stderr: &str) -> Report {
    let mut report = Report::default();
    for line in stderr.lines() {
        let Some(rest) = line.strip_prefix(REPORT) else {
            continue;
        };
        let mut words = rest.splitn(4, ' ');
        let (kind, first, second) = (words.next(), words.next(), words.next());
        let id = |word: Option<&str>| word.unwrap_or("").replace('\u{1f}', " ");
        match kind {
            Some("case") => {
                let state = match second {
                    Some("pass") => State::Passed,
                    Some("skip") => State::NotRun,
                    Some("ended") => State::Ended,
                    _ => State::Failed,
                };
                let detail = words.next().unwrap_or("").trim().to_string();
                let name = id(first);
                if let Some(at) = report.started.iter().position(|s| *s == name) {
                    report.started.remove(at);
                }
                report.results.push((name, state, detail));
            }
            Some("case-planned") => report.planned.push(id(first)),
            Some("case-start") => report.started.push(id(first)),
            Some("framework") => match first {
                Some("loaded") => report.loaded = true,
                Some("finished") => report.finished = true,
                Some("called") => report.called = true,
                Some("answered") => report.answered = true,
                Some("broke") => report.broke = Some(rest_of_line(second, words.next())),
                _ => {}
            },
            Some("wire") => match first {
                Some("untyped") => report.untyped = Some(rest_of_line(second, words.next())),
                Some("malformed") => report.malformed = Some(second.unwrap_or("answer").into()),
                _ => {}
            },
            _ => {}
        }
    }
    report
}

/// The last line of what the test file itself wrote to stderr (its uncaught error).
fn own_error(stderr: &str) -> String {
    stderr
        .lines()
        .rfind(|l| {
            !l.starts_with(REPORT) && !l.trim().is_empty() && !l.trim_start().starts_with("at ")
        })
        .unwrap_or("")
        .trim()
        .to_string()
}

/// Runs the test file against `program` (the candidate's whole source, JavaScript or
/// TypeScript): one result per test, by its names (`describe › test`).
pub fn grade(
    language: &str,
    tests: &TestFile,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let field = format!("tests.{}", tests.framework.key());
    let trusted = ProblemProgram {
        language: language.to_string(),
        source: trusted_program(tests),
        // Its exit code is never read as a verdict: the candidate is stopped when it ends
        // with anything but 42, as a Kattis interactor's rejection stops it.
        convention: Convention::Kattis,
    };
    let interaction = sandbox.interact(
        language,
        &js::candidate_program(program),
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
    let report = read_report(&test_run.stderr);
    if let Some(why) = &report.broke {
        return Err(GradeError::Failed(format!(
            "rewardbox's {} runner failed: {why}",
            tests.framework.key()
        )));
    }
    if test_run.status == RunStatus::CompileError {
        return Err(GradeError::InvalidTask(format!(
            "\"{field}\" does not parse as {language}: {}",
            compile_detail(&test_run.stderr)
        )));
    }
    if let Some(what) = &report.untyped {
        return Err(GradeError::InvalidTask(format!(
            "\"{field}\" passes the candidate {what}, which cannot cross to another sandbox: a \
             test file may pass the candidate data and functions (not symbols, Promises or typed arrays)"
        )));
    }
    // A candidate that does not compile, or that ended before it answered any call, did not
    // load: natively its module fails to import, and the test file with it, before any test.
    let did_not_load = if candidate.status == RunStatus::CompileError {
        Some((CaseStatus::CompileError, compile_detail(&candidate.stderr)))
    } else if !report.answered
        && (candidate.status != RunStatus::Ok || candidate.exit_code.unwrap_or(0) != 0)
    {
        Some((
            failure_status(candidate),
            format!(
                "the candidate's module did not load: {}",
                exit_detail(candidate)
            ),
        ))
    } else {
        None
    };
    if !report.loaded {
        // The file's top level (and its `describe` bodies) did not run to its end: the task's
        // fault, unless it had called the candidate by then.
        if !report.called {
            return Err(GradeError::InvalidTask(format!(
                "\"{field}\" fails to load before it calls the candidate: {}",
                or_end(&own_error(&test_run.stderr), test_run)
            )));
        }
        let (status, detail) = did_not_load.unwrap_or_else(|| {
            (
                limit_or_wrong(test_run),
                format!(
                    "the test file failed to load: {}",
                    or_end(&own_error(&test_run.stderr), test_run)
                ),
            )
        });
        return Ok(vec![CaseResult {
            id: tests.file.clone(),
            status,
            detail,
        }]);
    }
    if report.planned.is_empty() && report.results.is_empty() {
        return Err(GradeError::InvalidTask(format!(
            "\"{field}\" declares no tests"
        )));
    }
    if let Some((status, detail)) = did_not_load {
        return Ok(vec![CaseResult {
            id: tests.file.clone(),
            status,
            detail,
        }]);
    }
    Ok(verdicts(&report, test_run, candidate, interaction.deadlock))
}

/// Each test's case: the reported verdicts in order, then the tests that never ended.
fn verdicts(
    report: &Report,
    test_run: &Outcome,
    candidate: &Outcome,
    deadlock: bool,
) -> Vec<CaseResult> {
    let mut ended = false;
    let mut cases: Vec<CaseResult> = Vec::new();
    for (id, state, detail) in &report.results {
        let (status, detail) = if *state == State::Ended || (ended && *state == State::Passed) {
            ended = true;
            (failure_status(candidate), candidate_end(candidate))
        } else {
            match state {
                State::Passed => (
                    CaseStatus::Passed,
                    if detail.is_empty() {
                        "passed".to_string()
                    } else {
                        detail.clone()
                    },
                ),
                State::NotRun => (CaseStatus::Passed, detail.clone()),
                _ => (CaseStatus::Wrong, detail.clone()),
            }
        };
        cases.push(CaseResult {
            id: id.clone(),
            status,
            detail,
        });
    }
    // Tests that started and did not end, and tests declared and never reported.
    let mut unreported: Vec<String> = report.started.clone();
    let mut reported: Vec<&str> = report.results.iter().map(|r| r.0.as_str()).collect();
    for id in &report.planned {
        match reported.iter().position(|r| r == id) {
            Some(at) => {
                reported.remove(at);
            }
            None if !unreported.contains(id) => unreported.push(id.clone()),
            None => {}
        }
    }
    let completed = test_run.status == RunStatus::Ok && report.finished;
    for id in unreported {
        let (status, detail) = if ended {
            (failure_status(candidate), candidate_end(candidate))
        } else if deadlock {
            (
                CaseStatus::Timeout,
                "the test file and the candidate both waited for each other".into(),
            )
        } else if test_run.status == RunStatus::Ok {
            (
                CaseStatus::Wrong,
                if completed {
                    "did not run".into()
                } else {
                    "the test did not finish: a promise that never settles, or a `done` callback \
                     never called (natively: the framework's timeout)"
                        .into()
                },
            )
        } else if let Some(what) = &report.malformed {
            (
                CaseStatus::Wrong,
                format!("the candidate's answer is not a value ({what})"),
            )
        } else {
            (
                limit_or_wrong(test_run),
                format!(
                    "the test file {}",
                    exit_detail(test_run).trim_start_matches("the program ")
                ),
            )
        };
        cases.push(CaseResult { id, status, detail });
    }
    cases
}

/// How the candidate ended, for a case's detail.
fn candidate_end(candidate: &Outcome) -> String {
    format!(
        "the candidate ended during a call: {}",
        exit_detail(candidate)
    )
}

fn or_end(error: &str, outcome: &Outcome) -> String {
    if error.is_empty() {
        exit_detail(outcome)
    } else {
        error.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_is_read_from_marked_lines_only() {
        let stderr = "\u{1e}rb-framework loaded\n\
                      \u{1e}rb-case-planned sum\u{1f}\u{203a}\u{1f}adds\n\
                      \u{1e}rb-case-planned sum\u{1f}\u{203a}\u{1f}fails\n\
                      \u{1e}rb-case-start sum\u{1f}\u{203a}\u{1f}adds\n\
                      \u{1e}rb-case sum\u{1f}\u{203a}\u{1f}adds pass \n\
                      rb-case forged pass\n\
                      \u{1e}rb-case-start sum\u{1f}\u{203a}\u{1f}fails\n";
        let report = read_report(stderr);
        assert!(report.loaded && !report.finished);
        assert_eq!(report.planned, vec!["sum › adds", "sum › fails"]);
        assert_eq!(
            report.results,
            vec![("sum › adds".into(), State::Passed, String::new())]
        );
        assert_eq!(report.started, vec!["sum › fails"]);
    }

    #[test]
    fn the_trusted_program_opens_with_the_framework_line() {
        let program = trusted_program(&TestFile {
            framework: ScriptFramework::NodeTest,
            test: "test('a', () => {})".into(),
            module: "sum".into(),
            file: "sum.test.js".into(),
        });
        assert!(program.starts_with(TEST_PROGRAM));
        let line = program[TEST_PROGRAM.len()..].lines().next().unwrap();
        let form: serde_json::Value =
            serde_json::from_str(line.strip_prefix(TEST_FRAMEWORK).unwrap()).unwrap();
        assert_eq!(form["framework"], "node");
        assert_eq!(form["module"], "sum");
    }
}
