//! Records where `scripts/setup.sh` installed zig (the ziglang package in the project's `.venv`),
//! so that a binary built here finds it without `REWARDBOX_ZIG` or zig on `PATH`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let lib = manifest.join("../../.venv/lib");
    println!("cargo:rerun-if-changed={}", lib.display());
    let Ok(entries) = std::fs::read_dir(&lib) else {
        return;
    };
    for entry in entries.flatten() {
        let zig = entry.path().join("site-packages/ziglang/zig");
        println!("cargo:rerun-if-changed={}", zig.display());
        if let Ok(zig) = zig.canonicalize() {
            println!("cargo:rustc-env=REWARDBOX_ZIG_HINT={}", zig.display());
            return;
        }
    }
}
