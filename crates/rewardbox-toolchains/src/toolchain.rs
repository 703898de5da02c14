//! Once per process: the located compilers, the compiled-program cache and the compile limits.
//! Per request: [`Toolchains::compile`], memoized in memory and on disk.

use crate::boost::{self, Boost};
use crate::cache::{Key, ProgramCache, hex, key, publish_once, temp_beside, write_once};
use crate::confine::{self, Confinement};
use crate::gnu;
use crate::go::{self, Go};
use crate::implicit;
use crate::language::Language;
use crate::rust_crates::{self, CrateSet};
use crate::rustc::Rustc;
use crate::shells::Shells;
use crate::vla;
use crate::zig::Zig;
use crate::zig_steps::{self, Steps};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// Compiled programs kept in memory per process before the memo starts over.
const MEMO_ENTRIES: usize = 256;

/// Limits on one compilation (the compiler runs outside the sandbox).
#[derive(Debug, Clone, Copy)]
pub struct CompileLimits {
    /// CPU time (over the compiler and every process it starts) one compilation may use: past
    /// it, the program is refused, however busy the machine.
    pub cpu: Duration,
    /// Wall-clock time after which a compilation that has not used its CPU budget is given up
    /// as starved by a busy host (the program is then not judged).
    pub wall: Duration,
    /// Private memory each compiler process may hold.
    pub memory_bytes: u64,
    /// The largest file the compiler may write.
    pub file_bytes: u64,
    /// Bytes of the compiler's message kept in a compile error.
    pub message_bytes: usize,
}

impl Default for CompileLimits {
    /// 20 s of CPU, 120 s of wall clock, 2 GiB, 1 GiB files, 4 KiB of message. The file bound
    /// is past what a judge's memory limit lets a program declare: a WebAssembly object file
    /// holds a static array's zeros (a C++ `static int a[30000000]`, 120 MB, common in contest
    /// programs), which the linked program then no longer carries.
    fn default() -> Self {
        CompileLimits {
            cpu: Duration::from_secs(20),
            wall: Duration::from_secs(120),
            memory_bytes: 2 << 30,
            file_bytes: 1 << 30,
            message_bytes: 4096,
        }
    }
}

/// A compiled program: a WebAssembly component exporting `wasi:cli/run`.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The component's bytes.
    pub component: Arc<[u8]>,
    /// The hash of (language, source, flags, compiler version) it is cached under.
    pub key: Key,
    /// The hash of the component's bytes: sources that differ only where the compiler does not
    /// look (comments, spacing, names it strips) compile to the same component, which is made
    /// native code once.
    pub content: Key,
}

impl Compiled {
    fn new(component: Vec<u8>, source_key: Key) -> Compiled {
        Compiled {
            content: key(&[&component]),
            component: component.into(),
            key: source_key,
        }
    }
}

/// Why a program did not compile.
#[derive(Debug, Clone, PartialEq)]
pub enum CompileError {
    /// The program is at fault: the compiler's message (truncated), or the compile limit it
    /// crossed. A case status `compile_error`.
    Program(String),
    /// This host cannot compile the language: says what to install. Never the program's fault.
    Unavailable(String),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Program(message) | CompileError::Unavailable(message) => {
                f.write_str(message)
            }
        }
    }
}

type Outcome = Result<Compiled, CompileError>;

/// How the precompiled header is built (part of its name): without timestamps.
const PCH_FORMAT: &str = "no-pch-timestamp";

/// How long a failed build of zig's libraries is remembered before it is tried again.
const WARM_UP_RETRY: Duration = Duration::from_secs(60);

/// The outcome of building one language's libraries, and when.
struct Warmed {
    result: Result<(), String>,
    at: Instant,
}

/// The compilers of this process, located on first use.
pub struct Toolchains {
    programs: ProgramCache,
    zig_cache: PathBuf,
    limits: CompileLimits,
    zig: OnceLock<Result<Zig, String>>,
    rustc: OnceLock<Result<Rustc, String>>,
    go: OnceLock<Result<Go, String>>,
    go_cache: PathBuf,
    warm: Mutex<HashMap<Language, Warmed>>,
    crates_root: PathBuf,
    crates: Mutex<Option<(Result<CrateSet, String>, Instant)>>,
    include: OnceLock<Result<Overlay, String>>,
    boost: OnceLock<Option<Boost>>,
    memo: Mutex<HashMap<Key, Arc<OnceLock<Outcome>>>>,
    preambles: Mutex<HashMap<Key, Preamble>>,
    zig_steps: Mutex<HashMap<Key, ZigSteps>>,
    through_zig_driver: bool,
    shells: Option<Shells>,
}

/// zig's driver's steps for one command line, read once (`None` when they could not be).
type ZigSteps = Arc<OnceLock<Option<Arc<Steps>>>>;

/// The command lines whose steps are remembered at most (then forgotten at once).
const ZIG_STEPS_ENTRIES: usize = 4096;

/// What this process knows of one preamble (see [`crate::preamble`]): how many programs began
/// with it, and its precompiled header once one was built (`None` when building it failed).
#[derive(Default)]
struct Preamble {
    seen: u32,
    built: Arc<OnceLock<Option<PathBuf>>>,
}

/// A preamble's header is precompiled when this many programs of the process began with it: a
/// header that a single program uses would cost more to build than it saves.
const PREAMBLE_USES_BEFORE_PRECOMPILING: u32 = 2;

/// The preambles remembered at most (then forgotten at once, as the memo is).
const PREAMBLE_ENTRIES: usize = 4096;

impl Toolchains {
    /// Compilers whose programs are cached under `cache_dir` (`programs/`, zig's own cache of the
    /// C and C++ libraries in `zig/`, the Rust crates in `rust-crates/`); without a directory,
    /// programs are compiled once per process and the libraries are built in a temp directory.
    pub fn new(cache_dir: Option<&Path>, limits: CompileLimits) -> Toolchains {
        let zig_cache = match cache_dir {
            Some(dir) => dir.join("zig"),
            None => std::env::temp_dir().join(format!("rewardbox-zig-{}", std::process::id())),
        };
        let crates_root = match cache_dir {
            Some(dir) => dir.join("rust-crates"),
            None => {
                std::env::temp_dir().join(format!("rewardbox-rust-crates-{}", std::process::id()))
            }
        };
        let go_cache = match cache_dir {
            Some(dir) => dir.join("go"),
            None => std::env::temp_dir().join(format!("rewardbox-go-{}", std::process::id())),
        };
        Toolchains {
            programs: ProgramCache::new(cache_dir.map(|d| d.join("programs"))),
            go: OnceLock::new(),
            go_cache,
            crates_root,
            crates: Mutex::new(None),
            zig_cache,
            limits,
            zig: OnceLock::new(),
            rustc: OnceLock::new(),
            warm: Mutex::new(HashMap::new()),
            include: OnceLock::new(),
            boost: OnceLock::new(),
            memo: Mutex::new(HashMap::new()),
            preambles: Mutex::new(HashMap::new()),
            zig_steps: Mutex::new(HashMap::new()),
            through_zig_driver: false,
            shells: Some(Shells::default()),
        }
    }

