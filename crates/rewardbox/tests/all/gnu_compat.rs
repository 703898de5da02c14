//! C and C++ as judges compile them: programs that use what gcc, g++, libstdc++ and glibc give
//! them (initialised variable-length arrays, `std::__gcd`, `std::__lg`, `bitset::_Find_first` and
//! `_Find_next`, glibc's `rand`/`random`/`rand_r` sequences, `<fstream>`, C++ exceptions), run
//! under the native toolchain (`REWARDBOX_NATIVE_CC` / `REWARDBOX_NATIVE_CXX`, default `cc` /
//! `c++`) and in rewardbox: the same output and the same exit status. What still differs is in
//! docs/verifiers/judge-compilers.md.

use crate::common;

use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::RunStatus;
use std::process::Command;

/// (language, name, program, stdin).
const PROGRAMS: &[(&str, &str, &str, &str)] = &[
    (
        "c",
        "C that gcc 12 accepts with warnings: undeclared library calls, a function called before its definition, implicit int, a pointer in an integer",
        r#"int cmp(const void* a, const void* b) { return *(int*)a - *(int*)b; }
int half(int x) { if (x > 0) return x / 2; return; }
main() {
    printf("%d %s\n", twice(21), strchr("a=b", '=') + 1);
    int n; scanf("%d", &n);
    int* xs = malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) scanf("%d", &xs[i]);
    qsort(xs, n, sizeof(int), cmp);
    char* s = malloc(8); strcpy(s, "sum");
    long at = s;
    printf("%s %d %d %d %d\n", s, xs[0], xs[n - 1], (int)strlen(s) + (at != 0), half(xs[n - 1]));
    return 0;
}
int twice(int x) { return 2 * x; }
"#,
        "4\n9 -2 7 3\n",
    ),
    (
        "cpp",
        "initialised variable-length arrays",
        r#"#include <bits/stdc++.h>
using namespace std;
typedef long long ll;
int main() {
    int n, m; cin >> n >> m;
    ll deg[n] = {0};
    int b[n + 1] = {}, c[m] = {7, 2 * 3, -1};
    bool seen[n][m] = {false};
    double d[m] = {0.0};
    char s[n] = "ab";
    unsigned u[n]{};
    for (int i = 0; i < n; i++) deg[i] += i;
    seen[1][2] = true;
    printf("%lld %d %d %d %d %d %d %g %s %u\n", deg[n - 1], b[n], c[0], c[1], c[2], c[m - 1],
           (int)seen[n - 1][m - 1] + (int)seen[1][2], d[m - 1], s, u[n - 1]);
    for (int k = 0; k < 2; k++) { int row[n] = {k, k + 1}; printf("%d %d %d\n", row[0], row[1], row[n - 1]); }
}
"#,
        "5 4\n",
    ),
    (
        "cpp",
        "__gcd and __lg",
        r#"#include <algorithm>
#include <cstdio>
int main() {
    printf("%d %d %d %lld %lld\n", std::__gcd(12, 18), std::__gcd(-12, 18), std::__gcd(12, -18),
           std::__gcd(0LL, 7LL), std::__gcd(1LL << 40, 1LL << 35));
    printf("%d %u %ld %lld %llu\n", std::__lg(1), std::__lg(1000u), std::__lg(65536L),
           std::__lg(1LL << 50), std::__lg(~0ULL));
}
"#,
        "",
    ),
    (
        "cpp",
        "bitset _Find_first and _Find_next",
        r#"#include <bits/stdc++.h>
using namespace std;
template <size_t N> void walk(unsigned seed) {
    bitset<N> b;
    mt19937 rng(seed);
    for (size_t i = 0; i < N; i++) if (rng() % 5 == 0) b[i] = 1;
    if (N > 1) b[N - 1] = seed % 2;
    cout << N << ":" << b._Find_first();
    for (size_t i = b._Find_first(); i < N; i = b._Find_next(i)) cout << " " << i;
    cout << " end " << b._Find_next(N - 1) << " " << b._Find_next(N + 5) << "\n";
}
int main() {
    bitset<10> empty;
    cout << empty._Find_first() << " " << empty._Find_next(3) << "\n";
    walk<1>(1); walk<31>(2); walk<32>(3); walk<33>(4); walk<64>(5); walk<65>(6); walk<100>(7); walk<1000>(8);
}
"#,
        "",
    ),
    (
        "c",
        "glibc rand, random and rand_r",
        // Each call in a statement of its own: gcc evaluates a call's arguments right to left,
        // clang left to right (a difference docs/verifiers/judge-compilers.md lists).
        r#"#include <stdio.h>
#include <stdlib.h>
int main(void) {
    int first = rand();
    int second = rand();
    printf("%d %d %d\n", first, second, RAND_MAX);
    unsigned seeds[] = {0, 1, 42, 2147483648u, 4294967295u, 123456789};
    for (int s = 0; s < 6; s++) {
        srand(seeds[s]);
        for (int i = 0; i < 4; i++) printf("%d ", rand());
        srandom(seeds[s] + 1);
        long r1 = random();
        long r2 = random();
        printf("| %ld %ld", r1, r2);
        unsigned r = seeds[s];
        int q1 = rand_r(&r);
        int q2 = rand_r(&r);
        printf(" | %d %d\n", q1, q2);
    }
    srand(7);
    long long sum = 0;
    for (int i = 0; i < 100000; i++) sum += rand() % 1000;
    printf("%lld\n", sum);
}
"#,
        "",
    ),
    (
        "cpp",
        "std::rand after srand(time-independent seed)",
        r#"#include <cstdlib>
#include <iostream>
#include <vector>
int main() {
    std::srand(2024);
    std::vector<int> v(10);
    for (int& x : v) x = std::rand() % 100;
    for (int x : v) std::cout << x << ' ';
    std::cout << '\n';
}
"#,
        "",
    ),
    (
        "cpp",
        "file streams: what is not there does not open",
        r#"#include <bits/stdc++.h>
using namespace std;
int main() {
    ifstream in("rewardbox-missing-input.txt");
    cout << (in ? "open" : "missing") << " " << in.is_open() << "\n";
    int x = -1;
    in >> x;
    cout << x << " " << in.fail() << "\n";
    ofstream out("/rewardbox-nonexistent-dir/out.txt");
    cout << out.is_open() << "\n";
    stringstream ss("3 4");
    int a, b; ss >> a >> b;
    cout << a * b << "\n";
}
"#,
        "",
    ),
];

