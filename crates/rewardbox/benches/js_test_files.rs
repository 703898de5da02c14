//! A JavaScript test file of 20 tests (`tests.jest`, `tests.node_test`) against the test-code form
//! with the same 20 checks (`tests.asserts`: `assert.deepStrictEqual` lines calling the live
//! candidate), same machine, same run: each completion a distinct program, graded one at a time
//! on one thread, so the figure is the cost of one completion. Each form is timed twice, in
//! turn, and reported as a range. Beside them, natively and unsandboxed: Jest 29.7.0 (as
//! SandboxFusion runs it, one `jest` process per completion) and `node --test`, one process per
//! completion, on the same files.
//!
//! Run: `cargo bench --bench js_test_files` (native Jest from `scripts/native-jest.sh`, Node from
//! `REWARDBOX_NODE`, as `scripts/test.sh` sets them up).

use rewardbox::{ComponentCache, Scorer, ScorerOptions, Task};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

#[path = "support/twenty_checks.rs"]
mod twenty_checks;
use twenty_checks::{checks, range};

/// Distinct completions graded per form and round.
const COMPLETIONS: usize = 30;

const PROGRAM: &str = "function sortDistinct(xs) {\n  return [...new Set(xs)].sort((a, b) => a - b);\n}\nmodule.exports = { sortDistinct };\n";

fn forms() -> Vec<(&'static str, Value)> {
    let checks = checks();
    let asserts: String = checks
        .iter()
        .map(|(xs, e)| format!("  assert.deepStrictEqual(sortDistinct({xs}), {e});\n"))
        .collect();
    let jest: String = checks
        .iter()
        .enumerate()
        .map(|(i, (xs, e))| {
            format!(
                "\ntest('case {i}', () => {{\n  expect(sortDistinct({xs})).toEqual({e});\n}});\n"
            )
        })
        .collect();
    let rows: Vec<String> = checks
        .iter()
        .map(|(xs, e)| format!("  [{xs}, {e}],"))
        .collect();
    let node: String = checks
        .iter()
        .enumerate()
        .map(|(i, (xs, e))| format!("\ntest('case {i}', () => {{\n  assert.deepStrictEqual(sortDistinct({xs}), {e});\n}});\n"))
        .collect();
    vec![
        (
            "test code (asserts)",
            json!({"declaration": "function sortDistinct(xs) {", "asserts": format!("const assert = require('node:assert');\nfunction test() {{\n{asserts}}}\ntest();\n")}),
        ),
        (
            "jest, 20 tests",
            json!({"jest": format!("const {{ sortDistinct }} = require('./solution');\n{jest}")}),
        ),
        (
            "jest, test.each",
            json!({"jest": format!(
                "const {{ sortDistinct }} = require('./solution');\n\nconst CASES = [\n{}\n];\n\n\
                 test.each(CASES)('case %#', (xs, expected) => {{\n  expect(sortDistinct(xs)).toEqual(expected);\n}});\n",
                rows.join("\n")
            )}),
        ),
        (
            "node:test, 20 tests",
            json!({"node_test": format!("const test = require('node:test');\nconst assert = require('node:assert');\nconst {{ sortDistinct }} = require('./solution');\n{node}")}),
        ),
    ]
}

/// Seconds per completion for `tests`, `COMPLETIONS` distinct programs graded one at a time.
fn time(scorer: &Scorer, tests: &Value, round: usize) -> f64 {
    let start = Instant::now();
    for i in 0..COMPLETIONS {
        let task = json!({
            "id": format!("bench-{round}-{i}"),
            "verifier": "code",
            "language": "javascript",
            "extract": "whole",
            "tests": tests,
            "completions": [format!("{PROGRAM}// completion {round}-{i}\n")],
        });
        let task = Task::from_value(task).expect("a task");
        let results = scorer.score_tasks(std::slice::from_ref(&task));
        let outcome = &results[0].results[0];
        assert!(
            outcome.passed && outcome.cases.len() == 20,
            "the right program must pass all 20: {:?} {} {:?}",
            outcome.status,
            outcome.detail,
            outcome.cases
        );
    }
    start.elapsed().as_secs_f64() / COMPLETIONS as f64
}

