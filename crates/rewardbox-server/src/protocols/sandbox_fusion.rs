//! `POST /run_code`: SandboxFusion's API, so that its client and verl's `sandbox_fusion_url` work
//! unchanged.
//!
//! Request `{code, language, stdin, run_timeout, compile_timeout, memory_limit_MB, files,
//! fetch_files}` (files: path → base64, written first; fetch_files: paths read back afterwards).
//! A Python program runs in a file system of its own: its working directory `/workspace`, with
//! `/tmp` and `/mnt` beside it, all writable within the working-directory budget; a relative path
//! is in the working directory, an absolute one anywhere in that file system, and nothing outside
//! it can be named. Response `{status: "Success" | "Failed" |
//! "SandboxError", message, compile_result, run_result: {status: "Finished" | "Error" |
//! "TimeLimitExceeded", execution_time, return_code, stdout, stderr}, files}`. A language
//! rewardbox does not run is a `SandboxError` that says which it runs. JavaScript (`nodejs`) runs
//! in the embedded Boa runner. C, C++ and Rust programs
//! are compiled first (by rewardbox's confined compilers, cached): a compile error is `Failed`
//! with the compiler's message in `compile_result`; they get stdin but no `files`.

use crate::error::{ApiError, parse_json};
use crate::state::{AppState, blocking};
use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use rewardbox::Limits;
use rewardbox::MAX_MEMORY_MB;
use rewardbox::candidates::CANDIDATE_DEFAULT;
use rewardbox::candidates::limits_for_seconds;
use rewardbox::candidates::program_in;
use rewardbox::candidates::{RunOutcome, RunStatus};
use rewardbox::sandboxes::Mount;
use rewardbox_toolchains::Language;
use serde_json::{Map, Value, json};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Where the program sees its working directory.
const WORKDIR: &str = "/workspace";

/// The directories of the program's own file system (its root, `/`), besides nothing else: the
/// working directory, and the two a native program may write to (`tempfile` takes `/tmp`).
const SKELETON: [&str; 3] = ["workspace", "tmp", "mnt"];

/// The language SandboxFusion's `language` names, among those rewardbox runs.
fn language(name: &str) -> Option<Language> {
    Language::parse(name)
}

