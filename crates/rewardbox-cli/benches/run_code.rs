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
//! | `cpp-distinct` | a C++ a+b, distinct per request (a constant in its code differs, so no two compile to the same program) |
//! | `c-distinct`, `rust-distinct`, `go-distinct` | the same in C, Rust and Go |
//!
//! Each workload runs twice on every target, the targets taking turns (rewardbox, peer, native,
//! rewardbox, peer, native), with `REWARDBOX_BENCH_CLIENTS` concurrent clients (4); the table
//! gives each target's two rates as a range, the p50 latency, and the ratio ranges. "native" is
//! the machine's own toolchain with no sandbox: each request's program compiled (`g++ -O2`,
//! `gcc -O2`, `rustc -C opt-level=2`, `go build`) and run as a process (`python3` for Python). Every answer is
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

/// The request body of request `i` of a workload (`nonce` makes distinct programs new to every run).
type Body = Box<dyn Fn(&str, usize) -> Value + Sync>;

/// One kind of request, `count` of them per measurement.
struct Workload {
    name: &'static str,
    count: usize,
    body: Body,
    /// Whether the answer to request `i` is right.
    check: fn(answer: &Value, i: usize) -> bool,
}

fn succeeded_with(answer: &Value, stdout: &str) -> bool {
    answer["status"] == "Success" && answer["run_result"]["stdout"].as_str() == Some(stdout)
}

/// Whether request `i` of an a+b workload (its stdin `i 1`) printed `i + 1`.
fn summed(answer: &Value, i: usize) -> bool {
    succeeded_with(answer, &format!("{}\n", i + 1))
}

const A_PLUS_B_CPP: &str =
    "#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<std::endl;}\n";

/// An a+b in each compiled language whose code (not only its text) is new to every request: it
/// also compares the input with `{constant}`, made of the run's nonce and the request's index,
/// so no two compile to the same program.
const DISTINCT_A_PLUS_B: [(&str, &str, usize, &str); 4] = [
    (
        "cpp-distinct",
        "cpp",
        40,
        "// {nonce}\n#include <iostream>\nint main(){long long a,b;std::cin>>a>>b;if(a=={constant}LL)return 3;std::cout<<a+b<<std::endl;}\n",
    ),
    (
        "c-distinct",
        "c",
        40,
        "// {nonce}\n#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;if(a=={constant}LL)return 3;printf(\"%lld\\n\",a+b);return 0;}\n",
    ),
    (
        "rust-distinct",
        "rust",
        24,
        "// {nonce}\nuse std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();if v[0]=={constant}{std::process::exit(3);}println!(\"{}\",v[0]+v[1]);}\n",
    ),
    (
        "go-distinct",
        "go",
        24,
        "// {nonce}\npackage main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\nfunc main() {\n\tvar a, b int64\n\tfmt.Scan(&a, &b)\n\tif a == {constant} {\n\t\tos.Exit(3)\n\t}\n\tfmt.Println(a + b)\n}\n",
    ),
];

/// A constant of `nonce` and `i` that no request's input equals (above 10^12).
fn distinct_constant(nonce: &str, i: usize) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (nonce, i).hash(&mut hasher);
    1_000_000_000_000 + hasher.finish() % 1_000_000_000_000
}

/// A Python workload: request `i` runs `code(i)`, its answer judged by `check`.
fn python(
    name: &'static str,
    count: usize,
    code: fn(usize) -> String,
    check: fn(&Value, usize) -> bool,
) -> Workload {
    Workload {
        name,
        count,
        body: Box::new(
            move |nonce, i| json!({"language": "python", "code": format!("# {nonce}\n{}", code(i))}),
        ),
        check,
    }
}

fn workloads() -> Vec<Workload> {
    let mut workloads = vec![
        python(
            "python-distinct",
            400,
            |i| format!("print({i} * 2)\n"),
            |a, i| succeeded_with(a, &format!("{}\n", i * 2)),
        ),
        python(
            "python-raises",
            400,
            |i| format!("raise ValueError({i})\n"),
            |a, i| {
                a["status"] == "Failed"
                    && a["run_result"]["return_code"] == 1
                    && a["run_result"]["stderr"]
                        .as_str()
                        .is_some_and(|e| e.contains(&format!("ValueError: {i}")))
            },
        ),
        python(
            "python-loop-2m",
            24,
            |i| format!("s = 0\nfor k in range(2_000_000):\n    s += k & 7\nprint(s + {i})\n"),
            |a, i| succeeded_with(a, &format!("{}\n", 7_000_000 + i)),
        ),
        Workload {
            name: "cpp-same",
            count: 60,
            body: Box::new(
                |_, i| json!({"language": "cpp", "code": A_PLUS_B_CPP, "stdin": format!("{i} 1\n")}),
            ),
            check: summed,
        },
    ];
    workloads.extend(
        DISTINCT_A_PLUS_B
            .iter()
            .map(|&(name, language, count, template)| Workload {
                name,
                count,
                body: Box::new(move |nonce, i| {
                    let code = template
                        .replace("{nonce}", nonce)
                        .replace("{constant}", &distinct_constant(nonce, i).to_string());
                    json!({"language": language, "code": code, "stdin": format!("{i} 1\n")})
                }),
                check: summed,
            }),
    );
    workloads
}

