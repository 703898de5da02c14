//! Finding the folders an import reads (DeepGym environments, Kattis problem packages).

use std::path::PathBuf;

/// Each of `dirs` that holds `marker` (a file); one that does not is searched one level down, and
/// kept itself when nothing below holds it either (so that reading it reports why).
pub fn dirs_holding(dirs: &[PathBuf], marker: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    for dir in dirs {
        if dir.join(marker).is_file() || !dir.is_dir() {
            found.push(dir.clone());
            continue;
        }
        let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.join(marker).is_file())
                    .collect()
            })
            .unwrap_or_default();
        children.sort();
        if children.is_empty() {
            found.push(dir.clone());
        }
        found.extend(children);
    }
    found
}
