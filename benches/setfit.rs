//! Development experiment for issue "Learn from every label": does `SetFit`-style
//! contrastive fine-tuning of the encoder's top layers pay over a logistic head on the
//! frozen encoder? Not part of `align` (yet): this measures whether it would be worth it.
//!
//! The encoder is the built-in all-MiniLM-L6-v2 (the same weights, widened to F32), written
//! out here layer by layer in candle so that its top layers can be trained. For each set
//! and seed, the split is the learning bench's development split (`benches/learning.rs`
//! with `LEARNING_DEV=1`): the pool half, split again into the examples drawn from and the
//! examples scored on. The fresh half is never read, so no choice made here is made on the
//! examples the learning bench reports.
//!
//! Per question, on the same n drawn examples and scored on the same held-out ones:
//! - frozen: the state's text (first window, `SETFIT_MAX_TOKENS`) through the whole
//!   encoder, mean-pooled, unit length, then multinomial logistic regression with
//!   scikit-learn's default L2 (C = 1) by L-BFGS: what `SetFit`'s head is;
//! - `SetFit`: the top `SETFIT_LAYERS` layers trained first on pairs of the n examples
//!   (per iteration, each example with one of its class and one of another), cosine
//!   similarity against 1 or 0 under a squared loss, `AdamW` at `SETFIT_LR`, batches of
//!   16, one epoch; then the same head on the fine-tuned embeddings.
//!
//! Prints one line per (set, seed, question), then the means per set and overall, and the
//! training time per question.
//! Run: `cargo bench --bench setfit` (`SETFIT_SETS=sentiment`, `SETFIT_SEEDS=2`,
//! `SETFIT_N=64`, `SETFIT_LAYERS=2`, `SETFIT_LR=3e-4`, `SETFIT_ITERS=10`,
//! `SETFIT_MAX_TOKENS=128`).
#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    clippy::too_many_lines,
    clippy::many_single_char_names
)]

use arbiter::engine::builtin::learned::lbfgs::Stop;
use candle_core::{D, DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use serde_json::Value;
use std::collections::HashMap;
use std::time::Instant;
use tokenizers::Tokenizer;

#[path = "common/logistic.rs"]
mod logistic;
#[path = "common/split.rs"]
mod split;

type Result<T> = candle_core::Result<T>;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const HEADS: usize = 12;
const HIDDEN: usize = 384;

fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

struct Linear {
    weight: Tensor,
    bias: Tensor,
}

impl Linear {
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        x.broadcast_matmul(&self.weight.t()?)?
            .broadcast_add(&self.bias)
    }
}

/// Layer normalization from differentiable operations (candle's fused one has no backward).
fn layer_norm(x: &Tensor, (weight, bias): &(Tensor, Tensor)) -> Result<Tensor> {
    let centred = x.broadcast_sub(&x.mean_keepdim(D::Minus1)?)?;
    let variance = centred.sqr()?.mean_keepdim(D::Minus1)?;
    centred
        .broadcast_div(&(variance + 1e-12)?.sqrt()?)?
        .broadcast_mul(weight)?
        .broadcast_add(bias)
}

struct Layer {
    query: Linear,
    key: Linear,
    value: Linear,
    attention_out: Linear,
    attention_norm: (Tensor, Tensor),
    intermediate: Linear,
    out: Linear,
    out_norm: (Tensor, Tensor),
}

impl Layer {
    /// One BERT layer over `x` of shape (1, tokens, 384), no padding.
    fn forward(&self, x: &Tensor) -> Result<Tensor> {
        let (batch, tokens, _) = x.dims3()?;
        let heads = |y: Tensor| -> Result<Tensor> {
            y.reshape((batch, tokens, HEADS, HIDDEN / HEADS))?
                .transpose(1, 2)?
                .contiguous()
        };
        let q = heads(self.query.forward(x)?)?;
        let k = heads(self.key.forward(x)?)?;
        let v = heads(self.value.forward(x)?)?;
        let scale = 1.0 / ((HIDDEN / HEADS) as f64).sqrt();
        let attention = (q.matmul(&k.t()?.contiguous()?)? * scale)?;
        let attention = candle_nn::ops::softmax(&attention, D::Minus1)?;
        let context = attention
            .matmul(&v)?
            .transpose(1, 2)?
            .contiguous()?
            .reshape((batch, tokens, HIDDEN))?;
        let a = layer_norm(
            &(self.attention_out.forward(&context)? + x)?,
            &self.attention_norm,
        )?;
        let i = self.intermediate.forward(&a)?.gelu_erf()?;
        layer_norm(&(self.out.forward(&i)? + &a)?, &self.out_norm)
    }

