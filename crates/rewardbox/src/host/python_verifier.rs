//! The CPython component as the trusted runtime of Python verifiers and asserts
//! (`sandbox.python-verify`, `"verifier": "python"`, `.py` verifiers) and of an episode's scripts:
//! an instance that judges a completion and reaches the candidate only through the host's
//! `sandbox` interface (live candidates in sandboxes of their own).
//!
//! Linked once per process with the host's linker; every use is a fresh instance in a fresh
//! [`Job`]. Verifier sources are compiled (`prepare`) once per process per distinct source.

use crate::host::asserts_plan::AssertsPlan;
use crate::host::bindings::python::{Python, PythonPre};
use crate::host::bindings::types::{Prepared, PythonMode, RunOutcome, VerifyError};
use crate::host::context::{HostContext, HostState, PythonVerdict};
use crate::host::planned_asserts::PlannedTask;
use crate::runners::memo::{self, RunMemo, Weigh};
use crate::runners::outcome::{run_outcome, unsupported};
use rewardbox_sandbox::job::{JobIo, SCRATCH_BUDGET};
use rewardbox_sandbox::limits::Limits;
use rewardbox_sandbox::stack::with_room;
use rewardbox_sandbox::{Job, Mount};
use std::path::PathBuf;
use std::sync::Arc;
use wasmtime::Engine;
use wasmtime::component::{Component, Linker};

/// The CPython component, linked as a trusted runtime and ready to instantiate.
pub struct TrustedPython {
    pre: PythonPre<HostState>,
    prepared: RunMemo<Result<Prepared, PrepareError>>,
    plans: RunMemo<Option<Arc<AssertsPlan>>>,
}

impl TrustedPython {
    /// Links the CPython `component` with the host's `linker`.
    pub fn link(linker: &Linker<HostState>, component: &Component) -> Result<Self, String> {
        let pre = linker
            .instantiate_pre(component)
            .and_then(PythonPre::new)
            .map_err(|e| format!("linking the Python runtime for verifiers: {e:#}"))?;
        Ok(TrustedPython {
            pre,
            prepared: RunMemo::default(),
            plans: RunMemo::default(),
        })
    }

