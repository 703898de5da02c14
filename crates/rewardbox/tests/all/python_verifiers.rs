//! Verifiers written in Python (`"verifier": "python"` with `verifier_code`, or a `.py` path),
//! through the real sandboxed path: rewardbox's signature with its helper module, DeepGym's
//! signature unmodified (the project's own DeepGym-format environments in tests/data/deepgym),
//! and verifiers that fail in every way, each a masked `verifier_error` (or `invalid_task` for a
//! broken task) while the neighbours in the batch score normally.

use crate::common;

use common::scorer;
use rewardbox::{CaseStatus, CompletionResult};
use rewardbox::{Scorer, Status, Task, TaskResult};
use serde_json::{Value, json};
use std::path::PathBuf;

fn fenced(code: &str) -> String {
    format!("```python\n{code}\n```")
}

fn task_result(s: &Scorer, task: Value) -> TaskResult {
    s.score_task(&Task::from_value(task).expect("valid task"))
}

fn score(s: &Scorer, task: Value) -> Vec<CompletionResult> {
    let result = task_result(s, task);
    assert_eq!(result.status, None, "{:?}", result.detail);
    result.results
}

fn python_task(code: &str, fields: Value, completions: &[String]) -> Value {
    let mut task = json!({"id": "py", "verifier": "python", "verifier_code": code, "completions": completions});
    for (k, v) in fields.as_object().unwrap() {
        task[k] = v.clone();
    }
    task
}

const ADD_VERIFIER: &str = r#"
import rewardbox

def verify(task, completion):
    program = rewardbox.extract_code(completion)
    if program is None:
        return 0.0
    solution = rewardbox.open_candidate(program)
    cases = []
    for a, b in task["pairs"]:
        try:
            ok = solution.add(a, b) == a + b
        except rewardbox.CandidateError as e:
            cases.append({"id": f"{a}+{b}", "passed": False, "status": e.status, "detail": str(e)})
            continue
        cases.append({"id": f"{a}+{b}", "passed": ok})
    passed = sum(c["passed"] for c in cases)
    return {"score": passed / len(cases), "details": f"{passed}/{len(cases)}", "cases": cases}
"#;

#[test]
fn rewardbox_signature_with_the_helper_module() {
    let s = scorer();
    let r = score(
        &s,
        python_task(
            ADD_VERIFIER,
            json!({"pairs": [[2, 2], [3, 4], [-1, 1]], "candidate_limits": {"fuel": 300000000}}),
            &[
                fenced("def add(a, b):\n    return a + b"),
                "def add(a, b):\n    return a * b".into(),
                fenced("def add(a, b):\n    while True:\n        pass"),
                "no code here".into(),
            ],
        ),
    );
    assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
    assert_eq!(r[0].cases.len(), 3);
    assert!((r[1].score - 1.0 / 3.0).abs() < 1e-9, "{}", r[1].detail);
    assert_eq!(r[2].score, 0.0);
    assert_eq!(
        r[2].cases[0].status,
        CaseStatus::FuelExhausted,
        "{:?}",
        r[2].cases
    );
    assert_eq!(
        r[2].cases[1].status,
        CaseStatus::FuelExhausted,
        "an ended candidate stays ended"
    );
    assert_eq!(r[3].score, 0.0);
    assert!(r.iter().all(|c| c.status == Status::Ok));
}

#[test]
fn objects_stay_in_the_candidate_and_programs_run_on_stdin() {
    let s = scorer();
    let verifier = r#"
import rewardbox

def verify(task, completion):
    module = rewardbox.open_candidate(rewardbox.extract_code(completion))
    counter = module.Counter(10)
    counter.add(5)
    counter.add(-2)
    ok = [counter.total() == 13, isinstance(counter, module.Counter), counter != 13]
    run = rewardbox.run_program("print(input()[::-1])", "abc")
    ok.append(run.ok and run.stdout == "cba\n")
    return all(ok)
"#;
    let r = score(
        &s,
        python_task(
            verifier,
            json!({}),
            &[
                fenced(
                    "class Counter:\n    def __init__(self, start):\n        self.n = start\n    def add(self, k):\n        self.n += k\n    def total(self):\n        return self.n",
                ),
                fenced(
                    "class Counter:\n    def __init__(self, start):\n        pass\n    def add(self, k):\n        pass\n    def total(self):\n        class Yes:\n            def __eq__(self, o):\n                return True\n        return Yes()",
                ),
            ],
        ),
    );
    assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
    assert_eq!(
        r[1].score, 0.0,
        "an always-equal object is a handle that equals only itself: {}",
        r[1].detail
    );
}

