//! What the host offers verifier components beyond WASI: the `sandbox` interface, through which a
//! verifier asks for a candidate program to be run in a fresh sandbox of its own.

use crate::bindings::{sandbox, types};
use crate::sandbox::JobState;

/// Host-side context a verifier's job carries for its `sandbox` calls.
#[derive(Clone, Default)]
pub struct HostContext {
    _private: (),
}

/// Every language a candidate may be written in, with the runtime that runs it. This build has
/// none yet: a verifier asking for one gets a `crashed` outcome that says so.
pub const LANGUAGES: &[&str] = &[];

fn unsupported(language: &str) -> types::RunOutcome {
    types::RunOutcome {
        status: types::RunStatus::Crashed,
        exit_code: None,
        stdout: String::new(),
        stderr: format!(
            "rewardbox: no runner for language {language:?} in this build (available: {})",
            if LANGUAGES.is_empty() {
                "none".to_string()
            } else {
                LANGUAGES.join(", ")
            }
        ),
        fuel_used: 0,
    }
}

impl types::Host for JobState {}

impl sandbox::Host for JobState {
    fn run(
        &mut self,
        language: String,
        _source: String,
        _stdin: String,
        _limits: types::Limits,
    ) -> types::RunOutcome {
        unsupported(&language)
    }

    fn call(
        &mut self,
        language: String,
        _source: String,
        _entry: String,
        args_json: Vec<String>,
        _limits: types::Limits,
    ) -> Vec<Result<String, types::RunOutcome>> {
        args_json
            .iter()
            .map(|_| Err(unsupported(&language)))
            .collect()
    }
}
