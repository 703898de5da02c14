//! OpenEnv sessions under load, over loopback: 1,000 WebSocket sessions alive at once, against the
//! same 1,000 sessions over rewardbox's CodeGym endpoints (`/start`, `/step`), same server, same
//! run, each stepped by 1,000 concurrent clients (one per session) and then by 64 (each stepping
//! its share of the sessions in turn):
//!
//! - `/openenv/codegym/Toy_1_I__SumListEnv/ws`: connect + reset, step (GetValue) p50/p99, steps/s,
//!   the server's memory (PSS) with the sessions alive;
//! - CodeGym's `/start` and `/step` (one HTTP keep-alive connection per client): the same steps;
//! - `/openenv/coding/ws`: 1,000 Python REPL sessions, each cell `x += 1; print(x)`.
//!
//! Latency counts from a client's send to its answer, so it includes waiting for a core: the
//! clients share the machine's cores with the server (with 1,000 clients, latency is mostly
//! queueing: 1,000 / steps per second).
//!
//! Run: `cargo bench --bench openenv` (`REWARDBOX_OPENENV_SESSIONS` and
//! `REWARDBOX_OPENENV_STEPS`, per session, change the load).

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::{Barrier, Mutex};
use std::time::Instant;
use support::served::{Served, agent};
use tungstenite::Message;

