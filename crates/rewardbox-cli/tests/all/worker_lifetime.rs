//! Scoring workers never outlive the `rewardbox score` that started them: `kill -9` of the parent
//! ends every worker, whatever it is doing at that moment (idle, running a long candidate,
//! blocked reading a verifier file, blocked writing a large answer to a parent that no longer
//! reads).
//!
//! Each test finds the parent's workers in `/proc`, brings them to the state under test, kills
//! the parent and waits for every worker to be gone. The wait is generous (a busy machine is not
//! a failure); the time it took is printed.

use crate::common;

use common::test_cache_dir;
use serde_json::json;
use std::io::Write;
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a worker may take to go after its parent is killed before the test fails. The
/// mechanism is immediate (the kernel's parent-death signal); this only absorbs a loaded host,
/// and is far below what the long candidate below would run on its own (minutes).
const GONE_WITHIN: Duration = Duration::from_secs(60);

/// How long the workers may take to start and reach the state under test (the first start on a
/// machine compiles the CPython runtime).
const SETTLE_WITHIN: Duration = Duration::from_secs(300);

/// Fields of `/proc/<pid>/stat` after the command name: state, ppid, ..., utime (14), stime (15).
fn stat(pid: u32) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after_name = &text[text.rfind(')')? + 2..];
    Some(after_name.split_whitespace().map(str::to_string).collect())
}

/// Whether `pid` is a live process (a zombie waiting to be reaped is not).
fn alive(pid: u32) -> bool {
    stat(pid).is_some_and(|fields| fields[0] != "Z" && fields[0] != "X")
}

/// The live children of `parent`.
fn children(parent: u32) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u32>().ok())
        .filter(|&pid| {
            stat(pid).is_some_and(|f| f[1] == parent.to_string() && f[0] != "Z" && f[0] != "X")
        })
        .collect()
}

/// CPU time (user + system) of `pid`, in clock ticks.
fn cpu_ticks(pid: u32) -> u64 {
    stat(pid).map_or(0, |f| {
        f[11].parse::<u64>().unwrap_or(0) + f[12].parse::<u64>().unwrap_or(0)
    })
}

/// Whether some thread of `pid` is blocked in `write` (system call 1 on x86-64, 64 on arm64).
fn blocked_in_write(pid: u32) -> bool {
    let write = if cfg!(target_arch = "aarch64") {
        "64"
    } else {
        "1"
    };
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return false;
    };
    tasks.flatten().any(|task| {
        std::fs::read_to_string(task.path().join("syscall"))
            .is_ok_and(|s| s.split_whitespace().next() == Some(write))
    })
}