    /// These compilers, compiling C and C++ through zig's driver every time rather than through
    /// its two steps run directly (see [`crate::zig_steps`]: the same program byte for byte, some
    /// 60 ms slower per program). For comparing the two; nothing else needs it.
    pub fn through_zig_driver(mut self) -> Toolchains {
        self.through_zig_driver = true;
        self
    }

    /// These compilers, making every module a component through the encoder rather than in the
    /// shell of an earlier module of the same interface (see [`crate::shells`]: the same component
    /// byte for byte, some milliseconds slower per program). For comparing the two; nothing else
    /// needs it.
    pub fn through_component_encoder(mut self) -> Toolchains {
        self.shells = None;
        self
    }

    /// How many programs this process compiled were made components in the shell of an earlier
    /// program (see [`crate::shells`]) rather than by the encoder.
    pub fn components_from_shells(&self) -> u64 {
        self.shells.as_ref().map_or(0, Shells::used)
    }

    /// The compile limits.
    pub fn limits(&self) -> &CompileLimits {
        &self.limits
    }

    fn zig(&self) -> Result<&Zig, CompileError> {
        self.zig
            .get_or_init(Zig::locate)
            .as_ref()
            .map_err(|e| CompileError::Unavailable(e.clone()))
    }

    fn rustc(&self) -> Result<&Rustc, CompileError> {
        self.rustc
            .get_or_init(Rustc::locate)
            .as_ref()
            .map_err(|e| CompileError::Unavailable(e.clone()))
    }

    /// Boost's headers, when installed ([`crate::boost`]).
    fn boost(&self) -> Option<&Boost> {
        self.boost.get_or_init(Boost::locate).as_ref()
    }

    fn go(&self) -> Result<&Go, CompileError> {
        self.go
            .get_or_init(Go::locate)
            .as_ref()
            .map_err(|e| CompileError::Unavailable(e.clone()))
    }

    /// The Rust crates candidates may use, built on first need (minutes, once per machine and
    /// rustc version, outside any program's limit); a failed build is tried again after a while.
    pub fn rust_crates(&self) -> Result<CrateSet, String> {
        let mut crates = self.crates.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((result, at)) = crates.as_ref()
            && (result.is_ok() || at.elapsed() < WARM_UP_RETRY)
        {
            return result.clone();
        }
        let rustc = self.rustc().map_err(|e| e.to_string())?;
        let result = rust_crates::for_candidates(rustc, &self.crates_root);
        *crates = Some((result.clone(), Instant::now()));
        result
    }

    /// Whether this host can compile `language`, or what to install.
    pub fn available(&self, language: Language) -> Result<(), String> {
        let found = match language {
            Language::Python | Language::JavaScript | Language::TypeScript => {
                return Err(format!("{} is not compiled", language.name()));
            }
            Language::C | Language::Cpp => self.zig().map(|_| ()),
            Language::Rust | Language::RustRelease => self.rustc().map(|_| ()),
            Language::Go => self.go().map(|_| ()),
        };
        found.map_err(|e| e.to_string())
    }

    /// The compiler of `language` and its version, e.g. `zig 0.17.1`.
    pub fn version(&self, language: Language) -> Result<String, String> {
        match language {
            Language::Python | Language::JavaScript | Language::TypeScript => Err(
                CompileError::Unavailable(format!("{} is not compiled", language.name())),
            ),
            Language::C | Language::Cpp => self
                .zig()
                .map(|z| format!("zig {} (clang, wasi-libc, libc++)", z.version)),
            Language::Rust | Language::RustRelease => self.rustc().map(|r| r.version.clone()),
            Language::Go => self.go().map(|g| g.version.clone()),
        }
        .map_err(|e| e.to_string())
    }

    /// `source` in `language` compiled to a component: from this process's memo, the disk
    /// cache, or the confined compiler.
    pub fn compile(&self, language: Language, source: &str) -> Outcome {
        let (compiler, flags) = match language {
            Language::Python | Language::JavaScript | Language::TypeScript => {
                return Err(CompileError::Unavailable(format!(
                    "{} is not compiled",
                    language.name()
                )));
            }
            Language::C | Language::Cpp => (self.zig()?.version.clone(), Zig::flags(language)),
            Language::Rust | Language::RustRelease => {
                (self.rustc()?.version.clone(), Rustc::flags(language))
            }
            Language::Go => (
                self.go()?.version.clone(),
                // The arena file is part of what a Go program is built from.
                [Go::flags(), vec![go::ARENA_SOURCE.to_string()]].concat(),
            ),
        };
        let flags = flags.join(" ");
        // The overlay headers, the support archive and Boost's version are part of what a C or
        // C++ program is compiled with.
        let gnu = match language {
            Language::C | Language::Cpp => {
                let zig = self.zig()?;
                let overlay = self.include_dir(zig).map_err(CompileError::Unavailable)?;
                let boost = self.boost().map_or("", |b| b.version.as_str());
                hex(&key(&[
                    overlay.hash.as_bytes(),
                    &support_hash(language),
                    boost.as_bytes(),
                ]))
            }
            _ => String::new(),
        };
        // A Rust program that names one of the crates is linked with them (when they can be had).
        let (crates, crates_missing) = match language {
            Language::Rust | Language::RustRelease if rust_crates::mentioned(source) => {
                match self.rust_crates() {
                    Ok(set) => (Some(set), None),
                    Err(why) => (None, Some(why)),
                }
            }
            _ => (None, None),
        };
        let key = key(&[
            language.name().as_bytes(),
            source.as_bytes(),
            flags.as_bytes(),
            compiler.as_bytes(),
            gnu.as_bytes(),
            ADAPTATION.as_bytes(),
            crates.as_ref().map_or(&b""[..], |c| c.hash.as_bytes()),
        ]);
        let cell = {
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            bounded_entry(&mut memo, key, MEMO_ENTRIES).clone()
        };
        let outcome = cell
            .get_or_init(|| {
                if let Some(component) = self.programs.load(&key) {
                    return Ok(Compiled::new(component, key));
                }
                let component = match self.compile_fresh(language, source, crates.as_ref()) {
                    // Without the crates it names, a program that needs one of them cannot be
                    // judged here: the host's fault.
                    Err(CompileError::Program(message)) if crates_missing.is_some() => {
                        return Err(CompileError::Unavailable(format!(
                            "{message}\n{}",
                            crates_missing.as_deref().unwrap_or_default()
                        )));
                    }
                    // So is a program including Boost where Boost is not installed.
                    Err(CompileError::Program(message))
                        if language == Language::Cpp
                            && self.boost().is_none()
                            && boost::header_missing(&message) =>
                    {
                        return Err(CompileError::Unavailable(format!(
                            "{}\n{message}",
                            boost::MISSING
                        )));
                    }
                    compiled => compiled?,
                };
                self.programs.store(&key, &component);
                Ok(Compiled::new(component, key))
            })
            .clone();
        if let Err(CompileError::Unavailable(_)) = outcome {
            // The host's fault, not the program's: the next request tries again.
            let mut memo = self.memo.lock().unwrap_or_else(|e| e.into_inner());
            if memo.get(&key).is_some_and(|c| Arc::ptr_eq(c, &cell)) {
                memo.remove(&key);
            }
        }
        outcome
    }

