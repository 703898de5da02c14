//! `rewardbox serve` over loopback: every endpoint through a real HTTP client, answers identical to
//! the CLI's, and the server's defences (token, body limit, in-flight bound, verifier paths,
//! limit maxima), with faults — a client that goes away, a flood, a verifier that hangs — after
//! which the server still answers.

use crate::common;
use crate::server_harness;

use crate::common::repo_root as root;
use server_harness::{Server, eventually};

use rewardbox::stream::score_stream;
use rewardbox::{ComponentCache, Limits, Scorer, ScorerOptions};
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The hostile verifier's directory (for `--verifier-dir`) and the file name tasks give it.
fn hostile_verifier() -> (PathBuf, String) {
    let path = PathBuf::from(common::hostile());
    let name = path.file_name().unwrap().to_str().unwrap().to_string();
    (path.parent().unwrap().to_path_buf(), name)
}

/// Writes a whole JSON POST of `body` to `path` on `socket` (its answer is not read).
fn send_json_post(socket: &mut std::net::TcpStream, path: &str, body: &str) {
    socket
        .write_all(
            format!(
                "POST {path} HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
}

fn batch() -> String {
    [
        json!({"id": "q17", "verifier": "numeric", "reference": "391", "completions": ["391", "400"]}),
        json!({"id": "m", "verifier": "math", "reference": "\\frac{1}{2}", "completions": ["$\\boxed{0.5}$"]}),
        json!({"id": "broken", "verifier": "exact"}),
        json!({"id": "c", "verifier": "code", "tests": {"asserts": ["assert f(2) == 4"]}, "completions": ["def f(x):\n    return x * 2"]}),
    ]
    .iter()
    .map(|v| v.to_string())
    .collect::<Vec<_>>()
    .join("\n")
        + "\n{not json\n"
}

/// `text` without its `"wall_us":N` fields: the one thing that differs between two runs.
fn without_wall(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("\"wall_us\":") {
        out.push_str(&rest[..at]);
        rest = rest[at + "\"wall_us\":".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
    }
    out.push_str(rest);
    out
}

/// What `rewardbox score` writes for `input` (the CLI's own path, in this process).
fn cli_output(input: &str) -> String {
    let scorer = Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(common::test_cache_dir()),
        ..ScorerOptions::default()
    })
    .unwrap();
    let mut out = Vec::new();
    score_stream(
        &scorer,
        std::io::Cursor::new(input.as_bytes().to_vec()),
        &mut out,
        4096,
        |_| {},
    )
    .unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn score_answers_exactly_what_the_cli_writes() {
    let server = Server::start(|_| {});
    let input = batch();
    let expected = cli_output(&input);
    let (status, jsonl) = server.post(
        "/score",
        &input,
        &[("content-type", "application/x-ndjson")],
    );
    assert_eq!(status, 200);
    assert_eq!(
        without_wall(&jsonl),
        without_wall(&expected),
        "JSONL in, JSONL out, as the CLI"
    );
    let (status, jsonl) = server.post("/score?format=jsonl", &input, &[]);
    assert_eq!(
        (status, without_wall(&jsonl)),
        (200, without_wall(&expected))
    );
    // One object, and a list: the same results.
    let first: Value = serde_json::from_str(expected.lines().next().unwrap()).unwrap();
    let one = json!({"id": "q17", "verifier": "numeric", "reference": "391", "completions": ["391", "400"]});
    let (status, text) = server.post(
        "/score",
        &one.to_string(),
        &[("content-type", "application/json")],
    );
    assert_eq!(status, 200);
    assert_eq!(
        without_wall(&text),
        without_wall(expected.lines().next().unwrap()),
        "field order and all"
    );
    let (status, list) = server.json("/score", json!([one, {"id": "x"}]));
    assert_eq!(status, 200);
    assert_eq!(list[0]["results"][0]["fuel"], first["results"][0]["fuel"]);
    assert_eq!(list[0]["results"][1]["score"], first["results"][1]["score"]);
    assert_eq!(list[1]["status"], "invalid_task");
    assert!(list[1]["detail"].as_str().unwrap().contains("line 2"));
    let (status, error) = server.post("/score", "{oops", &[("content-type", "application/json")]);
    assert_eq!(status, 400);
    assert!(error.contains("not valid JSON"), "{error}");
}

#[test]
fn run_code_speaks_sandbox_fusion() {
    let server = Server::start(|_| {});
    let (status, ok) = server.json(
        "/run_code",
        json!({"code": "print(input()[::-1])", "language": "python", "stdin": "abc"}),
    );
    assert_eq!(status, 200);
    assert_eq!(ok["status"], "Success");
    assert_eq!(ok["run_result"]["status"], "Finished");
    assert_eq!(ok["run_result"]["return_code"], 0);
    assert_eq!(ok["run_result"]["stdout"], "cba\n");
    assert!(ok["compile_result"].is_null());
    let (_, failed) = server.json(
        "/run_code",
        json!({"code": "import sys\nsys.exit(3)", "language": "python3"}),
    );
    assert_eq!(
        (
            failed["status"].clone(),
            failed["run_result"]["return_code"].clone()
        ),
        (json!("Failed"), json!(3))
    );
    // An endless loop on a host too busy to give it half its wall-clock net in CPU time is the
    // host's failure (SandboxError), which says nothing of the program: asked again, as a
    // client retries a sandbox error.
    let says_busy = |answer: &serde_json::Value| {
        answer["message"]
            .as_str()
            .is_some_and(common::says_host_busy)
    };
    let slow = common::judged_again_while_host_busy(
        || {
            server
                .json(
                    "/run_code",
                    json!({"code": "while True:\n    pass", "language": "python", "run_timeout": 1}),
                )
                .1
        },
        says_busy,
    );
    // On a host that stays too busy (a starved machine) the answer stays the masked sandbox
    // error, never a verdict on the program.
    let masked = slow["status"] == "SandboxError" && says_busy(&slow);
    assert!(
        masked || slow["run_result"]["status"] == "TimeLimitExceeded",
        "{slow}"
    );
    let (_, hog) = server.json(
        "/run_code",
        json!({"code": "x = []\nwhile True:\n    x.append(bytearray(1 << 20))", "language": "python", "memory_limit_MB": 32}),
    );
    assert_eq!(hog["run_result"]["status"], "Error", "{hog}");
    let (_, files) = server.json(
        "/run_code",
        json!({"code": "open('out.txt', 'w').write(open('in.txt').read().upper())", "language": "python",
               "files": {"in.txt": "aGVsbG8="}, "fetch_files": ["out.txt", "missing.txt"]}),
    );
    assert_eq!(files["files"], json!({"out.txt": "SEVMTE8="}), "{files}");
    // A path is a path in the program's own file system, absolute or relative (SandboxFusion's
    // own test writes `/mnt/b`); `tempfile` finds `/tmp`; nothing outside can be named.
    let (_, anywhere) = server.json(
        "/run_code",
        json!({"code": "import sys, tempfile\nopen('a.txt', 'w').write('secret'); open('/mnt/b', 'w').write('sauce')\n\
                        with tempfile.NamedTemporaryFile('w', delete=False) as f: f.write('t')\n\
                        open('/tmp/kept', 'w').write('tmp')\n\
                        print(open('/data/in.txt').read(), f.name.startswith('/tmp/'), sys.argv)",
               "language": "python", "files": {"/data/in.txt": "aGk="},
               "fetch_files": ["a.txt", "/mnt/b", "/workspace/a.txt", "/etc/passwd", "/data/in.txt", "/tmp/kept"]}),
    );
    assert_eq!(
        anywhere["run_result"]["stdout"], "hi True ['main.py']\n",
        "{anywhere}"
    );
    assert_eq!(
        anywhere["files"],
        json!({"a.txt": "c2VjcmV0", "/mnt/b": "c2F1Y2U=", "/workspace/a.txt": "c2VjcmV0",
               "/data/in.txt": "aGk=", "/tmp/kept": "dG1w"}),
        "{anywhere}"
    );
    for outside in ["/../etc/passwd", "/", "a/../../b"] {
        let (status, bad) = server.json(
            "/run_code",
            json!({"code": "1", "language": "python", "fetch_files": [outside]}),
        );
        assert_eq!(
            (status, bad["field"].clone()),
            (400, json!("fetch_files")),
            "{outside}"
        );
    }
    // Sleeping past `run_timeout` is a time limit, as natively; a short sleep is not.
    let (_, asleep) = server.json(
        "/run_code",
        json!({"code": "import time\ntime.sleep(5)\nprint('woke')", "language": "python", "run_timeout": 1}),
    );
    assert_eq!(
        asleep["run_result"]["status"], "TimeLimitExceeded",
        "{asleep}"
    );
    let (_, nap) = server.json(
        "/run_code",
        json!({"code": "import time\ntime.sleep(0.2)\nprint('woke')", "language": "python", "run_timeout": 1}),
    );
    assert_eq!(nap["run_result"]["stdout"], "woke\n", "{nap}");
    let (_, secret) = server.json(
        "/run_code",
        json!({"code": "print(open('/etc/passwd').read())", "language": "python"}),
    );
    assert!(!secret.to_string().contains("root:"));
    // SandboxFusion's `typescript`: run as Node runs a .ts file.
    let (_, typescript) = server.json(
        "/run_code",
        json!({"code": "const s: string = require('fs').readFileSync(0, 'utf8');\nconsole.log(s.trim().split('').reverse().join('') as string);",
               "language": "typescript", "stdin": "abc"}),
    );
    assert_eq!(typescript["status"], "Success", "{typescript}");
    assert_eq!(typescript["run_result"]["stdout"], "cba\n");
    let (status, unsupported) =
        server.json("/run_code", json!({"code": "1", "language": "kotlin"}));
    assert_eq!(status, 200);
    assert_eq!(unsupported["status"], "SandboxError");
    assert!(unsupported["message"].as_str().unwrap().contains("kotlin"));
    assert!(
        unsupported["message"]
            .as_str()
            .unwrap()
            .contains("javascript, go, typescript"),
        "{unsupported}"
    );
    let (status, bad) = server.json("/run_code", json!({"language": "python"}));
    assert_eq!(status, 400);
    assert_eq!(bad["field"], "code");
    let (status, bad) = server.json(
        "/run_code",
        json!({"code": "1", "language": "python", "files": {"../x": ""}}),
    );
    assert_eq!((status, bad["field"].clone()), (400, json!("files")));
    // SandboxFusion's own default memory_limit_MB (-1) and absurd sizes are accepted (the
    // server's maximum at most); a name the file system refuses is the request's error, with no
    // host path in it.
    for memory in [json!(-1), json!(1u64 << 44), json!(u64::MAX)] {
        let (status, answer) = server.json(
            "/run_code",
            json!({"code": "print(2)", "language": "python", "memory_limit_MB": memory}),
        );
        assert_eq!(
            (status, answer["run_result"]["stdout"].clone()),
            (200, json!("2\n")),
            "{memory}: {answer}"
        );
    }
    let long_name = "n".repeat(300);
    let (status, bad) = server.json(
        "/run_code",
        json!({"code": "1", "language": "python", "files": {long_name.clone(): ""}}),
    );
    assert_eq!(status, 400, "{bad}");
    assert_eq!(bad["field"], format!("files.{long_name}"));
    assert!(!bad.to_string().contains("rewardbox-run-"), "{bad}");
}

/// `run_timeout` is the limit that applies, kept as fuel at the runner's calibrated rate: a Python
/// loop that natively takes about 0.35 s (4 million iterations, about 1.55e10 fuel) finishes with
/// 2 s (a quarter of which is more than its native time) and is stopped with 1 s, the same way on
/// any machine that gives the run its CPU (else the run is masked as the host's fault).
#[test]
fn run_code_turns_run_timeout_into_the_runners_fuel() {
    let server = Server::start(|_| {});
    let program = "s = 0\nfor i in range(int(input())):\n    s = (s + i * i) % 1000003\nprint(s)\n";
    // A host too busy to give the run half its wall-clock net in CPU masks it (the host's fault,
    // never remembered): asked again, as a trainer does; `None` when it stays masked (a machine
    // with every core taken), never a wrong verdict.
    let run = |n: u64, seconds: f64| -> Option<String> {
        let answer = common::judged_again_while_host_busy(
            || {
                server
                    .json(
                        "/run_code",
                        json!({"code": program, "language": "python", "stdin": format!("{n}\n"), "run_timeout": seconds}),
                    )
                    .1
            },
            |answer| {
                answer["message"]
                    .as_str()
                    .is_some_and(common::says_host_busy)
            },
        );
        if let Some(status) = answer["run_result"]["status"].as_str() {
            return Some(status.to_string());
        }
        assert!(
            answer["status"] == "SandboxError"
                && answer["message"]
                    .as_str()
                    .is_some_and(common::says_host_busy),
            "{answer}"
        );
        None
    };
    let enough = run(4_000_000, 2.0);
    assert!(
        matches!(enough.as_deref(), None | Some("Finished")),
        "{enough:?}"
    );
    let too_little = run(4_000_000, 1.0);
    assert!(
        matches!(too_little.as_deref(), None | Some("TimeLimitExceeded")),
        "{too_little:?}"
    );
    assert_eq!(run(100_000, 1.0).as_deref(), Some("Finished"));
}

/// The policy reaches `/run_code` (verl sends its code there): a program may not fill the host's
/// disk or memory through its working directory. Writing past the directory's budget stops it
/// (its own failure); a sparse file counts whole; `fetch_files` reads back a bounded answer.
#[test]
fn run_code_keeps_the_hosts_disk_and_memory() {
    let server = Server::start(|_| {});
    let temp_before = temp_dir_bytes();
    let (_, fill) = server.json(
        "/run_code",
        json!({"code": "chunk = b'x' * (1 << 20)\nwith open('fill', 'wb') as f:\n    for _ in range(2000):\n        f.write(chunk)\nprint('wrote it all')",
               "language": "python", "run_timeout": 30}),
    );
    assert_eq!(fill["status"], "Failed", "{fill}");
    assert!(
        !fill["run_result"]["stdout"]
            .as_str()
            .unwrap()
            .contains("wrote it all"),
        "{fill}"
    );
    assert!(
        fill["run_result"]["stderr"]
            .as_str()
            .unwrap()
            .contains("files may hold"),
        "{fill}"
    );
    let (_, sparse) = server.json(
        "/run_code",
        json!({"code": "f = open('big', 'wb')\nf.truncate(1 << 30)\nf.close()\nprint('ok')",
               "language": "python", "fetch_files": ["big"]}),
    );
    assert_eq!(sparse["status"], "Failed", "{sparse}");
    assert_eq!(sparse["files"], json!({}), "{sparse}");
    let (_, large) = server.json(
        "/run_code",
        json!({"code": "open('a', 'wb').write(b'a' * (5 << 20))\nopen('b', 'wb').write(b'b' * (12 << 20))\nopen('c', 'wb').write(b'c')",
               "language": "python", "fetch_files": ["a", "b", "c"]}),
    );
    assert_eq!(large["status"], "Success", "{}", large["run_result"]);
    let files = large["files"].as_object().unwrap();
    assert!(
        files.contains_key("a") && !files.contains_key("b") && files.contains_key("c"),
        "{:?}",
        files.keys()
    );
    assert!(
        large["run_result"]["stderr"]
            .as_str()
            .unwrap()
            .contains("\"b\" is 12582912 bytes"),
        "{}",
        large["run_result"]
    );
    // The budgets are the operator's.
    let small = Server::start(|o| {
        o.workdir_budget = rewardbox::sandboxes::DiskBudget {
            bytes: 1 << 20,
            entries: 100,
        };
        o.fetch_bytes = 1000;
    });
    let (_, over) = small.json(
        "/run_code",
        json!({"code": "open('a', 'wb').write(b'a' * (2 << 20))\nprint('done')", "language": "python"}),
    );
    assert_eq!(over["status"], "Failed", "{over}");
    let (_, fetched) = small.json(
        "/run_code",
        json!({"code": "open('a', 'wb').write(b'a' * 2000)", "language": "python", "fetch_files": ["a"]}),
    );
    assert_eq!(fetched["files"], json!({}), "{fetched}");
    // Every working directory is gone afterwards.
    assert!(
        temp_dir_bytes() <= temp_before + (64 << 20),
        "{} -> {}",
        temp_before,
        temp_dir_bytes()
    );
}

/// The bytes of the host's temp directory's rewardbox run directories.
fn temp_dir_bytes() -> u64 {
    fn walk(dir: &std::path::Path) -> u64 {
        std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| {
                let meta = e.path().symlink_metadata();
                match meta {
                    Ok(m) if m.is_dir() => walk(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                }
            })
            .sum()
    }
    std::fs::read_dir(std::env::temp_dir())
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("rewardbox-run-")
        })
        .map(|e| walk(&e.path()))
        .sum()
}

