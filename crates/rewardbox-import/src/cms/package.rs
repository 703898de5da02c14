//! An IOI/CMS task read from its directory as CMS's TPS loader reads one (`problem.json`,
//! `tests/`, `subtasks/`, `checker/`, `graders/`), with TPS's `solutions/` and their verdicts
//! (`solutions.json`).

use crate::files::PackageDir;
use crate::kattis::program::{Program, read_program_including};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// One test: its codename (the file name in `tests/` without `.in`), input and answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Its codename (`1-03`).
    pub codename: String,
    /// Its input.
    pub input: String,
    /// Its answer (`<codename>.out`).
    pub answer: String,
}

/// One subtask: its score and the codenames of its tests.
#[derive(Debug, Clone, PartialEq)]
pub struct Subtask {
    /// Its name (the file name in `subtasks/` without `.json`).
    pub name: String,
    /// Its score.
    pub score: f64,
    /// Its tests' codenames, in order.
    pub tests: Vec<String>,
}

/// What the task's submissions are judged by: CMS's task types.
#[derive(Debug, Clone, PartialEq)]
pub enum TaskType {
    /// `Batch`: the submission reads the input; with a grader (`graders/grader.cpp`), the
    /// submission implements the header's functions instead.
    Batch {
        /// The grader (C++), if the task has one.
        grader: Option<String>,
    },
    /// `Communication`: the manager talks to `processes` instances of the submission, each
    /// compiled with the stub of its language when the task has stubs.
    Communication {
        /// The manager (C++).
        manager: Program,
        /// The number of the submission's processes.
        processes: u32,
        /// Stubs by rewardbox language name.
        stubs: Vec<(&'static str, String)>,
    },
}

/// A TPS solution's verdict: what its judging must show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// `model_solution`: every point.
    ModelSolution,
    /// `correct`: every point.
    Correct,
    /// `incorrect`: a wrong answer somewhere, not every point.
    Incorrect,
    /// `partially_correct`: some points, not all.
    PartiallyCorrect,
    /// `time_limit`: a test over the time limit.
    TimeLimit,
    /// `memory_limit`: a test over the memory limit.
    MemoryLimit,
    /// `runtime_error`: a test that crashed or exited non-zero.
    RuntimeError,
    /// `time_limit_and_runtime_error`: either of the two.
    TimeLimitAndRuntimeError,
    /// `failed`: not every point.
    Failed,
}

impl Verdict {
    /// Every verdict, in TPS's spelling order.
    pub const ALL: [Verdict; 9] = [
        Verdict::ModelSolution,
        Verdict::Correct,
        Verdict::Incorrect,
        Verdict::PartiallyCorrect,
        Verdict::TimeLimit,
        Verdict::MemoryLimit,
        Verdict::RuntimeError,
        Verdict::TimeLimitAndRuntimeError,
        Verdict::Failed,
    ];

    /// Its name in `solutions.json`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::ModelSolution => "model_solution",
            Verdict::Correct => "correct",
            Verdict::Incorrect => "incorrect",
            Verdict::PartiallyCorrect => "partially_correct",
            Verdict::TimeLimit => "time_limit",
            Verdict::MemoryLimit => "memory_limit",
            Verdict::RuntimeError => "runtime_error",
            Verdict::TimeLimitAndRuntimeError => "time_limit_and_runtime_error",
            Verdict::Failed => "failed",
        }
    }

    /// The verdict named `name`.
    pub fn parse(name: &str) -> Option<Verdict> {
        Verdict::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Whether it asks for every point.
    pub fn is_correct(self) -> bool {
        matches!(self, Verdict::ModelSolution | Verdict::Correct)
    }
}

/// A jury solution and its verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Solution {
    /// Its path in the task (`solutions/greedy.cpp`).
    pub path: String,
    /// Its language (rewardbox's name).
    pub language: &'static str,
    /// Its source, as it is (its `#include` of the task's header stays).
    pub source: String,
    /// Its verdict in `solutions.json` (`None`: none given).
    pub verdict: Option<Verdict>,
}

