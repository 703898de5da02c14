//! `tests.judge`: a contest problem as the Kattis problem package format describes it, read from
//! the task with errors that name the field.
//!
//! ```json
//! {"judge": {
//!   "type": "pass-fail",
//!   "cases": [{"name": "secret/group1/01", "input": "3 4\n", "answer": "7\n"}],
//!   "groups": {"secret/group1": {"accept_score": 30, "grader_flags": "min"}},
//!   "validator_flags": "float_tolerance 1e-6",
//!   "output_validator": {"language": "cpp", "source": "..."},
//!   "interactive": false, "custom_score": false,
//!   "validator_limits": {"fuel": 100000000000, "memory_mb": 1024}
//! }}
//! ```
//!
//! A case's group is the path before its last `/` (`secret/group1`); groups nest by path under
//! the root (`""`), whose children are `sample` and `secret`. `groups` holds what a group's
//! `testdata.yaml` says; what it leaves out comes from its parent group, then from the format's
//! defaults, as problemtools merges them.
//!
//! Codeforces' Polygon packages are judged in the same form with three more settings: a
//! program's `"convention": "testlib"` (a testlib checker, `checker input output answer`, exit
//! codes 0 OK, 1 WA, 2 PE, 3 FAIL, 7 points), an `interactor` (a testlib interactor, its output
//! file then read by the checker) and `subtasks` (Polygon's groups: points, `complete-group` or
//! `each-test`, dependencies), whose cases name their subtask (`"group"`) and their `"points"`:
//!
//! ```json
//! {"judge": {
//!   "type": "scoring",
//!   "cases": [{"name": "tests/01", "input": "1 2\n", "answer": "3\n", "group": "1", "points": 0}],
//!   "output_validator": {"language": "cpp", "source": "#include \"testlib.h\" ...", "convention": "testlib"},
//!   "interactor": null,
//!   "subtasks": [{"name": "1", "points": 40, "policy": "complete-group", "dependencies": ["0"]}]
//! }}
//! ```

//! IOI/CMS tasks are judged in the same form too: a checker of CMS's convention (`"convention":
//! "cms"`: `checker input answer output`, the case's score in [0, 1] on its stdout's first line,
//! its message on stderr's), CMS's white-diff comparison when there is no checker
//! (`"comparison": "white-diff"`), a `manager` talking to `processes` instances of the submission
//! (a communication task; compiled with the language's `stubs` when given), a `grader` whose
//! functions the submission implements (the `header` names them; the grader runs in a sandbox of
//! its own and calls the submission's functions in another, see [`super::functions`]), and the
//! subtask policies of CMS's score types: `group-min`, `group-mul`, `sum`.
//!
//! `"record": true` judges every case (none skipped after a failure; a Polygon subtask whose
//! dependencies failed still is not judged) and writes each case's
//! detail as a JSON object for a tool that studies the submission (Tier 5's judge): `verdict`
//! (`AC`, `WA`, ...), `points` (the checker's or validator's score for the case, `null` when it
//! gave none), `output` (what the submission wrote: its output, to an interactor its side of
//! the conversation, where a grader calls it the grader's output, to a manager what its
//! processes said, each after a line `process <i>:` when there are several) and `detail` (the
//! usual text).
//!
//! ```json
//! {"judge": {
//!   "type": "scoring",
//!   "cases": [{"name": "01", "input": "3\n", "answer": "6\n", "group": "1"}],
//!   "comparison": "white-diff",
//!   "grader": {"language": "cpp", "source": "#include \"double.h\" ..."},
//!   "header": {"name": "double.h", "source": "int twice(int n);\n"},
//!   "subtasks": [{"name": "1", "points": 100, "policy": "group-min"}]
//! }}
//! ```

use guest_common::FieldError;
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// One test case: its input and the answer file the validator compares with.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeCase {
    /// Its path under `data/` without extension: `secret/group1/01`.
    pub name: String,
    /// The input file (the program's standard input; the interactor's `input` file).
    pub input: String,
    /// The answer file.
    pub answer: String,
    /// The subtask it belongs to (`subtasks`; `None`: none named).
    pub subtask: Option<String>,
    /// The points it is worth in an `each-test` subtask (Polygon's `points`).
    pub points: f64,
}

impl JudgeCase {
    /// The group the case belongs to (`""` for a case at the root).
    pub fn group(&self) -> &str {
        self.name.rsplit_once('/').map_or("", |(group, _)| group)
    }
}

/// What a group's `testdata.yaml` may set (each `None`: inherited).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct GroupSettings {
    /// `on_reject`: stop at the first case or subgroup that is not accepted (`true`, "break",
    /// the default), or judge the rest (`false`, "continue").
    pub on_reject_break: Option<bool>,
    /// `grader_flags`: the default grader's flags.
    pub grader_flags: Option<Vec<String>>,
    /// `accept_score`: the score of an accepted case (default 1).
    pub accept_score: Option<f64>,
    /// `reject_score`: the score of a rejected case (default 0).
    pub reject_score: Option<f64>,
    /// `range`: the scores a group's result may have (default all).
    pub range: Option<(f64, f64)>,
    /// `output_validator_flags`: added after the problem's `validator_flags` for its cases.
    pub output_validator_flags: Option<Vec<String>>,
}

