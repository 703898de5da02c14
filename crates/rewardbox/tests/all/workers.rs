//! The parent's side of scoring in worker processes (`rewardbox::stream`'s workers), against a stand-in
//! worker written in Python (`tests/data/workers/fake_worker.py`): order, split and joined tasks,
//! malformed lines, and workers that die. The real worker is tested through the CLI (crates/rewardbox-cli/tests/all/cli.rs).

use rewardbox::stream::{WorkerCommand, score_stream_in_workers};
use rewardbox::{Status, TaskResult};
use serde_json::json;
use std::path::PathBuf;

const FAKE_WORKER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/workers/fake_worker.py"
);

fn fake_worker() -> WorkerCommand {
    WorkerCommand {
        program: PathBuf::from("python3"),
        args: vec![FAKE_WORKER.into()],
    }
}

fn score(
    input: &[u8],
    workers: usize,
) -> std::io::Result<(Vec<TaskResult>, rewardbox::stream::Summary)> {
    let mut output = Vec::new();
    let summary = score_stream_in_workers(
        &fake_worker(),
        workers,
        std::io::Cursor::new(input.to_vec()),
        &mut output,
        |_| {},
    )?;
    let results = String::from_utf8(output)
        .expect("UTF-8 output")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a result line"))
        .collect();
    Ok((results, summary))
}

fn task(id: &str, completions: &[&str]) -> String {
    json!({"id": id, "verifier": "exact", "reference": "right", "completions": completions})
        .to_string()
}

/// A task that names its solution: its pieces may be scored apart.
fn task_with_solution(id: &str, completions: &[&str]) -> String {
    json!({"id": id, "verifier": "exact", "reference": "right", "solution": "right",
        "completions": completions})
    .to_string()
}

/// The workers that scored each completion of a result (the stand-in writes its pid as detail).
fn workers_of(result: &TaskResult) -> std::collections::HashSet<&str> {
    result.results.iter().map(|r| r.detail.as_str()).collect()
}

#[test]
fn results_come_back_in_input_order_with_large_tasks_split_and_joined() {
    let mut input = String::new();
    let mut expected = Vec::new();
    for t in 0..40 {
        // Every fifth task has 100 completions and a solution (split into pieces across
        // workers), the rest 3.
        let n = if t % 5 == 0 { 100 } else { 3 };
        let completions: Vec<String> = (0..n)
            .map(|c| {
                if (t + c) % 3 == 0 {
                    "right".into()
                } else {
                    format!("wrong {c}")
                }
            })
            .collect();
        let refs: Vec<&str> = completions.iter().map(String::as_str).collect();
        input += &task_with_solution(&format!("t{t}"), &refs);
        input += "\n";
        expected.push((format!("t{t}"), completions));
    }
    let (results, summary) = score(input.as_bytes(), 3).expect("scored");
    assert_eq!(results.len(), 40);
    for ((id, completions), result) in expected.iter().zip(&results) {
        assert_eq!(result.id.as_deref(), Some(id.as_str()));
        assert_eq!(result.results.len(), completions.len(), "{id}");
        for (c, r) in completions.iter().zip(&result.results) {
            assert_eq!(r.score, f64::from(u8::from(c == "right")), "{id}: {c}");
            assert_eq!(r.fuel, c.len() as u64, "{id}: results joined out of order");
        }
    }
    // The large tasks really were spread over more than one worker.
    let pids = workers_of(&results[0]);
    assert!(
        pids.len() > 1,
        "a 100-completion task stayed on one worker: {pids:?}"
    );
    assert_eq!(summary.tasks, 40);
    assert_eq!(summary.completions, 8 * 100 + 32 * 3);
}

/// A task without a solution is scored whole, however many completions it has: its completions
/// decide whose doing a verifier's failure on one of them is, so one worker judges them together.
#[test]
fn a_large_task_without_a_solution_stays_on_one_worker() {
    let completions: Vec<String> = (0..100).map(|c| format!("wrong {c}")).collect();
    let refs: Vec<&str> = completions.iter().map(String::as_str).collect();
    let input = format!(
        "{}\n{}\n",
        task("whole", &refs),
        task_with_solution("split", &refs)
    );
    let (results, _) = score(input.as_bytes(), 3).expect("scored");
    assert_eq!(results[0].results.len(), 100);
    assert_eq!(
        workers_of(&results[0]).len(),
        1,
        "{:?}",
        workers_of(&results[0])
    );
    assert!(
        workers_of(&results[1]).len() > 1,
        "the task with a solution is split"
    );
}

