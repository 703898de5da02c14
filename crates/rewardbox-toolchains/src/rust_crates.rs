//! The crates a Rust candidate may use (`rand`, `regex`, `md5`, `itertools`, `num`, ...): a
//! fixed, versioned set (`rust-crates/Cargo.toml` and its `Cargo.lock`, compiled into this
//! crate) built once per machine and rustc version for [`TARGET`](crate::rustc::TARGET) into the
//! cache, then handed to every compile that names one of them as `--extern`.
//!
//! The build is trusted work, like `pip install` at setup: it runs cargo on the pinned manifest,
//! outside any program's limit (network on the first build only, to fetch the pinned sources).
//! A program that names none of the crates never waits for it; a program that names one when the
//! set cannot be built is compiled without it, and only when it then fails for want of one of
//! them is that the host's fault (a masked error), never the program's.

use crate::cache::{hex, key};
use crate::rustc::{Rustc, TARGET};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The manifest of the set (its direct dependencies are the crates candidates may name).
pub const MANIFEST: &str = include_str!("../rust-crates/Cargo.toml");
/// The versions of every crate of the set, pinned.
pub const LOCK: &str = include_str!("../rust-crates/Cargo.lock");

/// The names a program uses the crates by (`extern crate` names), with the version it gets,
/// as docs/verifiers/test-code.md lists them.
pub const CRATES: &[(&str, &str)] = &[
    ("rand", "0.7"),
    ("regex", "1"),
    ("md5", "0.7"),
    ("itertools", "0.14"),
    ("num", "0.4"),
    ("num_traits", "0.2"),
    ("num_integer", "0.1"),
    ("num_bigint", "0.4"),
    ("lazy_static", "1"),
    ("proconio", "0.5"),
];

/// How long the one-time build may take (it fetches and compiles the set).
const BUILD_WALL: Duration = Duration::from_secs(1800);

/// A built crate set: what rustc is given to link a program with it.
#[derive(Debug, Clone)]
pub struct CrateSet {
    /// The directory holding the build (readable by the confined compiler).
    pub dir: PathBuf,
    /// The directory of every compiled crate of the set (`-L dependency=`).
    pub deps: PathBuf,
    /// Each crate a program may name, and its compiled library (`--extern name=path`).
    pub externs: Vec<(String, PathBuf)>,
    /// The set's identity (manifest, lock, compiler): part of a program's cache key.
    pub hash: String,
}

impl CrateSet {
    /// rustc's arguments linking a program with the set.
    pub fn rustc_args(&self) -> Vec<String> {
        let mut args = vec![format!("-Ldependency={}", self.deps.display())];
        for (name, path) in &self.externs {
            args.push(format!("--extern={name}={}", path.display()));
        }
        args
    }
}

/// Whether `source` names one of [`CRATES`] as an identifier anywhere (an over-approximation:
/// a variable called `num` counts; linking the set costs a program nothing it does not use).
pub fn mentioned(source: &str) -> bool {
    source
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|word| CRATES.iter().any(|(name, _)| *name == word))
}

/// The set's identity for `rustc_version` and `target`.
fn set_hash(rustc_version: &str, target: &str) -> String {
    hex(&key(&[
        MANIFEST.as_bytes(),
        LOCK.as_bytes(),
        rustc_version.as_bytes(),
        target.as_bytes(),
    ])[..8])
}

/// The set built for WebAssembly candidates under `root` (`<root>/<hash>`): loaded when a build is
/// there, else built (minutes, once per machine and rustc version).
pub fn for_candidates(rustc: &Rustc, root: &Path) -> Result<CrateSet, String> {
    build(
        &cargo(rustc)?,
        rustc.binary(),
        &rustc.version,
        Some(TARGET),
        root,
    )
}

/// cargo: `$REWARDBOX_CARGO`, else the one beside rustc in its toolchain, else `cargo` on `PATH`.
pub fn cargo(rustc: &Rustc) -> Result<PathBuf, String> {
    if let Some(path) = std::env::var_os("REWARDBOX_CARGO") {
        return Ok(PathBuf::from(path));
    }
    let beside = rustc.binary().with_file_name("cargo");
    if beside.is_file() {
        return Ok(beside);
    }
    crate::program::on_path("cargo").ok_or_else(|| {
        "the Rust crates (rand, regex, ...) are built with cargo, which is not installed: install \
         rustup's toolchain, or set REWARDBOX_CARGO"
            .to_string()
    })
}

