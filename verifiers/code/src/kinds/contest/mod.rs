//! Contest problems (`tests.judge`): a submission judged case by case as the Kattis problem
//! package format judges it ([`case`]), the results made into a verdict by the test data tree
//! and its default grader ([`grader`]), read from the task by [`spec`].
//!
//! A pass-fail problem scores 1 when its root is accepted, else 0 (with `"scoring":
//! "fraction"`, the fraction of cases accepted, every case judged). A scoring problem scores its
//! root's score over the best score it can give, when the root is accepted, else 0 (with
//! `"scoring": "all"`, 1 for the best score only).

pub mod case;
pub mod cms;
pub mod default_validator;
pub mod functions;
pub mod grader;
pub mod scanf_float;
pub mod spec;
pub mod subtasks;

use crate::fields::Scoring;
use crate::sandbox::{CaseResult, CaseStatus, GradeError, Sandbox, compile_detail};
use case::{CaseRun, judge_case, validator_flags};
use grader::{Graded, JudgeError, Verdict, best_score, judge_tree};
use spec::{JudgeSpec, ProblemType};

/// A judged submission: its score, whether it passed, a summary and its cases' results.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeVerdict {
    /// In [0, 1].
    pub score: f64,
    /// Accepted with the best score.
    pub passed: bool,
    /// The verdict and what decided it.
    pub detail: String,
    /// The cases judged, in the order they were.
    pub cases: Vec<CaseResult>,
}

