//! A package's programs (submissions, output validators): a single file or a directory, its
//! language told by its file endings as the format's language table says, made into one source.
//!
//! rewardbox compiles one source per program, so a C or C++ program's local headers (`#include
//! "validate.h"`, `"testlib.h"`) are written into it where they are included, with `#line`
//! directives so that compiler messages still name the header. A program of several
//! translation units, one with `build`/`run` scripts, or one in a language rewardbox does not
//! run is refused, naming why.

use crate::files::PackageDir;
use std::path::{Path, PathBuf};

/// A program read from a package.
#[derive(Debug, Clone, PartialEq)]
pub struct Program {
    /// Its name: the file or directory name.
    pub name: String,
    /// rewardbox's name of its language (`c`, `cpp`, `python`, `rust`, `javascript`).
    pub language: &'static str,
    /// Its source, headers written in.
    pub source: String,
}

/// Why a program cannot be used.
#[derive(Debug, Clone, PartialEq)]
pub enum Unusable {
    /// It is in a language rewardbox does not run (named).
    Language(String),
    /// It cannot be made into one source, or read: says why.
    Other(String),
}

impl std::fmt::Display for Unusable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unusable::Language(language) => {
                write!(f, "{language} is not a language rewardbox runs")
            }
            Unusable::Other(why) => f.write_str(why),
        }
    }
}

