//! The sentence encoders (pocket-encoder's bundled `MiniLM-L3`, and beside it for the
//! whole-state models `all-MiniLM-L6-v2`, [`super::bert`]), their tokenizer, and a bounded
//! cache of outcome embeddings.
//!
//! The encoder is loaded on first use, so commands that never embed (`arbiter models`) do
//! not pay for the weights. Outcome texts and exemplar documents repeat across requests and
//! are cached, in memory and, when a [`EmbeddingStore`] is attached, on disk (an aligned
//! question has hundreds of exemplars, and the paired encoders' outcomes are slow: a cold
//! `arbiter decide` must not embed them all again); states are kept in memory only
//! ([`StateCache`]).

use super::state_cache::{CACHED_BYTES, StateCache};
use crate::error::{Error, Result};
use lru::LruCache;
use std::num::NonZeroUsize;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock};
use tokenizers::Tokenizer;

pub use super::vocabulary::MAX_TOKENS;
use super::vocabulary::TOKENIZER_JSON;
/// Tokens of text per window: the encoder's limit less `[CLS]` and `[SEP]`.
pub const WINDOW_TOKENS: usize = MAX_TOKENS - 2;
/// Windows of the whole-state reading start this many tokens apart (30 tokens overlap).
pub const WINDOW_STRIDE: usize = 96;
/// Outcome embeddings kept (each 384 or 768 floats, ~1.5 or 3 KiB).
pub const CACHE_ENTRIES: usize = 8192;
/// A text is tokenized this much at a time ([`Embedder::tokens_of`]).
const PIECE_BYTES: usize = 16 * 1024;
/// The longest text an encoder is given, in bytes (pocket-encoder refuses more than 64 KiB).
/// A longer text is read from its first window, as the encoders would read it anyway (they
/// read [`MAX_TOKENS`] tokens); a window longer than this (its words too long to read, each
/// one `[UNK]` however long) is written as its tokens. The one rule for every built-in
/// model, so no text reaches an encoder that it cannot read.
pub const MAX_ENCODED_BYTES: usize = 16 * 1024;

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

/// A persistent tier under the in-memory cache, keyed by `Embedder::store_key`.
///
/// Failures are the store's to log: a cache that cannot be read or written only costs time.
pub trait EmbeddingStore: Send + Sync {
    fn load(&self, key: &[u8; 32]) -> Option<Embedding>;
    fn save(&self, entries: &[([u8; 32], Embedding)]);
}

/// What a cached text is embedded as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum CacheKind {
    /// A short text embedded whole (an outcome, a cue).
    Text,
    /// A document embedded from its first window (an exemplar state).
    Document,
}

/// Which encoders an [`Embedder`] runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoders {
    /// pocket-encoder's `paraphrase-MiniLM-L3-v2`, 4-bit: the fast one (`mo`).
    MiniLmL3,
    /// L3 and `all-MiniLM-L6-v2` ([`super::bert`]) side by side: a text's two unit vectors
    /// are concatenated and scaled by 1/√2, so the cosine of two such vectors is the mean of
    /// the two models' cosines. Each is better where the other is weak (the quality bench:
    /// L6 on topics, L3 on nouls), and the mean beats either.
    L3WithL6,
}

impl Encoders {
    /// What names the encoders (weights and tokenizer) in cache keys.
    fn identity(self) -> String {
        let info = pocket_encoder::model_info();
        let l3 = format!("{}|{}|{}", info.id, info.revision, info.tokenizer_sha256);
        match self {
            Self::MiniLmL3 => l3,
            Self::L3WithL6 => format!("{l3}+{}", super::bert::IDENTITY),
        }
    }
}

/// Encoder + tokenizer + outcome cache; shared by every built-in engine of a process that
/// reads with the same encoders.
pub struct Embedder {
    encoders: Encoders,
    identity: String,
    encoder: OnceLock<std::result::Result<pocket_encoder::Encoder, String>>,
    l6: OnceLock<std::result::Result<super::bert::MiniLmL6, String>>,
    /// L3 with its top layer run here, loaded only for a fine-tuned checkpoint.
    layered: OnceLock<std::result::Result<super::tuned::Layered, String>>,
    tokenizer: OnceLock<std::result::Result<Tokenizer, String>>,
    cache: Mutex<LruCache<(CacheKind, String), Arc<Embedding>>>,
    store: OnceLock<Arc<dyn EmbeddingStore>>,
    /// States embedded by the engines that share this encoder.
    states: StateCache,
}

