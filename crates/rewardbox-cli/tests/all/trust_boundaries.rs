//! The trust boundaries, tried as an adversary would, through the real command line and server:
//! each class of attack has its own table of cases here.
//!
//! - [`a_policy_never_chooses_a_mask`]: whatever a candidate's own source makes its compiled
//!   module hold (imports from nowhere, extra exports, sections named like component types,
//!   huge memories and data) is judged as the native toolchain judges the same source, a score,
//!   never a masked `verifier_error`.
//! - [`the_agents_code_never_runs_as_the_verifier`]: every way a verifier loads the agent's file
//!   (import, importlib, runpy, exec/eval/compile/ast of its text) runs it as a live candidate,
//!   in episodes, DeepGym sessions and DeepGym runs alike; an agent printing a verdict and
//!   exiting at import scores 0, an honest two-file agent 1.
//! - [`importers_read_the_package_and_nothing_else`]: `import kattis` and `import deepgym` never
//!   read outside the package (`../`, absolute names, links, pipes), and refuse directory cycles
//!   and YAML alias bombs, naming them.
//! - [`work_nobody_waits_for_stops_and_gives_its_slot_back`]: on every route, work whose client
//!   hung up stops and gives back its in-flight slot.
//! - [`the_operators_limits_and_budgets_hold_whatever_clients_do`]: episode steps within
//!   `--max-wall-ms`, a bounded WebSocket queue, memory and disk budgets across sessions.
//! - [`a_web_page_cannot_drive_a_server_without_a_token`]: `Host` and `Origin` checks.
//! - [`compilers_reveal_nothing_of_the_host`]: a host file that exists reads as one that does
//!   not; rustc's environment names no host path.

use crate::common;

use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// The `rewardbox` under test: this build's, or the binary `REWARDBOX_TEST_BIN` names (an
/// earlier build, to see each table fail where that build is weak).
fn rewardbox() -> Command {
    let binary = std::env::var("REWARDBOX_TEST_BIN")
        .unwrap_or_else(|_| env!("CARGO_BIN_EXE_rewardbox").to_string());
    let mut command = Command::new(binary);
    command.env("REWARDBOX_CACHE_DIR", common::test_cache_dir());
    command
}

