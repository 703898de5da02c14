//! Rust through the toolchain's own `rustc --target wasm32-wasip1`, confined to its sysroot; the
//! module is adapted to a component as C's is.
//!
//! Not `wasm32-wasip2`, which emits a component directly: its standard library ends a program
//! through preview 2's `exit`, which carries only success or failure, so `std::process::exit(3)`
//! ended as 1. Preview 1's `proc_exit` carries the code, and `exit_code` routes it to the host.

use crate::Language;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The target programs are compiled for.
pub const TARGET: &str = "wasm32-wasip1";

/// A located rustc with the `wasm32-wasip1` standard library.
#[derive(Debug, Clone)]
pub struct Rustc {
    binary: PathBuf,
    sysroot: PathBuf,
    /// `rustc --version`'s output, part of the compiled-program cache key.
    pub version: String,
}

impl Rustc {
    /// Finds rustc (`$REWARDBOX_RUSTC`, else `rustc` on `PATH`), resolved to the real compiler in
    /// its sysroot (not rustup's proxy), and checks it has the [`TARGET`] standard library.
    pub fn locate() -> Result<Rustc, String> {
        let start = std::env::var_os("REWARDBOX_RUSTC")
            .map(PathBuf::from)
            .or_else(|| crate::program::on_path("rustc"))
            .ok_or_else(|| {
                "Rust needs rustc, which is not installed: install rustup's toolchain, or set \
                 REWARDBOX_RUSTC to a rustc binary"
                    .to_string()
            })?;
        let run = |args: &[&str]| -> Result<String, String> {
            let output = Command::new(&start)
                .args(args)
                .output()
                .map_err(|e| format!("running {} {}: {e}", start.display(), args.join(" ")))?;
            if !output.status.success() {
                return Err(format!(
                    "{} {} failed: {}",
                    start.display(),
                    args.join(" "),
                    String::from_utf8_lossy(&output.stderr).trim()
                ));
            }
            Ok(String::from_utf8_lossy(&output.stdout).trim().to_string())
        };
        let sysroot = PathBuf::from(run(&["--print", "sysroot"])?);
        let version = run(&["--version"])?;
        if !sysroot.join("lib/rustlib").join(TARGET).is_dir() {
            return Err(format!(
                "Rust needs the {TARGET} target of {version}: run `rustup target add {TARGET}` \
                 (scripts/setup.sh does)"
            ));
        }
        Ok(Rustc {
            binary: sysroot.join("bin/rustc"),
            sysroot,
            version,
        })
    }

    /// The compiler itself (in its sysroot, not rustup's proxy).
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// Everything the compiler may read: its sysroot, and the system's shared libraries that the
    /// dynamically linked compiler loads.
    pub fn readable(&self) -> Vec<PathBuf> {
        let mut paths = vec![self.sysroot.clone()];
        paths.extend(
            [
                "/lib",
                "/lib64",
                "/usr/lib",
                "/usr/lib64",
                "/etc/ld.so.cache",
            ]
            .map(PathBuf::from),
        );
        paths
    }

    /// The flags a program in `language` is compiled with (part of the cache key): optimised
    /// as `rustc -O`, and for [`Language::Rust`] with overflow checks and debug assertions on,
    /// as `cargo test` builds HumanEval-X's and MultiPL-E's tests (an overflow panics);
    /// [`Language::RustRelease`] wraps on overflow as a release build does.
    pub fn flags(language: Language) -> Vec<String> {
        let checked = language != Language::RustRelease;
        [
            "--edition=2021",
            "--crate-type=bin",
            "--crate-name=main",
            "-Copt-level=2",
            "-Cdebuginfo=0",
            "-Cstrip=symbols",
            "--color=never",
        ]
        .map(String::from)
        .into_iter()
        .chain([
            format!("-Coverflow-checks={}", if checked { "on" } else { "off" }),
            format!("-Cdebug-assertions={}", if checked { "on" } else { "off" }),
            format!("--target={TARGET}"),
            format!("-Clink-arg=-zstack-size={}", crate::program::STACK_BYTES),
        ])
        .collect()
    }

    /// The command compiling `source` (a file in `work`) into `output`, with `libraries`: the
    /// arguments linking it with crates (`--extern`, `-L`), if any.
    pub fn command(
        &self,
        language: Language,
        source: &Path,
        output: &Path,
        work: &Path,
        libraries: &[String],
    ) -> Command {
        let mut command = Command::new(&self.binary);
        command
            .args(Self::flags(language))
            .args(libraries)
            .arg("-o")
            .arg(output)
            .arg(source)
            .current_dir(work)
            // The program reads rustc's environment at compile time (`env!`, `option_env!`):
            // nothing in it may name a host path, so the temp directory is the working directory
            // by a relative name and there is no HOME.
            .env_clear()
            .env("TMPDIR", ".");
        command
    }
}
