//! Test-only helper: the guest components of the test suite.
//!
//! Paths of the guest components the test suite uses, built by this crate's build script.

#![deny(missing_docs)]

/// The hostile verifier component (`tests/guests/hostile`): misbehaves as its task's `"attack"` asks.
pub const HOSTILE_VERIFIER: &str = env!("HOSTILE_VERIFIER_WASM");
