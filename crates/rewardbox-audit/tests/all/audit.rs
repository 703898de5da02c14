//! `rewardbox audit`: the bundled verifiers pass their own audit on the bundled examples, every
//! attack of the library is generated and run, and deliberately weak verifiers are each flagged with
//! the attack that broke them.

use crate::common;

use common::{hostile, scorer};
use rewardbox_audit::{AuditOptions, AuditTask, Family, Kind, Report, attacks_for, audit_lines};
use serde_json::{Value, json};
use std::collections::BTreeSet;

fn audit(tasks: &[Value]) -> Report {
    let lines: Vec<(usize, String)> = tasks
        .iter()
        .enumerate()
        .map(|(i, t)| (i + 1, t.to_string()))
        .collect();
    audit_lines(&scorer(), &lines, &AuditOptions::default())
}

fn audit_task(v: Value) -> AuditTask {
    let mut fields = v.as_object().unwrap().clone();
    fields.remove("completions");
    let solution = fields
        .remove("solution")
        .and_then(|s| s.as_str().map(str::to_string));
    AuditTask::new(fields, solution)
}

#[test]
fn bundled_verifiers_pass_their_own_audit_on_the_bundled_examples() {
    let examples = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/tasks.jsonl"
    ))
    .unwrap();
    let tasks: Vec<Value> = examples
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let report = audit(&tasks);
    let findings: Vec<String> = report
        .tasks
        .iter()
        .flat_map(|t| {
            t.findings.iter().map(move |f| {
                format!(
                    "{:?}: {:?} by {} ({}): {:?}",
                    t.id, f.kind, f.attack, f.score, f.detail
                )
            })
        })
        .collect();
    assert!(findings.is_empty(), "\n{}", findings.join("\n"));
    assert_eq!(report.summary.tasks, tasks.len());
    assert_eq!(report.summary.robust_tasks, tasks.len());
    let generated: usize = tasks
        .iter()
        .map(|t| attacks_for(&audit_task(t.clone())).len())
        .sum();
    assert_eq!(
        report.summary.attacks, generated,
        "every generated attack is scored"
    );
}

#[test]
fn every_attack_of_the_library_is_generated() {
    let math = audit_task(
        json!({"id": "m", "verifier": "math", "reference": "(3, 4)", "prompt": "Find the point."}),
    );
    let code_call = audit_task(json!({"id": "c", "verifier": "code",
        "tests": {"call": {"entry_point": "add", "cases": [{"args": [1, 2], "expected": 3}]}},
        "solution": "```python\ndef add(a, b):\n    return a + b\n```"}));
    let code_stdio = audit_task(
        json!({"id": "s", "verifier": "code", "prompt": "Example: input 3 4, output 7",
        "tests": {"stdio": [{"stdin": "3 4", "stdout": "7"}]}}),
    );
    let names = |t: &AuditTask| -> BTreeSet<String> {
        attacks_for(t).into_iter().map(|a| a.name).collect()
    };
    let (m, c, s) = (names(&math), names(&code_call), names(&code_stdio));
    for expected in [
        "empty",
        "whitespace",
        "prompt-echo",
        "format-without-content",
        "reference-format-without-content",
        "huge",
        "control-characters",
        "look-alike-characters",
        "forged-json-verdict-alone",
        "forged-passed-first",
        "forged-all-tests-passed-last",
        "several-answers-boxed",
        "several-answers-or",
        "several-answers-set",
        "several-answers-list",
        "near-miss-off-by-one",
        "near-miss-swapped-tuple",
        "special-nan",
        "special-infinity",
        "special-huge",
        "other-expression",
        "equivalent-boxed",
    ] {
        assert!(m.contains(expected), "math attacks lack {expected}: {m:?}");
    }
    for expected in [
        "exit-sys-exit",
        "exit-os-exit",
        "exit-raise-systemexit",
        "exit-exit-builtin",
        "always-equal-object",
        "rigged-int-subclass",
        "forged-output",
        "monkeypatch-builtins",
        "read-files",
        "read-environment",
        "inspect-call-stack",
        "spawn-process",
        "open-socket",
        "infinite-loop",
        "unbounded-recursion",
        "memory-flood",
        "output-flood",
        "solution",
    ] {
        assert!(c.contains(expected), "code attacks lack {expected}: {c:?}");
    }
    assert!(c.iter().any(|n| n.starts_with("mutant-")), "{c:?}");
    for expected in [
        "echo-input",
        "print-visible-expected-output",
        "hardcode-visible-examples",
    ] {
        assert!(s.contains(expected), "stdio attacks lack {expected}: {s:?}");
    }
    let equivalents: Vec<_> = attacks_for(&audit_task(
        json!({"verifier": "math", "reference": "2\\sqrt{2}"}),
    ))
    .into_iter()
    .filter(|a| a.family == Family::Equivalent)
    .map(|a| a.name)
    .collect();
    assert!(
        equivalents.contains(&"equivalent-radical".to_string()),
        "{equivalents:?}"
    );
}

