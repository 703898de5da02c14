//! Remembers the outcomes of candidate runs. A run is deterministic (fake clocks, seeded random, no
//! I/O beyond stdin/stdout), so the same program with the same input, limits and seed always ends
//! the same way: a second identical run is answered from memory. This is what makes grading a GRPO
//! group cheap when completions repeat, and a task's reference-side work (recording a task's
//! asserts) happen once per task instead of once per completion.

use crate::bindings::types::RunOutcome;
use crate::limits::Limits;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Memory the remembered outcomes may take, in bytes; the oldest are forgotten first.
pub const MEMO_BYTES: usize = 64 << 20;

/// A remembered result of `sandbox.run` or `sandbox.call`.
#[derive(Clone)]
pub enum Memoized {
    /// The outcome of a run.
    Run(RunOutcome),
    /// The results of a call.
    Call(Vec<Result<String, RunOutcome>>),
}

impl Memoized {
    fn bytes(&self) -> usize {
        let outcome = |o: &RunOutcome| o.stdout.len() + o.stderr.len() + 64;
        match self {
            Memoized::Run(o) => outcome(o),
            Memoized::Call(results) => results
                .iter()
                .map(|r| match r {
                    Ok(json) => json.len() + 32,
                    Err(o) => outcome(o),
                })
                .sum(),
        }
    }
}

/// The key of a run: a digest of everything that determines its outcome.
pub type Key = [u8; 32];

/// Builds a key from the parts of a request (each length-prefixed, so parts cannot run together).
pub fn key(kind: &str, parts: &[&[u8]], limits: &Limits, seed: u64) -> Key {
    let mut h = Sha256::new();
    h.update(kind.as_bytes());
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

type Cell = Arc<OnceLock<Memoized>>;

#[derive(Default)]
struct Inner {
    map: HashMap<Key, Cell>,
    order: VecDeque<Key>,
    bytes: usize,
}

/// Outcomes remembered by key, within [`MEMO_BYTES`]. Two threads asking for the same run at once
/// wait for one computation.
#[derive(Default)]
pub struct RunMemo {
    inner: Mutex<Inner>,
}

impl RunMemo {
    /// The remembered result for `key`, or `compute`'s, which is then remembered.
    pub fn get_or_compute(&self, key: Key, compute: impl FnOnce() -> Memoized) -> Memoized {
        let cell = {
            let mut inner = self.inner.lock().expect("memo lock");
            let Inner { map, order, .. } = &mut *inner;
            map.entry(key)
                .or_insert_with(|| {
                    order.push_back(key);
                    Cell::default()
                })
                .clone()
        };
        let mut computed = false;
        let value = cell
            .get_or_init(|| {
                computed = true;
                compute()
            })
            .clone();
        if computed {
            self.account(key, value.bytes());
        }
        value
    }

    /// Counts a new entry's size, forgetting the oldest entries beyond the budget.
    fn account(&self, key: Key, size: usize) {
        let mut inner = self.inner.lock().expect("memo lock");
        if size > MEMO_BYTES / 16 {
            inner.map.remove(&key);
            return;
        }
        inner.bytes += size;
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
