//! C and C++ through zig: `zig cc` / `zig c++` for `wasm32-wasi` (clang, wasi-libc and libc++ in
//! one binary that `pip install ziglang` provides), confined to its own installation.

use crate::language::Language;
use crate::program::STACK_BYTES;
use std::path::{Path, PathBuf};
use std::process::Command;

/// A located zig installation.
#[derive(Debug, Clone)]
pub struct Zig {
    binary: PathBuf,
    /// `zig version`'s output, part of the compiled-program cache key.
    pub version: String,
}

/// Diagnostics clang makes errors in C and gcc 12 (as judges compile C) only warns about: the
/// program compiles, as natively. (Calls of undeclared functions: see [`crate::implicit`].)
const C_WARNINGS_NOT_ERRORS: [&str; 4] = [
    "-Wno-error=implicit-int",
    "-Wno-error=int-conversion",
    "-Wno-error=incompatible-function-pointer-types",
    "-Wno-error=return-type",
];

impl Zig {
    /// Finds zig: `$REWARDBOX_ZIG` when set (and nothing else then), else the one
    /// `scripts/setup.sh` installed into the project's `.venv` when this binary was built, else
    /// `zig` on `PATH`.
    pub fn locate() -> Result<Zig, String> {
        let binary = crate::program::find_tool(
            "REWARDBOX_ZIG",
            option_env!("REWARDBOX_ZIG_HINT"),
            "zig",
        )
        .ok_or_else(|| {
            "C and C++ need zig, which is not installed: run scripts/setup.sh (it installs the \
                 ziglang package into .venv), `pip install ziglang`, or set REWARDBOX_ZIG to a zig \
                 binary"
                .to_string()
        })?;
        let output = Command::new(&binary)
            .arg("version")
            .output()
            .map_err(|e| format!("running {} version: {e}", binary.display()))?;
        if !output.status.success() {
            return Err(format!("{} version failed", binary.display()));
        }
        Ok(Zig {
            version: String::from_utf8_lossy(&output.stdout).trim().to_string(),
            binary,
        })
    }

    /// The zig binary.
    pub fn binary(&self) -> &Path {
        &self.binary
    }

    /// The installation directory (the binary and its `lib/`): all the compiler may read.
    pub fn install_dir(&self) -> &Path {
        self.binary.parent().unwrap_or(Path::new("/"))
    }

    /// libc++'s headers in the installation.
    pub fn libcxx_include(&self) -> PathBuf {
        self.install_dir().join("lib/libcxx/include")
    }

    /// The flags a program in `language` is compiled with (part of the cache key).
    pub fn flags(language: Language) -> Vec<String> {
        // zig's -O2 defines NDEBUG, which compiles every `assert` out: gcc and clang define
        // nothing of the kind at -O2, and a judge must not turn a failed assert into a pass.
        // zig puts its own flags first, so the -U wins.
        let mut flags: Vec<String> = ["-target", "wasm32-wasi", "-O2", "-UNDEBUG", "-s"]
            .map(String::from)
            .to_vec();
        match language {
            Language::C => {
                flags.push("-std=gnu17".into());
                // What gcc before 14 (judges', Debian 12's) accepts with a warning, clang refuses
                // in C99 and later: `main()` with no return type, a pointer stored in an integer.
                flags.extend(C_WARNINGS_NOT_ERRORS.map(String::from));
            }
            _ => {
                flags.push("-std=gnu++20".into());
                // C++ exceptions: WebAssembly's exception handling (see `gnu`).
                flags.extend(crate::gnu::EXCEPTION_FLAGS.map(String::from));
                // zig builds libc++ for WASI without its file system support; <fstream> is made
                // available with it (the streams come from the support archive).
                flags.extend(
                    ["-U_LIBCPP_HAS_FILESYSTEM", "-D_LIBCPP_HAS_FILESYSTEM=1"].map(String::from),
                );
            }
        }
        flags.extend(
            [
                "-fdiagnostics-color=never",
                // Native semantics WebAssembly does not give by itself: a load or store through a
                // null pointer faults (the checks call the support archive's handler), and an
                // uninitialised local holds garbage, not zero (up to 1 KiB per variable: larger
                // arrays would cost time for every call).
                "-fsanitize=null",
                "-ftrivial-auto-var-init=pattern",
                "-ftrivial-auto-var-init-max-size=1024",
                // glibc's random number functions under names of their own, so that a program
                // defining one keeps its own (see `gnu::PRELUDE`).
                "-include",
                crate::gnu::PRELUDE,
                // The macro the judges define (Codeforces, DOMjudge, most online judges: `g++
                // -DONLINE_JUDGE`): jury and contestant code reads `input.txt` without it.
                "-DONLINE_JUDGE",
                // `clock()` and `times()`: competitive programs time themselves with them.
                "-D_WASI_EMULATED_PROCESS_CLOCKS",
                "-lwasi-emulated-process-clocks",
                "-lm",
            ]
            .map(String::from),
        );
        flags.push(format!("-Wl,-z,stack-size={STACK_BYTES}"));
        flags
    }