/// What the judges' compilers and command lines give a program, beside the native compilers (gcc
/// and g++ with the same macro, `-DONLINE_JUDGE`, as Codeforces and DOMjudge compile; rustc): the
/// macro (jury code that reads `input.txt` without it), a program name in `argv`, and
/// `<thread>`'s sleeps and `<chrono>`'s clocks in a single-threaded program.
const JUDGES: &[(&str, &str, &str, &str)] = &[
    (
        "cpp",
        "ONLINE_JUDGE, argv[0], this_thread::sleep_for and yield, chrono clocks",
        r#"#include <bits/stdc++.h>
#include <thread>
using namespace std;
int main(int argc, char** argv) {
#if !ONLINE_JUDGE
    ifstream cin("input.txt");
#endif
    long long a, b; cin >> a >> b;
    cout << a + b << " " << argc << " " << (argv[0] != nullptr && argv[0][0] != 0) << "\n";
    auto t0 = chrono::steady_clock::now();
    auto w0 = chrono::system_clock::now();
    this_thread::sleep_for(chrono::milliseconds(30));
    this_thread::yield();
    this_thread::sleep_until(chrono::steady_clock::now() + chrono::milliseconds(20));
    auto ms = chrono::duration_cast<chrono::milliseconds>(chrono::steady_clock::now() - t0).count();
    auto wall = chrono::duration_cast<chrono::milliseconds>(chrono::system_clock::now() - w0).count();
    cout << (ms >= 50) << " " << (ms < 5000) << " " << (wall >= 0) << "\n";
}
"#,
        "20 22\n",
    ),
    (
        "c",
        "ONLINE_JUDGE and argv[0] in C",
        r#"#include <stdio.h>
int main(int argc, char** argv) {
#ifndef ONLINE_JUDGE
    freopen("input.txt", "r", stdin);
#endif
    int a, b;
    if (scanf("%d %d", &a, &b) != 2) return 3;
    printf("%d %d %d\n", a + b, argc, argv[0] != 0 && argv[0][0] != 0);
    return 0;
}
"#,
        "1 2\n",
    ),
    (
        "rust",
        "a program name in Rust's std::env::args",
        r#"fn main() {
    let args: Vec<String> = std::env::args().collect();
    println!("{} {}", args.len(), !args[0].is_empty());
}
"#,
        "",
    ),
];

