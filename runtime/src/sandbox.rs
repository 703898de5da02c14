//! Once per job: a fresh [`Store`] with its limits and a WASI context that offers no filesystem,
//! no network, no environment, a fake clock and a seeded random source. Also where every limit is
//! enforced and where a failed run is classified.

use crate::capture::{CapturedOutput, OutputBudget, OutputLimitExceeded};
use crate::engine::{EPOCH_TICK, ticks_for};
use crate::limits::Limits;
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::component::ResourceTable;
use wasmtime::{Engine, ResourceLimiter, Store, Trap};
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::{FsPerms, HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

/// A host directory a guest sees at `guest` (its only file system): read-only unless `writable`.
#[derive(Debug, Clone, Copy)]
pub struct Mount<'a> {
    /// The directory on the host (one the host created for this job).
    pub host: &'a std::path::Path,
    /// Where the guest sees it, e.g. `/workspace`.
    pub guest: &'a str,
    /// Whether the guest may create, change and delete files in it.
    pub writable: bool,
}

/// The state of one job's store.
pub struct JobState {
    wasi: WasiCtx,
    /// Resources of the guest: WASI's, and the live candidates a verifier opened.
    pub(crate) table: ResourceTable,
    limiter: MemoryLimiter,
    /// What the host offers the guest beyond WASI (the `sandbox` interface for verifiers).
    pub host: crate::host::HostContext,
    /// When the job's wall-clock budget ends: no sleep of the guest lasts past it.
    pub(crate) wall_deadline: std::time::Instant,
}

impl JobState {
    /// A sleep of `nanos` cut at the wall-clock deadline (see [`crate::sleep`]).
    pub(crate) fn capped_sleep(&self, nanos: u64) -> u64 {
        crate::sleep::cap(nanos, self.wall_deadline)
    }
}

impl WasiView for JobState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// One job: a store, its captured output, and the limits it was built with.
pub struct Job {
    /// The store; instantiate the component in it and call it once.
    pub store: Store<JobState>,
    /// What the guest wrote to stdout.
    pub stdout: CapturedOutput,
    /// What the guest wrote to stderr.
    pub stderr: CapturedOutput,
    budget: OutputBudget,
    limits: Limits,
}

impl Job {
    /// A fresh store on `engine` with `limits`, `stdin` as the guest's standard input and `seed`
    /// for its random source.
    pub fn new(
        engine: &Engine,
        limits: &Limits,
        seed: u64,
        stdin: &[u8],
        host: crate::host::HostContext,
    ) -> Job {
        Job::with_files(engine, limits, seed, stdin, host, &[])
    }

    /// A fresh store like [`Job::new`] whose guest also sees each of `mounts`: the only file
    /// system a guest ever gets.
    pub fn with_files(
        engine: &Engine,
        limits: &Limits,
        seed: u64,
        stdin: &[u8],
        host: crate::host::HostContext,
        mounts: &[Mount<'_>],
    ) -> Job {
        let budget = OutputBudget::new(limits.output_bytes);
        let stdout = CapturedOutput::new(&budget);
        let stderr = CapturedOutput::new(&budget);
        let mut wasi = WasiCtx::builder();
        wasi.stdin(MemoryInputPipe::new(stdin.to_vec()))
            .stdout(stdout.clone())
            .stderr(stderr.clone())
            .secure_random(StdRng::seed_from_u64(seed))
            .insecure_random(StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15))
            .insecure_random_seed(u128::from(seed))
            .wall_clock(FakeWallClock::default())
            .monotonic_clock(FakeMonotonicClock::default())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        for mount in mounts {
            let perms = if mount.writable {
                FsPerms::ReadWrite
            } else {
                FsPerms::ReadOnly
            };
            // A directory the host itself just created; failing to open it is a host bug.
            wasi.preopened_dir(mount.host, mount.guest, perms)
                .expect("opening a directory the host created for the guest");
        }
        let state = JobState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter {
                limit: limits.memory_bytes,
                used: 0,
                exceeded: false,
            },
            host,
            wall_deadline: std::time::Instant::now() + Duration::from_millis(limits.wall_ms),
        };
        let mut store = Store::new(engine, state);
        store.limiter(|state| &mut state.limiter);
        // Fails only on an engine built without fuel metering (a benchmark's), where the wall
        // clock alone bounds the run.
        let _ = store.set_fuel(limits.fuel);
        store.set_epoch_deadline(ticks_for(limits.wall_ms));
        // At the deadline, time the job spent waiting for candidate runs (`sandbox.run`/`call`)
        // is credited back: the wall-clock limit bounds the job's own work.
        store.epoch_deadline_callback(|mut ctx| {
            let credit = std::mem::take(&mut ctx.data_mut().host.credit_ticks);
            if credit > 0 {
                ctx.data_mut().wall_deadline += EPOCH_TICK * credit as u32;
                Ok(wasmtime::UpdateDeadline::Continue(credit))
            } else {
                Err(Trap::Interrupt.into())
            }
        });
        Job {
            store,
            stdout,
            stderr,
            budget,
            limits: *limits,
        }
    }

    /// Gives the job a fresh budget of fuel and output under `limits` (its memory stays as it
    /// is): the next step of a long-lived instance. The wall clock is set per call by its owner.
    pub fn renew(&mut self, limits: &Limits) {
        let _ = self.store.set_fuel(limits.fuel);
        self.budget.reset(limits.output_bytes);
        self.limits.fuel = limits.fuel;
        self.limits.output_bytes = limits.output_bytes;
        self.limits.wall_ms = limits.wall_ms;
    }

    /// Gives the guest `wall_ms` of wall clock from now: its epoch deadline, and the end of any
    /// sleep it starts.
    pub fn set_wall(&mut self, wall_ms: u64) {
        self.store.set_epoch_deadline(ticks_for(wall_ms));
        self.store.data_mut().wall_deadline =
            std::time::Instant::now() + Duration::from_millis(wall_ms);
    }

    /// The limits the job runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Fuel consumed so far.
    pub fn fuel_used(&self) -> u64 {
        self.limits
            .fuel
            .saturating_sub(self.store.get_fuel().unwrap_or(0))
    }

    /// Why a call into this job's guest failed, from the error it returned.
    pub fn classify(&self, error: &wasmtime::Error) -> RunFailure {
        if self.budget.exceeded() || error.downcast_ref::<OutputLimitExceeded>().is_some() {
            return RunFailure::OutputExceeded {
                limit: self.limits.output_bytes,
            };
        }
        if self.store.data().limiter.exceeded
            || error.downcast_ref::<MemoryLimitExceeded>().is_some()
        {
            return RunFailure::MemoryExceeded {
                limit: self.limits.memory_bytes,
            };
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => RunFailure::FuelExhausted {
                limit: self.limits.fuel,
            },
            Some(Trap::Interrupt) => RunFailure::Timeout {
                limit_ms: self.limits.wall_ms,
            },
            Some(Trap::StackOverflow) => RunFailure::StackOverflow,
            Some(trap) => RunFailure::Trap {
                message: trap.to_string(),
                stderr_tail: tail(&self.stderr.text()),
            },
            None => RunFailure::Trap {
                message: format!("{error:#}"),
                stderr_tail: tail(&self.stderr.text()),
            },
        }
    }
}

