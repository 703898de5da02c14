//! Sleeps: WASI's `monotonic-clock.subscribe-duration` and `subscribe-instant`, shadowed.
//!
//! The wall-clock limit is enforced by epoch interruption, which stops wasm code but not a host
//! call the guest is blocked in: unshadowed, `time.sleep(3600)` under a 2 s limit would hold its
//! thread for an hour. Two policies:
//!
//! - [`cap_sleeps`], for trusted instances (verifiers, episode scripts): a sleep really waits,
//!   but never past what is left of the job's wall-clock budget (plus a tick), after which the
//!   next epoch check ends the job.
//! - [`charge_sleeps`], for candidates: a sleep does not wait at all. A candidate's sandbox holds
//!   nothing that could change while it waits (no network, no other process, fake clocks), so a
//!   sleep is only time passing on its fake clocks: they advance by the sleep's length, and the
//!   sleep costs the fuel its runner's time limit gives that long (the job's rate, set by the
//!   runner from its calibration: `runners::time_limit::sleep_fuel_per_ms`; the
//!   [default](crate::job::SLEEP_FUEL_PER_MS) where no runner set one). Sleeping past a
//!   time limit so ends the run as working past it does, deterministically, and costs none of the
//!   host's time.

use crate::job::JobState;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use wasmtime::component::{Linker, Resource};
use wasmtime::{StoreContextMut, Trap};
use wasmtime_wasi::clocks::WasiClocksView;
use wasmtime_wasi::p2::DynPollable;
use wasmtime_wasi::p2::bindings::clocks::monotonic_clock::Host as MonotonicClock;

/// The monotonic-clock interface as `wasmtime_wasi::p2::add_to_linker_sync` registers it.
const MONOTONIC_CLOCK: &str = "wasi:clocks/monotonic-clock@0.2.12";

/// Replaces the two ways a guest subscribes to the monotonic clock in `linker` (which must
/// already hold WASI) with ones that really wait, capped at the job's wall-clock deadline, and
/// that end at once when the job's caller gives up (see [`crate::cancel`]).
pub fn cap_sleeps<X: Send + 'static>(linker: &mut Linker<JobState<X>>) -> anyhow::Result<()> {
    shadow_sleeps(linker, |store, nanos| {
        let state = store.data_mut();
        let capped = state.capped_sleep(nanos);
        let sleep = CancellableSleep {
            until: tokio::time::Instant::now() + Duration::from_nanos(capped),
            cancel: state.cancel_flag(),
        };
        let resource = state.table().push(sleep)?;
        wasmtime_wasi::p2::subscribe(state.table(), resource)
    })
}

/// How often a trusted instance's sleep looks at its job's cancellation flag.
const CANCEL_CHECK: Duration = Duration::from_millis(10);

/// A trusted instance's sleep: waits until `until`, or until its job's caller gives up.
struct CancellableSleep {
    until: tokio::time::Instant,
    cancel: Option<Arc<AtomicBool>>,
}

#[wasmtime_wasi::async_trait]
impl wasmtime_wasi::p2::Pollable for CancellableSleep {
    async fn ready(&mut self) {
        loop {
            let now = tokio::time::Instant::now();
            if now >= self.until || crate::cancel::is_set(&self.cancel) {
                return;
            }
            tokio::time::sleep_until(self.until.min(now + CANCEL_CHECK)).await;
        }
    }
}

/// Replaces the two ways a guest subscribes to the monotonic clock in `linker` (which must
/// already hold WASI) with sleeps that advance the guest's fake clocks, charge it the job's
/// sleep rate, and return at once. A sleep the guest's fuel cannot pay for ends it,
/// out of fuel.
pub fn charge_sleeps<X: Send + 'static>(linker: &mut Linker<JobState<X>>) -> anyhow::Result<()> {
    shadow_sleeps(linker, |store, nanos| {
        let cost = sleep_fuel(nanos, store.data().sleep_fuel_per_ms());
        // An engine without fuel metering (a benchmark's) has no budget to charge.
        if let Ok(fuel) = store.get_fuel() {
            if cost > fuel {
                store.set_fuel(0)?;
                return Err(Trap::OutOfFuel.into());
            }
            store.set_fuel(fuel - cost)?;
        }
        let state = store.data_mut();
        state.time().advance(nanos);
        state.clocks().subscribe_duration(0)
    })
}

/// The fuel a sleep of `nanos` costs at `fuel_per_ms`, rounded up to a whole microsecond's.
fn sleep_fuel(nanos: u64, fuel_per_ms: u64) -> u64 {
    let micros = u128::from(nanos.div_ceil(1_000));
    let fuel = (micros * u128::from(fuel_per_ms)).div_ceil(1_000);
    u64::try_from(fuel).unwrap_or(u64::MAX)
}

/// What a sleep policy does with a sleep of so many nanoseconds: the pollable the guest waits on.
type Sleep<X> =
    fn(&mut StoreContextMut<'_, JobState<X>>, u64) -> wasmtime::Result<Resource<DynPollable>>;

/// Shadows `subscribe-duration` and `subscribe-instant` (by the guest's own fake clock, as WASI
/// computes it) with `sleep`, given the store and the sleep's length in nanoseconds.
fn shadow_sleeps<X: Send + 'static>(
    linker: &mut Linker<JobState<X>>,
    sleep: Sleep<X>,
) -> anyhow::Result<()> {
    linker.allow_shadowing(true);
    let mut clock = linker.instance(MONOTONIC_CLOCK)?;
    clock.func_wrap(
        "subscribe-duration",
        move |mut store: StoreContextMut<'_, JobState<X>>, (nanos,): (u64,)| {
            Ok((sleep(&mut store, nanos)?,))
        },
    )?;
    clock.func_wrap(
        "subscribe-instant",
        move |mut store: StoreContextMut<'_, JobState<X>>, (when,): (u64,)| {
            let now = store.data_mut().clocks().now()?;
            Ok((sleep(&mut store, when.saturating_sub(now))?,))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::job::SLEEP_FUEL_PER_MS;

    #[test]
    fn a_sleep_costs_fuel_by_its_length() {
        let rate = 12_000_000; // CPython's: 1.2e10 fuel per second of limit
        let table = [
            (0, 0),
            (1, 12_000),
            (1_000, 12_000),
            (1_000_000, rate),
            (5_000_000_000, 5_000 * rate),
            (3_600_000_000_000, 3_600_000 * rate),
            (u64::MAX, u64::MAX),
        ];
        for (nanos, fuel) in table {
            assert_eq!(sleep_fuel(nanos, rate), fuel, "{nanos} ns");
        }
        assert_eq!(sleep_fuel(1_000_000, SLEEP_FUEL_PER_MS), SLEEP_FUEL_PER_MS);
    }
}
