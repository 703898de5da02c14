//! Remembers the outcomes of candidate runs. A run is deterministic (fake clocks, seeded random, no
//! I/O beyond stdin/stdout), so the same program with the same input, limits and seed always ends
//! the same way: a second identical run is answered from memory. This is what makes grading a GRPO
//! group cheap when completions repeat, and a task's reference-side work (recording a task's
//! asserts) happen once per task instead of once per completion.

use crate::runners::bindings::types::{InvocationOutcome, RunOutcome, RunStatus};
use rewardbox_sandbox::limits::Limits;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Condvar, Mutex};

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

/// A run being computed: whoever waits for it is handed the value when it is published, or `None`
/// when the computing thread gave up (its computation panicked).
struct Pending<V> {
    value: Mutex<Option<Option<V>>>,
    published: Condvar,
}

impl<V: Clone> Pending<V> {
    fn new() -> Self {
        Pending {
            value: Mutex::new(None),
            published: Condvar::new(),
        }
    }

    /// Blocks until the computing thread publishes (`Some`) or gives up (`None`).
    fn wait(&self) -> Option<V> {
        let mut value = self.value.lock().expect("memo lock");
        loop {
            if let Some(published) = value.as_ref() {
                return published.clone();
            }
            value = self.published.wait(value).expect("memo lock");
        }
    }

    fn publish(&self, value: Option<V>) {
        *self.value.lock().expect("memo lock") = Some(value);
        self.published.notify_all();
    }
}

enum Slot<V> {
    Ready(V),
    Computing(Arc<Pending<V>>),
}

struct Inner<V> {
    map: HashMap<Key, Slot<V>>,
    order: VecDeque<Key>,
    bytes: usize,
}

/// Outcomes remembered by key, within [`MEMO_BYTES`].
///
/// A thread outside a rayon pool that asks for a run another thread is computing waits for that
/// computation. A rayon worker never waits: it computes the value itself (runs are deterministic,
/// so both give the same value). A waiting worker could deadlock the pool: the computing thread may
/// be joined on a job that the waiting worker stole and holds lower on its own stack.
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

/// What a request for a key found.
enum Found<V> {
    Ready(V),
    BeingComputed(Arc<Pending<V>>),
    Absent(Arc<Pending<V>>),
}

impl<V: Clone + Weigh> RunMemo<V> {
    /// The remembered result for `key`, or `compute`'s, which is then remembered.
    pub fn get_or_compute(&self, key: Key, compute: impl FnOnce() -> V) -> V {
        let found = {
            let mut inner = self.inner.lock().expect("memo lock");
            match inner.map.get(&key) {
                Some(Slot::Ready(value)) => Found::Ready(value.clone()),
                Some(Slot::Computing(pending)) => Found::BeingComputed(pending.clone()),
                None => {
                    let pending = Arc::new(Pending::new());
                    inner.map.insert(key, Slot::Computing(pending.clone()));
                    Found::Absent(pending)
                }
            }
        };
        match found {
            Found::Ready(value) => value,
            Found::BeingComputed(pending) => {
                let published = match rayon::current_thread_index() {
                    Some(_) => None,
                    None => pending.wait(),
                };
                published.unwrap_or_else(compute)
            }
            Found::Absent(pending) => {
                let mut publisher = Publisher {
                    memo: self,
                    key,
                    pending,
                    published: false,
                };
                let value = compute();
                publisher.publish(&value);
                value
            }
        }
    }
}

/// Publishes a computed value to the memo and to its waiters; if the computation panics instead,
/// drops the entry and releases the waiters to compute for themselves.
struct Publisher<'a, V: Clone + Weigh> {
    memo: &'a RunMemo<V>,
    key: Key,
    pending: Arc<Pending<V>>,
    published: bool,
}

