//! Floor 0 of rewardbox: the table of languages and the fence finder.
//!
//! The languages rewardbox runs candidates in, in one table: the canonical name, the other
//! spellings tasks use (SandboxFusion's among them), and the info strings of a Markdown fence
//! that name it. The host (runners, compilers, `/run_code`, the audit), the `code` verifier
//! component and the fence finder all read this table, so a spelling accepted in one place is
//! accepted everywhere.

#![deny(missing_docs)]

pub mod fences;
pub mod js_test_run;
pub mod python_engine;
pub mod typescript;

pub use python_engine::PythonEngine;

/// A language rewardbox can run candidates in (when its toolchain is installed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// CPython, run by the embedded CPython component.
    Python,
    /// C (gnu17), compiled by `zig cc`.
    C,
    /// C++ (gnu++20), compiled by `zig c++`.
    Cpp,
    /// Rust (edition 2021), compiled by `rustc` as `cargo test` compiles it: optimised, with
    /// overflow checks and debug assertions on (`0usize - 1` panics, exit 101).
    Rust,
    /// Rust with release semantics, as contest judges compile it (`rustc -O`): arithmetic
    /// overflow wraps, `debug_assert!` is off. A task asks for it by name (`rust-release`).
    RustRelease,
    /// JavaScript, run by the embedded JavaScript runner (the Boa engine).
    JavaScript,
    /// Go, built by the `go` command for `GOOS=wasip1 GOARCH=wasm` (standard library only).
    Go,
    /// TypeScript, run as Node.js runs a `.ts` file: its types stripped (not checked) inside the
    /// JavaScript runner's sandbox, then the program run as JavaScript.
    TypeScript,
}

/// One language's names.
struct Names {
    language: Language,
    /// The canonical name.
    name: &'static str,
    /// Other spellings of the name in tasks (compared lowercased and trimmed).
    aliases: &'static [&'static str],
    /// Info strings of a fenced block in this language, as models write them.
    fence_tags: &'static [&'static str],
}

const TABLE: &[Names] = &[
    Names {
        language: Language::Python,
        name: "python",
        aliases: &["python3", "py", "python 3"],
        fence_tags: &["python", "py", "python3", "{.python}"],
    },
    Names {
        language: Language::C,
        name: "c",
        aliases: &["gcc", "c11", "c17"],
        fence_tags: &["c", "h"],
    },
    Names {
        language: Language::Cpp,
        name: "cpp",
        aliases: &[
            "c++", "cxx", "cc", "g++", "c++17", "c++20", "cpp17", "cpp20",
        ],
        fence_tags: &["cpp", "c++", "cc", "cxx", "hpp"],
    },
    Names {
        language: Language::Rust,
        name: "rust",
        aliases: &["rs", "rustc"],
        fence_tags: &["rust", "rs"],
    },
    Names {
        language: Language::RustRelease,
        name: "rust-release",
        aliases: &["rust (release)", "rust-o", "rustc -o"],
        fence_tags: &["rust-release", "rust", "rs"],
    },
    Names {
        language: Language::JavaScript,
        name: "javascript",
        aliases: &["js", "node", "nodejs", "javascript (node.js)"],
        fence_tags: &["javascript", "js", "node", "nodejs", "mjs"],
    },
    Names {
        language: Language::Go,
        name: "go",
        aliases: &["golang", "go1", "go 1"],
        fence_tags: &["go", "golang"],
    },
    Names {
        language: Language::TypeScript,
        name: "typescript",
        aliases: &["ts", "typescript (node.js)"],
        fence_tags: &["typescript", "ts", "mts", "cts"],
    },
];

/// Languages tasks name that rewardbox knows but has no runner for: a task naming one is
/// invalid, with a message saying so, never a silent 0.
pub const WITHOUT_RUNNER: &[&str] = &[
    "java", "kotlin", "csharp", "c#", "php", "ruby", "lua", "r", "scala", "swift", "bash", "sh",
    "perl", "julia", "haskell", "pascal", "d", "racket", "verilog", "cuda", "sql",
];

impl Language {
    /// Every language, in the order of the table.
    pub const ALL: [Language; 8] = [
        Language::Python,
        Language::C,
        Language::Cpp,
        Language::Rust,
        Language::RustRelease,
        Language::JavaScript,
        Language::Go,
        Language::TypeScript,
    ];