    /// Builds zig's C or C++ libraries into its cache once (minutes the first time on a new
    /// machine), with a generous limit, so that no program's compile limit pays for them.
    fn warm_up(&self, language: Language) -> Result<(), CompileError> {
        if matches!(language, Language::Rust | Language::RustRelease) {
            return Ok(());
        }
        if language == Language::Go {
            return self.warm_up_go();
        }
        let mut warm = self.warm.lock().unwrap_or_else(|e| e.into_inner());
        let zig = self.zig()?;
        // Per compiler version and flags: zig builds its libraries for the flags it is given, so
        // new flags warm up again, outside any program's budget.
        let flags = Zig::flags(language).join(" ");
        let marker = self.zig_cache.join(format!(
            "rewardbox-warm-{}-{}-{}",
            language.name(),
            zig.version,
            hex(&key(&[flags.as_bytes()])[..6])
        ));
        let pch_missing = (language == Language::Cpp && !self.pch_path(zig).is_file())
            || !self.support_path(zig, language).is_file();
        if let Some(done) = warm.get(&language)
            && ((done.result.is_ok() && !pch_missing) || done.at.elapsed() < WARM_UP_RETRY)
        {
            return done.result.clone().map_err(CompileError::Unavailable);
        }
        let result = if marker.is_file() && !pch_missing {
            // Once per process, the precompiled header is tried on a sound program: one that
            // cannot serve (a cache copied or moved from elsewhere, a clang that reads it
            // otherwise) is dropped and built again here, before any program pays for it.
            if language == Language::Cpp && warm.get(&language).is_none() {
                self.check_pch(zig)
            } else {
                Ok(())
            }
        } else {
            let trivial = match language {
                Language::C => {
                    "#include <stdio.h>\n#include <math.h>\nint main(void){printf(\"%f\\n\", sqrt(2.0));return 0;}\n"
                }
                _ => {
                    "#include <bits/stdc++.h>\nint main(){std::cout<<std::sqrt(2.0)<<std::endl;}\n"
                }
            };
            let limits = CompileLimits {
                cpu: Duration::from_secs(900),
                wall: Duration::from_secs(1800),
                ..self.limits
            };
            match crate::one_time::timed(|| {
                self.build_support(language, zig, &limits)
                    .and_then(|_| self.run_compiler(language, trivial, &limits, None))
                    .and_then(|_| self.build_pch(language, zig, &limits))
            }) {
                Ok(()) => {
                    let _ = std::fs::write(&marker, b"");
                    Ok(())
                }
                Err(e) => Err(format!(
                    "building zig's {} library failed: {e}",
                    if language == Language::C { "C" } else { "C++" }
                )),
            }
        };
        warm.insert(
            language,
            Warmed {
                result: result.clone(),
                at: Instant::now(),
            },
        );
        result.map_err(CompileError::Unavailable)
    }

    /// Builds the standard-library packages programs use most into Go's build cache once, with a
    /// generous limit, so that no program's compile limit pays for them.
    fn warm_up_go(&self) -> Result<(), CompileError> {
        let mut warm = self.warm.lock().unwrap_or_else(|e| e.into_inner());
        let go = self.go()?;
        let marker = self.go_cache.join(format!(
            "rewardbox-warm-{}",
            hex(&key(&[go.version.as_bytes(), go::WARM_UP.as_bytes()])[..6])
        ));
        if let Some(done) = warm.get(&Language::Go)
            && (done.result.is_ok() || done.at.elapsed() < WARM_UP_RETRY)
        {
            return done.result.clone().map_err(CompileError::Unavailable);
        }
        let result = if marker.is_file() {
            Ok(())
        } else {
            let limits = CompileLimits {
                cpu: Duration::from_secs(900),
                wall: Duration::from_secs(1800),
                ..self.limits
            };
            match crate::one_time::timed(|| {
                self.run_compiler(Language::Go, go::WARM_UP, &limits, None)
            }) {
                Ok(_) => {
                    let _ = std::fs::write(&marker, b"");
                    Ok(())
                }
                Err(e) => Err(format!("building Go's standard library failed: {e}")),
            }
        };
        warm.insert(
            Language::Go,
            Warmed {
                result: result.clone(),
                at: Instant::now(),
            },
        );
        result.map_err(CompileError::Unavailable)
    }

    /// Compiles a sound program with the precompiled header; when that fails, for whatever
    /// reason, the header is dropped and built again.
    fn check_pch(&self, zig: &Zig) -> Result<(), String> {
        let pch = self.pch_path(zig);
        let limits = CompileLimits {
            cpu: Duration::from_secs(900),
            wall: Duration::from_secs(1800),
            ..self.limits
        };
        let probe = "#include <bits/stdc++.h>\nint main(){std::vector<int> v{1,2};std::cout<<v.size()<<std::endl;}\n";
        match self.run_compiler_once(Language::Cpp, probe, &limits, Some(&pch), None) {
            Err(CompileError::Program(_)) => {
                let _ = std::fs::remove_file(&pch);
                self.build_pch(Language::Cpp, zig, &limits)
                    .map_err(|e| format!("rebuilding the precompiled bits/stdc++.h: {e}"))
            }
            Err(CompileError::Unavailable(message)) => Err(message),
            Ok(_) => Ok(()),
        }
    }

    /// The overlay headers' directory (see [`gnu`]): beside zig's cache, one directory per
    /// version of the headers (a precompiled header remembers the paths it was built from).
    /// Written once per process.
    fn include_dir(&self, zig: &Zig) -> Result<Overlay, String> {
        self.include
            .get_or_init(|| {
                let headers = gnu::overlay_headers(&zig.libcxx_include());
                let mut parts: Vec<&[u8]> = vec![zig.version.as_bytes()];
                for (path, content) in &headers {
                    parts.push(path.as_bytes());
                    parts.push(content.as_bytes());
                }
                let hash = hex(&key(&parts)[..6]);
                let dir = self.zig_cache.join(format!("rewardbox-include-{hash}"));
                // The directory is named by the headers' hash, so their content is known.
                for (path, content) in &headers {
                    write_once(&dir.join(path), content)?;
                }
                Ok(Overlay { dir, hash })
            })
            .clone()
    }

