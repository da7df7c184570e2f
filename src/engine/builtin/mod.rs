//! The built-in engine: zero-shot answers from sentence embeddings, offline.
//!
//! Each outcome (a choice option, a score level, the true/false side of a noul) is rendered
//! to text, embedded, and compared with the state's embedding by cosine similarity; a
//! softmax at a per-type temperature turns the similarities into probabilities
//! ([`scoring`]). A question's answer depends only on the state and that question.

pub mod embedder;
pub mod outcomes;
pub mod scoring;
pub mod text;

pub use embedder::{Embedder, Embedding, Window};

use super::{Engine, EngineOutput, EngineRequest};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Answer, Answers, Question, Questions, Usage};
use serde_json::Value;
use std::sync::Arc;

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

/// The state as embedded: one unit vector per window.
pub struct EmbeddedState {
    windows: Vec<Vec<f32>>,
    tokens: u64,
}

impl BuiltinEngine {
    pub fn new(embedder: Arc<Embedder>, reading: Reading) -> Self {
        Self { embedder, reading }
    }

    /// Embed the state: the only per-request encoder work on a warm cache.
    pub fn embed_state(&self, state: &Value) -> Result<EmbeddedState> {
        let text = text::render(state);
        let windows = match self.reading {
            Reading::FirstWindow => self.embedder.first_window(&text)?.into_iter().collect(),
            Reading::AllWindows => self.embedder.all_windows(&text)?,
        };
        let tokens = windows.iter().map(|w| w.tokens).sum();
        let windows = windows
            .iter()
            .map(|w| self.embedder.embed(&w.text))
            .collect::<Result<_>>()?;
        Ok(EmbeddedState { windows, tokens })
    }

    /// Answer one question about an embedded state, with the tokens read for its outcomes.
    pub fn answer(&self, state: &EmbeddedState, question: &Question) -> Result<(Answer, u64)> {
        if state.windows.is_empty() {
            // Nothing to read (a blank state, or images only): every outcome is equally likely.
            let uniform = match &question.kind {
                crate::wire::QuestionKind::Noul { .. } => Distribution::Noul(0.5),
                _ => Distribution::Outcomes(Vec::new()),
            };
            return Ok((Answer::from_distribution(question, &uniform), 0));
        }
        let mut tokens = 0;
        let mut similarity = |text: &str| -> Result<f64> {
            let outcome = self.embedder.embed_cached(text)?;
            tokens += outcome.tokens;
            Ok(combine(&state.windows, &outcome.vector))
        };
        let distribution = scoring::distribution(question, &mut similarity)?;
        Ok((Answer::from_distribution(question, &distribution), tokens))
    }

    /// Answer every question: the state is embedded once, however many questions there are.
    pub fn decide_blocking(&self, state: &Value, questions: &Questions) -> Result<EngineOutput> {
        let embedded = self.embed_state(state)?;
        let mut usage = Usage {
            input_tokens: embedded.tokens,
            output_tokens: 0,
        };
        let mut answers = Answers::with_capacity(questions.len());
        for (id, question) in questions {
            let (answer, tokens) = self.answer(&embedded, question)?;
            usage.input_tokens += tokens;
            answers.insert(id.clone(), answer);
        }
        Ok(EngineOutput { answers, usage })
    }

    /// Embed without answering: the baseline the engine benchmark compares against.
    pub fn embedder(&self) -> &Embedder {
        &self.embedder
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

#[async_trait::async_trait]
impl Engine for BuiltinEngine {
    fn describe(&self) -> String {
        match self.reading {
            Reading::FirstWindow => "built-in (MiniLM-L3, first 126 tokens)".into(),
            Reading::AllWindows => "built-in (MiniLM-L3, whole state in windows)".into(),
        }
    }

    async fn decide(&self, request: EngineRequest<'_>) -> Result<EngineOutput> {
        // Encoder work is CPU-bound: keep it off the async workers.
        let engine = Self {
            embedder: self.embedder.clone(),
            reading: self.reading,
        };
        let state = request.state.clone();
        let questions = request.questions.clone();
        tokio::task::spawn_blocking(move || engine.decide_blocking(&state, &questions))
            .await
            .map_err(|e| crate::error::Error::internal("the engine task", e))?
    }
}
