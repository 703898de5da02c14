//! In-memory pipes between two jobs that run at once: each one's standard output is the other's
//! standard input (an interactive problem's submission and its interactor).
//!
//! A read waits until the peer writes, ends (then it reads end of file), or the two are
//! **deadlocked**: both waiting to read with nothing written to read. A native judge only sees a
//! deadlock when its wall clock runs out; here it is seen at once, and both reads trap, so the
//! verdict does not depend on the machine's load. Writes never wait: they draw on the writer's
//! output budget (a flood ends the writer, as any output past its limit does), and what is written
//! to a peer that has ended is dropped, as a pipe that nobody reads any more would keep it.
//!
//! Time a job spends waiting for its peer is not its own: it is counted ([`PipeEnd::waited`]) and
//! the job's wall clock is moved by it. The owner of the two jobs may also stop one
//! ([`PipeEnd::stop`]), for instance a submission still running after its interactor rejected it.
//!
//! Each side's writes are kept as well ([`PipeEnd::written`]): what a submission said to its
//! interactor, which a judge may record. They are within the writer's output budget, so keeping
//! them costs at most what the budget allows.

use crate::capture::{OutputBudget, OutputLimitExceeded};
use bytes::Bytes;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;
use tokio::sync::Notify;
use wasmtime_wasi::cli::{IsTerminal, StdinStream, StdoutStream};
use wasmtime_wasi::p2::{InputStream, OutputStream, Pollable, StreamError};

/// The error both reads of a deadlocked pair trap with.
#[derive(Debug, Clone, Copy)]
pub struct PipeDeadlock;

impl std::fmt::Display for PipeDeadlock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("deadlock: both programs waited for the other's output")
    }
}

impl std::error::Error for PipeDeadlock {}

#[derive(Default)]
struct State {
    /// `buffers[i]`: bytes written for side `i` to read.
    buffers: [VecDeque<u8>; 2],
    /// `ended[i]`: side `i` has ended; it writes and reads no more.
    ended: [bool; 2],
    /// `waiting[i]`: side `i` is waiting to read.
    waiting: [bool; 2],
    /// `written[i]`: every byte side `i` wrote, in order (delivered or dropped).
    written: [Vec<u8>; 2],
    deadlock: bool,
}

struct Shared {
    state: Mutex<State>,
    changed: Notify,
    /// `waited[i]`: nanoseconds side `i` spent waiting for the other.
    waited: [AtomicU64; 2],
    /// `stopped[i]`: the owner stopped side `i`.
    stopped: [AtomicBool; 2],
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// One side of a pair of pipes: it reads what the other side writes and writes what the other
/// side reads. Clones are the same side.
#[derive(Clone)]
pub struct PipeEnd {
    shared: Arc<Shared>,
    side: usize,
}

/// Two connected ends: what one writes, the other reads.
pub fn duplex() -> (PipeEnd, PipeEnd) {
    let shared = Arc::new(Shared {
        state: Mutex::default(),
        changed: Notify::new(),
        waited: [AtomicU64::new(0), AtomicU64::new(0)],
        stopped: [AtomicBool::new(false), AtomicBool::new(false)],
    });
    (
        PipeEnd {
            shared: shared.clone(),
            side: 0,
        },
        PipeEnd { shared, side: 1 },
    )
}

impl PipeEnd {
    fn peer(&self) -> usize {
        1 - self.side
    }

    /// This side has ended (its program returned, exited or trapped): the peer reads end of file
    /// once it has read what was written, and what it writes from now on is dropped.
    pub fn close(&self) {
        let mut state = self.shared.lock();
        state.ended[self.side] = true;
        state.waiting[self.side] = false;
        drop(state);
        self.shared.changed.notify_waiters();
    }

    /// Whether the pair deadlocked: both waited to read with nothing to read.
    pub fn deadlocked(&self) -> bool {
        self.shared.lock().deadlock
    }

    /// Stops this side at its job's next periodic check (see [`PipeEnd::stopped`]).
    pub fn stop(&self) {
        self.shared.stopped[self.side].store(true, Ordering::Relaxed);
    }

