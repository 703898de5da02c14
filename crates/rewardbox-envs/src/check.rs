//! The verification stage of CodeGym environments (`rewardbox env check`): each instance is
//! started, its own `solve()` run, and it must end `finished` with reward 1 within the limits.

use crate::environments::Environments;
use crate::error::EnvError;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::time::Instant;

/// How one instance ended.
pub const CHECK_STATUSES: &[&str] = &[
    "solved",
    "wrong",
    "crashed",
    "start_error",
    "fuel_exhausted",
    "timeout",
    "memory_exceeded",
    "output_exceeded",
];

/// The verdict on one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckedInstance {
    /// 1-based line of the instances file.
    pub line: usize,
    /// The environment string (empty when the line has none).
    pub env_str: String,
    /// One of [`CHECK_STATUSES`].
    pub status: &'static str,
    /// The environment's reward after `solve()`, when it got that far.
    pub reward: Option<f64>,
    /// What happened.
    pub detail: String,
    /// Fuel `solve()` used.
    pub fuel: u64,
    /// Wall time of the whole check of this instance, in microseconds.
    pub wall_us: u64,
}

/// Counts over all instances.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckSummary {
    /// Instances checked.
    pub instances: usize,
    /// Instances by status (every status listed, zeros included).
    pub by_status: BTreeMap<&'static str, usize>,
    /// Solved instances as a fraction of all.
    pub solved_rate: f64,
    /// Wall time of the whole check, in seconds.
    pub seconds: f64,
}

/// The report `rewardbox env check` writes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CheckReport {
    /// One entry per input line, in order.
    pub instances: Vec<CheckedInstance>,
    /// The counts.
    pub summary: CheckSummary,
}

/// The environment string of an instance line: its `env_str`, or CodeGym's training-instance
/// form, whose `ability` holds it. The error names the field.
pub fn env_str_of(line: &Value) -> Result<String, String> {
    for field in ["env_str", "ability"] {
        match line.get(field) {
            Some(Value::String(s)) => return Ok(s.clone()),
            Some(_) => return Err(format!("\"{field}\" must be a string")),
            None => {}
        }
    }
    Err("\"env_str\" is missing (or CodeGym's \"ability\")".into())
}

/// Checks every instance line (1-based numbers with their text), in parallel.
pub fn check(envs: &Environments, lines: &[(usize, String)]) -> CheckReport {
    use rayon::prelude::*;
    let started = Instant::now();
    let instances: Vec<CheckedInstance> = lines
        .par_iter()
        .map(|(number, text)| check_one(envs, *number, text))
        .collect();
    let mut by_status: BTreeMap<&'static str, usize> =
        CHECK_STATUSES.iter().map(|s| (*s, 0)).collect();
    for i in &instances {
        *by_status.entry(i.status).or_default() += 1;
    }
    let solved = by_status["solved"];
    let summary = CheckSummary {
        instances: instances.len(),
        by_status,
        solved_rate: if instances.is_empty() {
            0.0
        } else {
            solved as f64 / instances.len() as f64
        },
        seconds: started.elapsed().as_secs_f64(),
    };
    CheckReport { instances, summary }
}

fn check_one(envs: &Environments, line: usize, text: &str) -> CheckedInstance {
    let started = Instant::now();
    let mut out = CheckedInstance {
        line,
        env_str: String::new(),
        status: "start_error",
        reward: None,
        detail: String::new(),
        fuel: 0,
        wall_us: 0,
    };
    let parsed = serde_json::from_str::<Value>(text)
        .map_err(|e| format!("line {line}: not valid JSON: {e}"))
        .and_then(|v| env_str_of(&v).map_err(|e| format!("line {line}: {e}")));
    match parsed {
        Err(detail) => out.detail = detail,
        Ok(env_str) => {
            out.env_str = env_str.clone();
            match envs.start(None, &env_str) {
                Err(e) => {
                    out.status = start_status(&e);
                    out.detail = e.to_string();
                }
                Ok(session) => {
                    let solved = session.get_attribute("solve");
                    out.fuel = session.last_cost().0;
                    match solved {
                        Err(e) => {
                            out.status = failure_status(&e);
                            out.detail = e.to_string();
                        }
                        Ok(message) => {
                            let finished = session.done();
                            let reward = session.reward();
                            match (finished, reward) {
                                (Ok(finished), Ok(reward)) => {
                                    out.reward = Some(reward);
                                    out.status = if finished && reward == 1.0 {
                                        "solved"
                                    } else {
                                        "wrong"
                                    };
                                    out.detail = match message {
                                        Value::String(s) => s,
                                        other => other.to_string(),
                                    };
                                    if !finished {
                                        out.detail =
                                            format!("not finished after solve(): {}", out.detail);
                                    }
                                }
                                (Err(e), _) | (_, Err(e)) => {
                                    out.status = failure_status(&e);
                                    out.detail = e.to_string();
                                }
                            }
                        }
                    }
                    session.close();
                }
            }
        }
    }
    out.detail = out.detail.chars().take(1000).collect();
    out.wall_us = started.elapsed().as_micros() as u64;
    out
}

fn start_status(error: &EnvError) -> &'static str {
    match error {
        EnvError::StartFailed { status, .. } => limit_status(status).unwrap_or("start_error"),
        _ => "start_error",
    }
}

fn failure_status(error: &EnvError) -> &'static str {
    match error {
        EnvError::StepFailed { status, .. } | EnvError::Broken { status, .. } => {
            limit_status(status).unwrap_or("crashed")
        }
        _ => "crashed",
    }
}

fn limit_status(status: &str) -> Option<&'static str> {
    CHECK_STATUSES[4..].iter().find(|s| **s == status).copied()
}

impl CheckReport {
    /// A table of the counts, for a terminal.
    pub fn table(&self) -> String {
        let mut out = String::from("status            instances\n");
        for (status, n) in &self.summary.by_status {
            out.push_str(&format!("{status:<17} {n:>9}\n"));
        }
        out.push_str(&format!(
            "{:<17} {:>9}  ({:.1}% solved, {:.2} s)\n",
            "total",
            self.summary.instances,
            self.summary.solved_rate * 100.0,
            self.summary.seconds
        ));
        out
    }
}
