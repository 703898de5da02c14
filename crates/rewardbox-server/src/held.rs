//! A table of things the server holds for its clients between requests (DeepGym's sessions),
//! each under an unguessable id, closed by its client or after being idle for the time-to-live.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Entry<T> {
    value: Arc<T>,
    /// Milliseconds since the table's start, at the last use.
    last_used_ms: AtomicU64,
}

/// Held values by id.
pub struct Held<T> {
    entries: Mutex<HashMap<String, Entry<T>>>,
    idle_ttl: Duration,
    epoch: Instant,
}

impl<T> Held<T> {
    /// An empty table whose entries close after `idle_ttl` unused.
    pub fn new(idle_ttl: Duration) -> Held<T> {
        Held {
            entries: Mutex::default(),
            idle_ttl,
            epoch: Instant::now(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// Holds `value` under a fresh id (128 random bits); the id.
    pub fn insert(&self, value: T) -> std::io::Result<String> {
        let id = rewardbox_envs::new_id()?;
        let entry = Entry {
            value: Arc::new(value),
            last_used_ms: AtomicU64::new(self.now_ms()),
        };
        self.entries
            .lock()
            .expect("held lock")
            .insert(id.clone(), entry);
        Ok(id)
    }

    /// The value held under `id`, marked as used now.
    pub fn get(&self, id: &str) -> Option<Arc<T>> {
        let entries = self.entries.lock().expect("held lock");
        let entry = entries.get(id)?;
        entry.last_used_ms.store(self.now_ms(), Ordering::Relaxed);
        Some(entry.value.clone())
    }

    /// Stops holding `id`; the value, when it was there.
    pub fn remove(&self, id: &str) -> Option<Arc<T>> {
        self.entries
            .lock()
            .expect("held lock")
            .remove(id)
            .map(|e| e.value)
    }

    /// Stops holding the values idle for longer than the time-to-live; they are returned, to be
    /// dropped where dropping them may block.
    pub fn take_idle(&self) -> Vec<Arc<T>> {
        let limit = self.idle_ttl.as_millis() as u64;
        let now = self.now_ms();
        let mut entries = self.entries.lock().expect("held lock");
        let idle: Vec<String> = entries
            .iter()
            .filter(|(_, e)| now.saturating_sub(e.last_used_ms.load(Ordering::Relaxed)) > limit)
            .map(|(id, _)| id.clone())
            .collect();
        idle.iter()
            .filter_map(|id| entries.remove(id).map(|e| e.value))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_found_by_id_until_removed_or_idle() {
        let held = Held::new(Duration::from_secs(3600));
        let a = held.insert("a").unwrap();
        let b = held.insert("b").unwrap();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(held.get(&a).as_deref(), Some(&"a"));
        assert_eq!(held.remove(&b).as_deref(), Some(&"b"));
        assert!(held.get(&b).is_none());
        assert!(held.take_idle().is_empty());
        assert!(held.get(&a).is_some());
        // With no time-to-live, whatever was used before now is idle.
        let eager = Held::new(Duration::ZERO);
        eager.insert("c").unwrap();
        std::thread::sleep(Duration::from_millis(5));
        assert_eq!(eager.take_idle().len(), 1);
        assert!(eager.take_idle().is_empty());
    }
}