    fn tensors(&mut self) -> Vec<&mut Tensor> {
        let mut all = Vec::new();
        for linear in [
            &mut self.query,
            &mut self.key,
            &mut self.value,
            &mut self.attention_out,
            &mut self.intermediate,
            &mut self.out,
        ] {
            all.push(&mut linear.weight);
            all.push(&mut linear.bias);
        }
        for (w, b) in [&mut self.attention_norm, &mut self.out_norm] {
            all.push(w);
            all.push(b);
        }
        all
    }
}

struct Weights(HashMap<String, Tensor>);

impl Weights {
    fn load() -> Self {
        let bytes = std::fs::read(format!("{ROOT}/assets/minilm-l6/model.safetensors"))
            .expect("the encoder's weights");
        let tensors = candle_core::safetensors::load_buffer(&bytes, &Device::Cpu).expect("load");
        Self(
            tensors
                .into_iter()
                .map(|(k, v)| (k, v.to_dtype(DType::F32).expect("F32")))
                .collect(),
        )
    }

    fn get(&self, name: &str) -> Tensor {
        self.0[name].clone()
    }

    fn linear(&self, prefix: &str) -> Linear {
        Linear {
            weight: self.get(&format!("{prefix}.weight")),
            bias: self.get(&format!("{prefix}.bias")),
        }
    }

    fn norm(&self, prefix: &str) -> (Tensor, Tensor) {
        (
            self.get(&format!("{prefix}.weight")),
            self.get(&format!("{prefix}.bias")),
        )
    }

    fn layer(&self, i: usize) -> Layer {
        let p = format!("encoder.layer.{i}");
        Layer {
            query: self.linear(&format!("{p}.attention.self.query")),
            key: self.linear(&format!("{p}.attention.self.key")),
            value: self.linear(&format!("{p}.attention.self.value")),
            attention_out: self.linear(&format!("{p}.attention.output.dense")),
            attention_norm: self.norm(&format!("{p}.attention.output.LayerNorm")),
            intermediate: self.linear(&format!("{p}.intermediate.dense")),
            out: self.linear(&format!("{p}.output.dense")),
            out_norm: self.norm(&format!("{p}.output.LayerNorm")),
        }
    }

    /// Layer `i` with every tensor a trainable variable (a copy: the weights stay as read).
    fn trainable_layer(&self, i: usize, vars: &mut Vec<Var>) -> Result<Layer> {
        let mut layer = self.layer(i);
        for tensor in layer.tensors() {
            let var = Var::from_tensor(&tensor.copy()?)?;
            *tensor = var.as_tensor().clone();
            vars.push(var);
        }
        Ok(layer)
    }

    /// The embedding layer's output for `ids`: (1, tokens, 384).
    fn embed(&self, ids: &[u32]) -> Result<Tensor> {
        let ids_tensor = Tensor::new(ids, &Device::Cpu)?;
        let words = self
            .get("embeddings.word_embeddings.weight")
            .index_select(&ids_tensor, 0)?;
        let positions =
            self.get("embeddings.position_embeddings.weight")
                .narrow(0, 0, ids.len())?;
        let types = self
            .get("embeddings.token_type_embeddings.weight")
            .narrow(0, 0, 1)?;
        let x = (words + positions)?.broadcast_add(&types)?;
        layer_norm(&x, &self.norm("embeddings.LayerNorm"))?.unsqueeze(0)
    }
}

/// Mean-pooled, unit length: (384).
fn pooled(hidden: &Tensor) -> Result<Tensor> {
    let mean = hidden.mean(1)?.squeeze(0)?;
    let norm = mean.sqr()?.sum_all()?.sqrt()?;
    mean.broadcast_div(&norm)
}

fn through(hidden: &Tensor, layers: &[Layer]) -> Result<Tensor> {
    layers
        .iter()
        .try_fold(hidden.clone(), |h, layer| layer.forward(&h))
}

