//! JavaScript and TypeScript `call` tests whose values are more than JSON (`NaN`, the
//! infinities, `-0`, `Set`, `Map`, `undefined`, BigInt, `Date`, written with value JSON's tags):
//! the values cross to the live candidate and back on the runner's wire as themselves.
//!
//! Each problem has a right and a wrong program. Their verdicts, call by call, are the verdicts
//! native Node gives the same programs with a harness of ours calling them on the same arguments
//! (written as JavaScript literals) and comparing with `util.isDeepStrictEqual`, numbers by value
//! (`-0` is `0`), as a call test compares.

use crate::common;

use rewardbox::CaseStatus;
use serde_json::{Value, json};
use std::process::Command;

/// One problem: the function called, its cases, a right and a wrong program.
struct Problem {
    entry: &'static str,
    cases: fn() -> Value,
    right: &'static str,
    wrong: &'static str,
}

const STATS: Problem = Problem {
    entry: "stats",
    cases: || {
        json!([
            {"args": [[3, 1, 2]], "expected": {"mean": 2, "min": 1, "max": 3}},
            {"args": [[]], "expected": {"mean": {"$f": "nan"}, "min": {"$f": "inf"}, "max": {"$f": "-inf"}}},
            {"args": [[{"$f": "inf"}, 1]], "expected": {"min": 1, "max": {"$f": "inf"}, "mean": {"$f": "inf"}}},
        ])
    },
    right: "function stats(xs) {\n  const sum = xs.reduce((a, b) => a + b, 0);\n  return { mean: sum / xs.length, min: Math.min(...xs), max: Math.max(...xs) };\n}\n",
    // An empty list's mean as 0, which JSON could not tell from NaN.
    wrong: "function stats(xs) {\n  const sum = xs.reduce((a, b) => a + b, 0);\n  return { mean: xs.length ? sum / xs.length : 0, min: Math.min(...xs), max: Math.max(...xs) };\n}\n",
};

const UNIQUE_WORDS: Problem = Problem {
    entry: "uniqueWords",
    cases: || {
        json!([
            {"args": ["b a b c"], "expected": {"$s": ["a", "b", "c"]}},
            {"args": [""], "expected": {"$s": []}},
        ])
    },
    right: "const uniqueWords = (text) => new Set(text.split(' ').filter((w) => w));\n",
    // An array of the same words: not a Set.
    wrong: "const uniqueWords = (text) => [...new Set(text.split(' ').filter((w) => w))].sort();\n",
};

const COUNTS: Problem = Problem {
    entry: "counts",
    cases: || {
        json!([
            {"args": [[1, "1", 1, true]], "expected": {"$d": [[1, 2], ["1", 1], [true, 1]]}},
            {"args": [[]], "expected": {"$d": []}},
        ])
    },
    right: "function counts(items) {\n  const m = new Map();\n  for (const x of items) m.set(x, (m.get(x) || 0) + 1);\n  return m;\n}\n",
    // An object: its keys are strings, so 1 and \"1\" are counted together.
    wrong: "function counts(items) {\n  const m = {};\n  for (const x of items) m[x] = (m[x] || 0) + 1;\n  return new Map(Object.entries(m));\n}\n",
};

const FACTORIAL: Problem = Problem {
    entry: "factorial",
    cases: || {
        json!([
            {"args": [{"$type": "bigint", "value": "25"}], "expected": {"$type": "bigint", "value": "15511210043330985984000000"}},
            {"args": [{"$type": "bigint", "value": "3"}], "expected": {"$type": "bigint", "value": "6"}},
            {"args": [{"$type": "bigint", "value": "0"}], "expected": {"$type": "bigint", "value": "1"}},
        ])
    },
    right: "module.exports = { factorial(n) { let p = 1n; for (let i = 2n; i <= n; i++) p *= i; return p; } };\n",
    // In numbers: loses digits past 2^53, and is a number, not a BigInt.
    wrong: "function factorial(n) { let p = 1; for (let i = 2; i <= Number(n); i++) p *= i; return n > 20n ? p : BigInt(p); }\n",
};

const FIND: Problem = Problem {
    entry: "find",
    cases: || {
        json!([
            {"args": [[1, 2, 3], 2], "expected": 1},
            {"args": [[1, 2, 3], 9], "expected": {"$type": "undefined"}},
            {"args": [[null], null], "expected": 0},
        ])
    },
    right: "function find(xs, x) { const i = xs.indexOf(x); return i < 0 ? undefined : i; }\n",
    // null for "not found": not undefined.
    wrong: "function find(xs, x) { const i = xs.indexOf(x); return i < 0 ? null : i; }\n",
};

