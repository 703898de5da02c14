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
    println!("cargo::rustc-check-cfg=cfg(rewardbox_python_frameworks)");
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
    let built = guest_build::guest_target_dir(out_dir, "python");
    let extra: [&[u8]; 2] = [&version, guest_build::immortalize_revision().as_bytes()];
    // Two components from the same guest: the runner of candidates and trusted code (`app`), and
    // the trusted runtime of pytest test modules, whose snapshot carries pytest (`frameworks_app`,
    // with the frameworks' packages on its path). Built side by side.
    let runner = Build {
        module: "app",
        prefix: "python-runner-",
        frameworks: None,
        output: built.join(format!(
            "python-runner-{}.wasm",
            guest_build::fingerprint(&[&guest, &wit], &extra)
        )),
    };
    let staged = stage_test_frameworks(&tool, &built);
    let frameworks = staged.map(|staged| Build {
        module: "frameworks_app",
        prefix: "python-frameworks-",
        output: built.join(format!(
            "python-frameworks-{}.wasm",
            guest_build::fingerprint(&[&guest, &wit, &staged], &extra)
        )),
        frameworks: Some(staged),
    });
    std::thread::scope(|scope| {
        for build in std::iter::once(&runner).chain(frameworks.as_ref()) {
            if !build.output.is_file() {
                let (tool, guest, built) = (&tool, &guest, &built);
                scope.spawn(move || build_and_immortalize(tool, root, guest, build, built));
            }
        }
    });
    println!("cargo:rustc-cfg=rewardbox_python_runner");
    println!(
        "cargo:rustc-env=REWARDBOX_PYTHON_RUNNER_WASM={}",
        runner.output.display()
    );
    if let Some(frameworks) = &frameworks {
        println!("cargo:rustc-cfg=rewardbox_python_frameworks");
        println!(
            "cargo:rustc-env=REWARDBOX_PYTHON_FRAMEWORKS_WASM={}",
            frameworks.output.display()
        );
    }
}

/// One CPython component to build from `guests/python`.
struct Build {
    /// The module componentize-py runs at build time and takes the exports from.
    module: &'static str,
    /// The start of its file names (earlier builds with it are removed).
    prefix: &'static str,
    /// The test frameworks' packages, put on its path.
    frameworks: Option<PathBuf>,
    /// Where it goes.
    output: PathBuf,
}

/// Runs componentize-py on `guest` and makes the snapshot immortal, into `output` (through a
/// temp file, so an interrupted build leaves nothing to reuse); earlier outputs in `built` go.
fn build_and_immortalize(tool: &Path, root: &Path, guest: &Path, build: &Build, built: &Path) {
    std::fs::create_dir_all(built).expect("creating the Python runner's build directory");
    let output = &build.output;
    let temp = built.join(format!("{}{}.tmp", build.prefix, std::process::id()));
    let mut command = std::process::Command::new(tool);
    command
        // No `__pycache__` in guests/python: it would look like a change and rebuild every time.
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg("--quiet")
        .arg("-d")
        .arg(root.join("wit"))
        .args(["-w", "python", "componentize", "-p"])
        .arg(guest);
    if let Some(frameworks) = &build.frameworks {
        command.arg("-p").arg(frameworks);
    }
    let status = command
        .arg(build.module)
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
            if name.starts_with(build.prefix) && name.ends_with(".wasm") {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
    std::fs::rename(&temp, output).expect("storing the Python runner component");
}

/// The pure-Python packages of the test frameworks the `pytest` test form runs (pytest, with its
/// `py` shim module, and what it imports: pluggy, iniconfig, packaging), pinned by
/// `scripts/python-tools.sh` into the same environment as componentize-py. They are copied into
/// `built/test-frameworks/` (sources only), which the second component is built with on its path:
/// `guests/python/frameworks_app.py` imports them into its snapshot, and `app.py` serves the rest
/// from the component (`rb_stdlib`). `None`, with a warning, when they are not installed: only the
/// first component is built, and a `pytest` task says what to install.
fn stage_test_frameworks(tool: &Path, built: &Path) -> Option<PathBuf> {
    const PACKAGES: [&str; 5] = ["pytest", "_pytest", "pluggy", "iniconfig", "packaging"];
    let lib = tool.parent()?.parent()?.join("lib");
    let site = std::fs::read_dir(&lib)
        .ok()?
        .flatten()
        .map(|entry| entry.path().join("site-packages"))
        .find(|site| PACKAGES.iter().all(|name| site.join(name).is_dir()));
    let Some(site) = site else {
        println!(
            "cargo:warning=pytest and its packages ({}) are not installed beside {}: building the \
             Python runner without them, so `tests.pytest` tasks cannot run (run \
             scripts/python-tools.sh, then rebuild)",
            PACKAGES.join(", "),
            tool.display()
        );
        return None;
    };
    // pytest's top-level `py` module (an alias of `_pytest._py`), which `_pytest.compat` imports.
    const MODULES: [&str; 1] = ["py.py"];
    let staged = built.join("test-frameworks");
    let _ = std::fs::remove_dir_all(&staged);
    for name in PACKAGES {
        println!("cargo:rerun-if-changed={}", site.join(name).display());
        copy_sources(&site.join(name), &staged.join(name))
            .unwrap_or_else(|e| panic!("copying {} for the Python runner: {e}", name));
    }
    for name in MODULES {
        println!("cargo:rerun-if-changed={}", site.join(name).display());
        std::fs::copy(site.join(name), staged.join(name))
            .unwrap_or_else(|e| panic!("copying {} for the Python runner: {e}", name));
    }
    Some(staged)
}

/// Copies the `.py` files under `from` to `to`, leaving out caches.
fn copy_sources(from: &Path, to: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let mut entries: Vec<_> = std::fs::read_dir(from)?.flatten().collect();
    entries.sort_by_key(|entry| entry.file_name());
    for entry in entries {
        let name = entry.file_name();
        let path = entry.path();
        if path.is_dir() {
            if name != "__pycache__" {
                copy_sources(&path, &to.join(&name))?;
            }
        } else if path.extension().is_some_and(|ext| ext == "py") {
            std::fs::copy(&path, to.join(&name))?;
        }
    }
    Ok(())
}
