//! Bindings of the `runner` world of `wit/` (a candidate runtime: run a program, call its
//! functions, hold it live), and the `types` every layer above shares.

// Generated from the WIT: its records' fields carry the WIT's documentation where it has any.
#![allow(missing_docs)]

wasmtime::component::bindgen!({
    path: "../../wit",
    world: "runner",
});

pub use self::rewardbox::core::types;
