//! What a trusted instance's store carries for its `sandbox` calls ([`HostContext`]), and the view
//! of the services behind it ([`Services`]): the interface asks the services for runners and
//! Python verifications without knowing how they are set up.

use crate::runners::Runners;
use crate::runners::bindings::types::{self, PythonMode, Verdict, VerifyError};
use rewardbox_sandbox::JobState;
use std::sync::Arc;

/// Live candidates one job may hold open at once.
pub const MAX_OPEN_CANDIDATES: usize = 4;

/// Component instances one scoring thread may hold at once: a verifier, a Python verifier it runs,
/// the live candidates that one opens, and the runs they make.
pub const INSTANCES_PER_THREAD: u32 = 2 + MAX_OPEN_CANDIDATES as u32 + 2;

/// The store state of a trusted instance: the sandbox core's, with the host's context.
pub type HostState = JobState<HostContext>;

/// How a Python verifier's run ended when it gave no verdict: it said why (`Err(VerifyError)`),
/// or its instance failed (a limit, a trap), described.
pub type PythonVerdict = Result<Verdict, VerifyError>;

/// What serves a trusted instance's `sandbox` calls.
pub trait Services: Send + Sync {
    /// The runners of candidate programs.
    fn runners(&self) -> &Arc<Runners>;

    /// Runs the Python verifier `source`, read as `mode`, on `completion` of `task` in a trusted
    /// instance of its own with `limits` (unset ones: the services' defaults), seeded with `seed`.
    fn python_verify(
        &self,
        mode: PythonMode,
        source: &str,
        task: &str,
        completion: &str,
        limits: &types::Limits,
        seed: u64,
    ) -> PythonVerdict;
}

/// What a trusted instance's store carries: the services its `sandbox` calls use (none: every
/// call is refused), the seed of its candidates, and how many live candidates it holds.
#[derive(Clone, Default)]
pub struct HostContext {
    pub(crate) services: Option<Arc<dyn Services>>,
    pub(crate) seed: u64,
    pub(crate) open_candidates: usize,
    /// Why the host failed a run this instance asked for (a host too busy to run a candidate, a
    /// language it cannot run, a nested verification that failed), if it did: whatever the
    /// instance concludes from such a run, its verdict is the host's failure, masked, and never
    /// the candidate's score.
    pub(crate) host_fault: Option<String>,
    /// A host directory the live candidates this instance opens see read-only, and where (an
    /// episode's workspace, from which the agent's code imports its other files).
    pub(crate) candidate_dir: Option<Arc<(std::path::PathBuf, String)>>,
    /// Where the programs this instance runs (`sandbox.run`) are written down, when its task is
    /// being recorded (see [`crate::host::HostServices::record_runs`]).
    pub(crate) recording: Option<Arc<std::sync::Mutex<Vec<RecordedRun>>>>,
}

/// One program a trusted instance ran through `sandbox.run`: what it ran and on what input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRun {
    /// The program's language, as the instance named it.
    pub language: String,
    /// The program's source.
    pub source: String,
    /// Its standard input.
    pub stdin: String,
}

impl HostContext {
    /// A context whose `sandbox` calls use `services`, its candidates seeded with `seed`.
    pub fn new(services: Arc<dyn Services>, seed: u64) -> Self {
        HostContext {
            services: Some(services),
            seed,
            open_candidates: 0,
            host_fault: None,
            candidate_dir: None,
            recording: None,
        }
    }

    /// This context, its live candidates seeing the host directory `host` read-only at `guest`.
    pub fn with_candidate_dir(mut self, host: std::path::PathBuf, guest: &str) -> Self {
        self.candidate_dir = Some(Arc::new((host, guest.to_string())));
        self
    }

    /// Why the host failed a run this instance asked for, if it did (see the field's doc).
    pub fn host_fault(&self) -> Option<&str> {
        self.host_fault.as_deref()
    }
}
