//! `rewardbox import cms DIR...`: IOI/CMS tasks (TPS's layout) as tasks, and (`--verify`) every
//! jury solution with a verdict in `solutions.json` judged against it.

use crate::kattis::{KattisArgs, Tally, tasks_out};
use rewardbox::{Scorer, ScorerOptions};
use rewardbox_import::cms::{Task, languages, read_task, task, verify};
use rewardbox_import::kattis::{TaskShape, fenced};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs `rewardbox import cms`. Returns whether every task was imported (and, with `--verify`,
/// every solution with a verdict showed what it asks).
pub fn run(dirs: &[PathBuf], output: Option<&Path>, args: &KattisArgs) -> anyhow::Result<bool> {
    let mut out = tasks_out(output)?;
    let mut ok = true;
    let mut written = 0;
    let mut tally = Tally::default();
    let mut scorer = None;
    for dir in rewardbox_import::folders::dirs_holding(dirs, "problem.json") {
        let read = match read_task(&dir) {
            Ok(read) => read,
            Err(message) => {
                eprintln!("rewardbox: skipped {}: {message}", dir.display());
                ok = false;
                continue;
            }
        };
        for note in &read.notes {
            eprintln!("rewardbox: {}: {note}", read.name);
        }
        let seconds = args.time_limit.unwrap_or(read.time_limit);
        if args.time_limit.is_none() {
            eprintln!(
                "rewardbox: {}: time limit {seconds} s, memory {} MiB (problem.json's)",
                read.name, read.memory_mb
            );
        }
        match tasks(&read, args, seconds) {
            Ok(lines) => {
                for line in lines {
                    writeln!(out, "{line}")?;
                    written += 1;
                }
            }
            Err(message) => {
                eprintln!("rewardbox: skipped {}: {message}", read.name);
                ok = false;
                continue;
            }
        }
        if !args.verify {
            continue;
        }
        let scorer = match &mut scorer {
            Some(scorer) => scorer,
            None => scorer.insert(Scorer::new(ScorerOptions {
                threads: args.jobs,
                cache: args.cache.cache(),
                ..ScorerOptions::default()
            })?),
        };
        match verify(&read, scorer, seconds) {
            Ok((checks, skipped)) => {
                for why in &skipped {
                    eprintln!("rewardbox: {}: not judged {why}", read.name);
                }
                for check in &checks {
                    ok &= tally.check(
                        &read.name,
                        &check.solution,
                        &format!("verdict {:<28}", check.verdict.name()),
                        &check.got,
                        check.agrees(),
                        &check.detail,
                    );
                }
            }
            Err(message) => {
                eprintln!(
                    "rewardbox: {}: the solutions could not be judged: {message}",
                    read.name
                );
                ok = false;
            }
        }
    }
    out.flush()?;
    eprintln!("rewardbox: wrote {written} tasks");
    if args.verify {
        eprintln!(
            "rewardbox: {} of {} jury solutions showed what their verdict asks",
            tally.agreed, tally.checked
        );
    }
    Ok(ok)
}

/// The task lines of `read`: one without completions in `--language`, or with `--submissions`
/// one per language of its solutions that the task takes.
fn tasks(read: &Task, args: &KattisArgs, seconds: f64) -> Result<Vec<String>, String> {
    let language = rewardbox_toolchains::Language::parse(&args.language)
        .ok_or_else(|| {
            format!(
                "--language {:?} is not a language rewardbox runs",
                args.language
            )
        })?
        .name();
    let takes = languages(read);
    let taken = |l: &str| takes.as_ref().is_none_or(|t| t.contains(&l));
    if !args.submissions {
        if !taken(language) {
            return Err(format!(
                "its submissions are written in {} (its grader or stubs), not --language {language}",
                takes.unwrap_or_default().join(", ")
            ));
        }
        let solution = read
            .solutions
            .iter()
            .filter(|s| s.language == language && s.verdict.is_some_and(|v| v.is_correct()))
            .min_by_key(|s| s.verdict)
            .map(|s| fenced(s.language, &s.source));
        let shape = TaskShape {
            id: read.name.clone(),
            language,
            time_limit: seconds,
            completions: Vec::new(),
            whole: false,
            solution,
        };
        return Ok(vec![task(read, shape).to_string()]);
    }
    let languages: BTreeSet<&str> = read
        .solutions
        .iter()
        .map(|s| s.language)
        .filter(|l| taken(l))
        .collect();
    Ok(languages
        .into_iter()
        .map(|language| {
            let shape = TaskShape {
                id: format!("{}/{language}", read.name),
                language,
                time_limit: seconds,
                completions: read
                    .solutions
                    .iter()
                    .filter(|s| s.language == language)
                    .map(|s| fenced(s.language, &s.source))
                    .collect(),
                whole: false,
                solution: None,
            };
            task(read, shape).to_string()
        })
        .collect())
}
