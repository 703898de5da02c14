//! Runs a compiler outside the sandbox, confined: Linux Landlock lets it open only the paths it is
//! given (its toolchain read-only, one temp directory read-write) and refuses TCP connects and
//! binds; resource limits cap its memory and the files it writes; stdin is empty and stderr is kept
//! up to a cap.
//!
//! Time is bounded by CPU, over the whole process group (the driver and every compiler it
//! starts): a compile that uses its CPU budget is stopped, whatever the machine's load, and that
//! is the program's doing. A wall-clock limit, far above the budget, is only a safety net: a
//! compile it stops without having used its CPU budget was starved by a busy host.

use crate::spawn;
use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreated, RulesetCreatedAttr, path_beneath_rules,
};
use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

/// What a confined process may touch, and for how long.
#[derive(Debug, Clone)]
pub struct Confinement {
    /// Paths (files or directories, with everything beneath) it may read and execute.
    pub readable: Vec<PathBuf>,
    /// Directories it may read, write, create in and delete from.
    pub writable: Vec<PathBuf>,
    /// CPU time (user and system) its whole process group may use before it is killed.
    pub cpu: Duration,
    /// Wall-clock time before its process group is killed, used or not: a safety net.
    pub wall: Duration,
    /// Private memory (`RLIMIT_DATA`) each of its processes may hold.
    pub memory_bytes: u64,
    /// The largest file it may write (`RLIMIT_FSIZE`).
    pub file_bytes: u64,
    /// Bytes of its stderr kept (the rest is read and dropped).
    pub stderr_bytes: usize,
}

/// How a confined process ended.
#[derive(Debug, Clone)]
pub struct Finished {
    /// Whether it exited with status 0.
    pub success: bool,
    /// Its exit code, or `None` when a signal ended it.
    pub code: Option<i32>,
    /// Whether it was killed for using its CPU budget.
    pub cpu_exceeded: bool,
    /// Whether the wall-clock safety net killed it (before it used its CPU budget).
    pub timed_out: bool,
    /// Whether a resource limit (memory, file size, CPU) ended it, as far as the signal tells.
    pub killed_by_limit: bool,
    /// The start of its stderr (at most `stderr_bytes`), lossily decoded.
    pub stderr: String,
    /// The CPU time (user and system) its process group used, as far as it could be seen.
    pub cpu: Duration,
}

/// The Landlock access rights handled: every file-system right of ABI v5 and TCP of ABI v4.
/// Rights the running kernel does not know are dropped (best effort); a kernel without Landlock
/// at all makes the spawn fail with a clear error.
fn ruleset(confinement: &Confinement) -> Result<RulesetCreated, String> {
    let abi = ABI::V5;
    let read = AccessFs::from_read(abi);
    let all = AccessFs::from_all(abi);
    let readable: Vec<&PathBuf> = confinement.readable.iter().filter(|p| p.exists()).collect();
    Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
        .and_then(|r| r.create())
        .and_then(|r| r.add_rules(path_beneath_rules(&readable, read)))
        .and_then(|r| r.add_rules(path_beneath_rules(&confinement.writable, all)))
        .map_err(|e| format!("building the compiler's Landlock rules: {e}"))
}

