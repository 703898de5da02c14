//! Bindings of the worlds the host serves to trusted instances: the `verifier` world (a verifier
//! component, which imports the host's `sandbox` interface) and the `python` world (the CPython
//! component as the trusted runtime of Python verifiers). The shared `types` are the runners'.

// Generated from the WIT: its records' fields carry the WIT's documentation where it has any.
#![allow(missing_docs)]

wasmtime::component::bindgen!({
    path: "../../wit",
    world: "verifier",
    with: {
        "rewardbox:core/types": crate::runners::bindings::types,
        "rewardbox:core/sandbox.candidate": crate::host::live::LiveCandidate,
    },
});

pub use self::rewardbox::core::sandbox;
pub use crate::runners::bindings::types;

/// The `python` world: the CPython component, built with componentize-py from `guests/python`.
pub mod python {
    wasmtime::component::bindgen!({
        path: "../../wit",
        world: "python",
        with: {
            "rewardbox:core/types": crate::runners::bindings::types,
            "rewardbox:core/sandbox": super::rewardbox::core::sandbox,
        },
    });
}
