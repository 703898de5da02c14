//! Starting a confined compiler without copying this process.
//!
//! `std::process::Command` with a `pre_exec` step (which confinement needs: Landlock, resource
//! limits, the parent-death signal) starts the child with `fork`, and `fork` copies the page
//! tables of the whole process: the engine's pool of instance memories kept resident, its
//! compiled code, a trainer's tensors when rewardbox runs inside one. The `exec` right after
//! then tears that copy down. For a small C program that was about a fifth of its whole cost
//! from source to verdict (`perf`: `copy_page_range` under `_Fork`, `exit_mmap` under
//! `execve`), and it grows with the process.
//!
//! [`spawn`] starts the child the way `posix_spawn` does (`clone` with `CLONE_VM |
//! CLONE_VFORK`): the child borrows this process's memory, the calling thread waits until the
//! child has called `execve` (or failed before it), and nothing is copied. Everything the child
//! needs is prepared before the `clone`; the child itself makes only system calls on that data
//! (no allocation, no lock), with every signal blocked until its handlers are back to their
//! defaults, so no handler of this process runs on the borrowed memory.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

/// What the child sets up before it becomes the program: given by [`crate::confine`].
pub(crate) struct Setup {
    /// The process that must be alive for the child to run (it is killed when that process's
    /// spawning thread ends).
    pub parent: libc::pid_t,
    /// Resource limits (`RLIMIT_*`, value), each set as both soft and hard limit.
    pub limits: Vec<(libc::__rlimit_resource_t, u64)>,
    /// A Landlock ruleset the child restricts itself with.
    pub landlock: OwnedFd,
}

/// A started child: its process id (the leader of its own process group) and the read end of
/// its standard error. Its standard input and output are `/dev/null`.
pub(crate) struct Started {
    pub pid: libc::pid_t,
    pub stderr: File,
}

/// The steps the child takes, in order; the one that failed is reported by name.
#[derive(Debug, Clone, Copy)]
#[repr(u32)]
enum Step {
    ProcessGroup = 1,
    Streams,
    Directory,
    Parent,
    Limits,
    Landlock,
    Execute,
}

impl Step {
    /// The step recorded as `code` (its discriminant), if any.
    fn from_code(code: u32) -> Option<Step> {
        [
            Step::ProcessGroup,
            Step::Streams,
            Step::Directory,
            Step::Parent,
            Step::Limits,
            Step::Landlock,
            Step::Execute,
        ]
        .into_iter()
        .find(|step| *step as u32 == code)
    }

    /// What the step does, for an error.
    fn describe(self) -> &'static str {
        match self {
            Step::ProcessGroup => "starting a process group",
            Step::Streams => "connecting its standard streams",
            Step::Directory => "entering its working directory",
            Step::Parent => "tying it to this process",
            Step::Limits => "setting its resource limits",
            Step::Landlock => "applying its Landlock rules",
            Step::Execute => "executing it",
        }
    }
}

/// Everything the child reads, prepared by the parent; and where it writes why it failed.
struct Plan {
    path: CString,
    argv: Vec<*const libc::c_char>,
    envp: Vec<*const libc::c_char>,
    dir: Option<CString>,
    null: libc::c_int,
    stderr: libc::c_int,
    parent: libc::pid_t,
    /// Each resource (`RLIMIT_*`) with its limit.
    limits: Vec<(libc::__rlimit_resource_t, libc::rlimit)>,
    landlock: libc::c_int,
    /// The [`Step`] that failed, as its code; 0 while none has.
    failed_step: AtomicU32,
    /// The `errno` of the failed step.
    errno: AtomicI32,
}

/// How much stack the child gets: it runs one small function of system calls.
const CHILD_STACK_BYTES: usize = 256 << 10;