fn deepgym_dir(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/deepgym")
        .join(name)
}

/// The task `rewardbox import deepgym` makes of the folder `dir` (crates/rewardbox-cli/tests/all/cli.rs checks the importer
/// itself): its verifier, reference solution, test cases and support files.
fn deepgym_folder(dir: &std::path::Path) -> Value {
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    let mut task = json!({"id": dir.file_name().unwrap().to_str(), "verifier": "python",
                          "verifier_code": read("verifier.py").unwrap()});
    if let Some(solution) = read("reference_solution.py") {
        task["solution"] = json!(solution);
    }
    if let Some(cases) = read("test_cases.json") {
        task["test_cases"] = serde_json::from_str(&cases).unwrap();
    }
    let metadata: Value =
        read("metadata.json").map_or(json!({}), |m| serde_json::from_str(&m).unwrap());
    if let Some(names) = metadata["support_files"].as_array() {
        let files: serde_json::Map<String, Value> = names
            .iter()
            .map(|n| n.as_str().unwrap())
            .map(|n| (n.to_string(), json!(read(n).unwrap())))
            .collect();
        task["support_files"] = Value::Object(files);
    }
    task
}

/// The project's DeepGym-format environments, as `rewardbox import deepgym` writes them, with
/// the reference solution and a wrong one as completions.
fn deepgym_task(name: &str, wrong: &str) -> Value {
    let mut task = deepgym_folder(&deepgym_dir(name));
    let solution = task["solution"].as_str().unwrap().to_string();
    task["completions"] = json!([solution, wrong]);
    task
}

#[test]
fn deepgym_verifiers_run_unmodified() {
    let s = scorer();
    let cases = [
        // deepgym_solution.load_solution and test_cases.json
        ("running_sum", "def running_sum(values):\n    return values"),
        // importlib.util.spec_from_file_location + inspect.getsource on the solution
        (
            "word_lengths",
            "import collections\ndef word_lengths(text):\n    return dict(collections.Counter(text.split()))",
        ),
        // run_solution on standard input
        ("shout", "import sys\nprint(sys.stdin.read().lower())"),
        // a class driven through handles
        (
            "min_stack",
            "class MinStack:\n    def __init__(self):\n        self.items = []\n    def push(self, x):\n        self.items.append(x)\n    def pop(self):\n        return self.items.pop()\n    def top(self):\n        return self.items[-1]\n    def get_min(self):\n        return self.items[0]",
        ),
    ];
    for (name, wrong) in cases {
        let r = score(&s, deepgym_task(name, wrong));
        assert_eq!(r[0].score, 1.0, "{name}: reference: {}", r[0].detail);
        assert!(r[1].score < 1.0, "{name}: wrong solution: {}", r[1].detail);
        assert!(
            r.iter().all(|c| c.status == Status::Ok),
            "{name}: {:?}",
            r.iter().map(|c| &c.detail).collect::<Vec<_>>()
        );
    }
    // word_lengths reads the solution's source: the forbidden module is seen.
    let r = score(
        &s,
        deepgym_task(
            "word_lengths",
            "import collections\ndef word_lengths(text):\n    return dict(collections.Counter(text.split()))",
        ),
    );
    assert!(r[1].detail.contains("uses collections"), "{}", r[1].detail);
}

#[test]
fn deepgym_body_form_and_a_verifier_file_path() {
    let s = scorer();
    let body = "source = open(solution_path).read()\nreturn 1.0 if 'def sort' in source else 0.0\n";
    let r = score(
        &s,
        python_task(
            body,
            json!({}),
            &["def sort(x):\n    return sorted(x)".into(), "x = 1".into()],
        ),
    );
    assert_eq!(
        r.iter().map(|c| c.score).collect::<Vec<_>>(),
        vec![1.0, 0.0]
    );
    let path = deepgym_dir("running_sum").join("verifier.py");
    let r = score(
        &s,
        json!({"id": "p", "verifier": path.to_str().unwrap(),
               "test_cases": [{"input": [1, 1], "expected": [1, 2]}],
               "completions": ["def running_sum(v):\n    out, t = [], 0\n    for x in v:\n        t += x\n        out.append(t)\n    return out"]}),
    );
    assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
}

