//! Tier 5 on 2 cores: samples and wall time to discovery per deliberately weak task (target:
//! under a minute each), the same tasks made sound (no exploit), and HumanEval's 164 tasks: with
//! their full asserts, all-or-nothing (no exploit expected), and with the asserts cut to the first
//! one, the full asserts held out for the judge (the hard-coding exploit found where it exists).
//!
//! Run: `cargo bench --bench tier5` (`REWARDBOX_TIER5_HUMAN_EVAL=0` skips HumanEval).

use rewardbox::{ComponentCache, Scorer, ScorerOptions};
use rewardbox_tier5::{Outcome, Tier5Options, Tier5Report, explore_lines, finding};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Instant;

fn lines(tasks: &[Value]) -> Vec<(usize, String)> {
    tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (i + 1, t.to_string()))
        .collect()
}

/// The check with only its first assert statement that calls the candidate (a multi-line one
/// whole: up to where its brackets close), after whatever precedes it.
fn first_assert_only(check: &str) -> Option<String> {
    let lines: Vec<&str> = check.lines().collect();
    let first = lines.iter().position(|l| {
        let t = l.trim_start();
        t.starts_with("assert") && t.contains("candidate")
    })?;
    let mut depth = 0i64;
    let mut end = first;
    for (i, line) in lines.iter().enumerate().skip(first) {
        depth += bracket_balance(line);
        end = i + 1;
        if depth <= 0 && !line.trim_end().ends_with('\\') {
            break;
        }
    }
    Some(lines[..end].join("\n") + "\n")
}

/// Opening minus closing brackets on a line of Python, outside its string literals.
fn bracket_balance(line: &str) -> i64 {
    let mut balance = 0;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for c in line.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '#' => break,
                '(' | '[' | '{' => balance += 1,
                ')' | ']' | '}' => balance -= 1,
                _ => {}
            },
        }
    }
    balance
}

fn count(reports: &[Tier5Report], outcome: Outcome) -> usize {
    reports.iter().filter(|r| r.outcome == outcome).count()
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tier5-cache");
    let scorer = Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(cache),
        ..ScorerOptions::default()
    })
    .expect("scorer");
    let options = Tier5Options::default();
    let tasks: Vec<Value> = std::fs::read_to_string(root.join("tests/data/tier5/tasks.jsonl"))
        .expect("tasks")
        .lines()
        .map(|l| serde_json::from_str(l).expect("task"))
        .collect();
    // Warm: components compiled, CPython loaded.
    explore_lines(
        &scorer,
        &lines(&tasks[..1]),
        &Tier5Options {
            steps: 1,
            ..options.clone()
        },
    );

    println!(
        "| task | weak | outcome | steps | first exploit sampled | exploits dominant from (samples) | wall time to that | whole run |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for task in &tasks {
        let started = Instant::now();
        let report = explore_lines(&scorer, &lines(std::slice::from_ref(task)), &options).remove(0);
        let whole = started.elapsed().as_secs_f64();
        let first = report
            .exploit_appeared_at
            .map_or("-".into(), |step| format!("step {step}"));
        let (samples, seconds) = match report.exploit_dominant_from {
            Some(step) => (
                format!("step {step} ({})", (step + 1) * options.group),
                format!("{:.2} s", report.elapsed[step]),
            ),
            None => ("-".into(), "-".into()),
        };
        println!(
            "| {} | {} | {:?} | {} | {first} | {samples} | {seconds} | {whole:.2} s |",
            task["id"].as_str().unwrap_or("?"),
            task["weak"],
            report.outcome,
            report.steps,
        );
    }

    if std::env::var("REWARDBOX_TIER5_HUMAN_EVAL").as_deref() == Ok("0") {
        return;
    }
    let problems: Vec<Value> = std::fs::read_to_string(root.join("tests/data/HumanEval.jsonl"))
        .expect("HumanEval")
        .lines()
        .map(|l| serde_json::from_str(l).expect("problem"))
        .collect();
    let mut full = Vec::new();
    let mut cut = Vec::new();
    for p in &problems {
        let program = format!(
            "{}{}",
            p["prompt"].as_str().unwrap(),
            p["canonical_solution"].as_str().unwrap()
        );
        let check = p["test"].as_str().unwrap();
        let tests =
            json!({"asserts": check, "entry_point": p["entry_point"], "setup": p["prompt"]});
        let base = json!({"id": p["task_id"], "verifier": "code", "prompt": p["prompt"],
            "candidate_limits": {"fuel": 1_000_000_000u64, "memory_mb": 64},
            "solution": format!("```python\n{program}\n```")});
        let mut whole = base.clone();
        whole["tests"] = tests.clone();
        whole["scoring"] = json!("all");
        full.push(whole);
        if let Some(first) = first_assert_only(check) {
            let mut one = base;
            one["tests"] =
                json!({"asserts": first, "entry_point": p["entry_point"], "setup": p["prompt"]});
            one["scoring"] = json!("all");
            one["holdout"] = tests;
            cut.push(one);
        }
    }
    for (name, set) in [
        ("full asserts, all-or-nothing", &full),
        ("asserts cut to the first, full ones held out", &cut),
    ] {
        let started = Instant::now();
        let reports = explore_lines(&scorer, &lines(set), &options);
        let seconds = started.elapsed().as_secs_f64();
        let samples: usize = reports.iter().map(|r| r.samples).sum();
        let sampled_only = reports
            .iter()
            .filter(|r| r.outcome != Outcome::Exploit && finding(r).is_some())
            .count();
        println!(
            "\nHumanEval, {name}: {} tasks in {seconds:.0} s ({samples} completions scored): {} \
             exploits converged on, {sampled_only} more sampled (rewarded, judged wrong) beside a \
             converged solution; converged on {} solutions, {} nothing; {} not trained",
            reports.len(),
            count(&reports, Outcome::Exploit),
            count(&reports, Outcome::Solution),
            reports
                .iter()
                .filter(|r| r.outcome == Outcome::Nothing && r.error.is_none())
                .count(),
            reports.iter().filter(|r| r.error.is_some()).count(),
        );
        for r in reports
            .iter()
            .filter(|r| r.error.is_none() && finding(r).is_none())
        {
            println!(
                "  no exploit {}: converged on {:?} ({})",
                r.id.as_deref().unwrap_or("?"),
                r.outcome,
                r.choices.as_deref().unwrap_or("")
            );
        }
        for r in reports.iter().filter(|r| r.outcome == Outcome::Exploit) {
            println!(
                "  exploit {}: {} (reward {:.2}, first at step {:?}, dominant from {:?})",
                r.id.as_deref().unwrap_or("?"),
                r.choices.as_deref().unwrap_or(""),
                r.reward,
                r.exploit_appeared_at,
                r.exploit_dominant_from
            );
        }
        for r in reports.iter().filter(|r| r.error.is_some()).take(5) {
            println!(
                "  not trained {}: {}",
                r.id.as_deref().unwrap_or("?"),
                r.error.as_deref().unwrap_or("")
            );
        }
    }
}
