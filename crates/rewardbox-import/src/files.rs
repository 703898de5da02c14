//! The files of a package an importer reads (a Kattis problem package, a DeepGym environment
//! folder), and only those.
//!
//! A package is data from elsewhere: its names may point anywhere (`#include
//! "../../../../proc/self/environ"`, a `support_files` entry `/etc/passwd`, a symbolic link to the
//! home directory), its links may loop, its files may be devices or pipes that never end. So
//! every path an importer opens goes through [`PackageDir`]: it is resolved (every link
//! followed, `..` taken away) and refused unless it lands inside the package's own directory; only
//! regular files are read, each within a size bound, the whole package within a byte budget; and a
//! walk of its directories refuses a directory that links back to one it is inside.

use std::cell::Cell;
use std::path::{Path, PathBuf};

/// The largest file of a package read (test data included).
pub const MAX_FILE_BYTES: u64 = 512 << 20;

/// The most a package's files may hold together, as read (a file read twice counts twice).
pub const MAX_PACKAGE_BYTES: u64 = 2 << 30;

/// A package's directory, resolved, and what has been read from it so far.
#[derive(Debug)]
pub struct PackageDir {
    root: PathBuf,
    read: Cell<u64>,
    budget: u64,
}

impl PackageDir {
    /// The package in `dir` (resolved); an error when it is not a readable directory.
    pub fn open(dir: &Path) -> Result<PackageDir, String> {
        let root = dir
            .canonicalize()
            .map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        if !root.is_dir() {
            return Err(format!("{} is not a directory", dir.display()));
        }
        Ok(PackageDir {
            root,
            read: Cell::new(0),
            budget: MAX_PACKAGE_BYTES,
        })
    }

    /// The same package with a smaller budget for what may be read from it in all.
    #[cfg(test)]
    pub fn with_budget(mut self, bytes: u64) -> PackageDir {
        self.budget = bytes;
        self
    }

    /// The package's directory, resolved.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `path` (absolute, or relative to the package) as the package names it, for messages:
    /// relative to the package when it is inside.
    pub fn name_of(&self, path: &Path) -> String {
        let full = self.root.join(path);
        match full.strip_prefix(&self.root) {
            Ok(inside) if !inside.as_os_str().is_empty() => inside.display().to_string(),
            Ok(_) => ".".into(),
            Err(_) => path.display().to_string(),
        }
    }

    /// Where `path` (absolute, or relative to the package) really is, every link followed; an
    /// error naming it when it does not exist or lands outside the package.
    pub fn resolve(&self, path: &Path) -> Result<PathBuf, String> {
        let name = self.name_of(path);
        if !self.lexically_inside(path) {
            return Err(format!(
                "{name} leads outside the package (the importer reads only files inside it)"
            ));
        }
        let real = self
            .root
            .join(path)
            .canonicalize()
            .map_err(|e| format!("cannot read {name}: {e}"))?;
        if !real.starts_with(&self.root) {
            return Err(format!(
                "{name} leads outside the package (the importer reads only files inside it)"
            ));
        }
        Ok(real)
    }

    /// Whether `path`, read as written (no link followed), stays inside the package: relative
    /// without climbing above it, or absolute under its directory.
    pub fn lexically_inside(&self, path: &Path) -> bool {
        use std::path::Component;
        let relative = match path.strip_prefix(&self.root) {
            Ok(inside) => inside,
            Err(_) if path.is_absolute() => return false,
            Err(_) => path,
        };
        let mut depth = 0usize;
        for component in relative.components() {
            match component {
                Component::Normal(_) => depth += 1,
                Component::CurDir => {}
                Component::ParentDir if depth > 0 => depth -= 1,
                Component::ParentDir | Component::RootDir | Component::Prefix(_) => return false,
            }
        }
        true
    }

    /// Whether `path` is a regular file inside the package (links followed).
    pub fn is_file(&self, path: &Path) -> bool {
        self.resolve(path).is_ok_and(|real| real.is_file())
    }

    /// Whether `path` is a directory inside the package (links followed).
    pub fn is_dir(&self, path: &Path) -> bool {
        self.resolve(path).is_ok_and(|real| real.is_dir())
    }

    /// The bytes of the regular file `path` inside the package, within [`MAX_FILE_BYTES`] and
    /// what is left of the package's budget.
    pub fn read(&self, path: &Path) -> Result<Vec<u8>, String> {
        let name = self.name_of(path);
        let real = self.resolve(path)?;
        let metadata = std::fs::metadata(&real).map_err(|e| format!("cannot read {name}: {e}"))?;
        if !metadata.is_file() {
            return Err(format!("{name} is not a regular file"));
        }
        if metadata.len() > MAX_FILE_BYTES {
            return Err(format!(
                "{name} holds {} bytes, more than the {MAX_FILE_BYTES} an importer reads from one file",
                metadata.len()
            ));
        }
        let total = self.read.get().saturating_add(metadata.len());
        if total > self.budget {
            return Err(format!(
                "reading {name} takes the package past {} bytes read in all (links that repeat \
                 its data count each time)",
                self.budget
            ));
        }
        let bytes = std::fs::read(&real).map_err(|e| format!("cannot read {name}: {e}"))?;
        // What was read, not what the metadata said (a file that grew while read).
        self.read
            .set(self.read.get().saturating_add(bytes.len() as u64));
        if self.read.get() > self.budget {
            return Err(format!(
                "reading {name} takes the package past {} bytes read in all",
                self.budget
            ));
        }
        Ok(bytes)
    }