impl GroupSettings {
    /// These settings, with what they leave out taken from `parent`.
    pub fn inherit(&self, parent: &GroupSettings) -> GroupSettings {
        GroupSettings {
            on_reject_break: self.on_reject_break.or(parent.on_reject_break),
            grader_flags: self
                .grader_flags
                .clone()
                .or_else(|| parent.grader_flags.clone()),
            accept_score: self.accept_score.or(parent.accept_score),
            reject_score: self.reject_score.or(parent.reject_score),
            range: self.range.or(parent.range),
            output_validator_flags: self
                .output_validator_flags
                .clone()
                .or_else(|| parent.output_validator_flags.clone()),
        }
    }
}

/// How a checking program is invoked and says its verdict.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Convention {
    /// The Kattis problem package format's: `validator input answer feedback_dir [flags]`, the
    /// output on its stdin, exit 42 accepts and 43 rejects.
    #[default]
    Kattis,
    /// testlib's (Codeforces' Polygon): `checker input output answer`, `interactor input
    /// output`; exit 0 OK, 1 WA, 2 PE, 3 FAIL (the judge's own failure), 4 PE (extra output),
    /// 7 points (`quitp`), its message on stderr.
    Testlib,
    /// CMS's: `checker input answer output`; it ends 0 with the case's score in [0, 1] on its
    /// stdout's first line and its message on stderr's first line (`translate:success`,
    /// `translate:wrong`, `translate:partial`). A manager reads the input on its stdin and says
    /// the same way.
    Cms,
}

impl Convention {
    /// The exit code with which a checking program of this convention accepts.
    pub fn accepts(self) -> i32 {
        match self {
            Convention::Kattis => 42,
            Convention::Testlib | Convention::Cms => 0,
        }
    }
}

/// A program of the problem's: its language and source.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemProgram {
    /// A language name or alias (`cpp`, `python`).
    pub language: String,
    /// Its source.
    pub source: String,
    /// How it is invoked and says its verdict.
    pub convention: Convention,
}

/// How a subtask's cases make its points (Polygon's `points-policy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointsPolicy {
    /// `complete-group`: the subtask's points when every case is accepted, else none; judging
    /// stops at its first case not accepted.
    CompleteGroup,
    /// `each-test`: each accepted case's points (or its checker's, `quitp`); every case judged.
    EachTest,
    /// CMS's `GroupMin`: the subtask's points times the least of its cases' scores in [0, 1];
    /// judging stops at a case that scores 0.
    GroupMin,
    /// CMS's `GroupMul`: the subtask's points times the product of its cases' scores; judging
    /// stops at a case that scores 0.
    GroupMul,
    /// CMS's `Sum`: each case's `points` times its score in [0, 1]; every case judged.
    Sum,
}

impl PointsPolicy {
    /// Whether cases score in [0, 1] (CMS's score types) rather than accepted or not (Polygon's).
    pub fn scores_fractions(self) -> bool {
        matches!(
            self,
            PointsPolicy::GroupMin | PointsPolicy::GroupMul | PointsPolicy::Sum
        )
    }
}

/// How an output is compared with the answer when the problem has no checking program.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Comparison {
    /// The Kattis format's default output validator (tokens, with its flags).
    #[default]
    Kattis,
    /// CMS's white diff: line by line, each line's runs of white space one space, leading and
    /// trailing white space and trailing blank lines ignored.
    WhiteDiff,
}

/// A CMS communication task's manager: the program and how many instances of the submission
/// talk to it.
#[derive(Debug, Clone, PartialEq)]
pub struct Manager {
    /// The manager (CMS's convention: the input on its stdin, the score on its stdout).
    pub program: ProblemProgram,
    /// The submission's processes (CMS's `num_processes`), 1 to 16.
    pub processes: u32,
}

/// The task's header, which its grader or stubs and the submission include.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    /// Its file name, as they include it (`task.h`).
    pub name: String,
    /// Its text.
    pub source: String,
}

/// A subtask (a Polygon group): its cases are those that name it.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtask {
    /// Its name, as cases name it.
    pub name: String,
    /// Its points under `complete-group` (`each-test`: the sum of its cases').
    pub points: f64,
    /// How its cases make its points.
    pub policy: PointsPolicy,
    /// Subtasks that must be passed whole (every case accepted) for this one to be judged; each
    /// is listed before it.
    pub dependencies: Vec<String>,
}

/// The limits of the problem's own programs (validator, interactor), each `None`: the verifier's
/// default.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ValidatorLimits {
    /// Fuel.
    pub fuel: Option<u64>,
    /// Wall-clock safety net.
    pub wall_ms: Option<u32>,
    /// Memory.
    pub memory_bytes: Option<u64>,
    /// Output (stdout and stderr; an interactor's stdout goes to the candidate).
    pub output_bytes: Option<u32>,
}

