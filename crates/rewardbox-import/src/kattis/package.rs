//! A Kattis problem package read from its directory: `problem.yaml`, the test data under `data/`
//! (cases and the `testdata.yaml` of each group), the output validator, and the jury's
//! submissions with the verdicts their directories promise.

use crate::files::{PackageDir, Walk};
use crate::kattis::metadata::Metadata;
use crate::kattis::program::{Program, Unusable, is_program_file, read_program};
use crate::kattis::yaml;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One test case: `data/<name>.in` and `data/<name>.ans`.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    /// Its path under `data/` without extension: `secret/group1/01`.
    pub name: String,
    /// The input file.
    pub input: String,
    /// The answer file.
    pub answer: String,
}

/// The verdict a submission's directory promises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Expected {
    /// `accepted`: accepted on every case (with the best score, in a scoring problem).
    Accepted,
    /// `partially_accepted`: accepted, without the best score (scoring problems).
    PartiallyAccepted,
    /// `wrong_answer`.
    WrongAnswer,
    /// `time_limit_exceeded`.
    TimeLimitExceeded,
    /// `run_time_error`.
    RunTimeError,
}

impl Expected {
    /// The directory it is read from.
    pub fn directory(self) -> &'static str {
        match self {
            Expected::Accepted => "accepted",
            Expected::PartiallyAccepted => "partially_accepted",
            Expected::WrongAnswer => "wrong_answer",
            Expected::TimeLimitExceeded => "time_limit_exceeded",
            Expected::RunTimeError => "run_time_error",
        }
    }

    /// The judge's verdict code this expects (`AC`, `WA`, `TLE`, `RTE`).
    pub fn verdict(self) -> &'static str {
        match self {
            Expected::Accepted | Expected::PartiallyAccepted => "AC",
            Expected::WrongAnswer => "WA",
            Expected::TimeLimitExceeded => "TLE",
            Expected::RunTimeError => "RTE",
        }
    }

    const ALL: [Expected; 5] = [
        Expected::Accepted,
        Expected::PartiallyAccepted,
        Expected::WrongAnswer,
        Expected::TimeLimitExceeded,
        Expected::RunTimeError,
    ];
}

/// A jury submission.
#[derive(Debug, Clone, PartialEq)]
pub struct Submission {
    /// Its path in the package, e.g. `submissions/accepted/sol.cc`.
    pub path: String,
    /// What its directory promises.
    pub expected: Expected,
    /// The program, or why rewardbox cannot run it.
    pub program: Result<Program, Unusable>,
}

/// A problem package.
#[derive(Debug, Clone)]
pub struct Package {
    /// The package's directory name (the problem's short name).
    pub name: String,
    /// Its directory.
    pub dir: PathBuf,
    /// `problem.yaml`.
    pub metadata: Metadata,
    /// The test cases, by name.
    pub cases: Vec<Case>,
    /// Each test group's `testdata.yaml`, by path under `data/` (`""`: `data/` itself).
    pub groups: BTreeMap<String, Map<String, Value>>,
    /// The custom output validator (or interactor), when the problem has one.
    pub validator: Option<Program>,
    /// The jury's submissions.
    pub submissions: Vec<Submission>,
    /// The contest's time limit, when the package carries one beside `problem.yaml` (exported
    /// from DOMjudge or BAPCtools).
    pub contest_time_limit: Option<ContestTimeLimit>,
    /// What was left out, and why.
    pub notes: Vec<String>,
}

/// A time limit a contest system wrote into the package: the one its jury verdicts hold under.
#[derive(Debug, Clone, PartialEq)]
pub struct ContestTimeLimit {
    /// Seconds.
    pub seconds: f64,
    /// The file it was read from: `.timelimit` (DOMjudge, BAPCtools) or
    /// `domjudge-problem.ini` (`timelimit = 4.0`).
    pub file: &'static str,
}

