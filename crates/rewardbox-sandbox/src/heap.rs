//! The host's freed heap given back to the system once jobs stop starting.
//!
//! glibc's allocator keeps what a thread frees in that thread's arena (a thread that allocates
//! while another holds an arena gets one of its own, up to eight per core), and returns an arena's
//! memory only from its top. After a burst, freed buffers of the jobs (their output, their
//! instances' host-side state) stayed resident: a server running 48 MiB programs sat 16 MiB higher
//! after each burst that woke a new arena (`crates/rewardbox-cli/tests/all/memory.rs`). So every job announces itself
//! ([`job_started`]), and a thread of the process looks every [`QUIET`]: when jobs started before
//! its last look and none since, it calls `malloc_trim`, which gives back the free pages of every
//! arena. Under load it does nothing; after a burst it trims once.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How long no job must start before the heap is trimmed (and how often the thread looks).
pub const QUIET: Duration = Duration::from_millis(500);

/// Jobs started since the process began.
static STARTED: AtomicU64 = AtomicU64::new(0);

/// Counts a job as started, and starts the trimming thread the first time.
pub fn job_started() {
    static TRIMMER: OnceLock<()> = OnceLock::new();
    TRIMMER.get_or_init(|| {
        // Without the thread the heap is only not trimmed: nothing to report.
        let _ = std::thread::Builder::new()
            .name("rewardbox-heap-trim".into())
            .spawn(trim_when_quiet);
    });
    STARTED.fetch_add(1, Ordering::Relaxed);
}

fn trim_when_quiet() {
    let (mut last_look, mut trimmed_at) = (0, 0);
    loop {
        std::thread::sleep(QUIET);
        let started = STARTED.load(Ordering::Relaxed);
        if started == last_look && started != trimmed_at {
            give_back_free_heap();
            trimmed_at = started;
        }
        last_look = started;
    }
}

/// Returns the free pages of every malloc arena to the system.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn give_back_free_heap() {
    // SAFETY: malloc_trim only walks the allocator's own free lists, under its own locks.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Other allocators give memory back by themselves, or offer no way to ask.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn give_back_free_heap() {}