/// Whether the problem is pass-fail or scored.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ProblemType {
    /// Accepted or not.
    PassFail,
    /// An accepted submission also gets a score.
    Scoring,
}

/// A contest problem's judging: its cases and how their results make a verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct JudgeSpec {
    /// Pass-fail or scoring.
    pub problem_type: ProblemType,
    /// The test cases, in any order (they are judged in the format's order: by name within each
    /// group).
    pub cases: Vec<JudgeCase>,
    /// What each group's `testdata.yaml` says, by group path (`""`: the root, `data/`).
    pub groups: BTreeMap<String, GroupSettings>,
    /// `validator_flags` of `problem.yaml`: for the default validator or the custom one.
    pub validator_flags: Vec<String>,
    /// A custom output validator (or interactor); `None`: the default validator.
    pub output_validator: Option<ProblemProgram>,
    /// The validator talks to the submission (`validation: custom interactive`).
    pub interactive: bool,
    /// The validator's `score.txt` is an accepted case's score (`validation: custom score`).
    pub custom_score: bool,
    /// The limits of the validator's runs.
    pub validator_limits: ValidatorLimits,
    /// The best score a submission can get, for a scoring problem's score in [0, 1] (`None`: the
    /// root's `range`, else what accepting every case scores).
    pub max_score: Option<f64>,
    /// A testlib interactor talking to the submission, `output_validator` (a testlib checker)
    /// then reading its output file; `None`: none (or a Kattis interactor, `interactive`).
    pub interactor: Option<ProblemProgram>,
    /// Polygon's groups or CMS's subtasks, in the order they are judged; empty: the Kattis
    /// test data tree.
    pub subtasks: Vec<Subtask>,
    /// How an output is compared with the answer without a checking program.
    pub comparison: Comparison,
    /// A CMS communication task's manager.
    pub manager: Option<Manager>,
    /// Sources compiled before the submission, by canonical language (CMS's stubs).
    pub stubs: BTreeMap<String, String>,
    /// A grader whose calls the submission's functions answer (C++).
    pub grader: Option<ProblemProgram>,
    /// The header the grader or the stubs and the submission include.
    pub header: Option<Header>,
    /// Every case judged, each one's detail a JSON record (see the module's documentation).
    pub record: bool,
}

fn bad(field: &str, what: impl std::fmt::Display) -> FieldError {
    FieldError::new(field, what)
}

/// Flags written as a string (split at white space, as a command line) or a list of strings.
fn flags(value: &Value, field: &str) -> Result<Vec<String>, FieldError> {
    match value {
        Value::String(s) => Ok(s.split_whitespace().map(str::to_string).collect()),
        Value::Array(items) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| bad(field, "must be a string or a list of strings"))
            })
            .collect(),
        _ => Err(bad(field, "must be a string or a list of strings")),
    }
}

fn number(value: &Value, field: &str) -> Result<f64, FieldError> {
    value
        .as_f64()
        .or_else(|| value.as_str().and_then(|s| s.trim().parse().ok()))
        .filter(|x| !x.is_nan())
        .ok_or_else(|| bad(field, "must be a number"))
}

/// A score range: `"0 30"`, `"-inf +inf"`, or `[0, 30]`.
fn range(value: &Value, field: &str) -> Result<(f64, f64), FieldError> {
    let parts: Vec<f64> = match value {
        Value::String(s) => s
            .split_whitespace()
            .map(|p| p.parse::<f64>().map_err(|_| ()))
            .collect::<Result<_, _>>()
            .map_err(|()| bad(field, "must be two numbers (\"0 30\", \"-inf +inf\")"))?,
        Value::Array(items) => items
            .iter()
            .map(|v| number(v, field))
            .collect::<Result<_, _>>()?,
        _ => return Err(bad(field, "must be two numbers (\"0 30\", \"-inf +inf\")")),
    };
    match parts[..] {
        [low, high] if low <= high => Ok((low, high)),
        _ => Err(bad(field, "must be two numbers, the lower first")),
    }
}

fn group_settings(settings: &Map<String, Value>, field: &str) -> Result<GroupSettings, FieldError> {
    let mut group = GroupSettings::default();
    for (key, value) in settings {
        let field = format!("{field}.{key}");
        match key.as_str() {
            "on_reject" => {
                group.on_reject_break = Some(match value.as_str() {
                    Some("break") => true,
                    Some("continue") => false,
                    _ => return Err(bad(&field, "must be \"break\" or \"continue\"")),
                })
            }
            "grader_flags" => group.grader_flags = Some(flags(value, &field)?),
            "accept_score" => group.accept_score = Some(number(value, &field)?),
            "reject_score" => group.reject_score = Some(number(value, &field)?),
            "range" => group.range = Some(range(value, &field)?),
            "output_validator_flags" => group.output_validator_flags = Some(flags(value, &field)?),
            // Settings that do not change a verdict here.
            "input_validator_flags" => {}
            "grading" if value.as_str() == Some("default") => {}
            "grading" => {
                return Err(bad(
                    &field,
                    "is not \"default\": custom graders are not supported",
                ));
            }
            _ => {
                return Err(bad(
                    &field,
                    "is not a test group setting (on_reject, grader_flags, accept_score, \
                     reject_score, range, output_validator_flags)",
                ));
            }
        }
    }
    Ok(group)
}

