//! Once per job: a fresh [`Store`] with its limits and a WASI context that offers no network, no
//! environment, fake clocks, a seeded random source and only the directories the host mounts.
//! Also where a failed run is classified.

use crate::capture::{CapturedOutput, OutputBudget, OutputLimitExceeded};
use crate::channels::{CHANNEL_DIR, Channel, ChannelDir};
use crate::clocks::FakeTime;
use crate::cpu::{self, CpuMeter};
use crate::engine::{EPOCH_TICK, ticks_for};
use crate::limits::Limits;
use crate::memory::{MemoryLimitExceeded, MemoryLimiter};
use crate::pipe::{PipeDeadlock, PipeEnd};
use crate::workspace::{DiskBudget, DiskBudgetExceeded, Watched};
use rand::SeedableRng;
use rand::rngs::StdRng;
use std::os::unix::fs::MetadataExt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use wasmtime::component::ResourceTable;
use wasmtime::component::{Linker, Resource};
use wasmtime::{Engine, Store, Trap};
use wasmtime_wasi::filesystem::{Descriptor, WasiFilesystemView};
use wasmtime_wasi::p2::bindings::sync::filesystem::types::{self as fs, HostDescriptor};
use wasmtime_wasi::p2::pipe::MemoryInputPipe;
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream};
use wasmtime_wasi::{FsPerms, WasiCtx, WasiCtxView, WasiView};

/// Fuel a candidate's sleep costs per millisecond in a job whose runner set no rate of its own
/// (see [`Job::charge_sleeps_at`]): the least any runner's time limit buys per
/// millisecond (`runners::time_limit`), so that a sleep is bounded by the fuel limit at least
/// like a busy loop of the same length.
pub const SLEEP_FUEL_PER_MS: u64 = 7_500_000;

/// A host directory a guest sees at `guest` (its only file system): read-only unless `writable`.
#[derive(Debug, Clone, Copy)]
pub struct Mount<'a> {
    /// The directory on the host (one the host created for this job).
    pub host: &'a std::path::Path,
    /// Where the guest sees it, e.g. `/workspace`.
    pub guest: &'a str,
    /// Whether the guest may create, change and delete files in it.
    pub writable: bool,
    /// What a writable directory may hold (none: no bound beyond the host's).
    pub budget: Option<DiskBudget>,
}

/// How often, in epoch ticks (milliseconds) of a guest's execution, its job checks its wall clock
/// and the budgets of the directories it writes.
pub const CHECK_TICKS: u64 = 10;

/// What a job's guest is given besides its code: standard input, command-line arguments, the
/// directories it sees, or a pipe to a job running beside it.
#[derive(Clone, Copy, Default)]
pub struct JobIo<'a> {
    /// Standard input (ignored when `pipe` is given).
    pub stdin: &'a [u8],
    /// The guest's command line, its program name first (empty: none at all).
    pub args: &'a [String],
    /// The only file system it gets.
    pub mounts: &'a [Mount<'a>],
    /// A pipe to another job: its standard input reads the peer's output and its standard output
    /// goes to the peer (stderr is still captured). The job's wall clock does not count the time
    /// it waits for the peer, and the pipe's owner may stop it.
    pub pipe: Option<&'a PipeEnd>,
    /// A temporary directory of its own at `/tmp`, empty, writable within this budget and gone
    /// when the job is (where a native program's `tempfile` writes; none: no `/tmp`). Not made
    /// when one of `mounts` is the guest's `/` or `/tmp` already (a file system of its own).
    pub scratch: Option<DiskBudget>,
    /// Pipes to other jobs that the guest opens as files under [`CHANNEL_DIR`] (a CMS manager's
    /// FIFOs; see [`crate::channels`]). Its linker must have [`crate::channels::link_channels`].
    pub channels: &'a [Channel<'a>],
}

/// The budget of a candidate's or a Python verifier's `/tmp` ([`JobIo::scratch`]): 32 MiB in at
/// most 1,000 entries (a session that keeps an instance holds it of the server's disk budget).
pub const SCRATCH_BUDGET: DiskBudget = DiskBudget {
    bytes: 32 << 20,
    entries: 1_000,
};

/// Where a job's scratch directory is ([`JobIo::scratch`]).
pub const SCRATCH_DIR: &str = "/tmp";

