//! Compiles the built-in verifiers and the candidate runtimes to wasm32-wasip2 components and hands
//! their paths to the crate, which embeds them (`src/lib.rs`), so that a user never passes their
//! paths.

use std::path::{Path, PathBuf};

fn main() {
    let manifest_dir = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest_dir
        .ancestors()
        .nth(2)
        .expect("this crate lives in crates/ of the workspace");
    let out_dir = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo"));
    let target_dir = guest_build::guest_target_dir(&out_dir, "verifiers");
    let wit: &Path = &root.join("wit");
    let built = guest_build::build_components(
        &root.join("verifiers"),
        &[
            "rewardbox-verifier-match",
            "rewardbox-verifier-math",
            "rewardbox-verifier-code",
        ],
        &target_dir,
        // The host crates the verifiers are built from too (the language table and fence
        // finder, the statuses): a change there must rebuild the verifiers.
        &[
            wit,
            &root.join("verifiers/guest-common"),
            &root.join("crates/rewardbox-languages"),
            &root.join("crates/rewardbox-types"),
        ],
    );
    println!(
        "cargo:rustc-env=REWARDBOX_VERIFIER_MATCH_WASM={}",
        built[0].display()
    );
    println!(
        "cargo:rustc-env=REWARDBOX_VERIFIER_MATH_WASM={}",
        built[1].display()
    );
    println!(
        "cargo:rustc-env=REWARDBOX_VERIFIER_CODE_WASM={}",
        built[2].display()
    );
    build_python_runner(root, &out_dir);
    // The JavaScript runner: the Boa engine as a `runner` component (guests/js).
    let js = guest_build::build_components(
        &root.join("guests/js"),
        &["rewardbox-js-runner"],
        &guest_build::guest_target_dir(&out_dir, "js"),
        // The language table's crate, which holds the markers the runner acts on, and the
        // TypeScript stripper the runner runs.
        &[
            wit,
            &root.join("crates/rewardbox-languages"),
            &root.join("crates/rewardbox-ts-strip/src"),
            &root.join("crates/rewardbox-ts-strip/Cargo.toml"),
        ],
    );
    println!(
        "cargo:rustc-env=REWARDBOX_JS_RUNNER_WASM={}",
        js[0].display()
    );
    // The Monty runner: the fast tier of Python programs run on stdin/stdout (guests/monty).
    // Monty 1.4 declares Rust 1.96 and builds unchanged with this workspace's 1.95.
    let monty = guest_build::build_components_with(
        &root.join("guests/monty"),
        &["rewardbox-monty-runner"],
        &guest_build::guest_target_dir(&out_dir, "monty"),
        &[wit],
        &["--ignore-rust-version"],
    );
    println!(
        "cargo:rustc-env=REWARDBOX_MONTY_RUNNER_WASM={}",
        monty[0].display()
    );
}

/// Builds the CPython runner (`guests/python`) with componentize-py when it is installed (the
/// setup and test scripts install it into `.venv`; `COMPONENTIZE_PY` names another binary). Without
/// it the crate builds with no Python runner, and verifiers asking for one get a clear error.
fn build_python_runner(root: &Path, out_dir: &Path) {
    println!("cargo::rustc-check-cfg=cfg(rewardbox_python_runner)");
    println!("cargo:rerun-if-env-changed=COMPONENTIZE_PY");
    let guest = root.join("guests/python");
    println!("cargo:rerun-if-changed={}", guest.display());
    let tool = std::env::var_os("COMPONENTIZE_PY")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join(".venv/bin/componentize-py"));
    println!("cargo:rerun-if-changed={}", tool.display());
    if !tool.exists() {
        println!(
            "cargo:warning=componentize-py not found at {}: building without the Python runner \
             (run scripts/setup.sh to install it, then rebuild)",
            tool.display()
        );
        return;
    }
    // componentize-py's output differs from run to run (componentize-py#247), and the compiled
    // `.cwasm` cache is keyed by the component's bytes: build once per distinct input and reuse
    // the bytes, so that a rebuild of this crate (or a build with other features) does not cost
    // every user cache a 15 s recompilation.
    let version = std::process::Command::new(&tool)
        .arg("--version")
        .output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    let wit = root.join("wit");
    let key = guest_build::fingerprint(
        &[&guest, &wit],
        &[&version, guest_build::immortalize_revision().as_bytes()],
    );
    let built = guest_build::guest_target_dir(out_dir, "python");
    let output = built.join(format!("python-runner-{key}.wasm"));
    if !output.is_file() {
        build_and_immortalize(&tool, root, &guest, &built, &output);
    }
    println!("cargo:rustc-cfg=rewardbox_python_runner");
    println!(
        "cargo:rustc-env=REWARDBOX_PYTHON_RUNNER_WASM={}",
        output.display()
    );
}

/// Runs componentize-py on `guest` and makes the snapshot immortal, into `output` (through a
/// temp file, so an interrupted build leaves nothing to reuse); earlier outputs in `built` go.
fn build_and_immortalize(tool: &Path, root: &Path, guest: &Path, built: &Path, output: &Path) {
    std::fs::create_dir_all(built).expect("creating the Python runner's build directory");
    let temp = built.join(format!("python-runner.{}.tmp", std::process::id()));
    let status = std::process::Command::new(tool)
        // No `__pycache__` in guests/python: it would look like a change and rebuild every time.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg("--quiet")
        .arg("-d")
        .arg(root.join("wit"))
        .args(["-w", "python", "componentize", "-p"])
        .arg(guest)
        .arg("app")
        .arg("-o")
        .arg(&temp)
        .status()
        .unwrap_or_else(|e| panic!("could not run {}: {e}", tool.display()));
    assert!(
        status.success(),
        "componentize-py failed to build guests/python (see its output above)"
    );
    // Make the pre-initialised heap immortal, so that a run does not write reference counts all
    // over it (see guest_build::immortalize).
    let mut component = std::fs::read(&temp).expect("reading the Python runner component");
    if let Err(e) = guest_build::immortalize(&mut component) {
        panic!("making the Python runner's snapshot immortal failed: {e}");
    }
    std::fs::write(&temp, component).expect("writing the Python runner component");
    if let Ok(entries) = std::fs::read_dir(built) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with("python-runner-") && name.ends_with(".wasm") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    std::fs::rename(&temp, output).expect("storing the Python runner component");
}
