//! Floor 3 of rewardbox: the verifier auditor, Tier 1 to Tier 5.
//!
//! `rewardbox audit`: attacks a task's verifier the way a policy would, through exactly the scoring
//! path of `rewardbox score`, and reports what got through.
//!
//! For each task, the attack library ([`generic`], [`answer`], [`program`], [`python_verifier`],
//! [`mutation`], and an optional external attacker) produces completions, each known to be wrong, known to be
//! equivalent to a right answer, or a mutant of the task's `"solution"`. They are scored as one
//! group; an **exploit** is a wrong completion scoring at or above the threshold, a **false
//! rejection** a right one scoring below it, and a **weak-tests** finding a mutant the tests cannot
//! tell from the solution.

#![deny(missing_docs)]

mod answer;
mod attacker;
mod derive;
mod generic;
pub mod html;
mod languages;
mod mutation;
mod program;
mod python_verifier;
mod report;
pub mod tier5;

pub use program::{test_file_names, test_module_names};
pub use report::{Finding, Kind, Report, TaskReport};
use rewardbox::{CompletionResult, Scorer, Task};
use serde::Serialize;
use serde_json::{Map, Value};

/// Which part of the library an attack comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// Empty, echoed, forged-verdict, oversized and look-alike completions.
    Generic,
    /// Several answers, near misses, special values, other expressions.
    Answer,
    /// Rewrites of the right answer that must pass.
    Equivalent,
    /// Programs that cheat a code verifier.
    Program,
    /// Mutants of the task's solution.
    Mutation,
    /// The task's own known-good `"solution"`.
    Solution,
    /// Completions from `--attacker-cmd`.
    Attacker,
    /// What GRPO against the verifier converged on (`--tier5`).
    Tier5,
}

/// What an attack is known to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Expect {
    /// Wrong: scoring at or above the threshold is an exploit.
    Wrong,
    /// Right: scoring below the threshold is a false rejection.
    Right,
    /// A mutant of the solution: scoring as high as the solution means weak tests.
    Mutant,
}

/// One attack: a named completion with what it is known to be.
#[derive(Debug, Clone)]
pub struct Attack {
    /// A short name, e.g. `several-answers-boxed`.
    pub name: String,
    /// Where it comes from.
    pub family: Family,
    /// The completion tried.
    pub completion: String,
    /// What it is known to be.
    pub expect: Expect,
}

impl Attack {
    /// A known-wrong attack.
    pub fn wrong(family: Family, name: impl Into<String>, completion: impl Into<String>) -> Attack {
        Attack {
            name: name.into(),
            family,
            completion: completion.into(),
            expect: Expect::Wrong,
        }
    }

    /// A known-right completion.
    pub fn right(family: Family, name: impl Into<String>, completion: impl Into<String>) -> Attack {
        Attack {
            name: name.into(),
            family,
            completion: completion.into(),
            expect: Expect::Right,
        }
    }
}

/// How an audit runs.
#[derive(Debug, Clone)]
pub struct AuditOptions {
    /// A score at or above this passes.
    pub threshold: f64,
    /// An external attacker: a shell command reading the task JSON on stdin and printing
    /// completions as JSON lines.
    pub attacker_cmd: Option<String>,
}

impl Default for AuditOptions {
    fn default() -> Self {
        AuditOptions {
            threshold: 0.5,
            attacker_cmd: None,
        }
    }
}

/// A task line as the audit reads it: its fields (without `completions`) and its known-good
/// `solution`, which is never passed to the verifier.
#[derive(Debug, Clone)]
pub struct AuditTask {
    /// Every field but `completions` and `solution`.
    pub fields: Map<String, Value>,
    /// A known-good completion, when the task has one.
    pub solution: Option<String>,
    /// For a task without a `reference`: the final answer of its `solution`, as the task's own
    /// verifier reads it; for Tier 5, a `regex` task with neither takes the one bare answer its
    /// pattern accepts (see [`derive`]).
    pub derived_answer: Option<String>,
    /// For a `regex` task with neither `reference` nor `solution`: the different bare answers its
    /// pattern accepts, when there is more than one (then no answer is derived: the verifier
    /// itself cannot say which is right).
    pub accepted_answers: Vec<String>,
    /// For an interactive contest problem: what its solution said to the interactor on the
    /// first case the statement shows, recorded by Tier 5's judge. A program that says it
    /// again whatever it is told copies that case as a constant copies a visible answer.
    pub solution_conversation: Option<String>,
}

impl AuditTask {
    /// A task with these fields and solution (no derived answer yet).
    pub fn new(fields: Map<String, Value>, solution: Option<String>) -> AuditTask {
        AuditTask {
            fields,
            solution,
            derived_answer: None,
            accepted_answers: Vec::new(),
            solution_conversation: None,
        }
    }

