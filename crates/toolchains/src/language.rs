//! The languages a candidate may be written in, with the spellings tasks and SandboxFusion use.

/// A language rewardbox can run candidates in (when its toolchain is installed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    /// CPython, run by the embedded CPython component.
    Python,
    /// C (gnu17), compiled by `zig cc`.
    C,
    /// C++ (gnu++20), compiled by `zig c++`.
    Cpp,
    /// Rust (edition 2021), compiled by `rustc`.
    Rust,
    /// JavaScript, run by the embedded JavaScript runner (the Boa engine).
    JavaScript,
}

/// Every language with its canonical name and the aliases tasks use.
const NAMES: &[(Language, &str, &[&str])] = &[
    (Language::Python, "python", &["python3", "py", "python 3"]),
    (Language::C, "c", &["gcc", "c11", "c17"]),
    (
        Language::Cpp,
        "cpp",
        &[
            "c++", "cxx", "cc", "g++", "c++17", "c++20", "cpp17", "cpp20",
        ],
    ),
    (Language::Rust, "rust", &["rs", "rustc"]),
    (
        Language::JavaScript,
        "javascript",
        &["js", "node", "nodejs", "javascript (node.js)"],
    ),
];

impl Language {
    /// The language `name` names (case and surrounding spaces ignored), or `None`.
    pub fn parse(name: &str) -> Option<Language> {
        let wanted = name.trim().to_ascii_lowercase();
        NAMES
            .iter()
            .find(|(_, canonical, aliases)| *canonical == wanted || aliases.contains(&&*wanted))
            .map(|(language, _, _)| *language)
    }

    /// The canonical name: `python`, `c`, `cpp`, `rust` or `javascript`.
    pub fn name(self) -> &'static str {
        NAMES
            .iter()
            .find(|(language, _, _)| *language == self)
            .map(|(_, name, _)| *name)
            .expect("every language is in the table")
    }

    /// Whether programs in this language are compiled by a toolchain outside the sandbox.
    pub fn is_compiled(self) -> bool {
        !matches!(self, Language::Python | Language::JavaScript)
    }
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
            ("rust", Some(Language::Rust)),
            ("javascript", Some(Language::JavaScript)),
            ("nodejs", Some(Language::JavaScript)),
            ("go", None),
            ("", None),
        ];
        for (name, expected) in table {
            assert_eq!(Language::parse(name), expected, "{name:?}");
        }
        for language in [
            Language::Python,
            Language::C,
            Language::Cpp,
            Language::Rust,
            Language::JavaScript,
        ] {
            assert_eq!(Language::parse(language.name()), Some(language));
        }
    }
}