    /// Runs `source` with `stdin` in a fresh trusted instance that sees `mounts` and may open
    /// live candidates through `host` (an episode's setup and verifier scripts).
    #[allow(clippy::too_many_arguments)]
    pub fn run_trusted(
        &self,
        engine: &Engine,
        host: HostContext,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
        mounts: &[Mount<'_>],
    ) -> RunOutcome {
        with_room(|| {
            let mut job = Job::with_io(
                engine,
                limits,
                seed,
                trusted_io(stdin.as_bytes(), mounts),
                host,
            );
            let result = self
                .pre
                .instantiate(&mut job.store)
                .and_then(|p: Python| p.call_run(&mut job.store, source));
            match job.store.data().ext.host_fault() {
                Some(fault) => unsupported(format!(
                    "the host failed a run the script asked for: {fault}"
                )),
                None => run_outcome(&job, result),
            }
        })
    }

    /// `source` compiled as `mode`, once per process per distinct source (the compile error
    /// otherwise). Compiling runs in a fresh instance with `limits`. An instance this host could
    /// not start (the kernel refusing, now and then under load, to seal the memory image a first
    /// instantiation makes) is tried again, and when it still fails is the host's fault, never
    /// remembered as the source's.
    pub fn prepare(
        &self,
        engine: &Engine,
        mode: PythonMode,
        source: &str,
        limits: &Limits,
    ) -> Result<Prepared, PrepareError> {
        let key = memo::key(&[&[mode_byte(mode)], source.as_bytes()], limits, 0);
        self.prepared.get_or_compute(key, || {
            with_room(|| {
                let mut tries = 1;
                let (mut job, python) = loop {
                    let mut job = Job::new(engine, limits, 0, b"", HostContext::default());
                    match self.pre.instantiate(&mut job.store) {
                        Ok(python) => break (job, python),
                        Err(_) if tries < INSTANTIATE_TRIES => tries += 1,
                        Err(error) => {
                            return Err(PrepareError::Host(format!(
                                "the host could not start the Python runtime to compile it: \
                                 {error:#}"
                            )));
                        }
                    }
                };
                match python.call_prepare(&mut job.store, mode, source) {
                    Ok(prepared) => prepared.map_err(PrepareError::Compile),
                    Err(error) => Err(PrepareError::Compile(format!(
                        "compiling it {}",
                        job.classify(&error)
                    ))),
                }
            })
        })
    }

    /// The plan of asserts `source` (read as `mode`) for `task`, once per process per distinct
    /// source, entry point and setup; `None` when they must run live. Planning runs in a fresh
    /// instance with `limits` that can open no candidate.
    pub fn plan(
        &self,
        engine: &Engine,
        mode: PythonMode,
        source: &str,
        task: &PlannedTask,
        limits: &Limits,
    ) -> Option<Arc<AssertsPlan>> {
        let planned =
            serde_json::json!({"entry_point": task.entry, "setup": task.setup}).to_string();
        let key = memo::key(
            &[
                b"plan",
                &[mode_byte(mode)],
                source.as_bytes(),
                planned.as_bytes(),
            ],
            limits,
            0,
        );
        self.plans.get_or_compute(key, || {
            with_room(|| {
                let mut job = Job::new(engine, limits, 0, b"", HostContext::default());
                let plan = self.pre.instantiate(&mut job.store).and_then(|p: Python| {
                    p.call_plan_asserts(&mut job.store, mode, source, &planned)
                });
                let plan = plan.ok().flatten()?;
                AssertsPlan::from_json(&plan).ok().map(Arc::new)
            })
        })
    }

    /// Runs a prepared verifier on one completion in a fresh instance with `limits`, which may
    /// open live candidates through `host`. The instance failing (a limit, a trap) is
    /// `VerifyError::Failed` with the reason.
    #[allow(clippy::too_many_arguments)]
    pub fn verify(
        &self,
        engine: &Engine,
        host: HostContext,
        prepared: &Prepared,
        task: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
    ) -> PythonJudgement {
        let files = if prepared.wants_files {
            match JudgeFiles::write(task, completion) {
                Ok(files) => Some(files),
                // The host's file system: not the verifier's doing.
                Err(e) => return PythonJudgement::failed_by_host(e),
            }
        } else {
            None
        };
        let mounts = files.as_ref().map(JudgeFiles::mounts).unwrap_or_default();
        with_room(|| {
            self.verify_in(
                engine, host, prepared, task, completion, limits, seed, &mounts,
            )
        })
    }

    /// [`TrustedPython::verify`] on the current thread, its files mounted.
    #[allow(clippy::too_many_arguments)]
    fn verify_in(
        &self,
        engine: &Engine,
        host: HostContext,
        prepared: &Prepared,
        task: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
        mounts: &[Mount<'_>],
    ) -> PythonJudgement {
        let mut job = Job::with_io(engine, limits, seed, trusted_io(b"", mounts), host);
        job.take_fuel_credits();
        let result = self
            .pre
            .instantiate(&mut job.store)
            .and_then(|p: Python| p.call_verify(&mut job.store, prepared, task, completion));
        let fuel = job.fuel_used();
        if let Some(fault) = job.store.data().ext.host_fault() {
            let message = format!("the host failed a run the verifier asked for: {fault}");
            return PythonJudgement {
                fuel,
                ..PythonJudgement::failed_by_host(VerifyError::Failed(message))
            };
        }
        match result {
            // What the verifier returned or raised: its own doing, the same each time.
            Ok(verdict) => PythonJudgement {
                verdict,
                fuel,
                failure_repeats: true,
            },
            Err(error) => {
                let failure = job.classify(&error);
                PythonJudgement {
                    verdict: Err(VerifyError::Failed(format!(
                        "the Python verifier {failure}"
                    ))),
                    fuel,
                    failure_repeats: failure.repeats(),
                }
            }
        }
    }
}

/// What a trusted Python instance made of one completion.
#[derive(Debug)]
pub struct PythonJudgement {
    /// The verifier's verdict, or why there is none.
    pub verdict: PythonVerdict,
    /// The fuel the instance used.
    pub fuel: u64,
    /// Whether a failure (`verdict` an error) is one the same verifier would repeat on the same
    /// completion: an error it raised or returned, a trap, a limit other than the wall clock
    /// ([`rewardbox_sandbox::RunFailure::repeats`]). Never the host's failures.
    pub failure_repeats: bool,
}

impl PythonJudgement {
    /// The host failed the judgement (`error` says how): a failure the verifier did not cause.
    fn failed_by_host(error: VerifyError) -> Self {
        PythonJudgement {
            verdict: Err(error),
            fuel: 0,
            failure_repeats: false,
        }
    }
}

/// The byte that stands for `mode` in memo keys.
pub fn mode_byte(mode: PythonMode) -> u8 {
    match mode {
        PythonMode::Verifier => 0,
        PythonMode::Asserts => 1,
        PythonMode::AssertList => 2,
        PythonMode::Pytest => 3,
        PythonMode::Unittest => 4,
    }
}

impl Weigh for Result<Prepared, PrepareError> {
    fn bytes(&self) -> usize {
        match self {
            Ok(p) => p.code.len() + 64,
            Err(PrepareError::Compile(e) | PrepareError::Host(e)) => e.len() + 64,
        }
    }

    /// The host failing to start an instance is not the source's doing: never remembered.
    fn deterministic(&self) -> bool {
        !matches!(self, Err(PrepareError::Host(_)))
    }
}

/// Why a Python source could not be prepared.
#[derive(Debug, Clone)]
pub enum PrepareError {
    /// It does not compile, or compiling it fails in the guest: the source's fault.
    Compile(String),
    /// The host could not start the instance that compiles it: the machine's fault.
    Host(String),
}

impl std::fmt::Display for PrepareError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PrepareError::Compile(message) | PrepareError::Host(message) => f.write_str(message),
        }
    }
}

