//! The learned-parameters format: what `arbiter align` writes into a checkpoint beside
//! `questions.yaml`, and what `decide` at that checkpoint reads.
//!
//! ```text
//! learned/manifest.yaml          what was fitted, how, on which examples (below)
//! learned/<question>.safetensors the head's tensors
//! learned/encoder.safetensors    the fine-tuned encoder's delta, when a head reads it
//! ```
//!
//! ```yaml
//! format: arbiter-learned
//! version: 1
//! encoder: pocket-encoder/minilm-l3…|first-window   # the encoder and how much of the state it reads
//! tuned:                             # optional: the encoder's top layer fine-tuned (SetFit)
//!   file: encoder.safetensors
//!   sha256: 3c…
//!   layer: 2
//!   rank: 8
//!   examples: 64                     # the annotated states its pairs were drawn from
//!   steps: 60                        # pair steps of 16 pairs
//! questions:
//!   intent:
//!     file: intent.safetensors
//!     sha256: 9f…                        # of that file: a hand edit is refused
//!     learner: multinomial               # or ordinal (scores)
//!     outcomes: [refund, shipping, other]
//!     features: {embedding: pooled, dim: 384, words: word-1-2-grams-hashed-sublinear-tfidf, vocabulary: 5120}
//!                                        # embedding: pooled-tuned reads the tuned encoder;
//!                                        # words: …-hashed-tfidf (raw counts) is read too
//!     penalty: {embedding: 1.0, words: 0.3}   # chosen by cross-validation
//!     seed: 7
//!     folds: 5
//!     abstain: {below: 0.62, target_error: 0.05, coverage: 0.8}   # optional: x_abstain below it
//!     fitted:                            # every example fitted on: its fold and its
//!       s-0001: {fold: 2, answer: [0.1, 0.7, 0.2]}   # out-of-fold answer, per outcome
//!     curve:                             # optional (align --curve): out-of-fold figures
//!       - {examples: 8, accuracy: 0.5, logLoss: 0.98}   # at 8, 16, 32, … examples
//!     chosen: head                       # or majority: what cross-validation chose
//!     prior: gpu-box                     # optional: the remote engine whose answer is the
//!                                        # prior (absent: the built-in zero-shot answer)
//!     candidates:                        # each candidate's out-of-fold figures
//!       zero_shot: {examples: 40, accuracy: 0.6, logLoss: 0.9}
//! ```
//!
//! The tensors (little-endian, safetensors): `prior_weight` F64 \[1\], `bias` F64 \[K\],
//! `center` F32 \[dim\], `scale` F32 \[1\], `embedding` F32 \[dim, C\], `vocabulary` U32
//! \[V\] (sorted word buckets), `idf` F32 \[V\], `words` F32 \[V, C\]; C is K for a
//! multinomial head and 1 for an ordinal one ([`super::head`]). Reading reports every
//! problem, located in its file; an unknown version or format is refused, never read as
//! something else.

use super::Learned;
use super::head::{Head, Link, Penalty};
use super::words::{TermWeight, Vocabulary};
use crate::wire::validate::{FieldError, Loc, Segment};
use indexmap::IndexMap;
use safetensors::{Dtype, SafeTensors, tensor::TensorView};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Arc;

mod write;

pub use write::{compared, write};

/// The directory of learned parameters in a checkpoint (the repository's name for it).
pub const DIR: &str = crate::repo::LEARNED_DIR;
/// The manifest's name inside [`DIR`].
pub const MANIFEST: &str = "manifest.yaml";
/// The `format` a manifest names.
pub const FORMAT: &str = "arbiter-learned";
/// The version this build writes and reads.
pub const VERSION: u64 = 1;
const SUFFIX: &str = ".safetensors";

/// `learned/manifest.yaml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    pub format: String,
    pub version: u64,
    pub encoder: String,
    /// The fine-tuned encoder the `pooled-tuned` heads read, when one does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuned: Option<TunedEntry>,
    pub questions: IndexMap<String, Entry>,
}