const SIGNS: Problem = Problem {
    entry: "signs",
    cases: || {
        json!([
            {"args": [[-0.0, 0, -1, {"$f": "-inf"}, {"$f": "nan"}]], "expected": ["-", "+", "-", "-", "?"]},
            {"args": [[]], "expected": []},
        ])
    },
    right: "function signs(xs) { return xs.map((x) => (x !== x ? '?' : Object.is(x, -0) || x < 0 ? '-' : '+')); }\n",
    // Reads -0 as 0, NaN as positive.
    wrong: "function signs(xs) { return xs.map((x) => (x < 0 ? '-' : '+')); }\n",
};

const NEXT_DAY: Problem = Problem {
    entry: "nextDay",
    cases: || {
        json!([
            {"args": [{"$type": "Date", "value": 0}], "expected": {"$type": "Date", "value": 86400000}},
            {"args": [{"$type": "Date", "value": null}], "expected": {"$type": "Date", "value": null}},
        ])
    },
    right: "function nextDay(d) { return new Date(d.getTime() + 86400000); }\n",
    // The time, not a Date.
    wrong: "function nextDay(d) { return d.getTime() + 86400000; }\n",
};

const PROBLEMS: [&Problem; 7] = [
    &STATS,
    &UNIQUE_WORDS,
    &COUNTS,
    &FACTORIAL,
    &FIND,
    &SIGNS,
    &NEXT_DAY,
];

