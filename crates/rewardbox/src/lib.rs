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
//! # Layers
//!
//! The runtime is built in four layers; each uses only the ones below it.
//!
//! 1. [`sandbox`], the sandbox core: engine, compiled-component cache, one job's store, limits,
//!    output capture, clocks, sleeps. Knows only wasmtime.
//! 2. [`runners`]: the candidate runtimes (CPython, JavaScript, compiled languages) behind one
//!    trait; `run` and `call` in fresh sandboxes.
//! 3. [`host`]: what trusted instances are offered, the `sandbox` interface of `wit/`: candidate
//!    runs, live candidates, Python verifiers.
//! 4. The scorer, at the crate root: tasks ([`task`]), verifiers ([`verifier`], [`registry`],
//!    [`builtin`]), the parallel fan-out ([`batch`]), streaming JSONL ([`jsonl`], [`input`]),
//!    worker processes ([`workers`]), results ([`rewardbox_types`]), and the group-relative
//!    [`advantages`] trainers weight them by.

pub mod host;
pub mod runners;
pub mod sandbox;

pub mod advantages;
pub mod batch;
pub mod builtin;
pub mod input;
pub mod jsonl;
pub mod registry;
pub mod scorer;
pub mod task;
pub mod verifier;
pub mod workers;

pub use batch::InputLine;
pub use registry::VerifierPaths;
pub use rewardbox_languages::PythonEngine;
pub use rewardbox_types::{CaseResult, CaseStatus, CompletionResult, Status, TaskResult};
pub use sandbox::cache::ComponentCache;
pub use sandbox::limits::{LimitOverrides, Limits};
pub use scorer::{Scorer, ScorerOptions, precompile};
pub use task::{Task, TaskError};