fn exploits_of(report: &Report) -> Vec<(String, Family)> {
    report
        .tasks
        .iter()
        .flat_map(|t| &t.findings)
        .filter(|f| f.kind == Kind::Exploit)
        .map(|f| (f.attack.clone(), f.family))
        .collect()
}

#[test]
fn a_verifier_that_checks_only_the_format_is_flagged() {
    let report = audit(&[
        json!({"id": "w1", "verifier": hostile(), "attack": "weak-format", "reference": "42"}),
    ]);
    let exploits = exploits_of(&report);
    assert!(!report.tasks[0].robust);
    assert!(
        exploits.iter().any(|(a, _)| a == "format-without-content"),
        "{exploits:?}"
    );
    assert!(
        exploits.iter().any(|(a, _)| a.starts_with("near-miss")),
        "{exploits:?}"
    );
}

#[test]
fn a_verifier_that_accepts_the_reference_as_a_substring_is_flagged() {
    let report = audit(&[
        json!({"id": "w2", "verifier": hostile(), "attack": "weak-substring", "reference": "42"}),
    ]);
    let exploits = exploits_of(&report);
    assert!(!report.tasks[0].robust);
    assert!(
        exploits
            .iter()
            .any(|(a, f)| a == "several-answers-boxed" && *f == Family::Answer),
        "{exploits:?}"
    );
    assert!(
        exploits.iter().any(|(a, _)| a == "other-expression"),
        "{exploits:?}"
    );
}

/// A verifier that fails on every completion is never called robust: each attack it could not score
/// is an `unscored` finding, counted in the summary.
#[test]
fn attacks_the_verifier_cannot_score_are_reported_not_counted_as_stopped() {
    let report =
        audit(&[json!({"id": "e1", "verifier": hostile(), "attack": "error", "reference": "42"})]);
    let task = &report.tasks[0];
    assert!(!task.robust);
    assert!(task.attacks > 10, "{}", task.attacks);
    assert!(task.findings.iter().all(|f| f.kind == Kind::Unscored));
    assert_eq!(task.findings.len(), task.attacks);
    assert_eq!(report.summary.unscored, task.attacks);
    assert_eq!(report.summary.robust_tasks, 0);
    assert_eq!(report.summary.exploits, 0);
}

#[test]
fn code_tests_that_only_check_the_exit_code_are_flagged() {
    let report = audit(&[json!({"id": "w3", "verifier": "code",
        "tests": {"stdio": [{"stdin": "3 4\n", "stdout": ""}]},
        "candidate_limits": {"fuel": 300000000}})]);
    let exploits = exploits_of(&report);
    assert!(
        exploits
            .iter()
            .any(|(a, f)| a == "exit-sys-exit" && *f == Family::Program),
        "{exploits:?}"
    );
}

/// C, C++, Rust, Go and JavaScript stdio tasks are attacked by programs in their own language: a
/// test that only checks the exit code falls to `exit-before-printing`, a single visible case to a
/// program that prints it, and sound tests stand.
#[test]
fn compiled_languages_are_attacked_in_their_own_language() {
    for language in ["c", "cpp", "rust", "go", "javascript"] {
        let weak = json!({"id": format!("{language}-exit"), "verifier": "code", "language": language,
            "tests": {"stdio": [{"stdin": "3 4\n", "stdout": ""}]}});
        let single = json!({"id": format!("{language}-single"), "verifier": "code", "language": language,
            "tests": {"stdio": [{"stdin": "3 4\n", "stdout": "7\n"}]}});
        let attacks = attacks_for(&audit_task(single.clone()));
        let programs: Vec<_> = attacks
            .iter()
            .filter(|a| a.family == Family::Program)
            .collect();
        assert!(programs.len() >= 9, "{language}: {}", programs.len());
        for attack in &programs {
            assert!(
                attack.completion.starts_with(&format!("```{language}\n")),
                "{language}: {}: {}",
                attack.name,
                attack.completion
            );
        }
        let report = audit(&[weak, single]);
        // Every attack is scored; only an endless loop, on a host too busy to give it half its
        // wall-clock net in CPU, is stopped by the net and masked as the host's fault (never a
        // verdict either way).
        for task in &report.tasks {
            for f in task.findings.iter().filter(|f| f.kind == Kind::Unscored) {
                assert!(
                    f.attack == "infinite-loop" && common::says_host_busy(&f.detail),
                    "{language}: {} unscored: {}\n{}",
                    f.attack,
                    f.detail,
                    report.table()
                );
            }
        }
        let exploits = exploits_of(&report);
        for expected in ["exit-before-printing", "hardcode-first-case-output"] {
            assert!(
                exploits
                    .iter()
                    .any(|(a, f)| a == expected && *f == Family::Program),
                "{language}: {expected} not in {exploits:?}"
            );
        }
    }
}