impl From<PrepareError> for String {
    fn from(error: PrepareError) -> String {
        error.to_string()
    }
}

/// How many times an instance the host could not start is tried.
const INSTANTIATE_TRIES: usize = 3;

impl Weigh for Option<Arc<AssertsPlan>> {
    fn bytes(&self) -> usize {
        self.as_ref().map_or(64, |plan| plan.bytes())
    }
}

impl Weigh for PythonVerdict {
    /// A verification that failed may have failed for the host's reasons: never remembered.
    fn deterministic(&self) -> bool {
        !matches!(self, Err(VerifyError::Failed(_)))
    }

    fn bytes(&self) -> usize {
        match self {
            Ok(v) => {
                v.detail.len()
                    + v.cases
                        .iter()
                        .map(|c| c.id.len() + c.detail.len() + 48)
                        .sum::<usize>()
                    + 64
            }
            Err(VerifyError::InvalidTask(m) | VerifyError::Failed(m)) => m.len() + 64,
        }
    }
}

/// The files a DeepGym verifier reads, in a temporary directory of the host that the verifier's
/// instance sees read-only: `/solution/solution.py` (the program in the completion) and
/// `/judge/test_cases.json` (the task's `test_cases`), with the task's `support_files` beside
/// it. Removed when dropped.
pub struct JudgeFiles {
    /// The private temp directory holding both, removed when dropped.
    root: tempfile::TempDir,
    solution: PathBuf,
    judge: PathBuf,
}

/// Files a task's `support_files` may not replace.
const RESERVED_JUDGE_FILES: [&str; 3] = ["verifier.py", "deepgym_solution.py", "test_cases.json"];

impl JudgeFiles {
    /// Writes the files for `task` (JSON) and `completion`. The error says which field is wrong,
    /// or that the host could not write them.
    pub fn write(task: &str, completion: &str) -> Result<JudgeFiles, VerifyError> {
        let task: serde_json::Value = serde_json::from_str(task)
            .map_err(|e| VerifyError::InvalidTask(format!("the task is not JSON: {e}")))?;
        let language = task
            .get("language")
            .and_then(|v| v.as_str())
            .unwrap_or("python");
        let program = rewardbox_languages::fences::fenced_program(completion, language)
            .unwrap_or_else(|| completion.to_string());
        let mut support = Vec::new();
        if let Some(files) = task.get("support_files").filter(|v| !v.is_null()) {
            let files = files.as_object().ok_or_else(|| {
                VerifyError::InvalidTask(
                    "\"support_files\" must be an object of file name -> text".into(),
                )
            })?;
            for (name, text) in files {
                let text = text.as_str().ok_or_else(|| {
                    VerifyError::InvalidTask(format!("\"support_files.{name}\" must be text"))
                })?;
                let plain = !name.is_empty()
                    && !name.contains(['/', '\\'])
                    && name != "."
                    && name != ".."
                    && !RESERVED_JUDGE_FILES.contains(&name.as_str());
                if !plain {
                    return Err(VerifyError::InvalidTask(format!(
                        "\"support_files\": {name:?} must be a plain file name, not one of {RESERVED_JUDGE_FILES:?}"
                    )));
                }
                support.push((name.clone(), text.to_string()));
            }
        }
        let root = tempfile::Builder::new()
            .prefix("rewardbox-judge-")
            .tempdir()
            .map_err(|e| {
                VerifyError::Failed(format!(
                    "the host could not create a directory for the verifier's files: {e}"
                ))
            })?;
        let files = JudgeFiles {
            solution: root.path().join("solution"),
            judge: root.path().join("judge"),
            root,
        };
        let written = (|| -> std::io::Result<()> {
            std::fs::create_dir_all(&files.solution)?;
            std::fs::create_dir_all(&files.judge)?;
            std::fs::write(files.solution.join("solution.py"), &program)?;
            if let Some(cases) = task.get("test_cases") {
                std::fs::write(files.judge.join("test_cases.json"), cases.to_string())?;
            }
            for (name, text) in &support {
                std::fs::write(files.judge.join(name), text)?;
            }
            Ok(())
        })();
        written.map_err(|e| {
            VerifyError::Failed(format!(
                "the host could not write the verifier's files in {}: {e}",
                files.root.path().display()
            ))
        })?;
        Ok(files)
    }

    /// The directories to mount (read-only).
    fn mounts(&self) -> Vec<Mount<'_>> {
        vec![
            Mount {
                host: &self.solution,
                guest: "/solution",
                writable: false,
                budget: None,
            },
            Mount {
                host: &self.judge,
                guest: "/judge",
                writable: false,
                budget: None,
            },
        ]
    }
}

/// What a trusted Python instance is given: `stdin`, `mounts`, and a `/tmp` of its own (DeepGym's
/// verifiers write temporary files, as natively).
fn trusted_io<'a>(stdin: &'a [u8], mounts: &'a [Mount<'a>]) -> JobIo<'a> {
    JobIo {
        mounts,
        scratch: Some(SCRATCH_BUDGET),
        ..JobIo::stdin(stdin)
    }
}