/// Kinds of source file, by ending.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A main source in one of rewardbox's languages.
    Main(&'static str),
    /// A C or C++ header, written into the source that includes it.
    Header,
    /// Source in another language (its name).
    Foreign(&'static str),
    /// Not source.
    Other,
}

fn kind(path: &Path) -> Kind {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let extension = name.rsplit_once('.').map_or("", |(_, e)| e);
    match extension {
        "c" => Kind::Main("c"),
        "cc" | "cpp" | "cxx" | "c++" | "C" => Kind::Main("cpp"),
        "py" | "py3" => Kind::Main("python"),
        // Kattis compiles Rust with `rustc -O`: release semantics, overflow wraps.
        "rs" => Kind::Main("rust-release"),
        "js" => Kind::Main("javascript"),
        "ts" => Kind::Main("typescript"),
        "h" | "hpp" | "hh" | "hxx" => Kind::Header,
        "java" => Kind::Foreign("Java"),
        "kt" => Kind::Foreign("Kotlin"),
        "go" => Kind::Main("go"),
        "cs" => Kind::Foreign("C#"),
        "hs" => Kind::Foreign("Haskell"),
        "rb" => Kind::Foreign("Ruby"),
        "php" => Kind::Foreign("PHP"),
        "scala" => Kind::Foreign("Scala"),
        "ml" => Kind::Foreign("OCaml"),
        "lisp" => Kind::Foreign("Common Lisp"),
        "pl" => Kind::Foreign("Prolog"),
        "swift" => Kind::Foreign("Swift"),
        "py2" => Kind::Foreign("Python 2"),
        _ => Kind::Other,
    }
}

/// Whether `path`'s ending makes it a program of its own, as a judge takes one (in a language
/// rewardbox runs or not): anything else beside a package's programs (`*.template`, `.ctd`,
/// `.viva`, notes) is not one.
pub fn is_program_file(path: &Path) -> bool {
    matches!(kind(path), Kind::Main(_) | Kind::Foreign(_))
}

/// How deep headers may include headers.
const MAX_INCLUDE_DEPTH: usize = 16;

/// Reads the program at `path` of `package` (a file, or a directory of files). Everything it
/// reads, its headers included, is read inside the package.
pub fn read_program(package: &PackageDir, path: &Path) -> Result<Program, Unusable> {
    read_program_including(package, path, &[])
}

/// [`read_program`], a quoted include looked for beside the file that includes it and then in
/// `include_dirs` (Polygon compiles every program with its package's `files/` on the path).
pub fn read_program_including(
    package: &PackageDir,
    path: &Path,
    include_dirs: &[PathBuf],
) -> Result<Program, Unusable> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let files: Vec<PathBuf> = if package.is_dir(path) {
        let (files, _) = package.entries(path, |_| false);
        let files: Vec<PathBuf> = files.into_iter().filter(|f| package.is_file(f)).collect();
        if files.iter().any(|f| {
            matches!(
                f.file_name().and_then(|n| n.to_str()),
                Some("build" | "run")
            )
        }) {
            return Err(Unusable::Other(format!(
                "{name} has build/run scripts, which rewardbox does not run (it compiles one source per program)"
            )));
        }
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mains: Vec<(&PathBuf, &'static str)> = files
        .iter()
        .filter_map(|f| match kind(f) {
            Kind::Main(language) => Some((f, language)),
            _ => None,
        })
        .collect();
    let main = match mains[..] {
        [one] => one,
        [] => {
            let foreign = files.iter().find_map(|f| match kind(f) {
                Kind::Foreign(language) => Some(language),
                _ => None,
            });
            return Err(match foreign {
                Some(language) => Unusable::Language(language.into()),
                None => Unusable::Other(format!("{name} has no source file rewardbox can run")),
            });
        }
        _ => {
            return Err(Unusable::Other(format!(
                "{name} has several source files ({}); rewardbox compiles one source per program",
                mains
                    .iter()
                    .map(|(f, _)| f
                        .file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
    };
    let (file, language) = main;
    let text = package.read_text(file).map_err(Unusable::Other)?;
    if language == "python"
        && text
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("#!") && l.contains("python2"))
    {
        return Err(Unusable::Language("Python 2".into()));
    }
    let source = if matches!(language, "c" | "cpp") {
        let dir = file.parent().unwrap_or(Path::new(""));
        let mut once = Vec::new();
        let headers = Headers {
            package,
            include_dirs,
        };
        headers.inline(&text, dir, &file_name(file), 0, &mut once)?
    } else {
        text
    };
    Ok(Program {
        name,
        language,
        source,
    })
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The header a line includes with quotes (`#include "validate.h"`), if it does.
fn quoted_include(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("include")?.trim_start();
    let rest = rest.strip_prefix('"')?;
    rest.split_once('"').map(|(header, _)| header)
}

/// Whether a line is `#pragma once`.
fn is_pragma_once(line: &str) -> bool {
    let words: Vec<&str> = line
        .trim_start()
        .trim_start_matches('#')
        .split_whitespace()
        .collect();
    line.trim_start().starts_with('#') && words == ["pragma", "once"]
}

/// Where a program's quoted includes are looked for.
struct Headers<'a> {
    package: &'a PackageDir,
    include_dirs: &'a [PathBuf],
}

impl Headers<'_> {
    /// The file a quoted include of `header` from a file in `dir` names, when it is one inside
    /// the package: beside the including file first, then in the include directories.
    fn find(&self, dir: &Path, header: &str) -> Option<PathBuf> {
        std::iter::once(dir)
            .chain(self.include_dirs.iter().map(PathBuf::as_path))
            .map(|d| d.join(header))
            .find_map(|p| self.package.resolve(&p).ok().filter(|real| real.is_file()))
    }

    /// `text` with each quoted include of a header beside it (in `dir` of the package) or in an
    /// include directory written in, recursively; a header with `#pragma once` is written in once
    /// (`once` holds those written so far). A header is written in only when it is a file inside
    /// the package, however its name is spelt: any other include is left for the compiler, which
    /// sees only the program.
    fn inline(
        &self,
        text: &str,
        dir: &Path,
        name: &str,
        depth: usize,
        once: &mut Vec<PathBuf>,
    ) -> Result<String, Unusable> {
        let package = self.package;
        if depth > MAX_INCLUDE_DEPTH {
            return Err(Unusable::Other(format!(
                "headers include each other more than {MAX_INCLUDE_DEPTH} deep ({name})"
            )));
        }
        let mut out = String::with_capacity(text.len());
        for (number, line) in text.lines().enumerate() {
            let header = quoted_include(line).and_then(|h| self.find(dir, h));
            match header {
                Some(path) if once.contains(&path) => out.push('\n'),
                Some(path) => {
                    let header_name = file_name(&path);
                    let content = package.read_text(&path).map_err(Unusable::Other)?;
                    if content.lines().any(is_pragma_once) {
                        once.push(path.clone());
                    }
                    let parent = path.parent().unwrap_or(dir);
                    out.push_str(&format!("#line 1 \"{header_name}\"\n"));
                    out.push_str(&self.inline(&content, parent, &header_name, depth + 1, once)?);
                    out.push_str(&format!("#line {} \"{name}\"\n", number + 2));
                }
                None if is_pragma_once(line) => out.push('\n'),
                None => {
                    out.push_str(line);
                    out.push('\n');
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_single_file_is_read_by_its_ending() {
        let dir = tempfile::tempdir().unwrap();
        let table = [
            ("a.cc", "int main(){}", Ok("cpp")),
            ("b.py", "print(1)", Ok("python")),
            ("c.c", "int main(void){return 0;}", Ok("c")),
            ("d.rs", "fn main(){}", Ok("rust-release")),
            ("e.js", "console.log(1)", Ok("javascript")),
            ("e.ts", "console.log(1 as number)", Ok("typescript")),
            (
                "f.java",
                "class A{}",
                Err(Unusable::Language("Java".into())),
            ),
            (
                "g.py",
                "#!/usr/bin/env python2\nprint 1",
                Err(Unusable::Language("Python 2".into())),
            ),
        ];
        for (name, text, expected) in table {
            let path = dir.path().join(name);
            std::fs::write(&path, text).unwrap();
            let package = PackageDir::open(dir.path()).unwrap();
            let got = read_program(&package, &path).map(|p| p.language);
            assert_eq!(got, expected, "{name}");
        }
    }

    #[test]
    fn local_headers_are_written_in_with_line_directives() {
        let dir = tempfile::tempdir().unwrap();
        let program = dir.path().join("validator");
        std::fs::create_dir(&program).unwrap();
        std::fs::write(
            program.join("validate.h"),
            "#pragma once\n#include \"util.h\"\nint h();\n",
        )
        .unwrap();
        std::fs::write(program.join("util.h"), "int u();\n").unwrap();
        std::fs::write(
            program.join("validate.cc"),
            "#include \"validate.h\"\n#include \"validate.h\"\n#include <cstdio>\nint main(){}\n",
        )
        .unwrap();
        let read = read_program(&PackageDir::open(dir.path()).unwrap(), &program).unwrap();
        assert_eq!(read.language, "cpp");
        // `#pragma once` keeps its line (empty) and its meaning: the second include is dropped.
        assert_eq!(
            read.source,
            "#line 1 \"validate.h\"\n\n#line 1 \"util.h\"\nint u();\n#line 3 \"validate.h\"\n\
             int h();\n#line 2 \"validate.cc\"\n\n#include <cstdio>\nint main(){}\n"
        );
    }

    #[test]
    fn what_cannot_be_one_source_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let two = dir.path().join("two");
        std::fs::create_dir(&two).unwrap();
        std::fs::write(two.join("a.cc"), "").unwrap();
        std::fs::write(two.join("b.cc"), "").unwrap();
        assert!(
            read_program(&PackageDir::open(dir.path()).unwrap(), &two)
                .unwrap_err()
                .to_string()
                .contains("several source files")
        );
        let scripted = dir.path().join("scripted");
        std::fs::create_dir(&scripted).unwrap();
        std::fs::write(scripted.join("build"), "").unwrap();
        std::fs::write(scripted.join("a.cc"), "").unwrap();
        assert!(
            read_program(&PackageDir::open(dir.path()).unwrap(), &scripted)
                .unwrap_err()
                .to_string()
                .contains("build/run")
        );
    }
}
