//! Verifiers ready to run: a component compiled and pre-linked once ([`VerifierPre`]), or a Python
//! verifier compiled once ([`PythonVerifier`]); each called once per completion in a fresh [`Job`].

use crate::host::bindings::VerifierPre;
use crate::host::bindings::types::{self, Prepared, PythonMode};
use crate::host::python_verifier::TrustedPython;
use crate::host::{HostServices, HostState};
use rewardbox_sandbox::Job;
use rewardbox_sandbox::limits::Limits;
use rewardbox_types::{CaseResult, CaseStatus, CompletionResult, Status};
use std::sync::Arc;
use std::time::Instant;
use wasmtime::Engine;
use wasmtime::component::Component;

/// What a verifier made of one completion.
#[derive(Debug, Clone, PartialEq)]
pub enum Judged {
    /// A result: `ok` with the verdict, or a masked `verifier_error` that is not the verifier's
    /// doing (the host failed it, or the wall clock ended it).
    Result(CompletionResult),
    /// The verifier failed on this completion in a way it would repeat (an error it returned or
    /// raised, a malformed verdict, a trap, a limit other than the wall clock): a masked
    /// `verifier_error`, unless the verifier judges the task's `solution` (or, where the task
    /// names none, another of the task's completions) without failing, which makes the failure
    /// the completion's doing (see [`crate::Scorer`]'s batches).
    VerifierFailed(CompletionResult),
    /// The verifier says the task is malformed; the message names the field.
    InvalidTask(String),
}

impl Judged {
    /// Whether the verifier reached a verdict (`ok`, whatever its score).
    pub(crate) fn is_verdict(&self) -> bool {
        matches!(
            self,
            Judged::Result(CompletionResult {
                status: Status::Ok,
                ..
            })
        )
    }

    /// A failure of the verifier (`result`, a masked `verifier_error`): one it would repeat on
    /// the same completion ([`Judged::VerifierFailed`]), or one it would not ([`Judged::Result`]).
    fn failure(result: CompletionResult, repeats: bool) -> Judged {
        if repeats {
            Judged::VerifierFailed(result)
        } else {
            Judged::Result(result)
        }
    }
}

/// A verifier ready to judge completions: shared by every thread.
pub trait Judge: Send + Sync {
    /// The verifier's name: a built-in name, a path, or `python`.
    fn name(&self) -> &str;

    /// Judges `completion` of the task whose fields are `task_json`, in a fresh store with
    /// `limits`.
    fn judge(
        &self,
        engine: &Engine,
        task_json: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
    ) -> Judged;
}

/// A compiled verifier component, linked against the host and ready to instantiate.
pub struct VerifierComponent {
    name: String,
    pre: VerifierPre<HostState>,
    services: Arc<HostServices>,
}

impl VerifierComponent {
    /// Links `component` (which must implement the `verifier` world) with the host's linker; its
    /// `sandbox` calls use `services`.
    pub fn new(
        name: &str,
        component: &Component,
        services: Arc<HostServices>,
    ) -> anyhow::Result<Self> {
        let instance_pre = services.linker().instantiate_pre(component).map_err(|e| {
            anyhow::anyhow!(
                "{name} cannot be linked: {e:#} (does it implement the `verifier` world of wit/?)"
            )
        })?;
        let pre = VerifierPre::new(instance_pre).map_err(|e| {
            anyhow::anyhow!("{name} does not implement the `verifier` world of wit/: {e:#}")
        })?;
        Ok(VerifierComponent {
            name: name.to_string(),
            pre,
            services,
        })
    }
}

impl Judge for VerifierComponent {
    fn name(&self) -> &str {
        &self.name
    }

    fn judge(
        &self,
        engine: &Engine,
        task_json: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
    ) -> Judged {
        rewardbox_sandbox::stack::with_room(|| {
            self.judge_here(engine, task_json, completion, limits, seed)
        })
    }
}