/// Runs `command` under `confinement` with an empty stdin and no stdout. Its environment is
/// exactly the variables it sets: nothing of this process's environment reaches a compiler.
///
/// Errors are the host's (no Landlock in this kernel, the compiler missing), not the program's.
pub fn run(command: Command, confinement: &Confinement) -> Result<Finished, String> {
    let landlock: Option<std::os::fd::OwnedFd> = ruleset(confinement)?.into();
    let landlock = landlock.ok_or_else(|| {
        "this kernel does not enforce Landlock (Linux 5.13 or newer with Landlock enabled is \
         needed to compile untrusted programs)"
            .to_string()
    })?;
    // A last resort per process, should the group's accounting miss one.
    let cpu_seconds = confinement.cpu.as_secs() * 2 + 2;
    let setup = spawn::Setup {
        // SAFETY: getpid has no preconditions.
        parent: unsafe { libc::getpid() },
        limits: vec![
            (libc::RLIMIT_DATA, confinement.memory_bytes),
            (libc::RLIMIT_FSIZE, confinement.file_bytes),
            (libc::RLIMIT_CPU, cpu_seconds),
            (libc::RLIMIT_CORE, 0),
        ],
        landlock,
    };
    let started = Instant::now();
    let program = command.get_program().to_string_lossy().into_owned();
    let child = spawn::spawn(&command, setup)
        .map_err(|e| format!("starting the compiler {program}: {e}"))?;
    let mut stderr = child.stderr;
    let keep = confinement.stderr_bytes;
    let reader = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buffer = [0u8; 8192];
        while let Ok(n) = stderr.read(&mut buffer) {
            if n == 0 {
                break;
            }
            let room = keep.saturating_sub(kept.len());
            kept.extend_from_slice(&buffer[..n.min(room)]);
        }
        kept
    });
    let pid = child.pid;
    // Woken when the compiler exits (a pidfd is readable then), not by polling: a compile is
    // over when it is, not at the next poll. Kernels before 5.3 have no pidfd: short sleeps then.
    let exited = PidFd::open(pid);
    let mut timed_out = false;
    let mut cpu_exceeded = false;
    let mut pause = Duration::from_millis(1);
    // The group's CPU is first read once it can have used some.
    let mut next_look = started + CPU_LOOK_INTERVAL;
    let deadline = started + confinement.wall;
    // wait4 rather than Child::try_wait: it also reports the CPU time the compiler and the
    // processes it waited for used.
    let mut raw_status: libc::c_int = 0;
    // SAFETY: rusage is plain data; all-zero is a valid value.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let mut group_cpu = Duration::ZERO;
    loop {
        // SAFETY: waits for our own child, with pointers to locals.
        let reaped = unsafe { libc::wait4(pid, &mut raw_status, libc::WNOHANG, &mut usage) };
        if reaped == pid {
            break;
        }
        if reaped < 0 {
            return Err(format!(
                "waiting for the compiler: {}",
                std::io::Error::last_os_error()
            ));
        }
        let now = Instant::now();
        if now >= next_look {
            group_cpu = group_cpu.max(cpu_of_group(pid));
            next_look = now + CPU_LOOK_INTERVAL;
        }
        cpu_exceeded = group_cpu >= confinement.cpu;
        timed_out = !cpu_exceeded && now >= deadline;
        if cpu_exceeded || timed_out {
            // SAFETY: kills the process group the child leads (it was started with its own),
            // then reaps the child, as above.
            unsafe {
                libc::killpg(pid, libc::SIGKILL);
                if libc::wait4(pid, &mut raw_status, 0, &mut usage) != pid {
                    return Err(format!(
                        "waiting for the compiler: {}",
                        std::io::Error::last_os_error()
                    ));
                }
            }
            break;
        }
        let until = next_look.min(deadline).saturating_duration_since(now);
        match &exited {
            Some(exited) => exited.wait(until.max(Duration::from_millis(1))),
            None => {
                std::thread::sleep(pause.min(until).max(Duration::from_micros(100)));
                pause = (pause * 2).min(Duration::from_millis(10));
            }
        }
    }
    let status = std::process::ExitStatus::from_raw(raw_status);
    let seconds = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    // The driver and what it waited for, and what is left of its group (helpers it did not wait
    // for, or compilers killed with it): the most the group was seen to use. A group with no
    // process left (the usual end) is not looked for in /proc.
    // SAFETY: signal 0 only checks whether the group has a process.
    let group_left = unsafe { libc::killpg(pid, 0) } == 0;
    let left = if group_left {
        cpu_of_group(pid)
    } else {
        Duration::ZERO
    };
    let cpu = (seconds(usage.ru_utime) + seconds(usage.ru_stime) + left).max(group_cpu);
    // Helpers the compiler started may still hold stderr open: end them with it.
    // SAFETY: as above; the group may already be gone, which is fine.
    unsafe { libc::killpg(pid, libc::SIGKILL) };
    let stderr = reader.join().unwrap_or_default();
    let signal = status.signal();
    Ok(Finished {
        success: status.success(),
        code: status.code(),
        cpu_exceeded,
        timed_out,
        killed_by_limit: matches!(
            signal,
            Some(libc::SIGKILL | libc::SIGXCPU | libc::SIGXFSZ | libc::SIGSEGV)
        ) && !timed_out
            && !cpu_exceeded,
        stderr: String::from_utf8_lossy(&stderr).into_owned(),
        cpu,
    })
}

/// A pidfd of a child process (Linux 5.3+): readable once the process has exited.
struct PidFd(std::os::fd::OwnedFd);