/// Waits until `ready` holds, or panics with `what`.
fn settle(what: &str, mut ready: impl FnMut() -> bool) {
    let started = Instant::now();
    while !ready() {
        assert!(started.elapsed() < SETTLE_WITHIN, "never reached: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// `rewardbox score -j 2` reading tasks from a pipe the test holds.
fn start_parent() -> (Child, ChildStdin) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["score", "-j", "2", "--quiet"])
        .env("REWARDBOX_CACHE_DIR", test_cache_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("rewardbox starts");
    let stdin = child.stdin.take().expect("piped");
    (child, stdin)
}

/// The parent's two workers, once both have started.
fn workers_of(parent: &Child) -> Vec<u32> {
    let mut workers = Vec::new();
    settle("two workers started", || {
        workers = children(parent.id());
        workers.len() == 2
    });
    workers
}

/// Kills the parent with SIGKILL and waits for every worker to be gone.
fn kill_parent_and_expect_workers_gone(mut parent: Child, workers: &[u32], case: &str) {
    let killed = Instant::now();
    parent.kill().expect("the parent can be killed");
    parent.wait().expect("the parent is reaped");
    while workers.iter().any(|&w| alive(w)) {
        assert!(
            killed.elapsed() < GONE_WITHIN,
            "{case}: workers {:?} still alive {:?} after their parent was killed",
            workers.iter().filter(|&&w| alive(w)).collect::<Vec<_>>(),
            killed.elapsed()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    eprintln!(
        "{case}: every worker gone {:?} after its parent was killed",
        killed.elapsed()
    );
}

#[test]
fn idle_workers_end_with_their_parent() {
    let (parent, _stdin) = start_parent();
    let workers = workers_of(&parent);
    kill_parent_and_expect_workers_gone(parent, &workers, "idle");
}

#[test]
fn a_worker_running_a_long_candidate_ends_with_its_parent() {
    let (parent, mut stdin) = start_parent();
    let workers = workers_of(&parent);
    let before: Vec<u64> = workers.iter().map(|&w| cpu_ticks(w)).collect();
    // A program that loops for its whole fuel and wall budget: ten minutes of work.
    let task = json!({
        "id": "spin", "verifier": "code", "language": "python",
        "limits": {"wall_ms": 900_000},
        "candidate_limits": {"fuel": 10_000_000_000_000u64, "wall_ms": 600_000},
        "tests": {"stdio": [{"stdin": "", "stdout": "never"}]},
        "completions": ["```python\nwhile True:\n    pass\n```"],
    });
    writeln!(stdin, "{task}").expect("the parent reads tasks");
    stdin.flush().unwrap();
    // Busy: a worker has used a second of CPU more than before the task.
    settle("a worker busy running the candidate", || {
        workers
            .iter()
            .zip(&before)
            .any(|(&w, &b)| cpu_ticks(w) > b + 100)
    });
    kill_parent_and_expect_workers_gone(parent, &workers, "running a long candidate");
}

#[test]
fn a_worker_given_a_fifo_as_verifier_ends_with_its_parent() {
    let dir = tempdir("fifo");
    let fifo = dir.join("verifier.wasm");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    let (parent, mut stdin) = start_parent();
    let workers = workers_of(&parent);
    let task = json!({"id": "fifo", "verifier": fifo, "completions": ["a"]});
    writeln!(stdin, "{task}").expect("the parent reads tasks");
    stdin.flush().unwrap();
    // Whether the worker blocks on the FIFO or refuses it, it must go with its parent.
    std::thread::sleep(Duration::from_millis(300));
    kill_parent_and_expect_workers_gone(parent, &workers, "given a FIFO");
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn a_worker_blocked_writing_to_a_stopped_parent_ends_with_it() {
    let (mut parent, mut stdin) = start_parent();
    let workers = workers_of(&parent);
    // Cheap tasks whose every piece's answer is more than a pipe holds: 8,192 results a task,
    // split in eight pieces of 1,024 (about 110 KB of answers each), so that a worker holding any
    // piece blocks writing its answer once the parent stops reading, however little work the
    // parent hands out on a busy machine (it hands less when scoring looks slow: answers that fit
    // in a pipe would never block, and the worker would wait to read instead).
    let completions: Vec<String> = (0..8192).map(|i| format!("{i}x")).collect();
    let task =
        json!({"id": "big", "verifier": "exact", "reference": "y", "completions": completions});
    let line = format!("{task}\n");
    let feeder = std::thread::spawn(move || {
        for _ in 0..4000 {
            if stdin.write_all(line.as_bytes()).is_err() {
                return;
            }
        }
    });
    // Stop the parent once answers flow (its workers then hold work), so that it stops reading
    // their answers.
    let mut results = std::io::BufReader::new(parent.stdout.take().expect("piped"));
    for _ in 0..20 {
        let mut line = String::new();
        std::io::BufRead::read_line(&mut results, &mut line).expect("a result line");
    }
    let pid = parent.id().to_string();
    let stopped = Command::new("kill").args(["-STOP", &pid]).status().unwrap();
    assert!(stopped.success());
    settle("a worker blocked writing its answers", || {
        workers.iter().any(|&w| blocked_in_write(w))
    });
    kill_parent_and_expect_workers_gone(parent, &workers, "blocked writing");
    let _ = feeder.join();
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("worker-lifetime-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