    /// How zig is confined while it builds what programs share (the precompiled headers, the
    /// support archive): its installation and Boost's headers readable, `work` and zig's cache
    /// writable.
    fn library_confinement(
        &self,
        zig: &Zig,
        work: &WorkDir,
        limits: &CompileLimits,
    ) -> Confinement {
        let mut readable = vec![zig.install_dir().to_path_buf()];
        readable.extend(self.boost().map(|b| b.include.clone()));
        Confinement {
            readable,
            writable: vec![work.path().to_path_buf(), self.zig_cache.clone()],
            cpu: limits.cpu,
            wall: limits.wall,
            memory_bytes: limits.memory_bytes,
            file_bytes: limits.file_bytes,
            stderr_bytes: limits.message_bytes,
        }
    }

    /// The support archive of `language` (see [`gnu`]), built once per compiler and flags.
    fn support_path(&self, zig: &Zig, language: Language) -> PathBuf {
        let flags = Zig::flags(language).join(" ");
        let hash = hex(&key(&[
            &support_hash(language),
            zig.version.as_bytes(),
            flags.as_bytes(),
        ])[..6]);
        self.zig_cache
            .join(format!("rewardbox-gnu-{}-{hash}.a", language.name()))
    }

    /// Builds the support archive of `language` (C or C++) unless it is there.
    fn build_support(
        &self,
        language: Language,
        zig: &Zig,
        limits: &CompileLimits,
    ) -> Result<(), CompileError> {
        let archive = self.support_path(zig, language);
        if archive.is_file() {
            return Ok(());
        }
        let work = WorkDir::new().map_err(CompileError::Unavailable)?;
        let include = self.include_dir(zig).map_err(CompileError::Unavailable)?;
        let confinement = self.library_confinement(zig, &work, limits);
        let run = |command: std::process::Command, what: &str| -> Result<(), CompileError> {
            let finished =
                confine::run(command, &confinement).map_err(CompileError::Unavailable)?;
            if finished.success {
                Ok(())
            } else {
                Err(CompileError::Unavailable(format!(
                    "building the GNU support library ({what}) failed: {}",
                    finished.stderr.trim()
                )))
            }
        };
        let mut objects = Vec::new();
        let lib = zig.install_dir().join("lib");
        let toolchain_includes: Vec<String> = [
            "libcxxabi/include",
            "libcxxabi/src",
            "libcxx/src",
            "libunwind/include",
        ]
        .iter()
        .map(|dir| format!("-I{}", lib.join(dir).display()))
        .collect();
        for (index, source) in gnu::support_sources(language).into_iter().enumerate() {
            let (path, extra): (PathBuf, Vec<&str>) = match source {
                gnu::SupportSource::Own(file, text) => {
                    let path = work.path().join(file);
                    std::fs::write(&path, text).map_err(|e| {
                        CompileError::Unavailable(format!(
                            "writing the GNU support source {file}: {e}"
                        ))
                    })?;
                    (path, Vec::new())
                }
                gnu::SupportSource::Toolchain(file, defines) => {
                    let mut extra: Vec<&str> = defines.to_vec();
                    extra.extend(toolchain_includes.iter().map(String::as_str));
                    (lib.join(file), extra)
                }
            };
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let object = work.path().join(format!("{index}-{name}.o"));
            let as_language = if name.ends_with(".cpp") {
                Language::Cpp
            } else {
                Language::C
            };
            let command = zig.compile_object(
                as_language,
                &path,
                &object,
                &include.dir,
                &extra,
                &self.zig_cache,
                work.path(),
            );
            run(command, &name)?;
            objects.push(object);
        }
        let temp = temp_beside(&archive);
        run(
            zig.archive(&temp, &objects, &self.zig_cache, work.path()),
            "ar",
        )?;
        publish_once(&temp, &archive)
            .map_err(|e| CompileError::Unavailable(format!("storing the GNU support library: {e}")))
    }

    /// The precompiled header that may be included ahead of the C++ program `source`: the
    /// machine's `bits/stdc++.h` when the program includes it first, else the header of the
    /// headers it includes first, built on the [`PREAMBLE_USES_BEFORE_PRECOMPILING`]th program
    /// that begins with them. `None` when there is none to use (yet).
    fn precompiled_preamble(&self, source: &str) -> Result<Option<PathBuf>, CompileError> {
        let headers = crate::preamble::headers(source);
        let Some(first) = headers.first() else {
            return Ok(None);
        };
        let zig = self.zig()?;
        if first == "bits/stdc++.h" {
            let pch = self.pch_path(zig);
            return Ok(pch.is_file().then_some(pch));
        }
        let text: String = headers
            .iter()
            .map(|h| format!("#include <{h}>\n"))
            .collect();
        let (header, pch) = self.preamble_paths(zig, &text);
        if pch.is_file() {
            crate::prune::touch(&pch);
            return Ok(Some(pch));
        }
        let build = {
            let mut preambles = self.preambles.lock().unwrap_or_else(|e| e.into_inner());
            let id = key(&[text.as_bytes()]);
            let preamble = bounded_entry(&mut preambles, id, PREAMBLE_ENTRIES);
            // A header dropped since (unreadable by clang, or evicted) is built again.
            if preamble
                .built
                .get()
                .is_some_and(|pch| pch.as_ref().is_some_and(|p| !p.is_file()))
            {
                preamble.built = Arc::default();
            }
            preamble.seen += 1;
            if preamble.seen < PREAMBLE_USES_BEFORE_PRECOMPILING {
                return Ok(None);
            }
            preamble.built.clone()
        };
        Ok(build
            .get_or_init(|| self.build_preamble(zig, &text, &header, &pch).ok())
            .clone()
            .filter(|pch| pch.is_file()))
    }

    /// Where the preamble `text` and its precompiled header are kept: beside zig's cache,
    /// named by what the header is built from.
    fn preamble_paths(&self, zig: &Zig, text: &str) -> (PathBuf, PathBuf) {
        let flags = Zig::flags(Language::Cpp).join(" ");
        let overlay = self.include_dir(zig).map(|o| o.hash).unwrap_or_default();
        let boost = self.boost().map_or("", |b| b.version.as_str());
        let hash = hex(&key(&[
            text.as_bytes(),
            overlay.as_bytes(),
            zig.version.as_bytes(),
            flags.as_bytes(),
            boost.as_bytes(),
            PCH_FORMAT.as_bytes(),
        ])[..8]);
        let dir = self.zig_cache.join(crate::prune::PREAMBLES);
        (
            dir.join(format!("{hash}.h")),
            dir.join(format!("{hash}.pch")),
        )
    }

    /// Precompiles the preamble `text` (written to `header`) into `pch`, within the program
    /// compile limits (the program's own compile would parse the same headers). Its failure
    /// costs nothing but the time: the program is compiled without it, and any error is its own.
    fn build_preamble(
        &self,
        zig: &Zig,
        text: &str,
        header: &Path,
        pch: &Path,
    ) -> Result<PathBuf, String> {
        write_once(header, text)?;
        self.precompile(zig, header, pch, &self.limits, text)?;
        Ok(pch.to_path_buf())
    }