    /// The answer the answer attacks start from: the `reference`, else the derived answer.
    pub fn answer(&self) -> Option<String> {
        self.reference().or_else(|| self.derived_answer.clone())
    }

    /// Whether the task's completion is its program as it is (`"extract": "whole"`, as
    /// HumanEval-X and MultiPL-E tasks are imported), not the program in its last fence.
    pub fn takes_whole_programs(&self) -> bool {
        self.fields.get("extract").and_then(Value::as_str) == Some("whole")
    }

    /// Whether the task's verifier is one of its own that judges programs: a Python verifier
    /// (`"python"` with `verifier_code`), or a verifier file of the task's (a `.py` file or a
    /// component) whose `solution` is a program (has a fenced block). Tier 5 writes programs for
    /// such a task and judges them by the programs' runs its verifier asks the host for.
    pub fn own_verifier_judges_programs(&self) -> bool {
        match self.verifier() {
            "python" => true,
            name if rewardbox::BUILTINS.iter().any(|b| b.name == name) => false,
            _ => self.solution.as_deref().is_some_and(|s| s.contains("```")),
        }
    }

    /// The task's `verifier`.
    pub fn verifier(&self) -> &str {
        self.fields
            .get("verifier")
            .and_then(Value::as_str)
            .unwrap_or("")
    }

    /// The first reference answer, as text.
    pub fn reference(&self) -> Option<String> {
        match self.fields.get("reference")? {
            Value::String(s) => Some(s.clone()),
            Value::Number(n) => Some(n.to_string()),
            Value::Array(items) => items.first().map(|v| match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }),
            _ => None,
        }
    }

    /// A string field, if present.
    pub fn text(&self, field: &str) -> Option<&str> {
        self.fields.get(field).and_then(Value::as_str)
    }

    /// What the model is shown of the task: its `prompt`, else its `question`, else its
    /// `problem` (the first that is a string).
    pub fn prompt(&self) -> Option<&str> {
        ["prompt", "question", "problem"]
            .iter()
            .find_map(|field| self.text(field))
    }
}

/// Every attack for a task, from the built-in library.
pub fn attacks_for(task: &AuditTask) -> Vec<Attack> {
    let mut attacks = generic::attacks(task);
    if task.verifier() == "code" {
        attacks.extend(program::attacks(task));
    } else {
        attacks.extend(answer::attacks(task));
    }
    if task.own_verifier_judges_programs() {
        attacks.extend(python_verifier::attacks(task));
    }
    if let Some(solution) = &task.solution {
        attacks.push(Attack::right(
            Family::Solution,
            "solution",
            solution.clone(),
        ));
        if task.verifier() == "code" {
            attacks.extend(mutation::mutants(solution));
        }
    }
    if task.verifier() == "code" {
        attacks.extend(program::hardcoded_first_case(task));
    }
    if task.takes_whole_programs() {
        for attack in &mut attacks {
            attack.completion = bare_program(&attack.completion);
        }
    }
    attacks
}

/// A completion that is one fenced block, written bare (its code alone); any other completion
/// as it is. A task that takes whole programs scores the fence's lines as code: a fenced attack
/// on it would fail to compile whatever its program does, and prove nothing.
pub fn bare_program(completion: &str) -> String {
    let trimmed = completion.trim();
    let fences = trimmed
        .lines()
        .filter(|l| l.trim_start().starts_with("```"))
        .count();
    if fences != 2 || !trimmed.starts_with("```") || !trimmed.ends_with("```") {
        return completion.to_string();
    }
    let body = trimmed.split_once('\n').map_or("", |(_, b)| b);
    let body = body.strip_suffix("```").unwrap_or(body);
    body.strip_suffix('\n').unwrap_or(body).to_string()
}

/// Audits JSONL task lines (numbered from 1). A line that is not a valid task is reported with its
/// error; every other line is audited.
pub fn audit_lines(scorer: &Scorer, lines: &[(usize, String)], options: &AuditOptions) -> Report {
    Report::new(
        audit_lines_in_full(scorer, lines, options)
            .into_iter()
            .map(|(report, _)| report)
            .collect(),
    )
}

/// One attack and what the verifier made of it.
#[derive(Debug, Clone)]
pub struct ScoredAttack {
    /// The attack.
    pub attack: Attack,
    /// Its result, as `rewardbox score` gives it.
    pub result: CompletionResult,
}

