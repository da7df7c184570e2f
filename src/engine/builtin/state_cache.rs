//! Embedded states kept across requests, so several question files over one state, a batch
//! run again and an evaluation over captured states skip the encoder.
//!
//! The key is the SHA-256 of what the encoder reads: the encoder, the reading, whether a
//! long state was cut at the budget, and the state rendered to text. Not the state's JCS
//! hash: two states that differ only in key order render (and so embed) differently. The
//! cache is bounded by the windows it holds, since one long state can hold hundreds.

use super::{EmbeddedState, Reading};
use lru::LruCache;
use sha2::{Digest, Sha256};
use std::sync::Mutex;

/// Windows kept per encoder: about 1.5 KiB each (24 MiB) for the first-window models, 3 KiB
/// (48 MiB) for the whole-state models' paired vectors.
pub const CACHED_WINDOWS: usize = 16_384;

pub struct StateCache {
    inner: Mutex<Inner>,
}

struct Inner {
    states: LruCache<[u8; 32], EmbeddedState>,
    windows: usize,
    limit: usize,
}

impl StateCache {
    /// A cache holding at most `limit` windows in all.
    pub fn new(limit: usize) -> Self {
        Self {
            inner: Mutex::new(Inner {
                states: LruCache::unbounded(),
                windows: 0,
                limit,
            }),
        }
    }

    pub fn get(&self, key: &[u8; 32]) -> Option<EmbeddedState> {
        self.lock().states.get(key).cloned()
    }

    /// Keep `state`, dropping the least recently used until the windows fit. A state
    /// larger than the whole cache is not kept.
    pub fn put(&self, key: [u8; 32], state: EmbeddedState) {
        let mut inner = self.lock();
        let size = state.window_count();
        if size > inner.limit {
            return;
        }
        if let Some(old) = inner.states.put(key, state) {
            inner.windows -= old.window_count();
        }
        inner.windows += size;
        while inner.windows > inner.limit {
            let Some((_, dropped)) = inner.states.pop_lru() else {
                break;
            };
            inner.windows -= dropped.window_count();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // Each operation leaves the cache consistent, so a poisoned lock is still usable.
        self.inner
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The key of `text` as read by `encoder` (its identity) with `reading`.
pub fn key(encoder: &str, reading: Reading, truncate: bool, text: &str) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(encoder.as_bytes());
    hasher.update(match (reading, truncate) {
        (Reading::FirstWindow, _) => b"|state|first|".as_slice(),
        (Reading::AllWindows, false) => b"|state|all|",
        (Reading::AllWindows, true) => b"|state|all-truncated|",
    });
    hasher.update(text.as_bytes());
    hasher.finalize().into()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn state(windows: usize) -> EmbeddedState {
        EmbeddedState {
            windows: Arc::from(vec![vec![0.0_f32; 2]; windows]),
            tokens: windows as u64,
            first_tokens: 1,
            words: Arc::default(),
            tuned: None,
        }
    }

    #[test]
    fn the_least_recently_used_go_first_until_the_windows_fit() {
        let cache = StateCache::new(5);
        cache.put([1; 32], state(2));
        cache.put([2; 32], state(2));
        assert!(cache.get(&[1; 32]).is_some(), "now the most recent");
        cache.put([3; 32], state(2));
        assert!(cache.get(&[2; 32]).is_none(), "dropped to fit");
        assert!(cache.get(&[1; 32]).is_some() && cache.get(&[3; 32]).is_some());
        cache.put([4; 32], state(6));
        assert!(cache.get(&[4; 32]).is_none(), "larger than the cache");
        cache.put([3; 32], state(1));
        cache.put([5; 32], state(2));
        assert_eq!(cache.lock().windows, 5);
    }

    #[test]
    fn the_key_names_the_encoder_the_reading_and_the_cut() {
        let keys = [
            key("a", Reading::FirstWindow, false, "t"),
            key("b", Reading::FirstWindow, false, "t"),
            key("a", Reading::AllWindows, false, "t"),
            key("a", Reading::AllWindows, true, "t"),
            key("a", Reading::AllWindows, true, "u"),
        ];
        let distinct: std::collections::HashSet<_> = keys.iter().collect();
        assert_eq!(distinct.len(), keys.len());
        assert_eq!(
            key("a", Reading::FirstWindow, false, "t"),
            key("a", Reading::FirstWindow, true, "t"),
            "the first window does not depend on the cut"
        );
    }
}
