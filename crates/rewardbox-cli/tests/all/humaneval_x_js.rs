//! HumanEval-X's JavaScript problems (`tests/data/humaneval-x/humaneval_js.jsonl.gz`, as the
//! benchmark ships them) graded by their own test code, as written, in a trusted program calling
//! the live candidate: on all 164 problems (property checks that draw random inputs, tests that
//! call a helper of the prompt, a solution that requires the npm module `js-md5`), each verdict
//! on the canonical solution and on `return;` is the one CodeGeeX's harness gets from Node on
//! the same program (prompt + completion + test, run by `node`; passed when it exits 0 and
//! prints nothing): every canonical solution passes but the two the benchmark ships broken, and
//! every `return;` fails.
//!
//! Then what the benchmark's harness cannot promise: every JavaScript value crosses as itself,
//! each assert is a case (`console.assert` goes on after a failure, `assert.*` ends the run, as
//! in Node), and a candidate cannot end the test run as passed.

use crate::common;

use crate::humaneval_x_data;
use common::node;

use humaneval_x_data::{case_statuses, own_task, problems, rows, score};
use rewardbox::CaseStatus;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Whether CodeGeeX's harness passes `program` under Node: exit status 0 and nothing on
/// stdout or stderr (a failed `console.assert` prints to stderr and does not change the
/// status). `js-md5` resolves to a module of Node's own `crypto`, so that JavaScript/162 runs
/// natively without the npm registry.
fn passes_under_node(program: &str, dir: &Path) -> bool {
    passes_under_node_as(program, dir, "test.js", node())
}

/// [`passes_under_node`], the program in `file` (`test.ts`: run by Node's type stripping).
fn passes_under_node_as(program: &str, dir: &Path, file: &str, node: String) -> bool {
    let module = dir.join("node_modules/js-md5");
    std::fs::create_dir_all(&module).unwrap();
    std::fs::write(
        module.join("index.js"),
        "module.exports = (text) => require('crypto').createHash('md5').update(text, 'utf8').digest('hex');\n",
    )
    .unwrap();
    std::fs::write(dir.join(file), program).unwrap();
    let out = Command::new(&node)
        .arg(file)
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("native Node.js ({node}) does not run: {e}"));
    out.status.success() && out.stdout.is_empty() && out.stderr.is_empty()
}

/// `return <default>` in JavaScript: the function returns `undefined`.
const DEFAULT_COMPLETION: &str = "  return;\n}\n";

/// Canonical solutions the benchmark ships broken: they fail their own test under Node too.
const BROKEN_CANONICAL: &[(&str, &str)] = &[
    (
        "JavaScript/112",
        "returns `(z, false)`, a comma expression: false, not a pair",
    ),
    ("JavaScript/155", "counts no digit of 0"),
];

#[test]
fn javascript_verdicts_are_nodes_on_every_problem() {
    verdicts_are_nodes_on_every_problem("javascript");
}

/// JavaScript is TypeScript: every problem, its programs taken as TypeScript (`language:
/// typescript`, as a `.ts` file), gets the verdicts it gets as JavaScript and under native Node
/// running `test.ts`. Real code through the type stripper: where TypeScript reads JavaScript
/// differently (`a < b > (c)` is a generic call in TypeScript), Node and rewardbox must agree.
#[test]
fn typescript_verdicts_are_nodes_on_every_problem() {
    verdicts_are_nodes_on_every_problem("typescript");
}

