//! `mo`'s encoder (pocket-encoder's `MiniLM-L3`) with its top layer run here, so that an
//! alignment can fine-tune it (`SetFit`: pairs of annotated states pulled together when
//! their answers agree and apart when they do not) and a checkpoint can carry the result.
//!
//! What is tuned is a low-rank delta `A·B` (rank [`RANK`]) on the top layer's output
//! projection, the one linear map between the layer's feed-forward activations and its last
//! normalization: `LayerNorm(dense(act) + attention + act·A·B)`. Everything below it is the
//! base encoder's, so one pass gives both vectors: the base one, bit for bit what
//! pocket-encoder gives (the bottom layers are candle's own `BertModel`, the top layer the
//! same candle operations in the same order), for zero-shot; and the tuned one, for the
//! heads that read it. A decision at a tuned checkpoint costs one encoder pass and a rank-8
//! product, not two passes. Training reads only what enters that projection
//! ([`TopInputs`]), computed once per state: a pair step costs no encoder pass at all.

use crate::error::{Error, Result};
use candle_core::{D, DType, Device, Tensor, Var};
use candle_nn::{LayerNorm, Linear, Module, Optimizer, VarBuilder};
use candle_transformers::models::bert::{BertModel, Config};
use std::collections::HashMap;
use tokenizers::{Tokenizer, TruncationParams};

/// The delta's rank: 8 × (1536 + 384) floats, 61 KiB on disk.
pub const RANK: usize = 8;
/// The layer tuned: the top one of three.
pub const LAYER: usize = 2;
const HIDDEN: usize = 384;
const INTERMEDIATE: usize = 1536;
const HEADS: usize = 12;
const EPS: f64 = 1e-12;
/// What a delta file names as the encoder it tunes: another encoder's delta is refused.
pub const ENCODER: &str = "pocket-encoder/minilm-l3-q4-g32-v1";

fn candle(context: &'static str) -> impl Fn(candle_core::Error) -> Error {
    move |e| Error::internal(context, e)
}

/// The encoder, its bottom layers as candle's `BertModel` and its top layer here.
pub struct Layered {
    below: BertModel,
    top: TopLayer,
    tokenizer: Tokenizer,
}

struct TopLayer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: LayerNorm,
    intermediate: Linear,
    out: Linear,
    out_norm: LayerNorm,
}

/// What the top layer's output projection reads for one text (`act`, tokens × 1536) and
/// what its output is added to before the last normalization (`pre`, tokens × 384).
#[derive(Clone)]
pub struct TopInputs {
    act: Tensor,
    pre: Tensor,
}

/// A checkpoint's fine-tuned encoder: its delta and the SHA-256 of its file (what tells
/// two apart, in cache keys).
pub struct Tuning {
    pub digest: String,
    pub delta: Delta,
}

impl std::fmt::Debug for Tuning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tuning")
            .field("digest", &self.digest)
            .finish_non_exhaustive()
    }
}

/// A tuned top layer's low-rank delta: `a` (1536 × rank) and `b` (rank × 384).
#[derive(Clone)]
pub struct Delta {
    a: Tensor,
    b: Tensor,
}

