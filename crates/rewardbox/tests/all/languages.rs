//! Candidates in C, C++, Rust and JavaScript through the `code` verifier: compiled by rewardbox's
//! confined compilers (JavaScript runs in the embedded Boa runner), run in the sandbox like any guest. One table per language: hello, a+b, a wrong
//! answer, a compile error, a nonzero exit, a trap, an infinite loop, a loop of large copies, a
//! memory bomb, an output flood, reading host files and opening a socket.

use crate::common;

use common::scorer;
use rewardbox::CaseStatus;
use rewardbox::{Status, Task};
use serde_json::{Value, json};

/// One program and how its single stdio case must end.
struct Case {
    name: &'static str,
    source: String,
    stdin: &'static str,
    stdout: &'static str,
    status: CaseStatus,
}

fn case(
    name: &'static str,
    source: &str,
    stdin: &'static str,
    stdout: &'static str,
    status: CaseStatus,
) -> Case {
    Case {
        name,
        source: source.to_string(),
        stdin,
        stdout,
        status,
    }
}

/// A host file only a program that escaped could print.
fn secret_file() -> (String, String) {
    let content = format!("HOST-SECRET-{}-7c1e", std::process::id());
    let path =
        std::env::temp_dir().join(format!("rewardbox-languages-secret-{}", std::process::id()));
    std::fs::write(&path, &content).unwrap();
    (path.display().to_string(), content)
}

