//! Soak: `rewardbox serve` under mixed sound and hostile traffic at its concurrency limit, over
//! loopback, for `REWARDBOX_SOAK_SECONDS` (default 600).
//!
//! Clients (more of them than `--max-inflight`, so some requests are refused with 429 and tried
//! again) send, in turn: sound requests whose verdicts are known (`/score` with `exact` and a
//! Python `verifier_code`, `/run_code` in Python and C) and hostile ones (a program that fills its
//! working directory, a sparse GiB read back with `fetch_files`, an infinite loop, a memory bomb, a
//! hostile verifier that loops, a verifier fed 200,000 nested brackets, a candidate that sleeps an
//! hour, a body that stalls, an idle connection, half a request). Beside them, hostile clients
//! (the hostile mix) abandon long work on every route (a request hung up, a WebSocket closed in
//! the middle of a reset), flood a WebSocket with frames while a step runs, send one frame past
//! `--max-body-mb`, start episodes whose setup sleeps, and hold sessions that fill their budgets
//! (a REPL holding 200 MiB, an episode with a 60 MiB file). Every 10 s it samples the server's
//! resident memory, threads, open file descriptors and what its temp directories hold.
//!
//! It reports requests served, refusals, the samples over time, the honest requests' latency
//! (p50, p99), and the disk and memory before and after; it fails if any sound request got a
//! wrong answer or none, or if RSS or disk went past the server's budgets (`--session-memory-mb`
//! plus what the scorer itself holds, `--disk-budget-mb`).
//!
//! Run: `cargo bench --bench soak` (`REWARDBOX_SOAK_SECONDS=60` for a short one;
//! `REWARDBOX_BENCH_BIN` to soak an earlier build, `REWARDBOX_SOAK_BUDGETS=0` when it has no
//! budget flags).

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use support::served::{Served, agent};

/// Requests the server handles at once.
const MAX_INFLIGHT: usize = 8;
/// Clients sending at once: past the limit, so that refusals happen.
const CLIENTS: usize = 12;
/// How often the server is sampled.
const SAMPLE_EVERY: Duration = Duration::from_secs(10);
/// Clients of the hostile mix.
const HOSTILE_CLIENTS: usize = 4;
/// The server's budgets in the soak: sessions' memory, and disk (MiB).
const SESSION_MEMORY_MB: u64 = 1536;
const DISK_BUDGET_MB: u64 = 4096;
/// The largest body (and WebSocket frame), MiB.
const MAX_BODY_MB: u64 = 4;

/// What a kind of request is and what its answer must be.
struct Kind {
    name: &'static str,
    path: &'static str,
    body: Value,
    /// Whether the answer is right (for hostile requests: the attack was contained).
    check: fn(&Value) -> bool,
}

fn scores(answer: &Value) -> Vec<f64> {
    answer["results"]
        .as_array()
        .map(|r| r.iter().filter_map(|c| c["score"].as_f64()).collect())
        .unwrap_or_default()
}

