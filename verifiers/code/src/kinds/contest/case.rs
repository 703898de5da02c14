//! One test case of a contest problem, judged as problemtools judges it: the submission run on
//! the input, then its output checked by the default validator or the problem's own; or, for an
//! interactive problem, the submission and the interactor run together. The problem's programs
//! run in sandboxes of their own, never the submission's. A program of the testlib convention
//! (Codeforces' Polygon) is invoked and read as testlib's checkers and interactors are.

use crate::kinds::contest::default_validator::{self, Flags};
use crate::kinds::contest::grader::{Graded, JudgeError, Verdict};
use crate::kinds::contest::spec::{Comparison, Convention, JudgeCase, JudgeSpec, ProblemProgram};
use crate::sandbox::{
    CaseStatus, CheckerFile, CheckerOutcome, GradeError, Outcome, RunStatus, Sandbox,
};

/// Where a checker finds the case's input file.
pub const INPUT_FILE: &str = "/data/input.in";
/// Where a checker finds the case's answer file.
pub const ANSWER_FILE: &str = "/data/answer.ans";
/// The directory a checker writes its feedback to (with the separator the format asks for).
pub const FEEDBACK_DIR: &str = "/feedback/";
/// Where a testlib checker finds the output it checks.
pub const OUTPUT_FILE: &str = "/data/output.out";
/// Where a testlib interactor writes the output file its checker then reads (its `tout`).
pub const INTERACTOR_OUTPUT_FILE: &str = "/feedback/output.out";

/// Exit code of a validator that accepts.
const ACCEPTED: i32 = 42;
/// Exit code of a validator that rejects.
const REJECTED: i32 = 43;

/// How one case went.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseRun {
    /// The case was judged.
    Judged {
        /// Its verdict and the validator's score, if it gave one.
        graded: Graded,
        /// Why, as a case status of the code verifier.
        status: CaseStatus,
        /// What happened.
        detail: String,
    },
    /// The submission does not compile: no case can be judged.
    CompileError(Outcome),
}

/// The files a checker of `case` reads.
pub(crate) fn checker_files(case: &JudgeCase) -> Vec<CheckerFile> {
    vec![
        CheckerFile {
            path: "input.in".into(),
            contents: case.input.as_bytes().to_vec(),
        },
        CheckerFile {
            path: "answer.ans".into(),
            contents: case.answer.as_bytes().to_vec(),
        },
    ]
}

/// The validator's flags for `case`: the problem's, then its group's.
pub fn validator_flags(spec: &JudgeSpec, group_flags: &[String]) -> Vec<String> {
    spec.validator_flags
        .iter()
        .chain(group_flags)
        .cloned()
        .collect()
}

/// A checker's command line for `case`: input, answer, feedback directory, flags.
fn checker_args(flags: &[String]) -> Vec<String> {
    [INPUT_FILE, ANSWER_FILE, FEEDBACK_DIR]
        .into_iter()
        .map(str::to_string)
        .chain(flags.iter().cloned())
        .collect()
}

/// Judges `program` (in `language`) on `case`; `flags` are the validator's for the case's group.
/// With the spec's `record`, the case's detail is its JSON record ([`recorded`]).
pub fn judge_case(
    spec: &JudgeSpec,
    language: &str,
    program: &str,
    case: &JudgeCase,
    flags: &[String],
    sandbox: &dyn Sandbox,
) -> Result<CaseRun, GradeError> {
    let (run, output) = judge_case_output(spec, language, program, case, flags, sandbox)?;
    Ok(if spec.record {
        recorded(run, output)
    } else {
        run
    })
}

/// A judged case with its detail made the JSON record `{"verdict", "points", "output",
/// "detail"}` (`output`: what the submission wrote, the grader's output where a grader calls
/// it, what its processes said to the manager where it talks to one); a compile error stays one.
fn recorded(run: CaseRun, output: Option<String>) -> CaseRun {
    match run {
        CaseRun::Judged {
            graded,
            status,
            detail,
        } => CaseRun::Judged {
            detail: serde_json::json!({
                "verdict": graded.verdict.code(),
                "points": graded.score,
                "output": output,
                "detail": detail,
            })
            .to_string(),
            graded,
            status,
        },
        compile_error => compile_error,
    }
}

