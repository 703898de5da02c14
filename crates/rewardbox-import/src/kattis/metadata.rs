//! `problem.yaml`: what a package says about its problem, in the `legacy` format (the Kattis and
//! ICPC archives') and the `2023-07` one, with problemtools' defaults.

use serde_json::{Map, Value};

/// The format version a package says it is written in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FormatVersion {
    /// `legacy` (the default).
    Legacy,
    /// `2023-07` (or its drafts).
    V2023,
}

/// What `problem.yaml` says, with defaults filled in.
#[derive(Debug, Clone, PartialEq)]
pub struct Metadata {
    /// The format version.
    pub format: FormatVersion,
    /// The problem's name, if given.
    pub name: Option<String>,
    /// A scoring problem (else pass-fail).
    pub scoring: bool,
    /// The output validator talks to the submission.
    pub interactive: bool,
    /// The output validator gives an accepted case's score (`validation: custom score`).
    pub custom_score: bool,
    /// The package has a custom output validator (`validation: custom`, or a 2023-07 package
    /// with an `output_validator/`).
    pub custom_validation: bool,
    /// `validator_flags`.
    pub validator_flags: String,
    /// The time limit is this many times the slowest accepted submission's time
    /// (`time_multiplier`, 2023-07's `time_multipliers.ac_to_time_limit`).
    pub time_multiplier: f64,
    /// A submission expected to be too slow must be at least this many times the limit
    /// (`time_safety_margin`, `time_multipliers.time_limit_to_tle`).
    pub time_safety_margin: f64,
    /// A fixed time limit in seconds (2023-07's `limits.time_limit`).
    pub time_limit: Option<f64>,
    /// Memory of a submission, MiB.
    pub memory_mb: u64,
    /// Output of a submission, MiB.
    pub output_mb: u64,
    /// Time of a validator's run, seconds.
    pub validation_time: f64,
    /// Memory of a validator, MiB.
    pub validation_memory_mb: u64,
    /// Output of a validator, MiB.
    pub validation_output_mb: u64,
    /// Settings of the root test group from the deprecated `grading` keys of a legacy
    /// `problem.yaml` (`accept_score`, `reject_score`, `range`, `on_reject`).
    pub legacy_root_group: Map<String, Value>,
}

/// problemtools' defaults (its `config/problem.yaml`).
const MEMORY_MB: u64 = 1024;
const OUTPUT_MB: u64 = 8;
const VALIDATION_TIME: f64 = 60.0;
const VALIDATION_MEMORY_MB: u64 = 1024;
const VALIDATION_OUTPUT_MB: u64 = 8;

fn number(value: Option<&Value>, field: &str) -> Result<Option<f64>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_f64()
            .filter(|x| x.is_finite() && *x > 0.0)
            .map(Some)
            .ok_or_else(|| format!("problem.yaml: {field} must be a positive number")),
    }
}

fn whole(value: Option<&Value>, field: &str, default: u64) -> Result<u64, String> {
    Ok(number(value, field)?.map_or(default, |x| x.ceil() as u64))
}