fn statuses(answer: &Value) -> Vec<String> {
    answer["results"]
        .as_array()
        .map(|r| {
            r.iter()
                .filter_map(|c| c["status"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn kinds(hostile_verifier: &str) -> Vec<Kind> {
    let fenced = |code: &str| format!("```python\n{code}\n```");
    vec![
        Kind {
            name: "sound /score exact",
            path: "/score",
            body: json!({"id": "e", "verifier": "exact", "reference": "a", "completions": ["a", "b"]}),
            check: |a| scores(a) == [1.0, 0.0],
        },
        Kind {
            name: "sound /score python verifier",
            path: "/score",
            body: json!({"id": "p", "verifier": "python",
                "verifier_code": "def verify(task, completion):\n    return completion.strip() == '7'\n",
                "completions": ["7", "8"]}),
            check: |a| scores(a) == [1.0, 0.0],
        },
        Kind {
            name: "sound /score code (asserts)",
            path: "/score",
            body: json!({"id": "c", "verifier": "code", "tests": {"asserts": "assert add(2, 3) == 5", "entry_point": "add"},
                "completions": [fenced("def add(a, b):\n    return a + b"), fenced("def add(a, b):\n    return a - b")]}),
            check: |a| scores(a) == [1.0, 0.0],
        },
        Kind {
            name: "sound /run_code python",
            path: "/run_code",
            body: json!({"code": "print(sum(range(1000)))", "language": "python"}),
            check: |a| a["status"] == "Success" && a["run_result"]["stdout"] == "499500\n",
        },
        Kind {
            name: "sound /run_code c",
            path: "/run_code",
            body: json!({"code": "#include <stdio.h>\nint main(void){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);return 0;}",
                "language": "c", "stdin": "40 2"}),
            check: |a| a["status"] == "Success" && a["run_result"]["stdout"] == "42\n",
        },
        Kind {
            name: "hostile /run_code fills its directory",
            path: "/run_code",
            body: json!({"code": "chunk = b'x' * (1 << 20)\nwith open('fill', 'wb') as f:\n    for _ in range(2000):\n        f.write(chunk)",
                "language": "python", "run_timeout": 30}),
            check: |a| a["status"] == "Failed",
        },
        Kind {
            name: "hostile /run_code sparse GiB + fetch",
            path: "/run_code",
            body: json!({"code": "f = open('big', 'wb')\nf.truncate(1 << 30)\nf.close()",
                "language": "python", "fetch_files": ["big"]}),
            check: |a| a["status"] == "Failed" && a["files"] == json!({}),
        },
        Kind {
            name: "hostile /run_code infinite loop",
            path: "/run_code",
            body: json!({"code": "while True:\n    pass", "language": "python", "run_timeout": 1}),
            // Stopped at its limit; or, when the hostile mix starves it of CPU, masked as the
            // host's fault (it got less than half its wall-clock net in CPU): contained either way.
            check: |a| {
                a["run_result"]["status"] == "TimeLimitExceeded"
                    || (a["status"] == "SandboxError"
                        && a["message"]
                            .as_str()
                            .is_some_and(|m| m.contains("the host was too busy")))
            },
        },
        Kind {
            name: "hostile /run_code memory bomb",
            path: "/run_code",
            body: json!({"code": "x = []\nwhile True:\n    x.append(bytearray(1 << 20))",
                "language": "python", "memory_limit_MB": 64}),
            check: |a| a["status"] == "Failed",
        },
        Kind {
            name: "hostile /score verifier that loops",
            path: "/score",
            body: json!({"id": "h", "verifier": hostile_verifier, "attack": "loop",
                "limits": {"fuel": 50_000_000}, "completions": ["a"]}),
            check: |a| statuses(a) == ["verifier_error"],
        },
        Kind {
            name: "hostile /score deep nesting",
            path: "/score",
            body: json!({"id": "d", "verifier": "python",
                "verifier_code": "import json\ndef verify(task, completion):\n    try:\n        json.loads('[' * 200000 + ']' * 200000)\n    except RecursionError:\n        return 0.0\n    return 1.0\n",
                "completions": ["x"]}),
            check: |a| scores(a) == [0.0] && statuses(a) == ["ok"],
        },
        Kind {
            name: "hostile /score candidate sleeps an hour",
            path: "/score",
            body: json!({"id": "s", "verifier": "code", "tests": {"stdio": [{"stdin": "", "stdout": "1"}]},
                "completions": [fenced("import time\ntime.sleep(3600)\nprint(1)")]}),
            check: |a| scores(a) == [0.0] && statuses(a) == ["ok"],
        },
    ]
}

/// Long work for each route, to be abandoned: (route, body).
fn abandoned_work() -> Vec<(&'static str, Value)> {
    let busy = json!({"id": "busy", "verifier": "python", "verifier_code": "def verify(task, completion):\n    while True:\n        pass\n",
                      "limits": {"fuel": 1_000_000_000_000u64, "wall_ms": 100_000}, "completions": ["x"]});
    let deepgym = json!({"task": "t", "verifier_code": "def verify(solution_path):\n    from deepgym_solution import run_solution\n    for _ in range(10 ** 6):\n        run_solution(solution_path)\n    return 1.0\n"});
    let looping = "while True:\n    pass\n";
    let sleeping = json!({"task": "t", "setup_code": "import time\ntime.sleep(100)\n", "timeout_per_step": 100,
                          "final_verifier_code": "print('{\"score\": 1}')"});
    vec![
        ("/score", busy.clone()),
        (
            "/run_code",
            json!({"code": looping, "language": "python", "run_timeout": 100}),
        ),
        (
            "/get_reward",
            json!({"query": ["x"], "labels": [busy.to_string()]}),
        ),
        (
            "/verify",
            json!({"responses_create_params": {"input": []}, "response": {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]}]}, "verifier_metadata": busy}),
        ),
        (
            "/v1/run",
            json!({"environment": deepgym, "model_output": looping}),
        ),
        (
            "/v1/run/batch",
            json!({"environment": deepgym, "outputs": [looping, looping]}),
        ),
        (
            "/openenv/coding/step",
            json!({"action": {"code": looping, "timeout_s": 100}}),
        ),
        (
            "/openenv/coding/mcp",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "step", "arguments": {"code": looping, "timeout_s": 100}}}),
        ),
        ("/openenv/episode/reset", sleeping.clone()),
        (
            "/openenv/episode/mcp",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "reset", "arguments": sleeping}}),
        ),
    ]
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn websocket(address: &str, path: &str) -> Option<Socket> {
    tungstenite::connect(format!("ws://{address}{path}"))
        .ok()
        .map(|(s, _)| s)
}

