//! Floor 0 of rewardbox: its vocabulary, written once.
//!
//! How a sandboxed run ended ([`RunStatus`]: data, never a verdict), and what a verdict says:
//! the [`Status`] of a completion's result (a verdict reached, or the
//! verifier failed and the result is masked), the [`CaseStatus`] of each test case, and the
//! results themselves ([`CaseResult`], [`CompletionResult`], [`TaskResult`]) as they are written
//! to JSONL and returned to trainers.
//!
//! The WIT interface (`wit/rewardbox.wit`) carries the same statuses across the component
//! boundary; [`case_status_conversions!`] and [`run_status_conversions!`] write the two `From`
//! conversions between a crate's WIT bindings and [`CaseStatus`] or [`RunStatus`], so that each
//! mapping exists once whichever bindings generator (wasmtime's on the host, wit-bindgen in a
//! verifier) made the WIT type.

#![deny(missing_docs)]

mod verdict;

pub use verdict::{
    CaseResult, CaseStatus, CompletionResult, RunStatus, Status, TaskResult, says_host_busy,
};

/// Writes `From<$wit> for CaseStatus` and `From<CaseStatus> for $wit`, where `$wit` is the
/// bindings' type for the WIT `case-status` enum (its cases named as [`CaseStatus`]'s are).
///
/// ```
/// // What a bindings generator makes of the WIT `case-status` enum.
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum WitCaseStatus {
///     Passed, Wrong, FuelExhausted, Timeout, MemoryExceeded, OutputExceeded, Crashed,
///     ExitedNonzero, NoCodeFound, NotJson, CompileError,
/// }
/// rewardbox_types::case_status_conversions!(WitCaseStatus);
///
/// use rewardbox_types::CaseStatus;
/// assert_eq!(CaseStatus::from(WitCaseStatus::NotJson), CaseStatus::NotJson);
/// assert_eq!(WitCaseStatus::from(CaseStatus::Passed), WitCaseStatus::Passed);
/// ```
#[macro_export]
macro_rules! case_status_conversions {
    ($wit:ty) => {
        $crate::conversions_both_ways!($wit, $crate::CaseStatus;
            Passed, Wrong, FuelExhausted, Timeout, MemoryExceeded, OutputExceeded, Crashed,
            ExitedNonzero, NoCodeFound, NotJson, CompileError);
    };
}

/// Writes `From<$wit> for RunStatus` and `From<RunStatus> for $wit`, where `$wit` is the
/// bindings' type for the WIT `run-status` enum (its cases named as [`RunStatus`]'s are).
#[macro_export]
macro_rules! run_status_conversions {
    ($wit:ty) => {
        $crate::conversions_both_ways!($wit, $crate::RunStatus;
            Ok, ExitedNonzero, FuelExhausted, Timeout, MemoryExceeded, OutputExceeded, Crashed,
            CompileError, Unsupported);
    };
}

/// The two `From` impls between two enums with the same cases (used by the two macros above).
#[doc(hidden)]
#[macro_export]
macro_rules! conversions_both_ways {
    ($wit:ty, $ours:ty; $($case:ident),+) => {
        impl ::core::convert::From<$wit> for $ours {
            fn from(status: $wit) -> Self {
                type BindingsEnum = $wit;
                type RewardboxEnum = $ours;
                match status {
                    $(BindingsEnum::$case => RewardboxEnum::$case,)+
                }
            }
        }
        impl ::core::convert::From<$ours> for $wit {
            fn from(status: $ours) -> Self {
                type BindingsEnum = $wit;
                type RewardboxEnum = $ours;
                match status {
                    $(RewardboxEnum::$case => BindingsEnum::$case,)+
                }
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for a bindings generator's enum: the macro must cover every case both ways.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum Wit {
        Passed,
        Wrong,
        FuelExhausted,
        Timeout,
        MemoryExceeded,
        OutputExceeded,
        Crashed,
        ExitedNonzero,
        NoCodeFound,
        NotJson,
        CompileError,
    }
    case_status_conversions!(Wit);

    #[test]
    fn every_case_status_crosses_the_boundary_and_back_under_its_own_name() {
        for status in CaseStatus::ALL {
            let wit = Wit::from(status);
            assert_eq!(format!("{wit:?}"), format!("{status:?}"));
            assert_eq!(CaseStatus::from(wit), status);
        }
    }

    /// A status as results write it (`exited_nonzero`).
    fn written(status: impl serde::Serialize) -> String {
        serde_json::to_value(status)
            .unwrap()
            .as_str()
            .unwrap()
            .to_string()
    }

    #[test]
    fn statuses_are_written_in_snake_case() {
        assert_eq!(written(CaseStatus::ExitedNonzero), "exited_nonzero");
        assert_eq!(written(CaseStatus::NoCodeFound), "no_code_found");
        assert_eq!(written(RunStatus::FuelExhausted), "fuel_exhausted");
        assert_eq!(written(Status::VerifierError), "verifier_error");
    }

    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    enum WitRun {
        Ok,
        ExitedNonzero,
        FuelExhausted,
        Timeout,
        MemoryExceeded,
        OutputExceeded,
        Crashed,
        CompileError,
        Unsupported,
    }
    run_status_conversions!(WitRun);

    #[test]
    fn every_run_status_crosses_the_boundary_and_back_under_its_own_name() {
        for status in RunStatus::ALL {
            let wit = WitRun::from(status);
            assert_eq!(format!("{wit:?}"), format!("{status:?}"));
            assert_eq!(RunStatus::from(wit), status);
        }
    }

    /// The cases of the WIT enum `name`, in order, in snake_case.
    fn wit_enum(name: &str) -> Vec<String> {
        let wit = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../wit/rewardbox.wit"
        ))
        .expect("wit/rewardbox.wit");
        let body = wit
            .split(&format!("enum {name} {{"))
            .nth(1)
            .and_then(|rest| rest.split('}').next())
            .unwrap_or_else(|| panic!("the WIT declares enum {name}"));
        body.lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && !l.is_empty())
            .map(|c| c.trim_end_matches(',').replace('-', "_"))
            .collect()
    }

    #[test]
    fn the_wit_run_statuses_are_ours_in_the_same_order() {
        let ours: Vec<String> = RunStatus::ALL
            .iter()
            .map(|s| {
                serde_json::to_string(s)
                    .unwrap()
                    .trim_matches('"')
                    .to_string()
            })
            .collect();
        assert_eq!(wit_enum("run-status"), ours);
    }

    #[test]
    fn the_wit_enum_lists_the_same_case_statuses_in_the_same_order() {
        let ours: Vec<String> = CaseStatus::ALL.into_iter().map(written).collect();
        assert_eq!(wit_enum("case-status"), ours);
    }

    /// The Python verifier guest maps the statuses a verifier written in Python reports
    /// (`guests/python/rb_verify.py`'s `_CASE_STATUS`) onto the WIT enum: the same names, each
    /// onto its own case.
    #[test]
    fn the_python_guest_knows_every_case_status_by_its_name() {
        let source = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../guests/python/rb_verify.py"
        ))
        .expect("guests/python/rb_verify.py");
        let table = source
            .split("_CASE_STATUS = {")
            .nth(1)
            .and_then(|rest| rest.split('}').next())
            .expect("rb_verify.py defines _CASE_STATUS");
        let pairs: Vec<(String, String)> = table
            .lines()
            .filter_map(|line| {
                let (key, value) = line.trim().trim_end_matches(',').split_once(':')?;
                Some((
                    key.trim().trim_matches('"').to_string(),
                    value.trim().rsplit('.').next()?.to_lowercase(),
                ))
            })
            .collect();
        let ours: Vec<(String, String)> = CaseStatus::ALL
            .iter()
            .map(|s| (written(s), written(s)))
            .collect();
        assert_eq!(pairs, ours);
    }
}
