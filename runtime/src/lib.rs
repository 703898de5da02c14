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
//! Where things live: the engine and its epoch ticker in [`engine`], the compiled-component cache
//! in [`cache`], one job's store and every limit's enforcement in [`sandbox`], the limits and
//! their defaults in [`limits`], the result taxonomy in [`verdict`], the parallel fan-out in
//! [`batch`], and streaming JSONL in [`jsonl`].

pub mod batch;
pub mod bindings;
pub mod builtin;
pub mod cache;
pub mod capture;
pub mod compiled;
pub mod deepgym;
pub mod engine;
pub mod host;
pub mod input;
pub mod javascript;
pub mod jsonl;
pub mod limits;
pub mod live;
pub mod memo;
pub mod python;
pub mod registry;
pub mod runner;
pub mod sandbox;
pub mod scorer;
pub mod sleep;
pub mod task;
pub mod verdict;
pub mod verifier;
pub mod workers;

pub use batch::InputLine;
pub use cache::ComponentCache;
pub use limits::{LimitOverrides, Limits};
pub use scorer::{Scorer, ScorerOptions, VerifierPaths};
pub use task::{Task, TaskError};
pub use verdict::{CaseResult, CaseStatus, CompletionResult, Status, TaskResult};
