//! Floor 1 of rewardbox: the sandbox core, which knows only wasmtime.
//!
//! The bottom layer of the engine (`rewardbox`), a crate of its own so that it builds without the
//! built-in components and recompiles only when it changes.
//!
//! Once per process, the [`engine`] (pooling allocator, fuel, epoch interruption, its ticker
//! thread) and the compiled-component [`cache`]; once per job, a [`job::Job`]: a fresh store with
//! its [`limits`] (fuel, wall clock, memory, output), captured and capped output, fake clocks,
//! the host heap trimmed once jobs stop starting, the guest's CPU time (which tells a program that
//! used its wall clock from a host that starved it), sleeps that end with the job's wall clock
//! ([`sleep`]), and the host directories a guest may see, with a byte budget on those it writes
//! ([`workspace`]). Every limit is enforced here, and a failed run is classified here.
//!
//! The layers above see the modules they build on; the job's parts (`capture`, `clocks`, `cpu`,
//! `heap`, `memory`, `function_cache`) are private to it.
//!
//! The layers above keep what they need in the store through the job's extension slot
//! ([`job::JobState::ext`]): the candidate runners put nothing there, the host's `sandbox`
//! interface its context. Nothing in this layer names a runner, a verifier or the host interface.

#![deny(missing_docs)]

pub mod cache;
pub mod cancel;
mod capture;
pub mod channels;
mod clocks;
mod cpu;
pub mod engine;
mod function_cache;
mod heap;
pub mod job;
pub mod limits;
mod memory;
pub mod pipe;
pub mod sleep;
pub mod stack;
pub mod workspace;

pub use job::{
    INSTANTIATION_TRIES, Job, JobState, Mount, RunFailure, at_instantiation, instantiate_retrying,
};
pub use memory::MAX_CREDITED_LIMIT;
