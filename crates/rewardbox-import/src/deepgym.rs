//! DeepGym environment folders as rewardbox tasks.
//!
//! A DeepGym environment is a folder with `verifier.py` (defining `verify(solution_path,
//! test_cases_path=None)`), `task.md` (the prompt), usually `reference_solution.py`, and
//! optionally `test_cases.json` and `metadata.json` (whose `support_files` lists files the
//! verifier imports). [`task_from_folder`] turns one into a task for the `python` verifier, which
//! runs DeepGym verifiers unmodified; the reference solution becomes the task's `solution` (what
//! `rewardbox audit` mutates and expects to pass).

use crate::files::PackageDir;
use serde_json::{Map, Value, json};
use std::path::Path;

/// Reads the environment folder `dir` as a task (without completions). The error names the file
/// at fault. Every file is read inside the folder (see [`PackageDir`]): a `support_files` name
/// that is absolute, climbs out with `..` or is a link leading out is refused.
pub fn task_from_folder(dir: &Path) -> Result<Value, String> {
    let folder = PackageDir::open(dir)?;
    let read = |name: &str| -> Result<Option<String>, String> {
        folder
            .read_optional(Path::new(name))
            .map_err(|e| format!("{}: {e}", dir.display()))
    };
    let verifier = read("verifier.py")?.ok_or_else(|| {
        format!(
            "{}: not a DeepGym environment (no verifier.py)",
            dir.display()
        )
    })?;
    let metadata = match read("metadata.json")? {
        Some(text) => serde_json::from_str::<Value>(&text)
            .map_err(|e| format!("{}: {e}", dir.join("metadata.json").display()))?,
        None => Value::Object(Map::new()),
    };
    if let Some(kind) = metadata.get("type").and_then(Value::as_str)
        && kind != "coding"
    {
        return Err(format!(
            "{}: a {kind:?} environment; only single-turn coding environments become tasks",
            dir.display()
        ));
    }
    let id = metadata
        .get("id")
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| dir.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| dir.display().to_string());

    let mut task = Map::new();
    task.insert("id".into(), json!(id));
    task.insert("verifier".into(), json!("python"));
    task.insert("verifier_code".into(), json!(verifier));
    if let Some(prompt) = read("task.md")? {
        task.insert("prompt".into(), json!(prompt));
    }
    if let Some(solution) = read("reference_solution.py")? {
        task.insert("solution".into(), json!(solution));
    }
    if let Some(cases) = read("test_cases.json")? {
        let cases: Value = serde_json::from_str(&cases)
            .map_err(|e| format!("{}: {e}", dir.join("test_cases.json").display()))?;
        task.insert("test_cases".into(), cases);
    }
    if let Some(names) = metadata.get("support_files").and_then(Value::as_array) {
        let mut files = Map::new();
        for name in names {
            let name = name.as_str().ok_or_else(|| {
                format!(
                    "{}: support_files must be file names",
                    dir.join("metadata.json").display()
                )
            })?;
            let text = read(name)?
                .ok_or_else(|| format!("{}: support file {name:?} is missing", dir.display()))?;
            files.insert(name.to_string(), json!(text));
        }
        task.insert("support_files".into(), Value::Object(files));
    }
    task.insert("completions".into(), json!([]));
    Ok(Value::Object(task))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempdir::Dir {
        tempdir::Dir::with(files)
    }

    mod tempdir {
        use std::path::PathBuf;

        pub struct Dir(pub PathBuf);

        impl Dir {
            pub fn with(files: &[(&str, &str)]) -> Dir {
                use std::sync::atomic::{AtomicU64, Ordering};
                static N: AtomicU64 = AtomicU64::new(0);
                let dir = std::env::temp_dir().join(format!(
                    "rewardbox-deepgym-test-{}-{}",
                    std::process::id(),
                    N.fetch_add(1, Ordering::Relaxed)
                ));
                std::fs::create_dir_all(&dir).unwrap();
                for (name, text) in files {
                    std::fs::write(dir.join(name), text).unwrap();
                }
                Dir(dir)
            }
        }

        impl Drop for Dir {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn a_folder_becomes_a_python_task_with_its_solution_and_cases() {
        let dir = folder(&[
            (
                "verifier.py",
                "def verify(solution_path, test_cases_path=None):\n    return 1.0\n",
            ),
            ("task.md", "# Do it"),
            ("reference_solution.py", "def f():\n    return 1\n"),
            ("test_cases.json", "[{\"a\": 1}]"),
            ("helpers.py", "X = 1"),
            (
                "metadata.json",
                "{\"name\": \"x\", \"support_files\": [\"helpers.py\"]}",
            ),
        ]);
        let task = task_from_folder(&dir.0).unwrap();
        assert_eq!(task["verifier"], "python");
        assert_eq!(task["prompt"], "# Do it");
        assert_eq!(task["solution"], "def f():\n    return 1\n");
        assert_eq!(task["test_cases"], json!([{"a": 1}]));
        assert_eq!(task["support_files"]["helpers.py"], "X = 1");
        assert_eq!(task["completions"], json!([]));
        assert!(
            task["verifier_code"]
                .as_str()
                .unwrap()
                .contains("def verify")
        );
    }

    #[test]
    fn errors_name_the_file() {
        let empty = folder(&[("task.md", "x")]);
        assert!(
            task_from_folder(&empty.0)
                .unwrap_err()
                .contains("no verifier.py")
        );
        let bad = folder(&[("verifier.py", "x"), ("test_cases.json", "{oops")]);
        assert!(
            task_from_folder(&bad.0)
                .unwrap_err()
                .contains("test_cases.json")
        );
        for escape in ["/etc/passwd", "../outside.py", "/proc/self/environ"] {
            let sneaky = folder(&[
                ("verifier.py", "x"),
                (
                    "metadata.json",
                    &format!("{{\"support_files\": [{escape:?}]}}"),
                ),
            ]);
            let error = task_from_folder(&sneaky.0).unwrap_err();
            assert!(error.contains("outside"), "{escape}: {error}");
        }
        let linked = folder(&[
            ("verifier.py", "x"),
            ("metadata.json", "{\"support_files\": [\"helpers.py\"]}"),
        ]);
        std::os::unix::fs::symlink("/etc/hostname", linked.0.join("helpers.py")).unwrap();
        let error = task_from_folder(&linked.0).unwrap_err();
        assert!(error.contains("outside"), "a link out: {error}");
        let multi = folder(&[
            ("verifier.py", "x"),
            ("metadata.json", "{\"type\": \"multi-turn\"}"),
        ]);
        assert!(
            task_from_folder(&multi.0)
                .unwrap_err()
                .contains("multi-turn")
        );
    }
}
