//! Host bindings generated from `wit/`: the `verifier` world, the `python` world (the CPython
//! component: a candidate runtime and the runtime of Python verifiers), and the types they share.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "verifier",
    with: {
        "rewardbox:core/sandbox.candidate": crate::live::LiveCandidate,
    },
});

pub use self::rewardbox::core::sandbox;
pub use self::rewardbox::core::types;

/// The `python` world: the CPython component, built with componentize-py from `guests/python`.
pub mod python {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "python",
        with: {
            "rewardbox:core/types": super::rewardbox::core::types,
            "rewardbox:core/sandbox": super::rewardbox::core::sandbox,
        },
    });
}

/// The `runner` world: a candidate runtime without the trusted side (the JavaScript runner,
/// `guests/js`).
pub mod runner {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "runner",
        with: {
            "rewardbox:core/types": super::rewardbox::core::types,
        },
    });
}
