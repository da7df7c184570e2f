//! The built-in engine: zero-shot answers from sentence embeddings, offline.
//!
//! Each outcome (a choice option, a score level, the true/false side of a noul) is rendered
//! to text, embedded, and compared with the state's embedding by cosine similarity; a
//! softmax at a per-type temperature turns the similarities into probabilities
//! ([`scoring`]), combined by the laws of probability where a question is made of others
//! ([`meaning`]). A question's answer depends only on the state, that question, and the
//! questions of the same request it refers to.

pub mod aligned;
mod bert;
#[cfg(test)]
mod coherence_tests;
pub mod embedder;
pub mod meaning;
pub mod outcomes;
pub mod scoring;
pub mod state_cache;
pub mod text;

pub use embedder::{Embedder, Embedding, EmbeddingStore, Encoders, Window};

use super::progress::ReadProgress;
use super::{Engine, EngineOutput, EngineRequest};
use crate::error::Result;
use crate::wire::answer::Distribution;
use crate::wire::{Answer, Answers, Question, QuestionKind, Questions, Usage};
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
    /// The state's words ([`crate::learned::words::counts`]), for learned heads.
    words: Arc<crate::learned::words::Counts>,
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
    pub fn words(&self) -> &crate::learned::words::Counts {
        &self.words
    }

    /// Whether it has anything to read.
    pub fn is_blank(&self) -> bool {
        self.windows.is_empty()
    }

    /// The windows read.
    pub fn window_count(&self) -> usize {
        self.windows.len()
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

impl BuiltinEngine {
    pub fn new(embedder: Arc<Embedder>, reading: Reading) -> Self {
        Self { embedder, reading }
    }

    /// Embed the state: the only per-request encoder work on a warm cache. A state over
    /// the budget is read up to it.
    pub fn embed_state(&self, state: &Value) -> Result<EmbeddedState> {
        let read = Read {
            model: "",
            truncate: true,
            stop: &AtomicBool::new(false),
            progress: None,
        };
        self.embed_state_as(state, &read)
    }

    /// [`Self::embed_state`] as `read` says: refusing a state over the budget unless it
    /// truncates, and stopping before its next window once `stop` is set.
    fn embed_state_as(&self, state: &Value, read: &Read<'_>) -> Result<EmbeddedState> {
        let text = text::render(state);
        let key =
            |truncate| state_cache::key(self.embedder.identity(), self.reading, truncate, &text);
        let states = self.embedder.states();
        if let Some(hit) = states.get(&key(read.truncate)) {
            return Ok(hit);
        }
        // A state read whole was within the budget (a longer one is refused, never kept), so
        // its windows are also what a truncating reading reads: an evaluation finds the
        // states its server decided.
        if read.truncate
            && let Some(hit) = states.get(&key(false))
        {
            return Ok(hit);
        }
        let key = key(read.truncate);
        let embedded = self.embed_text(&text, read)?;
        states.put(key, embedded.clone());
        Ok(embedded)
    }

    /// [`Self::embed_state_as`] past the cache: cut `text` into windows and embed each.
    fn embed_text(&self, text: &str, read: &Read<'_>) -> Result<EmbeddedState> {
        let stop = read.stop;
        let windows = match self.reading {
            Reading::FirstWindow => self.embedder.first_window(text)?.into_iter().collect(),
            Reading::AllWindows => {
                // Refused at once when even a cheap lower bound is over the budget: a
                // large state costs a pass over its text, not its tokenization.
                let at_least = text::least_tokens(text);
                if at_least > STATE_BUDGET && !read.truncate {
                    return Err(too_large(read.model, at_least, true));
                }
                let (windows, count) =
                    self.embedder
                        .windows_within(text, STATE_BUDGET, read.truncate)?;
                if count > STATE_BUDGET && !read.truncate {
                    return Err(too_large(read.model, count, false));
                }
                windows
            }
        };
        let tokens = windows.iter().map(|w| w.tokens).sum();
        let first_tokens = windows.first().map_or(0, |w| w.tokens);
        // A window whose text came before (a log's repeated lines) is read once: a window
        // is embedded alone, so its vector is the same wherever it stands.
        let (distinct, of_window) = distinct_texts(&windows);
        if let Some(progress) = read.progress {
            progress.planned(distinct.len());
        }
        // Windows are embedded at once, one thread per core, each alone (the same bits as
        // one after another); a stop is seen at the next window of any thread.
        let read_windows = crate::parallel::map_on_all_cores(
            distinct.len(),
            || stop.load(Ordering::Relaxed),
            |i| {
                let vector = self.embedder.embed(distinct[i]);
                if let Some(progress) = read.progress {
                    progress.window_read();
                }
                vector
            },
        );
        stopped(stop)?;
        let vectors = read_windows
            .into_iter()
            .map(|window| {
                window.unwrap_or_else(|| {
                    Err(crate::error::Error::Internal(
                        "a window was not read: a worker thread failed".into(),
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let windows: Vec<Vec<f32>> = of_window.iter().map(|&i| vectors[i].clone()).collect();
        Ok(EmbeddedState {
            windows: windows.into(),
            tokens,
            first_tokens,
            words: Arc::new(crate::learned::words::counts(text)),
        })
    }

    /// Answer one question about an embedded state, with the tokens read for its outcomes
    /// (and, for an aligned question, its exemplars and cues).
    /// It is read as `decide` reads it in a request of its own ([`meaning::alone`]), so an
    /// alignment's baseline is what the checkpoint answers.
    pub fn answer(&self, state: &EmbeddedState, question: &Question) -> Result<(Answer, u64)> {
        if let Some(learned) = &question.learned {
            let (distribution, tokens) = self.distribution_learned(state, question, learned)?;
            return Ok((Answer::from_distribution(question, &distribution), tokens));
        }
        let meaning = meaning::alone(question);
        let meant = self.distribution_meant(state, question, &meaning, &meaning.texts())?;
        let (distribution, tokens) = match meant {
            Some(read) => read,
            None => self.distribution_alone(state, question, None)?,
        };
        Ok((Answer::from_distribution(question, &distribution), tokens))
    }

    /// The distribution of `question` read alone ([`meaning::Meaning::Alone`]), with the
    /// tokens read, from the outcome texts of a question that is not aligned when the caller
    /// rendered them already.
    fn distribution_alone(
        &self,
        state: &EmbeddedState,
        question: &Question,
        texts: Option<&[String]>,
    ) -> Result<(Distribution, u64)> {
        // An aligned question was validated where it came from (a checkpoint, a request);
        // a malformed one here is reported at the question, not answered zero-shot.
        let alignment = aligned::parse(question, &crate::wire::Loc::body().key("questions"))
            .map_err(crate::error::Error::Validation)?;
        if let Some(alignment) = alignment {
            return self.distribution_aligned(state, question, &alignment);
        }
        let (sims, tokens) = match texts {
            Some(texts) => self.text_similarities_and_tokens(state, texts)?,
            None => self.similarities_and_tokens(state, question)?,
        };
        Ok((scoring::from_similarities(question, &sims), tokens))
    }

    /// What a learned head's embedding features come from: the encoder and how much of the
    /// state it reads (a head fitted on first windows does not read pooled whole states).
    pub fn head_encoder(&self) -> String {
        let reading = match self.reading {
            Reading::FirstWindow => "first-window",
            Reading::AllWindows => "all-windows",
        };
        format!("{}|{reading}", self.embedder.identity())
    }

    /// The zero-shot probabilities of `question` (without its learned head, if it has one),
    /// one per outcome, as a learned head reads them as its prior, with the tokens read.
    pub fn zero_shot(&self, state: &EmbeddedState, question: &Question) -> Result<(Vec<f64>, u64)> {
        let without = Question {
            learned: None,
            ..question.clone()
        };
        let (answer, tokens) = self.answer(state, &without)?;
        let outcomes = aligned::outcome_keys(&question.kind).len();
        Ok((answer.outcome_probabilities(outcomes), tokens))
    }

    /// The distribution of a question with a learned head ([`crate::learned`]): its
    /// zero-shot answer (the question as it is without the head) is the head's prior.
    fn distribution_learned(
        &self,
        state: &EmbeddedState,
        question: &Question,
        learned: &crate::learned::Learned,
    ) -> Result<(Distribution, u64)> {
        if learned.encoder != self.head_encoder() {
            return Err(crate::error::Error::Validation(vec![
                crate::wire::problem::FieldError::new(
                    crate::wire::Loc(vec![crate::wire::problem::Segment::Key(format!(
                        "{}/{}",
                        crate::learned::file::DIR,
                        crate::learned::file::MANIFEST
                    ))])
                    .key("encoder"),
                    format!(
                        "the head of `{}` reads the embeddings of `{}`; this base model's \
                         encoder is `{}`: align the question again on this base model",
                        learned.question,
                        learned.encoder,
                        self.head_encoder()
                    ),
                    "encoder_mismatch",
                ),
            ]));
        }
        let (prior, tokens) = self.zero_shot(state, question)?;
        let pooled = state.pooled();
        let ps = learned.head.probabilities(&crate::learned::Reading {
            pooled: &pooled,
            counts: &state.words,
            prior: &prior,
        });
        Ok((distribution_of(&question.kind, ps), tokens))
    }

    /// The distribution of an aligned question ([`aligned`]): zero-shot, neighbour and cue
    /// features, combined by the question's calibration.
    fn distribution_aligned(
        &self,
        state: &EmbeddedState,
        question: &Question,
        alignment: &aligned::Alignment,
    ) -> Result<(Distribution, u64)> {
        let outcomes = aligned::outcome_keys(&question.kind).len();
        let base = aligned::base_question(question, alignment);
        let (zero_shot, mut tokens) = self.similarities_and_tokens(state, &base)?;
        let mut neighbours = vec![Vec::new(); outcomes];
        let mut cues = vec![None; outcomes];
        if !state.windows.is_empty() {
            for exemplar in &alignment.exemplars {
                if let Some(embedding) = self.embedder.embed_document_cached(&exemplar.text)? {
                    tokens += embedding.tokens;
                    if let Some(slot) = neighbours.get_mut(exemplar.outcome) {
                        slot.push(combine(&state.windows, &embedding.vector));
                    }
                }
            }
            for (slot, text) in cues.iter_mut().zip(&alignment.cues) {
                if let Some(text) = text {
                    let embedding = self.embedder.embed_cached(text)?;
                    tokens += embedding.tokens;
                    *slot = Some(combine(&state.windows, &embedding.vector));
                }
            }
        }
        let features =
            aligned::features(&question.kind, outcomes, &zero_shot, &mut neighbours, &cues);
        let ps = aligned::probabilities(&alignment.weights, &alignment.bias, &features);
        let distribution = distribution_of(&question.kind, ps);
        Ok((distribution, tokens))
    }

    /// The distribution of `question` as `meaning` reads it, from the similarities of the
    /// meaning's texts (`texts`), with the tokens read; `None` for a meaning answered
    /// otherwise (alone, or from another question).
    fn distribution_meant(
        &self,
        state: &EmbeddedState,
        question: &Question,
        meaning: &Meaning,
        texts: &[String],
    ) -> Result<Option<(Distribution, u64)>> {
        if matches!(meaning, Meaning::Alone | Meaning::Refers { .. }) {
            return Ok(None);
        }
        let (sims, tokens) = self.text_similarities_and_tokens(state, texts)?;
        if sims.is_empty() {
            // Nothing to read: every outcome equally likely, as for a question alone.
            return Ok(Some((scoring::from_similarities(question, &[]), tokens)));
        }
        let similarity = |text: &str| {
            texts
                .iter()
                .position(|t| t == text)
                .map_or(0.0, |i| sims[i])
        };
        let ps = meaning.distribution(&similarity).unwrap_or_default();
        let distribution = distribution_of(&question.kind, ps);
        Ok(Some((distribution, tokens)))
    }

    /// The embedding of an exemplar document, as an aligned question compares it.
    pub fn document_similarity(&self, state: &EmbeddedState, text: &str) -> Result<Option<f64>> {
        Ok(self
            .embedder
            .embed_document_cached(text)?
            .map(|e| combine(&state.windows, &e.vector)))
    }

    /// The similarity of each outcome of `question` to the state, in
    /// [`outcomes::outcome_texts`] order (`[s_true, s_false]` for a noul): what the answer is
    /// computed from ([`scoring::from_similarities`]). Empty when the state has nothing to
    /// read or a noul states nothing to compare; every outcome is then equally likely.
    pub fn similarities(&self, state: &EmbeddedState, question: &Question) -> Result<Vec<f64>> {
        Ok(self.similarities_and_tokens(state, question)?.0)
    }

    /// The similarity of each of `texts` (not blank) to the state, as for outcome texts;
    /// empty when the state has nothing to read.
    pub fn text_similarities(&self, state: &EmbeddedState, texts: &[String]) -> Result<Vec<f64>> {
        Ok(self.text_similarities_and_tokens(state, texts)?.0)
    }

    fn similarities_and_tokens(
        &self,
        state: &EmbeddedState,
        question: &Question,
    ) -> Result<(Vec<f64>, u64)> {
        self.text_similarities_and_tokens(state, &outcomes::outcome_texts(question))
    }

    fn text_similarities_and_tokens(
        &self,
        state: &EmbeddedState,
        texts: &[String],
    ) -> Result<(Vec<f64>, u64)> {
        if state.windows.is_empty() {
            // Nothing to read (a blank state, or images only): no outcome is embedded.
            return Ok((Vec::new(), 0));
        }
        let mut tokens = 0;
        let sims = texts
            .iter()
            .map(|text| {
                let outcome = self.embedder.embed_cached(text)?;
                tokens += outcome.tokens;
                Ok(combine(&state.windows, &outcome.vector))
            })
            .collect::<Result<Vec<_>>>()?;
        Ok((sims, tokens))
    }

    /// Answer every question: the state is embedded once, however many questions there are.
    pub fn decide_blocking(&self, state: &Value, questions: &Questions) -> Result<EngineOutput> {
        let read = Read {
            model: "",
            truncate: false,
            stop: &AtomicBool::new(false),
            progress: None,
        };
        self.decide_as(state, questions, &read)
    }

    /// [`Self::decide_blocking`] as `read` says; giving up at its next window or question
    /// once its `stop` is set (nobody waits for the answer any more).
    fn decide_as(
        &self,
        state: &Value,
        questions: &Questions,
        read: &Read<'_>,
    ) -> Result<EngineOutput> {
        let stop = read.stop;
        // What each question means, and the texts it reads, rendered once: those not
        // embedded yet are embedded while the state is read, and encoders not loaded yet
        // load at once (a cold `decide` pays for all of it). An aligned question's outcomes,
        // from its task, are left to its answer: not worth parsing it twice.
        let meanings = meaning::plan(questions);
        let texts: Vec<Vec<String>> = questions
            .values()
            .zip(&meanings)
            .map(|(q, m)| match m {
                Meaning::Alone
                    if aligned::AlignedInstructions::is_aligned(q.instructions.as_ref()) =>
                {
                    Vec::new()
                }
                Meaning::Alone => outcomes::outcome_texts(q),
                meant => meant.texts(),
            })
            .collect();
        let missing = self.embedder.missing(texts.iter().flatten());
        let embedded = if missing.is_empty() && self.embedder.is_loaded() {
            self.embed_state_as(state, read)?
        } else {
            std::thread::scope(|scope| {
                scope.spawn(|| self.embedder.load());
                let outcomes = scope.spawn(|| self.embedder.cache_all(&missing));
                let embedded = self.embed_state_as(state, read);
                outcomes.join().unwrap_or_else(|_| {
                    Err(crate::error::Error::Internal(
                        "embedding outcomes panicked".into(),
                    ))
                })?;
                embedded
            })?
        };
        let mut usage = Usage {
            input_tokens: embedded.tokens,
            output_tokens: 0,
        };
        // Questions read on their own first; then those read from another question.
        let mut distributions: Vec<Option<Distribution>> = Vec::with_capacity(questions.len());
        for ((question, meaning), texts) in questions.values().zip(&meanings).zip(&texts) {
            stopped(stop)?;
            // A question with a learned head is answered by it, whatever its wording.
            let read = if let Some(learned) = &question.learned {
                Some(self.distribution_learned(&embedded, question, learned)?)
            } else {
                match meaning {
                    Meaning::Alone => {
                        Some(self.distribution_alone(&embedded, question, Some(texts))?)
                    }
                    meant => self.distribution_meant(&embedded, question, meant, texts)?,
                }
            };
            distributions.push(read.map(|(distribution, tokens)| {
                usage.input_tokens += tokens;
                distribution
            }));
        }
        if !embedded.is_blank() {
            for (i, j) in self.opposites(&meanings)? {
                if let Some(Distribution::Noul(p)) = distributions[j]
                    && learned_at(questions, i).is_none()
                {
                    distributions[i] = Some(Distribution::Noul(1.0 - p));
                }
            }
        }
        // A reference's question is a choice or a score, never a reference itself.
        for (i, meaning) in meanings.iter().enumerate() {
            if let Meaning::Refers {
                question,
                reference,
            } = meaning
                && learned_at(questions, i).is_none()
            {
                let p = referred(distributions[*question].as_ref(), reference);
                distributions[i] = Some(Distribution::Noul(p));
            }
        }
        let mut answers = Answers::with_capacity(questions.len());
        for ((id, question), distribution) in questions.iter().zip(&distributions) {
            let distribution = distribution.clone().unwrap_or(Distribution::Noul(0.5));
            answers.insert(
                id.clone(),
                Answer::from_distribution(question, &distribution),
            );
        }
        Ok(EngineOutput { answers, usage })
    }

    /// The nouls of a request worded as the opposite of an earlier one, as (noul, earlier
    /// noul): both plain statements ([`Statement::Plain`]) that the encoder places within
    /// [`OPPOSITE_SIMILARITY`] of each other, with negative words of opposite parity
    /// ([`meaning::reference::negative_words`]) and the same quantities (a negation keeps
    /// the numbers it negates: "more than 10" / "ten or fewer"). An encoder cannot tell a
    /// statement from its negation, so the pair is decided once: the later is one minus the
    /// earlier.
    fn opposites(&self, meanings: &[Meaning]) -> Result<Vec<(usize, usize)>> {
        // Each plain statement's index, polarity, numbers and vector, worked out once.
        let plain = meanings
            .iter()
            .enumerate()
            .filter_map(|(i, m)| match m {
                Meaning::Statement(Statement::Plain(text)) => Some((i, text.as_str())),
                _ => None,
            })
            .map(|(i, text)| {
                Ok((
                    i,
                    meaning::reference::negative_words(text) % 2,
                    meaning::reference::quantities(text),
                    self.embedder.embed_cached(text)?,
                ))
            })
            .collect::<Result<Vec<_>>>()?;
        let mut pairs = Vec::new();
        let mut paired = std::collections::HashSet::new();
        for (n, (i, polarity, quantities, vector)) in plain.iter().enumerate() {
            let mut best: Option<(f64, usize)> = None;
            for (j, earlier_polarity, earlier_quantities, earlier) in &plain[..n] {
                if paired.contains(j)
                    || earlier_polarity == polarity
                    || earlier_quantities != quantities
                {
                    continue;
                }
                let similarity = dot(&vector.vector, &earlier.vector);
                if similarity >= OPPOSITE_SIMILARITY && best.is_none_or(|(s, _)| similarity > s) {
                    best = Some((similarity, *j));
                }
            }
            if let Some((_, j)) = best {
                paired.insert(*i);
                pairs.push((*i, j));
            }
        }
        Ok(pairs)
    }

    /// Embed without answering: the baseline the engine benchmark compares against.
    pub fn embedder(&self) -> &Embedder {
        &self.embedder
    }
}

/// How close (cosine) two statements of opposite polarity must be for the engine to read
/// them as one statement and its negation ([`BuiltinEngine::opposites`]). Chosen on
/// jevbench-mini's requests (`benches/jevbench.sh`): its natural negations lie at 0.778 and
/// above on `mo`'s encoder (0.834 on the pair), the closest two statements of opposite
/// polarity and the same quantities that are not negations at 0.758 (0.718).
pub const OPPOSITE_SIMILARITY: f64 = 0.77;

/// A question's distribution from its outcome probabilities: `P(true)` first for a noul.
/// The learned head of the `i`th question, if it has one: its answer is its own, never
/// derived from another question's.
fn learned_at(questions: &Questions, i: usize) -> Option<&crate::learned::Learned> {
    questions.get_index(i)?.1.learned.as_deref()
}

fn distribution_of(kind: &QuestionKind, ps: Vec<f64>) -> Distribution {
    match kind {
        QuestionKind::Noul { .. } => Distribution::Noul(ps.first().copied().unwrap_or(0.5)),
        _ => Distribution::Outcomes(ps),
    }
}

/// `P(true)` of a noul about outcomes of another question, from that question's
/// distribution (0.5 when it has none).
fn referred(distribution: Option<&Distribution>, reference: &meaning::reference::Reference) -> f64 {
    let Some(Distribution::Outcomes(ps)) = distribution else {
        return 0.5;
    };
    let total: f64 = ps.iter().sum();
    if total <= 0.0 || !total.is_finite() {
        return 0.5;
    }
    let mass: f64 = reference
        .outcomes
        .iter()
        .filter_map(|&i| ps.get(i))
        .sum::<f64>()
        / total;
    let mass = mass.clamp(0.0, 1.0);
    if reference.negated { 1.0 - mass } else { mass }
}

/// The most state tokens a model that reads the whole state (in windows) reads: as hosted
/// System One services bound their windowed models.
pub const STATE_BUDGET: usize = 32_768;

/// How one decision reads its state.
struct Read<'a> {
    /// The base model asked for, for the error.
    model: &'a str,
    /// Read the first [`STATE_BUDGET`] tokens of a longer state rather than refuse it.
    truncate: bool,
    /// Set once nobody waits for the answer.
    stop: &'a AtomicBool,
    /// Where the windows read are counted, when someone watches ([`super::progress`]).
    progress: Option<&'a ReadProgress>,
}

/// `state_too_large`, at `body.state`: the state has `count` tokens (at least, when only
/// the cheap bound was taken).
fn too_large(model: &str, count: usize, at_least: bool) -> crate::error::Error {
    let count = if at_least {
        format!("at least {count}")
    } else {
        count.to_string()
    };
    let detail = format!(
        "the state has {count} tokens; `{model}` reads at most {STATE_BUDGET}: send \
         \"truncate\": true to read only the first {STATE_BUDGET}, or a shorter state"
    );
    crate::error::Error::StateTooLarge {
        details: vec![crate::wire::FieldError::new(
            crate::wire::Loc::body().key("state"),
            detail.clone(),
            "state_too_large",
        )],
        detail,
    }
}

/// An error once `stop` is set: the work is abandoned, and nobody reads the error.
fn stopped(stop: &AtomicBool) -> Result<()> {
    if stop.load(Ordering::Relaxed) {
        return Err(crate::error::Error::Internal(
            "abandoned: nobody waits for this decision".into(),
        ));
    }
    Ok(())
}

/// Sets its flag when dropped: the decision's future was dropped (its client went away).
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
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
        // Encoder work is CPU-bound: keep it off the async workers.
        let engine = Self {
            embedder: self.embedder.clone(),
            reading: self.reading,
        };
        let state = request.state.clone();
        let questions = request.questions.clone();
        // The blocking task outlives this future: when the future is dropped (the client
        // went away), the flag stops it at its next window or question.
        let stop = Arc::new(AtomicBool::new(false));
        let _stop_on_drop = StopOnDrop(stop.clone());
        let (model, truncate) = (request.model.to_owned(), request.truncate);
        let progress = super::progress::current();
        tokio::task::spawn_blocking(move || {
            let read = Read {
                model: &model,
                truncate,
                stop: &stop,
                progress: progress.as_deref(),
            };
            engine.decide_as(&state, &questions, &read)
        })
        .await
        .map_err(|e| crate::error::Error::internal("the engine task", e))?
    }
}

#[cfg(test)]
mod tests;