fn send_frame(socket: &mut Socket, frame: &Value) -> bool {
    socket
        .send(tungstenite::Message::text(frame.to_string()))
        .is_ok()
}

/// Reads frames until a text frame (its JSON) or the end.
fn read_frame(socket: &mut Socket) -> Option<Value> {
    loop {
        match socket.read().ok()? {
            tungstenite::Message::Text(text) => return serde_json::from_str(&text).ok(),
            tungstenite::Message::Close(_) => return None,
            _ => {}
        }
    }
}

/// One act of the hostile mix (the `which`th): abandoned work on a route, a WebSocket abandoned
/// mid-reset, a flood of frames during a step, a frame past the body limit, or a session that
/// fills its budget (held until the next act of its client). Returns the session it holds.
fn hostile_act(address: &str, base: &str, which: usize, held: &mut Vec<Socket>) {
    let routes = abandoned_work();
    match which % 6 {
        0 | 1 => {
            let (route, body) = &routes[(which / 6) % routes.len()];
            let Ok(mut stream) = std::net::TcpStream::connect(address) else {
                return;
            };
            let body = body.to_string();
            let request = format!(
                "POST {route} HTTP/1.1\r\nHost: {address}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            );
            let _ = stream.write_all(request.as_bytes());
            std::thread::sleep(Duration::from_millis(300));
        }
        2 => {
            if let Some(mut socket) = websocket(address, "/openenv/episode/ws") {
                send_frame(
                    &mut socket,
                    &json!({"type": "reset", "data": routes[8].1.clone()}),
                );
                std::thread::sleep(Duration::from_millis(300));
            }
        }
        3 => {
            if let Some(mut socket) = websocket(address, "/openenv/coding/ws")
                && send_frame(&mut socket, &json!({"type": "reset", "data": {}}))
            {
                let _ = read_frame(&mut socket);
                let step = json!({"type": "step", "data": {"code": "while True:\n    pass\n", "timeout_s": 2}});
                for _ in 0..200 {
                    if !send_frame(&mut socket, &step) {
                        break;
                    }
                }
                while read_frame(&mut socket).is_some() {}
            }
        }
        4 => {
            if let Some(mut socket) = websocket(address, "/openenv/coding/ws") {
                let huge = "x".repeat(((MAX_BODY_MB + 1) << 20) as usize);
                let _ = send_frame(
                    &mut socket,
                    &json!({"type": "reset", "data": {"pad": huge}}),
                );
                while read_frame(&mut socket).is_some() {}
            }
        }
        _ => {
            // Sessions that fill their budgets, held until this client's next such act: a REPL
            // holding 200 MiB, and an episode holding a 60 MiB file.
            held.clear();
            if let Some(mut socket) = websocket(address, "/openenv/coding/ws")
                && send_frame(&mut socket, &json!({"type": "reset", "data": {}}))
                && read_frame(&mut socket).is_some()
            {
                send_frame(
                    &mut socket,
                    &json!({"type": "step", "data": {"code": "hog = bytearray(200 << 20)", "timeout_s": 10}}),
                );
                let _ = read_frame(&mut socket);
                held.push(socket);
            }
            let environment =
                json!({"task": "t", "final_verifier_code": "print('{\"score\": 1}')"});
            let created = agent()
                .post(&format!("{base}/v1/sessions"))
                .header("content-type", "application/json")
                .send(&json!({"environment": environment}).to_string());
            if let Ok(mut created) = created {
                let created: Value =
                    serde_json::from_str(&created.body_mut().read_to_string().unwrap_or_default())
                        .unwrap_or(Value::Null);
                if let Some(id) = created["session_id"].as_str() {
                    let fill = "with open('big', 'wb') as f:\n    f.write(b'x' * (60 << 20))\n";
                    let _ = agent()
                        .post(&format!("{base}/v1/sessions/{id}/step"))
                        .header("content-type", "application/json")
                        .send(&json!({"action_type": "code", "content": fill}).to_string());
                }
            }
        }
    }
}

/// Connection-level abuse: a body that stalls, an idle connection, half a request.
fn abuse(address: &str, which: usize) {
    let Ok(mut socket) = std::net::TcpStream::connect(address) else {
        return;
    };
    match which % 3 {
        0 => {
            let _ = socket.write_all(
                b"POST /score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{\"id\":",
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        1 => std::thread::sleep(Duration::from_millis(200)),
        _ => {
            let _ = socket.write_all(b"POST /run_code HTTP/1.1\r\nhost: 127.0.0.1\r\n");
        }
    }
}

/// One sample of the server: (seconds since the start, RSS bytes, threads, open fds, temp bytes,
/// requests answered, refused).
type Sample = (u64, u64, usize, usize, u64, u64, u64);

/// A line of `/proc/<pid>/status`, in bytes.
fn status_bytes(pid: u32, field: &str) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn open_fds(pid: u32) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |d| d.count())
}

/// Bytes under the temp directory's `rewardbox-*` entries (work directories of runs, judges,
/// compiles): what the server leaves on disk.
fn temp_bytes() -> u64 {
    fn walk(dir: &std::path::Path) -> u64 {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| match e.path().symlink_metadata() {
                Ok(m) if m.is_dir() => walk(&e.path()),
                Ok(m) => m.len(),
                Err(_) => 0,
            })
            .sum()
    }
    std::fs::read_dir(std::env::temp_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("rewardbox-"))
        .map(|e| match e.path().symlink_metadata() {
            Ok(m) if m.is_dir() => walk(&e.path()),
            Ok(m) => m.len(),
            Err(_) => 0,
        })
        .sum()
}