/// C++, Rust and JavaScript through `/run_code`: compiled first, a compile error reported in
/// `compile_result` as SandboxFusion does.
#[test]
fn run_code_compiles_cpp_and_rust() {
    let server = Server::start(|_| {});
    let (status, cpp) = server.json(
        "/run_code",
        json!({"code": "#include <bits/stdc++.h>\nint main(){long long a,b;std::cin>>a>>b;std::cout<<a+b<<\"\\n\";}",
               "language": "cpp", "stdin": "40 2"}),
    );
    assert_eq!(status, 200, "{cpp}");
    assert_eq!(cpp["status"], "Success", "{cpp}");
    assert_eq!(cpp["compile_result"]["return_code"], 0);
    assert_eq!(cpp["run_result"]["stdout"], "42\n");
    let (_, rust) = server.json(
        "/run_code",
        json!({"code": "fn main() { std::process::exit(4) }", "language": "rust"}),
    );
    assert_eq!(
        (
            rust["status"].clone(),
            rust["run_result"]["return_code"].clone()
        ),
        (json!("Failed"), json!(4)),
        "{rust}"
    );
    let (_, broken) = server.json(
        "/run_code",
        json!({"code": "int main(){ return nope; }", "language": "c++"}),
    );
    assert_eq!(broken["status"], "Failed", "{broken}");
    assert!(broken["run_result"].is_null());
    assert_eq!(broken["compile_result"]["return_code"], 1);
    let message = broken["compile_result"]["stderr"].as_str().unwrap();
    assert!(message.contains("main.cpp:1:20: error"), "{message}");
    let (_, js) = server.json(
        "/run_code",
        json!({"code": "const [a, b] = require('fs').readFileSync(0, 'utf8').split(' ').map(Number); console.log(a * b);",
               "language": "nodejs", "stdin": "6 7"}),
    );
    assert_eq!(js["status"], "Success", "{js}");
    assert_eq!(js["run_result"]["stdout"], "42\n");
    assert!(js["compile_result"].is_null());
    let (status, files) = server.json(
        "/run_code",
        json!({"code": "int main(){}", "language": "c", "files": {"in.txt": "aGVsbG8="}}),
    );
    assert_eq!((status, files["field"].clone()), (400, json!("files")));
}

