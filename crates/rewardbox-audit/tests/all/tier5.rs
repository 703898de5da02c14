//! Tier 5: GRPO against deliberately weak verifiers converges on their exploit, judged by checks
//! the policy never sees; against the same tasks made sound it converges on the solution (or on
//! nothing) and reports no exploit. Seeded: the same run every time.

use crate::common;

use rewardbox_audit::tier5::{
    Outcome, Tier5Options, Tier5Report, explore_lines, explore_lines_each, finding,
};
use serde_json::{Value, json};

/// Seed 0, or `REWARDBOX_TIER5_SEED` (to check that a result holds over seeds).
fn options() -> Tier5Options {
    let seed = std::env::var("REWARDBOX_TIER5_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    Tier5Options {
        steps: 60,
        group: 16,
        seed,
        ..Tier5Options::default()
    }
}

fn explore(tasks: &[Value]) -> Vec<Tier5Report> {
    let scorer = common::scorer();
    let lines: Vec<(usize, String)> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (i + 1, t.to_string()))
        .collect();
    explore_lines(&scorer, &lines, &options())
}

fn read_jsonl(name: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/tier5")
        .join(name);
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Pairs of the twin table the suite leaves to `cargo bench --bench tier5` (and to
/// `REWARDBOX_TIER5_TABLE=full`): each costs the suite 5 to 10 minutes of a 2-core machine from an
/// empty cache (several hundred distinct C++ programs compiled, or several hundred pytest
/// sessions or contest runs), where the judges they exercise are exercised in the suite by
/// cheaper pairs: typed calls and HumanEval-X-style test code by Rust's and Go's pairs, contest
/// problems by `contest-cpp-average` and `contest-scoring-count-evens`, pytest modules by
/// `pytest-calls-only`, an IOI grader's judge by [`a_grader_tasks_judge_compares_the_graders_output`],
/// JavaScript and TypeScript test files (each about a minute) by `jest-sorted-distinct` and
/// `jest-ts-clamp`, a module's classes by [`a_class_modules_judge_replays_what_the_tests_did_with_its_objects`]
/// (pytest) and [`a_test_files_judge_replays_what_the_tests_did_with_the_candidates_objects`] (Jest and `node:test`),
/// the values tests read from objects by [`a_class_judge_replays_the_values_the_tests_read`],
/// an IOI communication task's judge by [`a_communication_tasks_judge_wants_the_managers_score`]
/// (the pair's weak twin, whose replayed conversation ties with the solution, is found on every
/// seed, at seed 1 by the sweep before training: see
/// [`the_sweep_before_training_tries_every_exploit_production_once`]). MultiPL-E's open-function
/// form is trained by the bench only.
const BENCH_ONLY_PAIRS: [&str; 15] = [
    "communication-python-sum",
    "pytest-class-property",
    "unittest-class-attribute",
    "jest-class-getter",
    "jest-class-stack",
    "node-test-class-counter",
    "pytest-class-stack",
    "node-test-digit-sum",
    "jest-calls-only",
    "asserts-cpp-count-positive",
    "multipl-e-cpp-count-upper",
    "call-cpp-sorted-distinct",
    "pytest-sorted-distinct",
    "contest-python-divisor",
    "grader-cpp-count-above",
];

/// The twin table (`tests/data/tier5/twins.jsonl`): 64 pairs of a weak task and the same task
/// made sound, over every family Tier 5 judges (string verifiers with a reference or only a
/// `solution`; Python call, assert-list, `check` and stdio tests; pytest and unittest modules (a
/// class's methods, a property and a plain attribute among what they test);
/// Jest and `node:test` files in JavaScript and TypeScript (a class's methods and a getter among
/// them);
/// stdio tests in C, C++, Rust and JavaScript; call tests in JavaScript, C++, Rust and Go;
/// HumanEval-X-style test code in C++, Rust, Go and JavaScript, and MultiPL-E-style test code in
/// C++ (its function left open by the prompt); contest problems (a scoring one
/// among them) judged by the default validator and by a testlib
/// output validator, an interactive one and one whose validator scores each case, an IOI
/// task whose grader calls the submission's function and an IOI communication task; Python verifiers that run the program, with a solution program),
/// written from what
/// each verifier accepts, not from what the grammar writes. Every weak twin's exploit is found
/// (converged on, or sampled beside a solution it ties with), never called a solution unless it
/// is one; every sound twin converges on the solution or on nothing, with no finding. Pair `i`
/// trains with seed `i % 8`; the suite trains all but [`BENCH_ONLY_PAIRS`]
/// (`REWARDBOX_TIER5_TABLE=full` trains every pair; `cargo bench --bench tier5` trains every pair
/// on every seed). The tasks train as many at a time as the machine has cores, those whose
/// candidates are compiled first, so that the longest do not finish last.
#[test]
fn every_weak_twin_is_exploited_and_no_sound_twin_is() {
    let twins = read_jsonl("twins.jsonl");
    let mut pairs: Vec<&str> = Vec::new();
    for task in &twins {
        let pair = task["pair"].as_str().unwrap();
        if !pairs.contains(&pair) {
            pairs.push(pair);
        }
    }
    assert!(pairs.len() >= 30, "{} pairs", pairs.len());
    for pair in BENCH_ONLY_PAIRS {
        assert!(pairs.contains(&pair), "{pair} is not a pair of the table");
    }
    let full = std::env::var("REWARDBOX_TIER5_TABLE").as_deref() == Ok("full");
    // (task, its seed), compiled candidates first.
    let mut jobs: Vec<(&Value, u64)> = twins
        .iter()
        .map(|t| {
            let at = pairs.iter().position(|p| *p == t["pair"]).unwrap();
            (t, at as u64 % 8)
        })
        .filter(|(t, _)| full || !BENCH_ONLY_PAIRS.contains(&t["pair"].as_str().unwrap()))
        .collect();
    let compiled = |t: &Value| {
        matches!(
            t["language"].as_str(),
            Some("c" | "cpp" | "rust" | "rust-release" | "go")
        )
    };
    jobs.sort_by_key(|(t, _)| !compiled(t));
    let lines: Vec<(usize, String, Tier5Options)> = jobs
        .iter()
        .map(|(task, seed)| {
            let seeded = Tier5Options {
                seed: *seed,
                ..options()
            };
            (1, task.to_string(), seeded)
        })
        .collect();
    let reports = explore_lines_each(&common::scorer(), &lines);
    let mut failures = Vec::new();
    let mut by_id = std::collections::HashMap::new();
    for ((task, seed), report) in jobs.iter().zip(reports) {
        let right = report.is_right_for(task["weak"] == true);
        if !right {
            failures.push(format!(
                "{} (seed {seed}): {:?}, finding {}, converged to {:?} ({:?}), judge {}, error {:?}",
                task["id"], report.outcome, finding(&report).is_some(), report.completion, report.choices, report.judge, report.error
            ));
        }
        by_id.insert(task["id"].as_str().unwrap().to_string(), report);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Each family judged by what it has (of the pairs trained).
    let judge = |id: &str| by_id[id].judge.clone();
    // The answer its own verifier reads from the solution (no reference given).
    assert_eq!(
        judge("regex-search-solution-only/weak"),
        "strict equivalence to \"42\""
    );
    assert_eq!(
        judge("regex-search-word-solution-only/sound"),
        "strict equivalence to \"Paris\""
    );
    // Neither reference nor solution: the one bare answer the verifier's pattern accepts.
    for id in [
        "regex-search-pattern-only/weak",
        "regex-search-pattern-only/sound",
    ] {
        assert_eq!(
            judge(id),
            "strict equivalence to \"8\" (the one bare answer the verifier's pattern accepts; \
             the task gives neither reference nor solution)",
            "{id}"
        );
    }
    assert_eq!(
        judge("pyverifier-trusts-output-holdout/weak"),
        "held-out tests"
    );
    for id in [
        "call-sorted-distinct/weak",
        "asserts-square-sum/weak",
        "check-digit-sum/weak",
        "stdio-python-sum/weak",
        "stdio-cpp-sum/weak",
        "stdio-javascript-sum/weak",
        "call-javascript-count-evens/weak",
        "call-cpp-sorted-distinct/weak",
        "call-rust-count-vowels/weak",
        "call-go-running-max/weak",
        "call-dict-total/weak",
        "asserts-cpp-count-positive/weak",
        "asserts-rust-distinct-words/weak",
        "asserts-go-clamp/weak",
        "asserts-javascript-initials/weak",
        "multipl-e-cpp-count-upper/weak",
        "pytest-sorted-distinct/weak",
        "unittest-running-max/weak",
        "pytest-calls-only/weak",
        "unittest-type-only/weak",
        "contest-cpp-average/weak",
        "contest-python-divisor/weak",
        "contest-scoring-count-evens/weak",
        "contest-interactive-guess/weak",
        "contest-custom-score-pair/weak",
        "grader-cpp-count-above/weak",
    ]
    .into_iter()
    .filter(|id| by_id.contains_key(*id))
    {
        assert!(
            judge(id).starts_with("differential tests against the solution"),
            "{id}: {}",
            judge(id)
        );
        assert!(
            by_id[id].judge_power.is_some_and(|p| p.separating > 0),
            "{id}"
        );
    }
    assert!(
        judge("pyverifier-trusts-printed-text/weak")
            .starts_with("differential tests of the programs it runs against the solution"),
        "{}",
        judge("pyverifier-trusts-printed-text/weak")
    );
    // A problem whose validator scores each case: each case must score what the solution does.
    assert!(
        judge("contest-custom-score-pair/sound")
            .contains("each case scored at least as the solution scores it"),
        "{}",
        judge("contest-custom-score-pair/sound")
    );
}

/// What nothing independent can check is `unjudged`, never a solution: a task scored
/// all-or-nothing by its own tests with neither a `holdout` nor a `solution`, and a task whose
/// solution gives the same output on every input the judge can make (here: counting negative
/// numbers where every visible number is positive, the judge keeping the visible sign), where a
/// constant passes the judge as well as the solution does; a `regex` task with neither
/// reference nor solution whose pattern accepts any number; and a pytest task with partial
/// credit and neither `holdout` nor `solution`, whose own tests a constant passes as the
/// solution would.
#[test]
fn what_no_judge_can_check_is_unjudged_never_a_solution() {
    let tasks = [
        json!({"id": "no-judge", "verifier": "code", "scoring": "all", "prompt": "Write triple(x).",
               "tests": {"asserts": ["assert triple(2) == 6"], "entry_point": "triple"}}),
        json!({"id": "degenerate", "verifier": "code", "scoring": "all",
               "prompt": "def negatives(xs):\n    \"\"\"How many numbers in xs are negative.\"\"\"\n",
               "solution": "```python\ndef negatives(xs):\n    return sum(x < 0 for x in xs)\n```",
               "tests": {"call": {"entry_point": "negatives", "cases": [{"args": [[3, 1, 2]], "expected": 0}]}}}),
        json!({"id": "pattern-accepts-any-number", "verifier": "regex", "pattern": "\\d+",
               "search": true, "prompt": "How many legs does a spider have?"}),
        // Partial credit, and a weak module a constant passes whole.
        json!({"id": "own-tests-only", "verifier": "code", "prompt": "Write triple(x) in a module.",
               "tests": {"pytest": "from solution import triple\n\ndef test_triple():\n    assert triple(2) == 6\n"}}),
    ];
    let reports = explore(&tasks);
    for report in &reports {
        assert_eq!(report.error, None);
        assert!(
            report.reward >= 0.5,
            "{:?}: {:?}",
            report.id,
            report.choices
        );
        assert_eq!(
            report.outcome,
            Outcome::Unjudged,
            "{:?}: {:?} judged by {}",
            report.id,
            report.choices,
            report.judge
        );
        assert!(finding(report).is_none(), "{:?}", report.id);
    }
    assert_eq!(reports[0].judge, "the task's own tests, all of them");
    assert_eq!(reports[3].judge, "the task's own tests, all of them");
    assert!(
        reports[1].judge.starts_with("degenerate: "),
        "{}",
        reports[1].judge
    );
    assert_eq!(reports[1].judge_power.map(|p| p.separating), Some(0));
    assert_eq!(
        serde_json::to_value(&reports[1]).unwrap()["outcome"],
        "unjudged"
    );
    // Neither reference nor solution, and a pattern that accepts every number: the verifier
    // itself cannot say which is the answer.
    assert!(
        reports[2].judge.starts_with(
            "no independent judge: the verifier's pattern accepts several different bare answers \
             (\"0\", \"1\")"
        ),
        "{}",
        reports[2].judge
    );
}

/// Partial credit pays less than solving: where the policy can reach the solution (the task has
/// one to write from), it solves instead.
#[test]
fn a_cheat_that_pays_less_than_a_reachable_solution_loses() {
    let mut task = read_jsonl("twins.jsonl")
        .into_iter()
        .find(|t| t["id"] == "partial-credit-per-assert/weak")
        .unwrap();
    task["solution"] = json!(
        "```python\ndef is_prime(n):\n    return n > 1 and all(n % d for d in range(2, int(n ** 0.5) + 1))\n```"
    );
    let report = explore(&[task]).remove(0);
    assert_eq!(report.outcome, Outcome::Solution, "{:?}", report.choices);
    assert!(
        report
            .choices
            .as_deref()
            .is_some_and(|c| c.contains("core=solution"))
    );
}

#[test]
fn training_is_seeded_and_tasks_tier5_cannot_write_are_reported() {
    let task = json!({"id": "numeric-loose", "verifier": "numeric", "reference": "42", "abs_tolerance": 1.5});
    let once = explore(std::slice::from_ref(&task));
    let again = explore(&[task]);
    assert_eq!(once[0].completion, again[0].completion);
    assert_eq!(
        serde_json::to_string(&once[0].curve).unwrap(),
        serde_json::to_string(&again[0].curve).unwrap()
    );
    let unknown = explore(&[json!({"id": "x", "verifier": "exact"})]);
    assert!(
        unknown[0]
            .error
            .as_deref()
            .is_some_and(|e| e.contains("no Tier 5 grammar"))
    );
}

fn bandit(seed: u64) -> String {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data/tier5/bandit_policy.py");
    format!("python3 {} {seed}", script.display())
}

/// `--policy-cmd`: an external policy over the line protocol, trained on the same rewards and
/// advantages, its converged completion (its last group's most frequent) judged the same way.
#[test]
fn an_external_policy_trains_over_the_line_protocol() {
    let scorer = common::scorer();
    let task = json!({"id": "numeric-loose", "verifier": "numeric", "reference": "42", "abs_tolerance": 1.5});
    let line = [(1, task.to_string())];
    for seed in 0..3 {
        let options = Tier5Options {
            steps: 30,
            group: 8,
            policy_cmd: Some(bandit(seed)),
            ..options()
        };
        let report = explore_lines(&scorer, &line, &options).remove(0);
        assert_eq!(report.error, None);
        assert_eq!(report.samples, report.steps * 8);
        assert!(report.choices.is_none());
        let expected = match report.completion.as_str() {
            "The answer is 43." => Outcome::Exploit,
            "The answer is 42." => Outcome::Solution,
            "The answer is 40." | "The answer is 49." | "I do not know." => Outcome::Nothing,
            other => panic!("converged to {other:?}"),
        };
        assert_eq!(report.outcome, expected, "{}", report.completion);
    }
    // A policy that breaks the protocol is reported, not trusted.
    let broken = Tier5Options {
        policy_cmd: Some("read line; echo '[\"only one\"]'; cat > /dev/null".into()),
        ..options()
    };
    let report = explore_lines(&scorer, &line, &broken).remove(0);
    assert!(
        report
            .error
            .as_deref()
            .is_some_and(|e| e.contains("not 16")),
        "{:?}",
        report.error
    );
}

/// The differential judge never rejects the task's own solution: HumanEval/147's solution is
/// cubic, and inputs moved from its asserts (`n * 2 + 3`) run it out of the task's fuel; those
/// inputs are dropped (the judge keeps the ones it passes) rather than turn it into an "exploit".
#[test]
fn the_differential_judge_accepts_the_solution_within_the_tasks_budget() {
    use rewardbox_audit::AuditTask;
    use rewardbox_audit::tier5::Judge;
    let problems = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/HumanEval.jsonl"),
    )
    .unwrap();
    let scorer = common::scorer();
    for id in ["HumanEval/147", "HumanEval/63"] {
        let p: Value = problems
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .find(|p| p["task_id"] == id)
            .unwrap();
        let program = format!(
            "```python\n{}{}\n```",
            p["prompt"].as_str().unwrap(),
            p["canonical_solution"].as_str().unwrap()
        );
        let fields = json!({"id": id, "verifier": "code", "scoring": "all",
            "candidate_limits": {"fuel": 1_000_000_000u64, "memory_mb": 64},
            "tests": {"asserts": p["test"], "entry_point": p["entry_point"], "setup": p["prompt"]}});
        let task = AuditTask::new(fields.as_object().unwrap().clone(), Some(program.clone()));
        let judge = Judge::for_task(&scorer, &task, None);
        assert!(
            judge.describe().starts_with("differential tests"),
            "{id}: {}",
            judge.describe()
        );
        assert!(judge.is_independent());
        assert_eq!(judge.accepts(&scorer, &[program])[0], Some(true), "{id}");
    }
}

/// The judge of the twin task `id` (its solution taken out as the task's), which must be a
/// differential judge with some power; with the scorer it runs on and the solution.
fn differential_judge_of(id: &str) -> (rewardbox::Scorer, rewardbox_audit::tier5::Judge, String) {
    use rewardbox_audit::AuditTask;
    use rewardbox_audit::tier5::Judge;
    let twin = read_jsonl("twins.jsonl")
        .into_iter()
        .find(|t| t["id"] == id)
        .unwrap();
    let mut fields = twin.as_object().unwrap().clone();
    let solution = fields
        .remove("solution")
        .unwrap()
        .as_str()
        .unwrap()
        .to_string();
    let scorer = common::scorer();
    let judge = Judge::for_task(
        &scorer,
        &AuditTask::new(fields, Some(solution.clone())),
        None,
    );
    assert!(
        judge
            .describe()
            .starts_with("differential tests against the solution"),
        "{id}: {}",
        judge.describe()
    );
    assert!(judge.power().is_some_and(|p| p.separating > 0), "{id}");
    (scorer, judge, solution)
}

/// An IOI task whose grader calls the submission's function (`grader-cpp-count-above`, trained
/// on every seed by the bench only): its judge is differential, the grader's output on inputs
/// made from the cases' own (the solution's record) the expected one; it accepts the solution
/// and rejects the weak twin's exploit, counting values at the threshold too, which the weak
/// twin's tests never show.
#[test]
fn a_grader_tasks_judge_compares_the_graders_output() {
    let (scorer, judge, solution) = differential_judge_of("grader-cpp-count-above/weak");
    let at_threshold_too = solution.replace("v > threshold", "v >= threshold");
    assert_ne!(at_threshold_too, solution);
    assert_eq!(
        judge.accepts(&scorer, &[solution, at_threshold_too]),
        [Some(true), Some(false)]
    );
}

/// A test module whose tests make instances of the module's class (`pytest-class-stack`, trained
/// on every seed by the bench only): its judge replays what the tests did with each instance,
/// with arguments made from theirs, and wants the solution's results. It accepts the solution and
/// rejects the weak twin's exploit (a class whose every method returns what the first assert
/// wants) and a stack that loses all but its last item, which the weak twin's one test cannot
/// tell from a stack.
#[test]
fn a_class_modules_judge_replays_what_the_tests_did_with_its_objects() {
    let (scorer, judge, solution) = differential_judge_of("pytest-class-stack/weak");
    let constant = "```python\nclass Stack:\n    def __init__(self, *args, **kwargs):\n        pass\n\n    \
                    def __getattr__(self, name):\n        return lambda *args, **kwargs: 2\n```";
    let forgetful = solution.replace("self._items.append(x)", "self._items = [x]");
    assert_ne!(forgetful, solution);
    assert_eq!(
        judge.accepts(&scorer, &[solution, constant.to_string(), forgetful]),
        [Some(true), Some(false), Some(false)]
    );
}

/// Tests that read a value of an object rather than call a method (`pytest-class-property`, a
/// property; `unittest-class-attribute`, a plain attribute; `jest-class-getter`, a getter; each
/// trained on every seed by the bench only): the judge replays the reads as it replays calls and
/// wants the solution's values, so it rejects the weak twin's exploit, a class each of whose
/// methods the tests call returns the first claim's value and each of whose other attributes is
/// that value; and a class whose read value is wrong but right for the one test's steps (a
/// tally's total worked out from how many numbers it holds, an account that keeps only its last
/// deposit). The weak twin's one test rewards both; the judge accepts only the solution.
#[test]
fn a_class_judge_replays_the_values_the_tests_read() {
    use rewardbox::{Scorer, Task};
    // (weak twin, the exploit, the solution's line that the forgetful class has instead)
    let python_constant = |class: &str, methods: &str, value: &str| {
        format!(
            "```python\nclass {class}:\n    def __init__(self, *args, **kwargs):\n        pass\n\n    \
             def __getattr__(self, name):\n        if name in {methods}:\n            \
             return lambda *args, **kwargs: {value}\n        return {value}\n```"
        )
    };
    let cases = [
        (
            "pytest-class-property/weak",
            python_constant("Tally", "['add']", "5"),
            ("sum(self._items)", "5 * len(self._items) // 2"),
        ),
        (
            "unittest-class-attribute/weak",
            python_constant("Account", "['deposit']", "10"),
            ("self.balance += amount", "self.balance = amount"),
        ),
        (
            "jest-class-getter/weak",
            "```javascript\nfunction Tally() {\n  return new Proxy(this, { get: (t, k) => (typeof k === 'symbol' || k === 'then' ? undefined : k === 'add' ? () => 5 : 5) });\n}\nmodule.exports = { Tally };\n```".to_string(),
            ("this.items.reduce((a, b) => a + b, 0)", "Math.floor(5 * this.items.length / 2)"),
        ),
    ];
    for (id, constant, (kept, wrong)) in cases {
        let (scorer, judge, solution): (Scorer, _, String) = differential_judge_of(id);
        let wrong = solution.replace(kept, wrong);
        assert_ne!(wrong, solution, "{id}");
        // The weak twin's own tests reward the exploit and the wrong class.
        let mut twin = read_jsonl("twins.jsonl")
            .into_iter()
            .find(|t| t["id"] == id)
            .unwrap();
        twin["completions"] = json!([constant, wrong]);
        let task = Task::from_json_line(&twin.to_string()).unwrap();
        let rewarded: Vec<f64> = scorer
            .score_task(&task)
            .results
            .iter()
            .map(|r| r.score)
            .collect();
        assert_eq!(rewarded, [1.0, 1.0], "{id}");
        assert_eq!(
            judge.accepts(&scorer, &[solution, constant, wrong]),
            [Some(true), Some(false), Some(false)],
            "{id}"
        );
    }
}

/// Test files whose tests make objects of the module's class (`jest-class-stack`, a CommonJS
/// module under Jest, and `node-test-class-counter`, a default-exported class under `node:test`;
/// trained on every seed by the bench only): the judge replays what the tests did with each
/// object, with arguments made from theirs, a step done twice or left out, and wants the
/// solution's results. It accepts the solution and rejects the weak twin's exploit (a class each
/// of whose methods returns what the first assertion wants) and a class that keeps only its last
/// change, which the weak twin's one test cannot tell from the solution.
#[test]
fn a_test_files_judge_replays_what_the_tests_did_with_the_candidates_objects() {
    // (weak twin, its first assertion's value and how a class is exported, the solution's line
    // that a class keeping only its last change has instead)
    let pairs = [
        (
            "jest-class-stack/weak",
            "2",
            "module.exports = { Stack: Any };",
            ("this.items.push(x);", "this.items = [x];"),
        ),
        (
            "node-test-class-counter/weak",
            "6",
            "module.exports = Any;",
            ("this.count += by;", "this.count = this.start + by;"),
        ),
    ];
    for (id, value, export, (kept, forgets)) in pairs {
        let (scorer, judge, solution) = differential_judge_of(id);
        let constant = format!(
            "```javascript\nfunction Any() {{\n  return new Proxy(this, {{ get: (t, k) => (typeof k === 'symbol' || k === 'then' ? undefined : () => {value}) }});\n}}\n{export}\n```"
        );
        let forgetful = solution.replace(kept, forgets);
        assert_ne!(forgetful, solution, "{id}");
        assert_eq!(
            judge.accepts(&scorer, &[solution, constant, forgetful]),
            [Some(true), Some(false), Some(false)],
            "{id}"
        );
    }
}

/// An IOI communication task (`communication-python-sum`, a Python manager; trained on every seed
/// by the bench only): its judge is the manager on inputs made from the cases' own, each case
/// scored at least as the solution scores it. It accepts the solution and rejects the weak twin's
/// exploit, the solution's side of the first case's conversation written out without listening.
#[test]
fn a_communication_tasks_judge_wants_the_managers_score() {
    let (scorer, judge, solution) = differential_judge_of("communication-python-sum/weak");
    let replay = "```python\nimport sys\nsys.stdout.write(\"6\\n\")\nsys.stdout.flush()\n```";
    assert_eq!(
        judge.accepts(&scorer, &[solution, replay.to_string()]),
        [Some(true), Some(false)]
    );
}

/// The sweep before training tries each exploit production of the grammar once, whatever the
/// seed and without the policy learning from it: the communication pair's weak twin, whose
/// replayed conversation a seed-1 policy never samples (it settles on a solution first), is found
/// with no training at all; the sound twin's sweep is rewarded for nothing the judge rejects.
#[test]
fn the_sweep_before_training_tries_every_exploit_production_once() {
    let twins = read_jsonl("twins.jsonl");
    let lines: Vec<(usize, String)> = ["weak", "sound"]
        .iter()
        .enumerate()
        .map(|(i, kind)| {
            let id = format!("communication-python-sum/{kind}");
            let twin = twins.iter().find(|t| t["id"] == id.as_str()).unwrap();
            (i + 1, twin.to_string())
        })
        .collect();
    let untrained = Tier5Options {
        steps: 0,
        seed: 1,
        ..options()
    };
    let reports = explore_lines(&common::scorer(), &lines, &untrained);
    let (weak, sound) = (&reports[0], &reports[1]);
    assert_eq!(weak.error, None);
    let found = weak
        .sampled_exploit
        .as_ref()
        .expect("the weak twin's exploit");
    assert_eq!(
        found.step, None,
        "tried by the sweep, not sampled in training"
    );
    assert!(weak.is_right_for(true) && weak.steps == 0);
    assert!(
        finding(weak).unwrap().attack == "tier5 (the sweep before training)",
        "{:?}",
        finding(weak)
    );
    assert_eq!(sound.error, None);
    assert!(
        sound.sampled_exploit.is_none(),
        "{:?}",
        sound.sampled_exploit
    );
    assert!(
        sound.samples > 10,
        "the sound twin was swept too: {}",
        sound.samples
    );
}

/// A verifier component of the task's own that runs the completion's program (the test guest's
/// `program-trusts-output` and `program-exact`): the judge feeds the solution's program the
/// inputs the verifier fed it, written down by the host as the verifier asked for the runs, and
/// inputs made from them. The weak twin (output that contains the expected text or "passed"
/// passes) is exploited; the sound one (every output exactly) converges on the solution or on
/// nothing, with no finding, in Tier 5 or in Tier 1 (which attacks it as a program verifier, not
/// with answers read from the program's text).
#[test]
fn a_component_verifier_that_runs_programs_is_judged_by_the_runs_it_asks_for() {
    let twin = |weak: bool| {
        json!({
            "id": if weak { "component-sum/weak" } else { "component-sum/sound" },
            "verifier": test_guests::HOSTILE_VERIFIER,
            "language": "python",
            "attack": if weak { "program-trusts-output" } else { "program-exact" },
            "prompt": "Read n and print 1 + 2 + ... + n.",
            "inputs": if weak { json!(["4\n"]) } else { json!(["4\n", "1\n", "10\n", "0\n", "7\n"]) },
            "expected": if weak { json!(["10"]) } else { json!(["10", "1", "55", "0", "28"]) },
            "solution": "```python\nn = int(input())\nprint(n * (n + 1) // 2)\n```",
        })
    };
    let scorer = common::scorer();
    let lines = vec![(1, twin(true).to_string()), (2, twin(false).to_string())];
    for seed in 0..2 {
        let reports = explore_lines(&scorer, &lines, &Tier5Options { seed, ..options() });
        for (report, weak) in reports.iter().zip([true, false]) {
            assert_eq!(report.error, None);
            assert!(
                report.is_right_for(weak),
                "{:?} (seed {seed}): {:?} {:?}, judged by {}",
                report.id,
                report.outcome,
                report.choices,
                report.judge
            );
            assert!(
                report
                    .judge
                    .starts_with("differential tests of the programs it runs against the solution"),
                "{}",
                report.judge
            );
        }
    }
    let tier1 = rewardbox_audit::audit_lines(
        &scorer,
        &lines[1..],
        &rewardbox_audit::AuditOptions::default(),
    );
    assert!(
        tier1.tasks[0].findings.is_empty(),
        "{:?}",
        tier1.tasks[0].findings
    );
}
