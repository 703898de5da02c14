//! [`HostServices`]: what a process sets up once for trusted instances: the candidate runners, the
//! linker of trusted instances (WASI, capped sleeps and the `sandbox` interface), the trusted
//! CPython, and the memo of Python verdicts. Asserts that can be planned run without a checking
//! sandbox ([`crate::host::planned_asserts`]).

use crate::host::bindings::Verifier;
use crate::host::bindings::types::{self, PythonMode};
use crate::host::context::{HostContext, HostState, PythonVerdict, RecordedRun, Services};
use crate::host::interface::live_runtime;
use crate::host::live::LiveCandidate;
use crate::host::planned_asserts::{PlannedTask, run_plan};
use crate::host::python_verifier::{PrepareError, TrustedPython, mode_byte};
use crate::runners::memo::{self, RunMemo};
use crate::runners::{Runners, candidate_limits};
use rewardbox_sandbox::limits::Limits;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use wasmtime::Engine;
use wasmtime::component::{HasSelf, Linker};

/// How many times the verifier's default fuel a run of a task's tests gets (asserts, assert
/// lists, pytest and unittest modules), and the compiling of them. Their work grows with the
/// number of tests, and with each failure's report, whose count the candidate decides: at the
/// default fuel, a pytest module of 32 tests that a wrong program failed ran the verifier out of
/// fuel (a masked `verifier_error` a policy could choose by failing them), a module of 512
/// passing tests did too, and a check of 400 asserts could not be compiled. The candidate's own
/// work runs on its own limits in a sandbox of its own; this fuel bounds only a runaway test
/// (a loop of its own), which it still ends, as the verifier's fault. It covers a pytest session
/// of about 2,000 failing tests (natively, pytest takes 5.8 s for 2,048 failing tests, 2.5 s
/// when they pass) and a check of several thousand asserts.
pub const TESTS_FUEL_FACTOR: u64 = 64;

/// How many times the verifier's default memory a run of a task's tests gets: a failure's report
/// holds what the candidate handed back (up to 8 MiB a value) several times over, natively too
/// (pytest explaining `f(1) == 'b'` where `f` returns 8 MB of text peaks at 359 MB, comparing two
/// returned texts of 900,000 lines at 383 MB); at the default 256 MiB either was a masked
/// `verifier_error` the candidate chose.
pub const TESTS_MEMORY_FACTOR: u64 = 4;

/// How many times the verifier's default wall-clock safety net a run of a task's tests gets:
/// enough for its fuel ([`TESTS_FUEL_FACTOR`]) on a host several times slower than a quiet one.
pub const TESTS_WALL_FACTOR: u64 = 6;

/// The services of trusted instances, shared by every thread.
pub struct HostServices {
    runners: Arc<Runners>,
    linker: Linker<HostState>,
    python: OnceLock<Result<Arc<TrustedPython>, String>>,
    /// The CPython component with pytest, linked as the trusted runtime of pytest test modules.
    python_frameworks: OnceLock<Result<Arc<TrustedPython>, String>>,
    /// Limits of a Python verifier run through `sandbox.python-verify` where unset.
    pub verifier_defaults: Limits,
    /// Verdicts of earlier identical Python verifications.
    pub verdict_memo: RunMemo<PythonVerdict>,
    /// Whether asserts that can be planned run without a checking sandbox (on unless turned off).
    planned_asserts: AtomicBool,
    /// Verdicts given from a plan, and plans that gave none (those asserts ran live).
    plan_counts: [AtomicU64; 2],
    /// These services, for the contexts of the trusted instances they start.
    me: Weak<HostServices>,
    /// The tasks (by `id`) whose trusted instances' runs are being written down.
    recordings: Mutex<Vec<(String, RecordedRuns)>>,
    /// How many recordings are open (none: a context never reads its task's id).
    recording_count: AtomicUsize,
}

/// Where one recording writes its runs down.
type RecordedRuns = Arc<Mutex<Vec<RecordedRun>>>;

/// The programs the trusted instances of one task ran (`sandbox.run`) while this was open: see
/// [`HostServices::record_runs`]. Recording ends when it is dropped.
pub struct RunRecording {
    services: Arc<HostServices>,
    task_id: String,
    runs: RecordedRuns,
}

