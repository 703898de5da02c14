//! What every compiled program gets, whichever compiler made it, and where compilers are found.

use std::path::PathBuf;

/// Stack of a compiled program: 8 MiB, as on Linux, so that deep recursion behaves as natively.
pub const STACK_BYTES: u64 = 8 << 20;

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