impl VerifierComponent {
    /// [`Judge::judge`] on the current thread.
    fn judge_here(
        &self,
        engine: &Engine,
        task_json: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
    ) -> Judged {
        let started = Instant::now();
        let host = self.services.context_for_task(seed, task_json);
        let mut job = Job::new(engine, limits, seed, b"", host);
        job.take_fuel_credits();
        let outcome = self
            .pre
            .instantiate(&mut job.store)
            .and_then(|bindings| bindings.call_verify(&mut job.store, task_json, completion));
        let fuel = job.fuel_used();
        let wall_us = started.elapsed().as_micros() as u64;
        if let Some(fault) = job.store.data().ext.host_fault() {
            return Judged::Result(CompletionResult::verifier_error(
                format!("the host failed a run the verifier asked for: {fault}"),
                fuel,
                wall_us,
            ));
        }
        match outcome {
            Ok(Ok(verdict)) => checked(verdict, fuel, wall_us),
            Ok(Err(types::VerifyError::InvalidTask(message))) => Judged::InvalidTask(message),
            Ok(Err(types::VerifyError::Failed(message))) => {
                Judged::VerifierFailed(CompletionResult::verifier_error(
                    format!("verifier returned an error: {message}"),
                    fuel,
                    wall_us,
                ))
            }
            Err(error) => {
                let failure = job.classify(&error);
                Judged::failure(
                    CompletionResult::verifier_error(format!("verifier {failure}"), fuel, wall_us),
                    failure.repeats(),
                )
            }
        }
    }
}

/// A verifier written in Python (`"verifier": "python"` with its `verifier_code`, or a path to a
/// `.py` file), compiled once; it runs in the CPython component, a trusted sandbox of its own
/// that opens the candidate as a live candidate.
pub struct PythonVerifier {
    name: String,
    python: Arc<TrustedPython>,
    services: Arc<HostServices>,
    prepared: Prepared,
}

impl PythonVerifier {
    /// Compiles `source` (checked with `limits`); the error says where it does not compile.
    pub fn new(
        name: &str,
        source: &str,
        services: Arc<HostServices>,
        limits: &Limits,
    ) -> Result<Self, String> {
        let python = services.python()?;
        let prepared = python.prepare(services.engine(), PythonMode::Verifier, source, limits)?;
        Ok(PythonVerifier {
            name: name.to_string(),
            python,
            services,
            prepared,
        })
    }
}

impl Judge for PythonVerifier {
    fn name(&self) -> &str {
        &self.name
    }

    fn judge(
        &self,
        engine: &Engine,
        task_json: &str,
        completion: &str,
        limits: &Limits,
        seed: u64,
    ) -> Judged {
        let started = Instant::now();
        let judgement = self.python.verify(
            engine,
            self.services.context_for_task(seed, task_json),
            &self.prepared,
            task_json,
            completion,
            limits,
            seed,
        );
        let (fuel, wall_us) = (judgement.fuel, started.elapsed().as_micros() as u64);
        match judgement.verdict {
            Ok(verdict) => checked(verdict, fuel, wall_us),
            Err(types::VerifyError::InvalidTask(message)) => Judged::InvalidTask(message),
            Err(types::VerifyError::Failed(message)) => Judged::failure(
                CompletionResult::verifier_error(message, fuel, wall_us),
                judgement.failure_repeats,
            ),
        }
    }
}

/// Turns a verdict into a result, or into the verifier's failure when a score is NaN or outside
/// [0, 1].
fn checked(verdict: types::Verdict, fuel: u64, wall_us: u64) -> Judged {
    if let Some(problem) = bad_score(verdict.score) {
        return Judged::VerifierFailed(CompletionResult::verifier_error(
            format!("verifier returned score {problem}"),
            fuel,
            wall_us,
        ));
    }
    let mut cases = Vec::with_capacity(verdict.cases.len());
    for case in verdict.cases {
        if let Some(problem) = bad_score(case.score) {
            return Judged::VerifierFailed(CompletionResult::verifier_error(
                format!("verifier returned score {problem} for case {:?}", case.id),
                fuel,
                wall_us,
            ));
        }
        cases.push(CaseResult {
            id: case.id,
            status: CaseStatus::from(case.status),
            score: case.score,
            detail: case.detail,
        });
    }
    Judged::Result(CompletionResult {
        score: verdict.score,
        passed: verdict.passed,
        status: Status::Ok,
        detail: verdict.detail,
        fuel,
        wall_us,
        mask: false,
        cases,
    })
}

fn bad_score(score: f64) -> Option<String> {
    if score.is_nan() {
        Some("NaN".into())
    } else if !(0.0..=1.0).contains(&score) {
        Some(format!("{score}, outside [0, 1]"))
    } else {
        None
    }
}

rewardbox_types::case_status_conversions!(types::CaseStatus);
