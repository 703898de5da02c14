//! `call` tests for compiled candidates (C, C++, Rust, Go): each case's arguments, read from the
//! task's JSON by the types the entry point's declaration gives, are sent to the candidate's
//! program over the typed wire of [`crate::kinds::test_code`], and each answer is read back by the
//! declared return type and compared with the expected value on this side.
//!
//! No trusted program is needed: the candidate's program (its source, then a server answering
//! calls of the entry point) runs with every call on its standard input ([`crate::kinds::served_calls`]).
//! The candidate sees the arguments it is called with, never the expected values.

pub mod cpp_any;
pub mod dynamic;
pub mod values;
pub mod wire;

use crate::compare::preview;
use crate::fields::CallCase;
use crate::kinds::served_calls::{self, Call, Server};
use crate::langs::structs;
use crate::langs::types::{self, Ty};
use crate::langs::{c, cpp, go, rust};
use crate::sandbox::{CaseResult, CaseStatus, GradeError, Sandbox};

use values::Val;
use wire::{Answer, Dialect};

/// A typed call test: the declaration that gives the entry point's types, and the cases.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedCalls<'a> {
    /// The candidate's language (`c`, `cpp`, `rust`, `rust-release`, `go`).
    pub language: &'a str,
    /// The entry point's declaration (`tests.declaration`).
    pub declaration: &'a str,
    /// The function called.
    pub entry_point: &'a str,
    /// The cases.
    pub cases: &'a [CallCase],
    /// Go: import the standard packages the program uses (`tests.add_imports`).
    pub add_imports: bool,
    /// Floats within this tolerance are equal.
    pub tolerance: Option<f64>,
    /// No expected values: each call that returns passes, its detail the value as JSON
    /// ([`values::to_json`]).
    pub record: bool,
}

/// The languages whose candidates take typed call tests.
pub fn takes_typed_calls(language: &str) -> bool {
    matches!(language, "c" | "cpp" | "rust" | "rust-release" | "go")
}

/// The entry point's parameter and result types as its declaration writes them (a struct the
/// declaration defines typed as its fields).
struct EntryPoint {
    dialect: Dialect,
    parameters: Vec<Ty>,
    results: Vec<Ty>,
}

impl EntryPoint {
    fn read(language: &str, declaration: &str, entry: &str) -> Result<EntryPoint, String> {
        match language {
            // C's server speaks the C++ wire's tokens.
            "c" => {
                let plan = c::CallPlan::read(declaration, entry)?;
                Ok(EntryPoint {
                    dialect: Dialect::Cpp,
                    parameters: plan.parameter_types(),
                    results: vec![plan.result_type()],
                })
            }
            "cpp" => {
                let found = cpp::entry_types(declaration, entry)?;
                let aliases = types::cpp_aliases(&found.prefix);
                let structs = structs::cpp::read(&found.prefix);
                let ty = |text: &str| types::cpp_with_structs(text, &aliases, &structs);
                let parameters = found
                    .parameters
                    .iter()
                    .map(|p| ty(p))
                    .collect::<Result<_, _>>()?;
                let results = vec![ty(&found.returns)?];
                Ok(EntryPoint {
                    dialect: Dialect::Cpp,
                    parameters,
                    results,
                })
            }
            "rust" | "rust-release" => {
                let (parameters, returns) = rust::entry_types(declaration, entry)?;
                let structs = structs::rust::read(rust::prefix(declaration, entry)?);
                let ty = |text: &str| types::rust_with_structs(text, &structs);
                let parameters = parameters.iter().map(|p| ty(p)).collect::<Result<_, _>>()?;
                let results = vec![ty(&returns)?];
                Ok(EntryPoint {
                    dialect: Dialect::Rust,
                    parameters,
                    results,
                })
            }
            "go" => {
                let (parameters, results) = go::entry_types(declaration, entry)?;
                let structs = structs::go::read(go::prefix(declaration, entry)?);
                let ty = |text: &str| types::go_with_structs(text, &structs);
                let parameters = parameters.iter().map(|p| ty(p)).collect::<Result<_, _>>()?;
                let results = results.iter().map(|r| ty(r)).collect::<Result<_, _>>()?;
                Ok(EntryPoint {
                    dialect: Dialect::Go,
                    parameters,
                    results,
                })
            }
            other => Err(format!("{other} candidates do not take typed call tests")),
        }
    }
}