#[test]
fn codegym_endpoints_drive_a_session() {
    let server = Server::start(|_| {});
    let (status, started) = server.json(
        "/start",
        json!({"env_str": "Toy_1_I__SumListEnv@{\"values\": [1, 2]}", "env_name": "codegym_v1"}),
    );
    assert_eq!(status, 200, "{started}");
    let id = started["session_id"].as_str().unwrap().to_string();
    assert!(
        started["observation"]
            .as_str()
            .unwrap()
            .contains("2 integers")
    );
    let (_, step) = server.json(
        "/step",
        json!({"session_id": id, "action": "{\"name\": \"GetValue\", \"parameters\": {\"index\": 1}}", "timeout": 5}),
    );
    assert_eq!(step, json!({"status": true, "observation": "2"}));
    let get = |path: &str| -> Value {
        let (status, text) = server.get(&format!("{path}?session_id={id}"));
        assert_eq!(status, 200, "{path}: {text}");
        serde_json::from_str(&text).unwrap()
    };
    assert_eq!(get("/is_done"), json!({"done": false}));
    let (_, solved) = server.get(&format!(
        "/get_attribute?session_id={id}&attribute_name=solve"
    ));
    assert!(solved.contains("reward=1"), "{solved}");
    assert_eq!(get("/is_success"), json!({"success": true}));
    assert_eq!(get("/reward"), json!({"reward": 1.0}));
    let (_, reset) = server.json("/reset", json!({"session_id": id}));
    assert_eq!(reset["message"], "Environment has been reset.");
    let (_, stopped) = server.json("/stop", json!({"session_id": id}));
    assert_eq!(stopped, json!({"message": "Session stopped."}));
    assert_eq!(server.get(&format!("/reward?session_id={id}")).0, 404);
    let (status, _) = server.json("/step", json!({"session_id": "nope", "action": "{}"}));
    assert_eq!(status, 404);
    let (_, instance) = server.get("/get_instance");
    let instance: Value = serde_json::from_str(&instance).unwrap();
    assert_eq!(instance["port"], server.address.port());
    assert_eq!(server.get("/release_instance?uid=x").0, 200);
    // A step that loops breaks only its session, and says so in the observation.
    let (_, bad) = server.json(
        "/start",
        json!({"env_str": "codegym_v1@Hostile_1_I__MisbehaveEnv@{}"}),
    );
    let bad_id = bad["session_id"].as_str().unwrap();
    let (status, looped) = server.json(
        "/step",
        json!({"session_id": bad_id, "action": {"name": "Flood", "parameters": {}}}),
    );
    assert_eq!(status, 200);
    assert_eq!(looped["status"], false);
    assert_eq!(looped["error"], "step_failed");
    let (status, missing) = server.json("/start", json!({"env_str": "codegym_v1@Nope_I__X@{}"}));
    assert_eq!(status, 404, "{missing}");
    let (status, bad) = server.json("/start", json!({"env_name": "codegym_v1"}));
    assert_eq!((status, bad["field"].clone()), (400, json!("env_str")));
    assert!(
        !missing.to_string().contains(&root().display().to_string()),
        "{missing}"
    );
    // Session ids are 128 random bits; a start may not take an id in use (another client's).
    let start = |body: Value| server.json("/start", body);
    let env_str = "codegym_v1@Toy_1_I__SumListEnv@{\"values\": [1, 2]}";
    let (_, a) = start(json!({"env_str": env_str}));
    let (_, b) = start(json!({"env_str": env_str}));
    for started in [&a, &b] {
        let id = started["session_id"].as_str().unwrap();
        assert!(
            id.len() == 32 && id.bytes().all(|c| c.is_ascii_hexdigit()),
            "{id}"
        );
    }
    assert_ne!(a["session_id"], b["session_id"]);
    let (status, taken) = start(json!({"env_str": env_str, "session_id": a["session_id"]}));
    assert_eq!(status, 409, "{taken}");
    let (status, _) = start(json!({"env_str": env_str, "session_id": "mine-1"}));
    assert_eq!(status, 200);
    let (status, _) = start(json!({"env_str": env_str, "session_id": "mine-1"}));
    assert_eq!(status, 409);
}

