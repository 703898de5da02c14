//! DeepGym verifiers, unmodified: rewardbox's `python` verifier against DeepGym 0.6.2's own local
//! runner, on DeepGym's bundled single-turn coding environments (verifiers of ~25 cases each,
//! scoring their reference solutions), same machine, same run, whole-process wall time.
//!
//! Run: `cargo bench --bench deepgym` (creates a venv with deepgym==0.6.2 in the target
//! directory; DeepGym's local runner needs bubblewrap: `apt-get install bubblewrap`, which the
//! bench runs when it is root and bwrap is missing).

mod support;

use serde_json::Value;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const PEER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/deepgym_peer.py");
/// Each environment's reference solution is scored this many times by each side.
const COPIES: usize = 8;
/// The bundled environments whose verifiers need only what a sandbox without processes offers
/// (cli_task and file_organizer run the solution in a shared working directory).
const ENVS: &[&str] = &[
    "anagram_check",
    "binary_search",
    "climbing_stairs",
    "coin_change",
    "fizzbuzz",
    "group_anagrams",
    "house_robber",
    "level_order_traversal",
    "longest_common_subsequence",
    "longest_consecutive",
    "matrix_spiral",
    "max_subarray",
    "merge_intervals",
    "palindrome_check",
    "python_sorting",
    "remove_duplicates",
    "reverse_string",
    "roman_to_integer",
    "rotate_array",
    "string_manipulation",
    "top_k_frequent",
    "two_sum",
    "valid_parentheses",
];

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("deepgym");
    std::fs::create_dir_all(&dir).expect("bench directory");
    ensure_bwrap();
    let python = support::peer_venv(&dir, "deepgym==0.6.2", "deepgym");

    let peer = Command::new(&python)
        .arg(PEER)
        .arg(COPIES.to_string())
        .args(ENVS)
        .output()
        .expect("run the DeepGym peer");
    assert!(
        peer.status.success(),
        "{}",
        String::from_utf8_lossy(&peer.stderr)
    );
    let peer: Value = serde_json::from_slice(&peer.stdout).expect("peer JSON");
    let envs_dir = PathBuf::from(peer["envs_dir"].as_str().unwrap());

    // rewardbox's tasks: `rewardbox import deepgym` on the same folders, the reference solution
    // as every completion.
    let tasks = dir.join("tasks.jsonl");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&tasks).expect("tasks"));
    let mut count = 0;
    for name in ENVS {
        let mut task =
            rewardbox_import::deepgym::task_from_folder(&envs_dir.join(name)).expect("import");
        let solution = task["solution"].clone();
        task["completions"] = Value::Array(vec![solution; COPIES]);
        writeln!(out, "{task}").expect("write");
        count += COPIES;
    }
    drop(out);
    let results = dir.join("results.jsonl");
    let cache = dir.join("cache");
    support::rewardbox_score(&tasks, &results, &cache); // compile once, untimed
    let started = Instant::now();
    support::rewardbox_score(&tasks, &results, &cache);
    let seconds = started.elapsed().as_secs_f64();
    let scores: Vec<f64> = std::fs::read_to_string(&results)
        .expect("results")
        .lines()
        .flat_map(|l| {
            let r: Value = serde_json::from_str(l).expect("result");
            r["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["score"].as_f64().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;

    let peer_runs = peer["runs"].as_f64().unwrap();
    let peer_seconds = peer["seconds"].as_f64().unwrap();
    println!(
        "| {} environments x {COPIES} reference solutions | runs | seconds | runs/s | mean score |",
        ENVS.len()
    );
    println!("|---|---|---|---|---|");
    println!(
        "| DeepGym 0.6.2 local runner (bwrap, 2 parallel) | {peer_runs} | {peer_seconds:.2} | {:.1} | {:.3} |",
        peer_runs / peer_seconds,
        peer["mean_score"].as_f64().unwrap()
    );
    println!(
        "| rewardbox score (python verifier, a worker process per core) | {count} | {seconds:.2} | {:.1} | {mean:.3} |",
        count as f64 / seconds
    );
    println!(
        "ratio: {:.1}x (target >= 100x)",
        (count as f64 / seconds) / (peer_runs / peer_seconds)
    );
    if let Some(skipped) = peer["skipped"].as_array().filter(|s| !s.is_empty()) {
        println!("DeepGym could not load: {skipped:?}");
    }
}

/// Installs bubblewrap, which DeepGym's local runner needs, when it is missing and this is root.
fn ensure_bwrap() {
    let present = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if present {
        return;
    }
    eprintln!("bench: bwrap is missing; installing bubblewrap (DeepGym's local runner needs it)");
    let ok = Command::new("apt-get")
        .args(["install", "-y", "-qq", "bubblewrap"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        ok,
        "install bubblewrap (apt-get install bubblewrap) to run DeepGym's local runner"
    );
}