impl<'a> JobIo<'a> {
    /// Standard input and nothing else.
    pub fn stdin(stdin: &'a [u8]) -> JobIo<'a> {
        JobIo {
            stdin,
            ..JobIo::default()
        }
    }
}

/// The state of one job's store: WASI's context and resources, the memory limiter, the wall-clock
/// deadline, and `ext`, what the layer that made the job keeps in it.
pub struct JobState<X> {
    wasi: WasiCtx,
    /// Resources of the guest: WASI's, and whatever the layers above hand it (live candidates).
    pub(crate) table: ResourceTable,
    limiter: MemoryLimiter,
    /// When the job's wall-clock budget ends: no sleep of the guest lasts past it.
    wall_deadline: Instant,
    /// The guest's fake time, which its clocks read and its sleeps advance.
    time: FakeTime,
    /// Wall-clock time the guest chose to spend asleep (trusted instances' sleeps really wait).
    slept: Duration,
    /// The writable directories the guest may fill only so far.
    watched: Vec<Watched>,
    /// Set when the caller that started the job gave up (see [`crate::cancel`]).
    cancel: Option<Arc<AtomicBool>>,
    /// The pipe to a job beside it, if any: waits on it are not the guest's wall-clock time, and
    /// its owner may stop the guest.
    pipe: Option<PipeEnd>,
    /// Its channels' files (see [`crate::channels`]), if it has any.
    pub(crate) channels: Option<ChannelDir>,
    /// The budget its output draws on (its stdout, stderr and channels together).
    pub(crate) budget: OutputBudget,
    /// Fuel a candidate's sleep costs per millisecond (see [`crate::sleep`]).
    sleep_fuel_per_ms: u64,
    /// Fuel given to the guest by its host calls, added when the call returns (see
    /// [`JobState::credit_fuel`]).
    fuel_pending: u64,
    /// All the fuel credited so far (see [`Job::fuel_used`]).
    fuel_credited: u64,
    /// How many calls from the guest into the host are running (see [`Job::take_fuel_credits`]).
    host_depth: u32,
    /// What the layer that made the job keeps in its store (the host's context for verifiers,
    /// nothing for candidates).
    pub ext: X,
}

impl<X> JobState<X> {
    /// A sleep of `nanos` cut at the wall-clock deadline (see [`crate::sleep`]); the
    /// time is counted as the guest's own use of its wall clock.
    pub(crate) fn capped_sleep(&mut self, nanos: u64) -> u64 {
        let capped = cap(nanos, self.wall_deadline);
        self.slept += Duration::from_nanos(capped);
        capped
    }

    /// The cancellation flag of the job's caller, if it has one.
    pub(crate) fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancel.clone()
    }

    /// Fuel a candidate's sleep costs per millisecond.
    pub(crate) fn sleep_fuel_per_ms(&self) -> u64 {
        self.sleep_fuel_per_ms
    }

    /// The guest's fake time (see [`crate::clocks`]).
    pub(crate) fn time(&self) -> &FakeTime {
        &self.time
    }

    /// The guest's resource table: where the layers above keep the resources they hand it.
    pub fn table(&mut self) -> &mut ResourceTable {
        &mut self.table
    }

    /// Gives the job back `waited` of wall clock: time it spent blocked on work that is not its
    /// own (a verifier waiting for the candidate runs it asked for), so that its wall-clock limit
    /// bounds its own work only. Credited at its next deadline.
    pub fn credit_wall(&mut self, waited: Duration) {
        self.wall_deadline += waited;
    }

    /// Gives the job `fuel` more, added to what it has left when the host call now running
    /// returns to it, in a job that takes credits (see [`Job::take_fuel_credits`]): fuel for work
    /// that is not its own doing, such as reading the data another program handed it.
    pub fn credit_fuel(&mut self, fuel: u64) {
        self.fuel_pending = self.fuel_pending.saturating_add(fuel);
    }

    /// Raises the job's memory limit by `bytes` at once (never past
    /// [`crate::MAX_CREDITED_LIMIT`] by credits): room for data that is not its own doing,
    /// such as what another program handed it. The limit a failure reports includes it.
    pub fn credit_memory(&mut self, bytes: u64) {
        self.limiter.credit(bytes);
    }

    /// Adds `bytes` to the output the job may still write: room for writing out data that is not
    /// its own doing, such as what another program handed it.
    pub fn credit_output(&mut self, bytes: u64) {
        self.budget.credit(bytes);
    }

    /// When the job's wall clock ends: its deadline, moved by the time it waited on a pipe.
    fn deadline(&self) -> Instant {
        // Each channel once: its file read, not also its file written (the same pipe end).
        let channels = self.channels.iter().flat_map(|c| &c.files);
        let waited = self.pipe.as_ref().map_or(0, PipeEnd::waited)
            + channels
                .filter(|c| c.reads)
                .map(|c| c.end.waited())
                .sum::<u64>();
        self.wall_deadline + Duration::from_nanos(waited)
    }
}