/// The results `rewardbox score --quiet` writes for `tasks`, in order.
fn score(tasks: &[Value]) -> Vec<Value> {
    let input: String = tasks.iter().map(|t| format!("{t}\n")).collect();
    let mut child = rewardbox()
        .args(["score", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Class 3: a policy never chooses a mask
// ---------------------------------------------------------------------------------------------

/// How a judge sees a program: it does not build (`CE`), it runs and prints `ok` (`OK`), or it
/// builds and fails or is stopped when run (`RE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verdict {
    CE,
    OK,
    RE,
}

/// (language, what it does, source, the native toolchain's verdict on it). Each program prints
/// `ok` if it runs at all.
const MASK_CASES: &[(&str, &str, &str, Verdict)] = &[
    (
        "c",
        "calls a function imported from module env",
        "#include <stdio.h>\n__attribute__((import_module(\"env\"), import_name(\"helper\"))) int helper(void);\nint main(void) { printf(\"ok\\n\"); return helper(); }\n",
        Verdict::CE,
    ),
    (
        "c",
        "calls an extern function nothing defines",
        "#include <stdio.h>\nextern int helper(void);\nint main(void) { printf(\"ok\\n\"); return helper(); }\n",
        Verdict::CE,
    ),
    (
        "cpp",
        "calls an unknown WASI function",
        "#include <cstdio>\nextern \"C\" __attribute__((import_module(\"wasi_snapshot_preview1\"), import_name(\"bogus\"))) int bogus(void);\nint main() { std::puts(\"ok\"); return bogus(); }\n",
        Verdict::CE,
    ),
    (
        "cpp",
        "calls a function imported from module env",
        "#include <iostream>\nextern \"C\" __attribute__((import_module(\"env\"))) int helper(int);\nint main() { std::cout << \"ok\\n\"; return helper(1); }\n",
        Verdict::CE,
    ),
    (
        "c",
        "exports a function by name",
        "#include <stdio.h>\n__attribute__((export_name(\"run\"))) int run(void) { return 1; }\nint main(void) { puts(\"ok\"); return 0; }\n",
        Verdict::OK,
    ),
    (
        "c",
        "exports a reactor's _initialize",
        "#include <stdio.h>\n__attribute__((export_name(\"_initialize\"))) void init(void) {}\nint main(void) { puts(\"ok\"); return 0; }\n",
        Verdict::OK,
    ),
    (
        "rust",
        "calls an extern \"C\" function nothing defines",
        "extern \"C\" { fn helper() -> i32; }\nfn main() { println!(\"ok\"); unsafe { helper(); } }\n",
        Verdict::CE,
    ),
    (
        "rust",
        "calls a function of wasm import module env",
        "#[link(wasm_import_module = \"env\")]\nextern \"C\" { fn helper(); }\nfn main() { println!(\"ok\"); unsafe { helper() } }\n",
        Verdict::CE,
    ),
    (
        "rust",
        "exports a #[no_mangle] function and writes a component-type section",
        "#[used]\n#[unsafe(link_section = \"component-type:evil\")]\nstatic EVIL: [u8; 4] = *b\"junk\";\n#[unsafe(no_mangle)]\npub extern \"C\" fn exported() -> i32 { 7 }\nfn main() { println!(\"ok\"); }\n",
        Verdict::OK,
    ),
    (
        "rust",
        "carries 16 MiB of initialised data",
        "static DATA: [u8; 16 << 20] = [7; 16 << 20];\nfn main() { let i = std::hint::black_box(12345); if DATA[i] == 7 { println!(\"ok\"); } }\n",
        Verdict::OK,
    ),
    (
        "c",
        "declares a 768 MiB array (past the memory limit)",
        "#include <stdio.h>\nstatic char big[768u << 20];\nint main(void) { volatile unsigned i = 12345; big[i] = 1; printf(\"ok\\n\"); return big[i] - 1; }\n",
        Verdict::RE,
    ),
    (
        "cpp",
        "declares a 120 MB array (within the memory limit)",
        "#include <cstdio>\nstatic int a[30000000];\nint main() { volatile int i = 29999999; a[i] = 1; if (a[i]) std::puts(\"ok\"); }\n",
        Verdict::OK,
    ),
    (
        "go",
        "declares a //go:wasmimport function",
        "package main\n\nimport \"fmt\"\n\n//go:wasmimport env helper\nfunc helper() int32\n\nfunc main() { fmt.Println(\"ok\"); helper() }\n",
        Verdict::CE,
    ),
    (
        "go",
        "exports a //go:wasmexport function",
        "package main\n\nimport \"fmt\"\n\n//go:wasmexport run\nfunc run() int32 { return 1 }\n\nfunc main() { fmt.Println(\"ok\") }\n",
        Verdict::OK,
    ),
    (
        "go",
        "links a function to a symbol nothing defines",
        "package main\n\nimport (\n\t\"fmt\"\n\t_ \"unsafe\"\n)\n\n//go:linkname helper runtime.doesNotExist\nfunc helper()\n\nfunc main() { fmt.Println(\"ok\"); helper() }\n",
        Verdict::CE,
    ),
];

/// The address space a judge gives a native run here: the sandbox's default candidate memory
/// limit (256 MiB) and room for the process itself.
const NATIVE_ADDRESS_SPACE: u64 = 512 << 20;

/// The native toolchain's verdict on `source`, built in `dir`; `None` when the toolchain is not
/// on this machine (Go is found as `go` in the project's `.venv`, or `REWARDBOX_NATIVE_GO`).
fn native_verdict(language: &str, source: &str, dir: &Path) -> Option<Verdict> {
    let binary = dir.join("main");
    let built = match language {
        "c" | "cpp" => {
            let (file, compiler) = if language == "c" {
                ("main.c", "cc")
            } else {
                ("main.cpp", "c++")
            };
            std::fs::write(dir.join(file), source).unwrap();
            Command::new(compiler)
                .args(["-O2", "-w"])
                .arg(dir.join(file))
                .arg("-o")
                .arg(&binary)
                .output()
                .ok()?
        }
        "rust" => {
            std::fs::write(dir.join("main.rs"), source).unwrap();
            Command::new("rustc")
                .args(["-O", "--edition=2024"])
                .arg(dir.join("main.rs"))
                .arg("-o")
                .arg(&binary)
                .output()
                .ok()?
        }
        "go" => {
            let go = std::env::var("REWARDBOX_NATIVE_GO").unwrap_or_else(|_| {
                concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/go").to_string()
            });
            if !Path::new(&go).exists() {
                return None;
            }
            std::fs::write(dir.join("main.go"), source).unwrap();
            Command::new(go)
                .current_dir(dir)
                .env("HOME", dir)
                .env("GOCACHE", dir.join("cache"))
                .env("GOTOOLCHAIN", "local")
                .env("GOFLAGS", "")
                .args(["build", "-o", "main", "main.go"])
                .output()
                .ok()?
        }
        _ => return None,
    };
    if !built.status.success() {
        return Some(Verdict::CE);
    }
    let mut run = Command::new(&binary);
    // A judge's memory limit, as an address-space limit on the process (not for Go, whose
    // runtime reserves address space far past what it uses).
    if language != "go" {
        limit_address_space(&mut run);
    }
    let ran = run.output().ok()?;
    Some(
        if ran.status.success() && String::from_utf8_lossy(&ran.stdout) == "ok\n" {
            Verdict::OK
        } else {
            Verdict::RE
        },
    )
}

/// Runs `command` with [`NATIVE_ADDRESS_SPACE`] of address space.
fn limit_address_space(command: &mut Command) {
    unsafe {
        std::os::unix::process::CommandExt::pre_exec(command, || {
            let limit = libc::rlimit {
                rlim_cur: NATIVE_ADDRESS_SPACE,
                rlim_max: NATIVE_ADDRESS_SPACE,
            };
            libc::setrlimit(libc::RLIMIT_AS, &limit);
            Ok(())
        });
    }
}

/// What rewardbox's result on a stdio task expecting `ok` says of the program.
fn our_verdict(result: &Value) -> Result<Verdict, String> {
    let completion = &result["results"][0];
    if completion["status"] != "ok" {
        return Err(format!("not a verdict: {completion}"));
    }
    let case = &completion["cases"][0];
    match case["status"].as_str() {
        Some("compile_error") => Ok(Verdict::CE),
        Some("passed") => Ok(Verdict::OK),
        Some(
            "crashed" | "exited_nonzero" | "memory_exceeded" | "fuel_exhausted" | "timeout"
            | "wrong",
        ) => Ok(Verdict::RE),
        _ => Err(format!("a case status no judge has: {completion}")),
    }
}

#[test]
fn a_policy_never_chooses_a_mask() {
    let tasks: Vec<Value> = MASK_CASES
        .iter()
        .enumerate()
        .map(|(i, (language, _, source, _))| {
            json!({"id": format!("mask-{i}"), "verifier": "code", "language": language,
                   "extract": "whole", "tests": {"stdio": [{"stdin": "", "stdout": "ok\n"}]},
                   "completions": [source]})
        })
        .collect();
    let results = score(&tasks);
    assert_eq!(results.len(), MASK_CASES.len());
    let mut failures = Vec::new();
    let mut table = String::new();
    for ((language, what, source, native), result) in MASK_CASES.iter().zip(&results) {
        let dir = tempfile::tempdir().unwrap();
        let measured = native_verdict(language, source, dir.path());
        if let Some(measured) = measured
            && measured != *native
        {
            failures.push(format!(
                "{language} ({what}): the table says native {native:?}, the native toolchain says {measured:?}"
            ));
        }
        let ours = our_verdict(result);
        table.push_str(&format!(
            "{language:5} {what:70} native {native:?} ({}) ours {ours:?}\n",
            measured.map_or("not built here".into(), |m| format!("{m:?}"))
        ));
        if ours != Ok(*native) {
            failures.push(format!(
                "{language} ({what}): native {native:?}, ours {ours:?}\n{result}"
            ));
        }
    }
    eprintln!("{table}");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------------
// A real `rewardbox serve`
// ---------------------------------------------------------------------------------------------

/// A `rewardbox serve` process on a free loopback port, stopped when dropped.
struct Serve {
    child: std::process::Child,
    address: String,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        Self::start_with_temp(args, None)
    }

    /// [`Serve::start`] with the server's temporary directory (`TMPDIR`) at `temp`.
    fn start_with_temp(args: &[&str], temp: Option<&std::path::Path>) -> Serve {
        use std::io::BufRead;
        let mut command = rewardbox();
        command
            .args(["serve", "--port", "0", "-j", "2"])
            .args(args)
            .stderr(Stdio::piped());
        if let Some(temp) = temp {
            command.env("TMPDIR", temp);
        }
        let mut child = command.spawn().unwrap();
        let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
        let address = loop {
            let line = lines
                .next()
                .expect("the server said where it listens")
                .unwrap();
            if let Some(url) = line.strip_prefix("rewardbox: serving on http://") {
                break url.to_string();
            }
        };
        // The rest of its stderr is drained, so that it never blocks writing.
        std::thread::spawn(move || lines.for_each(drop));
        Serve { child, address }
    }

    fn agent() -> ureq::Agent {
        ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(std::time::Duration::from_secs(300)))
            .build()
            .into()
    }

    fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.address)
    }

    fn post(&self, path: &str, body: &Value) -> (u16, Value) {
        match Self::agent()
            .post(&self.url(path))
            .header("content-type", "application/json")
            .send(body.to_string())
        {
            Ok(mut r) => {
                let text = r.body_mut().read_to_string().unwrap_or_default();
                (
                    r.status().as_u16(),
                    serde_json::from_str(&text).unwrap_or(Value::String(text)),
                )
            }
            Err(e) => (0, Value::String(e.to_string())),
        }
    }

    fn get(&self, path: &str) -> (u16, String) {
        match Self::agent().get(&self.url(path)).call() {
            Ok(mut r) => (
                r.status().as_u16(),
                r.body_mut().read_to_string().unwrap_or_default(),
            ),
            Err(e) => (0, e.to_string()),
        }
    }

    /// The value of the gauge or counter `name` in /metrics.
    fn metric(&self, name: &str) -> Option<f64> {
        self.get("/metrics")
            .1
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|n| n.trim().parse().ok())
    }

    /// The CPU time (user and system, every thread) the server spends in the next `seconds`.
    fn cpu_seconds_over(&self, seconds: f64) -> f64 {
        let pid = self.child.id();
        let used = || {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            // The fields after the command name (which may hold spaces): utime and stime are the
            // 12th and 13th of them, in clock ticks.
            let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
            let fields: Vec<u64> = after
                .split_whitespace()
                .map(|f| f.parse().unwrap_or(0))
                .collect();
            let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
            (fields.get(11).unwrap_or(&0) + fields.get(12).unwrap_or(&0)) as f64 / ticks
        };
        let before = used();
        std::thread::sleep(std::time::Duration::from_secs_f64(seconds));
        used() - before
    }

    fn websocket(
        &self,
        path: &str,
    ) -> tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>> {
        tungstenite::connect(format!("ws://{}{path}", self.address))
            .unwrap()
            .0
    }
}

