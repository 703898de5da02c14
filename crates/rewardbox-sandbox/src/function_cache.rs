//! Cranelift's incremental compilation cache, in memory: a function compiled once is not compiled
//! again when another module holds the same function. Every Go candidate carries the same Go
//! runtime and standard library (about 2.5 MB of WebAssembly), and C, C++ and Rust programs share
//! their libc and libc++ functions, so most of a new program's functions were compiled before.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Mutex;
use wasmtime::CacheStore;

/// Bytes of compiled functions kept before the cache starts over (it refills with the functions
/// programs use).
pub const FUNCTION_CACHE_BYTES: usize = 64 << 20;

/// Compiled functions by Cranelift's key (a hash of the function's IR and the compiler's
/// settings), up to [`FUNCTION_CACHE_BYTES`].
#[derive(Debug, Default)]
pub struct FunctionCache {
    entries: Mutex<Entries>,
}

#[derive(Debug, Default)]
struct Entries {
    by_key: HashMap<Vec<u8>, Vec<u8>>,
    bytes: usize,
}

impl CacheStore for FunctionCache {
    fn get(&self, key: &[u8]) -> Option<Cow<'_, [u8]>> {
        let entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        entries.by_key.get(key).map(|v| Cow::Owned(v.clone()))
    }

    fn insert(&self, key: &[u8], value: Vec<u8>) -> bool {
        let mut entries = self.entries.lock().unwrap_or_else(|p| p.into_inner());
        let size = key.len() + value.len();
        if entries.bytes + size > FUNCTION_CACHE_BYTES {
            entries.by_key.clear();
            entries.bytes = 0;
        }
        entries.bytes += size;
        if let Some(old) = entries.by_key.insert(key.to_vec(), value) {
            entries.bytes -= key.len() + old.len();
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_functions_within_its_budget_and_starts_over_past_it() {
        let cache = FunctionCache::default();
        assert!(cache.get(b"a").is_none());
        assert!(cache.insert(b"a", vec![1; 10]));
        assert_eq!(cache.get(b"a").as_deref(), Some(&[1u8; 10][..]));
        // Replacing an entry counts it once.
        cache.insert(b"a", vec![2; 10]);
        assert_eq!(cache.entries.lock().unwrap().bytes, 11);
        // Past the budget, what was kept is dropped and the new entry kept.
        cache.insert(b"b", vec![0; FUNCTION_CACHE_BYTES - 5]);
        assert!(cache.get(b"a").is_none());
        assert_eq!(
            cache.get(b"b").map(|v| v.len()),
            Some(FUNCTION_CACHE_BYTES - 5)
        );
    }
}