    /// Whether the owner stopped this side.
    pub fn stopped(&self) -> bool {
        self.shared.stopped[self.side].load(Ordering::Relaxed)
    }

    /// How long this side has waited for its peer's output, in nanoseconds.
    pub fn waited(&self) -> u64 {
        self.shared.waited[self.side].load(Ordering::Relaxed)
    }

    /// Every byte this side wrote so far, in order, whether or not its peer read it (what a
    /// submission said to its interactor).
    pub fn written(&self) -> Vec<u8> {
        self.shared.lock().written[self.side].clone()
    }

    /// This side's standard input.
    pub fn stdin(&self) -> PipeReader {
        PipeReader(self.clone())
    }

    /// This side's standard output, drawing on `budget`.
    pub fn stdout(&self, budget: &OutputBudget) -> PipeWriter {
        PipeWriter {
            end: self.clone(),
            budget: budget.clone(),
        }
    }
}

/// The reading half of a [`PipeEnd`]: a job's standard input.
#[derive(Clone)]
pub struct PipeReader(PipeEnd);

impl PipeReader {
    /// Takes up to `size` bytes written for this side: some bytes, none yet (`Ok` empty), or the
    /// end of the stream (the peer ended, or the pair deadlocked).
    fn take(&self, size: usize) -> Result<Bytes, StreamError> {
        let end = &self.0;
        let mut state = end.shared.lock();
        let buffer = &mut state.buffers[end.side];
        if !buffer.is_empty() {
            let n = size.min(buffer.len());
            return Ok(buffer.drain(..n).collect::<Vec<u8>>().into());
        }
        if state.deadlock {
            return Err(StreamError::Trap(PipeDeadlock.into()));
        }
        if state.ended[end.peer()] {
            return Err(StreamError::Closed);
        }
        Ok(Bytes::new())
    }

