//! Compiled programs on disk, keyed by the hash of (language, source, flags, compiler version):
//! written to a temporary name and renamed into place, so concurrent processes never read a
//! half-written file.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The content hash a compiled program is cached under.
pub type Key = [u8; 32];

/// The cache key of `parts` (each length-prefixed, so that no two part lists collide).
pub fn key(parts: &[&[u8]]) -> Key {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// `bytes` in lowercase hexadecimal.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A directory of compiled programs, or none (every process compiles again).
#[derive(Debug, Clone)]
pub struct ProgramCache {
    dir: Option<PathBuf>,
}

impl ProgramCache {
    /// Programs kept in `dir` (created on first store), or not kept when `None`.
    pub fn new(dir: Option<PathBuf>) -> Self {
        ProgramCache { dir }
    }

    /// The cache directory, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn path(&self, key: &Key) -> Option<PathBuf> {
        let name = format!("{}.wasm", hex(key));
        self.dir.as_ref().map(|d| d.join(name))
    }

    /// The program stored under `key`, if any.
    pub fn load(&self, key: &Key) -> Option<Vec<u8>> {
        self.path(key).and_then(|p| std::fs::read(p).ok())
    }

    /// Stores `wasm` under `key`; a cache that cannot be written is skipped, not fatal.
    pub fn store(&self, key: &Key, wasm: &[u8]) {
        let (Some(dir), Some(path)) = (self.dir.as_ref(), self.path(key)) else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let temp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&temp, wasm).is_ok() && std::fs::rename(&temp, &path).is_err() {
            let _ = std::fs::remove_file(&temp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_separate_their_parts() {
        assert_ne!(key(&[b"ab", b"c"]), key(&[b"a", b"bc"]));
        assert_eq!(key(&[b"ab", b"c"]), key(&[b"ab", b"c"]));
    }

    #[test]
    fn stores_and_loads() {
        let dir = std::env::temp_dir().join(format!("rewardbox-programs-{}", std::process::id()));
        let cache = ProgramCache::new(Some(dir.clone()));
        let k = key(&[b"c", b"int main(){}"]);
        assert_eq!(cache.load(&k), None);
        cache.store(&k, b"\0asm");
        assert_eq!(cache.load(&k).as_deref(), Some(&b"\0asm"[..]));
        assert_eq!(ProgramCache::new(None).load(&k), None);
        std::fs::remove_dir_all(dir).ok();
    }
}
