//! The CPU time a job's guest got, and who is to blame when the wall clock stops it.
//!
//! Fuel is the deterministic bound on a guest's work; the wall clock is a safety net. When the net
//! stops a guest that got less than half of its wall-clock limit in CPU time, the guest was not
//! the one using the time: the host was too busy to run it (or to run it fast enough), and the run
//! says nothing about the program. Such a run is the host's fault, masked, and never remembered.

use std::time::Duration;

/// The CPU time (user and system) the calling thread has used since it started.
pub fn thread_cpu() -> Duration {
    // SAFETY: clock_gettime writes one timespec, a local.
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) } == 0;
    if !ok {
        return Duration::ZERO;
    }
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Whether a guest that the wall clock stopped after `cpu` of CPU time, under a limit of
/// `wall`, was starved by a busy host rather than busy itself: it got less than half its limit.
pub fn starved(cpu: Duration, wall: Duration) -> bool {
    cpu * 2 < wall
}

/// CPU time used across the calls into one job's guest (a live candidate is entered many times).
#[derive(Debug, Clone, Copy)]
pub struct CpuMeter {
    /// Spent in calls that have returned.
    spent: Duration,
    /// The thread's CPU time when the current call began.
    mark: Duration,
}

impl CpuMeter {
    /// A meter that starts counting now, on the calling thread.
    pub fn start() -> Self {
        CpuMeter {
            spent: Duration::ZERO,
            mark: thread_cpu(),
        }
    }

    /// A call into the guest begins on the calling thread.
    pub fn resume(&mut self) {
        self.mark = thread_cpu();
    }

    /// The call that began at the last [`CpuMeter::resume`] returned: its time is kept.
    pub fn pause(&mut self) {
        self.spent += thread_cpu().saturating_sub(self.mark);
        self.mark = thread_cpu();
    }

    /// Counts from zero again (a new step of a long-lived guest).
    pub fn reset(&mut self) {
        *self = CpuMeter::start();
    }

    /// CPU time so far, the call under way included.
    pub fn used(&self) -> Duration {
        self.spent + thread_cpu().saturating_sub(self.mark)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wall_clock_is_blamed_on_whoever_used_it() {
        let wall = Duration::from_secs(2);
        let table = [
            (Duration::from_secs(2), false),
            (Duration::from_millis(1000), false),
            (Duration::from_millis(999), true),
            (Duration::ZERO, true),
        ];
        for (cpu, host_busy) in table {
            assert_eq!(starved(cpu, wall), host_busy, "{cpu:?} of {wall:?}");
        }
    }

    /// Work on the thread counts; time the thread spends asleep does not.
    #[test]
    fn the_meter_counts_the_threads_work_not_its_waits() {
        let mut meter = CpuMeter::start();
        std::thread::sleep(Duration::from_millis(50));
        let asleep = meter.used();
        let spin_until = thread_cpu() + Duration::from_millis(30);
        let mut n = 0u64;
        while thread_cpu() < spin_until {
            n = n.wrapping_add(1);
        }
        meter.pause();
        assert!(n > 0);
        assert!(asleep < Duration::from_millis(40), "{asleep:?}");
        assert!(
            meter.used() >= Duration::from_millis(30),
            "{:?}",
            meter.used()
        );
    }
}