/// Starts `command` (its program, arguments and working directory; its environment is exactly
/// the variables it sets, nothing of this process's is inherited) in a process group of its
/// own, with `setup` applied, `/dev/null` as stdin and stdout and a pipe as stderr.
///
/// A program named without a `/` is looked up on this process's `PATH`.
pub(crate) fn spawn(command: &Command, setup: Setup) -> Result<Started, String> {
    let program = command.get_program();
    let path = resolve(program).ok_or("not found on PATH")?;
    let c = |text: &OsStr| {
        CString::new(text.as_bytes())
            .map_err(|_| "an argument or variable holds a NUL byte".to_string())
    };
    let argv: Vec<CString> = std::iter::once(program)
        .chain(command.get_args())
        .map(c)
        .collect::<Result<_, _>>()?;
    let mut envp = Vec::new();
    for (key, value) in command.get_envs() {
        if let Some(value) = value {
            let mut pair = key.as_bytes().to_vec();
            pair.push(b'=');
            pair.extend_from_slice(value.as_bytes());
            envp.push(c(OsStr::from_bytes(&pair))?);
        }
    }
    let dir = command
        .get_current_dir()
        .map(|d| c(d.as_os_str()))
        .transpose()?;
    let null = open_null()?;
    let (stderr_read, stderr_write) = pipe()?;
    let nulled = |strings: &[CString]| {
        let mut pointers: Vec<*const libc::c_char> = strings.iter().map(|s| s.as_ptr()).collect();
        pointers.push(std::ptr::null());
        pointers
    };
    use std::os::fd::AsRawFd;
    let plan = Plan {
        path: c(path.as_os_str())?,
        argv: nulled(&argv),
        envp: nulled(&envp),
        dir,
        null: null.as_raw_fd(),
        stderr: stderr_write.as_raw_fd(),
        parent: setup.parent,
        limits: setup
            .limits
            .iter()
            .map(|&(resource, value)| {
                let limit = libc::rlimit {
                    rlim_cur: value,
                    rlim_max: value,
                };
                (resource, limit)
            })
            .collect(),
        landlock: setup.landlock.as_raw_fd(),
        failed_step: AtomicU32::new(0),
        errno: AtomicI32::new(0),
    };
    let mut stack = vec![0u8; CHILD_STACK_BYTES];
    // The stack grows down from its end, aligned as the ABI wants a call's stack.
    let top = {
        let end = stack.as_mut_ptr() as usize + stack.len();
        (end & !15) as *mut libc::c_void
    };
    let (pid, clone_error) = with_signals_blocked(|| {
        // SAFETY: `child` runs on `stack`, which outlives it (CLONE_VFORK: this thread resumes
        // only once the child has called execve or exited), and reads `plan`, alive here too.
        // The child makes only system calls and never returns into this thread's frames.
        let pid = unsafe {
            libc::clone(
                child,
                top,
                libc::CLONE_VM | libc::CLONE_VFORK | libc::SIGCHLD,
                &plan as *const Plan as *mut libc::c_void,
            )
        };
        // Read at once: restoring the mask and freeing the stack may set errno again.
        (pid, std::io::Error::last_os_error())
    });
    drop(stack);
    if pid < 0 {
        return Err(format!("clone: {clone_error}"));
    }
    let failed = plan.failed_step.load(Ordering::SeqCst);
    if failed != 0 {
        let mut status = 0;
        // SAFETY: reaps our own child, which has exited (it failed before execve).
        unsafe { libc::waitpid(pid, &mut status, 0) };
        let errno = std::io::Error::from_raw_os_error(plan.errno.load(Ordering::SeqCst));
        let step = Step::from_code(failed).map_or("starting it", Step::describe);
        return Err(format!("{step}: {errno}"));
    }
    drop((null, stderr_write));
    Ok(Started {
        pid,
        stderr: File::from(stderr_read),
    })
}

/// Runs `f` with every signal blocked on this thread (the child inherits the mask), restoring
/// the mask after.
fn with_signals_blocked<T>(f: impl FnOnce() -> T) -> T {
    // SAFETY: sigset_t is plain data; sigfillset and pthread_sigmask are given valid pointers to
    // locals.
    unsafe {
        let mut all: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigfillset(&mut all);
        libc::pthread_sigmask(libc::SIG_SETMASK, &all, &mut old);
        let result = f();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        result
    }
}

