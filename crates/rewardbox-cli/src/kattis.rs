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
    /// Kattis: the candidates' language of each task (c, cpp, python, rust, javascript).
    #[arg(long, default_value = "cpp")]
    language: String,
    /// Kattis: one task per language of the jury's submissions, the submissions as its
    /// completions (programs as they are), instead of one task without completions.
    #[arg(long)]
    submissions: bool,
    /// Kattis: judge every jury submission and print whether it gets the verdict its directory
    /// promises; exit 1 when one does not.
    #[arg(long)]
    verify: bool,
    /// Kattis: the time limit in seconds, instead of the slowest accepted submission's time times
    /// the package's time_multiplier.
    #[arg(long)]
    time_limit: Option<f64>,
    /// Kattis: derived time limits are rounded up to this many seconds (problemtools' time
    /// resolution).
    #[arg(long, default_value_t = 1.0)]
    time_resolution: f64,
    /// Kattis: scoring threads [default: all cores].
    #[arg(short = 'j', long)]
    jobs: Option<usize>,
    #[command(flatten)]
    cache: CacheArgs,
}

/// Runs `rewardbox import kattis`. Returns whether every package was imported (and, with
/// `--verify`, every submission got its promised verdict).
pub fn run(dirs: &[PathBuf], output: Option<&Path>, args: &KattisArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(
        args.time_resolution > 0.0,
        "--time-resolution must be a positive number of seconds"
    );
    let mut out: Box<dyn Write> = match output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let scorer = Scorer::new(ScorerOptions {
        threads: args.jobs,
        cache: args.cache.cache(),
        ..ScorerOptions::default()
    })?;
    let mut ok = true;
    let (mut written, mut agreed, mut checked) = (0, 0, 0);
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
                        let got = match &check.got {
                            Ok(got) => got.clone(),
                            Err(why) => format!("not judged ({why})"),
                        };
                        let mark = if check.agrees() { "ok" } else { "DIFFERS" };
                        eprintln!(
                            "rewardbox: {}: {:<8} {:<48} expected {:<4} got {got} {}",
                            package.name,
                            mark,
                            check.submission,
                            check.expected.verdict(),
                            if check.agrees() {
                                String::new()
                            } else {
                                format!("({})", check.detail)
                            }
                        );
                        checked += 1;
                        if check.agrees() {
                            agreed += 1;
                        } else {
                            ok = false;
                        }
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
            "rewardbox: {agreed} of {checked} jury submissions got the verdict their directory promises"
        );
    }
    Ok(ok)
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