impl Layered {
    /// The bundled weights, dequantized as pocket-encoder dequantizes them.
    pub fn load() -> Result<Self> {
        let tensors: HashMap<String, Tensor> = pocket_encoder::weights()
            .map_err(|e| Error::internal("the encoder weights", e))?
            .into_iter()
            .map(|(name, shape, data)| {
                Tensor::from_vec(data, shape, &Device::Cpu).map(|tensor| (name, tensor))
            })
            .collect::<candle_core::Result<_>>()
            .map_err(candle("the encoder weights"))?;
        let mut config: Config = serde_json::from_str(pocket_encoder::CONFIG_JSON)
            .map_err(|e| Error::internal("the encoder config", e))?;
        config.num_hidden_layers = LAYER;
        let vb = VarBuilder::from_tensors(tensors, DType::F32, &Device::Cpu);
        let below = BertModel::load(vb.clone(), &config).map_err(candle("the encoder"))?;
        let p = format!("encoder.layer.{LAYER}");
        let linear = |name: &str, inputs: usize, outputs: usize| {
            candle_nn::linear(inputs, outputs, vb.pp(format!("{p}.{name}")))
        };
        let norm = |name: &str| candle_nn::layer_norm(HIDDEN, EPS, vb.pp(format!("{p}.{name}")));
        let top = (|| -> candle_core::Result<TopLayer> {
            Ok(TopLayer {
                query: linear("attention.self.query", HIDDEN, HIDDEN)?,
                key: linear("attention.self.key", HIDDEN, HIDDEN)?,
                value: linear("attention.self.value", HIDDEN, HIDDEN)?,
                attention_out: linear("attention.output.dense", HIDDEN, HIDDEN)?,
                attention_norm: norm("attention.output.LayerNorm")?,
                intermediate: linear("intermediate.dense", HIDDEN, INTERMEDIATE)?,
                out: linear("output.dense", INTERMEDIATE, HIDDEN)?,
                out_norm: norm("output.LayerNorm")?,
            })
        })()
        .map_err(candle("the encoder's top layer"))?;
        Ok(Self {
            below,
            top,
            tokenizer: tokenizer()?,
        })
    }

    /// What the top layer's projection reads of `text` (not blank), as pocket-encoder
    /// tokenizes it (right-truncated to 128 tokens).
    pub fn top_inputs(&self, text: &str) -> Result<TopInputs> {
        let encoding = self
            .tokenizer
            .encode(text, true)
            .map_err(|e| Error::internal("tokenizing", e))?;
        self.top_inputs_of(encoding.get_ids(), encoding.get_type_ids())
            .map_err(candle("the encoder"))
    }

    fn top_inputs_of(&self, ids: &[u32], types: &[u32]) -> candle_core::Result<TopInputs> {
        let ids = Tensor::new(ids, &Device::Cpu)?.unsqueeze(0)?;
        let types = Tensor::new(types, &Device::Cpu)?.unsqueeze(0)?;
        let mask = ids.ones_like()?;
        let x = self.below.forward(&ids, &types, Some(&mask))?;
        let top = &self.top;
        // candle's BertSelfAttention without its mask: with every token attended to, the
        // mask adds -0.0, which changes no value.
        let (batch, tokens, _) = x.dims3()?;
        let heads = |y: Tensor| -> candle_core::Result<Tensor> {
            y.reshape((batch, tokens, HEADS, HIDDEN / HEADS))?
                .transpose(1, 2)?
                .contiguous()
        };
        let q = heads(top.query.forward(&x)?)?;
        let k = heads(top.key.forward(&x)?)?;
        let v = heads(top.value.forward(&x)?)?;
        let scores = (q.matmul(&k.t()?)? / ((HIDDEN / HEADS) as f64).sqrt())?;
        let probs = candle_nn::ops::softmax(&scores, D::Minus1)?;
        let context = probs
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .flatten_from(D::Minus2)?;
        let attention = top
            .attention_norm
            .forward(&(top.attention_out.forward(&context)? + &x)?)?;
        let act = top.intermediate.forward(&attention)?.gelu_erf()?;
        let pre = (top.out.forward(&act)? + attention)?;
        Ok(TopInputs { act, pre })
    }

    /// The base encoder's unit vector: what pocket-encoder's `embed` gives, bit for bit.
    pub fn base(&self, inputs: &TopInputs) -> Result<Vec<f32>> {
        let summed = self.summed(&inputs.pre).map_err(candle("the encoder"))?;
        super::bert::normalized(summed)
    }

    /// The tuned encoder's unit vector.
    pub fn tuned(&self, inputs: &TopInputs, delta: &Delta) -> Result<Vec<f32>> {
        let summed = (|| {
            let lifted = inputs
                .act
                .broadcast_matmul(&delta.a)?
                .broadcast_matmul(&delta.b)?;
            self.summed(&(&inputs.pre + lifted)?)
        })()
        .map_err(candle("the tuned encoder"))?;
        super::bert::normalized(summed)
    }

