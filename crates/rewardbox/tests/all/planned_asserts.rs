//! Planned asserts against the live checking sandbox they stand in for: the same tasks scored
//! by a scorer that plans asserts (the default) and one that runs every assert live must give
//! the same results, field for field (all but the wall clock), on every HumanEval problem with
//! right, wrong, raising, exiting, stateful and hostile completions, and on a table of checks
//! written form by form (each comparison, `assert not`, messages that call again, MBPP lists,
//! keyword arguments, top-level asserts, a missing entry point, limits).

use crate::common;

use common::{human_eval_problems, scorer};
use rewardbox::{Scorer, Task, TaskResult};
use serde_json::{Value, json};

/// Bodies appended to a HumanEval prompt (`{entry}` is the entry point's name).
const BODIES: &[&str] = &[
    "    return None\n",
    "    return True\n",
    "    return 0\n",
    "    return []\n",
    "    return float('nan')\n",
    "    return 10 ** 60\n",
    "    return b'\\x00ab\\''\n",
    "    return {2.5: (1, 'x'), None: [True]}\n",
    "    return {3, 1, 2}\n",
    "    return frozenset({7})\n",
    "    return 'ünï 中'\n",
    "    return 'tab\\there \"q\" \\x7f \\xa0'\n",
    "    return -0.0\n",
    "    return 1e16\n",
    "    return (1j, 2)\n",
    "    raise ValueError('bad input')\n",
    "    raise KeyError('missing')\n",
    "    raise UnicodeDecodeError('utf-8', b'x', 0, 1, 'no')\n",
    "    class Failure(Exception):\n        pass\n    raise Failure('mine')\n",
    "    import sys\n    sys.exit(3)\n",
    "    raise SystemExit('bye')\n",
    "    class Always:\n        def __eq__(self, other):\n            return True\n        def __bool__(self):\n            return True\n    return Always()\n",
    "    class Number(int):\n        def __eq__(self, other):\n            return True\n    return Number(5)\n",
    "    print('noise')\n    import sys\n    print('err', file=sys.stderr)\n    return 1\n",
    "    return 0\n    \n\ndef helper():\n    pass\n",
];

/// Programs that replace the whole completion.
const PROGRAMS: &[&str] = &[
    "def something_else():\n    return 1\n",
    "def f(:\n    pass\n",
    "import sys\nsys.exit(0)\n",
    "raise ImportError('nope')\n",
    "",
];

/// The canonical solution, wrapped so that its third call raises: calls must be made in the
/// same order, the message's calls included.
fn third_call_raises(prompt: &str, solution: &str, entry: &str) -> String {
    format!(
        "{prompt}{solution}\n_real = {entry}\n_calls = [0]\n\ndef {entry}(*args, **kwargs):\n    \
         _calls[0] += 1\n    if _calls[0] == 3:\n        raise RuntimeError('third call')\n    \
         return _real(*args, **kwargs)\n"
    )
}

fn human_eval_tasks(limited: bool) -> Vec<Task> {
    human_eval_problems()
        .iter()
        .enumerate()
        .filter(|(i, _)| !limited || i % 8 == 0)
        .map(|(_, p)| {
            let (prompt, solution, entry) = (
                p["prompt"].as_str().unwrap(),
                p["canonical_solution"].as_str().unwrap(),
                p["entry_point"].as_str().unwrap(),
            );
            let mut completions: Vec<String> = if limited {
                vec![
                    format!("{prompt}    while True:\n        pass\n"),
                    format!("{prompt}    return 'x' * (10 ** 9)\n"),
                    format!("{prompt}    while True:\n        print('spam')\n"),
                    format!("import sys\nprint('x' * 100000)\n{prompt}{solution}"),
                ]
            } else {
                let mut c = vec![
                    format!("{prompt}{solution}"),
                    third_call_raises(prompt, solution, entry),
                ];
                c.extend(BODIES.iter().map(|body| format!("{prompt}{body}")));
                c.extend(PROGRAMS.iter().map(|p| p.to_string()));
                c
            };
            completions
                .iter_mut()
                .for_each(|c| *c = format!("```python\n{c}\n```"));
            let mut task = json!({
                "id": p["task_id"], "verifier": "code",
                "tests": {"asserts": p["test"], "entry_point": entry, "setup": prompt},
                "completions": completions,
            });
            if limited {
                task["candidate_limits"] =
                    json!({"fuel": 30_000_000, "memory_mb": 48, "output_bytes": 4096});
            }
            Task::from_value(task).unwrap()
        })
        .collect()
}