fn cases(value: Option<&Value>) -> Result<Vec<JudgeCase>, FieldError> {
    let items = value
        .and_then(Value::as_array)
        .filter(|a| !a.is_empty())
        .ok_or_else(|| {
            bad(
                "tests.judge.cases",
                "must be a non-empty list of {\"name\", \"input\", \"answer\"}",
            )
        })?;
    let mut seen = std::collections::BTreeSet::new();
    items
        .iter()
        .enumerate()
        .map(|(i, case)| {
            let field = |key: &str| format!("tests.judge.cases[{i}].{key}");
            let text = |key: &str, required: bool| -> Result<String, FieldError> {
                match case.get(key) {
                    Some(Value::String(s)) => Ok(s.clone()),
                    None | Some(Value::Null) if !required => Ok(String::new()),
                    None | Some(Value::Null) => Err(bad(&field(key), "is missing")),
                    Some(_) => Err(bad(&field(key), "must be a string")),
                }
            };
            let name = match case.get("name") {
                None | Some(Value::Null) => format!("secret/{:03}", i + 1),
                Some(_) => text("name", true)?,
            };
            let plain = !name.is_empty()
                && name
                    .split('/')
                    .all(|part| !part.is_empty() && part != "." && part != "..");
            if !plain {
                return Err(bad(&field("name"), "must be a path such as \"secret/01\""));
            }
            if !seen.insert(name.clone()) {
                return Err(bad(&field("name"), format!("{name:?} names two cases")));
            }
            let subtask = match case.get("group") {
                None | Some(Value::Null) => None,
                Some(_) => Some(text("group", true)?),
            };
            let points = match case.get("points") {
                None | Some(Value::Null) => 0.0,
                Some(v) => number(v, &field("points")).and_then(|p| {
                    (p.is_finite() && p >= 0.0)
                        .then_some(p)
                        .ok_or_else(|| bad(&field("points"), "must be a number >= 0"))
                })?,
            };
            Ok(JudgeCase {
                name,
                input: text("input", true)?,
                answer: text("answer", false)?,
                subtask,
                points,
            })
        })
        .collect()
}

fn program(value: &Value, field: &str) -> Result<ProblemProgram, FieldError> {
    let obj = value
        .as_object()
        .ok_or_else(|| bad(field, "must be {\"language\", \"source\"}"))?;
    let text = |key: &str| {
        obj.get(key)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| bad(&format!("{field}.{key}"), "must be a string"))
    };
    let language = text("language")?;
    crate::langs::canonical_language(&language).map_err(|e| {
        bad(
            &format!("{field}.language"),
            e.0.trim_start_matches("\"language\" "),
        )
    })?;
    let convention = match obj.get("convention").map(|v| v.as_str()) {
        None | Some(Some("kattis")) => Convention::Kattis,
        Some(Some("testlib")) => Convention::Testlib,
        Some(Some("cms")) => Convention::Cms,
        Some(_) => {
            return Err(bad(
                &format!("{field}.convention"),
                "must be \"kattis\", \"testlib\" or \"cms\"",
            ));
        }
    };
    if let Some(unknown) = obj.keys().find(|k| {
        let manager_setting = k.as_str() == "processes" && field == "tests.judge.manager";
        !(["language", "source", "convention"].contains(&k.as_str()) || manager_setting)
    }) {
        return Err(bad(
            &format!("{field}.{unknown}"),
            "is not a program setting (language, source, convention)",
        ));
    }
    Ok(ProblemProgram {
        language,
        source: text("source")?,
        convention,
    })
}