/// [`judge_case`]'s run, with what the submission wrote (its output, its side of an
/// interaction, the grader's output where a grader calls it, what its processes said to a
/// manager).
fn judge_case_output(
    spec: &JudgeSpec,
    language: &str,
    program: &str,
    case: &JudgeCase,
    flags: &[String],
    sandbox: &dyn Sandbox,
) -> Result<(CaseRun, Option<String>), GradeError> {
    if let Some(manager) = &spec.manager {
        return super::cms::judge_communication(
            spec,
            &manager.program,
            manager.processes,
            language,
            program,
            case,
            sandbox,
        );
    }
    if let Some(grader) = &spec.grader {
        return super::cms::judge_with_grader(
            spec, grader, language, program, case, flags, sandbox,
        );
    }
    if let Some(interactor) = &spec.interactor {
        return judge_testlib_interaction(spec, interactor, language, program, case, sandbox);
    }
    if spec.interactive {
        let validator = spec
            .output_validator
            .as_ref()
            .expect("the spec checked that an interactive problem has its interactor");
        let interaction = sandbox.interact(
            language,
            program,
            validator,
            &checker_args(flags),
            &checker_files(case),
            &spec.validator_limits,
        );
        let said = Some(interaction.candidate.stdout.clone());
        if interaction.deadlock {
            return Ok((deadlock("interactor"), said));
        }
        let run = interactive_verdict(
            spec,
            interaction.candidate,
            &interaction.interactor,
            interaction.interactor_first,
        )?;
        return Ok((run, said));
    }
    let outcome = sandbox.run(language, program, &case.input);
    let output = Some(outcome.stdout.clone());
    if let Some(run) = submission_failure(&outcome)? {
        return Ok((run, output));
    }
    let run = check_output(spec, case, flags, &outcome.stdout, sandbox)?;
    Ok((run, output))
}

/// Checks `output`, the submission's output on `case`: by the problem's checking program, else
/// by its comparison (`flags`: the validator's for the case's group).
pub(crate) fn check_output(
    spec: &JudgeSpec,
    case: &JudgeCase,
    flags: &[String],
    output: &str,
    sandbox: &dyn Sandbox,
) -> Result<CaseRun, GradeError> {
    match &spec.output_validator {
        None if spec.comparison == Comparison::WhiteDiff => Ok(
            match super::cms::white_diff(output.as_bytes(), case.answer.as_bytes()) {
                Ok(()) => accepted(None),
                Err(message) => wrong(message),
            },
        ),
        None => {
            let flags = Flags::parse(flags).map_err(|e| {
                GradeError::InvalidTask(format!("\"tests.judge.validator_flags\": {e}"))
            })?;
            Ok(
                match default_validator::judge(case.answer.as_bytes(), output.as_bytes(), &flags) {
                    default_validator::Judgement::Accepted => accepted(None),
                    default_validator::Judgement::Wrong(message) => wrong(message),
                },
            )
        }
        Some(checker) if checker.convention == Convention::Testlib => {
            let checked = run_file_checker(spec, checker, output.as_bytes(), case, sandbox);
            testlib_verdict(spec, &checked, "checker").map_err(judge_error)
        }
        Some(checker) if checker.convention == Convention::Cms => {
            let checked = run_file_checker(spec, checker, output.as_bytes(), case, sandbox);
            super::cms::cms_verdict(&checked, "checker").map_err(judge_error)
        }
        Some(validator) => {
            let checked = run_validator(spec, validator, output, case, flags, sandbox);
            validator_verdict(spec, &checked).map_err(judge_error)
        }
    }
}

/// Runs a checker that reads the candidate's output as a file, the three files read-only and
/// nothing on its stdin: a testlib checker as Polygon invokes it, `checker input output answer`;
/// a CMS checker as CMS does, `checker input answer output`.
pub(crate) fn run_file_checker(
    spec: &JudgeSpec,
    checker: &ProblemProgram,
    output: &[u8],
    case: &JudgeCase,
    sandbox: &dyn Sandbox,
) -> CheckerOutcome {
    let mut files = checker_files(case);
    files.push(CheckerFile {
        path: "output.out".into(),
        contents: output.to_vec(),
    });
    let args = match checker.convention {
        Convention::Cms => [INPUT_FILE, ANSWER_FILE, OUTPUT_FILE],
        // (A Kattis validator reads the output on its stdin: `run_validator`.)
        Convention::Testlib | Convention::Kattis => [INPUT_FILE, OUTPUT_FILE, ANSWER_FILE],
    }
    .map(str::to_string);
    sandbox.run_checker(checker, "", &args, &files, &spec.validator_limits)
}