/// An IOI/CMS task.
#[derive(Debug, Clone, PartialEq)]
pub struct Task {
    /// Its code (`problem.json`'s `code`).
    pub name: String,
    /// Its title.
    pub title: Option<String>,
    /// The time limit, in seconds.
    pub time_limit: f64,
    /// The memory limit, in MiB.
    pub memory_mb: u64,
    /// Its tests, by codename.
    pub cases: Vec<Case>,
    /// Its subtasks (empty: CMS's `Sum`, every test worth the same).
    pub subtasks: Vec<Subtask>,
    /// How submissions are judged.
    pub task_type: TaskType,
    /// The checker (CMS's convention; `None`: white diff).
    pub checker: Option<Program>,
    /// The header the grader or the stubs and the submissions include: its name and text.
    pub header: Option<(String, String)>,
    /// The jury's solutions rewardbox can run.
    pub solutions: Vec<Solution>,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

/// The language of a source file by its ending, as CMS names them (`None`: not one rewardbox
/// runs).
fn language_of(path: &Path) -> Option<&'static str> {
    match path.extension()?.to_str()? {
        "cpp" | "cc" | "cxx" => Some("cpp"),
        "c" => Some("c"),
        "py" => Some("python"),
        _ => None,
    }
}

fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// Reads the task in `dir`, every file inside it.
pub fn read_task(dir: &Path) -> Result<Task, String> {
    let package = PackageDir::open(dir)?;
    let root = package.root().to_path_buf();
    let problem: Value = serde_json::from_str(&package.read_text(&root.join("problem.json"))?)
        .map_err(|e| format!("problem.json: {e}"))?;
    let text = |key: &str| problem.get(key).and_then(Value::as_str).map(str::to_string);
    let name = text("code")
        .or_else(|| text("name"))
        .unwrap_or_else(|| file_stem(&root));
    let title = text("title")
        .or_else(|| text("name"))
        .filter(|t| *t != name);
    let number = |key: &str| -> Result<f64, String> {
        problem
            .get(key)
            .and_then(|v| {
                v.as_f64()
                    .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
            })
            .filter(|x| x.is_finite() && *x > 0.0)
            .ok_or_else(|| format!("problem.json: \"{key}\" is missing or not a positive number"))
    };
    let kind = text("task_type")
        .or_else(|| text("type"))
        .unwrap_or_else(|| "Batch".into())
        .to_lowercase();
    if !matches!(kind.as_str(), "batch" | "communication") {
        return Err(format!(
            "problem.json: the task type is {kind:?}: rewardbox judges Batch and Communication \
             tasks (an output-only or two-step task is not a program to run)"
        ));
    }
    let time_limit = number("time_limit")?;
    let memory_mb = number("memory_limit")?.ceil() as u64;
    let mut notes = Vec::new();

    // Tests: tests/<codename>.in with tests/<codename>.out.
    let tests_dir = root.join("tests");
    let (files, outside) = package.entries(&tests_dir, |_| false);
    if let Some(why) = outside.first() {
        return Err(format!("tests/: {why}"));
    }
    let mut cases = Vec::new();
    for input in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "in"))
    {
        let codename = file_stem(input);
        let answer = input.with_extension("out");
        if !package.is_file(&answer) {
            return Err(format!(
                "tests/{codename}.in has no tests/{codename}.out (its correct output)"
            ));
        }
        cases.push(Case {
            input: package.read_text(input)?,
            answer: package.read_text(&answer)?,
            codename,
        });
    }
    if cases.is_empty() {
        return Err("tests/ holds no tests (<codename>.in with <codename>.out)".into());
    }
    let subtasks = read_subtasks(&package, &root, &cases)?;

    // The checker, with its own directory (its testlib.h) on the include path.
    let checker_dir = root.join("checker");
    let checker = if package.is_file(&checker_dir.join("checker.cpp")) {
        Some(
            read_program_including(
                &package,
                &checker_dir.join("checker.cpp"),
                std::slice::from_ref(&checker_dir),
            )
            .map_err(|e| format!("checker/checker.cpp: {e}"))?,
        )
    } else {
        None
    };

    // Graders, stubs, the manager and the header.
    let graders = root.join("graders");
    let header = {
        let named = graders.join(format!("{name}.h"));
        let headers: Vec<PathBuf> = package
            .entries(&graders, |_| false)
            .0
            .into_iter()
            .filter(|f| f.extension().is_some_and(|e| e == "h" || e == "hpp"))
            .collect();
        let chosen = if package.is_file(&named) {
            Some(named)
        } else if headers.len() == 1 {
            headers.into_iter().next()
        } else if headers.is_empty() {
            None
        } else {
            return Err(format!(
                "graders/ has several headers and none is {name}.h: which one the submission \
                 includes cannot be told"
            ));
        };
        match chosen {
            Some(path) => Some((
                path.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                package.read_text(&path)?,
            )),
            None => None,
        }
    };
    let grader_cpp = graders.join("grader.cpp");
    let task_type = if kind == "communication" {
        let manager_path = graders.join("manager.cpp");
        if !package.is_file(&manager_path) {
            return Err(
                "graders/manager.cpp is missing: a communication task needs its manager".into(),
            );
        }
        let manager =
            read_program_including(&package, &manager_path, std::slice::from_ref(&graders))
                .map_err(|e| format!("graders/manager.cpp: {e}"))?;
        let processes = problem
            .get("num_processes")
            .and_then(Value::as_u64)
            .or_else(|| {
                let params = problem.get("task_type_params")?;
                let params: Value = match params {
                    Value::String(s) if !s.trim().is_empty() => serde_json::from_str(s).ok()?,
                    Value::Object(_) => params.clone(),
                    _ => return None,
                };
                params
                    .get("task_type_parameters_Communication_num_processes")
                    .and_then(|n| n.as_u64().or_else(|| n.as_str()?.parse().ok()))
            })
            .unwrap_or(1);
        if !(1..=16).contains(&processes) {
            return Err(format!(
                "problem.json: {processes} processes: rewardbox runs 1 to 16"
            ));
        }
        // CMS's TPS loader takes graders/grader.<ext> of a communication task as its stub.
        let mut stubs = Vec::new();
        for base in ["stub", "grader"] {
            for (ext, language) in [("cpp", "cpp"), ("c", "c")] {
                let path = graders.join(format!("{base}.{ext}"));
                if package.is_file(&path) && !stubs.iter().any(|(l, _)| *l == language) {
                    stubs.push((language, package.read_text(&path)?));
                }
            }
        }
        TaskType::Communication {
            manager,
            processes: processes as u32,
            stubs,
        }
    } else if package.is_file(&grader_cpp) {
        if header.is_none() {
            return Err(format!(
                "graders/grader.cpp has no header beside it ({name}.h): the functions a \
                 submission implements are declared there"
            ));
        }
        TaskType::Batch {
            grader: Some(package.read_text(&grader_cpp)?),
        }
    } else {
        if let Some(other) = package
            .entries(&graders, |_| false)
            .0
            .iter()
            .find(|f| file_stem(f) == "grader")
        {
            return Err(format!(
                "graders/{} is the only grader: rewardbox serves a grader's calls from C++ \
                 graders (grader.cpp)",
                other.file_name().unwrap_or_default().to_string_lossy()
            ));
        }
        TaskType::Batch { grader: None }
    };
    if let TaskType::Batch { grader: Some(_) } = &task_type {
        for other in package.entries(&graders, |_| false).0 {
            let file = other
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            if file.starts_with("grader.") && file != "grader.cpp" {
                notes.push(format!(
                    "graders/{file} left out: submissions are judged in C++ against grader.cpp"
                ));
            }
        }
    }

    let solutions = read_solutions(&package, &root, &mut notes)?;
    Ok(Task {
        name,
        title,
        time_limit,
        memory_mb,
        cases,
        subtasks,
        task_type,
        checker,
        header,
        solutions,
        notes,
    })
}

