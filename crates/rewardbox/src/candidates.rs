//! Candidate programs run outside a verifier: what the server's `/run_code` and OpenEnv coding
//! environments, the multi-turn environments, Kattis timing and Tier 5's judge use.
//!
//! [`Runners`] holds the runtimes (CPython, Monty, JavaScript, the compiled languages) and runs a
//! program in a fresh sandbox ([`Runtime::run`]) or calls its entry point; [`LiveCandidate`]
//! keeps one instance alive between calls; [`interact`] runs two programs talking to each other.
//! The records they hand back are those of the WIT `runner` interface ([`RunOutcome`],
//! [`RunStatus`], ...), as a verifier sees them. Limits: [`CANDIDATE_DEFAULT`], or a time limit
//! in seconds turned into fuel at a runner's calibrated rate ([`limits_for_seconds`]). The
//! programs a verifier runs while judging one task can be written down
//! ([`HostServices::record_runs`], [`RecordedRun`]).

pub use crate::host::HostServices;
pub use crate::host::context::RecordedRun;
pub use crate::host::live::LiveCandidate;
pub use crate::host::services::RunRecording;
pub use crate::runners::bindings::types::{
    CallError, File, Invocation, Output, RunOutcome, RunStatus, Target,
};
pub use crate::runners::interactive::{KATTIS_ACCEPTED, Party, TESTLIB_ACCEPTED, interact};
pub use crate::runners::javascript::{JS_RUNNER_WASM, JavaScriptRunner};
pub use crate::runners::python::{PythonRunner, program_in};
pub use crate::runners::python_engine::{
    CPYTHON_FUEL_PER_MONTY_FUEL, MONTY_FUEL_CAP, monty_limits,
};
pub use crate::runners::runner_component::RunnerComponent;
pub use crate::runners::time_limit::{fuel_rate, limits_for_seconds};
pub use crate::runners::{CANDIDATE_DEFAULT, Runners, Runtime};