/// The candidate's program with its server. A `main` of the candidate's own (a program that
/// tried itself on an example) is renamed out of the way of the server's; Go's runs after the
/// server has ended the program.
fn candidate(calls: &TypedCalls, program: &str) -> Result<String, String> {
    match calls.language {
        "c" => Ok(c::candidate_program(
            program,
            &c::CallPlan::read(calls.declaration, calls.entry_point)?,
        )),
        "cpp" => cpp::candidate_program(
            &format!("#define main rewardbox_candidate_main\n{program}\n#undef main\n"),
            calls.declaration,
            calls.entry_point,
        ),
        "rust" | "rust-release" => rust::candidate_program(
            &rust::without_main(program),
            calls.declaration,
            calls.entry_point,
            &[],
        ),
        _ => go::candidate_program(program, calls.entry_point, &[], calls.add_imports),
    }
}

/// A case read by the declared types.
struct TypedCase {
    call: Call,
    expected: Vec<Val>,
}

fn typed_cases(
    calls: &TypedCalls,
    dialect: Dialect,
    parameters: &[Ty],
    results: &[Ty],
) -> Result<Vec<TypedCase>, GradeError> {
    let invalid =
        |field: String, why: String| GradeError::InvalidTask(format!("\"{field}\" {why}"));
    calls
        .cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            if case.args.len() != parameters.len() {
                return Err(invalid(
                    format!("tests.call.cases[{i}].args"),
                    format!(
                        "has {} arguments, and `{}` takes {}",
                        case.args.len(),
                        calls.entry_point,
                        parameters.len()
                    ),
                ));
            }
            let args = case
                .args
                .iter()
                .zip(parameters)
                .enumerate()
                .map(|(j, (json, ty))| {
                    values::from_json(json, ty)
                        .map_err(|why| invalid(format!("tests.call.cases[{i}].args[{j}]"), why))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let expected = match results {
                _ if calls.record => Vec::new(),
                [] => match &case.expected {
                    serde_json::Value::Null => Vec::new(),
                    _ => {
                        return Err(invalid(
                            format!("tests.call.cases[{i}].expected"),
                            "must be null: the function returns nothing".into(),
                        ));
                    }
                },
                [one] => vec![
                    values::from_json(&case.expected, one)
                        .map_err(|why| invalid(format!("tests.call.cases[{i}].expected"), why))?,
                ],
                several => {
                    let items = case
                        .expected
                        .as_array()
                        .filter(|a| a.len() == several.len());
                    let Some(items) = items else {
                        return Err(invalid(
                            format!("tests.call.cases[{i}].expected"),
                            format!("must be a list of the function's {} results", several.len()),
                        ));
                    };
                    items
                        .iter()
                        .zip(several)
                        .map(|(json, ty)| values::from_json(json, ty))
                        .collect::<Result<_, _>>()
                        .map_err(|why| invalid(format!("tests.call.cases[{i}].expected"), why))?
                }
            };
            let message = wire::call_message(dialect, &args, parameters)
                .map_err(|why| invalid(format!("tests.call.cases[{i}].args"), why))?;
            Ok(TypedCase {
                call: Call {
                    message,
                    shown_args: show_all(&args, parameters),
                },
                expected,
            })
        })
        .collect()
}

/// `values` of `types`, shown one after the other: `1, "a"`.
fn show_all(values: &[Val], types: &[Ty]) -> String {
    values
        .iter()
        .zip(types)
        .map(|(v, t)| values::show(v, t))
        .collect::<Vec<_>>()
        .join(", ")
}

fn show_results(values: &[Val], results: &[Ty]) -> String {
    match (values, results) {
        ([], _) => "nothing".into(),
        ([one], [ty]) => values::show(one, ty),
        _ => format!("({})", show_all(values, results)),
    }
}

