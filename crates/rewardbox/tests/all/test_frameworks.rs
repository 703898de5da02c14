//! Test modules as datasets ship them (`tests.pytest`, `tests.unittest`): every test id's verdict
//! is the one native `pytest` and `python -m unittest` give on the same test module and program.
//!
//! The table: functions, each with a right program, a wrong one (a bug that some cases catch), one
//! that raises, one that defines no such function, and one that fails to load; and for each, four pytest modules and four
//! unittest modules written in the frameworks' common styles (plain asserts, parametrize, classes
//! with fixtures and a conftest, marks, `raises`, `approx`; `TestCase` methods, `subTest`,
//! `setUpClass`, skips, `expectedFailure`, `assertRaises`). 10 functions make 40 tasks of each
//! form, each graded on its five programs.

use crate::common;

use rewardbox::{CaseStatus, Status};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

/// A function under test: its right and wrong programs, cases (Python argument lists and expected
/// values, as source), and a call the right program rejects with an exception.
struct Function {
    name: &'static str,
    right: &'static str,
    wrong: &'static str,
    cases: &'static [(&'static str, &'static str)],
    raises: (&'static str, &'static str),
    /// The results are floats: compared with `pytest.approx` / `assertAlmostEqual`.
    floats: bool,
}

const FUNCTIONS: &[Function] = &[
    Function {
        name: "sort_distinct",
        right: "def sort_distinct(xs):\n    if not isinstance(xs, list):\n        raise TypeError('a list')\n    return sorted(set(xs))\n",
        wrong: "def sort_distinct(xs):\n    if not isinstance(xs, list):\n        raise TypeError('a list')\n    return sorted(xs)\n",
        cases: &[
            ("[3, 1, 2]", "[1, 2, 3]"),
            ("[]", "[]"),
            ("[5, 5, 1]", "[1, 5]"),
            ("[-1, 0, -1, 7]", "[-1, 0, 7]"),
        ],
        raises: ("None", "TypeError"),
        floats: false,
    },
    Function {
        name: "gcd",
        right: "def gcd(a, b):\n    if a == 0 and b == 0:\n        raise ValueError('gcd(0, 0)')\n    while b:\n        a, b = b, a % b\n    return abs(a)\n",
        wrong: "def gcd(a, b):\n    if a == 0 and b == 0:\n        raise ValueError('gcd(0, 0)')\n    while b:\n        a, b = b, a % b\n    return a\n",
        cases: &[
            ("12, 18", "6"),
            ("7, 0", "7"),
            ("-4, 6", "2"),
            ("17, 5", "1"),
        ],
        raises: ("0, 0", "ValueError"),
        floats: false,
    },
    Function {
        name: "fizzbuzz",
        right: "def fizzbuzz(n):\n    if n <= 0:\n        raise ValueError('n must be positive')\n    return ['FizzBuzz' if i % 15 == 0 else 'Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else str(i) for i in range(1, n + 1)]\n",
        wrong: "def fizzbuzz(n):\n    if n <= 0:\n        raise ValueError('n must be positive')\n    return ['Fizz' if i % 3 == 0 else 'Buzz' if i % 5 == 0 else str(i) for i in range(1, n + 1)]\n",
        cases: &[
            ("1", "['1']"),
            ("5", "['1', '2', 'Fizz', '4', 'Buzz']"),
            (
                "15",
                "['1', '2', 'Fizz', '4', 'Buzz', 'Fizz', '7', '8', 'Fizz', 'Buzz', '11', 'Fizz', '13', '14', 'FizzBuzz']",
            ),
            ("3", "['1', '2', 'Fizz']"),
        ],
        raises: ("0", "ValueError"),
        floats: false,
    },
    Function {
        name: "is_palindrome",
        right: "def is_palindrome(s):\n    t = [c.lower() for c in s if c.isalnum()]\n    return t == t[::-1]\n",
        wrong: "def is_palindrome(s):\n    return s == s[::-1]\n",
        cases: &[
            ("'abba'", "True"),
            ("'A man, a plan, a canal: Panama'", "True"),
            ("'abc'", "False"),
            ("''", "True"),
        ],
        raises: ("None", "TypeError"),
        floats: false,
    },
    Function {
        name: "mean",
        right: "def mean(xs):\n    if not xs:\n        raise ZeroDivisionError('mean of nothing')\n    return sum(xs) / len(xs)\n",
        wrong: "def mean(xs):\n    if not xs:\n        raise ZeroDivisionError('mean of nothing')\n    return sum(xs) // len(xs)\n",
        cases: &[
            ("[1, 2, 3, 4]", "2.5"),
            ("[0.1, 0.2]", "0.15"),
            ("[5]", "5.0"),
            ("[1, 2]", "1.5"),
        ],
        raises: ("[]", "ZeroDivisionError"),
        floats: true,
    },
    Function {
        name: "to_roman",
        right: "def to_roman(n):\n    if not 0 < n < 4000:\n        raise ValueError('1..3999')\n    out = ''\n    for v, s in [(1000, 'M'), (900, 'CM'), (500, 'D'), (400, 'CD'), (100, 'C'), (90, 'XC'), (50, 'L'), (40, 'XL'), (10, 'X'), (9, 'IX'), (5, 'V'), (4, 'IV'), (1, 'I')]:\n        while n >= v:\n            out += s\n            n -= v\n    return out\n",
        wrong: "def to_roman(n):\n    if not 0 < n < 4000:\n        raise ValueError('1..3999')\n    out = ''\n    for v, s in [(1000, 'M'), (500, 'D'), (100, 'C'), (50, 'L'), (10, 'X'), (5, 'V'), (1, 'I')]:\n        while n >= v:\n            out += s\n            n -= v\n    return out\n",
        cases: &[
            ("3", "'III'"),
            ("4", "'IV'"),
            ("1994", "'MCMXCIV'"),
            ("58", "'LVIII'"),
        ],
        raises: ("0", "ValueError"),
        floats: false,
    },
    Function {
        name: "word_count",
        right: "def word_count(text):\n    counts = {}\n    for word in text.lower().split():\n        word = word.strip('.,!?')\n        if word:\n            counts[word] = counts.get(word, 0) + 1\n    return counts\n",
        wrong: "def word_count(text):\n    counts = {}\n    for word in text.split():\n        counts[word] = counts.get(word, 0) + 1\n    return counts\n",
        cases: &[
            ("'a b a'", "{'a': 2, 'b': 1}"),
            ("''", "{}"),
            ("'Hi hi, HI!'", "{'hi': 3}"),
            ("'one'", "{'one': 1}"),
        ],
        raises: ("None", "AttributeError"),
        floats: false,
    },
    Function {
        name: "transpose",
        right: "def transpose(m):\n    if any(len(row) != len(m[0]) for row in m):\n        raise ValueError('ragged')\n    return [list(col) for col in zip(*m)]\n",
        wrong: "def transpose(m):\n    if any(len(row) != len(m[0]) for row in m):\n        raise ValueError('ragged')\n    return [list(row) for row in m]\n",
        cases: &[
            ("[[1, 2], [3, 4]]", "[[1, 3], [2, 4]]"),
            ("[[1, 2, 3]]", "[[1], [2], [3]]"),
            ("[[7]]", "[[7]]"),
            ("[[1], [2]]", "[[1, 2]]"),
        ],
        raises: ("[[1, 2], [3]]", "ValueError"),
        floats: false,
    },
    Function {
        name: "binary_search",
        right: "def binary_search(xs, x):\n    lo, hi = 0, len(xs)\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < x:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo if lo < len(xs) and xs[lo] == x else -1\n",
        wrong: "def binary_search(xs, x):\n    lo, hi = 0, len(xs) - 1\n    while lo < hi:\n        mid = (lo + hi) // 2\n        if xs[mid] < x:\n            lo = mid + 1\n        else:\n            hi = mid\n    return lo if xs and xs[lo] == x else -1\n",
        cases: &[
            ("[1, 3, 5, 7], 5", "2"),
            ("[1, 3, 5, 7], 4", "-1"),
            ("[], 1", "-1"),
            ("[2, 2, 2], 2", "0"),
        ],
        raises: ("None, 1", "TypeError"),
        floats: false,
    },
    Function {
        name: "hypotenuse",
        right: "import math\n\ndef hypotenuse(a, b):\n    if a < 0 or b < 0:\n        raise ValueError('negative side')\n    return math.hypot(a, b)\n",
        wrong: "import math\n\ndef hypotenuse(a, b):\n    if a < 0 or b < 0:\n        raise ValueError('negative side')\n    return math.sqrt(a * a + b)\n",
        cases: &[
            ("3, 4", "5.0"),
            ("1, 1", "1.4142135623730951"),
            ("0, 2", "2.0"),
            ("5, 12", "13.0"),
        ],
        raises: ("-1, 2", "ValueError"),
        floats: true,
    },
];

