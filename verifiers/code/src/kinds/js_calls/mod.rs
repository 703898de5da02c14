//! JavaScript and TypeScript `call` tests whose values are more than JSON: a case's arguments and
//! expected value written with value JSON's tags ([`values::from_task`]: `NaN`, the infinities,
//! `-0`, `Set`, `Map`, `undefined`, BigInt, `Date`). Such a case's values cross to the live
//! candidate and back on the JavaScript runner's wire (`guests/js/src/wire.js`), which carries
//! every JavaScript value as itself, and its result is compared here, on the verifier's side, as
//! [`values::equal`] says; the candidate never sees the expected values.
//!
//! Plain JSON call tests keep their path (the runner's `call`, results as JSON text).

pub mod values;

use crate::compare::preview;
use crate::fields::CallCase;
use crate::kinds::served_calls::{self, Call, Server};
use crate::langs::js;
use crate::sandbox::{CaseResult, CaseStatus, GradeError, Sandbox};
use serde_json::{Value, json};
use values::JsValue;

/// Whether a call test in `language` takes this path: a JavaScript or TypeScript task one of
/// whose cases uses a tag.
pub fn takes(language: &str, cases: &[CallCase]) -> bool {
    matches!(language, "javascript" | "typescript")
        && cases
            .iter()
            .any(|c| c.args.iter().any(values::has_tags) || values::has_tags(&c.expected))
}

/// A case read as JavaScript values.
struct JsCase {
    call: Call,
    expected: JsValue,
}

/// The candidate's answer to one call.
enum Answer {
    Returned(JsValue),
    Threw(String),
    Malformed(String),
}

/// The wire's frame byte, which starts every message.
const FRAME: char = '\u{1e}';

fn read_cases(entry: &str, cases: &[CallCase]) -> Result<Vec<JsCase>, GradeError> {
    let invalid =
        |field: String, why: String| GradeError::InvalidTask(format!("\"{field}\" {why}"));
    cases
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let args = case
                .args
                .iter()
                .enumerate()
                .map(|(j, arg)| {
                    values::from_task(arg)
                        .map_err(|why| invalid(format!("tests.call.cases[{i}].args[{j}]"), why))
                })
                .collect::<Result<Vec<_>, _>>()?;
            let expected = values::from_task(&case.expected)
                .map_err(|why| invalid(format!("tests.call.cases[{i}].expected"), why))?;
            let message =
                json!({"f": entry, "a": args.iter().map(values::to_wire).collect::<Vec<_>>()});
            Ok(JsCase {
                call: Call {
                    message: format!("{FRAME}{message}\n").into_bytes(),
                    shown_args: args.iter().map(values::show).collect::<Vec<_>>().join(", "),
                },
                expected,
            })
        })
        .collect()
}

/// Grades `program` (JavaScript or TypeScript, as `language`) on calls of `entry`: one result per
/// case (`call 1`, `call 2`, ...).
pub fn grade(
    language: &str,
    program: &str,
    entry: &str,
    cases: &[CallCase],
    tolerance: Option<f64>,
    sandbox: &dyn Sandbox,
) -> Result<Vec<CaseResult>, GradeError> {
    if !js::is_identifier(entry) {
        return Err(GradeError::InvalidTask(format!(
            "\"tests.call.entry_point\" {entry:?} is not a JavaScript function name"
        )));
    }
    let cases = read_cases(entry, cases)?;
    let calls: Vec<&Call> = cases.iter().map(|c| &c.call).collect();
    let server = JsServer {
        entry,
        cases: &cases,
        tolerance,
    };
    served_calls::run(
        language,
        &js::candidate_program(program),
        entry,
        &calls,
        &server,
        sandbox,
    )
}

struct JsServer<'a> {
    entry: &'a str,
    cases: &'a [JsCase],
    tolerance: Option<f64>,
}

impl Server for JsServer<'_> {
    type Answer = Answer;

    fn answers(&self, stdout: &[u8]) -> Vec<Answer> {
        String::from_utf8_lossy(stdout)
            .lines()
            .filter_map(|line| line.split_once(FRAME).map(|(_, frame)| answer(frame)))
            .collect()
    }

    fn judge(&self, index: usize, answer: &Answer) -> (CaseStatus, String) {
        let case = &self.cases[index];
        let call = format!("{}({})", self.entry, preview(&case.call.shown_args));
        match answer {
            Answer::Returned(actual) if values::equal(actual, &case.expected, self.tolerance) => {
                (CaseStatus::Passed, "returned the expected value".into())
            }
            Answer::Returned(actual) => (
                CaseStatus::Wrong,
                format!(
                    "{call} returned {}, expected {}",
                    preview(&values::show(actual)),
                    preview(&values::show(&case.expected))
                ),
            ),
            Answer::Threw(what) => (
                CaseStatus::ExitedNonzero,
                format!("{call} threw: {}", preview(what)),
            ),
            Answer::Malformed(what) => (
                CaseStatus::Wrong,
                format!("{call}: the answer is malformed ({what})"),
            ),
        }
    }
}

/// One answer frame: `{"r": value}`, or `{"x": {"name", "message"}}` when the call threw.
fn answer(frame: &str) -> Answer {
    let Ok(Value::Object(reply)) = serde_json::from_str::<Value>(frame) else {
        return Answer::Malformed("not a JSON object".into());
    };
    if let Some(thrown) = reply.get("x") {
        let field = |key: &str| thrown.get(key).and_then(Value::as_str).unwrap_or("");
        return Answer::Threw(match (field("name"), field("message")) {
            ("", message) => message.to_string(),
            (name, "") => name.to_string(),
            (name, message) => format!("{name}: {message}"),
        });
    }
    match reply.get("r") {
        Some(value) => match values::from_wire(value) {
            Ok(value) => Answer::Returned(value),
            Err(what) => Answer::Malformed(what),
        },
        None => Answer::Malformed("neither a result nor an exception".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_results_exceptions_or_malformed() {
        let shown = |a: Answer| match a {
            Answer::Returned(v) => format!("returned {}", values::show(&v)),
            Answer::Threw(w) => format!("threw {w}"),
            Answer::Malformed(w) => format!("malformed {w}"),
        };
        let table = [
            (r#"{"r": {"s": [{"n": "NaN"}]}}"#, "returned Set(1) {NaN}"),
            (r#"{"r": {"u": 0}}"#, "returned undefined"),
            (
                r#"{"x": {"name": "RangeError", "message": "bad"}}"#,
                "threw RangeError: bad",
            ),
            (r#"{"x": {"name": "", "message": "3"}}"#, "threw 3"),
            (r#"{"r": {"zz": 1}}"#, "malformed the tag \"zz\" holding 1"),
            ("[1]", "malformed not a JSON object"),
            ("{}", "malformed neither a result nor an exception"),
        ];
        for (frame, expected) in table {
            assert_eq!(shown(answer(frame)), expected, "{frame}");
        }
    }

    #[test]
    fn only_javascript_tasks_with_a_tag_take_this_path() {
        let case = |args: Value, expected: Value| CallCase {
            args: args.as_array().unwrap().clone(),
            expected,
        };
        let tagged = [case(json!([1]), json!({"$f": "nan"}))];
        let plain = [case(json!([[1, 2]]), json!({"a": -0.0}))];
        assert!(takes("javascript", &tagged));
        assert!(takes("typescript", &tagged));
        assert!(!takes("javascript", &plain));
        assert!(!takes("python", &tagged));
    }
}
