//! Sandboxed Python against Monty (`pydantic-monty` 1.4.0, a Rust interpreter of a subset of
//! Python run in a pool of worker processes) and native CPython, same machine, same run, whole
//! processes, caches warm, medians of 3:
//!
//! 1. a fresh sandbox running a trivial program: 4,000 `print(i)` stdio tasks through
//!    `rewardbox score` (Python engine `auto`, then `cpython`), against 4,000 fresh Monty sessions
//!    on as many workers as cores;
//! 2. HumanEval x 10 distinct (1,640 samples) through `rewardbox eval` (checks of the planned
//!    shape run as calls in the candidate's one sandbox, compared by the host; the others live,
//!    in a checking sandbox of their own), against Monty running prompt + completion + test +
//!    `check(entry_point)` in a fresh session per sample (the check then runs in the candidate's
//!    own interpreter: Monty has no other way);
//! 3. a compute-bound loop (3 million iterations): time inside the sandbox (the result's
//!    `wall_us`) and of the whole `rewardbox score` process, with each engine, against one Monty
//!    run and native `python3`.
//!
//! Run: `cargo bench --bench python_vs_monty` (creates a venv with pydantic-monty in the target
//! directory; needs the Python runner in the build). `REWARDBOX_BENCH_TRIVIAL_RUNS` sets another
//! count for (1).

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/monty_peer.py");
const COPIES: usize = 10;
const RUNS: usize = 3;
const LOOP: &str = "s = 0\nfor i in range(3_000_000):\n    s += i & 7\nprint(s)\n";
const LOOP_OUTPUT: &str = "10500000";

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("python-vs-monty");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let python = support::peer_venv(&dir, "pydantic-monty==1.4.0", "pydantic_monty");
    let cache = dir.join("cache");
    let trivial_runs: usize = std::env::var("REWARDBOX_BENCH_TRIVIAL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4000);

    // 1. Trivial runs.
    let trivial = dir.join("trivial.jsonl");
    write_trivial_tasks(&trivial, trivial_runs);
    let output = dir.join("trivial-results.jsonl");
    support::rewardbox_score(&trivial, &output, &cache); // fill the cache, unmeasured
    let timed = |engine: &str| {
        support::median(RUNS, || {
            let started = Instant::now();
            support::rewardbox_score_with(&trivial, &output, &cache, &["--python-engine", engine]);
            let seconds = started.elapsed().as_secs_f64();
            assert_eq!(passed_tasks(&output), trivial_runs, "every print(i) passes");
            seconds
        })
    };
    let ours = timed("auto");
    let cpython_only = timed("cpython");
    let theirs = support::median(RUNS, || {
        let report = peer(
            &python,
            &["trivial", &trivial_runs.to_string(), &cores.to_string()],
        );
        assert_eq!(report["correct"], trivial_runs, "Monty: {report}");
        report["seconds"].as_f64().expect("seconds")
    });
    println!(
        "| fresh sandbox + print(i), {trivial_runs} runs, {cores} cores | wall time (median of {RUNS}) | runs/s |"
    );
    println!("|---|---|---|");
    println!(
        "| rewardbox score (code stdio tasks, whole process; python_engine auto) | {ours:.2} s | {:.0} |",
        trivial_runs as f64 / ours
    );
    println!(
        "| rewardbox score, python_engine cpython | {cpython_only:.2} s | {:.0} |",
        trivial_runs as f64 / cpython_only
    );
    println!(
        "| Monty (a fresh session per run, {cores} workers) | {theirs:.2} s | {:.0} |",
        trivial_runs as f64 / theirs
    );
    println!();

    // 2. HumanEval x 10 distinct.
    let samples = dir.join("humaneval-samples.jsonl");
    let n = support::write_human_eval_copies(&samples, COPIES);
    let results = dir.join("humaneval-results.jsonl");
    let eval = || {
        support::rewardbox_eval(&samples, &results, &cache, &[]);
    };
    eval(); // fill the cache, unmeasured
    let ours = support::median(RUNS, || {
        let started = Instant::now();
        eval();
        started.elapsed().as_secs_f64()
    });
    let our_passed = support::passed_samples(&results);
    let mut monty_report = Value::Null;
    let theirs = support::median(RUNS, || {
        monty_report = peer(
            &python,
            &[
                "humaneval",
                support::HUMAN_EVAL,
                samples.to_str().expect("utf-8 path"),
                &cores.to_string(),
            ],
        );
        monty_report["seconds"].as_f64().expect("seconds")
    });
    println!(
        "| HumanEval canonical x {COPIES} distinct ({n} samples), {cores} cores | wall time (median of {RUNS}) | passed |"
    );
    println!("|---|---|---|");
    println!(
        "| rewardbox eval (checks outside the candidate: planned by the host, or live) | {ours:.2} s | {our_passed}/{n} |"
    );
    println!(
        "| Monty (program + check in one fresh session, {cores} workers) | {theirs:.2} s | {}/{n} ({} failed, {} could not run) |",
        monty_report["passed"], monty_report["failed"], monty_report["error"]
    );
    println!("rewardbox / Monty: {:.2}x the time", ours / theirs);
    println!();

    // 3. Compute-bound loop.
    let loop_task = dir.join("loop.jsonl");
    let loop_program = dir.join("loop.py");
    std::fs::write(&loop_program, LOOP).expect("loop program");
    std::fs::write(
        &loop_task,
        format!(
            "{}\n",
            json!({"id": "loop", "verifier": "code",
                   "tests": {"stdio": [{"stdin": "", "stdout": LOOP_OUTPUT}]},
                   "completions": [format!("```python\n{LOOP}```")]})
        ),
    )
    .expect("loop task");
    let loop_results = dir.join("loop-results.jsonl");
    let loop_in = |engine: &str| {
        let mut inside = Vec::new();
        let whole = support::median(RUNS, || {
            let started = Instant::now();
            support::rewardbox_score_with(
                &loop_task,
                &loop_results,
                &cache,
                &["--python-engine", engine],
            );
            let seconds = started.elapsed().as_secs_f64();
            let result: Value = serde_json::from_str(
                std::fs::read_to_string(&loop_results)
                    .expect("loop result")
                    .lines()
                    .next()
                    .expect("one line"),
            )
            .expect("result JSON");
            let run = &result["results"][0];
            assert_eq!(run["passed"], true, "the loop passes: {run}");
            inside.push(run["wall_us"].as_f64().expect("wall_us") / 1e6);
            seconds
        });
        inside.sort_by(f64::total_cmp);
        (inside[inside.len() / 2], whole)
    };
    let (inside, whole) = loop_in("auto");
    let (cpython_inside, cpython_whole) = loop_in("cpython");
    let monty_loop = support::median(RUNS, || {
        let report = peer(&python, &["loop", loop_program.to_str().expect("utf-8")]);
        assert_eq!(
            report["stdout"],
            format!("{LOOP_OUTPUT}\n"),
            "Monty: {report}"
        );
        report["seconds"].as_f64().expect("seconds")
    });
    let native = support::median(RUNS, || {
        let started = Instant::now();
        let out = Command::new("python3")
            .arg(&loop_program)
            .output()
            .expect("python3");
        assert!(out.status.success());
        started.elapsed().as_secs_f64()
    });
    println!("| a 3M-iteration loop | wall time (median of {RUNS}) | against native |");
    println!("|---|---|---|");
    println!(
        "| rewardbox (python_engine auto), inside the sandbox (wall_us) | {inside:.2} s | {:.2}x |",
        inside / native
    );
    println!(
        "| rewardbox score (auto), whole process | {whole:.2} s | {:.2}x |",
        whole / native
    );
    println!(
        "| rewardbox (python_engine cpython), inside the sandbox | {cpython_inside:.2} s | {:.2}x |",
        cpython_inside / native
    );
    println!(
        "| rewardbox score (cpython), whole process | {cpython_whole:.2} s | {:.2}x |",
        cpython_whole / native
    );
    println!(
        "| Monty (one run) | {monty_loop:.2} s | {:.2}x |",
        monty_loop / native
    );
    println!("| native python3 (whole process) | {native:.2} s | 1x |");
}

/// `runs` code tasks, each one completion printing its own number and one stdio case expecting it.
fn write_trivial_tasks(path: &Path, runs: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("tasks"));
    for i in 0..runs {
        writeln!(
            f,
            "{}",
            json!({"id": format!("t{i}"), "verifier": "code",
                   "tests": {"stdio": [{"stdin": "", "stdout": i.to_string()}]},
                   "completions": [format!("```python\nprint({i})\n```")]})
        )
        .expect("write");
    }
}

fn passed_tasks(results: &Path) -> usize {
    std::fs::read_to_string(results)
        .expect("results")
        .lines()
        .filter(|l| {
            serde_json::from_str::<Value>(l).expect("result")["results"][0]["passed"] == true
        })
        .count()
}

/// Runs the peer script with `args` and parses the JSON line it prints.
fn peer(python: &Path, args: &[&str]) -> Value {
    let out = Command::new(python)
        .arg(PEER)
        .args(args)
        .output()
        .expect("monty peer");
    assert!(
        out.status.success(),
        "monty peer failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    support::last_json_line(&out.stdout)
}
