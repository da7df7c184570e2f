//! The bundled tokenizer and the encoders' token limit: what the encoder modules
//! ([`super::embedder`], [`super::tuned`]) read, below them both.

/// Tokens the encoder reads per text, special tokens included.
pub const MAX_TOKENS: usize = 128;

/// The bundled tokenizer, byte-identical to the one inside pocket-encoder (a test checks the
/// hash against `pocket_encoder::model_info()`), so windows cut here are what the encoder reads.
pub(super) const TOKENIZER_JSON: &[u8] = include_bytes!("../../../assets/tokenizer.json");