    /// Precompiles the C++ header `header` into `pch` with the flags and include paths programs
    /// are compiled with, confined as a library build within `limits`; `what` names the header
    /// in errors.
    fn precompile(
        &self,
        zig: &Zig,
        header: &Path,
        pch: &Path,
        limits: &CompileLimits,
        what: &str,
    ) -> Result<(), String> {
        let include = self.include_dir(zig)?;
        let work = WorkDir::new()?;
        let temp = temp_beside(pch);
        let boost = self.boost().map(|b| b.include.as_path());
        let command = zig.precompile_header(
            header,
            &include.dir,
            &boost.into_iter().collect::<Vec<_>>(),
            &temp,
            &self.zig_cache,
            work.path(),
        );
        let confinement = self.library_confinement(zig, &work, limits);
        let finished = confine::run(command, &confinement)?;
        if !finished.success {
            let _ = std::fs::remove_file(&temp);
            return Err(format!(
                "precompiling {what} failed: {}",
                finished.stderr.trim()
            ));
        }
        publish_once(&temp, pch).map_err(|e| format!("storing the precompiled {what}: {e}"))
    }

    /// The precompiled `bits/stdc++.h`, used for programs that include it first.
    fn pch_path(&self, zig: &Zig) -> PathBuf {
        let flags = Zig::flags(Language::Cpp).join(" ");
        let overlay = self.include_dir(zig).map(|o| o.hash).unwrap_or_default();
        let hash = hex(&key(&[
            overlay.as_bytes(),
            zig.version.as_bytes(),
            flags.as_bytes(),
            PCH_FORMAT.as_bytes(),
        ])[..6]);
        self.zig_cache.join(format!("rewardbox-stdc++-{hash}.pch"))
    }

    /// Precompiles `bits/stdc++.h` (C++ only): parsing the whole standard library is most of a
    /// competitive program's compile time.
    fn build_pch(
        &self,
        language: Language,
        zig: &Zig,
        limits: &CompileLimits,
    ) -> Result<(), CompileError> {
        if language != Language::Cpp {
            return Ok(());
        }
        let pch = self.pch_path(zig);
        if pch.is_file() {
            return Ok(());
        }
        let include = self.include_dir(zig).map_err(CompileError::Unavailable)?;
        let header = include.dir.join("bits/stdc++.h");
        self.precompile(zig, &header, &pch, limits, "bits/stdc++.h")
            .map_err(CompileError::Unavailable)
    }

    /// Runs zig on the program `file` in `dir`: its driver's two steps directly when they are
    /// known for this command line (see [`crate::zig_steps`]), else the driver. `driver` makes
    /// the driver's command and `confined` the confinement for a work directory.
    fn run_zig(
        &self,
        zig: &Zig,
        file: &str,
        dir: &Path,
        driver: &dyn Fn(&Path) -> Command,
        confined: &dyn Fn(&Path) -> Confinement,
    ) -> Result<confine::Finished, String> {
        let Some((id, steps)) = self.zig_steps(zig, file, dir, driver, confined) else {
            return confine::run(driver(dir), &confined(dir));
        };
        let finished = self.run_steps(zig, &steps, dir, &confined(dir))?;
        if finished.success || steps.inputs_exist() {
            return Ok(finished);
        }
        // A file the steps name is gone (zig's cache cleared, a header evicted): what failed is
        // not the program. The driver builds it, and the steps are read again next time.
        self.forget_zig_steps(id);
        confine::run(driver(dir), &confined(dir))
    }

    /// The steps of zig's driver for its command line in `dir`: from this process's memory, from
    /// zig's cache, or read from the driver on a probe program. `None` when they cannot be used:
    /// compiling through the driver was asked for, a word of the command line holds whitespace,
    /// or the steps read did not build the probe byte for byte as the driver does.
    fn zig_steps(
        &self,
        zig: &Zig,
        file: &str,
        dir: &Path,
        driver: &dyn Fn(&Path) -> Command,
        confined: &dyn Fn(&Path) -> Confinement,
    ) -> Option<(Key, Arc<Steps>)> {
        if self.through_zig_driver {
            return None;
        }
        let command = driver(dir);
        let mut words = vec![command.get_program().to_str()?];
        for arg in command.get_args() {
            words.push(arg.to_str()?);
        }
        let places = [self.zig_cache.to_str()?, dir.to_str()?];
        if words
            .iter()
            .chain(&places)
            .any(|word| word.is_empty() || word.contains(char::is_whitespace))
        {
            return None;
        }
        let line = words.join("\0");
        let id = key(&[
            b"zig-steps-1",
            zig.version.as_bytes(),
            line.as_bytes(),
            places[0].as_bytes(),
        ]);
        let cell = {
            let mut known = self.zig_steps.lock().unwrap_or_else(|e| e.into_inner());
            bounded_entry(&mut known, id, ZIG_STEPS_ENTRIES).clone()
        };
        let steps = cell
            .get_or_init(|| {
                self.load_zig_steps(zig, file, &id, driver, confined)
                    .map(Arc::new)
            })
            .clone()?;
        Some((id, steps))
    }

    /// Where the steps of command line `id` are kept.
    fn zig_steps_path(&self, id: &Key) -> PathBuf {
        self.zig_cache
            .join(crate::prune::ZIG_STEPS)
            .join(format!("{}.txt", hex(&id[..8])))
    }

