//! Floor 0 of rewardbox: child processes tied to their parent.
//!
//! Child processes that never outlive the process that started them.
//!
//! rewardbox starts helper processes (scoring workers, an attacker command; the confined compilers
//! are started by `rewardbox-toolchains`, which ties them to their parent the same way).
//! Each must end when its parent ends, whatever it is doing at that moment: scoring a long
//! batch, blocked in a read, or blocked writing a large answer to a parent that no longer reads.
//! Two mechanisms, either of which suffices:
//!
//! - [`bind_to_parent`], on the parent's side: the kernel sends the child `SIGKILL` when the
//!   thread that started it ends (Linux `PR_SET_PDEATHSIG`, set in the child before `exec`), and
//!   the child checks right away that its parent is still the one that started it, so that a
//!   parent dying between `fork` and `prctl` is not missed;
//! - [`watch_parent`], in a child that runs rewardbox's own code: a thread that ends the process
//!   as soon as its parent is no longer the process named in [`PARENT_ENV`]. It does not depend on
//!   the child reading any pipe, and covers a parent whose spawning thread is not the one that
//!   keeps it alive.
//!
//! Pipe ends are never inherited by siblings: the standard library opens every pipe and file
//! with `O_CLOEXEC`, and nothing here clears it.

#![deny(missing_docs)]

use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The environment variable through which a child learns its parent's process id.
pub const PARENT_ENV: &str = "REWARDBOX_PARENT_PID";

/// How often [`watch_parent`] looks at its parent.
pub const WATCH_INTERVAL: Duration = Duration::from_millis(50);

/// Makes the process `command` starts end when this process ends: `SIGKILL` from the kernel
/// when the calling thread ends (so call it on a thread that lives as long as the child is
/// needed, as the thread that waits for it does), and [`PARENT_ENV`] for [`watch_parent`].
pub fn bind_to_parent(command: &mut Command) {
    // SAFETY: getpid has no preconditions.
    let parent = unsafe { libc::getpid() };
    command.env(PARENT_ENV, parent.to_string());
    // SAFETY: the closure runs in the forked child before exec and makes only async-signal-safe
    // system calls (prctl, getppid) on a value copied in before the fork.
    unsafe {
        command.pre_exec(move || die_with(parent));
    }
}

/// Starts a user's shell command (`sh -c cmd`: an attacker, an external policy) bound to this
/// process, its standard input and output piped to the caller, its standard error the caller's.
pub fn spawn_shell(cmd: &str) -> Result<Child, String> {
    let mut command = Command::new("sh");
    bind_to_parent(&mut command);
    command
        .arg("-c")
        .arg(cmd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start `{cmd}`: {e}"))
}

/// In a child being set up (`pre_exec`): asks the kernel for `SIGKILL` when the parent's
/// spawning thread ends, and fails the spawn when `parent` has already gone.
///
/// Only async-signal-safe system calls: usable between `fork` and `exec`.
pub fn die_with(parent: libc::pid_t) -> std::io::Result<()> {
    // SAFETY: prctl with PR_SET_PDEATHSIG takes a signal number and no pointers.
    if unsafe {
        libc::prctl(
            libc::PR_SET_PDEATHSIG,
            libc::SIGKILL as libc::c_ulong,
            0,
            0,
            0,
        )
    } != 0
    {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: getppid has no preconditions.
    if unsafe { libc::getppid() } != parent {
        return Err(std::io::Error::other(
            "the parent process ended before its child started",
        ));
    }
    Ok(())
}

/// In a child started with [`bind_to_parent`] (or with [`PARENT_ENV`] set by hand): starts a
/// thread that ends this process with `SIGKILL` as soon as its parent is no longer that
/// process. Does nothing when [`PARENT_ENV`] is unset or not a process id, so the program still
/// runs when started by hand. Returns whether a watch started.
pub fn watch_parent() -> bool {
    let Some(parent) = std::env::var(PARENT_ENV)
        .ok()
        .and_then(|v| v.parse::<libc::pid_t>().ok())
        .filter(|&pid| pid > 0)
    else {
        return false;
    };
    // A child started by other means still dies with its parent's thread from now on.
    let _ = die_with(parent);
    std::thread::Builder::new()
        .name("rewardbox-lifeline".into())
        .spawn(move || {
            loop {
                // SAFETY: getppid has no preconditions.
                if unsafe { libc::getppid() } != parent {
                    end_now();
                }
                std::thread::sleep(WATCH_INTERVAL);
            }
        })
        .is_ok()
}

/// Ends this process at once: nothing it holds (a half-written answer, a guest mid-call) is
/// worth finishing for a parent that is gone.
fn end_now() -> ! {
    // SAFETY: sends a signal to this very process; SIGKILL cannot be caught.
    unsafe {
        libc::kill(libc::getpid(), libc::SIGKILL);
    }
    std::process::abort()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Stdio;

    /// A child bound to a parent that is gone is refused at spawn.
    #[test]
    fn a_spawn_for_a_parent_that_is_gone_fails() {
        let mut command = Command::new("/bin/true");
        // SAFETY: as in bind_to_parent; pid 1 is never this test's process.
        unsafe {
            command.pre_exec(|| die_with(1));
        }
        let error = command.stdout(Stdio::null()).spawn().err();
        assert!(
            error.is_some(),
            "a child whose parent is not pid 1 must not start"
        );
    }

    #[test]
    fn a_bound_child_starts_and_sees_its_parent() {
        let mut command = Command::new("/bin/sh");
        command.arg("-c").arg(format!("echo ${PARENT_ENV}"));
        bind_to_parent(&mut command);
        let output = command.output().expect("the child starts");
        let printed = String::from_utf8_lossy(&output.stdout);
        assert_eq!(printed.trim(), std::process::id().to_string());
    }
}
