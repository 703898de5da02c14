//! Calls of the entry point with expected values (`tests.call`), for the candidates whose runner
//! calls the function itself (Python): the program is executed once in a fresh sandbox and the
//! entry point called on each case's arguments; the values come back as JSON.

use crate::compare::{preview, values_equal};
use crate::fields::CallCase;
use crate::sandbox::{
    CaseResult, CaseStatus, GradeError, RunStatus, Sandbox, exit_detail, failure_status,
    unsupported,
};
use serde_json::Value;

/// Grades `program`'s entry point `entry` on the call `cases`.
pub fn grade(
    language: &str,
    program: &str,
    entry: &str,
    cases: &[CallCase],
    tolerance: Option<f64>,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let args: Vec<String> = cases
        .iter()
        .map(|c| Value::Array(c.args.clone()).to_string())
        .collect();
    let results = sandbox.call(language, program, entry, &args);
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
                    Ok(actual) if values_equal(&actual, &case.expected, tolerance) => {
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