/// Every problem's canonical solution and `return <default>` graded as `language` (`javascript`
/// or `typescript`), each verdict the one native Node gives on CodeGeeX's concatenation (a
/// `test.js` or a `test.ts`), and each `console.assert` of the test code a case.
fn verdicts_are_nodes_on_every_problem(language: &str) {
    let all = problems("js");
    let raw = rows("js");
    assert_eq!(all.len(), 164);
    // Among them JavaScript/32 (findZero on random polynomials), 38 and 50 (decode random
    // strings) and 53 (random sums) draw random inputs; 10, 38 and 50's tests call a helper of
    // the prompt; 162's solution requires `js-md5`; 75's solution needs more than the default
    // limit in Boa (the harness's 5 s is the task's limit).
    let tasks: Vec<Value> = all
        .iter()
        .map(|p| {
            let mut task = p.task(&[p.canonical_solution.as_str(), DEFAULT_COMPLETION]);
            task["language"] = Value::from(language);
            task
        })
        .collect();
    let results = score(&common::scorer(), &tasks);
    let (file, node) = match language {
        "typescript" => ("test.ts", common::node_that_strips_types()),
        _ => ("test.js", node()),
    };
    let mut failures = Vec::new();
    for ((problem, row), result) in all.iter().zip(&raw).zip(&results) {
        if result.status.is_some() {
            failures.push(format!(
                "{}: not scored: {:?}",
                problem.task_id, result.detail
            ));
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        let test = row["test"].as_str().unwrap();
        let broken = BROKEN_CANONICAL
            .iter()
            .any(|(id, _)| *id == problem.task_id);
        for (which, (completion, ours)) in [problem.canonical_solution.as_str(), DEFAULT_COMPLETION]
            .iter()
            .zip(&result.results)
            .enumerate()
        {
            let program = format!("{}{completion}\n{test}", problem.program_prefix);
            let native = passes_under_node_as(&program, dir.path(), file, node.clone());
            if ours.passed != native || ours.passed != (which == 0 && !broken) {
                failures.push(format!(
                    "{} {} as {language}: ours {} ({}), native {native}",
                    problem.task_id,
                    ["canonical", "default"][which],
                    ours.passed,
                    ours.detail
                ));
            }
        }
        // Each `console.assert` of the test code is a case.
        let asserts = test.matches("console.assert(").count();
        assert_eq!(
            result.results[0].cases.len(),
            asserts,
            "{}",
            problem.task_id
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn javascript_values_of_every_type_cross_exactly() {
    let declaration = "function echo(...values) {\n";
    let test = r#"const assert = require('node:assert');
const date = new Date(Date.UTC(2020, 1, 29, 12));
const sent = [-0, NaN, Infinity, -Infinity, 2 ** 53 + 2, 0.1, undefined, null, 12345678901234567890123n,
  'a\n\x1e"b\u00e9\u{1F600}', [1, , 3], JSON.parse('{"b": 1, "a": [2], "__proto__": "key", "x y": {"z": null}}'),
  new Map([[1, 'one'], ['1', {n: 1}], [NaN, new Set([1, 'x'])]]), new Set([-0, 'a', [1]]), date, true, ''];
const got = echo(...sent);
assert.strictEqual(got.length, sent.length);
assert.ok(Object.is(got[0], -0));
assert.ok(Number.isNaN(got[1]));
assert.strictEqual(got[2], Infinity);
assert.strictEqual(got[3], -Infinity);
assert.strictEqual(got[4], 2 ** 53 + 2);
assert.strictEqual(got[5], 0.1);
assert.ok(got[6] === undefined && 6 in got);
assert.strictEqual(got[7], null);
assert.strictEqual(got[8], 12345678901234567890123n);
assert.strictEqual(got[9], 'a\n\x1e"b\u00e9\u{1F600}');
assert.ok(got[10].length === 3 && !(1 in got[10]) && got[10][2] === 3);
assert.deepStrictEqual(Object.keys(got[11]), ['b', 'a', '__proto__', 'x y']);
assert.strictEqual(Object.getPrototypeOf(got[11]), Object.prototype);
assert.deepStrictEqual(got[12], sent[12]);
assert.deepStrictEqual(got[13], sent[13]);
assert.ok(got[14] instanceof Date && got[14].getTime() === date.getTime());
assert.deepStrictEqual(got.slice(15), [true, '']);
"#;
    let echo = format!("{declaration}  return values;\n}}\n");
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &[&echo])],
    );
    let result = &results[0].results[0];
    assert!(
        result.passed,
        "{}",
        result
            .cases
            .iter()
            .filter(|c| c.status != CaseStatus::Passed)
            .map(|c| format!("{}: {}", c.id, c.detail))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(result.cases.len(), 18);
    // The same test code holds under Node with the function in the same program.
    let dir = tempfile::tempdir().unwrap();
    assert!(passes_under_node(&format!("{echo}{test}"), dir.path()));
}

#[test]
fn arguments_the_candidate_changes_in_place_are_the_test_codes_changed() {
    // Natively the caller shares its arrays, objects, Maps, Sets and Dates with the function:
    // sorting, filling and clearing them in place shows in the test code's own variables (the
    // very objects: `alias` is `nums`). A number is the caller's own. The wrong program sorts a
    // copy.
    let declaration = "function arrange(nums, seen, index, tags, when, count) {\n";
    let test = r#"const assert = require('node:assert');
const nums = [5, 1, 4, , 2], alias = nums;
const seen = {old: 1}, index = new Map([['a', 1]]), tags = new Set(['x']);
const when = new Date(0);
let count = 3;
assert.strictEqual(arrange(nums, seen, index, tags, when, count), 4);
assert.deepStrictEqual(alias, [1, 2, 4, 5, ,]);
assert.deepStrictEqual(seen, {calls: 1});
assert.deepStrictEqual([...index], [['a', 1], ['n', 4]]);
assert.deepStrictEqual([...tags], []);
assert.strictEqual(when.getTime(), 1000);
assert.strictEqual(count, 3);
"#;
    let program = |copy: &str| {
        format!(
            "{declaration}  const sorted = {copy}.sort((a, b) => a - b);\n  delete seen.old;\n  seen.calls = (seen.calls || 0) + 1;\n  index.set('n', sorted.filter((x) => x !== undefined).length);\n  tags.clear();\n  when.setTime(1000);\n  count++;\n  return index.get('n');\n}}\n"
        )
    };
    let right = program("nums");
    let wrong = program("[...nums]");
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &[&right, &wrong])],
    );
    assert!(results[0].status.is_none(), "{:?}", results[0].detail);
    let r = &results[0].results;
    assert!(r[0].passed, "{:?}", r[0].cases);
    assert_eq!(r[0].cases.len(), 7);
    // The copy's program returns the right count; the test code ends at the unsorted array.
    assert_eq!(
        case_statuses(&r[1])[..2],
        [
            ("line 6", CaseStatus::Passed),
            ("line 7", CaseStatus::Wrong)
        ]
    );
    let dir = tempfile::tempdir().unwrap();
    for (program, expected) in [(&right, true), (&wrong, false)] {
        assert_eq!(
            passes_under_node(&format!("{program}{test}"), dir.path()),
            expected
        );
    }
}