    /// The steps of command line `id` from zig's cache, else read from the driver and stored.
    fn load_zig_steps(
        &self,
        zig: &Zig,
        file: &str,
        id: &Key,
        driver: &dyn Fn(&Path) -> Command,
        confined: &dyn Fn(&Path) -> Confinement,
    ) -> Option<Steps> {
        let path = self.zig_steps_path(id);
        if let Some(steps) = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| Steps::from_text(&text))
            .filter(Steps::inputs_exist)
        {
            crate::prune::touch(&path);
            return Some(steps);
        }
        let steps = self.probe_zig_steps(zig, file, driver, confined)?;
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = crate::cache::write_atomically(&path, steps.to_text().as_bytes());
        Some(steps)
    }

    /// Reads the driver's steps on [`zig_steps::PROBE`] and keeps them only when, run directly,
    /// they build the probe byte for byte as the driver did.
    fn probe_zig_steps(
        &self,
        zig: &Zig,
        file: &str,
        driver: &dyn Fn(&Path) -> Command,
        confined: &dyn Fn(&Path) -> Confinement,
    ) -> Option<Steps> {
        let probe = || -> Option<WorkDir> {
            let work = WorkDir::new().ok()?;
            std::fs::write(work.path().join(file), zig_steps::PROBE).ok()?;
            Some(work)
        };
        let built = |work: &WorkDir| std::fs::read(work.path().join("main.wasm")).ok();
        let through_driver = probe()?;
        let mut command = driver(through_driver.path());
        command
            .env("ZIG_VERBOSE_CC", "1")
            .env("ZIG_VERBOSE_LINK", "1");
        let confinement = Confinement {
            // Every library zig builds on the way is printed too.
            stderr_bytes: 4 << 20,
            ..confined(through_driver.path())
        };
        let finished = confine::run(command, &confinement).ok()?;
        if !finished.success {
            return None;
        }
        let steps = Steps::read(&finished.stderr, zig.binary(), file)?;
        let direct = probe()?;
        let finished = self
            .run_steps(zig, &steps, direct.path(), &confined(direct.path()))
            .ok()?;
        (finished.success && built(&direct)? == built(&through_driver)?).then_some(steps)
    }

    /// Forgets the steps of command line `id`, in memory and in zig's cache.
    fn forget_zig_steps(&self, id: Key) {
        self.zig_steps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
        let _ = std::fs::remove_file(self.zig_steps_path(&id));
    }

    /// Runs `steps` in `dir` under `confinement`, the link within what the compile left of the
    /// CPU budget and the wall-clock net; the CPU time reported is both steps'.
    fn run_steps(
        &self,
        zig: &Zig,
        steps: &Steps,
        dir: &Path,
        confinement: &Confinement,
    ) -> Result<confine::Finished, String> {
        let started = Instant::now();
        let compiled = confine::run(zig.step(steps.compile(), &self.zig_cache, dir), confinement)?;
        if !compiled.success {
            return Ok(compiled);
        }
        // What the driver checks before linking: it reads every file the compile read, and a
        // file it may not read fails the compile (clang passes over an `#embed` it could not
        // read, or one missing: then it lists nothing, which fails too). A file listed that no
        // longer exists (the header a precompiled header was built from, elsewhere) is passed
        // over, as the driver does.
        let places: Vec<PathBuf> = std::iter::once(dir)
            .chain(confinement.readable.iter().map(PathBuf::as_path))
            .chain(confinement.writable.iter().map(PathBuf::as_path))
            .flat_map(|place| {
                [
                    place.to_path_buf(),
                    place.canonicalize().unwrap_or_default(),
                ]
            })
            .filter(|place| place.is_absolute())
            .collect();
        let inside = |file: &Path| places.iter().any(|place| file.starts_with(place));
        let refused = |file: &Path| {
            let plain = !file
                .components()
                .any(|c| c == std::path::Component::ParentDir);
            if plain && inside(file) {
                return false;
            }
            // Where it leads (`..` and symbolic links resolved), as Landlock judges it; a file
            // missing is passed over.
            file.canonicalize().is_ok_and(|resolved| !inside(&resolved))
        };
        if zig_steps::dependencies(dir).is_none_or(|files| files.iter().any(|f| refused(f))) {
            return Ok(confine::Finished {
                success: false,
                code: Some(1),
                stderr: format!(
                    "{}: error: a file the program names (#include, #embed) was not found",
                    steps.compile()[1]
                ),
                ..compiled
            });
        }
        let rest = Confinement {
            cpu: confinement.cpu.saturating_sub(compiled.cpu),
            wall: confinement.wall.saturating_sub(started.elapsed()),
            ..confinement.clone()
        };
        let mut linked = confine::run(zig.step(steps.link(), &self.zig_cache, dir), &rest)?;
        linked.cpu += compiled.cpu;
        Ok(linked)
    }

    fn compile_fresh(
        &self,
        language: Language,
        source: &str,
        crates: Option<&CrateSet>,
    ) -> Result<Vec<u8>, CompileError> {
        self.warm_up(language)?;
        let mut wasm = self.run_compiler(language, source, &self.limits, crates)?;
        if language == Language::Go {
            let (start, end) =
                crate::adapter_memory::arena(&wasm, go::ARENA_MAGIC, go::ARENA_BYTES).ok_or_else(
                    || {
                        // The arena is a variable of the file compiled beside the program: a program
                        // that makes it go missing (its own `main` package rewritten, say) is at fault.
                        CompileError::Program(
                    "the Go program's adapter arena is missing: the program must be one `package \
                     main` file with a `main` function"
                        .into(),
                )
                    },
                )?;
            // Past the magic, 16-byte aligned.
            let start = (start + go::ARENA_MAGIC.len() as u32 + 15) & !15;
            wasm = crate::adapter_memory::with_adapter_memory(&wasm, start, end)
                .map_err(CompileError::Program)?;
        }
        if let Some(stack_bytes) = crate::stack::charged_by_use(language) {
            wasm = crate::stack::charge_stack_by_use(&wasm, stack_bytes).map_err(|e| {
                CompileError::Program(format!("the compiled program cannot run: {e}"))
            })?;
        }
        adapt(
            &wasm,
            crate::meter::runs_on_baseline_compiler(language),
            self.shells.as_ref(),
        )
    }

    /// Runs the confined compiler on `source` in a fresh temp directory; the module it wrote. A C++
    /// program that includes `bits/stdc++.h` first uses the precompiled header; should clang
    /// refuse that header (damaged, or built from another file), the header is dropped, to be
    /// built again, and the program is compiled without it: the host's fault never becomes the
    /// program's compile error.
    fn run_compiler(
        &self,
        language: Language,
        source: &str,
        limits: &CompileLimits,
        crates: Option<&CrateSet>,
    ) -> Result<Vec<u8>, CompileError> {
        let mut outcome = self.run_compiler_with_pch(language, source, limits, crates);
        // C calling functions it never declared, which gcc compiles and clang refuses: again,
        // with the library's declarations (see `implicit`).
        if language == Language::C
            && let Err(CompileError::Program(message)) = &outcome
            && let Some(declared) = implicit::with_declarations(source, message)
        {
            outcome = self.run_compiler_with_pch(language, &declared, limits, crates);
        }
        // g++'s initialised variable-length arrays, which clang refuses: the declarations it
        // reports are rewritten with g++'s meaning (see `vla`), a few rounds at most (a long
        // message may not report them all at once).
        let mut rewritten = source.to_string();
        for _ in 0..3 {
            let Err(CompileError::Program(message)) = &outcome else {
                break;
            };
            if language != Language::Cpp || !message.contains(vla::VLA_ERROR) {
                break;
            }
            let Some(next) = vla::rewrite(&rewritten, &vla::reported(message, "main.cpp")) else {
                break;
            };
            rewritten = next;
            outcome = self.run_compiler_with_pch(language, &rewritten, limits, crates);
        }
        outcome
    }

    /// [`Toolchains::run_compiler_once`], with a precompiled header of the headers the program
    /// includes first when there is one (see [`crate::preamble`]).
    fn run_compiler_with_pch(
        &self,
        language: Language,
        source: &str,
        limits: &CompileLimits,
        crates: Option<&CrateSet>,
    ) -> Result<Vec<u8>, CompileError> {
        let pch = match language {
            Language::Cpp => self.precompiled_preamble(source)?,
            _ => None,
        };
        match self.run_compiler_once(language, source, limits, pch.as_deref(), crates) {
            // The header's fault, not the program's (damaged, built otherwise, or evicted
            // meanwhile): without it.
            Err(CompileError::Program(message))
                if pch.as_ref().is_some_and(|pch| {
                    message.contains("precompiled") || message.contains("PCH") || !pch.is_file()
                }) =>
            {
                if let Some(pch) = &pch {
                    let _ = std::fs::remove_file(pch);
                }
                self.run_compiler_once(language, source, limits, None, crates)
            }
            outcome => outcome,
        }
    }

    /// One confined compile of `source`, with the precompiled header `pch` and the Rust crates
    /// `crates` when given.
    fn run_compiler_once(
        &self,
        language: Language,
        source: &str,
        limits: &CompileLimits,
        pch: Option<&Path>,
        crates: Option<&CrateSet>,
    ) -> Result<Vec<u8>, CompileError> {
        let work = WorkDir::new().map_err(CompileError::Unavailable)?;
        let dir = work.path();
        let file = match language {
            Language::C => "main.c",
            Language::Cpp => "main.cpp",
            Language::Go => "main.go",
            _ => "main.rs",
        };
        std::fs::write(dir.join(file), source).map_err(|e| {
            CompileError::Unavailable(format!("writing the program to compile: {e}"))
        })?;
        if language == Language::Go {
            std::fs::write(dir.join(go::ARENA_FILE), go::ARENA_SOURCE).map_err(|e| {
                CompileError::Unavailable(format!("writing the program to compile: {e}"))
            })?;
        }
        let output = Path::new("main.wasm");
        let confinement = |limits: &CompileLimits| Confinement {
            readable: Vec::new(),
            writable: Vec::new(),
            cpu: limits.cpu,
            wall: limits.wall,
            memory_bytes: limits.memory_bytes,
            file_bytes: limits.file_bytes,
            stderr_bytes: limits.message_bytes * 4,
        };
        let run = |command: Command, readable: Vec<PathBuf>, writable: Vec<PathBuf>| {
            let toolchain = readable.first().cloned();
            let confinement = Confinement {
                readable,
                writable,
                ..confinement(limits)
            };
            confine::run(command, &confinement)
                .map(|finished| (finished, toolchain))
                .map_err(CompileError::Unavailable)
        };
        let (finished, toolchain) = match language {
            Language::Rust | Language::RustRelease => {
                let rustc = self.rustc()?;
                let mut readable = rustc.readable();
                readable.extend(crates.map(|c| c.dir.clone()));
                run(
                    rustc.command(
                        language,
                        Path::new(file),
                        output,
                        dir,
                        &crates.map(CrateSet::rustc_args).unwrap_or_default(),
                    ),
                    readable,
                    vec![dir.to_path_buf()],
                )?
            }
            Language::Go => {
                let go = self.go()?;
                std::fs::create_dir_all(&self.go_cache).map_err(|e| {
                    CompileError::Unavailable(format!(
                        "creating Go's build cache {}: {e}",
                        self.go_cache.display()
                    ))
                })?;
                run(
                    go.command(Path::new(file), output, &self.go_cache, dir),
                    vec![go.install_dir().to_path_buf()],
                    // The go command opens /dev/null (build IDs, its telemetry child).
                    vec![
                        dir.to_path_buf(),
                        self.go_cache.clone(),
                        PathBuf::from("/dev/null"),
                    ],
                )?
            }
            _ => {
                let zig = self.zig()?;
                std::fs::create_dir_all(&self.zig_cache).map_err(|e| {
                    CompileError::Unavailable(format!(
                        "creating zig's cache {}: {e}",
                        self.zig_cache.display()
                    ))
                })?;
                let include = self.include_dir(zig).map_err(CompileError::Unavailable)?;
                let support = self.support_path(zig, language);
                let boost = match language {
                    Language::Cpp => self.boost().map(|b| b.include.as_path()),
                    _ => None,
                };
                let mut readable = vec![zig.install_dir().to_path_buf()];
                readable.extend(boost.map(Path::to_path_buf));
                let driver = |work: &Path| {
                    zig.command(
                        language,
                        Path::new(file),
                        output,
                        &include.dir,
                        &boost.into_iter().collect::<Vec<_>>(),
                        pch,
                        &support,
                        &self.zig_cache,
                        work,
                    )
                };
                let confined = |work: &Path| Confinement {
                    readable: readable.clone(),
                    writable: vec![work.to_path_buf(), self.zig_cache.clone()],
                    ..confinement(limits)
                };
                let finished = self
                    .run_zig(zig, file, dir, &driver, &confined)
                    .map_err(CompileError::Unavailable)?;
                (finished, Some(zig.install_dir().to_path_buf()))
            }
        };
        if finished.cpu_exceeded || finished.timed_out {
            return Err(out_of_time(&finished, limits));
        }
        if !finished.success {
            // Host paths stay on the host: the compiler's installation and the cache are named
            // by what they are.
            let mut hidden = vec![(dir.to_path_buf(), "")];
            if let Some(toolchain) = toolchain {
                hidden.push((toolchain, "<toolchain>/"));
            }
            hidden.push((self.zig_cache.clone(), "<cache>/"));
            hidden.push((self.crates_root.clone(), "<crates>/"));
            hidden.push((self.go_cache.clone(), "<cache>/"));
            if let Some(boost) = self.boost() {
                hidden.push((boost.include.clone(), "<boost>/"));
            }
            let mut message = clean_message(&finished.stderr, &hidden, limits.message_bytes);
            if matches!(language, Language::Rust | Language::RustRelease)
                && let Some(note) = rust_crates::missing_crate_note(&message)
            {
                message = rust_crates::after_first_error(&message, &note);
            }
            if finished.killed_by_limit || message.is_empty() {
                message = format!(
                    "the compiler was stopped (exit {:?}): it may have crossed the compile memory \
                     limit of {} MiB or the file limit of {} MiB\n{message}",
                    finished.code,
                    limits.memory_bytes >> 20,
                    limits.file_bytes >> 20
                );
            }
            return Err(CompileError::Program(message));
        }
        std::fs::read(dir.join(output)).map_err(|e| {
            CompileError::Unavailable(format!("the compiler succeeded but wrote no program: {e}"))
        })
    }
}