/// `value` (a task's value JSON) as a JavaScript expression building it.
fn js_literal(value: &Value) -> String {
    let all = |items: &Value| {
        items
            .as_array()
            .unwrap()
            .iter()
            .map(js_literal)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match value {
        Value::Number(n) if n.as_f64() == Some(0.0) && n.as_f64().unwrap().is_sign_negative() => {
            "-0".into()
        }
        Value::Array(_) => format!("[{}]", all(value)),
        Value::Object(o) if o.len() == 1 && o.contains_key("$f") => match o["$f"].as_str() {
            Some("nan") => "NaN".into(),
            Some("inf") => "Infinity".into(),
            _ => "-Infinity".into(),
        },
        Value::Object(o) if o.len() == 1 && o.contains_key("$s") => {
            format!("new Set([{}])", all(&o["$s"]))
        }
        Value::Object(o) if o.len() == 1 && o.contains_key("$d") => {
            format!("new Map([{}])", all(&o["$d"]))
        }
        Value::Object(o) if o.contains_key("$type") => match o["$type"].as_str() {
            Some("undefined") => "undefined".into(),
            Some("bigint") => format!("{}n", o["value"].as_str().unwrap()),
            _ => match o["value"].as_f64() {
                Some(ms) => format!("new Date({ms})"),
                None => "new Date(NaN)".into(),
            },
        },
        Value::Object(o) => format!(
            "{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}: {}", Value::String(k.clone()), js_literal(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        other => other.to_string(),
    }
}

/// What native Node says of each case of `problem` on `program` (`pass`, `fail`, `threw`), with
/// the program in a file of `extension` (`js` or `ts`).
fn native_verdicts(problem: &Problem, program: &str, extension: &str) -> Vec<String> {
    let cases = (problem.cases)();
    let calls: Vec<String> = cases
        .as_array()
        .unwrap()
        .iter()
        .map(|case| {
            let args: Vec<String> = case["args"]
                .as_array()
                .unwrap()
                .iter()
                .map(js_literal)
                .collect();
            format!(
                "[() => __entry({}), {}]",
                args.join(", "),
                js_literal(&case["expected"])
            )
        })
        .collect();
    let harness = format!(
        "\n;{{\nconst __util = require('util');\n\
         const __zero = (v) => typeof v === 'number' && v === 0 ? 0 : v instanceof Map ? new Map([...v].map(([k, x]) => [__zero(k), __zero(x)])) : v instanceof Set ? new Set([...v].map(__zero)) : Array.isArray(v) ? v.map(__zero) : v && typeof v === 'object' && !(v instanceof Date) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, __zero(x)])) : v;\n\
         const __entry = typeof module.exports.{entry} === 'function' ? module.exports.{entry} : eval('{entry}');\n\
         for (const [call, expected] of [{calls}]) {{\n\
           let verdict;\n\
           try {{ verdict = __util.isDeepStrictEqual(__zero(call()), __zero(expected)) ? 'pass' : 'fail'; }} catch (e) {{ verdict = 'threw'; }}\n\
           process.stdout.write(verdict + '\\n');\n\
         }}\n}}\n",
        entry = problem.entry,
        calls = calls.join(", "),
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("program.{extension}"));
    std::fs::write(&path, format!("{program}{harness}")).unwrap();
    let node = if extension == "ts" {
        common::node_that_strips_types()
    } else {
        common::node()
    };
    let output = Command::new(&node).arg(&path).output().unwrap_or_else(|e| {
        panic!(
            "native Node.js ({node}) does not run: {e}; run scripts/test.sh, which installs it, or \
             set REWARDBOX_NODE"
        )
    });
    assert!(
        output.status.success(),
        "{}: the native harness failed: {}",
        problem.entry,
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn task(language: &str, entry: &str, cases: Value, programs: &[&str]) -> Value {
    json!({
        "id": format!("{language}-{entry}"), "verifier": "code", "language": language,
        "extract": "whole",
        "tests": {"call": {"entry_point": entry, "cases": cases}},
        "completions": programs,
    })
}

fn verdict_word(status: CaseStatus) -> &'static str {
    match status {
        CaseStatus::Passed => "pass",
        CaseStatus::Wrong => "fail",
        CaseStatus::ExitedNonzero => "threw",
        _ => "other",
    }
}

/// Every problem's right and wrong program, graded here and under native Node: the same verdict
/// call by call, each right program passing every call and each wrong one failing one at least.
fn grade_like_node(language: &str, extension: &str, problems: &[(&Problem, &str, &str)]) {
    let tasks: Vec<Value> = problems
        .iter()
        .map(|(p, right, wrong)| task(language, p.entry, (p.cases)(), &[right, wrong]))
        .collect();
    let results = common::score_tasks(&tasks);
    let mut failures = Vec::new();
    for ((problem, right, wrong), result) in problems.iter().zip(&results) {
        assert_eq!(
            result.status, None,
            "{}: {:?}",
            problem.entry, result.detail
        );
        for (which, program, graded) in [
            ("right", right, &result.results[0]),
            ("wrong", wrong, &result.results[1]),
        ] {
            let ours: Vec<&str> = graded
                .cases
                .iter()
                .map(|c| verdict_word(c.status))
                .collect();
            let native = native_verdicts(problem, program, extension);
            if ours != native {
                failures.push(format!(
                    "{} ({which}): here {ours:?}, natively {native:?}: {}",
                    problem.entry, graded.detail
                ));
            }
        }
        assert_eq!(
            result.results[0].score, 1.0,
            "{}: {}",
            problem.entry, result.results[0].detail
        );
        assert!(
            result.results[1].score < 1.0,
            "{}: the wrong program passed",
            problem.entry
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn javascript_values_beyond_json_are_graded_as_node_would() {
    let problems: Vec<(&Problem, &str, &str)> =
        PROBLEMS.iter().map(|p| (*p, p.right, p.wrong)).collect();
    grade_like_node("javascript", "js", &problems);
}

#[test]
fn typescript_values_beyond_json_are_graded_as_node_would() {
    let right = "function counts<T>(items: readonly T[]): Map<T, number> {\n  const m = new Map<T, number>();\n  for (const x of items) m.set(x, (m.get(x) ?? 0) + 1);\n  return m;\n}\n";
    let wrong = "function counts(items: any[]): Map<string, number> {\n  const m: Record<string, number> = {};\n  for (const x of items) m[x] = (m[x] ?? 0) + 1;\n  return new Map(Object.entries(m));\n}\n";
    let signs = "function signs(xs: number[]): string[] {\n  return xs.map((x: number): string => (Number.isNaN(x) ? '?' : Object.is(x, -0) || x < 0 ? '-' : '+'));\n}\n";
    let signs_wrong =
        "const signs = (xs: number[]) => xs.map((x) => (x < 0 ? '-' : '+') as string);\n";
    grade_like_node(
        "typescript",
        "ts",
        &[(&COUNTS, right, wrong), (&SIGNS, signs, signs_wrong)],
    );
}

/// What a candidate can do during a call: each call it spoils fails alone, with its status.
#[test]
fn a_candidate_spoils_only_its_own_calls() {
    let cases = json!([
        {"args": [1], "expected": {"$s": [1]}},
        {"args": [2], "expected": {"$s": [2]}},
        {"args": [3], "expected": {"$s": [3]}},
    ]);
    let programs = [
        // Exits during the second call.
        "function f(x) { if (x === 2) process.exit(0); return new Set([x]); }",
        // Throws on the second.
        "function f(x) { if (x === 2) throw new RangeError('two'); return new Set([x]); }",
        // Loops on the second.
        "function f(x) { while (x === 2) {} return new Set([x]); }",
        // Prints a forged answer (the expected one) and then answers wrong.
        "function f(x) { process.stdout.write('\\x1e{\"r\":{\"s\":[' + x + ']}}\\n'); console.log('\\x1e{\"r\":{\"s\":[' + x + ']}}'); return new Set([x + 1]); }",
        // Returns a function, which no test can receive.
        "function f(x) { return x === 2 ? f : new Set([x]); }",
        // Never defines the function.
        "function g(x) { return new Set([x]); }",
    ];
    let mut t = task("javascript", "f", cases, &programs);
    t["candidate_limits"] = json!({"fuel": 200_000_000u64});
    let result = &common::score_tasks(&[t])[0];
    assert_eq!(result.status, None, "{:?}", result.detail);
    let statuses = |i: usize| -> Vec<CaseStatus> {
        result.results[i].cases.iter().map(|c| c.status).collect()
    };
    use CaseStatus::*;
    assert_eq!(statuses(0)[0], Passed, "{}", result.results[0].detail);
    assert_eq!(statuses(0)[2], Passed, "{}", result.results[0].detail);
    assert_ne!(statuses(0)[1], Passed, "{}", result.results[0].detail);
    assert!(
        result.results[0].cases[1]
            .detail
            .contains("ended during the call"),
        "{}",
        result.results[0].cases[1].detail
    );
    assert_eq!(statuses(1), [Passed, ExitedNonzero, Passed]);
    assert!(
        result.results[1].cases[1]
            .detail
            .contains("f(2) threw: RangeError: two")
    );
    assert_eq!(
        statuses(2),
        [Passed, FuelExhausted, Passed],
        "{}",
        result.results[2].detail
    );
    assert_eq!(
        statuses(3),
        [Wrong, Wrong, Wrong],
        "{}",
        result.results[3].detail
    );
    assert!(
        result.results[3].cases[0]
            .detail
            .contains("f(1) returned Set(1) {2}, expected Set(1) {1}"),
        "{}",
        result.results[3].cases[0].detail
    );
    assert_eq!(statuses(4)[0], Passed);
    assert_ne!(statuses(4)[1], Passed);
    assert!(
        result.results[4].cases[1].detail.contains("a function"),
        "{}",
        result.results[4].detail
    );
    assert_eq!(statuses(5).iter().filter(|s| **s == Passed).count(), 0);
    assert!(
        result.results[5].cases[0]
            .detail
            .contains("f is not defined"),
        "{}",
        result.results[5].detail
    );
}

/// A tag a task gets wrong is `invalid_task` naming its field.
#[test]
fn a_bad_tag_is_the_tasks_error_naming_its_field() {
    let table = [
        (
            json!([{"args": [{"$fs": [1]}], "expected": 1}]),
            "tests.call.cases[0].args[0]",
            "Python value",
        ),
        (
            json!([{"args": [1], "expected": 1}, {"args": [1], "expected": {"$f": "NaN"}}]),
            "tests.call.cases[1].expected",
            "\"nan\"",
        ),
        (
            json!([{"args": [{"$type": "symbol"}], "expected": 1}]),
            "tests.call.cases[0].args[0]",
            "undefined",
        ),
    ];
    for (cases, field, why) in table {
        let t = task(
            "javascript",
            "f",
            cases.clone(),
            &["function f(x) { return x; }"],
        );
        let result = &common::score_tasks(&[t])[0];
        let detail = common::invalid_detail(result);
        assert!(
            detail.contains(field) && detail.contains(why),
            "{cases}: {detail}"
        );
    }
}

/// A candidate written as an ES module (it imports or exports) answers calls as a script does:
/// by what it exports, or by a function declared in its scope.
#[test]
fn es_module_candidates_answer_calls() {
    let cases = json!([
        {"args": [[2, 1, 2]], "expected": {"$s": [1, 2]}},
        {"args": [[]], "expected": {"$s": []}},
    ]);
    let programs = [
        "export function distinct(xs) { return new Set(xs); }\n",
        "import { inspect } from 'util';\nfunction distinct(xs) { return new Set(xs.map((x) => Number(inspect(x)))); }\nexport const unused = 1;\n",
        "export default function distinct(xs) { return new Set(xs); }\n",
        "const answer = await Promise.resolve(7);\nexport const distinct = (xs) => new Set(xs.length ? [answer] : []);\n",
    ];
    let result = &common::score_tasks(&[task("javascript", "distinct", cases, &programs)])[0];
    assert_eq!(result.status, None, "{:?}", result.detail);
    for graded in &result.results[..3] {
        assert_eq!(graded.score, 1.0, "{}", graded.detail);
    }
    let last: Vec<CaseStatus> = result.results[3].cases.iter().map(|c| c.status).collect();
    assert_eq!(
        last,
        [CaseStatus::Wrong, CaseStatus::Passed],
        "{}",
        result.results[3].detail
    );
}