fn c_cases(secret: &str) -> Vec<Case> {
    use CaseStatus::*;
    vec![
        case(
            "hello",
            "#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}",
            "",
            "hello\n",
            Passed,
        ),
        case(
            "a+b",
            "#include <stdio.h>\nint main(void){long long a,b;if(scanf(\"%lld %lld\",&a,&b)!=2)return 1;printf(\"%lld\\n\",a+b);return 0;}",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case(
            "wrong",
            "#include <stdio.h>\nint main(void){long long a,b;scanf(\"%lld %lld\",&a,&b);printf(\"%lld\\n\",a-b);return 0;}",
            "40 2\n",
            "42\n",
            Wrong,
        ),
        case(
            "compile error",
            "int main(void){ return undefined_name; }",
            "",
            "",
            CompileError,
        ),
        case(
            "nonzero exit",
            "#include <stdlib.h>\n#include <stdio.h>\nint main(void){puts(\"42\");exit(3);}",
            "",
            "42\n",
            ExitedNonzero,
        ),
        case(
            "trap",
            "#include <stdlib.h>\nint main(void){abort();}",
            "",
            "",
            Crashed,
        ),
        case(
            "infinite loop",
            "int main(void){volatile unsigned long i=0;for(;;){i++;}}",
            "",
            "",
            FuelExhausted,
        ),
        // Copying is work: `memmove` is one wasm instruction (`memory.copy`), charged a unit of
        // fuel per byte as the loop that copies byte by byte would be, so 4 GiB of copying
        // (a fraction of a second natively) cannot run free under a 2 * 10^9 budget.
        case(
            "copy loop",
            "#include <stdio.h>\n#include <string.h>\nstatic char a[(1<<20)+64];\nint main(void){for(int i=0;i<4096;i++){int k=i&7;memmove(a+k,a+8-k,1<<20);}printf(\"%d\\n\",a[5]);return 0;}",
            "",
            "0\n",
            FuelExhausted,
        ),
        case(
            "memory bomb",
            "#include <stdlib.h>\n#include <string.h>\nchar* volatile keep[1<<16];\nint main(void){for(int n=0;;n++){char*p=malloc(1<<20);if(!p)return 7;memset(p,n,1<<20);keep[n&0xffff]=p;}}",
            "",
            "",
            MemoryExceeded,
        ),
        case(
            "output flood",
            "#include <stdio.h>\nint main(void){for(;;)fputs(\"flood flood flood flood flood flood\\n\",stdout);}",
            "",
            "",
            OutputExceeded,
        ),
        case(
            "host files",
            &format!(
                "#include <stdio.h>\nint main(void){{const char*p[]={{\"/etc/passwd\",\"{secret}\"}};for(int i=0;i<2;i++){{FILE*f=fopen(p[i],\"r\");if(!f){{puts(\"denied\");continue;}}char b[256];while(fgets(b,256,f))fputs(b,stdout);}}return 0;}}"
            ),
            "",
            "denied\ndenied\n",
            Passed,
        ),
        // `assert` is live, as with gcc's and clang's defaults (no NDEBUG): a failed one aborts
        // before the expected line is printed, never a silent pass.
        case(
            "assert",
            "#include <assert.h>\n#include <stdio.h>\nint main(void){int n=2;assert(n+n==5);puts(\"after\");return 0;}",
            "",
            "after\n",
            Crashed,
        ),
        // WASI preview 1 has no sockets: a program that opens one does not even compile.
        case(
            "socket",
            "#include <sys/socket.h>\n#include <netinet/in.h>\nint main(void){int s=socket(AF_INET,SOCK_STREAM,0);return s<0;}",
            "",
            "",
            CompileError,
        ),
    ]
}

fn cpp_cases(secret: &str) -> Vec<Case> {
    use CaseStatus::*;
    vec![
        case(
            "assert",
            "#include <bits/stdc++.h>\nint main(){std::vector<int> v{1,2};assert(v.size()==3);std::cout<<\"after\"<<std::endl;}",
            "",
            "after\n",
            Crashed,
        ),
        case(
            "cassert",
            "#include <cassert>\n#include <cstdio>\nint main(){int n=2;assert(n*n==5);std::puts(\"after\");}",
            "",
            "after\n",
            Crashed,
        ),
        case(
            "hello",
            "#include <iostream>\nint main(){std::cout<<\"hello\"<<std::endl;}",
            "",
            "hello\n",
            Passed,
        ),
        case(
            "a+b",
            "#include <bits/stdc++.h>\nusing namespace std;\nint main(){ios::sync_with_stdio(false);long long a,b;cin>>a>>b;vector<long long> v{a,b};cout<<accumulate(v.begin(),v.end(),0LL)<<\"\\n\";}",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case(
            "wrong",
            "#include <bits/stdc++.h>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a*b<<\"\\n\";}",
            "40 2\n",
            "42\n",
            Wrong,
        ),
        case(
            "compile error",
            "#include <vector>\nint main(){ std::vector<int> v; v.push_bak(1); }",
            "",
            "",
            CompileError,
        ),
        case(
            "nonzero exit",
            "#include <cstdlib>\nint main(){ std::exit(2); }",
            "",
            "",
            ExitedNonzero,
        ),
        case(
            "trap",
            "#include <cstdlib>\nint main(){ std::abort(); }",
            "",
            "",
            Crashed,
        ),
        case(
            "infinite loop",
            "int main(){ volatile unsigned long i = 0; for(;;) { i = i + 1; } }",
            "",
            "",
            FuelExhausted,
        ),
        case(
            "copy loop",
            "#include <cstdio>\n#include <cstring>\n#include <vector>\nint main(){ std::vector<char> a((1<<20)+64); for(int i=0;i<4096;i++){ int k=i&7; std::memmove(a.data()+k, a.data()+8-k, 1<<20); } std::printf(\"%d\\n\", a[5]); }",
            "",
            "0\n",
            FuelExhausted,
        ),
        case(
            "memory bomb",
            "#include <vector>\n#include <cstdio>\nint main(){ std::vector<std::vector<char>> keep; for(;;) keep.emplace_back(1<<20, 'x'); }",
            "",
            "",
            MemoryExceeded,
        ),
        case(
            "output flood",
            "#include <iostream>\nint main(){ for(;;) std::cout << \"flood flood flood flood flood flood\\n\"; }",
            "",
            "",
            OutputExceeded,
        ),
        // libc++ for wasm32-wasi has no <fstream>: files are opened with C's stdio.
        case(
            "host files",
            &format!(
                "#include <cstdio>\n#include <iostream>\nint main(){{for(const char* p: {{\"/etc/passwd\", \"{secret}\"}}){{FILE* f = std::fopen(p, \"r\");if(!f){{std::cout<<\"denied\\n\";continue;}}char b[256];while(std::fgets(b,256,f))std::cout<<b;}}}}"
            ),
            "",
            "denied\ndenied\n",
            Passed,
        ),
        case(
            "socket",
            "#include <sys/socket.h>\nint main(){ return socket(AF_INET, SOCK_STREAM, 0) < 0; }",
            "",
            "",
            CompileError,
        ),
    ]
}

fn rust_cases(secret: &str) -> Vec<Case> {
    use CaseStatus::*;
    vec![
        case(
            "hello",
            "fn main() { println!(\"hello\"); }",
            "",
            "hello\n",
            Passed,
        ),
        case(
            "a+b",
            "use std::io::Read;\nfn main() { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); let v: Vec<i64> = s.split_whitespace().map(|x| x.parse().unwrap()).collect(); println!(\"{}\", v[0] + v[1]); }",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case(
            "wrong",
            "fn main() { println!(\"41\"); }",
            "40 2\n",
            "42\n",
            Wrong,
        ),
        case(
            "compile error",
            "fn main() { let x: u32 = \"text\"; }",
            "",
            "",
            CompileError,
        ),
        case(
            "nonzero exit",
            "fn main() { println!(\"42\"); std::process::exit(3); }",
            "",
            "42\n",
            ExitedNonzero,
        ),
        case(
            "trap",
            "fn main() { let v: Vec<u32> = Vec::new(); let i = std::hint::black_box(7); println!(\"{}\", v[i]); }",
            "",
            "",
            Crashed,
        ),
        case(
            "infinite loop",
            "fn main() { let mut i: u64 = 0; loop { i = std::hint::black_box(i.wrapping_add(1)); } }",
            "",
            "",
            FuelExhausted,
        ),
        case(
            "copy loop",
            "fn main() { let mut a = vec![0u8; (1 << 20) + 64]; for i in 0..4096usize { let k = i & 7; a.copy_within(8 - k..8 - k + (1 << 20), k); } println!(\"{}\", std::hint::black_box(&a)[5]); }",
            "",
            "0\n",
            FuelExhausted,
        ),
        case(
            "memory bomb",
            "fn main() { let mut keep = Vec::new(); loop { keep.push(std::hint::black_box(vec![1u8; 1 << 20])); } }",
            "",
            "",
            MemoryExceeded,
        ),
        case(
            "output flood",
            "fn main() { loop { println!(\"flood flood flood flood flood flood\"); } }",
            "",
            "",
            OutputExceeded,
        ),
        case(
            "host files",
            &format!(
                "fn main() {{ for p in [\"/etc/passwd\", \"{secret}\"] {{ match std::fs::read_to_string(p) {{ Ok(s) => print!(\"{{s}}\"), Err(_) => println!(\"denied\") }} }} }}"
            ),
            "",
            "denied\ndenied\n",
            Passed,
        ),
        case(
            "socket",
            "fn main() { match std::net::TcpStream::connect(\"127.0.0.1:9\") { Ok(_) => println!(\"connected\"), Err(_) => println!(\"denied\") } }",
            "",
            "denied\n",
            Passed,
        ),
    ]
}

fn javascript_cases(secret: &str) -> Vec<Case> {
    use CaseStatus::*;
    vec![
        case("hello", "console.log('hello');", "", "hello\n", Passed),
        case(
            "a+b",
            "const [a, b] = require('fs').readFileSync(0, 'utf8').trim().split(/\\s+/).map(Number);\nconsole.log(a + b);",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case(
            "a+b readline",
            "const rl = require('readline').createInterface({ input: process.stdin });\nrl.on('line', (line) => { const [a, b] = line.split(' ').map(Number); console.log(a + b); });",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case(
            "a+b stdin events",
            "let input = '';\nprocess.stdin.on('data', (c) => (input += c));\nprocess.stdin.on('end', () => { const [a, b] = input.trim().split(' ').map(BigInt); process.stdout.write(String(a + b) + '\\n'); });",
            "40 2\n",
            "42\n",
            Passed,
        ),
        case("wrong", "console.log(41);", "40 2\n", "42\n", Wrong),
        // JavaScript has no compile step: a syntax error ends the program like an exception.
        case("syntax error", "const = 1;", "", "", ExitedNonzero),
        case(
            "nonzero exit",
            "console.log(42); process.exit(3);",
            "",
            "42\n",
            ExitedNonzero,
        ),
        case("runtime error", "null.x;", "", "", ExitedNonzero),
        case("infinite loop", "for (;;) {}", "", "", FuelExhausted),
        case(
            "copy loop",
            "const a = new Uint8Array((1 << 20) + 64); for (let i = 0; i < 4096; i++) { const k = i & 7; a.copyWithin(k, 8 - k, 8 - k + (1 << 20)); } console.log(a[5]);",
            "",
            "0\n",
            FuelExhausted,
        ),
        // Timers wait on the program's clock, charged as time: waiting past the limit (2 s of
        // fuel here) is a time-out, waiting less is not, and the clock shows the wait.
        case(
            "timer past the limit",
            "setTimeout(() => console.log(42), 60000);",
            "",
            "42\n",
            FuelExhausted,
        ),
        case(
            "endless interval",
            "setInterval(() => {}, 10);",
            "",
            "",
            FuelExhausted,
        ),
        case(
            "timer within the limit",
            "const start = Date.now();\nsetTimeout(() => console.log(Date.now() - start >= 50 ? 42 : 0), 50);",
            "",
            "42\n",
            Passed,
        ),
        // A wait costs what that much of the limit buys (2e9 fuel is a tenth of a second of
        // JavaScript's): a timer past it is a time limit, as natively.
        case(
            "timer past the limit",
            "setTimeout(() => console.log(42), 500);",
            "",
            "",
            FuelExhausted,
        ),
        case(
            "memory bomb",
            "const keep = []; for (let i = 0; ; i++) keep.push('x'.repeat(1 << 24) + i);",
            "",
            "",
            MemoryExceeded,
        ),
        case(
            "output flood",
            "for (;;) console.log('flood flood flood flood flood flood');",
            "",
            "",
            OutputExceeded,
        ),
        case(
            "host files",
            &format!(
                "for (const p of ['/etc/passwd', '{secret}']) {{ try {{ console.log(require('fs').readFileSync(p, 'utf8')); }} catch (e) {{ console.log('denied'); }} }}"
            ),
            "",
            "denied\ndenied\n",
            Passed,
        ),
        case(
            "socket",
            "let net; try { net = require('net'); console.log('connected'); } catch (e) { console.log('denied'); } if (typeof fetch !== 'undefined') console.log('fetch');",
            "",
            "denied\n",
            Passed,
        ),
    ]
}

fn task(language: &str, case: &Case) -> Task {
    let completion = format!(
        "Here is the program:\n```{language}\n{}\n```\n",
        case.source
    );
    Task::from_value(json!({
        "id": format!("{language} {}", case.name),
        "verifier": "code",
        "language": language,
        "tests": {"stdio": [{"stdin": case.stdin, "stdout": case.stdout}]},
        "candidate_limits": {"fuel": 2_000_000_000u64, "memory_mb": 64, "output_bytes": 65536},
        "completions": [completion],
    }))
    .unwrap()
}

#[test]
fn each_language_is_graded_on_every_kind_of_program() {
    let (secret_path, secret) = secret_file();
    let s = scorer();
    let mut tasks = Vec::new();
    let mut expected = Vec::new();
    for (language, cases) in [
        ("c", c_cases(&secret_path)),
        ("cpp", cpp_cases(&secret_path)),
        ("rust", rust_cases(&secret_path)),
        ("javascript", javascript_cases(&secret_path)),
    ] {
        for case in cases {
            tasks.push(task(language, &case));
            expected.push((format!("{language} {}", case.name), case.status));
        }
    }
    let mut failures = Vec::new();
    for ((name, status), result) in expected.iter().zip(s.score_tasks(&tasks)) {
        let text = serde_json::to_string(&result).unwrap();
        assert!(!text.contains("root:x:0"), "{name}: {text}");
        assert!(!text.contains(&secret), "{name}: {text}");
        if result.status.is_some() {
            failures.push(format!("{name}: {:?} {:?}", result.status, result.detail));
            continue;
        }
        let r = &result.results[0];
        let got = r.cases.first().map(|c| c.status);
        if r.status != Status::Ok || got != Some(*status) {
            failures.push(format!(
                "{name}: expected {status:?}, got {got:?} ({:?}: {})",
                r.status, r.detail
            ));
        }
        if *status == CaseStatus::Passed && r.score != 1.0 {
            failures.push(format!("{name}: passed with score {}", r.score));
        }
        if *status == CaseStatus::CompileError {
            let detail = &r.cases[0].detail;
            if !detail.starts_with("compile error: ") || !detail.contains("error") {
                failures.push(format!("{name}: compile error detail {detail:?}"));
            }
        }
    }
    std::fs::remove_file(&secret_path).ok();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// SandboxFusion's spellings name the same languages; an unfenced completion is compiled as it
/// is; a language without a runner is an invalid task, never a silent 0.
#[test]
fn language_spellings_and_unfenced_programs() {
    let s = scorer();
    let program =
        "#include <cstdio>\nint main(){int a,b;scanf(\"%d %d\",&a,&b);printf(\"%d\\n\",a+b);}";
    for (language, completion) in [
        ("c++", format!("```cpp\n{program}\n```")),
        ("CPP", format!("```c++\n{program}\n```")),
        ("cpp", program.to_string()),
    ] {
        let task: Value = json!({
            "id": language, "verifier": "code", "language": language,
            "tests": {"stdio": [{"stdin": "2 3\n", "stdout": "5\n"}]},
            "completions": [completion, "I could not solve it."],
        });
        let result = s.score_task(&Task::from_value(task).unwrap());
        assert_eq!(result.status, None, "{language}: {:?}", result.detail);
        assert_eq!(
            result.results[0].score, 1.0,
            "{language}: {}",
            result.results[0].detail
        );
        assert_eq!(result.results[1].score, 0.0);
        assert_eq!(result.results[1].cases[0].status, CaseStatus::CompileError);
    }
}

/// JavaScript call tests: a function declared, assigned to a `const`, or exported through
/// `module.exports`, or (an ES module) exported or declared in its scope; an `undefined` result
/// is `not_json`, an exception `exited_nonzero`.
#[test]
fn javascript_functions_are_called_on_json_arguments() {
    let s = scorer();
    let task = json!({
        "id": "js-call", "verifier": "code", "language": "javascript",
        "tests": {"call": {"entry_point": "merge", "cases": [
            {"args": [[1, 3], [2]], "expected": [1, 2, 3]},
            {"args": [[], []], "expected": []},
            {"args": [[0.5], [-1]], "expected": [-1, 0.5]},
        ]}},
        "completions": [
            "```js\nfunction merge(a, b) { return [...a, ...b].sort((x, y) => x - y); }\n```",
            "```js\nconst merge = (a, b) => a.concat(b).sort((x, y) => x - y);\n```",
            "```js\nmodule.exports = { merge(a, b) { return a.concat(b).sort((x, y) => x - y); } };\n```",
            "```js\nfunction merge(a, b) { }\n```",
            "```js\nfunction merge(a, b) { if (a.length === 0) throw new RangeError('empty'); return [1, 2, 3]; }\n```",
            // ES modules: an exported function, and one declared in the module's scope only.
            "```js\nexport function merge(a, b) { return [...a, ...b].sort((x, y) => x - y); }\n```",
            "```js\nimport { inspect } from 'util';\nconst merge = (a, b) => JSON.parse(inspect([...a, ...b].sort((x, y) => x - y)));\nexport const unused = 1;\n```",
        ],
    });
    let result = s.score_task(&Task::from_value(task).unwrap());
    assert_eq!(result.status, None, "{:?}", result.detail);
    let r = &result.results;
    for passing in &r[..3] {
        assert_eq!(passing.score, 1.0, "{}", passing.detail);
    }
    assert_eq!(r[3].score, 0.0);
    assert_eq!(r[3].cases[0].status, CaseStatus::NotJson, "{}", r[3].detail);
    assert!(r[4].score > 0.0 && r[4].score < 1.0, "{}", r[4].detail);
    assert_eq!(
        r[4].cases[1].status,
        CaseStatus::ExitedNonzero,
        "{}",
        r[4].detail
    );
    assert!(
        r[4].cases[1].detail.contains("RangeError"),
        "{}",
        r[4].detail
    );
    for module in &r[5..] {
        assert_eq!(module.score, 1.0, "{}", module.detail);
    }
}