    /// Waits until a read would not come back empty-handed.
    async fn wait(&self) {
        let end = &self.0;
        loop {
            let mut notified = std::pin::pin!(end.shared.changed.notified());
            {
                let mut state = end.shared.lock();
                let (me, peer) = (end.side, end.peer());
                if !state.buffers[me].is_empty() || state.ended[peer] || state.deadlock {
                    state.waiting[me] = false;
                    return;
                }
                state.waiting[me] = true;
                // The peer waits too, with nothing to read, and only this side could write it.
                if state.waiting[peer] && state.buffers[peer].is_empty() && !state.ended[me] {
                    state.deadlock = true;
                    drop(state);
                    end.shared.changed.notify_waiters();
                    return;
                }
                // Registered before the lock is released: no wake-up is missed.
                notified.as_mut().enable();
            }
            let started = Instant::now();
            notified.await;
            end.shared.waited[end.side]
                .fetch_add(started.elapsed().as_nanos() as u64, Ordering::Relaxed);
        }
    }
}

#[wasmtime_wasi::async_trait]
impl InputStream for PipeReader {
    fn read(&mut self, size: usize) -> Result<Bytes, StreamError> {
        self.take(size)
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for PipeReader {
    async fn ready(&mut self) {
        self.wait().await;
    }
}

impl IsTerminal for PipeReader {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for PipeReader {
    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        Box::new(AsyncPipeReader(self.clone()))
    }
}

/// The writing half of a [`PipeEnd`]: a job's standard output.
#[derive(Clone)]
pub struct PipeWriter {
    end: PipeEnd,
    budget: OutputBudget,
}

#[wasmtime_wasi::async_trait]
impl OutputStream for PipeWriter {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        if !self.budget.take(bytes.len() as u64) {
            return Err(StreamError::Trap(OutputLimitExceeded.into()));
        }
        let end = &self.end;
        let mut state = end.shared.lock();
        state.written[end.side].extend_from_slice(&bytes);
        if !state.ended[end.peer()] {
            state.buffers[end.peer()].extend(bytes.iter());
        }
        drop(state);
        end.shared.changed.notify_waiters();
        Ok(())
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        // As the captured streams offer: a write within the budget arrives whole.
        Ok(self.budget.permit())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for PipeWriter {
    async fn ready(&mut self) {}
}

impl IsTerminal for PipeWriter {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for PipeWriter {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(AsyncPipeWriter(self.clone()))
    }
}

/// The reader for WASI's asynchronous (preview 3) streams: the same pipe.
struct AsyncPipeReader(PipeReader);

impl tokio::io::AsyncRead for AsyncPipeReader {
    fn poll_read(
        self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        use std::task::Poll;
        let reader = &self.0;
        match reader.take(buf.remaining()) {
            Ok(bytes) if !bytes.is_empty() => {
                buf.put_slice(&bytes);
                Poll::Ready(Ok(()))
            }
            Err(StreamError::Closed) => Poll::Ready(Ok(())),
            Err(e) => Poll::Ready(Err(std::io::Error::other(e.to_string()))),
            Ok(_) => {
                let wait = reader.clone();
                let waker = cx.waker().clone();
                wasmtime_wasi::runtime::spawn(async move {
                    wait.wait().await;
                    waker.wake();
                });
                Poll::Pending
            }
        }
    }
}

/// The writer for WASI's asynchronous (preview 3) streams: the same pipe.
struct AsyncPipeWriter(PipeWriter);

impl tokio::io::AsyncWrite for AsyncPipeWriter {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let written = self
            .0
            .write(Bytes::copy_from_slice(buf))
            .map(|()| buf.len())
            .map_err(|e| std::io::Error::other(e.to_string()));
        std::task::Poll::Ready(written)
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(reader: &mut PipeReader) -> Result<Bytes, StreamError> {
        wasmtime_wasi::runtime::in_tokio(reader.ready());
        reader.read(1 << 16)
    }

    #[test]
    fn what_one_side_writes_the_other_reads_then_end_of_file() {
        let (a, b) = duplex();
        let budget = OutputBudget::new(1 << 20);
        let mut to_b = a.stdout(&budget);
        to_b.write(Bytes::from_static(b"hello\n")).unwrap();
        let mut from_a = b.stdin();
        assert_eq!(&read(&mut from_a).unwrap()[..], b"hello\n");
        a.close();
        assert!(matches!(read(&mut from_a), Err(StreamError::Closed)));
        // Written to a side that ended: dropped, not an error; each side's writes are kept.
        let mut to_a = b.stdout(&budget);
        to_a.write(Bytes::from_static(b"late")).unwrap();
        to_b.write(Bytes::from_static(b"more")).unwrap();
        assert_eq!(a.written(), b"hello\nmore");
        assert_eq!(b.written(), b"late");
    }

    #[test]
    fn a_reader_waits_for_its_peer_and_counts_the_wait() {
        let (a, b) = duplex();
        let budget = OutputBudget::new(1 << 20);
        let writer = std::thread::spawn({
            let a = a.clone();
            move || {
                // Writes only once the reader waits, whatever the machine's load.
                while !a.shared.lock().waiting[1] {
                    std::thread::yield_now();
                }
                a.stdout(&budget).write(Bytes::from_static(b"x")).unwrap();
            }
        });
        let mut from_a = b.stdin();
        assert_eq!(&read(&mut from_a).unwrap()[..], b"x");
        writer.join().unwrap();
        assert!(b.waited() > 0, "the wait was counted");
        assert_eq!(a.waited(), 0, "the writer never waited");
        assert!(!b.deadlocked());
    }

    #[test]
    fn both_waiting_with_nothing_to_read_is_a_deadlock_for_both() {
        let (a, b) = duplex();
        let other = std::thread::spawn(move || read(&mut a.stdin()).map(|_| ()));
        let mine = read(&mut b.stdin());
        assert!(matches!(mine, Err(StreamError::Trap(_))));
        assert!(matches!(other.join().unwrap(), Err(StreamError::Trap(_))));
        assert!(b.deadlocked());
    }

    #[test]
    fn a_writer_past_its_budget_traps() {
        let (a, _b) = duplex();
        let budget = OutputBudget::new(4);
        let mut writer = a.stdout(&budget);
        writer.write(Bytes::from_static(b"1234")).unwrap();
        assert!(matches!(
            writer.write(Bytes::from_static(b"5")),
            Err(StreamError::Trap(_))
        ));
        assert!(budget.exceeded());
    }
}
