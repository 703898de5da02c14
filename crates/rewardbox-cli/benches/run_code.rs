//! `/run_code` side by side: `rewardbox serve` (started here) and any other server of
//! SandboxFusion's `/run_code` protocol, same client, same workloads, one run.
//!
//! The workloads are where verification time goes in code RL:
//!
//! | workload | each request |
//! |---|---|
//! | `python-distinct` | a short Python program, distinct per request |
//! | `python-raises` | a Python program that raises |
//! | `python-loop-2m` | a 2-million-iteration Python loop |
//! | `cpp-same` | the same C++ `<iostream>` a+b each time |
//! | `cpp-distinct` | a C++ a+b, distinct per request (a comment differs) |
//! | `c-distinct`, `rust-distinct`, `go-distinct` | the same in C, Rust and Go |
//!
//! Each workload runs twice on every server, the servers taking turns (rewardbox, peer,
//! rewardbox, peer), with `REWARDBOX_BENCH_CLIENTS` concurrent clients (4); the table gives
//! each server's two rates as a range, the p50 latency, and the ratio range. Every answer is
//! checked (the right output, or the right failure): a wrong one is counted and shown, and
//! rewardbox giving any fails the run. Distinct programs are distinct across runs too (a nonce),
//! so no cache on either side answers them; the caches of libraries (zig's libc++, Go's standard
//! library) are warmed before timing.
//!
//! Run: `cargo bench --bench run_code`. With a peer:
//! `REWARDBOX_PEER_RUN_CODE=http://127.0.0.1:8080 cargo bench --bench run_code`.
//! `REWARDBOX_BENCH_WORKLOADS=cpp-distinct,python-loop-2m` runs some; `REWARDBOX_BENCH_SCALE=2`
//! doubles every count; `REWARDBOX_BENCH_BIN` starts another rewardbox build (before/after).

mod support;

use serde_json::{Value, json};
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;
use support::served::{Served, agent};

/// One kind of request, `count` of them per measurement.
struct Workload {
    name: &'static str,
    count: usize,
    /// The request body of request `i` (`nonce` makes distinct programs new to every run).
    body: fn(nonce: &str, i: usize) -> Value,
    /// Whether the answer to request `i` is right.
    check: fn(answer: &Value, i: usize) -> bool,
}

fn succeeded_with(answer: &Value, stdout: &str) -> bool {
    answer["status"] == "Success" && answer["run_result"]["stdout"].as_str() == Some(stdout)
}

const A_PLUS_B_CPP: &str =
    "#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}\n";
const A_PLUS_B_C: &str = "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b);return 0;}\n";
const A_PLUS_B_RUST: &str = "use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!(\"{}\",v[0]+v[1]);}\n";
const A_PLUS_B_GO: &str = "package main\n\nimport \"fmt\"\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tfmt.Println(a + b)\n}\n";

