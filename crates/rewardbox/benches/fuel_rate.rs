//! Calibrates the fuel a second of a time limit buys, per runner, against the native toolchain.
//!
//! For each language, six programs of the kinds contest and RL code is made of (an integer loop,
//! a sort, a hash table, string building, recursion, floating point) run natively (`python3`,
//! `node`, `gcc -O2`, `g++ -O2`, `rustc -O`) and in rewardbox on the same input. Each gives:
//! - **fuel per native second**: the fuel the sandboxed run used, over the native program's CPU
//!   time for the same work. A quarter of the largest of a runner's programs is the rate a time
//!   limit is turned into fuel with (`rewardbox::candidates::limits_for_seconds`): every program like these
//!   that finishes natively within a quarter of the limit then finishes in rewardbox too,
//!   deterministically.
//! - **fuel per sandboxed second**: how fast the sandbox burns fuel; the smallest sets the
//!   wall-clock net a limit needs.
//!
//! Where the sandbox is much slower than native (JavaScript: an interpreter against Node's JIT),
//! the two runs use different sizes and the native time is scaled by the work each size does.
//!
//! Run: `cargo bench --bench fuel_rate` (needs python3, node, gcc, g++, rustc, zig).

use rewardbox::ComponentCache;
use rewardbox::Limits;
use rewardbox::SandboxesBuilder;
use rewardbox::candidates::Runners;
use rewardbox::candidates::fuel_rate;
use rewardbox::sandboxes::DEFAULT_INSTANCES_PER_THREAD;
use rewardbox_toolchains::Language;
use rewardbox_toolchains::on_path;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

/// How much work a program does for its input `n`, up to a constant.
#[derive(Clone, Copy)]
enum Growth {
    Linear,
    LinearLog,
    /// Recursive Fibonacci: calls grow as the golden ratio to the `n`.
    Fibonacci,
}

impl Growth {
    fn work(self, n: u64) -> f64 {
        let n = n as f64;
        match self {
            Growth::Linear => n,
            Growth::LinearLog => n * n.max(2.0).log2(),
            Growth::Fibonacci => 1.618_033_988_75_f64.powf(n),
        }
    }
}

/// One program in one language, with the input sizes of its native and sandboxed runs.
struct Program {
    kind: &'static str,
    growth: Growth,
    source: &'static str,
    native_n: u64,
    sandbox_n: u64,
}

fn program(
    kind: &'static str,
    growth: Growth,
    source: &'static str,
    native_n: u64,
    sandbox_n: u64,
) -> Program {
    Program {
        kind,
        growth,
        source,
        native_n,
        sandbox_n,
    }
}

fn python_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            "n=int(input())\ns=0\nfor i in range(n):\n    s=(s+i*i)%1000003\nprint(s)\n",
            4_000_000,
            4_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            "n=int(input())\nx=12345\na=[]\nfor i in range(n):\n    x=(x*1103515245+12345)%2147483648\n    a.append(x)\na.sort()\nprint(a[n//2])\n",
            1_500_000,
            1_500_000,
        ),
        program(
            "hash",
            Growth::Linear,
            "n=int(input())\nx=1\nd={}\nfor i in range(n):\n    x=(x*1103515245+12345)%2147483648\n    k=x%(n//4+1)\n    d[k]=d.get(k,0)+1\nprint(len(d))\n",
            1_500_000,
            1_500_000,
        ),
        program(
            "strings",
            Growth::Linear,
            "n=int(input())\ns=','.join(str(i) for i in range(n))\nprint(s.count('7'), len(s.split(',')))\n",
            3_000_000,
            3_000_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            "import sys\ndef fib(k):\n    return k if k<2 else fib(k-1)+fib(k-2)\nprint(fib(int(input())))\n",
            27,
            27,
        ),
        program(
            "float",
            Growth::Linear,
            "import math\nn=int(input())\ns=0.0\nfor i in range(1,n+1):\n    s+=math.sqrt(i)/(i*i)+math.sin(i*1e-7)\nprint(f'{s:.6f}')\n",
            3_000_000,
            3_000_000,
        ),
    ]
}