impl Default for Embedder {
    fn default() -> Self {
        Self::new()
    }
}

impl Embedder {
    /// The fast encoder alone ([`Encoders::MiniLmL3`]).
    pub fn new() -> Self {
        Self::with(Encoders::MiniLmL3)
    }

    pub fn with(encoders: Encoders) -> Self {
        Self {
            encoders,
            identity: encoders.identity(),
            encoder: OnceLock::new(),
            l6: OnceLock::new(),
            layered: OnceLock::new(),
            tokenizer: OnceLock::new(),
            cache: Mutex::new(LruCache::new(
                NonZeroUsize::new(CACHE_ENTRIES).unwrap_or(NonZeroUsize::MIN),
            )),
            store: OnceLock::new(),
            states: StateCache::new(CACHED_BYTES),
        }
    }

    /// Attach a persistent tier (once; later calls are ignored).
    pub fn attach_store(&self, store: Arc<dyn EmbeddingStore>) {
        let _ = self.store.set(store);
    }

    /// What names the encoder (weights and tokenizer) in cache keys, so one model never
    /// reads another's vectors.
    pub fn identity(&self) -> &str {
        &self.identity
    }

    /// The encoders it runs.
    pub fn encoders(&self) -> Encoders {
        self.encoders
    }

    /// The embedded states kept across requests.
    pub fn states(&self) -> &StateCache {
        &self.states
    }

    fn encoder(&self) -> Result<&pocket_encoder::Encoder> {
        self.encoder
            .get_or_init(|| pocket_encoder::Encoder::new().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::internal("loading the built-in encoder", e.as_str()))
    }

    fn l6(&self) -> Result<&super::bert::MiniLmL6> {
        self.l6
            .get_or_init(|| super::bert::MiniLmL6::load().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::internal("loading the built-in encoder", e.as_str()))
    }

    /// The fast encoder layer by layer, for fine-tuning it and for the checkpoints that
    /// carry a fine-tune ([`super::tuned`]); only [`Encoders::MiniLmL3`] is tunable.
    pub fn layered(&self) -> Result<&super::tuned::Layered> {
        if self.encoders != Encoders::MiniLmL3 {
            return Err(Error::bug("only the fast encoder alone is tunable"));
        }
        self.layered
            .get_or_init(|| super::tuned::Layered::load().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::internal("loading the built-in encoder", e.as_str()))
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
            .map_err(|e| Error::internal("loading the tokenizer", e.as_str()))
    }

    /// Embed `text` (not blank) without caching it. A text longer than
    /// [`MAX_ENCODED_BYTES`] is read from its first window: the tokens the encoders read of
    /// it anyway.
    pub fn embed(&self, text: &str) -> Result<Vec<f32>> {
        let window;
        let text = if text.len() > MAX_ENCODED_BYTES {
            window = self
                .cut(text, 1)?
                .pop()
                .ok_or_else(|| Error::bug("a text with nothing to read reached the encoder"))?;
            window.text.as_str()
        } else {
            text
        };
        let l3 = self
            .encoder()?
            .embed(&[text])
            .map_err(|e| Error::internal("embedding", e))?
            .pop()
            .ok_or_else(|| Error::bug("the encoder returned no vector"))?;
        match self.encoders {
            Encoders::MiniLmL3 => Ok(l3),
            Encoders::L3WithL6 => {
                let l6 = self
                    .l6()?
                    .embed_many(self.tokenizer()?, &[text], MAX_TOKENS)?
                    .pop()
                    .ok_or_else(|| Error::bug("the encoder returned no vector"))?;
                Ok(side_by_side(&l3, &l6))
            }
        }
    }

    /// Embed an outcome text (not blank), from the cache when it was seen before.
    pub fn embed_cached(&self, text: &str) -> Result<Arc<Embedding>> {
        self.cached(CacheKind::Text, text)
    }

