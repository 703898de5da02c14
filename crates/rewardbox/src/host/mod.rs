//! The host's `sandbox` interface and live candidates: what trusted instances (verifier
//! components, Python verifiers, an episode's scripts) are offered beyond WASI.
//!
//! A trusted instance runs in a job whose store carries a [`HostContext`] ([`context`]); through
//! it, the `sandbox` interface ([`interface`]) runs candidate programs with the runners below,
//! holds candidates live ([`live`]) for the length of one verification, and runs Python
//! verifiers in trusted instances of their own ([`python_verifier`]). [`HostServices`]
//! ([`services`]) is what a process sets up once for all of that.
//!
//! This layer sits on the runners and the sandbox core; the scorer above it uses it.

pub mod asserts_plan;
pub mod bindings;
pub mod context;
pub mod interface;
pub mod live;
pub mod planned_asserts;
pub mod python_verifier;
pub mod services;

pub use context::{HostState, INSTANCES_PER_THREAD};
pub use services::HostServices;