#[test]
fn malformed_lines_are_reported_by_number_and_the_others_scored() {
    let mut input = Vec::new();
    input.extend(task("a", &["right"]).as_bytes());
    input.extend(b"\n\n   \n{not json\n");
    input.extend(b"\xff\xfe not utf-8\n");
    input.extend(task("b", &["wrong", "right"]).as_bytes());
    input.extend(b"\r\n");
    let (results, summary) = score(&input, 2).expect("scored");
    assert_eq!(
        results.len(),
        4,
        "blank lines are skipped, every other line answered"
    );
    assert_eq!(results[0].results[0].score, 1.0);
    assert_eq!(results[1].status, Some(Status::InvalidTask));
    assert_eq!(results[1].line, Some(4));
    assert_eq!(results[2].status, Some(Status::InvalidTask));
    assert_eq!(
        results[2].detail.as_deref(),
        Some("line 5: not valid UTF-8")
    );
    assert_eq!(results[3].id.as_deref(), Some("b"));
    assert_eq!(results[3].results.len(), 2);
    assert_eq!(summary.invalid_tasks, 2);
}

#[test]
fn a_dying_worker_loses_only_the_task_that_kills_it_and_is_replaced() {
    let mark = std::env::temp_dir().join(format!("rewardbox-fake-worker-{}", std::process::id()));
    let _ = std::fs::remove_file(&mark);
    let mut input = String::new();
    for t in 0..30 {
        // t7 kills its worker once (a transient crash: scored when retried alone); t12 kills
        // every worker it meets (lost, and said so).
        let completions: &[&str] = match t {
            7 => &["die-once", "right"],
            12 => &["die", "right"],
            _ => &["right", "wrong"],
        };
        input += &task(&format!("t{t}"), completions);
        input += "\n";
    }
    let mut output = Vec::new();
    let mut command = fake_worker();
    command.program = PathBuf::from("env");
    command.args.insert(0, "python3".into());
    command
        .args
        .insert(0, format!("FAKE_WORKER_MARK={}", mark.display()).into());
    let summary = score_stream_in_workers(
        &command,
        2,
        std::io::Cursor::new(input.into_bytes()),
        &mut output,
        |_| {},
    )
    .expect("deaths do not stop the run");
    assert!(mark.exists(), "t7 did kill a worker once");
    let _ = std::fs::remove_file(&mark);
    let results: Vec<TaskResult> = String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), 30);
    for (t, result) in results.iter().enumerate() {
        assert_eq!(result.id.as_deref(), Some(format!("t{t}").as_str()));
        assert_eq!(result.results.len(), 2);
        if t == 12 {
            for r in &result.results {
                assert_eq!(r.status, Status::VerifierError, "{r:?}");
                assert!(r.mask);
                assert!(r.detail.contains("worker process died"), "{}", r.detail);
                assert!(r.detail.contains("alone"), "{}", r.detail);
            }
        } else {
            let first = &result.results[0];
            assert_eq!(first.status, Status::Ok, "task {t}: {first:?}");
            assert_eq!(result.results[usize::from(t == 7)].score, 1.0, "task {t}");
        }
    }
    assert_eq!(summary.verifier_errors, 2);
}

#[test]
fn workers_that_always_die_stop_the_run_with_an_error() {
    let mut input = String::new();
    for t in 0..50 {
        input += &task(&format!("t{t}"), &["die"]);
        input += "\n";
    }
    let error = score(input.as_bytes(), 2).expect_err("every worker dies");
    assert!(error.to_string().contains("keep dying"), "{error}");
}

#[test]
fn a_worker_that_cannot_start_is_a_clear_error() {
    let command = WorkerCommand {
        program: PathBuf::from("/nonexistent/rewardbox-worker"),
        args: Vec::new(),
    };
    let error = score_stream_in_workers(&command, 2, &b"{}\n"[..], Vec::new(), |_| {})
        .expect_err("no such program");
    assert!(
        error.to_string().contains("cannot start a scoring worker"),
        "{error}"
    );
}
