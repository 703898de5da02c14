//! The memory limit of a store: linear memory summed over all its memories, and a cap on table
//! growth.

use wasmtime::ResourceLimiter;

/// The error a guest's memory growth past its limit traps with.
#[derive(Debug, Clone, Copy)]
pub struct MemoryLimitExceeded;

impl std::fmt::Display for MemoryLimitExceeded {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("memory limit exceeded")
    }
}

impl std::error::Error for MemoryLimitExceeded {}

/// The error a compiled program's stack growth past the memory limit traps with: natively, a
/// stack that meets its limit is a segmentation fault.
#[derive(Debug, Clone, Copy)]
pub struct StackLimitReached;

impl std::fmt::Display for StackLimitReached {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("stack overflow: the stack reached the memory limit")
    }
}

impl std::error::Error for StackLimitReached {}

/// Table elements a store may hold in one table.
const MAX_TABLE_ELEMENTS: usize = 1_000_000;

/// The most memory credits may raise a store's limit to: the address space of one 32-bit linear
/// memory (see [`MemoryLimiter::credit`]).
pub const MAX_CREDITED_LIMIT: u64 = 1 << 32;

/// Caps the linear memory of a store, summed over all its memories.
pub struct MemoryLimiter {
    limit: u64,
    /// Bytes the limit was raised by for data that is not the guest's own doing.
    credited: u64,
    used: u64,
    exceeded: bool,
    /// The declared maximum, in bytes, of a compiled program's stack ledger, when the store runs
    /// one (see [`MemoryLimiter::charge_stack_by_use`]).
    stack_ledger: Option<usize>,
    stack_overflowed: bool,
}

impl MemoryLimiter {
    /// A limiter allowing `limit` bytes in all.
    pub fn new(limit: u64) -> Self {
        MemoryLimiter {
            limit,
            credited: 0,
            used: 0,
            exceeded: false,
            stack_ledger: None,
            stack_overflowed: false,
        }
    }

    /// For a compiled program whose stack of `stack_bytes` is charged by use
    /// (`rewardbox-toolchains`'s stack module): the reservation is not charged (the limit is raised by
    /// it), and the stack ledger (the memory whose declared maximum is `stack_bytes`) is; a
    /// refused growth of the ledger is a stack overflow, not a heap's memory limit.
    pub fn charge_stack_by_use(&mut self, stack_bytes: u64) {
        self.limit += stack_bytes;
        self.stack_ledger = Some(stack_bytes as usize);
    }

    /// Raises the limit by `bytes`, for data that is not the guest's own doing (what a candidate
    /// handed a trusted instance), but never past [`MAX_CREDITED_LIMIT`] by credits.
    pub fn credit(&mut self, bytes: u64) {
        let raised = self
            .limit
            .saturating_add(bytes)
            .min(self.limit.max(MAX_CREDITED_LIMIT));
        self.credited += raised - self.limit;
        self.limit = raised;
    }

    /// Bytes the limit was raised by through [`MemoryLimiter::credit`].
    pub fn credited(&self) -> u64 {
        self.credited
    }

    /// Whether the stack's growth was refused (see [`MemoryLimiter::charge_stack_by_use`]).
    pub fn stack_overflowed(&self) -> bool {
        self.stack_overflowed
    }

    /// Whether a growth was refused.
    pub fn exceeded(&self) -> bool {
        self.exceeded
    }
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.used - current as u64 + desired as u64;
        if after > self.limit && maximum.is_some() && maximum == self.stack_ledger {
            self.stack_overflowed = true;
            return Err(StackLimitReached.into());
        }
        if after > self.limit {
            self.exceeded = true;
            return Err(MemoryLimitExceeded.into());
        }
        self.used = after;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= MAX_TABLE_ELEMENTS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIB: usize = 1 << 20;

    #[test]
    fn a_credit_raises_the_limit_but_never_past_the_ceiling() {
        let mut limiter = MemoryLimiter::new(16 << 20);
        assert!(limiter.memory_growing(0, 17 * MIB, None).is_err());
        assert!(limiter.exceeded());

        let mut limiter = MemoryLimiter::new(16 << 20);
        limiter.credit(1 << 20);
        assert_eq!(limiter.credited(), 1 << 20);
        assert!(limiter.memory_growing(0, 17 * MIB, None).unwrap());
        assert!(
            limiter
                .memory_growing(17 * MIB, 17 * MIB + 1, None)
                .is_err()
        );

        limiter.credit(u64::MAX);
        assert_eq!(limiter.credited(), MAX_CREDITED_LIMIT - (16 << 20));
        assert!(limiter.memory_growing(17 * MIB, 1 << 32, None).unwrap());
        assert!(
            limiter
                .memory_growing(1 << 32, (1 << 32) + 1, None)
                .is_err()
        );
    }

    #[test]
    fn a_credit_never_lowers_a_limit_above_the_ceiling() {
        let mut limiter = MemoryLimiter::new(MAX_CREDITED_LIMIT + 5);
        limiter.credit(1 << 20);
        assert_eq!(limiter.credited(), 0);
        assert!(limiter.memory_growing(0, (1 << 32) + 5, None).unwrap());
    }
}