/// The manifest's record of the fine-tuned encoder ([`crate::engine::builtin::tuned`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TunedEntry {
    pub file: String,
    pub sha256: String,
    pub layer: usize,
    pub rank: usize,
    /// The annotated states its pairs were drawn from.
    pub examples: usize,
    /// Pair steps taken.
    pub steps: usize,
}

/// The name of the fine-tuned encoder's file in [`DIR`].
pub const TUNED_FILE: &str = "encoder.safetensors";

/// One question's part of the manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub file: String,
    pub sha256: String,
    pub learner: String,
    pub outcomes: Vec<String>,
    pub features: Features,
    pub penalty: PenaltyEntry,
    pub seed: u64,
    pub folds: usize,
    /// When an answer is left to a person (`x_abstain`), chosen on the out-of-fold answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub abstain: Option<crate::engine::builtin::aligned::format::Abstain>,
    pub fitted: IndexMap<String, Fitted>,
    /// The learning curve, when the alignment measured one (`align --curve`): out-of-fold
    /// figures at 8, 16, 32, … annotated examples. `examples next` reads it to put the
    /// questions still learning first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curve: Option<Vec<crate::wire::align::CurvePoint>>,
    /// What the alignment chose for the question (`head`, or `majority`: a head that
    /// answers the annotated answers' frequencies), by cross-validated log loss and accuracy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chosen: Option<String>,
    /// Each candidate's out-of-fold figures, which the choice compared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub candidates: Option<IndexMap<String, crate::wire::align::CurvePoint>>,
    /// The remote engine (its name in `config.yaml`) whose answers the head reads as its
    /// prior; absent: the built-in engine's zero-shot answer. A head is only ever applied
    /// over the prior it was fitted on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prior: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Features {
    pub embedding: String,
    pub dim: usize,
    pub words: String,
    pub vocabulary: usize,
}

/// What the features are, as this version computes them.
pub const POOLED: &str = "pooled";
/// The pooled embedding of the fine-tuned encoder ([`Manifest::tuned`]).
pub const POOLED_TUNED: &str = "pooled-tuned";

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PenaltyEntry {
    pub embedding: f64,
    pub words: f64,
}

/// A fitted example: the fold it was held out in, and the answer the head fitted without
/// that fold gave it (probabilities in `outcomes` order).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fitted {
    pub fold: usize,
    pub answer: Vec<f64>,
}

/// The file name of a question's tensors.
pub fn tensors_name(question: &str) -> String {
    format!("{question}{SUFFIX}")
}

