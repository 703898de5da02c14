//! The one trait every candidate runtime implements.

use crate::runners::bindings::types::RunOutcome;
use rewardbox_sandbox::job::JobIo;
use rewardbox_sandbox::limits::Limits;
use wasmtime::Engine;

/// A candidate runtime: runs a program on stdin, or calls one of its functions on JSON arguments,
/// each time in a fresh instance with `limits`.
pub trait Runtime: Send + Sync {
    /// Runs `source` with `stdin`.
    fn run(
        &self,
        engine: &Engine,
        source: &str,
        stdin: &str,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome {
        self.run_with(engine, source, JobIo::stdin(stdin.as_bytes()), limits, seed)
    }

    /// Runs `source` with what `io` gives it: standard input or a pipe, command-line arguments
    /// (`io.args`, the program's name first) and directories. A runtime that cannot give a
    /// program one of these answers an `unsupported` outcome saying which.
    fn run_with(
        &self,
        engine: &Engine,
        source: &str,
        io: JobIo<'_>,
        limits: &Limits,
        seed: u64,
    ) -> RunOutcome;

    /// Executes `source` once and calls `entry` on each JSON argument list: each result is the
    /// canonical JSON of the value returned, or the outcome that ended the call.
    fn call(
        &self,
        engine: &Engine,
        source: &str,
        entry: &str,
        args_json: &[String],
        limits: &Limits,
        seed: u64,
    ) -> Vec<Result<String, RunOutcome>>;
}