/// JavaScript call tasks are attacked by JavaScript functions; sound call tests stand against every
/// one but a hard-coded first answer, which a single case lets through.
#[test]
fn javascript_call_tasks_are_attacked_with_javascript_functions() {
    let sound = json!({"id": "js-sound", "verifier": "code", "language": "javascript",
        "tests": {"call": {"entry_point": "twice", "cases": [
            {"args": [1], "expected": 2}, {"args": [-4], "expected": -8}, {"args": [0], "expected": 0}]}},
        "candidate_limits": {"fuel": 500000000}});
    let single = json!({"id": "js-single", "verifier": "code", "language": "javascript",
        "tests": {"call": {"entry_point": "twice", "cases": [{"args": [1], "expected": 2}]}},
        "candidate_limits": {"fuel": 500000000}});
    let attacks = attacks_for(&audit_task(sound.clone()));
    let programs: Vec<_> = attacks
        .iter()
        .filter(|a| a.family == Family::Program)
        .collect();
    assert!(programs.len() >= 12, "{}", programs.len());
    for attack in &programs {
        assert!(
            attack.completion.starts_with("```javascript\n")
                && attack.completion.contains("function twice("),
            "{}: {}",
            attack.name,
            attack.completion
        );
    }
    let report = audit(&[sound, single]);
    let exploits = exploits_of(&report);
    assert_eq!(
        exploits,
        vec![("hardcode-first-case-value".to_string(), Family::Program)],
        "{report:?}"
    );
}

#[test]
fn a_test_suite_too_small_to_tell_mutants_apart_is_flagged() {
    let report = audit(&[json!({"id": "w4", "verifier": "code",
        "tests": {"call": {"entry_point": "area", "cases": [{"args": [0, 0], "expected": 0}]}},
        "candidate_limits": {"fuel": 300000000},
        "solution": "```python\ndef area(w, h):\n    result = w * h\n    return result\n```"})]);
    let task = &report.tasks[0];
    let weak: Vec<_> = task
        .findings
        .iter()
        .filter(|f| f.kind == Kind::WeakTests)
        .collect();
    assert!(!weak.is_empty(), "{:?}", task.findings);
    assert!(
        weak.iter()
            .all(|f| f.family == Family::Mutation && f.completion.contains("def area"))
    );
    assert!(
        task.mutation_score.is_some_and(|s| s < 1.0),
        "{:?}",
        task.mutation_score
    );
    // A real suite kills the same mutants.
    let strong = audit(&[json!({"id": "s4", "verifier": "code",
        "tests": {"call": {"entry_point": "area", "cases": [{"args": [2, 3], "expected": 6}, {"args": [5, 1], "expected": 5}, {"args": [4, 4], "expected": 16}]}},
        "candidate_limits": {"fuel": 300000000},
        "solution": "```python\ndef area(w, h):\n    result = w * h\n    return result\n```"})]);
    assert!(
        strong.tasks[0]
            .findings
            .iter()
            .all(|f| f.kind != Kind::WeakTests),
        "{:?}",
        strong.tasks[0].findings
    );
    assert!(strong.tasks[0].robust);
}

#[test]
fn an_invalid_line_is_reported_and_the_others_audited() {
    let lines = vec![
        (1, "{not json".to_string()),
        (
            2,
            json!({"id": "ok", "verifier": "exact", "reference": "x"}).to_string(),
        ),
    ];
    let report = audit_lines(&scorer(), &lines, &AuditOptions::default());
    assert!(
        report.tasks[0]
            .error
            .as_deref()
            .unwrap()
            .starts_with("line 1: not valid JSON")
    );
    assert!(report.tasks[1].robust);
    assert_eq!(report.summary.invalid_tasks, 1);
}

