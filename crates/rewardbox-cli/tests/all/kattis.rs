//! Kattis problem packages (`tests/data/kattis`, one per feature) judged as the contest judges
//! judge them: every jury submission gets the verdict its directory promises, and problemtools'
//! own `verifyproblem`, run natively on the same packages, agrees (`scripts/test.sh` installs
//! problemtools and names it in `REWARDBOX_VERIFYPROBLEM`).

use crate::common;

use rewardbox_import::kattis::time_limit;
use rewardbox_import::kattis::{Check, verify};
use rewardbox_import::kattis::{Expected, read_package};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn packages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/kattis")
}

fn packages() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(packages_dir())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("problem.yaml").is_file())
        .collect();
    found.sort();
    found
}

/// A copy of the bundled package `name` in a temporary directory (kept while the first value
/// lives), to change in a test.
fn copied_package(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let copy = dir.path().join(name);
    let status = Command::new("cp")
        .arg("-r")
        .arg(packages_dir().join(name))
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    (dir, copy)
}

/// Every package's checks, by package name.
fn checks() -> BTreeMap<String, Vec<Check>> {
    let scorer = common::scorer();
    packages()
        .iter()
        .map(|dir| {
            let package = read_package(dir).unwrap();
            let limit = time_limit(&package, &scorer, 1.0).unwrap();
            assert!(
                limit.failures.is_empty(),
                "{}: {:?}",
                package.name,
                limit.failures
            );
            (
                package.name.clone(),
                verify(&package, &scorer, limit.seconds).unwrap(),
            )
        })
        .collect()
}

#[test]
fn every_jury_submission_gets_the_verdict_its_directory_promises() {
    let checks = checks();
    let mut disagreements = Vec::new();
    let mut kinds = std::collections::BTreeSet::new();
    let mut total = 0;
    for (package, list) in &checks {
        for check in list {
            total += 1;
            kinds.insert(check.expected);
            if !check.agrees() {
                disagreements.push(format!(
                    "{package}: {} expected {:?}, got {:?} ({})",
                    check.submission, check.expected, check.got, check.detail
                ));
            }
        }
    }
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
    assert_eq!(
        total, 36,
        "every submission of the seven packages was judged"
    );
    assert_eq!(
        kinds.len(),
        5,
        "every verdict directory is exercised: {kinds:?}"
    );
    let detail = |package: &str, submission: &str| -> &Check {
        checks[package]
            .iter()
            .find(|c| c.submission.ends_with(submission))
            .unwrap()
    };
    // What decided each verdict is in its detail.
    assert!(
        detail("guessing", "no_flush.cpp")
            .detail
            .contains("deadlock")
    );
    assert!(
        detail("guessing", "linear.py")
            .detail
            .contains("more than 31 queries")
    );
    assert!(
        detail("subset", "greedy.py")
            .detail
            .starts_with("WA on secret/")
    );
    assert!(
        detail("parity", "int_overflow.cpp")
            .detail
            .contains("string tokens mismatch")
    );
    let partial = detail("subtasks", "quadratic.cpp");
    assert_eq!(partial.score, 0.3);
    assert!(
        partial.detail.contains("score 30 of 100"),
        "{}",
        partial.detail
    );
    assert_eq!(detail("subtasks", "counting.py").score, 1.0);
}

#[test]
fn problemtools_judges_the_packages_the_same_natively() {
    let Some(verifyproblem) = std::env::var_os("REWARDBOX_VERIFYPROBLEM") else {
        assert!(
            std::env::var_os("REWARDBOX_REQUIRE_PROBLEMTOOLS").is_none(),
            "REWARDBOX_VERIFYPROBLEM is not set: run scripts/test.sh, which installs problemtools"
        );
        eprintln!("skipped: set REWARDBOX_VERIFYPROBLEM to problemtools' verifyproblem");
        return;
    };
    for package in packages() {
        let out = Command::new(&verifyproblem)
            .arg(&package)
            .args(["-p", "submissions"])
            .env(
                "XDG_CONFIG_HOME",
                packages_dir().join("problemtools-config"),
            )
            .output()
            .expect("running verifyproblem");
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            text.contains("tested: 0 errors"),
            "verifyproblem on {}:\n{text}",
            package.display()
        );
    }
}

#[test]
fn the_time_limit_comes_from_the_accepted_submissions_fuel() {
    let scorer = common::scorer();
    let package = read_package(&packages_dir().join("subtasks")).unwrap();
    let first = time_limit(&package, &scorer, 1.0).unwrap();
    let again = time_limit(&package, &scorer, 1.0).unwrap();
    // Fuel, not seconds: the same limit on any machine under any load.
    assert_eq!(first, again);
    let slowest = first.slowest.as_ref().unwrap();
    assert!(slowest.seconds > 0.0);
    assert_eq!(
        first.seconds, 1.0,
        "rounded up to a second, as problemtools does"
    );
    // A finer resolution keeps what the slowest accepted submission times the multiplier needs.
    let fine = time_limit(&package, &scorer, 0.001).unwrap();
    let needed = slowest.seconds * package.metadata.time_multiplier;
    assert!(
        fine.seconds >= needed && fine.seconds < needed + 0.001,
        "{fine:?}"
    );
    // With the tight limit the quadratic submission still only gets the small subtask.
    let checks = verify(&package, &scorer, fine.seconds).unwrap();
    let partial = checks
        .iter()
        .find(|c| c.expected == Expected::PartiallyAccepted)
        .unwrap();
    assert!(partial.agrees(), "{partial:?}");
}