impl<X: Send + 'static> WasiView for JobState<X> {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// One job: a store, its captured output, and the limits it was built with.
pub struct Job<X: 'static> {
    /// The store; instantiate the component in it and call it once.
    pub store: Store<JobState<X>>,
    /// What the guest wrote to stdout.
    pub stdout: CapturedOutput,
    /// What the guest wrote to stderr.
    pub stderr: CapturedOutput,
    budget: OutputBudget,
    limits: Limits,
    cpu: CpuMeter,
    /// The job's `/tmp` on the host, removed with the job.
    _scratch: Option<tempfile::TempDir>,
}

impl<X: Send + 'static> Job<X> {
    /// A fresh store on `engine` with `limits`, `stdin` as the guest's standard input, `seed`
    /// for its random source and `ext` in its state.
    pub fn new(engine: &Engine, limits: &Limits, seed: u64, stdin: &[u8], ext: X) -> Job<X> {
        Job::with_io(engine, limits, seed, JobIo::stdin(stdin), ext)
    }

    /// A fresh store like [`Job::new`] whose guest also sees each of `mounts`: the only file
    /// system a guest ever gets.
    pub fn with_files(
        engine: &Engine,
        limits: &Limits,
        seed: u64,
        stdin: &[u8],
        ext: X,
        mounts: &[Mount<'_>],
    ) -> Job<X> {
        let io = JobIo {
            mounts,
            ..JobIo::stdin(stdin)
        };
        Job::with_io(engine, limits, seed, io, ext)
    }

    /// A fresh store like [`Job::new`] whose guest gets what `io` describes: its standard input
    /// or a pipe, its arguments and its directories.
    pub fn with_io(engine: &Engine, limits: &Limits, seed: u64, io: JobIo<'_>, ext: X) -> Job<X> {
        crate::heap::job_started();
        let budget = OutputBudget::new(limits.output_bytes);
        let stdout = CapturedOutput::new(&budget);
        let stderr = CapturedOutput::new(&budget);
        let time = FakeTime::default();
        let mut wasi = WasiCtx::builder();
        match io.pipe {
            Some(pipe) => wasi.stdin(pipe.stdin()).stdout(pipe.stdout(&budget)),
            None => wasi
                .stdin(MemoryInputPipe::new(io.stdin.to_vec()))
                .stdout(stdout.clone()),
        };
        wasi.args(io.args)
            .stderr(stderr.clone())
            .secure_random(StdRng::seed_from_u64(seed))
            .insecure_random(StdRng::seed_from_u64(seed ^ 0x9e37_79b9_7f4a_7c15))
            .insecure_random_seed(u128::from(seed))
            .wall_clock(time.wall())
            .monotonic_clock(time.monotonic())
            .allow_tcp(false)
            .allow_udp(false)
            .allow_ip_name_lookup(false);
        // The scratch directory: a host directory made for this job alone. Failing to make one
        // is the host's fault (its temporary directory is full or gone), and says so.
        let has_own_tmp = io
            .mounts
            .iter()
            .any(|m| m.guest == "/" || m.guest == SCRATCH_DIR);
        let scratch = io.scratch.filter(|_| !has_own_tmp).map(|budget| {
            let dir = tempfile::Builder::new()
                .prefix("rewardbox-tmp-")
                .tempdir()
                .expect("creating a job's /tmp in the host's temporary directory");
            (dir, budget)
        });
        let scratch_mount = scratch.as_ref().map(|(dir, budget)| Mount {
            host: dir.path(),
            guest: SCRATCH_DIR,
            writable: true,
            budget: Some(*budget),
        });
        // The channels' placeholders: a directory made for this job alone, as the scratch one.
        let channels = (!io.channels.is_empty()).then(|| {
            crate::channels::make(io.channels)
                .expect("making a job's channel files in the host's temporary directory")
        });
        let channel_mount = channels.as_ref().map(|c| Mount {
            host: c.dir.path(),
            guest: CHANNEL_DIR,
            writable: true,
            budget: Some(DiskBudget {
                bytes: 1 << 20,
                entries: 64,
            }),
        });
        let mounts: Vec<Mount<'_>> = io
            .mounts
            .iter()
            .copied()
            .chain(scratch_mount)
            .chain(channel_mount)
            .collect();
        for mount in &mounts {
            let perms = if mount.writable {
                FsPerms::ReadWrite
            } else {
                FsPerms::ReadOnly
            };
            // A directory the host itself just created; failing to open it is a host bug.
            wasi.preopened_dir(mount.host, mount.guest, perms)
                .expect("opening a directory the host created for the guest");
        }
        let watched = mounts
            .iter()
            .filter(|m| m.writable)
            .filter_map(|m| {
                m.budget.map(|budget| Watched {
                    dir: m.host.to_path_buf(),
                    budget,
                })
            })
            .collect();
        let state = JobState {
            wasi: wasi.build(),
            table: ResourceTable::new(),
            limiter: MemoryLimiter::new(limits.memory_bytes),
            wall_deadline: Instant::now() + Duration::from_millis(limits.wall_ms),
            time,
            slept: Duration::ZERO,
            watched,
            cancel: crate::cancel::current(),
            pipe: io.pipe.cloned(),
            channels,
            budget: budget.clone(),
            sleep_fuel_per_ms: SLEEP_FUEL_PER_MS,
            fuel_pending: 0,
            fuel_credited: 0,
            host_depth: 0,
            ext,
        };
        let mut store = Store::new(engine, state);
        store.limiter(|state| &mut state.limiter);
        // Fails only on an engine built without fuel metering (a benchmark's), where the wall
        // clock alone bounds the run.
        let _ = store.set_fuel(limits.fuel);
        store.set_epoch_deadline(ticks_for(limits.wall_ms).min(CHECK_TICKS));
        // Every CHECK_TICKS of execution: the budgets of the directories it writes, then the
        // wall clock (its deadline moved by the time it waited on others' work, see
        // `credit_wall`).
        store.epoch_deadline_callback(|ctx| {
            let state = ctx.data();
            if crate::cancel::is_set(&state.cancel) {
                return Err(JobCancelled.into());
            }
            if state.pipe.as_ref().is_some_and(PipeEnd::stopped) {
                return Err(JobStopped.into());
            }
            for watched in &state.watched {
                watched.check()?;
            }
            let left = state.deadline().saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(Trap::Interrupt.into());
            }
            let ticks = ticks_for(left.as_millis() as u64).clamp(1, CHECK_TICKS);
            Ok(wasmtime::UpdateDeadline::Continue(ticks))
        });
        Job {
            store,
            stdout,
            stderr,
            budget,
            limits: *limits,
            cpu: CpuMeter::start(),
            _scratch: scratch.map(|(dir, _)| dir),
        }
    }

    /// Adds the fuel its host calls credit it ([`JobState::credit_fuel`]) to what it has left,
    /// each time one returns to it. Set before the guest runs; without it, credits are ignored.
    ///
    /// Only a return to the guest's own code takes the credit: compiled code keeps its fuel in
    /// a register across the host's built-in helpers (growing a memory, say, which a host call
    /// may make the guest do while it hands back a result), and writes it back after them, so
    /// fuel set during one of those would be lost. A call the guest makes itself saves its fuel
    /// before and reads it again after.
    pub fn take_fuel_credits(&mut self) {
        self.store.call_hook(|mut store, hook| {
            let state = store.data_mut();
            match hook {
                wasmtime::CallHook::CallingHost => state.host_depth += 1,
                wasmtime::CallHook::ReturningFromHost => {
                    state.host_depth = state.host_depth.saturating_sub(1);
                    if state.host_depth > 0 {
                        return Ok(());
                    }
                    let credit = std::mem::take(&mut state.fuel_pending);
                    if credit > 0 {
                        state.fuel_credited = state.fuel_credited.saturating_add(credit);
                        // Fails only on an engine without fuel metering, where nothing is owed.
                        if let Ok(left) = store.get_fuel() {
                            store.set_fuel(left.saturating_add(credit))?;
                        }
                    }
                }
                _ => {}
            }
            Ok(())
        });
    }

    /// Makes a candidate's sleep cost `fuel_per_ms` per millisecond: what its runner's time limit
    /// buys per millisecond, so that sleeping past the limit ends the run as working past it
    /// does (a job's runner sets it before the guest runs; see [`crate::sleep`]).
    pub fn charge_sleeps_at(&mut self, fuel_per_ms: u64) {
        self.store.data_mut().sleep_fuel_per_ms = fuel_per_ms;
    }

    /// Charges a compiled program's stack of `stack_bytes` by the pages it touches instead of
    /// its reservation, a stack that meets the memory limit being a stack overflow (see
    /// [`rewardbox-toolchains`'s stack module]). Set before the guest is instantiated.
    pub fn charge_stack_by_use(&mut self, stack_bytes: u64) {
        self.store
            .data_mut()
            .limiter
            .charge_stack_by_use(stack_bytes);
    }

    /// Gives the job a fresh budget of fuel and output under `limits` (its memory stays as it
    /// is): the next step of a long-lived instance. The wall clock is set per call by its owner.
    pub fn renew(&mut self, limits: &Limits) {
        let _ = self.store.set_fuel(limits.fuel);
        self.store.data_mut().fuel_pending = 0;
        self.store.data_mut().fuel_credited = 0;
        self.budget.reset(limits.output_bytes);
        self.limits.fuel = limits.fuel;
        self.limits.output_bytes = limits.output_bytes;
        self.limits.wall_ms = limits.wall_ms;
        self.cpu.reset();
        self.store.data_mut().slept = Duration::ZERO;
    }

    /// Gives the guest `wall_ms` of wall clock from now: its epoch deadline, and the end of any
    /// sleep it starts.
    pub fn set_wall(&mut self, wall_ms: u64) {
        self.store
            .set_epoch_deadline(ticks_for(wall_ms).min(CHECK_TICKS));
        self.store.data_mut().wall_deadline = Instant::now() + Duration::from_millis(wall_ms);
        self.cpu.resume();
    }

    /// A call into the guest (begun after [`Job::set_wall`]) returned: its CPU time is kept
    /// toward the job's.
    pub fn call_returned(&mut self) {
        self.cpu.pause();
    }

    /// The limits the job runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// Whether the directories the guest writes are within their budgets now (checked while it
    /// runs, and by the owner once it has ended: a last write may have crossed one).
    pub fn check_disk(&self) -> Result<(), DiskBudgetExceeded> {
        self.store
            .data()
            .watched
            .iter()
            .try_for_each(Watched::check)
    }

    /// Fuel consumed so far (of its limit and of the fuel credited to it).
    pub fn fuel_used(&self) -> u64 {
        self.limits
            .fuel
            .saturating_add(self.store.data().fuel_credited)
            .saturating_sub(self.store.get_fuel().unwrap_or(0))
    }

    /// Why a call into this job's guest failed, from the error it returned.
    pub fn classify(&self, error: &wasmtime::Error) -> RunFailure {
        if let Some(refused) = error.downcast_ref::<HostRefusedInstance>() {
            return RunFailure::HostRefused {
                reason: refused.0.clone(),
            };
        }
        if error.downcast_ref::<JobCancelled>().is_some() {
            return RunFailure::Cancelled;
        }
        if error.downcast_ref::<JobStopped>().is_some() {
            return RunFailure::Stopped;
        }
        if error.downcast_ref::<PipeDeadlock>().is_some() {
            return RunFailure::Deadlock;
        }
        if error.downcast_ref::<wasmtime::ThrownException>().is_some() {
            return RunFailure::UncaughtException;
        }
        if let Some(exceeded) = error.downcast_ref::<DiskBudgetExceeded>() {
            return RunFailure::DiskBudgetExceeded(*exceeded);
        }
        if self.budget.exceeded() || error.downcast_ref::<OutputLimitExceeded>().is_some() {
            return RunFailure::OutputExceeded {
                limit: self
                    .limits
                    .output_bytes
                    .saturating_add(self.budget.credited()),
            };
        }
        if self.store.data().limiter.stack_overflowed() {
            return RunFailure::StackOverflow;
        }
        if self.store.data().limiter.exceeded()
            || error.downcast_ref::<MemoryLimitExceeded>().is_some()
        {
            return RunFailure::MemoryExceeded {
                limit: self
                    .limits
                    .memory_bytes
                    .saturating_add(self.store.data().limiter.credited()),
            };
        }
        match error.downcast_ref::<Trap>() {
            Some(Trap::OutOfFuel) => RunFailure::FuelExhausted {
                limit: self.limits.fuel,
            },
            Some(Trap::Interrupt) => {
                // Its own use of the wall clock: its work, and the sleeps it chose.
                let used = self.cpu.used() + self.store.data().slept;
                if cpu::starved(used, Duration::from_millis(self.limits.wall_ms)) {
                    RunFailure::HostBusy {
                        cpu_ms: used.as_millis() as u64,
                        limit_ms: self.limits.wall_ms,
                    }
                } else {
                    RunFailure::Timeout {
                        limit_ms: self.limits.wall_ms,
                    }
                }
            }
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

/// Marks an error of making a guest's instance (`instantiate` on a job's store) that the host
/// caused: the pool had no free slot, the operating system refused a mapping or memory, or the
/// host ran out of memory. [`Job::classify`] reads such an error as [`RunFailure::HostRefused`],
/// any other as the guest's. Only these causes are the host's: what a guest's own module can cause
/// at instantiation (a memory or table larger than its limits, a trap while its segments are
/// written) is not among them, so a program cannot choose to be refused.
pub fn at_instantiation(error: wasmtime::Error) -> wasmtime::Error {
    match host_refusal(&error) {
        Some(reason) => error.context(HostRefusedInstance(reason)),
        None => error,
    }
}

/// How many times [`instantiate_retrying`] tries to make an instance the host refuses.
pub const INSTANTIATION_TRIES: u32 = 3;

/// Makes an instance with `make`, trying again (three tries in all, after 20 ms and then 100 ms)
/// while the host refuses it for a cause that is only ever the host's ([`at_instantiation`]'s):
/// a pool slot frees as other runs end, and a refused mapping is usually a moment's pressure.
/// The last error goes through [`at_instantiation`], so a refusal that outlasts the tries is
/// still the host's, and any other error is returned at once, as the guest's. The waits happen
/// before the guest starts and cost it no fuel.
pub fn instantiate_retrying<T>(
    mut make: impl FnMut() -> wasmtime::Result<T>,
) -> wasmtime::Result<T> {
    let mut wait = std::time::Duration::from_millis(20);
    for _ in 1..INSTANTIATION_TRIES {
        match make() {
            Err(error) if host_refusal(&error).is_some() => {
                std::thread::sleep(wait);
                wait *= 5;
            }
            made => return made.map_err(at_instantiation),
        }
    }
    make().map_err(at_instantiation)
}

/// What the host refused, when `error` holds a cause that is only ever the host's.
fn host_refusal(error: &wasmtime::Error) -> Option<String> {
    if let Some(pool) = error.downcast_ref::<wasmtime::PoolConcurrencyLimitError>() {
        return Some(format!("no free instance slot ({pool})"));
    }
    if error.downcast_ref::<wasmtime::OutOfMemory>().is_some() {
        return Some("the host ran out of memory".into());
    }
    if let Some(os) = error.downcast_ref::<std::io::Error>() {
        return Some(format!("the operating system refused: {os}"));
    }
    if let Some(errno) = error.downcast_ref::<rustix::io::Errno>() {
        return Some(format!("the operating system refused: {errno}"));
    }
    None
}

/// The context [`at_instantiation`] adds: what the host refused.
#[derive(Debug)]
struct HostRefusedInstance(String);

impl std::fmt::Display for HostRefusedInstance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the host could not make the instance: {}", self.0)
    }
}