/// Judges `program` (in `language`) on the problem `spec`, scored as `scoring` says (`None`:
/// the problem type's default).
pub fn judge_program(
    spec: &JudgeSpec,
    scoring: Option<Scoring>,
    language: &str,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<JudgeVerdict, GradeError> {
    if !spec.subtasks.is_empty() {
        return judge_by_subtasks(spec, scoring, language, program, sandbox);
    }
    let scoring = scoring.unwrap_or(match spec.problem_type {
        ProblemType::PassFail => Scoring::All,
        ProblemType::Scoring => Scoring::Fraction,
    });
    // A record judges every case, as a pass-fail problem scored by fraction does.
    let judge_all =
        spec.record || (spec.problem_type == ProblemType::PassFail && scoring == Scoring::Fraction);
    let best = match spec.problem_type {
        ProblemType::Scoring => Some(best_score(spec).map_err(invalid)?),
        ProblemType::PassFail => None,
    };
    let group_flags = |group: &str| {
        let mut flags = None;
        let mut at = Some(group);
        while let (None, Some(g)) = (&flags, at) {
            flags = spec
                .groups
                .get(g)
                .and_then(|s| s.output_validator_flags.clone());
            at = (!g.is_empty()).then(|| g.rsplit_once('/').map_or("", |(p, _)| p));
        }
        flags.unwrap_or_default()
    };
    let mut cases = Vec::new();
    let mut compile_error = None;
    let mut failure = None;
    let result = judge_tree(spec, judge_all, &mut |_, case| {
        if compile_error.is_some() {
            return Err(JudgeError(String::new()));
        }
        let flags = validator_flags(spec, &group_flags(case.group()));
        match judge_case(spec, language, program, case, &flags, sandbox) {
            Ok(CaseRun::Judged {
                graded,
                status,
                detail,
            }) => {
                cases.push(CaseResult {
                    id: case.name.clone(),
                    status,
                    detail,
                });
                Ok(graded)
            }
            Ok(CaseRun::CompileError(outcome)) => {
                compile_error = Some(outcome);
                Err(JudgeError(String::new()))
            }
            Err(error) => {
                failure = Some(error);
                Err(JudgeError(String::new()))
            }
        }
    });
    if let Some(error) = failure {
        return Err(error);
    }
    if let Some(outcome) = compile_error {
        return Ok(compile_error_verdict(&outcome));
    }
    let tree = result.map_err(|e| GradeError::Failed(format!("judge error: {}", e.0)))?;
    let accepted_cases = cases
        .iter()
        .filter(|c| c.status == CaseStatus::Passed)
        .count();
    let root = tree.root;
    let (score, passed) = score(
        spec.problem_type,
        scoring,
        root,
        best,
        accepted_cases,
        cases.len(),
    );
    let mut detail = match (
        root.verdict,
        cases.iter().find(|c| c.status != CaseStatus::Passed),
    ) {
        (Verdict::Accepted, _) | (_, None) => {
            format!("{} ({} cases)", root.verdict.code(), cases.len())
        }
        (verdict, Some(first)) => format!("{} on {}: {}", verdict.code(), first.id, first.detail),
    };
    if let (Some(best), Some(got)) = (best, root.score) {
        detail.push_str(&format!("; score {} of {}", shown(got), shown(best)));
    }
    Ok(JudgeVerdict {
        score,
        passed,
        detail,
        cases,
    })
}

/// The verdict of a submission that does not compile.
fn compile_error_verdict(outcome: &crate::sandbox::Outcome) -> JudgeVerdict {
    let detail = compile_detail(&outcome.stderr);
    JudgeVerdict {
        score: 0.0,
        passed: false,
        detail: format!("CE: {detail}"),
        cases: vec![CaseResult {
            id: "compile".into(),
            status: CaseStatus::CompileError,
            detail,
        }],
    }
}

/// Judges a problem with Polygon's groups ([`subtasks`]): a scoring problem scores its points
/// over the best (`max_score`, else every subtask's), a pass-fail one 1 when every case is
/// accepted; `"scoring": "all"` scores 1 for the best points only.
fn judge_by_subtasks(
    spec: &JudgeSpec,
    scoring: Option<Scoring>,
    language: &str,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<JudgeVerdict, GradeError> {
    let pass_fail = spec.problem_type == ProblemType::PassFail;
    let points = match subtasks::judge_subtasks(spec, language, program, sandbox, pass_fail)? {
        subtasks::Judged::CompileError(outcome) => return Ok(compile_error_verdict(&outcome)),
        subtasks::Judged::Points(points) => points,
    };
    let best = spec.max_score.unwrap_or(points.best);
    let (score, passed) = match spec.problem_type {
        ProblemType::PassFail => {
            let passed = points.all_accepted();
            (f64::from(u8::from(passed)), passed)
        }
        ProblemType::Scoring => {
            let full = if best > 0.0 {
                points.earned >= best
            } else {
                points.all_accepted()
            };
            let fraction = if best > 0.0 {
                (points.earned / best).clamp(0.0, 1.0)
            } else {
                f64::from(u8::from(full))
            };
            match scoring.unwrap_or(Scoring::Fraction) {
                Scoring::All => (f64::from(u8::from(full)), full),
                Scoring::Fraction => (fraction, full),
            }
        }
    };
    let detail = match spec.problem_type {
        ProblemType::Scoring => points.detail(best),
        ProblemType::PassFail => points.verdict(),
    };
    Ok(JudgeVerdict {
        score,
        passed,
        detail,
        cases: points.cases,
    })
}

/// A score as a judge prints it: an integer when it is one, else at most six decimals (a sum
/// of checkers' points is not written with a float's rounding noise, `99.96000000000001`).
fn shown(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else if x.is_finite() && x.abs() < 1e15 {
        let fixed = format!("{x:.6}");
        let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
        trimmed.to_string()
    } else {
        format!("{x}")
    }
}

fn invalid(error: JudgeError) -> GradeError {
    GradeError::InvalidTask(error.0)
}

/// The score in [0, 1] and whether the submission passed.
fn score(
    problem: ProblemType,
    scoring: Scoring,
    root: Graded,
    best: Option<f64>,
    accepted_cases: usize,
    judged_cases: usize,
) -> (f64, bool) {
    let accepted = root.verdict == Verdict::Accepted;
    match (problem, scoring) {
        (ProblemType::PassFail, Scoring::All) => (f64::from(u8::from(accepted)), accepted),
        (ProblemType::PassFail, Scoring::Fraction) => {
            (accepted_cases as f64 / judged_cases.max(1) as f64, accepted)
        }
        (ProblemType::Scoring, scoring) => {
            let best = best.unwrap_or(1.0);
            let got = root.score.unwrap_or(0.0);
            let full = accepted && got >= best;
            let fraction = if accepted && best > 0.0 {
                (got / best).clamp(0.0, 1.0)
            } else {
                0.0
            };
            match scoring {
                Scoring::All => (f64::from(u8::from(full)), full),
                Scoring::Fraction => (fraction, full),
            }
        }
    }
}
