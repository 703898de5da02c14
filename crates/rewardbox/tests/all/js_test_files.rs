//! JavaScript and TypeScript test files as datasets ship them (`tests.jest`, `tests.node_test`):
//! every test's verdict is the one native Jest (29.7.0 with Babel, as SandboxFusion runs it:
//! `scripts/native-jest.sh`) and `node --test` (Node 24) give on the same test file and program.
//!
//! The table: functions, each with a right program, a wrong one (a bug some cases catch), one
//! that throws, one that exports no such function and one that fails to load; for each, four
//! Jest files (plain `test`s, `describe` with `test.each` tables, hooks with an ES module
//! import and asymmetric matchers, and marks in TypeScript: `skip`, `todo`, `failing`, `xit`)
//! and four `node:test` files (plain `test`s, `describe`/`it` with hooks, subtests, and marks:
//! `skip`, `todo`, `t.skip()`). 10 functions make 40 tasks of each framework, each graded on its
//! five programs.

use crate::common;

use common::node;
use rewardbox::{CaseStatus, Status};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A function under test: its right and wrong programs' bodies, cases (JavaScript argument
/// lists and expected values, as source), and a call the right program rejects by throwing.
struct Function {
    name: &'static str,
    params: &'static str,
    right: &'static str,
    wrong: &'static str,
    cases: &'static [(&'static str, &'static str)],
    /// The arguments of a call that throws, and the class it throws.
    throws: (&'static str, &'static str),
    /// The results are floats: compared to 6 digits.
    floats: bool,
}