fn node() -> PathBuf {
    std::env::var_os("REWARDBOX_NODE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("node"))
}

/// Seconds per completion natively: `command` run in a fresh directory per completion holding
/// the test file `file` and the program.
fn native(
    file: &str,
    test: &str,
    command: &dyn Fn(&Path) -> std::process::Command,
    round: usize,
) -> f64 {
    let scratch = tempfile::tempdir().expect("a temp dir");
    let dirs: Vec<PathBuf> = (0..COMPLETIONS)
        .map(|i| {
            let dir = scratch.path().join(i.to_string());
            std::fs::create_dir_all(&dir).expect("a dir");
            std::fs::write(dir.join(file), test).expect("the tests");
            // A project, as SandboxFusion's: Jest looks for its configuration there.
            std::fs::write(dir.join("package.json"), "{\"private\": true}\n")
                .expect("a package.json");
            std::fs::write(
                dir.join("solution.js"),
                format!("{PROGRAM}// completion {round}-{i}\n"),
            )
            .expect("the program");
            dir
        })
        .collect();
    let start = Instant::now();
    for dir in &dirs {
        let status = command(dir)
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("the native runner");
        assert!(
            status.success(),
            "the native runner failed the right program in {}",
            dir.display()
        );
    }
    start.elapsed().as_secs_f64() / COMPLETIONS as f64
}

fn main() {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("js-test-files-cache");
    let scorer = Scorer::new(ScorerOptions {
        threads: Some(1),
        cache: ComponentCache::in_dir(&cache),
        ..Default::default()
    })
    .expect("scorer");
    let forms = forms();
    for (_, tests) in &forms {
        time(&scorer, tests, 100);
    }
    let mut seconds: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    for round in 0..2 {
        for (index, (_, tests)) in forms.iter().enumerate() {
            seconds[index].push(time(&scorer, tests, round));
        }
    }
    let jest_dir = std::env::var_os("REWARDBOX_JEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/native-jest")
        });
    let jest_bin = jest_dir.join("node_modules/jest/bin/jest.js");
    let jest_test = forms[1].1["jest"].as_str().unwrap().to_string();
    let node_test = forms[3].1["node_test"].as_str().unwrap().to_string();
    let native_jest: Vec<f64> = (0..2)
        .map(|round| {
            native(
                "solution.test.js",
                &jest_test,
                &|dir: &Path| {
                    let mut c = std::process::Command::new(node());
                    c.arg(&jest_bin)
                        .args(["--ci", "--watchman=false", "--rootDir"])
                        .arg(dir);
                    c
                },
                round,
            )
        })
        .collect();
    let native_node: Vec<f64> = (0..2)
        .map(|round| {
            native(
                "solution.test.js",
                &node_test,
                &|_dir: &Path| {
                    let mut c = std::process::Command::new(node());
                    c.args(["--test", "solution.test.js"]);
                    c
                },
                round,
            )
        })
        .collect();
    let (base_lo, base_hi) = range(&seconds[0]);
    println!("{COMPLETIONS} distinct completions per form and round, 20 checks each, one thread:");
    for ((name, _), s) in forms.iter().zip(&seconds) {
        let (lo, hi) = range(s);
        println!(
            "  {name:<22} {:>6.1}-{:<6.1} ms per completion   {:.2}-{:.2}x the test code",
            lo * 1e3,
            hi * 1e3,
            lo / base_hi,
            hi / base_lo
        );
    }
    for (name, s) in [
        ("native jest", &native_jest),
        ("native node --test", &native_node),
    ] {
        let (lo, hi) = range(s);
        println!(
            "  {name:<22} {:>6.1}-{:<6.1} ms per completion   (unsandboxed, a process each)",
            lo * 1e3,
            hi * 1e3
        );
    }
}
