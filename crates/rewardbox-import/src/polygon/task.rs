//! A Polygon package as a rewardbox task: a `code` task whose `tests.judge` carries the tests in
//! order, the testlib checker and interactor, and the groups as `subtasks`; its
//! `candidate_limits` are the testset's time limit (turned into fuel per language by the
//! runners' calibrated rates) and memory limit.

use crate::kattis::TaskShape;
use crate::kattis::task::shaped;
use crate::polygon::package::Package;
use rewardbox::Limits;
use rewardbox::candidates::limits_for_seconds;
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};

/// How long a checker or an interactor may run on one test, in seconds of fuel (Polygon gives
/// them their own limits, far above a solution's).
const CHECKER_SECONDS: f64 = 10.0;

/// What a checker or an interactor may use.
const CHECKER_MEMORY_MB: u64 = 1024;

/// The output a solution may write (Polygon sets none of its own).
pub const OUTPUT_BYTES: u64 = 64 << 20;

/// A program of the package's as the judge takes it.
fn testlib_program(program: &crate::kattis::program::Program) -> Value {
    json!({"language": program.language, "source": program.source, "convention": "testlib"})
}

/// `tests.judge` for the package; every test's input and answer must have been made
/// ([`super::complete_tests`]).
pub fn judge_tests(package: &Package) -> Result<Value, String> {
    let scored = package.scored();
    let mut cases = Vec::new();
    for case in &package.cases {
        let (Some(input), Some(answer)) = (&case.input, &case.answer) else {
            return Err(format!(
                "{}: its input or answer has not been made (generate the tests first)",
                case.name
            ));
        };
        let mut item = json!({"name": case.name, "input": input, "answer": answer});
        if let Some(group) = &case.group {
            item["group"] = json!(group);
        }
        if case.points > 0.0 {
            item["points"] = json!(case.points);
        }
        cases.push(item);
    }
    let mut subtasks = Vec::new();
    if package.cases.iter().any(|c| c.group.is_none()) {
        // Tests without a group: each worth its points, judged first.
        subtasks.push(
            json!({"name": "", "policy": if scored { "each-test" } else { "complete-group" }}),
        );
    }
    for group in &package.groups {
        // A group's points are its tests' (Polygon keeps them on the tests, the group's own
        // attribute their sum), else the group's own.
        let of_tests: f64 = package
            .cases
            .iter()
            .filter(|c| c.group.as_deref() == Some(group.name.as_str()))
            .map(|c| c.points)
            .sum();
        let points = if of_tests > 0.0 {
            of_tests
        } else {
            group.points
        };
        subtasks.push(json!({
            "name": group.name,
            "points": points,
            "policy": if group.complete { "complete-group" } else { "each-test" },
            "dependencies": group.dependencies,
        }));
    }
    let mut judge = Map::new();
    judge.insert(
        "type".into(),
        json!(if scored { "scoring" } else { "pass-fail" }),
    );
    judge.insert("cases".into(), Value::Array(cases));
    judge.insert("subtasks".into(), Value::Array(subtasks));
    if let Some(checker) = &package.checker {
        judge.insert("output_validator".into(), testlib_program(checker));
    }
    if let Some(interactor) = &package.interactor {
        judge.insert("interactor".into(), testlib_program(interactor));
    }
    let checking = package.checker.iter().chain(&package.interactor);
    if let Some(language) = checking
        .clone()
        .next()
        .and_then(|p| Language::parse(p.language))
    {
        let limits = limits_for_seconds(language, CHECKER_SECONDS, Limits::default());
        judge.insert(
            "validator_limits".into(),
            json!({"fuel": limits.fuel, "wall_ms": limits.wall_ms, "memory_mb": CHECKER_MEMORY_MB}),
        );
    }
    Ok(Value::Object(judge))
}

/// The task for `package` shaped as `shape` says.
pub fn task(package: &Package, shape: TaskShape<'_>) -> Result<Value, String> {
    let mut task = Map::new();
    task.insert("id".into(), json!(shape.id));
    task.insert("verifier".into(), json!("code"));
    task.insert("language".into(), json!(shape.language));
    if let Some(title) = &package.title {
        task.insert("name".into(), json!(title));
    }
    task.insert("tests".into(), json!({"judge": judge_tests(package)?}));
    shaped(
        &mut task,
        shape,
        package.memory_bytes.div_ceil(1 << 20),
        OUTPUT_BYTES,
    );
    Ok(Value::Object(task))
}
