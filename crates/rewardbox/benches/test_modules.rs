//! A test module of 20 tests against the asserts form with the same 20 checks, same machine, same
//! run: each completion a distinct program (a GRPO group's completions differ), graded one at a
//! time on one thread, so the figure is the cost of one completion.
//!
//! Forms: HumanEval-style asserts (`def check(candidate)` of 20 asserts) as rewardbox runs them
//! (planned: the host runs the calls) and live (a checking sandbox of its own, as the test modules
//! are run); `tests.pytest` as 20 test functions and as one function parametrized 20 ways; and
//! `tests.unittest` as 20 `TestCase` methods. Each form is timed twice, in turn, and reported as a
//! range. Target (issue 50): pytest at most twice the asserts form's time. Beside them, for scale,
//! native pytest on the same files, unsandboxed, one `python -m pytest` process per completion (as
//! SandboxFusion's pytest mode runs it), from `.venv`.
//!
//! Run: `cargo bench --bench test_modules` (the Python runner must be in the build, with pytest:
//! run `scripts/python-tools.sh` before building).

use rewardbox::{ComponentCache, Scorer, ScorerOptions, Task};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Instant;

#[path = "support/twenty_checks.rs"]
mod twenty_checks;
use twenty_checks::{checks, range};

/// Distinct completions graded per form and round.
const COMPLETIONS: usize = 40;

const PROGRAM: &str = "def sort_distinct(xs):\n    return sorted(set(xs))\n";

fn forms() -> Vec<(&'static str, Value)> {
    let checks = checks();
    let asserts: String = checks
        .iter()
        .map(|(xs, e)| format!("    assert candidate({xs}) == {e}\n"))
        .collect();
    let functions: String = checks
        .iter()
        .enumerate()
        .map(|(i, (xs, e))| format!("\ndef test_{i}():\n    assert sort_distinct({xs}) == {e}\n"))
        .collect();
    let rows: Vec<String> = checks
        .iter()
        .map(|(xs, e)| format!("    ({xs}, {e}),"))
        .collect();
    let methods: String = checks
        .iter()
        .enumerate()
        .map(|(i, (xs, e))| {
            format!(
                "    def test_{i}(self):\n        self.assertEqual(sort_distinct({xs}), {e})\n\n"
            )
        })
        .collect();
    vec![
        (
            "asserts (planned)",
            json!({"asserts": format!("def check(candidate):\n{asserts}"), "entry_point": "sort_distinct"}),
        ),
        (
            "asserts (live)",
            json!({"asserts": format!("def check(candidate):\n{asserts}"), "entry_point": "sort_distinct"}),
        ),
        (
            "pytest, 20 functions",
            json!({"pytest": format!("from solution import sort_distinct\n{functions}")}),
        ),
        (
            "pytest, parametrize",
            json!({"pytest": format!(
                "import pytest\nfrom solution import sort_distinct\n\nCASES = [\n{}\n]\n\n\
                 @pytest.mark.parametrize('xs, expected', CASES)\ndef test_sort(xs, expected):\n    assert sort_distinct(xs) == expected\n",
                rows.join("\n")
            )}),
        ),
        (
            "unittest, 20 methods",
            json!({"unittest": format!(
                "import unittest\nfrom solution import sort_distinct\n\n\nclass TestSort(unittest.TestCase):\n{methods}"
            )}),
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
            "extract": "whole",
            "tests": tests,
            "completions": [format!("{PROGRAM}# completion {round}-{i}\n")],
        });
        let task = Task::from_value(task).expect("a task");
        let results = scorer.score_tasks(std::slice::from_ref(&task));
        let outcome = &results[0].results[0];
        assert!(
            outcome.passed && outcome.cases.len() == 20,
            "the right program must pass all 20: {:?} {}",
            outcome.status,
            outcome.detail
        );
    }
    start.elapsed().as_secs_f64() / COMPLETIONS as f64
}

fn main() {
    let cache = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-modules-cache");
    let options = || ScorerOptions {
        threads: Some(1),
        cache: ComponentCache::in_dir(&cache),
        ..Default::default()
    };
    let planned = Scorer::new(options()).expect("scorer");
    let live = Scorer::new(options()).expect("scorer");
    live.services().set_planned_asserts(false);
    let forms = forms();
    // Warm both (components loaded, tasks' preparations made).
    for (name, tests) in &forms {
        let scorer = if *name == "asserts (live)" {
            &live
        } else {
            &planned
        };
        time(scorer, tests, 100);
    }
    let mut seconds: Vec<Vec<f64>> = vec![Vec::new(); forms.len()];
    for round in 0..2 {
        for (index, (name, tests)) in forms.iter().enumerate() {
            let scorer = if *name == "asserts (live)" {
                &live
            } else {
                &planned
            };
            seconds[index].push(time(scorer, tests, round));
        }
    }
    let native: Vec<f64> = (0..2)
        .map(|round| native_pytest(&forms[2].1, round))
        .collect();
    let (asserts_lo, asserts_hi) = range(&seconds[0]);
    println!("{COMPLETIONS} distinct completions per form and round, 20 checks each, one thread:");
    for ((name, _), s) in forms.iter().zip(&seconds) {
        let (lo, hi) = range(s);
        println!(
            "  {name:<22} {:>6.1}-{:<6.1} ms per completion   {:.2}-{:.2}x the planned asserts",
            lo * 1e3,
            hi * 1e3,
            lo / asserts_hi,
            hi / asserts_lo
        );
    }
    let (lo, hi) = range(&native);
    println!(
        "  {:<22} {:>6.1}-{:<6.1} ms per completion   (unsandboxed, a process each)",
        "native pytest",
        lo * 1e3,
        hi * 1e3
    );
}

/// Seconds per completion for native pytest on the pytest form's file: a fresh process per
/// completion, each with its own directory holding the test module and the program.
fn native_pytest(tests: &Value, round: usize) -> f64 {
    let python = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python");
    let scratch = tempfile::tempdir().expect("a temp dir");
    let test = tests["pytest"].as_str().expect("the pytest form");
    let dirs: Vec<PathBuf> = (0..COMPLETIONS)
        .map(|i| {
            let dir = scratch.path().join(i.to_string());
            std::fs::create_dir_all(&dir).expect("a dir");
            std::fs::write(dir.join("test_solution.py"), test).expect("the tests");
            std::fs::write(
                dir.join("solution.py"),
                format!("{PROGRAM}# completion {round}-{i}\n"),
            )
            .expect("the program");
            dir
        })
        .collect();
    let start = Instant::now();
    for dir in &dirs {
        let status = std::process::Command::new(&python)
            .args([
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "test_solution.py",
            ])
            .current_dir(dir)
            .stdout(std::process::Stdio::null())
            .status()
            .expect("native pytest (scripts/python-tools.sh installs it in .venv)");
        assert!(status.success(), "native pytest failed the right program");
    }
    start.elapsed().as_secs_f64() / COMPLETIONS as f64
}
