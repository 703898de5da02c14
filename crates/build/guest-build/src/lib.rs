//! Build-only helper: builds WebAssembly guests from build scripts.
//!
//! Builds rewardbox's WebAssembly guests from a build script.
//!
//! The built-in verifiers and the test guests are Rust crates compiled for `wasm32-wasip2`, whose
//! output is a component. A build script calls [`build_components`] so that `cargo build` stays the
//! one build command, the way wasmtime's `crates/test-programs/artifacts` builds its test programs.

#![deny(missing_docs)]

mod fingerprint;
mod immortalize;

pub use fingerprint::{fingerprint, immortalize_revision};
pub use immortalize::{Immortalized, immortalize};

use std::path::{Path, PathBuf};
use std::process::Command;

/// The target every guest is compiled for. Rust binaries for it are components.
pub const WASM_TARGET: &str = "wasm32-wasip2";

/// Builds `packages` of the cargo workspace at `workspace` for [`WASM_TARGET`] in release mode,
/// into `target_dir`, and returns the path of each package's component, in order.
///
/// Prints `cargo:rerun-if-changed` lines for the workspace's manifests and each package's folder,
/// and for every extra path in `also_watch` (the WIT folder, typically).
///
/// # Panics
///
/// Panics with a message that says what to do when cargo fails, most often because the
/// `wasm32-wasip2` target is not installed. Panicking is how a build script reports failure.
pub fn build_components(
    workspace: &Path,
    packages: &[&str],
    target_dir: &Path,
    also_watch: &[&Path],
) -> Vec<PathBuf> {
    build_components_with(workspace, packages, target_dir, also_watch, &[])
}

/// [`build_components`], passing `cargo build` the extra `cargo_args` (`--ignore-rust-version`
/// for a dependency that declares a newer Rust than it needs).
pub fn build_components_with(
    workspace: &Path,
    packages: &[&str],
    target_dir: &Path,
    also_watch: &[&Path],
    cargo_args: &[&str],
) -> Vec<PathBuf> {
    watch(&workspace.join("Cargo.toml"));
    watch(&workspace.join("Cargo.lock"));
    for path in also_watch {
        watch(path);
    }

    let mut cargo = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()));
    cargo
        .arg("build")
        .arg("--release")
        .arg("--locked")
        .arg("--target")
        .arg(WASM_TARGET)
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", target_dir)
        // Flags meant for the host build must not leak into the wasm build.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .env_remove("CARGO_PROFILE_RELEASE_DEBUG");
    for package in packages {
        cargo.arg("--package").arg(package);
    }
    cargo.args(cargo_args);
    let status = cargo
        .status()
        .unwrap_or_else(|e| panic!("could not start cargo to build the wasm guests: {e}"));
    if !status.success() {
        panic!(
            "building the wasm guests in {} failed (see the cargo output above). If it says the \
             `{WASM_TARGET}` target may not be installed, run `rustup target add {WASM_TARGET}` \
             (the README's setup command does this).",
            workspace.display()
        );
    }

    packages
        .iter()
        .map(|package| {
            watch(&package_dir(workspace, package));
            let file = format!("{}.wasm", package.replace('-', "_"));
            let path = target_dir.join(WASM_TARGET).join("release").join(file);
            assert!(
                path.exists(),
                "cargo reported success but {} is missing",
                path.display()
            );
            path
        })
        .collect()
}

/// A directory for guest builds that survives `cargo clean -p` of the host crate: a sibling of the
/// host's profile directories inside the cargo target directory that `out_dir` lives in.
pub fn guest_target_dir(out_dir: &Path, name: &str) -> PathBuf {
    // OUT_DIR is <target>[/<triple>]/<profile>/build/<crate>-<hash>/out.
    let target = out_dir.ancestors().nth(4).unwrap_or(out_dir);
    target.join("wasm-guests").join(name)
}

/// The directory of `package` inside `workspace`, by the convention that a package named
/// `prefix-...-last` lives in a folder named after its last dash-separated word, or its whole name.
fn package_dir(workspace: &Path, package: &str) -> PathBuf {
    let whole = workspace.join(package);
    if whole.is_dir() {
        return whole;
    }
    let last = package.rsplit('-').next().unwrap_or(package);
    let member = workspace.join(last);
    if member.is_dir() {
        return member;
    }
    // A workspace that is itself the package (guests/js).
    workspace.to_path_buf()
}

fn watch(path: &Path) {
    println!("cargo:rerun-if-changed={}", path.display());
}
