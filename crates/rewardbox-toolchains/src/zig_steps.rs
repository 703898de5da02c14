//! The two steps of zig's driver for one program, run without the driver.
//!
//! `zig cc` / `zig c++` builds a one-file program in two steps, `zig clang` (the source to an
//! object file) and `zig wasm-ld` (the object and the libraries to a module). Before either, the
//! driver looks its C and C++ libraries up in its cache: it reads the manifests of some thousand
//! library sources and checks every file they name, about 60 ms of a 0.2 s compile. For one
//! command line the two steps are the same for every program but for the object file, so they
//! are read from the driver once (it prints them under `ZIG_VERBOSE_CC` and `ZIG_VERBOSE_LINK`),
//! kept only when they build a probe program byte for byte as the driver does, stored beside
//! zig's cache, and run directly from then on. Should a file they name be gone (zig's cache
//! cleared), they are dropped and the driver runs again.

use std::path::Path;

/// The object file the compile step writes and the link step reads, in the work directory.
const OBJECT: &str = "main.o";

/// The dependency file the compile step writes (clang's `-MF`), in the work directory.
const DEPENDENCIES: &str = "main.o.d";

/// A program both compile steps build with C and C++ alike: what the steps read from the driver
/// must build it byte for byte as the driver does.
pub const PROBE: &str = "#include <stdio.h>\nint main(void) { puts(\"probe\"); return 0; }\n";

/// The arguments of zig's two steps for one driver command line (after the zig binary: `clang
/// ...` and `wasm-ld ...`), with the object file and the dependency file named in the work
/// directory. No argument holds whitespace (they are read from lines of words).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Steps {
    compile: Vec<String>,
    link: Vec<String>,
}

impl Steps {
    /// The steps in `verbose`, the stderr of the driver at `zig` run under `ZIG_VERBOSE_CC` and
    /// `ZIG_VERBOSE_LINK` on the source file `source` (relative to its work directory). `None`
    /// unless exactly one compile of `source` and one link are there, each naming its object
    /// file once.
    pub fn read(verbose: &str, zig: &Path, source: &str) -> Option<Steps> {
        let zig = zig.to_str()?;
        let mut compile = None;
        let mut link = None;
        for line in verbose.lines() {
            let words: Vec<&str> = line.split(' ').collect();
            let is_compile = matches!(words.as_slice(),
                [binary, "clang", file, ..] if *binary == zig && *file == source);
            let is_link = words.first() == Some(&"wasm-ld");
            // A second compile of the source or a second link: not one program's steps.
            if (is_compile && compile.replace(words[1..].to_vec()).is_some())
                || (is_link && link.replace(words).is_some())
            {
                return None;
            }
        }
        let (compile, link) = (compile?, link?);
        if compile.iter().chain(&link).any(|word| word.is_empty()) {
            return None;
        }
        let mut compile: Vec<String> = compile.into_iter().map(String::from).collect();
        let mut link: Vec<String> = link.into_iter().map(String::from).collect();
        // Relative to the work directory, as the driver names them (its local cache): the
        // object file after the one `-o`, the dependency file after the one `-MF`.
        let in_work_dir = |word: &str| !word.starts_with('/') && word.ends_with(OBJECT);
        replace_after(&mut compile, "-o", OBJECT, in_work_dir)?;
        replace_after(&mut compile, "-MF", DEPENDENCIES, |word| {
            !word.starts_with('/') && word.ends_with(DEPENDENCIES)
        })?;
        if !compile.iter().any(|word| word == "-c") {
            return None;
        }
        let objects: Vec<usize> = (0..link.len())
            .filter(|&i| in_work_dir(&link[i]) && link[i].ends_with(&format!("/{OBJECT}")))
            .collect();
        let [object] = objects.as_slice() else {
            return None;
        };
        link[*object] = OBJECT.to_string();
        Some(Steps { compile, link })
    }

    /// The steps as text, one line each (what [`Steps::from_text`] reads back).
    pub fn to_text(&self) -> String {
        format!("{}\n{}\n", self.compile.join(" "), self.link.join(" "))
    }

    /// Steps written by [`Steps::to_text`]; `None` for anything else.
    pub fn from_text(text: &str) -> Option<Steps> {
        let mut lines = text.lines();
        let words = |line: Option<&str>| -> Option<Vec<String>> {
            let words: Vec<String> = line?.split(' ').map(String::from).collect();
            (!words.iter().any(String::is_empty)).then_some(words)
        };
        let (compile, link) = (words(lines.next())?, words(lines.next())?);
        let sound = lines.next().is_none()
            && compile.first().is_some_and(|w| w == "clang")
            && link.first().is_some_and(|w| w == "wasm-ld")
            && compile.iter().any(|w| w == OBJECT)
            && link.iter().any(|w| w == OBJECT);
        sound.then_some(Steps { compile, link })
    }

    /// The compile step's arguments to the zig binary.
    pub fn compile(&self) -> &[String] {
        &self.compile
    }

    /// The link step's arguments to the zig binary.
    pub fn link(&self) -> &[String] {
        &self.link
    }

    /// Whether every file the steps name outside zig's installation still exists (the
    /// libraries, objects and precompiled headers in the cache, the overlay headers): steps that
    /// name a missing one would not build what the driver does. System include directories are
    /// left out: zig names some that its installation does not have.
    pub fn inputs_exist(&self) -> bool {
        [&self.compile, &self.link].into_iter().all(|words| {
            words
                .iter()
                .enumerate()
                .filter(|(i, word)| {
                    word.starts_with('/') && (*i == 0 || words[i - 1] != "-isystem")
                })
                .all(|(_, path)| Path::new(path).exists())
        })
    }
}

