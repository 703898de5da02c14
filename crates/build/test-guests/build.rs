//! Compiles the test guests (`tests/guests`) to components and hands their paths to the crate.

use std::path::PathBuf;

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest_dir.join("../../..");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let target_dir = guest_build::guest_target_dir(&out_dir, "test-guests");
    let built = guest_build::build_components(
        &root.join("tests/guests"),
        &["hostile-verifier"],
        &target_dir,
        &[&root.join("wit")],
    );
    println!(
        "cargo:rustc-env=HOSTILE_VERIFIER_WASM={}",
        built[0].display()
    );
}
