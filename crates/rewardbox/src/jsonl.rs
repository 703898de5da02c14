//! Streaming JSONL scoring: read a chunk of lines, score it in parallel, write its results in
//! order, repeat. Memory stays bounded by the chunk size whatever the input's length.

use crate::batch::InputLine;
use crate::input::{LineEvent, LineReader, trim_line_ending};
use crate::scorer::Scorer;
use rayon::prelude::*;
use rewardbox_types::{Status, TaskResult};
use std::io::{BufRead, Write};
use std::sync::mpsc::channel;
use std::time::{Duration, Instant};

/// Lines read and scored together. Large enough to keep every thread busy, small enough to keep
/// memory flat and progress fresh.
pub const DEFAULT_CHUNK_LINES: usize = 4096;

/// Counts over a scored stream, for the closing summary line.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    /// Task lines read (valid or not).
    pub tasks: u64,
    /// Lines rejected as `invalid_task`.
    pub invalid_tasks: u64,
    /// Completions scored.
    pub completions: u64,
    /// Completions with `passed: true`.
    pub passed: u64,
    /// Completions with status `verifier_error`.
    pub verifier_errors: u64,
    /// Input bytes consumed.
    pub bytes: u64,
    /// Wall time so far.
    pub elapsed: Duration,
    /// Of `elapsed`, the wall time one-time work took: compiling a runtime component to native
    /// code, building a compiler's libraries, both kept for later runs (see
    /// [`rewardbox_toolchains::one_time`]).
    pub one_time: Duration,
}

impl Summary {
    pub(crate) fn add(&mut self, result: &TaskResult) {
        self.tasks += 1;
        if result.is_invalid() {
            self.invalid_tasks += 1;
        }
        for r in &result.results {
            self.completions += 1;
            self.passed += u64::from(r.passed);
            self.verifier_errors += u64::from(r.status == Status::VerifierError);
        }
    }

    /// Completions scored per second of wall time.
    pub fn rate(&self) -> f64 {
        self.completions as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }

    /// Counts the time from `from` to `to`, spent before scoring began (loading or compiling the
    /// runtimes), into the run's, with the one-time work within it: the summary's time is then
    /// the whole wait, where the progress shown while scoring is the scoring rate.
    pub fn add_startup(&mut self, from: Instant, to: Instant) {
        self.elapsed += to.saturating_duration_since(from);
        self.one_time += rewardbox_toolchains::one_time::spent_between(from, to);
    }

    /// Sets the wall time since `started`, and how much of it one-time work took.
    pub(crate) fn clock(&mut self, started: Instant) {
        self.elapsed = started.elapsed();
        self.one_time = rewardbox_toolchains::one_time::spent_since(started).min(self.elapsed);
    }

    /// The one-line summary printed at the end of `rewardbox score`.
    pub fn line(&self) -> String {
        let pass_rate = if self.completions == 0 {
            0.0
        } else {
            100.0 * self.passed as f64 / self.completions as f64
        };
        format!(
            "rewardbox: {} tasks ({} invalid), {} completions, pass rate {:.1}%, {} verifier errors, \
             {:.2} s, {} completions/s",
            self.tasks,
            self.invalid_tasks,
            self.completions,
            pass_rate,
            self.verifier_errors,
            self.elapsed.as_secs_f64(),
            rate_text(self.rate())
        ) + &self.one_time_text()
    }

    /// What one-time work took of the run, when it took a second or more: the rate a later run
    /// of the same work would see is the rate without it.
    fn one_time_text(&self) -> String {
        if self.one_time < Duration::from_secs(1) {
            return String::new();
        }
        let rest = self.elapsed.saturating_sub(self.one_time).as_secs_f64();
        format!(
            " ({:.1} s of it one-time work that later runs reuse: compiling runtimes to native \
             code, building compilers' libraries; about {} completions/s without it)",
            self.one_time.as_secs_f64(),
            rate_text(self.completions as f64 / rest.max(1e-3))
        )
    }
}