    /// The UTF-8 text of the regular file `path` inside the package (see [`PackageDir::read`]).
    pub fn read_text(&self, path: &Path) -> Result<String, String> {
        let bytes = self.read(path)?;
        String::from_utf8(bytes).map_err(|_| format!("{} is not UTF-8 text", self.name_of(path)))
    }

    /// The text of `path` when it exists, `None` when it does not (a link out of the package, a
    /// directory or a file too large is still an error).
    pub fn read_optional(&self, path: &Path) -> Result<Option<String>, String> {
        if !self.lexically_inside(path) {
            return self.resolve(path).map(|_| None);
        }
        match self.root.join(path).symlink_metadata() {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            _ => self.read_text(path).map(Some),
        }
    }

    /// The entries of directory `dir` inside the package that lead somewhere inside it, sorted,
    /// without those `skip` says to leave out (by file name); an entry leading outside is left out
    /// too, and named in the second list.
    pub fn entries(&self, dir: &Path, skip: impl Fn(&str) -> bool) -> (Vec<PathBuf>, Vec<String>) {
        let Ok(real) = self.resolve(dir) else {
            return (Vec::new(), Vec::new());
        };
        let mut inside = Vec::new();
        let mut outside = Vec::new();
        let Ok(listing) = std::fs::read_dir(&real) else {
            return (inside, outside);
        };
        for entry in listing.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if skip(&name) {
                continue;
            }
            let path = dir.join(&name);
            match self.resolve(&path) {
                Ok(_) => inside.push(path),
                Err(why) => outside.push(why),
            }
        }
        inside.sort();
        outside.sort();
        (inside, outside)
    }
}

/// The directories a walk is inside, resolved, so that a link back into one of them (a cycle)
/// is refused instead of followed for ever.
#[derive(Debug, Default)]
pub struct Walk {
    open: Vec<PathBuf>,
}

impl Walk {
    /// Enters directory `dir` of `package`: an error naming it when it is (a link to) a
    /// directory the walk is already inside. Call [`Walk::leave`] after.
    pub fn enter(&mut self, package: &PackageDir, dir: &Path) -> Result<(), String> {
        let real = package.resolve(dir)?;
        if let Some(ancestor) = self.open.iter().find(|open| real == **open) {
            return Err(format!(
                "{} links back to {}, a directory it is inside: the directories form a cycle",
                package.name_of(dir),
                package.name_of(ancestor)
            ));
        }
        self.open.push(real);
        Ok(())
    }

    /// Leaves the directory entered last.
    pub fn leave(&mut self) {
        self.open.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn package() -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("pkg");
        std::fs::create_dir_all(root.join("data/sub")).unwrap();
        std::fs::write(root.join("data/sub/1.in"), "1\n").unwrap();
        std::fs::write(dir.path().join("secret.txt"), "host secret").unwrap();
        (dir, root)
    }

    #[test]
    fn names_outside_the_package_are_refused_whatever_their_form() {
        let (dir, root) = package();
        symlink(dir.path().join("secret.txt"), root.join("link.txt")).unwrap();
        symlink(dir.path(), root.join("data/up")).unwrap();
        let package = PackageDir::open(&root).unwrap();
        assert_eq!(
            package.read_text(Path::new("data/sub/1.in")).unwrap(),
            "1\n"
        );
        assert_eq!(
            package
                .read_text(Path::new("data/sub/../sub/1.in"))
                .unwrap(),
            "1\n"
        );
        let outside = [
            "../secret.txt".to_string(),
            dir.path().join("secret.txt").display().to_string(),
            "link.txt".into(),
            "data/up/secret.txt".into(),
            "/etc/passwd".into(),
            "/proc/self/environ".into(),
            "data/../../secret.txt".into(),
        ];
        for name in outside {
            let error = package.read_text(Path::new(&name)).unwrap_err();
            assert!(
                error.contains("outside the package") || error.contains("cannot read"),
                "{name}: {error}"
            );
            assert!(!error.contains("host secret"), "{error}");
        }
        let (entries, left_out) = package.entries(Path::new("data"), |_| false);
        assert_eq!(entries, [PathBuf::from("data/sub")]);
        assert_eq!(left_out.len(), 1, "{left_out:?}");
    }

    #[test]
    fn only_regular_files_within_the_bounds_are_read() {
        let (_dir, root) = package();
        std::fs::write(root.join("big"), vec![b'x'; 1000]).unwrap();
        let package = PackageDir::open(&root).unwrap().with_budget(1500);
        assert!(
            package
                .read(Path::new("data"))
                .unwrap_err()
                .contains("not a regular file")
        );
        assert!(package.read(Path::new("big")).is_ok());
        let error = package.read(Path::new("big")).unwrap_err();
        assert!(error.contains("1500 bytes read in all"), "{error}");
        assert_eq!(package.read_optional(Path::new("none.txt")).unwrap(), None);
    }

    #[test]
    fn a_walk_refuses_a_directory_that_links_back() {
        let (_dir, root) = package();
        symlink(root.join("data"), root.join("data/sub/loop")).unwrap();
        let package = PackageDir::open(&root).unwrap();
        let mut walk = Walk::default();
        walk.enter(&package, Path::new("data")).unwrap();
        walk.enter(&package, Path::new("data/sub")).unwrap();
        let error = walk
            .enter(&package, Path::new("data/sub/loop"))
            .unwrap_err();
        assert!(error.contains("cycle"), "{error}");
        assert!(error.contains("data/sub/loop"), "{error}");
        walk.leave();
        walk.leave();
        // A sibling link to a directory not on the path is no cycle.
        walk.enter(&package, Path::new("data/sub")).unwrap();
    }
}