#[test]
fn get_reward_answers_openrlhf() {
    let server = Server::start(|_| {});
    let (status, answer) = server.json(
        "/get_reward",
        json!({
            "query": ["Q: 1+1? A: so $\\boxed{2}$", "Q: 2+2? A: 5", "Q: add A: ```python\ndef add(a, b):\n    return a + b\n```"],
            "prompts": ["Q: 1+1? A:", "Q: 2+2? A:", "Q: add A:"],
            "labels": ["2", "4", {"verifier": "code", "tests": {"asserts": ["assert add(1, 2) == 3"]}}],
        }),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["rewards"], json!([1.0, 0.0, 1.0]));
    assert_eq!(answer["extra_logs"]["masked"], json!([0.0, 0.0, 0.0]));
    assert_eq!(answer["extra_logs"]["passed"], json!([1.0, 0.0, 1.0]));
    // OpenRLHF makes a tensor of every `extra_logs` value: lists of numbers only.
    for (name, values) in answer["extra_logs"].as_object().unwrap() {
        let values = values.as_array().unwrap();
        assert!(
            values.len() == 3 && values.iter().all(Value::is_number),
            "{name}: {values:?}"
        );
    }
    let (status, bad) = server.json("/get_reward", json!({"query": ["a"]}));
    assert_eq!((status, bad["field"].clone()), (400, json!("labels")));
    // The samples of one prompt (the same label) are one task's completions: a verifier's failure
    // on one is the completion's doing where the verifier judges another; a prompt of its own
    // tells nothing of it.
    let int_verifier = json!({"verifier": "python",
        "verifier_code": "def verify(task, completion):\n    return int(completion) == 4\n"});
    let (status, answer) = server.json(
        "/get_reward",
        json!({"query": ["5", "four", "four"],
            "labels": [int_verifier, int_verifier, {"verifier": "python", "reference": "other",
                "verifier_code": int_verifier["verifier_code"]}]}),
    );
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        answer["extra_logs"]["masked"],
        json!([0.0, 0.0, 1.0]),
        "{answer}"
    );
}

