//! Captured, capped stdout and stderr for a sandboxed run.
//!
//! Both streams draw from one byte budget (the `output_bytes` limit). A write past the budget
//! records that the limit was hit and traps the guest, so a flood ends the run at once instead of
//! being truncated silently.

use bytes::Bytes;
use std::sync::{Arc, Mutex};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::{OutputStream, Pollable, StreamError};

/// The error a guest's over-budget write traps with.
#[derive(Debug, Clone, Copy)]
pub struct OutputLimitExceeded;

impl std::fmt::Display for OutputLimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("output limit exceeded")
    }
}

impl std::error::Error for OutputLimitExceeded {}

#[derive(Debug)]
struct Budget {
    remaining: u64,
    exceeded: bool,
    /// Bytes added by [`OutputBudget::credit`].
    credited: u64,
}

/// The shared budget of one run's output streams.
#[derive(Debug, Clone)]
pub struct OutputBudget(Arc<Mutex<Budget>>);

impl OutputBudget {
    /// A budget of `bytes` bytes.
    pub fn new(bytes: u64) -> Self {
        OutputBudget(Arc::new(Mutex::new(Budget {
            remaining: bytes,
            exceeded: false,
            credited: 0,
        })))
    }

    /// Gives the budget `bytes` bytes again (a new step of a session), forgetting earlier refusals.
    pub fn reset(&self, bytes: u64) {
        let mut budget = self.0.lock().expect("budget lock");
        budget.remaining = bytes;
        budget.exceeded = false;
        budget.credited = 0;
    }

    /// Adds `bytes` to what is left (output that is not the guest's own doing: see
    /// [`crate::JobState::credit_output`]).
    pub fn credit(&self, bytes: u64) {
        let mut budget = self.0.lock().expect("budget lock");
        budget.remaining = budget.remaining.saturating_add(bytes);
        budget.credited = budget.credited.saturating_add(bytes);
    }

    /// Bytes added by [`OutputBudget::credit`] since the budget was made or reset.
    pub fn credited(&self) -> u64 {
        self.0.lock().expect("budget lock").credited
    }

    /// Whether a write was refused for lack of budget.
    pub fn exceeded(&self) -> bool {
        self.0.lock().expect("budget lock").exceeded
    }

    /// The most a guest is offered to write at once: one byte more than the budget has left, so
    /// that a write within the budget arrives whole, however large (a guest whose libc does not
    /// retry a short write would lose the rest), and one past it traps.
    pub(crate) fn permit(&self) -> usize {
        let budget = self.0.lock().expect("budget lock");
        let left = if budget.exceeded { 0 } else { budget.remaining };
        usize::try_from(left.saturating_add(1)).unwrap_or(usize::MAX)
    }

    /// Takes `bytes` from the budget; `false` (and the budget marked exceeded) when they do not fit.
    pub(crate) fn take(&self, bytes: u64) -> bool {
        let mut budget = self.0.lock().expect("budget lock");
        if budget.remaining >= bytes && !budget.exceeded {
            budget.remaining -= bytes;
            true
        } else {
            budget.exceeded = true;
            false
        }
    }
}

/// One captured output stream (stdout or stderr) drawing on an [`OutputBudget`].
#[derive(Debug, Clone)]
pub struct CapturedOutput {
    buffer: Arc<Mutex<Vec<u8>>>,
    budget: OutputBudget,
}

impl CapturedOutput {
    /// An empty stream drawing on `budget`.
    pub fn new(budget: &OutputBudget) -> Self {
        CapturedOutput {
            buffer: Arc::default(),
            budget: budget.clone(),
        }
    }

    /// Everything written so far.
    pub fn contents(&self) -> Vec<u8> {
        self.buffer.lock().expect("output lock").clone()
    }

    /// Everything written so far, as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.buffer.lock().expect("output lock")).into_owned()
    }

    /// Everything written since the last `take`, as text, emptying the buffer. What was taken
    /// still counts against the output budget.
    pub fn take(&self) -> String {
        let bytes = std::mem::take(&mut *self.buffer.lock().expect("output lock"));
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }

    fn append(&self, bytes: &[u8]) -> Result<(), StreamError> {
        if !self.budget.take(bytes.len() as u64) {
            return Err(StreamError::Trap(OutputLimitExceeded.into()));
        }
        self.buffer
            .lock()
            .expect("output lock")
            .extend_from_slice(bytes);
        Ok(())
    }
}

#[wasmtime_wasi::async_trait]
impl OutputStream for CapturedOutput {
    fn write(&mut self, bytes: Bytes) -> Result<(), StreamError> {
        self.append(&bytes)
    }

    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }

    fn check_write(&mut self) -> Result<usize, StreamError> {
        Ok(self.budget.permit())
    }
}

#[wasmtime_wasi::async_trait]
impl Pollable for CapturedOutput {
    async fn ready(&mut self) {}
}

impl IsTerminal for CapturedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CapturedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(AsyncCapturedOutput(self.clone()))
    }
}

/// The same stream behind tokio's `AsyncWrite`, for WASIp3 guests.
struct AsyncCapturedOutput(CapturedOutput);

impl tokio::io::AsyncWrite for AsyncCapturedOutput {
    fn poll_write(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        std::task::Poll::Ready(
            self.0
                .append(buf)
                .map(|()| buf.len())
                .map_err(|_| std::io::Error::other(OutputLimitExceeded)),
        )
    }

    fn poll_flush(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }

    fn poll_shutdown(
        self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::task::Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streams_share_one_budget_and_stop_at_it() {
        let budget = OutputBudget::new(10);
        let mut out = CapturedOutput::new(&budget);
        let mut err = CapturedOutput::new(&budget);
        out.write(Bytes::from_static(b"123456")).unwrap();
        err.write(Bytes::from_static(b"abcd")).unwrap();
        assert!(!budget.exceeded());
        assert!(matches!(
            out.write(Bytes::from_static(b"x")),
            Err(StreamError::Trap(_))
        ));
        assert!(budget.exceeded());
        assert_eq!(out.contents(), b"123456");
        assert_eq!(err.text(), "abcd");
    }

    #[test]
    fn a_credit_adds_to_what_is_left_until_the_budget_is_reset() {
        let budget = OutputBudget::new(4);
        let mut out = CapturedOutput::new(&budget);
        budget.credit(3);
        assert_eq!(budget.credited(), 3);
        out.write(Bytes::from_static(b"1234567")).unwrap();
        assert!(out.write(Bytes::from_static(b"x")).is_err());
        budget.reset(4);
        assert_eq!(budget.credited(), 0);
        assert!(!budget.exceeded());
    }
}
