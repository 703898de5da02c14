//! Sleeps that end with the wall clock: WASI's `monotonic-clock.subscribe-duration` and
//! `subscribe-instant`, shadowed so that a guest's wait is never longer than what is left of its
//! job's wall-clock budget.
//!
//! The wall-clock limit is enforced by epoch interruption, which stops wasm code but not a host
//! call the guest is blocked in: without the cap, `time.sleep(3600)` under a 2 s limit would hold
//! its thread for an hour. With it, the sleep ends at the deadline (plus a tick), and the next
//! epoch check ends the job with `timeout`.

use crate::engine::EPOCH_TICK;
use crate::sandbox::JobState;
use std::time::Instant;
use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock::Host as MonotonicClock;

/// The monotonic-clock interface as `wasmtime_wasi::p2::add_to_linker_sync` registers it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces the two ways a guest subscribes to the monotonic clock in `linker` (which must
/// already hold WASI) with capped ones.
pub fn cap_sleeps(linker: &mut Linker<JobState>) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap(
        "subscribe-duration",
        |mut store: StoreContextMut<'_, JobState>, (nanos,): (u64,)| {
            let state = store.data_mut();
            let capped = state.capped_sleep(nanos);
            let pollable: Resource<DynPollable> = state.clocks().subscribe_duration(capped)?;
            Ok((pollable,))
        },
    )?;
    clock.func_wrap(
        "subscribe-instant",
        |mut store: StoreContextMut<'_, JobState>, (when,): (u64,)| {
            let state = store.data_mut();
            // By the guest's own (fake) clock, as WASI computes it, then capped.
            let now = state.clocks().now()?;
            let capped = state.capped_sleep(when.saturating_sub(now));
            let pollable: Resource<DynPollable> = state.clocks().subscribe_duration(capped)?;
            Ok((pollable,))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// `nanos`, or less: what is left until `deadline` plus two epoch ticks, so that the epoch
/// deadline has passed when the sleep ends.
pub fn cap(nanos: u64, deadline: Instant) -> u64 {
    let left = deadline.saturating_duration_since(Instant::now()) + EPOCH_TICK * 2;
    nanos.min(u64::try_from(left.as_nanos()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

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
