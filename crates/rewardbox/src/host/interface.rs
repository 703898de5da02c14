//! The host's `sandbox` interface, as a trusted instance calls it: run a candidate program in a
//! fresh sandbox of its own, hold one as a live candidate, or run a Python verifier in a trusted
//! sandbox of its own. Time spent waiting for those is credited back to the caller's wall clock.

use crate::host::bindings::{sandbox, types};
use crate::host::context::{HostState, MAX_OPEN_CANDIDATES, RecordedRun, Services};
use crate::host::live::{LiveCandidate, SOURCE_FILE};
use crate::runners::checker::{Checker, run_checker};
use crate::runners::communication::communicate;
use crate::runners::interactive::{Party, interact};
use crate::runners::memo;
use crate::runners::outcome::unsupported;
use rewardbox_sandbox::Mount;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::component::Resource;

const NO_RUNNERS: &str = "this sandbox cannot run candidate programs";

/// Fuel a trusted instance is given for each byte a candidate's run or call hands it (its
/// output, its values, its exception's text): reading what the candidate made is the candidate's
/// doing, so it must never run the verifier out of fuel into a masked `verifier_error` the
/// candidate chose. Measured before: a Python verifier that splits the output of 12 runs ran out
/// of its 1e9 fuel when the program printed a megabyte of words each time (splitting them costs
/// CPython about 1,000 units a byte), and a stdio task of 60 cases ran the code verifier out of
/// fuel on a megabyte of junk a case (which now stops reading an output at its first
/// difference). Five thousand units a byte pay a verifier in Python to walk the data several
/// times over.
pub const FUEL_PER_CANDIDATE_BYTE: u64 = 5_000;

/// Wall-clock time a trusted instance is given for each byte a candidate hands it, in
/// nanoseconds: what [`FUEL_PER_CANDIDATE_BYTE`] takes at a quarter of a quiet host's pace.
pub const WALL_NANOS_PER_CANDIDATE_BYTE: u64 = 2_000;

/// Memory a trusted instance is given for each byte a candidate hands it, up to
/// [`rewardbox_sandbox::MAX_CREDITED_LIMIT`] in all: what a verifier keeps of the candidate's data
/// is the candidate's doing too, so keeping it must never exceed the verifier's memory into a
/// masked `verifier_error` the candidate chose. The sandbox's CPython (32-bit) holds the words of
/// a split output in about 12 bytes a byte (a 2-letter word is a 32-byte object and a 4-byte
/// pointer for its 3 bytes; a 64-bit CPython natively, 21). Measured before: a Python verifier
/// keeping the words of 32 runs of a program printing a megabyte of them exceeded its 256 MiB.
pub const MEMORY_PER_CANDIDATE_BYTE: u64 = 32;

/// Output a trusted instance may write for each byte a candidate hands it: a verifier that logs
/// what the candidate printed (`print(repr(out))` writes at most 4 bytes for one) must never
/// exceed its output limit (1 MiB) into a masked `verifier_error` the candidate chose; measured
/// before: a Python verifier printing the output of each of its runs did on a program printing a
/// megabyte each time.
pub const OUTPUT_PER_CANDIDATE_BYTE: u64 = 4;

/// Bytes of what a run handed back: its output and error output.
fn outcome_bytes(outcome: &types::RunOutcome) -> usize {
    outcome.stdout.len() + outcome.stderr.len()
}

/// Bytes of what a checking program handed back: its outcome and its feedback files.
fn invocation_bytes(invocation: &types::InvocationOutcome) -> usize {
    outcome_bytes(&invocation.outcome)
        + invocation
            .feedback
            .iter()
            .map(|f| f.path.len() + f.contents.len())
            .sum::<usize>()
}

/// Bytes of what a live candidate's call handed back: its value, or why it gave none.
fn call_bytes(result: &Result<String, types::CallError>) -> usize {
    match result {
        Ok(value) => value.len(),
        Err(types::CallError::Raised(raised)) => raised.type_name.len() + raised.message.len(),
        Err(types::CallError::Ended(outcome)) => outcome_bytes(outcome),
        Err(types::CallError::Invalid(message)) => message.len(),
    }
}

impl types::Host for HostState {}

