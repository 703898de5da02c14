//! Candidates in C, C++ and Rust, side by side with native compilers in the same run:
//!
//! 1. compile time of distinct 100-line C++ programs: rewardbox's confined `zig c++` to a
//!    component (p50, p90), the native code wasmtime makes of it, and native `g++ -O2`;
//! 2. runs/s of a compiled trivial C program, fresh instance per run, on every core (threads of
//!    one process), against fork+exec of the native binary;
//! 3. the same a+b program in each language (C, C++, Rust, Python, JavaScript, TypeScript):
//!    runs/s in the sandbox, one core, against the native binary (or `python3`, or Node where
//!    present: `REWARDBOX_NODE`, else `node`; TypeScript needs Node 22.18 or newer).
//!
//! Run: `cargo bench --bench languages` (needs zig: `scripts/python-tools.sh` installs it);
//! `REWARDBOX_LANGUAGES_BENCH=ab` measures only the a+b programs.

use rayon::prelude::*;
use rewardbox::ComponentCache;
use rewardbox::Limits;
use rewardbox::SandboxesBuilder;
use rewardbox::candidates::Runners;
use rewardbox::sandboxes::DEFAULT_INSTANCES_PER_THREAD;
use rewardbox_toolchains::CompileLimits;
use rewardbox_toolchains::on_path;
use rewardbox_toolchains::{Language, Toolchains};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Distinct C++ programs compiled for the compile-time figure.
const PROGRAMS: usize = 15;
/// Fresh instances of the trivial program.
const RUNS: usize = 6000;
/// Runs of each a+b program.
const AB_RUNS: usize = 600;

fn limits() -> Limits {
    Limits {
        wall_ms: 60_000,
        ..rewardbox::candidates::CANDIDATE_DEFAULT
    }
}

fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("languages-bench")
}

/// A 100-line C++ program, different for each `seed`: a segment tree, a sort, a DP and I/O, as a
/// competitive programmer writes them.
fn cpp_program(seed: usize) -> String {
    let mut lines = vec![
        "#include <bits/stdc++.h>".to_string(),
        "using namespace std;".to_string(),
        "typedef long long ll;".to_string(),
        format!("const ll MOD = {};", 1_000_000_007 + 2 * seed),
        "struct SegTree {".to_string(),
        "    int n; vector<ll> t;".to_string(),
        "    SegTree(int n) : n(n), t(4 * n, 0) {}".to_string(),
        "    void update(int node, int l, int r, int pos, ll val) {".to_string(),
        "        if (l == r) { t[node] = val; return; }".to_string(),
        "        int mid = (l + r) / 2;".to_string(),
        "        if (pos <= mid) update(2 * node, l, mid, pos, val);".to_string(),
        "        else update(2 * node + 1, mid + 1, r, pos, val);".to_string(),
        "        t[node] = (t[2 * node] + t[2 * node + 1]) % MOD;".to_string(),
        "    }".to_string(),
        "    ll query(int node, int l, int r, int ql, int qr) {".to_string(),
        "        if (qr < l || r < ql) return 0;".to_string(),
        "        if (ql <= l && r <= qr) return t[node];".to_string(),
        "        int mid = (l + r) / 2;".to_string(),
        "        return (query(2 * node, l, mid, ql, qr) + query(2 * node + 1, mid + 1, r, ql, qr)) % MOD;".to_string(),
        "    }".to_string(),
        "};".to_string(),
    ];
    for f in 0..6 {
        lines.extend([
            format!("ll helper{f}(const vector<ll>& v, ll k) {{"),
            "    ll acc = 0;".to_string(),
            "    for (size_t i = 0; i < v.size(); ++i) {".to_string(),
            format!(
                "        acc = (acc * {} + v[i] * k + {}) % MOD;",
                31 + f + seed,
                f * 7 + seed
            ),
            "    }".to_string(),
            format!(
                "    map<ll, int> seen; for (ll x : v) seen[x % {}]++;",
                13 + f
            ),
            "    return (acc + (ll)seen.size()) % MOD;".to_string(),
            "}".to_string(),
        ]);
    }
    lines.extend([
        "int main() {".to_string(),
        "    ios::sync_with_stdio(false); cin.tie(nullptr);".to_string(),
        "    int n; if (!(cin >> n)) return 0;".to_string(),
        "    vector<ll> a(n); for (auto& x : a) cin >> x;".to_string(),
        "    SegTree st(max(n, 1));".to_string(),
        "    for (int i = 0; i < n; ++i) st.update(1, 0, n - 1, i, a[i]);".to_string(),
        "    vector<ll> sorted_a = a; sort(sorted_a.begin(), sorted_a.end());".to_string(),
        "    vector<vector<ll>> dp(n + 1, vector<ll>(3, 0));".to_string(),
        "    for (int i = 1; i <= n; ++i) {".to_string(),
        "        for (int j = 0; j < 3; ++j) {".to_string(),
        "            dp[i][j] = max(dp[i - 1][j], (j ? dp[i - 1][j - 1] : 0) + a[i - 1]);"
            .to_string(),
        "        }".to_string(),
        "    }".to_string(),
        "    ll total = 0;".to_string(),
    ]);
    for f in 0..6 {
        lines.push(format!(
            "    total = (total + helper{f}(sorted_a, {})) % MOD;",
            f + 1
        ));
    }
    lines.extend([
        "    unordered_map<ll, ll> freq; for (ll x : a) freq[x]++;".to_string(),
        "    priority_queue<ll> pq(a.begin(), a.end());".to_string(),
        "    ll best = pq.empty() ? 0 : pq.top();".to_string(),
        "    string s = to_string(total);".to_string(),
        "    reverse(s.begin(), s.end());".to_string(),
        "    cout << st.query(1, 0, n - 1, 0, n - 1) << ' ' << dp[n][2] << ' ' << best << ' ' << s << '\\n';".to_string(),
        "    return 0;".to_string(),
        "}".to_string(),
    ]);
    while lines.len() < 100 {
        lines.push(format!("// padding line {}", lines.len()));
    }
    lines.join("\n")
}

