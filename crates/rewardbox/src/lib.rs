//! Floor 2 of rewardbox: the engine (sandbox, runners, host services, scoring).
//!
//! rewardbox scores LLM completions for reinforcement learning and evaluation. Verifiers run as
//! WebAssembly components under wasmtime, each completion in a fresh sandbox with fuel, memory,
//! wall-clock and output limits, in parallel, in-process.
//!
//! ```no_run
//! use rewardbox::{Scorer, ScorerOptions, Task};
//!
//! let scorer = Scorer::new(ScorerOptions::default())?;
//! let task = Task::from_json_line(
//!     r#"{"id": "q17", "verifier": "numeric", "reference": "391", "completions": ["391", "400"]}"#,
//! ).map_err(|e| anyhow::anyhow!(e.message))?;
//! let result = scorer.score_task(&task);
//! assert_eq!(result.results[0].score, 1.0);
//! # Ok::<(), anyhow::Error>(())
//! ```
//!
//! # The face
//!
//! Scoring is at the crate root ([`Scorer`], [`Task`], the results of `rewardbox-types`
//! re-exported); streaming JSONL and worker processes are in [`stream`]; running candidate
//! programs outside a verifier (the server's `/run_code`, environments, contest timing) is in
//! [`candidates`]; the machinery all of them run on, built one way, is in [`sandboxes`]; the
//! group-relative [`advantages`] trainers weight results by have a module of their own. Nothing
//! else is public: the layers below are private.
//!
//! # Layers
//!
//! The engine is built in four layers; each uses only the ones below it
//! (`crates/rewardbox/tests/all/layers.rs` checks it).
//!
//! 1. The sandbox core, a crate of its own (`rewardbox-sandbox`): engine, compiled-component
//!    cache, one job's store, limits, output capture, clocks, sleeps. Knows only wasmtime.
//! 2. `runners`: the candidate runtimes (CPython, Monty, JavaScript, compiled languages) behind
//!    one trait; `run` and `call` in fresh sandboxes.
//! 3. `host`: what trusted instances are offered, the `sandbox` interface of `wit/`: candidate
//!    runs, live candidates, Python verifiers.
//! 4. The scorer, at the crate root: tasks (`task`), verifiers (`verifier`, `registry`,
//!    `builtin`), the parallel fan-out (`batch`), streaming JSONL (`jsonl`, `input`), worker
//!    processes (`workers`), and the builder of the machinery ([`sandboxes`]).

#![deny(missing_docs)]

mod host;
mod runners;

mod batch;
mod builtin;
mod input;
mod jsonl;
mod registry;
mod scorer;
mod task;
mod verifier;
mod workers;

pub mod advantages;
pub mod candidates;
pub mod sandboxes;
pub mod stream;

pub use batch::InputLine;
pub use builtin::{BUILTINS, Builtin};
pub use registry::{MAX_LOADED_SOURCES, VerifierPaths};
pub use rewardbox_languages::PythonEngine;
pub use rewardbox_sandbox::cache::ComponentCache;
pub use rewardbox_sandbox::limits::{LimitOverrides, Limits, MAX_MEMORY_MB};
pub use rewardbox_types::{
    CaseResult, CaseStatus, CompletionResult, Status, TaskResult, says_host_busy,
};
pub use sandboxes::{Sandboxes, SandboxesBuilder};
pub use scorer::{Scorer, ScorerOptions, precompile};
pub use task::{Task, TaskError};
