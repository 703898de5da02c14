//! `rewardbox import <format> --verify` timed, as the Kattis, Polygon and CMS benches run it.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// `rewardbox import <format> --verify` on `dirs` with the compiled-program cache in `cache`:
/// (seconds, agreed, judged), read from its summary line (`rewardbox: 29 of 29 jury ...`). The
/// programs whose verdict differs are printed.
pub fn import_verify(format: &str, dirs: &[PathBuf], cache: &Path) -> (f64, usize, usize) {
    let started = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["import", format, "--verify", "--cache-dir"])
        .arg(cache)
        .args(dirs)
        .args(["-o", "/dev/null"])
        .output()
        .expect("run rewardbox");
    let seconds = started.elapsed().as_secs_f64();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let words = stderr
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.len() > 4 && w[2] == "of" && w[4] == "jury")
        .unwrap_or_else(|| panic!("no summary:\n{stderr}"));
    for line in stderr.lines().filter(|l| l.contains("DIFFERS")) {
        eprintln!("  {line}");
    }
    (
        seconds,
        words[1].parse().unwrap(),
        words[3].parse().unwrap(),
    )
}