/// A validator that does not build is the package's fault, named, not every submission's `JE`;
/// a contest's own time limit beside the package is the one used.
#[test]
fn a_validator_that_does_not_build_refuses_the_package_and_a_contest_limit_is_kept() {
    let scorer = common::scorer();
    let (_dir, copy) = copied_package("divisor");
    std::fs::write(copy.join(".timelimit"), "3\n").unwrap();
    let package = read_package(&copy).unwrap();
    let limit = time_limit(&package, &scorer, 1.0).unwrap();
    assert_eq!((limit.seconds, limit.fixed_by), (3.0, Some(".timelimit")));
    std::fs::write(
        copy.join("output_validators/checker/checker.cpp"),
        "#include \"testlib.h\"\nint main(int argc, char* argv[]) { registerTestlibCmd(argc, argv) }\n",
    )
    .unwrap();
    let broken = read_package(&copy).unwrap();
    let error = verify(&broken, &scorer, 1.0).unwrap_err();
    assert!(
        error.contains("output validator") && error.contains("does not build"),
        "{error}"
    );
}

/// A pass-fail package with fewer submissions than threads has each submission's cases judged in
/// parallel runs of consecutive cases, and the verdict is still the first failing case's, as a
/// judge going case by case gives it: a submission wrong on an early case and endless on a later
/// one is `WA`, one endless early and wrong later is `TLE`, and the one that passes everything is
/// `AC` with every case counted. The same verdicts with one thread (the package judged whole).
#[test]
fn split_cases_keep_the_first_failing_cases_verdict() {
    let (_dir, copy) = copied_package("parity");
    // Three submissions: the accepted lower.py and two written here; with six threads, each one's
    // cases are judged in two parts (one per idle thread).
    for dir in ["run_time_error", "time_limit_exceeded", "wrong_answer"] {
        std::fs::remove_dir_all(copy.join("submissions").join(dir)).unwrap();
    }
    for other in ["parity.c", "parity.cpp", "parity.rs"] {
        std::fs::remove_file(copy.join("submissions/accepted").join(other)).unwrap();
    }
    // Cases in order: sample/1 (3 numbers), secret/01 (4), secret/02 (200), secret/03 (3).
    let program = |on_four: &str, on_two_hundred: &str| {
        format!(
            "import sys\ndata = sys.stdin.read().split()\nn = int(data[0])\n\
             if n == 4:\n    {on_four}\nif n == 200:\n    {on_two_hundred}\n\
             for x in data[1:]:\n    print('YES' if int(x) % 2 == 0 else 'NO')\n"
        )
    };
    let endless = "while True:\n        pass";
    std::fs::create_dir_all(copy.join("submissions/wrong_answer")).unwrap();
    std::fs::write(
        copy.join("submissions/wrong_answer/wrong_then_endless.py"),
        program("print('YES'); sys.exit(0)", endless),
    )
    .unwrap();
    std::fs::create_dir_all(copy.join("submissions/time_limit_exceeded")).unwrap();
    std::fs::write(
        copy.join("submissions/time_limit_exceeded/endless_then_wrong.py"),
        program(endless, "print('YES'); sys.exit(0)"),
    )
    .unwrap();
    let package = read_package(&copy).unwrap();
    // Six threads on a machine with fewer cores can leave a run less than half its wall-clock net
    // in CPU time: the host was too busy, a masked judge error that says nothing about the
    // submission (as it should). Such a run is judged again, as a trainer would retry it.
    let got = |scorer: &rewardbox::Scorer| -> BTreeMap<String, (String, String)> {
        common::judged_again_while_host_busy(
            || {
                verify(&package, scorer, 1.0)
                    .unwrap()
                    .into_iter()
                    .map(|c| {
                        (
                            c.submission.clone(),
                            (c.got.clone().unwrap(), c.detail.clone()),
                        )
                    })
                    .collect::<BTreeMap<String, (String, String)>>()
            },
            |verdicts| {
                verdicts
                    .values()
                    .any(|(_, detail)| common::says_host_busy(detail))
            },
        )
    };
    let with_threads = |threads| {
        rewardbox::Scorer::new(rewardbox::ScorerOptions {
            threads: Some(threads),
            cache: rewardbox::ComponentCache::in_dir(common::test_cache_dir()),
            ..rewardbox::ScorerOptions::default()
        })
        .unwrap()
    };
    let split = got(&with_threads(6));
    let whole = got(&with_threads(1));
    for (name, verdict) in [
        ("wrong_answer/wrong_then_endless.py", "WA"),
        ("time_limit_exceeded/endless_then_wrong.py", "TLE"),
        ("accepted/lower.py", "AC"),
    ] {
        let key = format!("submissions/{name}");
        assert_eq!(split[&key].0, verdict, "{name}: {:?}", split[&key]);
        assert_eq!(whole[&key].0, verdict, "{name}: {:?}", whole[&key]);
    }
    assert_eq!(split["submissions/accepted/lower.py"].1, "AC (4 cases)");
    assert!(
        split["submissions/wrong_answer/wrong_then_endless.py"]
            .1
            .contains("secret/01"),
        "{:?}",
        split["submissions/wrong_answer/wrong_then_endless.py"]
    );
}

