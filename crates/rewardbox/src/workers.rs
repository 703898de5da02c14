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
//! to parent: `<piece>\t<result JSON>`, in the order the pieces came, and `one-time\t<start>\t<end>`
//! for one-time work it did (compiling a runtime, building a compiler's libraries). A task with many
//! completions is split into pieces so that one large task still keeps every worker busy; the
//! pieces' results are joined again. How much work each worker holds adapts to how long
//! completions take: a few tasks of slow programs (so the last ones are not stuck behind a busy
//! worker), thousands of cheap answers (so pipes and wake-ups cost nothing per answer).
//!
//! A worker that dies loses nothing it held: those pieces go back to the queue, each to be scored
//! alone; a piece that kills a worker even alone comes back as masked `verifier_error` results
//! saying so. A new worker takes the dead one's place.

use crate::batch::InputLine;
use crate::input::{LineEvent, LineReader, trim_line_ending};
use crate::jsonl::Summary;
use crate::scorer::Scorer;
use rewardbox_types::{CompletionResult, Status, TaskResult};
use serde::Deserialize;
use serde_json::Value;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::Instant;

/// Work each worker holds, in microseconds of expected scoring time.
const TARGET_HELD_US: f64 = 50_000.0;

/// Expected time per completion before any has been measured: a short Python program.
const INITIAL_US_PER_COMPLETION: f64 = 5_000.0;

/// Pieces a worker holds at most, however cheap.
const MAX_HELD_PIECES: usize = 512;

/// Task lines read ahead of the oldest unfinished one. Bounds the parent's memory when one slow
/// task holds up the ordered output.
const MAX_PENDING_LINES: usize = 8192;

/// A task is split when it has more completions than this.
const MIN_PIECE: usize = 16;

/// Lines a worker scores together when they are already waiting in its input.
const WORKER_BATCH: usize = 256;

/// Deaths per worker, in a row and without an answer in between, before the run is abandoned.
const MAX_SILENT_DEATHS: usize = 3;

/// What a worker writes in place of a piece's number to report one-time work it did (a span of
/// [`rewardbox_toolchains::one_time`]), so that the parent's summary counts it.
const ONE_TIME_PIECE: &str = "one-time";

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
/// writes one result line per piece to `output`. Pieces already waiting are scored together
/// and answered with one flush.
pub fn serve_worker(
    scorer: &Scorer,
    input: impl Read,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut input = BufReader::with_capacity(1 << 20, input);
    let mut line = String::new();
    loop {
        let mut batch: Vec<(String, InputLine)> = Vec::new();
        loop {
            line.clear();
            if input.read_line(&mut line)? == 0 {
                break;
            }
            batch.push(parse_piece(&line)?);
            // More only when a whole line is already buffered: never wait with work in hand.
            if batch.len() >= WORKER_BATCH || !input.buffer().contains(&b'\n') {
                break;
            }
        }
        if batch.is_empty() {
            return Ok(());
        }
        let lines: Vec<InputLine> = batch.iter().map(|(_, l)| l.clone()).collect();
        let results = scorer.score_lines(&lines);
        // The one-time work first: the parent records it as it reads it, so by the time it has
        // the last result, it has every span that went into it.
        for span in rewardbox_toolchains::one_time::unreported() {
            writeln!(output, "{ONE_TIME_PIECE}\t{span}")?;
        }
        for ((piece, _), result) in batch.iter().zip(&results) {
            let encoded = serde_json::to_string(result).expect("results always serialize");
            writeln!(output, "{piece}\t{encoded}")?;
        }
        output.flush()?;
    }
}

fn parse_piece(line: &str) -> std::io::Result<(String, InputLine)> {
    let bad = |what: &str| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("a worker expects `piece<TAB>line<TAB>task`, got {what}: {line:.80?}"),
        )
    };
    let line = line.strip_suffix('\n').unwrap_or(line);
    let mut fields = line.splitn(3, '\t');
    let (Some(piece), Some(number), Some(text)) = (fields.next(), fields.next(), fields.next())
    else {
        return Err(bad("too few fields"));
    };
    let number = number.parse().map_err(|_| bad("a bad line number"))?;
    Ok((
        piece.to_string(),
        InputLine {
            number,
            text: Ok(text.to_string()),
        },
    ))
}