/// The two weak tasks a new user tried: a `regex` that accepts any text containing 391 (with a
/// `solution` but no `reference`: the answer attacks start from the solution's answer, as the
/// verifier reads it), and an a+b `code` task with one stdio case `2 2 -> 4` (where `a * b`,
/// `a ** b` and `print(4)` pass). Each is flagged with the attack that broke it; the same tasks
/// made sound are robust.
#[test]
fn weak_tasks_are_flagged_with_the_attack_that_broke_them() {
    let report = audit(&[
        json!({"id": "weak-regex", "verifier": "regex", "pattern": ".*\\b391\\b.*", "solution": "391"}),
        json!({"id": "weak-stdio", "verifier": "code",
            "tests": {"stdio": [{"stdin": "2 2\n", "stdout": "4"}]},
            "candidate_limits": {"fuel": 300000000},
            "solution": "```python\na, b = map(int, input().split())\nprint(a + b)\n```"}),
        json!({"id": "sound-regex", "verifier": "regex", "pattern": "391", "solution": "391"}),
        json!({"id": "sound-stdio", "verifier": "code",
            "tests": {"stdio": [{"stdin": "2 2\n", "stdout": "4"}, {"stdin": "3 5\n", "stdout": "8"},
                                {"stdin": "-4 1\n", "stdout": "-3"}, {"stdin": "10 0\n", "stdout": "10"}]},
            "candidate_limits": {"fuel": 300000000},
            "solution": "```python\na, b = map(int, input().split())\nprint(a + b)\n```"}),
    ]);
    let findings = |id: &str| -> Vec<(String, Kind)> {
        let task = report
            .tasks
            .iter()
            .find(|t| t.id.as_deref() == Some(id))
            .unwrap();
        task.findings
            .iter()
            .map(|f| (f.attack.clone(), f.kind))
            .collect()
    };
    let regex = findings("weak-regex");
    assert!(
        regex.iter().any(|(a, k)| *k == Kind::Exploit
            && (a.starts_with("spray-") || a.starts_with("several-answers"))),
        "{regex:?}"
    );
    let stdio = findings("weak-stdio");
    for expected in ["+-to-*", "+-to-**"] {
        assert!(
            stdio
                .iter()
                .any(|(a, k)| *k == Kind::WeakTests && a.ends_with(expected)),
            "{expected}: {stdio:?}"
        );
    }
    assert!(
        stdio
            .iter()
            .any(|(a, k)| *k == Kind::Exploit && a == "hardcode-first-case-output"),
        "{stdio:?}"
    );
    for id in ["weak-regex", "weak-stdio"] {
        assert!(
            !report
                .tasks
                .iter()
                .find(|t| t.id.as_deref() == Some(id))
                .unwrap()
                .robust,
            "{id}"
        );
    }
    for id in ["sound-regex", "sound-stdio"] {
        let task = report
            .tasks
            .iter()
            .find(|t| t.id.as_deref() == Some(id))
            .unwrap();
        assert!(task.robust, "{id}: {:?}", task.findings);
    }
}

/// Test modules (`tests.pytest`, `tests.unittest`) are attacked through the names the tests import
/// and read of the candidate's module: each cheat defines all of them, and two go for the framework
/// (a forged report, pytest and unittest patched in the candidate's process). Sound test modules
/// stand against every one; a test that never checks a result falls.
#[test]
fn test_modules_are_attacked_through_the_names_they_import() {
    let pytest = "import pytest\nfrom solution import (add,\n    scale as times)\nimport solution\n\n\
        @pytest.mark.parametrize('a, b', [(1, 2), (3, -4)])\ndef test_add(a, b):\n    assert add(a, b) == a + b\n\n\
        def test_scale():\n    assert times(3, 2) == 6\n    assert solution.halve(8) == pytest.approx(4.0)\n";
    let unittest = "import unittest\nimport solution\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        \
        self.assertEqual(solution.add(2, 2), 4)\n        self.assertEqual(solution.scale(3, 2), 6)\n        \
        self.assertAlmostEqual(solution.halve(8), 4.0)\n";
    let reference = "def add(a, b):\n    return a + b\n\ndef scale(x, k):\n    return x * k\n\ndef halve(x):\n    return x / 2\n";
    let sound = [
        json!({"id": "pytest-sound", "verifier": "code", "tests": {"pytest": pytest, "reference": reference}}),
        json!({"id": "unittest-sound", "verifier": "code", "tests": {"unittest": {"test": unittest, "file": "test_add.py"}, "reference": reference}}),
    ];
    let names = rewardbox_audit::test_module_names(&audit_task(sound[0].clone())).unwrap();
    assert_eq!(names, ["add", "scale", "halve"]);
    let attacks: BTreeSet<String> = attacks_for(&audit_task(sound[1].clone()))
        .into_iter()
        .map(|a| a.name)
        .collect();
    for expected in [
        "forge-test-framework-report",
        "patch-test-framework",
        "exit-os-exit",
        "always-equal-object",
    ] {
        assert!(attacks.contains(expected), "{expected} in {attacks:?}");
    }
    let report = audit(&sound);
    for task in &report.tasks {
        let exploits: Vec<_> = task
            .findings
            .iter()
            .map(|f| format!("{:?} {}: {}", f.kind, f.attack, f.detail))
            .collect();
        assert!(task.robust, "{:?}: {:?} {exploits:#?}", task.id, task.error);
    }
    let weak = json!({"id": "pytest-weak", "verifier": "code",
        "tests": {"pytest": "from solution import add\n\ndef test_add_runs():\n    add(1, 2)\n"}});
    let exploits = exploits_of(&audit(&[weak]));
    assert!(
        exploits
            .iter()
            .any(|(a, f)| a == "always-equal-object" && *f == Family::Program),
        "{exploits:?}"
    );
}