/// Judges `program` on `case` against a testlib interactor (`interactor input output`, each
/// one's stdout the other's stdin), then, when the interactor accepts, the checker on the output
/// file the interactor wrote. Whose fault decides, as problemtools decides for Kattis
/// interactors: the interactor's verdict when it failed or rejected before the program ended;
/// else the program's limit or crash; else the interactor's rejection; else the checker's.
fn judge_testlib_interaction(
    spec: &JudgeSpec,
    interactor: &ProblemProgram,
    language: &str,
    program: &str,
    case: &JudgeCase,
    sandbox: &dyn Sandbox,
) -> Result<(CaseRun, Option<String>), GradeError> {
    let args = [INPUT_FILE, INTERACTOR_OUTPUT_FILE].map(str::to_string);
    let interaction = sandbox.interact(
        language,
        program,
        interactor,
        &args,
        &checker_files(case),
        &spec.validator_limits,
    );
    let candidate = interaction.candidate;
    let said = Some(candidate.stdout.clone());
    let run = |run: CaseRun| Ok((run, said.clone()));
    if candidate.status == RunStatus::CompileError {
        return run(CaseRun::CompileError(candidate));
    }
    if candidate.status == RunStatus::Unsupported {
        return Err(GradeError::Failed(candidate.stderr.trim().to_string()));
    }
    if interaction.deadlock {
        return run(deadlock("interactor"));
    }
    let verdict =
        testlib_verdict(spec, &interaction.interactor, "interactor").map_err(judge_error)?;
    let rejected = !is_accepted(&verdict);
    if rejected && interaction.interactor_first {
        return run(verdict);
    }
    if let Some(failed) = submission_failure(&candidate)? {
        return run(failed);
    }
    let Some(checker) = spec.output_validator.as_ref().filter(|_| !rejected) else {
        return run(verdict);
    };
    let output = feedback(&interaction.interactor, "output.out").unwrap_or_default();
    let checked = run_file_checker(spec, checker, output, case, sandbox);
    run(testlib_verdict(spec, &checked, "checker").map_err(judge_error)?)
}

/// Whether a case run is an accepted one.
fn is_accepted(run: &CaseRun) -> bool {
    matches!(run, CaseRun::Judged { graded, .. } if graded.verdict == Verdict::Accepted)
}

/// A deadlock's verdict: the program and `peer` (the interactor, the manager, the grader) both
/// waited for the other, and a native judge's wall clock ends it, as too slow.
pub(crate) fn deadlock(peer: &str) -> CaseRun {
    CaseRun::Judged {
        graded: Graded {
            verdict: Verdict::TimeLimit,
            score: None,
        },
        status: CaseStatus::Timeout,
        detail: format!(
            "deadlock: the program and the {peer} both waited for the other's output (a native \
             judge's time limit)"
        ),
    }
}

/// testlib's exit codes (`resultExitCode`): `_ok`, `_wa`, `_pe`, `_fail`, `_dirt`, `_points`,
/// `_unexpected_eof` (with `ENABLE_UNEXPECTED_EOF`), and the first of `_pc(n)` (`16 + n`).
const TESTLIB_OK: i32 = 0;
const TESTLIB_WA: i32 = 1;
const TESTLIB_PE: i32 = 2;
const TESTLIB_FAIL: i32 = 3;
const TESTLIB_DIRT: i32 = 4;
const TESTLIB_POINTS: i32 = 7;
const TESTLIB_UNEXPECTED_EOF: i32 = 8;
const TESTLIB_PARTIALLY: i32 = 16;