/// The bytes of a head's tensors.
pub fn tensors(head: &Head) -> Vec<u8> {
    let columns = head.columns();
    let f64s = |v: &[f64]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let f32s = |v: &[f32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let u32s = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    let data: Vec<(&str, Dtype, Vec<usize>, Vec<u8>)> = vec![
        (
            "prior_weight",
            Dtype::F64,
            vec![1],
            f64s(&[head.prior_weight]),
        ),
        ("bias", Dtype::F64, vec![head.outcomes], f64s(&head.bias)),
        ("center", Dtype::F32, vec![head.dim()], f32s(&head.center)),
        ("scale", Dtype::F32, vec![1], f32s(&[head.scale])),
        (
            "embedding",
            Dtype::F32,
            vec![head.dim(), columns],
            f32s(&head.embedding),
        ),
        (
            "vocabulary",
            Dtype::U32,
            vec![head.vocabulary.len()],
            u32s(&head.vocabulary.buckets),
        ),
        (
            "idf",
            Dtype::F32,
            vec![head.vocabulary.len()],
            f32s(&head.vocabulary.idf),
        ),
        (
            "words",
            Dtype::F32,
            vec![head.vocabulary.len(), columns],
            f32s(&head.words),
        ),
    ];
    let views: Vec<(&str, TensorView<'_>)> = data
        .iter()
        .filter_map(|(name, dtype, shape, bytes)| {
            TensorView::new(*dtype, shape.clone(), bytes)
                .ok()
                .map(|view| (*name, view))
        })
        .collect();
    // Every view above is built with its own shape's size: serializing cannot fail.
    safetensors::serialize(views, None).unwrap_or_default()
}

/// The hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// The manifest's text.
pub fn manifest_yaml(manifest: &Manifest) -> String {
    format!(
        "# Learned parameters of this checkpoint's aligned questions: written by `arbiter \
         align`, read by `decide`.\n{}",
        serde_yaml::to_string(manifest).unwrap_or_default()
    )
}

/// The manifest of a checkpoint's learned files (`files`: name inside [`DIR`] → bytes),
/// of a format and version this arbiter reads; `None` when there are no learned files.
pub fn manifest(files: &[(String, Vec<u8>)]) -> Result<Option<Manifest>, Vec<FieldError>> {
    if files.is_empty() {
        return Ok(None);
    }
    let manifest_loc = file_loc(MANIFEST);
    let Some((_, text)) = files.iter().find(|(name, _)| name == MANIFEST) else {
        return Err(vec![FieldError::new(
            manifest_loc,
            format!("{DIR}/ holds files but no {MANIFEST}"),
            "missing",
        )]);
    };
    let manifest: Manifest = match std::str::from_utf8(text)
        .map_err(|e| e.to_string())
        .and_then(crate::wire::value::from_yaml)
    {
        Ok(manifest) => manifest,
        Err(e) => {
            return Err(vec![FieldError::new(
                manifest_loc,
                format!("not a learned-parameters manifest: {e}"),
                "invalid",
            )]);
        }
    };
    if manifest.format != FORMAT || manifest.version != VERSION {
        return Err(vec![FieldError::new(
            manifest_loc.key("version"),
            format!(
                "learned parameters of format `{}` version {}; this arbiter reads `{FORMAT}` \
                 version {VERSION} (upgrade arbiter, or align again)",
                manifest.format, manifest.version
            ),
            "unsupported_version",
        )]);
    }
    Ok(Some(manifest))
}

/// Read the learned files of a checkpoint (`files`: name inside [`DIR`] → bytes), for
/// the questions whose kinds `kinds` gives: question ID → its learned parameters.
pub fn read(
    files: &[(String, Vec<u8>)],
    outcomes_of: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Result<super::Heads, Vec<FieldError>> {
    let mut out = Vec::new();
    let Some(manifest) = manifest(files)? else {
        return Ok(super::Heads::default());
    };
    let manifest_loc = file_loc(MANIFEST);
    let mut errors = Vec::new();
    let tuning = match &manifest.tuned {
        Some(tuned) => match read_tuned(files, tuned, &manifest_loc.key("tuned")) {
            Ok(tuning) => Some(Arc::new(tuning)),
            Err(found) => return Err(found),
        },
        None => None,
    };
    for (question, entry) in &manifest.questions {
        let loc = manifest_loc.key("questions").key(question);
        let Some(outcomes) = outcomes_of(question) else {
            errors.push(FieldError::new(
                loc,
                format!(
                    "question `{question}` has learned parameters but is not in questions.yaml"
                ),
                "unknown_question",
            ));
            continue;
        };
        match read_entry(
            files,
            (&manifest.encoder, tuning.as_ref()),
            question,
            entry,
            &outcomes,
            &loc,
        ) {
            Ok(learned) => {
                out.push((question.clone(), Arc::new(learned)));
            }
            Err(found) => errors.extend(found),
        }
    }
    if errors.is_empty() {
        Ok(out.into_iter().collect())
    } else {
        Err(errors)
    }
}

fn file_loc(name: &str) -> Loc {
    Loc(vec![Segment::Key(format!("{DIR}/{name}"))])
}

/// The fine-tuned encoder's delta, checked against its manifest record.
fn read_tuned(
    files: &[(String, Vec<u8>)],
    tuned: &TunedEntry,
    loc: &Loc,
) -> Result<crate::engine::builtin::tuned::Tuning, Vec<FieldError>> {
    let Some((_, bytes)) = files.iter().find(|(name, _)| *name == tuned.file) else {
        return Err(vec![FieldError::new(
            loc.key("file"),
            format!(
                "{DIR}/{} is missing: the tuned heads cannot be read without it",
                tuned.file
            ),
            "missing",
        )]);
    };
    let here = file_loc(&tuned.file);
    let invalid = |detail: String| vec![FieldError::new(here.clone(), detail, "invalid")];
    if sha256(bytes) != tuned.sha256 {
        return Err(invalid(format!(
            "{DIR}/{} does not match the sha256 its manifest records: it was changed after \
             alignment",
            tuned.file
        )));
    }
    let delta = crate::engine::builtin::tuned::Delta::from_bytes(bytes)
        .map_err(|detail| invalid(format!("{DIR}/{}: {detail}", tuned.file)))?;
    Ok(crate::engine::builtin::tuned::Tuning {
        digest: tuned.sha256.clone(),
        delta,
    })
}

fn read_entry(
    files: &[(String, Vec<u8>)],
    (encoder, tuning): (&str, Option<&Arc<crate::engine::builtin::tuned::Tuning>>),
    question: &str,
    entry: &Entry,
    outcomes: &[String],
    loc: &Loc,
) -> Result<Learned, Vec<FieldError>> {
    let invalid = |loc: Loc, detail: String| vec![FieldError::new(loc, detail, "invalid")];
    if entry.outcomes != outcomes {
        return Err(invalid(
            loc.key("outcomes"),
            format!(
                "fitted for outcomes {:?}; the question now has {outcomes:?}: align it again",
                entry.outcomes
            ),
        ));
    }
    let Some(link) = Link::parse(&entry.learner) else {
        return Err(invalid(
            loc.key("learner"),
            format!(
                "unknown learner `{}` (multinomial or ordinal)",
                entry.learner
            ),
        ));
    };
    let reads_tuned = entry.features.embedding == POOLED_TUNED;
    let weight = TermWeight::of_features(&entry.features.words);
    let Some(weight) = weight.filter(|_| entry.features.embedding == POOLED || reads_tuned) else {
        return Err(invalid(
            loc.key("features"),
            format!(
                "features `{}` + `{}`; this arbiter computes `{POOLED}` or `{POOLED_TUNED}` + \
                 `{}` or `{}`",
                entry.features.embedding,
                entry.features.words,
                TermWeight::Sublinear.features(),
                TermWeight::Raw.features()
            ),
        ));
    };
    if reads_tuned && tuning.is_none() {
        return Err(invalid(
            loc.key("features").key("embedding"),
            format!(
                "the head reads the tuned encoder (`{POOLED_TUNED}`), and the manifest records \
                 none (`tuned`)"
            ),
        ));
    }
    let Some((_, bytes)) = files.iter().find(|(name, _)| *name == entry.file) else {
        return Err(vec![FieldError::new(
            loc.key("file"),
            format!("{DIR}/{} is missing", entry.file),
            "missing",
        )]);
    };
    if sha256(bytes) != entry.sha256 {
        return Err(invalid(
            file_loc(&entry.file),
            format!(
                "{DIR}/{} does not match the sha256 its manifest records: it was changed after \
                 alignment",
                entry.file
            ),
        ));
    }
    let here = file_loc(&entry.file);
    let head = read_head(bytes, link, outcomes.len(), entry, weight)
        .map_err(|detail| invalid(here.clone(), format!("{DIR}/{}: {detail}", entry.file)))?;
    Ok(Learned {
        question: question.to_owned(),
        head,
        encoder: encoder.to_owned(),
        digest: entry.sha256.clone(),
        entry: entry.clone(),
        tuned: tuning.filter(|_| reads_tuned).cloned(),
    })
}

fn read_head(
    bytes: &[u8],
    link: Link,
    outcomes: usize,
    entry: &Entry,
    weight: TermWeight,
) -> Result<Head, String> {
    let tensors = SafeTensors::deserialize(bytes).map_err(|e| format!("not safetensors: {e}"))?;
    let get = |name: &str, dtype: Dtype, shape: &[usize]| -> Result<Vec<u8>, String> {
        let view = tensors
            .tensor(name)
            .map_err(|_| format!("has no tensor `{name}`"))?;
        if view.dtype() != dtype || view.shape() != shape {
            return Err(format!(
                "tensor `{name}` is {:?} {:?}; expected {dtype:?} {shape:?}",
                view.dtype(),
                view.shape()
            ));
        }
        Ok(view.data().to_vec())
    };
    let f64s = |b: Vec<u8>| -> Vec<f64> {
        b.chunks_exact(8)
            .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
            .collect()
    };
    let f32s = |b: Vec<u8>| -> Vec<f32> {
        b.chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
            .collect()
    };
    let columns = match link {
        Link::Multinomial => outcomes,
        Link::Ordinal => 1,
    };
    let (dim, vocabulary) = (entry.features.dim, entry.features.vocabulary);
    let buckets: Vec<u32> = get("vocabulary", Dtype::U32, &[vocabulary])?
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
        .collect();
    if buckets.windows(2).any(|w| w[0] >= w[1]) {
        return Err("tensor `vocabulary` is not sorted".into());
    }
    let head = Head {
        link,
        outcomes,
        prior_weight: f64s(get("prior_weight", Dtype::F64, &[1])?)[0],
        bias: f64s(get("bias", Dtype::F64, &[outcomes])?),
        center: f32s(get("center", Dtype::F32, &[dim])?),
        scale: f32s(get("scale", Dtype::F32, &[1])?)[0],
        embedding: f32s(get("embedding", Dtype::F32, &[dim, columns])?),
        vocabulary: Vocabulary {
            buckets,
            idf: f32s(get("idf", Dtype::F32, &[vocabulary])?),
            weight,
        },
        words: f32s(get("words", Dtype::F32, &[vocabulary, columns])?),
    };
    let finite = head.prior_weight.is_finite()
        && head.bias.iter().all(|x| x.is_finite())
        && [
            &head.center,
            &head.embedding,
            &head.vocabulary.idf,
            &head.words,
        ]
        .iter()
        .all(|v| v.iter().all(|x| x.is_finite()))
        && head.scale.is_finite()
        && head.scale > 0.0;
    if !finite {
        return Err("holds a value that is not a finite number".into());
    }
    Ok(head)
}

/// The manifest entry of a head fitted on `fitted`.
#[allow(clippy::too_many_arguments)] // one per member of the entry
pub fn entry(
    question: &str,
    head: &Head,
    outcomes: Vec<String>,
    penalty: Penalty,
    (seed, folds): (u64, usize),
    abstain: Option<crate::engine::builtin::aligned::format::Abstain>,
    fitted: IndexMap<String, Fitted>,
    bytes: &[u8],
) -> Entry {
    Entry {
        file: tensors_name(question),
        sha256: sha256(bytes),
        learner: head.link.name().to_owned(),
        outcomes,
        features: Features {
            embedding: POOLED.to_owned(),
            dim: head.dim(),
            words: head.vocabulary.weight.features().to_owned(),
            vocabulary: head.vocabulary.len(),
        },
        penalty: PenaltyEntry {
            embedding: penalty.embedding,
            words: penalty.words,
        },
        seed,
        folds,
        abstain,
        fitted,
        curve: None,
        chosen: None,
        candidates: None,
        prior: None,
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::{test_files, test_head};