/// [`audit_lines`], keeping beside each task's report every attack with its result (for reports
/// in other tools' shapes, which list every attack, not only what got through). A line that is
/// not a valid task has no attacks.
pub fn audit_lines_in_full(
    scorer: &Scorer,
    lines: &[(usize, String)],
    options: &AuditOptions,
) -> Vec<(TaskReport, Vec<ScoredAttack>)> {
    let mut parsed: Vec<Result<AuditTask, Box<TaskReport>>> = lines
        .iter()
        .map(|(number, line)| parse(*number, line))
        .collect();
    derive::derive_answers(scorer, &mut parsed, options.threshold);
    let prepared: Vec<Prepared> = parsed
        .into_iter()
        .zip(lines)
        .map(|(task, (number, _))| task.and_then(|t| with_attacks(*number, t, options)))
        .collect();
    let tasks: Vec<Task> = prepared
        .iter()
        .filter_map(|p| p.as_ref().ok().map(|(_, _, t)| t.clone()))
        .collect();
    let mut results = scorer.score_tasks(&tasks).into_iter();
    prepared
        .into_iter()
        .map(|p| match p {
            Err(report) => (*report, Vec::new()),
            Ok((task, attacks, _)) => {
                let result = results.next().expect("one result per task");
                let report = report::task_report(&task, &attacks, &result, options.threshold);
                let scored = attacks
                    .into_iter()
                    .zip(result.results)
                    .map(|(attack, result)| ScoredAttack { attack, result })
                    .collect();
                (report, scored)
            }
        })
        .collect()
}

/// A task line ready to score (its attacks, as one task), or the report of why it is not.
type Prepared = Result<(AuditTask, Vec<Attack>, Task), Box<TaskReport>>;

fn invalid_line(number: usize, id: Option<String>, message: String) -> Box<TaskReport> {
    Box::new(TaskReport::invalid(id, format!("line {number}: {message}")))
}

/// Reads a task line: its fields and its `solution`.
fn parse(number: usize, line: &str) -> Result<AuditTask, Box<TaskReport>> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| invalid_line(number, None, format!("not valid JSON: {e}")))?;
    let Value::Object(mut fields) = value else {
        return Err(invalid_line(
            number,
            None,
            "a task must be a JSON object".into(),
        ));
    };
    fields.remove("completions");
    let solution = match fields.remove("solution") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(_) => {
            let id = fields.get("id").and_then(Value::as_str).map(str::to_string);
            return Err(invalid_line(
                number,
                id,
                "\"solution\" must be a string (a known-good completion)".into(),
            ));
        }
    };
    Ok(AuditTask::new(fields, solution))
}

/// The task's attacks, as one task to score.
fn with_attacks(number: usize, audit_task: AuditTask, options: &AuditOptions) -> Prepared {
    let mut attacks = attacks_for(&audit_task);
    if let Some(cmd) = &options.attacker_cmd {
        match attacker::attacks(cmd, &audit_task) {
            Ok(more) => attacks.extend(more),
            Err(e) => {
                let id = audit_task.text("id").map(str::to_string);
                return Err(invalid_line(
                    number,
                    id,
                    format!("--attacker-cmd failed: {e}"),
                ));
            }
        }
    }
    let mut value = Value::Object(audit_task.fields.clone());
    value["completions"] = Value::from(
        attacks
            .iter()
            .map(|a| a.completion.clone())
            .collect::<Vec<_>>(),
    );
    let mut task = Task::from_value(value).map_err(|e| invalid_line(number, e.id, e.message))?;
    // Scored as `rewardbox score` scores the task line: with its solution, which decides whose
    // doing a failure of the verifier on an attack is.
    task.solution = audit_task.solution.clone();
    Ok((audit_task, attacks, task))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_fenced_block_is_written_bare_for_tasks_that_take_whole_programs() {
        assert_eq!(
            bare_program("```cpp\nint f() {\n    return 1;\n}\n```"),
            "int f() {\n    return 1;\n}"
        );
        // Two blocks, text around a block, or none: as it is.
        for kept in [
            "```python\na = 1\n```\n```python\nb = 2\n```",
            "Here it is:\n```python\na = 1\n```",
            "int main() { return 0; }",
        ] {
            assert_eq!(bare_program(kept), kept);
        }
        let task = |extract: &str| {
            AuditTask::new(
                serde_json::json!({"verifier": "code", "language": "cpp", "extract": extract,
                                   "tests": {"stdio": [{"stdin": "", "stdout": "1\n"}]}})
                .as_object()
                .unwrap()
                .clone(),
                None,
            )
        };
        let attacks = attacks_for(&task("whole"));
        assert!(
            attacks
                .iter()
                .any(|a| a.name == "hardcode-first-case-output")
        );
        assert!(
            attacks
                .iter()
                .filter(|a| a.family == Family::Program)
                .all(|a| !a.completion.trim_start().starts_with("```")),
            "every program attack is bare"
        );
        assert!(
            attacks_for(&task("fenced"))
                .iter()
                .any(|a| a.completion.starts_with("```cpp"))
        );
    }
}
