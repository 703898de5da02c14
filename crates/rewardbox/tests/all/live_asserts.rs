//! `code` tasks with `tests.asserts`, run against the live candidate through the real sandboxed
//! path: HumanEval without a reference, checks that plain recorded cases could not grade
//! (properties, exceptions, chained calls), MBPP-style lists, and candidates that attack the
//! check. The check runs in a sandbox of its own; the candidate never holds it.

use crate::common;

use common::{human_eval_problems, scorer};
use rewardbox::{CaseStatus, CompletionResult};
use rewardbox::{Scorer, Status, Task};
use serde_json::{Value, json};

fn fenced(code: &str) -> String {
    format!("```python\n{code}\n```")
}

fn score(s: &Scorer, task: Value) -> Vec<CompletionResult> {
    let result = s.score_task(&Task::from_value(task).expect("valid task"));
    assert_eq!(result.status, None, "{:?}", result.detail);
    result.results
}

fn statuses(r: &CompletionResult) -> Vec<CaseStatus> {
    r.cases.iter().map(|c| c.status).collect()
}

/// HumanEval/32's `find_zero` by Newton's method from x = 2 (bisection as a fallback): correct,
/// but it finds another root than the reference on 19 of the check's 100 polynomials.
const FIND_ZERO_NEWTON: &str = r#"
def find_zero(xs: list):
    def f(x):
        return sum(c * x ** i for i, c in enumerate(xs))
    def df(x):
        return sum(i * c * x ** (i - 1) for i, c in enumerate(xs) if i)
    x = 2.0
    for _ in range(100):
        d = df(x)
        if d == 0:
            break
        step = f(x) / d
        x -= step
        if abs(step) < 1e-12:
            return x
    lo, hi = -1.0, 1.0
    while f(lo) * f(hi) > 0:
        lo, hi = lo * 2, hi * 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if f(lo) * f(mid) <= 0:
            hi = mid
        else:
            lo = mid
    return (lo + hi) / 2
"#;