    /// Those of `texts` not in the in-memory cache yet, each once, in order.
    pub fn missing<'a>(&self, texts: impl IntoIterator<Item = &'a String>) -> Vec<String> {
        let cache = self.lock_cache();
        let mut seen = std::collections::HashSet::new();
        texts
            .into_iter()
            .filter(|t| !cache.contains(&(CacheKind::Text, (*t).clone())) && seen.insert(*t))
            .cloned()
            .collect()
    }

    /// Whether every encoder it runs is loaded.
    pub fn is_loaded(&self) -> bool {
        self.encoder.get().is_some()
            && (self.encoders == Encoders::MiniLmL3 || self.l6.get().is_some())
    }

    /// Load the encoders it runs, the slowest first (a failure shows again at first use).
    pub fn load(&self) {
        if self.encoders == Encoders::L3WithL6 {
            let _ = self.l6();
        }
        let _ = self.encoder();
    }

    /// [`Self::embed_cached`] for each of `texts` (those [`Self::missing`] found), one
    /// thread per core: each text alone, so its vector has the same bits whichever thread
    /// made it, and a question first seen costs its slowest outcomes, not all of them (what
    /// a cold `decide` pays).
    pub fn cache_all(&self, texts: &[String]) -> Result<()> {
        crate::parallel::map_on_all_cores(
            texts.len(),
            || false,
            |i| self.embed_cached(&texts[i]).map(drop),
        )
        .into_iter()
        .try_for_each(|done| {
            done.unwrap_or_else(|| {
                Err(Error::bug(
                    "an outcome was not embedded: a worker thread failed",
                ))
            })
        })
    }

    /// Embed a document (an exemplar state's text) from its first window, from the cache
    /// when it was seen before. `None` when it has nothing to read.
    pub fn embed_document_cached(&self, text: &str) -> Result<Option<Arc<Embedding>>> {
        if text.trim().is_empty() {
            return Ok(None);
        }
        self.cached(CacheKind::Document, text).map(Some)
    }

    /// Put a document's embedding, computed elsewhere (an alignment embedded every
    /// annotated state already), into both tiers.
    pub fn remember_documents(&self, documents: Vec<(String, Embedding)>) {
        let mut entries = Vec::with_capacity(documents.len());
        for (text, embedding) in documents {
            if self.store.get().is_some() {
                entries.push((
                    self.store_key(CacheKind::Document, &text),
                    embedding.clone(),
                ));
            }
            self.lock_cache()
                .put((CacheKind::Document, text), Arc::new(embedding));
        }
        if let Some(store) = self.store.get() {
            store.save(&entries);
        }
    }

    fn cached(&self, kind: CacheKind, text: &str) -> Result<Arc<Embedding>> {
        let key = (kind, text.to_owned());
        if let Some(hit) = self.lock_cache().get(&key) {
            return Ok(hit.clone());
        }
        let store_key = self.store_key(kind, text);
        // Exemplar documents are worth a disk read, and so are outcome texts for the paired
        // encoders (L6 takes ~20 ms a text: the bulk of a cold `decide`); L3's are cheaper
        // to embed than the database is to open.
        let store = self
            .store
            .get()
            .filter(|_| kind == CacheKind::Document || self.encoders == Encoders::L3WithL6);
        let stored = store.and_then(|store| store.load(&store_key));
        let embedding = if let Some(embedding) = stored {
            Arc::new(embedding)
        } else {
            // Computed outside the lock: two threads may embed the same text once each,
            // which is cheaper than serializing every miss behind one mutex.
            let embedding = self.compute(kind, text)?;
            if let Some(store) = store {
                store.save(&[(store_key, embedding.clone())]);
            }
            Arc::new(embedding)
        };
        self.lock_cache().put(key, embedding.clone());
        Ok(embedding)
    }

    fn compute(&self, kind: CacheKind, text: &str) -> Result<Embedding> {
        match kind {
            CacheKind::Text => Ok(Embedding {
                tokens: (self.count_tokens(text)? + 2).min(MAX_TOKENS) as u64,
                vector: self.embed(text)?,
            }),
            CacheKind::Document => {
                let window = self.first_window(text)?.ok_or_else(|| {
                    Error::bug("a document with nothing to read reached the encoder")
                })?;
                Ok(Embedding {
                    vector: self.embed(&window.text)?,
                    tokens: window.tokens,
                })
            }
        }
    }

    /// The persistent key of a text: it names the encoder (weights and tokenizer), so a
    /// different model never reads another's vectors.
    fn store_key(&self, kind: CacheKind, text: &str) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut hasher = Sha256::new();
        hasher.update(self.identity().as_bytes());
        hasher.update(match kind {
            CacheKind::Text => b"|text|",
            CacheKind::Document => b"|doc1|",
        });
        hasher.update(text.as_bytes());
        hasher.finalize().into()
    }

    fn lock_cache(
        &self,
    ) -> std::sync::MutexGuard<'_, LruCache<(CacheKind, String), Arc<Embedding>>> {
        // A panic while holding the lock leaves a consistent cache (put/get are atomic).
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// `WordPiece` tokens of `text`, without special tokens.
    pub fn count_tokens(&self, text: &str) -> Result<usize> {
        Ok(self
            .tokenizer()?
            .encode_fast(text, false)
            .map_err(|e| Error::internal("tokenizing", e))?
            .len())
    }

    /// The first window of `text` (at most [`WINDOW_TOKENS`] tokens), or none when blank.
    pub fn first_window(&self, text: &str) -> Result<Option<Window>> {
        Ok(self.cut(text, 1)?.into_iter().next())
    }

    /// Overlapping windows covering all of `text`.
    pub fn all_windows(&self, text: &str) -> Result<Vec<Window>> {
        self.cut(text, usize::MAX)
    }

    /// Overlapping windows over the first `budget` tokens of `text`, and how many tokens
    /// it has: with `truncate`, counted only as far as the budget; without, exactly up to
    /// twice the budget (worth telling a caller whose state is near it), and past that
    /// only as "at least" (a longer count costs tokenizing and tells nothing more).
    /// Gives up (with [`super::answer::stopped`]'s error) between pieces of the text once
    /// `stop` is set.
    pub fn windows_within(
        &self,
        text: &str,
        budget: usize,
        truncate: bool,
        stop: &AtomicBool,
    ) -> Result<Within> {
        let counted = if truncate {
            budget
        } else {
            budget.saturating_mul(2)
        };
        let read = self.tokens_of(text, counted.saturating_add(1), stop)?;
        let kept = read.tokens.len().min(budget);
        Ok(Within {
            windows: windows_of(
                text,
                (&read.offsets[..kept], &read.tokens[..kept]),
                usize::MAX,
            ),
            tokens: read.tokens.len(),
            counted_all: read.whole,
        })
    }

    /// Windows of `text`, at most `limit` of them.
    fn cut(&self, text: &str, limit: usize) -> Result<Vec<Window>> {
        // The tokens the windows span, and one more: a window ending where the tokens read
        // end would be taken for the text's last.
        let enough = (limit.saturating_sub(1))
            .saturating_mul(WINDOW_STRIDE)
            .saturating_add(WINDOW_TOKENS + 1);
        let read = self.tokens_of(text, enough, &AtomicBool::new(false))?;
        Ok(windows_of(text, (&read.offsets, &read.tokens), limit))
    }

    /// The tokens of `text`, read a piece at a time ([`PIECE_BYTES`]) until at least
    /// `enough` are read or the text ends; between pieces, an error once `stop` is set.
    /// Tokenizing costs over a second per MB: a long state read only in part (truncated,
    /// over its budget, or abandoned by its client) is tokenized only as far as it is read.
    fn tokens_of(&self, text: &str, enough: usize, stop: &AtomicBool) -> Result<Tokenized> {
        let tokenizer = self.tokenizer()?;
        let mut read = Tokenized::default();
        let mut start = 0;
        while start < text.len() {
            if read.tokens.len() >= enough {
                return Ok(read);
            }
            super::answer::stopped(stop)?;
            let end = piece_end(text, start);
            let encoding = tokenizer
                .encode(&text[start..end], false)
                .map_err(|e| Error::internal("tokenizing", e))?;
            read.offsets.extend(
                encoding
                    .get_offsets()
                    .iter()
                    .map(|&(from, to)| (from + start, to + start)),
            );
            read.tokens.extend_from_slice(encoding.get_tokens());
            start = end;
        }
        read.whole = true;
        Ok(read)
    }
}

