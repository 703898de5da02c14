//! Floor 4 of rewardbox (a build-time shim of the Python extension): one set of features.
//!
//! No code. This crate only turns on, in the build of the Python extension, the features that the
//! rest of the workspace turns on in shared dependencies, so that wasmtime is compiled once for the
//! CLI and the extension (see its `Cargo.toml`).

#![deny(missing_docs)]
