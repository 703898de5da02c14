//! `rewardbox import polygon DIR...`: Codeforces' Polygon packages as tasks, their missing tests
//! generated, and (`--verify`) every jury solution judged against what its tag requires and the
//! input validators run on every test.

use crate::kattis::{KattisArgs, Tally, tasks_out};
use rewardbox::{Scorer, ScorerOptions};
use rewardbox_import::kattis::{TaskShape, fenced};
use rewardbox_import::polygon::{
    Package, Tag, complete_tests, invalid_inputs, read_package, task, verify,
};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs `rewardbox import polygon`. Returns whether every package was imported (and, with
/// `--verify`, every solution got a verdict its tag allows and every test passed the
/// validators).
pub fn run(dirs: &[PathBuf], output: Option<&Path>, args: &KattisArgs) -> anyhow::Result<bool> {
    let mut out = tasks_out(output)?;
    let scorer = Scorer::new(ScorerOptions {
        threads: args.jobs,
        cache: args.cache.cache(),
        ..ScorerOptions::default()
    })?;
    let mut ok = true;
    let mut written = 0;
    let mut tally = Tally::default();
    for dir in rewardbox_import::folders::dirs_holding(dirs, "problem.xml") {
        let mut package = match read_package(&dir) {
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
        let made = (
            package.cases.iter().filter(|c| c.input.is_none()).count(),
            package.cases.iter().filter(|c| c.answer.is_none()).count(),
        );
        if let Err(message) = complete_tests(&mut package, &scorer) {
            eprintln!("rewardbox: skipped {}: {message}", package.name);
            ok = false;
            continue;
        }
        if made != (0, 0) {
            eprintln!(
                "rewardbox: {}: generated {} inputs and {} answers (the main solution's)",
                package.name, made.0, made.1
            );
        }
        let seconds = match args.time_limit {
            Some(seconds) => seconds,
            None => {
                let seconds = package.time_limit_ms as f64 / 1000.0;
                eprintln!(
                    "rewardbox: {}: time limit {seconds} s (the testset's), memory {} MiB",
                    package.name,
                    package.memory_bytes >> 20
                );
                seconds
            }
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
        if !args.verify {
            continue;
        }
        let invalid = invalid_inputs(&package, &scorer);
        for why in &invalid {
            eprintln!("rewardbox: {}: INVALID  {why}", package.name);
        }
        ok &= invalid.is_empty();
        match verify(&package, &scorer, seconds) {
            Ok(checks) => {
                for check in &checks {
                    ok &= tally.check(
                        &package.name,
                        &check.solution,
                        &format!("tag {:<28}", check.tag.name()),
                        &check.got,
                        check.agrees(),
                        &check.detail,
                    );
                }
            }
            Err(message) => {
                eprintln!(
                    "rewardbox: {}: the solutions could not be judged: {message}",
                    package.name
                );
                ok = false;
            }
        }
    }
    out.flush()?;
    eprintln!("rewardbox: wrote {written} tasks");
    if args.verify {
        eprintln!(
            "rewardbox: {} of {} jury solutions got a verdict their tag allows",
            tally.agreed, tally.checked
        );
    }
    Ok(ok)
}

/// The task lines of `package`: one without completions in `--language`, or with
/// `--submissions` one per language of its solutions (but `do-not-run` ones).
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
            .solutions
            .iter()
            .filter(|s| s.tag != Tag::DoNotRun)
            .map(|s| (s, &s.program))
    };
    if !args.submissions {
        let solution = programs()
            .filter(|(s, p)| s.tag.is_accepted() && p.language == language)
            .min_by_key(|(s, _)| s.tag)
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