/// The verdict of a testlib checker's or interactor's run (`who`): 0 accepted, 1 wrong answer,
/// 2, 4 and 8 presentation error, 7 accepted with the points its message starts with (`points
/// 12.5 ...`); 3 (FAIL), a crash, a limit or any other code is a judge error. Its message (its
/// stderr) is the case's detail.
fn testlib_verdict(
    spec: &JudgeSpec,
    checked: &CheckerOutcome,
    who: &str,
) -> Result<CaseRun, JudgeError> {
    let outcome = &checked.outcome;
    let exited = matches!(outcome.status, RunStatus::Ok | RunStatus::ExitedNonzero);
    let message = crate::compare::preview(&outcome.stderr.trim().replace('\n', " "));
    let said = |fallback: &str| {
        if message.is_empty() {
            format!("the {who} {fallback}")
        } else {
            message.clone()
        }
    };
    match outcome.exit_code.filter(|_| exited) {
        Some(TESTLIB_OK) => Ok(CaseRun::Judged {
            graded: Graded {
                verdict: Verdict::Accepted,
                score: None,
            },
            status: CaseStatus::Passed,
            detail: said("accepted"),
        }),
        Some(TESTLIB_WA) => Ok(wrong(said("rejected the output"))),
        Some(TESTLIB_PE | TESTLIB_DIRT | TESTLIB_UNEXPECTED_EOF) => Ok(CaseRun::Judged {
            graded: Graded {
                verdict: Verdict::PresentationError,
                score: None,
            },
            status: CaseStatus::Wrong,
            detail: said("found the output's format wrong"),
        }),
        Some(TESTLIB_POINTS) => {
            let text = outcome.stderr.trim_start();
            let points = text
                .strip_prefix("points ")
                .and_then(|rest| rest.split_whitespace().next())
                .and_then(|p| p.parse::<f64>().ok())
                .filter(|p| p.is_finite())
                .ok_or_else(|| {
                    JudgeError(format!(
                        "the {who} ended with points (exit 7) but its message does not start \
                         with them (\"points 12.5 ...\"): {message:?}"
                    ))
                })?;
            // Points count where the problem scores its cases (and are recorded); a pass-fail
            // problem reads them as accepted.
            let scored = !spec.subtasks.is_empty() || spec.custom_score || spec.record;
            Ok(CaseRun::Judged {
                graded: Graded {
                    verdict: Verdict::Accepted,
                    score: scored.then_some(points),
                },
                status: CaseStatus::Passed,
                detail: message,
            })
        }
        Some(TESTLIB_FAIL) => Err(JudgeError(format!("the {who} failed (FAIL): {message}"))),
        Some(code) if code >= TESTLIB_PARTIALLY => Err(JudgeError(format!(
            "the {who} said partially correct (_pc({})), which rewardbox does not score: {message}",
            code - TESTLIB_PARTIALLY
        ))),
        _ => Err(JudgeError(format!(
            "the {who} did not end with a testlib verdict (0, 1, 2, 3, 4, 7): {}",
            crate::sandbox::exit_detail(outcome)
        ))),
    }
}

fn run_validator(
    spec: &JudgeSpec,
    validator: &ProblemProgram,
    output: &str,
    case: &JudgeCase,
    flags: &[String],
    sandbox: &dyn Sandbox,
) -> CheckerOutcome {
    sandbox.run_checker(
        validator,
        output,
        &checker_args(flags),
        &checker_files(case),
        &spec.validator_limits,
    )
}

fn judge_error(error: JudgeError) -> GradeError {
    GradeError::Failed(format!("judge error: {}", error.0))
}

fn accepted(score: Option<f64>) -> CaseRun {
    CaseRun::Judged {
        graded: Graded {
            verdict: Verdict::Accepted,
            score,
        },
        status: CaseStatus::Passed,
        detail: "accepted".into(),
    }
}

fn wrong(message: String) -> CaseRun {
    CaseRun::Judged {
        graded: Graded {
            verdict: Verdict::WrongAnswer,
            score: None,
        },
        status: CaseStatus::Wrong,
        detail: message,
    }
}

/// The verdict when the submission did not end well on its own (compile error, a limit, a
/// crash), `None` when it exited 0; a run the host could not make is the verifier's failure.
pub(crate) fn submission_failure(outcome: &Outcome) -> Result<Option<CaseRun>, GradeError> {
    let (verdict, status) = match outcome.status {
        RunStatus::Unsupported => {
            return Err(GradeError::Failed(outcome.stderr.trim().to_string()));
        }
        RunStatus::CompileError => return Ok(Some(CaseRun::CompileError(outcome.clone()))),
        RunStatus::Ok if outcome.exit_code.unwrap_or(0) == 0 => return Ok(None),
        RunStatus::FuelExhausted => (Verdict::TimeLimit, CaseStatus::FuelExhausted),
        RunStatus::Timeout => (Verdict::TimeLimit, CaseStatus::Timeout),
        RunStatus::MemoryExceeded => (Verdict::MemoryLimit, CaseStatus::MemoryExceeded),
        RunStatus::OutputExceeded => (Verdict::OutputLimit, CaseStatus::OutputExceeded),
        RunStatus::Crashed => (Verdict::RunTimeError, CaseStatus::Crashed),
        RunStatus::Ok | RunStatus::ExitedNonzero => {
            (Verdict::RunTimeError, CaseStatus::ExitedNonzero)
        }
    };
    Ok(Some(CaseRun::Judged {
        graded: Graded {
            verdict,
            score: None,
        },
        status,
        detail: crate::sandbox::exit_detail(outcome),
    }))
}