/// The time limit a contest system wrote beside `problem.yaml`: `.timelimit` (a number of
/// seconds) first, else `domjudge-problem.ini`'s `timelimit` (its value may be quoted). A file
/// that is there but holds no positive number refuses the package, naming it.
fn read_contest_time_limit(package: &PackageDir) -> Result<Option<ContestTimeLimit>, String> {
    let positive = |file: &str, text: &str| -> Result<f64, String> {
        let value = text.trim().trim_matches(|c| c == '"' || c == '\'');
        value
            .parse::<f64>()
            .ok()
            .filter(|s| s.is_finite() && *s > 0.0)
            .ok_or_else(|| {
                format!("{file}: the time limit {value:?} is not a positive number of seconds")
            })
    };
    if let Some(text) = package.read_optional(Path::new(".timelimit"))? {
        return Ok(Some(ContestTimeLimit {
            seconds: positive(".timelimit", &text)?,
            file: ".timelimit",
        }));
    }
    let ini = "domjudge-problem.ini";
    let Some(text) = package.read_optional(Path::new(ini))? else {
        return Ok(None);
    };
    for line in text.lines() {
        if let Some((key, value)) = line.split_once('=')
            && key.trim() == "timelimit"
        {
            return Ok(Some(ContestTimeLimit {
                seconds: positive(ini, value)?,
                file: "domjudge-problem.ini",
            }));
        }
    }
    Ok(None)
}

/// Whether the format ignores an entry (`.gitignore`, `-draft`), by its file name.
fn ignored(name: &str) -> bool {
    name.starts_with('.') || name.starts_with('-')
}

/// A directory's entries the format does not ignore, sorted; an entry that leads outside the
/// package is left out and noted.
fn entries(package: &PackageDir, dir: &Path, notes: &mut Vec<String>) -> Vec<PathBuf> {
    let (inside, outside) = package.entries(dir, ignored);
    notes.extend(outside.into_iter().map(|why| format!("{why}: left out")));
    inside
}

/// Reads the package in `dir`. Every file is read inside it (see [`PackageDir`]).
pub fn read_package(dir: &Path) -> Result<Package, String> {
    let package = PackageDir::open(dir)?;
    let root = package.root().to_path_buf();
    let name = root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !package.is_file(Path::new("problem.yaml")) {
        return Err(format!(
            "{} has no problem.yaml: not a problem package",
            dir.display()
        ));
    }
    let yaml = yaml::parse(&package.read_text(Path::new("problem.yaml"))?)
        .map_err(|e| format!("problem.yaml: {e}"))?;
    let metadata = Metadata::from_yaml(&yaml, package.is_dir(Path::new("output_validator")))?;
    let mut notes = Vec::new();
    if !package.is_dir(Path::new("data")) {
        return Err(format!("{} has no data/ directory", dir.display()));
    }
    let mut cases = Vec::new();
    let mut groups = BTreeMap::new();
    let mut walk = Walk::default();
    read_group(
        &package,
        &mut walk,
        Path::new("data"),
        "",
        &mut cases,
        &mut groups,
        &mut notes,
    )?;
    if cases.is_empty() {
        return Err(format!(
            "{} has no test case (data/**/NAME.in with NAME.ans)",
            dir.display()
        ));
    }
    let validator = if metadata.custom_validation {
        Some(read_validator(&package, &mut notes)?)
    } else {
        None
    };
    let submissions = read_submissions(&package, &mut notes);
    let contest_time_limit = read_contest_time_limit(&package)?;
    Ok(Package {
        name,
        dir: root,
        metadata,
        cases,
        groups,
        validator,
        submissions,
        contest_time_limit,
        notes,
    })
}

fn read_group(
    package: &PackageDir,
    walk: &mut Walk,
    dir: &Path,
    group: &str,
    cases: &mut Vec<Case>,
    groups: &mut BTreeMap<String, Map<String, Value>>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    walk.enter(package, dir)?;
    let settings = dir.join("testdata.yaml");
    if package.is_file(&settings) {
        let value = yaml::parse(&package.read_text(&settings)?)
            .map_err(|e| format!("{}: {e}", settings.display()))?;
        match value {
            Value::Object(obj) => {
                groups.insert(group.to_string(), obj);
            }
            Value::Null => {}
            _ => return Err(format!("{} must be a mapping", settings.display())),
        }
    }
    let join = |base: &str| {
        if group.is_empty() {
            base.to_string()
        } else {
            format!("{group}/{base}")
        }
    };
    // Test data that leads outside the package refuses the package: leaving a case out would
    // make a weaker task than the package describes.
    let (inside, outside) = package.entries(dir, ignored);
    if let Some(why) = outside.into_iter().next() {
        return Err(format!(
            "{why}; a test case must be a file of the package (copy it in)"
        ));
    }
    for entry in inside {
        let base = entry
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if package.is_dir(&entry) {
            read_group(package, walk, &entry, &join(&base), cases, groups, notes)?;
            continue;
        }
        let Some(stem) = base.strip_suffix(".ans") else {
            continue;
        };
        let input = entry.with_extension("in");
        if !package.is_file(&input) {
            notes.push(format!(
                "data/{}: an answer without an input, left out",
                join(&base)
            ));
            continue;
        }
        cases.push(Case {
            name: join(stem),
            input: package.read_text(&input)?,
            answer: package.read_text(&entry)?,
        });
    }
    walk.leave();
    Ok(())
}

