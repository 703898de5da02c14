//! Judging a completion: find its program ([`find_program`]), then grade it on the task's tests
//! by their kind ([`crate::kinds`]) through a [`Sandbox`]: every candidate run happens in a fresh
//! sandbox the host creates; the tests and expected values stay on this side.

use crate::fields::{Extract, Scoring};
use crate::harness;
use crate::kinds;
use crate::sandbox::{CaseResult, CaseStatus, GradeError, Sandbox};
use crate::spec::{Spec, Tests};
use guest_common::{FieldError, TaskFields};
use serde_json::json;

/// Where the program in a completion came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Program {
    /// A fenced block, or the whole text when it compiles.
    Found(String),
    /// No fenced block, and the text does not compile.
    NotFound,
}

/// Finds the program: the last fenced block in the language, else the last fenced block, else the
/// whole completion when it compiles (asked of a sandboxed runner; it is not run).
pub fn find_program(completion: &str, language: &str, sandbox: &dyn Sandbox) -> Program {
    if let Some(program) = rewardbox_languages::fences::fenced_program(completion, language) {
        return Program::Found(program);
    }
    if completion.trim().is_empty() {
        return Program::NotFound;
    }
    if language != "python" {
        // Only Python can be checked for syntax without running it: a compiled language's
        // unfenced completion is compiled as it is, and a compile error says what was wrong.
        return Program::Found(completion.to_string());
    }
    let arg = serde_json::json!([completion]).to_string();
    match sandbox
        .call(language, harness::SYNTAX_CHECK, "ok", &[arg])
        .pop()
    {
        Some(Ok(answer)) if answer == "true" => Program::Found(completion.to_string()),
        _ => Program::NotFound,
    }
}

/// A task's `prelude` must compile and run alone (the same run for every completion of the
/// task: the host remembers it); else the task is `invalid_task`, never the candidate's 0.
fn check_prelude(prelude: &str, sandbox: &dyn Sandbox) -> Result<(), GradeError> {
    let arg = json!([prelude]).to_string();
    let failed = |why: String| GradeError::InvalidTask(format!("\"prelude\" {why}"));
    match sandbox
        .call("python", harness::PRELUDE_CHECK, "why", &[arg])
        .pop()
    {
        Some(Ok(answer)) => match serde_json::from_str::<String>(&answer) {
            Ok(why) if why.is_empty() => Ok(()),
            Ok(why) => Err(failed(why)),
            Err(_) => Err(GradeError::Failed(format!(
                "the prelude check answered {answer}, not a string"
            ))),
        },
        Some(Err(outcome)) if outcome.status == crate::sandbox::RunStatus::Unsupported => {
            Err(crate::sandbox::unsupported(&outcome))
        }
        Some(Err(outcome)) => Err(failed(format!(
            "does not run alone within the limits: {}",
            crate::sandbox::exit_detail(&outcome)
        ))),
        None => Err(GradeError::Failed(
            "the prelude check gave no answer".into(),
        )),
    }
}

/// The verdict on one completion.
#[derive(Debug, Clone, PartialEq)]
pub struct Judgement {
    /// In [0, 1].
    pub score: f64,
    /// Every case passed.
    pub passed: bool,
    /// A summary.
    pub detail: String,
    /// Per-case results.
    pub cases: Vec<CaseResult>,
}

/// Judges a completion through `sandbox`.
pub fn judge(
    task: &TaskFields,
    completion: &str,
    sandbox: &dyn Sandbox,
) -> Result<Judgement, GradeError> {
    let spec = Spec::from_task(task).map_err(|e: FieldError| GradeError::InvalidTask(e.0))?;
    let found = match spec.extract {
        Extract::Fenced => find_program(completion, &spec.language, sandbox),
        Extract::Whole => Program::Found(completion.to_string()),
    };
    let program = match found {
        Program::Found(p) if spec.prelude.is_empty() => p,
        Program::Found(p) => {
            check_prelude(&spec.prelude, sandbox)?;
            format!("{}\n{p}", spec.prelude)
        }
        Program::NotFound => {
            return Ok(Judgement {
                score: 0.0,
                passed: false,
                detail: "no code found in the completion (no fenced block, and the text does not compile)".into(),
                cases: vec![CaseResult { id: "program".into(), status: CaseStatus::NoCodeFound, detail: "no code found".into() }],
            });
        }
    };
    if let Tests::Judge(problem) = &spec.tests {
        let verdict = kinds::contest::judge_program(
            problem,
            spec.scoring,
            &spec.language,
            &program,
            sandbox,
        )?;
        return Ok(Judgement {
            score: verdict.score,
            passed: verdict.passed,
            detail: verdict.detail,
            cases: verdict.cases,
        });
    }
    let cases = grade(&spec, &program, sandbox)?;
    let passed_count = cases
        .iter()
        .filter(|c| c.status == CaseStatus::Passed)
        .count();
    let all = passed_count == cases.len();
    let score = match spec.scoring.unwrap_or(Scoring::Fraction) {
        Scoring::Fraction => passed_count as f64 / cases.len() as f64,
        Scoring::All => f64::from(u8::from(all)),
    };
    let first_failure = cases.iter().find(|c| c.status != CaseStatus::Passed);
    let detail = match first_failure {
        None => format!("{passed_count}/{} cases passed", cases.len()),
        Some(f) => format!(
            "{passed_count}/{} cases passed; {}: {}",
            cases.len(),
            f.id,
            f.detail
        ),
    };
    Ok(Judgement {
        score,
        passed: all,
        detail,
        cases,
    })
}

/// Grades `program` on the spec's tests (all but `judge`, which [`kinds::contest`] grades).
pub fn grade(
    spec: &Spec,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    match &spec.tests {
        Tests::Stdio(cases) => kinds::stdio::grade(
            &spec.language,
            program,
            cases,
            spec.output_rule,
            spec.scoring == Some(Scoring::All),
            sandbox,
        ),
        Tests::Call {
            entry_point,
            cases,
            declaration: Some(declaration),
            add_imports,
            record,
        } => kinds::typed_calls::grade(
            &kinds::typed_calls::TypedCalls {
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
        } if kinds::js_calls::takes(&spec.language, cases) => kinds::js_calls::grade(
            &spec.language,
            program,
            entry_point,
            cases,
            spec.float_tolerance,
            sandbox,
        ),
        Tests::Call {
            entry_point, cases, ..
        } => kinds::calls::grade(
            &spec.language,
            program,
            entry_point,
            cases,
            spec.float_tolerance,
            sandbox,
        ),
        Tests::Program(tests) => kinds::test_code::grade(&spec.language, tests, program, sandbox),
        Tests::TestFile(tests) => kinds::test_files::grade(&spec.language, tests, program, sandbox),
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
                        "\"tests.reference\" fails its own tests: {}: {}",
                        case.id, case.detail
                    )));
                }
            }
            sandbox.check(source, &check, program)
        }
    }
}
