//! Programs reading stdin and writing stdout (`tests.stdio`): each case runs the program in a
//! fresh sandbox and compares its output by the task's rule (token by token, or line by line).

use crate::compare::{lines_match, preview, stdout_matches};
use crate::fields::{OutputRule, StdioCase};
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, RunStatus, Sandbox, compile_detail, exit_detail,
    failure_status, unsupported,
};

/// Grades `program` on the stdio `cases`. With `all_or_nothing` (the task's `"scoring": "all"`)
/// the cases after the first that fails are not run, as judges and LiveCodeBench's runner stop:
/// the score is 0 either way, and a program that loops costs one time limit, not one per case.
pub fn grade(
    language: &str,
    program: &str,
    cases: &[StdioCase],
    rule: OutputRule,
    all_or_nothing: bool,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let mut first_failure: Option<String> = None;
    cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let id = format!("stdio {}", i + 1);
            if let Some(failed) = &first_failure {
                return Ok(CaseResult {
                    id,
                    status: CaseStatus::Wrong,
                    detail: format!(
                        "not run: {failed} failed first, and the task scores all or nothing"
                    ),
                });
            }
            let outcome = sandbox.run(language, program, &case.stdin);
            let (status, detail) = match outcome.status {
                RunStatus::Unsupported => return Err(unsupported(&outcome)),
                RunStatus::CompileError => {
                    (CaseStatus::CompileError, compile_detail(&outcome.stderr))
                }
                RunStatus::Ok if outcome.exit_code.unwrap_or(0) == 0 => {
                    let matches = match rule {
                        OutputRule::Tokens { tolerance } => {
                            stdout_matches(&outcome.stdout, &case.stdout, tolerance)
                        }
                        OutputRule::Lines => lines_match(&outcome.stdout, &case.stdout),
                    };
                    if matches {
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
            if all_or_nothing && status != CaseStatus::Passed {
                first_failure = Some(id.clone());
            }
            Ok(CaseResult { id, status, detail })
        })
        .collect()
}