/// The files the compile step in `work` says it read (clang's dependency file), `None` when it
/// wrote none. clang writes none, and succeeds, when `#embed` names a file that does not exist;
/// the driver then fails, reading the list: so do the steps.
pub fn dependencies(work: &Path) -> Option<Vec<std::path::PathBuf>> {
    let text = std::fs::read_to_string(work.join(DEPENDENCIES)).ok()?;
    let (_, list) = text.split_once(": ")?;
    // Make's syntax: lines continued by a backslash, spaces in names escaped by one.
    let list = list.replace("\\\n", " ");
    let mut files = Vec::new();
    let mut name = String::new();
    let mut chars = list.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek().is_some_and(|n| *n == ' ' || *n == '#') => {
                name.extend(chars.next());
            }
            c if c.is_whitespace() => {
                if !name.is_empty() {
                    files.push(work.join(std::mem::take(&mut name)));
                }
            }
            c => name.push(c),
        }
    }
    if !name.is_empty() {
        files.push(work.join(name));
    }
    Some(files)
}

/// Sets the word after the only `flag` of `words` to `value`, when that word passes `expected`.
fn replace_after(
    words: &mut [String],
    flag: &str,
    value: &str,
    expected: impl Fn(&str) -> bool,
) -> Option<()> {
    let at: Vec<usize> = (0..words.len()).filter(|&i| words[i] == flag).collect();
    let [at] = at.as_slice() else {
        return None;
    };
    let word = words.get_mut(at + 1)?;
    if !expected(word) {
        return None;
    }
    *word = value.to_string();
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZIG: &str = "/opt/zig/zig";

    /// What zig 0.17 prints for `zig c++ ... -o main.wasm main.cpp` (abridged).
    fn verbose(extra: &str) -> String {
        format!(
            "{ZIG} clang main.cpp --no-default-config -target wasm32-unknown-wasip1-unknown -MD -MV \
             -MF zig-cache/tmp/3b84-main.o.d -isystem /opt/zig/lib/libcxx/include -O2 \
             -include-pch /cache/x.pch -c -o zig-cache/tmp/3b84-main.o\n\
             {extra}wasm-ld --error-limit=0 -s -o main.wasm /cache/o/f40/crt1-command.o \
             /cache/o/687/libc.a zig-cache/o/7667/main.o /cache/o/6c3/libcompiler_rt.a\n"
        )
    }

    #[test]
    fn the_steps_are_read_with_the_object_named_in_the_work_directory() {
        let steps = Steps::read(&verbose(""), Path::new(ZIG), "main.cpp").unwrap();
        assert_eq!(steps.compile()[..2], ["clang", "main.cpp"]);
        let after = |words: &[String], flag: &str| {
            let at = words.iter().position(|w| w == flag).unwrap();
            words[at + 1].clone()
        };
        assert_eq!(after(steps.compile(), "-o"), "main.o");
        assert_eq!(after(steps.compile(), "-MF"), "main.o.d");
        assert_eq!(after(steps.compile(), "-include-pch"), "/cache/x.pch");
        assert_eq!(
            steps.link().join(" "),
            "wasm-ld --error-limit=0 -s -o main.wasm /cache/o/f40/crt1-command.o \
             /cache/o/687/libc.a main.o /cache/o/6c3/libcompiler_rt.a"
        );
        assert_eq!(Steps::from_text(&steps.to_text()), Some(steps));
        // The libraries it names do not exist here.
        assert!(
            !Steps::read(&verbose(""), Path::new(ZIG), "main.cpp")
                .unwrap()
                .inputs_exist()
        );
    }

    #[test]
    fn the_dependencies_are_read_from_clangs_list() {
        let work = tempfile::tempdir().unwrap();
        assert_eq!(dependencies(work.path()), None);
        std::fs::write(
            work.path().join(DEPENDENCIES),
            "main.o: \\\n  main.c /opt/zig/lib/include/stdio.h \\\n  /tmp/a\\ b.h\n",
        )
        .unwrap();
        assert_eq!(
            dependencies(work.path()).unwrap(),
            [
                work.path().join("main.c"),
                "/opt/zig/lib/include/stdio.h".into(),
                "/tmp/a b.h".into()
            ]
        );
    }

    #[test]
    fn anything_but_one_compile_and_one_link_is_not_read() {
        let read = |text: &str, source: &str| Steps::read(text, Path::new(ZIG), source);
        // Libraries built on the way (other sources, archives) are passed over.
        let building = format!(
            "{ZIG} clang /opt/zig/lib/libc/x.c -c -o /cache/o/1/x.o\nar rcs /cache/o/2/libc.a\n"
        );
        assert!(read(&verbose(&building), "main.cpp").is_some());
        // Another source file, a second link, a word holding a space (two spaces), no object.
        assert!(read(&verbose(""), "main.c").is_none());
        assert!(
            read(
                &verbose("wasm-ld -o main.wasm zig-cache/o/1/main.o\n"),
                "main.cpp"
            )
            .is_none()
        );
        assert!(read(&verbose("").replace("-O2", "-O2 "), "main.cpp").is_none());
        assert!(
            read(
                &verbose("").replace("zig-cache/o/7667/main.o", ""),
                "main.cpp"
            )
            .is_none()
        );
        assert!(read(&verbose("").replace(" -c ", " "), "main.cpp").is_none());
        assert!(read("", "main.cpp").is_none());
        assert!(Steps::from_text("clang main.o\n").is_none());
        assert!(Steps::from_text("clang x\nwasm-ld main.o\n").is_none());
        assert!(Steps::from_text("clang main.o\nwasm-ld main.o\nmore\n").is_none());
    }
}
