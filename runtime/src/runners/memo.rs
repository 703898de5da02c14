//! Remembers the outcomes of candidate runs. A run is deterministic (fake clocks, seeded random, no
//! I/O beyond stdin/stdout), so the same program with the same input, limits and seed always ends
//! the same way: a second identical run is answered from memory. This is what makes grading a GRPO
//! group cheap when completions repeat, and a task's reference-side work (recording a task's
//! asserts) happen once per task instead of once per completion.

use crate::runners::bindings::types::{InvocationOutcome, RunOutcome, RunStatus};
use crate::sandbox::limits::Limits;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Memory the remembered outcomes may take, in bytes; the oldest are forgotten first.
pub const MEMO_BYTES: usize = 64 << 20;

/// What a remembered value weighs against [`MEMO_BYTES`], and whether it may be remembered.
pub trait Weigh {
    /// Approximate bytes held.
    fn bytes(&self) -> usize;

    /// Whether the same request always gives this value. Values that depend on the machine (a
    /// wall-clock timeout, a host too busy or unable to run the program) are handed to whoever
    /// waited for them but never remembered: the next identical request computes afresh.
    fn deterministic(&self) -> bool {
        true
    }
}

impl Weigh for RunOutcome {
    fn bytes(&self) -> usize {
        self.stdout.len() + self.stderr.len() + 64
    }

    fn deterministic(&self) -> bool {
        !matches!(self.status, RunStatus::Timeout | RunStatus::Unsupported)
    }
}

impl Weigh for InvocationOutcome {
    fn bytes(&self) -> usize {
        self.outcome.bytes()
            + self
                .feedback
                .iter()
                .map(|f| f.path.len() + f.contents.len() + 32)
                .sum::<usize>()
    }

    fn deterministic(&self) -> bool {
        self.outcome.deterministic()
    }
}

impl Weigh for Vec<Result<String, RunOutcome>> {
    fn bytes(&self) -> usize {
        self.iter()
            .map(|r| match r {
                Ok(json) => json.len() + 32,
                Err(o) => o.bytes(),
            })
            .sum()
    }

    fn deterministic(&self) -> bool {
        self.iter()
            .all(|r| r.as_ref().err().is_none_or(Weigh::deterministic))
    }
}

/// The key of a run: a digest of everything that determines its outcome.
pub type Key = [u8; 32];

/// Builds a key from the parts of a request (each length-prefixed, so parts cannot run together).
pub fn key(parts: &[&[u8]], limits: &Limits, seed: u64) -> Key {
    let mut h = Sha256::new();
    for part in parts {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    for n in [
        limits.fuel,
        limits.wall_ms,
        limits.memory_bytes,
        limits.output_bytes,
        seed,
    ] {
        h.update(n.to_le_bytes());
    }
    h.finalize().into()
}

type Cell<V> = Arc<OnceLock<V>>;

struct Inner<V> {
    map: HashMap<Key, Cell<V>>,
    order: VecDeque<Key>,
    bytes: usize,
}

/// Outcomes remembered by key, within [`MEMO_BYTES`]. Two threads asking for the same run at once
/// wait for one computation.
pub struct RunMemo<V> {
    inner: Mutex<Inner<V>>,
}

impl<V> Default for RunMemo<V> {
    fn default() -> Self {
        RunMemo {
            inner: Mutex::new(Inner {
                map: HashMap::new(),
                order: VecDeque::new(),
                bytes: 0,
            }),
        }
    }
}

impl<V: Clone + Weigh> RunMemo<V> {
    /// The remembered result for `key`, or `compute`'s, which is then remembered.
    pub fn get_or_compute(&self, key: Key, compute: impl FnOnce() -> V) -> V {
        let cell = {
            let mut inner = self.inner.lock().expect("memo lock");
            inner.map.entry(key).or_default().clone()
        };
        let mut computed = false;
        let value = cell
            .get_or_init(|| {
                computed = true;
                compute()
            })
            .clone();
        if computed {
            if value.deterministic() {
                self.account(key, value.bytes());
            } else {
                self.forget(key, &cell);
            }
        }
        value
    }

    /// Drops `key`'s entry, if it is still `cell` (it may have been evicted and asked for again).
    fn forget(&self, key: Key, cell: &Cell<V>) {
        let mut inner = self.inner.lock().expect("memo lock");
        if inner.map.get(&key).is_some_and(|c| Arc::ptr_eq(c, cell)) {
            inner.map.remove(&key);
        }
    }

    /// Counts a new entry's size, forgetting the oldest entries beyond the budget.
    fn account(&self, key: Key, size: usize) {
        let mut inner = self.inner.lock().expect("memo lock");
        if size > MEMO_BYTES / 16 {
            inner.map.remove(&key);
            return;
        }
        inner.bytes += size;
        inner.order.push_back(key);
        while inner.bytes > MEMO_BYTES {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(old) = inner.map.remove(&oldest)
                && let Some(v) = old.get()
            {
                inner.bytes = inner.bytes.saturating_sub(v.bytes());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn outcome(status: RunStatus) -> RunOutcome {
        RunOutcome {
            status,
            exit_code: None,
            stdout: String::new(),
            stderr: String::new(),
            fuel_used: 0,
        }
    }

    /// Outcomes the program alone decides are remembered; a wall-clock timeout or a host that
    /// could not run the program is computed afresh on every request.
    #[test]
    fn only_outcomes_the_program_decides_are_remembered() {
        let table = [
            (RunStatus::Ok, true),
            (RunStatus::ExitedNonzero, true),
            (RunStatus::FuelExhausted, true),
            (RunStatus::MemoryExceeded, true),
            (RunStatus::OutputExceeded, true),
            (RunStatus::CompileError, true),
            (RunStatus::Crashed, true),
            (RunStatus::Timeout, false),
            (RunStatus::Unsupported, false),
        ];
        for (status, remembered) in table {
            let memo = RunMemo::<RunOutcome>::default();
            let runs = AtomicUsize::new(0);
            let key = [7u8; 32];
            for _ in 0..3 {
                memo.get_or_compute(key, || {
                    runs.fetch_add(1, Ordering::Relaxed);
                    outcome(status)
                });
            }
            let expected = if remembered { 1 } else { 3 };
            assert_eq!(runs.load(Ordering::Relaxed), expected, "{status:?}");
            let calls = RunMemo::<Vec<Result<String, RunOutcome>>>::default();
            let call_runs = AtomicUsize::new(0);
            for _ in 0..3 {
                calls.get_or_compute(key, || {
                    call_runs.fetch_add(1, Ordering::Relaxed);
                    vec![Ok("1".into()), Err(outcome(status))]
                });
            }
            assert_eq!(call_runs.load(Ordering::Relaxed), expected, "{status:?}");
        }
    }
}
