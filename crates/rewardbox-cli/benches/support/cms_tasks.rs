//! The bundled IOI/CMS tasks (`tests/data/cms`) and a native judge of them as CMS judges: the
//! same programs built with g++/gcc (graders and stubs compiled with the solution, python3 as it
//! is), run under a wall-clock limit, managers talking to the processes through named pipes,
//! CMS checkers or white diff scoring each test, subtasks made by CMS's score types. Shared by
//! the CMS tests and bench.

use rewardbox_import::cms::{Task, TaskType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The bundled tasks' directories.
pub fn task_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/cms");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("problem.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// A native build of a program: the command that runs it.
struct Native(Vec<String>);

/// Builds `sources` (C++, C or one Python file) into `out`, with `include` on the path: graders
/// and stubs compiled with the solution, as CMS compiles them.
fn build(sources: &[PathBuf], include: &Path, out: &Path) -> Native {
    let extension = sources
        .last()
        .and_then(|s| s.extension())
        .and_then(|e| e.to_str())
        .unwrap_or_default();
    let compiler = match extension {
        "py" => return Native(vec!["python3".into(), sources[0].display().to_string()]),
        "c" if sources.len() == 1 => ["gcc", "-std=gnu17"],
        _ => ["g++", "-std=gnu++20"],
    };
    let output = Command::new(compiler[0])
        .args([compiler[1], "-O2", "-I"])
        .arg(include)
        .args(sources)
        .arg("-o")
        .arg(out)
        .output()
        .expect("a native compiler (g++, gcc) is installed");
    assert!(
        output.status.success(),
        "{sources:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Native(vec![out.display().to_string()])
}

/// Runs `program` natively with `input` under the time limit: its stdout, or `None` when it did
/// not end with 0 (a crash, a non-zero exit, the time limit).
fn run_native(program: &Native, input: &str, seconds: &str) -> Option<String> {
    let mut child = Command::new("timeout")
        .args(["-s", "KILL", seconds])
        .args(&program.0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let output = child.wait_with_output().unwrap();
    output
        .status
        .success()
        .then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}

/// CMS's white diff, written here from its definition (lines compared with their runs of white
/// space as one and their ends trimmed; blank lines at the end ignored).
fn white_diff(output: &str, answer: &str) -> bool {
    let lines = |text: &str| {
        let mut lines: Vec<String> = text
            .split('\n')
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        while lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    };
    lines(output) == lines(answer)
}

/// The score a native CMS checker gives: its stdout's first number.
fn checker_score(checker: &Native, work: &Path, input: &str, answer: &str, output: &str) -> f64 {
    let files = [
        ("input.txt", input),
        ("correct.txt", answer),
        ("output.txt", output),
    ];
    for (name, text) in files {
        std::fs::write(work.join(name), text).unwrap();
    }
    let run = Command::new(&checker.0[0])
        .args(files.map(|(name, _)| work.join(name)))
        .output()
        .unwrap();
    assert!(run.status.success(), "the native checker failed");
    String::from_utf8_lossy(&run.stdout)
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
        .expect("the native checker wrote a score")
}

/// A communication run as CMS makes it: the manager with the input on its stdin and the FIFOs
/// as its arguments, each process's stdin and stdout one of them (its index as its argument
/// when there are several). The manager's score, or 0 when a process did not end with 0.
fn communicate_native(
    manager: &Native,
    process: &Native,
    count: usize,
    work: &Path,
    input: &str,
    seconds: &str,
) -> f64 {
    let mut fifos = Vec::new();
    for i in 0..count {
        let (from, to) = (
            work.join(format!("u{i}_to_m")),
            work.join(format!("m_to_u{i}")),
        );
        for fifo in [&from, &to] {
            let _ = std::fs::remove_file(fifo);
            assert!(Command::new("mkfifo").arg(fifo).status().unwrap().success());
        }
        fifos.push((from, to));
    }
    // Each process opens its output read-write first (which does not wait for a reader), then
    // its input (which waits for the manager's writer), so that no open waits on another.
    let processes: Vec<_> = fifos
        .iter()
        .enumerate()
        .map(|(i, (from, to))| {
            let index = if count > 1 {
                i.to_string()
            } else {
                String::new()
            };
            let script = format!(
                "exec timeout -s KILL {seconds} \"$@\" {index} 1<>'{}' <'{}'",
                from.display(),
                to.display()
            );
            Command::new("sh")
                .args(["-c", &script, "sh"])
                .args(&process.0)
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut command = Command::new("timeout");
    command.args(["-s", "KILL", seconds]).args(&manager.0);
    for (from, to) in &fifos {
        command.arg(from).arg(to);
    }
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    use std::io::Write;
    let _ = child.stdin.take().unwrap().write_all(input.as_bytes());
    let said = child.wait_with_output().unwrap();
    let processes_ok = processes
        .into_iter()
        .all(|mut p| p.wait().unwrap().success());
    // Killed at the time limit: the manager and a process waited for each other (the
    // process's time limit, on CMS).
    use std::os::unix::process::ExitStatusExt;
    if !processes_ok || said.status.signal() == Some(9) {
        return 0.0;
    }
    assert!(
        said.status.success(),
        "the native manager failed with {:?} beside {:?} on {input:?}",
        said.status,
        process.0
    );
    String::from_utf8_lossy(&said.stdout)
        .lines()
        .next()
        .and_then(|l| l.trim().parse().ok())
        .unwrap_or(0.0)
}

/// The scores of each test natively, for one solution.
pub fn native_scores(
    read: &Task,
    dir: &Path,
    solution: &Path,
    work: &Path,
    seconds: &str,
) -> BTreeMap<String, f64> {
    let graders = dir.join("graders");
    let checker = read.checker.as_ref().map(|_| {
        build(
            &[dir.join("checker/checker.cpp")],
            &dir.join("checker"),
            &work.join("checker"),
        )
    });
    let mut scores = BTreeMap::new();
    match &read.task_type {
        TaskType::Communication {
            processes, stubs, ..
        } => {
            let manager = build(
                &[graders.join("manager.cpp")],
                &graders,
                &work.join("manager"),
            );
            let sources = if stubs.is_empty() {
                vec![solution.to_path_buf()]
            } else {
                vec![graders.join("stub.cpp"), solution.to_path_buf()]
            };
            let program = build(&sources, &graders, &work.join("solution"));
            for case in &read.cases {
                let score = communicate_native(
                    &manager,
                    &program,
                    *processes as usize,
                    work,
                    &case.input,
                    seconds,
                );
                scores.insert(case.codename.clone(), score);
            }
        }
        TaskType::Batch { grader } => {
            let sources = match grader {
                Some(_) => vec![graders.join("grader.cpp"), solution.to_path_buf()],
                None => vec![solution.to_path_buf()],
            };
            let program = build(&sources, &graders, &work.join("solution"));
            for case in &read.cases {
                let score = match (run_native(&program, &case.input, seconds), &checker) {
                    (None, _) => 0.0,
                    (Some(output), Some(checker)) => {
                        checker_score(checker, work, &case.input, &case.answer, &output)
                    }
                    (Some(output), None) => f64::from(u8::from(white_diff(&output, &case.answer))),
                };
                scores.insert(case.codename.clone(), score);
            }
        }
    }
    scores
}

/// A task's total from its tests' scores, as CMS's score types make it: each subtask's score
/// times its least test score (GroupMin), or every test worth the same (Sum).
pub fn total(read: &Task, scores: &BTreeMap<String, f64>) -> f64 {
    if read.subtasks.is_empty() {
        return scores.values().sum::<f64>() * 100.0 / scores.len() as f64;
    }
    read.subtasks
        .iter()
        .map(|s| {
            let least = s.tests.iter().map(|t| scores[t]).fold(1.0, f64::min);
            s.score * least
        })
        .sum()
}