/// `POST /run_code`.
pub async fn run_code(
    State(state): State<Arc<AppState>>,
    body: Bytes,
) -> Result<Json<Value>, ApiError> {
    let request = parse_json(&body)?;
    let field = |name: &str| request.get(name).filter(|v| !v.is_null());
    let code = field("code")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_field("code", "is missing (the program to run, as text)"))?
        .to_string();
    let language_name = field("language")
        .and_then(Value::as_str)
        .ok_or_else(|| ApiError::bad_field("language", "is missing"))?;
    let Some(language) = language(language_name) else {
        return Ok(Json(sandbox_error(format!(
            "language {language_name:?} is not supported by rewardbox (it runs: {})",
            Language::all_names()
        ))));
    };
    let stdin = match field("stdin") {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(ApiError::bad_field("stdin", "must be text")),
    };
    let seconds = |name: &str, default: f64| -> Result<f64, ApiError> {
        match field(name) {
            None => Ok(default),
            Some(v) => v
                .as_f64()
                .filter(|s| s.is_finite() && *s > 0.0)
                .ok_or_else(|| ApiError::bad_field(name, "must be a positive number of seconds")),
        }
    };
    let run_timeout = seconds("run_timeout", 10.0)?;
    seconds("compile_timeout", 10.0)?;
    let max = state.options.max_limits;
    // SandboxFusion's default is -1, "no limit of the request's own": the operator's maximum.
    let memory_bytes = match field("memory_limit_MB") {
        None => CANDIDATE_DEFAULT.memory_bytes,
        Some(v) => match v.as_i64().or_else(|| v.as_u64().map(|_| i64::MAX)) {
            Some(mb) if mb <= 0 => max.memory_bytes,
            Some(mb) => (mb as u64).min(MAX_MEMORY_MB) << 20,
            None => {
                return Err(ApiError::bad_field(
                    "memory_limit_MB",
                    "must be an integer (MiB; -1 for the server's maximum)",
                ));
            }
        },
    };
    let files = decode_files(field("files"))?;
    let fetch = match field("fetch_files") {
        None => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|p| {
                p.as_str()
                    .ok_or_else(|| ApiError::bad_field("fetch_files", "must be a list of paths"))
                    .and_then(|p| in_sandbox(p, "fetch_files").map(|_| p.to_string()))
            })
            .collect::<Result<Vec<_>, _>>()?,
        Some(_) => {
            return Err(ApiError::bad_field(
                "fetch_files",
                "must be a list of paths",
            ));
        }
    };
    // `run_timeout` is a budget of work, so that the same program gets the same answer on a
    // busy server: it becomes fuel at the runner's calibrated rate, with a wall-clock net far
    // above it (a program stopped by the net without having used its time was starved by the
    // host: a `SandboxError`, never a verdict).
    let limits = limits_for_seconds(
        language,
        run_timeout,
        Limits {
            memory_bytes,
            ..CANDIDATE_DEFAULT
        },
    )
    .clamp_to(&max);

    if language != Language::Python {
        if !files.is_empty() || !fetch.is_empty() {
            return Err(ApiError::bad_field(
                "files",
                "is supported for Python programs only (a C, C++, Rust or JavaScript program gets stdin)",
            ));
        }
        let worker = state.clone();
        let answer = blocking(move || {
            // Compiled first, apart, so that each of the two times is its own.
            let started = Instant::now();
            let prepared = worker
                .scorer
                .install(|| worker.scorer.runners().prepare(language.name(), &code));
            let compile_seconds = started.elapsed().as_secs_f64();
            let started = Instant::now();
            let outcome = match prepared {
                Ok(()) => worker.scorer.install(|| {
                    worker.scorer.runners().run(
                        language.name(),
                        &code,
                        &stdin,
                        &limits,
                        worker.options.seed,
                    )
                }),
                Err(outcome) => outcome,
            };
            let seconds = started.elapsed().as_secs_f64();
            count_if_hung_up(&worker);
            Ok::<Value, ApiError>(if language.is_compiled() {
                compiled_response(&outcome, compile_seconds, seconds)
            } else if outcome.status == RunStatus::Unsupported {
                sandbox_error(outcome.stderr.clone())
            } else {
                response(&outcome, seconds, Map::new())
            })
        })
        .await??;
        return Ok(Json(answer));
    }

    let worker = state.clone();
    let answer = blocking(move || {
        // The working directory may grow to its budget: that much of the server's disk budget
        // is held while the program runs.
        let workdir_bytes = worker.options.workdir_budget.bytes;
        let _disk = worker
            .budgets
            .take(
                rewardbox_envs::Amount {
                    memory: 0,
                    disk: workdir_bytes,
                },
                "this program's working directory",
            )
            .map_err(|m| ApiError::status(axum::http::StatusCode::SERVICE_UNAVAILABLE, m))?;
        let workdir = Workdir::new()?;
        for (named, path, bytes) in &files {
            workdir.write(named, path, bytes)?;
        }
        let started = Instant::now();
        let python = worker
            .scorer
            .runners()
            .python()
            .map_err(ApiError::internal)?;
        let program = program_in(WORKDIR, &code, "<code>");
        let mounts = [Mount {
            host: workdir.path(),
            guest: "/",
            writable: true,
            budget: Some(worker.options.workdir_budget),
        }];
        let outcome = worker.scorer.install(|| {
            python.run_with_files(
                worker.scorer.engine(),
                &program,
                &stdin,
                &limits,
                worker.options.seed,
                &mounts,
            )
        });
        let seconds = started.elapsed().as_secs_f64();
        count_if_hung_up(&worker);
        if outcome.status == RunStatus::Unsupported {
            return Ok(sandbox_error(outcome.stderr.clone()));
        }
        let mut fetched = Map::new();
        let fetch_bytes = worker.options.fetch_bytes;
        let mut left = fetch_bytes;
        let mut notes = String::new();
        for path in &fetch {
            match workdir.read(path, left) {
                Fetched::File(bytes) => {
                    left -= bytes.len() as u64;
                    fetched.insert(path.clone(), json!(BASE64.encode(bytes)));
                }
                Fetched::TooLarge(size) => notes.push_str(&format!(
                    "\nrewardbox: fetch_files: {path:?} is {size} bytes, more than is left of \
                     the {fetch_bytes} bytes one answer carries; not returned"
                )),
                Fetched::Missing => {}
            }
        }
        let mut answer = response(&outcome, seconds, fetched);
        if !notes.is_empty()
            && let Some(Value::String(stderr)) = answer.pointer_mut("/run_result/stderr")
        {
            stderr.push_str(&notes);
        }
        Ok::<Value, ApiError>(answer)
    })
    .await??;
    Ok(Json(answer))
}