    /// `LayerNorm`, summed over the tokens (pocket-encoder's pooling, before its scaling).
    fn summed(&self, pre: &Tensor) -> candle_core::Result<Vec<f32>> {
        self.top
            .out_norm
            .forward(pre)?
            .sum(1)?
            .squeeze(0)?
            .to_vec1::<f32>()
    }

    /// The layer's output normalization, from differentiable operations (candle's fused
    /// one has no backward pass).
    fn train_norm(&self, x: &Tensor) -> candle_core::Result<Tensor> {
        let centred = x.broadcast_sub(&x.mean_keepdim(D::Minus1)?)?;
        let variance = centred.sqr()?.mean_keepdim(D::Minus1)?;
        let weight = self.top.out_norm.weight();
        let bias = self
            .top
            .out_norm
            .bias()
            .ok_or_else(|| candle_core::Error::Msg("a layer norm without bias".into()))?;
        centred
            .broadcast_div(&(variance + EPS)?.sqrt()?)?
            .broadcast_mul(weight)?
            .broadcast_add(bias)
    }
}

/// pocket-encoder's tokenizer, as it configures it: no padding, right truncation to 128.
fn tokenizer() -> Result<Tokenizer> {
    let mut tokenizer = Tokenizer::from_bytes(super::vocabulary::TOKENIZER_JSON)
        .map_err(|e| Error::internal("loading the tokenizer", e))?;
    tokenizer.with_padding(None);
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: super::vocabulary::MAX_TOKENS,
            ..TruncationParams::default()
        }))
        .map_err(|e| Error::internal("loading the tokenizer", e))?;
    Ok(tokenizer)
}

/// One training pair: two states (indices into the inputs) and how alike their answers
/// are (1 when they agree on every question both have, 0 when on none).
pub type Pair = (usize, usize, f64);

/// How a fine-tune runs.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// Pair steps in all (batches of [`Budget::batch`] pairs).
    pub steps: usize,
    pub batch: usize,
    pub learning_rate: f64,
}

impl Budget {
    /// The budget `align --tune` uses: a starting point, not a tuned one (no budget tried
    /// on the learning bench's development split made the fine-tune pay; see the guide).
    pub const DEFAULT: Self = Self {
        steps: 60,
        batch: 16,
        learning_rate: 3e-4,
    };
}

/// Fine-tune the delta on `pairs` of `inputs` (seeded: the same pairs and seed give the
/// same delta). `step` is told after each step (done, of how many) and may stop it (false).
pub fn fine_tune(
    layered: &Layered,
    inputs: &[&TopInputs],
    pairs: &[Pair],
    budget: Budget,
    seed: u64,
    step: &mut dyn FnMut(usize, usize) -> bool,
) -> Result<Delta> {
    fit_delta(layered, inputs, pairs, budget, seed, step).map_err(candle("fine-tuning the encoder"))
}

fn fit_delta(
    layered: &Layered,
    inputs: &[&TopInputs],
    pairs: &[Pair],
    budget: Budget,
    seed: u64,
    step: &mut dyn FnMut(usize, usize) -> bool,
) -> candle_core::Result<Delta> {
    let mut rng = fastrand::Rng::with_seed(seed);
    // LoRA's start: `a` small and random, `b` zero, so the tuned encoder starts as the base.
    let bound = 1.0 / (INTERMEDIATE as f64).sqrt();
    #[allow(clippy::cast_possible_truncation)]
    let a: Vec<f32> = (0..INTERMEDIATE * RANK)
        .map(|_| ((rng.f64() * 2.0 - 1.0) * bound) as f32)
        .collect();
    let a = Var::from_tensor(&Tensor::from_vec(a, (INTERMEDIATE, RANK), &Device::Cpu)?)?;
    let b = Var::zeros((RANK, HIDDEN), DType::F32, &Device::Cpu)?;
    let mut optimizer = candle_nn::AdamW::new(
        vec![a.clone(), b.clone()],
        candle_nn::ParamsAdamW {
            lr: budget.learning_rate,
            weight_decay: 0.0,
            ..candle_nn::ParamsAdamW::default()
        },
    )?;
    if pairs.is_empty() {
        return Ok(Delta {
            a: a.as_tensor().clone(),
            b: b.as_tensor().clone(),
        });
    }
    let mut order: Vec<usize> = (0..pairs.len()).collect();
    let mut at = order.len();
    for done in 0..budget.steps {
        // Batches walk a seeded shuffle of the pairs, reshuffled at each pass.
        let mut batch = Vec::with_capacity(budget.batch);
        while batch.len() < budget.batch.min(pairs.len()) {
            if at == order.len() {
                rng.shuffle(&mut order);
                at = 0;
            }
            batch.push(pairs[order[at]]);
            at += 1;
        }
        let loss = batch_loss(layered, inputs, &batch, a.as_tensor(), b.as_tensor())?;
        optimizer.backward_step(&loss)?;
        if !step(done + 1, budget.steps) {
            break;
        }
    }
    Ok(Delta {
        a: a.as_tensor().clone(),
        b: b.as_tensor().clone(),
    })
}

