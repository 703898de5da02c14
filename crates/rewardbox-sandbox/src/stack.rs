//! Room on the native stack for a guest.
//!
//! Wasm runs on the calling thread's stack, and wasmtime lets it use up to
//! [`WASM_STACK_BYTES`] of it before the guest traps with
//! a stack overflow. A thread with less room than that (a test's 2 MiB, tokio's blocking threads,
//! a Python thread's 8 MiB) would hit its guard page first, which kills the process. Every entry
//! into a guest goes through [`with_room`]: on a thread with room (the scorer's pool, the server's
//! runtime) it just runs; on any other thread it is handed to a pool of threads with room (made
//! on first need, one per core), while the caller waits.

use crate::engine::{THREAD_STACK_BYTES, WASM_STACK_BYTES};
use std::cell::Cell;
use std::sync::OnceLock;

/// Host frames beyond the guest's stack that a call into it may need.
const HOST_MARGIN: usize = 2 << 20;

thread_local! {
    /// The lowest address of this thread's stack, once looked up (0: not yet).
    static STACK_LOW: Cell<usize> = const { Cell::new(0) };
}

/// Runs `work` where the stack has room for a guest: here, or on a thread with room.
pub fn with_room<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    if room_here() >= WASM_STACK_BYTES + HOST_MARGIN {
        return work();
    }
    let cancel = crate::cancel::current();
    roomy_threads().install(move || crate::cancel::with_cancel(cancel, work))
}

/// Threads with room for a guest's stack, for callers on threads without (made on first use).
fn roomy_threads() -> &'static rayon::ThreadPool {
    static POOL: OnceLock<rayon::ThreadPool> = OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("rewardbox-guest-{i}"))
            .stack_size(THREAD_STACK_BYTES)
            .build()
            .expect("starting threads with room for a guest's stack")
    })
}

/// The bytes of stack left below this point on the current thread (0 when unknown).
fn room_here() -> usize {
    // A local's address (not `&0u8`, which would be promoted to a static).
    let marker = 0u8;
    let here = std::hint::black_box(&marker) as *const u8 as usize;
    let low = STACK_LOW.with(|low| {
        if low.get() == 0 {
            low.set(stack_low());
        }
        low.get()
    });
    here.saturating_sub(low)
}

/// The lowest address of the current thread's stack, from pthreads (0 when unknown).
fn stack_low() -> usize {
    // SAFETY: pthread_getattr_np fills `attr` for the current thread; it is destroyed after use,
    // and pthread_attr_getstack only reads it.
    unsafe {
        let mut attr: libc::pthread_attr_t = std::mem::zeroed();
        if libc::pthread_getattr_np(libc::pthread_self(), &mut attr) != 0 {
            return 0;
        }
        let mut address: *mut libc::c_void = std::ptr::null_mut();
        let mut size: libc::size_t = 0;
        let found = libc::pthread_attr_getstack(&attr, &mut address, &mut size) == 0;
        libc::pthread_attr_destroy(&mut attr);
        if found { address as usize } else { 0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_stack_gets_a_thread_with_room_and_a_roomy_one_runs_in_place() {
        let small = std::thread::Builder::new()
            .stack_size(1 << 20)
            .spawn(|| {
                let caller = std::thread::current().id();
                let (ran_on, room) = with_room(|| (std::thread::current().id(), room_here()));
                (caller != ran_on, room)
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(
            small.0,
            "work on a 1 MiB thread moved to a thread with room"
        );
        assert!(small.1 >= WASM_STACK_BYTES + HOST_MARGIN, "{}", small.1);
        let roomy = std::thread::Builder::new()
            .stack_size(THREAD_STACK_BYTES)
            .spawn(|| {
                let caller = std::thread::current().id();
                with_room(|| std::thread::current().id()) == caller
            })
            .unwrap()
            .join()
            .unwrap();
        assert!(roomy, "work on a roomy thread runs in place");
    }
}
