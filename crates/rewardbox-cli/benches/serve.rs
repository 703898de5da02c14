//! `rewardbox serve` under load, over loopback, against the CLI on the same tasks, same run:
//!
//! 1. 64 concurrent clients each sending single-completion `/score` requests: latency p50/p99
//!    and throughput;
//! 2. a batch through `/score` (JSONL in, JSONL out) against `rewardbox score` on the same file
//!    (target: the server at >= 80% of the CLI's throughput);
//! 3. 1,000 CodeGym sessions alive over HTTP, stepped by 64 concurrent clients: step p50/p99
//!    (CodeGym's own server: 79 ms p50 per step, measured on this machine for the issue).
//!
//! Run: `cargo bench --bench serve`.

mod support;

use support::served::{Served, agent};

use serde_json::json;
use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

const CLIENTS: usize = 64;
const SINGLE_REQUESTS: usize = 20_000;
const BATCH_TASKS: usize = 40_000;
const SESSIONS: usize = 1000;
const SESSION_STEPS: usize = 20_000;

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Runs `work(client, i)` for `total` items on `clients` threads; returns the latencies (ms),
/// sorted, and the wall time.
fn load(
    total: usize,
    clients: usize,
    work: impl Fn(&ureq::Agent, usize) + Sync,
) -> (Vec<f64>, f64) {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(total));
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..clients {
            s.spawn(|| {
                let client = agent();
                let mut mine = Vec::new();
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    let t = Instant::now();
                    work(&client, i);
                    mine.push(t.elapsed().as_secs_f64() * 1e3);
                }
                latencies.lock().unwrap().extend(mine);
            });
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let mut latencies = latencies.into_inner().unwrap();
    latencies.sort_by(f64::total_cmp);
    (latencies, wall)
}

fn main() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("serve");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let cache = dir.join("cache");
    let server = Served::start(|c| {
        c.args(["--max-inflight", "1024", "--max-body-mb", "512"])
            .arg("--env-dir")
            .arg(root.join("tests/data/codegym"))
            .arg("--cache-dir")
            .arg(&cache);
    });
    let base = server.base();

    // 1. Single-completion requests.
    let single = |client: &ureq::Agent, i: usize| {
        let body = json!({"id": format!("q{i}"), "verifier": "numeric", "reference": "391",
                          "completions": [format!("the answer is {}", 380 + i % 20)]})
        .to_string();
        let mut r = client
            .post(&format!("{base}/score"))
            .header("content-type", "application/json")
            .send(&body)
            .expect("score");
        assert_eq!(r.status(), 200);
        let _ = r.body_mut().read_to_string();
    };
    load(500, CLIENTS, single); // warm up
    let (latencies, wall) = load(SINGLE_REQUESTS, CLIENTS, single);
    println!("| what | measured |");
    println!("|---|---|");
    println!(
        "| {CLIENTS} clients, single-completion /score (numeric), {SINGLE_REQUESTS} requests | p50 {:.2} ms, p99 {:.2} ms, {:.0} requests/s |",
        percentile(&latencies, 0.5),
        percentile(&latencies, 0.99),
        SINGLE_REQUESTS as f64 / wall
    );

    // 2. A batch: the CLI against the server, same file.
    let input = dir.join("batch.jsonl");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&input).expect("batch"));
    for i in 0..BATCH_TASKS {
        let verifier = if i % 2 == 0 { "numeric" } else { "exact" };
        writeln!(
            f,
            "{}",
            json!({"id": format!("t{i}"), "verifier": verifier, "reference": "391",
                   "completions": ["391", "392", "the answer is 391", "400", "391.0", "x", "391", "3.91e2"]})
        )
        .expect("write");
    }
    drop(f);
    let output = dir.join("results.jsonl");
    support::rewardbox_score(&input, &output, &cache);
    let started = Instant::now();
    support::rewardbox_score(&input, &output, &cache);
    let cli = started.elapsed().as_secs_f64();
    let body = std::fs::read(&input).expect("batch");
    let post_batch = || {
        let started = Instant::now();
        let mut r = agent()
            .post(&format!("{base}/score"))
            .header("content-type", "application/x-ndjson")
            .send(&body[..])
            .expect("batch");
        let text = r
            .body_mut()
            .with_config()
            .limit(1 << 30)
            .read_to_string()
            .expect("answer");
        assert_eq!(text.lines().count(), BATCH_TASKS);
        started.elapsed().as_secs_f64()
    };
    post_batch();
    let served = post_batch();
    let completions = (BATCH_TASKS * 8) as f64;
    println!(
        "| batch of {BATCH_TASKS} tasks x 8 completions: `rewardbox score` vs POST /score (JSONL), whole wall time | CLI {:.2} s ({:.0}/s), server {:.2} s ({:.0}/s): **{:.0}%** of the CLI (target >= 80%) |",
        cli,
        completions / cli,
        served,
        completions / served,
        100.0 * cli / served
    );

    // 3. CodeGym sessions over HTTP.
    let ids = Arc::new(Mutex::new(vec![String::new(); SESSIONS]));
    let values: Vec<u32> = (0..50).map(|i| (i * 37 + 11) % 100).collect();
    let env_str = format!("Toy_1_I__SumListEnv@{{\"values\": {values:?}}}");
    let (starts, _) = load(SESSIONS, 32, |client, i| {
        let mut r = client
            .post(&format!("{base}/start"))
            .header("content-type", "application/json")
            .send(&json!({"env_str": env_str, "env_name": "codegym_v1"}).to_string())
            .expect("start");
        assert_eq!(r.status(), 200);
        let v: serde_json::Value =
            serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        ids.lock().unwrap()[i] = v["session_id"].as_str().unwrap().to_string();
    });
    let ids = ids.lock().unwrap().clone();
    let (steps, wall) = load(SESSION_STEPS, CLIENTS, |client, i| {
        let id = &ids[(i * 7919) % SESSIONS];
        let mut r = client
            .post(&format!("{base}/step"))
            .header("content-type", "application/json")
            .send(&json!({"session_id": id, "action": format!("{{\"name\": \"GetValue\", \"parameters\": {{\"index\": {}}}}}", i % 50)}).to_string())
            .expect("step");
        assert_eq!(r.status(), 200);
        let _ = r.body_mut().read_to_string();
    });
    println!(
        "| {SESSIONS} CodeGym sessions alive over HTTP: /start p50 / p99 | {:.2} ms / {:.2} ms |",
        percentile(&starts, 0.5),
        percentile(&starts, 0.99)
    );
    println!(
        "| /step (GetValue), {CLIENTS} clients, {SESSION_STEPS} steps over {SESSIONS} sessions | p50 {:.2} ms, p99 {:.2} ms, {:.0} steps/s (CodeGym's own server: 79 ms p50) |",
        percentile(&steps, 0.5),
        percentile(&steps, 0.99),
        SESSION_STEPS as f64 / wall
    );
}
