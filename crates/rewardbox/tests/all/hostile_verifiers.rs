//! Every limit of the host, proven by a hostile verifier component: each attack ends in a masked
//! `verifier_error` with the right detail, the host survives, and the other lines of the same
//! batch are scored normally.

use crate::common;

use common::{hostile, hostile_line, score_lines, scorer};
use rewardbox::{Status, TaskResult};
use serde_json::json;

/// The one result of a hostile line, which must be a masked verifier error.
fn verifier_error(result: &TaskResult) -> String {
    assert_eq!(
        result.status, None,
        "line was rejected: {:?}",
        result.detail
    );
    let r = &result.results[0];
    assert_eq!(
        r.status,
        Status::VerifierError,
        "expected a verifier error, got {r:?}"
    );
    assert!(r.mask, "a verifier error must be masked");
    assert_eq!(r.score, 0.0);
    assert!(!r.passed);
    r.detail.clone()
}

/// Every attack of the hostile verifier, with the limits it runs under and the detail expected.
fn attacks() -> Vec<(&'static str, serde_json::Value, &'static str)> {
    vec![
        (
            "loop",
            json!({"fuel": 20_000_000}),
            "verifier ran out of fuel (limit 20000000)",
        ),
        (
            "sleep",
            json!({"wall_ms": 100}),
            "verifier exceeded the wall-clock limit of 100 ms",
        ),
        (
            "memory",
            json!({"memory_mb": 32}),
            "verifier exceeded the memory limit of 32 MiB",
        ),
        (
            "output",
            json!({"output_bytes": 10_000}),
            "verifier exceeded the output limit of 10000 bytes",
        ),
        // Unbounded recursion: with the 256 MiB native stack a guest may use, even small Rust
        // frames run out of the shadow stack in linear memory first.
        (
            "recursion",
            json!({}),
            "verifier trapped: wasm trap: out of bounds memory access",
        ),
        // Rust keeps large frames on a shadow stack at the bottom of linear memory: overflowing it
        // runs below address 0, which wasm catches as an out-of-bounds access.
        (
            "deep-frames",
            json!({}),
            "verifier trapped: wasm trap: out of bounds memory access",
        ),
        ("panic", json!({}), "hostile verifier panicked on purpose"),
        ("nan", json!({}), "verifier returned score NaN"),
        (
            "seven",
            json!({}),
            "verifier returned score 7, outside [0, 1]",
        ),
        (
            "error",
            json!({}),
            "verifier returned an error: the hostile verifier refuses",
        ),
    ]
}

#[test]
fn every_attack_is_a_masked_verifier_error_and_the_batch_goes_on() {
    let scorer = scorer();
    let mut lines = vec![hostile_line("before", "none", json!({}))];
    for (attack, limits, _) in attacks() {
        lines.push(hostile_line(attack, attack, limits));
        lines.push(
            json!({"id": format!("after-{attack}"), "verifier": "exact", "reference": "42",
                           "completions": ["42", "41"]})
            .to_string(),
        );
    }
    let results = score_lines(&scorer, &lines);
    assert_eq!(results.len(), lines.len());
    assert_eq!(results[0].results[0].status, Status::Ok);
    assert_eq!(results[0].results[0].score, 1.0);
    for (i, (attack, _, expected)) in attacks().into_iter().enumerate() {
        let hostile = &results[1 + 2 * i];
        assert_eq!(hostile.id.as_deref(), Some(attack));
        let detail = verifier_error(hostile);
        assert!(
            detail.contains(expected),
            "{attack}: {detail:?} should contain {expected:?}"
        );
        let neighbour = &results[2 + 2 * i];
        let scores: Vec<f64> = neighbour.results.iter().map(|r| r.score).collect();
        assert_eq!(
            scores,
            vec![1.0, 0.0],
            "the line after {attack} is scored normally"
        );
        assert!(
            neighbour
                .results
                .iter()
                .all(|r| r.status == Status::Ok && !r.mask)
        );
    }
}

#[test]
fn the_panic_detail_says_it_trapped() {
    let results = score_lines(&scorer(), &[hostile_line("p", "panic", json!({}))]);
    let detail = verifier_error(&results[0]);
    assert!(detail.starts_with("verifier trapped: "), "{detail}");
}

#[test]
fn fuel_limit_is_reported_as_fuel_used() {
    let results = score_lines(
        &scorer(),
        &[hostile_line("l", "loop", json!({"fuel": 5_000_000}))],
    );
    assert_eq!(results[0].results[0].fuel, 5_000_000);
}

#[test]
fn a_verifier_may_reject_its_task_for_the_whole_line() {
    let results = score_lines(
        &scorer(),
        &["{}".into(), hostile_line("i", "invalid", json!({}))],
    );
    assert_eq!(results[1].status, Some(Status::InvalidTask));
    assert_eq!(
        results[1].detail.as_deref(),
        Some("line 2: \"secret\" is missing")
    );
    assert_eq!(results[1].id.as_deref(), Some("i"));
}

#[test]
fn the_sandbox_offers_no_environment_files_or_network_and_fake_time() {
    let results = score_lines(&scorer(), &[hostile_line("p", "probe", json!({}))]);
    let detail = &results[0].results[0].detail;
    for expected in [
        "env=0",
        "args=0",
        "file=false",
        "net=false",
        "wall=1704067200",
    ] {
        assert!(
            detail.contains(expected),
            "{detail:?} should contain {expected:?}"
        );
    }
}