const FUNCTIONS: &[Function] = &[
    Function {
        name: "sortDistinct",
        params: "xs",
        right: "if (!Array.isArray(xs)) throw new TypeError('an array');\n  return [...new Set(xs)].sort((a, b) => a - b);",
        wrong: "if (!Array.isArray(xs)) throw new TypeError('an array');\n  return [...xs].sort((a, b) => a - b);",
        cases: &[
            ("[3, 1, 2]", "[1, 2, 3]"),
            ("[]", "[]"),
            ("[5, 5, 1]", "[1, 5]"),
            ("[-1, 0, -1, 7]", "[-1, 0, 7]"),
        ],
        throws: ("null", "TypeError"),
        floats: false,
    },
    Function {
        name: "gcd",
        params: "a, b",
        right: "if (a === 0 && b === 0) throw new RangeError('gcd(0, 0)');\n  while (b) [a, b] = [b, a % b];\n  return Math.abs(a);",
        wrong: "if (a === 0 && b === 0) throw new RangeError('gcd(0, 0)');\n  while (b) [a, b] = [b, a % b];\n  return a;",
        cases: &[
            ("12, 18", "6"),
            ("7, 0", "7"),
            ("-4, 6", "2"),
            ("17, 5", "1"),
        ],
        throws: ("0, 0", "RangeError"),
        floats: false,
    },
    Function {
        name: "fizzbuzz",
        params: "n",
        right: "if (n <= 0) throw new RangeError('n must be positive');\n  const out = [];\n  for (let i = 1; i <= n; i++) out.push(i % 15 === 0 ? 'FizzBuzz' : i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i));\n  return out;",
        wrong: "if (n <= 0) throw new RangeError('n must be positive');\n  const out = [];\n  for (let i = 1; i <= n; i++) out.push(i % 3 === 0 ? 'Fizz' : i % 5 === 0 ? 'Buzz' : String(i));\n  return out;",
        cases: &[
            ("3", "['1', '2', 'Fizz']"),
            ("1", "['1']"),
            ("5", "['1', '2', 'Fizz', '4', 'Buzz']"),
            (
                "15",
                "['1', '2', 'Fizz', '4', 'Buzz', 'Fizz', '7', '8', 'Fizz', 'Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']",
            ),
        ],
        throws: ("0", "RangeError"),
        floats: false,
    },
    Function {
        name: "wordCount",
        params: "text",
        right: "if (typeof text !== 'string') throw new TypeError('a string');\n  const counts = {};\n  for (const w of text.split(/\\s+/).filter(Boolean)) counts[w] = (counts[w] || 0) + 1;\n  return counts;",
        wrong: "if (typeof text !== 'string') throw new TypeError('a string');\n  const counts = {};\n  for (const w of text.toLowerCase().split(/\\s+/).filter(Boolean)) counts[w] = (counts[w] || 0) + 1;\n  return counts;",
        cases: &[
            ("'a b a'", "{ a: 2, b: 1 }"),
            ("''", "{}"),
            ("'The the'", "{ The: 1, the: 1 }"),
            ("'  x  '", "{ x: 1 }"),
        ],
        throws: ("42", "TypeError"),
        floats: false,
    },
    Function {
        name: "mean",
        params: "xs",
        right: "if (xs.length === 0) throw new Error('empty');\n  return xs.reduce((s, x) => s + x, 0) / xs.length;",
        wrong: "if (xs.length === 0) throw new Error('empty');\n  return xs.reduce((s, x) => s + x, 0) / (xs.length + (xs.length > 2 ? 1 : 0));",
        cases: &[
            ("[1, 2]", "1.5"),
            ("[0.1, 0.2]", "0.15"),
            ("[1, 2, 3]", "2"),
            ("[-2.5]", "-2.5"),
        ],
        throws: ("[]", "Error"),
        floats: true,
    },
    Function {
        name: "isPalindrome",
        params: "s",
        right: "if (typeof s !== 'string') throw new TypeError('a string');\n  const t = s.toLowerCase().replace(/[^a-z0-9]/g, '');\n  return t === [...t].reverse().join('');",
        wrong: "if (typeof s !== 'string') throw new TypeError('a string');\n  const t = s.replace(/[^A-Za-z0-9]/g, '');\n  return t === [...t].reverse().join('');",
        cases: &[
            ("'racecar'", "true"),
            ("'Abba'", "true"),
            ("'abc'", "false"),
            ("'A man, a plan, a canal: Panama'", "true"),
        ],
        throws: ("undefined", "TypeError"),
        floats: false,
    },
    Function {
        name: "flatten",
        params: "xs",
        right: "if (!Array.isArray(xs)) throw new TypeError('an array');\n  return xs.reduce((out, x) => out.concat(Array.isArray(x) ? flatten(x) : [x]), []);",
        wrong: "if (!Array.isArray(xs)) throw new TypeError('an array');\n  return [].concat(...xs);",
        cases: &[
            ("[1, [2, 3]]", "[1, 2, 3]"),
            ("[]", "[]"),
            ("[[1, [2, [3]]], 4]", "[1, 2, 3, 4]"),
            ("[['a'], 'b']", "['a', 'b']"),
        ],
        throws: ("'abc'", "TypeError"),
        floats: false,
    },
    Function {
        name: "romanToInt",
        params: "s",
        right: "const v = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };\n  let total = 0;\n  for (let i = 0; i < s.length; i++) {\n    if (!(s[i] in v)) throw new Error('not a numeral: ' + s[i]);\n    total += v[s[i]] < (v[s[i + 1]] || 0) ? -v[s[i]] : v[s[i]];\n  }\n  return total;",
        wrong: "const v = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };\n  let total = 0;\n  for (let i = 0; i < s.length; i++) {\n    if (!(s[i] in v)) throw new Error('not a numeral: ' + s[i]);\n    total += v[s[i]];\n  }\n  return total;",
        cases: &[
            ("'III'", "3"),
            ("'IV'", "4"),
            ("'LVIII'", "58"),
            ("'MCMXCIV'", "1994"),
        ],
        throws: ("'XQ'", "Error"),
        floats: false,
    },
    Function {
        name: "chunk",
        params: "xs, n",
        right: "if (n <= 0) throw new RangeError('n must be positive');\n  const out = [];\n  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));\n  return out;",
        wrong: "if (n <= 0) throw new RangeError('n must be positive');\n  const out = [];\n  for (let i = 0; i + n <= xs.length; i += n) out.push(xs.slice(i, i + n));\n  return out;",
        cases: &[
            ("[1, 2, 3, 4], 2", "[[1, 2], [3, 4]]"),
            ("[], 3", "[]"),
            ("[1, 2, 3], 2", "[[1, 2], [3]]"),
            ("['a', 'b', 'c'], 5", "[['a', 'b', 'c']]"),
        ],
        throws: ("[1], 0", "RangeError"),
        floats: false,
    },
    Function {
        name: "distance",
        params: "p, q",
        right: "if (p.length !== q.length) throw new TypeError('points of one dimension');\n  return Math.sqrt(p.reduce((s, x, i) => s + (x - q[i]) ** 2, 0));",
        wrong: "if (p.length !== q.length) throw new TypeError('points of one dimension');\n  return p.reduce((s, x, i) => s + Math.abs(x - q[i]), 0);",
        cases: &[
            ("[0, 0], [3, 4]", "5"),
            ("[1], [1]", "0"),
            ("[1, 1], [2, 2]", "1.4142135623730951"),
            ("[0, 0, 0], [0, 0, 2]", "2"),
        ],
        throws: ("[1, 2], [1]", "TypeError"),
        floats: true,
    },
];

/// The programs each function is graded on (kind, CommonJS source).
fn programs(f: &Function) -> Vec<(&'static str, String)> {
    let define = |body: &str| {
        format!(
            "function {name}({params}) {{\n  {body}\n}}\nmodule.exports = {{ {name} }};\n",
            name = f.name,
            params = f.params
        )
    };
    vec![
        ("right", define(f.right)),
        ("wrong", define(f.wrong)),
        ("throws", define("throw new Error('not done yet');")),
        (
            "missing",
            format!(
                "function {name}V2() {{ return null; }}\nmodule.exports = {{ {name}V2 }};\n",
                name = f.name
            ),
        ),
        // Fails to load: natively the test file's import of it fails, and the file with it.
        ("broken", format!("{}undefinedName.x;\n", define(f.right))),
    ]
}