/// `tests.judge.subtasks`, checked against the cases: each case names a listed subtask, each
/// dependency names one listed before.
fn subtasks(value: &Value, cases: &[JudgeCase]) -> Result<Vec<Subtask>, FieldError> {
    let field = "tests.judge.subtasks";
    let items = value.as_array().ok_or_else(|| {
        bad(
            field,
            "must be a list of {\"name\", \"points\", \"policy\", \"dependencies\"}",
        )
    })?;
    let mut out: Vec<Subtask> = Vec::new();
    for (i, item) in items.iter().enumerate() {
        let at = |key: &str| format!("{field}[{i}].{key}");
        let obj = item
            .as_object()
            .ok_or_else(|| bad(&format!("{field}[{i}]"), "must be an object"))?;
        if let Some(unknown) = obj
            .keys()
            .find(|k| !["name", "points", "policy", "dependencies"].contains(&k.as_str()))
        {
            return Err(bad(
                &at(unknown),
                "is not a subtask setting (name, points, policy, dependencies)",
            ));
        }
        let name = obj
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad(&at("name"), "must be a string"))?
            .to_string();
        if out.iter().any(|s| s.name == name) {
            return Err(bad(&at("name"), format!("{name:?} names two subtasks")));
        }
        let points = match obj.get("points") {
            None | Some(Value::Null) => 0.0,
            Some(v) => number(v, &at("points"))?,
        };
        if !(points.is_finite() && points >= 0.0) {
            return Err(bad(&at("points"), "must be a number >= 0"));
        }
        let policy = match obj.get("policy").and_then(Value::as_str) {
            None | Some("complete-group") => PointsPolicy::CompleteGroup,
            Some("each-test") => PointsPolicy::EachTest,
            Some("group-min") => PointsPolicy::GroupMin,
            Some("group-mul") => PointsPolicy::GroupMul,
            Some("sum") => PointsPolicy::Sum,
            Some(_) => {
                return Err(bad(
                    &at("policy"),
                    "must be \"complete-group\", \"each-test\" (Polygon), \"group-min\", \
                     \"group-mul\" or \"sum\" (CMS)",
                ));
            }
        };
        let dependencies: Vec<String> = match obj.get("dependencies") {
            None | Some(Value::Null) => Vec::new(),
            Some(v) => flags(v, &at("dependencies"))?,
        };
        if let Some(unknown) = dependencies
            .iter()
            .find(|d| !out.iter().any(|s| &s.name == *d))
        {
            return Err(bad(
                &at("dependencies"),
                format!("names {unknown:?}, which is not a subtask listed before this one"),
            ));
        }
        out.push(Subtask {
            name,
            points,
            policy,
            dependencies,
        });
    }
    for (i, case) in cases.iter().enumerate() {
        let named = case.subtask.as_deref().unwrap_or_default();
        if !out.iter().any(|s| s.name == named) {
            return Err(bad(
                &format!("tests.judge.cases[{i}].group"),
                format!("{named:?} is not one of tests.judge.subtasks"),
            ));
        }
    }
    for (i, subtask) in out.iter().enumerate() {
        if !cases
            .iter()
            .any(|c| c.subtask.as_deref().unwrap_or_default() == subtask.name)
        {
            return Err(bad(
                &format!("{field}[{i}]"),
                format!(
                    "{:?} has no cases: a subtask without cases would give its points for nothing",
                    subtask.name
                ),
            ));
        }
    }
    Ok(out)
}

fn validator_limits(value: Option<&Value>) -> Result<ValidatorLimits, FieldError> {
    let mut limits = ValidatorLimits::default();
    let Some(value) = value else {
        return Ok(limits);
    };
    let field = "tests.judge.validator_limits";
    let obj = value
        .as_object()
        .ok_or_else(|| bad(field, "must be an object"))?;
    for (key, v) in obj {
        let n = v
            .as_u64()
            .ok_or_else(|| bad(&format!("{field}.{key}"), "must be a positive integer"))?;
        let small = |n: u64| n.min(u64::from(u32::MAX)) as u32;
        match key.as_str() {
            "fuel" => limits.fuel = Some(n),
            "wall_ms" => limits.wall_ms = Some(small(n)),
            "memory_mb" => limits.memory_bytes = Some(n.saturating_mul(1 << 20)),
            "output_bytes" => limits.output_bytes = Some(small(n)),
            _ => {
                return Err(bad(
                    &format!("{field}.{key}"),
                    "is not a limit (fuel, wall_ms, memory_mb, output_bytes)",
                ));
            }
        }
    }
    Ok(limits)
}

