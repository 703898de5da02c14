//! Sleeps that end with the wall clock: WASI's `monotonic-clock.subscribe-duration` and
//! `subscribe-instant`, shadowed so that a guest's wait is never longer than what is left of its
//! job's wall-clock budget.
//!
//! The wall-clock limit is enforced by epoch interruption, which stops wasm code but not a host
//! call the guest is blocked in: without the cap, `time.sleep(3600)` under a 2 s limit would hold
//! its thread for an hour. With it, the sleep ends at the deadline (plus a tick), and the next
//! epoch check ends the job with `timeout`.

use crate::sandbox::job::JobState;
use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource};
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock::Host as MonotonicClock;

/// The monotonic-clock interface as `wasmtime_wasi::p2::add_to_linker_sync` registers it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces the two ways a guest subscribes to the monotonic clock in `linker` (which must
/// already hold WASI) with capped ones.
pub fn cap_sleeps<X: Send + 'static>(linker: &mut Linker<JobState<X>>) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap(
        "subscribe-duration",
        |mut store: StoreContextMut<'_, JobState<X>>, (nanos,): (u64,)| {
            let state = store.data_mut();
            let capped = state.capped_sleep(nanos);
            let pollable: Resource<DynPollable> = state.clocks().subscribe_duration(capped)?;
            Ok((pollable,))
        },
    )?;
    clock.func_wrap(
        "subscribe-instant",
        |mut store: StoreContextMut<'_, JobState<X>>, (when,): (u64,)| {
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