#[test]
fn randomness_and_clocks_are_seeded_so_verdicts_repeat() {
    let scorer = scorer();
    let line = hostile_line("p", "probe", json!({}));
    let first = score_lines(&scorer, std::slice::from_ref(&line));
    let second = score_lines(&scorer, std::slice::from_ref(&line));
    assert_eq!(first[0].results[0].detail, second[0].results[0].detail);
    assert_eq!(first[0].results[0].fuel, second[0].results[0].fuel);

    let other_seed = rewardbox::Scorer::new(rewardbox::ScorerOptions {
        seed: 7,
        cache: rewardbox::ComponentCache::in_dir(common::test_cache_dir()),
        ..Default::default()
    })
    .unwrap();
    let third = score_lines(&other_seed, &[line]);
    assert_ne!(
        first[0].results[0].detail, third[0].results[0].detail,
        "the seed reaches the guest"
    );
}

#[test]
fn a_missing_component_path_is_an_invalid_task() {
    let line =
        json!({"id": "x", "verifier": "/no/such/verifier.wasm", "completions": ["a"]}).to_string();
    let results = score_lines(&scorer(), &[line]);
    let detail = results[0].detail.as_deref().unwrap();
    assert!(
        detail.starts_with("line 1: \"verifier\": cannot read the verifier component"),
        "{detail}"
    );
}

#[test]
fn a_file_that_is_not_a_verifier_component_is_an_invalid_task() {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("not-a-component.wasm");
    std::fs::write(&path, b"\0asm garbage").unwrap();
    let line = json!({"id": "x", "verifier": path, "completions": ["a"]}).to_string();
    let results = score_lines(&scorer(), &[line]);
    assert_eq!(results[0].status, Some(Status::InvalidTask));
    assert!(
        results[0]
            .detail
            .as_deref()
            .unwrap()
            .contains("could not compile the component")
    );
    assert!(!hostile().is_empty());
}

/// A verifier path that names a device, a FIFO or a directory is refused at once with a line
/// number and a reason (never read forever, never a hang), and the other lines are scored.
#[test]
fn verifier_paths_must_be_regular_files() {
    let dir = std::env::temp_dir().join(format!("rewardbox-verifier-paths-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo_wasm = dir.join("fifo.wasm");
    let fifo_py = dir.join("fifo.py");
    for fifo in [&fifo_wasm, &fifo_py] {
        let path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a NUL-terminated path, a mode.
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }
    let folder = dir.join("folder.wasm");
    std::fs::create_dir_all(&folder).unwrap();
    let s = scorer();
    let mut lines: Vec<String> = [
        "/dev/zero".to_string(),
        fifo_wasm.display().to_string(),
        fifo_py.display().to_string(),
        folder.display().to_string(),
    ]
    .iter()
    .map(|v| json!({"id": v, "verifier": v, "completions": ["a"]}).to_string())
    .collect();
    lines.push(
        json!({"id": "ok", "verifier": "exact", "reference": "a", "completions": ["a"]})
            .to_string(),
    );
    let results = score_lines(&s, &lines);
    for (i, result) in results.iter().take(4).enumerate() {
        let detail = result.detail.as_deref().unwrap_or_default();
        assert!(
            detail.starts_with(&format!("line {}: \"verifier\"", i + 1))
                && detail.contains("not a regular file"),
            "{detail}"
        );
    }
    assert_eq!(results[4].results[0].score, 1.0);
    std::fs::remove_dir_all(dir).ok();
}

/// Each distinct Python source a task brings is compiled and held; past the bound, the oldest
/// are forgotten (and compiled again if they come back), so a stream of distinct sources does not
/// grow the process forever.
#[test]
fn verifiers_from_task_sources_are_bounded() {
    let s = scorer();
    let total = rewardbox::MAX_LOADED_SOURCES + 20;
    let tasks: Vec<rewardbox::Task> = (0..total)
        .map(|i| {
            rewardbox::Task::from_value(json!({
                "id": i.to_string(), "verifier": "python",
                "verifier_code": format!("def verify(task, completion):\n    return completion == '{i}'\n"),
                "completions": [i.to_string()],
            }))
            .unwrap()
        })
        .collect();
    for result in s.score_tasks(&tasks) {
        assert_eq!(
            result.results[0].score, 1.0,
            "{:?}",
            result.results[0].detail
        );
    }
    assert_eq!(s.loaded_verifier_sources(), rewardbox::MAX_LOADED_SOURCES);
}

/// A recording of a task's runs writes down each program its verifier runs through
/// `sandbox.run` (language, source, input), in order, and nothing of a task with another id
/// scored at the same time; once dropped, nothing more.
#[test]
fn a_recording_writes_down_the_runs_of_its_task_only() {
    let scorer = scorer();
    let program = "print(int(input()) * 2)";
    let task = |id: &str, inputs: serde_json::Value| {
        json!({"id": id, "verifier": test_guests::HOSTILE_VERIFIER, "attack": "program-exact",
               "language": "python", "inputs": inputs, "expected": ["2", "6"],
               "completions": [format!("```python\n{program}\n```")]})
        .to_string()
    };
    let recording = scorer.services().record_runs("recorded").unwrap();
    let results = score_lines(
        &scorer,
        &[
            task("recorded", json!(["1\n", "3\n"])),
            task("other", json!(["5\n", "7\n"])),
        ],
    );
    // Recording does not change a verdict: 2 and 6 expected, 10 and 14 printed for "other".
    assert_eq!(results[0].results[0].score, 1.0);
    assert_eq!(results[1].results[0].score, 0.0);
    let runs = recording.runs();
    let inputs: Vec<&str> = runs.iter().map(|r| r.stdin.as_str()).collect();
    assert_eq!(inputs, ["1\n", "3\n"]);
    assert!(
        runs.iter()
            .all(|r| r.language == "python" && r.source.trim() == program)
    );
    drop(recording);
    let later = scorer.services().record_runs("another").unwrap();
    score_lines(&scorer, &[task("recorded", json!(["4\n", "9\n"]))]);
    assert!(later.runs().is_empty());
}
