//! What every compiled program gets, whichever compiler made it, and where compilers are found.

use std::path::PathBuf;

/// The stack a compiled C, C++ or Rust program is linked with: 1 GiB, beyond the memory limit a
/// judge sets for one program, so that, as on a judge (whose stack limit is the memory limit), the
/// memory limit is what bounds it. Reserved address space, not charged as such: the pages the
/// stack touches are charged to the memory limit (see [`crate::stack`]). Go's goroutine stacks
/// live in its heap and grow to Go's own 1 GB maximum.
pub const STACK_BYTES: u64 = 1 << 30;

/// A tool's binary, canonicalised: the path in `$variable` when it is set (and nothing else then),
/// else `hint` (where `scripts/setup.sh` installed it, recorded by the build script), else `name`
/// on `PATH`; `None` when none of them is a file.
pub fn find_tool(variable: &str, hint: Option<&str>, name: &str) -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os(variable) {
        Some(set) => vec![PathBuf::from(set)],
        None => hint
            .map(PathBuf::from)
            .into_iter()
            .chain(on_path(name))
            .collect(),
    };
    let binary = candidates.into_iter().find(|p| p.is_file())?;
    Some(binary.canonicalize().unwrap_or(binary))
}

/// `name` on `PATH`, if there.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