#[test]
fn failing_verifiers_are_masked_and_neighbours_score() {
    let s = scorer();
    let bad: Vec<(&str, &str, &str)> = vec![
        (
            "loops",
            "def verify(task, completion):\n    while True:\n        pass",
            "ran out of fuel",
        ),
        (
            "allocates",
            "def verify(task, completion):\n    x = []\n    while True:\n        x.append(bytearray(1 << 20))",
            "memory limit",
        ),
        (
            "raises",
            "def verify(task, completion):\n    raise KeyError('missing')",
            "KeyError",
        ),
        (
            "returns text",
            "def verify(task, completion):\n    return 'yes'",
            "returned a str",
        ),
        (
            "returns NaN",
            "def verify(task, completion):\n    return float('nan')",
            "outside [0, 1]",
        ),
        (
            "returns 1.5",
            "def verify(task, completion):\n    return 1.5",
            "outside [0, 1]",
        ),
        (
            "passed is not a bool",
            "def verify(task, completion):\n    return {'score': 1.0, 'passed': 'yes'}",
            "passed must be True or False",
        ),
        (
            "starts a process, and catches the error",
            "import subprocess\ndef verify(task, completion):\n    try:\n        subprocess.run(['ls'])\n    except BaseException:\n        pass\n    return 1.0",
            "subprocess.run is not available",
        ),
        (
            "opens a socket",
            "import socket\ndef verify(task, completion):\n    socket.create_connection(('example.com', 80))\n    return 1.0",
            "socket",
        ),
    ];
    let mut tasks = Vec::new();
    for (i, (_, code, _)) in bad.iter().enumerate() {
        let mut task = python_task(
            code,
            json!({"limits": {"fuel": 200000000, "memory_mb": 64}}),
            &["x".into()],
        );
        task["id"] = json!(format!("bad{i}"));
        tasks.push(Task::from_value(task).unwrap());
    }
    let good = python_task(
        ADD_VERIFIER,
        json!({"pairs": [[1, 2]]}),
        &[fenced("def add(a, b):\n    return a + b")],
    );
    tasks.push(Task::from_value(good).unwrap());
    let results = s.score_tasks(&tasks);
    for ((name, _, detail), result) in bad.iter().zip(&results) {
        let r = &result.results[0];
        assert_eq!(r.status, Status::VerifierError, "{name}: {}", r.detail);
        assert!(r.mask, "{name}: masked");
        assert!(
            r.detail.contains(detail),
            "{name}: {:?} lacks {detail:?}",
            r.detail
        );
    }
    assert_eq!(results.last().unwrap().results[0].score, 1.0);
}

#[test]
fn broken_python_tasks_are_invalid_and_name_the_field() {
    let s = scorer();
    let cases = [
        (
            json!({"id": "a", "verifier": "python", "completions": ["x"]}),
            "verifier_code",
        ),
        (
            json!({"id": "b", "verifier": "python", "verifier_code": "def verify(task, completion)\n    return 1", "completions": ["x"]}),
            "line 1",
        ),
        (
            json!({"id": "c", "verifier": "python", "verifier_code": "x = 1", "completions": ["x"]}),
            "defines no function verify",
        ),
        (
            json!({"id": "d", "verifier": "no/such/verifier.py", "completions": ["x"]}),
            "cannot read",
        ),
    ];
    for (task, needle) in cases {
        let result = match Task::from_value(task.clone()) {
            Ok(t) => s.score_task(&t),
            Err(e) => {
                assert!(e.message.contains(needle), "{}", e.message);
                continue;
            }
        };
        assert_eq!(result.status, Some(Status::InvalidTask), "{task}");
        let detail = result.detail.unwrap();
        assert!(detail.contains(needle), "{detail:?} lacks {needle:?}");
    }
}

