//! Keeps rewardbox's cache directory under a size budget: compiled components (`*.cwasm`),
//! compiled programs (`programs/*.wasm`), the precompiled headers of C++ preambles
//! (`zig/rewardbox-preambles/*.pch`) and zig's driver's steps (`zig/rewardbox-steps/*.txt`) are
//! evicted least recently used first (a hit refreshes a
//! file's mtime), so a long RL run that compiles a distinct C++ program per completion does not
//! fill the disk. zig's own library cache (the rest of `zig/`) is never touched.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The directory of zig's cache that holds the precompiled headers of C++ preambles (see
/// `preamble`), each beside the header it was built from.
pub const PREAMBLES: &str = "rewardbox-preambles";

/// The directory of zig's cache that holds its driver's steps per command line (see
/// `zig_steps`).
pub const ZIG_STEPS: &str = "rewardbox-steps";

/// The budget when `REWARDBOX_CACHE_MAX_MB` is not set: 4 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 4 << 30;

/// The cache budget in bytes: `REWARDBOX_CACHE_MAX_MB` (`0` means no limit), else
/// [`DEFAULT_MAX_BYTES`]; `None` when unlimited.
pub fn max_bytes() -> Option<u64> {
    match std::env::var("REWARDBOX_CACHE_MAX_MB") {
        Ok(value) => match value.trim().parse::<u64>() {
            Ok(0) => None,
            Ok(mb) => Some(mb << 20),
            Err(_) => {
                eprintln!(
                    "rewardbox: warning: REWARDBOX_CACHE_MAX_MB={value:?} is not a number of \
                     megabytes; using the default of {} MB",
                    DEFAULT_MAX_BYTES >> 20
                );
                Some(DEFAULT_MAX_BYTES)
            }
        },
        Err(_) => Some(DEFAULT_MAX_BYTES),
    }
}

/// Marks `path` as just used, so that eviction keeps it longest.
pub fn touch(path: &Path) {
    if let Ok(file) = std::fs::File::options().append(true).open(path) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// What [`prune`] removed.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pruned {
    /// Files removed.
    pub files: usize,
    /// Their bytes.
    pub bytes: u64,
}

/// Removes the least recently used cache files of `cache_dir` (its `*.cwasm`, and `programs/*.wasm`)
/// until they take at most `max_bytes`, never `keep` (the file just written, which is about to be
/// used). Files of other names (temp files being written, zig's cache) are left alone; a file
/// another process removed first is skipped.
pub fn prune(cache_dir: &Path, max_bytes: u64, keep: Option<&Path>) -> Pruned {
    let mut files: Vec<(SystemTime, u64, PathBuf)> = Vec::new();
    for (dir, extension) in [
        (cache_dir.to_path_buf(), "cwasm"),
        (cache_dir.join("programs"), "wasm"),
        (cache_dir.join("zig").join(PREAMBLES), "pch"),
        (cache_dir.join("zig").join(ZIG_STEPS), "txt"),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if name.starts_with('.') || path.extension().is_none_or(|e| e != extension) {
                continue;
            }
            let Ok(meta) = entry.metadata() else {
                continue;
            };
            if meta.is_file() {
                let used = meta.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                files.push((used, meta.len(), path));
            }
        }
    }
    let mut total: u64 = files.iter().map(|(_, size, _)| size).sum();
    let mut pruned = Pruned::default();
    if total <= max_bytes {
        return pruned;
    }
    files.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.2.cmp(&b.2)));
    for (_, size, path) in files {
        if total <= max_bytes {
            break;
        }
        if keep == Some(path.as_path()) {
            continue;
        }
        if std::fs::remove_file(&path).is_ok() {
            pruned.files += 1;
            pruned.bytes += size;
            if path.extension().is_some_and(|e| e == "pch") {
                let _ = std::fs::remove_file(path.with_extension("h"));
            }
        }
        total = total.saturating_sub(size);
    }
    pruned
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn file(path: &Path, size: usize, age_s: u64) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, vec![0u8; size]).unwrap();
        let at = SystemTime::now() - Duration::from_secs(age_s);
        std::fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(at)
            .unwrap();
    }

    #[test]
    fn evicts_least_recently_used_first_and_only_cache_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        file(&root.join("old.cwasm"), 400, 500);
        file(&root.join("programs/older.wasm"), 300, 900);
        file(&root.join("programs/new.wasm"), 300, 10);
        file(&root.join("used.cwasm"), 400, 800);
        file(&root.join(".x.123.0.tmp"), 5000, 1000);
        file(&root.join("zig/o/lib.a"), 5000, 1000);
        file(&root.join("zig/rewardbox-preambles/old.pch"), 100, 950);
        file(&root.join("zig/rewardbox-preambles/old.h"), 10, 950);
        file(&root.join("zig/rewardbox-preambles/new.h"), 10, 950);
        file(&root.join("zig/rewardbox-steps/old.txt"), 100, 940);
        // A hit refreshes the oldest component.
        touch(&root.join("used.cwasm"));
        let pruned = prune(root, 800, None);
        assert_eq!(
            pruned,
            Pruned {
                files: 4,
                bytes: 900
            }
        );
        assert!(!root.join("zig/rewardbox-steps/old.txt").exists());
        assert!(!root.join("zig/rewardbox-preambles/old.pch").exists());
        assert!(!root.join("zig/rewardbox-preambles/old.h").exists());
        assert!(!root.join("programs/older.wasm").exists());
        assert!(!root.join("old.cwasm").exists());
        for kept in [
            "used.cwasm",
            "programs/new.wasm",
            ".x.123.0.tmp",
            "zig/o/lib.a",
            "zig/rewardbox-preambles/new.h",
        ] {
            assert!(root.join(kept).exists(), "{kept}");
        }
        // Within budget: nothing goes.
        assert_eq!(prune(root, 800, None), Pruned::default());
        // The file just written stays even when it alone is over the budget.
        let kept = prune(root, 0, Some(&root.join("used.cwasm")));
        assert_eq!(kept.files, 1);
        assert!(root.join("used.cwasm").exists());
    }
}