/// The entry of `key` in `map`, made when missing. A map of `max` entries that lacks it starts
/// over first: what was forgotten is made again when next asked for.
fn bounded_entry<V: Default>(map: &mut HashMap<Key, V>, key: Key, max: usize) -> &mut V {
    if map.len() >= max && !map.contains_key(&key) {
        map.clear();
    }
    map.entry(key).or_default()
}

/// A compile stopped for time: the program's fault when it used its CPU budget, the host's when
/// the wall-clock net stopped it first (an overloaded machine), so that a slow host never turns a
/// sound program into a compile error.
fn out_of_time(finished: &confine::Finished, limits: &CompileLimits) -> CompileError {
    if finished.cpu_exceeded {
        CompileError::Program(format!(
            "compilation used more than its {} s of CPU",
            limits.cpu.as_secs_f64()
        ))
    } else {
        CompileError::Unavailable(format!(
            "the host is too busy to compile: the compiler got {:.1} s of CPU in {} s, short of \
             its {} s budget, so the program was not judged",
            finished.cpu.as_secs_f64(),
            limits.wall.as_secs_f64(),
            limits.cpu.as_secs_f64()
        ))
    }
}

/// The overlay headers' directory and the hash of its content.
#[derive(Debug, Clone)]
struct Overlay {
    dir: PathBuf,
    hash: String,
}