/// The child: sets itself up as `plan` says and becomes the program, or records the step that
/// failed and exits with 127. Only system calls, on data the parent prepared.
extern "C" fn child(plan: *mut libc::c_void) -> libc::c_int {
    // SAFETY: the parent passed a pointer to its `Plan`, alive until this child execs or exits.
    let plan = unsafe { &*(plan as *const Plan) };
    let fail = |step: Step| -> ! {
        plan.errno.store(
            std::io::Error::last_os_error().raw_os_error().unwrap_or(0),
            Ordering::SeqCst,
        );
        plan.failed_step.store(step as u32, Ordering::SeqCst);
        // SAFETY: ends this child only (it is a process of its own); nothing to unwind.
        unsafe { libc::_exit(127) }
    };
    // SAFETY (the block): system calls on the plan's data and on locals.
    unsafe {
        if libc::setpgid(0, 0) != 0 {
            fail(Step::ProcessGroup);
        }
        for (fd, target) in [(plan.null, 0), (plan.null, 1), (plan.stderr, 2)] {
            // dup2 onto another descriptor clears close-on-exec there; onto itself it does not.
            let done = if fd == target {
                libc::fcntl(fd, libc::F_SETFD, 0)
            } else {
                libc::dup2(fd, target)
            };
            if done < 0 {
                fail(Step::Streams);
            }
        }
        if let Some(dir) = &plan.dir
            && libc::chdir(dir.as_ptr()) != 0
        {
            fail(Step::Directory);
        }
        // As `rewardbox_lifeline::die_with` does, which cannot serve here: its error allocates.
        let kill = libc::SIGKILL as libc::c_ulong;
        if libc::prctl(libc::PR_SET_PDEATHSIG, kill, 0, 0, 0) != 0 || libc::getppid() != plan.parent
        {
            fail(Step::Parent);
        }
        for (resource, limit) in &plan.limits {
            if libc::setrlimit(*resource, limit) != 0 {
                fail(Step::Limits);
            }
        }
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0
            || libc::syscall(libc::SYS_landlock_restrict_self, plan.landlock, 0) != 0
        {
            fail(Step::Landlock);
        }
        // This process's handlers must not run in the child, nor what it ignores reach the
        // program: every signal back to its default (the program starts as a freshly executed
        // one would), then unblocked. The kernel's call, not the C library's, which refuses the
        // signals it keeps for itself (those this process may ignore, too). A zeroed kernel
        // `sigaction` is SIG_DFL with no flags and an empty mask, whatever its layout.
        let default = [0u64; 4];
        for signal in 1..=64 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP {
                libc::syscall(
                    libc::SYS_rt_sigaction,
                    signal,
                    default.as_ptr(),
                    std::ptr::null_mut::<libc::c_void>(),
                    8usize,
                );
            }
        }
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        libc::execve(plan.path.as_ptr(), plan.argv.as_ptr(), plan.envp.as_ptr());
        fail(Step::Execute)
    }
}

/// `program` as execve takes it: as given when it holds a `/`, else the file of that name on
/// this process's `PATH` (found as every tool is, [`crate::program::on_path`]).
fn resolve(program: &OsStr) -> Option<PathBuf> {
    if program.as_bytes().contains(&b'/') {
        return Some(PathBuf::from(program));
    }
    crate::program::on_path(program.to_str()?)
}

/// `/dev/null`, for reading and writing, closed on exec (the child gets copies).
fn open_null() -> Result<OwnedFd, String> {
    File::options()
        .read(true)
        .write(true)
        .open("/dev/null")
        .map(OwnedFd::from)
        .map_err(|e| format!("opening /dev/null: {e}"))
}

/// A pipe, both ends closed on exec: (read, write).
fn pipe() -> Result<(OwnedFd, OwnedFd), String> {
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two descriptors into a local array.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!(
            "creating a pipe: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: two descriptors pipe2 just returned, owned by nothing else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}