/// The programs each function is graded on: right, wrong, one that raises, one that defines
/// another function.
fn programs(f: &Function) -> Vec<(&'static str, String)> {
    vec![
        ("right", f.right.to_string()),
        ("wrong", f.wrong.to_string()),
        (
            "raises",
            format!(
                "def {}(*args):\n    raise RuntimeError('not done yet')\n",
                f.name
            ),
        ),
        (
            "missing",
            format!("def {}_v2(*args):\n    return None\n", f.name),
        ),
        // Fails to load: the tests that import it fail with it (natively: pytest's collection
        // error, unittest's failed import), and it is the candidate's failure, never the task's.
        (
            "broken",
            format!(
                "def {}(*args):\n    return undefined_name\n\nundefined_name.x\n",
                f.name
            ),
        ),
    ]
}

/// The cases as rows of a Python list, `((args,), expected),`, each indented by `indent`.
fn case_rows(f: &Function, indent: &str) -> Vec<String> {
    f.cases
        .iter()
        .map(|(args, expected)| format!("{indent}(({args},), {expected}),"))
        .collect()
}

fn compare(f: &Function, expected: &str) -> String {
    if f.floats {
        format!("pytest.approx({expected})")
    } else {
        expected.to_string()
    }
}

/// The four pytest modules of `f` (file name, source), and the conftest they share.
fn pytest_modules(f: &Function) -> (Vec<(String, String)>, String) {
    let name = f.name;
    let mut plain = format!("from solution import {name}\nimport pytest\n\n");
    for (i, (args, expected)) in f.cases.iter().enumerate() {
        plain += &format!(
            "\ndef test_case_{i}():\n    assert {name}({args}) == {}\n",
            compare(f, expected)
        );
    }
    plain += &format!(
        "\ndef test_rejects():\n    with pytest.raises({}):\n        {name}({})\n",
        f.raises.1, f.raises.0
    );

    let rows = case_rows(f, "    ");
    let parametrized = format!(
        "import pytest\nfrom solution import {name}\n\nCASES = [\n{}\n]\n\n\
         @pytest.mark.parametrize('args, expected', CASES, ids=[str(i) for i in range(len(CASES))])\n\
         def test_{name}(args, expected):\n    assert {name}(*args) == {}\n\n\
         @pytest.mark.parametrize('bad', [({},)])\n\
         def test_{name}_rejects(bad):\n    with pytest.raises(Exception) as caught:\n        {name}(*bad)\n    assert caught.type.__name__ == '{}'\n",
        rows.join("\n"),
        if f.floats {
            "pytest.approx(expected)"
        } else {
            "expected"
        },
        f.raises.0,
        f.raises.1
    );

    let fixture_rows = case_rows(f, "        ");
    let conftest = format!(
        "import pytest\n\n\n@pytest.fixture\ndef cases():\n    return [\n{}\n    ]\n\n\n\
         @pytest.fixture(scope='module')\ndef calls():\n    seen = []\n    yield seen\n    assert all(isinstance(s, tuple) for s in seen)\n\n\n\
         @pytest.fixture\ndef first_result():\n    import solution\n    return solution.{name}({})\n",
        fixture_rows.join("\n"),
        f.cases[0].0
    );
    let classy = format!(
        "import pytest\nimport solution\n\n\nclass Test{}:\n    def test_all(self, cases, calls):\n        for args, expected in cases:\n            calls.append(args)\n            assert solution.{name}(*args) == {}\n\n    \
             def test_first(self, cases):\n        args, expected = cases[0]\n        assert solution.{name}(*args) == {}\n\n    \
             def test_is_defined(self):\n        assert callable(solution.{name})\n\n    \
             def test_error(self):\n        with pytest.raises({}, match=r'.*'):\n            solution.{name}({})\n\n    \
             def test_fixture_result(self, first_result):\n        assert first_result == {}\n",
        camel(name),
        if f.floats {
            "pytest.approx(expected)"
        } else {
            "expected"
        },
        if f.floats {
            "pytest.approx(expected)"
        } else {
            "expected"
        },
        f.raises.1,
        f.raises.0,
        compare(f, f.cases[0].1)
    );

    let (args0, expected0) = f.cases[0];
    let (args1, expected1) = f.cases[1];
    let marks = format!(
        "import sys\nimport pytest\nfrom solution import {name}\n\n\n\
         @pytest.mark.skip(reason='not today')\ndef test_skipped():\n    assert {name}({args0}) == {}\n\n\n\
         @pytest.mark.skipif(sys.version_info < (3, 0), reason='python 2')\ndef test_skipif():\n    assert {name}({args1}) == {}\n\n\n\
         @pytest.mark.xfail(reason='a wrong expectation')\ndef test_xfail():\n    assert {name}({args0}) != {}\n\n\n\
         @pytest.mark.xfail(reason='passes with a right program', strict=True)\ndef test_strict_xfail():\n    assert {name}({args1}) != {}\n\n\n\
         def test_skip_inside():\n    if {name}({args0}) == {}:\n        pytest.skip('the first case holds')\n    assert False, 'the first case does not hold'\n",
        compare(f, expected0),
        compare(f, expected1),
        compare(f, expected0),
        compare(f, expected1),
        compare(f, expected0),
    );
    (
        vec![
            ("test_plain.py".into(), plain),
            ("test_parametrized.py".into(), parametrized),
            ("test_classes.py".into(), classy),
            ("test_marks.py".into(), marks),
        ],
        conftest,
    )
}