/// `expect(actual)` compared with `expected` as Jest tests compare `f`'s results.
fn jest_equal(f: &Function, actual: &str, expected: &str) -> String {
    if f.floats {
        format!("expect({actual}).toBeCloseTo({expected}, 6)")
    } else {
        format!("expect({actual}).toEqual({expected})")
    }
}

/// The four Jest files of `f` (file name, source): the last one TypeScript.
fn jest_files(f: &Function) -> Vec<(String, String)> {
    let name = f.name;
    let (bad, class) = f.throws;
    let mut plain = format!("const {{ {name} }} = require('./solution');\n\n");
    for (i, (args, expected)) in f.cases.iter().enumerate() {
        plain += &format!(
            "test('case {i}', () => {{\n  {};\n}});\n\n",
            jest_equal(f, &format!("{name}({args})"), expected)
        );
    }
    plain += &format!(
        "test('rejects', () => {{\n  expect(() => {name}({bad})).toThrow({class});\n}});\n"
    );

    let rows: Vec<String> = f
        .cases
        .iter()
        .map(|(args, expected)| format!("  [[{args}], {expected}],"))
        .collect();
    let tables = format!(
        "const solution = require('./solution');\n\nconst CASES = [\n{}\n];\n\n\
         describe('{name}', () => {{\n  test.each(CASES)('case %#', (args, expected) => {{\n    {};\n  }});\n\n  \
         it('throws on bad input', () => {{\n    expect(() => solution.{name}({bad})).toThrow();\n  }});\n}});\n\n\
         describe.each([[0], [1]])('row %i', (i) => {{\n  test('matches', () => {{\n    {};\n  }});\n\n  \
         test('is defined', () => {{\n    expect(solution.{name}(...CASES[i][0])).toBeDefined();\n  }});\n}});\n",
        rows.join("\n"),
        jest_equal(f, &format!("solution.{name}(...args)"), "expected"),
        jest_equal(
            f,
            &format!("solution.{name}(...CASES[i][0])"),
            "CASES[i][1]"
        ),
    );

    let (args0, expected0) = f.cases[0];
    let (args2, expected2) = f.cases[2];
    let kind = if f.floats {
        "expect.any(Number)".to_string()
    } else {
        "expect.anything()".to_string()
    };
    let hooks = format!(
        "import {{ {name} }} from './solution';\n\nlet seen;\nlet first;\n\n\
         beforeAll(() => {{\n  seen = [];\n}});\n\nbeforeEach(() => {{\n  first = {name}({args0});\n}});\n\n\
         afterEach(() => {{\n  seen.push(first);\n}});\n\n\
         describe('with hooks', () => {{\n  test('first', () => {{\n    {};\n  }});\n\n  \
         test('third', () => {{\n    expect.assertions(2);\n    const result = {name}({args2});\n    {};\n    expect(result).toEqual({kind});\n  }});\n\n  \
         test('message', () => {{\n    expect(() => {name}({bad})).toThrow(/./);\n  }});\n\n  \
         test('not another', () => {{\n    expect({name}({args0})).not.toEqual('another');\n  }});\n}});\n\n\
         afterAll(() => {{\n  if (seen.length === 0) throw new Error('no test ran');\n}});\n",
        jest_equal(f, "first", expected0),
        jest_equal(f, "result", expected2),
    );

    let (args1, expected1) = f.cases[1];
    let (args3, expected3) = f.cases[3];
    let marks = format!(
        "import {{ {name} }} from './solution';\n\ntype Row = {{ args: unknown[]; expected: unknown }};\n\n\
         const rows: Row[] = [\n  {{ args: [{args1}], expected: {expected1} }},\n  {{ args: [{args3}], expected: {expected3} }},\n];\n\n\
         describe('marks', () => {{\n  test.skip('skipped', () => {{\n    {};\n  }});\n\n  \
         test.todo('later');\n\n  \
         test.failing('a wrong expectation', () => {{\n    expect({name}({args0})).toEqual('something else');\n  }});\n\n  \
         xit('crossed out', () => {{\n    throw new Error('never runs');\n  }});\n\n  \
         it.each(rows)('row $#', ({{ args, expected }}: Row) => {{\n    {};\n  }});\n}});\n",
        jest_equal(f, &format!("{name}({args0})"), expected0),
        jest_equal(
            f,
            &format!("({name} as (...a: any[]) => unknown)(...args)"),
            "expected as any"
        ),
    );
    vec![
        ("plain.test.js".into(), plain),
        ("tables.test.js".into(), tables),
        ("hooks.test.js".into(), hooks),
        ("marks.test.ts".into(), marks),
    ]
}