fn workloads() -> Vec<Workload> {
    vec![
        Workload {
            name: "python-distinct",
            count: 400,
            body: |nonce, i| json!({"language": "python", "code": format!("# {nonce}\nprint({i} * 2)\n")}),
            check: |a, i| succeeded_with(a, &format!("{}\n", i * 2)),
        },
        Workload {
            name: "python-raises",
            count: 400,
            body: |nonce, i| json!({"language": "python", "code": format!("# {nonce}\nraise ValueError({i})\n")}),
            check: |a, i| {
                a["status"] == "Failed"
                    && a["run_result"]["return_code"] == 1
                    && a["run_result"]["stderr"]
                        .as_str()
                        .is_some_and(|e| e.contains(&format!("ValueError: {i}")))
            },
        },
        Workload {
            name: "python-loop-2m",
            count: 24,
            body: |nonce, i| {
                json!({"language": "python", "code": format!(
                    "# {nonce}\ns = 0\nfor k in range(2_000_000):\n    s += k & 7\nprint(s + {i})\n")})
            },
            check: |a, i| succeeded_with(a, &format!("{}\n", 7_000_000 + i)),
        },
        Workload {
            name: "cpp-same",
            count: 60,
            body: |_, i| json!({"language": "cpp", "code": A_PLUS_B_CPP, "stdin": format!("{i} 1\n")}),
            check: |a, i| succeeded_with(a, &format!("{}\n", i + 1)),
        },
        Workload {
            name: "cpp-distinct",
            count: 40,
            body: |nonce, i| {
                json!({"language": "cpp", "code": format!("// {nonce} {i}\n{A_PLUS_B_CPP}"),
                    "stdin": format!("{i} 1\n")})
            },
            check: |a, i| succeeded_with(a, &format!("{}\n", i + 1)),
        },
        Workload {
            name: "c-distinct",
            count: 40,
            body: |nonce, i| {
                json!({"language": "c", "code": format!("// {nonce} {i}\n{A_PLUS_B_C}"),
                    "stdin": format!("{i} 1\n")})
            },
            check: |a, i| succeeded_with(a, &format!("{}\n", i + 1)),
        },
        Workload {
            name: "rust-distinct",
            count: 24,
            body: |nonce, i| {
                json!({"language": "rust", "code": format!("// {nonce} {i}\n{A_PLUS_B_RUST}"),
                    "stdin": format!("{i} 1\n")})
            },
            check: |a, i| succeeded_with(a, &format!("{}\n", i + 1)),
        },
        Workload {
            name: "go-distinct",
            count: 24,
            body: |nonce, i| {
                json!({"language": "go", "code": format!("// {nonce} {i}\n{A_PLUS_B_GO}"),
                    "stdin": format!("{i} 1\n")})
            },
            check: |a, i| succeeded_with(a, &format!("{}\n", i + 1)),
        },
    ]
}

/// One measurement: requests per second, the p50 latency (ms), and the wrong answers (the first
/// one shown).
struct Measured {
    rate: f64,
    p50_ms: f64,
    wrong: usize,
    first_wrong: Option<String>,
}

fn measure(base: &str, workload: &Workload, count: usize, clients: usize, nonce: &str) -> Measured {
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(count));
    let wrong = Mutex::new((0usize, None::<String>));
    let url = format!("{base}/run_code");
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..clients {
            s.spawn(|| {
                let client = agent();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    let body = (workload.body)(nonce, i);
                    let t = Instant::now();
                    let answer: Value = client
                        .post(&url)
                        .header("content-type", "application/json")
                        .send(body.to_string().as_bytes())
                        .ok()
                        .and_then(|mut r| r.body_mut().read_to_string().ok())
                        .and_then(|text| serde_json::from_str(&text).ok())
                        .unwrap_or(Value::Null);
                    latencies
                        .lock()
                        .unwrap()
                        .push(t.elapsed().as_secs_f64() * 1e3);
                    if !(workload.check)(&answer, i) {
                        let mut wrong = wrong.lock().unwrap();
                        wrong.0 += 1;
                        wrong.1.get_or_insert_with(|| {
                            let text = answer.to_string();
                            text.chars().take(400).collect()
                        });
                    }
                }
            });
        }
    });
    let wall = started.elapsed().as_secs_f64();
    let mut latencies = latencies.into_inner().unwrap();
    latencies.sort_by(f64::total_cmp);
    let (wrong, first_wrong) = wrong.into_inner().unwrap();
    Measured {
        rate: count as f64 / wall,
        p50_ms: latencies[latencies.len() / 2],
        wrong,
        first_wrong,
    }
}