impl JudgeSpec {
    /// Reads `tests.judge` (`value`).
    pub fn parse(value: &Value) -> Result<JudgeSpec, FieldError> {
        let field = "tests.judge";
        let obj = value
            .as_object()
            .ok_or_else(|| bad(field, "must be an object with \"cases\""))?;
        const KNOWN: [&str; 17] = [
            "type",
            "cases",
            "groups",
            "validator_flags",
            "output_validator",
            "interactive",
            "custom_score",
            "validator_limits",
            "max_score",
            "interactor",
            "subtasks",
            "comparison",
            "manager",
            "stubs",
            "grader",
            "header",
            "record",
        ];
        if let Some(unknown) = obj.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(bad(
                &format!("{field}.{unknown}"),
                format!("is not a judge setting ({})", KNOWN.join(", ")),
            ));
        }
        let problem_type = match obj.get("type").and_then(Value::as_str) {
            None | Some("pass-fail") => ProblemType::PassFail,
            Some("scoring") => ProblemType::Scoring,
            Some(_) => {
                return Err(bad(
                    "tests.judge.type",
                    "must be \"pass-fail\" or \"scoring\"",
                ));
            }
        };
        let flag = |key: &str| -> Result<bool, FieldError> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(_) => Err(bad(&format!("{field}.{key}"), "must be true or false")),
            }
        };
        let mut groups = BTreeMap::new();
        if let Some(value) = obj.get("groups").filter(|v| !v.is_null()) {
            let listed = value
                .as_object()
                .ok_or_else(|| bad("tests.judge.groups", "must be an object by group path"))?;
            for (name, settings) in listed {
                let field = format!("tests.judge.groups.{name}");
                let settings = settings
                    .as_object()
                    .ok_or_else(|| bad(&field, "must be an object of settings"))?;
                groups.insert(
                    name.trim_matches('/').to_string(),
                    group_settings(settings, &field)?,
                );
            }
        }
        let output_validator = obj
            .get("output_validator")
            .filter(|v| !v.is_null())
            .map(|v| program(v, "tests.judge.output_validator"))
            .transpose()?;
        let interactive = flag("interactive")?;
        let custom_score = flag("custom_score")?;
        if (interactive || custom_score) && output_validator.is_none() {
            return Err(bad(
                "tests.judge.output_validator",
                "is missing: an interactive or custom-score problem needs its validator",
            ));
        }
        let interactor = obj
            .get("interactor")
            .filter(|v| !v.is_null())
            .map(|v| program(v, "tests.judge.interactor"))
            .transpose()?;
        if let Some(interactor) = &interactor {
            if interactor.convention != Convention::Testlib {
                return Err(bad(
                    "tests.judge.interactor.convention",
                    "must be \"testlib\": a Kattis interactor is the output_validator of an \
                     interactive problem",
                ));
            }
            if interactive {
                return Err(bad(
                    "tests.judge.interactive",
                    "must be false with a testlib interactor (it is the Kattis form)",
                ));
            }
            if output_validator
                .as_ref()
                .is_some_and(|v| v.convention != Convention::Testlib)
            {
                return Err(bad(
                    "tests.judge.output_validator.convention",
                    "must be \"testlib\" after a testlib interactor (the checker reads its output file)",
                ));
            }
        }
        if interactive
            && output_validator
                .as_ref()
                .is_some_and(|v| v.convention != Convention::Kattis)
        {
            return Err(bad(
                "tests.judge.interactive",
                "is the Kattis form: a testlib interactor is given as tests.judge.interactor",
            ));
        }
        let max_score = obj
            .get("max_score")
            .filter(|v| !v.is_null())
            .map(|v| number(v, "tests.judge.max_score"))
            .transpose()?
            .filter(|m| *m > 0.0);
        let cases = cases(obj.get("cases"))?;
        let subtasks = match obj.get("subtasks").filter(|v| !v.is_null()) {
            None => {
                if let Some(i) = cases.iter().position(|c| c.subtask.is_some()) {
                    return Err(bad(
                        &format!("tests.judge.cases[{i}].group"),
                        "names a subtask, but the task has no tests.judge.subtasks",
                    ));
                }
                Vec::new()
            }
            Some(value) => {
                if !groups.is_empty() {
                    return Err(bad(
                        "tests.judge.subtasks",
                        "cannot be given with tests.judge.groups (Polygon's groups or Kattis's \
                         test data tree, not both)",
                    ));
                }
                subtasks(value, &cases)?
            }
        };
        let comparison = match obj.get("comparison").map(|v| v.as_str()) {
            None | Some(Some("kattis")) => Comparison::Kattis,
            Some(Some("white-diff")) => Comparison::WhiteDiff,
            Some(_) => {
                return Err(bad(
                    "tests.judge.comparison",
                    "must be \"kattis\" or \"white-diff\"",
                ));
            }
        };
        let manager = obj
            .get("manager")
            .filter(|v| !v.is_null())
            .map(|v| {
                let program = program(v, "tests.judge.manager")?;
                let processes = match v.get("processes") {
                    None | Some(Value::Null) => 1,
                    Some(n) => n.as_u64().filter(|n| (1..=16).contains(n)).ok_or_else(|| {
                        bad(
                            "tests.judge.manager.processes",
                            "must be an integer 1 to 16",
                        )
                    })? as u32,
                };
                Ok::<_, FieldError>(Manager { program, processes })
            })
            .transpose()?;
        let grader = obj
            .get("grader")
            .filter(|v| !v.is_null())
            .map(|v| program(v, "tests.judge.grader"))
            .transpose()?;
        let header = match obj.get("header").filter(|v| !v.is_null()) {
            None => None,
            Some(v) => {
                let text = |key: &str| {
                    v.get(key)
                        .and_then(Value::as_str)
                        .map(str::to_string)
                        .ok_or_else(|| {
                            bad(&format!("tests.judge.header.{key}"), "must be a string")
                        })
                };
                let name = text("name")?;
                if name.is_empty() || name.contains(['"', '<', '>', '\n']) {
                    return Err(bad(
                        "tests.judge.header.name",
                        "must be a file name such as \"task.h\"",
                    ));
                }
                Some(Header {
                    name,
                    source: text("source")?,
                })
            }
        };
        let mut stubs = BTreeMap::new();
        if let Some(value) = obj.get("stubs").filter(|v| !v.is_null()) {
            let listed = value.as_object().ok_or_else(|| {
                bad(
                    "tests.judge.stubs",
                    "must be an object of sources by language",
                )
            })?;
            for (language, source) in listed {
                let field = format!("tests.judge.stubs.{language}");
                let canonical = crate::langs::canonical_language(language)
                    .map_err(|e| bad(&field, e.0.trim_start_matches("\"language\" ")))?;
                let source = source
                    .as_str()
                    .ok_or_else(|| bad(&field, "must be a string (the stub's source)"))?;
                stubs.insert(canonical.to_string(), source.to_string());
            }
        }
        check_cms_parts(&manager, &grader, &header, &stubs, interactive, &interactor)?;
        Ok(JudgeSpec {
            problem_type,
            cases,
            groups,
            validator_flags: obj
                .get("validator_flags")
                .filter(|v| !v.is_null())
                .map(|v| flags(v, "tests.judge.validator_flags"))
                .transpose()?
                .unwrap_or_default(),
            output_validator,
            interactive,
            custom_score,
            validator_limits: validator_limits(obj.get("validator_limits"))?,
            max_score,
            interactor,
            subtasks,
            comparison,
            manager,
            stubs,
            grader,
            header,
            record: flag("record")?,
        })
    }
}

