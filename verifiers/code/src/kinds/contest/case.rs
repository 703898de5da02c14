//! One test case of a contest problem, judged as problemtools judges it: the submission run on
//! the input, then its output checked by the default validator or the problem's own; or, for an
//! interactive problem, the submission and the interactor run together. The problem's programs
//! run in sandboxes of their own, never the submission's.

use crate::kinds::contest::default_validator::{self, Flags};
use crate::kinds::contest::grader::{Graded, JudgeError, Verdict};
use crate::kinds::contest::spec::{JudgeCase, JudgeSpec, ProblemProgram};
use crate::sandbox::{
    CaseStatus, CheckerFile, CheckerOutcome, GradeError, Outcome, RunStatus, Sandbox,
};

/// Where a checker finds the case's input file.
pub const INPUT_FILE: &str = "/data/input.in";
/// Where a checker finds the case's answer file.
pub const ANSWER_FILE: &str = "/data/answer.ans";
/// The directory a checker writes its feedback to (with the separator the format asks for).
pub const FEEDBACK_DIR: &str = "/feedback/";

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
fn checker_files(case: &JudgeCase) -> Vec<CheckerFile> {
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
pub fn judge_case(
    spec: &JudgeSpec,
    language: &str,
    program: &str,
    case: &JudgeCase,
    flags: &[String],
    sandbox: &dyn Sandbox,
) -> Result<CaseRun, GradeError> {
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
        if interaction.deadlock {
            // Both waited for the other: a native judge's wall clock ends it, as too slow.
            return Ok(CaseRun::Judged {
                graded: Graded {
                    verdict: Verdict::TimeLimit,
                    score: None,
                },
                status: CaseStatus::Timeout,
                detail: "deadlock: the program and the interactor both waited for the other's \
                         output (a native judge's time limit)"
                    .into(),
            });
        }
        return interactive_verdict(
            spec,
            interaction.candidate,
            &interaction.interactor,
            interaction.interactor_first,
        );
    }
    let outcome = sandbox.run(language, program, &case.input);
    if let Some(run) = submission_failure(&outcome)? {
        return Ok(run);
    }
    match &spec.output_validator {
        None => {
            let flags = Flags::parse(flags).map_err(|e| {
                GradeError::InvalidTask(format!("\"tests.judge.validator_flags\": {e}"))
            })?;
            Ok(
                match default_validator::judge(
                    case.answer.as_bytes(),
                    outcome.stdout.as_bytes(),
                    &flags,
                ) {
                    default_validator::Judgement::Accepted => accepted(None),
                    default_validator::Judgement::Wrong(message) => wrong(message),
                },
            )
        }
        Some(validator) => {
            let checked = run_validator(spec, validator, &outcome.stdout, case, flags, sandbox);
            validator_verdict(spec, &checked).map_err(judge_error)
        }
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
fn submission_failure(outcome: &Outcome) -> Result<Option<CaseRun>, GradeError> {
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

    fn verdict(run: &CaseRun) -> Verdict {
        match run {
            CaseRun::Judged { graded, .. } => graded.verdict,
            CaseRun::CompileError(_) => panic!("a compile error"),
        }
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