#[test]
fn the_same_completion_gets_the_same_verdict_and_fuel() {
    let s = scorer();
    let task = python_task(
        ADD_VERIFIER,
        json!({"pairs": [[1, 2], [5, 5]]}),
        &[fenced(
            "import random\ndef add(a, b):\n    return a + b + int(random.random() * 0)",
        )],
    );
    let a = score(&s, task.clone());
    let b = score(&s, task);
    assert_eq!(a[0].score, 1.0, "{}", a[0].detail);
    assert_eq!(a[0].fuel, b[0].fuel);
}

/// A run the host could not make is the host's failure even when the verifier swallows it: a
/// careful `try: ... except Exception: return 0` around a run the host refused still gives a
/// masked `verifier_error`, never the candidate's 0.
#[test]
fn a_host_failure_the_verifier_swallows_is_still_masked() {
    let s = scorer();
    let verifier = r#"
import rewardbox

def verify(task, completion):
    try:
        rewardbox.run_program("print(1)", "", language="cobol")
    except Exception:
        return 0.0
    return 1.0
"#;
    let r = score(&s, python_task(verifier, json!({}), &[fenced("x = 1")]));
    assert_eq!(
        r[0].status,
        rewardbox::Status::VerifierError,
        "{}: {}",
        r[0].score,
        r[0].detail
    );
    assert!(r[0].detail.contains("cobol"), "{}", r[0].detail);
}

/// Deep input raises a catchable exception in a verifier, as in native CPython, never a stack
/// overflow of the instance: a careful verifier's `except` runs and its verdict stands.
#[test]
fn deep_nesting_raises_recursion_error_in_the_verifier() {
    let s = scorer();
    let cases = [
        ("json.loads", "import json\njson.loads('[' * N + ']' * N)"),
        (
            "ast.literal_eval",
            "import ast\nast.literal_eval('(' * N + ')' * N)",
        ),
        ("eval", "eval('-' * N + '1')"),
        ("repr", "x = []\nfor _ in range(N):\n    x = [x]\nrepr(x)"),
        (
            "str of dicts",
            "x = {}\nfor _ in range(N):\n    x = {'a': x}\nstr(x)",
        ),
        (
            "json.dumps",
            "import json\nx = []\nfor _ in range(N):\n    x = [x]\njson.dumps(x)",
        ),
        ("recursion", "def f(n):\n    return f(n + 1)\nf(0)"),
    ];
    for (name, code) in cases {
        let body: String = code
            .replace('N', "200000")
            .lines()
            .map(|l| format!("        {l}\n"))
            .collect();
        let verifier = format!(
            "def verify(task, completion):\n    try:\n{body}        return 0.5\n    except (RecursionError, MemoryError, SyntaxError):\n        return 1.0\n"
        );
        let mut task = python_task(&verifier, json!({}), &[fenced("x = 1")]);
        task["limits"] = json!({"fuel": 100_000_000_000u64, "wall_ms": 600_000, "memory_mb": 1024});
        let r = score(&s, task);
        assert_eq!(
            (r[0].status, r[0].score),
            (rewardbox::Status::Ok, 1.0),
            "{name}: {}",
            r[0].detail
        );
    }
}

/// A verifier may use any standard-library module a program can (served from the component on
/// import): this one reads dates with `datetime.strptime` and its settings with `configparser`.
#[test]
fn verifiers_import_the_standard_library() {
    let verifier = r#"
import configparser, datetime

def verify(task, completion):
    settings = configparser.ConfigParser()
    settings.read_string(task["settings"])
    layout = settings.get("dates", "layout", raw=True)
    try:
        given = datetime.datetime.strptime(completion.strip(), layout).date()
    except ValueError:
        return 0.0
    return 1.0 if given.isoformat() == task["reference"] else 0.0
"#;
    let s = scorer();
    let r = score(
        &s,
        python_task(
            verifier,
            json!({"settings": "[dates]\nlayout = %d %B %Y\n", "reference": "2024-03-05"}),
            &[
                "05 March 2024".into(),
                "06 March 2024".into(),
                "March 5".into(),
            ],
        ),
    );
    let scores: Vec<f64> = r.iter().map(|c| c.score).collect();
    assert_eq!(scores, [1.0, 0.0, 0.0], "{:?}", r);
    assert!(r.iter().all(|c| c.status == Status::Ok), "{:?}", r);
}