fn percentile(mut xs: Vec<f64>, p: f64) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[((xs.len() - 1) as f64 * p).round() as usize]
}

fn native_compile(
    compiler: &str,
    args: &[&str],
    source: &str,
    name: &str,
) -> Option<(PathBuf, Duration)> {
    let dir = bench_dir().join("native");
    std::fs::create_dir_all(&dir).ok()?;
    let src = dir.join(name);
    std::fs::write(&src, source).ok()?;
    let out = dir.join(format!("{name}.bin"));
    let started = Instant::now();
    let status = Command::new(compiler)
        .args(args)
        .arg("-o")
        .arg(&out)
        .arg(&src)
        .status()
        .ok()?;
    status.success().then(|| (out, started.elapsed()))
}

fn native_runs_per_second(
    binary: &Path,
    args: &[&str],
    stdin: &str,
    runs: usize,
    threads: usize,
) -> f64 {
    let started = Instant::now();
    (0..runs)
        .into_par_iter()
        .with_min_len(runs / threads)
        .for_each(|_| {
            let mut child = Command::new(binary)
                .args(args)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .expect("native program");
            child
                .stdin
                .take()
                .unwrap()
                .write_all(stdin.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            assert!(out.status.success());
        });
    runs as f64 / started.elapsed().as_secs_f64()
}

/// Whether `binary` with `args` answers "40 2" with 42 (a native runner that can run the program).
fn answers_42(binary: &std::path::Path, args: &[String]) -> bool {
    let Ok(mut child) = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(b"40 2\n");
    }
    child.wait_with_output().is_ok_and(|out| {
        out.status.success() && String::from_utf8_lossy(&out.stdout).trim() == "42"
    })
}

/// The real `python3` binary (not a version manager's shell shim, which costs more than Python).
fn native_python() -> Option<PathBuf> {
    let out = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .ok()?;
    Some(PathBuf::from(String::from_utf8(out.stdout).ok()?.trim()))
}

fn main() {
    // On a thread with room for a guest's stack, as the scorer's threads are.
    rewardbox::sandboxes::with_room(measure)
}

