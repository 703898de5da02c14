//! The bundled IOI/CMS tasks (`tests/data/cms`) and a native judge of them as CMS judges: the
//! same programs built with g++/gcc (graders and stubs compiled with the solution, python3 as it
//! is), run under a wall-clock limit, managers talking to the processes through named pipes,
//! CMS checkers or white diff scoring each test, subtasks made by CMS's score types. Shared by
//! the CMS tests and bench.

use rewardbox_import::cms::{Task, TaskType};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// A native run's limits as CMS's sandbox sets them: the time limit on the program's CPU time
/// (`ulimit -t`, which the machine's load does not change), and a wall clock far above it only
/// as a safety net.
const WALL_NET: Duration = Duration::from_secs(60);

/// `program` (with `args`) under a CPU-time limit of `seconds`, rounded up.
fn limited(program: &Native, args: &[String], seconds: f64, redirect: &str) -> Command {
    let script = format!(
        "ulimit -t {}; exec \"$@\" {redirect}",
        seconds.ceil().max(1.0) as u64
    );
    let mut command = Command::new("sh");
    command
        .args(["-c", &script, "sh"])
        .args(&program.0)
        .args(args);
    command
}

/// Waits for `child` up to the wall-clock safety net, then kills it: whether it ended with 0.
fn finished(child: &mut Child) -> bool {
    let deadline = Instant::now() + WALL_NET;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `program` natively with `input` under the time limit: its stdout, or `None` when it did
/// not end with 0 (a crash, a non-zero exit, the time limit).
fn run_native(program: &Native, input: &str, seconds: f64) -> Option<String> {
    let mut child = limited(program, &[], seconds, "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let text = input.to_string();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(text.as_bytes());
    });
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out
    });
    let ok = finished(&mut child);
    let _ = writer.join();
    let out = reader.join().unwrap();
    ok.then(|| String::from_utf8_lossy(&out).into_owned())
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

/// What `/proc` says of a running process: its state and how often it has blocked.
fn blocked_state(pid: u32) -> Option<(char, String)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let state = stat.rsplit_once(')')?.1.trim_start().chars().next()?;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let switches = status
        .lines()
        .find(|l| l.starts_with("voluntary_ctxt_switches"))?
        .to_string();
    Some((state, switches))
}

/// Whether every one of `pids` still running waits (sleeps) and none has blocked again over a
/// second, looked at ten times: they wait for each other, and none ever will go on (a deadlock,
/// which a native judge ends at its time limit). Read from `/proc`; a second, not a glance, so
/// that a busy machine that leaves one of them (or the thread feeding them) unscheduled for a
/// while is not taken for a deadlock.
fn deadlocked(pids: &[u32]) -> bool {
    let sample =
        || -> Option<Vec<(char, String)>> { pids.iter().map(|&p| blocked_state(p)).collect() };
    let Some(first) = sample() else { return false };
    if first.iter().any(|(state, _)| *state != 'S') {
        return false;
    }
    (0..10).all(|_| {
        std::thread::sleep(Duration::from_millis(100));
        sample().is_some_and(|again| again == first)
    })
}

/// A communication run as CMS makes it: the manager with the input on its stdin and the FIFOs
/// as its arguments, each process's stdin and stdout one of them (its index as its argument
/// when there are several), every program under the CPU-time limit. The manager's score, or 0
/// when a process did not end with 0 or all of them waited for each other.
fn communicate_native(
    manager: &Native,
    process: &Native,
    count: usize,
    work: &Path,
    input: &str,
    seconds: f64,
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
    // Each process opens its output, then its input, the order in which the manager opens them
    // (reading the process's output first), so that no open waits for ever.
    let mut children: Vec<Child> = fifos
        .iter()
        .enumerate()
        .map(|(i, (from, to))| {
            let index: Vec<String> = if count > 1 {
                vec![i.to_string()]
            } else {
                Vec::new()
            };
            let redirect = format!(">'{}' <'{}'", from.display(), to.display());
            limited(process, &index, seconds, &redirect)
                .stderr(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    let args: Vec<String> = fifos
        .iter()
        .flat_map(|(from, to)| [from.display().to_string(), to.display().to_string()])
        .collect();
    let mut manager_child = limited(manager, &args, seconds * count as f64 + 1.0, "")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let _ = manager_child
            .stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes());
    }
    let mut stdout = manager_child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut out);
        out
    });
    children.push(manager_child);
    let deadline = Instant::now() + WALL_NET;
    let mut ended: Vec<Option<bool>> = vec![None; children.len()];
    loop {
        for (child, end) in children.iter_mut().zip(ended.iter_mut()) {
            if end.is_none()
                && let Some(status) = child.try_wait().unwrap()
            {
                *end = Some(status.success());
            }
        }
        if ended.iter().all(Option::is_some) {
            break;
        }
        let running: Vec<u32> = children
            .iter()
            .zip(&ended)
            .filter(|(_, end)| end.is_none())
            .map(|(child, _)| child.id())
            .collect();
        if Instant::now() > deadline || deadlocked(&running) {
            for (child, end) in children.iter_mut().zip(ended.iter_mut()) {
                if end.is_none() {
                    let _ = child.kill();
                    let _ = child.wait();
                    *end = Some(false);
                }
            }
            let _ = reader.join();
            return 0.0;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let said = reader.join().unwrap();
    let manager_ok = ended.pop().flatten().unwrap_or(false);
    if !ended.iter().all(|e| *e == Some(true)) {
        return 0.0;
    }
    assert!(
        manager_ok,
        "the native manager failed beside {:?} on {input:?}",
        process.0
    );
    String::from_utf8_lossy(&said)
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
    seconds: f64,
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
