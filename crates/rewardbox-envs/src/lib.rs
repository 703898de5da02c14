//! Floor 3 of rewardbox: multi-turn environments.
//!
//! Multi-turn environments in persistent sandboxes.
//!
//! An [`Environments`] loads CodeGym environment files from a directory and holds [`Session`]s:
//! each a sandboxed CPython instance (a live candidate of the runtime) that persists across
//! steps, with a fresh fuel and wall-clock budget per step, a memory limit per session, an idle
//! time-to-live and a cap on live sessions; a [`Repl`] is a Python interpreter held the same way,
//! whose cells share one namespace. The CLI (`rewardbox env check`, `rewardbox env run`),
//! the Python package and the server all use this API.
//!
//! ```no_run
//! use rewardbox_envs::{EnvOptions, Environments};
//!
//! let envs = Environments::new(EnvOptions::new("codegym_envs"))?;
//! let session = envs.start(None, "codegym_v1@Leetcode_1_I__CountEnv@{\"n\": 3}")?;
//! let step = session.step(r#"{"name": "Done", "parameters": {"answer": 3}}"#)?;
//! println!("{} {} {}", step.observation, session.done()?, session.reward()?);
//! session.close();
//! # Ok::<(), anyhow::Error>(())
//! ```

#![deny(missing_docs)]

mod budget;
pub mod check;
mod env_str;
mod environments;
mod episode;
mod error;
mod repl;
pub mod replay;
mod session;
mod value;

pub use budget::{Amount, Budgets, Hold};
pub use environments::{EnvOptions, Environments, SessionSlot, env_file, new_id};
pub use episode::{Episode, EpisodeSpec, EpisodeStep, EpisodeVerdict};
pub use error::EnvError;
pub use repl::{CellOutcome, Repl};
pub use session::{STATUSES as SESSION_STATUSES, Session, StepResult};