/// The error that ends a job whose caller gave up.
#[derive(Debug)]
struct JobCancelled;

impl std::fmt::Display for JobCancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the job was cancelled: its caller went away")
    }
}

impl std::error::Error for JobCancelled {}

/// The error that ends a job whose pipe's owner stopped it.
#[derive(Debug)]
struct JobStopped;

impl std::fmt::Display for JobStopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the job was stopped: the program at the other end of its pipe had decided"
        )
    }
}

impl std::error::Error for JobStopped {}

/// How a sandboxed run ended when it did not return.
#[derive(Debug, Clone, PartialEq)]
pub enum RunFailure {
    /// It ran out of fuel.
    FuelExhausted {
        /// The fuel it had.
        limit: u64,
    },
    /// It ran past its wall-clock limit, having used at least half of it in CPU time.
    Timeout {
        /// Its wall-clock limit, in milliseconds.
        limit_ms: u64,
    },
    /// The wall clock stopped it when it had used less than half of its limit in CPU time and
    /// sleeps of its own: the host was too busy to run it, which says nothing about the program (the host's fault).
    HostBusy {
        /// The CPU time (and sleeps) it had used, in milliseconds.
        cpu_ms: u64,
        /// Its wall-clock limit, in milliseconds.
        limit_ms: u64,
    },
    /// It tried to grow its memory past the limit.
    MemoryExceeded {
        /// Its memory limit, in bytes.
        limit: u64,
    },
    /// It wrote more than its output limit.
    OutputExceeded {
        /// Its output limit, in bytes.
        limit: u64,
    },
    /// It wrote more into a directory than the directory's budget.
    DiskBudgetExceeded(DiskBudgetExceeded),
    /// It exhausted its call stack (unbounded recursion).
    StackOverflow,
    /// An exception (C++ `throw`) left it uncaught: natively `std::terminate`, an abort.
    UncaughtException,
    /// Its caller went away and stopped it (the host's doing, never the program's).
    Cancelled,
    /// The host could not make its instance (see [`at_instantiation`]): it never ran, and says
    /// nothing about the program (the host's fault).
    HostRefused {
        /// What was refused.
        reason: String,
    },
    /// The owner of its pipe stopped it: the program at the other end had decided (an
    /// interactor that rejected it), so nothing it did after that mattered.
    Stopped,
    /// It waited to read from its pipe while the program at the other end waited to read from
    /// it: neither could go on.
    Deadlock,
    /// It trapped for another reason, a Rust panic for instance.
    Trap {
        /// wasmtime's message.
        message: String,
        /// The end of what it wrote to stderr, when it wrote anything (a panic's message).
        stderr_tail: Option<String>,
    },
}