#[test]
fn the_server_defends_itself() {
    let (hostile_dir, hostile_name) = hostile_verifier();
    let server = Server::start(|o| {
        o.token = Some("s3cret".into());
        o.max_body_bytes = 64 << 10;
        o.verifier_dir = Some(hostile_dir);
        o.max_limits = Limits {
            fuel: 50_000_000,
            ..o.max_limits
        };
    });
    let auth = [
        ("authorization", "Bearer s3cret"),
        ("content-type", "application/json"),
    ];
    let task =
        json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]}).to_string();
    assert_eq!(server.post("/score", &task, &[]).0, 401);
    assert_eq!(
        server
            .post("/score", &task, &[("authorization", "Bearer wrong")])
            .0,
        401
    );
    assert_eq!(server.post("/score", &task, &auth).0, 200);
    assert_eq!(server.get("/healthz").0, 200, "health needs no token");
    // Bodies past the limit.
    let big = "x".repeat(100 << 10);
    assert_eq!(server.post("/score", &big, &auth).0, 413);
    // Verifier files only from the allowed directory, by a relative name.
    let outside =
        json!({"id": "p", "verifier": "/etc/passwd.wasm", "completions": ["a"]}).to_string();
    let (_, text) = server.post("/score", &outside, &auth);
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["status"], "invalid_task");
    assert!(
        answer["detail"]
            .as_str()
            .unwrap()
            .contains("allowed directory"),
        "{answer}"
    );
    // A task asking for more fuel than the operator allows gets the operator's maximum.
    let greedy = json!({"id": "g", "verifier": hostile_name, "attack": "loop", "limits": {"fuel": 1_000_000_000_000u64},
                        "completions": ["a"]}).to_string();
    let (_, text) = server.post("/score", &greedy, &auth);
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer["results"][0]["status"], "verifier_error", "{answer}");
    assert!(
        answer["results"][0]["detail"]
            .as_str()
            .unwrap()
            .contains("50000000"),
        "{answer}"
    );
    assert_eq!(server.get("/metrics").0, 401, "metrics need the token too");
}

