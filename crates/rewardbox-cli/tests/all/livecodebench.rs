//! `rewardbox import livecodebench`: LiveCodeBench's rows as tasks, graded by the rules of its
//! grader. `tests/data/livecodebench/` holds 41 rows of our own (stdin and functional, private
//! tests plain and packed) and 125 programs, each with the verdict LiveCodeBench's `lcb_runner`
//! gave it natively (`lcb`), and where rewardbox differs on purpose, rewardbox's (`rewardbox`;
//! docs/verifiers/livecodebench.md says why each differs).

use crate::common;
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Command;

fn data(name: &str) -> std::path::PathBuf {
    common::repo_root()
        .join("tests/data/livecodebench")
        .join(name)
}

fn read_jsonl(text: &str) -> Vec<Value> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The rows imported by the command line.
fn imported() -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["import", "livecodebench"])
        .arg(data("rows.jsonl"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("wrote 41 tasks"));
    read_jsonl(&String::from_utf8(out.stdout).unwrap())
}

#[test]
fn every_program_gets_lcb_runners_verdict_or_a_documented_difference() {
    let tasks = imported();
    let by_id: HashMap<&str, &Value> = tasks
        .iter()
        .map(|t| (t["id"].as_str().unwrap(), t))
        .collect();
    let programs = read_jsonl(&std::fs::read_to_string(data("programs.jsonl")).unwrap());
    assert!(programs.len() >= 120, "{}", programs.len());
    // One task per row with its programs as completions, fenced as a chat model writes them.
    let mut order: Vec<&str> = Vec::new();
    let mut completions: HashMap<&str, Vec<&Value>> = HashMap::new();
    for program in &programs {
        let id = program["question_id"].as_str().unwrap();
        if !completions.contains_key(id) {
            order.push(id);
        }
        completions.entry(id).or_default().push(program);
    }
    let lines: Vec<String> = order
        .iter()
        .map(|id| {
            let mut task = by_id[id].clone();
            task["completions"] = completions[id]
                .iter()
                .map(|p| json!(format!("```python\n{}```", p["code"].as_str().unwrap())))
                .collect();
            task.to_string()
        })
        .collect();
    let results = common::score_lines(&common::scorer(), &lines);
    let mut wrong = Vec::new();
    let (mut agree, mut differ) = (0, 0);
    for (id, result) in order.iter().zip(&results) {
        assert_eq!(result.status, None, "{id}: {:?}", result.detail);
        for (program, graded) in completions[id].iter().zip(&result.results) {
            let expected = program
                .get("rewardbox")
                .unwrap_or(&program["lcb"])
                .as_bool()
                .unwrap();
            if program.get("rewardbox").is_some() {
                differ += 1;
            } else {
                agree += 1;
            }
            if graded.passed != expected {
                wrong.push(format!(
                    "{id} {}: passed {} (expected {expected}): {}",
                    program["program"], graded.passed, graded.detail
                ));
            }
            // All or nothing, as pass@1 counts.
            assert!(graded.score == 0.0 || graded.score == 1.0, "{id}");
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Both sides of the line: programs that pass and programs that fail, mostly as lcb_runner.
    let passed = programs.iter().filter(|p| p["lcb"] == true).count();
    assert!(passed > 40 && passed < programs.len() - 40, "{passed}");
    assert!(
        agree >= 115 && differ <= 7,
        "{agree} agree, {differ} differ"
    );
}

#[test]
fn rows_that_cannot_be_carried_are_reported_and_the_others_imported() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rows.jsonl");
    let good = std::fs::read_to_string(data("rows.jsonl")).unwrap();
    let good = good.lines().next().unwrap();
    let wide = json!({"question_id": "w", "question_content": "?", "starter_code": "",
                      "public_test_cases": r#"[{"input": "99999999999999999999", "output": "1", "testtype": "functional"}]"#,
                      "private_test_cases": "", "metadata": r#"{"func_name": "f"}"#});
    let packed_wrong = json!({"question_id": "p", "question_content": "?",
                              "public_test_cases": "[]", "private_test_cases": "eJzLSM3JyVcozy/KSQEAGgsEXQ==",
                              "metadata": "{}"});
    let not_lcb = json!({"task_id": "HumanEval/0"});
    std::fs::write(
        &file,
        format!("{good}\n{wide}\n{packed_wrong}\n{not_lcb}\n"),
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["import", "livecodebench"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("line 2: tests[0].input: holds the integer 99999999999999999999"),
        "{stderr}"
    );
    // zlib of "hello world", not a pickle.
    assert!(
        stderr.contains("line 3: private_test_cases: is not a pickled string"),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 4: row: is not a LiveCodeBench code-generation row"),
        "{stderr}"
    );
    assert!(stderr.contains("wrote 1 tasks"), "{stderr}");
    assert_eq!(read_jsonl(&String::from_utf8(out.stdout).unwrap()).len(), 1);
}