/// What the `sandbox` interface's methods need of the job's state (a trait: the state is the
/// sandbox core's type, `JobState<HostContext>`).
trait InterfaceState {
    /// The services this instance may use, if any.
    fn services(&self) -> Option<Arc<dyn Services>>;
    /// Keeps `outcome`'s reason when it is the host's failure.
    fn note(&mut self, outcome: &types::RunOutcome);
    /// Runs `work`, crediting the time it takes back to this job's wall clock.
    fn waiting<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T;
    /// The live candidate `candidate` names, if it is one of this sandbox's.
    fn live(
        &mut self,
        candidate: &Resource<LiveCandidate>,
    ) -> Result<&mut LiveCandidate, types::CallError>;
    /// Runs `f` on a live candidate, crediting the time it takes to this job's deadline.
    fn with_live<T>(
        &mut self,
        candidate: &Resource<LiveCandidate>,
        f: impl FnOnce(&mut LiveCandidate) -> Result<T, types::CallError>,
    ) -> Result<T, types::CallError>;
    /// Gives this job [`FUEL_PER_CANDIDATE_BYTE`], [`WALL_NANOS_PER_CANDIDATE_BYTE`],
    /// [`MEMORY_PER_CANDIDATE_BYTE`] and [`OUTPUT_PER_CANDIDATE_BYTE`] for each of `bytes` a
    /// candidate handed it.
    fn handed(&mut self, bytes: usize);
}

impl InterfaceState for HostState {
    /// The services this instance may use, if any.
    fn services(&self) -> Option<Arc<dyn Services>> {
        self.ext.services.clone()
    }

    /// Keeps `outcome`'s reason when it is the host's failure (see [`HostContext::host_fault`]).
    ///
    /// [`HostContext::host_fault`]: crate::host::context::HostContext::host_fault
    fn note(&mut self, outcome: &types::RunOutcome) {
        if outcome.status == types::RunStatus::Unsupported && self.ext.host_fault.is_none() {
            self.ext.host_fault = Some(outcome.stderr.clone());
        }
    }

    /// Runs `work`, crediting the time it takes back to this job's wall clock.
    fn waiting<T>(&mut self, work: impl FnOnce(&mut Self) -> T) -> T {
        let started = Instant::now();
        let result = work(self);
        self.credit_wall(started.elapsed());
        result
    }

    fn live(
        &mut self,
        candidate: &Resource<LiveCandidate>,
    ) -> Result<&mut LiveCandidate, types::CallError> {
        self.table()
            .get_mut(candidate)
            .map_err(|e| invalid(&format!("not a live candidate of this sandbox: {e}")))
    }

    /// Runs `f` on a live candidate, crediting the time it takes to this job's deadline.
    fn with_live<T>(
        &mut self,
        candidate: &Resource<LiveCandidate>,
        f: impl FnOnce(&mut LiveCandidate) -> Result<T, types::CallError>,
    ) -> Result<T, types::CallError> {
        let result = self.waiting(|state| state.live(candidate).and_then(f));
        if let Err(types::CallError::Ended(outcome)) = &result {
            self.note(outcome);
        }
        result
    }

    fn handed(&mut self, bytes: usize) {
        let bytes = bytes as u64;
        self.credit_fuel(bytes.saturating_mul(FUEL_PER_CANDIDATE_BYTE));
        self.credit_memory(bytes.saturating_mul(MEMORY_PER_CANDIDATE_BYTE));
        self.credit_output(bytes.saturating_mul(OUTPUT_PER_CANDIDATE_BYTE));
        self.credit_wall(std::time::Duration::from_nanos(
            bytes.saturating_mul(WALL_NANOS_PER_CANDIDATE_BYTE),
        ));
    }
}

impl sandbox::Host for HostState {
    fn run(
        &mut self,
        language: String,
        source: String,
        stdin: String,
        limits: types::Limits,
    ) -> types::RunOutcome {
        let Some(services) = self.services() else {
            return unsupported(NO_RUNNERS.into());
        };
        if let Some(recording) = &self.ext.recording {
            recording
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(RecordedRun {
                    language: language.clone(),
                    source: source.clone(),
                    stdin: stdin.clone(),
                });
        }
        let seed = self.ext.seed;
        let outcome = self.waiting(|_| {
            let runners = services.runners();
            let limits = runners.limits_for(&language, &limits);
            let key = memo::key(
                &[language.as_bytes(), source.as_bytes(), stdin.as_bytes()],
                &limits,
                seed,
            );
            runners.run_memo.get_or_compute(key, || {
                runners.run(&language, &source, &stdin, &limits, seed)
            })
        });
        self.note(&outcome);
        self.handed(outcome_bytes(&outcome));
        outcome
    }

    fn call(
        &mut self,
        language: String,
        source: String,
        entry: String,
        args_json: Vec<String>,
        limits: types::Limits,
    ) -> Vec<Result<String, types::RunOutcome>> {
        let Some(services) = self.services() else {
            return vec![Err(unsupported(NO_RUNNERS.into())); args_json.len()];
        };
        let seed = self.ext.seed;
        let results = self.waiting(|_| {
            let runners = services.runners();
            let limits = runners.limits_for(&language, &limits);
            let mut parts: Vec<&[u8]> =
                vec![language.as_bytes(), source.as_bytes(), entry.as_bytes()];
            parts.extend(args_json.iter().map(|a| a.as_bytes()));
            let key = memo::key(&parts, &limits, seed);
            runners.call_memo.get_or_compute(key, || {
                runners.call(&language, &source, &entry, &args_json, &limits, seed)
            })
        });
        for failed in results.iter().filter_map(|r| r.as_ref().err()) {
            self.note(failed);
        }
        let bytes = results
            .iter()
            .map(|r| r.as_ref().map_or_else(outcome_bytes, String::len))
            .sum();
        self.handed(bytes);
        results
    }