/// Counts the run that just ended if its client hung up meanwhile (its sandbox was stopped).
fn count_if_hung_up(state: &AppState) {
    let hung_up = rewardbox::sandboxes::cancel_flag()
        .is_some_and(|flag| flag.load(std::sync::atomic::Ordering::Relaxed));
    if hung_up {
        state.metrics.stopped_run();
    }
}

fn sandbox_error(message: String) -> Value {
    json!({
        "status": "SandboxError",
        "message": message,
        "compile_result": null, "run_result": null, "files": {},
    })
}

/// The answer for a compiled program: a compile error is `Failed` with the compiler's message
/// in `compile_result` and no `run_result`, as SandboxFusion reports it.
fn compiled_response(outcome: &RunOutcome, compile_seconds: f64, seconds: f64) -> Value {
    let compiled = |return_code: i32, stderr: &str| {
        json!({
            "status": "Finished", "execution_time": compile_seconds, "return_code": return_code,
            "stdout": "", "stderr": stderr,
        })
    };
    match outcome.status {
        RunStatus::Unsupported => sandbox_error(outcome.stderr.clone()),
        RunStatus::CompileError => json!({
            "status": "Failed",
            "message": "",
            "compile_result": compiled(1, &outcome.stderr),
            "run_result": null,
            "files": {},
        }),
        _ => {
            let mut answer = response(outcome, seconds, Map::new());
            answer["compile_result"] = compiled(0, "");
            answer
        }
    }
}

fn response(outcome: &RunOutcome, seconds: f64, files: Map<String, Value>) -> Value {
    let (run_status, return_code) = match outcome.status {
        RunStatus::Ok | RunStatus::ExitedNonzero => {
            ("Finished", json!(outcome.exit_code.unwrap_or(0)))
        }
        // A trap is the program's crash: the status its native process would end with
        // (outcome::native_status), as SandboxFusion reports a crashed process.
        RunStatus::Crashed if outcome.exit_code.is_some() => {
            ("Finished", json!(outcome.exit_code.unwrap_or(0)))
        }
        RunStatus::FuelExhausted | RunStatus::Timeout => ("TimeLimitExceeded", Value::Null),
        // Killed by the sandbox, as SandboxFusion reports a process a signal ended.
        RunStatus::MemoryExceeded
        | RunStatus::OutputExceeded
        | RunStatus::Crashed
        | RunStatus::CompileError
        | RunStatus::Unsupported => ("Error", json!(137)),
    };
    let success = run_status == "Finished" && return_code == json!(0);
    json!({
        "status": if success { "Success" } else { "Failed" },
        "message": "",
        "compile_result": null,
        "run_result": {
            "status": run_status,
            "execution_time": seconds,
            "return_code": return_code,
            "stdout": outcome.stdout,
            "stderr": outcome.stderr,
        },
        "files": files,
    })
}

/// Where `path`, as the program names it, is in its file system, relative to the file system's
/// root: a relative path is in the working directory. A path that leaves the file system (`..`)
/// or names its root alone is refused.
fn in_sandbox(path: &str, field: &str) -> Result<PathBuf, ApiError> {
    let p = Path::new(path);
    let mut parts = p.components().peekable();
    let mut inside = PathBuf::new();
    if parts.next_if_eq(&Component::RootDir).is_none() {
        inside.push(&WORKDIR[1..]);
    }
    let mut named = false;
    for part in parts {
        match part {
            Component::Normal(name) => {
                inside.push(name);
                named = true;
            }
            Component::CurDir => {}
            _ => {
                return Err(ApiError::bad_field(
                    field,
                    format!(
                        "holds {path:?}: a path names a file in the program's file system \
                         (relative to {WORKDIR}, or absolute), without '..'"
                    ),
                ));
            }
        }
    }
    if !named {
        return Err(ApiError::bad_field(
            field,
            format!("holds {path:?}, which names no file"),
        ));
    }
    Ok(inside)
}

