//! CodeGym environment strings: `codegym_v1@<FileStem>@<json config>`.
//!
//! `<FileStem>.py` is an environment file in the environments directory; the class in it
//! recognises its own prefix, the part of the stem after the first `__`
//! (`Leetcode_22783_I__HouseRobberEnv` → `HouseRobberEnv@<json>`). CodeGym's client sends the
//! string without its `codegym_v1@` prefix (the environment name goes separately).

use crate::error::EnvError;

/// The environment family rewardbox serves.
pub const CODEGYM_V1: &str = "codegym_v1";

/// An environment string, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvString {
    /// The environment file's stem (`Leetcode_22783_I__HouseRobberEnv`).
    pub stem: String,
    /// What the environment class's `from_env_str` receives (`HouseRobberEnv@{...}`).
    pub class_str: String,
}

impl EnvString {
    /// Reads `env_str`, with or without its `codegym_v1@` prefix; `env_name`, when given, must be
    /// `codegym_v1`.
    pub fn parse(env_name: Option<&str>, env_str: &str) -> Result<EnvString, EnvError> {
        if let Some(name) = env_name.filter(|n| !n.is_empty() && *n != CODEGYM_V1) {
            return Err(EnvError::BadEnvString(format!(
                "unknown environment name {name:?} (rewardbox serves {CODEGYM_V1:?})"
            )));
        }
        let rest = env_str
            .strip_prefix(CODEGYM_V1)
            .and_then(|r| r.strip_prefix('@'))
            .unwrap_or(env_str);
        let Some((stem, config)) = rest.split_once('@') else {
            return Err(EnvError::BadEnvString(format!(
                "{:?} is not an environment string: expected codegym_v1@<FileStem>@<json config>",
                preview(env_str)
            )));
        };
        let plain = !stem.is_empty()
            && stem
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == '.')
            && !stem.starts_with('.');
        if !plain {
            return Err(EnvError::BadEnvString(format!(
                "{stem:?} is not an environment file name (letters, digits, '_', '-', '.')"
            )));
        }
        let prefix = stem.split_once("__").map_or(stem, |(_, class)| class);
        Ok(EnvString {
            stem: stem.to_string(),
            class_str: format!("{prefix}@{config}"),
        })
    }
}

fn preview(text: &str) -> String {
    text.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_forms() {
        let full = EnvString::parse(
            None,
            r#"codegym_v1@Leetcode_22783_I__HouseRobberEnv@{"houses": [1, 2]}"#,
        )
        .unwrap();
        assert_eq!(full.stem, "Leetcode_22783_I__HouseRobberEnv");
        assert_eq!(full.class_str, r#"HouseRobberEnv@{"houses": [1, 2]}"#);
        let bare = EnvString::parse(Some("codegym_v1"), "X__CountEnv@{\"n\": 1}").unwrap();
        assert_eq!(bare.class_str, "CountEnv@{\"n\": 1}");
        let no_class = EnvString::parse(None, "CountEnv@{}").unwrap();
        assert_eq!(no_class.class_str, "CountEnv@{}");
    }

    #[test]
    fn rejects_what_is_not_an_environment_string() {
        for bad in ["", "noconfig", "../etc/passwd@{}", "a/b@{}", ".hidden@{}"] {
            assert!(EnvString::parse(None, bad).is_err(), "{bad}");
        }
        assert!(EnvString::parse(Some("other"), "X@{}").is_err());
    }
}
