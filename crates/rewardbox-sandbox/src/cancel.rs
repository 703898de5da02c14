//! Stopping jobs whose caller went away.
//!
//! A caller that may give up (a server whose client hung up) runs its work inside
//! [`with_cancel`] with a flag it sets when it gives up. Every job started inside takes the flag
//! along ([`current`]), checks it at each periodic check of its execution (every
//! [`CHECK_TICKS`](crate::job::CHECK_TICKS) ms), and ends with
//! [`RunFailure::Cancelled`](crate::RunFailure::Cancelled) once it is set. The flag
//! follows the work onto the threads it is handed to ([`crate::stack::with_room`], the
//! scorer's pool), so that no signature between the caller and the job carries it.

use std::cell::RefCell;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

thread_local! {
    static CURRENT: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Runs `work` with `flag` as the cancellation flag of the jobs it starts (none: as before).
pub fn with_cancel<T>(flag: Option<Arc<AtomicBool>>, work: impl FnOnce() -> T) -> T {
    let previous = CURRENT.with(|current| current.replace(flag));
    struct Restore(Option<Arc<AtomicBool>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            CURRENT.with(|current| *current.borrow_mut() = previous);
        }
    }
    let _restore = Restore(previous);
    work()
}

/// The cancellation flag of the work running on this thread, if it has one.
pub fn current() -> Option<Arc<AtomicBool>> {
    CURRENT.with(|current| current.borrow().clone())
}

/// Whether `flag` says the caller gave up.
pub(crate) fn is_set(flag: &Option<Arc<AtomicBool>>) -> bool {
    flag.as_ref().is_some_and(|f| f.load(Ordering::Relaxed))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_set_inside_and_restored_after() {
        assert!(current().is_none());
        let flag = Arc::new(AtomicBool::new(false));
        with_cancel(Some(flag.clone()), || {
            assert!(Arc::ptr_eq(&current().unwrap(), &flag));
            with_cancel(None, || assert!(current().is_none()));
            assert!(current().is_some());
        });
        assert!(current().is_none());
    }
}
