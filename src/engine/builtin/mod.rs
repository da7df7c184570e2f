//! The built-in engine: zero-shot answers from sentence embeddings, offline.
//!
//! Each outcome (a choice option, a score level, the true/false side of a noul) is rendered
//! to text, embedded, and compared with the state's embedding by cosine similarity; a
//! softmax at a per-type temperature turns the similarities into probabilities
//! ([`scoring`]), combined by the laws of probability where a question is made of others
//! ([`meaning`]). A question's answer depends only on the state, that question, and the
//! questions of the same request it refers to.

pub mod aligned;
mod answer;
mod bert;
mod between_questions;
#[cfg(test)]
mod coherence_tests;
mod demonstrated;
pub mod embedder;
pub mod learned;
mod learned_answer;
pub mod meaning;
pub mod outcomes;
pub mod scoring;
pub mod state_cache;
pub mod text;
pub mod tuned;
mod vocabulary;

use answer::{Read, StopOnDrop, too_large};
pub use embedder::{Embedder, Embedding, EmbeddingStore, Encoders, Window};

use super::progress::ReadProgress;
use super::{Engine, EngineOutput, EngineRequest};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Answer, Answers, Question, QuestionKind, Questions, Usage};
use learned::Heads;
use meaning::Meaning;
use meaning::statement::Statement;
use serde_json::Value;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// When the built-in engine's current version was released (`YYYY-MM-DD`): the date of
/// the last commit that changed its answers, which `GET /v1/models` gives every base model
/// it answers for. A change to this module that changes an answer (an encoder, a text
/// rendering, a temperature, how a state is read) sets it to that commit's date.
pub const RELEASE_DATE: &str = "2026-11-27";

/// How much of the state the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    /// The first 126 tokens (`mo`): one encoder pass.
    FirstWindow,
    /// The whole state in overlapping windows (`mo-reasoning`), combined per outcome.
    AllWindows,
}

/// The built-in engine with one way of reading the state.
pub struct BuiltinEngine {
    embedder: Arc<Embedder>,
    reading: Reading,
}

/// The state as embedded: one unit vector per window. Cheap to clone (the cache hands out
/// copies).
#[derive(Clone)]
pub struct EmbeddedState {
    windows: Arc<[Vec<f32>]>,
    tokens: u64,
    first_tokens: u64,
    /// The state's words ([`learned::words::counts`]), for learned heads: counted
    /// when one first reads them, and never kept in the state cache.
    words: Words,
    /// Its first window through a fine-tuned encoder, when it was embedded for a checkpoint
    /// that carries one ([`tuned`]): what that checkpoint's tuned heads read.
    tuned: Option<Arc<[f32]>>,
}

impl EmbeddedState {
    /// Its first window as an exemplar document's embedding (what
    /// [`Embedder::embed_document_cached`] computes for the same text), if it has one.
    pub fn as_document(&self) -> Option<Embedding> {
        self.windows.first().map(|vector| Embedding {
            vector: vector.clone(),
            tokens: self.first_tokens,
        })
    }

    /// Its similarity to a unit vector, as outcomes and exemplars are compared with it.
    pub fn similarity(&self, vector: &[f32]) -> f64 {
        if self.windows.is_empty() {
            return 0.0;
        }
        combine(&self.windows, vector)
    }

    /// Its windows pooled: their mean, scaled to unit length (zeros when it has none). What
    /// a learned head reads of the state as a whole.
    pub fn pooled(&self) -> Vec<f32> {
        let Some(first) = self.windows.first() else {
            return Vec::new();
        };
        let mut sum = vec![0.0f32; first.len()];
        for window in self.windows.iter() {
            for (s, x) in sum.iter_mut().zip(window) {
                *s += x;
            }
        }
        let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            for x in &mut sum {
                *x /= norm;
            }
        }
        sum
    }

    /// Its words' bucket counts: what a learned head reads of the text itself.
    pub fn words(&self) -> &learned::words::Counts {
        self.words.counts()
    }

    /// It as the state cache keeps it: without its words (a long state of varied words
    /// holds megabytes of them, which zero-shot never reads) nor its text.
    fn without_words(&self) -> Self {
        Self {
            words: Words::default(),
            ..self.clone()
        }
    }

    /// It with the words of `text`, to be counted if a learned head reads them.
    fn with_words_of(self, text: &str) -> Self {
        Self {
            words: Words::of(text),
            ..self
        }
    }

    /// Whether it has anything to read.
    pub fn is_blank(&self) -> bool {
        self.windows.is_empty()
    }

    /// The windows read.
    pub fn window_count(&self) -> usize {
        self.windows.len()
    }

    /// The bytes it holds on the heap: its windows' vectors, its words' counts and its
    /// tuned vector. What the state cache is bounded by: the words of a long state of
    /// varied text alone are megabytes, whatever its windows.
    pub fn heap_bytes(&self) -> usize {
        use std::mem::size_of;
        let windows: usize = self
            .windows
            .iter()
            .map(|w| size_of::<Vec<f32>>() + w.capacity() * size_of::<f32>())
            .sum();
        let tuned = self
            .tuned
            .as_ref()
            .map_or(0, |t| t.len() * size_of::<f32>());
        size_of::<Self>() + windows + self.words.heap_bytes() + tuned
    }
}

