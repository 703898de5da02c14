//! The clocks a guest sees: fake and deterministic, so that the same program reads the same times
//! on any machine under any load. Each reading advances them a little, so that a loop waiting for
//! time to pass still ends; a candidate's sleep advances them by its length (see
//! [`crate::sleep`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use wasmtime_wasi::{HostMonotonicClock, HostWallClock};

/// 2024-01-01T00:00:00Z in seconds since the Unix epoch.
pub const FAKE_EPOCH_SECONDS: u64 = 1_704_067_200;

/// How far a reading of either clock advances the guest's time.
const TICK_NS: u64 = 1_000;

/// A job's own time: nanoseconds since it started, shared by its monotonic and wall clocks.
#[derive(Clone, Default)]
pub struct FakeTime(Arc<AtomicU64>);

impl FakeTime {
    /// Moves the guest's time forward by `nanos` (a sleep that did not really wait).
    pub fn advance(&self, nanos: u64) {
        self.0.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The guest's time after one more reading.
    fn read(&self) -> u64 {
        self.0.fetch_add(TICK_NS, Ordering::Relaxed) + TICK_NS
    }

    /// A monotonic clock over this time, starting at zero.
    pub fn monotonic(&self) -> FakeMonotonicClock {
        FakeMonotonicClock(self.clone())
    }

    /// A wall clock over this time, starting at 2024-01-01T00:00:00Z.
    pub fn wall(&self) -> FakeWallClock {
        FakeWallClock(self.clone())
    }
}

/// A monotonic clock that advances one microsecond per reading.
pub struct FakeMonotonicClock(FakeTime);

impl HostMonotonicClock for FakeMonotonicClock {
    fn resolution(&self) -> u64 {
        TICK_NS
    }

    fn now(&self) -> u64 {
        self.0.read()
    }
}

/// A wall clock that starts at 2024-01-01T00:00:00Z and advances one microsecond per reading.
pub struct FakeWallClock(FakeTime);

impl HostWallClock for FakeWallClock {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(TICK_NS)
    }

    fn now(&self) -> Duration {
        Duration::from_secs(FAKE_EPOCH_SECONDS) + Duration::from_nanos(self.0.read())
    }
}
