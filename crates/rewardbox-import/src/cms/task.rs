//! An IOI/CMS task as a rewardbox task: a `code` task whose `tests.judge` carries every test of
//! every subtask (a test in two subtasks is judged in each, as CMS scores it in each), CMS's
//! checker or white diff, the grader or the manager with its stubs and header, and the subtasks
//! as `group-min` (CMS's TPS loader's score type), or one `sum` subtask of 100 points when the
//! task has none.

use crate::cms::package::{Task, TaskType};
use crate::kattis::TaskShape;
use crate::kattis::task::shaped;
use rewardbox::Limits;
use rewardbox::candidates::limits_for_seconds;
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};

/// How long a checker, grader or manager may run on one test, in seconds of fuel.
const JURY_SECONDS: f64 = 10.0;

/// What a checker, grader or manager may use.
const JURY_MEMORY_MB: u64 = 1024;

/// The output a submission may write.
pub const OUTPUT_BYTES: u64 = 64 << 20;

/// The languages `task`'s submissions may be written in (`None`: any).
pub fn languages(task: &Task) -> Option<Vec<&'static str>> {
    match &task.task_type {
        TaskType::Batch { grader: Some(_) } => Some(vec!["cpp"]),
        TaskType::Communication { stubs, .. } if !stubs.is_empty() => {
            Some(stubs.iter().map(|(l, _)| *l).collect())
        }
        _ => None,
    }
}

/// `tests.judge` for `task`.
pub fn judge_tests(task: &Task) -> Value {
    let mut cases = Vec::new();
    let mut subtasks = Vec::new();
    if task.subtasks.is_empty() {
        let each = 100.0 / task.cases.len() as f64;
        for case in &task.cases {
            cases.push(
                json!({"name": case.codename, "input": case.input, "answer": case.answer,
                              "group": "all", "points": each}),
            );
        }
        subtasks.push(json!({"name": "all", "policy": "sum"}));
    } else {
        for subtask in &task.subtasks {
            for codename in &subtask.tests {
                let case = task
                    .cases
                    .iter()
                    .find(|c| &c.codename == codename)
                    .expect("the subtasks were checked against the tests");
                cases.push(json!({"name": format!("{}/{codename}", subtask.name),
                                  "input": case.input, "answer": case.answer,
                                  "group": subtask.name}));
            }
            // A subtask without tests scores nothing in CMS: it is left out here.
            if !subtask.tests.is_empty() {
                subtasks.push(json!({"name": subtask.name, "points": subtask.score,
                                     "policy": "group-min"}));
            }
        }
    }
    let mut judge = Map::new();
    judge.insert("type".into(), json!("scoring"));
    judge.insert("cases".into(), Value::Array(cases));
    judge.insert("subtasks".into(), Value::Array(subtasks));
    match &task.checker {
        Some(checker) => {
            judge.insert(
                "output_validator".into(),
                json!({"language": checker.language, "source": checker.source, "convention": "cms"}),
            );
        }
        None => {
            judge.insert("comparison".into(), json!("white-diff"));
        }
    }
    if let Some((name, source)) = &task.header {
        judge.insert("header".into(), json!({"name": name, "source": source}));
    }
    match &task.task_type {
        TaskType::Batch {
            grader: Some(grader),
        } => {
            judge.insert(
                "grader".into(),
                json!({"language": "cpp", "source": grader}),
            );
        }
        TaskType::Batch { grader: None } => {}
        TaskType::Communication {
            manager,
            processes,
            stubs,
        } => {
            judge.insert(
                "manager".into(),
                json!({"language": manager.language, "source": manager.source,
                       "convention": "cms", "processes": processes}),
            );
            if !stubs.is_empty() {
                let stubs: Map<String, Value> = stubs
                    .iter()
                    .map(|(language, source)| (language.to_string(), json!(source)))
                    .collect();
                judge.insert("stubs".into(), Value::Object(stubs));
            }
        }
    }
    let limits = limits_for_seconds(Language::Cpp, JURY_SECONDS, Limits::default());
    judge.insert(
        "validator_limits".into(),
        json!({"fuel": limits.fuel, "wall_ms": limits.wall_ms, "memory_mb": JURY_MEMORY_MB}),
    );
    Value::Object(judge)
}

/// The task for `task` shaped as `shape` says.
pub fn task(task: &Task, shape: TaskShape<'_>) -> Value {
    let mut out = Map::new();
    out.insert("id".into(), json!(shape.id));
    out.insert("verifier".into(), json!("code"));
    out.insert("language".into(), json!(shape.language));
    if let Some(title) = &task.title {
        out.insert("name".into(), json!(title));
    }
    out.insert("tests".into(), json!({"judge": judge_tests(task)}));
    shaped(&mut out, shape, task.memory_mb, OUTPUT_BYTES);
    Value::Object(out)
}
