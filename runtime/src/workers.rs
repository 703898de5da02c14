//! Scoring in worker processes: the parent reads JSONL tasks and hands them out; each worker, a
//! child process with a one-thread [`Scorer`], scores what it is given and answers in JSONL; the
//! parent writes the results in input order.
//!
//! Why processes rather than threads: the threads of one process share one address space, so
//! every page-table change one of them makes (a copy-on-write fault in a fresh instance, a pooled
//! slot being reset) interrupts the others to flush their TLBs. Measured on the 2-core machine
//! with HumanEval samples: 118 TLB shootdowns per sample with two threads, 3 with one thread per
//! process, and 38% less CPU per sample.
//!
//! The protocol is line-based. Parent to worker: `<piece>\t<line number>\t<task JSON>`. Worker
//! to parent: `<piece>\t<result JSON>`. A task with many completions is split into pieces so that
//! one large task still keeps every worker busy; the pieces' results are joined again. A worker
//! that dies costs only the piece it was scoring: its completions come back as masked
//! `verifier_error` results saying so, the pieces it had not started go to another worker, and a
//! new worker takes its place.

use crate::batch::InputLine;
use crate::jsonl::Summary;
use crate::scorer::Scorer;
use crate::verdict::{CompletionResult, TaskResult};
use serde_json::Value;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// Pieces a worker holds at once: one it scores and one waiting, so it never idles between them.
const IN_FLIGHT_PER_WORKER: usize = 2;

/// Task lines read ahead of the oldest unfinished one. Bounds the parent's memory when one slow
/// task holds up the ordered output.
const MAX_PENDING_LINES: usize = 4096;

/// A task is split when it has more completions than this.
const MIN_PIECE: usize = 16;

/// Deaths per worker, in a row and without an answer in between, before the run is abandoned.
const MAX_SILENT_DEATHS: usize = 3;

/// How to start one worker: a program and its arguments. The worker must run [`serve_worker`] on
/// its standard input and output.
#[derive(Debug, Clone)]
pub struct WorkerCommand {
    /// The program (for the CLI, its own executable).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
}

/// The worker's side: reads pieces from `input` until it ends, scores each on `scorer`, and
/// writes one result line per piece to `output`, flushed at once.
pub fn serve_worker(
    scorer: &Scorer,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    for line in input.lines() {
        let line = line?;
        let mut fields = line.splitn(3, '\t');
        let (Some(piece), Some(number), Some(text)) = (fields.next(), fields.next(), fields.next())
        else {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("a worker expects `piece<TAB>line<TAB>task`, got {line:.80?}"),
            ));
        };
        let number = number
            .parse()
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::InvalidData, "bad line number"))?;
        let input = InputLine {
            number,
            text: Ok(text.to_string()),
        };
        let result = scorer
            .score_lines(std::slice::from_ref(&input))
            .pop()
            .expect("one result per line");
        let encoded = serde_json::to_string(&result).expect("results always serialize");
        writeln!(output, "{piece}\t{encoded}")?;
        output.flush()?;
    }
    Ok(())
}