#[test]
fn floods_disconnects_and_hanging_verifiers_leave_the_server_up() {
    let (hostile_dir, hostile_name) = hostile_verifier();
    let server = Server::start(|o| {
        o.max_inflight = 2;
        o.verifier_dir = Some(hostile_dir);
    });
    // A verifier that hangs (a sleep loop) until its wall-clock limit.
    let hang =
        json!({"id": "h", "verifier": hostile_name, "attack": "sleep", "limits": {"wall_ms": 1500},
                      "completions": ["a"]})
        .to_string();
    let address = server.address;
    let hangers: Vec<_> = (0..2)
        .map(|_| {
            let hang = hang.clone();
            std::thread::spawn(move || {
                let agent = Server::agent();
                // Refused while the other hanger and a /metrics poll hold both slots: again.
                loop {
                    let mut r = agent
                        .post(&format!("http://{address}/score"))
                        .header("content-type", "application/json")
                        .send(&hang)
                        .unwrap();
                    if r.status() != 429 {
                        return r.body_mut().read_to_string().unwrap();
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            })
        })
        .collect();
    // Once both hang in flight, one more is refused (/metrics too: it is behind the same bound).
    let both_in = eventually(12_000, Duration::from_millis(10), || {
        server.get("/metrics").0 == 429
    });
    assert!(
        both_in,
        "the two hanging requests never were in flight together"
    );
    let task =
        json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]}).to_string();
    let (status, _) = server.post("/score", &task, &[("content-type", "application/json")]);
    assert!(
        status == 429 || status == 200,
        "past --max-inflight: {status} (200 only if a hanging request ended meanwhile)"
    );
    assert_eq!(
        server.get("/healthz").0,
        200,
        "health answers during the flood"
    );
    for h in hangers {
        let answer: Value = serde_json::from_str(&h.join().unwrap()).unwrap();
        assert_eq!(answer["results"][0]["status"], "verifier_error");
        assert!(
            answer["results"][0]["detail"]
                .as_str()
                .unwrap()
                .contains("wall-clock"),
            "{answer}"
        );
    }
    // A client that sends half a request and goes away.
    let mut socket = std::net::TcpStream::connect(server.address).unwrap();
    socket
        .write_all(b"POST /score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{\"id\":")
        .unwrap();
    drop(socket);
    // One that sends a slow batch and goes away before the answer.
    let mut socket = std::net::TcpStream::connect(server.address).unwrap();
    let body = format!("{hang}\n{hang}\n");
    socket
        .write_all(
            format!(
                "POST /score?format=jsonl HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(socket);
    assert_eq!(server.get("/healthz").0, 200);
    let (status, _) = server.post("/score", &task, &[("content-type", "application/json")]);
    assert!(status == 200 || status == 429, "{status}");
    // Once the abandoned work is done, the server answers again (however long that takes here).
    let answered = eventually(1200, Duration::from_millis(100), || {
        server
            .post("/score", &task, &[("content-type", "application/json")])
            .0
            == 200
    });
    assert!(answered, "the server never answered again");
    let metrics = server.get("/metrics").1;
    assert!(
        metrics.contains("rewardbox_requests_rejected_total"),
        "{metrics}"
    );
    assert!(
        metrics.contains("rewardbox_completions_total{status=\"verifier_error\"}"),
        "{metrics}"
    );
}

#[test]
fn shutdown_finishes_the_requests_in_flight() {
    let (hostile_dir, hostile_name) = hostile_verifier();
    let mut server = Server::start(|o| o.verifier_dir = Some(hostile_dir));
    let address = server.address;
    let slow =
        json!({"id": "h", "verifier": hostile_name, "attack": "sleep", "limits": {"wall_ms": 800},
                      "completions": ["a"]})
        .to_string();
    let client = std::thread::spawn(move || {
        let mut r = Server::agent()
            .post(&format!("http://{address}/score"))
            .header("content-type", "application/json")
            .send(&slow)
            .unwrap();
        (r.status().as_u16(), r.body_mut().read_to_string().unwrap())
    });
    std::thread::sleep(Duration::from_millis(200));
    let _ = server.shutdown.take().unwrap().send(());
    let (status, body) = client.join().unwrap();
    assert_eq!(status, 200, "{body}");
    server.thread.take().unwrap().join().unwrap();
}

/// Reads from `socket` until the server closes it (or `within` passes); what it sent.
fn read_until_closed(socket: &mut std::net::TcpStream, within: Duration) -> Option<String> {
    use std::io::Read;
    socket.set_read_timeout(Some(within)).unwrap();
    let mut answer = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match socket.read(&mut buf) {
            Ok(0) => return Some(String::from_utf8_lossy(&answer).into_owned()),
            Ok(n) => answer.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return Some(String::from_utf8_lossy(&answer).into_owned());
            }
            Err(_) => return None,
        }
    }
}

