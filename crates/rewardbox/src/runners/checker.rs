//! Checking programs: a contest's output validator or interactor, run like any program but with a
//! command line, files to read under `/data/` and a directory `/feedback/` to write (Kattis's
//! `judgemessage.txt`, `score.txt`), read back when it ends.
//!
//! The files live in temporary host directories made for the one run and removed after it; the
//! checker sees them read-only (`/data/`) or under a byte budget (`/feedback/`). Nothing else of
//! the host's file system is mounted.

use crate::runners::Runners;
use crate::runners::bindings::types::{File, Invocation, InvocationOutcome, RunOutcome};
use crate::runners::outcome::unsupported;
use rewardbox_sandbox::Mount;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::pipe::PipeEnd;
use rewardbox_sandbox::workspace::DiskBudget;
use std::path::{Component, Path, PathBuf};

/// Where a checker finds its files.
pub const DATA_DIR: &str = "/data";

/// Where a checker may write its feedback.
pub const FEEDBACK_DIR: &str = "/feedback";

/// What `/feedback/` may hold.
pub const FEEDBACK_BUDGET: DiskBudget = DiskBudget {
    bytes: 16 << 20,
    entries: 64,
};

/// The name a checker's command line starts with (`argv[0]`).
pub const PROGRAM_NAME: &str = "checker";

/// The two directories of one checker run, on the host.
pub struct CheckerFiles {
    data: tempfile::TempDir,
    feedback: tempfile::TempDir,
}

impl CheckerFiles {
    /// Fresh directories with `files` written under the data directory; a path that is not a
    /// plain relative path (`..`, absolute, empty) is refused, naming it.
    pub fn new(files: &[File]) -> Result<CheckerFiles, String> {
        let made = |what| {
            tempfile::Builder::new()
                .prefix(what)
                .tempdir()
                .map_err(|e| format!("making a directory for a checker: {e}"))
        };
        let dirs = CheckerFiles {
            data: made("rewardbox-data-")?,
            feedback: made("rewardbox-feedback-")?,
        };
        for file in files {
            let relative = plain_relative(&file.path).ok_or_else(|| {
                format!(
                    "a checker's file path {:?} is not a plain relative path",
                    file.path
                )
            })?;
            let path = dirs.data.path().join(relative);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| format!("writing a checker's file {:?}: {e}", file.path))?;
            }
            std::fs::write(&path, &file.contents)
                .map_err(|e| format!("writing a checker's file {:?}: {e}", file.path))?;
        }
        Ok(dirs)
    }

    /// The mounts of the run: the data read-only, the feedback writable under its budget.
    pub fn mounts(&self) -> [Mount<'_>; 2] {
        [
            Mount {
                host: self.data.path(),
                guest: DATA_DIR,
                writable: false,
                budget: None,
            },
            Mount {
                host: self.feedback.path(),
                guest: FEEDBACK_DIR,
                writable: true,
                budget: Some(FEEDBACK_BUDGET),
            },
        ]
    }

    /// The regular files the checker left under `/feedback/`, by path (links and anything else
    /// are left out). Their total is bounded by [`FEEDBACK_BUDGET`], which the run enforced.
    pub fn feedback(&self) -> Vec<File> {
        let mut files = Vec::new();
        let mut pending = vec![PathBuf::new()];
        while let Some(relative) = pending.pop() {
            let Ok(listing) = std::fs::read_dir(self.feedback.path().join(&relative)) else {
                continue;
            };
            for entry in listing.flatten() {
                let Ok(meta) = entry.path().symlink_metadata() else {
                    continue;
                };
                let path = relative.join(entry.file_name());
                if meta.is_dir() {
                    pending.push(path);
                } else if meta.is_file()
                    && let Ok(contents) = std::fs::read(entry.path())
                {
                    files.push(File {
                        path: path.to_string_lossy().into_owned(),
                        contents,
                    });
                }
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        files
    }
}

/// `path` when it is relative and has only plain components.
fn plain_relative(path: &str) -> Option<&Path> {
    let p = Path::new(path);
    let plain = !path.is_empty()
        && !path.contains('\0')
        && p.components().all(|c| matches!(c, Component::Normal(_)));
    plain.then_some(p)
}

/// The command line of a checker: its name, then its arguments.
pub fn command_line(invocation: &Invocation) -> Vec<String> {
    std::iter::once(PROGRAM_NAME.to_string())
        .chain(invocation.args.iter().cloned())
        .collect()
}

/// A checking program: its language and source, and what it is invoked with.
#[derive(Debug, Clone, Copy)]
pub struct Checker<'a> {
    /// A language name or alias.
    pub language: &'a str,
    /// The program.
    pub source: &'a str,
    /// Its command line and files.
    pub invocation: &'a Invocation,
}

/// Runs `checker` with `stdin` (or, given `pipe`, talking through it) in a fresh instance with
/// `limits`.
pub fn run_checker(
    runners: &Runners,
    checker: Checker<'_>,
    stdin: &str,
    limits: &Limits,
    seed: u64,
    pipe: Option<&PipeEnd>,
) -> InvocationOutcome {
    let Checker {
        language,
        source,
        invocation,
    } = checker;
    let files = match CheckerFiles::new(&invocation.files) {
        Ok(files) => files,
        Err(message) => return not_run(unsupported(message)),
    };
    let args = command_line(invocation);
    let mounts = files.mounts();
    let io = JobIo {
        args: &args,
        mounts: &mounts,
        pipe,
        ..JobIo::stdin(stdin.as_bytes())
    };
    let outcome = runners.run_with(language, source, io, limits, seed);
    InvocationOutcome {
        outcome,
        feedback: files.feedback(),
    }
}

/// The outcome of a checker that could not be run.
fn not_run(outcome: RunOutcome) -> InvocationOutcome {
    InvocationOutcome {
        outcome,
        feedback: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_relative_paths_are_written() {
        for good in ["input.in", "a/b/answer.ans", "x.y"] {
            assert!(plain_relative(good).is_some(), "{good}");
        }
        for bad in ["", "/etc/passwd", "../x", "a/../../x", "./x", "a\0b"] {
            assert!(plain_relative(bad).is_none(), "{bad:?}");
        }
        let refused = CheckerFiles::new(&[File {
            path: "../escape".into(),
            contents: b"x".to_vec(),
        }]);
        assert!(refused.err().unwrap().contains("\"../escape\""));
    }

    #[test]
    fn files_are_written_and_feedback_read_back() {
        let files = CheckerFiles::new(&[File {
            path: "sub/input.in".into(),
            contents: b"42\n".to_vec(),
        }])
        .unwrap();
        assert_eq!(
            std::fs::read(files.data.path().join("sub/input.in")).unwrap(),
            b"42\n"
        );
        std::fs::write(files.feedback.path().join("judgemessage.txt"), b"wrong").unwrap();
        std::fs::create_dir(files.feedback.path().join("d")).unwrap();
        std::fs::write(files.feedback.path().join("d/score.txt"), b"7").unwrap();
        let back = files.feedback();
        let paths: Vec<&str> = back.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["d/score.txt", "judgemessage.txt"]);
        assert_eq!(back[1].contents, b"wrong");
    }
}