fn range(values: &[f64]) -> (f64, f64) {
    let low = values.iter().copied().fold(f64::INFINITY, f64::min);
    let high = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    (low, high)
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("run-code");
    std::fs::create_dir_all(&dir).expect("bench directory");
    let server = Served::start(|c| {
        c.arg("--cache-dir").arg(dir.join("cache"));
    });
    let ours = server.base();
    let peer = std::env::var("REWARDBOX_PEER_RUN_CODE").ok();
    let clients: usize = std::env::var("REWARDBOX_BENCH_CLIENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4);
    let scale: f64 = std::env::var("REWARDBOX_BENCH_SCALE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1.0);
    let chosen: Option<Vec<String>> = std::env::var("REWARDBOX_BENCH_WORKLOADS")
        .ok()
        .map(|v| v.split(',').map(|w| w.trim().to_string()).collect());
    let nonce = format!(
        "run {}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let mut servers = vec![("rewardbox", ours.clone())];
    servers.extend(
        peer.iter()
            .map(|p| ("peer", p.trim_end_matches('/').to_string())),
    );

    println!(
        "/run_code, {clients} concurrent clients; each workload twice per server, servers in turn"
    );
    println!("peer: {}", peer.as_deref().unwrap_or("(none)"));
    println!();
    println!(
        "| workload | requests | rewardbox req/s | p50 ms | peer req/s | p50 ms | rewardbox/peer |"
    );
    println!("|---|---|---|---|---|---|---|");
    let mut rewardbox_wrong = 0;
    for workload in workloads() {
        if chosen
            .as_ref()
            .is_some_and(|c| !c.iter().any(|w| w == workload.name))
        {
            continue;
        }
        let count = ((workload.count as f64 * scale).round() as usize).max(2);
        // Warm the libraries (zig's libc++, Go's standard library) and each server's runner.
        for (_, base) in &servers {
            let _ = measure(base, &workload, 1, 1, &format!("{nonce} warm"));
        }
        let mut results: Vec<Vec<Measured>> = servers.iter().map(|_| Vec::new()).collect();
        for round in 0..2 {
            for (s, (_, base)) in servers.iter().enumerate() {
                let nonce = format!("{nonce} round {round} server {s}");
                results[s].push(measure(base, &workload, count, clients, &nonce));
            }
        }
        let cell = |measured: &[Measured]| {
            let (low, high) = range(&measured.iter().map(|m| m.rate).collect::<Vec<_>>());
            let p50 = measured.iter().map(|m| m.p50_ms).sum::<f64>() / measured.len() as f64;
            let wrong: usize = measured.iter().map(|m| m.wrong).sum();
            let wrong = if wrong > 0 {
                format!(" ({wrong} wrong)")
            } else {
                String::new()
            };
            (
                format!("{low:.1}–{high:.1}{wrong}"),
                format!("{p50:.0}"),
                (low, high),
            )
        };
        let (ours_rate, ours_p50, (ours_low, ours_high)) = cell(&results[0]);
        let (peer_rate, peer_p50, ratio) = match results.get(1) {
            Some(peer) => {
                let (rate, p50, (low, high)) = cell(peer);
                let peer_wrong = peer.iter().any(|m| m.wrong > 0);
                let ratio = if peer_wrong {
                    "- (the peer failed)".into()
                } else if low > 0.0 {
                    format!("{:.2}–{:.2}x", ours_low / high, ours_high / low)
                } else {
                    "-".into()
                };
                (rate, p50, ratio)
            }
            None => ("-".into(), "-".into(), "-".into()),
        };
        println!(
            "| {} | {count} | {ours_rate} | {ours_p50} | {peer_rate} | {peer_p50} | {ratio} |",
            workload.name
        );
        for ((who, _), measured) in servers.iter().zip(&results) {
            if let Some(first) = measured.iter().find_map(|m| m.first_wrong.as_ref()) {
                println!("  {who} answered {} wrongly, e.g. {first}", workload.name);
            }
        }
        rewardbox_wrong += results[0].iter().map(|m| m.wrong).sum::<usize>();
    }
    assert_eq!(rewardbox_wrong, 0, "rewardbox gave wrong answers");
}