fn main() {
    let seconds: u64 = std::env::var("REWARDBOX_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(600);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("soak");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let hostile = PathBuf::from(test_guests::HOSTILE_VERIFIER);
    let budgets = std::env::var("REWARDBOX_SOAK_BUDGETS").map_or(true, |v| v != "0");
    let server = Served::start(|c| {
        if budgets {
            c.args(["--session-memory-mb", &SESSION_MEMORY_MB.to_string()])
                .args(["--disk-budget-mb", &DISK_BUDGET_MB.to_string()]);
        }
        c.args(["--max-inflight", &MAX_INFLIGHT.to_string()])
            .args(["--max-body-mb", &MAX_BODY_MB.to_string()])
            .args(["--session-ttl-s", "30"])
            .args([
                "--max-connections",
                "64",
                "--header-timeout-s",
                "5",
                "--body-timeout-s",
                "5",
            ])
            .arg("--verifier-dir")
            .arg(hostile.parent().expect("the hostile verifier's directory"))
            .arg("--cache-dir")
            .arg(dir.join("cache"));
    });
    let pid = server.pid();
    let address = server.address();
    let base = server.base();
    let hostile_name = hostile.file_name().unwrap().to_string_lossy().into_owned();
    let kinds = kinds(&hostile_name);
    // Warm up: every kind once (compiles, first instances), outside the figures.
    for kind in &kinds {
        let mut r = agent()
            .post(&format!("{base}{}", kind.path))
            .header("content-type", "application/json")
            .send(&kind.body.to_string())
            .expect("warm-up request");
        let answer: Value = serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
        assert!((kind.check)(&answer), "warm-up {}: {answer}", kind.name);
    }
    let (disk_before, rss_before) = (temp_bytes(), status_bytes(pid, "VmRSS:"));

    let served: Vec<AtomicU64> = kinds.iter().map(|_| AtomicU64::new(0)).collect();
    let latencies = Mutex::new(Vec::<f64>::new());
    let hostile_acts = AtomicU64::new(0);
    let refused = AtomicU64::new(0);
    let abuses = AtomicU64::new(0);
    let wrong = Mutex::new(Vec::<String>::new());
    let stop = AtomicBool::new(false);
    let samples = Mutex::new(Vec::new());
    let started = Instant::now();
    std::thread::scope(|s| {
        s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                let total: u64 = served.iter().map(|n| n.load(Ordering::Relaxed)).sum();
                let sample = (
                    started.elapsed().as_secs(),
                    status_bytes(pid, "VmRSS:"),
                    threads(pid),
                    open_fds(pid),
                    temp_bytes(),
                    total,
                    refused.load(Ordering::Relaxed),
                );
                // Also as it is taken: a soak cut short (a server that never lets its clients
                // finish) still leaves its figures.
                eprintln!(
                    "soak sample: t {} s, RSS {} MiB, {} threads, {} fds, temp dirs {} MiB, {} answered, {} refused",
                    sample.0,
                    sample.1 >> 20,
                    sample.2,
                    sample.3,
                    sample.4 >> 20,
                    sample.5,
                    sample.6
                );
                samples.lock().unwrap().push(sample);
                let until = Instant::now() + SAMPLE_EVERY;
                while Instant::now() < until && !stop.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                }
            }
        });
        for client in 0..HOSTILE_CLIENTS {
            let (hostile_acts, base, address) = (&hostile_acts, &base, &address);
            let started = &started;
            s.spawn(move || {
                let mut held = Vec::new();
                let mut i = client;
                while started.elapsed() < Duration::from_secs(seconds) {
                    hostile_act(address, base, i, &mut held);
                    hostile_acts.fetch_add(1, Ordering::Relaxed);
                    i += HOSTILE_CLIENTS;
                }
            });
        }
        for client in 0..CLIENTS {
            let (kinds, served, refused, abuses, wrong, base, address, latencies) = (
                &kinds, &served, &refused, &abuses, &wrong, &base, &address, &latencies,
            );
            let started = &started;
            s.spawn(move || {
                let agent = agent();
                let mut i = client;
                while started.elapsed() < Duration::from_secs(seconds) {
                    i += CLIENTS;
                    if i % 7 == 0 {
                        abuse(address, i / 7);
                        abuses.fetch_add(1, Ordering::Relaxed);
                        continue;
                    }
                    let k = i % kinds.len();
                    let kind = &kinds[k];
                    let sent = Instant::now();
                    let response = agent
                        .post(&format!("{base}{}", kind.path))
                        .header("content-type", "application/json")
                        .send(&kind.body.to_string());
                    let Ok(mut response) = response else {
                        wrong
                            .lock()
                            .unwrap()
                            .push(format!("{}: no answer", kind.name));
                        continue;
                    };
                    // 429 (no slot) and 503 (a budget is held): refused, tried again, as a
                    // well-behaved client does.
                    if response.status() == 429 || response.status() == 503 {
                        refused.fetch_add(1, Ordering::Relaxed);
                        let _ = response.body_mut().read_to_string();
                        std::thread::sleep(Duration::from_millis(20));
                        continue;
                    }
                    let text = response.body_mut().read_to_string().unwrap_or_default();
                    let answer: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
                    if response.status() == 200 && (kind.check)(&answer) {
                        served[k].fetch_add(1, Ordering::Relaxed);
                        if kind.name.starts_with("sound") {
                            latencies.lock().unwrap().push(sent.elapsed().as_secs_f64());
                        }
                    } else {
                        let mut text = text;
                        text.truncate(300);
                        wrong.lock().unwrap().push(format!(
                            "{} ({}): {text}",
                            kind.name,
                            response.status()
                        ));
                    }
                }
            });
        }
        // The clients stop starting requests at the end and finish the one they are in.
        std::thread::sleep(Duration::from_secs(seconds));
        stop.store(true, Ordering::Relaxed);
    });
    let elapsed = started.elapsed().as_secs_f64();
    // Let the last work directories go.
    std::thread::sleep(Duration::from_secs(2));
    let (disk_after, rss_after) = (temp_bytes(), status_bytes(pid, "VmRSS:"));
    let healthy = agent()
        .get(&format!("{base}/healthz"))
        .call()
        .is_ok_and(|r| r.status() == 200);

    let total: u64 = served.iter().map(|n| n.load(Ordering::Relaxed)).sum();
    println!(
        "soak: {seconds} s of traffic ({elapsed:.0} s with the last requests), {CLIENTS} clients, --max-inflight {MAX_INFLIGHT}"
    );
    println!();
    println!("| kind | answered right |");
    println!("|---|---|");
    for (kind, n) in kinds.iter().zip(&served) {
        println!("| {} | {} |", kind.name, n.load(Ordering::Relaxed));
    }
    println!(
        "| connection abuse (stalled body, idle, half a request) | {} |",
        abuses.load(Ordering::Relaxed)
    );
    println!(
        "| hostile mix (abandoned work on every route, floods, oversize frames, budget fillers) | {} acts |",
        hostile_acts.load(Ordering::Relaxed)
    );
    let mut latencies = latencies.into_inner().unwrap();
    latencies.sort_by(f64::total_cmp);
    let quantile = |q: f64| {
        latencies
            .get(((latencies.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!();
    println!(
        "honest requests' latency: p50 {:.3} s, p99 {:.3} s, max {:.3} s ({} requests)",
        quantile(0.5),
        quantile(0.99),
        quantile(1.0),
        latencies.len()
    );
    println!();
    println!(
        "requests answered right: {total} ({:.1}/s); refused with 429 and tried again: {}",
        total as f64 / elapsed,
        refused.load(Ordering::Relaxed)
    );
    println!();
    println!(
        "| t (s) | server RSS (MiB) | threads | open fds | temp dirs (MiB) | answered | refused |"
    );
    println!("|---|---|---|---|---|---|---|");
    let samples = samples.into_inner().unwrap();
    for (t, rss, threads, fds, disk, answered, refusals) in &samples {
        println!(
            "| {t} | {:.0} | {threads} | {fds} | {:.1} | {answered} | {refusals} |",
            *rss as f64 / 1048576.0,
            *disk as f64 / 1048576.0
        );
    }
    let peak = |f: fn(&Sample) -> u64| samples.iter().map(f).max().unwrap_or(0);
    let (peak_rss, peak_threads, peak_disk) = (peak(|s| s.1), peak(|s| s.2 as u64), peak(|s| s.4));
    println!(
        "peaks: RSS {:.0} MiB, {peak_threads} threads, temp dirs {:.1} MiB",
        peak_rss as f64 / 1048576.0,
        peak_disk as f64 / 1048576.0
    );
    println!();
    println!(
        "server RSS before {:.0} MiB, after {:.0} MiB; temp dirs before {:.1} MiB, after {:.1} MiB; /healthz after: {}",
        rss_before as f64 / 1048576.0,
        rss_after as f64 / 1048576.0,
        disk_before as f64 / 1048576.0,
        disk_after as f64 / 1048576.0,
        if healthy { "200" } else { "no answer" }
    );
    let wrong = wrong.into_inner().unwrap();
    println!("wrong answers: {}", wrong.len());
    for w in wrong.iter().take(20) {
        println!("  {w}");
    }
    assert!(
        wrong.is_empty() && healthy,
        "the soak found wrong answers or a dead server"
    );
    if budgets {
        // The scorer's own instances (at most --max-inflight verifications at their memory
        // limit of 256 MiB each... in practice far less) come on top of the sessions' budget.
        let bound = (SESSION_MEMORY_MB + MAX_INFLIGHT as u64 * 256 + 1024) << 20;
        assert!(
            peak_rss <= bound,
            "RSS {} MiB went past the budgets ({} MiB)",
            peak_rss >> 20,
            bound >> 20
        );
        assert!(
            peak_disk <= DISK_BUDGET_MB << 20,
            "the temp dirs held {} MiB, past the disk budget",
            peak_disk >> 20
        );
    }
}

fn threads(pid: u32) -> usize {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Threads:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0)
}