/// The windows of a state within its budget ([`Embedder::windows_within`]).
pub struct Within {
    pub windows: Vec<Window>,
    /// The tokens counted: the text's, when [`Self::counted_all`], else at least this many.
    pub tokens: usize,
    pub counted_all: bool,
}

/// The tokens of a text, or of its beginning ([`Embedder::tokens_of`]): their byte
/// offsets in the text and the tokens themselves.
#[derive(Default)]
struct Tokenized {
    offsets: Vec<(usize, usize)>,
    tokens: Vec<String>,
    /// Whether the whole text was read.
    whole: bool,
}

/// Where the piece of `text` from `start` ends: after the last space, line break or ASCII
/// punctuation within [`PIECE_BYTES`] (in a run without one, after the next one, else at
/// the end). The tokenizer splits words there and normalizes character by character, so
/// each piece gives the tokens it gives within the whole text. Brackets are never a cut:
/// they belong to the special tokens (`[UNK]`) it matches in the raw text.
fn piece_end(text: &str, start: usize) -> usize {
    let limit = start.saturating_add(PIECE_BYTES);
    if limit >= text.len() {
        return text.len();
    }
    let cut = |b: &u8| {
        matches!(b, b' ' | b'\n') || (b.is_ascii_punctuation() && !matches!(b, b'[' | b']'))
    };
    let bytes = text.as_bytes();
    if let Some(at) = bytes[start..limit].iter().rposition(cut) {
        return start + at + 1;
    }
    bytes[limit..]
        .iter()
        .position(cut)
        .map_or(text.len(), |at| limit + at + 1)
}

