//! The tests a package does not carry, made as Polygon makes them: a generated test's input is
//! its generator's output on the test's command line (`gen 10 3`, testlib's `rnd` seeded by it),
//! and an answer the package does not carry is the main solution's output (for an interactive
//! problem: the output file the interactor writes talking to it). Every program runs in a
//! sandbox like any other.

use crate::polygon::package::{Case, Package};
use rayon::prelude::*;
use rewardbox::candidates::{File, Invocation, Party, TESTLIB_ACCEPTED, interact};
use rewardbox::candidates::{RunOutcome, RunStatus, limits_for_seconds};
use rewardbox::sandboxes::JobIo;
use rewardbox::{Limits, Scorer};
use rewardbox_toolchains::Language;

/// The most a program that makes a test may run, in seconds of fuel.
const MAKING_SECONDS: f64 = 60.0;

/// What a program that makes a test may use.
fn making_limits(language: &str, memory_bytes: u64) -> Limits {
    let language = Language::parse(language).expect("a package program's language");
    limits_for_seconds(
        language,
        MAKING_SECONDS,
        Limits {
            memory_bytes: memory_bytes.max(256 << 20),
            output_bytes: 512 << 20,
            ..Limits::default()
        },
    )
}

/// Why a run that should have made a test did not, or `None` when it ended well.
fn failed(outcome: &RunOutcome) -> Option<String> {
    let ended_well = outcome.status == RunStatus::Ok && outcome.exit_code.unwrap_or(0) == 0;
    (!ended_well).then(|| {
        let last = outcome
            .stderr
            .trim()
            .lines()
            .last()
            .unwrap_or("")
            .to_string();
        format!("{:?} (exit {:?}) {last}", outcome.status, outcome.exit_code)
    })
}

/// The input of `case`: its generator's output on its command line.
fn generated_input(package: &Package, scorer: &Scorer, case: &Case) -> Result<String, String> {
    let command = case.command.as_deref().unwrap_or_default();
    let args: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    let generator = package
        .generators
        .iter()
        .find(|g| Some(g.name.as_str()) == args.first().map(String::as_str))
        .ok_or_else(|| format!("{}: no generator for {command:?}", case.name))?;
    if command.contains(['>', '<', '|', '{']) {
        return Err(format!(
            "{}: the command {command:?} redirects or names several tests; only a generator \
             writing one test to its standard output is run",
            case.name
        ));
    }
    let program = &generator.program;
    let limits = making_limits(program.language, package.memory_bytes);
    let io = JobIo {
        args: &args,
        ..JobIo::stdin(b"")
    };
    let outcome = scorer.runners().run_with(
        program.language,
        &program.source,
        io,
        &limits,
        scorer.options().seed,
    );
    match failed(&outcome) {
        None => Ok(outcome.stdout),
        Some(why) => Err(format!(
            "{}: the generator {command:?} failed: {why}",
            case.name
        )),
    }
}

/// The answer of a case with `input`: the main solution's output, or the interactor's output
/// file when it talks to it.
fn main_answer(
    package: &Package,
    scorer: &Scorer,
    name: &str,
    input: &str,
) -> Result<String, String> {
    let (solution, program) = package.main_solution().ok_or_else(|| {
        format!("{name}: the package has no answer file for it and no main solution rewardbox can run to make one")
    })?;
    let limits = making_limits(program.language, package.memory_bytes);
    let seed = scorer.options().seed;
    let runners = scorer.runners();
    let Some(interactor) = &package.interactor else {
        let outcome = runners.run(program.language, &program.source, input, &limits, seed);
        return match failed(&outcome) {
            None => Ok(outcome.stdout),
            Some(why) => Err(format!(
                "{name}: the main solution {} failed: {why}",
                solution.path
            )),
        };
    };
    let invocation = Invocation {
        args: ["/data/input.in", "/feedback/output.out"]
            .map(String::from)
            .to_vec(),
        files: vec![File {
            path: "input.in".into(),
            contents: input.as_bytes().to_vec(),
        }],
    };
    let interactor_limits = making_limits(interactor.language, package.memory_bytes);
    let run = interact(
        runners,
        Party {
            language: program.language,
            source: &program.source,
            limits: &limits,
        },
        Party {
            language: interactor.language,
            source: &interactor.source,
            limits: &interactor_limits,
        },
        &invocation,
        seed,
        TESTLIB_ACCEPTED,
    );
    if let Some(why) = failed(&run.interactor.outcome).or_else(|| failed(&run.candidate)) {
        return Err(format!(
            "{name}: the main solution {} and the interactor did not end well: {why}",
            solution.path
        ));
    }
    let output = run
        .interactor
        .feedback
        .iter()
        .find(|f| f.path == "output.out")
        .map(|f| String::from_utf8_lossy(&f.contents).into_owned())
        .unwrap_or_default();
    Ok(output)
}

/// Makes every input and answer `package` does not carry; the first that cannot be made is the
/// error, naming its test.
pub fn complete_tests(package: &mut Package, scorer: &Scorer) -> Result<(), String> {
    let missing: Vec<usize> = (0..package.cases.len())
        .filter(|&i| package.cases[i].input.is_none())
        .collect();
    let shared: &Package = package;
    let inputs: Vec<Result<String, String>> = scorer.install(|| {
        missing
            .par_iter()
            .map(|&i| generated_input(shared, scorer, &shared.cases[i]))
            .collect()
    });
    for (&i, input) in missing.iter().zip(inputs) {
        package.cases[i].input = Some(input?);
    }
    let missing: Vec<usize> = (0..package.cases.len())
        .filter(|&i| package.cases[i].answer.is_none())
        .collect();
    let shared: &Package = package;
    let answers: Vec<Result<String, String>> = scorer.install(|| {
        missing
            .par_iter()
            .map(|&i| {
                let case = &shared.cases[i];
                main_answer(
                    shared,
                    scorer,
                    &case.name,
                    case.input.as_deref().unwrap_or(""),
                )
            })
            .collect()
    });
    for (&i, answer) in missing.iter().zip(answers) {
        package.cases[i].answer = Some(answer?);
    }
    Ok(())
}

/// Runs every input validator on every test (`validator --testset tests --group G`, the input
/// on its standard input, as Polygon runs them); each test one rejects, `test: validator: why`.
pub fn invalid_inputs(package: &Package, scorer: &Scorer) -> Vec<String> {
    let jobs: Vec<(usize, usize)> = (0..package.validators.len())
        .flat_map(|v| (0..package.cases.len()).map(move |c| (v, c)))
        .collect();
    let outcomes: Vec<Option<String>> = scorer.install(|| {
        jobs.par_iter()
            .map(|&(v, c)| {
                let validator = &package.validators[v];
                let case = &package.cases[c];
                let mut args: Vec<String> =
                    vec!["validator".into(), "--testset".into(), "tests".into()];
                if let Some(group) = &case.group {
                    args.extend(["--group".to_string(), group.clone()]);
                }
                let input = case.input.as_deref().unwrap_or("");
                let io = JobIo {
                    args: &args,
                    ..JobIo::stdin(input.as_bytes())
                };
                let limits = making_limits(validator.language, package.memory_bytes);
                let outcome = scorer.runners().run_with(
                    validator.language,
                    &validator.source,
                    io,
                    &limits,
                    scorer.options().seed,
                );
                failed(&outcome)
                    .map(|why| format!("{}: validator {}: {why}", case.name, validator.name))
            })
            .collect()
    });
    outcomes.into_iter().flatten().collect()
}
