//! End-to-end throughput of the `rewardbox score` command: 1,000,000 short completions (125,000
//! tasks of 8 completions through `exact` and `numeric`), whole process, all cores.
//!
//! Run: `cargo bench --bench cli_throughput` (set `REWARDBOX_BENCH_COMPLETIONS` for another size).

mod support;

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

const GROUP: usize = 8;

fn main() {
    let completions: usize = std::env::var("REWARDBOX_BENCH_COMPLETIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-throughput");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let input = dir.join(format!("tasks-{completions}.jsonl"));
    if !input.exists() {
        write_tasks(&input, completions / GROUP);
    }
    let output = dir.join("results.jsonl");
    let cache = dir.join("cache");

    let score = || support::rewardbox_score(&input, &output, &cache);

    // Warm the compiled-component cache so that the timed run measures scoring, as every run after
    // a user's first does.
    score();
    let started = Instant::now();
    score();
    let seconds = started.elapsed().as_secs_f64();
    let lines = std::fs::read_to_string(&output)
        .expect("results")
        .lines()
        .count();
    assert_eq!(lines, completions / GROUP, "one result line per task");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!(
        "rewardbox score: {} completions in {seconds:.2} s = {:.0} completions/s on {threads} cores \
         (whole process, including start-up, JSON parsing and writing)",
        completions / GROUP * GROUP,
        (completions / GROUP * GROUP) as f64 / seconds
    );
}

/// Writes `tasks` lines, alternating `exact` and `numeric`, half the completions right.
fn write_tasks(path: &PathBuf, tasks: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).expect("tasks file"));
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for t in 0..tasks {
        let reference = next() % 1000;
        let completions: Vec<String> = (0..GROUP)
            .map(|_| {
                if next() % 2 == 0 {
                    reference.to_string()
                } else {
                    (next() % 1000).to_string()
                }
            })
            .collect();
        let verifier = if t % 2 == 0 { "exact" } else { "numeric" };
        let line = serde_json::json!({"id": format!("t{t}"), "verifier": verifier, "reference": reference.to_string(),
            "completions": completions});
        writeln!(file, "{line}").expect("write task");
    }
}