/// `SetFit`'s head: scikit-learn's default logistic regression on the embeddings.
fn fit_head(x: &[Vec<f32>], y: &[usize], classes: usize) -> Vec<f64> {
    let stop = Stop {
        iterations: 200,
        gradient: 1e-5,
    };
    let rows: Vec<Vec<(usize, f64)>> = x.iter().map(|row| dense(row)).collect();
    logistic::fit(&rows, y, x[0].len(), classes, stop)
}

/// A dense row as the sparse rows `logistic` reads.
fn dense(row: &[f32]) -> Vec<(usize, f64)> {
    row.iter()
        .enumerate()
        .map(|(j, v)| (j, f64::from(*v)))
        .collect()
}

fn accuracy(theta: &[f64], x: &[Vec<f32>], y: &[usize], classes: usize) -> f64 {
    let right = x
        .iter()
        .zip(y)
        .filter(|(row, label)| {
            let s = logistic::scores(theta, &dense(row), row.len(), classes);
            (0..classes).max_by(|a, b| s[*a].total_cmp(&s[*b])) == Some(**label)
        })
        .count();
    right as f64 / y.len() as f64
}

struct Settings {
    n: usize,
    layers: usize,
    lr: f64,
    iterations: usize,
}

/// Pairs of the drawn examples: per iteration, each with one of its class and one of
/// another (`SetFit`'s sampling), shuffled.
fn pairs(labels: &[usize], iterations: usize, rng: &mut fastrand::Rng) -> Vec<(usize, usize, f64)> {
    let mut pairs = Vec::new();
    for _ in 0..iterations {
        for (i, label) in labels.iter().enumerate() {
            let same: Vec<usize> = (0..labels.len())
                .filter(|j| labels[*j] == *label && *j != i)
                .collect();
            let other: Vec<usize> = (0..labels.len()).filter(|j| labels[*j] != *label).collect();
            if !same.is_empty() {
                pairs.push((i, same[rng.usize(..same.len())], 1.0));
            }
            if !other.is_empty() {
                pairs.push((i, other[rng.usize(..other.len())], 0.0));
            }
        }
    }
    rng.shuffle(&mut pairs);
    pairs
}

/// The top layers fine-tuned on pairs of `drawn` (their hidden states below those layers).
fn fine_tune(
    weights: &Weights,
    drawn: &[&Tensor],
    labels: &[usize],
    settings: &Settings,
    seed: u64,
) -> Result<Vec<Layer>> {
    let mut vars = Vec::new();
    let top = (6 - settings.layers..6)
        .map(|i| weights.trainable_layer(i, &mut vars))
        .collect::<Result<Vec<_>>>()?;
    let mut optimizer = AdamW::new(
        vars,
        ParamsAdamW {
            lr: settings.lr,
            weight_decay: 0.0,
            ..ParamsAdamW::default()
        },
    )?;
    let mut rng = fastrand::Rng::with_seed(seed);
    for batch in pairs(labels, settings.iterations, &mut rng).chunks(16) {
        let losses = batch
            .iter()
            .map(|(i, j, target)| {
                let a = pooled(&through(drawn[*i], &top)?)?;
                let b = pooled(&through(drawn[*j], &top)?)?;
                ((a * b)?.sum_all()? - *target)?.sqr()
            })
            .collect::<Result<Vec<_>>>()?;
        optimizer.backward_step(&Tensor::stack(&losses, 0)?.mean_all()?)?;
    }
    Ok(top)
}

#[derive(Default)]
struct Sums {
    frozen: f64,
    setfit: f64,
    count: f64,
    seconds: f64,
}

