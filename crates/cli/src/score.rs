//! `rewardbox score`: JSONL tasks in, JSONL results out, a progress bar and a summary on stderr.

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rewardbox::jsonl::{DEFAULT_CHUNK_LINES, Summary, score_stream};
use rewardbox::{LimitOverrides, Limits, Scorer, ScorerOptions};
use std::fs::File;
use std::io::{BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;

/// Arguments of `rewardbox score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// Tasks file (JSONL); `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Results file (JSONL); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Scoring threads [default: all cores].
    #[arg(short = 'j', long)]
    threads: Option<usize>,
    /// Default fuel per verifier run (tasks may override with "limits").
    #[arg(long, default_value_t = Limits::VERIFIER_DEFAULT.fuel)]
    fuel: u64,
    /// Default wall-clock safety net per verifier run, in milliseconds.
    #[arg(long, default_value_t = Limits::VERIFIER_DEFAULT.wall_ms)]
    wall_ms: u64,
    /// Default memory limit per verifier run, in MiB.
    #[arg(long, default_value_t = Limits::VERIFIER_DEFAULT.memory_bytes / (1024 * 1024))]
    memory_mb: u64,
    /// Default output limit (stdout + stderr) per verifier run, in bytes.
    #[arg(long, default_value_t = Limits::VERIFIER_DEFAULT.output_bytes)]
    output_bytes: u64,
    /// Seed of the guests' random source.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    cache: crate::CacheArgs,
    /// No progress bar and no summary line.
    #[arg(short, long)]
    quiet: bool,
}

/// Runs `rewardbox score`.
pub fn run(args: ScoreArgs) -> anyhow::Result<()> {
    let limits = Limits::default().with(
        &LimitOverrides::from_json(&serde_json::json!({
            "fuel": args.fuel, "wall_ms": args.wall_ms, "memory_mb": args.memory_mb, "output_bytes": args.output_bytes,
        }))
        .map_err(|e| anyhow::anyhow!("{}", e.replace("\"limits.", "\"--").replace('_', "-")))?,
    );
    let cache = args.cache.cache();
    let scorer = Scorer::new(ScorerOptions {
        threads: args.threads,
        cache,
        limits,
        seed: args.seed,
        ..rewardbox::ScorerOptions::default()
    })?;

    let (input, input_len): (Box<dyn Read>, Option<u64>) = match &args.input {
        None => (Box::new(std::io::stdin().lock()), None),
        Some(p) if p.as_os_str() == "-" => (Box::new(std::io::stdin().lock()), None),
        Some(path) => {
            let file = File::open(path)
                .with_context(|| format!("cannot open the tasks file {}", path.display()))?;
            let len = file.metadata().ok().map(|m| m.len());
            (Box::new(file), len)
        }
    };
    let output: Box<dyn Write> = match &args.output {
        None => Box::new(std::io::stdout().lock()),
        Some(path) => Box::new(
            File::create(path)
                .with_context(|| format!("cannot create the results file {}", path.display()))?,
        ),
    };

    let progress = progress_bar(input_len, args.quiet);
    let summary = score_stream(
        &scorer,
        BufReader::with_capacity(1 << 20, input),
        BufWriter::with_capacity(1 << 20, output),
        DEFAULT_CHUNK_LINES,
        |s: &Summary| {
            progress.set_position(if input_len.is_some() {
                s.bytes
            } else {
                s.completions
            });
            progress.set_message(format!("{} completions, {:.0}/s", s.completions, s.rate()));
        },
    )
    .context("scoring stopped by an I/O error")?;
    progress.finish_and_clear();
    if !args.quiet {
        eprintln!("{}", summary.line());
    }
    Ok(())
}

/// A progress bar on stderr when it is a terminal: bytes with ETA for a file, a counter for a pipe.
fn progress_bar(input_len: Option<u64>, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = match input_len {
        Some(len) => ProgressBar::new(len).with_style(
            ProgressStyle::with_template("{bar:30} {percent:>3}% {msg}, ETA {eta}")
                .expect("valid progress template"),
        ),
        None => ProgressBar::new_spinner().with_style(
            ProgressStyle::with_template("{spinner} {msg}").expect("valid progress template"),
        ),
    };
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar
}