/// The request's `files`: each as the request names it, where that is in the program's file
/// system, and its bytes.
fn decode_files(value: Option<&Value>) -> Result<Vec<(String, PathBuf, Vec<u8>)>, ApiError> {
    let Some(value) = value else {
        return Ok(Vec::new());
    };
    let map = value
        .as_object()
        .ok_or_else(|| ApiError::bad_field("files", "must be an object of path -> base64"))?;
    let mut files = Vec::new();
    for (path, content) in map {
        let bytes = match content {
            Value::Null => Vec::new(),
            Value::String(b64) => BASE64.decode(b64).map_err(|e| {
                ApiError::bad_field(&format!("files.{path}"), format!("is not base64: {e}"))
            })?,
            _ => {
                return Err(ApiError::bad_field(
                    &format!("files.{path}"),
                    "must be base64 text",
                ));
            }
        };
        files.push((path.clone(), in_sandbox(path, "files")?, bytes));
    }
    Ok(files)
}

/// A fresh file system for one run (its [`SKELETON`] of directories), removed afterwards.
struct Workdir {
    dir: tempfile::TempDir,
}

impl Workdir {
    fn new() -> Result<Workdir, ApiError> {
        let cannot = |e: std::io::Error| {
            ApiError::internal(format!("cannot create a working directory: {e}"))
        };
        let dir = tempfile::Builder::new()
            .prefix("rewardbox-run-")
            .tempdir()
            .map_err(cannot)?;
        for sub in SKELETON {
            std::fs::create_dir(dir.path().join(sub)).map_err(cannot)?;
        }
        Ok(Workdir { dir })
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Writes a file the request sent as `named` (at `relative` to the file system's root); a
    /// name the file system refuses (too long, a file where a directory must be) is the
    /// request's error, named by the request's own path.
    fn write(&self, named: &str, relative: &Path, bytes: &[u8]) -> Result<(), ApiError> {
        let field = format!("files.{named}");
        let refused = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::StorageFull {
                ApiError::internal(format!("the host has no room for {field}: {e}"))
            } else {
                ApiError::bad_field(&field, format!("cannot be written: {}", e.kind()))
            }
        };
        let target = self.path().join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(refused)?;
        }
        std::fs::write(&target, bytes).map_err(refused)
    }

    /// A file the program left at `path` (as the program names it), never through a link out of
    /// its file system, never a device or a FIFO, and only when it holds at most `max` bytes.
    fn read(&self, path: &str, max: u64) -> Fetched {
        use std::io::Read;
        use std::os::unix::fs::OpenOptionsExt;
        let Ok(relative) = in_sandbox(path, "fetch_files") else {
            return Fetched::Missing;
        };
        let target = self.path().join(relative);
        let inside = match (target.canonicalize(), self.path().canonicalize()) {
            (Ok(file), Ok(root)) => file.starts_with(root),
            _ => false,
        };
        let Some(file) = inside
            .then(|| {
                std::fs::OpenOptions::new()
                    .read(true)
                    .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
                    .open(&target)
                    .ok()
            })
            .flatten()
        else {
            return Fetched::Missing;
        };
        let size = match file.metadata() {
            Ok(meta) if meta.is_file() => meta.len(),
            _ => return Fetched::Missing,
        };
        if size > max {
            return Fetched::TooLarge(size);
        }
        let mut bytes = Vec::with_capacity(size as usize);
        match file.take(max + 1).read_to_end(&mut bytes) {
            Ok(_) if bytes.len() as u64 <= max => Fetched::File(bytes),
            Ok(_) => Fetched::TooLarge(bytes.len() as u64),
            Err(_) => Fetched::Missing,
        }
    }
}

/// What reading back one of `fetch_files` found.
enum Fetched {
    /// The file's bytes.
    File(Vec<u8>),
    /// A file larger than what was left of the answer's budget (its size).
    TooLarge(u64),
    /// Nothing readable there: no such file, a directory, a link out, a device.
    Missing,
}