/// The mean squared gap between each pair's cosine and its target, over `batch`.
fn batch_loss(
    layered: &Layered,
    inputs: &[&TopInputs],
    batch: &[Pair],
    a: &Tensor,
    b: &Tensor,
) -> candle_core::Result<Tensor> {
    // Each state of the batch once: its tokens concatenated, pooled by a 0/1 matrix.
    let mut members: Vec<usize> = batch.iter().flat_map(|&(i, j, _)| [i, j]).collect();
    members.sort_unstable();
    members.dedup();
    let position = |i: usize| members.binary_search(&i).unwrap_or(0);
    let acts: Vec<Tensor> = members
        .iter()
        .map(|&i| inputs[i].act.squeeze(0))
        .collect::<candle_core::Result<_>>()?;
    let pres: Vec<Tensor> = members
        .iter()
        .map(|&i| inputs[i].pre.squeeze(0))
        .collect::<candle_core::Result<_>>()?;
    let lengths: Vec<usize> = acts.iter().map(|t| t.dims()[0]).collect();
    let total: usize = lengths.iter().sum();
    let act = Tensor::cat(&acts, 0)?;
    let pre = Tensor::cat(&pres, 0)?;
    let hidden = layered.train_norm(&(pre + act.matmul(a)?.matmul(b)?)?)?;
    let mut pool = vec![0f32; members.len() * total];
    let mut start = 0;
    for (m, length) in lengths.iter().enumerate() {
        for t in start..start + length {
            pool[m * total + t] = 1.0;
        }
        start += length;
    }
    let pool = Tensor::from_vec(pool, (members.len(), total), &Device::Cpu)?;
    let summed = pool.matmul(&hidden)?;
    let unit = summed.broadcast_div(&summed.sqr()?.sum_keepdim(1)?.sqrt()?)?;
    let left: Vec<u32> = batch.iter().map(|p| position(p.0) as u32).collect();
    let right: Vec<u32> = batch.iter().map(|p| position(p.1) as u32).collect();
    #[allow(clippy::cast_possible_truncation)]
    let targets: Vec<f32> = batch.iter().map(|p| p.2 as f32).collect();
    let n = batch.len();
    let left = unit.index_select(&Tensor::from_vec(left, n, &Device::Cpu)?, 0)?;
    let right = unit.index_select(&Tensor::from_vec(right, n, &Device::Cpu)?, 0)?;
    let cosines = (left * right)?.sum(1)?;
    (cosines - Tensor::from_vec(targets, n, &Device::Cpu)?)?
        .sqr()?
        .mean_all()
}

/// Metadata keys of a delta file.
const META_ENCODER: &str = "encoder";
const META_LAYER: &str = "layer";

