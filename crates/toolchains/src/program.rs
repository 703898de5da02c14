//! What every compiled program gets, whichever compiler made it, and where compilers are found.

use std::path::PathBuf;

/// Stack of a compiled program: 8 MiB, as on Linux, so that deep recursion behaves as natively.
pub const STACK_BYTES: u64 = 8 << 20;

/// `name` on `PATH`, if there.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}
