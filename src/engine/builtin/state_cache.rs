//! Embedded states kept across requests, so several question files over one state, a batch
//! run again and an evaluation over captured states skip the encoder.
//!
//! The key is the SHA-256 of what the encoder reads: the encoder, the reading, whether a
//! long state was cut at the budget, and the state rendered to text. Not the state's JCS
//! hash: two states that differ only in key order render (and so embed) differently. The
//! cache is bounded by the bytes its states hold ([`EmbeddedState::heap_bytes`]), since one
//! long state can hold hundreds of windows, and it keeps no state's words: a long state of
//! varied text holds megabytes of them, which zero-shot never reads (kept, each ~1 MB state
//! on `mo` cost about 0.9 MiB: 123 to 611 MiB over four rounds of 128, with no plateau).

use super::{EmbeddedState, Reading};
use lru::LruCache;
use sha2::{Digest, Sha256};
use std::sync::Mutex;

/// Bytes kept per encoder: about 32,000 windows of `mo` (1.5 KiB each), or 16,000 of the
/// whole-state models' paired vectors (3 KiB).
pub const CACHED_BYTES: usize = 48 << 20;

pub struct StateCache {
    inner: Mutex<Inner>,
}

struct Inner {
    states: LruCache<[u8; 32], EmbeddedState>,
    bytes: usize,
    limit: usize,
}

impl StateCache {
    /// A cache holding at most `limit` bytes of states in all.
    pub fn new(limit: usize) -> Self {
        Self {
            inner: Mutex::new(Inner {
                states: LruCache::unbounded(),
                bytes: 0,
                limit,
            }),
        }
    }

    /// How many states it holds.
    pub fn len(&self) -> usize {
        self.lock().states.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, key: &[u8; 32]) -> Option<EmbeddedState> {
        self.lock().states.get(key).cloned()
    }

    /// Keep `state` without its words ([`EmbeddedState::without_words`]: what is read
    /// back gets the words of its text anew), dropping the least recently used until the
    /// bytes fit. A state larger than the whole cache is not kept.
    pub fn put(&self, key: [u8; 32], state: &EmbeddedState) {
        let state = state.without_words();
        let mut inner = self.lock();
        let size = state.heap_bytes();
        if size > inner.limit {
            return;
        }
        if let Some(old) = inner.states.put(key, state) {
            inner.bytes -= old.heap_bytes();
        }
        inner.bytes += size;
        while inner.bytes > inner.limit {
            let Some((_, dropped)) = inner.states.pop_lru() else {
                break;
            };
            inner.bytes -= dropped.heap_bytes();
        }
    }

    /// The bytes held now.
    #[cfg(test)]
    fn bytes(&self) -> usize {
        self.lock().bytes
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

    fn state(windows: usize, words: usize) -> EmbeddedState {
        EmbeddedState {
            windows: Arc::from(vec![vec![0.0_f32; 384]; windows]),
            tokens: windows as u64,
            first_tokens: 1,
            words: super::super::Words::default(),
            tuned: None,
        }
        .with_words_of(&"word ".repeat(words))
    }

    #[test]
    fn the_least_recently_used_go_first_until_the_bytes_fit() {
        let one = state(2, 0).without_words().heap_bytes();
        let cache = StateCache::new(5 * one / 2);
        cache.put([1; 32], &state(2, 0));
        cache.put([2; 32], &state(2, 0));
        assert!(cache.get(&[1; 32]).is_some(), "now the most recent");
        cache.put([3; 32], &state(2, 0));
        assert!(cache.get(&[2; 32]).is_none(), "dropped to fit");
        assert!(cache.get(&[1; 32]).is_some() && cache.get(&[3; 32]).is_some());
        cache.put([4; 32], &state(6, 0));
        assert!(cache.get(&[4; 32]).is_none(), "larger than the cache");
        assert_eq!(cache.bytes(), 2 * one);
    }

    #[test]
    fn a_state_is_kept_without_its_words_or_its_text() {
        // One window and a long text: its text and words weigh megabytes, which zero-shot
        // never reads; the cache keeps the window alone, and what it gives back counts its
        // words anew from the text of the request that reads it.
        let long = state(1, 300_000);
        assert_eq!(
            long.words().len(),
            2,
            "one word and one pair, counted on first use"
        );
        assert!(long.heap_bytes() > 1_500_000, "{}", long.heap_bytes());
        let cache = StateCache::new(CACHED_BYTES);
        cache.put([1; 32], &long);
        assert_eq!(cache.bytes(), state(1, 0).heap_bytes());
        let hit = cache.get(&[1; 32]).unwrap();
        assert!(hit.words().is_empty(), "no words kept");
        assert_eq!(hit.with_words_of("two words").words().len(), 3);
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