/// A rate with the digits that matter: `1234`, `12.3`, `0.35` (a slow batch, compiling its
/// programs for the first time, is not `0`).
pub fn rate_text(rate: f64) -> String {
    if rate >= 100.0 {
        format!("{rate:.0}")
    } else if rate >= 10.0 {
        format!("{rate:.1}")
    } else {
        format!("{rate:.2}")
    }
}

/// Scores every task line of `input`, writing one result line per task line to `output`, in order.
/// Blank lines are skipped. `on_chunk` is called after each chunk with the running summary.
///
/// Lines are read on a thread of their own and scored in chunks of what has arrived (at most
/// `chunk_lines`), each chunk's results written and flushed before waiting for more: a caller that
/// writes one task and waits for its result gets it while its input stays open.
///
/// Returns an error only for I/O failures; malformed lines become `invalid_task` results.
pub fn score_stream(
    scorer: &Scorer,
    input: impl BufRead + Send + 'static,
    mut output: impl Write,
    chunk_lines: usize,
    mut on_chunk: impl FnMut(&Summary),
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let chunk_lines = chunk_lines.max(1);
    let mut summary = Summary::default();
    let mut line_number = 0usize;
    let (events_tx, events) = channel();
    let mut reader = LineReader::start(input, events_tx, |e| e);
    while !reader.at_end() {
        // Read ahead one chunk; take what has arrived, waiting only when nothing has.
        reader.want(chunk_lines);
        let mut chunk = Vec::with_capacity(chunk_lines);
        let mut next = events.recv().ok();
        while let Some(event) = next.take() {
            reader.received(&event);
            match event {
                LineEvent::Line { text, read } => {
                    line_number += 1;
                    summary.bytes += read as u64;
                    let text = trim_line_ending(&text);
                    if !text.iter().all(u8::is_ascii_whitespace) {
                        chunk.push(InputLine {
                            number: line_number,
                            text: std::str::from_utf8(text).map(str::to_owned).map_err(|_| ()),
                        });
                    }
                }
                LineEvent::End => break,
                LineEvent::Failed(error) => return Err(error),
            }
            if chunk.len() < chunk_lines {
                next = events.try_recv().ok();
            }
        }
        if chunk.is_empty() {
            continue;
        }
        let results = scorer.score_lines(&chunk);
        let encoded: Vec<String> = scorer.pool.install(|| {
            results
                .par_iter()
                .map(|r| serde_json::to_string(r).expect("results always serialize"))
                .collect()
        });
        for (result, line) in results.iter().zip(&encoded) {
            summary.add(result);
            output.write_all(line.as_bytes())?;
            output.write_all(b"\n")?;
        }
        output.flush()?;
        summary.clock(started);
        on_chunk(&summary);
    }
    output.flush()?;
    summary.clock(started);
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::{Summary, rate_text};
    use std::time::Duration;

    #[test]
    fn the_summary_says_what_one_time_work_took_and_the_rate_without_it() {
        let mut summary = Summary {
            tasks: 23,
            completions: 57,
            elapsed: Duration::from_secs_f64(131.13),
            one_time: Duration::from_secs_f64(119.5),
            ..Summary::default()
        };
        let line = summary.line();
        assert!(
            line.contains("131.13 s, 0.43 completions/s (119.5 s of it one-time work"),
            "{line}"
        );
        assert!(
            line.ends_with("about 4.90 completions/s without it)"),
            "{line}"
        );
        summary.one_time = Duration::from_millis(400);
        assert!(
            summary.line().ends_with("0.43 completions/s"),
            "{}",
            summary.line()
        );
    }

    #[test]
    fn a_rate_keeps_the_digits_that_matter() {
        for (rate, text) in [
            (0.354, "0.35"),
            (7.0, "7.00"),
            (12.34, "12.3"),
            (1234.4, "1234"),
        ] {
            assert_eq!(rate_text(rate), text);
        }
    }
}