fn c_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            "#include <stdio.h>\nint main(){long long n;scanf(\"%lld\",&n);unsigned long long s=0;for(long long i=0;i<n;i++)s=(s+(unsigned long long)i*i)%1000003;printf(\"%llu\\n\",s);}\n",
            300_000_000,
            300_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            "#include <stdio.h>\n#include <stdlib.h>\nstatic int cmp(const void*a,const void*b){long long x=*(const long long*)a,y=*(const long long*)b;return (x>y)-(x<y);}\nint main(){long long n;scanf(\"%lld\",&n);long long*a=malloc(n*sizeof *a);unsigned long long x=12345;for(long long i=0;i<n;i++){x=(x*1103515245+12345)%2147483648ULL;a[i]=x;}qsort(a,n,sizeof *a,cmp);printf(\"%lld\\n\",a[n/2]);}\n",
            5_000_000,
            5_000_000,
        ),
        program(
            "hash",
            Growth::Linear,
            "#include <stdio.h>\n#include <stdlib.h>\nint main(){long long n;scanf(\"%lld\",&n);long long m=n/4+1;int*c=calloc(m,sizeof *c);unsigned long long x=1;long long distinct=0;for(long long i=0;i<n;i++){x=(x*1103515245+12345)%2147483648ULL;long long k=x%m;if(!c[k]++)distinct++;}printf(\"%lld\\n\",distinct);}\n",
            100_000_000,
            100_000_000,
        ),
        program(
            "strings",
            Growth::Linear,
            "#include <stdio.h>\n#include <stdlib.h>\nint main(){long long n;scanf(\"%lld\",&n);char*s=malloc(n*12+1);long long len=0;for(long long i=0;i<n;i++)len+=sprintf(s+len,\"%lld,\",i);long long c=0;for(long long i=0;i<len;i++)c+=s[i]=='7';printf(\"%lld %lld\\n\",c,len);}\n",
            10_000_000,
            10_000_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            "#include <stdio.h>\nstatic long long fib(int k){return k<2?k:fib(k-1)+fib(k-2);}\nint main(){int n;scanf(\"%d\",&n);printf(\"%lld\\n\",fib(n));}\n",
            36,
            36,
        ),
        program(
            "float",
            Growth::Linear,
            "#include <stdio.h>\n#include <math.h>\nint main(){long long n;scanf(\"%lld\",&n);double s=0;for(long long i=1;i<=n;i++)s+=sqrt((double)i)/((double)i*i)+sin(i*1e-7);printf(\"%.6f\\n\",s);}\n",
            30_000_000,
            30_000_000,
        ),
    ]
}

fn cpp_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            "#include <iostream>\nint main(){long long n;std::cin>>n;unsigned long long s=0;for(long long i=0;i<n;i++)s=(s+(unsigned long long)i*i)%1000003;std::cout<<s<<\"\\n\";}\n",
            300_000_000,
            300_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            "#include <iostream>\n#include <vector>\n#include <algorithm>\nint main(){long long n;std::cin>>n;std::vector<long long>a(n);unsigned long long x=12345;for(auto&v:a){x=(x*1103515245+12345)%2147483648ULL;v=x;}std::sort(a.begin(),a.end());std::cout<<a[n/2]<<\"\\n\";}\n",
            10_000_000,
            10_000_000,
        ),
        program(
            "hash",
            Growth::Linear,
            "#include <iostream>\n#include <unordered_map>\nint main(){long long n;std::cin>>n;std::unordered_map<long long,int>d;unsigned long long x=1;for(long long i=0;i<n;i++){x=(x*1103515245+12345)%2147483648ULL;d[x%(n/4+1)]++;}std::cout<<d.size()<<\"\\n\";}\n",
            5_000_000,
            5_000_000,
        ),
        program(
            "strings",
            Growth::Linear,
            "#include <iostream>\n#include <string>\n#include <algorithm>\nint main(){long long n;std::cin>>n;std::string s;for(long long i=0;i<n;i++){s+=std::to_string(i);s+=',';}std::cout<<std::count(s.begin(),s.end(),'7')<<\" \"<<s.size()<<\"\\n\";}\n",
            20_000_000,
            20_000_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            "#include <iostream>\nstatic long long fib(int k){return k<2?k:fib(k-1)+fib(k-2);}\nint main(){int n;std::cin>>n;std::cout<<fib(n)<<\"\\n\";}\n",
            36,
            36,
        ),
        program(
            "float",
            Growth::Linear,
            "#include <iostream>\n#include <cmath>\n#include <cstdio>\nint main(){long long n;std::cin>>n;double s=0;for(long long i=1;i<=n;i++)s+=std::sqrt((double)i)/((double)i*i)+std::sin(i*1e-7);std::printf(\"%.6f\\n\",s);}\n",
            30_000_000,
            30_000_000,
        ),
    ]
}

