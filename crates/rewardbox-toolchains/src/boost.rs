//! Boost's header-only libraries for C++ candidates (`#include <boost/any.hpp>`: HumanEval-X's
//! CPP/22 and CPP/137): Boost 1.85's headers from the `boost-headers` package (BSL-1.0), which
//! `scripts/setup.sh` installs into the project's `.venv`, on the compiler's include path as a
//! system directory, readable by the confined compiler and nothing more.

use std::path::{Path, PathBuf};

/// Where the headers are looked for when `REWARDBOX_BOOST` is not set: the `boost-headers`
/// package in the project's `.venv` when this binary was built (see `build.rs`).
const BUILD_HINT: Option<&str> = option_env!("REWARDBOX_BOOST_HINT");

/// What to do when a program includes Boost and no Boost is installed.
pub const MISSING: &str = "this program includes Boost, whose headers are not installed: run \
     scripts/setup.sh (it installs the boost-headers package into .venv), `pip install \
     boost-headers==1.85.0.post1`, or set REWARDBOX_BOOST to the directory that holds `boost/`";

/// A located Boost: the directory holding `boost/`, and its version.
#[derive(Debug, Clone, PartialEq)]
pub struct Boost {
    /// The include directory (it holds `boost/version.hpp`).
    pub include: PathBuf,
    /// `BOOST_LIB_VERSION` (`1_85`), part of the compiled-program cache key.
    pub version: String,
}

impl Boost {
    /// `$REWARDBOX_BOOST` when set (and nothing else then), else the headers of the build's
    /// `.venv`; `None` when neither holds `boost/version.hpp`.
    pub fn locate() -> Option<Boost> {
        match std::env::var_os("REWARDBOX_BOOST") {
            Some(set) => Boost::at(Path::new(&set)),
            None => BUILD_HINT.and_then(|hint| Boost::at(Path::new(hint))),
        }
    }

    /// The Boost whose headers are in `include`, if they are.
    pub fn at(include: &Path) -> Option<Boost> {
        let text = std::fs::read_to_string(include.join("boost/version.hpp")).ok()?;
        let version = lib_version(&text)?;
        Some(Boost {
            include: include
                .canonicalize()
                .unwrap_or_else(|_| include.to_path_buf()),
            version,
        })
    }
}

/// `BOOST_LIB_VERSION` as `boost/version.hpp` defines it.
fn lib_version(version_hpp: &str) -> Option<String> {
    version_hpp.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("#define")?.trim_start();
        let value = rest.strip_prefix("BOOST_LIB_VERSION")?.trim();
        Some(value.trim_matches('"').to_string()).filter(|v| !v.is_empty())
    })
}

/// Whether a compiler's message says that a Boost header was not found (`'boost/any.hpp' file
/// not found`).
pub fn header_missing(message: &str) -> bool {
    message.lines().any(|line| {
        line.contains("file not found")
            && (line.contains("'boost/") || line.contains("<boost/") || line.contains("\"boost/"))
    })
}

#[cfg(test)]
mod tests {
    use super::{Boost, header_missing, lib_version};

    #[test]
    fn the_version_is_read_as_boost_defines_it() {
        let text = "//  BOOST_LIB_VERSION must be defined to be the same as BOOST_VERSION\n#define BOOST_VERSION 108500\n#define BOOST_LIB_VERSION \"1_85\"\n";
        assert_eq!(lib_version(text).as_deref(), Some("1_85"));
        assert_eq!(lib_version("#define BOOST_VERSION 108500\n"), None);
        assert_eq!(lib_version("#define BOOST_LIB_VERSION \"\"\n"), None);
    }

    #[test]
    fn a_directory_without_boost_is_no_boost() {
        let dir = std::env::temp_dir().join(format!("rewardbox-no-boost-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("boost")).unwrap();
        assert_eq!(Boost::at(&dir), None);
        std::fs::write(
            dir.join("boost/version.hpp"),
            "#define BOOST_LIB_VERSION \"1_85\"\n",
        )
        .unwrap();
        assert_eq!(Boost::at(&dir).map(|b| b.version).as_deref(), Some("1_85"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_a_missing_boost_header_is_missing_boost() {
        let table = [
            (
                "main.cpp:5:9: fatal error: 'boost/any.hpp' file not found",
                true,
            ),
            (
                "main.cpp:5:9: fatal error: 'boost/multiprecision/cpp_int.hpp' file not found",
                true,
            ),
            ("main.cpp:5:9: fatal error: 'gmpxx.h' file not found", false),
            (
                "main.cpp:7:5: error: use of undeclared identifier 'boost'",
                false,
            ),
            (
                "main.cpp:5:9: fatal error: 'myboost/x.hpp' file not found",
                false,
            ),
        ];
        for (message, missing) in table {
            assert_eq!(header_missing(message), missing, "{message}");
        }
    }
}
