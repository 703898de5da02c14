//! Compiles the built-in verifiers to wasm32-wasip2 components and hands their paths to the crate,
//! which embeds them (`src/builtin.rs`), so that a user never passes their paths.

use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest_dir
        .parent()
        .expect("the runtime crate lives inside the workspace");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let target_dir = guest_build::guest_target_dir(&out_dir, "verifiers");
    let wit: &Path = &root.join("wit");
    let built = guest_build::build_components(
        &root.join("verifiers"),
        &["rewardbox-verifier-match", "rewardbox-verifier-math"],
        &target_dir,
        &[wit, &root.join("verifiers/guest-common")],
    );
    println!(
        "cargo:rustc-env=REWARDBOX_VERIFIER_MATCH_WASM={}",
        built[0].display()
    );
    println!(
        "cargo:rustc-env=REWARDBOX_VERIFIER_MATH_WASM={}",
        built[1].display()
    );
}
