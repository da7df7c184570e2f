//! How the built-in engine answers: a state read into windows and embedded once, each
//! question scored against it (zero-shot, or through its learned head), and the answers'
//! coherence kept.

use super::between_questions::read_references;
#[allow(clippy::wildcard_imports)]
use super::*;

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
    pub(super) fn embed_state_as(&self, state: &Value, read: &Read<'_>) -> Result<EmbeddedState> {
        let text = text::render(state);
        let key =
            |truncate| state_cache::key(self.embedder.identity(), self.reading, truncate, &text);
        let states = self.embedder.states();
        // A state read whole was within the budget (a longer one is refused, never kept), so
        // its windows are also what a truncating reading reads: an evaluation finds the
        // states its server decided.
        let hit = states
            .get(&key(read.truncate))
            .or_else(|| read.truncate.then(|| states.get(&key(false))).flatten());
        crate::telemetry::metrics::state_cache(hit.is_some());
        if let Some(hit) = hit {
            return Ok(hit.with_words_of(&text));
        }
        let key = key(read.truncate);
        let embedded = self.embed_text(&text, read)?;
        states.put(key, &embedded);
        Ok(embedded)
    }

    /// [`Self::embed_state_as`] past the cache: cut `text` into windows and embed each.
    pub(super) fn embed_text(&self, text: &str, read: &Read<'_>) -> Result<EmbeddedState> {
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
                let within =
                    self.embedder
                        .windows_within(text, STATE_BUDGET, read.truncate, stop)?;
                if within.tokens > STATE_BUDGET && !read.truncate {
                    return Err(too_large(read.model, within.tokens, !within.counted_all));
                }
                within.windows
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
                    Err(crate::error::Error::bug(
                        "a window was not read: a worker thread failed",
                    ))
                })
            })
            .collect::<Result<Vec<_>>>()?;
        let windows: Vec<Vec<f32>> = of_window.iter().map(|&i| vectors[i].clone()).collect();
        Ok(EmbeddedState {
            windows: windows.into(),
            tokens,
            first_tokens,
            words: super::Words::default(),
            tuned: None,
        }
        .with_words_of(text))
    }

    /// Whether its encoder can be fine-tuned: the fast encoder alone, reading the first
    /// window (`mo`).
    pub fn tunable(&self) -> bool {
        self.reading == Reading::FirstWindow && self.embedder.encoders() == Encoders::MiniLmL3
    }

    /// What the tuned layer reads of a state's first window (none when it has nothing to
    /// read): computed once per annotated state by an alignment that fine-tunes.
    pub fn top_inputs(&self, state: &Value) -> Result<Option<tuned::TopInputs>> {
        let Some(window) = self.embedder.first_window(&text::render(state))? else {
            return Ok(None);
        };
        Ok(Some(self.embedder.layered()?.top_inputs(&window.text)?))
    }

    /// A state's tuned vector from its top inputs: what a tuned head reads.
    pub fn tuned_vector(
        &self,
        inputs: &tuned::TopInputs,
        delta: &tuned::Delta,
    ) -> Result<Vec<f32>> {
        self.embedder.layered()?.tuned(inputs, delta)
    }

    /// [`Self::embed_state_as`] for a checkpoint with a fine-tuned encoder: one pass gives
    /// the base vector (bit for bit the one [`Self::embed_state_as`] gives, for zero-shot)
    /// and the tuned one. Cached apart, under the fine-tune's digest.
    pub(super) fn embed_state_tuned(
        &self,
        state: &Value,
        read: &Read<'_>,
        tuning: &tuned::Tuning,
    ) -> Result<EmbeddedState> {
        if !self.tunable() {
            return Err(crate::error::Error::bug(
                "a tuned checkpoint on an encoder that is not tunable",
            ));
        }
        let text = text::render(state);
        let identity = format!("{}|tuned|{}", self.embedder.identity(), tuning.digest);
        let key = state_cache::key(&identity, self.reading, true, &text);
        let states = self.embedder.states();
        let hit = states.get(&key);
        crate::telemetry::metrics::state_cache(hit.is_some());
        if let Some(hit) = hit {
            return Ok(hit.with_words_of(&text));
        }
        let Some(window) = self.embedder.first_window(&text)? else {
            return Ok(EmbeddedState {
                windows: Vec::new().into(),
                tokens: 0,
                first_tokens: 0,
                words: super::Words::default(),
                tuned: None,
            }
            .with_words_of(&text));
        };
        if let Some(progress) = read.progress {
            progress.planned(1);
        }
        let layered = self.embedder.layered()?;
        let inputs = layered.top_inputs(&window.text)?;
        let embedded = EmbeddedState {
            windows: vec![layered.base(&inputs)?].into(),
            tokens: window.tokens,
            first_tokens: window.tokens,
            words: super::Words::default(),
            tuned: Some(layered.tuned(&inputs, &tuning.delta)?.into()),
        };
        if let Some(progress) = read.progress {
            progress.window_read();
        }
        states.put(key, &embedded);
        Ok(embedded.with_words_of(&text))
    }

    /// Answer one question about an embedded state without a learned head, with the tokens
    /// read for its outcomes (and, for an aligned question, its exemplars and cues).
    /// It is read as `decide` reads it in a request of its own ([`meaning::alone`]), so an
    /// alignment's baseline is what the checkpoint answers.
    pub fn answer(&self, state: &EmbeddedState, question: &Question) -> Result<(Answer, u64)> {
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
    pub(super) fn distribution_alone(
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

    /// The zero-shot probabilities of `question` (never its learned head's), one per
    /// outcome, as a learned head reads them as its prior, with the tokens read.
    pub fn zero_shot(&self, state: &EmbeddedState, question: &Question) -> Result<(Vec<f64>, u64)> {
        let (answer, tokens) = self.answer(state, question)?;
        let outcomes = aligned::outcome_keys(&question.kind).len();
        Ok((answer.outcome_probabilities(outcomes), tokens))
    }

    /// The distribution of an aligned question ([`aligned`]): zero-shot, neighbour and cue
    /// features, combined by the question's calibration.
    pub(super) fn distribution_aligned(
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
    pub(super) fn distribution_meant(
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

    pub(super) fn similarities_and_tokens(
        &self,
        state: &EmbeddedState,
        question: &Question,
    ) -> Result<(Vec<f64>, u64)> {
        self.text_similarities_and_tokens(state, &outcomes::outcome_texts(question))
    }

    pub(super) fn text_similarities_and_tokens(
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

    /// Answer every question, those with a learned head in `heads` by it: the state is
    /// embedded once, however many questions there are.
    pub fn decide_blocking(
        &self,
        state: &Value,
        questions: &Questions,
        heads: &Heads,
    ) -> Result<EngineOutput> {
        let read = Read {
            model: "",
            truncate: false,
            stop: &AtomicBool::new(false),
            progress: None,
        };
        self.decide_as(state, questions, heads, &read)
    }

    /// [`Self::decide_blocking`] as `read` says; giving up at its next window or question
    /// once its `stop` is set (nobody waits for the answer any more).
    pub(super) fn decide_as(
        &self,
        state: &Value,
        questions: &Questions,
        heads: &Heads,
        read: &Read<'_>,
    ) -> Result<EngineOutput> {
        let stop = read.stop;
        // What each question means, and the texts it reads, rendered once: those not
        // embedded yet are embedded while the state is read, and encoders not loaded yet
        // load at once (a cold `decide` pays for all of it). An aligned question's outcomes,
        // from its task, are left to its answer: not worth parsing it twice.
        let meanings = meaning::plan(questions);
        let texts = texts_read(questions, &meanings);
        let missing = self.embedder.missing(texts.iter().flatten());
        let windows = tracing::trace_span!(
            "windows",
            windows = tracing::field::Empty,
            tokens = tracing::field::Empty
        )
        .entered();
        // A checkpoint's tuned heads all read its one fine-tuned encoder.
        let tuning = heads.tuning();
        let embed = || match &tuning {
            Some(tuning) => self.embed_state_tuned(state, read, tuning),
            None => self.embed_state_as(state, read),
        };
        let embedded = if missing.is_empty() && self.embedder.is_loaded() {
            embed()?
        } else {
            // On rayon's pool, not threads of their own: a decision runs on that pool, and
            // a thread of it blocked joining threads that wait for the pool can deadlock it.
            let ((), (outcomes, embedded)) = rayon::join(
                || self.embedder.load(),
                || rayon::join(|| self.embedder.cache_all(&missing), embed),
            );
            outcomes?;
            embedded?
        };
        windows.record("windows", embedded.windows.len());
        windows.record("tokens", embedded.tokens);
        drop(windows);
        let _questions = tracing::trace_span!("questions", questions = questions.len()).entered();
        let mut usage = Usage {
            input_tokens: embedded.tokens,
            output_tokens: 0,
        };
        // Questions read on their own first; then those read from another question.
        let mut distributions: Vec<Option<Distribution>> = Vec::with_capacity(questions.len());
        for (((id, question), meaning), texts) in questions.iter().zip(&meanings).zip(&texts) {
            stopped(stop)?;
            // A question with a learned head is answered by it, whatever its wording.
            let read = if let Some(learned) = heads.get(id) {
                Some(self.distribution_learned(&embedded, question, learned)?)
            } else {
                match meaning {
                    Meaning::Alone => {
                        Some(self.distribution_alone(&embedded, question, Some(texts))?)
                    }
                    meant => self.distribution_meant(&embedded, question, meant, texts)?,
                }
            };
            // Its demonstrations, unless a head answers it, lean its answer ([`demonstrated`]).
            let read = match read {
                Some((distribution, tokens)) if heads.get(id).is_none() => {
                    let (distribution, shown) =
                        self.demonstrated(&embedded, question, distribution)?;
                    Some((distribution, tokens + shown))
                }
                other => other,
            };
            distributions.push(read.map(|(distribution, tokens)| {
                usage.input_tokens += tokens;
                distribution
            }));
        }
        if !embedded.is_blank() {
            self.read_opposites(questions, heads, &meanings, &mut distributions)?;
        }
        read_references(questions, heads, &meanings, &mut distributions);
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

    /// Embed without answering: the baseline the engine benchmark compares against.
    pub fn embedder(&self) -> &Embedder {
        &self.embedder
    }
}

/// The texts each question reads (its outcomes, or what its meaning names), rendered once.
/// An aligned question's outcomes, from its task, are left to its answer: not worth parsing
/// it twice.
fn texts_read(questions: &Questions, meanings: &[Meaning]) -> Vec<Vec<String>> {
    questions
        .values()
        .zip(meanings)
        .map(|(q, m)| match m {
            Meaning::Alone if aligned::AlignedInstructions::is_aligned(q.instructions.as_ref()) => {
                Vec::new()
            }
            Meaning::Alone => outcomes::outcome_texts(q),
            meant => meant.texts(),
        })
        .collect()
}

/// A question's distribution from its outcome probabilities: `P(true)` first for a noul.
pub(super) fn distribution_of(kind: &QuestionKind, ps: Vec<f64>) -> Distribution {
    match kind {
        QuestionKind::Noul { .. } => Distribution::Noul(ps.first().copied().unwrap_or(0.5)),
        _ => Distribution::Outcomes(ps),
    }
}

/// How one decision reads its state.
pub(super) struct Read<'a> {
    /// The base model asked for, for the error.
    pub(super) model: &'a str,
    /// Read the first [`STATE_BUDGET`] tokens of a longer state rather than refuse it.
    pub(super) truncate: bool,
    /// Set once nobody waits for the answer.
    pub(super) stop: &'a AtomicBool,
    /// Where the windows read are counted, when someone watches ([`crate::engine::progress`]).
    pub(super) progress: Option<&'a ReadProgress>,
}

/// `state_too_large`, at `body.state`: the state has `count` tokens (at least, when only
/// the cheap bound was taken).
pub(super) fn too_large(model: &str, count: usize, at_least: bool) -> crate::error::Error {
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
pub(super) fn stopped(stop: &AtomicBool) -> Result<()> {
    if stop.load(Ordering::Relaxed) {
        return Err(crate::error::Error::bug(
            "abandoned: nobody waits for this decision",
        ));
    }
    Ok(())
}

/// Sets its flag when dropped: the decision's future was dropped (its client went away).
pub(super) struct StopOnDrop(pub(super) Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}
