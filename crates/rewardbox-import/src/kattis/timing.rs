//! The time limit of a package, as problemtools sets it: the slowest accepted submission's time
//! times `time_multiplier`, rounded up to the time resolution (1 s), unless the package fixes it:
//! 2023-07's `limits.time_limit` in `problem.yaml`, else the contest's limit a DOMjudge or
//! BAPCtools export carries (`.timelimit`, `domjudge-problem.ini`).
//!
//! A submission's time is measured in fuel, not seconds, so that the limit is the same on every
//! machine: each accepted submission is run on every case, and its fuel is turned into seconds at
//! its runner's calibrated rate ([`rewardbox::candidates::limits_for_seconds`], the rate at which a second
//! of limit buys fuel). A task made with this limit gives each language's candidates that many
//! seconds' worth of fuel at their own rate.

use crate::kattis::package::{Expected, Package};
use crate::kattis::program::Program;
use rayon::prelude::*;
use rewardbox::Limits;
use rewardbox::Scorer;
use rewardbox::candidates::{File, Invocation, RunOutcome, RunStatus};
use rewardbox::candidates::{Party, interact};
use rewardbox::candidates::{fuel_rate, limits_for_seconds};
use rewardbox_toolchains::Language;

/// The longest an accepted submission is let run on one case while it is measured.
const MEASURE_SECONDS: f64 = 60.0;

/// One accepted submission's slowest case.
#[derive(Debug, Clone, PartialEq)]
pub struct Slowest {
    /// The submission's path in the package.
    pub submission: String,
    /// The case.
    pub case: String,
    /// Its time on that case: its fuel at its runner's rate, in seconds.
    pub seconds: f64,
}

/// The time limit and what set it.
#[derive(Debug, Clone, PartialEq)]
pub struct TimeLimit {
    /// Seconds.
    pub seconds: f64,
    /// The slowest accepted submission, when the limit was derived from it.
    pub slowest: Option<Slowest>,
    /// Accepted submissions that did not finish a case well while measured: `path: case: why`.
    pub failures: Vec<String>,
    /// The file that fixed the limit, when one did (`problem.yaml`, `.timelimit`,
    /// `domjudge-problem.ini`); `None` when it was derived.
    pub fixed_by: Option<&'static str>,
}

/// What a checker of a case reads (the verifier writes the same for the validators it runs).
fn checker_invocation(package: &Package, input: &str, answer: &str) -> Invocation {
    let mut args: Vec<String> = ["/data/input.in", "/data/answer.ans", "/feedback/"]
        .map(String::from)
        .to_vec();
    args.extend(
        package
            .metadata
            .validator_flags
            .split_whitespace()
            .map(str::to_string),
    );
    Invocation {
        args,
        files: vec![
            File {
                path: "input.in".into(),
                contents: input.as_bytes().to_vec(),
            },
            File {
                path: "answer.ans".into(),
                contents: answer.as_bytes().to_vec(),
            },
        ],
    }
}

/// Runs `program` on case `case` of `package` with room to spare; its outcome.
fn run_case(scorer: &Scorer, package: &Package, program: &Program, case: usize) -> RunOutcome {
    let language = Language::parse(program.language).expect("a package program's language");
    let base = Limits {
        memory_bytes: package.metadata.memory_mb << 20,
        output_bytes: package.metadata.output_mb << 20,
        ..Limits::default()
    };
    let limits = limits_for_seconds(language, MEASURE_SECONDS, base);
    let case = &package.cases[case];
    let runners = scorer.runners();
    match (&package.validator, package.metadata.interactive) {
        (Some(validator), true) => {
            let validator_language =
                Language::parse(validator.language).expect("a package program's language");
            let validator_limits = limits_for_seconds(
                validator_language,
                package.metadata.validation_time,
                Limits {
                    memory_bytes: package.metadata.validation_memory_mb << 20,
                    ..Limits::default()
                },
            );
            let invocation = checker_invocation(package, &case.input, &case.answer);
            interact(
                runners,
                Party {
                    language: program.language,
                    source: &program.source,
                    limits: &limits,
                },
                Party {
                    language: validator.language,
                    source: &validator.source,
                    limits: &validator_limits,
                },
                &invocation,
                scorer.options().seed,
                rewardbox::candidates::KATTIS_ACCEPTED,
            )
            .candidate
        }
        _ => runners.run(
            program.language,
            &program.source,
            &case.input,
            &limits,
            scorer.options().seed,
        ),
    }
}

/// The time limit of `package`: fixed by `problem.yaml`, else derived from its accepted
/// submissions (run with `scorer`) and rounded up to `resolution` seconds.
pub fn time_limit(
    package: &Package,
    scorer: &Scorer,
    resolution: f64,
) -> Result<TimeLimit, String> {
    let fixed = match (&package.metadata.time_limit, &package.contest_time_limit) {
        (Some(seconds), _) => Some((*seconds, "problem.yaml")),
        // The contest's own limit: the jury's verdicts hold under it, where a limit derived
        // from the slowest accepted submission may let a too-slow one pass.
        (None, Some(contest)) => Some((contest.seconds, contest.file)),
        (None, None) => None,
    };
    if let Some((seconds, file)) = fixed {
        return Ok(TimeLimit {
            seconds,
            slowest: None,
            failures: Vec::new(),
            fixed_by: Some(file),
        });
    }
    let accepted: Vec<(&str, &Program)> = package
        .submissions
        .iter()
        .filter(|s| s.expected == Expected::Accepted)
        .filter_map(|s| s.program.as_ref().ok().map(|p| (s.path.as_str(), p)))
        .collect();
    let jobs: Vec<(usize, usize)> = (0..accepted.len())
        .flat_map(|s| (0..package.cases.len()).map(move |c| (s, c)))
        .collect();
    let outcomes: Vec<RunOutcome> = scorer.install(|| {
        jobs.par_iter()
            .map(|&(s, c)| run_case(scorer, package, accepted[s].1, c))
            .collect()
    });
    let mut slowest: Option<Slowest> = None;
    let mut failures = Vec::new();
    for (&(s, c), outcome) in jobs.iter().zip(&outcomes) {
        let (path, program) = accepted[s];
        let case = &package.cases[c].name;
        let finished = outcome.status == RunStatus::Ok && outcome.exit_code.unwrap_or(0) == 0;
        if !finished {
            let why = outcome
                .stderr
                .trim()
                .lines()
                .last()
                .unwrap_or("")
                .to_string();
            failures.push(format!("{path}: {case}: {:?} {why}", outcome.status));
            continue;
        }
        let language = Language::parse(program.language).expect("a package program's language");
        let seconds = outcome.fuel_used as f64 / fuel_rate(language).per_native_second;
        if slowest.as_ref().is_none_or(|s| seconds > s.seconds) {
            slowest = Some(Slowest {
                submission: path.to_string(),
                case: case.clone(),
                seconds,
            });
        }
    }
    let Some(slowest) = slowest else {
        return Err(
            "no accepted submission rewardbox can run finished a case, so no time limit could be \
             derived: give one (--time-limit SECONDS)"
                .into(),
        );
    };
    let exact = slowest.seconds * package.metadata.time_multiplier;
    let seconds = ((exact / resolution).ceil() * resolution).max(resolution);
    Ok(TimeLimit {
        seconds,
        slowest: Some(slowest),
        failures,
        fixed_by: None,
    })
}