/// The output validator: the one program of `output_validators/` (legacy) or of
/// `output_validator/` (2023-07), which may also be the program itself.
fn read_validator(package: &PackageDir, notes: &mut Vec<String>) -> Result<Program, String> {
    let holder = if package.is_dir(Path::new("output_validator")) {
        PathBuf::from("output_validator")
    } else {
        PathBuf::from("output_validators")
    };
    let found = entries(package, &holder, notes);
    let has_source = found
        .iter()
        .any(|p| package.is_file(p) && read_program(package, p).is_ok());
    // The programs a judge would take: directories and source files. Files that are neither
    // (a `*.template`, a `.ctd` or `.viva` description) are not validators.
    let found: Vec<PathBuf> = found
        .into_iter()
        .filter(|p| package.is_dir(p) || is_program_file(p))
        .collect();
    let program = match &found[..] {
        _ if has_source => holder,
        [one] => one.clone(),
        [] => return Err("the problem has custom validation but no output validator".into()),
        many => {
            return Err(format!(
                "the problem has {} output validators; rewardbox runs one",
                many.len()
            ));
        }
    };
    read_program(package, &program).map_err(|e| format!("the output validator: {e}"))
}

fn read_submissions(package: &PackageDir, notes: &mut Vec<String>) -> Vec<Submission> {
    let mut submissions = Vec::new();
    let dir = Path::new("submissions");
    for entry in entries(package, dir, notes) {
        let name = entry
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if !package.is_dir(&entry) {
            continue;
        }
        let Some(expected) = Expected::ALL.into_iter().find(|e| e.directory() == name) else {
            notes.push(format!(
                "submissions/{name}: not a verdict directory, left out"
            ));
            continue;
        };
        for program in entries(package, &entry, notes) {
            let file = program
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            submissions.push(Submission {
                path: format!("submissions/{name}/{file}"),
                expected,
                program: read_program(package, &program),
            });
        }
    }
    submissions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, path: &str, text: &str) {
        let path = root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    #[test]
    fn a_package_is_read_whole() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("hello");
        write(&root, "problem.yaml", "name: Hello\nvalidation: custom\n");
        write(&root, "data/sample/1.in", "1\n");
        write(&root, "data/sample/1.ans", "2\n");
        write(&root, "data/secret/g1/testdata.yaml", "accept_score: 30\n");
        write(&root, "data/secret/g1/01.in", "5\n");
        write(&root, "data/secret/g1/01.ans", "6\n");
        write(&root, "data/secret/orphan.ans", "x\n");
        write(&root, "data/secret/.hidden.in", "");
        write(
            &root,
            "output_validators/check/check.py",
            "import sys\nsys.exit(42)\n",
        );
        write(&root, "submissions/accepted/a.cc", "int main(){}\n");
        write(&root, "submissions/wrong_answer/w.py", "print(0)\n");
        write(&root, "submissions/accepted/j.java", "class J{}\n");
        write(&root, "submissions/other/x.py", "\n");
        let nested = dir.path().join("nested");
        write(
            &nested,
            "problem.yaml",
            "problem_format_version: 2023-07-draft\ntype: interactive\n",
        );
        write(&nested, "data/secret/1.in", "1\n");
        write(&nested, "data/secret/1.ans", "\n");
        write(
            &nested,
            "output_validator/guess/validate.cc",
            "#include \"validate.h\"\nint main(){}\n",
        );
        write(&nested, "output_validator/guess/validate.h", "int v();\n");
        let nested = read_package(&nested).unwrap();
        assert!(nested.metadata.interactive);
        assert!(nested.validator.unwrap().source.contains("int v();"));
        let package = read_package(&root).unwrap();
        assert_eq!(package.name, "hello");
        let names: Vec<&str> = package.cases.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(names, ["sample/1", "secret/g1/01"]);
        assert_eq!(package.cases[1].answer, "6\n");
        assert_eq!(package.groups["secret/g1"]["accept_score"], 30);
        assert_eq!(package.validator.as_ref().unwrap().language, "python");
        let subs: Vec<(&str, Expected, bool)> = package
            .submissions
            .iter()
            .map(|s| (s.path.as_str(), s.expected, s.program.is_ok()))
            .collect();
        assert_eq!(
            subs,
            [
                ("submissions/accepted/a.cc", Expected::Accepted, true),
                ("submissions/accepted/j.java", Expected::Accepted, false),
                ("submissions/wrong_answer/w.py", Expected::WrongAnswer, true),
            ]
        );
        assert_eq!(package.notes.len(), 2, "{:?}", package.notes);
    }

    #[test]
    fn files_beside_the_validator_that_are_not_programs_are_not_validators() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        write(&root, "problem.yaml", "validation: custom\n");
        write(&root, "data/secret/1.in", "1\n");
        write(&root, "data/secret/1.ans", "1\n");
        write(
            &root,
            "output_validators/checker/checker.cpp",
            "#include \"testlib.h\"\nint main(){}\n",
        );
        write(&root, "output_validators/checker/testlib.h", "int t();\n");
        write(&root, "output_validators/checker.template", "template\n");
        write(&root, "output_validators/problem.ctd", "ctd\n");
        write(&root, "output_validators/problem.viva", "viva\n");
        let package = read_package(&root).unwrap();
        let validator = package.validator.unwrap();
        assert_eq!(
            (validator.name.as_str(), validator.language),
            ("checker", "cpp")
        );
        assert!(validator.source.contains("int t();"));
        // Two programs are still two validators, and refused naming why.
        write(&root, "output_validators/other/other.py", "import sys\n");
        assert!(
            read_package(&root)
                .unwrap_err()
                .contains("2 output validators")
        );
    }

    #[test]
    fn a_contest_time_limit_beside_the_package_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("p");
        write(&root, "problem.yaml", "name: p\n");
        write(&root, "data/secret/1.in", "1\n");
        write(&root, "data/secret/1.ans", "1\n");
        assert_eq!(read_package(&root).unwrap().contest_time_limit, None);
        write(
            &root,
            "domjudge-problem.ini",
            "probid = A\ntimelimit = '4.0'\ncolor = red\n",
        );
        let limit = |root: &Path| read_package(root).unwrap().contest_time_limit.unwrap();
        assert_eq!(
            limit(&root),
            ContestTimeLimit {
                seconds: 4.0,
                file: "domjudge-problem.ini"
            }
        );
        write(&root, ".timelimit", "2.5\n");
        assert_eq!(
            limit(&root),
            ContestTimeLimit {
                seconds: 2.5,
                file: ".timelimit"
            }
        );
        write(&root, ".timelimit", "soon\n");
        let error = read_package(&root).unwrap_err();
        assert!(
            error.contains(".timelimit") && error.contains("soon"),
            "{error}"
        );
    }

    #[test]
    fn what_is_not_a_package_says_why() {
        let dir = tempfile::tempdir().unwrap();
        assert!(
            read_package(dir.path())
                .unwrap_err()
                .contains("problem.yaml")
        );
        write(dir.path(), "problem.yaml", "name: x\n");
        assert!(read_package(dir.path()).unwrap_err().contains("data/"));
        write(dir.path(), "data/secret/1.in", "1");
        assert!(
            read_package(dir.path())
                .unwrap_err()
                .contains("no test case")
        );
        write(dir.path(), "data/secret/1.ans", "1");
        write(dir.path(), "problem.yaml", "validation: custom\n");
        assert!(
            read_package(dir.path())
                .unwrap_err()
                .contains("no output validator")
        );
    }
}
