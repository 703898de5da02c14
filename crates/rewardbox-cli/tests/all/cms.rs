//! IOI/CMS tasks (`tests/data/cms`, written for these tests, in the layout CMS's TPS loader
//! reads: a grader whose functions the submission implements with a CMS checker scoring in
//! [0, 1], a grader passing vectors, strings, pairs and reference arguments both ways, a batch
//! task with a partial-score checker, a white-diff task without subtasks, a communication task
//! with two processes and stubs, one without stubs) judged as CMS judges them: every jury
//! solution shows what its TPS verdict asks, and its score is the score a native judge gives
//! (the same programs built with g++/gcc, graders and stubs compiled with the solution, managers
//! talking to the processes through named pipes, as CMS runs them).

use crate::cms_tasks::{native_scores, task_dirs, total};
use crate::common;
use rewardbox::{CaseStatus, Scorer, Task as ScoredTask};
use rewardbox_import::cms::{TaskType, Verdict, judge_tests, read_task, verify};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::process::Command;

#[test]
fn every_jury_solution_shows_its_verdict_and_scores_as_natively() {
    let dirs = task_dirs();
    assert!(dirs.len() >= 5, "{dirs:?}");
    let scorer: Scorer = common::scorer();
    let work = tempfile::tempdir().unwrap();
    let (mut table, mut differ) = (Vec::new(), Vec::new());
    let mut verdicts = BTreeSet::new();
    let mut kinds = BTreeSet::new();
    for dir in &dirs {
        let read = read_task(dir).unwrap();
        kinds.insert(match &read.task_type {
            TaskType::Batch { grader: Some(_) } => "grader",
            TaskType::Batch { grader: None } if read.checker.is_some() => "checker",
            TaskType::Batch { grader: None } => "white diff",
            TaskType::Communication { stubs, .. } if stubs.is_empty() => "communication",
            TaskType::Communication { .. } => "communication with stubs",
        });
        // An endless loop on a host too busy to give it half its wall-clock net in CPU time is
        // a masked judge error that says nothing about the solution (as it should): such a task
        // is judged again, as a trainer would retry it.
        let (checks, skipped) = common::judged_again_while_host_busy(
            || verify(&read, &scorer, read.time_limit).unwrap(),
            |(checks, _)| checks.iter().any(|c| common::says_host_busy(&c.detail)),
        );
        assert_eq!(skipped, Vec::<String>::new(), "{}", read.name);
        for check in checks {
            verdicts.insert(check.verdict);
            let line = format!(
                "{:<8} {:<32} {:<18} {:?} {:.3}",
                read.name,
                check.solution,
                check.verdict.name(),
                check.got,
                check.score
            );
            if !check.agrees() {
                differ.push(format!("{line}: {}", check.detail));
            }
            // The native judge: its total, and each test rewardbox judged (a subtask stops at a
            // test that scores 0) accepted exactly when it gets every point natively.
            let native = native_scores(
                &read,
                dir,
                &dir.join(&check.solution),
                work.path(),
                read.time_limit,
            );
            let expected = total(&read, &native);
            // On a host that stays too busy (a starved machine), a case the net stopped is
            // masked: it says nothing of the solution, so the solution's total is not compared.
            // Only a case the native judge does not accept either (an endless or slow run) may
            // be masked.
            let masked: Vec<&str> = check
                .cases
                .iter()
                .filter(|c| common::says_host_busy(&c.detail))
                .map(|c| c.id.rsplit('/').next().unwrap())
                .collect();
            if !masked.is_empty() {
                for codename in &masked {
                    if native[*codename] >= 1.0 {
                        differ.push(format!(
                            "{line}: {codename} masked (host too busy), native accepts it"
                        ));
                    }
                }
                table.push(format!("{line} masked on a busy host: {masked:?}"));
                continue;
            }
            if (check.score * 100.0 - expected).abs() > 1e-6 {
                differ.push(format!("{line}: native {expected} ({})", check.detail));
            }
            for case in &check.cases {
                let codename = case.id.rsplit('/').next().unwrap();
                let accepted = case.status == CaseStatus::Passed;
                if accepted != (native[codename] >= 1.0) {
                    differ.push(format!(
                        "{line}: {} {:?}, native {}",
                        case.id, case.status, native[codename]
                    ));
                }
            }
            table.push(format!("{line} native {expected}"));
        }
    }
    eprintln!("{}", table.join("\n"));
    assert!(differ.is_empty(), "{}", differ.join("\n"));
    assert!(table.len() >= 29, "{}", table.len());
    assert_eq!(kinds.len(), 5, "{kinds:?}");
    for wanted in [
        Verdict::ModelSolution,
        Verdict::Correct,
        Verdict::Incorrect,
        Verdict::PartiallyCorrect,
        Verdict::TimeLimit,
        Verdict::RuntimeError,
        Verdict::Failed,
    ] {
        assert!(
            verdicts.contains(&wanted),
            "no solution is {}",
            wanted.name()
        );
    }
}