fn measure() {
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    // Threads with room for a guest's stack, as the scorer's are.
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .stack_size(rewardbox::sandboxes::THREAD_STACK_BYTES)
        .build_global()
        .ok();
    let cache_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache");
    // Compiled programs from earlier runs would make "first run" a cache hit.
    let _ = std::fs::remove_dir_all(cache_dir.join("programs"));
    let sandboxes = SandboxesBuilder::for_runs(threads)
        .instances_per_thread(DEFAULT_INSTANCES_PER_THREAD)
        .cache(ComponentCache::in_dir(&cache_dir))
        .build()
        .expect("the engine and runners");
    let (engine, runners) = (sandboxes.engine(), sandboxes.runners());
    let limits = limits();
    if std::env::var("REWARDBOX_LANGUAGES_BENCH").as_deref() != Ok("ab") {
        compile_and_trivial_runs(engine, runners, &cache_dir, threads, &limits);
    }
    ab_programs(runners, &limits);
}

/// Sections 1 and 2: C++ compile times, and fresh instances of a trivial C program.
fn compile_and_trivial_runs(
    engine: &wasmtime::Engine,
    runners: &Runners,
    cache_dir: &Path,
    threads: usize,
    limits: &Limits,
) {
    // 1. Compile time.
    let toolchains = Toolchains::new(Some(cache_dir), CompileLimits::default());
    toolchains
        .compile(Language::Cpp, "int main(){}")
        .expect("zig's C++ library builds");
    let mut zig_times = Vec::new();
    let mut native_code_times = Vec::new();
    let mut gxx_times = Vec::new();
    for seed in 0..PROGRAMS {
        let source = cpp_program(seed + 1000 * std::process::id() as usize);
        assert_eq!(source.lines().count(), 100);
        let started = Instant::now();
        let compiled = toolchains
            .compile(Language::Cpp, &source)
            .expect("the program compiles");
        zig_times.push(started.elapsed().as_secs_f64());
        let started = Instant::now();
        wasmtime::component::Component::new(engine, &*compiled.component).expect("native code");
        native_code_times.push(started.elapsed().as_secs_f64());
        if let Some((_, t)) = native_compile(
            "g++",
            &["-O2", "-std=gnu++20"],
            &source,
            &format!("p{seed}.cpp"),
        ) {
            gxx_times.push(t.as_secs_f64());
        }
    }
    println!(
        "1. compile time of {PROGRAMS} distinct 100-line C++ programs (bits/stdc++.h, -O2), one at a time"
    );
    println!(
        "   rewardbox zig c++ (confined) -> component: p50 {:.0} ms, p90 {:.0} ms",
        ms(percentile(zig_times.clone(), 0.5)),
        ms(percentile(zig_times.clone(), 0.9))
    );
    println!(
        "   + wasmtime native code:                 p50 {:.0} ms, p90 {:.0} ms",
        ms(percentile(native_code_times.clone(), 0.5)),
        ms(percentile(native_code_times, 0.9))
    );
    if !gxx_times.is_empty() {
        println!(
            "   native g++ -O2 (unconfined):            p50 {:.0} ms, p90 {:.0} ms",
            ms(percentile(gxx_times.clone(), 0.5)),
            ms(percentile(gxx_times, 0.9))
        );
    }

    // 2. Runs/s of a trivial compiled program.
    let trivial = "#include <stdio.h>\nint main(void){puts(\"1\");return 0;}";
    for i in 0..20 {
        assert_eq!(runners.run("c", trivial, "", limits, i).stdout, "1\n");
    }
    let started = Instant::now();
    (0..RUNS).into_par_iter().for_each(|i| {
        let out = runners.run("c", trivial, "", limits, i as u64);
        assert_eq!(out.stdout, "1\n");
    });
    let sandboxed = RUNS as f64 / started.elapsed().as_secs_f64();
    println!("2. a trivial compiled C program (puts), fresh instance per run, {threads} threads");
    println!("   rewardbox: {sandboxed:.0} runs/s");
    if let Some((binary, _)) = native_compile("gcc", &["-O2"], trivial, "trivial.c") {
        let native = native_runs_per_second(&binary, &[], "", RUNS / 2, threads);
        println!(
            "   native fork+exec: {native:.0} runs/s (ratio {:.2}x)",
            sandboxed / native
        );
    }
}

/// Seconds as milliseconds.
fn ms(seconds: f64) -> f64 {
    seconds * 1000.0
}