impl PidFd {
    /// The pidfd of `pid`, or `None` when the kernel has none.
    fn open(pid: libc::pid_t) -> Option<PidFd> {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open takes a pid and flags and returns a new descriptor or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid, 0) };
        // SAFETY: a descriptor pidfd_open just returned, owned by nothing else.
        (fd >= 0).then(|| PidFd(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd as i32) }))
    }

    /// Waits until the process has exited or `timeout` has passed, whichever is first.
    fn wait(&self, timeout: Duration) {
        use std::os::fd::AsRawFd;
        let mut poll = libc::pollfd {
            fd: self.0.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
        // SAFETY: one pollfd, a local. An interrupted or failed poll only returns early: the
        // caller looks again.
        unsafe { libc::poll(&mut poll, 1, millis) };
    }
}

/// How often the process group's CPU time is read while it runs.
const CPU_LOOK_INTERVAL: Duration = Duration::from_millis(25);

/// The CPU time (user and system, its own and that of the children it reaped) of every live
/// process in process group `group`, from `/proc`.
pub fn cpu_of_group(group: libc::pid_t) -> Duration {
    // SAFETY: sysconf has no preconditions.
    let ticks_per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) }.max(1) as u64;
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    let mut ticks = 0u64;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(|n| n.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        // Fields after the command name: state, ppid, pgrp, ..., utime (11), stime (12),
        // cutime (13), cstime (14), counted from 0.
        let Some(after) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.len() < 15 || fields[2].parse::<libc::pid_t>().ok() != Some(group) {
            continue;
        }
        ticks += fields[11..15]
            .iter()
            .map(|f| f.parse::<u64>().unwrap_or(0))
            .sum::<u64>();
    }
    Duration::from_millis(ticks * 1000 / ticks_per_second)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn confinement(dir: &std::path::Path) -> Confinement {
        Confinement {
            readable: vec![
                "/bin".into(),
                "/usr".into(),
                "/lib".into(),
                "/lib64".into(),
                "/etc/ld.so.cache".into(),
                // The shell gives background jobs /dev/null for stdin.
                "/dev/null".into(),
            ],
            writable: vec![dir.to_path_buf()],
            cpu: Duration::from_secs(5),
            wall: Duration::from_secs(60),
            memory_bytes: 256 << 20,
            file_bytes: 1 << 20,
            stderr_bytes: 4096,
        }
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("rewardbox-confine-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn reads_only_what_it_is_given() {
        let dir = temp_dir("read");
        std::fs::write(dir.join("mine"), "visible").unwrap();
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(format!(
            "cat {}/mine >&2; cat /etc/passwd >&2; cat /dev/zero >&2; echo done >&2",
            dir.display()
        ));
        let finished = run(command, &confinement(&dir)).unwrap();
        assert!(finished.stderr.contains("visible"), "{}", finished.stderr);
        assert!(!finished.stderr.contains("root:"), "{}", finished.stderr);
        assert!(
            finished.stderr.contains("/etc/passwd: Permission denied"),
            "{}",
            finished.stderr
        );
        assert!(
            finished.stderr.contains("/dev/zero: Permission denied"),
            "{}",
            finished.stderr
        );
        assert!(finished.stderr.contains("done"));
        std::fs::remove_dir_all(dir).ok();
    }

    /// A process that waits without working is stopped by the wall-clock net, having used
    /// almost none of its CPU budget: what a starved compile looks like.
    #[test]
    fn a_wait_is_stopped_by_the_wall_clock_net_with_its_cpu_unused() {
        let dir = temp_dir("hang");
        let mut limits = confinement(&dir);
        limits.wall = Duration::from_millis(300);
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg("sleep 30 & sleep 30");
        let finished = run(command, &limits).unwrap();
        assert!(finished.timed_out && !finished.cpu_exceeded, "{finished:?}");
        assert!(!finished.success);
        assert!(finished.cpu < limits.cpu, "{:?}", finished.cpu);
        std::fs::remove_dir_all(dir).ok();
    }

    /// Work is stopped at the CPU budget of the whole group, counted over every process in it
    /// (here two busy children of the shell, killed with it), whatever the machine's load: CPU
    /// time only grows while the group runs.
    #[test]
    fn work_is_stopped_at_the_cpu_budget_of_the_whole_group() {
        let dir = temp_dir("busy");
        let mut limits = confinement(&dir);
        limits.cpu = Duration::from_millis(600);
        limits.wall = Duration::from_secs(600);
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg("(while :; do :; done) & (while :; do :; done) & wait");
        let finished = run(command, &limits).unwrap();
        assert!(finished.cpu_exceeded && !finished.timed_out, "{finished:?}");
        assert!(finished.cpu >= limits.cpu, "{:?}", finished.cpu);
        std::fs::remove_dir_all(dir).ok();
    }

    /// A compiler gets nothing of this process's environment (its `PATH`, a server's secrets):
    /// only the variables its command sets.
    #[test]
    fn the_environment_is_only_what_the_command_sets() {
        let dir = temp_dir("env");
        assert!(
            std::env::var_os("PATH").is_some(),
            "the test process has a PATH"
        );
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg("/usr/bin/env >&2")
            .env("REWARDBOX_ONLY", "1");
        let finished = run(command, &confinement(&dir)).unwrap();
        assert!(finished.success, "{finished:?}");
        let variables: Vec<&str> = finished
            .stderr
            .lines()
            .filter_map(|line| line.split('=').next())
            .collect();
        assert!(variables.contains(&"REWARDBOX_ONLY"), "{variables:?}");
        assert!(!variables.contains(&"PATH"), "{variables:?}");
        assert!(!variables.contains(&"HOME"), "{variables:?}");
        std::fs::remove_dir_all(dir).ok();
    }

    /// The compiler starts as a freshly executed program: no signal blocked or ignored (this
    /// process ignores `SIGPIPE`, as every Rust program does), in a process group of its own,
    /// in its working directory, with the resource limits of its confinement.
    #[test]
    fn the_compiler_starts_clean_in_its_group_directory_and_limits() {
        let dir = temp_dir("clean");
        let mut limits = confinement(&dir);
        limits.readable.push("/proc".into());
        let mut command = Command::new("sh");
        command.current_dir(&dir).arg("-c").arg(
            "grep -E '^Sig(Blk|Ign)' /proc/self/status >&2; \
             echo pgid=$(cut -d' ' -f5 /proc/self/stat) pid=$$ >&2; pwd >&2; ulimit -d >&2; \
             ulimit -f >&2",
        );
        let finished = run(command, &limits).unwrap();
        assert!(finished.success, "{finished:?}");
        let lines: Vec<&str> = finished.stderr.lines().collect();
        assert!(
            lines.contains(&"SigBlk:\t0000000000000000"),
            "{}",
            finished.stderr
        );
        assert!(
            lines.contains(&"SigIgn:\t0000000000000000"),
            "{}",
            finished.stderr
        );
        // `cut` runs in the shell's group, which the shell leads.
        let group = lines
            .iter()
            .find_map(|l| l.strip_prefix("pgid="))
            .expect("the group line");
        let (pgid, pid) = group.split_once(" pid=").expect("pgid and pid");
        assert_eq!(pgid, pid, "{}", finished.stderr);
        assert!(
            lines.contains(&dir.to_str().unwrap()),
            "{}",
            finished.stderr
        );
        // The shell's `ulimit` counts -d in KiB and -f in 512-byte blocks.
        assert!(
            lines.contains(&(limits.memory_bytes / 1024).to_string().as_str()),
            "{}",
            finished.stderr
        );
        assert!(
            lines.contains(&(limits.file_bytes / 512).to_string().as_str()),
            "{}",
            finished.stderr
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// A compiler that cannot be started is the host's error, saying why.
    #[test]
    fn a_missing_compiler_is_an_error_that_names_it() {
        let dir = temp_dir("missing");
        let error = run(Command::new("/nonexistent/cc"), &confinement(&dir)).unwrap_err();
        assert!(error.contains("/nonexistent/cc"), "{error}");
        assert!(error.contains("No such file"), "{error}");
        let error = run(
            Command::new("rewardbox-no-such-compiler"),
            &confinement(&dir),
        )
        .unwrap_err();
        assert!(error.contains("not found on PATH"), "{error}");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn stderr_is_kept_up_to_its_cap() {
        let dir = temp_dir("flood");
        let mut command = Command::new("/bin/sh");
        command
            .arg("-c")
            .arg("i=0; while [ $i -lt 3000 ]; do echo 0123456789 >&2; i=$((i+1)); done");
        let finished = run(command, &confinement(&dir)).unwrap();
        assert!(finished.success);
        assert_eq!(finished.stderr.len(), 4096);
        std::fs::remove_dir_all(dir).ok();
    }
}
