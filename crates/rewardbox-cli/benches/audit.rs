//! `rewardbox audit` throughput: attacks per second on the bundled examples, and the wall time of a
//! full audit of HumanEval's 164 tasks (asserts with the canonical solution as reference and as the
//! known-good `solution`, so mutation fuzzing runs too). Whole process, all cores.
//!
//! Run: `cargo bench --bench audit`. The HumanEval tasks give each candidate run 10^9 fuel and
//! 64 MiB (about 0.1 s of Python), so attacks that loop or flood end quickly.

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn audit(tasks: &Path, report: &Path, cache: &Path) -> (f64, Value) {
    let started = Instant::now();
    let status = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["audit", "--quiet", "--cache-dir"])
        .arg(cache)
        .arg(tasks)
        .arg("-o")
        .arg(report)
        .status()
        .expect("rewardbox audit");
    assert!(status.success());
    let seconds = started.elapsed().as_secs_f64();
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(report).expect("report")).expect("json");
    (seconds, report["summary"].clone())
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("audit");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let cache = dir.join("cache");
    let examples = root.join("examples/tasks.jsonl");
    audit(&examples, &dir.join("warm.json"), &cache); // compile into the cache
    let (seconds, summary) = audit(&examples, &dir.join("examples.json"), &cache);
    let attacks = summary["attacks"].as_u64().unwrap_or(0) as f64;
    println!(
        "| audit | tasks | attacks | wall time | attacks/s | exploits | false rejections | weak tests | unscored |"
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    println!(
        "| bundled examples | {} | {attacks} | {seconds:.1} s | {:.0} | {} | {} | {} | {} |",
        summary["tasks"],
        attacks / seconds,
        summary["exploits"],
        summary["false_rejections"],
        summary["weak_tests"],
        summary["unscored"]
    );

    let human_eval = dir.join("human-eval-audit.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&human_eval).expect("tasks"));
    for line in std::fs::read_to_string(root.join("tests/data/HumanEval.jsonl"))
        .expect("HumanEval")
        .lines()
    {
        let p: Value = serde_json::from_str(line).expect("problem");
        let program = format!(
            "{}{}",
            p["prompt"].as_str().unwrap(),
            p["canonical_solution"].as_str().unwrap()
        );
        let task = json!({"id": p["task_id"], "verifier": "code", "prompt": p["prompt"],
            "tests": {"asserts": p["test"], "entry_point": p["entry_point"], "reference": program},
            "candidate_limits": {"fuel": 1_000_000_000u64, "memory_mb": 64},
            "solution": format!("```python\n{program}\n```")});
        writeln!(f, "{task}").expect("write");
    }
    drop(f);
    let (seconds, summary) = audit(&human_eval, &dir.join("human-eval.json"), &cache);
    let attacks = summary["attacks"].as_u64().unwrap_or(0) as f64;
    println!(
        "| HumanEval (164 tasks, with mutation fuzzing) | {} | {attacks} | {seconds:.1} s | {:.0} | {} | {} | {} | {} |",
        summary["tasks"],
        attacks / seconds,
        summary["exploits"],
        summary["false_rejections"],
        summary["weak_tests"],
        summary["unscored"]
    );
    println!(
        "exploits by family on HumanEval: {}",
        summary["exploits_by_family"]
    );
}