impl RunFailure {
    /// Whether the same instance, given the same inputs, would fail the same way again: a limit
    /// counted in what it does (fuel, memory, output, disk, stack) or a trap. Not the wall clock,
    /// the host's refusals, a cancellation, or what the program at the other end of a pipe did.
    pub fn repeats(&self) -> bool {
        match self {
            RunFailure::FuelExhausted { .. }
            | RunFailure::MemoryExceeded { .. }
            | RunFailure::OutputExceeded { .. }
            | RunFailure::DiskBudgetExceeded(_)
            | RunFailure::StackOverflow
            | RunFailure::UncaughtException
            | RunFailure::Trap { .. } => true,
            RunFailure::Timeout { .. }
            | RunFailure::HostBusy { .. }
            | RunFailure::HostRefused { .. }
            | RunFailure::Cancelled
            | RunFailure::Stopped
            | RunFailure::Deadlock => false,
        }
    }
}

impl std::fmt::Display for RunFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunFailure::FuelExhausted { limit } => write!(f, "ran out of fuel (limit {limit})"),
            RunFailure::Timeout { limit_ms } => {
                write!(f, "exceeded the wall-clock limit of {limit_ms} ms")
            }
            RunFailure::HostBusy { cpu_ms, limit_ms } => write!(
                f,
                "was not judged: the host was too busy to run it (it got {cpu_ms} ms of CPU, \
                 sleeps included, in its wall-clock limit of {limit_ms} ms)"
            ),
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
            RunFailure::DiskBudgetExceeded(exceeded) => write!(f, "{exceeded}"),
            RunFailure::StackOverflow => write!(f, "overflowed its call stack"),
            RunFailure::UncaughtException => write!(
                f,
                "ended with an uncaught exception (terminate called after throwing: an abort)"
            ),
            RunFailure::Cancelled => write!(f, "was stopped: the request was cancelled"),
            RunFailure::HostRefused { reason } => write!(
                f,
                "was not judged: the host could not make its instance ({reason})"
            ),
            RunFailure::Stopped => write!(
                f,
                "was stopped: the program it talked to had ended and decided"
            ),
            RunFailure::Deadlock => write!(
                f,
                "waited for input while the program it talks to waited for its output (deadlock)"
            ),
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

