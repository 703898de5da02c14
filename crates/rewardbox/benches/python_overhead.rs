//! Overhead of the Python layer: one GRPO step (256 prompts x 8 completions, `numeric`) scored
//! through the Rust API and through `rewardbox.Scorer.score` from Python, same batch, same machine,
//! same run. Both start from in-memory tasks (Rust: JSON values; Python: dicts) and end with
//! in-memory results (Rust: `TaskResult`s; Python: dicts).
//!
//! Run: `cargo bench --bench python_overhead` (builds the Python package into `.venv` with
//! `scripts/python-env.sh` first). Target: at most 10 percent.

use rewardbox::{ComponentCache, Scorer, ScorerOptions, Task};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const PROMPTS: usize = 256;
const GROUP: usize = 8;
const REPS: usize = 30;

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("python-overhead");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let cache = dir.join("cache");
    let batch = grpo_step();
    let batch_file = dir.join("batch.json");
    std::fs::write(&batch_file, serde_json::to_string(&batch).expect("json")).expect("write batch");

    let status = Command::new(root.join("scripts/python-env.sh"))
        .status()
        .expect("python-env.sh");
    assert!(status.success(), "scripts/python-env.sh failed");
    let out = Command::new(root.join(".venv/bin/python"))
        .arg(root.join("crates/rewardbox/benches/python_overhead.py"))
        .arg(&batch_file)
        .arg(REPS.to_string())
        .arg(&cache)
        .output()
        .expect("run the Python side");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py: Value = serde_json::from_slice(&out.stdout).expect("python result");
    let python_s = py["median_seconds"].as_f64().expect("seconds");

    let scorer = Scorer::new(ScorerOptions {
        cache: ComponentCache::in_dir(&cache),
        ..Default::default()
    })
    .expect("scorer");
    let run = || {
        let tasks: Vec<Task> = batch
            .iter()
            .map(|v| Task::from_value(v.clone()).expect("task"))
            .collect();
        std::hint::black_box(scorer.score_tasks(&tasks));
    };
    run();
    let mut times: Vec<f64> = (0..REPS)
        .map(|_| {
            let started = Instant::now();
            run();
            started.elapsed().as_secs_f64()
        })
        .collect();
    times.sort_by(f64::total_cmp);
    let rust_s = times[REPS / 2];

    println!("| path | median of {REPS} | completions/s |");
    println!("|---|---|---|");
    let n = (PROMPTS * GROUP) as f64;
    println!(
        "| Rust API (`Scorer::score_tasks`) | {:.2} ms | {:.0} |",
        rust_s * 1e3,
        n / rust_s
    );
    println!(
        "| Python (`rewardbox.Scorer.score`) | {:.2} ms | {:.0} |",
        python_s * 1e3,
        n / python_s
    );
    println!(
        "Python layer overhead: {:+.1}% on {} threads (target: at most 10%)",
        (python_s - rust_s) / rust_s * 100.0,
        scorer.threads()
    );
}

/// 256 prompts x 8 completions for `numeric`, half of them right.
fn grpo_step() -> Vec<Value> {
    (0..PROMPTS)
        .map(|p| {
            let reference = (p * 37 % 1000).to_string();
            let completions: Vec<String> = (0..GROUP)
                .map(|k| {
                    if k % 2 == 0 {
                        format!("Let me compute. The answer is {reference}.")
                    } else {
                        format!("Let me compute. The answer is {}.", p * 37 % 1000 + k)
                    }
                })
                .collect();
            json!({"id": format!("p{p}"), "verifier": "numeric", "reference": reference, "completions": completions})
        })
        .collect()
}