fn rust_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            "fn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();let n:u64=t.trim().parse().unwrap();let mut s:u64=0;for i in 0..n{s=(s+i*i)%1000003;}println!(\"{s}\");}\n",
            300_000_000,
            300_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            "fn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();let n:usize=t.trim().parse().unwrap();let mut x:u64=12345;let mut a:Vec<u64>=(0..n).map(|_|{x=(x*1103515245+12345)%2147483648;x}).collect();a.sort();println!(\"{}\",a[n/2]);}\n",
            10_000_000,
            10_000_000,
        ),
        program(
            "hash",
            Growth::Linear,
            "use std::collections::HashMap;\nfn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();let n:u64=t.trim().parse().unwrap();let mut d:HashMap<u64,u32>=HashMap::new();let mut x:u64=1;for _ in 0..n{x=(x*1103515245+12345)%2147483648;*d.entry(x%(n/4+1)).or_insert(0)+=1;}println!(\"{}\",d.len());}\n",
            5_000_000,
            5_000_000,
        ),
        program(
            "strings",
            Growth::Linear,
            "use std::fmt::Write;\nfn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();let n:u64=t.trim().parse().unwrap();let mut s=String::new();for i in 0..n{write!(s,\"{i},\").unwrap();}println!(\"{} {}\",s.matches('7').count(),s.len());}\n",
            20_000_000,
            20_000_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            "fn fib(k:u64)->u64{if k<2{k}else{fib(k-1)+fib(k-2)}}\nfn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();println!(\"{}\",fib(t.trim().parse().unwrap()));}\n",
            36,
            36,
        ),
        program(
            "float",
            Growth::Linear,
            "fn main(){let mut t=String::new();std::io::stdin().read_line(&mut t).unwrap();let n:u64=t.trim().parse().unwrap();let mut s=0f64;for i in 1..=n{let f=i as f64;s+=f.sqrt()/(f*f)+(f*1e-7).sin();}println!(\"{s:.6}\");}\n",
            30_000_000,
            30_000_000,
        ),
    ]
}

