//! The sentence encoder (pocket-encoder's bundled MiniLM), its tokenizer, and a bounded
//! cache of outcome embeddings.
//!
//! The encoder is loaded on first use, so commands that never embed (`arbiter models`) do
//! not pay for the weights. Outcome texts repeat across requests and are cached; states do
//! not and are embedded every time.

use crate::error::{Error, Result};
use lru::LruCache;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex, OnceLock};
use tokenizers::Tokenizer;

/// Tokens the encoder reads per text, special tokens included.
pub const MAX_TOKENS: usize = 128;
/// Tokens of text per window: the encoder's limit less `[CLS]` and `[SEP]`.
pub const WINDOW_TOKENS: usize = MAX_TOKENS - 2;
/// Windows of the whole-state reading start this many tokens apart (30 tokens overlap).
pub const WINDOW_STRIDE: usize = 96;
/// Outcome embeddings kept (each 384 floats, ~1.5 KiB).
pub const CACHE_ENTRIES: usize = 8192;
/// The first-window reading tokenizes at most this much of the state up front.
const FIRST_WINDOW_PREFIX_BYTES: usize = 16 * 1024;

/// The bundled tokenizer, byte-identical to the one inside pocket-encoder (a test checks the
/// hash against `pocket_encoder::model_info()`), so windows cut here are what the encoder reads.
const TOKENIZER_JSON: &[u8] = include_bytes!("../../../assets/tokenizer.json");

/// A unit vector and the number of tokens read to make it.
#[derive(Debug, Clone, PartialEq)]
pub struct Embedding {
    pub vector: Vec<f32>,
    pub tokens: u64,
}

/// A slice of the state small enough for one encoder pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub text: String,
    /// Tokens read, special tokens included.
    pub tokens: u64,
}

/// Encoder + tokenizer + outcome cache; shared by every built-in engine of a process.
pub struct Embedder {
    encoder: OnceLock<std::result::Result<pocket_encoder::Encoder, String>>,
    tokenizer: OnceLock<std::result::Result<Tokenizer, String>>,
    cache: Mutex<LruCache<String, Arc<Embedding>>>,
}

impl Default for Embedder {
    fn default() -> Self {
        Self::new()
    }
}

impl Embedder {
    pub fn new() -> Self {
        Self {
            encoder: OnceLock::new(),
            tokenizer: OnceLock::new(),
            cache: Mutex::new(LruCache::new(
                NonZeroUsize::new(CACHE_ENTRIES).unwrap_or(NonZeroUsize::MIN),
            )),
        }
    }

    fn encoder(&self) -> Result<&pocket_encoder::Encoder> {
        self.encoder
            .get_or_init(|| pocket_encoder::Encoder::new().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::internal("loading the built-in encoder", e))
    }

    fn tokenizer(&self) -> Result<&Tokenizer> {
        self.tokenizer
            .get_or_init(|| {
                let mut tokenizer =
                    Tokenizer::from_bytes(TOKENIZER_JSON).map_err(|e| e.to_string())?;
                tokenizer.with_padding(None);
                tokenizer.with_truncation(None).map_err(|e| e.to_string())?;
                Ok(tokenizer)
            })
            .as_ref()
            .map_err(|e| Error::internal("loading the tokenizer", e))
    }

