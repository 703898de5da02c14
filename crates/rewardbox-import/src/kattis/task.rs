//! A package as a rewardbox task: a `code` task whose `tests.judge` carries the cases, the groups'
//! settings, the validator and its limits, and whose `candidate_limits` are the problem's time
//! limit (turned into fuel per language by the runners' calibrated rates), memory and output.

use crate::kattis::package::Package;
use rewardbox::Limits;
use rewardbox::candidates::limits_for_seconds;
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};

/// The settings of `testdata.yaml` that the judge reads; the rest (`input_validator_flags`) do
/// not change a verdict.
const GROUP_SETTINGS: [&str; 8] = [
    "on_reject",
    "grading",
    "grader_flags",
    "accept_score",
    "reject_score",
    "range",
    "output_validator_flags",
    "input_validator_flags",
];

/// The groups' settings as `tests.judge.groups` takes them; an unknown setting is refused, naming
/// its file (judging without it could give another verdict than the package's judge).
fn groups(package: &Package) -> Result<Map<String, Value>, String> {
    let mut out = Map::new();
    let mut root = package.groups.get("").cloned().unwrap_or_default();
    for (key, value) in &package.metadata.legacy_root_group {
        root.insert(key.clone(), value.clone());
    }
    let listed = package
        .groups
        .iter()
        .filter(|(name, _)| !name.is_empty())
        .map(|(name, settings)| (name.as_str(), settings.clone()))
        .chain((!root.is_empty()).then_some(("", root)));
    for (name, settings) in listed {
        let mut kept = Map::new();
        for (key, value) in settings {
            if !GROUP_SETTINGS.contains(&key.as_str()) {
                let file = if name.is_empty() {
                    "data/testdata.yaml".to_string()
                } else {
                    format!("data/{name}/testdata.yaml")
                };
                return Err(format!(
                    "{file}: {key:?} is not a test group setting rewardbox judges by ({})",
                    GROUP_SETTINGS.join(", ")
                ));
            }
            if key != "input_validator_flags" {
                // Numbers and ranges as YAML wrote them; the verifier reads both forms.
                kept.insert(key, value);
            }
        }
        out.insert(name.to_string(), Value::Object(kept));
    }
    Ok(out)
}

/// The rewardbox language of a package program's language name.
fn language(name: &str) -> Option<Language> {
    Language::parse(name)
}

/// `tests.judge` for the package.
pub fn judge_tests(package: &Package) -> Result<Value, String> {
    let m = &package.metadata;
    let cases: Vec<Value> = package
        .cases
        .iter()
        .map(|c| json!({"name": c.name, "input": c.input, "answer": c.answer}))
        .collect();
    let mut judge = Map::new();
    judge.insert(
        "type".into(),
        json!(if m.scoring { "scoring" } else { "pass-fail" }),
    );
    judge.insert("cases".into(), Value::Array(cases));
    let groups = groups(package)?;
    if !groups.is_empty() {
        judge.insert("groups".into(), Value::Object(groups));
    }
    if !m.validator_flags.trim().is_empty() {
        judge.insert("validator_flags".into(), json!(m.validator_flags));
    }
    if let Some(validator) = &package.validator {
        judge.insert(
            "output_validator".into(),
            json!({"language": validator.language, "source": validator.source}),
        );
        let seconds = language(validator.language)
            .map(|l| limits_for_seconds(l, m.validation_time, Limits::default()));
        let mut limits = Map::new();
        if let Some(limits_in_fuel) = seconds {
            limits.insert("fuel".into(), json!(limits_in_fuel.fuel));
            limits.insert("wall_ms".into(), json!(limits_in_fuel.wall_ms));
        }
        limits.insert("memory_mb".into(), json!(m.validation_memory_mb));
        limits.insert("output_bytes".into(), json!(m.validation_output_mb << 20));
        judge.insert("validator_limits".into(), Value::Object(limits));
    }
    if m.interactive {
        judge.insert("interactive".into(), json!(true));
    }
    if m.custom_score {
        judge.insert("custom_score".into(), json!(true));
    }
    Ok(Value::Object(judge))
}

/// What a task made from a package carries besides its tests.
#[derive(Debug, Clone)]
pub struct TaskShape<'a> {
    /// The task's `id`.
    pub id: String,
    /// The candidates' language (rewardbox's name).
    pub language: &'a str,
    /// The time limit, in seconds: fuel per language at the runners' calibrated rates.
    pub time_limit: f64,
    /// The completions (empty: none yet).
    pub completions: Vec<String>,
    /// The completions are programs as they are, not a model's text (`"extract": "whole"`): only
    /// for tasks judged in place (`--verify`), never for tasks written out, which take a
    /// completion as every code task does.
    pub whole: bool,
    /// A known accepted program, for `rewardbox audit`.
    pub solution: Option<String>,
}

/// The task for `package` shaped as `shape` says.
pub fn task(package: &Package, shape: TaskShape<'_>) -> Result<Value, String> {
    let m = &package.metadata;
    let mut task = Map::new();
    task.insert("id".into(), json!(shape.id));
    task.insert("verifier".into(), json!("code"));
    task.insert("language".into(), json!(shape.language));
    if let Some(name) = &m.name {
        task.insert("name".into(), json!(name));
    }
    task.insert("tests".into(), json!({"judge": judge_tests(package)?}));
    shaped(&mut task, shape, m.memory_mb, m.output_mb << 20);
    Ok(Value::Object(task))
}

/// Adds what `shape` says to `task`: its candidate limits (the time limit, `memory_mb`,
/// `output_bytes`), whether it extracts the whole completion, its solution and its completions.
pub(crate) fn shaped(
    task: &mut Map<String, Value>,
    shape: TaskShape<'_>,
    memory_mb: u64,
    output_bytes: u64,
) {
    task.insert(
        "candidate_limits".into(),
        json!({
            "wall_ms": (shape.time_limit * 1000.0).ceil() as u64,
            "memory_mb": memory_mb,
            "output_bytes": output_bytes,
        }),
    );
    if shape.whole {
        task.insert("extract".into(), json!("whole"));
    }
    if let Some(solution) = shape.solution {
        task.insert("solution".into(), json!(solution));
    }
    task.insert("completions".into(), json!(shape.completions));
}

/// A program as a model would write it: in a fenced block tagged with its language.
pub fn fenced(language: &str, source: &str) -> String {
    let fence = if source.contains("```") {
        "~~~~"
    } else {
        "```"
    };
    format!("{fence}{language}\n{source}\n{fence}")
}