    /// The command compiling `source` (a file in `work`) into `output`, with `include` (the
    /// overlay headers) on the include path, then `system` (Boost's headers) as system
    /// directories, `pch` (the headers the program includes first, precompiled) included first
    /// when given, `support` (the GNU support archive) linked before the libraries, and `cache`
    /// as zig's global cache.
    #[allow(clippy::too_many_arguments)]
    pub fn command(
        &self,
        language: Language,
        source: &Path,
        output: &Path,
        include: &Path,
        system: &[&Path],
        pch: Option<&Path>,
        support: &Path,
        cache: &Path,
        work: &Path,
    ) -> Command {
        let mut command = self.base_command(cache, work);
        command
            .arg(if language == Language::C { "cc" } else { "c++" })
            .args(Self::flags(language))
            .arg("-I")
            .arg(include);
        for dir in system {
            command.arg("-isystem").arg(dir);
        }
        if let Some(pch) = pch {
            command.arg("-include-pch").arg(pch);
        }
        // Whole: zig puts libc before the program's inputs and lld takes the first definition
        // of a symbol, so the support archive's must be in the program itself to win.
        command
            .arg("-o")
            .arg(output)
            .arg(source)
            .arg("-Wl,--whole-archive")
            .arg(support)
            .arg("-Wl,--no-whole-archive");
        command
    }

    /// The command compiling `source` (C or C++, as `language` says; an assembly file with C's
    /// driver) into the object `output`, with the flags programs are compiled with, exception
    /// handling on for C too (the unwinder), and `extra` flags.
    #[allow(clippy::too_many_arguments)]
    pub fn compile_object(
        &self,
        language: Language,
        source: &Path,
        output: &Path,
        include: &Path,
        extra: &[&str],
        cache: &Path,
        work: &Path,
    ) -> Command {
        let mut command = self.base_command(cache, work);
        command
            .arg(if language == Language::C { "cc" } else { "c++" })
            .args(Self::flags(language))
            .args(crate::gnu::EXCEPTION_FLAGS)
            .args(extra)
            .arg("-Wno-unused-command-line-argument")
            .arg("-I")
            .arg(include)
            .arg("-c")
            .arg("-o")
            .arg(output)
            .arg(source);
        command
    }

    /// The command archiving `objects` into `output` (`zig ar`).
    pub fn archive(
        &self,
        output: &Path,
        objects: &[PathBuf],
        cache: &Path,
        work: &Path,
    ) -> Command {
        let mut command = self.base_command(cache, work);
        command.arg("ar").arg("rcs").arg(output).args(objects);
        command
    }

    /// The command precompiling the C++ header `header` into `output` with the flags programs
    /// are compiled with, `include` (the overlay headers) on the include path and `system`
    /// (Boost's headers) as system directories, as [`Zig::command`] has them.
    pub fn precompile_header(
        &self,
        header: &Path,
        include: &Path,
        system: &[&Path],
        output: &Path,
        cache: &Path,
        work: &Path,
    ) -> Command {
        let mut command = self.base_command(cache, work);
        command
            .arg("c++")
            .args(Self::flags(Language::Cpp))
            .arg("-I")
            .arg(include);
        for dir in system {
            command.arg("-isystem").arg(dir);
        }
        command
            // Only the header's size and content matter, never its mtime: a copied, restored or
            // touched cache must not turn every C++ program into a compile error.
            .args(["-Xclang", "-fno-pch-timestamp"])
            .arg("-x")
            .arg("c++-header")
            .arg(header)
            .arg("-o")
            .arg(output);
        command
    }

    /// The command running one of the driver's steps (`clang ...` or `wasm-ld ...`, see
    /// [`crate::zig_steps`]) in `work`, in the environment the driver has.
    pub fn step(&self, args: &[String], cache: &Path, work: &Path) -> Command {
        let mut command = self.base_command(cache, work);
        command.args(args);
        command
    }

    /// zig, run in `work` with nothing of the caller's environment but `cache` as its global
    /// cache (zig's C and C++ libraries) and `work` for everything else.
    fn base_command(&self, cache: &Path, work: &Path) -> Command {
        let mut command = Command::new(&self.binary);
        command
            .current_dir(work)
            .env_clear()
            .env("ZIG_GLOBAL_CACHE_DIR", cache)
            .env("ZIG_LOCAL_CACHE_DIR", work.join("zig-cache"))
            .env("TMPDIR", work)
            .env("HOME", work);
        command
    }
}