/// How long a test waits for the server to close a connection it must close. The server's own
/// deadlines here are 1 s; this only bounds a test that would otherwise hang.
const CLOSED_WITHIN: Duration = Duration::from_secs(120);

/// Idle clients cannot hold the server: connections past the cap are closed at once, one that
/// sends no headers is closed at the header deadline, one that stalls mid-body gets a 408 at the
/// body deadline and gives its in-flight slot back; afterwards the server answers.
#[test]
fn connections_are_bounded_and_stalled_clients_let_go() {
    let server = Server::start(|o| {
        o.max_connections = 3;
        o.header_timeout = Duration::from_secs(1);
        o.body_timeout = Duration::from_secs(1);
        o.max_inflight = 1;
    });
    let task =
        json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]}).to_string();
    // Three idle connections fill the cap; a fourth is closed without an answer. On a busy
    // machine the three may reach their 1 s header deadline (and free the cap) before the fourth
    // is accepted, and then the fourth is served: each round opens three fresh ones, so that
    // slowness only costs a round, never the verdict.
    let mut idle: Vec<std::net::TcpStream> = Vec::new();
    let refused = (0..50).any(|_| {
        // The last round's connections are closed here; the server frees their slots.
        idle = (0..3)
            .map(|_| std::net::TcpStream::connect(server.address).unwrap())
            .collect();
        let mut extra = std::net::TcpStream::connect(server.address).unwrap();
        let _ = extra
            .write_all(b"GET /healthz HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n");
        let refused = read_until_closed(&mut extra, CLOSED_WITHIN).as_deref() == Some("");
        if !refused {
            std::thread::sleep(Duration::from_millis(50));
        }
        refused
    });
    assert!(refused, "a connection past the cap was served in 50 rounds");
    // The idle ones are closed at the header deadline, with no answer.
    for socket in &mut idle {
        assert_eq!(
            read_until_closed(socket, CLOSED_WITHIN).as_deref(),
            Some("")
        );
    }
    assert_eq!(server.get("/healthz").0, 200);
    // A body that stalls: 408, and the only in-flight slot is free again.
    let mut stalled = std::net::TcpStream::connect(server.address).unwrap();
    stalled
        .write_all(b"POST /score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{\"id\":")
        .unwrap();
    let answer = read_until_closed(&mut stalled, CLOSED_WITHIN)
        .expect("the server let the stalled body hang");
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let (status, text) = server.post("/score", &task, &[("content-type", "application/json")]);
    assert_eq!(status, 200, "{text}");
}