fn camel(name: &str) -> String {
    name.split('_')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|first| first.to_uppercase().collect::<String>() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

fn equal(f: &Function, actual: &str, expected: &str) -> String {
    if f.floats {
        format!("self.assertAlmostEqual({actual}, {expected})")
    } else {
        format!("self.assertEqual({actual}, {expected})")
    }
}

/// The four unittest modules of `f` (file name, source).
fn unittest_modules(f: &Function) -> Vec<(String, String)> {
    let name = f.name;
    let class = camel(name);
    let mut methods = format!(
        "import unittest\nfrom solution import {name}\n\n\nclass Test{class}(unittest.TestCase):\n"
    );
    for (i, (args, expected)) in f.cases.iter().enumerate() {
        methods += &format!(
            "    def test_case_{i}(self):\n        {}\n\n",
            equal(f, &format!("{name}({args})"), expected)
        );
    }
    methods += &format!(
        "    def test_rejects(self):\n        with self.assertRaises({}):\n            {name}({})\n\n\nif __name__ == '__main__':\n    unittest.main()\n",
        f.raises.1, f.raises.0
    );

    let rows = case_rows(f, "    ");
    let subtests = format!(
        "import unittest\nimport solution\n\nCASES = [\n{}\n]\n\n\nclass Test{class}Table(unittest.TestCase):\n    \
         def test_table(self):\n        for i, (args, expected) in enumerate(CASES):\n            with self.subTest(i=i):\n                {}\n\n    \
         def test_first_two(self):\n        for args, expected in CASES[:2]:\n            with self.subTest(args=args):\n                {}\n\n    \
         def test_rejects(self):\n        self.assertRaises({}, solution.{name}, {})\n",
        rows.join("\n"),
        equal(f, &format!("solution.{name}(*args)"), "expected"),
        equal(f, &format!("solution.{name}(*args)"), "expected"),
        f.raises.1,
        f.raises.0
    );

    let (args0, expected0) = f.cases[0];
    let (args2, expected2) = f.cases[2];
    let fixtures = format!(
        "import unittest\nimport solution\n\n\nclass Test{class}Fixtures(unittest.TestCase):\n    \
         @classmethod\n    def setUpClass(cls):\n        cls.function = staticmethod(solution.{name})\n\n    \
         def setUp(self):\n        self.first = self.function({args0})\n\n    \
         def test_first(self):\n        {}\n\n    \
         def test_third(self):\n        result = self.function({args2})\n        {}\n        self.assertIsNotNone(result)\n\n    \
         def test_type(self):\n        self.assertIsInstance(self.first, type({expected0}))\n\n    \
         def test_message(self):\n        with self.assertRaisesRegex({}, r'.*'):\n            self.function({})\n",
        equal(f, "self.first", expected0),
        equal(f, "result", expected2),
        f.raises.1,
        f.raises.0
    );

    let (args1, expected1) = f.cases[1];
    let (args3, expected3) = f.cases[3];
    let decorated = format!(
        "import sys\nimport unittest\nfrom solution import {name}\n\n\nclass Test{class}Decorated(unittest.TestCase):\n    \
         @unittest.skip('not today')\n    def test_skipped(self):\n        {}\n\n    \
         @unittest.skipIf(sys.version_info < (3, 0), 'python 2')\n    def test_skip_if(self):\n        {}\n\n    \
         @unittest.expectedFailure\n    def test_expected_failure(self):\n        self.assertNotEqual({name}({args0}), {expected0})\n\n    \
         @unittest.expectedFailure\n    def test_unexpected_success(self):\n        {}\n\n    \
         def test_skip_inside(self):\n        if {name}({args3}) == {expected3}:\n            self.skipTest('the fourth case holds')\n        self.fail('the fourth case does not hold')\n",
        equal(f, &format!("{name}({args0})"), expected0),
        equal(f, &format!("{name}({args1})"), expected1),
        equal(f, &format!("{name}({args1})"), expected1),
    );
    vec![
        ("unit_methods.py".into(), methods),
        ("unit_subtests.py".into(), subtests),
        ("unit_fixtures.py".into(), fixtures),
        ("unit_decorated.py".into(), decorated),
    ]
}

/// Each test id's outcome, as the framework's verbose output names it.
type Outcomes = BTreeMap<String, String>;

/// Worse outcomes replace better ones (a test that passed its call and failed its teardown).
fn record(outcomes: &mut Outcomes, id: &str, outcome: &str) {
    let failing = |o: &str| matches!(o, "FAILED" | "ERROR" | "FAIL" | "unexpected success");
    match outcomes.get(id) {
        Some(known) if failing(known) => {}
        _ => {
            outcomes.insert(id.to_string(), outcome.to_string());
        }
    }
    if failing(outcome) {
        outcomes.insert(id.to_string(), outcome.to_string());
    }
}

fn python() -> String {
    common::repo_root()
        .join(".venv/bin/python")
        .to_string_lossy()
        .into_owned()
}

/// Native pytest's outcome for each test id of `files` in `dir` (`-v`: `file::id OUTCOME`).
fn native_pytest(dir: &Path, files: &[String]) -> Outcomes {
    let output = Command::new(python())
        // Each file is a task of its own: one that fails to collect must not stop the others
        // (by default pytest runs nothing when any file fails to collect).
        .args([
            "-m",
            "pytest",
            "-v",
            "-p",
            "no:cacheprovider",
            "--color=no",
            "--continue-on-collection-errors",
        ])
        .args(files)
        .current_dir(dir)
        .env("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
        .output()
        .expect("native pytest runs (scripts/python-tools.sh installs it in .venv)");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut outcomes = Outcomes::new();
    for line in text.lines() {
        let mut words = line.split_whitespace();
        let (Some(id), Some(outcome)) = (words.next(), words.next()) else {
            continue;
        };
        if id.contains("::")
            && ["PASSED", "FAILED", "ERROR", "SKIPPED", "XFAIL", "XPASS"].contains(&outcome)
        {
            record(&mut outcomes, id, outcome);
        }
    }
    outcomes
}

/// Native unittest's outcome for each test id of `modules` in `dir` (`-v`: `name (id) ... ok`;
/// a failed subtest's line names its parameters after the id).
fn native_unittest(dir: &Path, modules: &[String]) -> Outcomes {
    let output = Command::new(python())
        .args(["-m", "unittest", "-v"])
        .args(modules)
        .current_dir(dir)
        .output()
        .expect("native python -m unittest runs");
    let text = String::from_utf8_lossy(&output.stderr);
    let mut outcomes = Outcomes::new();
    for line in text.lines() {
        // `name (id) ... ok`, `  name (id) (i=2) ... FAIL` (a subtest), and the report's
        // headers `ERROR: setUpClass (module.Class)` / `FAIL: name (id) (i=2)`.
        let (described, outcome) = match line.rsplit_once(" ... ") {
            Some((described, outcome)) => (described.trim(), outcome.trim()),
            None => match line.split_once(": ") {
                Some((header @ ("ERROR" | "FAIL"), described)) => (described.trim(), header),
                _ => continue,
            },
        };
        let outcome = if outcome.starts_with("skipped") {
            "skipped"
        } else {
            outcome
        };
        let Some(open) = described.find(" (") else {
            continue;
        };
        let rest = &described[open + 2..];
        let Some(close) = rest.find(')') else {
            continue;
        };
        let id = &rest[..close];
        let method = &described[..open];
        // `setUpClass (module.Class)` is the class's fixture failing, named as unittest names it.
        let id = if id.ends_with(&format!(".{method}")) {
            id.to_string()
        } else {
            format!("{method} ({id})")
        };
        if !outcome.is_empty() {
            record(&mut outcomes, &id, outcome);
        }
    }
    outcomes
}

/// What a native outcome means for the case rewardbox reports: whether it passes, and the word
/// that starts its detail.
fn expected_case(outcome: &str) -> (bool, &'static str) {
    match outcome {
        "PASSED" => (true, "passed"),
        "ok" => (true, "ok"),
        "SKIPPED" | "skipped" => (true, "skipped"),
        "XFAIL" => (true, "xfailed"),
        "expected failure" => (true, "expected failure"),
        "XPASS" => (true, "xpassed"),
        _ => (false, ""),
    }
}

/// Grades every task of `framework` with rewardbox and natively; returns the disagreements and
/// the number of test verdicts compared.
fn agreement(framework: &str) -> (Vec<String>, usize) {
    let mut tasks = Vec::new();
    let mut native: Vec<Vec<Outcomes>> = Vec::new();
    let scratch = tempfile::tempdir().expect("a temp dir");
    for f in FUNCTIONS {
        let (modules, conftest) = match framework {
            "pytest" => pytest_modules(f),
            _ => (unittest_modules(f), String::new()),
        };
        let programs = programs(f);
        let mut per_program = Vec::new();
        for (kind, program) in &programs {
            let dir = scratch.path().join(format!("{}-{kind}", f.name));
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("solution.py"), program).unwrap();
            for (file, source) in &modules {
                std::fs::write(dir.join(file), source).unwrap();
            }
            let outcomes = if framework == "pytest" {
                std::fs::write(dir.join("conftest.py"), &conftest).unwrap();
                let files: Vec<String> = modules.iter().map(|(file, _)| file.clone()).collect();
                native_pytest(&dir, &files)
            } else {
                let names: Vec<String> = modules
                    .iter()
                    .map(|(file, _)| file.trim_end_matches(".py").to_string())
                    .collect();
                native_unittest(&dir, &names)
            };
            per_program.push(outcomes);
        }
        for (file, source) in &modules {
            let mut form = serde_json::json!({"test": source, "file": file});
            if framework == "pytest" && file == "test_classes.py" {
                form["conftest"] = conftest.clone().into();
            }
            tasks.push(serde_json::json!({
                "id": format!("{}/{file}", f.name),
                "verifier": "code",
                "extract": "whole",
                "tests": {framework: form},
                "completions": programs.iter().map(|(_, p)| p.clone()).collect::<Vec<_>>(),
            }));
            native.push(per_program.clone());
        }
    }
    assert!(tasks.len() >= 40, "at least 40 tasks of each form");
    let results = common::score_tasks(&tasks);
    let mut disagreements = Vec::new();
    let mut compared = 0;
    let mut tally: BTreeMap<String, usize> = BTreeMap::new();
    for ((task, result), natives) in tasks.iter().zip(&results).zip(&native) {
        let file = task["tests"][framework]["file"].as_str().unwrap();
        let id_prefix = match framework {
            "pytest" => format!("{file}::"),
            _ => format!("{}.", file.trim_end_matches(".py")),
        };
        let kinds = ["right", "wrong", "raises", "missing", "broken"];
        if result.results.len() != kinds.len() {
            disagreements.push(format!(
                "{}: not graded: {:?} {:?}",
                task["id"], result.status, result.detail
            ));
            continue;
        }
        for ((kind, outcome), native) in kinds.iter().zip(&result.results).zip(natives) {
            let task_id = task["id"].as_str().unwrap();
            let native: Outcomes = native
                .iter()
                .filter(|(id, _)| {
                    id.starts_with(&id_prefix) || id.contains(&format!("({id_prefix}"))
                })
                .map(|(id, o)| (id.clone(), o.clone()))
                .collect();
            if native.is_empty() {
                // Natively nothing ran (the module failed to import the function): the one
                // case rewardbox reports fails.
                if outcome.status != Status::Ok || outcome.passed || outcome.cases.is_empty() {
                    disagreements.push(format!(
                        "{task_id} {kind}: natively no test ran; rewardbox: {:?} {} {:?}",
                        outcome.status, outcome.detail, outcome.cases
                    ));
                }
                compared += 1;
                *tally.entry("no test ran".into()).or_default() += 1;
                continue;
            }
            let ours: BTreeMap<&str, _> =
                outcome.cases.iter().map(|c| (c.id.as_str(), c)).collect();
            if outcome.status != Status::Ok {
                disagreements.push(format!(
                    "{task_id} {kind}: {:?}: {}",
                    outcome.status, outcome.detail
                ));
                continue;
            }
            for (id, native_outcome) in &native {
                compared += 1;
                *tally.entry(native_outcome.clone()).or_default() += 1;
                let (passes, word) = expected_case(native_outcome);
                let agrees = ours.get(id.as_str()).is_some_and(|case| {
                    (case.status == CaseStatus::Passed) == passes
                        && (!passes || case.detail.starts_with(word))
                });
                if !agrees {
                    disagreements.push(format!(
                        "{task_id} {kind} {id}: native {native_outcome}, rewardbox {:?}",
                        ours.get(id.as_str()).map(|c| (&c.status, &c.detail))
                    ));
                }
            }
            for id in ours.keys() {
                if !native.contains_key(*id) {
                    disagreements.push(format!(
                        "{task_id} {kind}: rewardbox reports {id}, which native does not"
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
    (disagreements, compared)
}

#[test]
fn pytest_modules_give_native_pytests_verdict_for_every_test_id() {
    common::assert_native_agreement("pytest", agreement("pytest"), 600);
}

#[test]
fn unittest_modules_give_native_unittests_verdict_for_every_test_id() {
    common::assert_native_agreement("unittest", agreement("unittest"), 500);
}

fn module_task(framework: &str, test: &str, completions: &[&str]) -> serde_json::Value {
    serde_json::json!({"id": "t", "verifier": "code", "extract": "whole",
        "tests": {framework: test}, "completions": completions})
}

/// Whose fault decides: a test module that cannot load before it imports the candidate is the
/// task's (`invalid_task`, saying why), whatever the completions; once the candidate is in play,
/// what fails is the candidate's, and nothing it does (failing to load, exiting, forging the
/// framework's report, patching the framework in its own process) is ever a mask or a pass.
#[test]
fn the_task_answers_for_its_tests_and_the_candidate_for_everything_after_it_is_imported() {
    let right = "def greet(name):\n    print('hi ' + name)\n    return len(name)\n";
    let broken_tasks = [
        (
            "pytest",
            "import numpy\nfrom solution import greet\n\ndef test_a():\n    assert greet('x') == 1\n",
            "No module named 'numpy'",
        ),
        (
            "unittest",
            "import unittest\nUNDEFINED + 1\nfrom solution import greet\n",
            "NameError",
        ),
        ("pytest", "def test_a(:\n    pass\n", "line 1"),
        (
            "unittest",
            "import unittest\nfrom solution import greet\n\nclass T(unittest.TestCase):\n    pass\n",
            "found no test",
        ),
    ];
    for (framework, test, why) in broken_tasks {
        let result = &common::score_tasks(&[module_task(framework, test, &[right])])[0];
        let detail = common::invalid_detail(result);
        assert!(detail.contains(why), "{framework}: {detail}");
    }

    let test = "from solution import greet\n\n\ndef test_prints(capsys):\n    assert greet('bo') == 2\n    assert capsys.readouterr().out == 'hi bo\\n'\n\n\ndef test_len():\n    assert greet('') == 0\n";
    let hostile = [
        "def greet(name):\n    return undefined\n\nraise ImportError('no')\n",
        "import sys\nprint('2 passed in 0.01s')\nsys.exit(0)\n",
        "import os\n\ndef greet(name):\n    print('===== 2 passed in 0.01s =====')\n    os._exit(0)\n",
        "import pytest, unittest, builtins\npytest.main = lambda *a, **k: 0\nunittest.TestCase.run = lambda *a, **k: None\nbuiltins.AssertionError = type('X', (Exception,), {})\n\ndef greet(name):\n    return None\n",
        "class Yes:\n    def __eq__(self, other):\n        return True\n\ndef greet(name):\n    return Yes()\n",
        "def greet(name):\n    while True:\n        pass\n",
    ];
    let mut completions = vec![right];
    completions.extend(hostile);
    let result = &common::score_tasks(&[module_task("pytest", test, &completions)])[0];
    let right_result = &result.results[0];
    assert!(right_result.passed, "{:?}", right_result);
    for (program, outcome) in hostile.iter().zip(&result.results[1..]) {
        assert_eq!(outcome.status, Status::Ok, "{program}: {outcome:?}");
        assert!(!outcome.mask, "{program}");
        assert_eq!(outcome.score, 0.0, "{program}: {outcome:?}");
    }
    // The one that fails to load is a failed `program` case.
    assert_eq!(result.results[1].cases[0].id, "program");

    // A reference that fails its own tests makes the task invalid.
    let mut task = module_task(
        "unittest",
        "import unittest\nfrom solution import greet\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(greet('ab'), 2)\n",
        &[right],
    );
    task["tests"]["reference"] = "def greet(name):\n    return 0\n".into();
    let detail = common::invalid_detail(&common::score_tasks(&[task])[0]);
    assert!(detail.contains("fails its own tests"), "{detail}");
}

/// A run of a task's tests costs more with each test, and more with each failure's report, whose
/// count the candidate decides: a wrong program failing every test of a large pytest or unittest
/// module, or every assert of a large check, scores 0, never a mask, and a right one 1 (at the
/// verifier's default fuel, 32 failing pytest tests ran the session out of fuel, a
/// `verifier_error` a policy could choose by failing them; 512 passing parametrized tests did
/// too; a module of 128 test functions and a check of 400 asserts could not be compiled).
#[test]
fn a_program_failing_every_test_of_a_large_suite_scores_zero_never_a_mask() {
    let right = "def f(x):\n    return x + 1\n";
    let wrong = "def f(x):\n    return x\n";
    let parametrized = "import pytest\nfrom solution import f\n\n\
        @pytest.mark.parametrize('x', range(512))\ndef test_f(x):\n    assert f(x) == x + 1\n";
    // `or`: each assert runs live, against the candidate (a plan would run it in the host).
    let mut check = String::from("def check(candidate):\n");
    let mut functions = String::from("from solution import f\n");
    let mut methods =
        String::from("import unittest\nfrom solution import f\n\n\nclass T(unittest.TestCase):\n");
    for i in 0..500 {
        check.push_str(&format!(
            "    assert candidate({i}) == {} or candidate({i}) < -1\n",
            i + 1
        ));
    }
    for i in 0..200 {
        functions.push_str(&format!(
            "\n\ndef test_{i}():\n    assert f({i}) == {}\n",
            i + 1
        ));
        methods.push_str(&format!(
            "    def test_{i}(self):\n        self.assertEqual(f({i}), {})\n\n",
            i + 1
        ));
    }
    let modules = [
        ("pytest", parametrized.to_string(), 512),
        ("pytest", functions, 200),
        ("unittest", methods, 200),
        ("asserts", check, 500),
    ];
    let tasks: Vec<serde_json::Value> = modules
        .iter()
        .map(|(framework, test, _)| {
            let mut task = module_task(framework, test, &[right, wrong]);
            if *framework == "asserts" {
                task["tests"]["entry_point"] = "f".into();
            }
            task["scoring"] = "fraction".into();
            task
        })
        .collect();
    let results = common::score_tasks(&tasks);
    for ((framework, _, tests), result) in modules.iter().zip(&results) {
        let (right, wrong) = (&result.results[0], &result.results[1]);
        for (which, outcome, score) in [("right", right, 1.0), ("wrong", wrong, 0.0)] {
            assert_eq!(
                outcome.status,
                Status::Ok,
                "{framework} {tests}, {which}: {outcome:?}"
            );
            assert!(!outcome.mask, "{framework} {tests}, {which}");
            assert_eq!(
                outcome.score, score,
                "{framework} {tests}, {which}: {outcome:?}"
            );
            assert_eq!(outcome.cases.len(), *tests, "{framework}, {which}");
        }
        assert!(
            wrong.cases.iter().all(|c| c.status == CaseStatus::Wrong),
            "{framework} {tests}"
        );
    }
}

/// A failing test's report holds what the candidate handed back, several times over, natively
/// too: pytest explaining `f(1) == 'b'` where `f` returns 8 MB of text (the most a value may
/// cross) peaks at 359 MB natively, comparing two returned texts of 900,000 lines at 383 MB. The
/// candidate chose those values, so the test fails and the program scores 0; at the verifier's
/// default 256 MiB both were a masked `verifier_error` it could choose.
#[test]
fn a_failure_report_of_large_values_the_candidate_returned_scores_zero_never_a_mask() {
    let program = "def text(x):\n    return 'a' * 8000000\n\n\
        def lines(x):\n    return '\\n'.join(str(i + x) for i in range(900000))\n";
    let tests = [
        "from solution import text\n\n\ndef test_text():\n    assert text(1) == 'b'\n",
        "from solution import lines\n\n\ndef test_lines():\n    assert lines(0) == lines(1)\n",
    ];
    let tasks: Vec<serde_json::Value> = tests
        .iter()
        .map(|test| module_task("pytest", test, &[program]))
        .collect();
    for (test, result) in tests.iter().zip(common::score_tasks(&tasks)) {
        let outcome = &result.results[0];
        assert_eq!(outcome.status, Status::Ok, "{test}: {outcome:?}");
        assert!(!outcome.mask, "{test}");
        assert_eq!(outcome.score, 0.0, "{test}: {outcome:?}");
        assert_eq!(
            outcome.cases[0].status,
            CaseStatus::Wrong,
            "{test}: {outcome:?}"
        );
    }
}