/// `assert` that `f`'s result `actual` is `expected`, as node:test files assert.
fn node_equal(f: &Function, actual: &str, expected: &str) -> String {
    if f.floats {
        format!("assert.ok(Math.abs({actual} - {expected}) < 1e-6)")
    } else {
        format!("assert.deepStrictEqual({actual}, {expected})")
    }
}

/// The four `node:test` files of `f` (file name, source).
fn node_files(f: &Function) -> Vec<(String, String)> {
    let name = f.name;
    let (bad, class) = f.throws;
    let mut plain = format!(
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst {{ {name} }} = require('./solution');\n\n"
    );
    for (i, (args, expected)) in f.cases.iter().enumerate() {
        plain += &format!(
            "test('case {i}', () => {{\n  {};\n}});\n\n",
            node_equal(f, &format!("{name}({args})"), expected)
        );
    }
    plain += &format!(
        "test('rejects', () => {{\n  assert.throws(() => {name}({bad}), {class});\n}});\n"
    );

    let (args0, expected0) = f.cases[0];
    let (args1, expected1) = f.cases[1];
    let (args2, expected2) = f.cases[2];
    let (args3, expected3) = f.cases[3];
    let suites = format!(
        "const {{ describe, it, before, beforeEach, afterEach }} = require('node:test');\nconst assert = require('node:assert/strict');\nconst solution = require('./solution');\n\n\
         describe('{name}', () => {{\n  let first;\n  before(() => {{\n    first = null;\n  }});\n  beforeEach(() => {{\n    first = solution.{name}({args0});\n  }});\n  afterEach(() => {{\n    first = undefined;\n  }});\n\n  \
         it('first', () => {{\n    {};\n  }});\n\n  \
         describe('more', () => {{\n    it('second', () => {{\n      {};\n    }});\n\n    it('fourth', () => {{\n      {};\n    }});\n  }});\n\n  \
         it('throws', () => {{\n    assert.throws(() => solution.{name}({bad}));\n  }});\n}});\n",
        node_equal(f, "first", expected0),
        node_equal(f, &format!("solution.{name}({args1})"), expected1),
        node_equal(f, &format!("solution.{name}({args3})"), expected3),
    );

    let rows: Vec<String> = f
        .cases
        .iter()
        .map(|(args, expected)| format!("  [[{args}], {expected}],"))
        .collect();
    let subtests = format!(
        "const test = require('node:test');\nconst assert = require('node:assert');\nconst {{ {name} }} = require('./solution');\n\nconst CASES = [\n{}\n];\n\n\
         test('{name} table', async (t) => {{\n  for (const [i, [args, expected]] of CASES.entries()) {{\n    await t.test('row ' + i, () => {{\n      {};\n    }});\n  }}\n}});\n\n\
         test('callback style', (t, done) => {{\n  const result = {name}({args2});\n  done({} ? undefined : new Error('wrong third case'));\n}});\n",
        rows.join("\n"),
        node_equal(f, &format!("{name}(...args)"), "expected"),
        if f.floats {
            format!("Math.abs(result - {expected2}) < 1e-6")
        } else {
            format!("require('node:util').isDeepStrictEqual(result, {expected2})")
        },
    );

    let marks = format!(
        "const {{ test }} = require('node:test');\nconst assert = require('node:assert');\nconst {{ {name} }} = require('./solution');\n\n\
         test('skipped', {{ skip: 'not today' }}, () => {{\n  {};\n}});\n\n\
         test.todo('later', () => {{\n  {};\n}});\n\n\
         test('todo by option', {{ todo: true }}, () => {{\n  assert.deepStrictEqual({name}({args0}), 'something else');\n}});\n\n\
         test('skip inside', (t) => {{\n  t.skip('not now');\n}});\n\n\
         test('fourth', () => {{\n  {};\n}});\n",
        node_equal(f, &format!("{name}({args0})"), expected0),
        node_equal(f, &format!("{name}({args1})"), expected1),
        node_equal(f, &format!("{name}({args3})"), expected3),
    );
    vec![
        ("plain.test.js".into(), plain),
        ("suites.test.js".into(), suites),
        ("subtests.test.js".into(), subtests),
        ("marks.test.js".into(), marks),
    ]
}

/// A test's outcome by its id: `passed`, `failed`, `skipped`, `todo`; `file failed` for a file
/// that failed before its tests.
type Outcomes = Vec<(String, String)>;