/// Where requests go: a `/run_code` server, or the native toolchain on this machine (each request
/// compiled, when its language is, and run as a process of its own, unsandboxed).
enum Target {
    Server(String),
    Native(PathBuf),
}

impl Target {
    /// The answer to `body`, in `/run_code`'s shape.
    fn answer(&self, client: &ureq::Agent, body: &Value) -> Value {
        match self {
            Target::Server(base) => client
                .post(&format!("{base}/run_code"))
                .header("content-type", "application/json")
                .send(body.to_string().as_bytes())
                .ok()
                .and_then(|mut r| r.body_mut().read_to_string().ok())
                .and_then(|text| serde_json::from_str(&text).ok())
                .unwrap_or(Value::Null),
            Target::Native(dir) => native_answer(dir, body),
        }
    }
}

/// The interpreter `python3` names, resolved once (a version manager's shim on the path would
/// otherwise start a shell before every run).
fn native_python() -> &'static str {
    static PYTHON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    PYTHON.get_or_init(|| {
        std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .ok()
            .and_then(|o| String::from_utf8(o.stdout).ok())
            .map(|p| p.trim().to_string())
            .filter(|p| !p.is_empty())
            .unwrap_or_else(|| "python3".into())
    })
}

/// The `go` command rewardbox itself compiles Go with: `$REWARDBOX_GO`, else the one
/// `scripts/setup.sh` installs into `.venv` (not on `PATH`), else `go` on `PATH`.
fn native_go() -> &'static str {
    static GO: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    GO.get_or_init(|| {
        let installed = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/go");
        std::env::var("REWARDBOX_GO")
            .ok()
            .filter(|go| !go.is_empty())
            .or_else(|| installed.is_file().then(|| installed.display().to_string()))
            .unwrap_or_else(|| "go".into())
    })
}