/// A feedback file's text, if the checker wrote it.
fn feedback<'a>(checked: &'a CheckerOutcome, name: &str) -> Option<&'a [u8]> {
    checked
        .feedback
        .iter()
        .find(|f| f.path == name)
        .map(|f| f.contents.as_slice())
}

/// The validator's judge message, shortened to what a case's detail shows.
fn judge_message(checked: &CheckerOutcome) -> String {
    let text = feedback(checked, "judgemessage.txt")
        .map(|bytes| String::from_utf8_lossy(bytes).trim().replace('\n', " "))
        .unwrap_or_default();
    crate::compare::preview(&text)
}

/// The verdict of a validator's run (problemtools' `_parse_validator_result`): 42 accepted
/// (with its `score.txt` in a custom-score problem), 43 wrong answer; anything else, or a score
/// file where none belongs, is a judge error.
fn validator_verdict(spec: &JudgeSpec, checked: &CheckerOutcome) -> Result<CaseRun, JudgeError> {
    let outcome = &checked.outcome;
    let exited = matches!(outcome.status, RunStatus::Ok | RunStatus::ExitedNonzero);
    let code = outcome.exit_code.filter(|_| exited);
    let score_file = feedback(checked, "score.txt");
    match code {
        Some(REJECTED) if score_file.is_some() => Err(JudgeError(
            "the validator wrote score.txt for a wrong answer".into(),
        )),
        Some(REJECTED) => {
            let message = judge_message(checked);
            Ok(wrong(if message.is_empty() {
                "the validator rejected the output".into()
            } else {
                message
            }))
        }
        Some(ACCEPTED) if !spec.custom_score && score_file.is_some() => Err(JudgeError(
            "the validator wrote score.txt, but the problem has no custom scores".into(),
        )),
        Some(ACCEPTED) if spec.custom_score => {
            let text = score_file
                .map(|bytes| String::from_utf8_lossy(bytes).trim().to_string())
                .ok_or_else(|| {
                    JudgeError(
                        "the problem has custom scores but the validator wrote no score.txt".into(),
                    )
                })?;
            let score = text
                .parse::<f64>()
                .ok()
                .filter(|s| s.is_finite())
                .ok_or_else(|| {
                    JudgeError(format!(
                        "the validator's score.txt is not a number: {text:?}"
                    ))
                })?;
            Ok(accepted(Some(score)))
        }
        Some(ACCEPTED) => Ok(accepted(None)),
        _ => Err(JudgeError(format!(
            "the validator did not say 42 or 43: {}",
            crate::sandbox::exit_detail(outcome)
        ))),
    }
}