/// A judge of a grader task whose grader keeps a secret in a global variable, and a
/// submission that names it.
fn secret_task(completion: &str) -> Value {
    let grader = "#include \"secret.h\"\n#include <cstdio>\nint hidden_value;\n\
                  int main() { scanf(\"%d\", &hidden_value); printf(\"%d\\n\", find() == hidden_value); }\n";
    json!({
        "id": "secret", "verifier": "code", "language": "cpp", "extract": "whole",
        "tests": {"judge": {
            "type": "scoring",
            "cases": [{"name": "1", "input": "424242\n", "answer": "1\n", "group": "all"}],
            "comparison": "white-diff",
            "grader": {"language": "cpp", "source": grader},
            "header": {"name": "secret.h", "source": "int find();\n"},
            "subtasks": [{"name": "all", "points": 100, "policy": "group-min"}]
        }},
        "completions": [completion]
    })
}

#[test]
fn the_grader_s_state_is_out_of_the_submission_s_reach() {
    let scorer = common::scorer();
    let score = |completion: &str| {
        let result =
            &scorer.score_tasks(&[ScoredTask::from_value(secret_task(completion)).unwrap()])[0];
        assert!(!result.is_invalid(), "{:?}", result.detail);
        let got = result.results[0].clone();
        (got.score, got.detail)
    };
    // Compiled with the grader (as CMS does), this reads the grader's variable; here the
    // variable is in another sandbox, and the submission does not link.
    let (named, detail) = score(
        "#include \"secret.h\"\nextern int hidden_value;\nint find() { return hidden_value; }\n",
    );
    assert_eq!(named, 0.0, "{detail}");
    assert!(detail.starts_with("CE"), "{detail}");
    // Nor can it read the grader's input: its stdin is the wire, on which nothing comes.
    let (read, detail) = score(
        "#include \"secret.h\"\n#include <cstdio>\nint find() { int x = 0; scanf(\"%d\", &x); return x; }\n",
    );
    assert_eq!(read, 0.0, "{detail}");
    let (honest, detail) = score("#include \"secret.h\"\nint find() { return 424242; }\n");
    assert_eq!(honest, 1.0, "{detail}");
}

#[test]
fn what_cannot_be_judged_is_refused_naming_the_part() {
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("outputonly");
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::write(
        dir.join("problem.json"),
        r#"{"code": "outputonly", "task_type": "OutputOnly", "time_limit": 1, "memory_limit": 64}"#,
    )
    .unwrap();
    let error = read_task(&dir).unwrap_err();
    assert!(error.contains("\"outputonly\""), "{error}");
    // A header whose functions take pointers: the judge says which, as an invalid task.
    let guess = read_task(&task_dirs()[0]).unwrap();
    let mut judge = judge_tests(&guess);
    judge["header"]["source"] = json!("int guess(int* n);\nint ask(int x);\n");
    let value = json!({"id": "p", "verifier": "code", "language": "cpp", "extract": "whole",
                       "tests": {"judge": judge}, "completions": ["int guess(int* n) { return 1; }"]});
    let scorer = common::scorer();
    let result = &scorer.score_tasks(&[ScoredTask::from_value(value).unwrap()])[0];
    assert!(result.is_invalid());
    let detail = result.detail.clone().unwrap_or_default();
    assert!(
        detail.contains("guess's parameter `int* n` is a pointer"),
        "{detail}"
    );
    // The command line names the task and the part it refuses.
    let output = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["import", "cms"])
        .arg(work.path())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("task type is \"outputonly\""), "{stderr}");
}