fn count(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// The server's proportional set size (MiB): its private pages and its share of the pages it
/// shares, the instances' copy-on-write images among them (VmRSS counts those once per instance).
fn proportional_mib(pid: u32) -> f64 {
    let rollup = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
    rollup
        .lines()
        .find_map(|l| l.strip_prefix("Pss:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

/// Latencies (ms) of opening and of stepping, and the stepping phase's wall time.
struct Run {
    opens: Vec<f64>,
    steps: Vec<f64>,
    wall: f64,
}

impl Run {
    fn row(&self, what: &str, sessions: usize, memory: f64) {
        println!(
            "| {what} | open p50 {:.1} ms, p99 {:.1} ms | step p50 {:.2} ms, p99 {:.2} ms, {:.0} steps/s | {:.0} MiB with {sessions} alive |",
            percentile(&self.opens, 0.5),
            percentile(&self.opens, 0.99),
            percentile(&self.steps, 0.5),
            percentile(&self.steps, 0.99),
            self.steps.len() as f64 / self.wall,
            memory,
        );
    }
}

/// `clients` client threads, each owning every `clients`-th of `sessions` sessions: each opens
/// its sessions (`open`), all wait until every session is open (the server's memory is read
/// then), then each takes `steps` steps in each of its sessions, round-robin (`step`).
fn concurrently<S>(
    clients: usize,
    sessions: usize,
    steps: usize,
    server_pid: u32,
    open: impl Fn(usize) -> S + Sync,
    step: impl Fn(&mut S, usize) + Sync,
) -> (Run, f64) {
    let opened = Barrier::new(clients + 1);
    let stepping = Barrier::new(clients + 1);
    let done = Barrier::new(clients + 1);
    let opens = Mutex::new(Vec::with_capacity(sessions));
    let latencies = Mutex::new(Vec::with_capacity(sessions * steps));
    let mut memory = 0.0;
    let mut wall = 0.0;
    std::thread::scope(|scope| {
        for client in 0..clients {
            let (open, step, opens, latencies) = (&open, &step, &opens, &latencies);
            let (opened, stepping, done) = (&opened, &stepping, &done);
            std::thread::Builder::new()
                .stack_size(256 << 10)
                .spawn_scoped(scope, move || {
                    let mut mine: Vec<S> = Vec::new();
                    let mut open_ms = Vec::new();
                    for i in (client..sessions).step_by(clients) {
                        let t = Instant::now();
                        mine.push(open(i));
                        open_ms.push(t.elapsed().as_secs_f64() * 1e3);
                    }
                    opens.lock().unwrap().extend(open_ms);
                    opened.wait();
                    stepping.wait();
                    let mut step_ms = Vec::with_capacity(steps * mine.len());
                    for k in 0..steps {
                        for session in &mut mine {
                            let t = Instant::now();
                            step(session, k);
                            step_ms.push(t.elapsed().as_secs_f64() * 1e3);
                        }
                    }
                    latencies.lock().unwrap().extend(step_ms);
                    done.wait();
                    drop(mine);
                })
                .expect("a client thread");
        }
        opened.wait();
        memory = proportional_mib(server_pid);
        let started = Instant::now();
        stepping.wait();
        done.wait();
        wall = started.elapsed().as_secs_f64();
    });
    let mut opens = opens.into_inner().unwrap();
    let mut steps = latencies.into_inner().unwrap();
    opens.sort_by(f64::total_cmp);
    steps.sort_by(f64::total_cmp);
    (Run { opens, steps, wall }, memory)
}

/// A CodeGym session over HTTP, stopped when dropped.
struct HttpSession {
    client: ureq::Agent,
    base: String,
    id: String,
}

impl Drop for HttpSession {
    fn drop(&mut self) {
        let _ = self
            .client
            .post(&format!("{}/stop", self.base))
            .header("content-type", "application/json")
            .send(json!({"session_id": self.id}).to_string());
    }
}

type Socket = tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>;

fn ask(socket: &mut Socket, frame: &Value) -> Value {
    socket.send(Message::text(frame.to_string())).expect("send");
    loop {
        match socket.read().expect("an answer") {
            Message::Text(text) => {
                let answer: Value = serde_json::from_str(&text).expect("JSON");
                assert_eq!(answer["type"], "observation", "{answer}");
                return answer;
            }
            Message::Ping(_) | Message::Pong(_) => continue,
            other => panic!("unexpected frame {other:?}"),
        }
    }
}

fn main() {
    let sessions = count("REWARDBOX_OPENENV_SESSIONS", 1000);
    let steps = count("REWARDBOX_OPENENV_STEPS", 20);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("openenv");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let server = Served::start(|c| {
        c.args([
            "--max-inflight",
            "4096",
            "--max-connections",
            "4096",
            "--max-sessions",
            "8192",
        ])
        .arg("--env-dir")
        .arg(root.join("tests/data/codegym"))
        .arg("--cache-dir")
        .arg(dir.join("cache"));
    });
    let address = server.address();
    let base = server.base();
    let values: Vec<u32> = (0..50).map(|i| (i * 37 + 11) % 100).collect();
    let idle = proportional_mib(server.pid());
    println!(
        "{sessions} sessions, {steps} steps each, one client thread per session; server idle: {idle:.0} MiB (PSS)\n"
    );
    println!("| sessions | connect + reset | step | server memory (PSS) |");
    println!("|---|---|---|---|");

    let connect = |path: &str| -> Socket {
        let (socket, _) = tungstenite::connect(format!("ws://{address}{path}")).expect("connect");
        socket
    };
    // Warm-up: the CPython component loaded, the environment file compiled.
    let mut warm = connect("/openenv/codegym/Toy_1_I__SumListEnv/ws");
    ask(
        &mut warm,
        &json!({"type": "reset", "data": {"config": {"values": values}}}),
    );
    drop(warm);

    let env_str = format!("Toy_1_I__SumListEnv@{{\"values\": {values:?}}}");
    for clients in [sessions, 64.min(sessions)] {
        let (openenv, memory) = concurrently(
            clients,
            sessions,
            steps,
            server.pid(),
            |_| {
                let mut socket = connect("/openenv/codegym/Toy_1_I__SumListEnv/ws");
                ask(
                    &mut socket,
                    &json!({"type": "reset", "data": {"config": {"values": values}}}),
                );
                socket
            },
            |socket, k| {
                let answer = ask(
                    socket,
                    &json!({"type": "step", "data": {"name": "GetValue", "parameters": {"index": k % 50}}}),
                );
                assert_eq!(answer["data"]["observation"]["ok"], true);
            },
        );
        openenv.row(
            &format!("OpenEnv WebSocket, CodeGym SumListEnv (GetValue), {clients} clients"),
            sessions,
            memory,
        );

        let (codegym, memory) = concurrently(
            clients,
            sessions,
            steps,
            server.pid(),
            |_| {
                let client = agent();
                let mut r = client
                    .post(&format!("{base}/start"))
                    .header("content-type", "application/json")
                    .send(json!({"env_str": env_str, "env_name": "codegym_v1"}).to_string())
                    .expect("start");
                assert_eq!(r.status(), 200);
                let v: Value =
                    serde_json::from_str(&r.body_mut().read_to_string().unwrap()).unwrap();
                HttpSession {
                    client,
                    base: base.clone(),
                    id: v["session_id"].as_str().unwrap().to_string(),
                }
            },
            |session, k| {
                let action = format!(
                    "{{\"name\": \"GetValue\", \"parameters\": {{\"index\": {}}}}}",
                    k % 50
                );
                let mut r = session
                    .client
                    .post(&format!("{base}/step"))
                    .header("content-type", "application/json")
                    .send(json!({"session_id": session.id, "action": action}).to_string())
                    .expect("step");
                assert_eq!(r.status(), 200);
                let _ = r.body_mut().read_to_string();
            },
        );
        codegym.row(
            &format!(
                "CodeGym's HTTP endpoints, the same environment (/start, /step), {clients} clients"
            ),
            sessions,
            memory,
        );
    }

    let (coding, memory) = concurrently(
        sessions,
        sessions,
        steps,
        server.pid(),
        |_| {
            let mut socket = connect("/openenv/coding/ws");
            ask(&mut socket, &json!({"type": "reset", "data": {}}));
            ask(
                &mut socket,
                &json!({"type": "step", "data": {"code": "x = 0"}}),
            );
            socket
        },
        |socket, k| {
            let answer = ask(
                socket,
                &json!({"type": "step", "data": {"code": "x += 1\nprint(x)"}}),
            );
            assert_eq!(
                answer["data"]["observation"]["stdout"],
                format!("{}\n", k + 1)
            );
        },
    );
    coding.row(
        &format!("OpenEnv WebSocket, coding (a Python REPL per session: x += 1; print(x)), {sessions} clients"),
        sessions,
        memory,
    );
}
