//! The `rewardbox` command line: JSONL in, JSONL out, in order; malformed lines reported with line
//! and field while every other line is scored; hostile verifiers contained; clear usage errors.

use crate::common;

use common::{hostile_line, test_cache_dir};
use serde_json::{Value, json};
use std::io::Write;
use std::process::{Command, Stdio};

fn rewardbox() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rewardbox"));
    command.env("REWARDBOX_CACHE_DIR", test_cache_dir());
    command
}

fn parse(stdout: &[u8]) -> Vec<Value> {
    String::from_utf8(stdout.to_vec())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The results `rewardbox score --quiet` writes for `tasks` given on its standard input.
fn score_on_stdin(tasks: &[Value]) -> Vec<Value> {
    let input: String = tasks.iter().map(|t| format!("{t}\n")).collect();
    let mut child = rewardbox()
        .args(["score", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    parse(&child.wait_with_output().unwrap().stdout)
}

fn batch() -> String {
    [
        json!({"id": "q17", "verifier": "numeric", "reference": "391", "tolerance": 1e-6,
               "completions": ["391", "391.0000001", "400"]})
        .to_string(),
        "{\"id\": \"broken\", \"verifier\": \"exact\"".to_string(),
        String::new(),
        hostile_line("flood", "output", json!({"output_bytes": 1000})),
        hostile_line("spin", "loop", json!({"fuel": 1_000_000})),
        json!({"id": "wrong-type", "verifier": "exact", "reference": "a", "completions": "a"}).to_string(),
        json!({"id": "who", "verifier": "oracle", "completions": ["a"]}).to_string(),
        json!({"id": "last", "verifier": "choice", "reference": "C", "completions": ["(C)", "(D)"]}).to_string(),
    ]
    .join("\n")
}

fn check_batch_output(results: &[Value]) {
    let ids: Vec<&Value> = results.iter().map(|r| &r["id"]).collect();
    let expected = [
        json!("q17"),
        Value::Null,
        json!("flood"),
        json!("spin"),
        json!("wrong-type"),
        json!("who"),
        json!("last"),
    ];
    assert_eq!(ids, expected.iter().collect::<Vec<_>>());
    let q17: Vec<f64> = results[0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert_eq!(q17, vec![1.0, 1.0, 0.0]);
    assert_eq!(results[0]["results"][0]["status"], "ok");
    assert!(results[0]["results"][0]["fuel"].as_u64().unwrap() > 0);
    assert!(results[0]["results"][0].get("wall_us").is_some());
    assert_eq!(results[1]["status"], "invalid_task");
    assert!(
        results[1]["detail"]
            .as_str()
            .unwrap()
            .starts_with("line 2: not valid JSON")
    );
    for (i, detail) in [
        (2, "output limit of 1000 bytes"),
        (3, "ran out of fuel (limit 1000000)"),
    ] {
        let r = &results[i]["results"][0];
        assert_eq!(r["status"], "verifier_error");
        assert_eq!(r["mask"], true);
        assert!(r["detail"].as_str().unwrap().contains(detail), "{r}");
    }
    assert_eq!(
        results[4]["detail"],
        "line 6: \"completions\" must be a list of strings"
    );
    assert!(
        results[5]["detail"]
            .as_str()
            .unwrap()
            .starts_with("line 7: \"verifier\": unknown verifier \"oracle\"")
    );
    assert_eq!(results[6]["results"][0]["score"], 1.0);
    assert_eq!(results[6]["results"][1]["score"], 0.0);
}

#[test]
fn scores_a_file_into_a_file_in_order() {
    // Both ways of scoring in parallel: worker processes (the default) and threads.
    for mode in [&["-j", "2"][..], &["-j", "2", "--in-process"][..]] {
        let dir = tempdir("file");
        let input = dir.join("tasks.jsonl");
        let output = dir.join("results.jsonl");
        std::fs::write(&input, batch()).unwrap();
        let run = rewardbox()
            .arg("score")
            .args(mode)
            .arg(&input)
            .arg("-o")
            .arg(&output)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{mode:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        check_batch_output(&parse(&std::fs::read(&output).unwrap()));
        let stderr = String::from_utf8(run.stderr).unwrap();
        assert!(
            stderr.contains("7 tasks (3 invalid), 7 completions"),
            "{mode:?}: {stderr}"
        );
        assert!(stderr.contains("2 verifier errors"), "{stderr}");
        assert!(stderr.contains("completions/s"), "{stderr}");
    }
}

/// Worker processes and threads give the same results, line for line (but for wall times), on
/// the bundled examples and on a task large enough to be split across workers.
#[test]
fn worker_processes_and_threads_agree() {
    let examples =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/tasks.jsonl");
    let mut input = std::fs::read_to_string(&examples).unwrap();
    let completions: Vec<String> = (0..70)
        .map(|i| {
            format!(
                "The answer is \\boxed{{{}}}",
                if i % 4 == 0 { 42 } else { 100 + i }
            )
        })
        .collect();
    input += &json!({"id": "large", "verifier": "math", "reference": "42", "solution": "42",
        "completions": completions})
    .to_string();
    input += "\n";
    // A large task without a solution whose verifier fails on some completions: they score 0
    // where it judges others of the task, the same whatever the workers or threads.
    let numbers: Vec<String> = (0..40)
        .map(|i| {
            if i % 5 == 3 {
                format!("n{i}")
            } else {
                i.to_string()
            }
        })
        .collect();
    input += &json!({"id": "large-failing", "verifier": "python",
        "verifier_code": "def verify(task, completion):\n    return int(completion) == 4\n",
        "completions": numbers})
    .to_string();
    input += "\n";
    let scored = |mode: &[&str]| -> Vec<Value> {
        let mut child = rewardbox()
            .args(["score", "--quiet"])
            .args(mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let run = child.wait_with_output().unwrap();
        assert!(run.status.success(), "{mode:?}");
        let mut results = parse(&run.stdout);
        for result in &mut results {
            for r in result["results"].as_array_mut().into_iter().flatten() {
                r.as_object_mut().unwrap().remove("wall_us");
            }
        }
        results
    };
    let workers = scored(&["-j", "2"]);
    let threads = scored(&["-j", "2", "--in-process"]);
    assert_eq!(
        workers.len(),
        input.lines().filter(|l| !l.trim().is_empty()).count()
    );
    assert_eq!(workers, threads);
    let failing = workers.last().unwrap()["results"].as_array().unwrap();
    assert_eq!(failing.len(), 40);
    for (i, r) in failing.iter().enumerate() {
        let expected = if i == 4 { 1.0 } else { 0.0 };
        assert_eq!(
            (&r["status"], &r["score"]),
            (&json!("ok"), &json!(expected)),
            "completion {i}: {r}"
        );
    }
    let large = workers[workers.len() - 2]["results"].as_array().unwrap();
    assert_eq!(large.len(), 70);
    for (i, r) in large.iter().enumerate() {
        assert_eq!(
            r["score"],
            if i % 4 == 0 { 1.0 } else { 0.0 },
            "completion {i}"
        );
    }
}

#[test]
fn scores_stdin_to_stdout() {
    let mut child = rewardbox()
        .args(["score", "--quiet"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(batch().as_bytes())
        .unwrap();
    let run = child.wait_with_output().unwrap();
    assert!(run.status.success());
    check_batch_output(&parse(&run.stdout));
    assert!(
        run.stderr.is_empty(),
        "--quiet prints nothing: {}",
        String::from_utf8_lossy(&run.stderr)
    );
}

/// A trainer that writes one task and waits for its result gets it while its pipe stays open,
/// in worker processes and in-process alike.
#[test]
fn each_task_is_answered_before_the_input_ends() {
    for jobs in ["2", "1"] {
        let mut child = rewardbox()
            .args(["score", "--quiet", "-j", jobs])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let (lines_tx, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufRead::lines(std::io::BufReader::new(stdout)) {
                let _ = lines_tx.send(line.unwrap());
            }
        });
        for (i, answer) in ["391", "7"].iter().enumerate() {
            let task = json!({"id": format!("t{i}"), "verifier": "exact", "reference": "391",
                              "completions": [answer]});
            writeln!(stdin, "{task}").unwrap();
            stdin.flush().unwrap();
            // Generous: a busy machine is not a failure; a scorer that waits for more input is.
            let line = lines
                .recv_timeout(std::time::Duration::from_secs(120))
                .unwrap_or_else(|_| {
                    panic!("-j {jobs}: task {i} was not answered while the input stayed open")
                });
            let result: Value = serde_json::from_str(&line).unwrap();
            assert_eq!(result["id"], format!("t{i}"));
            assert_eq!(result["results"][0]["passed"], i == 0);
        }
        drop(stdin);
        assert!(child.wait().unwrap().success());
    }
}

#[test]
fn a_missing_input_file_is_a_clear_error() {
    let run = rewardbox()
        .args(["score", "/no/such/tasks.jsonl"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let stderr = String::from_utf8(run.stderr).unwrap();
    assert!(
        stderr.contains("cannot open the tasks file /no/such/tasks.jsonl"),
        "{stderr}"
    );
}

#[test]
fn a_bad_flag_is_a_usage_error() {
    let run = rewardbox()
        .args(["score", "--fuel", "lots"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let run = rewardbox().args(["score", "--fuel", "0"]).output().unwrap();
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--fuel"));
}

#[test]
fn lists_the_builtin_verifiers() {
    let run = rewardbox().arg("verifiers").output().unwrap();
    let stdout = String::from_utf8(run.stdout).unwrap();
    for name in ["exact", "normalized", "numeric", "regex", "choice"] {
        assert!(
            stdout.lines().any(|l| l.starts_with(name)),
            "{name} missing from {stdout}"
        );
    }
}

#[test]
fn scores_the_bundled_examples() {
    let examples =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/tasks.jsonl");
    let run = rewardbox()
        .arg("score")
        .arg(&examples)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(run.status.success());
    let results = parse(&run.stdout);
    let lines = std::fs::read_to_string(&examples)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .count();
    assert_eq!(results.len(), lines);
    for r in &results {
        assert!(r.get("status").is_none(), "bundled example rejected: {r}");
        for c in r["results"].as_array().unwrap() {
            assert_eq!(c["status"], "ok", "{r}");
        }
    }
}

fn tempdir(name: &str) -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn audit_reports_attacker_completions_and_fails_on_exploits() {
    let dir = tempdir("audit");
    let tasks = dir.join("tasks.jsonl");
    std::fs::write(
        &tasks,
        "{\"id\": \"n\", \"verifier\": \"numeric\", \"reference\": \"7\"}\n",
    )
    .unwrap();
    // An attacker that claims a right answer is wrong: the audit must score it and report it.
    let attacker = r#"printf '%s\n' '"the answer is 7"' '{"completion": "it is 8", "name": "llm-guess"}' '{"completion": "7", "expect": "right"}'"#;
    let report_path = dir.join("report.json");
    let run = rewardbox()
        .args([
            "audit",
            "--attacker-cmd",
            attacker,
            "--fail-on-exploit",
            "-o",
        ])
        .arg(&report_path)
        .arg(&tasks)
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("exploits") && stderr.contains("attacker"),
        "{stderr}"
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let findings = report["tasks"][0]["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{findings:?}");
    assert_eq!(findings[0]["attack"], "attacker-1");
    assert_eq!(findings[0]["family"], "attacker");
    assert_eq!(findings[0]["kind"], "exploit");
    assert_eq!(findings[0]["completion"], "the answer is 7");
    assert_eq!(report["summary"]["exploits_by_family"]["attacker"], 1);
    assert_eq!(report["tasks"][0]["robust"], false);

    // Without --fail-on-exploit the same audit succeeds; a robust task exits 0 either way.
    let ok = rewardbox()
        .args(["audit", "--quiet", "--attacker-cmd", attacker])
        .arg(&tasks)
        .output()
        .unwrap();
    assert!(ok.status.success());
    let failing_attacker = rewardbox()
        .args(["audit", "--attacker-cmd", "exit 3"])
        .arg(&tasks)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&failing_attacker.stdout).unwrap();
    assert!(
        report["tasks"][0]["error"]
            .as_str()
            .unwrap()
            .contains("--attacker-cmd failed"),
        "{report}"
    );
}

#[test]
fn deepgym_folders_import_as_tasks_that_score_their_reference_solutions() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/deepgym");
    let not_an_env =
        std::env::temp_dir().join(format!("rewardbox-not-an-env-{}", std::process::id()));
    std::fs::create_dir_all(&not_an_env).unwrap();
    let out = rewardbox()
        .args(["import", "deepgym"])
        .arg(&dir)
        .arg(&not_an_env)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&not_an_env).unwrap();
    assert_eq!(out.status.code(), Some(1), "a folder was skipped");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("no verifier.py"), "{stderr}");
    let mut tasks = parse(&out.stdout);
    assert_eq!(tasks.len(), 4, "{stderr}");
    for task in &mut tasks {
        assert_eq!(task["verifier"], "python");
        assert!(task["prompt"].as_str().is_some_and(|p| p.starts_with('#')));
        task["completions"] = json!([task["solution"].clone()]);
    }
    for r in &score_on_stdin(&tasks) {
        assert_eq!(r["results"][0]["score"], 1.0, "{r}");
    }
}

#[test]
fn humanevalx_files_import_as_tasks_and_a_bad_line_is_named_while_the_rest_are_written() {
    let data =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/humaneval-x");
    let rows: Vec<Value> = {
        let out = rewardbox()
            .args(["import", "humanevalx"])
            .arg(data.join("humaneval_rust.jsonl.gz"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        parse(&out.stdout)
    };
    assert_eq!(rows.len(), 164);
    assert_eq!(rows[0]["language"], "rust");
    assert!(
        rows[0]["tests"]["declaration"]
            .as_str()
            .unwrap()
            .contains("fn has_close_elements")
    );
    // Two good rows around a bad one, and a Java row: each bad line named, the good ones written.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.jsonl");
    let java = json!({"task_id": "Java/0", "prompt": "", "declaration": "", "canonical_solution": "", "test": ""});
    let cpp = json!({"task_id": "CPP/9", "prompt": "int f(){\n", "declaration": "int f(){\n",
                     "canonical_solution": "return 1;}\n", "test": "int main(){ assert(f() == 1); }"});
    std::fs::write(&file, format!("{cpp}\n{{\"task_id\": \n{java}\n{cpp}\n")).unwrap();
    let out = rewardbox()
        .args(["import", "humanevalx"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2: not valid JSON"), "{stderr}");
    assert!(stderr.contains("line 3: Java problems"), "{stderr}");
    let tasks = parse(&out.stdout);
    assert_eq!(tasks.len(), 2);
    // The imported task scores its canonical solution.
    let results = score_on_stdin(&tasks[..1]);
    assert_eq!(results[0]["results"][0]["score"], 1.0, "{}", results[0]);
}

#[test]
fn multipl_e_files_import_as_tasks_with_their_completions_and_a_bad_line_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("humaneval-mixed.jsonl");
    let rs = json!({"name": "HumanEval_53_add", "language": "rs",
                    "prompt": "/// Add two numbers\nfn add(x: isize, y: isize) -> isize {\n",
                    "tests": "}\n\nfn main() {\n    let candidate = add;\n    assert_eq!(candidate(0, 1), 1);\n    assert_eq!(candidate(5, 7), 12);\n}\n",
                    "stop_tokens": ["\n}"], "completions": ["    x + y", "    x * y"]});
    let lua = json!({"name": "HumanEval_53_add", "language": "lua", "prompt": "", "tests": ""});
    let prompt_only = json!({"name": "HumanEval_0_f", "language": "cpp", "prompt": "int f() {\n", "tests": "}\nint main() {}\n"});
    std::fs::write(
        &file,
        format!("{rs}\n{lua}\n{{\"name\": 1,\n{prompt_only}\n"),
    )
    .unwrap();
    let out = rewardbox()
        .args(["import", "multipl-e"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("line 2: MultiPL-E's \"lua\""), "{stderr}");
    assert!(stderr.contains("line 3: not valid JSON"), "{stderr}");
    let tasks = parse(&out.stdout);
    assert_eq!(tasks.len(), 2);
    assert_eq!(tasks[1]["completions"], json!([]));
    assert_eq!(tasks[1]["language"], "cpp");
    // The Rust row's completions, closed by the test code's brace, graded by its `main`.
    let results = score_on_stdin(&tasks[..1]);
    let scores: Vec<f64> = results[0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, vec![1.0, 0.0], "{}", results[0]);
}

#[test]
fn env_check_reports_each_instance_and_fails_on_error_when_asked() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/codegym");
    let out = rewardbox()
        .args(["env", "check"])
        .arg(&dir)
        .arg(dir.join("instances.jsonl"))
        .args(["--fuel", "500000000", "--fail-on-error"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "not every instance is solved");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["summary"]["instances"], 9);
    assert_eq!(report["summary"]["by_status"]["solved"], 3);
    assert_eq!(report["instances"][3]["status"], "wrong");
    let table = String::from_utf8_lossy(&out.stderr);
    assert!(
        table.contains("start_error") && table.contains("33.3% solved"),
        "{table}"
    );
    let run = rewardbox()
        .args(["env", "run"])
        .arg(&dir)
        .arg(dir.join("episodes.jsonl"))
        .output()
        .unwrap();
    let output = String::from_utf8_lossy(&run.stdout);
    let errors = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{output}\n{errors}");
    let lines = parse(&run.stdout);
    assert_eq!(lines[0]["reward"], 1.0, "{output}\n{errors}");
    assert_eq!(lines[1]["status"], "fuel_exhausted", "{output}\n{errors}");

    // A reward that cannot be read says why: never a bare null with status "ok".
    let episodes = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("reward-raises-{}.jsonl", std::process::id()));
    std::fs::write(
        &episodes,
        "{\"id\": \"raises\", \"env_str\": \"codegym_v1@Hostile_4_I__RewardRaisesEnv@{}\", \"actions\": []}\n",
    )
    .unwrap();
    let run = rewardbox()
        .args(["env", "run"])
        .arg(&dir)
        .arg(&episodes)
        .output()
        .unwrap();
    let lines = parse(&run.stdout);
    assert_eq!(lines[0]["status"], "raised", "{lines:?}");
    assert_eq!(lines[0]["reward"], Value::Null);
    assert!(
        lines[0]["detail"]
            .as_str()
            .is_some_and(|d| d.contains("KeyError")),
        "{lines:?}"
    );
    std::fs::remove_file(episodes).ok();
}

/// A compiled language whose compiler this host lacks is a masked verifier error that says what to
/// install, never a silent 0; the other lines are still scored.
#[test]
fn a_missing_compiler_is_a_verifier_error_that_says_what_to_install() {
    let lines = [
        json!({"id": "cpp", "verifier": "code", "language": "cpp",
               "tests": {"stdio": [{"stdin": "", "stdout": "1\n"}]},
               "completions": ["```cpp\nint main(){}\n```"]})
        .to_string(),
        json!({"id": "rust", "verifier": "code", "language": "rust",
               "tests": {"stdio": [{"stdin": "", "stdout": "1\n"}]},
               "completions": ["```rust\nfn main(){ println!(\"1\"); }\n```"]})
        .to_string(),
    ]
    .join("\n");
    let mut child = rewardbox()
        .args(["score", "--in-process", "-"])
        .env("REWARDBOX_ZIG", "/nonexistent/zig")
        .env("REWARDBOX_RUSTC", "/nonexistent/rustc")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(lines.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    let results = parse(&output.stdout);
    assert_eq!(
        results.len(),
        2,
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for (result, needle) in results.iter().zip(["zig", "rustc"]) {
        let completion = &result["results"][0];
        assert_eq!(completion["status"], "verifier_error", "{result}");
        assert_eq!(completion["mask"], true, "{result}");
        let detail = completion["detail"].as_str().unwrap_or("");
        assert!(detail.contains(needle), "{result}");
    }
}

/// `serve` refuses an empty token (the `--token "$UNSET"` slip would turn auth off) and a
/// non-loopback address without a token, unless told `--allow-no-token`; each says what to do.
#[test]
fn serve_refuses_to_run_open_by_mistake() {
    for (args, says) in [
        (
            &["serve", "--port", "0", "--token", ""][..],
            "token is empty",
        ),
        (
            &["serve", "--port", "0", "--token", "  "][..],
            "token is empty",
        ),
        (
            &["serve", "--port", "0", "--host", "0.0.0.0"][..],
            "--allow-no-token",
        ),
    ] {
        let output = rewardbox()
            .args(args)
            .env_remove("REWARDBOX_TOKEN")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{args:?} started");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
    let output = rewardbox()
        .args(["serve", "--port", "0", "--token", ""])
        .env("REWARDBOX_TOKEN", "")
        .output()
        .unwrap();
    assert!(!output.status.success());
}

/// SIGTERM with a client that holds a request open forever: the server drains for `--drain-s`
/// and exits.
#[test]
fn sigterm_ends_the_server_despite_a_stalled_client() {
    use std::io::{BufRead, Write};
    let mut server = rewardbox()
        .args([
            "serve",
            "--port",
            "0",
            "--drain-s",
            "1",
            "--body-timeout-s",
            "3600",
        ])
        .env_remove("REWARDBOX_TOKEN")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = std::io::BufReader::new(server.stderr.take().unwrap());
    let mut line = String::new();
    let address = loop {
        line.clear();
        assert!(stderr.read_line(&mut line).unwrap() > 0, "the server ended");
        if let Some(url) = line.trim().strip_prefix("rewardbox: serving on http://") {
            break url.to_string();
        }
    };
    let mut stalled = std::net::TcpStream::connect(&address).unwrap();
    stalled
        .write_all(b"POST /score HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 1000\r\n\r\n{")
        .unwrap();
    // Give the server the request before the signal (it needs no more than to have read it;
    // should the signal come first, the test still holds: the connection is drained the same).
    std::thread::sleep(std::time::Duration::from_millis(200));
    // SAFETY: signals our own child.
    unsafe { libc::kill(server.id() as i32, libc::SIGTERM) };
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = server.try_wait().unwrap() {
            assert!(status.success(), "{status:?}");
            break;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "the server is still up after SIGTERM"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    drop(stalled);
}

/// `rewardbox audit --tier5 --html`: GRPO's exploit joins the report's findings (family "tier5")
/// and its summary, each task carries its training curve, and the HTML report plots it; the sound
/// twin gets a curve and no Tier 5 finding.
#[test]
fn audit_tier5_adds_findings_curves_and_an_html_report() {
    let dir = tempdir("audit-tier5");
    let tasks = dir.join("tasks.jsonl");
    let all = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/tier5/twins.jsonl"),
    )
    .unwrap();
    // A regex that finds the answer anywhere, and its sound twin; both give only a `solution`
    // (the answer is the one the verifier reads from it).
    let regex_tasks: Vec<&str> = all
        .lines()
        .filter(|l| l.contains("\"pair\": \"regex-search-word-solution-only\""))
        .collect();
    assert_eq!(regex_tasks.len(), 2);
    std::fs::write(&tasks, regex_tasks.join("\n") + "\n").unwrap();
    let (report_path, html_path) = (dir.join("report.json"), dir.join("report.html"));
    let run = rewardbox()
        .args(["audit", "--quiet", "--tier5", "--tier5-steps", "30", "-o"])
        .arg(&report_path)
        .arg("--html")
        .arg(&html_path)
        .arg(&tasks)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&report_path).unwrap()).unwrap();
    let tier5_findings = |task: &Value| -> Vec<Value> {
        task["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["family"] == "tier5")
            .cloned()
            .collect()
    };
    let (weak, sound) = (&report["tasks"][0], &report["tasks"][1]);
    assert_eq!(weak["id"], "regex-search-word-solution-only/weak");
    assert_eq!(weak["tier5"]["judge"], "strict equivalence to \"Paris\"");
    let found = tier5_findings(weak);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["kind"], "exploit");
    assert!(found[0]["completion"].as_str().unwrap().contains("Paris"));
    assert_eq!(weak["tier5"]["outcome"], "exploit");
    assert!(!weak["tier5"]["curve"].as_array().unwrap().is_empty());
    assert!(report["summary"]["exploits_by_family"]["tier5"].as_u64() >= Some(1));
    assert!(tier5_findings(sound).is_empty(), "{sound}");
    assert_ne!(sound["tier5"]["outcome"], "exploit");
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(
        html.contains("regex-search-word-solution-only/weak") && html.contains("<polyline"),
        "{html}"
    );
}
