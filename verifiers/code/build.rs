//! Links the component with 8 MiB of initial linear memory. wasi-libc's allocator serves the heap
//! from the initial memory first, so a verifier never needs `memory.grow`; each growth would cost
//! the host two `mprotect` calls per completion (grow, then reset when the slot is reused), and
//! `mprotect` takes a lock shared by all threads. Untouched pages cost nothing: the pooling
//! allocator maps them copy-on-write. Host builds (the unit tests) are left alone.
fn main() {
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=--initial-memory=8388608");
    }
}
