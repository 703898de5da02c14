//! A fingerprint of a build's inputs, so that a build whose output is not byte-reproducible
//! (componentize-py's: upstream issue bytecodealliance/componentize-py#247) is run once per
//! distinct input and its output reused, bytes and all. Reused bytes keep the compiled `.cwasm`
//! cache, which is keyed by the component's bytes, valid across rebuilds of the host crate.

use std::hash::{DefaultHasher, Hasher};
use std::path::{Path, PathBuf};

/// A hex fingerprint of every file under `paths` (recursively; each file's path relative to its
/// root and its bytes, in sorted order; `__pycache__` folders skipped) and of `extra`.
pub fn fingerprint(paths: &[&Path], extra: &[&[u8]]) -> String {
    let mut hasher = DefaultHasher::new();
    for root in paths {
        let mut files = Vec::new();
        collect(root, &mut files);
        files.sort();
        hasher.write_usize(files.len());
        for file in files {
            let relative = file.strip_prefix(root).unwrap_or(&file);
            hasher.write(relative.to_string_lossy().as_bytes());
            hasher.write_u8(0);
            let bytes = std::fs::read(&file).unwrap_or_default();
            hasher.write_usize(bytes.len());
            hasher.write(&bytes);
        }
    }
    for part in extra {
        hasher.write_usize(part.len());
        hasher.write(part);
    }
    format!("{:016x}", hasher.finish())
}

/// The fingerprint of this crate's post-processing of the CPython runner ([`crate::immortalize`]):
/// a change to it must change the reused output too.
pub fn immortalize_revision() -> &'static str {
    include_str!("immortalize.rs")
}

fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_file() {
        files.push(path.to_path_buf());
        return;
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.file_name().is_some_and(|n| n == "__pycache__") {
            continue;
        }
        collect(&path, files);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_with_content_and_names_but_not_with_pycache() {
        let dir = std::env::temp_dir().join(format!("guest-build-fp-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("pkg/__pycache__")).unwrap();
        std::fs::write(dir.join("pkg/a.py"), "x = 1\n").unwrap();
        let first = fingerprint(&[&dir], &[b"v1"]);
        std::fs::write(dir.join("pkg/__pycache__/a.pyc"), "junk").unwrap();
        assert_eq!(fingerprint(&[&dir], &[b"v1"]), first);
        assert_ne!(fingerprint(&[&dir], &[b"v2"]), first);
        std::fs::write(dir.join("pkg/a.py"), "x = 2\n").unwrap();
        let changed = fingerprint(&[&dir], &[b"v1"]);
        assert_ne!(changed, first);
        std::fs::rename(dir.join("pkg/a.py"), dir.join("pkg/b.py")).unwrap();
        assert_ne!(fingerprint(&[&dir], &[b"v1"]), changed);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