/// The parent's side: scores every task line of `input` in `workers` worker processes started
/// with `command`, writing one result line per task line to `output`, in order, like
/// [`crate::jsonl::score_stream`]. `on_result` is called after each line is written.
///
/// Returns an error for I/O failures and when workers cannot be started or keep dying before they
/// answer anything; a worker that dies while scoring costs only the pieces it held.
pub fn score_stream_in_workers(
    command: &WorkerCommand,
    workers: usize,
    mut input: impl BufRead,
    output: impl Write,
    mut on_result: impl FnMut(&Summary),
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let (events_tx, events) = channel();
    let mut pool = Pool {
        command: command.clone(),
        workers: Vec::new(),
        events_tx,
        silent_deaths: 0,
    };
    for _ in 0..workers.max(1) {
        pool.spawn()?;
    }
    let mut order = Ordered::new(output);
    let mut queue: VecDeque<Piece> = VecDeque::new();
    let mut line_number = 0usize;
    let mut buffer = Vec::new();
    let mut at_end = false;
    let mut next_piece = 0u64;
    loop {
        // Read ahead while there is room: enough queued pieces to keep every worker busy.
        while !at_end
            && queue.len() < pool.workers.len() * IN_FLIGHT_PER_WORKER
            && order.pending.len() < MAX_PENDING_LINES
        {
            buffer.clear();
            let read = input.read_until(b'\n', &mut buffer)?;
            if read == 0 {
                at_end = true;
                break;
            }
            line_number += 1;
            order.summary.bytes += read as u64;
            let text = trim_line_ending(&buffer);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match std::str::from_utf8(text) {
                Err(_) => order.push_done(TaskResult::invalid(
                    None,
                    Some(line_number),
                    format!("line {line_number}: not valid UTF-8"),
                )),
                Ok(text) => {
                    let slot = order.push_pending(line_number);
                    for (part, payload) in
                        split_task(text, pool.workers.len()).into_iter().enumerate()
                    {
                        order
                            .pending
                            .back_mut()
                            .expect("just pushed")
                            .parts
                            .push(None);
                        queue.push_back(Piece {
                            id: next_piece,
                            slot,
                            part,
                            completions: payload.completions,
                            task_id: payload.task_id,
                            payload: format!("{next_piece}\t{line_number}\t{}", payload.text),
                        });
                        next_piece += 1;
                    }
                }
            }
        }
        order.write_ready(started, &mut on_result)?;

        // Hand queued pieces to workers with room.
        for worker in pool.workers.iter_mut() {
            while worker.held.len() < IN_FLIGHT_PER_WORKER {
                let Some(piece) = queue.pop_front() else {
                    break;
                };
                worker.send(&piece);
                worker.held.push_back(piece);
            }
        }

        let busy = pool.workers.iter().any(|w| !w.held.is_empty());
        if !busy && queue.is_empty() && at_end {
            break;
        }
        if !busy {
            continue;
        }

        match events.recv().expect("the pool keeps a sender") {
            Event::Answer {
                worker,
                piece,
                text,
            } => {
                let w = pool.find(worker);
                let Some(held) = w.and_then(|w| w.take(piece)) else {
                    continue;
                };
                let result = serde_json::from_str::<TaskResult>(&text).unwrap_or_else(|e| {
                    lost_piece(&held, &format!("the worker's answer was unreadable ({e})"))
                });
                pool.silent_deaths = 0;
                order.complete(held.slot, held.part, result);
            }
            Event::Exited { worker } => {
                let Some(index) = pool.workers.iter().position(|w| w.id == worker) else {
                    continue;
                };
                let mut dead = pool.workers.swap_remove(index);
                dead.to_worker = None;
                let status = match dead.child.wait() {
                    Ok(status) => status.to_string(),
                    Err(e) => format!("its status is unknown: {e}"),
                };
                pool.silent_deaths += 1;
                if pool.silent_deaths > MAX_SILENT_DEATHS * workers.max(1) {
                    return Err(std::io::Error::other(format!(
                        "scoring workers keep dying without answering ({status}); run with \
                         --in-process to see why"
                    )));
                }
                let why = format!(
                    "the scoring worker process died ({status}) while scoring this task, so it \
                     was not scored; a new worker took its place"
                );
                // A worker scores its pieces in order: the first was being scored when it died;
                // the others were only waiting, and go back to the queue for another worker.
                if let Some(piece) = dead.held.pop_front() {
                    order.complete(piece.slot, piece.part, lost_piece(&piece, &why));
                }
                while let Some(waiting) = dead.held.pop_back() {
                    queue.push_front(waiting);
                }
                if !(at_end && queue.is_empty()) {
                    pool.spawn()?;
                }
            }
        }
        order.write_ready(started, &mut on_result)?;
    }
    order.write_ready(started, &mut on_result)?;
    order.output.flush()?;
    pool.shutdown();
    order.summary.elapsed = started.elapsed();
    Ok(order.summary)
}