/// The hash of the support archive's sources for `language`.
fn support_hash(language: Language) -> Vec<u8> {
    let sources = gnu::support_sources(language);
    let mut parts: Vec<&[u8]> = vec![gnu::SUPPORT_LINK.as_bytes()];
    for source in &sources {
        match source {
            gnu::SupportSource::Own(file, text) => parts.extend([file.as_bytes(), text.as_bytes()]),
            // The toolchain's sources are versioned by the toolchain (part of the key already).
            gnu::SupportSource::Toolchain(path, defines) => {
                parts.push(path.as_bytes());
                parts.extend(defines.iter().map(|d| d.as_bytes()));
            }
        }
    }
    key(&parts).to_vec()
}

/// How a compiled module becomes a component, as part of the cache key: a component cached by an
/// earlier adaptation is not reused (revision 2: exit codes routed, see `exit_code`; revision 3:
/// modules screened, see `screen`; revision 4: C, C++ and Rust stacks charged by use, see
/// `stack`; revision 5: its helper called only past the pages already charged; revision 6: Go's
/// bulk instructions charged through the host, see `meter`).
const ADAPTATION: &str = "adapt-6";

/// A WASI preview 1 module as a component, through wasmtime's own preview 1 adapter (command),
/// screened first (`screen`), with its `proc_exit` routed to the host's exit interface
/// (`exit_code`) and, when `metered`, its bulk instructions charged through the host (`meter`).
/// Every failure here is the program's: the module is what the compiler made of its source
/// alone, and the same source always fails the same way (see `screen`). With `shells`, a module
/// whose interface an earlier one had is put in that one's component (see [`crate::shells`]).
fn adapt(module: &[u8], metered: bool, shells: Option<&Shells>) -> Result<Vec<u8>, CompileError> {
    let module = crate::screen::screen(module).map_err(CompileError::Program)?;
    let program_fault = |message: String| {
        CompileError::Program(format!("the compiled program cannot run: {message}"))
    };
    let module = crate::exit_code::route_exit_codes(&module).map_err(program_fault)?;
    let (module, adapter) = if metered {
        (
            crate::meter::charge_bulk_through_host(&module).map_err(program_fault)?,
            crate::meter::metered_adapter().map_err(CompileError::Unavailable)?,
        )
    } else {
        (
            module,
            wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER,
        )
    };
    let encode = || {
        wit_component::ComponentEncoder::default()
            .module(&module)
            .and_then(|e| e.adapter("wasi_snapshot_preview1", adapter))
            .and_then(|e| e.validate(true).encode())
            .map_err(|e| program_fault(format!("adapting it to a component: {e:#}")))
    };
    match shells {
        Some(shells) => {
            let adapter_name = if metered { "metered" } else { "command" };
            shells.component(&module, adapter_name, encode)
        }
        None => encode(),
    }
}

/// The compiler's message with each of `hidden`'s host directories replaced by its stand-in, at
/// most `max` bytes.
fn clean_message(stderr: &str, hidden: &[(PathBuf, &str)], max: usize) -> String {
    let mut message = stderr.to_string();
    for (path, stand_in) in hidden {
        for form in [
            path.clone(),
            path.canonicalize().unwrap_or_else(|_| path.clone()),
        ] {
            message = message.replace(&format!("{}/", form.display()), stand_in);
        }
    }
    let mut message = uniform_denials(message.trim());
    if message.len() > max {
        let cut = (0..=max)
            .rev()
            .find(|&i| message.is_char_boundary(i))
            .unwrap_or(0);
        message.truncate(cut);
        message.push_str("\n… (truncated)");
    }
    message
}

/// `message` with every file the confinement refused reported as a file that does not exist:
/// whether a host file exists is not the program's to learn (`#include "/home/x/.ssh/id_rsa"`
/// would otherwise say "Permission denied" where a missing file says "file not found").
/// The markers under a source line that point at a file that could not be read are one `^`
/// (clang underlines a missing file's whole name, and marks a refused one's first character).
fn uniform_denials(message: &str) -> String {
    const DENIED: [&str; 2] = ["Permission denied", "Operation not permitted"];
    const NOT_FOUND: [&str; 2] = ["file not found", "No such file or directory"];
    let mut since_not_found = usize::MAX;
    message
        .lines()
        .map(|line| {
            since_not_found = since_not_found.saturating_add(1);
            let line = if !DENIED.iter().any(|d| line.contains(d)) {
                line.to_string()
            } else if let Some((before, rest)) = line.split_once("cannot open file '")
                && let Some((path, _)) = rest.rsplit_once("': ")
            {
                // clang: "fatal error: cannot open file 'X': Permission denied".
                format!("{before}'{path}' file not found")
            } else {
                line.replace(
                    "Permission denied (os error 13)",
                    "No such file or directory (os error 2)",
                )
                .replace(
                    "Operation not permitted (os error 1)",
                    "No such file or directory (os error 2)",
                )
                .replace("Permission denied", "No such file or directory")
                .replace("Operation not permitted", "No such file or directory")
            };
            if NOT_FOUND.iter().any(|n| line.contains(n)) {
                since_not_found = 0;
                return line;
            }
            let markers = line.contains('^')
                && line
                    .chars()
                    .all(|c| matches!(c, ' ' | '|' | '^' | '~' | '-'));
            if markers && since_not_found <= 4 {
                let start = line.find('^').unwrap_or(0);
                return format!("{}^", &line[..start]);
            }
            line
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A fresh private temp directory for the compiler, removed when dropped.
struct WorkDir(tempfile::TempDir);

impl WorkDir {
    fn new() -> Result<WorkDir, String> {
        tempfile::Builder::new()
            .prefix("rewardbox-compile-")
            .tempdir()
            .map(WorkDir)
            .map_err(|e| format!("creating a temp directory for the compiler: {e}"))
    }

    fn path(&self) -> &Path {
        self.0.path()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A compile that used its CPU budget is the program's fault; one the wall-clock net
    /// stopped first was starved, the host's.
    #[test]
    fn a_timeout_is_blamed_on_whoever_used_the_time() {
        let limits = CompileLimits::default();
        let finished = |cpu_exceeded, timed_out, cpu| confine::Finished {
            success: false,
            code: None,
            cpu_exceeded,
            timed_out,
            killed_by_limit: false,
            stderr: String::new(),
            cpu,
        };
        let table = [
            (finished(true, false, limits.cpu), true),
            (finished(true, false, limits.cpu * 2), true),
            (finished(false, true, limits.cpu / 2), false),
            (finished(false, true, Duration::ZERO), false),
        ];
        for (finished, programs_fault) in table {
            let error = out_of_time(&finished, &limits);
            assert_eq!(
                matches!(error, CompileError::Program(_)),
                programs_fault,
                "{finished:?}: {error}"
            );
        }
    }
}
