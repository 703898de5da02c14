//! The sandboxed CPython runner against native `python3`, same machine, same run:
//!
//! 1. start-up: a fresh sandboxed CPython instance running `print(1)`, on all cores (threads of
//!    one process, and one single-threaded process per core, as `rewardbox score` runs), against
//!    starting a native `python3 -c 'print(1)'` process per run (no isolation at all);
//! 2. compute-heavy Python (a loop of about 300 million bytecodes): slowdown against native
//!    `python3`, with fuel metering on (as rewardbox runs) and off.
//!
//! Run: `cargo bench --bench python_runner` (needs the Python runner in the build: run
//! `scripts/python-tools.sh` before building).

use rayon::prelude::*;
use rewardbox::ComponentCache;
use rewardbox::Limits;
use rewardbox::candidates::Runtime;
use rewardbox::sandboxes::DEFAULT_INSTANCES_PER_THREAD;
use rewardbox::{Sandboxes, SandboxesBuilder};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const TRIVIAL: &str = "print(1)";
const HEAVY: &str = "s = 0\nfor i in range(40_000_000):\n    s += i & 7\nprint(s)";

/// Runs of `print(1)` in total for the start-up measurements.
const STARTS: usize = 4000;

fn limits() -> Limits {
    Limits {
        fuel: u64::MAX / 4,
        wall_ms: 600_000,
        ..Limits::default()
    }
}

fn cache() -> ComponentCache {
    ComponentCache::in_dir(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("runner-cache"))
}

/// An engine of `threads` threads, metered in fuel or not, with its runners.
fn engine_with_runners(threads: usize, fuel: bool, cache: rewardbox::ComponentCache) -> Sandboxes {
    SandboxesBuilder::for_runs(threads)
        .instances_per_thread(DEFAULT_INSTANCES_PER_THREAD)
        .fuel(fuel)
        .cache(cache)
        .build()
        .expect("the engine and runners")
}

/// One child of the per-process measurement: a one-thread engine, warmed, that waits for a line
/// on stdin, runs `runs` fresh instances and exits.
fn child(runs: usize) {
    let limits = limits();
    let sandboxes = engine_with_runners(1, true, cache());
    let (engine, runners) = (sandboxes.engine(), sandboxes.runners());
    let python = runners.python().expect("runner");
    for i in 0..10 {
        python.run(engine, TRIVIAL, "", &limits, i);
    }
    println!("ready");
    let mut go = String::new();
    std::io::stdin().read_line(&mut go).expect("go");
    for i in 0..runs {
        let out = python.run(engine, TRIVIAL, "", &limits, i as u64);
        assert_eq!(out.stdout, "1\n");
    }
}

