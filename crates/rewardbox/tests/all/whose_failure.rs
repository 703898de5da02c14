//! Whose doing a verifier's failure is. A verifier that raises on text it cannot parse, runs out of
//! fuel, memory or output on a flood, or returns a malformed score for a long answer fails because
//! of what the completion gave it; were that a masked `verifier_error`, a policy could choose to be
//! masked instead of scored 0. Where the task names its `solution` and the verifier judges it
//! without failing, the failure is the completion's: 0, not masked. Where it names none, the
//! task's other completions tell the same: a verdict on one of them makes the failure the
//! completion's. Where nothing can tell (the verifier fails on the solution too, or on
//! every completion), it stays the verifier's: masked.

use crate::common;
use rewardbox::Status;
use serde_json::{Value, json};

/// Python verifiers that judge "4" right and fail on the last completion of their row, each in a
/// way of its own that the completion's text causes; and that completion, as a text written the
/// number of times given.
const FAILING_ON_WHAT_THEY_ARE_GIVEN: &[(&str, &str, &str, usize)] = &[
    (
        "raises on text it cannot parse",
        "def verify(task, completion):\n    return int(completion.strip()) == 4\n",
        "four",
        1,
    ),
    (
        "a score past 1 for a long answer",
        "def verify(task, completion):\n    \
             return 1.0 if completion == '4' else len(completion) // 10 * 2.0\n",
        "44444444444444444444",
        1,
    ),
    (
        "work that grows as the square of the answer",
        "def verify(task, completion):\n    \
             pairs = sum(a == b for a in completion for b in completion)\n    \
             return completion == '4'\n",
        "4 is the answer, as I said. ",
        200,
    ),
    (
        "a regular expression that backtracks",
        "import re\n\ndef verify(task, completion):\n    \
             return completion == '4' or re.fullmatch(r'(a+)+b', completion) is not None\n",
        "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac",
        1,
    ),
    (
        "memory that grows with the answer",
        "def verify(task, completion):\n    \
             kept = [completion * 4096 for _ in range(len(completion))]\n    \
             return completion == '4'\n",
        "4 ",
        200,
    ),
    (
        "a log as long as the answer",
        "def verify(task, completion):\n    \
             print(completion * 100000)\n    \
             return completion == '4'\n",
        "the answer is four",
        1,
    ),
];

/// The task of `verifier` with the completions "4", "5" and `failing`, and `fields` besides.
fn task(id: &str, verifier: &str, failing: &str, fields: Value) -> Value {
    let mut task = json!({"id": id, "verifier": "python", "verifier_code": verifier,
        "completions": ["4", "5", failing]});
    for (key, value) in fields.as_object().expect("an object") {
        task[key] = value.clone();
    }
    task
}

/// Each verifier's failure is the completion's where the task names its solution, and where it
/// names none but the verifier judges another of the task's completions; it stays masked where
/// the verifier judges no completion of the task (it fails on all of them, or there is one).
#[test]
fn a_verifier_s_failure_on_what_a_completion_gave_it_is_the_completion_s_where_the_solution_tells()
{
    let mut tasks = Vec::new();
    let mut alone = Vec::new();
    for (i, (_, verifier, text, times)) in FAILING_ON_WHAT_THEY_ARE_GIVEN.iter().enumerate() {
        let failing = text.repeat(*times);
        tasks.push(task(
            &format!("{i}/solution"),
            verifier,
            &failing,
            json!({"solution": "4"}),
        ));
        tasks.push(task(
            &format!("{i}/siblings"),
            verifier,
            &failing,
            json!({}),
        ));
        alone.push(json!({"id": format!("{i}/alone"), "verifier": "python",
            "verifier_code": verifier, "completions": [failing]}));
        alone.push(
            json!({"id": format!("{i}/all-failing"), "verifier": "python",
            "verifier_code": verifier, "completions": [failing.clone(), failing.repeat(2)]}),
        );
    }
    let results = common::score_tasks(&tasks);
    let unjudged = common::score_tasks(&alone);
    for (result, task) in unjudged.iter().zip(&alone) {
        let id = task["id"].as_str().unwrap();
        assert!(!result.results.is_empty(), "{id}: {result:?}");
        for failing in &result.results {
            assert_eq!(failing.status, Status::VerifierError, "{id}: {failing:?}");
            assert!(failing.mask, "{id}: nothing shows the verifier working");
        }
    }
    for (result, task) in results.iter().zip(&tasks) {
        let id = task["id"].as_str().unwrap();
        let (what, _, _, _) = FAILING_ON_WHAT_THEY_ARE_GIVEN[id[..1].parse::<usize>().unwrap()];
        let [right, wrong, failing] = &result.results[..] else {
            panic!("{id} ({what}): {result:?}");
        };
        assert_eq!(
            (right.status, right.score),
            (Status::Ok, 1.0),
            "{id} ({what})"
        );
        assert_eq!(
            (wrong.status, wrong.score),
            (Status::Ok, 0.0),
            "{id} ({what})"
        );
        let why = if id.ends_with("/solution") {
            "judges the task's solution without failing"
        } else {
            "judges completion 1 of the same task without failing"
        };
        assert_eq!(failing.status, Status::Ok, "{id} ({what}): {failing:?}");
        assert!(!failing.mask && failing.score == 0.0, "{id} ({what})");
        assert!(
            failing.detail.contains(why),
            "{id} ({what}): the detail says why: {}",
            failing.detail
        );
    }
}