/// The parent's side: scores every task line of `input` in `workers` worker processes started
/// with `command`, writing one result line per task line to `output`, in order, like
/// [`crate::jsonl::score_stream`]. `on_result` is called after each line is written.
///
/// `input` is read on a thread of its own, a little ahead of the work handed out, so that a task
/// is scored as soon as its line arrives: a caller that writes one task and waits for its result
/// gets it without closing the input.
///
/// Returns an error for I/O failures and when workers cannot be started or keep dying before they
/// answer anything.
pub fn score_stream_in_workers(
    command: &WorkerCommand,
    workers: usize,
    input: impl BufRead + Send + 'static,
    output: impl Write,
    mut on_result: impl FnMut(&Summary),
) -> std::io::Result<Summary> {
    let started = Instant::now();
    let (events_tx, events) = channel();
    let mut pool = Pool {
        command: command.clone(),
        workers: Vec::new(),
        events_tx: events_tx.clone(),
        silent_deaths: 0,
        us_per_completion: INITIAL_US_PER_COMPLETION,
    };
    for _ in 0..workers.max(1) {
        pool.spawn()?;
    }
    let mut reader = LineReader::start(input, events_tx, Event::Input);
    let mut order = Ordered::new(output);
    let mut queue: VecDeque<Piece> = VecDeque::new();
    let mut queued_completions = 0usize;
    let mut line_number = 0usize;
    let mut next_piece = 0u64;
    loop {
        // Ask for more input while there is room: enough queued work for every worker's next hand.
        let wanted = pool.budget() * pool.workers.len();
        if queued_completions < wanted && order.pending.len() < MAX_PENDING_LINES {
            reader.want(READ_AHEAD_LINES);
        }

        // Hand queued pieces to workers with room.
        let budget = pool.budget();
        for worker in pool.workers.iter_mut() {
            while let Some(next) = queue.front() {
                if !worker.has_room_for(next, budget) {
                    break;
                }
                let piece = queue.pop_front().expect("checked");
                queued_completions -= piece.size();
                worker.send(piece);
            }
        }
        order.write_ready(started, &mut on_result)?;

        let busy = pool.workers.iter().any(|w| !w.held.is_empty());
        if !busy && queue.is_empty() && reader.at_end() {
            break;
        }

        // About to wait with no work queued (the input is slower than the workers): whoever reads
        // the results gets what is ready now rather than when a buffer fills.
        if queue.is_empty() {
            order.output.flush()?;
        }
        let event = events.recv().expect("the pool keeps a sender");
        if let Event::Input(input) = &event {
            reader.received(input);
        }
        match event {
            Event::Input(LineEvent::Line { text, read }) => {
                line_number += 1;
                order.summary.bytes += read as u64;
                let text = trim_line_ending(&text);
                if text.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let Ok(text) = std::str::from_utf8(text) else {
                    order.push_done(TaskResult::invalid(
                        None,
                        Some(line_number),
                        format!("line {line_number}: not valid UTF-8"),
                    ));
                    continue;
                };
                let pieces = split_task(text, pool.workers.len());
                let slot = order.push_pending(line_number, pieces.len());
                for (part, payload) in pieces.into_iter().enumerate() {
                    queued_completions += payload.completions.unwrap_or(1);
                    queue.push_back(Piece {
                        id: next_piece,
                        slot,
                        part,
                        completions: payload.completions,
                        task_id: payload.task_id,
                        payload: format!("{next_piece}\t{line_number}\t{}", payload.text),
                        solo: false,
                    });
                    next_piece += 1;
                }
            }
            Event::Input(LineEvent::End) => {}
            Event::Input(LineEvent::Failed(error)) => return Err(error),
            Event::Answer {
                worker,
                piece,
                text,
            } => {
                let Some(held) = pool.find(worker).and_then(|w| w.take(piece)) else {
                    continue;
                };
                pool.silent_deaths = 0;
                match order.answer(&held, text) {
                    Some(us) if held.size() > 0 => pool.observe(us, held.size()),
                    _ => {}
                }
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
                // Which of its pieces killed it is unknown: each goes back to be scored alone,
                // and one that was already alone is the culprit.
                while let Some(mut piece) = dead.held.pop_back() {
                    if piece.solo {
                        let why = format!(
                            "the scoring worker process died ({status}) while scoring this task \
                             alone, so it was not scored; a new worker took its place"
                        );
                        let result = lost_piece(&piece, &why);
                        order.complete(piece.slot, piece.part, Answer::Parsed(result));
                    } else {
                        piece.solo = true;
                        queued_completions += piece.size();
                        queue.push_front(piece);
                    }
                }
                if !(reader.at_end() && queue.is_empty()) {
                    pool.spawn()?;
                }
            }
        }
    }
    order.write_ready(started, &mut on_result)?;
    order.output.flush()?;
    pool.shutdown();
    order.summary.clock(started);
    Ok(order.summary)
}

/// Lines read ahead of what the parent has taken, at most.
const READ_AHEAD_LINES: usize = 64;

/// One piece of a task: a whole task line, or a run of its completions.
struct Piece {
    id: u64,
    slot: u64,
    part: usize,
    /// Completions in the piece, when the line could be read as a task.
    completions: Option<usize>,
    task_id: Option<String>,
    payload: String,
    /// Back from a worker that died: to be scored with nothing else in the same worker.
    solo: bool,
}