/// C++ exceptions, each program against g++'s binary: stdout and exit status.
const EXCEPTIONS: &[(&str, &str, &str, &str)] = &[
    (
        "cpp",
        "throw, catch, rethrow, unwind",
        r#"#include <bits/stdc++.h>
using namespace std;
struct Noisy { string name; Noisy(string n) : name(n) { cout << "make " << name << "\n"; } ~Noisy() { cout << "drop " << name << "\n"; } };
struct Broken { Noisy a{"a"}; Noisy b; Broken() : b("b") { throw runtime_error("in constructor"); } };
struct MyError : logic_error { int code; MyError(int c) : logic_error("mine"), code(c) {} };
int depth(int n) { Noisy guard("level" + to_string(n)); if (n == 0) throw MyError(7); return depth(n - 1) + 1; }
int main() {
    try { depth(3); } catch (const MyError& e) { cout << "caught " << e.what() << " " << e.code << "\n"; }
    try { throw 42; } catch (long) { cout << "long\n"; } catch (int k) { cout << "int " << k << "\n"; }
    try { try { throw string("inner"); } catch (string& s) { s += "+"; throw; } } catch (const string& s) { cout << "rethrown " << s << "\n"; }
    try { Broken b; } catch (const exception& e) { cout << e.what() << "\n"; }
    vector<int> v(3);
    try { v.at(5) = 1; } catch (const out_of_range&) { cout << "out of range\n"; }
    map<string, int> m;
    try { m.at("x"); } catch (const out_of_range&) { cout << "no key\n"; }
    optional<int> o;
    try { (void)o.value(); } catch (const bad_optional_access& e) { cout << "empty optional\n"; }
    variant<int, string> var = 3;
    try { (void)get<string>(var); } catch (const bad_variant_access&) { cout << "wrong alternative\n"; }
    exception_ptr saved;
    try { throw invalid_argument("saved"); } catch (...) { saved = current_exception(); }
    try { rethrow_exception(saved); } catch (const invalid_argument& e) { cout << "again " << e.what() << "\n"; }
    int total = 0;
    for (int i = 0; i < 100000; i++) { try { if (i % 3 == 0) throw i; total += 1; } catch (int k) { total += k % 7; } }
    cout << total << "\n";
}
"#,
        "",
    ),
    (
        "cpp",
        "an uncaught exception aborts",
        r#"#include <cstdio>
#include <stdexcept>
int main() { std::puts("before"); std::fflush(stdout); throw std::runtime_error("nobody catches this"); }
"#,
        "",
    ),
    (
        "cpp",
        "a throw out of a noexcept function terminates",
        r#"#include <cstdio>
void f() noexcept { throw 1; }
int main() { std::puts("start"); std::fflush(stdout); try { f(); } catch (...) { std::puts("never"); } }
"#,
        "",
    ),
];

#[test]
fn gnu_programs_print_what_they_print_natively() {
    assert_native(PROGRAMS);
}

#[test]
fn what_the_judges_define_and_pass_is_there() {
    assert_native(JUDGES);
}

#[test]
fn cpp_exceptions_behave_as_natively() {
    assert_native(EXCEPTIONS);
}

