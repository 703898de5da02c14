//! Tier 5 on 2 cores: the twin table (`tests/data/tier5/twins.jsonl`, weak tasks and the same
//! tasks made sound) over seeds 0-7, with samples and wall time to discovery per weak task
//! (target: under a minute each); and HumanEval's 164 tasks: with their full asserts,
//! all-or-nothing, and with the asserts cut to the first one, the full asserts held out for the
//! judge (the hard-coding exploit found where it exists).
//!
//! Run: `cargo bench --bench tier5`. `REWARDBOX_TIER5_SEEDS=n` runs seeds 0..n of the table
//! (`a..b`: seeds a to b-1), `REWARDBOX_TIER5_HUMAN_EVAL=0` skips HumanEval,
//! `REWARDBOX_TIER5_SEQUENTIAL=full` (`cut`, `both`, `table`) also trains that set's tasks one at
//! a time for the speed-up (each mode with a fresh scorer, so that neither reuses the other's
//! remembered runs), `REWARDBOX_TIER5_OUTCOMES=file` appends each HumanEval task's outcome,
//! finding and judge to `file`.

use rewardbox::{ComponentCache, Scorer, ScorerOptions};
use rewardbox_audit::tier5::{Outcome, Tier5Options, Tier5Report, explore_lines, finding};
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
    let options = Tier5Options::default();
    let twins: Vec<Value> = std::fs::read_to_string(root.join("tests/data/tier5/twins.jsonl"))
        .expect("the twin table")
        .lines()
        .map(|l| serde_json::from_str(l).expect("task"))
        .collect();
    // A scorer with nothing remembered (its run memo empty), warmed: components compiled (from
    // the disk cache after the first), CPython loaded. Each timed mode of a speed-up gets its
    // own, so that neither answers from runs the other made.
    let fresh_scorer = || {
        let scorer = Scorer::new(ScorerOptions {
            threads: Some(2),
            cache: ComponentCache::in_dir(cache.clone()),
            ..ScorerOptions::default()
        })
        .expect("scorer");
        explore_lines(
            &scorer,
            &lines(&twins[..1]),
            &Tier5Options {
                steps: 1,
                ..options.clone()
            },
        );
        scorer
    };
    let scorer = fresh_scorer();
    // A set trained one task at a time on a fresh scorer, in seconds (beside the same set in
    // parallel on another fresh scorer: the speed-up).
    let one_task_at_a_time = |set: &[(usize, String)], options: &Tier5Options| {
        let scorer = fresh_scorer();
        let started = Instant::now();
        for line in set {
            explore_lines(&scorer, std::slice::from_ref(line), options);
        }
        started.elapsed().as_secs_f64()
    };

    // The twin table over seeds 0-7 (`REWARDBOX_TIER5_SEEDS=n` runs seeds 0..n): per task, in
    // how many seeds the weak twin's exploit was found (converged on, or sampled beside a
    // solution it ties with) and the sound twin gave no finding and converged on the solution or
    // on nothing; the steps to dominance and the wall time to it, median over the seeds.
    let seeds: std::ops::Range<u64> = match std::env::var("REWARDBOX_TIER5_SEEDS") {
        Ok(range) => match range.split_once("..") {
            Some((a, b)) => a.parse().expect("seeds a..b")..b.parse().expect("seeds a..b"),
            None => 0..range.parse().expect("REWARDBOX_TIER5_SEEDS: n or a..b"),
        },
        Err(_) => 0..8,
    };
    let runs = seeds.end - seeds.start;
    let mut right = vec![0usize; twins.len()];
    let mut outcomes: Vec<Vec<String>> = vec![Vec::new(); twins.len()];
    let mut dominance: Vec<Vec<(usize, f64)>> = vec![Vec::new(); twins.len()];
    let mut whole: Vec<Vec<f64>> = vec![Vec::new(); twins.len()];
    let mut run_seconds = Vec::new();
    for seed in seeds.clone() {
        // 60 steps, as the suite's table test trains.
        let seeded = Tier5Options {
            seed,
            steps: 60,
            ..options.clone()
        };
        let table_speed_up = std::env::var("REWARDBOX_TIER5_SEQUENTIAL").as_deref() == Ok("table");
        let one_at_a_time = table_speed_up.then(|| one_task_at_a_time(&lines(&twins), &seeded));
        let parallel_scorer = table_speed_up.then(fresh_scorer);
        let started = Instant::now();
        let reports = explore_lines(
            parallel_scorer.as_ref().unwrap_or(&scorer),
            &lines(&twins),
            &seeded,
        );
        run_seconds.push(started.elapsed().as_secs_f64());
        if let Some(sequential) = one_at_a_time {
            let parallel = run_seconds.last().unwrap();
            eprintln!(
                "seed {seed}: {sequential:.0} s one task at a time, {parallel:.0} s in parallel \
                 ({:.2}x; each with a fresh scorer)",
                sequential / parallel
            );
        }
        for (i, (task, report)) in twins.iter().zip(&reports).enumerate() {
            let ok = report.is_right_for(task["weak"] == true);
            right[i] += usize::from(ok);
            outcomes[i].push(
                serde_json::to_value(report.outcome)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
            );
            if let Some(step) = report.exploit_dominant_from {
                dominance[i].push((step, report.elapsed[step]));
            }
            whole[i].push(report.elapsed.last().copied().unwrap_or(0.0));
        }
        let wrong: Vec<&str> = twins
            .iter()
            .zip(&outcomes)
            .enumerate()
            .filter(|(i, _)| right[*i] < outcomes[*i].len())
            .map(|(_, (t, _))| t["id"].as_str().unwrap_or("?"))
            .collect();
        eprintln!(
            "seed {seed}: {:.0} s; wrong so far: {wrong:?}",
            run_seconds.last().unwrap()
        );
    }
    let median = |mut v: Vec<f64>| -> Option<f64> {
        v.sort_by(f64::total_cmp);
        (!v.is_empty()).then(|| v[v.len() / 2])
    };
    println!(
        "| task | family | weak | right in seeds | outcomes (seed by seed) | exploits dominant from (median step) | wall time to that (median) | whole run (median) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for (i, task) in twins.iter().enumerate() {
        let steps = median(dominance[i].iter().map(|d| d.0 as f64).collect());
        let seconds = median(dominance[i].iter().map(|d| d.1).collect());
        println!(
            "| {} | {} | {} | {}/{runs} | {} | {} | {} | {:.2} s |",
            task["id"].as_str().unwrap_or("?"),
            task["family"].as_str().unwrap_or("?"),
            task["weak"],
            right[i],
            outcomes[i].join(" "),
            steps.map_or("-".into(), |s| format!(
                "step {s:.0} ({} samples)",
                (s as usize + 1) * options.group
            )),
            seconds.map_or("-".into(), |s| format!("{s:.2} s")),
            median(whole[i].clone()).unwrap_or(0.0),
        );
    }
    let total: usize = right.iter().sum();
    println!(
        "\nTwin table: {total} of {} task-seeds right; each seed's whole table (tasks in \
         parallel): {} s",
        twins.len() * runs as usize,
        run_seconds
            .iter()
            .map(|s| format!("{s:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    );

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
    let sequential = std::env::var("REWARDBOX_TIER5_SEQUENTIAL").unwrap_or_default();
    for (key, name, set) in [
        ("full", "full asserts, all-or-nothing", &full),
        ("cut", "asserts cut to the first, full ones held out", &cut),
    ] {
        // One task at a time (as before tasks trained in parallel), then in parallel: the same
        // reports (each task seeded by its id), the wall time of each.
        let speed_up = sequential == key || sequential == "both";
        let sequential_seconds = speed_up.then(|| one_task_at_a_time(&lines(set), &options));
        let parallel_scorer = speed_up.then(fresh_scorer);
        let started = Instant::now();
        let reports = explore_lines(
            parallel_scorer.as_ref().unwrap_or(&scorer),
            &lines(set),
            &options,
        );
        let seconds = started.elapsed().as_secs_f64();
        let samples: usize = reports.iter().map(|r| r.samples).sum();
        let sampled_only = reports
            .iter()
            .filter(|r| r.outcome != Outcome::Exploit && finding(r).is_some())
            .count();
        let degenerate = reports
            .iter()
            .filter(|r| r.judge_power.is_some_and(|p| p.is_degenerate()))
            .count();
        println!(
            "\nHumanEval, {name}: {} tasks in {seconds:.0} s, tasks in parallel{} ({samples} \
             completions scored): {} exploits converged on, {sampled_only} more sampled \
             (rewarded, judged wrong) beside a converged solution; converged on {} solutions, {} \
             unjudged, {} nothing; {} not trained; {degenerate} degenerate judges",
            reports.len(),
            sequential_seconds.map_or_else(String::new, |s| format!(
                " ({s:.0} s one task at a time: {:.2}x)",
                s / seconds
            )),
            count(&reports, Outcome::Exploit),
            count(&reports, Outcome::Solution),
            count(&reports, Outcome::Unjudged),
            reports
                .iter()
                .filter(|r| r.outcome == Outcome::Nothing && r.error.is_none())
                .count(),
            reports.iter().filter(|r| r.error.is_some()).count(),
        );
        // Per task, for comparing runs: id, outcome, whether there is a finding, the judge.
        if let Ok(path) = std::env::var("REWARDBOX_TIER5_OUTCOMES") {
            let rows: String = reports
                .iter()
                .map(|r| {
                    format!(
                        "{}\t{}\t{:?}\t{}\t{}\n",
                        name,
                        r.id.as_deref().unwrap_or("?"),
                        r.outcome,
                        finding(r).is_some(),
                        r.judge
                    )
                })
                .collect();
            use std::io::Write;
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .and_then(|mut f| f.write_all(rows.as_bytes()))
                .expect("writing REWARDBOX_TIER5_OUTCOMES");
        }
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