#[test]
fn each_javascript_assert_is_a_case_with_nodes_control_flow() {
    let declaration = "const twice = (x) => {\n";
    let test = "const assert = require('assert');\nconsole.assert(twice(1) === 2)\nconsole.assert(twice(-3) === -6, 'negative')\nconsole.assert(twice(0) === 0)\nassert.strictEqual(twice(5), 10);\nassert.deepEqual([twice(2)], [4]);\nassert(twice(7) === 14);\n";
    let programs = [
        "const twice = (x) => {\n  return 2 * x;\n}\n",
        // Wrong on negatives: console.assert goes on; every assert.* holds.
        "const twice = (x) => {\n  return x < 0 ? x : 2 * x;\n}\n",
        // Wrong from 5 on: assert.strictEqual throws and the test code ends there.
        "const twice = (x) => {\n  return x >= 5 ? 0 : 2 * x;\n}\n",
    ];
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &programs)],
    );
    let r = &results[0].results;
    assert!(r[0].passed, "{}", r[0].detail);
    assert_eq!(r[0].cases.len(), 6);
    assert_eq!(
        case_statuses(&r[1]),
        vec![
            ("line 2", CaseStatus::Passed),
            ("line 3", CaseStatus::Wrong),
            ("line 4", CaseStatus::Passed),
            ("line 5", CaseStatus::Passed),
            ("line 6", CaseStatus::Passed),
            ("line 7", CaseStatus::Passed),
        ]
    );
    let detail = &r[1].cases[1].detail;
    assert!(
        detail.contains("Assertion failed: negative") && detail.contains("twice(-3) returned -3"),
        "{detail}"
    );
    let statuses = case_statuses(&r[2]);
    assert_eq!(
        &statuses[..4],
        &[
            ("line 2", CaseStatus::Passed),
            ("line 3", CaseStatus::Passed),
            ("line 4", CaseStatus::Passed),
            ("line 5", CaseStatus::Wrong),
        ]
    );
    assert!(
        r[2].cases[3].detail.contains("0 !== 10"),
        "{}",
        r[2].cases[3].detail
    );
    // Not reached: the test code ended at line 5.
    assert!(
        statuses[4..].iter().all(|(_, s)| *s == CaseStatus::Wrong),
        "{statuses:?}"
    );
    assert!(
        r[2].cases[4].detail.contains("the test code ended"),
        "{}",
        r[2].cases[4].detail
    );
}