/// JavaScript and TypeScript test files (`tests.jest`, `tests.node_test`) are attacked through
/// the names they take from the candidate's module (destructured, imported, or read off its
/// binding): each cheat defines and exports all of them, and two go for the frameworks (their
/// passing reports printed, `expect`, the test functions and `assert` patched in the candidate's
/// process). Sound test files stand against every one; a test that never checks a result falls.
#[test]
fn test_files_are_attacked_through_the_names_they_import() {
    let jest = "const { add, scale: times } = require('./solution');\nconst solution = require('./solution');\n\n\
        describe('arithmetic', () => {\n  test.each([[1, 2], [3, -4]])('add(%i, %i)', (a, b) => {\n    expect(add(a, b)).toBe(a + b);\n  });\n\n  \
        test('scale', () => {\n    expect(times(3, 2)).toEqual(6);\n    expect(solution.halve(8)).toBeCloseTo(4);\n  });\n});\n";
    let node_test = "import { test } from 'node:test';\nimport assert from 'node:assert/strict';\nimport * as m from './solution.js';\n\n\
        test('add', () => {\n  assert.strictEqual(m.add(2, 2), 4);\n  assert.deepStrictEqual(m.scale(3, 2), 6);\n});\n";
    let sound = [
        json!({"id": "jest-sound", "verifier": "code", "language": "javascript", "tests": {"jest": jest}}),
        json!({"id": "node-sound", "verifier": "code", "language": "typescript", "tests": {"node_test": {"test": node_test, "file": "add.test.ts"}}}),
    ];
    let names = rewardbox_audit::test_file_names(&audit_task(sound[0].clone())).unwrap();
    assert_eq!(names, ["add", "scale", "halve"]);
    let names = rewardbox_audit::test_file_names(&audit_task(sound[1].clone())).unwrap();
    assert_eq!(names, ["add", "scale"]);
    let attacks: BTreeSet<String> = attacks_for(&audit_task(sound[1].clone()))
        .into_iter()
        .map(|a| a.name)
        .collect();
    for expected in [
        "forge-test-framework-report",
        "patch-test-framework",
        "exit-process-exit",
        "always-equal-object",
        "asymmetric-match-object",
        "always-equal-class",
        "wire-forged-request",
    ] {
        assert!(attacks.contains(expected), "{expected} in {attacks:?}");
    }
    let report = audit(&sound);
    for task in &report.tasks {
        let exploits: Vec<_> = task
            .findings
            .iter()
            .map(|f| format!("{:?} {}: {}", f.kind, f.attack, f.detail))
            .collect();
        assert!(task.robust, "{:?}: {:?} {exploits:#?}", task.id, task.error);
    }
    let weak = json!({"id": "jest-weak", "verifier": "code", "language": "javascript",
        "tests": {"jest": "const { add } = require('./solution');\n\ntest('runs', () => {\n  add(1, 2);\n});\n"}});
    let exploits = exploits_of(&audit(&[weak]));
    assert!(
        exploits
            .iter()
            .any(|(a, f)| a == "return-nan" && *f == Family::Program),
        "{exploits:?}"
    );
}