fn assert_native(programs: &[(&str, &str, &str, &str)]) {
    assert_native_with(programs, "");
}

/// Each program's output and exit status against its native build's, the native binary run after
/// the shell commands `setup` (limits, say), when there are any.
fn assert_native_with(programs: &[(&str, &str, &str, &str)], setup: &str) {
    let scorer = common::scorer();
    let runners = scorer.runners();
    let mut failures = Vec::new();
    for (language, name, source, stdin) in programs {
        let dir = tempfile::tempdir().unwrap();
        let binary = common::compile_natively(language, source, dir.path());
        let mut command = native_command(&binary, setup);
        command.current_dir(dir.path());
        let native = common::output_with_stdin(command, stdin);
        let native_status = common::shell_status(native.status);
        let native_stdout = String::from_utf8_lossy(&native.stdout);
        let ours = runners.run(language, source, stdin, &CANDIDATE_DEFAULT, 0);
        if ours.stdout != native_stdout || ours.exit_code != Some(native_status) {
            failures.push(format!(
                "{language} {name}:\n native {native_status} {native_stdout:?}\n ours   {:?} {:?} ({:?}: {})",
                ours.exit_code, ours.stdout, ours.status, ours.stderr
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The native `binary`, run after the shell commands `setup` (limits, say) when there are any.
fn native_command(binary: &std::path::Path, setup: &str) -> Command {
    if setup.is_empty() {
        return Command::new(binary);
    }
    let mut shell = Command::new("bash");
    shell
        .arg("-c")
        .arg(format!("{setup} && exec \"$0\""))
        .arg(binary);
    shell
}

/// `<openssl/md5.h>` (MD5_Init/Update/Final and MD5(), header-only, as benchmarks that link
/// `-lcrypto` use it): each digest is Python's `hashlib.md5` of the same bytes, for lengths around
/// the 64-byte block and its 56-byte padding boundary, whole and streamed in pieces.
#[test]
fn openssl_md5_digests_are_hashlibs() {
    let lengths = [0usize, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 121, 1000];
    let program = r#"#include <bits/stdc++.h>
#include <openssl/md5.h>
int main() {
    size_t n;
    while (std::cin >> n) {
        std::string s(n, 0);
        for (size_t i = 0; i < n; i++) s[i] = (char)((i * 131 + 7) % 256);
        unsigned char whole[MD5_DIGEST_LENGTH], streamed[MD5_DIGEST_LENGTH];
        MD5((const unsigned char*)s.data(), n, whole);
        MD5_CTX c;
        MD5_Init(&c);
        MD5_Update(&c, s.data(), n / 3);
        MD5_Update(&c, s.data() + n / 3, n - n / 3);
        MD5_Final(streamed, &c);
        for (unsigned char b : whole) printf("%02x", b);
        printf(" %d\n", memcmp(whole, streamed, 16) == 0);
    }
}
"#;
    let stdin: String = lengths.iter().map(|n| format!("{n}\n")).collect();
    let script = "import hashlib, sys\nfor n in map(int, sys.stdin.read().split()):\n    print(hashlib.md5(bytes((i * 131 + 7) % 256 for i in range(n))).hexdigest(), 1)\n";
    let mut command = Command::new("python3");
    command.args(["-c", script]);
    let python = common::output_with_stdin(command, &stdin);
    assert!(python.status.success());
    let scorer = common::scorer();
    let ours = scorer
        .runners()
        .run("cpp", program, &stdin, &CANDIDATE_DEFAULT, 0);
    assert_eq!(ours.exit_code, Some(0), "{}", ours.stderr);
    assert_eq!(ours.stdout, String::from_utf8_lossy(&python.stdout));
}

/// A program that reads a local it never set gets a value it did not set (the pattern of
/// `-ftrivial-auto-var-init=pattern`), as it may natively, where WebAssembly's fresh locals would
/// be 0 every time and make the bug pass. (Natively the value is whatever the stack held: the
/// native toolchain cannot be the reference here.)
#[test]
fn uninitialised_locals_do_not_read_as_zero() {
    let scorer = common::scorer();
    let runners = scorer.runners();
    let cases: &[(&str, &str, &str)] = &[
        (
            "c",
            "#include <stdio.h>\n__attribute__((noinline)) int sum_to(int n) { int s; for (int i = 1; i <= n; i++) s += i; return s; }\nint main(void) { printf(\"%d\\n\", sum_to(10)); return 0; }",
            "55\n",
        ),
        (
            "cpp",
            "#include <cstdio>\nint main() { int count[4]; int n = 0; if (scanf(\"%d\", &n) != 1) n = 3; for (int i = 0; i < n; i++) count[i % 4]++; printf(\"%d %d\\n\", count[0], count[3]); }",
            "1 0\n",
        ),
    ];
    for (language, source, if_zero) in cases {
        let ours = runners.run(language, source, "", &CANDIDATE_DEFAULT, 0);
        assert_eq!(ours.exit_code, Some(0), "{source}: {}", ours.stderr);
        assert_ne!(&ours.stdout, if_zero, "{source}");
        let again = runners.run(language, source, "", &CANDIDATE_DEFAULT, 0);
        assert_eq!(ours.stdout, again.stdout, "the same every run");
    }
}

/// Stacks as the judges give them (their stack limit is the memory limit, 256 MiB here), each
/// program against its native build run under `ulimit -s` of that limit: the same output and the
/// same exit status. A 156 MB array local to a function (an accepted jury solution's), a DFS
/// recursing 10^6 deep in C++ and in Rust, deep recursion in C, and a recursion without end,
/// which meets the limit as a segmentation fault (139) natively and here.
const STACKS: &[(&str, &str, &str, &str)] = &[
    (
        "cpp",
        "a 156 MB array local to a function",
        r#"#include <bits/stdc++.h>
using namespace std;
long long solve(int n) {
    long long dp[65][300001];
    for (int i = 0; i < 65; i++) for (int j = 0; j <= n; j++)
        dp[i][j] = i == 0 ? j : (dp[i - 1][j] + (j ? dp[i][j - 1] : 0)) % 1000000007;
    return dp[64][n];
}
int main() { int n; cin >> n; cout << solve(n) << "\n"; }
"#,
        "300000\n",
    ),
    (
        "cpp",
        "a DFS 10^6 deep",
        r#"#include <bits/stdc++.h>
using namespace std;
vector<vector<int>> adj;
vector<int> depth;
long long total = 0;
void dfs(int u, int parent) {
    int local[4] = {u, parent, (int)adj[u].size(), 0};
    for (int v : adj[u]) if (v != parent) { depth[v] = depth[u] + 1; dfs(v, u); local[3]++; }
    total += depth[u] + local[3] - local[2] + (local[0] - u);
}
int main() {
    int n; cin >> n;
    adj.assign(n, {}); depth.assign(n, 0);
    for (int i = 1; i < n; i++) { adj[i - 1].push_back(i); adj[i].push_back(i - 1); }
    dfs(0, -1);
    cout << total << "\n";
}
"#,
        "1000000\n",
    ),
    (
        "rust",
        "a recursion 10^6 deep with a frame of its own",
        r#"use std::io::Read;
fn down(n: u64, acc: &mut u64) -> u64 {
    let frame = [n, n ^ 0x55, n.wrapping_mul(3), *acc];
    *acc = acc.wrapping_add(frame[1] & 7);
    if n == 0 { return frame[3]; }
    down(n - 1, acc).wrapping_add(frame[2] % 5 + std::hint::black_box(&frame)[0] % 2)
}
fn main() {
    let mut s = String::new();
    std::io::stdin().read_to_string(&mut s).unwrap();
    let n: u64 = s.trim().parse().unwrap();
    let mut acc = 0;
    println!("{}", down(n, &mut acc));
}
"#,
        "1000000\n",
    ),
    (
        "c",
        "recursion 2*10^5 deep over a 512-byte buffer",
        r#"#include <stdio.h>
#include <string.h>
long walk(int n) {
    char buf[512];
    memset(buf, n & 0x7f, sizeof buf);
    if (n == 0) return buf[3];
    return walk(n - 1) + buf[n % 512];
}
int main(void) { int n; if (scanf("%d", &n) != 1) return 2; printf("%ld\n", walk(n)); return 0; }
"#,
        "200000\n",
    ),
    (
        "c",
        "a recursion without end meets the limit: SIGSEGV",
        r#"#include <stdio.h>
#include <string.h>
volatile long sink;
long forever(long n) {
    volatile char buf[4096];
    buf[n & 0xfff] = (char)n;
    sink += buf[(n * 7) & 0xfff];
    return forever(n + 1) + buf[1];
}
int main(void) { puts("start"); fflush(stdout); return (int)forever(0); }
"#,
        "",
    ),
];

#[test]
fn stacks_are_as_large_as_the_judges_give() {
    assert_native_with(
        STACKS,
        &format!("ulimit -s {}", CANDIDATE_DEFAULT.memory_bytes >> 10),
    );
}

/// The stack counts towards the memory limit by what it touches, as on a judge (stack limit and
/// address-space limit both the memory limit, 256 MiB): 100 MB of stack beside 100 MB of heap
/// runs, natively and here, with the same output; 150 MB of each, in either order, ends in
/// failure natively and here (a memory limit or a stack overflow, never a success).
#[test]
fn the_stack_and_the_heap_share_the_memory_limit() {
    let program = |stack_mb: usize, heap_mb: usize, heap_first: bool| {
        format!(
            r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static char *heap;
static long use_heap(void) {{
    heap = malloc({heap_mb}L << 20);
    if (!heap) return -1;
    memset(heap, 3, {heap_mb}L << 20);
    return heap[12345];
}}
static long use_stack(void) {{
    volatile char frame[{stack_mb}L << 20];
    for (long i = 0; i < sizeof frame; i += 4096) frame[i] = (char)i;
    return frame[4096 * 3];
}}
int main(void) {{
    long a = {first}, b = {second};
    if (a < 0 || b < 0) {{ puts("no memory"); return 3; }}
    printf("%ld %ld\n", a, b);
    return 0;
}}
"#,
            first = if heap_first {
                "use_heap()"
            } else {
                "use_stack()"
            },
            second = if heap_first {
                "use_stack()"
            } else {
                "use_heap()"
            },
        )
    };
    let limit_kib = CANDIDATE_DEFAULT.memory_bytes >> 10;
    let scorer = common::scorer();
    let runners = scorer.runners();
    for (stack_mb, heap_mb, heap_first, fits) in [
        (100, 100, false, true),
        (100, 100, true, true),
        (150, 150, false, false),
        (150, 150, true, false),
    ] {
        let source = program(stack_mb, heap_mb, heap_first);
        let dir = tempfile::tempdir().unwrap();
        let binary = common::compile_natively("c", &source, dir.path());
        let native = common::output_with_stdin(
            native_command(
                &binary,
                &format!(
                    "ulimit -s {limit_kib} && ulimit -v {}",
                    limit_kib + (16 << 10)
                ),
            ),
            "",
        );
        let ours = runners.run("c", &source, "", &CANDIDATE_DEFAULT, 0);
        let what =
            format!("{stack_mb} MB of stack, {heap_mb} MB of heap (heap first: {heap_first})");
        assert_eq!(
            native.status.success(),
            fits,
            "natively, {what}: {native:?}"
        );
        if fits {
            assert_eq!(
                (ours.exit_code, ours.stdout.as_str()),
                (Some(0), &*String::from_utf8_lossy(&native.stdout)),
                "{what}: {ours:?}"
            );
        } else {
            assert_ne!(ours.exit_code, Some(0), "{what}: {ours:?}");
            assert!(
                matches!(ours.status, RunStatus::MemoryExceeded | RunStatus::Crashed),
                "{what}: {ours:?}"
            );
        }
    }
}