fn main() -> Result<()> {
    let sets = std::env::var("SETFIT_SETS").unwrap_or_else(|_| "support,spam,sentiment".into());
    let seeds: u64 = env_or("SETFIT_SEEDS", 2);
    let max_tokens: usize = env_or("SETFIT_MAX_TOKENS", 128);
    let settings = Settings {
        n: env_or("SETFIT_N", 64),
        layers: env_or("SETFIT_LAYERS", 2).clamp(1, 6),
        lr: env_or("SETFIT_LR", 3e-4),
        iterations: env_or("SETFIT_ITERS", 10),
    };
    println!(
        "(development split; n {}, top {} layers, lr {}, {} iterations, {max_tokens} tokens)",
        settings.n, settings.layers, settings.lr, settings.iterations
    );
    let tokenizer =
        Tokenizer::from_file(format!("{ROOT}/assets/tokenizer.json")).expect("the tokenizer");
    let weights = Weights::load();
    let frozen = 6 - settings.layers;
    let mut overall = Sums::default();
    for set in sets.split(',') {
        let text = std::fs::read_to_string(format!("{ROOT}/examples/{set}/labelled.jsonl"))
            .expect("a labelled set");
        let rows: Vec<Value> = text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| serde_json::from_str(l).expect("a row"))
            .collect();
        let id = |row: &Value| row["example_id"].as_str().expect("an ID").to_owned();
        let questions: Vec<String> = rows[0]["annotations"]
            .as_object()
            .expect("annotations")
            .keys()
            .cloned()
            .collect();
        // Every row's hidden states below the trained layers, once.
        let started = Instant::now();
        let mut below: HashMap<String, Tensor> = HashMap::new();
        for row in &rows {
            let rendered = arbiter::engine::builtin::text::render(&row["state"]);
            let encoding = tokenizer.encode(rendered.as_str(), true).expect("tokens");
            let mut ids = encoding.get_ids().to_vec();
            if ids.len() > max_tokens {
                let last = ids[ids.len() - 1];
                ids.truncate(max_tokens - 1);
                ids.push(last);
            }
            let mut hidden = weights.embed(&ids)?;
            for i in 0..frozen {
                hidden = weights.layer(i).forward(&hidden)?;
            }
            below.insert(id(row), hidden);
        }
        eprintln!(
            "{set}: {} rows through {frozen} frozen layers in {:.1} s",
            rows.len(),
            started.elapsed().as_secs_f64()
        );
        let frozen_top: Vec<Layer> = (frozen..6).map(|i| weights.layer(i)).collect();
        let mut sums = Sums::default();
        for seed in 0..seeds {
            let (mut drawn, scored) = split::split(rows.iter(), seed, true, |r| {
                r["example_id"].as_str().expect("an ID")
            });
            drawn.truncate(settings.n);
            let drawn_hidden: Vec<&Tensor> = drawn.iter().map(|r| &below[&id(r)]).collect();
            let scored_hidden: Vec<&Tensor> = scored.iter().map(|r| &below[&id(r)]).collect();
            for question in &questions {
                let answer = |r: &Value| r["annotations"][question]["answer"].to_string();
                let mut classes: Vec<String> = rows.iter().map(answer).collect();
                classes.sort();
                classes.dedup();
                let class_of = |r: &&Value| {
                    classes
                        .iter()
                        .position(|c| *c == answer(r))
                        .expect("a class")
                };
                let labels: Vec<usize> = drawn.iter().map(class_of).collect();
                let truth: Vec<usize> = scored.iter().map(class_of).collect();
                let embed = |hidden: &[&Tensor], top: &[Layer]| -> Result<Vec<Vec<f32>>> {
                    hidden
                        .iter()
                        .map(|h| pooled(&through(h, top)?)?.to_vec1::<f32>())
                        .collect()
                };
                let score = |top: &[Layer]| -> Result<f64> {
                    let head = fit_head(&embed(&drawn_hidden, top)?, &labels, classes.len());
                    Ok(accuracy(
                        &head,
                        &embed(&scored_hidden, top)?,
                        &truth,
                        classes.len(),
                    ))
                };
                let before = score(&frozen_top)?;
                let started = Instant::now();
                let tuned = fine_tune(&weights, &drawn_hidden, &labels, &settings, seed)?;
                let seconds = started.elapsed().as_secs_f64();
                let after = score(&tuned)?;
                println!(
                    "{set:<10} seed {seed} {question:<12} frozen {before:.3}  setfit {after:.3}  ({:+.3}; fine-tuning {seconds:.1} s)",
                    after - before
                );
                for s in [&mut sums, &mut overall] {
                    s.frozen += before;
                    s.setfit += after;
                    s.count += 1.0;
                    s.seconds += seconds;
                }
            }
        }
        print_sums(set, &sums);
    }
    print_sums("overall", &overall);
    Ok(())
}

fn print_sums(label: &str, sums: &Sums) {
    if sums.count > 0.0 {
        println!(
            "{label}: mean accuracy frozen {:.3}, SetFit {:.3} ({:+.3}); fine-tuning {:.1} s per question",
            sums.frozen / sums.count,
            sums.setfit / sums.count,
            (sums.setfit - sums.frozen) / sums.count,
            sums.seconds / sums.count
        );
    }
}
