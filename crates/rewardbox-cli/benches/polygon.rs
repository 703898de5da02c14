//! Judging Polygon packages' jury solutions: `rewardbox import polygon --verify` against a native
//! judge doing the same work with the same programs in the same run (Polygon's own invoker is
//! not available): every checker, interactor, generator, validator and solution built with
//! g++ -O2 / gcc / rustc -O (python3 runs as it is), each solution run on each test under the
//! testset's time limit (wall clock) and memory limit (`ulimit -v`), checked by the native
//! checker, stopping at its first test not accepted. rewardbox does more than that: it runs the
//! validators on every test and judges every test of an `each-test` group.
//!
//! Run: `REWARDBOX_TESTLIB_DIR=$(./scripts/testlib.sh) cargo bench --bench polygon`. Two rounds of
//! each, reported as a range; rewardbox also once with an empty program cache (its compiles
//! included, as the native judge's builds are).

#[path = "support/polygon_packages.rs"]
mod polygon_packages;

#[path = "support/import_verify.rs"]
mod import_verify;

use import_verify::import_verify;
use polygon_packages::{build, testlib_verdict};

use rayon::prelude::*;
use rewardbox_import::polygon::{Package, complete_tests, read_package};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `argv` with `stdin`, the time limit on the wall clock and the memory limit as address
/// space: (exit code, stdout), `None` past the time limit.
fn limited(
    argv: &[String],
    stdin: &[u8],
    seconds: f64,
    memory: u64,
) -> Option<(Option<i32>, Vec<u8>)> {
    let script = format!("ulimit -v {}; exec \"$@\"", memory / 1024);
    let mut child = Command::new("sh")
        .args(["-c", &script, "sh"])
        .args(argv)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let text = stdin.to_vec();
    std::thread::spawn(move || {
        let _ = input.write_all(&text);
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out
    });
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return Some((status.code(), reader.join().unwrap()));
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The native judge on one package: builds everything, then judges each solution; its
/// solutions' first verdicts (`AC-`: accepted without every point), and the seconds spent
/// building.
fn native_judge(package: &Package, dir: &Path, out: &Path) -> (Vec<String>, f64) {
    let building = Instant::now();
    std::fs::create_dir_all(out).unwrap();
    let files = dir.join("files");
    let mut sources = vec![files.join("check.cpp")];
    sources.extend(
        package
            .interactor
            .iter()
            .map(|_| files.join("interactor.cpp")),
    );
    sources.extend(package.solutions.iter().map(|s| dir.join(&s.path)));
    let programs: Vec<Vec<String>> = sources
        .par_iter()
        .enumerate()
        .map(|(i, source)| build(source, &files, &out.join(format!("p{i}"))).command)
        .collect();
    let build_seconds = building.elapsed().as_secs_f64();
    let checker = &programs[0];
    let interactor = package.interactor.as_ref().map(|_| &programs[1]);
    let solutions = &programs[1 + usize::from(interactor.is_some())..];
    let seconds = package.time_limit_ms as f64 / 1000.0;
    let verdicts = solutions
        .par_iter()
        .enumerate()
        .map(|(s, solution)| {
            let work = out.join(format!("work{s}"));
            std::fs::create_dir_all(&work).unwrap();
            let mut partial = false;
            for case in &package.cases {
                let input = work.join("input");
                let answer = work.join("answer");
                let output = work.join("output");
                std::fs::write(&input, case.input.as_deref().unwrap()).unwrap();
                std::fs::write(&answer, case.answer.as_deref().unwrap()).unwrap();
                let verdict = match interactor {
                    None => match limited(
                        solution,
                        case.input.as_deref().unwrap().as_bytes(),
                        seconds,
                        package.memory_bytes,
                    ) {
                        None => "TLE".to_string(),
                        Some((Some(0), stdout)) => {
                            std::fs::write(&output, stdout).unwrap();
                            check(checker, &input, &output, &answer, case.points)
                        }
                        Some(_) => "RTE".to_string(),
                    },
                    Some(interactor) => interact(
                        solution, interactor, &input, &output, &answer, checker, seconds,
                    ),
                };
                if verdict == "AC-" {
                    partial = true;
                } else if verdict != "AC" {
                    return verdict;
                }
            }
            if partial { "AC-" } else { "AC" }.to_string()
        })
        .collect();
    (verdicts, build_seconds)
}

/// The native checker's verdict on `output`: `AC` with all the test's `points`, `AC-` with fewer
/// (`quitp`), or the failure.
fn check(checker: &[String], input: &Path, output: &Path, answer: &Path, points: f64) -> String {
    let done = Command::new(&checker[0])
        .arg(input)
        .arg(output)
        .arg(answer)
        .output()
        .unwrap();
    let code = done.status.code();
    let (verdict, given) = testlib_verdict(code, &String::from_utf8_lossy(&done.stderr));
    if code == Some(7) && !given.is_some_and(|given| given >= points) {
        return "AC-".into();
    }
    match verdict.as_str() {
        "AC" | "WA" | "PE" => verdict,
        _ => "JE".into(),
    }
}

/// A solution and the native interactor talking through pipes, then the checker.
fn interact(
    solution: &[String],
    interactor: &[String],
    input: &Path,
    output: &Path,
    answer: &Path,
    checker: &[String],
    seconds: f64,
) -> String {
    let mut program = Command::new(&solution[0])
        .args(&solution[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let to = program.stdin.take().unwrap();
    let from = program.stdout.take().unwrap();
    let mut judge = Command::new(&interactor[0])
        .arg(input)
        .arg(output)
        .stdin(Stdio::from(from))
        .stdout(Stdio::from(to))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    loop {
        let judged = judge.try_wait().unwrap();
        let ended = program.try_wait().unwrap();
        if let (Some(judged), Some(ended)) = (judged, ended) {
            return match judged.code() {
                Some(0) if ended.success() => check(checker, input, output, answer, 0.0),
                Some(0) => "RTE".into(),
                Some(1) => "WA".into(),
                Some(2 | 4 | 8) => "PE".into(),
                _ => "JE".into(),
            };
        }
        if Instant::now() > deadline {
            let _ = program.kill();
            let _ = judge.kill();
            let _ = program.wait();
            let _ = judge.wait();
            return "TLE".into();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn main() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("polygon");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let packages = polygon_packages::prepare(&dir.join("packages"));
    let names: Vec<String> = packages
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    println!("{} packages: {}", packages.len(), names.join(", "));

    let cache = dir.join("cache");
    let (cold, agreed, judged) = import_verify("polygon", &packages, &cache);
    let mut warm = Vec::new();
    let mut native = Vec::new();
    let scorer = rewardbox::Scorer::new(rewardbox::ScorerOptions {
        cache: rewardbox::ComponentCache::in_dir(cache.clone()),
        ..rewardbox::ScorerOptions::default()
    })
    .unwrap();
    // The tests as rewardbox made them (generated inputs, main-solution answers), for the native
    // judge to judge the same tests.
    let read: Vec<Package> = packages
        .iter()
        .map(|p| {
            let mut package = read_package(p).unwrap();
            complete_tests(&mut package, &scorer).unwrap();
            package
        })
        .collect();
    drop(scorer);
    let mut native_verdicts = Vec::new();
    let mut native_builds = Vec::new();
    for round in 0..2 {
        let mut building = 0.0;
        let (seconds, ..) = import_verify("polygon", &packages, &cache);
        warm.push(seconds);
        let started = Instant::now();
        native_verdicts = read
            .iter()
            .zip(&packages)
            .flat_map(|(package, p)| {
                let (verdicts, seconds) = native_judge(
                    package,
                    p,
                    &dir.join(format!("native{round}/{}", package.name)),
                );
                building += seconds;
                package
                    .solutions
                    .iter()
                    .zip(verdicts)
                    .map(|(s, v)| (format!("{} {}", package.name, s.path), s.tag, v))
                    .collect::<Vec<_>>()
            })
            .collect();
        native.push(started.elapsed().as_secs_f64());
        native_builds.push(building);
    }
    let native_agreed = native_verdicts
        .iter()
        .filter(|(_, tag, verdict)| tag.allows(&verdict.replace("AC-", "AC"), verdict == "AC"))
        .count();
    for (name, tag, verdict) in &native_verdicts {
        if !tag.allows(&verdict.replace("AC-", "AC"), verdict == "AC") {
            println!("  native: {name} tagged {} got {verdict}", tag.name());
        }
    }
    let range = |v: &[f64]| {
        let (lo, hi) = v
            .iter()
            .fold((f64::MAX, 0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        format!("{lo:.1}-{hi:.1} s")
    };
    println!("| judge | solutions | agreement with tags | wall time |");
    println!("|---|---|---|---|");
    println!(
        "| rewardbox import polygon --verify, empty program cache (compiles included) | {judged} | {agreed}/{judged} | {cold:.1} s |"
    );
    println!(
        "| the same, programs cached (2 rounds) | {judged} | {agreed}/{judged} | {} |",
        range(&warm)
    );
    println!(
        "| native judge: g++ -O2/gcc/rustc builds + runs under wall-clock limits (2 rounds) | {} | {native_agreed}/{} | {} |",
        native_verdicts.len(),
        native_verdicts.len(),
        range(&native)
    );
    println!(
        "| of which native builds (testlib's header costs seconds a program) | | | {} |",
        range(&native_builds)
    );
}
