//! `rewardbox import deepgym DIR...` and `rewardbox import kattis DIR...`: environment folders and
//! problem packages of other projects as rewardbox tasks.

use anyhow::Context;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Formats `rewardbox import` reads.
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// DeepGym environment folders (verifier.py, task.md, reference_solution.py, test_cases.json).
    Deepgym,
    /// Kattis / ICPC problem packages (problem.yaml, data/, output_validators/, submissions/).
    Kattis,
}

/// Arguments of `rewardbox import`.
#[derive(Args)]
pub struct ImportArgs {
    /// The format of the folders.
    format: Format,
    /// Environment folders (a folder holding several environments is searched one level down).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Tasks file (JSONL); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Kattis options.
    #[command(flatten)]
    kattis: crate::kattis::KattisArgs,
}

/// Runs `rewardbox import`: one task per environment; a folder that cannot be read is reported on
/// stderr and the others are still written. Returns whether every folder was imported.
pub fn run(args: ImportArgs) -> anyhow::Result<bool> {
    if let Format::Kattis = args.format {
        return crate::kattis::run(&args.dirs, args.output.as_deref(), &args.kattis);
    }
    let mut out: Box<dyn Write> = match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    };
    let mut ok = true;
    let mut written = 0;
    for dir in crate::folders::dirs_holding(&args.dirs, "verifier.py") {
        match args.format {
            Format::Kattis => unreachable!("imported above"),
            Format::Deepgym => match rewardbox::deepgym::task_from_folder(&dir) {
                Ok(task) => {
                    writeln!(out, "{task}")?;
                    written += 1;
                }
                Err(message) => {
                    eprintln!("rewardbox: skipped {message}");
                    ok = false;
                }
            },
        }
    }
    out.flush()?;
    eprintln!("rewardbox: wrote {written} tasks");
    Ok(ok)
}
