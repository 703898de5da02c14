//! The `rewardbox` command line: `rewardbox score tasks.jsonl -o results.jsonl`.

mod score;

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
    /// List the built-in verifiers.
    Verifiers,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Score(args) => score::run(args),
        Command::Verifiers => {
            for builtin in rewardbox::builtin::BUILTINS {
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
