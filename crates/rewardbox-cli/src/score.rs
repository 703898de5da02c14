//! `rewardbox score`: JSONL tasks in, JSONL results out, a progress bar and a summary on stderr.
//! Also the scoring options `score` and `eval` share, and the hidden `worker` subcommand they
//! start one process of per core.

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rewardbox::stream::{DEFAULT_CHUNK_LINES, Summary, score_stream};
use rewardbox::stream::{WorkerCommand, score_stream_in_workers, serve_worker};
use rewardbox::{LimitOverrides, Limits, PythonEngine, Scorer, ScorerOptions};
use std::ffi::OsString;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, IsTerminal, Read, Write};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `rewardbox score`.
#[derive(Args)]
pub struct ScoreArgs {
    /// Tasks file (JSONL); `-` or nothing reads standard input.
    input: Option<PathBuf>,
    /// Results file (JSONL); standard output when absent.
    #[arg(short, long)]
    output: Option<PathBuf>,
    #[command(flatten)]
    scoring: ScoringArgs,
    /// No progress bar and no summary line.
    #[arg(short, long)]
    quiet: bool,
}

/// How to score: parallelism, default limits, seed and cache (shared by `score` and `eval`).
#[derive(Args, Clone)]
pub struct ScoringArgs {
    /// Parallel scorers [default: all cores].
    #[arg(short = 'j', long, visible_alias = "threads")]
    jobs: Option<usize>,
    /// Score on threads of this process instead of one worker process per job. Processes are
    /// faster: threads of one process slow each other down with TLB shootdowns.
    #[arg(long)]
    in_process: bool,
    #[command(flatten)]
    engine: EngineArgs,
}

/// The options a worker process needs to score exactly as its parent would.
#[derive(Args, Clone)]
pub struct EngineArgs {
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
    /// Engine of Python programs run on stdin/stdout when a task names none ("python_engine"):
    /// auto (Monty, CPython where Monty's outcome cannot stand), cpython, or monty.
    #[arg(long, default_value = "auto", value_parser = parse_python_engine)]
    python_engine: PythonEngine,
    #[command(flatten)]
    cache: crate::CacheArgs,
}

fn parse_python_engine(name: &str) -> Result<PythonEngine, String> {
    PythonEngine::parse(name).ok_or_else(|| {
        format!(
            "{name:?} is not a Python engine (use {})",
            PythonEngine::ALL.map(PythonEngine::name).join(", ")
        )
    })
}

impl EngineArgs {
    /// Scorer options with these limits, seed and cache, on `threads` threads.
    fn scorer_options(&self, threads: Option<usize>) -> anyhow::Result<ScorerOptions> {
        let limits = Limits::default().with(
            &LimitOverrides::from_json(&serde_json::json!({
                "fuel": self.fuel, "wall_ms": self.wall_ms, "memory_mb": self.memory_mb,
                "output_bytes": self.output_bytes,
            }))
            .map_err(|e| anyhow::anyhow!("{}", e.replace("\"limits.", "\"--").replace('_', "-")))?,
        );
        Ok(ScorerOptions {
            threads,
            cache: self.cache.cache(),
            limits,
            seed: self.seed,
            python_engine: self.python_engine,
            ..ScorerOptions::default()
        })
    }

    /// The same options as command-line arguments, for a worker process.
    fn to_args(&self) -> Vec<OsString> {
        let mut args: Vec<OsString> = vec![
            "--fuel".into(),
            self.fuel.to_string().into(),
            "--wall-ms".into(),
            self.wall_ms.to_string().into(),
            "--memory-mb".into(),
            self.memory_mb.to_string().into(),
            "--output-bytes".into(),
            self.output_bytes.to_string().into(),
            "--seed".into(),
            self.seed.to_string().into(),
            "--python-engine".into(),
            self.python_engine.name().into(),
        ];
        args.extend(self.cache.to_args());
        args
    }
}

impl ScoringArgs {
    /// Parallel scorers: `--jobs`, else every core.
    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }

    /// Scores every task line of `input` into `output`, in order, in worker processes (or on
    /// threads with `--in-process`). Components are compiled first, outside the scoring clock, so
    /// that the rate reported through `progress` is the scoring rate; the summary returned counts
    /// that startup too (see [`Summary::add_startup`]).
    pub fn score(
        &self,
        input: impl BufRead + Send + 'static,
        output: impl Write,
        progress: impl FnMut(&Summary),
    ) -> anyhow::Result<Summary> {
        let jobs = self.jobs();
        anyhow::ensure!(jobs > 0, "--jobs must be at least 1");
        let options = self.engine.scorer_options(Some(jobs))?;
        let startup = Instant::now();
        let (mut summary, scoring) = if self.in_process || jobs == 1 {
            let scorer = Scorer::new(options)?;
            // Load (or compile) the CPython runtime before the clock starts.
            let _ = scorer.runners().python();
            let scoring = Instant::now();
            let summary = score_stream(&scorer, input, output, DEFAULT_CHUNK_LINES, progress)
                .context("scoring stopped by an I/O error")?;
            (summary, scoring)
        } else {
            rewardbox::precompile(&options.cache)?;
            let scoring = Instant::now();
            let mut args: Vec<OsString> = vec!["worker".into()];
            args.extend(self.engine.to_args());
            let command = WorkerCommand {
                program: std::env::current_exe()
                    .context("cannot find rewardbox's own executable")?,
                args,
            };
            let summary = score_stream_in_workers(&command, jobs, input, output, progress)
                .context("scoring stopped")?;
            (summary, scoring)
        };
        summary.add_startup(startup, scoring);
        Ok(summary)
    }
}

/// Runs `rewardbox score`.
pub fn run(args: ScoreArgs) -> anyhow::Result<()> {
    let (input, input_len): (Box<dyn Read + Send>, Option<u64>) = match &args.input {
        None => (Box::new(std::io::stdin()), None),
        Some(p) if p.as_os_str() == "-" => (Box::new(std::io::stdin()), None),
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
    let summary = args.scoring.score(
        BufReader::with_capacity(1 << 20, input),
        BufWriter::with_capacity(1 << 20, output),
        |s: &Summary| {
            progress.set_position(if input_len.is_some() {
                s.bytes
            } else {
                s.completions
            });
            progress.set_message(format!(
                "{} completions, {}/s",
                s.completions,
                rewardbox::stream::rate_text(s.rate())
            ));
        },
    )?;
    progress.finish_and_clear();
    if !args.quiet {
        eprintln!("{}", summary.line());
    }
    Ok(())
}

/// Arguments of the hidden `rewardbox worker`: the engine options of the parent.
#[derive(Args)]
pub struct WorkerArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

/// Runs one scoring worker on standard input and output (started by `score` and `eval`).
pub fn run_worker(args: WorkerArgs) -> anyhow::Result<()> {
    // A worker ends with its parent, whatever it is doing (scoring, blocked reading or writing).
    rewardbox_lifeline::watch_parent();
    let scorer = Scorer::new(args.engine.scorer_options(Some(1))?)?;
    let input = BufReader::with_capacity(1 << 20, std::io::stdin().lock());
    serve_worker(&scorer, input, std::io::stdout().lock()).context("scoring worker")
}

/// A progress bar on stderr when it is a terminal: bytes with ETA for a file, a counter for a pipe.
pub fn progress_bar(input_len: Option<u64>, quiet: bool) -> ProgressBar {
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
