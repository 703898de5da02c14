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

/// Table elements a store may hold in one table.
const MAX_TABLE_ELEMENTS: usize = 1_000_000;

/// Caps the linear memory of a store, summed over all its memories.
pub struct MemoryLimiter {
    limit: u64,
    used: u64,
    exceeded: bool,
}

impl MemoryLimiter {
    /// A limiter allowing `limit` bytes in all.
    pub fn new(limit: u64) -> Self {
        MemoryLimiter {
            limit,
            used: 0,
            exceeded: false,
        }
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
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let after = self.used - current as u64 + desired as u64;
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
