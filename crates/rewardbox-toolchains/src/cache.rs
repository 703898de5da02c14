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

/// A temporary name beside `path`, unique to this process and call: threads and processes that
/// build the same file at once each write their own temp file and rename it into place.
pub fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{name}.{}.{}.tmp",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Writes `bytes` to `path` through a unique temp file and a rename, so that no reader ever sees
/// a half-written file, whoever else writes the same path at the same time.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let temp = temp_beside(path);
    std::fs::write(&temp, bytes)?;
    std::fs::rename(&temp, path).inspect_err(|_| {
        let _ = std::fs::remove_file(&temp);
    })
}

/// Moves the finished file `temp` to `path` unless `path` already exists, in which case the file
/// already there is kept untouched (its mtime too) and `temp` is removed. For files other builds
/// depend on, such as a header that a precompiled header was built from.
pub fn publish_once(temp: &Path, path: &Path) -> std::io::Result<()> {
    let linked = std::fs::hard_link(temp, path);
    let _ = std::fs::remove_file(temp);
    match linked {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => Err(e),
        _ => Ok(()),
    }
}

/// Makes `path` hold `content` (its directory made if need be): left untouched when it already
/// does, so that its mtime stays what a precompiled header built from it remembers; otherwise
/// (missing, or damaged: the name is derived from the content, so the content is known) written
/// again through [`publish_once`].
pub fn write_once(path: &Path, content: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).ok().as_deref() == Some(content) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)
            .map_err(|e| format!("creating {}: {e}", parent.display()))?;
    }
    if path.exists() {
        let _ = std::fs::remove_file(path);
    }
    let temp = temp_beside(path);
    std::fs::write(&temp, content)
        .and_then(|_| publish_once(&temp, path))
        .map_err(|e| format!("writing {}: {e}", path.display()))
}

/// How often (in stores of one process) the program cache checks the cache's budget.
pub const PRUNE_EVERY: u64 = 64;

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

    fn path(&self, key: &Key) -> Option<PathBuf> {
        let name = format!("{}.wasm", hex(key));
        self.dir.as_ref().map(|d| d.join(name))
    }

    /// The program stored under `key`, if any (marked as just used).
    pub fn load(&self, key: &Key) -> Option<Vec<u8>> {
        let path = self.path(key)?;
        let wasm = std::fs::read(&path).ok()?;
        crate::prune::touch(&path);
        Some(wasm)
    }

    /// Stores `wasm` under `key`; a cache that cannot be written is skipped, not fatal. Every
    /// [`PRUNE_EVERY`]th store of a process keeps the whole cache within its budget
    /// ([`crate::prune`]).
    pub fn store(&self, key: &Key, wasm: &[u8]) {
        let (Some(dir), Some(path)) = (self.dir.as_ref(), self.path(key)) else {
            return;
        };
        if std::fs::create_dir_all(dir).is_err() {
            return;
        }
        let _ = write_atomically(&path, wasm);
        use std::sync::atomic::{AtomicU64, Ordering};
        static STORES: AtomicU64 = AtomicU64::new(0);
        if STORES
            .fetch_add(1, Ordering::Relaxed)
            .is_multiple_of(PRUNE_EVERY)
            && let (Some(cache), Some(max)) = (dir.parent(), crate::prune::max_bytes())
        {
            crate::prune::prune(cache, max, Some(&path));
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

    /// Threads writing the same path at once each succeed, and the file is always one whole write.
    #[test]
    fn concurrent_writers_of_one_path_never_collide() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("shared.bin");
        std::thread::scope(|scope| {
            for writer in 0..8u8 {
                let path = &path;
                scope.spawn(move || {
                    for _ in 0..40 {
                        write_atomically(path, &vec![writer; 256 * 1024]).unwrap();
                        let read = std::fs::read(path).unwrap();
                        assert_eq!(read.len(), 256 * 1024);
                        assert!(read.iter().all(|&b| b == read[0]), "a torn write");
                    }
                });
            }
        });
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(leftovers, vec![std::ffi::OsString::from("shared.bin")]);
    }

    /// The first file published at a path stays, untouched, whoever publishes after it.
    #[test]
    fn publish_once_keeps_the_first_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("header.h");
        for content in ["first", "second"] {
            let temp = temp_beside(&path);
            std::fs::write(&temp, content).unwrap();
            publish_once(&temp, &path).unwrap();
            assert!(!temp.exists());
        }
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "first");
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
