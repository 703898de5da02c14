//! A byte budget on a directory a guest may write (a `/run_code` working directory, an episode's
//! workspace): the host's disk is not the guest's to fill.
//!
//! The directory is measured while the guest runs (at every wall-clock check of its job, every
//! [`crate::job::CHECK_TICKS`] ms of its execution) and once more when it ends: its
//! files' sizes as they claim them (so a sparse file counts whole: it is what reading it back
//! would cost) and its number of entries. Crossing either ends the guest, its own fault, like
//! crossing its output limit. A single write is bounded by the guest's memory limit, so the
//! directory never grows past the budget by more than that.

use std::path::{Path, PathBuf};

/// What a writable directory may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskBudget {
    /// Bytes over all its files (their apparent sizes).
    pub bytes: u64,
    /// Files, directories and links in it, at any depth.
    pub entries: usize,
}

impl DiskBudget {
    /// 256 MiB in at most 10,000 entries.
    pub const DEFAULT: DiskBudget = DiskBudget {
        bytes: 256 << 20,
        entries: 10_000,
    };
}

impl Default for DiskBudget {
    fn default() -> Self {
        DiskBudget::DEFAULT
    }
}

/// The guest crossed its directory's budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DiskBudgetExceeded {
    /// The budget it crossed.
    pub budget: DiskBudget,
}

impl std::fmt::Display for DiskBudgetExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "wrote more than its files may hold ({} bytes in {} entries)",
            self.budget.bytes, self.budget.entries
        )
    }
}

impl std::error::Error for DiskBudgetExceeded {}

/// A directory under a budget.
#[derive(Debug, Clone)]
pub struct Watched {
    /// The directory, on the host.
    pub dir: PathBuf,
    /// What it may hold.
    pub budget: DiskBudget,
}

impl Watched {
    /// Whether the directory is within its budget now.
    pub fn check(&self) -> Result<(), DiskBudgetExceeded> {
        within(&self.dir, self.budget)
    }
}

/// Whether `dir` holds at most `budget`. Links are counted, never followed; the walk stops as
/// soon as the budget is crossed, so measuring costs at most `budget.entries` lookups.
pub fn within(dir: &Path, budget: DiskBudget) -> Result<(), DiskBudgetExceeded> {
    let exceeded = DiskBudgetExceeded { budget };
    let mut bytes = 0u64;
    let mut entries = 0usize;
    let mut pending = vec![dir.to_path_buf()];
    while let Some(next) = pending.pop() {
        let Ok(listing) = std::fs::read_dir(&next) else {
            continue;
        };
        for entry in listing.flatten() {
            entries += 1;
            if entries > budget.entries {
                return Err(exceeded);
            }
            let Ok(meta) = entry.path().symlink_metadata() else {
                continue;
            };
            if meta.is_dir() {
                pending.push(entry.path());
            } else {
                bytes = bytes.saturating_add(meta.len());
                if bytes > budget.bytes {
                    return Err(exceeded);
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_sparse_files_and_entries_count() {
        let dir = tempfile::tempdir().unwrap();
        let budget = DiskBudget {
            bytes: 1000,
            entries: 5,
        };
        assert!(within(dir.path(), budget).is_ok());
        std::fs::create_dir_all(dir.path().join("a/b")).unwrap();
        std::fs::write(dir.path().join("a/b/f"), vec![0u8; 900]).unwrap();
        assert!(within(dir.path(), budget).is_ok());
        std::fs::write(dir.path().join("a/g"), vec![0u8; 200]).unwrap();
        assert!(within(dir.path(), budget).is_err(), "1100 bytes");
        std::fs::remove_file(dir.path().join("a/g")).unwrap();
        // A sparse file counts whole.
        let sparse = std::fs::File::create(dir.path().join("sparse")).unwrap();
        sparse.set_len(1 << 30).unwrap();
        assert!(within(dir.path(), budget).is_err(), "a sparse GiB");
        std::fs::remove_file(dir.path().join("sparse")).unwrap();
        for i in 0..3 {
            std::fs::write(dir.path().join(format!("e{i}")), b"").unwrap();
        }
        assert!(within(dir.path(), budget).is_err(), "6 entries");
    }
}