/// The verdict of an interactive run (problemtools' `_run_interactive`): the interactor's when
/// it failed or rejected first; else the submission's time limit or crash; else the
/// interactor's.
fn interactive_verdict(
    spec: &JudgeSpec,
    candidate: Outcome,
    interactor: &CheckerOutcome,
    interactor_first: bool,
) -> Result<CaseRun, GradeError> {
    if candidate.status == RunStatus::CompileError {
        return Ok(CaseRun::CompileError(candidate));
    }
    if candidate.status == RunStatus::Unsupported {
        return Err(GradeError::Failed(candidate.stderr.trim().to_string()));
    }
    let validator = validator_verdict(spec, interactor);
    let rejected_first = interactor_first
        && interactor.outcome.exit_code == Some(REJECTED)
        && matches!(
            interactor.outcome.status,
            RunStatus::Ok | RunStatus::ExitedNonzero
        );
    if validator.is_err() || rejected_first {
        return validator.map_err(judge_error);
    }
    if let Some(failed) = submission_failure(&candidate)? {
        return Ok(failed);
    }
    validator.map_err(judge_error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::InteractionOutcome;
    use serde_json::json;

    fn outcome(status: RunStatus, exit_code: Option<i32>) -> Outcome {
        Outcome {
            status,
            exit_code,
            stdout: String::new(),
            stderr: String::new(),
        }
    }

    fn checked(exit_code: i32, files: &[(&str, &str)]) -> CheckerOutcome {
        CheckerOutcome {
            outcome: outcome(
                if exit_code == 0 {
                    RunStatus::Ok
                } else {
                    RunStatus::ExitedNonzero
                },
                Some(exit_code),
            ),
            feedback: files
                .iter()
                .map(|(p, c)| CheckerFile {
                    path: p.to_string(),
                    contents: c.as_bytes().to_vec(),
                })
                .collect(),
        }
    }

    #[test]
    fn testlib_exit_codes_are_read_as_testlib_writes_them() {
        let spec = JudgeSpec::parse(&json!({
            "type": "scoring",
            "cases": [{"input": "", "group": "1", "points": 5}],
            "subtasks": [{"name": "1", "policy": "each-test"}],
            "output_validator": {"language": "cpp", "source": "", "convention": "testlib"}
        }))
        .unwrap();
        let said = |code: i32, stderr: &str| {
            let mut run = checked(code, &[]);
            run.outcome.stderr = stderr.to_string();
            testlib_verdict(&spec, &run, "checker")
        };
        let judged = |code, stderr| {
            let CaseRun::Judged { graded, detail, .. } = said(code, stderr).unwrap() else {
                panic!("a compile error")
            };
            (graded.verdict, graded.score, detail)
        };
        assert_eq!(
            judged(0, "ok 3 numbers\n"),
            (Verdict::Accepted, None, "ok 3 numbers".into())
        );
        assert_eq!(
            judged(1, "wrong answer expected 3, found 4\n").0,
            Verdict::WrongAnswer
        );
        for pe in [2, 4, 8] {
            assert_eq!(
                judged(pe, "wrong output format x\n").0,
                Verdict::PresentationError
            );
        }
        assert_eq!(judged(7, "points 12.5 half done\n").1, Some(12.5));
        assert_eq!(judged(7, "points 3\n").1, Some(3.0));
        // Judge errors: FAIL, points not said, partially correct, other codes, a crash.
        assert!(
            said(3, "FAIL participant has a better answer")
                .unwrap_err()
                .0
                .contains("FAIL")
        );
        assert!(said(7, "12.5 no prefix").is_err());
        assert!(
            said(17, "partially correct (1)")
                .unwrap_err()
                .0
                .contains("_pc(1)")
        );
        assert!(said(42, "").is_err());
        let mut crashed = checked(0, &[]);
        crashed.outcome.status = RunStatus::Crashed;
        crashed.outcome.exit_code = None;
        assert!(testlib_verdict(&spec, &crashed, "checker").is_err());
        // In a pass-fail problem, points read as accepted.
        let pass_fail = JudgeSpec::parse(&json!({
            "cases": [{"input": ""}],
            "output_validator": {"language": "cpp", "source": "", "convention": "testlib"}
        }))
        .unwrap();
        let mut run = checked(7, &[]);
        run.outcome.stderr = "points 1".into();
        assert!(matches!(
            testlib_verdict(&pass_fail, &run, "checker").unwrap(),
            CaseRun::Judged {
                graded: Graded {
                    verdict: Verdict::Accepted,
                    score: None
                },
                ..
            }
        ));
    }

    fn verdict(run: &CaseRun) -> Verdict {
        match run {
            CaseRun::Judged { graded, .. } => graded.verdict,
            CaseRun::CompileError(_) => panic!("a compile error"),
        }
    }

    /// A sandbox that answers one interaction and one checker run as scripted, and records the
    /// checker's command line and the output file it was given.
    struct Scripted {
        interaction: InteractionOutcome,
        checker: CheckerOutcome,
        checked: std::cell::RefCell<Vec<(Vec<String>, Vec<u8>)>>,
    }

    impl Sandbox for Scripted {
        fn run(&self, _: &str, _: &str, _: &str) -> Outcome {
            unreachable!("interactive")
        }
        fn call(&self, _: &str, _: &str, _: &str, _: &[String]) -> Vec<Result<String, Outcome>> {
            unreachable!("no calls")
        }
        fn check(
            &self,
            _: &crate::fields::AssertSource,
            _: &str,
            _: &str,
        ) -> Result<Vec<crate::sandbox::CaseResult>, GradeError> {
            unreachable!("no asserts")
        }
        fn candidate_limits(&self) -> serde_json::Value {
            json!({})
        }
        fn run_checker(
            &self,
            _: &ProblemProgram,
            _: &str,
            args: &[String],
            files: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> CheckerOutcome {
            let output = files
                .iter()
                .find(|f| f.path == "output.out")
                .map(|f| f.contents.clone())
                .unwrap_or_default();
            self.checked.borrow_mut().push((args.to_vec(), output));
            self.checker.clone()
        }
        fn interact(
            &self,
            _: &str,
            _: &str,
            interactor: &ProblemProgram,
            args: &[String],
            _: &[CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> InteractionOutcome {
            assert_eq!(interactor.convention.accepts(), 0);
            assert_eq!(args, [INPUT_FILE, INTERACTOR_OUTPUT_FILE]);
            self.interaction.clone()
        }
        fn communicate(
            &self,
            _: &str,
            _: &str,
            _: u32,
            _: &crate::kinds::contest::spec::ProblemProgram,
            _: &str,
            _: &[String],
            _: &[crate::sandbox::CheckerFile],
            _: &crate::kinds::contest::spec::ValidatorLimits,
        ) -> crate::sandbox::CommunicationOutcome {
            unreachable!("no manager")
        }
    }

    #[test]
    fn a_testlib_interaction_is_judged_by_whose_fault_then_by_its_checker() {
        let spec = JudgeSpec::parse(&json!({
            "cases": [{"input": "5\n", "answer": "20\n"}],
            "interactor": {"language": "cpp", "source": "", "convention": "testlib"},
            "output_validator": {"language": "cpp", "source": "", "convention": "testlib"}
        }))
        .unwrap();
        let judged = |candidate: Outcome, interactor: i32, first: bool, checker: i32| {
            let mut said = checked(interactor, &[("output.out", "3\n")]);
            said.outcome.stderr = "wrong answer too many questions".into();
            let sandbox = Scripted {
                interaction: InteractionOutcome {
                    candidate,
                    interactor: said,
                    interactor_first: first,
                    deadlock: false,
                },
                checker: checked(checker, &[]),
                checked: Default::default(),
            };
            let run = judge_case(&spec, "cpp", "", &spec.cases[0], &[], &sandbox);
            (run.map(|r| verdict(&r)), sandbox.checked.into_inner())
        };
        let ok = outcome(RunStatus::Ok, Some(0));
        let crashed = outcome(RunStatus::Crashed, None);
        // Accepted by the interactor, then the checker decides, reading the interactor's file.
        let (accepted, checks) = judged(ok.clone(), 0, false, 0);
        assert_eq!(accepted.unwrap(), Verdict::Accepted);
        assert_eq!(
            checks,
            [(
                [INPUT_FILE, OUTPUT_FILE, ANSWER_FILE]
                    .map(String::from)
                    .to_vec(),
                b"3\n".to_vec()
            )]
        );
        assert_eq!(
            judged(ok.clone(), 0, false, 1).0.unwrap(),
            Verdict::WrongAnswer
        );
        // The interactor rejected before the candidate ended: its verdict, no checker.
        let (rejected, checks) = judged(crashed.clone(), 1, true, 0);
        assert_eq!(rejected.unwrap(), Verdict::WrongAnswer);
        assert!(checks.is_empty());
        // The candidate crashed first: its fault, whatever the interactor then said.
        assert_eq!(
            judged(crashed.clone(), 1, false, 0).0.unwrap(),
            Verdict::RunTimeError
        );
        // Accepted, then the candidate crashed: a run-time error.
        assert_eq!(
            judged(crashed, 0, true, 0).0.unwrap(),
            Verdict::RunTimeError
        );
        assert_eq!(
            judged(ok.clone(), 2, false, 0).0.unwrap(),
            Verdict::PresentationError
        );
        // The interactor's or the checker's FAIL is a judge error, never the candidate's 0.
        assert!(judged(ok.clone(), 3, true, 0).0.is_err());
        assert!(judged(ok, 0, false, 3).0.is_err());
    }

    #[test]
    fn a_record_holds_the_verdict_the_points_and_what_the_submission_said() {
        let spec = JudgeSpec::parse(&json!({
            "cases": [{"input": "5\n", "answer": "20\n"}],
            "interactor": {"language": "cpp", "source": "", "convention": "testlib"},
            "output_validator": {"language": "cpp", "source": "", "convention": "testlib"},
            "record": true
        }))
        .unwrap();
        let record = |checker: CheckerOutcome, deadlock: bool| {
            let mut said = outcome(RunStatus::Ok, Some(0));
            said.stdout = "? 5\n! 20\n".into();
            let sandbox = Scripted {
                interaction: InteractionOutcome {
                    candidate: said,
                    interactor: checked(0, &[("output.out", "20\n")]),
                    interactor_first: false,
                    deadlock,
                },
                checker,
                checked: Default::default(),
            };
            let run = judge_case(&spec, "cpp", "", &spec.cases[0], &[], &sandbox).unwrap();
            let CaseRun::Judged { detail, .. } = run else {
                panic!("not judged")
            };
            serde_json::from_str::<serde_json::Value>(&detail).unwrap()
        };
        // The checker's points are recorded even in a pass-fail problem, which reads them as
        // accepted.
        let mut points = checked(7, &[]);
        points.outcome.stderr = "points 12.5 most of it".into();
        assert_eq!(
            record(points, false),
            json!({"verdict": "AC", "points": 12.5, "output": "? 5\n! 20\n",
                   "detail": "points 12.5 most of it"})
        );
        let stuck = record(checked(0, &[]), true);
        assert_eq!(stuck["verdict"], "TLE");
        assert_eq!(stuck["points"], serde_json::Value::Null);
        assert_eq!(stuck["output"], "? 5\n! 20\n");
    }

    fn spec(custom_score: bool) -> JudgeSpec {
        JudgeSpec::parse(&json!({
            "cases": [{"input": ""}],
            "output_validator": {"language": "python", "source": ""},
            "custom_score": custom_score
        }))
        .unwrap()
    }

    #[test]
    fn a_validators_exit_code_and_files_decide() {
        let pass_fail = spec(false);
        let scored = spec(true);
        assert_eq!(
            verdict(&validator_verdict(&pass_fail, &checked(42, &[])).unwrap()),
            Verdict::Accepted
        );
        let wa = validator_verdict(
            &pass_fail,
            &checked(43, &[("judgemessage.txt", "line 3\nwrong")]),
        )
        .unwrap();
        assert_eq!(verdict(&wa), Verdict::WrongAnswer);
        let CaseRun::Judged { detail, .. } = wa else {
            unreachable!()
        };
        assert_eq!(detail, "line 3 wrong");
        for bad in [
            checked(0, &[]),
            checked(1, &[]),
            checked(43, &[("score.txt", "1")]),
            checked(42, &[("score.txt", "1")]),
        ] {
            assert!(validator_verdict(&pass_fail, &bad).is_err(), "{bad:?}");
        }
        let crashed = CheckerOutcome {
            outcome: outcome(RunStatus::Crashed, None),
            feedback: vec![],
        };
        assert!(validator_verdict(&pass_fail, &crashed).is_err());
        let scored_run =
            validator_verdict(&scored, &checked(42, &[("score.txt", " 17.5\n")])).unwrap();
        assert!(matches!(
            scored_run,
            CaseRun::Judged {
                graded: Graded {
                    score: Some(17.5),
                    ..
                },
                ..
            }
        ));
        assert!(validator_verdict(&scored, &checked(42, &[])).is_err());
        assert!(validator_verdict(&scored, &checked(42, &[("score.txt", "lots")])).is_err());
    }

    #[test]
    fn interactive_verdicts_follow_who_ended_first() {
        let spec = spec(false);
        let ok = outcome(RunStatus::Ok, Some(0));
        let crashed = outcome(RunStatus::Crashed, None);
        let fuel = outcome(RunStatus::FuelExhausted, None);
        let judged = |candidate: &Outcome, exit: i32, first: bool| {
            verdict(
                &interactive_verdict(&spec, candidate.clone(), &checked(exit, &[]), first).unwrap(),
            )
        };
        assert_eq!(judged(&ok, 42, false), Verdict::Accepted);
        assert_eq!(judged(&ok, 43, false), Verdict::WrongAnswer);
        assert_eq!(
            judged(&crashed, 43, true),
            Verdict::WrongAnswer,
            "the interactor rejected first"
        );
        assert_eq!(
            judged(&crashed, 43, false),
            Verdict::RunTimeError,
            "the submission crashed first"
        );
        assert_eq!(
            judged(&crashed, 42, true),
            Verdict::RunTimeError,
            "accepted, then crashed"
        );
        assert_eq!(judged(&fuel, 42, true), Verdict::TimeLimit);
        assert!(
            interactive_verdict(&spec, ok.clone(), &checked(3, &[]), true).is_err(),
            "a judge error"
        );
        let compile = outcome(RunStatus::CompileError, None);
        assert!(matches!(
            interactive_verdict(&spec, compile, &checked(42, &[]), false).unwrap(),
            CaseRun::CompileError(_)
        ));
    }
}