fn go_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"os\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func main() { n := uint64(read()); var s uint64; for i := uint64(0); i < n; i++ { s = (s + i*i) % 1000003 }; fmt.Println(s) }\n"
            ),
            300_000_000,
            300_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"os\"; \"sort\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func main() { n := read(); x := uint64(12345); a := make([]uint64, n); for i := range a { x = (x*1103515245 + 12345) % 2147483648; a[i] = x }; sort.Slice(a, func(i, j int) bool { return a[i] < a[j] }); fmt.Println(a[n/2]) }\n"
            ),
            10_000_000,
            10_000_000,
        ),
        program(
            "hash",
            Growth::Linear,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"os\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func main() { n := uint64(read()); d := map[uint64]uint32{}; x := uint64(1); for i := uint64(0); i < n; i++ { x = (x*1103515245 + 12345) % 2147483648; d[x%(n/4+1)]++ }; fmt.Println(len(d)) }\n"
            ),
            5_000_000,
            5_000_000,
        ),
        program(
            "strings",
            Growth::Linear,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"os\"; \"strconv\"; \"strings\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func main() { n := read(); var b strings.Builder; for i := 0; i < n; i++ { b.WriteString(strconv.Itoa(i)); b.WriteByte(',') }; s := b.String(); fmt.Println(strings.Count(s, \"7\"), len(s)) }\n"
            ),
            20_000_000,
            20_000_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"os\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func fib(k uint64) uint64 { if k < 2 { return k }; return fib(k-1) + fib(k-2) }\nfunc main() { fmt.Println(fib(uint64(read()))) }\n"
            ),
            36,
            36,
        ),
        program(
            "float",
            Growth::Linear,
            concat!(
                "package main\nimport (\"bufio\"; \"fmt\"; \"math\"; \"os\")\nfunc read() int { var n int; fmt.Fscan(bufio.NewReader(os.Stdin), &n); return n }\n",
                "func main() { n := read(); s := 0.0; for i := 1; i <= n; i++ { f := float64(i); s += math.Sqrt(f)/(f*f) + math.Sin(f*1e-7) }; fmt.Printf(\"%.6f\\n\", s) }\n"
            ),
            30_000_000,
            30_000_000,
        ),
    ]
}

fn javascript_programs() -> Vec<Program> {
    vec![
        program(
            "loop",
            Growth::Linear,
            "const n=Number(require('fs').readFileSync(0,'utf8'));let s=0;for(let i=0;i<n;i++)s=(s+i*i)%1000003;console.log(s);\n",
            300_000_000,
            1_000_000,
        ),
        program(
            "sort",
            Growth::LinearLog,
            "const n=Number(require('fs').readFileSync(0,'utf8'));let x=12345;const a=[];for(let i=0;i<n;i++){x=(x*1103515245+12345)%2147483648;a.push(x);}a.sort((p,q)=>p-q);console.log(a[n>>1]);\n",
            3_000_000,
            100_000,
        ),
        program(
            "hash",
            Growth::Linear,
            "const n=Number(require('fs').readFileSync(0,'utf8'));let x=1;const d=new Map();for(let i=0;i<n;i++){x=(x*1103515245+12345)%2147483648;const k=x%(Math.floor(n/4)+1);d.set(k,(d.get(k)||0)+1);}console.log(d.size);\n",
            5_000_000,
            200_000,
        ),
        program(
            "strings",
            Growth::Linear,
            "const n=Number(require('fs').readFileSync(0,'utf8'));const parts=[];for(let i=0;i<n;i++)parts.push(String(i));const s=parts.join(',');console.log(s.split('7').length-1,s.split(',').length);\n",
            5_000_000,
            40_000,
        ),
        program(
            "recursion",
            Growth::Fibonacci,
            "const fib=k=>k<2?k:fib(k-1)+fib(k-2);console.log(fib(Number(require('fs').readFileSync(0,'utf8'))));\n",
            35,
            22,
        ),
        program(
            "float",
            Growth::Linear,
            "const n=Number(require('fs').readFileSync(0,'utf8'));let s=0;for(let i=1;i<=n;i++)s+=Math.sqrt(i)/(i*i)+Math.sin(i*1e-7);console.log(s.toFixed(6));\n",
            30_000_000,
            500_000,
        ),
    ]
}

fn bench_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("fuel-rate-bench")
}

/// CPU seconds (user + system) of the children reaped so far.
fn children_cpu() -> f64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Runs `command` with `stdin`; its stdout and CPU seconds.
fn native_run(command: &[String], stdin: &str) -> (String, f64) {
    let before = children_cpu();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("running {}: {e}", command[0]));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{} failed", command[0]);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        children_cpu() - before,
    )
}