/// The directory where `scripts/native-jest.sh` installed Jest.
fn jest_dir() -> PathBuf {
    let dir = std::env::var_os("REWARDBOX_JEST_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| common::repo_root().join("target/native-jest"));
    assert!(
        dir.join("node_modules/jest/bin/jest.js").exists(),
        "native Jest is not installed in {}: run scripts/native-jest.sh (scripts/test.sh does)",
        dir.display()
    );
    dir
}

/// Native Jest's outcome for every test file under `root`, keyed by the file's directory.
fn native_jest(root: &Path) -> BTreeMap<PathBuf, Outcomes> {
    let jest = jest_dir();
    let modules = jest.join("node_modules");
    let module = |name: &str| serde_json::Value::from(modules.join(name).to_string_lossy());
    // Babel for ES modules and TypeScript, as SandboxFusion's Jest project has it.
    let babel = serde_json::json!({
        "presets": [[module("@babel/preset-env"), {"targets": {"node": "current"}}], module("@babel/preset-typescript")],
    });
    let config = serde_json::json!({
        "rootDir": root.to_string_lossy(),
        "testMatch": ["**/*.test.[jt]s"],
        "transform": {"\\.[jt]s$": [module("babel-jest"), babel]},
    });
    std::fs::write(root.join("jest.config.json"), config.to_string()).unwrap();
    let out = root.join("jest.json");
    let status = Command::new(node())
        .arg(jest.join("node_modules/jest/bin/jest.js"))
        .args([
            "--ci",
            "--silent",
            "--watchman=false",
            "--json",
            "--outputFile",
        ])
        .arg(&out)
        .arg("--config")
        .arg(root.join("jest.config.json"))
        .arg("--maxWorkers=2")
        .current_dir(root)
        .output()
        .expect("native Jest runs");
    let report: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&out).unwrap_or_else(|_| {
            panic!(
                "Jest wrote no report: {}",
                String::from_utf8_lossy(&status.stderr)
            )
        }))
        .unwrap();
    let mut outcomes: BTreeMap<PathBuf, Outcomes> = BTreeMap::new();
    for file in report["testResults"].as_array().unwrap() {
        let path = PathBuf::from(file["name"].as_str().unwrap());
        let mut tests: Outcomes = file["assertionResults"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| {
                let mut path: Vec<String> = a["ancestorTitles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|t| t.as_str().unwrap().to_string())
                    .collect();
                path.push(a["title"].as_str().unwrap().to_string());
                let outcome = match a["status"].as_str().unwrap() {
                    "passed" => "passed",
                    "failed" => "failed",
                    "todo" => "todo",
                    _ => "skipped",
                };
                (path.join(" \u{203a} "), outcome.to_string())
            })
            .collect();
        if tests.is_empty() && file["status"] == "failed" {
            tests.push((String::new(), "file failed".into()));
        }
        outcomes.insert(path, tests);
    }
    outcomes
}

/// A `node --test` reporter: one JSON line per test that ended, with its path of names.
const NODE_REPORTER: &str = "export default async function* reporter(source) {\n\
  const stack = [];\n\
  for await (const event of source) {\n\
    const d = event.data;\n\
    if (event.type === 'test:start') { stack[d.nesting] = d.name; stack.length = d.nesting + 1; }\n\
    if (event.type === 'test:pass' || event.type === 'test:fail') {\n\
      const error = d.details && d.details.error;\n\
      const cause = error ? String((error.cause && error.cause.message) || error.message || error) : '';\n\
      yield JSON.stringify({ file: d.file, pass: event.type === 'test:pass', path: stack.slice(0, d.nesting).concat([d.name]), type: d.details && d.details.type, skip: d.skip !== undefined, todo: d.todo !== undefined, cause }) + '\\n';\n\
    }\n\
  }\n\
}\n";

/// Native `node --test`'s outcome for every test file under `root`, keyed by its directory.
fn native_node_test(root: &Path, files: &[PathBuf]) -> BTreeMap<PathBuf, Outcomes> {
    let reporter = root.join("reporter.mjs");
    std::fs::write(&reporter, NODE_REPORTER).unwrap();
    let output = Command::new(node())
        .arg("--test")
        .arg(format!("--test-reporter={}", reporter.display()))
        .arg("--test-concurrency=2")
        .args(files)
        .current_dir(root)
        .output()
        .expect("node --test runs");
    let mut outcomes: BTreeMap<PathBuf, Outcomes> = BTreeMap::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        let Ok(event) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let file = PathBuf::from(event["file"].as_str().unwrap_or(""));
        let names: Vec<String> = event["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap_or("").to_string())
            .collect();
        let pass = event["pass"].as_bool().unwrap();
        let cause = event["cause"].as_str().unwrap_or("");
        let outcome = if event["todo"].as_bool().unwrap() {
            "todo"
        } else if event["skip"].as_bool().unwrap() && pass {
            "skipped"
        } else if pass {
            "passed"
        } else {
            "failed"
        };
        // A suite is a case only when it failed by itself, not through its tests.
        if event["type"] == "suite"
            && (pass || cause.ends_with("subtest failed") || cause.ends_with("subtests failed"))
        {
            continue;
        }
        // The file itself, when it failed before its tests.
        if names.len() == 1 && Path::new(&names[0]).is_absolute() {
            outcomes
                .entry(file)
                .or_default()
                .push((String::new(), "file failed".into()));
            continue;
        }
        outcomes
            .entry(file)
            .or_default()
            .push((names.join(" \u{203a} "), outcome.into()));
    }
    outcomes
}

