//! The built-in verifiers, end to end through the public API: each one's verdicts, the errors that
//! name a task's field, determinism, order, and the compiled-component cache.

use crate::common;

use common::{score_lines, scorer};
use rewardbox::{ComponentCache, Scorer, ScorerOptions, Status, Task};
use serde_json::json;

fn scores(scorer: &Scorer, task: serde_json::Value) -> Vec<f64> {
    let result = scorer.score_task(&Task::from_value(task).expect("a valid task"));
    assert_eq!(result.status, None, "{:?}", result.detail);
    result.results.iter().map(|r| r.score).collect()
}

#[test]
fn each_builtin_judges_its_completions() {
    let s = scorer();
    let t = |v: &str, extra: serde_json::Value, completions: &[&str]| {
        let mut task = json!({"id": v, "verifier": v, "completions": completions});
        task.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        scores(&s, task)
    };
    assert_eq!(
        t(
            "exact",
            json!({"reference": "Paris"}),
            &[" Paris\n", "paris"]
        ),
        vec![1.0, 0.0]
    );
    assert_eq!(
        t(
            "normalized",
            json!({"reference": "Paris"}),
            &["PARIS.", "Lyon"]
        ),
        vec![1.0, 0.0]
    );
    assert_eq!(
        t(
            "numeric",
            json!({"reference": "391", "tolerance": 1e-6}),
            &["391", "391.0000001", "400", "none"]
        ),
        vec![1.0, 1.0, 0.0, 0.0]
    );
    assert_eq!(
        t(
            "numeric",
            json!({"reference": "1234"}),
            &["it costs $1,234.", "-1234"]
        ),
        vec![1.0, 0.0]
    );
    assert_eq!(
        t("regex", json!({"pattern": "[0-9]+"}), &["123", "x123"]),
        vec![1.0, 0.0]
    );
    assert_eq!(
        t(
            "regex",
            json!({"pattern": "[0-9]+", "search": true}),
            &["x123", "x"]
        ),
        vec![1.0, 0.0]
    );
    assert_eq!(
        t(
            "choice",
            json!({"reference": "B"}),
            &["(B)", "The answer is B.", r"\boxed{B}", "A", "B or C"]
        ),
        vec![1.0, 1.0, 1.0, 0.0, 0.0]
    );
}

#[test]
fn a_verifier_field_error_names_line_and_field() {
    let lines = vec![
        json!({"id": "a", "verifier": "exact", "completions": ["x"]}).to_string(),
        json!({"id": "b", "verifier": "numeric", "reference": "x", "completions": ["1"]}).to_string(),
        json!({"id": "c", "verifier": "regex", "pattern": 5, "completions": ["1"]}).to_string(),
        json!({"id": "d", "verifier": "choice", "reference": "banana", "completions": ["B"]}).to_string(),
        json!({"id": "e", "verifier": "numeric", "reference": "1", "tolerance": "big", "completions": ["1"]})
            .to_string(),
    ];
    let results = score_lines(&scorer(), &lines);
    let details: Vec<&str> = results
        .iter()
        .map(|r| r.detail.as_deref().unwrap())
        .collect();
    assert_eq!(details[0], "line 1: \"reference\" is missing");
    assert_eq!(details[1], "line 2: \"reference\" contains no number");
    assert_eq!(details[2], "line 3: \"pattern\" must be a string");
    assert!(details[3].starts_with("line 4: \"reference\" must be a single letter"));
    assert_eq!(
        details[4],
        "line 5: \"tolerance\" must be a non-negative number"
    );
    assert!(
        results
            .iter()
            .all(|r| r.status == Some(Status::InvalidTask) && r.results.is_empty())
    );
}