/// A state's words, counted from its text on first use ([`EmbeddedState::words`]).
#[derive(Debug, Clone, Default)]
struct Words {
    text: Option<Arc<str>>,
    counts: Arc<std::sync::OnceLock<learned::words::Counts>>,
}

impl Words {
    fn of(text: &str) -> Self {
        Self {
            text: Some(text.into()),
            counts: Arc::default(),
        }
    }

    fn counts(&self) -> &learned::words::Counts {
        self.counts.get_or_init(|| {
            self.text
                .as_deref()
                .map(learned::words::counts)
                .unwrap_or_default()
        })
    }

    fn heap_bytes(&self) -> usize {
        let text = self.text.as_ref().map_or(0, |t| t.len());
        let counts = self
            .counts
            .get()
            .map_or(0, |c| c.capacity() * std::mem::size_of::<(u32, f32)>());
        text + counts
    }
}

/// The distinct texts of `windows` in order of first appearance, and for each window the
/// index of its text among them.
fn distinct_texts(windows: &[embedder::Window]) -> (Vec<&str>, Vec<usize>) {
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let mut distinct = Vec::new();
    let of_window = windows
        .iter()
        .map(|window| {
            *index.entry(window.text.as_str()).or_insert_with(|| {
                distinct.push(window.text.as_str());
                distinct.len() - 1
            })
        })
        .collect();
    (distinct, of_window)
}

/// How close (cosine) two statements of opposite polarity must be for the engine to read
/// them as one statement and its negation ([`BuiltinEngine::opposites`]). Chosen on
/// jevbench-mini's requests (`benches/jevbench.sh`): its natural negations lie at 0.778 and
/// above on `mo`'s encoder (0.834 on the pair), the closest two statements of opposite
/// polarity and the same quantities that are not negations at 0.758 (0.718).
pub const OPPOSITE_SIMILARITY: f64 = 0.77;

/// The most state tokens a model that reads the whole state (in windows) reads: as hosted
/// System One services bound their windowed models.
pub const STATE_BUDGET: usize = 32_768;

#[async_trait::async_trait]
impl Engine for BuiltinEngine {
    fn release_date(&self) -> Option<&str> {
        Some(RELEASE_DATE)
    }

    fn describe(&self) -> String {
        let encoders = match self.embedder.encoders() {
            Encoders::MiniLmL3 => "MiniLM-L3",
            Encoders::L3WithL6 => "MiniLM-L3 + MiniLM-L6",
        };
        match self.reading {
            Reading::FirstWindow => format!("built-in ({encoders}, first 126 tokens)"),
            Reading::AllWindows => format!("built-in ({encoders}, whole state in windows)"),
        }
    }

    fn as_builtin(&self) -> Option<&BuiltinEngine> {
        Some(self)
    }

    fn answered_together(&self, questions: &Questions) -> Result<Vec<Vec<usize>>> {
        self.together(questions)
    }

    fn state_budget(&self) -> Option<usize> {
        match self.reading {
            // The first window is all it reads, whatever the state's length.
            Reading::FirstWindow => None,
            Reading::AllWindows => Some(STATE_BUDGET),
        }
    }

    fn check_state(&self, model: &str, state: &Value, truncate: bool) -> Result<()> {
        if truncate || self.state_budget().is_none() {
            return Ok(());
        }
        let at_least = text::least_tokens(&text::render(state));
        if at_least > STATE_BUDGET {
            return Err(too_large(model, at_least, true));
        }
        Ok(())
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        // Encoder work is CPU-bound: keep it off the async workers, on the pool its matrix
        // products split over.
        let engine = Self {
            embedder: self.embedder.clone(),
            reading: self.reading,
        };
        let state = request.state.clone();
        let questions = request.questions.clone();
        let heads = request.heads.clone();
        // The pool's task outlives this future: when the future is dropped (the client went
        // away), the flag stops it at its next window or question.
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let (model, truncate) = (request.model.to_owned(), request.truncate);
        let progress = super::progress::current();
        // The pass's span crosses into the pool's task, its windows and questions inside.
        let span = super::pass_span("decide", "arbiter", &request);
        crate::parallel::on_the_pool(move || {
            let read = Read {
                model: &model,
                truncate,
                stop: &stop,
                progress: progress.as_deref(),
            };
            span.in_scope(|| {
                let output = engine.decide_as(&state, &questions, &heads, &read);
                super::record_usage(&span, &output);
                output
            })
        })
        .await
        .map_err(|_| crate::error::Error::internal("the engine task", "it panicked"))?
    }
}

/// Similarity of an outcome to the state: the cosine for one window; for several, the mean
/// of the best window's and the average window's cosine, so a passage that matches strongly
/// counts without one window deciding alone.
fn combine(windows: &[Vec<f32>], outcome: &[f32]) -> f64 {
    let cosines = windows.iter().map(|w| dot(w, outcome));
    if windows.len() == 1 {
        return dot(&windows[0], outcome);
    }
    let (max, sum) = cosines.fold((f64::MIN, 0.0), |(m, s), c| (m.max(c), s + c));
    0.5 * max + 0.5 * sum / windows.len() as f64
}

fn dot(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

#[cfg(test)]
mod tests;
