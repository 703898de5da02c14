//! Sessions at scale: 2,000 CodeGym-style sessions alive in one process, the memory each idle one
//! takes, session start latency, and step latency with all of them alive; side by side in the same
//! run with the same environment stepped natively in CPython (the floor: no sandbox, no process).
//!
//! Run: `cargo bench --bench sessions` (the environment is tests/data/codegym's SumListEnv, with
//! 50 values; the native side imports it with this project's small gymnasium).

use rewardbox::{ComponentCache, Limits};
use rewardbox_envs::{EnvOptions, Environments};
use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;

const SESSIONS: usize = 2000;
const STEPS: usize = 20_000;

/// A field of /proc/self/status in bytes: `RssAnon` (private memory) or `RssShmem` (the
/// compiled image's pages, shared by every session but counted once per mapping).
fn status_bytes(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| {
            v.trim_start_matches(':')
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<u64>()
                .ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// Memory the machine has left (MemAvailable), in bytes: what all sessions together really cost.
fn available_bytes() -> u64 {
    let meminfo = std::fs::read_to_string("/proc/meminfo").expect("/proc/meminfo");
    meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn main() {
    // On a thread with room for a guest's stack (a session's steps then run in place).
    rewardbox::sandboxes::with_room(measure)
}

fn measure() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let env_dir = root.join("tests/data/codegym");
    let mut options = EnvOptions::new(&env_dir);
    options.cache =
        ComponentCache::in_dir(PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("sessions-cache"));
    options.limits = Limits {
        fuel: 1_000_000_000,
        wall_ms: 10_000,
        memory_bytes: 64 << 20,
        output_bytes: 64 << 10,
    };
    options.max_sessions = SESSIONS + 16;
    let envs = Environments::new(options).expect("environments");
    let values: Vec<u32> = (0..50).map(|i| (i * 37 + 11) % 100).collect();
    let env_str = format!("codegym_v1@Toy_1_I__SumListEnv@{{\"values\": {values:?}}}");
    // Warm up (compile, first instances).
    for _ in 0..20 {
        envs.start(None, &env_str).expect("start").close();
    }

    let (anon_before, available_before) = (status_bytes("RssAnon"), available_bytes());
    let mut starts = Vec::with_capacity(SESSIONS);
    let mut sessions = Vec::with_capacity(SESSIONS);
    for _ in 0..SESSIONS {
        let t = Instant::now();
        sessions.push(envs.start(None, &env_str).expect("start"));
        starts.push(t.elapsed().as_secs_f64() * 1e3);
    }
    let (anon_after, available_after) = (status_bytes("RssAnon"), available_bytes());
    starts.sort_by(f64::total_cmp);

    // One step on every session first (what a rollout does first), then random steps.
    let actions: Vec<String> = (0..50)
        .map(|i| format!(r#"{{"name": "GetValue", "parameters": {{"index": {i}}}}}"#))
        .collect();
    for s in &sessions {
        s.step(&actions[0]).expect("step");
    }
    let mut steps = Vec::with_capacity(STEPS);
    let mut x: u64 = 0x9e37_79b9;
    for i in 0..STEPS {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let s = &sessions[(x >> 33) as usize % SESSIONS];
        let t = Instant::now();
        let r = s.step(&actions[i % actions.len()]).expect("step");
        steps.push(t.elapsed().as_secs_f64() * 1e3);
        assert!(r.ok);
    }
    steps.sort_by(f64::total_cmp);
    let anon_after_steps = status_bytes("RssAnon");

    // Native floor: the same environment in one native CPython process.
    let script = format!(
        r#"
import json, sys, time, importlib.util
sys.path.insert(0, {guests:?})
spec = importlib.util.spec_from_file_location("env", {file:?})
module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)
env = module.SumListEnv.from_env_str({class_str:?})
actions = [json.dumps({{"name": "GetValue", "parameters": {{"index": i}}}}) for i in range(50)]
times = []
for i in range({STEPS}):
    t = time.perf_counter(); env.step(actions[i % 50]); times.append((time.perf_counter() - t) * 1e3)
times.sort()
starts = []
for i in range(200):
    t = time.perf_counter(); module.SumListEnv.from_env_str({class_str:?}); starts.append((time.perf_counter() - t) * 1e3)
starts.sort()
print(json.dumps({{"p50": times[len(times) // 2], "p99": times[int(len(times) * 0.99)], "start_p50": starts[100]}}))
"#,
        guests = root.join("guests/python").display().to_string(),
        file = env_dir.join("Toy_1_I__SumListEnv.py").display().to_string(),
        class_str = format!("SumListEnv@{{\"values\": {values:?}}}"),
    );
    let native = Command::new("python3")
        .args(["-c", &script])
        .output()
        .expect("python3");
    assert!(
        native.status.success(),
        "{}",
        String::from_utf8_lossy(&native.stderr)
    );
    let native: serde_json::Value = serde_json::from_slice(&native.stdout).expect("native JSON");

    let mib = |b: u64| b as f64 / (1 << 20) as f64;
    println!("| {SESSIONS} SumListEnv sessions alive in one process | measured |");
    println!("|---|---|");
    println!("| live sessions | {} |", envs.live_sessions());
    println!(
        "| private memory per idle session (RssAnon delta / sessions) | {:.2} MiB |",
        mib(anon_after.saturating_sub(anon_before)) / SESSIONS as f64
    );
    println!(
        "| machine memory per idle session (MemAvailable delta / sessions) | {:.2} MiB |",
        mib(available_before.saturating_sub(available_after)) / SESSIONS as f64
    );
    println!(
        "| private memory of all sessions after {STEPS} steps | {:.0} MiB |",
        mib(anon_after_steps.saturating_sub(anon_before))
    );
    println!(
        "| session start p50 / p99 | {:.2} ms / {:.2} ms (target p50 <= 5 ms) |",
        percentile(&starts, 0.5),
        percentile(&starts, 0.99)
    );
    println!(
        "| step (GetValue) p50 / p99, {SESSIONS} alive, random session each | {:.3} ms / {:.3} ms (target p50 <= 1 ms) |",
        percentile(&steps, 0.5),
        percentile(&steps, 0.99)
    );
    let native_p50 = native["p50"].as_f64().unwrap();
    println!(
        "| the same step in native CPython (no sandbox) p50 / p99 | {:.4} ms / {:.4} ms: rewardbox is {:.0}x the floor |",
        native_p50,
        native["p99"].as_f64().unwrap(),
        percentile(&steps, 0.5) / native_p50
    );
    println!(
        "| creating the environment natively p50 | {:.4} ms |",
        native["start_p50"].as_f64().unwrap()
    );
}