/// Native Node: `REWARDBOX_NODE`, else `node` on the PATH.
fn native_node() -> Option<PathBuf> {
    std::env::var_os("REWARDBOX_NODE")
        .map(PathBuf::from)
        .or_else(|| on_path("node"))
}

/// Section 3: the same a+b program in each language.
fn ab_programs(runners: &Runners, limits: &Limits) {
    let limits = *limits;
    let ab = [
        (
            "c",
            "#include <stdio.h>\nint main(void){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a+b);return 0;}",
            "gcc",
            vec!["-O2"],
            "ab.c",
        ),
        (
            "cpp",
            "#include <bits/stdc++.h>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}",
            "g++",
            vec!["-O2", "-std=gnu++20"],
            "ab.cpp",
        ),
        (
            "rust",
            "use std::io::Read;\nfn main(){let mut s=String::new();std::io::stdin().read_to_string(&mut s).unwrap();let v:Vec<i64>=s.split_whitespace().map(|x|x.parse().unwrap()).collect();println!(\"{}\",v[0]+v[1]);}",
            "rustc",
            vec!["-O", "--edition=2021"],
            "ab.rs",
        ),
        (
            "python",
            "a, b = map(int, input().split())\nprint(a + b)",
            "",
            vec![],
            "ab.py",
        ),
        (
            "javascript",
            "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(a + b);",
            "node",
            vec![],
            "ab.js",
        ),
        (
            "typescript",
            "const [a, b]: number[] = (require('fs').readFileSync(0, 'utf8') as string).trim().split(/\\s+/).map(Number);\nconst sum = (x: number, y: number): number => x + y;\nconsole.log(sum(a!, b!));",
            "node",
            vec![],
            "ab.ts",
        ),
    ];
    println!(
        "3. the same a+b program, {AB_RUNS} runs on one core (compile time: first sandboxed run / native compile)"
    );
    for (language, source, compiler, flags, name) in ab {
        let started = Instant::now();
        let first = runners.run(language, source, "40 2\n", &limits, 0);
        let first_time = started.elapsed();
        assert_eq!(first.stdout, "42\n", "{language}: {}", first.stderr);
        let started = Instant::now();
        for i in 0..AB_RUNS {
            let out = runners.run(language, source, "40 2\n", &limits, i as u64);
            assert_eq!(out.stdout, "42\n");
        }
        let sandboxed = AB_RUNS as f64 / started.elapsed().as_secs_f64();
        let native = if language == "python" {
            native_python().map(|python| (python, vec!["-c".into(), source.into()], Duration::ZERO))
        } else if language == "javascript" {
            native_node().map(|node| (node, vec!["-e".into(), source.into()], Duration::ZERO))
        } else if language == "typescript" {
            let file = bench_dir().join(name);
            std::fs::create_dir_all(bench_dir()).unwrap();
            std::fs::write(&file, source).unwrap();
            // Node strips TypeScript's types from 22.18 on: an older one cannot run it (no row).
            native_node()
                .map(|node| (node, vec![file.display().to_string()], Duration::ZERO))
                .filter(|(node, args, _)| answers_42(node, args))
        } else {
            native_compile(compiler, &flags, source, name)
                .map(|(b, t)| (b, Vec::<String>::new(), t))
        };
        match native {
            Some((binary, args, compile)) => {
                let args: Vec<&str> = args.iter().map(String::as_str).collect();
                let native = native_runs_per_second(&binary, &args, "40 2\n", AB_RUNS, 1);
                println!(
                    "   {language:<7} rewardbox {sandboxed:>6.0} runs/s (first run {:>5.0} ms) | native {native:>6.0} runs/s (compile {:>5.0} ms) | {:.2}x",
                    ms(first_time.as_secs_f64()),
                    ms(compile.as_secs_f64()),
                    sandboxed / native
                );
            }
            None if language == "typescript" => println!(
                "   {language:<7} rewardbox {sandboxed:>6.0} runs/s (no native node here that runs \
                 TypeScript: 22.18 or newer)"
            ),
            None => println!(
                "   {language:<7} rewardbox {sandboxed:>6.0} runs/s (no native {compiler} here)"
            ),
        }
    }
}
