//! What the clients of one process may hold at once, together: memory (instances kept between
//! calls, counted at their whole memory limit) and disk (workspaces and working directories,
//! counted at their whole budget). Counting what each holder may grow to, not what it holds now,
//! keeps the budget whatever the holders then do: a request for more than is left is refused at
//! once, naming the budget, instead of failing the host later.

use std::sync::{Arc, Mutex};

/// Memory and disk, in bytes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Amount {
    /// Bytes of memory.
    pub memory: u64,
    /// Bytes of disk.
    pub disk: u64,
}

/// The budgets of one process and what is held of them.
#[derive(Debug)]
pub struct Budgets {
    memory: Option<u64>,
    disk: Option<u64>,
    held: Mutex<Amount>,
}

/// A part of the budgets held until dropped.
#[derive(Debug)]
pub struct Hold {
    budgets: Arc<Budgets>,
    amount: Amount,
}

impl Budgets {
    /// Budgets of `memory` and `disk` bytes (none: no bound).
    pub fn new(memory: Option<u64>, disk: Option<u64>) -> Arc<Budgets> {
        Arc::new(Budgets {
            memory,
            disk,
            held: Mutex::default(),
        })
    }

    /// Budgets without bounds (what is held is still counted).
    pub fn unbounded() -> Arc<Budgets> {
        Budgets::new(None, None)
    }

    /// The bounds: memory and disk (none: no bound).
    pub fn bounds(&self) -> (Option<u64>, Option<u64>) {
        (self.memory, self.disk)
    }

    /// What is held now.
    pub fn held(&self) -> Amount {
        *self.held.lock().expect("budgets lock")
    }

    /// Holds `amount` for `what` (a session, a working directory) until the hold is dropped; when
    /// that would take a budget past its bound, says which and what to do.
    pub fn take(self: &Arc<Self>, amount: Amount, what: &str) -> Result<Hold, String> {
        let mut held = self.held.lock().expect("budgets lock");
        let past = |held: u64, more: u64, bound: Option<u64>| {
            bound.filter(|&bound| more > 0 && held.saturating_add(more) > bound)
        };
        if let Some(bound) = past(held.memory, amount.memory, self.memory) {
            return Err(format!(
                "{what} would take the memory held by this server's sessions past its budget: \
                 {} MiB of {} MiB are held; close some sessions (or let idle ones expire), or \
                 raise the budget (--session-memory-mb)",
                held.memory >> 20,
                bound >> 20
            ));
        }
        if let Some(bound) = past(held.disk, amount.disk, self.disk) {
            return Err(format!(
                "{what} would take the disk held by this server's workspaces past its budget: {} \
                 MiB of {} MiB are held; close some sessions (or let idle ones expire), retry \
                 when running programs end, or raise the budget (--disk-budget-mb)",
                held.disk >> 20,
                bound >> 20
            ));
        }
        held.memory += amount.memory;
        held.disk += amount.disk;
        Ok(Hold {
            budgets: self.clone(),
            amount,
        })
    }
}

impl Drop for Hold {
    fn drop(&mut self) {
        let mut held = self.budgets.held.lock().expect("budgets lock");
        held.memory = held.memory.saturating_sub(self.amount.memory);
        held.disk = held.disk.saturating_sub(self.amount.disk);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holds_stay_within_the_bounds_and_are_given_back() {
        let budgets = Budgets::new(Some(100), Some(10));
        let a = budgets
            .take(
                Amount {
                    memory: 60,
                    disk: 5,
                },
                "a",
            )
            .unwrap();
        let refused = budgets
            .take(
                Amount {
                    memory: 60,
                    disk: 0,
                },
                "b",
            )
            .unwrap_err();
        assert!(refused.contains("--session-memory-mb"), "{refused}");
        let refused = budgets
            .take(Amount { memory: 0, disk: 6 }, "c")
            .unwrap_err();
        assert!(refused.contains("--disk-budget-mb"), "{refused}");
        assert_eq!(
            budgets.held(),
            Amount {
                memory: 60,
                disk: 5
            }
        );
        drop(a);
        assert_eq!(budgets.held(), Amount::default());
        let unbounded = Budgets::unbounded();
        let _big = unbounded
            .take(
                Amount {
                    memory: u64::MAX / 2,
                    disk: u64::MAX / 2,
                },
                "d",
            )
            .unwrap();
    }
}