/// `STARTS` runs split over one child process per core, timed from the go to the last exit.
fn per_process_rate(processes: usize) -> f64 {
    use std::io::{BufRead, BufReader, Write};
    let runs = STARTS / processes;
    let mut children: Vec<_> = (0..processes)
        .map(|_| {
            Command::new(std::env::current_exe().expect("bench binary"))
                .env("REWARDBOX_BENCH_CHILD", runs.to_string())
                .stdin(std::process::Stdio::piped())
                .stdout(std::process::Stdio::piped())
                .spawn()
                .expect("child")
        })
        .collect();
    for child in &mut children {
        let mut ready = String::new();
        BufReader::new(child.stdout.as_mut().expect("piped"))
            .read_line(&mut ready)
            .expect("ready");
        assert_eq!(ready.trim(), "ready");
    }
    let started = Instant::now();
    for child in &mut children {
        writeln!(child.stdin.as_mut().expect("piped"), "go").expect("go");
    }
    for child in &mut children {
        assert!(child.wait().expect("child").success());
    }
    (runs * processes) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    if let Some(runs) = std::env::var("REWARDBOX_BENCH_CHILD")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        return child(runs);
    }
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cache = cache();
    let limits = limits();

    let sandboxes = engine_with_runners(threads, true, cache.clone());
    let (engine, runners) = (sandboxes.engine(), sandboxes.runners());
    let python = runners.python().expect("this build has the Python runner");

    // 1. Start-up.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(rewardbox::sandboxes::THREAD_STACK_BYTES)
        .build()
        .expect("pool");
    let n = STARTS;
    pool.install(|| {
        (0..threads * 10).into_par_iter().for_each(|i| {
            python.run(engine, TRIVIAL, "", &limits, i as u64);
        })
    });
    let started = Instant::now();
    pool.install(|| {
        (0..n).into_par_iter().for_each(|i| {
            let out = python.run(engine, TRIVIAL, "", &limits, i as u64);
            assert_eq!(out.stdout, "1\n");
        })
    });
    let sandboxed_rate = n as f64 / started.elapsed().as_secs_f64();
    let process_rate = per_process_rate(threads);

    // The interpreter itself, not a launcher in front of it (pyenv's shims are shell scripts).
    let native_python = String::from_utf8(
        Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3")
            .stdout,
    )
    .expect("a path")
    .trim()
    .to_string();
    let native_n = 200;
    let started = Instant::now();
    pool.install(|| {
        (0..native_n).into_par_iter().for_each(|_| {
            let out = Command::new(&native_python)
                .args(["-c", TRIVIAL])
                .output()
                .expect("python3");
            assert_eq!(out.stdout, b"1\n");
        })
    });
    let native_rate = native_n as f64 / started.elapsed().as_secs_f64();
    println!("| start a fresh interpreter and run print(1), {threads} threads | runs/s |");
    println!("|---|---|");
    println!(
        "| rewardbox sandboxed CPython (new Store + instance per run), threads of one process | {sandboxed_rate:.0} |"
    );
    println!(
        "| rewardbox sandboxed CPython, one single-threaded process per core (as rewardbox score) | {process_rate:.0} |"
    );
    println!("| native python3 process per run (no isolation) | {native_rate:.0} |");
    println!(
        "ratio: {:.1}x with threads, {:.1}x with processes (targets: >= 2,000 runs/s and >= 15x)\n",
        sandboxed_rate / native_rate,
        process_rate / native_rate
    );

    // 2. Compute-heavy, one thread each.
    let started = Instant::now();
    let out = Command::new(&native_python)
        .args(["-c", HEAVY])
        .output()
        .expect("python3");
    let native_s = started.elapsed().as_secs_f64();
    let expected = String::from_utf8(out.stdout).expect("utf-8");
    let started = Instant::now();
    let fueled = python.run(engine, HEAVY, "", &limits, 0);
    let fuel_s = started.elapsed().as_secs_f64();
    assert_eq!(fueled.stdout, expected, "{}", fueled.stderr);

    let sandboxes_nofuel = engine_with_runners(1, false, cache);
    let (engine_nofuel, runners_nofuel) = (sandboxes_nofuel.engine(), sandboxes_nofuel.runners());
    let python_nofuel = runners_nofuel.python().expect("runner");
    python_nofuel.run(engine_nofuel, TRIVIAL, "", &limits, 0);
    let started = Instant::now();
    let unfueled = python_nofuel.run(engine_nofuel, HEAVY, "", &limits, 0);
    let nofuel_s = started.elapsed().as_secs_f64();
    assert_eq!(unfueled.stdout, expected, "{}", unfueled.stderr);
    println!("| compute-heavy loop (40M iterations) | seconds | slowdown vs native |");
    println!("|---|---|---|");
    println!("| native python3 | {native_s:.2} | 1.0x |");
    println!(
        "| rewardbox, fuel on ({} fuel) | {fuel_s:.2} | {:.1}x |",
        fueled.fuel_used,
        fuel_s / native_s
    );
    println!(
        "| rewardbox, fuel off | {nofuel_s:.2} | {:.1}x |",
        nofuel_s / native_s
    );
}