/// Compiles (`g++ -O2`, `gcc -O2`, `rustc -C opt-level=2`, `go build`) and runs `body`'s program
/// natively in a directory of its own under `dir`.
fn native_answer(dir: &std::path::Path, body: &Value) -> Value {
    use std::io::Write;
    use std::process::{Command, Stdio};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let work = dir.join(format!("r{}", NEXT.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&work).expect("a native work directory");
    let code = body["code"].as_str().unwrap_or_default();
    let (file, compile, run): (&str, Option<Vec<&str>>, Vec<&str>) =
        match body["language"].as_str().unwrap_or_default() {
            "python" => ("main.py", None, vec![native_python(), "main.py"]),
            "cpp" => (
                "main.cpp",
                Some(vec!["g++", "-O2", "-o", "main", "main.cpp"]),
                vec!["./main"],
            ),
            "c" => (
                "main.c",
                Some(vec!["gcc", "-O2", "-o", "main", "main.c"]),
                vec!["./main"],
            ),
            "rust" => (
                "main.rs",
                Some(vec!["rustc", "-C", "opt-level=2", "-o", "main", "main.rs"]),
                vec!["./main"],
            ),
            "go" => (
                "main.go",
                Some(vec![native_go(), "build", "-o", "main", "main.go"]),
                vec!["./main"],
            ),
            _ => return Value::Null,
        };
    std::fs::write(work.join(file), code).expect("the program");
    let failed = |stage: &str, output: std::process::Output| {
        json!({"status": "Failed", "message": stage, "run_result": {
            "return_code": output.status.code(),
            "stdout": String::from_utf8_lossy(&output.stdout),
            "stderr": String::from_utf8_lossy(&output.stderr)}})
    };
    if let Some(compile) = compile {
        let Ok(output) = Command::new(compile[0])
            .args(&compile[1..])
            .current_dir(&work)
            .output()
        else {
            return Value::Null;
        };
        if !output.status.success() {
            return failed("compile", output);
        }
    }
    let Ok(mut child) = Command::new(run[0])
        .args(&run[1..])
        .current_dir(&work)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
    else {
        return Value::Null;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(body["stdin"].as_str().unwrap_or_default().as_bytes());
    }
    let output = child.wait_with_output().expect("the native run");
    let _ = std::fs::remove_dir_all(&work);
    if !output.status.success() {
        return failed("run", output);
    }
    json!({"status": "Success", "run_result": {
        "return_code": 0,
        "stdout": String::from_utf8_lossy(&output.stdout),
        "stderr": String::from_utf8_lossy(&output.stderr)}})
}

/// One measurement: requests per second, the p50 latency (ms), and the wrong answers (the first
/// one shown).
struct Measured {
    rate: f64,
    p50_ms: f64,
    wrong: usize,
    first_wrong: Option<String>,
}

fn measure(
    target: &Target,
    workload: &Workload,
    count: usize,
    clients: usize,
    nonce: &str,
) -> Measured {
    let next = AtomicUsize::new(0);
    let latencies = Mutex::new(Vec::with_capacity(count));
    let wrong = Mutex::new((0usize, None::<String>));
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
                    let answer = target.answer(&client, &body);
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
    let peer = std::env::var("REWARDBOX_PEER_RUN_CODE").ok();
    let env_number = |name: &str, default: f64| -> f64 {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let clients = env_number("REWARDBOX_BENCH_CLIENTS", 4.0) as usize;
    let scale = env_number("REWARDBOX_BENCH_SCALE", 1.0);
    let chosen: Option<Vec<String>> = std::env::var("REWARDBOX_BENCH_WORKLOADS")
        .ok()
        .map(|v| v.split(',').map(|w| w.trim().to_string()).collect());
    let nonce = format!(
        "run {}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let mut targets = vec![("rewardbox", Target::Server(server.base()))];
    targets.extend(
        peer.iter()
            .map(|p| ("peer", Target::Server(p.trim_end_matches('/').to_string()))),
    );
    if std::env::var("REWARDBOX_BENCH_NATIVE").as_deref() != Ok("0") {
        targets.push(("native", Target::Native(dir.join("native"))));
    }

    println!(
        "/run_code, {clients} concurrent clients; each workload twice per target, targets in turn"
    );
    println!("peer: {}", peer.as_deref().unwrap_or("(none)"));
    println!(
        "native: the machine's own toolchain, a process per request, unsandboxed (REWARDBOX_BENCH_NATIVE=0: none)"
    );
    println!();
    let mut header = String::from("| workload | requests |");
    let mut rule = String::from("|---|---|");
    for (who, _) in &targets {
        header.push_str(&format!(" {who} req/s | p50 ms |"));
        rule.push_str("---|---|");
    }
    for (who, _) in &targets[1..] {
        header.push_str(&format!(" rewardbox/{who} |"));
        rule.push_str("---|");
    }
    println!("{header}\n{rule}");
    let mut rewardbox_wrong = 0;
    for workload in workloads() {
        if chosen
            .as_ref()
            .is_some_and(|c| !c.iter().any(|w| w == workload.name))
        {
            continue;
        }
        let count = ((workload.count as f64 * scale).round() as usize).max(2);
        // Warm the libraries (zig's libc++, Go's standard library) and each target's runner.
        for (_, target) in &targets {
            let _ = measure(target, &workload, 1, 1, &format!("{nonce} warm"));
        }
        let mut results: Vec<Vec<Measured>> = targets.iter().map(|_| Vec::new()).collect();
        for round in 0..2 {
            for (t, (_, target)) in targets.iter().enumerate() {
                let nonce = format!("{nonce} round {round} target {t}");
                results[t].push(measure(target, &workload, count, clients, &nonce));
            }
        }
        let mut row = format!("| {} | {count} |", workload.name);
        let mut ratios = String::new();
        let (ours_low, ours_high) = range(&results[0].iter().map(|m| m.rate).collect::<Vec<_>>());
        for (t, measured) in results.iter().enumerate() {
            let (low, high) = range(&measured.iter().map(|m| m.rate).collect::<Vec<_>>());
            let p50 = measured.iter().map(|m| m.p50_ms).sum::<f64>() / measured.len() as f64;
            let wrong: usize = measured.iter().map(|m| m.wrong).sum();
            let noted = if wrong > 0 {
                format!(" ({wrong} wrong)")
            } else {
                String::new()
            };
            row.push_str(&format!(" {low:.1}–{high:.1}{noted} | {p50:.0} |"));
            if t > 0 {
                ratios.push_str(&if wrong > 0 {
                    " - (it failed) |".to_string()
                } else {
                    format!(" {:.2}–{:.2}x |", ours_low / high, ours_high / low)
                });
            }
        }
        println!("{row}{ratios}");
        for ((who, _), measured) in targets.iter().zip(&results) {
            if let Some(first) = measured.iter().find_map(|m| m.first_wrong.as_ref()) {
                println!("  {who} answered {} wrongly, e.g. {first}", workload.name);
            }
        }
        rewardbox_wrong += results[0].iter().map(|m| m.wrong).sum::<usize>();
    }
    assert_eq!(rewardbox_wrong, 0, "rewardbox gave wrong answers");
}