impl RunRecording {
    /// The runs written down so far, in the order they were asked for.
    pub fn runs(&self) -> Vec<RecordedRun> {
        self.runs.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

impl Drop for RunRecording {
    fn drop(&mut self) {
        let mut open = self
            .services
            .recordings
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(at) = open
            .iter()
            .position(|(id, runs)| *id == self.task_id && Arc::ptr_eq(runs, &self.runs))
        {
            open.remove(at);
            self.services.recording_count.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

impl HostServices {
    /// Services over `runners`; Python verifiers run through `sandbox.python-verify` get
    /// `verifier_defaults` where the caller sets no limit.
    pub fn new(runners: Arc<Runners>, verifier_defaults: Limits) -> anyhow::Result<Arc<Self>> {
        let linker = trusted_linker(runners.engine())?;
        Ok(Arc::new_cyclic(|me| HostServices {
            runners,
            linker,
            python: OnceLock::new(),
            python_frameworks: OnceLock::new(),
            verifier_defaults,
            verdict_memo: RunMemo::default(),
            planned_asserts: AtomicBool::new(true),
            plan_counts: Default::default(),
            me: me.clone(),
            recordings: Mutex::new(Vec::new()),
            recording_count: AtomicUsize::new(0),
        }))
    }

    /// The limits a Python verification in `mode` gets where its caller sets none: the
    /// verifier's defaults for a verifier of the task's own, and for a task's tests (asserts,
    /// assert lists, pytest and unittest modules) [`TESTS_FUEL_FACTOR`] times their fuel,
    /// [`TESTS_MEMORY_FACTOR`] times their memory and [`TESTS_WALL_FACTOR`] times their wall
    /// clock.
    fn defaults_for(&self, mode: PythonMode) -> Limits {
        match mode {
            PythonMode::Verifier => self.verifier_defaults,
            PythonMode::Asserts
            | PythonMode::AssertList
            | PythonMode::Pytest
            | PythonMode::Unittest => Limits {
                fuel: self
                    .verifier_defaults
                    .fuel
                    .saturating_mul(TESTS_FUEL_FACTOR),
                wall_ms: self
                    .verifier_defaults
                    .wall_ms
                    .saturating_mul(TESTS_WALL_FACTOR),
                memory_bytes: self
                    .verifier_defaults
                    .memory_bytes
                    .saturating_mul(TESTS_MEMORY_FACTOR),
                ..self.verifier_defaults
            },
        }
    }

    /// The runners of candidate programs.
    pub fn runners(&self) -> &Arc<Runners> {
        &self.runners
    }

    /// The engine everything is compiled for.
    pub fn engine(&self) -> &Engine {
        self.runners.engine()
    }

    /// The linker of trusted instances: a verifier component is linked with it.
    pub fn linker(&self) -> &Linker<HostState> {
        &self.linker
    }

    /// The context of a trusted instance served by these services, its candidates seeded with
    /// `seed`.
    pub fn context(&self, seed: u64) -> HostContext {
        match self.me.upgrade() {
            Some(me) => HostContext::new(me, seed),
            None => HostContext::default(),
        }
    }

    /// The context of a trusted instance judging `task_json`: [`Self::context`], with the
    /// task's runs written down while a recording of its `id` is open.
    pub fn context_for_task(&self, seed: u64, task_json: &str) -> HostContext {
        let mut context = self.context(seed);
        if self.recording_count.load(Ordering::SeqCst) == 0 {
            return context;
        }
        #[derive(serde::Deserialize)]
        struct Id {
            id: Option<String>,
        }
        let Ok(Id { id: Some(id) }) = serde_json::from_str::<Id>(task_json) else {
            return context;
        };
        let open = self.recordings.lock().unwrap_or_else(|e| e.into_inner());
        context.recording = open
            .iter()
            .find(|(task, _)| *task == id)
            .map(|(_, runs)| runs.clone());
        context
    }

    /// Writes down every program the trusted instances judging the task whose `id` is
    /// `task_id` run through `sandbox.run` (its language, source and input), until the
    /// recording is dropped: what a verifier feeds the programs it runs, for a judge to feed
    /// them too. Give the task an id no other task being scored has; its verdicts are not
    /// memoised across tasks, so a fresh id runs afresh.
    pub fn record_runs(&self, task_id: &str) -> Option<RunRecording> {
        let services = self.me.upgrade()?;
        let runs = Arc::new(Mutex::new(Vec::new()));
        self.recordings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((task_id.to_string(), runs.clone()));
        self.recording_count.fetch_add(1, Ordering::SeqCst);
        Some(RunRecording {
            services,
            task_id: task_id.to_string(),
            runs,
        })
    }

    /// Whether asserts of the planned shape run without a checking sandbox (the default), or
    /// every assert runs live in one (to compare the two, or to rule the plan out).
    pub fn set_planned_asserts(&self, on: bool) {
        self.planned_asserts.store(on, Ordering::Relaxed);
    }

    /// How many verdicts came from a plan, and how many planned runs gave none and ran live
    /// (a result the host could not read or show exactly, a handle's truth, a host failure).
    pub fn plan_counts(&self) -> (u64, u64) {
        let [given, declined] = &self.plan_counts;
        (
            given.load(Ordering::Relaxed),
            declined.load(Ordering::Relaxed),
        )
    }

    /// The verdict of asserts run from their plan, when they have one and it gives a verdict:
    /// the program in one sandbox, its results compared here.
    fn planned_verdict(
        &self,
        mode: PythonMode,
        source: &str,
        task: &str,
        program: &str,
        limits: &Limits,
        seed: u64,
    ) -> Option<types::Verdict> {
        let plannable = matches!(mode, PythonMode::Asserts | PythonMode::AssertList);
        if !self.planned_asserts.load(Ordering::Relaxed) || !plannable {
            return None;
        }
        let planned = PlannedTask::read(task)?;
        let plan = self
            .python()
            .ok()?
            .plan(self.engine(), mode, source, &planned, limits)?;
        let runners = self.runners();
        let runtime = live_runtime(runners, &planned.language).ok()?;
        let candidate_limits = runners.limits_for(&planned.language, &planned.limits);
        let verdict = run_plan(&plan, &planned.entry, || {
            LiveCandidate::open(&runtime, runners.engine(), program, &candidate_limits, seed)
        });
        let counter = if verdict.is_some() { 0 } else { 1 };
        self.plan_counts[counter].fetch_add(1, Ordering::Relaxed);
        verdict
    }

    /// The CPython component linked as a trusted runtime, on first use.
    pub fn python(&self) -> Result<Arc<TrustedPython>, String> {
        self.python
            .get_or_init(|| {
                let runner = self.runners.python()?;
                TrustedPython::link(&self.linker, runner.component()).map(Arc::new)
            })
            .clone()
    }

    /// The trusted runtime of `mode`: the one with pytest for pytest test modules, else
    /// [`HostServices::python`].
    pub fn python_for(&self, mode: PythonMode) -> Result<Arc<TrustedPython>, String> {
        if mode != PythonMode::Pytest {
            return self.python();
        }
        self.python_frameworks
            .get_or_init(|| {
                let runner = self.runners.python_frameworks()?;
                TrustedPython::link(&self.linker, runner.component()).map(Arc::new)
            })
            .clone()
    }
}

impl Services for HostServices {
    fn runners(&self) -> &Arc<Runners> {
        HostServices::runners(self)
    }

    /// Prepared once per distinct source; identical verifications answered from the memo.
    fn python_verify(
        &self,
        mode: PythonMode,
        source: &str,
        task: &str,
        completion: &str,
        limits: &types::Limits,
        seed: u64,
    ) -> PythonVerdict {
        let limits = candidate_limits(
            limits,
            None,
            &self.defaults_for(mode),
            self.runners.max_candidate.as_ref(),
        );
        let python = self.python_for(mode).map_err(types::VerifyError::Failed)?;
        let prepared = python
            .prepare(self.engine(), mode, source, &limits)
            .map_err(|e| match e {
                PrepareError::Compile(e) => {
                    types::VerifyError::InvalidTask(format!("it does not compile: {e}"))
                }
                PrepareError::Host(e) => types::VerifyError::Failed(e),
            })?;
        let key = memo::key(
            &[
                b"python-verify",
                &[mode_byte(mode)],
                source.as_bytes(),
                task.as_bytes(),
                completion.as_bytes(),
            ],
            &limits,
            seed,
        );
        self.verdict_memo.get_or_compute(key, || {
            let planned = self.planned_verdict(mode, source, task, completion, &limits, seed);
            if let Some(verdict) = planned {
                return Ok(verdict);
            }
            python
                .verify(
                    self.engine(),
                    self.context_for_task(seed, task),
                    &prepared,
                    task,
                    completion,
                    &limits,
                    seed,
                )
                .verdict
        })
    }
}

/// The linker of trusted instances on `engine`.
fn trusted_linker(engine: &Engine) -> anyhow::Result<Linker<HostState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking WASI: {e}"))?;
    rewardbox_sandbox::sleep::cap_sleeps(&mut linker)
        .map_err(|e| anyhow::anyhow!("linking capped sleeps: {e}"))?;
    Verifier::add_to_linker::<HostState, HasSelf<HostState>>(&mut linker, |state| state)
        .map_err(|e| anyhow::anyhow!("linking the sandbox interface: {e}"))?;
    Ok(linker)
}
