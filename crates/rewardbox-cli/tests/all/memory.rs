//! Resident memory of `rewardbox serve` (its own process) through a burst of memory-hungry
//! programs on `/run_code`: Python and C programs that each fill 48 MiB.
//!
//! - After the burst, resident memory is back within 10% of its idle level: the level of the
//!   server once warm, each of its worker threads having run each kind of program a few times
//!   (the pooled slots in use keep a bounded part of their memory mapped, so that the next
//!   instance takes no page faults; everything past it is given back when an instance is
//!   dropped).
//! - During the burst, the peak stays within `--max-inflight` times the memory limit above idle,
//!   plus a fixed overhead.
//!
//! `REWARDBOX_BURST_RUNS` sets the burst's length (default 240; docs/reference/performance.md's figure is of 1,000).

use crate::common;
use crate::served;

use common::test_cache_dir;
use serde_json::{Value, json};
use served::{Served, agent};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

const THREADS: usize = 2;
const MAX_INFLIGHT: usize = 4;
const MEMORY_LIMIT_MB: u64 = 96;
/// What the server may hold at its peak beyond idle and its programs' memory: buffers of
/// requests and answers, and the host's allocations around each run.
const OVERHEAD_MB: u64 = 64;

// Each run gets its own number on stdin, so that no answer comes from a memo of an earlier run.
const PYTHON: &str = "k = int(input())\nb = bytearray(48 << 20)\nfor i in range(0, len(b), 4096):\n    b[i] = 1\nprint(k, sum(b[::4096]))\n";
const C: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\nint main(void) { int k; scanf(\"%d\", &k); char *p = malloc(48 << 20); memset(p, 1, 48 << 20); long s = 0; for (int i = 0; i < (48 << 20); i += 4096) s += p[i]; printf(\"%d %ld\\n\", k, s); return 0; }\n";

/// A field of `/proc/<pid>/status`, in MiB.
fn status_mb(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("proc status");
    let kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/{pid}/status"));
    kb / 1024
}

/// Resident memory once it has stopped falling (the server gives freed heap back once no job
/// has started for half a second), looking for at most 10 s.
fn settled_rss(pid: u32) -> u64 {
    let mut last = status_mb(pid, "VmRSS");
    for _ in 0..10 {
        std::thread::sleep(Duration::from_secs(1));
        let now = status_mb(pid, "VmRSS");
        if now >= last {
            return now;
        }
        last = now;
    }
    last
}

/// Runs `code` on `k` on the server until it is not refused for load; checks its output.
fn run(base: &str, language: &str, code: &str, k: usize) {
    let body = json!({"code": code, "language": language, "stdin": format!("{k}\n"),
                      "memory_limit_MB": MEMORY_LIMIT_MB, "run_timeout": 20});
    loop {
        let mut response = agent()
            .post(&format!("{base}/run_code"))
            .header("content-type", "application/json")
            .send(&body.to_string())
            .expect("the server answers");
        if response.status() == 429 {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let text = response.body_mut().read_to_string().expect("an answer");
        let answer: Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(answer["status"], "Success", "{language}: {answer}");
        let expected = format!("{k} {}\n", (48 << 20) / 4096);
        assert_eq!(
            answer["run_result"]["stdout"], expected,
            "{language}: {answer}"
        );
        return;
    }
}

/// `runs` programs, Python and C in turn, from `clients` clients at once.
fn burst(base: &str, first: usize, runs: usize, clients: usize) {
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..clients {
            scope.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= runs {
                        return;
                    }
                    let (language, code) = if k.is_multiple_of(2) {
                        ("python", PYTHON)
                    } else {
                        ("c", C)
                    };
                    run(base, language, code, first + k);
                }
            });
        }
    });
}

#[test]
fn resident_memory_returns_to_idle_after_a_burst_and_its_peak_is_bounded() {
    let runs: usize = std::env::var("REWARDBOX_BURST_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(240);
    let cache = test_cache_dir();
    let served = Served::start(|c| {
        c.args(["--allow-no-token", "-j", &THREADS.to_string()])
            .args(["--max-inflight", &MAX_INFLIGHT.to_string()])
            .arg("--cache-dir")
            .arg(&cache);
    });
    let (base, pid) = (served.base(), served.pid());

    // Idle: the server as it is once warm, each worker thread having run each kind of program
    // a few times with as many requests at once as the burst sends.
    burst(&base, 0, 16 * THREADS, MAX_INFLIGHT);
    let idle = settled_rss(pid);
    // The peak from here on (writing 5 to clear_refs resets VmHWM).
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("reset the peak RSS");

    burst(&base, 1000, runs, MAX_INFLIGHT);
    let peak = status_mb(pid, "VmHWM");
    let bound = idle + MAX_INFLIGHT as u64 * MEMORY_LIMIT_MB + OVERHEAD_MB;
    let after = settled_rss(pid);
    eprintln!(
        "{runs} runs of 48 MiB programs: idle {idle} MiB, peak {peak} MiB (bound {bound}), after {after} MiB"
    );
    assert!(
        peak <= bound,
        "peak RSS {peak} MiB is above idle {idle} + {MAX_INFLIGHT} x {MEMORY_LIMIT_MB} + {OVERHEAD_MB} MiB"
    );
    assert!(
        after * 10 <= idle * 11,
        "RSS after the burst is {after} MiB, more than 10% above its idle {idle} MiB"
    );
}