/// Grades `program` on typed call tests: one result per case (`call 1`, `call 2`, ...).
pub fn grade(
    calls: &TypedCalls,
    program: &str,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    let entry =
        EntryPoint::read(calls.language, calls.declaration, calls.entry_point).map_err(|why| {
            GradeError::InvalidTask(format!(
                "\"tests.declaration\" cannot type the calls of `{}`: {why}",
                calls.entry_point
            ))
        })?;
    let (dialect, parameters) = (entry.dialect, &entry.parameters);
    let mut results = entry.results.clone();
    if results == [Ty::Unit] {
        results.clear();
    }
    let cases = typed_cases(calls, dialect, parameters, &results)?;
    let source = candidate(calls, program).map_err(|why| {
        GradeError::InvalidTask(format!(
            "\"tests.declaration\" cannot serve calls of `{}`: {why}",
            calls.entry_point
        ))
    })?;
    let wire_calls: Vec<&Call> = cases.iter().map(|c| &c.call).collect();
    let server = TypedServer {
        calls,
        dialect,
        cases: &cases,
        results: &results,
    };
    served_calls::run(
        calls.language,
        &source,
        calls.entry_point,
        &wire_calls,
        &server,
        sandbox,
    )
}

/// The typed wire's answers, read by the declared result types.
struct TypedServer<'a> {
    calls: &'a TypedCalls<'a>,
    dialect: Dialect,
    cases: &'a [TypedCase],
    results: &'a [Ty],
}

impl Server for TypedServer<'_> {
    type Answer = Answer;

    fn answers(&self, stdout: &[u8]) -> Vec<Answer> {
        wire::answers(self.dialect, stdout, self.results)
    }

    fn judge(&self, index: usize, answer: &Answer) -> (CaseStatus, String) {
        judge(self.calls, &self.cases[index], answer, self.results)
    }
}

fn judge(
    calls: &TypedCalls,
    case: &TypedCase,
    answer: &Answer,
    results: &[Ty],
) -> (CaseStatus, String) {
    let call = format!("{}({})", calls.entry_point, preview(&case.call.shown_args));
    match answer {
        Answer::Returned(actual) if calls.record => {
            let written = match (actual.as_slice(), results) {
                ([], _) => Some(serde_json::Value::Null),
                ([one], [ty]) => values::to_json(one, ty),
                _ => actual
                    .iter()
                    .zip(results)
                    .map(|(v, ty)| values::to_json(v, ty))
                    .collect::<Option<Vec<_>>>()
                    .map(serde_json::Value::Array),
            };
            match written {
                Some(json) => (CaseStatus::Passed, json.to_string()),
                None => (
                    CaseStatus::Wrong,
                    format!(
                        "{call} returned {}, which JSON cannot carry",
                        preview(&show_results(actual, results))
                    ),
                ),
            }
        }
        Answer::Returned(actual) => {
            let same = actual.len() == case.expected.len()
                && actual
                    .iter()
                    .zip(&case.expected)
                    .zip(results)
                    .all(|((a, e), ty)| values::equal(a, e, ty, calls.tolerance));
            if same {
                (CaseStatus::Passed, "returned the expected value".into())
            } else {
                (
                    CaseStatus::Wrong,
                    format!(
                        "{call} returned {}, expected {}",
                        preview(&show_results(actual, results)),
                        preview(&show_results(&case.expected, results))
                    ),
                )
            }
        }
        // C has no exceptions: its server refuses an answer it cannot write (a NULL string).
        Answer::Threw(what) if calls.language == "c" => {
            (CaseStatus::Wrong, format!("{call} {}", preview(what)))
        }
        Answer::Threw(what) => (
            CaseStatus::ExitedNonzero,
            format!("{call} threw: {}", preview(what)),
        ),
        Answer::Malformed(what) => (
            CaseStatus::Wrong,
            format!("{call}: the answer is not a value of the declared type ({what})"),
        ),
    }
}
