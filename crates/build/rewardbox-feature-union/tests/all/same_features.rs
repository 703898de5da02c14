//! The Python extension is built alone (by maturin) and the rest of the workspace together (by
//! `cargo build` and `cargo test`). Every dependency of the extension must resolve to the same
//! features in both, or Cargo compiles it, and everything above it (wasmtime, cranelift), twice.

use std::collections::BTreeSet;
use std::process::Command;

/// Each package `cargo tree` resolves for `selection`, with its features: `name vX.Y.Z f1,f2`.
fn resolved(selection: &[&str]) -> BTreeSet<String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let workspace = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../Cargo.toml");
    let output = Command::new(cargo)
        .args(["tree", "--locked", "--manifest-path", workspace])
        .args(selection)
        .args(["-e", "normal,build", "--prefix", "none", "-f", "{p} {f}"])
        .output()
        .expect("running cargo tree");
    assert!(
        output.status.success(),
        "cargo tree failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|line| line.replace(" (*)", "").replace(" (proc-macro)", ""))
        .filter(|line| !line.starts_with("rewardbox"))
        .collect()
}

#[test]
fn the_python_extension_resolves_its_dependencies_as_the_workspace_does() {
    let workspace = resolved(&["--workspace"]);
    let python = resolved(&["-p", "rewardbox-python"]);
    let drift: Vec<&String> = python.difference(&workspace).collect();
    assert!(
        !python.is_empty() && drift.is_empty(),
        "these dependencies of the Python extension get other features than in the workspace \
         build, so maturin would compile them (and wasmtime above them) again; add the \
         workspace's features (`cargo tree --workspace -e features -i <crate>`) to \
         crates/build/rewardbox-feature-union/Cargo.toml:\n{drift:#?}"
    );
}