    /// Embed `text` (not blank) without caching it.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let mut vectors = self
            .encoder()?
            .embed(&[text])
            .map_err(|e| Error::internal("embedding", e))?;
        vectors
            .pop()
            .ok_or_else(|| Error::Internal("the encoder returned no vector".into()))
    }

    /// Embed an outcome text (not blank), from the cache when it was seen before.
    pub fn embed_cached(&self, text: &str) -> Result<Arc<Embedding>> {
        if let Some(hit) = self.lock_cache().get(text) {
            return Ok(hit.clone());
        }
        // Computed outside the lock: two threads may embed the same text once each, which is
        // cheaper than serializing every miss behind one mutex.
        let tokens = (self.count_tokens(text)? + 2).min(MAX_TOKENS) as u64;
        let embedding = Arc::new(Embedding {
            vector: self.embed(text)?,
            tokens,
        });
        self.lock_cache().put(text.to_owned(), embedding.clone());
        Ok(embedding)
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, LruCache<String, Arc<Embedding>>> {
        // A panic while holding the lock leaves a consistent cache (put/get are atomic).
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// WordPiece tokens of `text`, without special tokens.
    pub fn count_tokens(&self, text: &str) -> Result<usize> {
        Ok(self
            .tokenizer()?
            .encode_fast(text, false)
            .map_err(|e| Error::internal("tokenizing", e))?
            .len())
    }

    /// The first window of `text` (at most [`WINDOW_TOKENS`] tokens), or none when blank.
    pub fn first_window(&self, text: &str) -> Result<Option<Window>> {
        let prefix = floor_char_boundary(text, FIRST_WINDOW_PREFIX_BYTES);
        let windows = self.cut(text, prefix, usize::MAX)?;
        if windows.is_empty() && prefix.len() < text.len() {
            return Ok(self.cut(text, text, 1)?.into_iter().next());
        }
        Ok(windows.into_iter().next())
    }

    /// Overlapping windows covering all of `text`.
    pub fn all_windows(&self, text: &str) -> Result<Vec<Window>> {
        self.cut(text, text, usize::MAX)
    }

    /// Windows of `source` (a prefix of `text`), at most `limit` of them.
    fn cut(&self, text: &str, source: &str, limit: usize) -> Result<Vec<Window>> {
        let encoding = self
            .tokenizer()?
            .encode(source, false)
            .map_err(|e| Error::internal("tokenizing", e))?;
        let offsets = encoding.get_offsets();
        let mut windows = Vec::new();
        let mut start = 0;
        while start < offsets.len() && windows.len() < limit {
            let end = (start + WINDOW_TOKENS).min(offsets.len());
            let (from, to) = (offsets[start].0, offsets[end - 1].1);
            if let Some(slice) = text.get(from..to) {
                if !slice.trim().is_empty() {
                    windows.push(Window {
                        text: slice.to_owned(),
                        tokens: (end - start + 2) as u64,
                    });
                }
            }
            if end == offsets.len() {
                break;
            }
            start += WINDOW_STRIDE;
        }
        Ok(windows)
    }
}

fn floor_char_boundary(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    #[test]
    fn bundled_tokenizer_is_the_encoders() {
        let ours = hex::encode(Sha256::digest(TOKENIZER_JSON));
        assert_eq!(ours, pocket_encoder::model_info().tokenizer_sha256);
        assert_eq!(pocket_encoder::model_info().max_tokens, MAX_TOKENS);
    }

    #[test]
    fn windows_cover_the_text_with_overlap() {
        let embedder = Embedder::new();
        let text: String = (0..400).map(|i| format!("word{i} ")).collect();
        let tokens = embedder.count_tokens(&text).unwrap();
        let windows = embedder.all_windows(&text).unwrap();
        assert!(windows.len() >= 2, "{} tokens", tokens);
        assert!(windows.iter().all(|w| w.tokens as usize <= MAX_TOKENS));
        assert!(text.starts_with(&windows[0].text));
        assert!(text.trim_end().ends_with(&windows.last().unwrap().text));
        let first = embedder.first_window(&text).unwrap().unwrap();
        assert_eq!(first, windows[0]);
        assert_eq!(first.tokens as usize, MAX_TOKENS);
    }

    #[test]
    fn blank_text_has_no_window() {
        let embedder = Embedder::new();
        assert_eq!(embedder.first_window("   ").unwrap(), None);
        assert!(embedder.all_windows("").unwrap().is_empty());
    }

    #[test]
    fn cached_embedding_equals_fresh_one() {
        let embedder = Embedder::new();
        let a = embedder
            .embed_cached("refund: the customer wants money back")
            .unwrap();
        let b = embedder
            .embed_cached("refund: the customer wants money back")
            .unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(
            a.vector,
            embedder
                .embed("refund: the customer wants money back")
                .unwrap()
        );
        assert_eq!(a.vector.len(), 384);
    }
}