/// The CMS parts of a judge go together as CMS's task types do: a manager (with stubs or not) or
/// a grader (with its header), not both, and neither with an interactor.
fn check_cms_parts(
    manager: &Option<Manager>,
    grader: &Option<ProblemProgram>,
    header: &Option<Header>,
    stubs: &BTreeMap<String, String>,
    interactive: bool,
    interactor: &Option<ProblemProgram>,
) -> Result<(), FieldError> {
    if manager.is_some() && grader.is_some() {
        return Err(bad(
            "tests.judge.grader",
            "cannot be given with a manager (a communication task's stubs are its \"stubs\")",
        ));
    }
    if (manager.is_some() || grader.is_some()) && (interactive || interactor.is_some()) {
        return Err(bad(
            "tests.judge.interactor",
            "cannot be given with a manager or a grader",
        ));
    }
    if !stubs.is_empty() && manager.is_none() {
        return Err(bad(
            "tests.judge.stubs",
            "are compiled with the submission of a communication task: give its manager",
        ));
    }
    if let Some(grader) = grader {
        if crate::langs::canonical_language(&grader.language).ok() != Some("cpp") {
            return Err(bad(
                "tests.judge.grader.language",
                "must be cpp: a grader calls the submission's C++ functions across sandboxes",
            ));
        }
        if header.is_none() {
            return Err(bad(
                "tests.judge.header",
                "is missing: a grader's header declares the functions the submission implements",
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_judge_spec_is_read_with_defaults() {
        let spec = JudgeSpec::parse(&json!({
            "cases": [{"name": "sample/1", "input": "1\n", "answer": "2\n"}, {"input": "5\n"}],
            "validator_flags": "float_tolerance 1e-6",
            "groups": {"secret/": {"on_reject": "continue", "range": "0 30", "grader_flags": ["min"]}}
        }))
        .unwrap();
        assert_eq!(spec.problem_type, ProblemType::PassFail);
        assert_eq!(spec.cases[1].name, "secret/002");
        assert_eq!(spec.cases[1].answer, "");
        assert_eq!(spec.cases[0].group(), "sample");
        assert_eq!(spec.validator_flags, ["float_tolerance", "1e-6"]);
        let secret = &spec.groups["secret"];
        assert_eq!(secret.on_reject_break, Some(false));
        assert_eq!(secret.range, Some((0.0, 30.0)));
        assert_eq!(
            secret.grader_flags.as_deref(),
            Some(&["min".to_string()][..])
        );
    }

    #[test]
    fn malformed_specs_name_the_field() {
        let table = [
            (json!({"cases": []}), "tests.judge.cases"),
            (
                json!({"cases": [{"name": "a/../b", "input": ""}]}),
                "tests.judge.cases[0].name",
            ),
            (
                json!({"cases": [{"name": "x", "input": ""}, {"name": "x", "input": ""}]}),
                "tests.judge.cases[1].name",
            ),
            (
                json!({"cases": [{"name": "x"}]}),
                "tests.judge.cases[0].input",
            ),
            (
                json!({"cases": [{"input": ""}], "interactive": true}),
                "tests.judge.output_validator",
            ),
            (
                json!({"cases": [{"input": ""}], "groups": {"secret": {"on_reject": "stop"}}}),
                "tests.judge.groups.secret.on_reject",
            ),
            (
                json!({"cases": [{"input": ""}], "groups": {"secret": {"range": "5 1"}}}),
                "tests.judge.groups.secret.range",
            ),
            (
                json!({"cases": [{"input": ""}], "groups": {"secret": {"grading": "custom"}}}),
                "tests.judge.groups.secret.grading",
            ),
            (
                json!({"cases": [{"input": ""}], "output_validator": {"language": "cobol", "source": ""}}),
                "tests.judge.output_validator.language",
            ),
            (
                json!({"cases": [{"input": ""}], "validator_limits": {"fuel": -1}}),
                "tests.judge.validator_limits.fuel",
            ),
            (
                json!({"cases": [{"input": ""}], "type": "multi-pass"}),
                "tests.judge.type",
            ),
            (
                json!({"cases": [{"input": ""}], "bogus": 1}),
                "tests.judge.bogus",
            ),
            (
                json!({"cases": [{"input": ""}], "output_validator": {"language": "cpp", "source": "", "convention": "domjudge"}}),
                "tests.judge.output_validator.convention",
            ),
            (
                json!({"cases": [{"input": ""}], "interactor": {"language": "cpp", "source": ""}}),
                "tests.judge.interactor.convention",
            ),
            (
                json!({"cases": [{"input": ""}], "interactive": true,
                       "output_validator": {"language": "cpp", "source": "", "convention": "testlib"},
                       "interactor": {"language": "cpp", "source": "", "convention": "testlib"}}),
                "tests.judge.interactive",
            ),
            (
                json!({"cases": [{"input": "", "group": "1"}], "subtasks": [{"name": "1", "dependencies": ["0"]}]}),
                "tests.judge.subtasks[0].dependencies",
            ),
            (
                json!({"cases": [{"input": "", "group": "2"}], "subtasks": [{"name": "1"}]}),
                "tests.judge.cases[0].group",
            ),
            (
                json!({"cases": [{"input": "", "group": "1"}]}),
                "tests.judge.cases[0].group",
            ),
            (
                json!({"cases": [{"input": "", "points": -1}], "subtasks": [{"name": ""}]}),
                "tests.judge.cases[0].points",
            ),
            (
                json!({"cases": [{"input": ""}], "subtasks": [{"name": "", "policy": "best"}]}),
                "tests.judge.subtasks[0].policy",
            ),
            (
                json!({"cases": [{"input": ""}], "subtasks": [{"name": ""}], "groups": {"secret": {}}}),
                "tests.judge.subtasks",
            ),
            (
                json!({"cases": [{"input": ""}], "subtasks": [{"name": ""}, {"name": "2", "points": 50}]}),
                "tests.judge.subtasks[1]",
            ),
            (
                json!({"cases": [{"input": ""}], "comparison": "lines"}),
                "tests.judge.comparison",
            ),
            (
                json!({"cases": [{"input": ""}], "manager": {"language": "cpp", "source": "", "processes": 0}}),
                "tests.judge.manager.processes",
            ),
            (
                json!({"cases": [{"input": ""}], "grader": {"language": "cpp", "source": ""}}),
                "tests.judge.header",
            ),
            (
                json!({"cases": [{"input": ""}], "grader": {"language": "python", "source": ""},
                       "header": {"name": "t.h", "source": ""}}),
                "tests.judge.grader.language",
            ),
            (
                json!({"cases": [{"input": ""}], "stubs": {"cpp": ""}}),
                "tests.judge.stubs",
            ),
            (
                json!({"cases": [{"input": ""}], "header": {"name": "a\"b.h", "source": ""}}),
                "tests.judge.header.name",
            ),
            (
                json!({"cases": [{"input": ""}], "manager": {"language": "cpp", "source": ""},
                       "grader": {"language": "cpp", "source": ""}, "header": {"name": "t.h", "source": ""}}),
                "tests.judge.grader",
            ),
            (
                json!({"cases": [{"input": ""}], "interactive": true,
                       "output_validator": {"language": "cpp", "source": ""},
                       "manager": {"language": "cpp", "source": ""}}),
                "tests.judge.interactor",
            ),
            (
                json!({"cases": [{"input": ""}], "output_validator": {"language": "cpp", "source": "", "processes": 2}}),
                "tests.judge.output_validator.processes",
            ),
        ];
        for (value, field) in table {
            let error = JudgeSpec::parse(&value).unwrap_err().0;
            assert!(
                error.starts_with(&format!("\"{field}\"")),
                "{value}: {error}"
            );
        }
    }

    #[test]
    fn settings_are_inherited_from_the_parent_group() {
        let parent = GroupSettings {
            accept_score: Some(5.0),
            on_reject_break: Some(false),
            ..GroupSettings::default()
        };
        let child = GroupSettings {
            accept_score: Some(7.0),
            ..GroupSettings::default()
        };
        let merged = child.inherit(&parent);
        assert_eq!(merged.accept_score, Some(7.0));
        assert_eq!(merged.on_reject_break, Some(false));
        assert_eq!(merged.reject_score, None);
    }
}
