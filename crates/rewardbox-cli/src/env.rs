//! `rewardbox env check` and `rewardbox env run`: CodeGym environments, offline.

use anyhow::Context;
use clap::{Args, Subcommand};
use rewardbox::Limits;
use rewardbox_envs::{EnvOptions, Environments, check, replay};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};

/// `rewardbox env ...`.
#[derive(Args)]
pub struct EnvArgs {
    #[command(subcommand)]
    command: EnvCommand,
}

#[derive(Subcommand)]
enum EnvCommand {
    /// Verification stage: start each instance, run the environment's own solve(), require
    /// finished with reward 1; writes a JSON report, a table on stderr.
    Check(CheckArgs),
    /// Replay action lists (one episode per line) and write observations and rewards as JSONL.
    Run(RunArgs),
}

/// Limits and sandbox options shared by `env check` and `env run`.
#[derive(Args)]
struct SessionOptions {
    /// Fuel per call into an environment (a step, or the whole of solve()).
    #[arg(long, default_value_t = 10_000_000_000)]
    fuel: u64,
    /// Wall-clock safety net per call, in milliseconds.
    #[arg(long, default_value_t = 20_000)]
    wall_ms: u64,
    /// Memory limit per session, in MiB.
    #[arg(long, default_value_t = 256)]
    memory_mb: u64,
    /// Output limit (stdout + stderr) per call, in bytes.
    #[arg(long, default_value_t = 1 << 20)]
    output_bytes: u64,
    /// Seed of the environments' random source.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    cache: crate::CacheArgs,
}

impl SessionOptions {
    fn environments(&self, env_dir: &Path) -> anyhow::Result<Environments> {
        let mut options = EnvOptions::new(env_dir);
        options.limits = Limits {
            fuel: self.fuel,
            wall_ms: self.wall_ms,
            memory_bytes: self.memory_mb << 20,
            output_bytes: self.output_bytes,
        };
        options.cache = self.cache.cache();
        options.seed = self.seed;
        Environments::new(options)
    }
}

#[derive(Args)]
struct CheckArgs {
    /// The environments directory (`<FileStem>.py` files).
    env_dir: PathBuf,
    /// Instances (JSONL): `{"env_str": ...}`, or CodeGym's training instances (`ability`).
    instances: PathBuf,
    /// Report file (JSON); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Exit 1 when any instance is not solved.
    #[arg(long)]
    fail_on_error: bool,
    #[command(flatten)]
    options: SessionOptions,
}

#[derive(Args)]
struct RunArgs {
    /// The environments directory (`<FileStem>.py` files).
    env_dir: PathBuf,
    /// Episodes (JSONL): `{"env_str": ..., "actions": [...]}`.
    episodes: PathBuf,
    /// Results file (JSONL); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    #[command(flatten)]
    options: SessionOptions,
}

/// Runs `rewardbox env`; returns whether it succeeded (false: `--fail-on-error` and an
/// instance not solved).
pub fn run(args: EnvArgs) -> anyhow::Result<bool> {
    match args.command {
        EnvCommand::Check(args) => run_check(args),
        EnvCommand::Run(args) => run_replay(args).map(|()| true),
    }
}

fn read_lines(path: &Path) -> anyhow::Result<Vec<(usize, String)>> {
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot open {}", path.display()))?;
    let mut lines = Vec::new();
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {}", path.display()))?;
        if !line.trim().is_empty() {
            lines.push((i + 1, line));
        }
    }
    Ok(lines)
}

fn output(path: &Option<PathBuf>) -> anyhow::Result<Box<dyn Write>> {
    Ok(match path {
        Some(path) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(path)
                .with_context(|| format!("cannot create {}", path.display()))?,
        )),
        None => Box::new(std::io::stdout().lock()),
    })
}

fn run_check(args: CheckArgs) -> anyhow::Result<bool> {
    let lines = read_lines(&args.instances)?;
    let envs = args.options.environments(&args.env_dir)?;
    let report = check::check(&envs, &lines);
    let mut out = output(&args.output)?;
    serde_json::to_writer_pretty(&mut out, &report)?;
    writeln!(out)?;
    out.flush()?;
    eprint!("{}", report.table());
    Ok(!args.fail_on_error || report.summary.by_status["solved"] == report.summary.instances)
}

fn run_replay(args: RunArgs) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let lines = read_lines(&args.episodes)?;
    let envs = args.options.environments(&args.env_dir)?;
    let results: Vec<serde_json::Value> = lines
        .par_iter()
        .map(|(number, text)| replay::replay(&envs, *number, text))
        .collect();
    let mut out = output(&args.output)?;
    for result in results {
        writeln!(out, "{result}")?;
    }
    out.flush()?;
    Ok(())
}
