//! `rewardbox import kattis DIR...`: Kattis / ICPC problem packages as tasks, with the time limit
//! derived from the jury's accepted submissions, and (`--verify`) every jury submission judged
//! against the verdict its directory promises.

use crate::CacheArgs;
use anyhow::Context;
use clap::Args;
use rewardbox::{Scorer, ScorerOptions};
use rewardbox_import::kattis::time_limit;
use rewardbox_import::kattis::verify;
use rewardbox_import::kattis::{Expected, Package, read_package};
use rewardbox_import::kattis::{TaskShape, fenced, task};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Options of `rewardbox import kattis`.
#[derive(Args)]
pub struct KattisArgs {
    /// Kattis, Polygon: the candidates' language of each task (c, cpp, python, rust, javascript).
    #[arg(long, default_value = "cpp")]
    pub(crate) language: String,
    /// Kattis, Polygon: one task per language of the jury's submissions (solutions), the
    /// submissions as its completions (programs as they are), instead of one task without
    /// completions.
    #[arg(long)]
    pub(crate) submissions: bool,
    /// Kattis, Polygon: judge every jury submission and print whether it gets the verdict its
    /// directory (its tag) promises; exit 1 when one does not. Polygon: the input validators
    /// also run on every test.
    #[arg(long)]
    pub(crate) verify: bool,
    /// Kattis, Polygon: the time limit in seconds, instead of the slowest accepted submission's
    /// time times the package's time_multiplier (Kattis) or the testset's limit (Polygon).
    #[arg(long)]
    pub(crate) time_limit: Option<f64>,
    /// Kattis: derived time limits are rounded up to this many seconds (problemtools' time
    /// resolution).
    #[arg(long, default_value_t = 1.0)]
    time_resolution: f64,
    /// Kattis, Polygon: scoring threads [default: all cores].
    #[arg(short = 'j', long)]
    pub(crate) jobs: Option<usize>,
    #[command(flatten)]
    pub(crate) cache: CacheArgs,
}

/// Runs `rewardbox import kattis`. Returns whether every package was imported (and, with
/// `--verify`, every submission got its promised verdict).
pub fn run(dirs: &[PathBuf], output: Option<&Path>, args: &KattisArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(
        args.time_resolution > 0.0,
        "--time-resolution must be a positive number of seconds"
    );
    let mut out = tasks_out(output)?;
    let scorer = Scorer::new(ScorerOptions {
        threads: args.jobs,
        cache: args.cache.cache(),
        ..ScorerOptions::default()
    })?;
    let mut ok = true;
    let mut written = 0;
    let mut tally = Tally::default();
    for dir in rewardbox_import::folders::dirs_holding(dirs, "problem.yaml") {
        let package = match read_package(&dir) {
            Ok(package) => package,
            Err(message) => {
                eprintln!("rewardbox: skipped {}: {message}", dir.display());
                ok = false;
                continue;
            }
        };
        for note in &package.notes {
            eprintln!("rewardbox: {}: {note}", package.name);
        }
        let seconds = match args.time_limit {
            Some(seconds) => seconds,
            None => match time_limit(&package, &scorer, args.time_resolution) {
                Ok(limit) => {
                    for failure in &limit.failures {
                        eprintln!(
                            "rewardbox: {}: an accepted submission failed while timed: {failure}",
                            package.name
                        );
                    }
                    match &limit.slowest {
                        Some(s) => eprintln!(
                            "rewardbox: {}: time limit {} s ({} on {}: {:.6} s of fuel, x{})",
                            package.name,
                            limit.seconds,
                            s.submission,
                            s.case,
                            s.seconds,
                            package.metadata.time_multiplier
                        ),
                        None => eprintln!(
                            "rewardbox: {}: time limit {} s (fixed by the package's {}{})",
                            package.name,
                            limit.seconds,
                            limit.fixed_by.unwrap_or("problem.yaml"),
                            match limit.fixed_by {
                                Some(".timelimit" | "domjudge-problem.ini") => {
                                    ": the contest's own limit, under which the jury's verdicts hold"
                                }
                                _ => "",
                            }
                        ),
                    }
                    limit.seconds
                }
                Err(message) => {
                    eprintln!("rewardbox: skipped {}: {message}", package.name);
                    ok = false;
                    continue;
                }
            },
        };
        match tasks(&package, args, seconds) {
            Ok(lines) => {
                for line in lines {
                    writeln!(out, "{line}")?;
                    written += 1;
                }
            }
            Err(message) => {
                eprintln!("rewardbox: skipped {}: {message}", package.name);
                ok = false;
                continue;
            }
        }
        if args.verify {
            match verify(&package, &scorer, seconds) {
                Ok(checks) => {
                    for check in &checks {
                        ok &= tally.check(
                            &package.name,
                            &check.submission,
                            &format!("expected {:<4}", check.expected.verdict()),
                            &check.got,
                            check.agrees(),
                            &check.detail,
                        );
                    }
                }
                Err(message) => {
                    eprintln!(
                        "rewardbox: {}: the submissions could not be judged: {message}",
                        package.name
                    );
                    ok = false;
                }
            }
        }
    }
    out.flush()?;
    eprintln!("rewardbox: wrote {written} tasks");
    if args.verify {
        eprintln!(
            "rewardbox: {} of {} jury submissions got the verdict their directory promises",
            tally.agreed, tally.checked
        );
    }
    Ok(ok)
}

