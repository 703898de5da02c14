//! Floor 1 of rewardbox: the built-in components, built and embedded.
//!
//! This crate's build script compiles the built-in verifiers (`verifiers/`: `match`, `math`,
//! `code`) and the candidate runtimes (`guests/`: the JavaScript runner, the Monty runner, and the
//! CPython runner when componentize-py is installed) to WebAssembly components, and this library
//! holds their bytes. The engine (`rewardbox`) embeds them from here, so that its own code
//! recompiles without rebuilding a guest, and a user never passes a component's path.

#![deny(missing_docs)]

/// The string verifiers' component (`exact`, `normalized`, `numeric`, `regex`, `choice`).
pub static VERIFIER_MATCH: &[u8] = include_bytes!(env!("REWARDBOX_VERIFIER_MATCH_WASM"));

/// The `math` verifier's component.
pub static VERIFIER_MATH: &[u8] = include_bytes!(env!("REWARDBOX_VERIFIER_MATH_WASM"));

/// The `code` verifier's component.
pub static VERIFIER_CODE: &[u8] = include_bytes!(env!("REWARDBOX_VERIFIER_CODE_WASM"));

/// The JavaScript runner (the Boa engine; TypeScript's types stripped inside it).
pub static JS_RUNNER: &[u8] = include_bytes!(env!("REWARDBOX_JS_RUNNER_WASM"));

/// The Monty runner (Python's fast tier).
pub static MONTY_RUNNER: &[u8] = include_bytes!(env!("REWARDBOX_MONTY_RUNNER_WASM"));

/// The CPython runner, when this build has one (componentize-py was installed).
#[cfg(rewardbox_python_runner)]
pub static PYTHON_RUNNER: Option<&[u8]> =
    Some(include_bytes!(env!("REWARDBOX_PYTHON_RUNNER_WASM")));
/// The CPython runner, when this build has one: this one was built without componentize-py
/// (run `scripts/setup.sh`, which installs it, then rebuild).
#[cfg(not(rewardbox_python_runner))]
pub static PYTHON_RUNNER: Option<&[u8]> = None;

/// The CPython runner with pytest in its snapshot (the trusted runtime of `tests.pytest`), when
/// this build has one (componentize-py and pytest's packages were installed).
#[cfg(rewardbox_python_frameworks)]
pub static PYTHON_FRAMEWORKS: Option<&[u8]> =
    Some(include_bytes!(env!("REWARDBOX_PYTHON_FRAMEWORKS_WASM")));
/// The CPython runner with pytest in its snapshot: this build has none (run
/// `scripts/python-tools.sh`, which installs pytest's pinned packages, then rebuild).
#[cfg(not(rewardbox_python_frameworks))]
pub static PYTHON_FRAMEWORKS: Option<&[u8]> = None;
