//! A time limit in seconds, as a user or a client sets it (`run_timeout`, a candidate's `wall_ms`),
//! turned into the limits of one run in a given runner.
//!
//! The bound that decides a verdict is fuel, so that the same program gets the same verdict on any
//! machine under any load. A second of limit buys a quarter of the fuel that the most fuel-hungry
//! of the calibration programs burns in rewardbox for the work its native equivalent (`python3`,
//! `gcc -O2`, `g++ -O2`, `rustc -O`) does in one second of CPU on the calibration machine (`cargo
//! bench --bench fuel_rate`; its table is in docs/reference/limits.md): a program of those kinds that finishes
//! natively within a quarter of the limit is never stopped, and one that natively needs several
//! times the limit is. The wall clock is only a net, far above the time that fuel takes to burn in
//! the sandbox at the slowest calibrated pace: a run stopped by it without having used its time was
//! starved by the host, never judged.
//!
//! JavaScript is the exception: Boa, an interpreter, needs 50 to 900 times the fuel per second of
//! Node's JIT, so no budget matches Node without letting a loop run for minutes; a second of
//! JavaScript limit buys about three seconds of Boa's work at its slowest.

use rewardbox_sandbox::limits::Limits;
use rewardbox_toolchains::Language;

/// How a runner turns seconds of limit into fuel, and how fast its fuel burns.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FuelRate {
    /// Fuel a second of limit buys: a quarter of the most any calibration program used per
    /// second of its native equivalent's CPU time, rounded up.
    pub per_native_second: f64,
    /// Fuel the slowest calibration program burned per second of the sandbox's wall time,
    /// rounded down: what the wall-clock net is sized with.
    pub per_sandbox_second: f64,
}

/// How far the wall-clock net sits above the time a run's fuel takes to burn on the calibration
/// machine, for machines slower or busier than it.
pub const WALL_NET_FACTOR: f64 = 3.0;

/// The calibrated rate of a runner (`crates/rewardbox/benches/fuel_rate.rs`; figures in docs/reference/limits.md).
pub fn fuel_rate(language: Language) -> FuelRate {
    // Measured by `cargo bench --bench fuel_rate` (2026-11-24, the 2-core calibration machine):
    // most fuel per native second / least fuel per sandboxed second of the six programs.
    // Python 4.50e10 (loop) / 7.14e9 (strings); C 4.27e10 (sprintf) / 2.88e9 (table);
    // C++ 3.56e10 / 1.57e9 (unordered_map); Rust 2.90e10 / 3.28e9 (loop); JavaScript (Node)
    // 8.9e12 / 7.12e9. C++ takes C's rate: a C program is a C++ program too. Measured again on
    // 2026-11-25 with C++ compiled for exceptions: C++ 3.48e10 (recursion) / 7.31e8
    // (unordered_map), so its wall-clock net is sized for 7.0e8 fuel per second.
    //
    // Measured again on 2026-11-27, on a machine about 2.6 times slower than the calibration one
    // (C's strings program: 1.64e10 fuel per native second against 4.27e10; the `exact` sandbox
    // bench 28 us against 10.1 us), so its per-second figures are scaled by 2.6 here. Two had
    // drifted: Rust compiled with cargo test's semantics (overflow checks and debug assertions,
    // since 2026-11-25; the native twin is still `rustc -O`) burns 3.91e10 fuel per native
    // second sorting (sort's generic code is compiled with the checks), about 1.0e11 on the
    // calibration machine, so a second of its limit buys 2.6e10 (`rust-release` keeps the
    // release build's 7.5e9); C's hash table, grown since, burns 6.74e8 per sandboxed second
    // (about 1.75e9), so its net is sized for 1.6e9.
    let (per_native_second, per_sandbox_second) = match language {
        Language::Python => (1.2e10, 7.0e9),
        Language::C => (1.1e10, 1.6e9),
        Language::Cpp => (1.1e10, 7.0e8),
        Language::Rust => (2.6e10, 3.2e9),
        Language::RustRelease => (7.5e9, 3.2e9),
        // TypeScript runs as JavaScript once its types are stripped.
        Language::JavaScript | Language::TypeScript => (2.0e10, 7.0e9),
        // Go (2026-11-25): 4.80e10 (recursion) / 2.21e9 (map).
        Language::Go => (1.2e10, 2.2e9),
    };
    FuelRate {
        per_native_second,
        per_sandbox_second,
    }
}

/// Fuel a candidate's sleep costs per millisecond in `language`'s runner: what a millisecond of
/// its time limit buys, so that sleeping N seconds costs what N seconds of limit are worth and a
/// program sleeping past its limit ends as natively, out of time.
pub fn sleep_fuel_per_ms(language: Language) -> u64 {
    (fuel_rate(language).per_native_second / 1000.0).ceil() as u64
}

/// `base` with its fuel and wall-clock net set for a limit of `seconds` in `language`'s runner.
pub fn limits_for_seconds(language: Language, seconds: f64, base: Limits) -> Limits {
    let rate = fuel_rate(language);
    let seconds = seconds.max(0.0);
    let fuel = (seconds * rate.per_native_second).min(u64::MAX as f64 / 2.0) as u64;
    let burn_seconds = fuel as f64 / rate.per_sandbox_second;
    Limits {
        fuel: fuel.max(1),
        wall_ms: (burn_seconds * WALL_NET_FACTOR * 1000.0) as u64 + 1000,
        ..base
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_longer_limit_buys_proportionally_more_fuel_and_a_longer_net() {
        for language in Language::ALL {
            let one = limits_for_seconds(language, 1.0, Limits::default());
            let ten = limits_for_seconds(language, 10.0, Limits::default());
            assert_eq!(ten.fuel, one.fuel * 10, "{language:?}");
            assert!(ten.wall_ms > one.wall_ms, "{language:?}");
            // The net is above the limit itself: the sandbox burns fuel no faster than
            // calibrated, so the limit's fuel takes at least the limit's time.
            assert!(one.wall_ms > 1000, "{language:?}");
        }
    }

    #[test]
    fn the_wall_net_leaves_the_fuel_room_to_burn() {
        for language in Language::ALL {
            let rate = fuel_rate(language);
            let limits = limits_for_seconds(language, 2.0, Limits::default());
            let burn_ms = limits.fuel as f64 / rate.per_sandbox_second * 1000.0;
            assert!(
                limits.wall_ms as f64 >= burn_ms * WALL_NET_FACTOR,
                "{language:?}"
            );
        }
    }

    #[test]
    fn a_sleep_costs_what_the_same_time_of_limit_buys() {
        for language in Language::ALL {
            let limits = limits_for_seconds(language, 2.0, Limits::default());
            let two_seconds_asleep = 2_000 * sleep_fuel_per_ms(language);
            assert!(two_seconds_asleep >= limits.fuel, "{language:?}");
            assert!(two_seconds_asleep - limits.fuel < 2_000, "{language:?}");
            assert!(
                sleep_fuel_per_ms(language) >= rewardbox_sandbox::job::SLEEP_FUEL_PER_MS,
                "{language:?}: the default rate is the least of the runners'"
            );
        }
    }

    #[test]
    fn everything_but_fuel_and_wall_is_kept() {
        let base = Limits {
            memory_bytes: 5 << 20,
            output_bytes: 77,
            ..Limits::default()
        };
        let limits = limits_for_seconds(Language::C, 0.5, base);
        assert_eq!((limits.memory_bytes, limits.output_bytes), (5 << 20, 77));
        assert_eq!(limits_for_seconds(Language::C, 0.0, base).fuel, 1);
    }
}