/// `nanos`, or less: what is left until `deadline` plus two epoch ticks, so that the epoch
/// deadline has passed when the sleep ends.
pub fn cap(nanos: u64, deadline: Instant) -> u64 {
    let left = deadline.saturating_duration_since(Instant::now()) + EPOCH_TICK * 2;
    nanos.min(u64::try_from(left.as_nanos()).unwrap_or(u64::MAX))
}

/// The filesystem interface whose stream functions [`link_channels`] defines again (the version
/// wasmtime-wasi links; the adapter's imports of older 0.2 versions resolve to it).
const FILESYSTEM_TYPES: &str = "wasi:filesystem/types@0.2.12";

impl<X> JobState<X> {
    /// The channel whose placeholder `fd` is open on, read (`reads`) or written, if any.
    fn channel_of(&mut self, fd: &Resource<Descriptor>, reads: bool) -> Option<PipeEnd> {
        let channels = self.channels.as_ref()?;
        let Ok(Descriptor::File(file)) = self.table.get(fd) else {
            return None;
        };
        let meta = file.file.metadata().ok()?;
        channels.pipe(meta.dev(), meta.ino(), reads)
    }
}

/// Defines the stream functions of `wasi:filesystem/types` again (see [`crate::channels`]), in front of wasmtime-wasi's
/// (which must be linked already): a channel's placeholder reads and writes its pipe.
pub fn link_channels<X: Send + 'static>(linker: &mut Linker<JobState<X>>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut types = linker.instance(FILESYSTEM_TYPES)?;
    types.func_wrap(
        "[method]descriptor.read-via-stream",
        |mut store, (fd, offset): (Resource<Descriptor>, u64)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(end) = state.channel_of(&fd, true) {
                let stream: DynInputStream = Box::new(end.stdin());
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((
                match HostDescriptor::read_via_stream(&mut view, fd, offset) {
                    Ok(stream) => Ok(stream),
                    Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
                },
            ))
        },
    )?;
    types.func_wrap(
        "[method]descriptor.write-via-stream",
        |mut store, (fd, offset): (Resource<Descriptor>, u64)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(stream) = state.channel_writer(&fd) {
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((
                match HostDescriptor::write_via_stream(&mut view, fd, offset) {
                    Ok(stream) => Ok(stream),
                    Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
                },
            ))
        },
    )?;
    types.func_wrap(
        "[method]descriptor.append-via-stream",
        |mut store, (fd,): (Resource<Descriptor>,)| {
            let state: &mut JobState<X> = store.data_mut();
            if let Some(stream) = state.channel_writer(&fd) {
                return Ok((Ok(state.table().push(stream)?),));
            }
            let mut view = state.filesystem();
            Ok((match HostDescriptor::append_via_stream(&mut view, fd) {
                Ok(stream) => Ok(stream),
                Err(e) => Err(fs::Host::convert_error_code(&mut view, e)?),
            },))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

impl<X> JobState<X> {
    /// The writing stream of the channel whose placeholder `fd` is open on, if any (drawing on
    /// the job's output budget).
    fn channel_writer(&mut self, fd: &Resource<Descriptor>) -> Option<DynOutputStream> {
        let end = self.channel_of(fd, false)?;
        Some(Box::new(end.stdout(&self.budget)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use wasm_encoder::{
        Component, InstanceSection, MemorySection, MemoryType, Module, ModuleSection,
    };

    /// A component whose one core module has a memory of `pages`.
    fn component(engine: &Engine, pages: u64) -> wasmtime::component::Component {
        let mut module = Module::new();
        let mut memories = MemorySection::new();
        memories.memory(MemoryType {
            minimum: pages,
            maximum: None,
            memory64: false,
            shared: false,
            page_size_log2: None,
        });
        module.section(&memories);
        let mut component = Component::new();
        component.section(&ModuleSection(&module));
        let mut instances = InstanceSection::new();
        instances.instantiate(0, Vec::<(&str, wasm_encoder::ModuleArg)>::new());
        component.section(&instances);
        wasmtime::component::Component::new(engine, component.finish()).unwrap()
    }

    /// How making an instance of `component` in a fresh job under `limits` failed, classified as
    /// the runners classify it; `None` when it was made (the job is then kept in `held`).
    fn instantiate(
        engine: &Engine,
        component: &wasmtime::component::Component,
        limits: &Limits,
        held: &mut Vec<Job<()>>,
    ) -> Option<RunFailure> {
        let mut job = Job::with_io(engine, limits, 0, JobIo::default(), ());
        let linker = wasmtime::component::Linker::<JobState<()>>::new(engine);
        match linker.instantiate(&mut job.store, component) {
            Ok(_) => {
                held.push(job);
                None
            }
            Err(error) => Some(job.classify(&at_instantiation(error))),
        }
    }

    /// A pool with no free slot is the host's refusal; a memory a module itself asks beyond its
    /// job's limit stays the module's (a table past the pool's is refused when it is compiled,
    /// before any instance).
    #[test]
    fn only_the_hosts_refusal_to_make_an_instance_is_the_hosts() {
        let engine = crate::engine::build_engine(1, 1).unwrap();
        let small = component(&engine, 1);
        let limits = Limits {
            memory_bytes: 16 << 20,
            ..Limits::VERIFIER_DEFAULT
        };
        let mut held = Vec::new();
        let refused = (0..64)
            .find_map(|_| instantiate(&engine, &small, &limits, &mut held))
            .expect("a pool sized for one thread fills up");
        assert!(
            matches!(&refused, RunFailure::HostRefused { reason } if reason.contains("slot")),
            "{refused:?}"
        );
        assert!(refused.to_string().contains("was not judged"), "{refused}");
        held.clear();

        // Tried again, an instance is made once a slot frees while it waits; with none freed,
        // the refusal outlasts the tries and stays the host's.
        while instantiate(&engine, &small, &limits, &mut held).is_none() {}
        let mut job = Job::with_io(&engine, &limits, 0, JobIo::default(), ());
        let linker = wasmtime::component::Linker::<JobState<()>>::new(&engine);
        let mut tries = 0;
        let error = instantiate_retrying(|| {
            tries += 1;
            linker.instantiate(&mut job.store, &small)
        })
        .expect_err("no slot frees");
        assert_eq!(tries, INSTANTIATION_TRIES);
        assert!(
            matches!(job.classify(&error), RunFailure::HostRefused { .. }),
            "{error:?}"
        );
        // A slot frees between the first try and the second.
        let mut tries = 0;
        let made = instantiate_retrying(|| {
            tries += 1;
            if tries == 2 {
                held.pop();
            }
            linker.instantiate(&mut job.store, &small)
        });
        assert!(made.is_ok(), "{:?}", made.err());
        assert_eq!(tries, 2);
        drop(job);
        held.clear();

        let too_much_memory = component(&engine, 1024);
        let failure = instantiate(&engine, &too_much_memory, &limits, &mut held);
        assert!(
            matches!(failure, Some(RunFailure::MemoryExceeded { .. })),
            "{failure:?}"
        );
    }

    #[test]
    fn a_sleep_is_cut_at_the_deadline() {
        let deadline = Instant::now() + Duration::from_millis(100);
        assert_eq!(cap(1_000, deadline), 1_000, "a short sleep is untouched");
        let capped = cap(3_600 * 1_000_000_000, deadline);
        assert!(capped > 95_000_000 && capped <= 102_000_000, "{capped}");
        let past = Instant::now() - Duration::from_secs(1);
        assert!(
            cap(u64::MAX, past) <= 2_000_000,
            "a deadline already passed: one tick"
        );
    }
}