/// A verifier that fails on the task's solution too is not shown to be working: its failures stay
/// masked, the solution's own included, whatever it makes of the other completions. So does a
/// failure that is not the verifier's to repeat (the wall clock). A task whose `solution` is not a
/// string is scored as one without (it is not read): its other completions decide.
#[test]
fn a_verifier_s_failure_stays_masked_where_the_solution_cannot_tell() {
    let fails_on_digits = "def verify(task, completion):\n    \
        if any(c.isdigit() for c in completion):\n        raise ValueError('digits')\n    \
        return completion == 'four'\n";
    let sleeps_on_long = "import time\n\ndef verify(task, completion):\n    \
        if len(completion) > 3:\n        time.sleep(30)\n    \
        return completion == '4'\n";
    let tasks = [
        json!({"id": "fails-on-the-solution", "verifier": "python",
            "verifier_code": fails_on_digits, "solution": "4", "completions": ["4", "5", "four"]}),
        json!({"id": "not-a-string", "verifier": "python",
            "verifier_code": "def verify(task, completion):\n    return int(completion) == 4\n",
            "solution": {"answer": "4"}, "completions": ["4", "four"]}),
        json!({"id": "wall-clock", "verifier": "python", "verifier_code": sleeps_on_long,
            "solution": "4", "limits": {"wall_ms": 1000}, "completions": ["4", "four"]}),
        json!({"id": "wall-clock-siblings", "verifier": "python", "verifier_code": sleeps_on_long,
            "limits": {"wall_ms": 1000}, "completions": ["4", "four"]}),
    ];
    let results = common::score_tasks(&tasks);
    let statuses = |i: usize| -> Vec<(Status, bool)> {
        results[i]
            .results
            .iter()
            .map(|r| (r.status, r.mask))
            .collect()
    };
    let masked = (Status::VerifierError, true);
    let scored = (Status::Ok, false);
    assert_eq!(statuses(0), [masked, masked, scored], "{:?}", results[0]);
    assert_eq!(statuses(1), [scored, scored], "{:?}", results[1]);
    assert_eq!(results[1].results[1].score, 0.0, "{:?}", results[1]);
    assert_eq!(statuses(2), [scored, masked], "{:?}", results[2]);
    assert_eq!(statuses(3), [scored, masked], "{:?}", results[3]);
}

/// Only a task's own completions tell: another task in the same batch, even one with the same
/// fields but its id (as trainers' adapters would send a group one completion per task), tells
/// nothing, so a result never depends on what else was in the batch.
#[test]
fn another_task_in_the_batch_tells_nothing() {
    let verifier = "def verify(task, completion):\n    return int(completion) == 4\n";
    let tasks = [
        json!({"id": "0", "verifier": "python", "verifier_code": verifier, "completions": ["5"]}),
        json!({"id": "0", "verifier": "python", "verifier_code": verifier, "completions": ["four"]}),
        json!({"id": "1", "verifier": "python", "verifier_code": verifier, "completions": ["four"]}),
    ];
    let results = common::score_tasks(&tasks);
    assert_eq!(results[0].results[0].status, Status::Ok);
    for alone in &results[1..] {
        let r = &alone.results[0];
        assert_eq!(
            (r.status, r.mask),
            (Status::VerifierError, true),
            "{alone:?}"
        );
    }
}