/// The subtasks: `subtasks/*.json` (CMS's export: `score` and `testcases`) in file-name order,
/// or TPS's `subtasks.json` (`subtasks` by name with `index` and `score`) with `tests/mapping`
/// (`<subtask> <test>` lines). Every test named must exist.
fn read_subtasks(
    package: &PackageDir,
    root: &Path,
    cases: &[Case],
) -> Result<Vec<Subtask>, String> {
    let known = |codename: &str, at: &str| -> Result<(), String> {
        if cases.iter().any(|c| c.codename == codename) {
            Ok(())
        } else {
            Err(format!(
                "{at} names test {codename:?}, which tests/ does not hold"
            ))
        }
    };
    let score = |value: Option<&Value>, at: &str| -> Result<f64, String> {
        value
            .and_then(Value::as_f64)
            .filter(|s| s.is_finite() && *s >= 0.0)
            .ok_or_else(|| format!("{at}: \"score\" is missing or not a number >= 0"))
    };
    let dir = root.join("subtasks");
    let mut subtasks = Vec::new();
    if package.is_dir(&dir) {
        let (files, _) = package.entries(&dir, |_| false);
        for file in files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "json"))
        {
            let at = format!(
                "subtasks/{}",
                file.file_name().unwrap_or_default().to_string_lossy()
            );
            let value: Value = serde_json::from_str(&package.read_text(file)?)
                .map_err(|e| format!("{at}: {e}"))?;
            let tests: Vec<String> = value
                .get("testcases")
                .and_then(Value::as_array)
                .ok_or_else(|| format!("{at}: \"testcases\" is missing or not a list"))?
                .iter()
                .map(|t| {
                    t.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("{at}: a test is not a string"))
                })
                .collect::<Result<_, _>>()?;
            for t in &tests {
                known(t, &at)?;
            }
            subtasks.push(Subtask {
                name: file_stem(file),
                score: score(value.get("score"), &at)?,
                tests,
            });
        }
        return Ok(subtasks);
    }
    let Some(text) = package.read_optional(&root.join("subtasks.json"))? else {
        return Ok(subtasks);
    };
    let value: Value = serde_json::from_str(&text).map_err(|e| format!("subtasks.json: {e}"))?;
    let listed = value
        .get("subtasks")
        .and_then(Value::as_object)
        .ok_or("subtasks.json: \"subtasks\" is missing or not an object")?;
    let mapping = package
        .read_optional(&root.join("tests").join("mapping"))?
        .ok_or(
            "subtasks.json without tests/mapping: which tests belong to which subtask is not said",
        )?;
    let mut ordered: Vec<(u64, &String, &Value)> = listed
        .iter()
        .map(|(name, v)| {
            (
                v.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX),
                name,
                v,
            )
        })
        .collect();
    ordered.sort_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)));
    for (_, name, v) in ordered {
        let at = format!("subtasks.json: subtask {name}");
        let tests: Vec<String> = mapping
            .lines()
            .filter_map(|l| {
                let mut words = l.split_whitespace();
                (words.next() == Some(name.as_str())).then(|| words.next().map(str::to_string))?
            })
            .collect();
        for t in &tests {
            known(t, "tests/mapping")?;
        }
        subtasks.push(Subtask {
            name: name.clone(),
            score: score(v.get("score"), &at)?,
            tests,
        });
    }
    Ok(subtasks)
}

