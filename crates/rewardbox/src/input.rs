//! Reading task lines on a thread of their own, a little ahead of the scoring, so that a task is
//! scored as soon as its line arrives: a caller that writes one task into a pipe and waits for its
//! result gets it without closing the pipe, and a fast file still keeps every scorer busy.
//!
//! The reader reads only the lines it has been allowed ([`LineReader::want`]), so that memory
//! stays bounded however long the input is. Should its owner finish first (an output error), the
//! reader is left blocked in its read and ends at the end of the input or with the process.

use std::io::BufRead;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};

/// What the reader sends: a line, the end of the input, or a read error.
#[derive(Debug)]
pub enum LineEvent {
    /// A line, with its line ending, and the bytes read for it.
    Line { text: Vec<u8>, read: usize },
    /// The input has ended.
    End,
    /// Reading the input failed.
    Failed(std::io::Error),
}

/// How many more lines the reader may read: granted by the owner, taken by the reader.
#[derive(Default)]
struct Credits {
    count: Mutex<usize>,
    granted: Condvar,
}

impl Credits {
    fn take(&self) {
        let mut count = self.count.lock().unwrap_or_else(|e| e.into_inner());
        while *count == 0 {
            count = self.granted.wait(count).unwrap_or_else(|e| e.into_inner());
        }
        *count -= 1;
    }

    fn grant(&self, lines: usize) {
        *self.count.lock().unwrap_or_else(|e| e.into_inner()) += lines;
        self.granted.notify_one();
    }
}

/// The owner's side of a reading thread.
pub struct LineReader {
    credits: Arc<Credits>,
    /// Lines allowed and not received yet.
    outstanding: usize,
    at_end: bool,
}

impl LineReader {
    /// Starts reading `input` on a thread of its own, sending each [`LineEvent`] through `events`
    /// as `wrap` makes it. Nothing is read until [`LineReader::want`] allows it.
    pub fn start<E: Send + 'static>(
        mut input: impl BufRead + Send + 'static,
        events: Sender<E>,
        wrap: impl Fn(LineEvent) -> E + Send + 'static,
    ) -> LineReader {
        let credits = Arc::new(Credits::default());
        let theirs = credits.clone();
        std::thread::Builder::new()
            .name("rewardbox-input".into())
            .spawn(move || {
                loop {
                    theirs.take();
                    let mut text = Vec::new();
                    let event = match input.read_until(b'\n', &mut text) {
                        Ok(0) => LineEvent::End,
                        Ok(read) => LineEvent::Line { text, read },
                        Err(error) => LineEvent::Failed(error),
                    };
                    let last = !matches!(event, LineEvent::Line { .. });
                    if events.send(wrap(event)).is_err() || last {
                        return;
                    }
                }
            })
            .expect("spawning the input reader thread");
        LineReader {
            credits,
            outstanding: 0,
            at_end: false,
        }
    }

    /// Lets the reader run up to `lines` lines ahead of what was received.
    pub fn want(&mut self, lines: usize) {
        if self.at_end || self.outstanding >= lines {
            return;
        }
        let more = lines - self.outstanding;
        self.outstanding += more;
        self.credits.grant(more);
    }

    /// Counts an event received from the reader.
    pub fn received(&mut self, event: &LineEvent) {
        match event {
            LineEvent::Line { .. } => self.outstanding = self.outstanding.saturating_sub(1),
            LineEvent::End | LineEvent::Failed(_) => self.at_end = true,
        }
    }

    /// Whether the input has ended (or failed).
    pub fn at_end(&self) -> bool {
        self.at_end
    }
}

/// `line` without its `\n` or `\r\n`.
pub fn trim_line_ending(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    #[test]
    fn reads_only_what_it_is_allowed() {
        let (tx, rx) = channel();
        let mut reader = LineReader::start(&b"a\nb\nc\n"[..], tx, |e| e);
        reader.want(2);
        let mut got = Vec::new();
        for _ in 0..2 {
            let event = rx.recv().unwrap();
            reader.received(&event);
            got.push(event);
        }
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(50))
                .is_err(),
            "a third line was read without being allowed"
        );
        reader.want(2);
        for _ in 0..2 {
            let event = rx.recv().unwrap();
            reader.received(&event);
            got.push(event);
        }
        assert!(reader.at_end());
        let texts: Vec<String> = got
            .iter()
            .filter_map(|e| match e {
                LineEvent::Line { text, .. } => Some(String::from_utf8_lossy(text).into_owned()),
                _ => None,
            })
            .collect();
        assert_eq!(texts, ["a\n", "b\n", "c\n"]);
    }
}