impl Delta {
    /// The delta as a safetensors file: `a` F32 \[1536, rank\], `b` F32 \[rank, 384\], with
    /// the encoder and layer it tunes in its metadata.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let a = self.a.flatten_all().and_then(|t| t.to_vec1::<f32>());
        let b = self.b.flatten_all().and_then(|t| t.to_vec1::<f32>());
        let (a, b) = (
            a.map_err(candle("the tuned delta"))?,
            b.map_err(candle("the tuned delta"))?,
        );
        let bytes = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        let tensors = [
            ("a", vec![INTERMEDIATE, RANK], bytes(&a)),
            ("b", vec![RANK, HIDDEN], bytes(&b)),
        ];
        let views: Vec<(&str, safetensors::tensor::TensorView<'_>)> = tensors
            .iter()
            .map(|(name, shape, data)| {
                safetensors::tensor::TensorView::new(safetensors::Dtype::F32, shape.clone(), data)
                    .map(|view| (*name, view))
            })
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| Error::internal("the tuned delta", e))?;
        let metadata = HashMap::from([
            (META_ENCODER.to_owned(), ENCODER.to_owned()),
            (META_LAYER.to_owned(), LAYER.to_string()),
        ]);
        safetensors::serialize(views, Some(metadata))
            .map_err(|e| Error::internal("the tuned delta", e))
    }

    /// Read a delta file, saying what is wrong with one that is not this encoder's.
    pub fn from_bytes(bytes: &[u8]) -> std::result::Result<Self, String> {
        let (_, metadata) = safetensors::SafeTensors::read_metadata(bytes)
            .map_err(|e| format!("not safetensors: {e}"))?;
        let meta = metadata.metadata().clone().unwrap_or_default();
        let encoder = meta.get(META_ENCODER).map_or("(none)", String::as_str);
        if encoder != ENCODER {
            return Err(format!(
                "tunes encoder `{encoder}`; this arbiter's tunable encoder is `{ENCODER}`"
            ));
        }
        let layer = meta.get(META_LAYER).map_or("(none)", String::as_str);
        if layer != LAYER.to_string() {
            return Err(format!(
                "tunes layer {layer}; this arbiter tunes layer {LAYER}"
            ));
        }
        let file = safetensors::SafeTensors::deserialize(bytes)
            .map_err(|e| format!("not safetensors: {e}"))?;
        let read = |name: &str, shape: [usize; 2]| -> std::result::Result<Tensor, String> {
            let view = file
                .tensor(name)
                .map_err(|_| format!("has no tensor `{name}`"))?;
            if view.dtype() != safetensors::Dtype::F32 || view.shape() != shape {
                return Err(format!(
                    "tensor `{name}` is {:?} {:?}; expected F32 {shape:?}",
                    view.dtype(),
                    view.shape()
                ));
            }
            let values: Vec<f32> = view
                .data()
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            if values.iter().any(|v| !v.is_finite()) {
                return Err(format!(
                    "tensor `{name}` holds a value that is not a finite number"
                ));
            }
            Tensor::from_vec(values, shape.to_vec(), &Device::Cpu).map_err(|e| e.to_string())
        };
        Ok(Self {
            a: read("a", [INTERMEDIATE, RANK])?,
            b: read("b", [RANK, HIDDEN])?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layered() -> Layered {
        Layered::load().unwrap()
    }

    /// The base vector is pocket-encoder's, bit for bit: zero-shot at a tuned checkpoint
    /// answers what it answers anywhere.
    #[test]
    fn the_base_vector_is_pocket_encoders_bit_for_bit() {
        let layered = layered();
        let encoder = pocket_encoder::Encoder::new().unwrap();
        let long = "word ".repeat(300);
        for text in ["refund my order please", "the parcel never arrived", &long] {
            let ours = layered.base(&layered.top_inputs(text).unwrap()).unwrap();
            let theirs = encoder.embed(&[text]).unwrap().pop().unwrap();
            assert_eq!(ours, theirs, "{text:.40}");
        }
    }

    /// A fine-tune pulls states with the same answer together and pushes the others apart;
    /// the delta survives its file, and the untrained delta leaves the encoder as it was.
    // One scenario (untrained, trained, read back) over the same states.
    #[allow(clippy::too_many_lines)]
    #[test]
    fn a_fine_tune_separates_the_answers_and_round_trips_through_its_file() {
        let layered = layered();
        let texts = [
            "I want my money back for this order",
            "please refund the charge on my card",
            "refund me, the item was broken",
            "where is my parcel, it has not arrived",
            "the delivery is late again",
            "tracking says the package is lost",
        ];
        let inputs: Vec<TopInputs> = texts
            .iter()
            .map(|t| layered.top_inputs(t).unwrap())
            .collect();
        let refs: Vec<&TopInputs> = inputs.iter().collect();
        let label = |i: usize| usize::from(i >= 3);
        let mut pairs = Vec::new();
        for i in 0..texts.len() {
            for j in 0..texts.len() {
                if i != j {
                    pairs.push((i, j, if label(i) == label(j) { 1.0 } else { 0.0 }));
                }
            }
        }
        let gap = |vectors: &[Vec<f32>]| {
            let cos = |i: usize, j: usize| -> f64 {
                vectors[i]
                    .iter()
                    .zip(&vectors[j])
                    .map(|(a, b)| f64::from(*a) * f64::from(*b))
                    .sum()
            };
            let (mut same, mut other) = (Vec::new(), Vec::new());
            for &(i, j, target) in &pairs {
                if target > 0.5 { &mut same } else { &mut other }.push(cos(i, j));
            }
            same.iter().sum::<f64>() / same.len() as f64
                - other.iter().sum::<f64>() / other.len() as f64
        };
        let zero = fine_tune(
            &layered,
            &refs,
            &pairs,
            Budget {
                steps: 0,
                ..Budget::DEFAULT
            },
            1,
            &mut |_, _| true,
        )
        .unwrap();
        let base: Vec<Vec<f32>> = inputs.iter().map(|x| layered.base(x).unwrap()).collect();
        let untrained: Vec<Vec<f32>> = inputs
            .iter()
            .map(|x| layered.tuned(x, &zero).unwrap())
            .collect();
        assert_eq!(base, untrained);
        let mut steps = 0;
        let delta = fine_tune(
            &layered,
            &refs,
            &pairs,
            Budget::DEFAULT,
            1,
            &mut |done, of| {
                steps = done;
                assert_eq!(of, Budget::DEFAULT.steps);
                true
            },
        )
        .unwrap();
        assert_eq!(steps, Budget::DEFAULT.steps);
        let tuned: Vec<Vec<f32>> = inputs
            .iter()
            .map(|x| layered.tuned(x, &delta).unwrap())
            .collect();
        assert!(
            gap(&tuned) > gap(&base) + 0.05,
            "{} vs {}",
            gap(&tuned),
            gap(&base)
        );
        let read = Delta::from_bytes(&delta.to_bytes().unwrap()).unwrap();
        let again: Vec<Vec<f32>> = inputs
            .iter()
            .map(|x| layered.tuned(x, &read).unwrap())
            .collect();
        assert_eq!(tuned, again);
    }

    #[test]
    fn a_delta_of_another_encoder_or_shape_is_refused_with_the_reason() {
        let layered = layered();
        let delta = fine_tune(&layered, &[], &[], Budget::DEFAULT, 1, &mut |_, _| true).unwrap();
        let bytes = delta.to_bytes().unwrap();
        // Another encoder's name of the same length: the header stays well formed.
        let at = bytes
            .windows(ENCODER.len())
            .position(|w| w == ENCODER.as_bytes())
            .unwrap();
        let mut other = bytes.clone();
        other[at..at + ENCODER.len()].copy_from_slice(b"pocket-encoder/minilm-l9-q4-g32-v1");
        let err = Delta::from_bytes(&other).err().unwrap();
        assert!(err.contains("tunes encoder"), "{err}");
        let err = Delta::from_bytes(&bytes[..bytes.len() / 2]).err().unwrap();
        assert!(err.contains("not safetensors"), "{err}");
        let err = Delta::from_bytes(b"garbage").err().unwrap();
        assert!(err.contains("not safetensors"), "{err}");
    }
}