/// A result without its wall-clock time, the one field that may differ.
fn comparable(result: &TaskResult) -> Value {
    let mut value = serde_json::to_value(result).unwrap();
    for completion in value["results"].as_array_mut().into_iter().flatten() {
        completion.as_object_mut().unwrap().remove("wall_us");
    }
    value
}

fn live_scorer() -> Scorer {
    let s = scorer();
    s.services().set_planned_asserts(false);
    s
}

/// Scores `tasks` both ways; every difference, described.
fn differences(planned: &Scorer, live: &Scorer, tasks: &[Task]) -> Vec<String> {
    let a = planned.score_tasks(tasks);
    let b = live.score_tasks(tasks);
    a.iter()
        .zip(&b)
        .filter(|(x, y)| comparable(x) != comparable(y))
        .map(|(x, y)| {
            format!(
                "planned:\n{}\nlive:\n{}",
                serde_json::to_string_pretty(&comparable(x)).unwrap(),
                serde_json::to_string_pretty(&comparable(y)).unwrap()
            )
        })
        .collect()
}

/// Scores `tasks` with planning on and off, fails on the first difference, and gives the
/// planning scorer's counts: verdicts from plans, and planned runs that ran live.
fn graded_alike(tasks: &[Task]) -> (u64, u64) {
    let (planned, live) = (scorer(), live_scorer());
    let found = differences(&planned, &live, tasks);
    assert!(
        found.is_empty(),
        "{} of {} tasks differ; the first:\n{}",
        found.len(),
        tasks.len(),
        found[0]
    );
    assert_eq!(live.services().plan_counts(), (0, 0));
    planned.services().plan_counts()
}

#[test]
fn human_eval_graded_from_plans_is_graded_as_live() {
    let mut tasks = human_eval_tasks(false);
    tasks.extend(human_eval_tasks(true));
    let (given, declined) = graded_alike(&tasks);
    println!("HumanEval: {given} verdicts from plans, {declined} planned runs ran live");
    // Both ways were taken: most samples from their plan, and the ones a plan cannot judge
    // exactly (a handle's truth, a non-Latin-1 repr, a set's repr) live.
    assert!(given > 3000, "{given} verdicts from plans");
    assert!(declined > 100, "{declined} planned runs ran live");
}

/// A check task over `program`s.
fn check(asserts: &str, entry: &str, programs: &[&str]) -> Value {
    json!({
        "id": entry, "verifier": "code",
        "tests": {"asserts": asserts, "entry_point": entry},
        "completions": programs.iter().map(|p| format!("```python\n{p}\n```")).collect::<Vec<_>>(),
    })
}

