//! `rewardbox audit`: attacks each task's verifier through the scoring path of `score` and reports
//! exploits, false rejections and weak tests as JSON, with a summary table on stderr.

use anyhow::Context;
use clap::Args;
use rewardbox::{Limits, Scorer, ScorerOptions};
use rewardbox_audit::{AuditOptions, audit_lines};
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;

/// Arguments of `rewardbox audit`.
#[derive(Args)]
pub struct AuditArgs {
    /// The tasks (JSONL, the same format as `score`; a task may carry a known-good "solution").
    /// `-` or nothing reads stdin.
    input: Option<PathBuf>,
    /// Where to write the JSON report (default: stdout).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// An external attacker: a shell command that reads the task JSON on stdin and prints
    /// completions as JSON lines. Trusted operator code: it runs as you, unsandboxed, with your
    /// environment.
    #[arg(long)]
    attacker_cmd: Option<String>,
    /// A score at or above this passes.
    #[arg(long, default_value_t = 0.5)]
    threshold: f64,
    /// Exit with status 1 when any exploit is found (for CI pipelines).
    #[arg(long)]
    fail_on_exploit: bool,
    /// Scoring threads (default: every core).
    #[arg(short = 'j', long)]
    threads: Option<usize>,
    #[command(flatten)]
    cache: crate::CacheArgs,
    /// No summary table on stderr.
    #[arg(short, long)]
    quiet: bool,
    /// Tier 5: run GRPO against each verifier with a grammar policy (or --policy-cmd) and report
    /// the exploits it converges on (findings of family "tier5"). A task may carry "holdout"
    /// tests for the judge.
    #[arg(long)]
    tier5: bool,
    /// Tier 5: most optimisation steps per task.
    #[arg(long, default_value_t = 80)]
    tier5_steps: usize,
    /// Tier 5: completions per group.
    #[arg(long, default_value_t = 16)]
    tier5_group: usize,
    /// Tier 5: seed of the policy's sampling.
    #[arg(long, default_value_t = 0)]
    tier5_seed: u64,
    /// Tier 5: an external policy instead of the grammar, a shell command speaking Tier 5's line
    /// protocol (docs/guide/tier5.md). Trusted operator code: it runs as you, unsandboxed, with
    /// your environment.
    #[arg(long)]
    policy_cmd: Option<String>,
    /// Also write the report as HTML (findings, and Tier 5's reward and judge curves).
    #[arg(long)]
    html: Option<PathBuf>,
}

/// Runs the audit; `Ok(false)` when `--fail-on-exploit` found an exploit.
pub fn run(args: AuditArgs) -> anyhow::Result<bool> {
    anyhow::ensure!(
        (0.0..=1.0).contains(&args.threshold),
        "--threshold must be between 0 and 1, got {}",
        args.threshold
    );
    let scorer = Scorer::new(ScorerOptions {
        threads: args.threads,
        cache: args.cache.cache(),
        limits: Limits::default(),
        seed: 0,
        ..rewardbox::ScorerOptions::default()
    })?;
    let input: Box<dyn Read> = match &args.input {
        None => Box::new(std::io::stdin().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(std::io::stdin().lock()),
        Some(path) => Box::new(
            std::fs::File::open(path)
                .with_context(|| format!("cannot open the tasks file {}", path.display()))?,
        ),
    };
    let mut lines = Vec::new();
    for (i, line) in BufReader::new(input).lines().enumerate() {
        let line = line.context("reading the tasks")?;
        if !line.trim().is_empty() {
            lines.push((i + 1, line));
        }
    }
    let options = AuditOptions {
        threshold: args.threshold,
        attacker_cmd: args.attacker_cmd.clone(),
    };
    let mut report = audit_lines(&scorer, &lines, &options);
    if args.tier5 || args.policy_cmd.is_some() {
        anyhow::ensure!(
            args.tier5_steps > 0 && args.tier5_group >= 2,
            "--tier5-steps must be at least 1 and --tier5-group at least 2 (GRPO compares a group)"
        );
        let tier5 = rewardbox_audit::tier5::Tier5Options {
            steps: args.tier5_steps,
            group: args.tier5_group,
            seed: args.tier5_seed,
            threshold: args.threshold,
            policy_cmd: args.policy_cmd.clone(),
            ..rewardbox_audit::tier5::Tier5Options::default()
        };
        let trained = rewardbox_audit::tier5::explore_lines(&scorer, &lines, &tier5);
        let mut tasks = std::mem::take(&mut report.tasks);
        for (task, tier5) in tasks.iter_mut().zip(&trained) {
            if let Some(finding) = rewardbox_audit::tier5::finding(tier5) {
                task.findings.push(finding);
                task.robust = false;
            }
            task.tier5 = Some(serde_json::to_value(tier5).context("serialising Tier 5's report")?);
        }
        report = rewardbox_audit::Report::new(tasks);
    }
    if let Some(path) = &args.html {
        std::fs::write(path, rewardbox_audit::html::render(&report))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    let json = serde_json::to_string_pretty(&report).context("serialising the report")?;
    match &args.output {
        None => writeln!(std::io::stdout().lock(), "{json}")?,
        Some(path) => std::fs::write(path, json + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?,
    }
    if !args.quiet {
        eprint!("{}", report.table());
    }
    Ok(!(args.fail_on_exploit && report.summary.exploits > 0))
}