/// One piece of a task: a whole task line, or a run of its completions.
struct Piece {
    id: u64,
    slot: u64,
    part: usize,
    /// Completions in the piece, when the line could be read as a task.
    completions: Option<usize>,
    task_id: Option<String>,
    payload: String,
}

/// A piece's task text, with what the parent read of it.
struct Payload {
    text: String,
    completions: Option<usize>,
    task_id: Option<String>,
}

/// Splits a task line with many completions into pieces of the same task with fewer; any other
/// line (malformed ones included: the worker reports them) is one piece as it is.
fn split_task(text: &str, workers: usize) -> Vec<Payload> {
    let whole = |completions, task_id| {
        vec![Payload {
            text: text.to_string(),
            completions,
            task_id,
        }]
    };
    let Ok(Value::Object(mut task)) = serde_json::from_str::<Value>(text) else {
        return whole(None, None);
    };
    let task_id = task.get("id").and_then(Value::as_str).map(str::to_string);
    let Some(Value::Array(completions)) = task.get("completions") else {
        return whole(None, task_id);
    };
    let count = completions.len();
    let piece = MIN_PIECE.max(count.div_ceil(workers.max(1) * 4));
    if count <= piece {
        return whole(Some(count), task_id);
    }
    let Some(Value::Array(completions)) = task.remove("completions") else {
        unreachable!("checked above")
    };
    completions
        .chunks(piece)
        .map(|chunk| {
            task.insert("completions".into(), Value::Array(chunk.to_vec()));
            Payload {
                text: Value::Object(task.clone()).to_string(),
                completions: Some(chunk.len()),
                task_id: task_id.clone(),
            }
        })
        .collect()
}

/// The result standing for a piece that was lost: each of its completions a masked
/// `verifier_error` saying why, or the whole line `invalid_task` when it could not be read.
fn lost_piece(piece: &Piece, why: &str) -> TaskResult {
    match piece.completions {
        Some(n) => TaskResult {
            id: piece.task_id.clone(),
            line: None,
            status: None,
            detail: None,
            results: vec![CompletionResult::verifier_error(why, 0, 0); n],
        },
        None => TaskResult::invalid(piece.task_id.clone(), None, why.to_string()),
    }
}

/// Lines in input order, each waiting for its pieces; written out as soon as the oldest is whole.
struct Ordered<W: Write> {
    output: W,
    pending: VecDeque<Pending>,
    /// Slot number of `pending[0]`.
    first_slot: u64,
    summary: Summary,
}

struct Pending {
    line: usize,
    parts: Vec<Option<TaskResult>>,
    /// Set for lines finished without pieces (not UTF-8).
    done: Option<TaskResult>,
}

impl<W: Write> Ordered<W> {
    fn new(output: W) -> Self {
        Ordered {
            output,
            pending: VecDeque::new(),
            first_slot: 0,
            summary: Summary::default(),
        }
    }

    fn push_pending(&mut self, line: usize) -> u64 {
        self.pending.push_back(Pending {
            line,
            parts: Vec::new(),
            done: None,
        });
        self.first_slot + self.pending.len() as u64 - 1
    }

    fn push_done(&mut self, result: TaskResult) {
        let line = result.line.unwrap_or(0);
        self.pending.push_back(Pending {
            line,
            parts: Vec::new(),
            done: Some(result),
        });
    }

    fn complete(&mut self, slot: u64, part: usize, result: TaskResult) {
        let index = (slot - self.first_slot) as usize;
        self.pending[index].parts[part] = Some(result);
    }

    /// Writes every finished line at the front, in order.
    fn write_ready(
        &mut self,
        started: Instant,
        on_result: &mut impl FnMut(&Summary),
    ) -> std::io::Result<()> {
        while let Some(front) = self.pending.front() {
            let finished = front.done.is_some() || front.parts.iter().all(Option::is_some);
            if !finished {
                break;
            }
            let front = self.pending.pop_front().expect("checked");
            self.first_slot += 1;
            let result = match front.done {
                Some(result) => result,
                None => join_parts(front.line, front.parts.into_iter().flatten().collect()),
            };
            self.summary.add(&result);
            serde_json::to_writer(&mut self.output, &result)?;
            self.output.write_all(b"\n")?;
            self.summary.elapsed = started.elapsed();
            on_result(&self.summary);
        }
        Ok(())
    }
}