#[test]
fn every_planned_form_is_graded_as_live() {
    let programs = [
        "def f(*a, **k):\n    return sum(a) + sum(k.values())\n",
        "def f(*a, **k):\n    return True\n",
        "def f(*a, **k):\n    return None\n",
        "def f(*a, **k):\n    return 0\n",
        "def f(*a, **k):\n    return list(a)\n",
        "def f(*a, **k):\n    return tuple(a)\n",
        "def f(*a, **k):\n    raise ZeroDivisionError('no')\n",
        "n = [0]\ndef f(*a, **k):\n    n[0] += 1\n    if n[0] % 2 == 0:\n        raise ValueError(n[0])\n    return n[0]\n",
        "def f(*a, **k):\n    import sys\n    sys.exit(4)\n",
        "def g(*a):\n    return 1\n",
    ];
    let checks = [
        "def check(candidate):\n    assert candidate(1, 2) == 3\n    assert candidate(2, 2) != 3\n    assert 7 == candidate(3, 4)\n",
        "def check(candidate):\n    assert candidate(1) is True\n    assert candidate(0) is not None\n    assert candidate() is None\n    assert candidate(5) is not False\n",
        "def check(candidate):\n    assert candidate(1)\n    assert not candidate(0)\n    assert candidate(2), 'two'\n    assert not candidate(3), ('a', 1)\n    assert candidate(''), ''\n",
        "def check(candidate):\n    assert candidate(1, 2) == 3, 'First test error: ' + str(candidate(1, 2))\n    assert candidate(2) == 5, 'Second: ' + str(candidate(2))\n",
        "def check(candidate):\n    assert candidate(3 * 19) == 57\n    assert candidate(1, b=2) == 3\n    assert candidate(1.5, 2.5) == 4\n    assert candidate(True, True) == 2.0\n",
        "def check(candidate):\n    assert candidate([1, 2]) == [[1, 2]]\n    assert candidate((1, 2)) == [(1, 2)]\n    assert candidate({1: 2}) == [{1: 2}]\n    assert candidate({1, 2}) == [{2, 1}]\n",
        "METADATA = {'author': 'x'}\n\n\ndef check(f):\n    'docstring'\n    assert f(1) == 1\n    assert True\n    pass\n    assert candidate(2) == 2\n",
        "assert f(1, 1) == 2\nassert f(0) == 0\n",
        "def check(candidate):\n    assert candidate(1) == 1\n\nassert f(2) == 2\n",
        // An int past the checking sandbox's 50,000 digits cannot be sent: no plan.
        "def check(candidate):\n    assert candidate(10 ** 60000) == 1\n    assert candidate(1) == 1\n",
        "def check(candidate):\n    assert candidate('it\\'s') == ['it\\'s']\n    assert candidate(b'\\x00') == b'\\x00'\n    assert candidate(-0.0) == 0\n    assert candidate(10 ** 30) == 10 ** 30\n",
    ];
    let mut tasks: Vec<Task> = checks
        .iter()
        .map(|c| Task::from_value(check(c, "f", &programs)).unwrap())
        .collect();
    // MBPP's lists, each statement a case.
    let list = json!([
        "assert f(1, 2) == 3",
        "assert f(2) == 2",
        "assert not f(0)",
        "assert f(5, 5) != 10"
    ]);
    tasks.push(
        Task::from_value(json!({
            "id": "list", "verifier": "code",
            "tests": {"asserts": list, "entry_point": "f"},
            "completions": programs.iter().map(|p| format!("```python\n{p}\n```")).collect::<Vec<_>>(),
        }))
        .unwrap(),
    );
    // Candidate limits cross as the checking sandbox reads them.
    tasks.push(
        Task::from_value(json!({
            "id": "limits", "verifier": "code",
            "tests": {"asserts": "def check(candidate):\n    assert candidate(1) == 1\n    assert candidate(2) == 2\n", "entry_point": "f"},
            "candidate_limits": {"fuel": 20_000_000, "output_bytes": 100},
            "completions": [
                "```python\ndef f(x):\n    print('y' * 60)\n    return x\n```",
                "```python\ndef f(x):\n    while x:\n        pass\n```",
            ],
        }))
        .unwrap(),
    );
    let (given, declined) = graded_alike(&tasks);
    assert!(
        given >= 100,
        "{given} verdicts from plans ({declined} ran live)"
    );
}

#[test]
fn checks_outside_the_plan_run_live() {
    let tasks: Vec<Task> = [
        // A loop, a helper of the check's own, a comparison other than one call and a literal,
        // `is` against a number, a non-literal argument.
        "def check(candidate):\n    for i in range(3):\n        assert candidate(i) == i\n",
        "def check(candidate):\n    x = 2\n    assert candidate(x) == 2\n",
        "def check(candidate):\n    assert candidate(1) == candidate(1)\n",
        "def check(candidate):\n    assert candidate(1) is 1\n",
        "def check(candidate):\n    assert candidate(len('ab')) == 2\n",
        "def check(candidate):\n    assert abs(candidate(1) - 1) < 1e-6\n",
    ]
    .iter()
    .map(|c| Task::from_value(check(c, "f", &["def f(x):\n    return x\n"])).unwrap())
    .collect();
    let planned = scorer();
    for result in planned.score_tasks(&tasks) {
        assert_eq!(result.results[0].score, 1.0, "{:?}", result.results[0]);
    }
    assert_eq!(planned.services().plan_counts(), (0, 0));
}
