//! Judging IOI/CMS tasks' jury solutions: `rewardbox import cms --verify` against a native judge
//! doing the same work with the same programs in the same run (CMS itself needs its database
//! and isolate): every grader, stub, manager, checker and solution built with g++ -O2 / gcc
//! (python3 runs as it is), each solution run on each test under the task's time limit (wall
//! clock), managers talking to the processes through named pipes, every test scored by the
//! native checker or white diff, and the subtasks' scores made as CMS's GroupMin makes them.
//! The native judge runs every test; rewardbox stops a subtask at a test that scores 0.
//!
//! Run: `cargo bench --bench cms`. Two rounds of each, reported as a range; rewardbox also once
//! with an empty program cache (its compiles included, as the native judge's builds are).

#[path = "support/cms_tasks.rs"]
mod cms_tasks;

#[path = "support/import_verify.rs"]
mod import_verify;

use cms_tasks::{native_scores, task_dirs, total};
use import_verify::import_verify;
use rayon::prelude::*;
use rewardbox_import::cms::read_task;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// The native judge on every task: each solution (in parallel) built and run on every test;
/// (seconds, the solutions' totals).
fn native(tasks: &[PathBuf], work: &Path) -> (f64, Vec<(String, f64)>) {
    let started = Instant::now();
    let mut totals = Vec::new();
    for dir in tasks {
        let read = read_task(dir).unwrap();
        let seconds = read.time_limit;
        let scored: Vec<(String, f64)> = read
            .solutions
            .par_iter()
            .enumerate()
            .map(|(i, solution)| {
                let work = work.join(format!("{}-{i}", read.name));
                std::fs::create_dir_all(&work).unwrap();
                let scores = native_scores(&read, dir, &dir.join(&solution.path), &work, seconds);
                (
                    format!("{} {}", read.name, solution.path),
                    total(&read, &scores),
                )
            })
            .collect();
        totals.extend(scored);
    }
    (started.elapsed().as_secs_f64(), totals)
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cms");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let tasks = task_dirs();
    let names: Vec<String> = tasks
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    println!("{} tasks: {}", tasks.len(), names.join(", "));

    let cache = dir.join("cache");
    let (cold, agreed, judged) = import_verify("cms", &tasks, &cache);
    let (mut warm, mut natively) = (Vec::new(), Vec::new());
    let mut native_totals = Vec::new();
    for round in 0..2 {
        warm.push(import_verify("cms", &tasks, &cache).0);
        let (seconds, totals) = native(&tasks, &dir.join(format!("native{round}")));
        natively.push(seconds);
        native_totals = totals;
    }
    let range = |v: &[f64]| {
        let (lo, hi) = v
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        format!("{lo:.1}-{hi:.1} s")
    };
    println!("| judge | solutions | agreement | wall time |");
    println!("|---|---|---|---|");
    println!(
        "| rewardbox import cms --verify, empty program cache (compiles included) | {judged} | {agreed}/{judged} with their verdicts | {cold:.1} s |"
    );
    println!(
        "| the same, programs cached (2 rounds) | {judged} | {agreed}/{judged} | {} |",
        range(&warm)
    );
    println!(
        "| native judge: g++ -O2/gcc builds + runs under the time limit, FIFOs for managers (2 rounds) | {} | totals computed natively | {} |",
        native_totals.len(),
        range(&natively)
    );
    let lo = |v: &[f64]| v.iter().cloned().fold(f64::MAX, f64::min);
    let hi = |v: &[f64]| v.iter().cloned().fold(0f64, f64::max);
    println!(
        "rewardbox (cached) / native: {:.2}-{:.2}x the native judge's time; cold: {:.2}x",
        lo(&warm) / hi(&natively),
        hi(&warm) / lo(&natively),
        cold / lo(&natively)
    );
}
