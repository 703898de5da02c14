//! The clocks a guest sees: fake and deterministic, so that the same program reads the same times
//! on any machine under any load. Each reading advances them a little, so that a loop waiting for
//! time to pass still ends.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock};

/// A monotonic clock that advances one microsecond per reading.
#[derive(Default)]
pub struct FakeMonotonicClock {
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
pub struct FakeWallClock {
    elapsed_ns: AtomicU64,
}

/// 2024-01-01T00:00:00Z in seconds since the Unix epoch.
pub const FAKE_EPOCH_SECONDS: u64 = 1_704_067_200;

impl HostWallClock for FakeWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_micros(1)
    }

    fn now(&self) -> Duration {
        let elapsed = self.elapsed_ns.fetch_add(1_000, Ordering::Relaxed) + 1_000;
        Duration::from_secs(FAKE_EPOCH_SECONDS) + Duration::from_nanos(elapsed)
    }
}
