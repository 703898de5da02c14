//! Work done once per machine, timed: building zig's C and C++ libraries, Go's standard library
//! or the Rust crates, compiling a runtime component to native code. A later run finds it done,
//! so a run's summary says how much of its wall time went to it (see [`spent_since`]).

use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// When each piece of one-time work this process knows of started and ended, and how many of
/// them [`unreported`] has handed out.
static SPANS: Mutex<(Vec<(Instant, Instant)>, usize)> = Mutex::new((Vec::new(), 0));

/// Runs `work`, one-time work, and keeps when it ran.
pub fn timed<T>(work: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = work();
    record(started, Instant::now());
    result
}

/// Keeps one-time work that ran from `start` to `end` (in another process: see [`decode`]).
pub fn record(start: Instant, end: Instant) {
    SPANS
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .0
        .push((start, end));
}

/// The spans of one-time work not handed out before, each as `<start>\t<end>` in microseconds
/// of the system clock, for a process that reports them to another (see [`decode`]).
pub fn unreported() -> Vec<String> {
    let mut spans = SPANS.lock().unwrap_or_else(|e| e.into_inner());
    let (list, reported) = &mut *spans;
    let (now, system_now) = (Instant::now(), SystemTime::now());
    let micros = |at: Instant| {
        (system_now - now.saturating_duration_since(at))
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_micros())
    };
    let new = list[*reported..]
        .iter()
        .map(|&(start, end)| format!("{}\t{}", micros(start), micros(end)))
        .collect();
    *reported = list.len();
    new
}

/// A span written by [`unreported`] (in another process), on this process's clock.
pub fn decode(text: &str) -> Option<(Instant, Instant)> {
    let (start, end) = text.split_once('\t')?;
    let (now, system_now) = (Instant::now(), SystemTime::now());
    let at = |micros: &str| -> Option<Instant> {
        let then = UNIX_EPOCH + Duration::from_micros(micros.trim().parse().ok()?);
        let ago = system_now.duration_since(then).unwrap_or_default();
        now.checked_sub(ago)
    };
    Some((at(start)?, at(end)?))
}

/// Wall time since `since` during which one-time work ran (pieces that ran at once on several
/// threads or processes counted once).
pub fn spent_since(since: Instant) -> Duration {
    spent_between(since, Instant::now())
}

/// Wall time from `from` to `to` during which one-time work ran, counted as by [`spent_since`].
pub fn spent_between(from: Instant, to: Instant) -> Duration {
    let spans = SPANS.lock().unwrap_or_else(|e| e.into_inner()).0.clone();
    union_within(spans, from, to)
}

/// The length of the union of `spans`, each cut to what lies between `from` and `to`.
fn union_within(mut spans: Vec<(Instant, Instant)>, from: Instant, to: Instant) -> Duration {
    spans.sort();
    let mut total = Duration::ZERO;
    let mut covered_to = from;
    for (start, end) in spans {
        let (start, end) = (start.max(covered_to), end.min(to));
        if end > start {
            total += end - start;
            covered_to = end;
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_work_counts_once_and_work_outside_the_window_not_at_all() {
        let t0 = Instant::now();
        let at = |ms: u64| t0 + Duration::from_millis(ms);
        let spans = vec![
            (at(0), at(50)),
            (at(100), at(300)),
            (at(200), at(400)),
            (at(250), at(260)),
            (at(500), at(600)),
        ];
        let union = |from, to| union_within(spans.clone(), at(from), at(to));
        assert_eq!(union(0, 700), Duration::from_millis(450));
        assert_eq!(union(150, 700), Duration::from_millis(350));
        assert_eq!(union(150, 550), Duration::from_millis(300));
        assert_eq!(union(30, 120), Duration::from_millis(40));
        assert_eq!(union(700, 800), Duration::ZERO);
    }

    #[test]
    fn a_reported_span_reads_back_as_the_same_span() {
        let end = Instant::now();
        let start = end - Duration::from_millis(1500);
        record(start, end);
        let reported = unreported();
        let line = reported.last().expect("the span just recorded");
        let (read_start, read_end) = decode(line).expect("a span");
        for (read, original) in [(read_start, start), (read_end, end)] {
            let apart = read.max(original) - read.min(original);
            assert!(apart < Duration::from_millis(500), "{apart:?}");
        }
        assert!(unreported().is_empty() || !unreported().contains(line));
        assert_eq!(decode("12\tx"), None);
    }

    #[test]
    fn timed_work_is_kept() {
        let since = Instant::now();
        let value = timed(|| {
            std::thread::sleep(Duration::from_millis(20));
            7
        });
        assert_eq!(value, 7);
        assert!(spent_since(since) >= Duration::from_millis(20));
    }
}