impl<V: Clone + Weigh> Publisher<'_, V> {
    /// Whether `key`'s entry is still this computation's (it may have been evicted meanwhile and
    /// asked for again).
    fn owns(&self, inner: &Inner<V>) -> bool {
        matches!(inner.map.get(&self.key),
            Some(Slot::Computing(p)) if Arc::ptr_eq(p, &self.pending))
    }

    fn publish(&mut self, value: &V) {
        self.published = true;
        let size = value.bytes();
        let keep = value.deterministic() && size <= MEMO_BYTES / 16;
        {
            let mut inner = self.memo.inner.lock().expect("memo lock");
            if self.owns(&inner) {
                if keep {
                    inner.map.insert(self.key, Slot::Ready(value.clone()));
                    inner.bytes += size;
                    inner.order.push_back(self.key);
                    evict_beyond_budget(&mut inner);
                } else {
                    inner.map.remove(&self.key);
                }
            }
        }
        self.pending.publish(Some(value.clone()));
    }
}

impl<V: Clone + Weigh> Drop for Publisher<'_, V> {
    fn drop(&mut self) {
        if self.published {
            return;
        }
        if let Ok(mut inner) = self.memo.inner.lock()
            && self.owns(&inner)
        {
            inner.map.remove(&self.key);
        }
        self.pending.publish(None);
    }
}

/// Forgets the oldest remembered values until the rest fit in [`MEMO_BYTES`].
fn evict_beyond_budget<V: Weigh>(inner: &mut Inner<V>) {
    while inner.bytes > MEMO_BYTES {
        let Some(oldest) = inner.order.pop_front() else {
            break;
        };
        if let Some(Slot::Ready(value)) = inner.map.get(&oldest) {
            let size = value.bytes();
            inner.map.remove(&oldest);
            inner.bytes = inner.bytes.saturating_sub(size);
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

    /// A rayon worker asking for a run that another thread is computing computes it itself
    /// instead of waiting: here the computing thread waits on the worker, so waiting would never
    /// end (the shape of a deadlock seen when a verifier's run was asked for from inside the pool
    /// while the same run was being computed outside it).
    #[test]
    fn a_rayon_worker_never_waits_for_another_threads_computation() {
        let memo = RunMemo::<RunOutcome>::default();
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let key = [3u8; 32];
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let outer = memo.get_or_compute(key, || {
                    pool.install(|| memo.get_or_compute(key, || outcome(RunStatus::Ok)))
                });
                done.send(outer.status).unwrap();
            });
            let status = finished
                .recv_timeout(std::time::Duration::from_secs(300))
                .expect("the worker waited for the computation that was waiting for it");
            assert_eq!(status, RunStatus::Ok);
        });
    }

    /// Threads outside a pool asking for the same run at once wait for one computation; if that
    /// computation panics, the waiters are released and compute for themselves.
    #[test]
    fn threads_outside_a_pool_share_one_computation_and_survive_its_panic() {
        let memo = &RunMemo::<RunOutcome>::default();
        let runs = &AtomicUsize::new(0);
        let key = [5u8; 32];
        let (started_tx, started) = std::sync::mpsc::channel();
        let (release_tx, release) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let computing = scope.spawn(move || {
                memo.get_or_compute(key, || {
                    runs.fetch_add(1, Ordering::SeqCst);
                    started_tx.send(()).unwrap();
                    release.recv().unwrap();
                    outcome(RunStatus::ExitedNonzero)
                })
            });
            started.recv().unwrap();
            let waiters: Vec<_> = (0..3)
                .map(|_| {
                    scope.spawn(move || {
                        memo.get_or_compute(key, || {
                            runs.fetch_add(1, Ordering::SeqCst);
                            outcome(RunStatus::Ok)
                        })
                    })
                })
                .collect();
            release_tx.send(()).unwrap();
            assert_eq!(computing.join().unwrap().status, RunStatus::ExitedNonzero);
            for waiter in waiters {
                // A waiter that arrived after the value was published reads it from memory; one
                // that arrived before was handed it: none computes its own.
                assert_eq!(waiter.join().unwrap().status, RunStatus::ExitedNonzero);
            }
        });
        assert_eq!(runs.load(Ordering::SeqCst), 1);

        let panicking = [9u8; 32];
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            memo.get_or_compute(panicking, || panic!("the computation failed"))
        }));
        assert!(caught.is_err());
        let after = memo.get_or_compute(panicking, || outcome(RunStatus::Ok));
        assert_eq!(after.status, RunStatus::Ok);
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