/// The set built by `cargo` with `rustc` for `target` (the host's when `None`) under `root`.
/// Concurrent builders each build into a directory of their own and the first to finish
/// publishes it; the others use the published one.
pub fn build(
    cargo: &Path,
    rustc: &Path,
    rustc_version: &str,
    target: Option<&str>,
    root: &Path,
) -> Result<CrateSet, String> {
    let hash = set_hash(rustc_version, target.unwrap_or("host"));
    let dir = root.join(&hash);
    if let Ok(set) = load(&dir, target, &hash) {
        return Ok(set);
    }
    std::fs::create_dir_all(root)
        .map_err(|e| format!("creating the Rust crates' cache {}: {e}", root.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".building-")
        .tempdir_in(root)
        .map_err(|e| format!("creating a build directory in {}: {e}", root.display()))?;
    let project = staging.path();
    let write = |name: &str, text: &str| {
        std::fs::create_dir_all(project.join(name).parent().unwrap_or(project))
            .and_then(|_| std::fs::write(project.join(name), text))
            .map_err(|e| format!("writing the Rust crates' {name}: {e}"))
    };
    write("Cargo.toml", MANIFEST)?;
    write("Cargo.lock", LOCK)?;
    write("src/lib.rs", "")?;
    let mut command = Command::new(cargo);
    command
        .args(["build", "--release", "--locked", "--message-format=json"])
        .arg("--manifest-path")
        .arg(project.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(project.join("target"))
        .env("RUSTC", rustc)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(target) = target {
        command.arg(format!("--target={target}"));
    }
    // The set is the same whatever the caller's build settings.
    for variable in [
        "RUSTFLAGS",
        "CARGO_ENCODED_RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
    ] {
        command.env_remove(variable);
    }
    let (success, stdout, stderr) =
        crate::one_time::timed(|| run_with_deadline(command, BUILD_WALL))?;
    if !success {
        let tail: String = {
            let lines: Vec<&str> = stderr.lines().collect();
            lines[lines.len().saturating_sub(15)..].join("\n")
        };
        return Err(format!(
            "building the Rust crates (rand, regex, ...) with {} failed; the first build fetches \
             them from crates.io (scripts/setup.sh does it): {tail}",
            cargo.display()
        ));
    }
    let externs = externs_from_messages(&stdout, project)?;
    let listing: String = externs
        .iter()
        .map(|(name, path)| format!("{name}\t{}\n", path.display()))
        .collect();
    write("externs", &listing)?;
    let staged = staging.keep();
    if std::fs::rename(&staged, &dir).is_err() {
        // Another builder published first: its build is as good as ours.
        let _ = std::fs::remove_dir_all(&staged);
    }
    load(&dir, target, &hash)
}

/// A published build: its `externs` listing, each library checked to be there.
fn load(dir: &Path, target: Option<&str>, hash: &str) -> Result<CrateSet, String> {
    let listing = std::fs::read_to_string(dir.join("externs"))
        .map_err(|e| format!("reading {}: {e}", dir.join("externs").display()))?;
    let mut externs = Vec::new();
    for line in listing.lines() {
        let (name, relative) = line
            .split_once('\t')
            .ok_or_else(|| format!("a damaged line in {}: {line}", dir.display()))?;
        let path = dir.join(relative);
        if !path.is_file() {
            return Err(format!("{} is missing", path.display()));
        }
        externs.push((name.to_string(), path));
    }
    if CRATES
        .iter()
        .any(|(name, _)| !externs.iter().any(|(n, _)| n == name))
    {
        return Err(format!("{} lacks some of the crates", dir.display()));
    }
    let mut deps = dir.join("target");
    if let Some(target) = target {
        deps.push(target);
    }
    deps.push("release/deps");
    Ok(CrateSet {
        dir: dir.to_path_buf(),
        deps,
        externs,
        hash: hash.to_string(),
    })
}

/// Each direct dependency's compiled library (relative to `project`), from cargo's JSON messages.
fn externs_from_messages(stdout: &str, project: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let mut externs = Vec::new();
    for line in stdout.lines() {
        let Ok(message) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        if message["reason"] != "compiler-artifact" {
            continue;
        }
        let Some(name) = message["target"]["name"].as_str() else {
            continue;
        };
        let name = name.replace('-', "_");
        if !CRATES.iter().any(|(n, _)| *n == name) || externs.iter().any(|(n, _)| *n == name) {
            continue;
        }
        let rlib = message["filenames"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|f| f.as_str())
            .find(|f| f.ends_with(".rlib"));
        if let Some(rlib) = rlib {
            let relative = Path::new(rlib)
                .strip_prefix(project)
                .map_err(|_| format!("cargo wrote {rlib} outside its build directory"))?;
            externs.push((name, relative.to_path_buf()));
        }
    }
    Ok(externs)
}

/// Runs `command` to its end or `wall`, whichever first; its success, stdout and stderr.
fn run_with_deadline(
    mut command: Command,
    wall: Duration,
) -> Result<(bool, String, String), String> {
    let mut child = command
        .spawn()
        .map_err(|e| format!("starting cargo to build the Rust crates: {e}"))?;
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let out = std::thread::spawn(move || read_all(stdout.as_mut()));
    let err = std::thread::spawn(move || read_all(stderr.as_mut()));
    let started = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if started.elapsed() < wall => std::thread::sleep(Duration::from_millis(100)),
            Ok(None) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "building the Rust crates took longer than {} s",
                    wall.as_secs()
                ));
            }
            Err(e) => return Err(format!("waiting for cargo: {e}")),
        }
    };
    let stdout = out.join().unwrap_or_default();
    let stderr = err.join().unwrap_or_default();
    Ok((status.success(), stdout, stderr))
}