#[test]
fn malformed_lines_are_invalid_tasks_naming_line_and_field() {
    let lines = vec![
        "{\"id\": \"ok\", \"verifier\": \"exact\", \"reference\": \"1\", \"completions\": [\"1\"]}".to_string(),
        "{\"id\": \"x\", \"verifier\": \"exact\", \"completions\": [1, 2]}".to_string(),
        "this is not json".to_string(),
        "{\"verifier\": \"exact\", \"completions\": []}".to_string(),
        "{\"id\": \"y\", \"verifier\": \"no-such-verifier\", \"completions\": [\"a\"]}".to_string(),
        "{\"id\": \"ok2\", \"verifier\": \"exact\", \"reference\": \"1\", \"completions\": [\"2\"]}".to_string(),
    ];
    let results = score_lines(&scorer(), &lines);
    assert_eq!(results[0].results[0].score, 1.0);
    assert_eq!(
        results[1].detail.as_deref(),
        Some("line 2: \"completions\" must be a list of strings")
    );
    assert!(
        results[2]
            .detail
            .as_deref()
            .unwrap()
            .starts_with("line 3: not valid JSON")
    );
    assert_eq!(
        results[3].detail.as_deref(),
        Some("line 4: \"id\" is missing")
    );
    assert!(
        results[4]
            .detail
            .as_deref()
            .unwrap()
            .starts_with("line 5: \"verifier\": unknown verifier \"no-such-verifier\"")
    );
    assert_eq!(results[5].results[0].score, 0.0);
    assert_eq!(results[5].results[0].status, Status::Ok);
    for (i, r) in results.iter().enumerate().skip(1).take(4) {
        assert_eq!(r.line, Some(i + 1));
    }
}

#[test]
fn the_same_completion_gets_the_same_verdict_and_fuel() {
    let s = scorer();
    let task = Task::from_value(json!({"id": "d", "verifier": "numeric", "reference": "3/4",
        "completions": ["so x = 0.75", "so x = 0.75", "\\frac{3}{4}"]}))
    .unwrap();
    let first = s.score_task(&task);
    let second = s.score_task(&task);
    for (a, b) in first.results.iter().zip(&second.results) {
        assert_eq!(
            (a.score, a.passed, &a.detail, a.fuel),
            (b.score, b.passed, &b.detail, b.fuel)
        );
    }
    assert_eq!(first.results[0].fuel, first.results[1].fuel);
    assert!(first.results[0].fuel > 0);
}

#[test]
fn results_keep_input_order_across_threads() {
    let s = scorer();
    let tasks: Vec<Task> = (0..200)
        .map(|i| {
            Task::from_value(
                json!({"id": format!("t{i}"), "verifier": "numeric", "reference": i.to_string(),
                "completions": (0..7).map(|j| (i + j % 2).to_string()).collect::<Vec<_>>()}),
            )
            .unwrap()
        })
        .collect();
    let results = s.score_tasks(&tasks);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(r.id.as_deref(), Some(format!("t{i}").as_str()));
        let got: Vec<f64> = r.results.iter().map(|r| r.score).collect();
        assert_eq!(got, vec![1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 1.0]);
    }
}

#[test]
fn compiled_components_are_cached_on_disk_and_reused() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let options = || ScorerOptions {
        cache: ComponentCache::in_dir(&dir),
        ..Default::default()
    };
    let first = Scorer::new(options()).unwrap();
    first.verifier("exact").unwrap();
    let files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    assert_eq!(files[0].extension().unwrap(), "cwasm");
    // A rebuild writes a new file and renames it into place: a new inode. A hit only refreshes
    // the file's mtime (the cache evicts least recently used files first).
    use std::os::unix::fs::MetadataExt;
    let before = std::fs::metadata(&files[0]).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));

    let second = Scorer::new(options()).unwrap();
    second.verifier("numeric").unwrap(); // same component as `exact`: loaded, not rebuilt
    let after = std::fs::metadata(&files[0]).unwrap();
    assert_eq!(after.ino(), before.ino(), "the cached file was rebuilt");
    assert!(
        after.modified().unwrap() > before.modified().unwrap(),
        "a hit refreshes the file's mtime"
    );

    std::fs::write(&files[0], b"corrupt").unwrap();
    let third = Scorer::new(options()).unwrap();
    let task = Task::from_value(
        json!({"id": "c", "verifier": "exact", "reference": "a", "completions": ["a"]}),
    )
    .unwrap();
    assert_eq!(
        third.score_task(&task).results[0].score,
        1.0,
        "a corrupt cache entry is rebuilt"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