    fn run_checker(
        &mut self,
        language: String,
        source: String,
        stdin: String,
        invocation: types::Invocation,
        limits: types::Limits,
    ) -> types::InvocationOutcome {
        let Some(services) = self.services() else {
            return types::InvocationOutcome {
                outcome: unsupported(NO_RUNNERS.into()),
                feedback: Vec::new(),
            };
        };
        let seed = self.ext.seed;
        let checked = self.waiting(|_| {
            let runners = services.runners();
            let limits = runners.limits_for(&language, &limits);
            let mut parts: Vec<&[u8]> = vec![
                b"checker",
                language.as_bytes(),
                source.as_bytes(),
                stdin.as_bytes(),
            ];
            parts.extend(invocation.args.iter().map(|a| a.as_bytes()));
            for file in &invocation.files {
                parts.push(file.path.as_bytes());
                parts.push(&file.contents);
            }
            let key = memo::key(&parts, &limits, seed);
            runners.checker_memo.get_or_compute(key, || {
                let checker = Checker {
                    language: &language,
                    source: &source,
                    invocation: &invocation,
                };
                run_checker(runners, checker, &stdin, &limits, seed, None)
            })
        });
        self.note(&checked.outcome);
        self.handed(invocation_bytes(&checked));
        checked
    }

    fn interact(
        &mut self,
        language: String,
        source: String,
        limits: types::Limits,
        interactor_language: String,
        interactor_source: String,
        interactor: types::Invocation,
        interactor_limits: types::Limits,
        interactor_accepts: i32,
    ) -> types::Interaction {
        let Some(services) = self.services() else {
            return types::Interaction {
                candidate: unsupported(NO_RUNNERS.into()),
                interactor: types::InvocationOutcome {
                    outcome: unsupported(NO_RUNNERS.into()),
                    feedback: Vec::new(),
                },
                interactor_first: false,
                deadlock: false,
            };
        };
        let seed = self.ext.seed;
        let interaction = self.waiting(|_| {
            let runners = services.runners();
            let candidate_limits = runners.limits_for(&language, &limits);
            let interactor_limits = runners.limits_for(&interactor_language, &interactor_limits);
            interact(
                runners,
                Party {
                    language: &language,
                    source: &source,
                    limits: &candidate_limits,
                },
                Party {
                    language: &interactor_language,
                    source: &interactor_source,
                    limits: &interactor_limits,
                },
                &interactor,
                seed,
                interactor_accepts,
            )
        });
        self.note(&interaction.candidate);
        self.note(&interaction.interactor.outcome);
        self.handed(
            outcome_bytes(&interaction.candidate) + invocation_bytes(&interaction.interactor),
        );
        interaction
    }

    fn communicate(
        &mut self,
        language: String,
        source: String,
        limits: types::Limits,
        processes: u32,
        manager_language: String,
        manager_source: String,
        manager: types::Invocation,
        manager_stdin: String,
        manager_limits: types::Limits,
    ) -> types::Communication {
        let Some(services) = self.services() else {
            return types::Communication {
                manager: types::InvocationOutcome {
                    outcome: unsupported(NO_RUNNERS.into()),
                    feedback: Vec::new(),
                },
                candidates: vec![unsupported(NO_RUNNERS.into())],
                deadlock: false,
            };
        };
        let seed = self.ext.seed;
        let communication = self.waiting(|_| {
            let runners = services.runners();
            let candidate_limits = runners.limits_for(&language, &limits);
            let manager_limits = runners.limits_for(&manager_language, &manager_limits);
            communicate(
                runners,
                Party {
                    language: &language,
                    source: &source,
                    limits: &candidate_limits,
                },
                processes,
                Party {
                    language: &manager_language,
                    source: &manager_source,
                    limits: &manager_limits,
                },
                &manager,
                &manager_stdin,
                seed,
            )
        });
        for candidate in &communication.candidates {
            self.note(candidate);
        }
        self.note(&communication.manager.outcome);
        let bytes = communication
            .candidates
            .iter()
            .map(outcome_bytes)
            .sum::<usize>()
            + invocation_bytes(&communication.manager);
        self.handed(bytes);
        communication
    }