/// The solutions in `solutions/` rewardbox can run, with their verdicts in `solutions.json`
/// (TPS: `{"file": {"verdict": "..."}}`); the rest left out with a note.
fn read_solutions(
    package: &PackageDir,
    root: &Path,
    notes: &mut Vec<String>,
) -> Result<Vec<Solution>, String> {
    let verdicts: Value = match package.read_optional(&root.join("solutions.json"))? {
        Some(text) => serde_json::from_str(&text).map_err(|e| format!("solutions.json: {e}"))?,
        None => Value::Null,
    };
    let dir = root.join("solutions");
    let mut solutions = Vec::new();
    for path in package.entries(&dir, |_| false).0 {
        if !package.is_file(&path) {
            continue;
        }
        let file = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let Some(language) = language_of(&path) else {
            if crate::kattis::program::is_program_file(&path) {
                notes.push(format!(
                    "solutions/{file} left out: not a language rewardbox runs"
                ));
            }
            continue;
        };
        let verdict = match verdicts.get(&file).and_then(|v| v.get("verdict")) {
            None => None,
            Some(v) => Some(v.as_str().and_then(Verdict::parse).ok_or_else(|| {
                format!(
                    "solutions.json: {file}'s verdict {v} is not one of {}",
                    Verdict::ALL.map(Verdict::name).join(", ")
                )
            })?),
        };
        solutions.push(Solution {
            path: format!("solutions/{file}"),
            language,
            source: package.read_text(&path)?,
            verdict,
        });
    }
    Ok(solutions)
}