fn rewardbox() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_rewardbox"));
    command.env("REWARDBOX_CACHE_DIR", common::test_cache_dir());
    command
}

#[test]
fn the_cli_imports_packages_as_tasks_and_verifies_them() {
    let dir = tempfile::tempdir().unwrap();
    let tasks = dir.path().join("tasks.jsonl");
    let out = rewardbox()
        .args(["import", "kattis"])
        .arg(packages_dir())
        .args(["--verify", "--language", "python", "-o"])
        .arg(&tasks)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr.contains("36 of 36 jury submissions got the verdict"),
        "{stderr}"
    );
    let lines: Vec<Value> = std::fs::read_to_string(&tasks)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 7);
    let guessing = lines.iter().find(|t| t["id"] == "guessing").unwrap();
    assert_eq!(guessing["language"], "python");
    assert_eq!(guessing["tests"]["judge"]["interactive"], true);
    assert!(
        guessing["solution"]
            .as_str()
            .unwrap()
            .starts_with("```python")
    );
    assert_eq!(guessing["candidate_limits"]["wall_ms"], 1000);

    // The same tasks with the jury's submissions as completions, scored by `rewardbox score`.
    let with_submissions = dir.path().join("submissions.jsonl");
    let out = rewardbox()
        .args(["import", "kattis"])
        .arg(packages_dir().join("parity"))
        .args(["--submissions", "--time-limit", "1", "-o"])
        .arg(&with_submissions)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let scored = rewardbox()
        .arg("score")
        .arg(&with_submissions)
        .arg("--quiet")
        .output()
        .unwrap();
    assert!(scored.status.success());
    let results: Vec<Value> = String::from_utf8_lossy(&scored.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let by_id: BTreeMap<String, Vec<f64>> = results
        .iter()
        .map(|r| {
            let scores = r["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c["score"].as_f64().unwrap())
                .collect();
            (r["id"].as_str().unwrap().to_string(), scores)
        })
        .collect();
    // By directory, then name: parity/c: parity.c (AC), abort.c (RTE); parity/cpp: parity (AC),
    // countdown (TLE), int_overflow (WA); parity/python: lower (AC), exit3 (RTE), swapped (WA).
    assert_eq!(by_id["parity/c"], [1.0, 0.0]);
    assert_eq!(by_id["parity/cpp"], [1.0, 0.0, 0.0]);
    assert_eq!(by_id["parity/python"], [1.0, 0.0, 0.0]);
    assert_eq!(by_id["parity/rust-release"], [1.0]);
    // The tasks take a completion as every code task does: the submissions are written fenced,
    // and a model's fenced answer inside its prose and a bare program both pass.
    let python_task: Value = std::fs::read_to_string(&with_submissions)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|t| t["id"] == "parity/python")
        .unwrap();
    assert!(python_task.get("extract").is_none(), "{python_task}");
    let accepted = python_task["completions"][0].as_str().unwrap();
    assert!(accepted.starts_with("```python\n"), "{accepted}");
    let bare = accepted
        .trim_start_matches("```python\n")
        .trim_end_matches("```")
        .to_string();
    let mut answers = python_task.clone();
    answers["completions"] = json!([
        format!("Here is my solution.\n\n{accepted}\n\nIt reads the input once."),
        bare
    ]);
    let answers_file = dir.path().join("answers.jsonl");
    std::fs::write(&answers_file, answers.to_string()).unwrap();
    let scored = rewardbox()
        .arg("score")
        .arg(&answers_file)
        .arg("--quiet")
        .output()
        .unwrap();
    let result: Value = serde_json::from_slice(&scored.stdout).unwrap();
    let scores: Vec<f64> = result["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["score"].as_f64().unwrap())
        .collect();
    assert_eq!(scores, [1.0, 1.0], "{result}");

    // A directory that is not a package is reported and the others still imported.
    let out = rewardbox()
        .args(["import", "kattis", "--time-limit", "1"])
        .arg(dir.path())
        .arg(packages_dir().join("gnu"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no problem.yaml"));
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}