    fn python_verify(
        &mut self,
        mode: types::PythonMode,
        source: String,
        task: String,
        completion: String,
        limits: types::Limits,
    ) -> Result<types::Verdict, types::VerifyError> {
        let Some(services) = self.services() else {
            return Err(types::VerifyError::Failed(NO_RUNNERS.into()));
        };
        let seed = self.ext.seed;
        let verdict = self
            .waiting(|_| services.python_verify(mode, &source, &task, &completion, &limits, seed));
        if let Err(types::VerifyError::Failed(message)) = &verdict
            && self.ext.host_fault.is_none()
        {
            self.ext.host_fault = Some(format!("a Python verification it ran failed: {message}"));
        }
        verdict
    }
}

fn invalid(message: &str) -> types::CallError {
    types::CallError::Invalid(message.to_string())
}

impl sandbox::HostCandidate for HostState {
    fn open(
        &mut self,
        language: String,
        source: String,
        limits: types::Limits,
    ) -> Result<Resource<LiveCandidate>, types::CallError> {
        self.open_named(language, source, SOURCE_FILE.to_string(), limits)
    }

    fn open_named(
        &mut self,
        language: String,
        source: String,
        filename: String,
        limits: types::Limits,
    ) -> Result<Resource<LiveCandidate>, types::CallError> {
        let Some(services) = self.services() else {
            return Err(invalid(NO_RUNNERS));
        };
        if self.ext.open_candidates >= MAX_OPEN_CANDIDATES {
            return Err(invalid(&format!(
                "at most {MAX_OPEN_CANDIDATES} live candidates may be open at once in one verification"
            )));
        }
        let seed = self.ext.seed;
        let dir = self.ext.candidate_dir.clone();
        let live = self.waiting(|_| {
            let runners = services.runners();
            let limits = runners.limits_for(&language, &limits);
            let mounts: Vec<Mount<'_>> = dir
                .iter()
                .map(|dir| Mount {
                    host: &dir.0,
                    guest: &dir.1,
                    writable: false,
                    budget: None,
                })
                .collect();
            match live_runtime(runners, &language) {
                Ok(python) => LiveCandidate::open_with_files(
                    &python,
                    runners.engine(),
                    &source,
                    &filename,
                    &limits,
                    seed,
                    &mounts,
                ),
                Err(message) => Err(invalid(&message)),
            }
        });
        if let Err(types::CallError::Ended(outcome)) = &live {
            self.note(outcome);
        }
        let live = live?;
        let resource = self
            .table()
            .push(live)
            .map_err(|e| invalid(&format!("the host could not hold another candidate: {e}")))?;
        self.ext.open_candidates += 1;
        Ok(resource)
    }

    fn members(&mut self, candidate: Resource<LiveCandidate>) -> Vec<types::Member> {
        self.live(&candidate)
            .map(|live| live.members().to_vec())
            .unwrap_or_default()
    }

    fn call(
        &mut self,
        candidate: Resource<LiveCandidate>,
        target: types::Target,
        args: String,
        kwargs: String,
    ) -> Result<String, types::CallError> {
        let result = self.with_live(&candidate, |live| live.call(&target, &args, &kwargs));
        self.handed(call_bytes(&result));
        result
    }

    fn get(
        &mut self,
        candidate: Resource<LiveCandidate>,
        target: types::Target,
    ) -> Result<String, types::CallError> {
        let result = self.with_live(&candidate, |live| live.get(&target));
        self.handed(call_bytes(&result));
        result
    }

    fn take_output(&mut self, candidate: Resource<LiveCandidate>) -> types::Output {
        let output = self
            .live(&candidate)
            .map(LiveCandidate::take_output)
            .unwrap_or(types::Output {
                stdout: String::new(),
                stderr: String::new(),
            });
        self.handed(output.stdout.len() + output.stderr.len());
        output
    }

    fn fuel_used(&mut self, candidate: Resource<LiveCandidate>) -> u64 {
        self.live(&candidate).map_or(0, |live| live.fuel_used())
    }

    fn drop(&mut self, candidate: Resource<LiveCandidate>) -> wasmtime::Result<()> {
        self.table().delete(candidate)?;
        self.ext.open_candidates = self.ext.open_candidates.saturating_sub(1);
        Ok(())
    }
}

/// The runtime a live candidate in `language` runs in: only Python candidates can be held live.
pub(crate) fn live_runtime(
    runners: &crate::runners::Runners,
    language: &str,
) -> Result<Arc<crate::runners::python::PythonRunner>, String> {
    match rewardbox_toolchains::Language::parse(language) {
        Some(rewardbox_toolchains::Language::Python) => runners.python(),
        Some(other) => Err(format!(
            "a {} candidate cannot be held live: only Python candidates can",
            other.name()
        )),
        None => Err(format!(
            "no runner for language {language:?} (rewardbox runs {})",
            crate::runners::languages().join(", ")
        )),
    }
}
