//! Host bindings generated from `wit/`: the `verifier` world and the types it shares with guests.

wasmtime::component::bindgen!({
    path: "../wit",
    world: "verifier",
});

pub use self::rewardbox::core::sandbox;
pub use self::rewardbox::core::types;