/// The native command running `source`, compiling it first when the language is compiled.
fn native_command(language: Language, source: &str, name: &str) -> Option<Vec<String>> {
    let dir = bench_dir();
    std::fs::create_dir_all(&dir).ok()?;
    let path = |ext: &str| dir.join(format!("{name}.{ext}"));
    let compile = |compiler: &str, flags: &[&str], ext: &str| -> Option<Vec<String>> {
        let compiler = on_path(compiler)?;
        let src = path(ext);
        std::fs::write(&src, source).ok()?;
        let bin = path("bin");
        let ok = Command::new(compiler)
            .arg("-o")
            .arg(&bin)
            .arg(&src)
            .args(flags)
            .status()
            .ok()?
            .success();
        ok.then(|| vec![bin.display().to_string()])
    };
    match language {
        Language::Python => {
            let python = on_path("python3")?;
            let src = path("py");
            std::fs::write(&src, source).ok()?;
            Some(vec![
                python.display().to_string(),
                src.display().to_string(),
            ])
        }
        Language::JavaScript | Language::TypeScript => {
            let node = std::env::var_os("REWARDBOX_NODE")
                .map(PathBuf::from)
                .or_else(|| on_path("node"))?;
            let src = path(if language == Language::JavaScript {
                "js"
            } else {
                "ts"
            });
            std::fs::write(&src, source).ok()?;
            Some(vec![node.display().to_string(), src.display().to_string()])
        }
        Language::C => compile("gcc", &["-O2", "-lm"], "c"),
        Language::Cpp => compile("g++", &["-O2", "-std=gnu++20"], "cpp"),
        Language::RustRelease => compile("rustc", &["-O", "--edition=2021"], "rs"),
        Language::Rust => compile(
            "rustc",
            &["-O", "--edition=2021", "-Coverflow-checks=on"],
            "rs",
        ),
        Language::Go => {
            // The same go command, for this machine (`go build` takes its flags first).
            let go = rewardbox_toolchains::Go::locate().ok()?;
            let go = go.binary();
            let src = path("go");
            std::fs::write(&src, source).ok()?;
            let bin = path("bin");
            let ok = Command::new(go)
                .args(["build", "-o"])
                .arg(&bin)
                .arg(&src)
                .env("GOTOOLCHAIN", "local")
                .env("GOPROXY", "off")
                .env("GOCACHE", dir.join("gocache"))
                .status()
                .ok()?
                .success();
            ok.then(|| vec![bin.display().to_string()])
        }
    }
}

/// The least of `runs` native CPU times of `command` on `stdin`, and its output.
fn native_seconds(command: &[String], stdin: &str, runs: usize) -> (String, f64) {
    let mut best = f64::INFINITY;
    let mut output = String::new();
    for _ in 0..runs {
        let (out, cpu) = native_run(command, stdin);
        best = best.min(cpu);
        output = out;
    }
    (output, best)
}

/// What one program measured.
struct Measured {
    fuel_per_native_second: f64,
    fuel_per_sandbox_second: f64,
}