/// A candidate written as an ES module (it imports or exports, as a model may write one) answers
/// the test code's calls: by what it exports, or by a function declared in its scope.
#[test]
fn an_es_module_candidate_answers_the_test_code() {
    let declaration = "function twice(x) {\n";
    let test = "const assert = require('node:assert');\nassert.strictEqual(twice(2), 4);\nassert.deepEqual(twice(-1), -2);\n";
    let programs = [
        "export function twice(x) {\n  return 2 * x;\n}\n",
        "import { strict } from 'assert';\nfunction twice(x) {\n  strict.ok(typeof x === 'number');\n  return x + x;\n}\n",
        "export default function twice(x) {\n  return x < 0 ? x : 2 * x;\n}\n",
    ];
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &programs)],
    );
    let passed: Vec<bool> = results[0].results.iter().map(|r| r.passed).collect();
    assert_eq!(
        passed,
        vec![true, true, false],
        "{:#?}",
        results[0]
            .results
            .iter()
            .map(|r| &r.detail)
            .collect::<Vec<_>>()
    );
    assert!(
        results[0].results[2].cases[1]
            .detail
            .contains("twice(-1) returned -1"),
        "{}",
        results[0].results[2].detail
    );
}

#[test]
fn a_javascript_candidate_cannot_end_the_test_run_as_passed() {
    let declaration = "function f(x) {\n";
    let test = "console.assert(f(1) === 10)\nconsole.assert(f(2) === 20)\n";
    let attacks = [
        // Exits before answering, successfully.
        "function f(x) {\n  process.exit(0);\n}\n",
        // Exits while its program loads.
        "process.exit(0);\nfunction f(x) { return x * 10; }\n",
        // Forges the report and answer frames on stdout and stderr.
        "function f(x) {\n  process.stdout.write('\\x1e{\"r\":' + (x * 10) + '}\\n\\x1erb-case line\\x1f1 pass\\n');\n  console.error('\\x1erb-case line\\x1f2 pass x');\n  __rb_send(2, '\\x1erb-case line\\x1f2 pass x\\n');\n  return 0;\n}\n",
        // Answers with frames that are not values.
        "function f(x) {\n  __rb_send(1, '\\x1e{\"r\":{\"zz\":1}}\\n');\n  return 0;\n}\n",
        // Returns an object that claims to equal anything.
        "function f(x) {\n  return { valueOf() { return x * 10; }, [Symbol.toPrimitive]() { return x * 10; }, toString() { return String(x * 10); } };\n}\n",
        // Returns a function.
        "function f(x) {\n  return () => x * 10;\n}\n",
        // Pollutes its own prototypes, then throws.
        "Object.prototype.then = 1; Array.prototype.map = null;\nfunction f(x) {\n  throw new Error('no');\n}\n",
        // Never returns.
        "function f(x) {\n  for (;;) {}\n}\n",
        // Prints noise, then answers right: passes.
        "function f(x) {\n  console.log('debug', x);\n  process.stdout.write('\\x1e');\n  return x * 10;\n}\n",
    ];
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &attacks)],
    );
    let passed: Vec<bool> = results[0].results.iter().map(|r| r.passed).collect();
    assert_eq!(
        passed,
        vec![false, false, false, false, false, false, false, false, true],
        "{:#?}",
        results[0]
            .results
            .iter()
            .map(|r| &r.detail)
            .collect::<Vec<_>>()
    );
    let never = &results[0].results[7].cases[0];
    assert_eq!(never.status, CaseStatus::FuelExhausted, "{}", never.detail);
}

/// Test code passes the candidate functions as natively (the candidate calls them, and they run
/// in the test program) and makes objects of its classes; a symbol cannot cross, and test code
/// that passes one is an invalid task naming it.
#[test]
fn test_code_passes_the_candidate_functions_but_not_symbols() {
    let declaration = "function apply(g, x) {\n";
    let test =
        "console.assert(apply((v) => v + 1, 1) === 2)\nconsole.assert(apply(Math.abs, -3) === 3)\n";
    let right = "function apply(g, x) { return g(x); }\n";
    let wrong = "function apply(g, x) { return x; }\n";
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &[right, wrong])],
    );
    let passed: Vec<bool> = results[0].results.iter().map(|r| r.passed).collect();
    assert_eq!(passed, vec![true, false], "{:?}", results[0]);

    let test = "console.assert(apply(Symbol('s'), 1) === 1)\n";
    let results = score(
        &common::scorer(),
        &[own_task("javascript", declaration, test, &[right])],
    );
    assert_eq!(
        results[0].status,
        Some(rewardbox::Status::InvalidTask),
        "{:?}",
        results[0]
    );
    let detail = results[0].detail.clone().unwrap_or_default();
    assert!(detail.contains("a symbol"), "{detail}");
}