impl Piece {
    /// Its weight in the work a worker holds.
    fn size(&self) -> usize {
        self.completions.unwrap_or(1)
    }
}

/// A piece's task text, with what the parent read of it.
struct Payload {
    text: String,
    completions: Option<usize>,
    task_id: Option<String>,
}

/// What the parent reads of a task line: its id, how many completions it has, and its solution.
#[derive(Deserialize)]
struct TaskPeek {
    id: Option<String>,
    completions: Option<Vec<serde::de::IgnoredAny>>,
    #[serde(default)]
    solution: Option<Value>,
}

/// Splits a task line with many completions into pieces of the same task with fewer; any other
/// line (malformed ones included: the worker reports them) is one piece as it is. A task without
/// a `solution` (a string) stays whole: its completions decide whose doing a verifier's failure
/// on one of them is, so they are judged together (a piece would see only its own).
fn split_task(text: &str, workers: usize) -> Vec<Payload> {
    let whole = |completions, task_id| {
        vec![Payload {
            text: text.to_string(),
            completions,
            task_id,
        }]
    };
    let Ok(peek) = serde_json::from_str::<TaskPeek>(text) else {
        return whole(None, None);
    };
    let Some(count) = peek.completions.as_ref().map(Vec::len) else {
        return whole(None, peek.id);
    };
    let piece = MIN_PIECE.max(count.div_ceil(workers.max(1) * 4));
    if count <= piece || !peek.solution.as_ref().is_some_and(Value::is_string) {
        return whole(Some(count), peek.id);
    }
    let Ok(Value::Object(mut task)) = serde_json::from_str::<Value>(text) else {
        return whole(Some(count), peek.id);
    };
    let Some(Value::Array(completions)) = task.remove("completions") else {
        return whole(Some(count), peek.id);
    };
    completions
        .chunks(piece)
        .map(|chunk| {
            task.insert("completions".into(), Value::Array(chunk.to_vec()));
            Payload {
                text: Value::Object(task.clone()).to_string(),
                completions: Some(chunk.len()),
                task_id: peek.id.clone(),
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

/// A worker's answer for one piece.
enum Answer {
    /// The result of a whole line, as the worker wrote it, with what the summary needs.
    Text(String, ResultPeek),
    /// A result to join with the line's other pieces, or made up by the parent.
    Parsed(TaskResult),
}

/// What the parent reads of a result it passes through: the line's status and each
/// completion's verdict and time.
#[derive(Deserialize)]
struct ResultPeek {
    #[serde(default)]
    status: Option<Status>,
    #[serde(default)]
    results: Vec<CompletionPeek>,
}

#[derive(Deserialize)]
struct CompletionPeek {
    passed: bool,
    status: Status,
    #[serde(default)]
    wall_us: u64,
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
    parts: Vec<Option<Answer>>,
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

    fn push_pending(&mut self, line: usize, parts: usize) -> u64 {
        self.pending.push_back(Pending {
            line,
            parts: (0..parts).map(|_| None).collect(),
        });
        self.first_slot + self.pending.len() as u64 - 1
    }

    fn push_done(&mut self, result: TaskResult) {
        let line = result.line.unwrap_or(0);
        self.pending.push_back(Pending {
            line,
            parts: vec![Some(Answer::Parsed(result))],
        });
    }

    fn complete(&mut self, slot: u64, part: usize, answer: Answer) {
        let index = (slot - self.first_slot) as usize;
        self.pending[index].parts[part] = Some(answer);
    }

    /// Records a worker's answer for `piece`; returns the microseconds its completions took.
    fn answer(&mut self, piece: &Piece, text: String) -> Option<u64> {
        let index = (piece.slot - self.first_slot) as usize;
        let whole = self.pending[index].parts.len() == 1;
        let unreadable = |e: serde_json::Error| {
            Answer::Parsed(lost_piece(
                piece,
                &format!("the worker's answer was unreadable ({e})"),
            ))
        };
        let (answer, us) = if whole {
            match serde_json::from_str::<ResultPeek>(&text) {
                Ok(peek) => {
                    let us = peek.results.iter().map(|r| r.wall_us).sum();
                    (Answer::Text(text, peek), Some(us))
                }
                Err(e) => (unreadable(e), None),
            }
        } else {
            match serde_json::from_str::<TaskResult>(&text) {
                Ok(result) => {
                    let us = result.results.iter().map(|r| r.wall_us).sum();
                    (Answer::Parsed(result), Some(us))
                }
                Err(e) => (unreadable(e), None),
            }
        };
        self.complete(piece.slot, piece.part, answer);
        us
    }

    /// Writes every finished line at the front, in order.
    fn write_ready(
        &mut self,
        started: Instant,
        on_result: &mut impl FnMut(&Summary),
    ) -> std::io::Result<()> {
        while self
            .pending
            .front()
            .is_some_and(|front| front.parts.iter().all(Option::is_some))
        {
            let front = self.pending.pop_front().expect("checked");
            self.first_slot += 1;
            let mut parts: Vec<Answer> = front.parts.into_iter().flatten().collect();
            if let (1, Some(Answer::Text(..))) = (parts.len(), parts.first()) {
                let Some(Answer::Text(text, peek)) = parts.pop() else {
                    unreachable!("checked")
                };
                self.count(&peek);
                self.output.write_all(text.as_bytes())?;
            } else {
                let parsed = parts
                    .into_iter()
                    .map(|answer| match answer {
                        Answer::Parsed(result) => result,
                        Answer::Text(text, _) => {
                            serde_json::from_str(&text).expect("read once already")
                        }
                    })
                    .collect();
                let result = join_parts(front.line, parsed);
                self.summary.add(&result);
                serde_json::to_writer(&mut self.output, &result)?;
            }
            self.output.write_all(b"\n")?;
            self.summary.clock(started);
            on_result(&self.summary);
        }
        Ok(())
    }

    fn count(&mut self, peek: &ResultPeek) {
        let summary = &mut self.summary;
        summary.tasks += 1;
        summary.invalid_tasks += u64::from(peek.status == Some(Status::InvalidTask));
        for r in &peek.results {
            summary.completions += 1;
            summary.passed += u64::from(r.passed);
            summary.verifier_errors += u64::from(r.status == Status::VerifierError);
        }
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
    /// A line of the input, its end, or a read error.
    Input(LineEvent),
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
    /// Moving average of the scoring time of one completion, in microseconds.
    us_per_completion: f64,
}

struct Worker {
    id: u64,
    child: Child,
    to_worker: Option<Sender<String>>,
    held: VecDeque<Piece>,
    held_completions: usize,
}

impl Pool {
    /// Completions each worker may hold: about [`TARGET_HELD_US`] of work.
    fn budget(&self) -> usize {
        ((TARGET_HELD_US / self.us_per_completion.max(1.0)) as usize).clamp(1, 1 << 16)
    }

    /// Folds in a piece's measured scoring time.
    fn observe(&mut self, us: u64, completions: usize) {
        let per = us as f64 / completions as f64;
        self.us_per_completion = 0.8 * self.us_per_completion + 0.2 * per;
    }

    /// Starts one worker, with a thread that writes its input and one that reads its answers.
    fn spawn(&mut self) -> std::io::Result<()> {
        static NEXT_ID: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let id = NEXT_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut command = Command::new(&self.command.program);
        // The worker ends with this process, whatever it is doing (rewardbox_lifeline).
        rewardbox_lifeline::bind_to_parent(&mut command);
        let mut child = command
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
                if piece == ONE_TIME_PIECE {
                    if let Some((start, end)) = rewardbox_toolchains::one_time::decode(text) {
                        rewardbox_toolchains::one_time::record(start, end);
                    }
                    continue;
                }
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
            held_completions: 0,
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
    /// Whether `next` may be handed to this worker now: always when it holds nothing; never next
    /// to a piece that must be scored alone; otherwise while it holds less than `budget`.
    fn has_room_for(&self, next: &Piece, budget: usize) -> bool {
        if self.held.is_empty() {
            return true;
        }
        !next.solo
            && !self.held.iter().any(|p| p.solo)
            && self.held.len() < MAX_HELD_PIECES
            && self.held_completions + next.size() <= budget
    }

    fn send(&mut self, piece: Piece) {
        if let Some(to_worker) = &self.to_worker {
            // A worker whose input is closed has died; its reader reports that.
            let _ = to_worker.send(piece.payload.clone());
        }
        self.held_completions += piece.size();
        self.held.push_back(piece);
    }

    fn take(&mut self, piece: u64) -> Option<Piece> {
        let index = self.held.iter().position(|p| p.id == piece)?;
        let piece = self.held.remove(index)?;
        self.held_completions -= piece.size();
        Some(piece)
    }
}

/// Writes pieces to a worker's standard input until the parent drops the sender, flushing
/// whenever no more are waiting.
fn feed(stdin: ChildStdin, pieces: Receiver<String>) {
    let mut stdin = BufWriter::with_capacity(1 << 16, stdin);
    while let Ok(piece) = pieces.recv() {
        let mut next = Some(piece);
        while let Some(piece) = next {
            if stdin.write_all(piece.as_bytes()).is_err() || stdin.write_all(b"\n").is_err() {
                return;
            }
            next = pieces.try_recv().ok();
        }
        if stdin.flush().is_err() {
            return;
        }
    }
}