fn measure_program(
    runners: &Runners,
    language: Language,
    p: &Program,
    command: &[String],
    startup: f64,
) -> Measured {
    let limits = Limits {
        fuel: u64::MAX / 4,
        wall_ms: 600_000,
        memory_bytes: 1 << 30,
        output_bytes: 1 << 20,
    };
    // Compiled (and the runner loaded) first: the figure is of the run alone.
    let warm = runners.run(language.name(), p.source, "1\n", &limits, 0);
    assert_eq!(
        warm.exit_code,
        Some(0),
        "{} {}: {}",
        language.name(),
        p.kind,
        warm.stderr
    );
    let stdin = format!("{}\n", p.sandbox_n);
    let started = Instant::now();
    let outcome = runners.run(language.name(), p.source, &stdin, &limits, 0);
    let sandbox_seconds = started.elapsed().as_secs_f64();
    assert!(
        outcome.stderr.is_empty() || outcome.stdout.ends_with('\n'),
        "{} {}: {}",
        language.name(),
        p.kind,
        outcome.stderr
    );
    let (native_out, native_total) = native_seconds(command, &format!("{}\n", p.native_n), 3);
    if p.native_n == p.sandbox_n {
        assert_eq!(
            outcome.stdout,
            native_out,
            "{} {}: the sandbox and the native program disagree ({})",
            language.name(),
            p.kind,
            outcome.stderr
        );
    }
    let native_work = (native_total - startup).max(1e-3);
    // Native CPU time for the sandboxed run's input size.
    let native_for_sandbox_n = native_work * p.growth.work(p.sandbox_n) / p.growth.work(p.native_n);
    let fuel = outcome.fuel_used as f64;
    let measured = Measured {
        fuel_per_native_second: fuel / native_for_sandbox_n,
        fuel_per_sandbox_second: fuel / sandbox_seconds,
    };
    println!(
        "  {:<10} native {:>7.3} s (n={}) | sandbox {:>7.3} s (n={}) | fuel {:>14.0} | {:>8.2e} fuel/native s | {:>8.2e} fuel/sandbox s",
        p.kind,
        native_work,
        p.native_n,
        sandbox_seconds,
        p.sandbox_n,
        fuel,
        measured.fuel_per_native_second,
        measured.fuel_per_sandbox_second,
    );
    measured
}

fn main() {
    rewardbox::sandboxes::with_room(measure)
}

fn measure() {
    let cache_dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("component-cache");
    let sandboxes = SandboxesBuilder::for_runs(1)
        .instances_per_thread(DEFAULT_INSTANCES_PER_THREAD)
        .cache(ComponentCache::in_dir(&cache_dir))
        .build()
        .expect("the engine and runners");
    let runners = sandboxes.runners();
    let only = std::env::var("REWARDBOX_FUEL_RATE_ONLY").ok();
    let tables: [(Language, Vec<Program>); 6] = [
        (Language::Python, python_programs()),
        (Language::C, c_programs()),
        (Language::Cpp, cpp_programs()),
        (Language::Rust, rust_programs()),
        (Language::JavaScript, javascript_programs()),
        (Language::Go, go_programs()),
    ];
    println!("fuel rate per runner: each program natively and in rewardbox, same run");
    for (language, programs) in tables {
        if only.as_deref().is_some_and(|o| o != language.name()) {
            continue;
        }
        println!(
            "{} (in use: {:.2e} fuel per second of limit; wall net sized for {:.2e} fuel per second)",
            language.name(),
            fuel_rate(language).per_native_second,
            fuel_rate(language).per_sandbox_second
        );
        let mut measured = Vec::new();
        for (i, p) in programs.iter().enumerate() {
            let name = format!("{}-{i}", language.name());
            let Some(command) = native_command(language, p.source, &name) else {
                println!("  (no native toolchain for {} here)", language.name());
                break;
            };
            // The native start-up cost, taken off each native time: the sandbox has none worth
            // counting (a snapshot), and the calibration is of the program's work.
            let startup = startup_seconds(&command);
            measured.push(measure_program(runners, language, p, &command, startup));
        }
        if measured.is_empty() {
            continue;
        }
        let max_native = measured
            .iter()
            .map(|m| m.fuel_per_native_second)
            .fold(0.0, f64::max);
        let min_sandbox = measured
            .iter()
            .map(|m| m.fuel_per_sandbox_second)
            .fold(f64::INFINITY, f64::min);
        println!(
            "  => most fuel per native second {max_native:.2e} (a quarter: {:.2e}); least fuel per sandboxed second {min_sandbox:.2e}",
            max_native / 4.0
        );
    }
}

/// CPU seconds of `command` doing no work (input 1): interpreter or process start-up.
fn startup_seconds(command: &[String]) -> f64 {
    native_seconds(command, "1\n", 5).1
}