/// A module under test: its programs (one of each of [`KINDS`], in that order) and the test
/// files of one framework (file name, source).
pub(crate) struct Unit {
    pub name: String,
    pub programs: Vec<(&'static str, String)>,
    pub files: Vec<(String, String)>,
}

/// The kinds of program each module is graded on: right, wrong (a bug some tests catch), one
/// that throws, one without the names the tests import, one that fails to load.
pub(crate) const KINDS: [&str; 5] = ["right", "wrong", "throws", "missing", "broken"];

/// Grades every task of `framework` ("jest" or "node_test") with rewardbox and natively;
/// returns the disagreements and the number of test verdicts compared.
fn agreement(framework: &str) -> (Vec<String>, usize) {
    let units: Vec<Unit> = FUNCTIONS
        .iter()
        .map(|f| Unit {
            name: f.name.to_string(),
            programs: programs(f),
            files: if framework == "jest" {
                jest_files(f)
            } else {
                node_files(f)
            },
        })
        .collect();
    let (disagreements, compared, tasks) = agreement_of(framework, &units);
    assert!(tasks >= 40, "at least 40 tasks of each framework");
    (disagreements, compared)
}

/// Grades each of `units`' test files of `framework` on its programs with rewardbox and
/// natively; returns the disagreements, the number of test verdicts compared and of tasks.
pub(crate) fn agreement_of(framework: &str, units: &[Unit]) -> (Vec<String>, usize, usize) {
    let scratch = tempfile::tempdir().expect("a temp dir");
    let root = scratch.path();
    let mut tasks = Vec::new();
    // Each task's programs' test files, by program kind, in the order of `programs`.
    let mut task_files: Vec<Vec<PathBuf>> = Vec::new();
    for unit in units {
        let programs = &unit.programs;
        assert_eq!(
            programs.iter().map(|p| p.0).collect::<Vec<_>>(),
            KINDS,
            "{}",
            unit.name
        );
        for (file, source) in &unit.files {
            let typescript = file.ends_with(".ts");
            let mut paths = Vec::new();
            for (kind, program) in programs {
                let dir = root.join(format!("{}-{}-{kind}", unit.name, file.replace('.', "_")));
                std::fs::create_dir_all(&dir).unwrap();
                let extension = if typescript { "ts" } else { "js" };
                std::fs::write(dir.join(format!("solution.{extension}")), program).unwrap();
                std::fs::write(dir.join(file), source).unwrap();
                paths.push(dir.join(file));
            }
            tasks.push(serde_json::json!({
                "id": format!("{}/{file}", unit.name),
                "verifier": "code",
                "language": if typescript { "typescript" } else { "javascript" },
                "extract": "whole",
                "tests": {framework: {"test": source, "file": file}},
                "completions": programs.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
            }));
            task_files.push(paths);
        }
    }
    let native = if framework == "jest" {
        native_jest(root)
    } else {
        let all: Vec<PathBuf> = task_files.iter().flatten().cloned().collect();
        native_node_test(root, &all)
    };
    let results = common::score_tasks(&tasks);
    let kinds = KINDS;
    let mut disagreements = Vec::new();
    let mut compared = 0;
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for ((task, result), paths) in tasks.iter().zip(&results).zip(&task_files) {
        let task_id = task["id"].as_str().unwrap();
        if result.results.len() != kinds.len() {
            disagreements.push(format!(
                "{task_id}: not graded: {:?} {:?}",
                result.status, result.detail
            ));
            continue;
        }
        for ((kind, outcome), path) in kinds.iter().zip(&result.results).zip(paths) {
            let Some(native) = native.get(path) else {
                disagreements.push(format!("{task_id} {kind}: natively no report"));
                continue;
            };
            if outcome.status != Status::Ok {
                disagreements.push(format!(
                    "{task_id} {kind}: {:?}: {}",
                    outcome.status, outcome.detail
                ));
                continue;
            }
            if native.len() == 1 && native[0].1 == "file failed" {
                // Natively the file failed before its tests: rewardbox's one case, named after
                // the file, fails.
                compared += 1;
                *tally.entry("file failed".into()).or_default() += 1;
                let file = task["tests"][framework]["file"].as_str().unwrap();
                if outcome.cases.len() != 1
                    || outcome.cases[0].id != file
                    || outcome.cases[0].status == CaseStatus::Passed
                {
                    disagreements.push(format!(
                        "{task_id} {kind}: natively the file failed; rewardbox: {:?}",
                        outcome.cases
                    ));
                }
                continue;
            }
            let mut ours: Vec<(String, bool, String)> = outcome
                .cases
                .iter()
                .map(|c| {
                    (
                        c.id.clone(),
                        c.status == CaseStatus::Passed,
                        c.detail.clone(),
                    )
                })
                .collect();
            let mut theirs = native.clone();
            ours.sort();
            theirs.sort();
            if ours.len() != theirs.len() {
                disagreements.push(format!(
                    "{task_id} {kind}: native tests {:?}, rewardbox's {:?}",
                    theirs.iter().map(|t| &t.0).collect::<Vec<_>>(),
                    ours.iter().map(|t| &t.0).collect::<Vec<_>>()
                ));
                continue;
            }
            for ((id, native_outcome), (our_id, passed, detail)) in theirs.iter().zip(&ours) {
                compared += 1;
                *tally.entry(native_outcome.clone()).or_default() += 1;
                let passes = native_outcome != "failed";
                let word = match native_outcome.as_str() {
                    "skipped" => "skipped",
                    "todo" => "todo",
                    _ => "",
                };
                if id != our_id || *passed != passes || !detail.starts_with(word) {
                    disagreements.push(format!(
                        "{task_id} {kind} {id}: native {native_outcome}; rewardbox {our_id}: {} {detail}",
                        if *passed { "passed" } else { "failed" }
                    ));
                }
            }
        }
    }
    eprintln!(
        "{framework}: {} tasks, {compared} verdicts compared (native outcomes: {tally:?}), {} differ",
        tasks.len(),
        disagreements.len()
    );
    (disagreements, compared, tasks.len())
}

#[test]
fn jest_files_give_native_jests_verdict_for_every_test() {
    common::assert_native_agreement("jest", agreement("jest"), 600);
}

#[test]
fn node_test_files_give_native_node_tests_verdict_for_every_test() {
    common::assert_native_agreement("node_test", agreement("node_test"), 500);
}

fn file_task(framework: &str, test: &str, completions: &[&str]) -> serde_json::Value {
    serde_json::json!({"id": "t", "verifier": "code", "language": "javascript", "extract": "whole",
        "tests": {framework: test}, "completions": completions})
}

/// Whose fault decides: a test file that cannot load before it calls the candidate, or that
/// declares no test, is the task's (`invalid_task`, saying why), whatever the completions; once
/// the candidate is called, what fails is the candidate's, and nothing it does (failing to load,
/// exiting, printing the framework's report, patching the framework in its own process, looping,
/// answering with objects that claim to equal anything) is ever a mask or a pass.
#[test]
fn the_task_answers_for_its_test_file_and_the_candidate_for_its_calls() {
    let right = "function greet(name) {\n  console.log('hi ' + name);\n  return name.length;\n}\nmodule.exports = { greet };\n";
    let broken_tasks = [
        (
            "jest",
            "const { greet } = require('./solution');\nconst _ = require('lodash-es');\ntest('a', () => expect(greet('x')).toBe(1));\n",
            "Cannot find module 'lodash-es'",
        ),
        (
            "node_test",
            "const test = require('node:test');\nUNDEFINED + 1;\n",
            "UNDEFINED is not defined",
        ),
        ("jest", "test('a', () => {\n", "SyntaxError"),
        (
            "jest",
            "const { greet } = require('./solution');\n",
            "declares no tests",
        ),
        (
            "jest",
            "describe('outer', () => {\n  throw new Error('in the body');\n});\n",
            "in the body",
        ),
        (
            "jest",
            "const { greet } = require('./solution');\ntest('passes a symbol', () => expect(greet(Symbol('x'))).toBe(1));\n",
            "cannot cross",
        ),
    ];
    for (framework, test, why) in broken_tasks {
        let result = &common::score_tasks(&[file_task(framework, test, &[right])])[0];
        let detail = common::invalid_detail(result);
        assert!(detail.contains(why), "{framework} {test:?}: {detail}");
    }

    let jest = "const { greet } = require('./solution');\n\ndescribe('greet', () => {\n  test('counts', () => {\n    expect(greet('bo')).toBe(2);\n  });\n\n  test('empty', () => {\n    expect(greet('')).toEqual(0);\n  });\n});\n";
    let node_test = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { greet } = require('./solution');\n\ntest('counts', () => {\n  assert.strictEqual(greet('bo'), 2);\n});\n\ntest('empty', () => {\n  assert.deepStrictEqual(greet(''), 0);\n});\n";
    let hostile = [
        // Fails to load.
        "module.exports = { greet: (n) => n.length };\nthrow new Error('no');\n",
        // Prints a passing report and exits, at load and during a call.
        "console.log('Tests: 2 passed, 2 total');\nconsole.error('\\x1erb-case greet\\x1f\\u203a\\x1fcounts pass ');\nprocess.exit(0);\n",
        "function greet(name) {\n  process.stdout.write('\\x1e{\"r\": 2}\\n\\x1erb-case counts pass \\n');\n  process.exit(0);\n}\nmodule.exports = { greet };\n",
        // Patches the frameworks and `assert` in its own process.
        "globalThis.expect = () => ({ toBe() {}, toEqual() {} });\nconst assert = require('assert');\nassert.strictEqual = () => {};\nassert.deepStrictEqual = () => {};\nfunction greet() { return -1; }\nmodule.exports = { greet };\n",
        // Objects that claim to equal anything cross as data.
        "function greet() { return { valueOf: () => 2, equals: () => true, asymmetricMatch: () => true }; }\nmodule.exports = { greet };\n",
        // Loops.
        "function greet() { for (;;) {} }\nmodule.exports = { greet };\n",
    ];
    for (framework, test) in [("jest", jest), ("node_test", node_test)] {
        let mut completions = vec![right];
        completions.extend(hostile);
        let result = &common::score_tasks(&[file_task(framework, test, &completions)])[0];
        let right_result = &result.results[0];
        assert!(right_result.passed, "{framework}: {right_result:?}");
        assert_eq!(right_result.cases.len(), 2, "{framework}: {right_result:?}");
        for (program, outcome) in hostile.iter().zip(&result.results[1..]) {
            assert_eq!(
                outcome.status,
                Status::Ok,
                "{framework} {program}: {outcome:?}"
            );
            assert!(!outcome.mask, "{framework} {program}");
            assert_eq!(outcome.score, 0.0, "{framework} {program}: {outcome:?}");
        }
        // The one that fails to load is one failed case, named after the file.
        assert_eq!(
            result.results[1]
                .cases
                .iter()
                .map(|c| c.id.as_str())
                .collect::<Vec<_>>(),
            vec!["solution.test.js"],
            "{framework}"
        );
        // The loop is the candidate's timeout (or fuel), not a failure of the tests.
        let looped = &result.results[hostile.len()].cases[0];
        assert!(
            matches!(
                looped.status,
                CaseStatus::Timeout | CaseStatus::FuelExhausted
            ),
            "{framework}: {looped:?}"
        );
    }
}

/// The test file's functions the candidate is handed (a callback, a `jest.fn()`) are called and
/// read through the wire, nothing more: a candidate that writes its own requests to reach the
/// test program through one (its `constructor`, to run code there; setting a mock's record of
/// calls) is refused, and an object of the candidate's (its own class's, or data holding its
/// functions) never decides a comparison through `asymmetricMatch`. Each scores 0; the right
/// program passes.
#[test]
fn the_test_files_functions_are_only_called_and_the_candidates_objects_decide_nothing() {
    let jest = "const { run } = require('./solution');\n\n\
        test('calls back once', () => {\n  const cb = jest.fn((x) => x + 1);\n  expect(run(cb)).toEqual(42);\n  expect(cb).toHaveBeenCalledTimes(1);\n});\n";
    let right = "function run(cb) { return cb(41); }\nmodule.exports = { run };\n";
    // Writes a request of its own to the test program and reads the answer.
    let raw = |request: &str| {
        format!(
            "function ask(request) {{\n  __rb_send(1, '\\x1e' + JSON.stringify(request) + '\\n');\n  for (;;) {{\n    const line = __rb_read_line();\n    if (line === null || line.includes('\\x1e')) return line;\n  }}\n}}\n\
             function run(cb) {{\n  ask({request});\n  return 42;\n}}\nmodule.exports = {{ run }};\n"
        )
    };
    let hostile = [
        // Makes a function in the test program from the callback's constructor, to report a pass.
        raw(r#"{ o: 'call', h: 0, k: 'constructor', a: ["__rb_send(2, '\x1erb-case calls\x1fback\x1fonce pass \n'); return 1"] }"#),
        // Writes the mock's record: one call.
        raw(r#"{ o: 'set', h: 0, k: 'mock', v: { o: [['calls', [[41]]]] } }"#),
        // An object of its own class that matches anything.
        "class Any { asymmetricMatch() { return true; } }\nfunction run(cb) { cb(41); return new Any(); }\nmodule.exports = { run };\n".to_string(),
        // Data holding a function that matches anything.
        "function run(cb) { cb(41); return { asymmetricMatch: () => true }; }\nmodule.exports = { run };\n".to_string(),
    ];
    let mut completions = vec![right];
    completions.extend(hostile.iter().map(String::as_str));
    let result = &common::score_tasks(&[file_task("jest", jest, &completions)])[0];
    assert!(result.results[0].passed, "{:?}", result.results[0]);
    for (program, outcome) in hostile.iter().zip(&result.results[1..]) {
        assert_eq!(outcome.status, Status::Ok, "{program}: {outcome:?}");
        assert!(!outcome.mask, "{program}");
        assert_eq!(outcome.score, 0.0, "{program}: {outcome:?}");
        assert!(
            outcome.cases.iter().all(|c| c.status != CaseStatus::Passed),
            "{program}: {outcome:?}"
        );
    }
}
