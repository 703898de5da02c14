//! Helpers shared by the whole-process benchmarks: running the `rewardbox` CLI or its server, and
//! a venv holding the peer a benchmark compares against.
#![allow(dead_code)]

pub mod served;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Runs `rewardbox score --quiet` on `input` into `output`, caching compiled components in `cache`.
pub fn rewardbox_score(input: &Path, output: &Path, cache: &Path) {
    let status = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["score", "--quiet", "--cache-dir"])
        .arg(cache)
        .arg(input)
        .arg("-o")
        .arg(output)
        .status()
        .expect("run rewardbox");
    assert!(status.success(), "rewardbox score failed");
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