fn read_all(pipe: Option<&mut impl std::io::Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(pipe) = pipe {
        let _ = pipe.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A note for a compile error that names a crate rustc could not find: which crates rewardbox
/// links, so that the model (or its author) sees the library is missing here, not misspelt.
pub fn missing_crate_note(message: &str) -> Option<String> {
    let patterns = [
        "unlinked crate `",
        "can't find crate for `",
        "unresolved import `",
        "undeclared crate or module `",
    ];
    let missing = patterns.iter().find_map(|p| {
        let at = message.find(p)? + p.len();
        let name: String = message[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty() && !CRATES.iter().any(|(n, _)| *n == name)).then_some(name)
    })?;
    let offered: Vec<String> = CRATES.iter().map(|(n, v)| format!("{n} {v}")).collect();
    Some(format!(
        "note: `{missing}` is not a library rewardbox provides; Rust programs may use std and \
         these crates: {}",
        offered.join(", ")
    ))
}

/// `message` with `note` right after its first error (rustc separates its messages with blank
/// lines), where a reader who sees only the first error (a case's detail is cut) still sees it.
pub fn after_first_error(message: &str, note: &str) -> String {
    let first_error = message
        .match_indices("error")
        .map(|(at, _)| at)
        .find(|&at| at == 0 || message[..at].ends_with('\n'));
    let Some(start) = first_error else {
        return format!("{note}\n{message}");
    };
    match message[start..].find("\n\n") {
        Some(end) => {
            let end = start + end;
            format!("{}\n{note}{}", &message[..end], &message[end..])
        }
        None => format!("{message}\n{note}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crate_is_mentioned_only_as_a_whole_identifier() {
        let table = [
            ("use rand::Rng;", true),
            ("let x = ::regex::Regex::new(\"a\");", true),
            ("extern crate itertools;", true),
            ("let num = 3;", true),
            (
                "fn main() { let random = 4; let numbers = vec![1]; }",
                false,
            ),
            ("use std::collections::HashMap;", false),
            ("let md5sum = 1; // md5_like", false),
        ];
        for (source, expected) in table {
            assert_eq!(mentioned(source), expected, "{source}");
        }
    }

    #[test]
    fn every_listed_crate_is_a_dependency_of_the_manifest() {
        for (name, version) in CRATES {
            // A package name may spell the library's `_` as `-`.
            let forms = [
                format!("{name} = "),
                format!("{} = ", name.replace('_', "-")),
            ];
            let entry = MANIFEST
                .lines()
                .find(|l| forms.iter().any(|f| l.starts_with(f.as_str())))
                .unwrap_or_else(|| panic!("{name} is not in the manifest"));
            assert!(entry.contains(version), "{entry} vs {version}");
        }
    }

    #[test]
    fn the_note_follows_the_first_error_whatever_comes_before_and_after() {
        let table = [
            (
                "warning: unused\n\nerror[E0432]: unresolved import `serde`\n --> x\n\nerror: aborting",
                "warning: unused\n\nerror[E0432]: unresolved import `serde`\n --> x\nNOTE\n\nerror: aborting",
            ),
            ("error: one block only", "error: one block only\nNOTE"),
            (
                "no error word at a line start",
                "NOTE\nno error word at a line start",
            ),
        ];
        for (message, expected) in table {
            assert_eq!(after_first_error(message, "NOTE"), expected);
        }
    }

    #[test]
    fn a_missing_crate_is_named_with_what_is_provided() {
        let rustc_2024 = "error[E0432]: unresolved import `serde`\n --> main.rs:1:5\n  |\n1 | use serde::Serialize;\n  |     ^^^^^ use of unresolved module or unlinked crate `serde`";
        let note = missing_crate_note(rustc_2024).unwrap();
        assert!(note.contains("`serde` is not a library"), "{note}");
        assert!(
            note.contains("rand 0.7") && note.contains("regex 1"),
            "{note}"
        );
        let extern_crate = "error[E0463]: can't find crate for `tokio`";
        assert!(
            missing_crate_note(extern_crate)
                .unwrap()
                .contains("`tokio`")
        );
        assert_eq!(
            missing_crate_note("error[E0432]: unresolved import `rand`"),
            None
        );
        assert_eq!(missing_crate_note("error: expected `;`"), None);
    }
}