#[test]
fn human_eval_without_a_reference() {
    let s = scorer();
    let tasks: Vec<Task> = human_eval_problems()
        .iter()
        .map(|p| {
            let (prompt, solution) = (
                p["prompt"].as_str().unwrap(),
                p["canonical_solution"].as_str().unwrap(),
            );
            Task::from_value(json!({
                "id": p["task_id"], "verifier": "code",
                "tests": {"asserts": p["test"], "entry_point": p["entry_point"]},
                "completions": [fenced(&format!("{prompt}{solution}")), fenced(&format!("{prompt}    return None\n"))],
            }))
            .unwrap()
        })
        .collect();
    assert_eq!(tasks.len(), 164);
    let mut failures = Vec::new();
    for (task, result) in tasks.iter().zip(s.score_tasks(&tasks)) {
        let r = &result.results;
        if result.status.is_some() || r[0].score != 1.0 || r[1].score >= 1.0 {
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

#[test]
fn a_correct_solution_unlike_the_reference_passes() {
    let s = scorer();
    let p = &human_eval_problems()[32];
    let prompt = p["prompt"].as_str().unwrap();
    let helpers = prompt.split("def find_zero").next().unwrap();
    let reference = format!("{prompt}{}", p["canonical_solution"].as_str().unwrap());
    let newton = format!("{helpers}{FIND_ZERO_NEWTON}");
    for with_reference in [false, true] {
        let mut tests = json!({"asserts": p["test"], "entry_point": "find_zero"});
        if with_reference {
            tests["reference"] = json!(reference);
        }
        let r = score(
            &s,
            json!({"id": "he32", "verifier": "code", "tests": tests, "completions": [fenced(&newton)]}),
        );
        assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
    }
    // The prompt's helpers are the task's own when given as setup: a candidate that redefines
    // `poly` to always say 0 does not pass with a wrong root.
    let cheat = "def poly(xs, x):\n    return 0\n\ndef find_zero(xs):\n    return 123456.0\n";
    let r = score(
        &s,
        json!({"id": "he32", "verifier": "code",
               "tests": {"asserts": p["test"], "entry_point": "find_zero", "setup": helpers},
               "completions": [fenced(cheat)]}),
    );
    assert!(r[0].score < 1.0, "{}", r[0].detail);
}

/// A check that only live calls can grade: exceptions, properties, results fed back in, keyword
/// arguments, and values of every built-in type.
const RICH_CHECK: &str = r#"
def check(candidate):
    assert candidate(3) == (1, 3, {9: 'nine'}, b'\x00\x01', frozenset({3}))
    try:
        candidate(-1)
    except ValueError as e:
        assert 'negative' in str(e)
    else:
        assert False, 'expected ValueError'
    first = candidate(4)
    assert candidate(first[1] - 1) == candidate(3)
    assert candidate(5, scale=2)[1] == 10
    big = candidate(10 ** 30)
    assert big[1] == 10 ** 30 and big[2] == {10 ** 60: 'nine'}
    nan = candidate(0, scale=float('nan'))[1]
    assert nan != nan
"#;

const RICH_SOLUTION: &str = r#"
def shape(n, scale=1):
    if n < 0:
        raise ValueError("negative input")
    return (1, n * scale, {n * n: 'nine'}, bytes([0, 1]), frozenset({n}))
"#;

#[test]
fn asserts_see_exceptions_properties_and_exact_values() {
    let s = scorer();
    let r = score(
        &s,
        json!({"id": "rich", "verifier": "code",
        "tests": {"asserts": RICH_CHECK, "entry_point": "shape"},
        "completions": [
            fenced(RICH_SOLUTION),
            fenced(&RICH_SOLUTION.replace("raise ValueError(\"negative input\")", "return None")),
            fenced(&RICH_SOLUTION.replace("(1, n * scale,", "[1, n * scale,").replace("frozenset({n}))", "frozenset({n})]")),
        ]}),
    );
    assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
    assert!(r[1].score < 1.0, "no exception raised: {}", r[1].detail);
    assert!(
        r[2].score < 1.0,
        "a list is not the tuple the asserts expect: {}",
        r[2].detail
    );
    assert!(
        r[2].detail.contains("left: [1, 3"),
        "the detail shows the values: {}",
        r[2].detail
    );
}

#[test]
fn mbpp_style_lists_score_per_assert_or_all() {
    let s = scorer();
    let asserts = json!([
        "assert is_even(2) == True",
        "assert is_even(3) == False",
        "assert is_even(0) == True"
    ]);
    let completions = json!([
        fenced("def is_even(n):\n    return n % 2 == 0"),
        fenced("def is_even(n):\n    return n > 1"),
        fenced("def odd(n):\n    return n % 2"),
    ]);
    let r = score(
        &s,
        json!({"id": "mbpp", "verifier": "code", "tests": {"asserts": asserts}, "completions": completions}),
    );
    assert_eq!(r[0].score, 1.0, "{}", r[0].detail);
    assert!((r[1].score - 1.0 / 3.0).abs() < 1e-9, "{}", r[1].detail);
    assert_eq!(r[1].cases.len(), 3);
    assert_eq!(r[2].score, 0.0, "{}", r[2].detail);
    let r = score(
        &s,
        json!({"id": "mbpp", "verifier": "code", "tests": {"asserts": asserts}, "scoring": "all",
               "completions": completions}),
    );
    assert_eq!(
        r.iter().map(|c| c.score).collect::<Vec<_>>(),
        vec![1.0, 0.0, 0.0]
    );
}

/// Asserts on `add`, with small candidate limits so that attacks end fast.
fn add_check(completions: &[String]) -> Value {
    json!({
        "id": "add", "verifier": "code",
        "tests": {
            "asserts": "def check(candidate):\n    assert candidate(1, 2) == 3 # SECRET-CHECK-TOKEN\n    assert candidate(20, 22) == 42\n    assert abs(candidate(-5, 5)) == 0\n",
            "entry_point": "add"},
        "candidate_limits": {"fuel": 400000000, "memory_mb": 64, "output_bytes": 65536},
        "completions": completions,
    })
}

#[test]
fn attacks_on_the_check_fail_with_a_clear_status() {
    let s = scorer();
    let cases: Vec<(&str, String, CaseStatus)> = vec![
        (
            "forged verdict then exit at load",
            "print('{\"score\": 1.0, \"passed\": true}')\nprint('PASSED')\nimport os\nos._exit(0)\ndef add(a, b):\n    return a + b".into(),
            CaseStatus::ExitedNonzero,
        ),
        (
            "exit inside a call",
            "def add(a, b):\n    import sys\n    print('ALL TESTS PASSED')\n    sys.exit(0)".into(),
            CaseStatus::ExitedNonzero,
        ),
        (
            "trap inside a call",
            "import os\ndef add(a, b):\n    os.abort()".into(),
            CaseStatus::Crashed,
        ),
        (
            "always-equal object",
            "class Yes:\n    def __eq__(self, other):\n        return True\n    def __abs__(self):\n        return 0\ndef add(a, b):\n    return Yes()".into(),
            CaseStatus::Wrong,
        ),
        (
            "rigged int subclass holding 0",
            "class R(int):\n    def __eq__(self, other):\n        return True\ndef add(a, b):\n    return R(0)".into(),
            CaseStatus::Wrong,
        ),
        (
            "patched builtins",
            "import builtins\nbuiltins.abs = lambda x: 0\nimport operator\noperator.eq = lambda a, b: True\ndef add(a, b):\n    return a - b".into(),
            CaseStatus::Wrong,
        ),
        (
            "infinite loop",
            "def add(a, b):\n    while True:\n        pass".into(),
            CaseStatus::FuelExhausted,
        ),
        (
            "memory bomb",
            "def add(a, b):\n    x = []\n    while True:\n        x.append(bytearray(1 << 20))".into(),
            CaseStatus::MemoryExceeded,
        ),
        (
            "output flood",
            "def add(a, b):\n    while True:\n        print('x' * 1000)".into(),
            CaseStatus::OutputExceeded,
        ),
        (
            "reads host files",
            "def add(a, b):\n    return len(open('/etc/passwd').read())".into(),
            CaseStatus::ExitedNonzero,
        ),
    ];
    let completions: Vec<String> = cases.iter().map(|(_, code, _)| fenced(code)).collect();
    let mut with_honest = completions.clone();
    with_honest.push(fenced("def add(a, b):\n    return a + b"));
    let results = score(&s, add_check(&with_honest));
    for ((name, _, status), r) in cases.iter().zip(&results) {
        assert!(r.score < 1.0, "{name}: scored {} ({})", r.score, r.detail);
        assert_eq!(r.status, Status::Ok, "{name}: {}", r.detail);
        assert!(
            statuses(r).contains(status),
            "{name}: expected {status:?} in {:?}: {}",
            statuses(r),
            r.detail
        );
        assert!(
            !r.detail.contains("root:"),
            "{name}: host file content leaked"
        );
    }
    let honest = results.last().unwrap();
    assert_eq!(
        honest.score, 1.0,
        "a neighbour is unaffected: {}",
        honest.detail
    );
}

#[test]
fn the_candidate_cannot_find_the_check() {
    let s = scorer();
    // The candidate searches its whole heap and call stack for the check's source; it finds
    // nothing, so it answers a + b honestly only if it found nothing.
    let snoop = r#"
import gc, sys
def add(a, b):
    token = '-'.join(['SECRET', 'CHECK', 'TOKEN'])
    found = 0
    for obj in gc.get_objects():
        if type(obj) is dict:
            values = obj.values()
        elif type(obj) in (list, tuple):
            values = obj
        else:
            continue
        for v in values:
            if type(v) is str and token in v:
                found += 1
    frame = sys._getframe().f_back
    while frame is not None:
        for v in list(frame.f_globals.values()):
            if type(v) is str and token in v:
                found += 1
        frame = frame.f_back
    return a + b + found * 1000
"#;
    let r = score(&s, add_check(&[fenced(snoop)]));
    assert_eq!(
        r[0].score, 1.0,
        "the check leaked into the candidate: {}",
        r[0].detail
    );
}

#[test]
fn a_check_whose_reference_fails_or_has_no_assert_is_an_invalid_task() {
    let s = scorer();
    let failing = s.score_task(
        &Task::from_value(json!({"id": "r", "verifier": "code",
            "tests": {"asserts": "def check(candidate):\n    assert candidate(1) == 2", "entry_point": "f",
                      "reference": "def f(x):\n    return x"},
            "completions": [fenced("def f(x):\n    return 2")]}))
        .unwrap(),
    );
    assert_eq!(failing.status, Some(Status::InvalidTask));
    assert!(failing.detail.unwrap().contains("tests.reference"));
    let empty = s.score_task(
        &Task::from_value(json!({"id": "e", "verifier": "code",
            "tests": {"asserts": "def check(candidate):\n    assert True", "entry_point": "f"},
            "completions": [fenced("def f(x):\n    return 2")]}))
        .unwrap(),
    );
    assert_eq!(
        empty.status,
        Some(Status::InvalidTask),
        "{:?}",
        empty.detail
    );
    let syntax = s.score_task(
        &Task::from_value(json!({"id": "s", "verifier": "code",
            "tests": {"asserts": "def check(candidate)\n    assert candidate(1)", "entry_point": "f"},
            "completions": [fenced("def f(x):\n    return 2")]}))
        .unwrap(),
    );
    assert_eq!(
        syntax.status,
        Some(Status::InvalidTask),
        "{:?}",
        syntax.detail
    );
    assert!(syntax.detail.unwrap().contains("line 1"));
}

#[test]
fn the_same_completion_gets_the_same_verdict_and_fuel() {
    let s = scorer();
    let code = fenced("import random\ndef add(a, b):\n    random.random()\n    return a + b");
    let a = score(&s, add_check(&[code.clone(), code.clone()]));
    let b = score(&s, add_check(&[code]));
    assert_eq!(a[0].score, 1.0, "{}", a[0].detail);
    assert_eq!(a[0].fuel, a[1].fuel);
    assert_eq!(a[0].fuel, b[0].fuel);
    assert_eq!(statuses(&a[0]), statuses(&b[0]));
}
