//! Programs reading stdin and writing stdout (`tests.stdio`): each case runs the program in a
//! fresh sandbox and compares its output by the task's rule (token by token, or line by line).

use crate::compare::{lines_match, preview, stdout_matches};
use crate::fields::{OutputRule, StdioCase};
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, RunStatus, Sandbox, compile_detail, exit_detail,
    failure_status, unsupported,
};

/// Grades `program` on the stdio `cases`.
pub fn grade(
    language: &str,
    program: &str,
    cases: &[StdioCase],
    rule: OutputRule,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let id = format!("stdio {}", i + 1);
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
            Ok(CaseResult { id, status, detail })
        })
        .collect()
}
