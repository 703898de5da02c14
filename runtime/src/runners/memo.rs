//! Remembers the outcomes of candidate runs. A run is deterministic (fake clocks, seeded random, no
//! I/O beyond stdin/stdout), so the same program with the same input, limits and seed always ends
//! the same way: a second identical run is answered from memory. This is what makes grading a GRPO
//! group cheap when completions repeat, and a task's reference-side work (recording a task's
//! asserts) happen once per task instead of once per completion.

use crate::runners::bindings::types::RunOutcome;
use crate::sandbox::limits::Limits;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};

/// Memory the remembered outcomes may take, in bytes; the oldest are forgotten first.
pub const MEMO_BYTES: usize = 64 << 20;

/// What a remembered value weighs against [`MEMO_BYTES`].
pub trait Weigh {
    /// Approximate bytes held.
    fn bytes(&self) -> usize;
}

impl Weigh for RunOutcome {
    fn bytes(&self) -> usize {
        self.stdout.len() + self.stderr.len() + 64
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
