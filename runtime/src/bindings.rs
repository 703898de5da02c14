//! Host bindings generated from `wit/`: the `verifier` world, the `runner` world, and the types
//! they share with guests.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "verifier",
});

pub use self::rewardbox::core::sandbox;
pub use self::rewardbox::core::types;

/// The `runner` world: a candidate-program runtime (the CPython runner).
pub mod runner {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "runner",
        with: {
            "rewardbox:core/types": super::rewardbox::core::types,
        },
    });
}