    /// The language `name` names (case and surrounding spaces ignored), or `None`. A Python
    /// engine after `@` (`python@monty`, see [`python_engine`]) is part of a Python name only.
    pub fn parse(name: &str) -> Option<Language> {
        let (name, engine) = python_engine::split_engine(name).ok()?;
        let wanted = name.trim().to_ascii_lowercase();
        let language = TABLE
            .iter()
            .find(|n| n.name == wanted || n.aliases.contains(&wanted.as_str()))
            .map(|n| n.language)?;
        (engine.is_none() || language == Language::Python).then_some(language)
    }

    /// The canonical name: `python`, `c`, `cpp`, `rust`, `rust-release`, `javascript`, `go` or
    /// `typescript`.
    pub fn name(self) -> &'static str {
        self.names().name
    }

    /// The info strings of a fenced block in this language (` ```cpp `, ` ```c++ `, ...).
    pub fn fence_tags(self) -> &'static [&'static str] {
        self.names().fence_tags
    }

    /// Whether programs in this language are compiled by a toolchain outside the sandbox.
    pub fn is_compiled(self) -> bool {
        !matches!(
            self,
            Language::Python | Language::JavaScript | Language::TypeScript
        )
    }

    /// Every canonical name, comma-separated (`python, c, cpp, ...`): what a message listing the
    /// languages rewardbox runs says.
    pub fn all_names() -> String {
        Language::ALL.map(Language::name).join(", ")
    }

    fn names(self) -> &'static Names {
        TABLE
            .iter()
            .find(|n| n.language == self)
            .expect("every language is in the table")
    }
}

/// Whether `name` is a language rewardbox knows to have no runner (`java`, `kotlin`, ...).
pub fn has_no_runner(name: &str) -> bool {
    WITHOUT_RUNNER.contains(&name.trim().to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_names_and_aliases() {
        let table = [
            ("python", Some(Language::Python)),
            (" Python3 ", Some(Language::Python)),
            ("c", Some(Language::C)),
            ("C", Some(Language::C)),
            ("cpp", Some(Language::Cpp)),
            ("c++", Some(Language::Cpp)),
            ("CXX", Some(Language::Cpp)),
            ("cpp17", Some(Language::Cpp)),
            ("rust", Some(Language::Rust)),
            ("rust-release", Some(Language::RustRelease)),
            ("Rust (release)", Some(Language::RustRelease)),
            ("javascript", Some(Language::JavaScript)),
            ("JavaScript (Node.js)", Some(Language::JavaScript)),
            ("nodejs", Some(Language::JavaScript)),
            ("go", Some(Language::Go)),
            ("Golang", Some(Language::Go)),
            ("typescript", Some(Language::TypeScript)),
            ("TS", Some(Language::TypeScript)),
            ("java", None),
            ("", None),
            ("python@monty", Some(Language::Python)),
            ("python3@cpython", Some(Language::Python)),
            ("python@pypy", None),
            ("cpp@monty", None),
        ];
        for (name, expected) in table {
            assert_eq!(Language::parse(name), expected, "{name:?}");
        }
        for language in Language::ALL {
            assert_eq!(Language::parse(language.name()), Some(language));
            assert!(language.fence_tags().contains(&language.name()));
        }
    }

    /// No spelling names two things: a language with a runner is never listed as without one,
    /// and no alias belongs to two languages.
    #[test]
    fn spellings_are_unambiguous() {
        let mut seen = std::collections::HashSet::new();
        for names in TABLE {
            for spelling in std::iter::once(&names.name).chain(names.aliases) {
                assert!(seen.insert(*spelling), "{spelling} is listed twice");
                assert!(!has_no_runner(spelling), "{spelling} has a runner");
            }
        }
        assert!(has_no_runner(" Java "));
        assert!(!has_no_runner("rust"));
    }

    /// The Python verifier sandbox finds fences with its own copy of the tags
    /// (`guests/python/rb_fences.py`): it must say what this table says.
    #[test]
    fn the_python_fence_finder_has_the_same_tags() {
        let source = include_str!("../../../guests/python/rb_fences.py");
        for language in Language::ALL {
            let key = format!("\"{}\": {{", language.name());
            let line = source
                .lines()
                .find(|l| l.trim_start().starts_with(&key))
                .unwrap_or_else(|| panic!("rb_fences.py has no tags for {}", language.name()));
            let inside = &line[line.find('{').unwrap() + 1..line.rfind('}').unwrap()];
            let mut python: Vec<&str> = inside
                .split(',')
                .map(|t| t.trim().trim_matches('"'))
                .filter(|t| !t.is_empty())
                .collect();
            let mut rust = language.fence_tags().to_vec();
            python.sort_unstable();
            rust.sort_unstable();
            assert_eq!(python, rust, "{}", language.name());
        }
    }
}
