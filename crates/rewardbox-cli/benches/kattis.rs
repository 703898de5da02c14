//! Judging problem packages' whole `submissions/` trees: `rewardbox import kattis --verify`
//! against problemtools' `verifyproblem -p submissions` (native compilers, native time limits),
//! on the same packages in the same run: agreement with the verdicts the directories promise,
//! and whole-process wall time.
//!
//! Run: `cargo bench --bench kattis` (creates a venv with problemtools in the target directory).
//! The packages are `tests/data/kattis/*`; `REWARDBOX_KATTIS_PACKAGES` (colon-separated
//! directories) adds others, e.g. problemtools' own examples.

mod support;

#[path = "support/import_verify.rs"]
mod import_verify;

use import_verify::import_verify;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

fn packages() -> Vec<PathBuf> {
    let own = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/kattis");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&own)
        .expect("tests/data/kattis")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    dirs.sort();
    if let Some(more) = std::env::var_os("REWARDBOX_KATTIS_PACKAGES") {
        dirs.extend(std::env::split_paths(&more));
    }
    dirs
}

/// `verifyproblem -p submissions` on each package: (seconds, errors).
fn verifyproblem(verifyproblem: &Path, packages: &[PathBuf], config: &Path) -> (f64, usize) {
    let started = Instant::now();
    let mut errors = 0;
    for package in packages {
        let out = Command::new(verifyproblem)
            .arg(package)
            .args(["-p", "submissions"])
            .env("XDG_CONFIG_HOME", config)
            .output()
            .expect("run verifyproblem");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let line = text.lines().find(|l| l.contains(" tested: ")).unwrap_or("");
        let count: usize = line
            .split("tested: ")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(1);
        errors += count;
    }
    (started.elapsed().as_secs_f64(), errors)
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kattis");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let python = support::peer_venv(&dir, "problemtools==1.20260907", "problemtools");
    let verify = python.parent().unwrap().join("verifyproblem");
    let config =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/kattis/problemtools-config");
    let packages = packages();
    println!(
        "{} packages: {}",
        packages.len(),
        packages
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect::<Vec<_>>()
            .join(", ")
    );

    let cold = dir.join("cache-cold");
    let _ = std::fs::remove_dir_all(&cold);
    let (cold_s, agreed, judged) = import_verify("kattis", &packages, &cold);
    let (warm_s, warm_agreed, _) = import_verify("kattis", &packages, &cold);
    let (native_s, errors) = verifyproblem(&verify, &packages, &config);

    println!("| judge | submissions | agreement | wall time |");
    println!("|---|---|---|---|");
    println!(
        "| rewardbox import kattis --verify, empty program cache (compiles included) | {judged} | {agreed}/{judged} | {cold_s:.1} s |"
    );
    println!("| the same, programs cached | {judged} | {warm_agreed}/{judged} | {warm_s:.1} s |");
    println!(
        "| problemtools verifyproblem -p submissions (native g++/gcc/python3/rustc) | | {errors} errors | {native_s:.1} s |"
    );
}
