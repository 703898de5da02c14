//! `rewardbox import deepgym DIR...`, `rewardbox import kattis DIR...`, `rewardbox import polygon
//! DIR...`, `rewardbox import cms DIR...`, `rewardbox import
//! humanevalx FILE...`, `rewardbox import multipl-e FILE...` and `rewardbox import livecodebench
//! FILE...`: environment folders, problem packages and benchmark files of other projects as
//! rewardbox tasks.

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
    /// Codeforces' Polygon packages (problem.xml, tests/, files/ with testlib.h and the
    /// checker, solutions/ with their tags).
    Polygon,
    /// IOI/CMS tasks in TPS's layout (problem.json, tests/, subtasks/, checker/, graders/ with
    /// the grader or the manager and stubs, solutions/ with solutions.json's verdicts).
    Cms,
    /// HumanEval-X problem files (`humaneval_cpp.jsonl.gz`, `humaneval_rust.jsonl.gz`): each
    /// problem a task graded by its own test code, its canonical solution the completion.
    Humanevalx,
    /// MultiPL-E files: its prompts (`name`, `language`, `prompt`, `tests`; JSONL, gzipped or
    /// not) or its per-problem completion files (the same with `completions`). C++ and Rust rows,
    /// each a task graded by its own test code; a prompt without completions gets none.
    #[value(name = "multipl-e")]
    MultiplE,
    /// LiveCodeBench's code-generation rows (JSONL, gzipped or not; private tests plain or
    /// packed): each a Python task graded by `lcb_runner`'s rules, no completions.
    Livecodebench,
}

/// Arguments of `rewardbox import`.
#[derive(Args)]
pub struct ImportArgs {
    /// The format of the folders.
    format: Format,
    /// Environment folders (a folder holding several environments is searched one level down),
    /// or HumanEval-X's, MultiPL-E's and LiveCodeBench's JSONL files (gzipped or not).
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Tasks file (JSONL); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Kattis and Polygon options.
    #[command(flatten)]
    kattis: crate::kattis::KattisArgs,
}

/// Runs `rewardbox import`: one task per environment; a folder that cannot be read is reported on
/// stderr and the others are still written. Returns whether every folder was imported.
pub fn run(args: ImportArgs) -> anyhow::Result<bool> {
    if let Format::Kattis = args.format {
        return crate::kattis::run(&args.dirs, args.output.as_deref(), &args.kattis);
    }
    if let Format::Polygon = args.format {
        return crate::polygon::run(&args.dirs, args.output.as_deref(), &args.kattis);
    }
    if let Format::Cms = args.format {
        return crate::cms::run(&args.dirs, args.output.as_deref(), &args.kattis);
    }
    let mut out = crate::kattis::tasks_out(args.output.as_deref())?;
    let mut ok = true;
    let mut written = 0;
    if let Format::Humanevalx | Format::MultiplE | Format::Livecodebench = args.format {
        for file in &args.dirs {
            for line in rewardbox_eval::read_json_or_jsonl(file)? {
                let task = line.value.and_then(|value| {
                    let row = value.as_object().ok_or("a problem must be a JSON object")?;
                    if let Format::Livecodebench = args.format {
                        return rewardbox_import::livecodebench::task(row)
                            .map_err(|e| e.to_string());
                    }
                    let why = |e: rewardbox_import::humanevalx::Unconvertible| e.to_string();
                    if let Format::MultiplE = args.format {
                        let problem = rewardbox_import::multipl_e::problem(row).map_err(why)?;
                        let completions =
                            rewardbox_import::multipl_e::completions(row).map_err(why)?;
                        let completions: Vec<&str> =
                            completions.iter().map(String::as_str).collect();
                        return Ok(problem.task(&completions));
                    }
                    let problem = rewardbox_import::humanevalx::problem(row).map_err(why)?;
                    Ok(problem.task(&[problem.canonical_solution.as_str()]))
                });
                match task {
                    Ok(task) => {
                        writeln!(out, "{task}")?;
                        written += 1;
                    }
                    Err(why) => {
                        eprintln!(
                            "rewardbox: skipped {} line {}: {why}",
                            file.display(),
                            line.number
                        );
                        ok = false;
                    }
                }
            }
        }
        out.flush()?;
        eprintln!("rewardbox: wrote {written} tasks");
        return Ok(ok);
    }
    for dir in rewardbox_import::folders::dirs_holding(&args.dirs, "verifier.py") {
        match args.format {
            Format::Kattis
            | Format::Polygon
            | Format::Cms
            | Format::Humanevalx
            | Format::MultiplE
            | Format::Livecodebench => {
                unreachable!("imported above")
            }
            Format::Deepgym => match rewardbox_import::deepgym::task_from_folder(&dir) {
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