/// One task's result from its pieces' results: the first invalid piece rejects the whole line
/// (as the in-process scorer does); otherwise the completions' results, joined in order.
fn join_parts(line: usize, mut parts: Vec<TaskResult>) -> TaskResult {
    if let Some(invalid) = parts.iter().position(TaskResult::is_invalid) {
        let mut result = parts.swap_remove(invalid);
        if result.line.is_none() {
            result.line = Some(line);
            result.detail = result.detail.map(|d| format!("line {line}: {d}"));
        }
        return result;
    }
    let mut parts = parts.into_iter();
    let mut joined = parts.next().expect("a line has at least one piece");
    for part in parts {
        joined.results.extend(part.results);
    }
    joined
}

enum Event {
    /// A result line from a worker.
    Answer {
        worker: u64,
        piece: u64,
        text: String,
    },
    /// The worker's output ended: it exited or died.
    Exited { worker: u64 },
}

struct Pool {
    command: WorkerCommand,
    workers: Vec<Worker>,
    events_tx: Sender<Event>,
    silent_deaths: usize,
}

struct Worker {
    id: u64,
    child: Child,
    to_worker: Option<Sender<String>>,
    held: VecDeque<Piece>,
}

impl Pool {
    /// Starts one worker, with a thread that writes its input and one that reads its answers.
    fn spawn(&mut self) -> std::io::Result<()> {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut child = Command::new(&self.command.program)
            .args(&self.command.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| {
                std::io::Error::other(format!(
                    "cannot start a scoring worker ({}): {e}",
                    self.command.program.display()
                ))
            })?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let (to_worker, pieces) = channel::<String>();
        std::thread::spawn(move || feed(stdin, pieces));
        let events = self.events_tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::with_capacity(1 << 20, stdout).lines() {
                let Ok(line) = line else { break };
                let Some((piece, text)) = line.split_once('\t') else {
                    continue;
                };
                let Ok(piece) = piece.parse() else { continue };
                let answer = Event::Answer {
                    worker: id,
                    piece,
                    text: text.to_string(),
                };
                if events.send(answer).is_err() {
                    return;
                }
            }
            let _ = events.send(Event::Exited { worker: id });
        });
        self.workers.push(Worker {
            id,
            child,
            to_worker: Some(to_worker),
            held: VecDeque::new(),
        });
        Ok(())
    }

    fn find(&mut self, id: u64) -> Option<&mut Worker> {
        self.workers.iter_mut().find(|w| w.id == id)
    }

    /// Closes every worker's input and waits for it to exit.
    fn shutdown(mut self) {
        for worker in &mut self.workers {
            worker.to_worker = None;
        }
        for worker in &mut self.workers {
            let _ = worker.child.wait();
        }
    }
}

impl Worker {
    fn send(&self, piece: &Piece) {
        if let Some(to_worker) = &self.to_worker {
            // A worker whose input is closed has died; its reader reports that.
            let _ = to_worker.send(piece.payload.clone());
        }
    }

    fn take(&mut self, piece: u64) -> Option<Piece> {
        let index = self.held.iter().position(|p| p.id == piece)?;
        self.held.remove(index)
    }
}

/// Writes pieces to a worker's standard input until the parent drops the sender.
fn feed(stdin: ChildStdin, pieces: Receiver<String>) {
    let mut stdin = BufWriter::new(stdin);
    for piece in pieces {
        if stdin.write_all(piece.as_bytes()).is_err()
            || stdin.write_all(b"\n").is_err()
            || stdin.flush().is_err()
        {
            return;
        }
    }
}

fn trim_line_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}
