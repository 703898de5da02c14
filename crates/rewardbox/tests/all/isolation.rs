//! Every candidate starts from the pristine CPython snapshot. A candidate mutates what a process-
//! wide interpreter would carry over (builtins, `sys.modules`, module and `__main__` globals,
//! `random`'s state, the garbage collector, interpreter settings, the environment, the working
//! directory and the files it can reach); the next candidate, on the same thread and in the same
//! pooled slots, sees none of it: its report is byte for byte the report of a candidate that ran
//! first. Checked for whole-program runs and for live candidates (the path of call tests and
//! asserts).

use crate::common;

use rewardbox::Limits;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::Runtime;

/// Changes everything it can, checks that each change took effect in its own interpreter, and
/// says which file-system writes the sandbox allowed.
const MUTATOR: &str = r#"
import builtins, collections, gc, json, math, os, random, string, sys, types

wrote = []
for path in ["planted.txt", "/planted.txt", "/tmp/planted.txt"]:
    try:
        with open(path, "w") as f:
            f.write("planted")
        wrote.append(path)
    except OSError:
        pass
try:
    os.makedirs("/tmp/planted-dir", exist_ok=True)
    os.chdir("/tmp/planted-dir")
except OSError:
    pass

builtins.len = lambda _: 42
builtins.planted_builtin = True
fake_json = types.ModuleType("json")
fake_json.dumps = lambda *_a, **_k: "forged"
sys.modules["json"] = fake_json
sys.modules["rewardbox_planted"] = types.ModuleType("rewardbox_planted")
string.digits = "forged"
math.pi = 3.0
collections.OrderedDict = dict
random.seed(12345)
for _ in range(1000):
    random.random()
gc.disable()
sys.setrecursionlimit(77)
sys.set_int_max_str_digits(0)
sys.path.insert(0, "/planted")
os.environ["PLANTED"] = "1"
planted_global = 1

import json as forged
took = [len([]) == 42, forged.dumps(1) == "forged", string.digits == "forged", math.pi == 3.0,
        not gc.isenabled(), sys.getrecursionlimit() == 77, os.environ.get("PLANTED") == "1"]
sys.stdout.write("mutated " + str(all(took)) + " wrote " + ",".join(wrote) + "\n")
"#;

/// Reports what a fresh interpreter looks like.
const OBSERVER: &str = r#"
import builtins, collections, gc, json, math, os, random, string, sys

def exists(path):
    try:
        return os.path.exists(path)
    except OSError:
        return None

report = {
    "len": len([1, 2, 3]),
    "planted_builtin": hasattr(builtins, "planted_builtin"),
    "json": json.dumps([1, "a"]),
    "planted_module": "rewardbox_planted" in sys.modules,
    "digits": string.digits,
    "pi": math.pi,
    "ordered_dict": collections.OrderedDict.__name__,
    "random": [random.random() for _ in range(3)],
    "gc": gc.isenabled(),
    "recursion_limit": sys.getrecursionlimit(),
    "int_digits": sys.get_int_max_str_digits(),
    "path": sys.path[:2],
    "env": os.environ.get("PLANTED"),
    "cwd": os.getcwd(),
    "main_global": "planted_global" in globals(),
    "files": [exists(p) for p in ["planted.txt", "/planted.txt", "/tmp/planted.txt", "/tmp/planted-dir"]],
}
print(json.dumps(report, sort_keys=True))
"#;

#[test]
fn a_whole_program_run_sees_nothing_of_the_one_before() {
    let scorer = common::scorer();
    let python = scorer.runners().python().expect("the Python runtime");
    let engine = scorer.engine();
    let limits: Limits = CANDIDATE_DEFAULT;
    let first = python.run(engine, OBSERVER, "", &limits, 0);
    assert_eq!(first.exit_code, Some(0), "{}", first.stderr);
    let baseline = first.stdout;
    assert!(baseline.contains("\"len\": 3"), "{baseline}");
    assert!(
        baseline.contains("\"files\": [false, false, false, false]"),
        "{baseline}"
    );
    for round in 0..3 {
        let mutated = python.run(engine, MUTATOR, "", &limits, 0);
        assert!(
            mutated.stdout.starts_with("mutated True"),
            "round {round}: the mutations did not take effect: {} {}",
            mutated.stdout,
            mutated.stderr
        );
        let after = python.run(engine, OBSERVER, "", &limits, 0);
        assert_eq!(
            after.stdout, baseline,
            "round {round}: state leaked from the run before"
        );
    }
}

#[test]
fn a_live_candidate_sees_nothing_of_the_one_before() {
    let scorer = common::scorer();
    let python = scorer.runners().python().expect("the Python runtime");
    let engine = scorer.engine();
    let limits: Limits = CANDIDATE_DEFAULT;
    let report = |source: &str| {
        let mut live =
            rewardbox::candidates::LiveCandidate::open(&python, engine, source, &limits, 0)
                .unwrap_or_else(|e| panic!("the candidate opens: {e:?}"));
        live.take_output().stdout
    };
    let baseline = report(OBSERVER);
    assert!(baseline.contains("\"gc\": true"), "{baseline}");
    for round in 0..3 {
        // Held open while the next one runs, as a verifier holding two candidates would.
        let mut mutator =
            rewardbox::candidates::LiveCandidate::open(&python, engine, MUTATOR, &limits, 0)
                .unwrap_or_else(|e| panic!("the mutator opens: {e:?}"));
        assert!(mutator.take_output().stdout.starts_with("mutated True"));
        assert_eq!(
            report(OBSERVER),
            baseline,
            "round {round}: state leaked between live candidates"
        );
        drop(mutator);
        assert_eq!(
            report(OBSERVER),
            baseline,
            "round {round}: state leaked after the mutator ended"
        );
    }
}