impl Metadata {
    /// Reads `problem.yaml`'s content (`Value::Null` for an empty or missing file).
    /// `has_output_validator_dir` says whether a 2023-07 package has an `output_validator/`.
    pub fn from_yaml(yaml: &Value, has_output_validator_dir: bool) -> Result<Metadata, String> {
        let empty = Map::new();
        let obj = match yaml {
            Value::Object(obj) => obj,
            Value::Null => &empty,
            _ => return Err("problem.yaml must be a mapping".into()),
        };
        let format = match obj.get("problem_format_version").and_then(Value::as_str) {
            None | Some("legacy") | Some("legacy-icpc") => FormatVersion::Legacy,
            Some(v) if v.starts_with("2023-07") => FormatVersion::V2023,
            Some(other) => {
                return Err(format!(
                    "problem.yaml: problem_format_version {other:?} is not supported (legacy and \
                     2023-07 are)"
                ));
            }
        };
        let types: Vec<String> = match obj.get("type") {
            None | Some(Value::Null) => vec!["pass-fail".into()],
            Some(Value::String(s)) => s.split_whitespace().map(str::to_string).collect(),
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            Some(_) => return Err("problem.yaml: type must be a string or a list".into()),
        };
        let mut scoring = false;
        let mut interactive = false;
        for t in &types {
            match t.as_str() {
                "pass-fail" => {}
                "scoring" => scoring = true,
                "interactive" => interactive = true,
                other => {
                    return Err(format!(
                        "problem.yaml: problems of type {other:?} are not supported (pass-fail, \
                         scoring, interactive are)"
                    ));
                }
            }
        }
        let validation: Vec<&str> = obj
            .get("validation")
            .and_then(Value::as_str)
            .unwrap_or("default")
            .split_whitespace()
            .collect();
        let mut custom_validation = format == FormatVersion::V2023 && has_output_validator_dir;
        let mut custom_score = false;
        match validation.first() {
            Some(&"custom") => {
                custom_validation = true;
                interactive |= validation.contains(&"interactive");
                custom_score = validation.contains(&"score");
            }
            Some(&"default") | None => {}
            Some(other) => {
                return Err(format!(
                    "problem.yaml: validation must begin with default or custom, not {other:?}"
                ));
            }
        }
        if format == FormatVersion::V2023 && scoring && custom_validation {
            // 2023-07: a scoring problem's validator may write score.txt.
            custom_score = true;
        }
        if interactive && !custom_validation {
            return Err("problem.yaml: an interactive problem needs its output validator".into());
        }
        let limits = obj
            .get("limits")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let multipliers = limits
            .get("time_multipliers")
            .and_then(Value::as_object)
            .unwrap_or(&empty);
        let (multiplier, margin, default_multiplier) = match format {
            FormatVersion::Legacy => (
                limits.get("time_multiplier"),
                limits.get("time_safety_margin"),
                5.0,
            ),
            FormatVersion::V2023 => (
                multipliers.get("ac_to_time_limit"),
                multipliers.get("time_limit_to_tle"),
                2.0,
            ),
        };
        let default_margin = if format == FormatVersion::Legacy {
            2.0
        } else {
            1.5
        };
        let mut legacy_root_group = Map::new();
        if let Some(grading) = obj.get("grading").and_then(Value::as_object) {
            for key in ["accept_score", "reject_score", "range"] {
                if let Some(v) = grading.get(key).filter(|v| !v.is_null()) {
                    legacy_root_group.insert(key.into(), v.clone());
                }
            }
            match grading.get("on_reject").and_then(Value::as_str) {
                Some("first_error") => {
                    legacy_root_group.insert("on_reject".into(), "break".into());
                }
                Some("grade") => {
                    legacy_root_group.insert("on_reject".into(), "continue".into());
                }
                _ => {}
            }
        }
        Ok(Metadata {
            format,
            name: obj.get("name").and_then(|n| match n {
                Value::String(s) => Some(s.clone()),
                // 2023-07: names by language.
                Value::Object(by_language) => by_language
                    .get("en")
                    .or_else(|| by_language.values().next())
                    .and_then(Value::as_str)
                    .map(str::to_string),
                _ => None,
            }),
            scoring,
            interactive,
            custom_score,
            custom_validation,
            validator_flags: obj
                .get("validator_flags")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            time_multiplier: number(multiplier, "the time multiplier")?
                .unwrap_or(default_multiplier),
            time_safety_margin: number(margin, "the time safety margin")?.unwrap_or(default_margin),
            time_limit: number(limits.get("time_limit"), "limits.time_limit")?,
            memory_mb: whole(limits.get("memory"), "limits.memory", MEMORY_MB)?,
            output_mb: whole(limits.get("output"), "limits.output", OUTPUT_MB)?,
            validation_time: number(limits.get("validation_time"), "limits.validation_time")?
                .unwrap_or(VALIDATION_TIME),
            validation_memory_mb: whole(
                limits.get("validation_memory"),
                "limits.validation_memory",
                VALIDATION_MEMORY_MB,
            )?,
            validation_output_mb: whole(
                limits.get("validation_output"),
                "limits.validation_output",
                VALIDATION_OUTPUT_MB,
            )?,
            legacy_root_group,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kattis::yaml::parse;

    #[test]
    fn legacy_defaults_and_validation() {
        let m = Metadata::from_yaml(&parse("name: Hello\n").unwrap(), false).unwrap();
        assert_eq!(m.format, FormatVersion::Legacy);
        assert_eq!(
            (m.scoring, m.interactive, m.custom_validation),
            (false, false, false)
        );
        assert_eq!((m.time_multiplier, m.time_safety_margin), (5.0, 2.0));
        assert_eq!((m.memory_mb, m.output_mb), (1024, 8));
        let m = Metadata::from_yaml(
            &parse("type: scoring\nvalidation: custom interactive score\nvalidator_flags: x y\nlimits:\n  memory: 256\n  time_multiplier: 3\ngrading:\n  on_reject: grade\n").unwrap(),
            false,
        )
        .unwrap();
        assert!(m.scoring && m.interactive && m.custom_score && m.custom_validation);
        assert_eq!(m.validator_flags, "x y");
        assert_eq!((m.memory_mb, m.time_multiplier), (256, 3.0));
        assert_eq!(m.legacy_root_group["on_reject"], "continue");
    }

    #[test]
    fn the_2023_07_format() {
        let yaml = parse(
            "problem_format_version: 2023-07-draft\ntype: [scoring, interactive]\nname:\n  en: Guess\nlimits:\n  time_limit: 2.5\n  time_multipliers:\n    ac_to_time_limit: 3\n",
        )
        .unwrap();
        let m = Metadata::from_yaml(&yaml, true).unwrap();
        assert_eq!(m.format, FormatVersion::V2023);
        assert_eq!(m.name.as_deref(), Some("Guess"));
        assert!(m.scoring && m.interactive && m.custom_validation && m.custom_score);
        assert_eq!(
            (m.time_limit, m.time_multiplier, m.time_safety_margin),
            (Some(2.5), 3.0, 1.5)
        );
    }

    #[test]
    fn what_is_not_supported_says_so() {
        for (yaml, says) in [
            ("type: multi-pass\n", "multi-pass"),
            ("problem_format_version: 2025-09\n", "2025-09"),
            ("validation: sometimes\n", "validation"),
            ("type: interactive\n", "needs its output validator"),
            ("limits:\n  memory: -5\n", "limits.memory"),
        ] {
            let error = parse(yaml)
                .and_then(|v| Metadata::from_yaml(&v, false))
                .unwrap_err();
            assert!(error.contains(says), "{yaml}: {error}");
        }
    }
}