/// The end of a guest's stderr, where a Rust panic's location and message are: its last two
/// meaningful lines, joined, at most 500 bytes.
fn tail(stderr: &str) -> Option<String> {
    let meaningful: Vec<&str> = stderr
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("note: run with `RUST_BACKTRACE"))
        .collect();
    let mut tail = meaningful[meaningful.len().saturating_sub(2)..].join(" ");
    if tail.is_empty() {
        return None;
    }
    if tail.len() > 500 {
        let cut = (0..=500)
            .rev()
            .find(|&i| tail.is_char_boundary(i))
            .unwrap_or(0);
        tail.truncate(cut);
        tail.push('…');
    }
    Some(tail)
}

/// How a sandboxed run ended when it did not return.
#[derive(Debug, Clone, PartialEq)]
pub enum RunFailure {
    /// It ran out of fuel.
    FuelExhausted { limit: u64 },
    /// It ran past its wall-clock limit.
    Timeout { limit_ms: u64 },
    /// It tried to grow its memory past the limit.
    MemoryExceeded { limit: u64 },
    /// It wrote more than its output limit.
    OutputExceeded { limit: u64 },
    /// It exhausted its call stack (unbounded recursion).
    StackOverflow,
    /// It trapped for another reason, a Rust panic for instance.
    Trap {
        message: String,
        stderr_tail: Option<String>,
    },
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunFailure::FuelExhausted { limit } => write!(f, "ran out of fuel (limit {limit})"),
            RunFailure::Timeout { limit_ms } => {
                write!(f, "exceeded the wall-clock limit of {limit_ms} ms")
            }
            RunFailure::MemoryExceeded { limit } => {
                write!(
                    f,
                    "exceeded the memory limit of {} MiB",
                    limit / (1024 * 1024)
                )
            }
            RunFailure::OutputExceeded { limit } => {
                write!(f, "exceeded the output limit of {limit} bytes")
            }
            RunFailure::StackOverflow => write!(f, "overflowed its call stack"),
            RunFailure::Trap {
                message,
                stderr_tail: Some(tail),
            } => write!(f, "trapped: {message} ({tail})"),
            RunFailure::Trap {
                message,
                stderr_tail: None,
            } => write!(f, "trapped: {message}"),
        }
    }
}

/// The error a guest's memory growth past its limit traps with.
#[derive(Debug, Clone, Copy)]
pub struct MemoryLimitExceeded;

impl std::fmt::Display for MemoryLimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("memory limit exceeded")
    }
}

impl std::error::Error for MemoryLimitExceeded {}

/// Caps the linear memory of a store, summed over all its memories.
struct MemoryLimiter {
    limit: u64,
    used: u64,
    exceeded: bool,
}

/// Table elements a store may hold in one table.
const MAX_TABLE_ELEMENTS: usize = 1_000_000;

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.used - current as u64 + desired as u64;
        if after > self.limit {
            self.exceeded = true;
            return Err(MemoryLimitExceeded.into());
        }
        self.used = after;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }
}

/// A monotonic clock that advances one microsecond per reading: deterministic, and loops that wait
/// for time to pass still terminate.
#[derive(Default)]
struct FakeMonotonicClock {
    now_ns: AtomicU64,
}

impl HostMonotonicClock for FakeMonotonicClock {
    fn resolution(&self) -> u64 {
        1_000
    }

    fn now(&self) -> u64 {
        self.now_ns.fetch_add(1_000, Ordering::Relaxed) + 1_000
    }
}

/// A wall clock that starts at 2024-01-01T00:00:00Z and advances one microsecond per reading.
#[derive(Default)]
struct FakeWallClock {
    elapsed_ns: AtomicU64,
}

/// 2024-01-01T00:00:00Z in seconds since the Unix epoch.
const FAKE_EPOCH_SECONDS: u64 = 1_704_067_200;

impl HostWallClock for FakeWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_micros(1)
    }

    fn now(&self) -> Duration {
        let elapsed = self.elapsed_ns.fetch_add(1_000, Ordering::Relaxed) + 1_000;
        Duration::from_secs(FAKE_EPOCH_SECONDS) + Duration::from_nanos(elapsed)
    }
}