/// Windows of `text` over its tokens (their offsets, and the tokens themselves), at most
/// `limit` of them. A window whose text is longer than [`MAX_ENCODED_BYTES`] is written as
/// its tokens ([`spelled`]).
fn windows_of(
    text: &str,
    (offsets, tokens): (&[(usize, usize)], &[String]),
    limit: usize,
) -> Vec<Window> {
    let mut windows = Vec::new();
    let mut start = 0;
    while start < offsets.len() && windows.len() < limit {
        let end = (start + WINDOW_TOKENS).min(offsets.len());
        let (from, to) = (offsets[start].0, offsets[end - 1].1);
        if let Some(slice) = text.get(from..to)
            && !slice.trim().is_empty()
        {
            let text = if slice.len() > MAX_ENCODED_BYTES {
                spelled(&tokens[start..end])
            } else {
                slice.to_owned()
            };
            windows.push(Window {
                text,
                tokens: (end - start + 2) as u64,
            });
        }
        if end == offsets.len() {
            break;
        }
        start += WINDOW_STRIDE;
    }
    windows
}

/// `WordPiece` tokens written back as text that the tokenizer reads as the same tokens: a
/// word's pieces joined (`##` marks a continuation), words apart, and `[UNK]` (a word
/// longer than the tokenizer reads, or a character it does not know) as itself, which
/// the tokenizer matches as the special token. The tokens are normalized already, so
/// normalizing them again changes nothing. (A window that starts inside a word reads its
/// first piece as a word of its own.)
fn spelled(tokens: &[String]) -> String {
    let mut text = String::new();
    for token in tokens {
        if let Some(piece) = token.strip_prefix("##") {
            text.push_str(piece);
        } else {
            if !text.is_empty() {
                text.push(' ');
            }
            text.push_str(token);
        }
    }
    text
}

/// Two unit vectors as one: concatenated, each scaled by 1/√2, so the result is a unit
/// vector and its dot product with another such vector is the mean of the two dot products.
fn side_by_side(a: &[f32], b: &[f32]) -> Vec<f32> {
    a.iter()
        .chain(b)
        .map(|x| x * std::f32::consts::FRAC_1_SQRT_2)
        .collect()
}

#[cfg(test)]
mod tests;