/// Where `rewardbox import` writes its tasks: `output`, else standard output.
pub(crate) fn tasks_out(output: Option<&Path>) -> anyhow::Result<Box<dyn Write>> {
    Ok(match output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    })
}

/// What `--verify` found: the jury programs checked, and those whose verdict agreed.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    /// Programs checked.
    pub checked: usize,
    /// Programs whose verdict agreed with what the package says.
    pub agreed: usize,
}

impl Tally {
    /// Prints one program's check on stderr (`ok` or `DIFFERS`, with the detail when it
    /// differs) and counts it; whether it agrees.
    pub(crate) fn check(
        &mut self,
        package: &str,
        program: &str,
        expected: &str,
        got: &Result<String, String>,
        agrees: bool,
        detail: &str,
    ) -> bool {
        let got = match got {
            Ok(got) => got.clone(),
            Err(why) => format!("not judged ({why})"),
        };
        let mark = if agrees { "ok" } else { "DIFFERS" };
        let why = if agrees {
            String::new()
        } else {
            format!("({detail})")
        };
        eprintln!("rewardbox: {package}: {mark:<8} {program:<48} {expected} got {got} {why}");
        self.checked += 1;
        self.agreed += usize::from(agrees);
        agrees
    }
}

/// The task lines of `package`: one without completions in `--language`, or with
/// `--submissions` one per language of its submissions.
fn tasks(package: &Package, args: &KattisArgs, seconds: f64) -> Result<Vec<String>, String> {
    let language = rewardbox_toolchains::Language::parse(&args.language)
        .ok_or_else(|| {
            format!(
                "--language {:?} is not a language rewardbox runs",
                args.language
            )
        })?
        .name();
    let programs = || {
        package
            .submissions
            .iter()
            .filter_map(|s| s.program.as_ref().ok().map(|p| (s, p)))
    };
    if !args.submissions {
        let solution = programs()
            .find(|(s, p)| s.expected == Expected::Accepted && p.language == language)
            .map(|(_, p)| fenced(p.language, &p.source));
        let shape = TaskShape {
            id: package.name.clone(),
            language,
            time_limit: seconds,
            completions: Vec::new(),
            whole: false,
            solution,
        };
        return Ok(vec![task(package, shape)?.to_string()]);
    }
    let languages: BTreeSet<&str> = programs().map(|(_, p)| p.language).collect();
    languages
        .into_iter()
        .map(|language| {
            let shape = TaskShape {
                id: format!("{}/{language}", package.name),
                language,
                time_limit: seconds,
                // Each written as a model writes a program, in a fenced block: the task takes a
                // completion as every code task does (the last fenced block, else the text).
                completions: programs()
                    .filter(|(_, p)| p.language == language)
                    .map(|(_, p)| fenced(p.language, &p.source))
                    .collect(),
                whole: false,
                solution: None,
            };
            task(package, shape).map(|t| t.to_string())
        })
        .collect()
}