impl Drop for Serve {
    /// Stops the server as an operator does (SIGTERM: it finishes its connections and drops its
    /// sessions, whose workspaces go with them), and kills it only if it has not stopped within a
    /// minute.
    fn drop(&mut self) {
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        for _ in 0..600 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        unsafe { libc::kill(self.child.id() as i32, libc::SIGKILL) };
        let _ = self.child.wait();
    }
}

/// Sends `frame` on `socket` and reads the next text frame.
fn ask(
    socket: &mut tungstenite::WebSocket<tungstenite::stream::MaybeTlsStream<std::net::TcpStream>>,
    frame: Value,
) -> Value {
    socket
        .send(tungstenite::Message::text(frame.to_string()))
        .unwrap();
    loop {
        match socket.read().unwrap() {
            tungstenite::Message::Text(text) => return serde_json::from_str(&text).unwrap(),
            tungstenite::Message::Ping(_) | tungstenite::Message::Pong(_) => continue,
            other => panic!("expected a text frame, got {other:?}"),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Class 1: the agent's code never runs as the verifier
// ---------------------------------------------------------------------------------------------

/// (how a verifier loads the agent's `solution.py` so that `f` is its function, the same as
/// `verify(solution_path)`'s body, where `solution.py` is `solution_path`). Each way is one a
/// DeepGym verifier uses.
const LOADS: &[(&str, &str)] = &[
    ("import", "import solution\nf = solution.f\n"),
    ("from-import", "from solution import f\n"),
    (
        "import_module",
        "import importlib\nf = importlib.import_module('solution').f\n",
    ),
    (
        "spec_from_file_location",
        "import importlib.util\nspec = importlib.util.spec_from_file_location('solution', PATH)\nm = importlib.util.module_from_spec(spec)\nspec.loader.exec_module(m)\nf = m.f\n",
    ),
    (
        "SourceFileLoader.load_module",
        "import importlib.machinery\nf = importlib.machinery.SourceFileLoader('solution', PATH).load_module().f\n",
    ),
    (
        "exec(open().read(), ns)",
        "ns = {}\nexec(open(PATH).read(), ns)\nf = ns['f']\n",
    ),
    // At a script's top level only (in a function, names `exec` defines are not the function's,
    // natively too): the episodes' verifiers.
    (
        "exec(open().read()) at the top level",
        "exec(open(PATH).read())\n",
    ),
    (
        "exec(compile())",
        "ns = {}\nexec(compile(open(PATH).read(), PATH, 'exec'), ns)\nf = ns['f']\n",
    ),
    (
        "exec with a harness around",
        "ns = {}\nexec('import math\\n' + open(PATH).read() + '\\nHARNESS = 1\\n', ns)\nf = ns['f']\n",
    ),
    (
        "ast.parse then compile",
        "import ast\ntree = ast.parse(open(PATH).read())\nns = {}\nexec(compile(tree, PATH, 'exec'), ns)\nf = ns['f']\n",
    ),
    (
        "runpy.run_path",
        "import runpy\nf = runpy.run_path(PATH)['f']\n",
    ),
    (
        "runpy.run_module",
        "import runpy\nf = runpy.run_module('solution')['f']\n",
    ),
];

/// The agent's attack: a verdict printed, and a successful exit, at import.
const FORGER: &str = "print('{\"score\": 1.0, \"passed\": true}')\nraise SystemExit(0)\n";

/// The honest agent: `f` squares, through a helper module of its own.
const HONEST: &str = "from helper import square\n\ndef f(x):\n    return square(x)\n";
const HELPER: &str = "def square(x):\n    return x * x\n";

/// An episode's verifier that loads the workspace's solution.py as `load` says and scores `f`.
fn episode_verifier(load: &str) -> String {
    format!(
        "import json, sys\nsys.path.insert(0, '.')\nPATH = 'solution.py'\n{load}ok = f(3) == 9\nprint(json.dumps({{'score': 1.0 if ok else 0.0}}))\n"
    )
}

/// DeepGym's `verify(solution_path)` loading the solution as `load` says.
fn deepgym_verifier(load: &str) -> String {
    let body: String = format!(
        "import sys\nsys.path.insert(0, '/solution')\nPATH = solution_path\n{load}return 1.0 if f(3) == 9 else 0.0\n"
    )
    .lines()
    .map(|l| format!("    {l}\n"))
    .collect();
    format!("def verify(solution_path, test_cases_path=None):\n{body}")
}

/// The reward of an OpenEnv episode (`/openenv/episode/ws`) whose agent writes `files` and ends.
fn openenv_episode_reward(server: &Serve, verifier: &str, files: &[(&str, &str)]) -> Value {
    let mut socket = server.websocket("/openenv/episode/ws");
    let spec = json!({"task": "Write solution.py defining f(x) = x * x.", "final_verifier_code": verifier, "max_steps": 10});
    let reset = ask(&mut socket, json!({"type": "reset", "data": spec}));
    assert_eq!(reset["type"], "observation", "{reset}");
    for (path, content) in files {
        let wrote = ask(
            &mut socket,
            json!({"type": "step", "data": {"action_type": "write_file", "path": path, "content": content}}),
        );
        assert_eq!(wrote["type"], "observation", "{wrote}");
    }
    let done = ask(
        &mut socket,
        json!({"type": "step", "data": {"action_type": "done"}}),
    );
    done["data"]["reward"].clone()
}

/// The score of a DeepGym session (`/v1/sessions`) whose agent writes `files`.
fn deepgym_session_score(server: &Serve, verifier: &str, files: &[(&str, &str)]) -> Value {
    let environment = json!({"task": "Write solution.py defining f(x) = x * x.", "final_verifier_code": verifier});
    let (status, created) = server.post("/v1/sessions", &json!({"environment": environment}));
    assert_eq!(status, 201, "{created}");
    let id = created["session_id"].as_str().unwrap();
    for (path, content) in files {
        let (status, wrote) = server.post(
            &format!("/v1/sessions/{id}/step"),
            &json!({"action_type": "write_file", "path": path, "content": content}),
        );
        assert_eq!(status, 200, "{wrote}");
    }
    let (status, scored) = server.post(&format!("/v1/sessions/{id}/score"), &json!({}));
    assert_eq!(status, 200, "{scored}");
    scored["score"].clone()
}

/// The score of a DeepGym single run (`/v1/run`) of `solution`.
fn deepgym_run_score(server: &Serve, verifier: &str, solution: &str) -> Value {
    let environment = json!({"task": "Define f(x) = x * x.", "verifier_code": verifier});
    let (status, ran) = server.post(
        "/v1/run",
        &json!({"environment": environment, "model_output": solution}),
    );
    assert_eq!(status, 200, "{ran}");
    ran["score"].clone()
}

/// A server stopped as an operator stops it (SIGTERM) drops its sessions, and their workspaces
/// go with them: nothing is left in its temporary directory.
#[test]
fn a_stopped_server_leaves_no_workspace_behind() {
    let temp = tempfile::tempdir().unwrap();
    let server = Serve::start_with_temp(&[], Some(temp.path()));
    let verifier = "def verify(*args, **kwargs):\n    return 1.0\n";
    let environment = json!({"task": "Write solution.py.", "final_verifier_code": verifier});
    let (status, created) = server.post("/v1/sessions", &json!({"environment": environment}));
    assert_eq!(status, 201, "{created}");
    let id = created["session_id"].as_str().unwrap();
    let (status, wrote) = server.post(
        &format!("/v1/sessions/{id}/step"),
        &json!({"action_type": "write_file", "path": "solution.py", "content": "x = 1\n"}),
    );
    assert_eq!(status, 200, "{wrote}");
    let left = || -> Vec<String> {
        std::fs::read_dir(temp.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert!(
        left()
            .iter()
            .any(|name| name.starts_with("rewardbox-episode-")),
        "the session's workspace is in the server's temporary directory: {:?}",
        left()
    );
    drop(server);
    assert_eq!(left(), Vec::<String>::new());
}

#[test]
fn the_agents_code_never_runs_as_the_verifier() {
    let server = Serve::start(&[]);
    let single_file_honest = "def f(x):\n    return x * x\n";
    let mut failures = Vec::new();
    for (way, load) in LOADS {
        let episode = episode_verifier(load);
        let deepgym = deepgym_verifier(load);
        let checks = [
            (
                "openenv episode, forger",
                openenv_episode_reward(&server, &episode, &[("solution.py", FORGER)]),
                0.0,
            ),
            (
                "openenv episode, honest (two files)",
                openenv_episode_reward(
                    &server,
                    &episode,
                    &[("helper.py", HELPER), ("solution.py", HONEST)],
                ),
                1.0,
            ),
            (
                "deepgym session, forger",
                deepgym_session_score(&server, &episode, &[("solution.py", FORGER)]),
                0.0,
            ),
            (
                "deepgym session, honest (two files)",
                deepgym_session_score(
                    &server,
                    &episode,
                    &[("helper.py", HELPER), ("solution.py", HONEST)],
                ),
                1.0,
            ),
        ];
        let top_level_only = way.ends_with("at the top level");
        let runs = [
            ("deepgym run, forger", top_level_only, FORGER, 0.0),
            (
                "deepgym run, honest",
                top_level_only,
                single_file_honest,
                1.0,
            ),
        ];
        let checks = checks
            .into_iter()
            .chain(
                runs.into_iter()
                    .filter(|r| !r.1)
                    .map(|(route, _, solution, expected)| {
                        (
                            route,
                            deepgym_run_score(&server, &deepgym, solution),
                            expected,
                        )
                    }),
            );
        for (route, got, expected) in checks {
            if got.as_f64() != Some(expected) {
                failures.push(format!("{way} / {route}: {got}, expected {expected}"));
            }
        }
    }
    // An answer the verifier evaluates is the agent's expression.
    let evaluates = "import json\nvalue = eval(open('answer.txt').read())\nprint(json.dumps({'score': 1.0 if value == 9 else 0.0}))\n";
    for (answer, expected) in [
        ("9", 1.0),
        (
            "print('{\"score\": 1.0}') or __import__('sys').exit(0)",
            0.0,
        ),
    ] {
        let got = openenv_episode_reward(&server, evaluates, &[("answer.txt", answer)]);
        if got.as_f64() != Some(expected) {
            failures.push(format!("eval of {answer:?}: {got}, expected {expected}"));
        }
    }
    // The environment's own files, untouched, are its code: a verifier imports them as usual.
    // Rewritten by the agent, they are the agent's, and run as a live candidate.
    let checked = "import json\nfrom checker import check\nfrom solution import f\nprint(json.dumps({'score': 1.0 if check(f) else 0.0}))\n";
    let checker = "def check(f):\n    return all(f(x) == x * x for x in range(5))\n";
    let wrong = "def f(x):\n    return x\n";
    for (files, expected) in [
        (vec![("solution.py", single_file_honest)], 1.0),
        (vec![("solution.py", wrong)], 0.0),
        (
            vec![
                ("checker.py", "def check(f):\n    return True\n"),
                ("solution.py", wrong),
            ],
            0.0,
        ),
    ] {
        let mut socket = server.websocket("/openenv/episode/ws");
        let spec = json!({"task": "Write solution.py.", "files": {"checker.py": checker}, "final_verifier_code": checked});
        assert_eq!(
            ask(&mut socket, json!({"type": "reset", "data": spec}))["type"],
            "observation"
        );
        for (path, content) in &files {
            ask(
                &mut socket,
                json!({"type": "step", "data": {"action_type": "write_file", "path": path, "content": content}}),
            );
        }
        let done = ask(
            &mut socket,
            json!({"type": "step", "data": {"action_type": "done"}}),
        );
        if done["data"]["reward"].as_f64() != Some(expected) {
            failures.push(format!(
                "checker with {files:?}: {done}, expected {expected}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Class 2: importers read the package only
// ---------------------------------------------------------------------------------------------

/// Writes `files` (path, text) under `root`.
fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

/// What `rewardbox import FORMAT DIR` writes and says: (success, tasks file, stderr).
fn import(format: &str, dir: &Path, extra: &[&str]) -> (bool, String, String) {
    let out = tempfile::NamedTempFile::new().unwrap();
    let output = rewardbox()
        .args(["import", format])
        .arg(dir)
        .arg("-o")
        .arg(out.path())
        .args(extra)
        .env("REWARDBOX_TEST_SECRET", "ENVIRONMENT-MARKER-8d1f")
        .output()
        .unwrap();
    (
        output.status.success(),
        std::fs::read_to_string(out.path()).unwrap_or_default(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn importers_read_the_package_and_nothing_else() {
    use std::os::unix::fs::symlink;
    let scratch = tempfile::tempdir().unwrap();
    let secret = scratch.path().join("secret.txt");
    std::fs::write(&secret, "HOST-FILE-MARKER-51c2\n").unwrap();
    let secret_path = secret.display().to_string();
    let base = [
        ("problem.yaml", "name: Echo\n"),
        ("data/secret/1.in", "1\n"),
        ("data/secret/1.ans", "1\n"),
    ];
    // (what the package does, how it is made, whether the import still succeeds)
    type Make = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Make, bool)> = vec![
        (
            "a submission includes /proc/self/environ through ../",
            Box::new(|root: &Path| {
                write_tree(
                    root,
                    &[(
                        "submissions/accepted/a.cpp",
                        "#include \"../../../../../../../../../../proc/self/environ\"\nint main(){}\n",
                    )],
                )
            }),
            true,
        ),
        (
            "a submission includes a host file by absolute path",
            Box::new({
                let secret_path = secret_path.clone();
                move |root: &Path| {
                    write_tree(
                        root,
                        &[(
                            "submissions/accepted/a.cpp",
                            &format!("#include \"{secret_path}\"\nint main(){{}}\n"),
                        )],
                    )
                }
            }),
            true,
        ),
        (
            "a validator's header is a link out of the package",
            Box::new({
                let secret = secret.clone();
                move |root: &Path| {
                    write_tree(
                        root,
                        &[
                            ("problem.yaml", "name: Echo\nvalidation: custom\n"),
                            (
                                "output_validators/check/check.cpp",
                                "#include \"util.h\"\nint main(){return 42;}\n",
                            ),
                        ],
                    );
                    symlink(&secret, root.join("output_validators/check/util.h")).unwrap();
                }
            }),
            true,
        ),
        (
            "a submission is a link out of the package",
            Box::new({
                let secret = secret.clone();
                move |root: &Path| {
                    std::fs::create_dir_all(root.join("submissions/accepted")).unwrap();
                    symlink(&secret, root.join("submissions/accepted/a.py")).unwrap();
                }
            }),
            true,
        ),
        (
            "a test case's input is a link out of the package",
            Box::new({
                let secret = secret.clone();
                move |root: &Path| {
                    write_tree(root, &[("data/secret/2.ans", "2\n")]);
                    symlink(&secret, root.join("data/secret/2.in")).unwrap();
                }
            }),
            false,
        ),
        (
            "a data directory links out of the package",
            Box::new({
                let dir = scratch.path().to_path_buf();
                move |root: &Path| symlink(&dir, root.join("data/secret/outside")).unwrap()
            }),
            false,
        ),
        (
            "a test case's input is a pipe",
            Box::new(|root: &Path| {
                write_tree(root, &[("data/secret/3.ans", "3\n")]);
                let fifo = std::ffi::CString::new(
                    root.join("data/secret/3.in").as_os_str().as_encoded_bytes(),
                )
                .unwrap();
                assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
            }),
            true,
        ),
        (
            "a data directory links back to its parent (a cycle)",
            Box::new(|root: &Path| {
                symlink(root.join("data"), root.join("data/secret/loop")).unwrap()
            }),
            false,
        ),
        (
            "problem.yaml is an alias bomb",
            Box::new(|root: &Path| {
                let mut bomb = String::from("name: Echo\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
                for level in 1..12 {
                    let p = level - 1;
                    bomb.push_str(&format!(
                        "a{level}: &a{level} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
                    ));
                }
                std::fs::write(root.join("problem.yaml"), bomb).unwrap();
            }),
            false,
        ),
    ];
    let mut failures = Vec::new();
    for (what, make, imports) in &cases {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("echo");
        write_tree(&root, &base);
        make(&root);
        let (ok, tasks, stderr) = import(
            "kattis",
            &root,
            &["--submissions", "--time-limit", "1", "--language", "python"],
        );
        let everything = format!("{tasks}{stderr}");
        if everything.contains("HOST-FILE-MARKER") || everything.contains("ENVIRONMENT-MARKER") {
            failures.push(format!(
                "{what}: a host file reached the output:\n{everything}"
            ));
        }
        if ok != *imports {
            failures.push(format!(
                "{what}: imported {ok}, expected {imports}:\n{stderr}"
            ));
        }
        let says_why = stderr.contains("cycle")
            || stderr.contains("aliases expand")
            || stderr.contains("outside the package");
        if !imports && !says_why {
            failures.push(format!("{what}: the refusal does not say why:\n{stderr}"));
        }
    }
    // DeepGym folders: support files named outside the folder, or linked out of it.
    for (what, names, link) in [
        ("an absolute support file", "[\"/etc/hostname\"]", false),
        (
            "a support file above the folder",
            "[\"../secret.txt\"]",
            false,
        ),
        (
            "a support file linked out of the folder",
            "[\"helpers.py\"]",
            true,
        ),
    ] {
        let dir = scratch.path().join(format!("env-{}", what.len()));
        write_tree(
            &dir,
            &[
                (
                    "verifier.py",
                    "def verify(solution_path):\n    return 1.0\n",
                ),
                ("metadata.json", &format!("{{\"support_files\": {names}}}")),
            ],
        );
        if link {
            symlink(&secret, dir.join("helpers.py")).unwrap();
        }
        let (ok, tasks, stderr) = import("deepgym", &dir, &[]);
        if ok || tasks.contains("MARKER") || !stderr.contains("outside") {
            failures.push(format!(
                "deepgym, {what}: ok {ok}, stderr {stderr}, tasks {tasks}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------------
// Class 4: work nobody waits for stops; class 5: the operator's limits and budgets hold
// ---------------------------------------------------------------------------------------------

/// Sends an HTTP request by hand on a fresh connection; the connection, open.
fn send_raw(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> std::net::TcpStream {
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        request.push_str(&format!("Host: {address}\r\n"));
    }
    for (k, v) in headers {
        request.push_str(&format!("{k}: {v}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    stream.write_all(request.as_bytes()).unwrap();
    stream
}

/// The status code of the answer to a request sent by hand.
fn raw_status(
    address: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> u16 {
    use std::io::Read;
    let mut stream = send_raw(address, method, path, headers, body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer);
    text.split_whitespace()
        .nth(1)
        .and_then(|code| code.parse().ok())
        .unwrap_or(0)
}

/// Whether `check` holds within `seconds`, looked at every 100 ms. The bounds given are far
/// above what the checks need: they only tell a stopped piece of work from one that runs on.
fn within(seconds: u64, mut check: impl FnMut() -> bool) -> bool {
    let until = std::time::Instant::now() + std::time::Duration::from_secs(seconds);
    loop {
        if check() {
            return true;
        }
        if std::time::Instant::now() > until {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

/// A Python verifier task that works for as long as its limits let it (100 s).
fn busy_task() -> Value {
    json!({"id": "busy", "verifier": "python", "verifier_code": "def verify(task, completion):\n    while True:\n        pass\n",
           "limits": {"fuel": 1_000_000_000_000u64, "wall_ms": 100_000}, "completions": ["x"]})
}

#[test]
fn work_nobody_waits_for_stops_and_gives_its_slot_back() {
    let server = Serve::start(&["--max-inflight", "1", "--max-wall-ms", "60000"]);
    let deepgym_busy = json!({"task": "t", "verifier_code": "def verify(solution_path):\n    from deepgym_solution import run_solution\n    for _ in range(10 ** 6):\n        run_solution(solution_path)\n    return 1.0\n"});
    let looping = "while True:\n    pass\n";
    let sleeping_setup = json!({"task": "t", "setup_code": "import time\ntime.sleep(100)\n", "timeout_per_step": 100, "final_verifier_code": "print('{\"score\": 1}')"});
    let routes: Vec<(&str, Value)> = vec![
        ("/score", busy_task()),
        (
            "/run_code",
            json!({"code": looping, "language": "python", "run_timeout": 100}),
        ),
        (
            "/get_reward",
            json!({"query": ["x"], "labels": [busy_task().to_string()]}),
        ),
        (
            "/verify",
            json!({"responses_create_params": {"input": []}, "response": {"output": [{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "x"}]}]}, "verifier_metadata": busy_task()}),
        ),
        (
            "/v1/run",
            json!({"environment": deepgym_busy, "model_output": looping}),
        ),
        (
            "/v1/run/batch",
            json!({"environment": deepgym_busy, "outputs": [looping, looping]}),
        ),
        (
            "/openenv/coding/step",
            json!({"action": {"code": looping, "timeout_s": 100}}),
        ),
        (
            "/openenv/coding/mcp",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "step", "arguments": {"code": looping, "timeout_s": 100}}}),
        ),
        ("/openenv/episode/reset", sleeping_setup.clone()),
        (
            "/openenv/episode/mcp",
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "reset", "arguments": sleeping_setup}}),
        ),
    ];
    let mut failures = Vec::new();
    for (route, body) in &routes {
        let stream = send_raw(
            &server.address,
            "POST",
            route,
            &[("content-type", "application/json")],
            &body.to_string(),
        );
        // Let the work start, then hang up.
        std::thread::sleep(std::time::Duration::from_millis(500));
        drop(stream);
        // An honest client is answered (not refused with 429) once the work has stopped.
        let honest = || {
            server.post("/score", &json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]})).0 == 200
        };
        if !within(30, honest) {
            failures.push(format!(
                "{route}: the abandoned work still held the server's only slot 30 s after the hang-up"
            ));
        } else if server.metric("rewardbox_inflight_slots_held") != Some(0.0) {
            failures.push(format!(
                "{route}: /metrics does not show the slot given back"
            ));
        }
        // The slot given back, the work is over: the server burns no more CPU (a busy loop
        // still running would burn seconds of it in these 3).
        let burnt = server.cpu_seconds_over(3.0);
        if burnt > 1.0 {
            failures.push(format!(
                "{route}: the abandoned work still runs ({burnt:.1} s of CPU in the 3 s after its slot came back)"
            ));
            // Let it end before the next route.
            within(120, || server.cpu_seconds_over(1.0) < 0.2);
        }
    }
    // A WebSocket session's reset stops when its client goes away, and gives its place back: on
    // a server with one session place, the next client gets it.
    let one_place = Serve::start(&["--max-sessions", "1", "--max-wall-ms", "60000"]);
    let mut socket = one_place.websocket("/openenv/episode/ws");
    socket
        .send(tungstenite::Message::text(
            json!({"type": "reset", "data": {"task": "t", "setup_code": "import time\ntime.sleep(100)\n", "timeout_per_step": 100, "final_verifier_code": "print('{\"score\": 1}')"}}).to_string(),
        ))
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    drop(socket);
    let mut last = Value::Null;
    let place_came_back = within(30, || {
        let Ok((mut next, _)) =
            tungstenite::connect(format!("ws://{}/openenv/episode/ws", one_place.address))
        else {
            return false;
        };
        let reset = json!({"type": "reset", "data": {"task": "t", "final_verifier_code": "print('{\"score\": 1}')"}});
        if next
            .send(tungstenite::Message::text(reset.to_string()))
            .is_err()
        {
            return false;
        }
        last = match next.read() {
            Ok(tungstenite::Message::Text(text)) => {
                serde_json::from_str(&text).unwrap_or(Value::Null)
            }
            other => Value::String(format!("{other:?}")),
        };
        last["type"] == "observation"
    });
    if !place_came_back {
        failures.push(format!(
            "/openenv/episode/ws: an abandoned reset still held the only session place 30 s after its client left: {last}"
        ));
    }
    if !within(30, || {
        one_place.metric("rewardbox_live_sessions") == Some(0.0)
    }) {
        failures.push("/openenv/episode/ws: /metrics does not show the place given back".into());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_operators_limits_and_budgets_hold_whatever_clients_do() {
    let server = Serve::start(&[
        "--max-wall-ms",
        "2000",
        "--session-memory-mb",
        "600",
        "--disk-budget-mb",
        "220",
    ]);
    let mut failures: Vec<String> = Vec::new();
    let mut expect = |holds: bool, what: String| {
        if !holds {
            failures.push(what);
        }
    };
    // An episode asks for 60 s per step; the operator allows 2: its sleeping setup is stopped.
    let mut episode = server.websocket("/openenv/episode/ws");
    let reset = ask(
        &mut episode,
        json!({"type": "reset", "data": {"task": "t", "setup_code": "import time\ntime.sleep(30)\nprint('slept')\n", "timeout_per_step": 60, "final_verifier_code": "print('{\"score\": 1}')"}}),
    );
    expect(
        reset["type"] == "error" && reset.to_string().contains("wall-clock limit of 2000 ms"),
        format!("a setup asking for 60 s ran past the operator's 2 s: {reset}"),
    );
    drop(episode);

    // Frames sent while a step runs wait in a bounded queue: a flood closes the connection.
    let mut flooded = server.websocket("/openenv/coding/ws");
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = flooded.get_ref() {
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(60)))
            .unwrap();
    }
    let opened = ask(&mut flooded, json!({"type": "reset", "data": {}}));
    expect(opened["type"] == "observation", format!("{opened}"));
    let step = json!({"type": "step", "data": {"code": "while True:\n    pass\n", "timeout_s": 2}})
        .to_string();
    let mut closed = false;
    for _ in 0..200 {
        if flooded
            .send(tungstenite::Message::text(step.clone()))
            .is_err()
        {
            closed = true;
            break;
        }
    }
    let mut saw_policy = false;
    // Answers may come before the close; a server that answers every frame instead is given 60 s.
    let drain_until = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !closed && std::time::Instant::now() < drain_until {
        match flooded.read() {
            Ok(tungstenite::Message::Close(frame)) => {
                saw_policy = frame.is_some_and(|f| {
                    f.code == tungstenite::protocol::frame::coding::CloseCode::Policy
                });
                closed = true;
            }
            Ok(_) => {}
            Err(_) => closed = true,
        }
    }
    expect(
        saw_policy,
        "a flood of 200 frames during a step did not close the connection with a policy error"
            .into(),
    );
    drop(flooded);
    // The closed connections' sessions are dropped off the async workers: wait for them.
    expect(
        within(60, || server.metric("rewardbox_live_sessions") == Some(0.0)),
        "the closed connections' sessions still count in /metrics after 60 s".into(),
    );

    // Sessions holding instances (256 MiB each, and a /tmp of 32 MiB) fit the 600 MiB budget
    // twice; episodes (64 MiB of workspace each) then fit the 220 MiB disk budget twice.
    let mut sessions = Vec::new();
    for _ in 0..2 {
        let mut socket = server.websocket("/openenv/coding/ws");
        let opened = ask(&mut socket, json!({"type": "reset", "data": {}}));
        expect(opened["type"] == "observation", format!("{opened}"));
        sessions.push(socket);
    }
    let mut third = server.websocket("/openenv/coding/ws");
    let refused = ask(&mut third, json!({"type": "reset", "data": {}}));
    expect(
        refused["type"] == "error" && refused.to_string().contains("--session-memory-mb"),
        format!("a third 256 MiB session was not refused by the 600 MiB memory budget: {refused}"),
    );
    let environment = json!({"task": "t", "final_verifier_code": "print('{\"score\": 1}')"});
    for _ in 0..2 {
        let (status, created) = server.post("/v1/sessions", &json!({"environment": environment}));
        expect(status == 201, format!("{status} {created}"));
    }
    let (status, refused) = server.post("/v1/sessions", &json!({"environment": environment}));
    expect(
        status == 429 && refused.to_string().contains("--disk-budget-mb"),
        format!(
            "a third 64 MiB workspace was not refused by the 220 MiB disk budget: {status} {refused}"
        ),
    );
    let gauges = [
        ("rewardbox_session_memory_held_bytes", (512u64 << 20) as f64),
        ("rewardbox_disk_held_bytes", (192u64 << 20) as f64),
        ("rewardbox_live_sessions", 4.0),
    ];
    for (gauge, value) in gauges {
        let shown = server.metric(gauge);
        expect(
            shown == Some(value),
            format!("/metrics shows {gauge} {shown:?}, held {value}"),
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Class 6: what a web page sends a server without a token is refused
// ---------------------------------------------------------------------------------------------

#[test]
fn a_web_page_cannot_drive_a_server_without_a_token() {
    let server = Serve::start(&[
        "--allow-host",
        "rewardbox.internal",
        "--allow-origin",
        "https://ui.example",
    ]);
    let address = server.address.clone();
    let port = address.rsplit(':').next().unwrap().to_string();
    let score =
        json!({"id": "q", "verifier": "exact", "reference": "a", "completions": ["a"]}).to_string();
    let evil_host = format!("evil.example:{port}");
    let own_origin = format!("http://{address}");
    /// (what the request is, its headers, the status it gets)
    type Case<'a> = (&'a str, Vec<(&'a str, &'a str)>, u16);
    let table: Vec<Case> = vec![
        ("a client (no Origin, the address as Host)", vec![], 200),
        ("localhost", vec![("Host", "localhost")], 200),
        ("an allowed name", vec![("Host", "rewardbox.internal")], 200),
        (
            "a rebound name (DNS rebinding)",
            vec![("Host", &evil_host)],
            403,
        ),
        (
            "a name that starts like localhost",
            vec![("Host", "localhost.evil.example")],
            403,
        ),
        (
            "a cross-site text/plain POST",
            vec![
                ("Origin", "http://evil.example"),
                ("content-type", "text/plain"),
            ],
            403,
        ),
        (
            "a sandboxed page (Origin null)",
            vec![("Origin", "null")],
            403,
        ),
        (
            "an allowed origin",
            vec![("Origin", "https://ui.example")],
            200,
        ),
        (
            "the server's own origin",
            vec![("Origin", &own_origin)],
            200,
        ),
    ];
    let mut failures = Vec::new();
    for (what, headers, expected) in &table {
        let status = raw_status(&address, "POST", "/score", headers, &score);
        if status != *expected {
            failures.push(format!("{what}: {status}, expected {expected}"));
        }
    }
    // A WebSocket from another site is refused at the upgrade.
    for (origin, allowed) in [("http://evil.example", false), ("https://ui.example", true)] {
        let mut request = tungstenite::client::IntoClientRequest::into_client_request(format!(
            "ws://{address}/openenv/coding/ws"
        ))
        .unwrap();
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
        let opened = tungstenite::connect(request).is_ok();
        if opened != allowed {
            failures.push(format!("a WebSocket from {origin}: opened {opened}"));
        }
    }
    // With a token, the token is the defence: any name may be used.
    let guarded = Serve::start(&["--token", "t0k"]);
    let status = raw_status(
        &guarded.address,
        "POST",
        "/score",
        &[
            ("Host", "rewardbox.example"),
            ("Authorization", "Bearer t0k"),
        ],
        &score,
    );
    if status != 200 {
        failures.push(format!("a named host with the token: {status}"));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Class 7: compilers reveal nothing of the host
// ---------------------------------------------------------------------------------------------

#[test]
fn compilers_reveal_nothing_of_the_host() {
    let scratch = tempfile::tempdir().unwrap();
    let exists = scratch.path().join("exists.txt");
    std::fs::write(&exists, "x").unwrap();
    let missing = scratch.path().join("missing.txt");
    let programs = |path: &Path| -> Vec<(&'static str, String)> {
        let path = path.display();
        vec![
            ("cpp", format!("#include \"{path}\"\nint main() {{}}\n")),
            (
                "c",
                format!("#include \"{path}\"\nint main(void) {{ return 0; }}\n"),
            ),
            (
                "rust",
                format!(
                    "const X: &str = include_str!(\"{path}\");\nfn main() {{ println!(\"{{X}}\"); }}\n"
                ),
            ),
        ]
    };
    let task = |language: &str, source: &str| {
        json!({"id": language, "verifier": "code", "language": language, "extract": "whole",
               "tests": {"stdio": [{"stdin": "", "stdout": "ok\n"}]}, "completions": [source]})
    };
    let detail = |result: &Value| {
        result["results"][0]["cases"][0]["detail"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    let mut tasks = Vec::new();
    for path in [&exists, &missing] {
        for (language, source) in programs(path) {
            tasks.push(task(language, &source));
        }
    }
    // What rustc's environment says at compile time.
    tasks.push(task(
        "rust",
        "fn main() { println!(\"{:?} {:?} {:?}\", option_env!(\"HOME\"), option_env!(\"TMPDIR\"), option_env!(\"PWD\")); }\n",
    ));
    let results = score(&tasks);
    let languages = programs(&exists).len();
    let mut failures = Vec::new();
    for i in 0..languages {
        let (denied, absent) = (&results[i], &results[i + languages]);
        let denied_text = detail(denied).replace(&exists.display().to_string(), "PATH");
        let absent_text = detail(absent).replace(&missing.display().to_string(), "PATH");
        if denied_text != absent_text || denied["results"][0]["status"] != "ok" {
            failures.push(format!(
                "{}: a host file that exists reads differently from one that does not:\n{denied_text}\n---\n{absent_text}",
                denied["id"]
            ));
        }
    }
    let env = &results[2 * languages];
    let printed = env["results"][0]["cases"][0]["detail"].to_string();
    assert!(
        printed.contains("got") && printed.contains("None"),
        "the program's output is seen: {env}"
    );
    for leak in ["/tmp", "rewardbox-compile", "/root", "/home"] {
        if printed.contains(leak) {
            failures.push(format!("rustc's environment shows {leak}: {printed}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