/// Shutdown gives the requests in flight the drain time, then returns, even when a client
/// holds a request open forever.
#[test]
fn shutdown_is_bounded_by_the_drain_time() {
    let mut server = Server::start(|o| {
        o.drain = Duration::from_secs(1);
        o.body_timeout = Duration::from_secs(3600);
    });
    let mut stalled = std::net::TcpStream::connect(server.address).unwrap();
    stalled
        .write_all(b"POST /score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 1000\r\n\r\n{")
        .unwrap();
    // The request is in flight once the server counts it.
    // The /metrics request itself is one.
    let in_flight = eventually(600, Duration::from_millis(20), || {
        server.metric("rewardbox_requests_in_flight") >= 2
    });
    assert!(in_flight, "{}", server.get("/metrics").1);
    let thread = server.thread.take().unwrap();
    let _ = server.shutdown.take().unwrap().send(());
    let (done_tx, done_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        thread.join().unwrap();
        let _ = done_tx.send(());
    });
    assert!(
        done_rx.recv_timeout(CLOSED_WITHIN).is_ok(),
        "the server kept waiting for a stalled client"
    );
    drop(stalled);
}

/// A client that goes away before its answer: the completions of its batch not yet started are
/// not judged (counted in /metrics), and the server is free again without working through them.
#[test]
fn a_batch_whose_client_went_away_is_not_worked_through() {
    let (hostile_dir, hostile_name) = hostile_verifier();
    let server = Server::start(|o| {
        o.verifier_dir = Some(hostile_dir);
        o.threads = Some(1);
    });
    // 200 completions that each hold a scoring thread for 500 ms: 100 s of work on one thread.
    let slow: Vec<Value> = (0..200)
        .map(|i| {
            json!({"id": format!("s{i}"), "verifier": hostile_name, "attack": "sleep",
                        "limits": {"wall_ms": 500}, "completions": ["a"]})
        })
        .collect();
    let body = Value::Array(slow).to_string();
    let mut socket = std::net::TcpStream::connect(server.address).unwrap();
    send_json_post(&mut socket, "/score", &body);
    // Once the server works on it (the /metrics request is the other one), the client goes away.
    let working = eventually(6000, Duration::from_millis(10), || {
        server.metric("rewardbox_requests_in_flight") == 2
    });
    assert!(working, "the batch never started");
    drop(socket);
    let mut cancelled = 0;
    let counted = eventually(12_000, Duration::from_millis(10), || {
        cancelled = server.metric("rewardbox_cancelled_completions_total");
        cancelled > 0
    });
    assert!(counted, "the abandoned batch was worked through");
    assert!(
        cancelled > 100,
        "only {cancelled} of 200 completions were left undone"
    );
    let task =
        json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]}).to_string();
    let (status, text) = server.post("/score", &task, &[("content-type", "application/json")]);
    assert_eq!(status, 200, "{text}");
}

/// A `/run_code` program whose client hangs up is stopped at its sandbox's next check (every
/// 10 ms of execution), not run to its limit: here a 30 s endless loop, stopped long before the
/// 30 s of fuel it was given (the stop is counted in /metrics when the run has ended).
#[test]
fn a_run_whose_client_hung_up_is_stopped() {
    let server = Server::start(|o| o.threads = Some(1));
    let stopped = || server.metric("rewardbox_stopped_runs_total");
    assert_eq!(stopped(), 0);
    let body = json!({"code": "while True:\n    pass", "language": "python", "run_timeout": 30})
        .to_string();
    let mut socket = std::net::TcpStream::connect(server.address).unwrap();
    send_json_post(&mut socket, "/run_code", &body);
    let working = eventually(6000, Duration::from_millis(10), || {
        server.metric("rewardbox_requests_in_flight") == 2
    });
    assert!(working, "the run never started");
    // Let the program run a little, then hang up.
    std::thread::sleep(Duration::from_millis(300));
    let hung_up = Instant::now();
    drop(socket);
    // Unstopped, the loop would run for its 30 s of fuel (longer on a busy machine); stopped, it
    // ends within 10 ms of its own execution.
    let ended = eventually(1500, Duration::from_millis(10), || stopped() == 1);
    assert!(
        ended,
        "the program still ran {:?} after its client hung up",
        hung_up.elapsed()
    );
    eprintln!(
        "stopped and counted {:?} after the client hung up",
        hung_up.elapsed()
    );
    let (status, _) = server.post(
        "/run_code",
        r#"{"code": "print(1)", "language": "python"}"#,
        &[("content-type", "application/json")],
    );
    assert_eq!(status, 200);
}
