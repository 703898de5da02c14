//! The `math` verifier against Math-Verify 0.9.0 on the same labelled cases, same machine, same
//! run: Math-Verify single-process in a venv this harness creates (as its users run it), then the
//! `rewardbox score` CLI with all cores over the cases repeated to a measurable size. Reports both
//! rates and both accuracies.
//!
//! Run: `cargo bench --bench math_vs_math_verify` (needs `python3` with `venv` and network access
//! to PyPI the first time; `REWARDBOX_BENCH_MATH_REPEAT` sets the repetitions, default 500).

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const CASES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/math-equivalence-dev.jsonl"
);
const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/math_verify_peer.py");
const MATH_VERIFY: &str = "math-verify==0.9.0";

fn main() {
    let repeat: usize = std::env::var("REWARDBOX_BENCH_MATH_REPEAT")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(500);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("math-vs-math-verify");
    std::fs::create_dir_all(&dir).expect("bench directory");

    let python = support::peer_venv(&dir, MATH_VERIFY, "math_verify");
    let peer = run_peer(&python);

    let cases: Vec<Value> = std::fs::read_to_string(CASES)
        .expect("cases")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("case"))
        .collect();
    let input = dir.join(format!("tasks-x{repeat}.jsonl"));
    write_tasks(&input, &cases, repeat);
    let output = dir.join("results.jsonl");
    let cache = dir.join("cache");
    let score = || support::rewardbox_score(&input, &output, &cache);
    score(); // warm the compiled-component cache
    let started = Instant::now();
    score();
    let seconds = started.elapsed().as_secs_f64();
    let agreed = agreement(&output, &cases, repeat);

    let ours = (cases.len() * repeat) as f64 / seconds;
    let theirs = peer.cases as f64 / peer.seconds;
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("| grader | cases | seconds | cases/s | agreement with labels |");
    println!("|---|---|---|---|---|");
    println!(
        "| Math-Verify 0.9.0, 1 process | {} | {:.2} | {theirs:.1} | {}/{} |",
        peer.cases, peer.seconds, peer.agreed, peer.cases
    );
    println!(
        "| rewardbox score, {threads} worker processes, whole process | {} | {seconds:.2} | {ours:.0} | {agreed}/{} |",
        cases.len() * repeat,
        cases.len()
    );
    println!("speed-up: {:.0}x (target: at least 100x)", ours / theirs);
}

struct Peer {
    cases: usize,
    seconds: f64,
    agreed: usize,
}

fn run_peer(python: &Path) -> Peer {
    let out = Command::new(python)
        .arg(PEER)
        .arg(CASES)
        .output()
        .expect("run Math-Verify");
    assert!(
        out.status.success(),
        "Math-Verify failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("peer JSON");
    Peer {
        cases: v["cases"].as_u64().expect("cases") as usize,
        seconds: v["seconds"].as_f64().expect("seconds"),
        agreed: v["agreed"].as_u64().expect("agreed") as usize,
    }
}

/// One task per case and repetition, each with the case's own settings.
fn write_tasks(path: &Path, cases: &[Value], repeat: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("tasks file"));
    for r in 0..repeat {
        for c in cases {
            let task = json!({
                "id": format!("{}-{r}", c["id"]), "verifier": "math", "reference": c["gold"],
                "extract": c["match_types"], "float_rounding": c["float_rounding"], "strict": c["strict"],
                "allow_set_relation_comp": c["allow_set_relation_comp"], "completions": [c["prediction"]],
            });
            writeln!(file, "{task}").expect("write task");
        }
    }
}

/// Cases whose verdict agrees with the label in every repetition.
fn agreement(output: &Path, cases: &[Value], repeat: usize) -> usize {
    let text = std::fs::read_to_string(output).expect("results");
    let results: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("result"))
        .collect();
    assert_eq!(results.len(), cases.len() * repeat, "one result per task");
    cases
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            (0..repeat).all(|r| {
                let res = &results[r * cases.len() + i]["results"][0];
                res["status"] == "ok" && res["passed"].as_bool() == c["expected"].as_bool()
            })
        })
        .count()
}
