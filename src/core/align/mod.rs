//! Alignment: better questions from annotated examples, as a job, committed only when they
//! are better on examples they were not fitted on.
//!
//! For each question: its annotated examples (a seeded sample of at most `max_examples`)
//! are embedded once; the current checkpoint's answers are the baseline ("before"). A
//! seeded, label-stratified share (`holdout`) is held out; `search::fit_and_predict`
//! chooses a candidate by cross-validation on the rest alone, builds it on them and
//! predicts the held-out examples ("after"). The split is repeated under [`SPLITS`] seeds
//! drawn from the job's, and `gate::judge` decides on all of them, so a question's fate
//! does not hang on one split. A question that passes gets the first split's model written
//! as its learned file `aligned/<id>.yaml` (the format of
//! [`crate::engine::builtin::aligned::format`]), with the ID of the examples it was fitted
//! on, which the store records for `eval`; `questions.yaml` is left as it is. The files go
//! on `alignments/<jobId>`, its parent the base checkpoint. Nothing is committed when no
//! question passes. The same examples, seed and base checkpoint give the same tree.

mod cues;
mod fit;
pub(crate) mod folds;
mod gate;
mod search;

pub use gate::Verdict;

use super::jobs::runner::{Ending, Observer};
use super::jobs::{Draft, JobClaim, Origin};
use super::metrics::{self, Metrics, Scored, label_of, loss, predicted_of, scale_of};
use super::models::{self, CommitRequest, Loaded};
use super::{Context, blocking};
use crate::engine::builtin::aligned::{
    self, AlignedInstructions, FEATURE_NAMES, VERSION, answer_outcome, format, outcome_keys,
    unsupervised,
};
use crate::engine::builtin::{BuiltinEngine, EmbeddedState, Embedding};
use crate::error::{Error, Result};
use crate::store::{ExampleFilter, JobRecord};
use crate::wire::align::{AlignmentRequest, AlignmentResult, MIN_EXAMPLES, QuestionReport};
use crate::wire::decision::Revision;
use crate::wire::jobs::{Job, JobKind, Progress};
use crate::wire::problem::Loc;
use crate::wire::{Question, Questions};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

/// An alignment to create.
pub struct NewAlignment<'a> {
    /// Repository path or `modelId`.
    pub model: &'a str,
    pub request: AlignmentRequest,
}

/// What an alignment job runs from, as stored with it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredRequest {
    /// The revision as asked, with the commit it resolved to when the job was created.
    revision: Revision,
    questions: Vec<String>,
    seed: u64,
    margin: f64,
    max_examples: usize,
    /// Absent in jobs recorded before held-out splits: the default.
    #[serde(default = "default_holdout")]
    holdout: f64,
    /// Absent in jobs recorded before unsupervised corrections: false.
    #[serde(default)]
    unsupervised: bool,
    origin: Origin,
}

fn default_holdout() -> f64 {
    crate::wire::align::DEFAULT_HOLDOUT
}

/// Check an alignment and record it `queued`. The caller holds the returned claim and runs
/// the job ([`super::jobs::run`]) or hands it on.
pub fn create(
    ctx: &Context,
    alignment: NewAlignment<'_>,
    origin: Option<Origin>,
) -> Result<(Job, JobClaim)> {
    let request = alignment.request;
    let loaded = models::load(ctx, alignment.model, request.revision.as_deref())?;
    builtin_engine(ctx, &loaded)?;
    let questions = models::question_ids(&loaded, request.questions.as_deref(), "align")?;
    let draft = Draft::new(ctx)?;
    let stored = StoredRequest {
        revision: loaded.revision.clone(),
        questions,
        seed: request.seed,
        margin: request.margin,
        max_examples: request.max_examples,
        holdout: request.holdout,
        unsupervised: request.unsupervised,
        origin: origin.unwrap_or_else(|| Origin::local(ctx, draft.job_id())),
    };
    draft.record(ctx, &loaded.model_id, JobKind::Alignment, &stored, 0)
}

/// The built-in engine of the model's base: the alignment fits its features.
fn builtin_engine(ctx: &Context, loaded: &Loaded) -> Result<Arc<dyn crate::engine::Engine>> {
    let engine = loaded.engine(ctx)?;
    if engine.as_builtin().is_none() {
        return Err(Error::BadRequest(format!(
            "{} is on base model `{}`, which is routed to a remote engine ({}); alignments fit \
             the built-in engine's features, so align on a base model the built-in engine serves",
            loaded.path,
            loaded.spec.base,
            engine.describe()
        )));
    }
    Ok(engine.clone())
}

/// Progress and cancel, shared between the blocking work and the job's ticker.
#[derive(Default)]
struct Tracker {
    total: AtomicU64,
    done: AtomicU64,
    cancel: AtomicBool,
}

impl Tracker {
    fn progress(&self) -> Progress {
        Progress {
            total: self.total.load(Ordering::Relaxed),
            done: self.done.load(Ordering::Relaxed),
            failed: 0,
        }
    }

    fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }

    fn check(&self) -> Result<()> {
        if self.cancelled() {
            Err(Error::Internal("the alignment was cancelled".into()))
        } else {
            Ok(())
        }
    }
}

/// How often progress is recorded and a cancel looked for.
const TICK: Duration = Duration::from_millis(200);

/// Run an alignment job to its end.
pub(crate) async fn execute(
    ctx: &Context,
    record: &JobRecord,
    observer: &dyn Observer,
) -> Result<Ending> {
    let stored: StoredRequest = serde_json::from_value(record.request.clone()).map_err(|e| {
        Error::Internal(format!("job {} has a corrupt request: {e}", record.job_id))
    })?;
    let loaded = models::load_pinned(ctx, &record.model_id, &stored.revision).await?;
    let engine = builtin_engine(ctx, &loaded)?;
    let tracker = Arc::new(Tracker::default());
    let work = {
        let (ctx, loaded, tracker) = (ctx.clone(), loaded.clone(), tracker.clone());
        let settings = Settings {
            questions: stored.questions.clone(),
            seed: stored.seed,
            margin: stored.margin,
            max_examples: stored.max_examples,
            holdout: stored.holdout,
            unsupervised: stored.unsupervised,
        };
        tokio::task::spawn_blocking(move || {
            let builtin = engine
                .as_builtin()
                .ok_or_else(|| Error::Internal("the engine is no longer built-in".into()))?;
            align(&ctx, &loaded, builtin, &settings, &tracker)
        })
    };
    tokio::pin!(work);
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let outcome = loop {
        tokio::select! {
            out = &mut work => break out.map_err(|e| Error::internal("the alignment task", e))?,
            _ = ticker.tick() => {
                observer.progress(tracker.progress());
                if super::jobs::record_progress(ctx, &record.job_id, tracker.progress()).await? {
                    tracker.cancel.store(true, Ordering::Relaxed);
                }
            }
        }
    };
    if tracker.cancelled() {
        return Ok(Ending::Cancelled);
    }
    let outcome = outcome?;
    observer.progress(tracker.progress());
    super::jobs::record_progress(ctx, &record.job_id, tracker.progress()).await?;
    let (ctx2, job_id) = (ctx.clone(), record.job_id.to_string());
    let result = blocking(move || finish(&ctx2, &loaded, &job_id, &stored, outcome)).await?;
    Ok(Ending::Completed(
        serde_json::to_value(result).map_err(|e| Error::internal("serializing a result", e))?,
    ))
}

/// What the blocking part settles.
struct Settings {
    questions: Vec<String>,
    seed: u64,
    margin: f64,
    max_examples: usize,
    holdout: f64,
    /// Every question corrected without annotations ([`unsupervised`]).
    unsupervised: bool,
}

/// What the blocking part found.
struct Outcome {
    reports: IndexMap<String, QuestionReport>,
    /// What the questions that passed the gate learned.
    learned: IndexMap<String, Learned>,
}

/// One annotated example of one question.
struct Item {
    example: usize,
    answer: Value,
    reasoning: Option<String>,
    label: Vec<f64>,
    outcome: usize,
}

/// The examples the alignment reads, each once.
struct Examples {
    ids: Vec<String>,
    states: Vec<Value>,
    /// Question ID → its items.
    items: HashMap<String, (Vec<Item>, u64)>,
}

fn align(
    ctx: &Context,
    loaded: &Loaded,
    engine: &BuiltinEngine,
    settings: &Settings,
    tracker: &Tracker,
) -> Result<Outcome> {
    let examples = read_examples(ctx, loaded, settings)?;
    // Captured states are read only when a question is to be corrected without
    // annotations: asked for, or too few annotated examples to align it.
    let captured_states = if settings.unsupervised
        || settings
            .questions
            .iter()
            .any(|id| examples_count(&examples, id) < MIN_EXAMPLES)
    {
        read_captured(ctx, loaded, settings)?
    } else {
        Vec::new()
    };
    tracker.total.store(
        (examples.states.len() + captured_states.len() + settings.questions.len()) as u64,
        Ordering::Relaxed,
    );
    let started = std::time::Instant::now();
    let embedded = embed(engine, &examples.states, tracker)?;
    let captured = embed(engine, &captured_states, tracker)?;
    tracing::info!(
        states = examples.states.len(),
        seconds = started.elapsed().as_secs_f64(),
        "alignment: states embedded"
    );
    // Questions are searched at once, one thread each up to the cores; the results are
    // gathered in question order, so the outcome does not depend on which finished first.
    let searched = parallel_map(settings.questions.len(), tracker, |q| {
        let id = &settings.questions[q];
        let (items, skipped) = examples
            .items
            .get(id)
            .map_or((&[][..], 0), |(items, skipped)| {
                (items.as_slice(), *skipped)
            });
        let aligned = align_question(
            engine,
            id,
            &loaded.questions[id],
            &examples,
            &embedded,
            &captured,
            items,
            skipped,
            settings,
            tracker,
        );
        tracing::info!(
            question = %id,
            seconds = started.elapsed().as_secs_f64(),
            "alignment: question searched"
        );
        tracker.done.fetch_add(1, Ordering::Relaxed);
        aligned
    });
    tracker.check()?;
    let mut outcome = Outcome {
        reports: IndexMap::new(),
        learned: IndexMap::new(),
    };
    for (q, aligned) in searched.into_iter().enumerate() {
        let (report, learned) = aligned.unwrap_or_else(|| Err(not_run("a question")))?;
        let id = settings.questions[q].clone();
        if let Some(learned) = learned {
            outcome.learned.insert(id.clone(), learned);
        }
        outcome.reports.insert(id, report);
    }
    Ok(outcome)
}

/// Every example annotated for one of the questions, with its items per question: a seeded
/// sample of at most `max_examples` per question.
fn read_examples(ctx: &Context, loaded: &Loaded, settings: &Settings) -> Result<Examples> {
    let mut all: HashMap<String, Vec<(String, Value, Option<String>)>> = HashMap::new();
    let mut states: HashMap<String, Value> = HashMap::new();
    let filter = ExampleFilter {
        annotated: Some(true),
        question: None,
    };
    ctx.store()?
        .for_each_example(&loaded.model_id, &filter, &mut |example| {
            let mut used = false;
            for id in &settings.questions {
                if let Some(annotation) = example.annotations.get(id) {
                    all.entry(id.clone()).or_default().push((
                        example.example_id.to_string(),
                        annotation.answer.clone(),
                        annotation.reasoning.clone(),
                    ));
                    used = true;
                }
            }
            if used {
                states.insert(example.example_id.to_string(), example.state);
            }
            Ok(())
        })?;
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut examples = Examples {
        ids: Vec::new(),
        states: Vec::new(),
        items: HashMap::new(),
    };
    for id in &settings.questions {
        let kind = &loaded.questions[id].kind;
        let mut annotated = all.remove(id).unwrap_or_default();
        let mut skipped = 0u64;
        annotated.retain(|(_, answer, _)| {
            let named = answer_outcome(kind, answer).is_some();
            skipped += u64::from(!named);
            named
        });
        if annotated.len() > settings.max_examples {
            skipped += (annotated.len() - settings.max_examples) as u64;
            annotated
                .sort_by_key(|(example_id, _, _)| folds::key(settings.seed, "sample", example_id));
            annotated.truncate(settings.max_examples);
        }
        // A stable order, whatever the store's: by example ID.
        annotated.sort_by(|a, b| a.0.cmp(&b.0));
        let mut items = Vec::with_capacity(annotated.len());
        for (example_id, answer, reasoning) in annotated {
            let at = *index.entry(example_id.clone()).or_insert_with(|| {
                examples.ids.push(example_id.clone());
                examples
                    .states
                    .push(states.get(&example_id).cloned().unwrap_or(Value::Null));
                examples.ids.len() - 1
            });
            let outcome = answer_outcome(kind, &answer).unwrap_or(0);
            items.push(Item {
                example: at,
                label: label_of(kind, &answer).unwrap_or_default(),
                answer,
                reasoning,
                outcome,
            });
        }
        examples.items.insert(id.clone(), (items, skipped));
    }
    Ok(examples)
}

/// Embed every state, on every core.
fn embed(
    engine: &BuiltinEngine,
    states: &[Value],
    tracker: &Tracker,
) -> Result<Vec<EmbeddedState>> {
    let embedded = parallel_map(states.len(), tracker, |i| {
        let state = engine.embed_state(&states[i]);
        tracker.done.fetch_add(1, Ordering::Relaxed);
        state
    });
    tracker.check()?;
    embedded
        .into_iter()
        .map(|state| state.unwrap_or_else(|| Err(not_run("a state"))))
        .collect()
}

/// [`crate::parallel::map_on_all_cores`], taking no new index once the job is cancelled
/// (the caller checks `tracker`).
fn parallel_map<R: Send>(
    n: usize,
    tracker: &Tracker,
    work: impl Fn(usize) -> R + Sync,
) -> Vec<Option<R>> {
    crate::parallel::map_on_all_cores(n, || tracker.cancelled(), work)
}

/// What a thread that panicked left undone.
fn not_run(what: &str) -> Error {
    Error::Internal(format!("{what} was not processed: a worker thread failed"))
}

// One question's alignment in order (filter, baseline, search, gate, write), over
// locals that every step shares.
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
fn align_question(
    engine: &BuiltinEngine,
    id: &str,
    question: &Question,
    examples: &Examples,
    embedded: &[EmbeddedState],
    captured: &[EmbeddedState],
    items: &[Item],
    mut skipped: u64,
    settings: &Settings,
    tracker: &Tracker,
) -> Result<Aligned> {
    let loc = Loc(vec![crate::wire::problem::Segment::Key(
        "questions.yaml".into(),
    )])
    .key(id);
    let current = aligned::parse(question, &loc).map_err(Error::Validation)?;
    let base = match &current {
        Some(alignment) => aligned::base_question(question, alignment),
        None => question.clone(),
    };
    // A state with nothing to read can be neither compared nor an exemplar.
    let items: Vec<&Item> = items
        .iter()
        .filter(|it| !embedded[it.example].is_blank())
        .collect();
    skipped += (examples_count(examples, id) - items.len()) as u64;
    let mut report = QuestionReport {
        improved: false,
        examples: items.len() as u64,
        fitted: 0,
        held_out: 0,
        skipped,
        candidate: None,
        before: None,
        after: None,
        gate: None,
        states: None,
        reason: None,
    };
    let present: std::collections::BTreeSet<usize> = items.iter().map(|it| it.outcome).collect();
    let too_few = if items.len() < MIN_EXAMPLES {
        Some(format!(
            "too few annotated examples ({} < {MIN_EXAMPLES})",
            items.len()
        ))
    } else if present.len() < 2 {
        Some("every annotated example has the same answer".to_owned())
    } else {
        None
    };
    // Asked for, or too few to align on: corrected without annotations (in the second case
    // only when there are captured states to estimate the pull on, saying why).
    if settings.unsupervised || (too_few.is_some() && !captured.is_empty()) {
        let why = if settings.unsupervised { None } else { too_few };
        return correct_unsupervised(
            engine,
            id,
            (current.as_ref(), &base),
            captured,
            settings,
            report,
            why,
        );
    }
    if let Some(reason) = too_few {
        report.reason = Some(reason);
        return Ok((report, None));
    }
    let kind = &question.kind;
    let outcomes = outcome_keys(kind).len();
    let scale = scale_of(kind);
    let n = items.len();
    let states: Vec<&EmbeddedState> = items.iter().map(|it| &embedded[it.example]).collect();
    let documents: Vec<Option<Embedding>> = states.iter().map(|s| s.as_document()).collect();
    let mut zero_shot = Vec::with_capacity(n);
    let mut baseline = Vec::with_capacity(n);
    for (it, state) in items.iter().zip(&states) {
        zero_shot.push(engine.similarities(state, &base)?);
        let own = without_exemplar(question, &examples.ids[it.example]);
        let (answer, _) = engine.answer(state, own.as_ref().unwrap_or(question))?;
        baseline.push(predicted_of(&answer, outcomes));
    }
    tracker.check()?;
    let sims = similarity_matrix(&states, &documents);
    // Cues are learned from what people wrote (string values and reasoning), never from
    // the state's keys or JSON syntax, which would make the state's shape a cue.
    let texts: Vec<String> = items
        .iter()
        .map(|it| {
            let mut text = cue_document(&examples.states[it.example]);
            if let Some(reasoning) = &it.reasoning {
                text.push('\n');
                text.push_str(reasoning);
            }
            text
        })
        .collect();
    let cue_similarity = |text: &str| -> Result<Vec<f64>> {
        let embedding = engine.embedder().embed_cached(text)?;
        Ok(states
            .iter()
            .map(|s| s.similarity(&embedding.vector))
            .collect())
    };
    let ids: Vec<&str> = items
        .iter()
        .map(|it| examples.ids[it.example].as_str())
        .collect();
    let problem = search::Problem {
        kind,
        scale,
        outcomes,
        ids,
        labels: items.iter().map(|it| it.label.clone()).collect(),
        outcome_of: items.iter().map(|it| it.outcome).collect(),
        zero_shot,
        baseline,
        sims,
        corpus: cues::Corpus::new(&texts),
        cue_similarity: &cue_similarity,
        seed: settings.seed,
        // A checkpoint keeps only the text the encoder reads of an exemplar, so any state
        // with something to read may be one.
        exemplar_ok: documents.iter().map(Option::is_some).collect(),
    };
    let cancelled = || tracker.cancelled();
    // The held-out split is repeated under several seeds: split 0 is the one the committed
    // model is fitted on and its figures are from; the gate asks that the gain hold on
    // every split and, averaged per example over the splits that held it out, beyond chance.
    let before_losses: Vec<f64> = (0..n)
        .map(|i| loss(scale, &problem.baseline[i], &problem.labels[i]))
        .collect();
    let mut after_sums = vec![(0.0, 0u32); n];
    let mut split_gains = Vec::with_capacity(SPLITS);
    let mut committed: Option<(search::Fit, Vec<bool>)> = None;
    for r in 0..SPLITS {
        let split_seed = folds::split_seed(settings.seed, r);
        let held_out = folds::hold_out(
            &problem.ids,
            &problem.outcome_of,
            settings.holdout,
            split_seed,
        );
        let fit = search::fit_and_predict(&problem, &held_out, split_seed, &cancelled)?;
        let mut gains = 0.0;
        let mut count = 0u32;
        for (i, predicted) in fit.held_out.iter().enumerate() {
            if let Some(predicted) = predicted {
                let after = loss(scale, predicted, &problem.labels[i]);
                after_sums[i].0 += after;
                after_sums[i].1 += 1;
                gains += before_losses[i] - after;
                count += 1;
            }
        }
        split_gains.push(if count == 0 {
            0.0
        } else {
            gains / f64::from(count)
        });
        if r == 0 {
            committed = Some((fit, held_out));
        }
    }
    let Some((fit, held_out)) = committed else {
        return Err(not_run("the held-out split"));
    };
    let held: Vec<usize> = (0..n).filter(|&i| held_out[i]).collect();
    report.held_out = held.len() as u64;
    report.fitted = (n - held.len()) as u64;
    let on_held = |predictions: &dyn Fn(usize) -> Vec<f64>| -> (Metrics, Vec<Scored>) {
        let scored: Vec<Scored> = held
            .iter()
            .map(|&i| Scored {
                predicted: predictions(i),
                label: problem.labels[i].clone(),
            })
            .collect();
        let metrics =
            Metrics::compute(scale, outcomes, &scored).with_uncertainty(scale, &scored, id);
        (metrics, scored)
    };
    report.before = Some(on_held(&|i| problem.baseline[i].clone()).0);
    let (after, after_scored) = on_held(&|i| fit.held_out[i].clone().unwrap_or_default());
    report.after = Some(after);
    let judged: Vec<usize> = (0..n).filter(|&i| after_sums[i].1 > 0).collect();
    let mut verdict = gate::judge(
        &judged.iter().map(|&i| before_losses[i]).collect::<Vec<_>>(),
        &judged
            .iter()
            .map(|&i| after_sums[i].0 / f64::from(after_sums[i].1))
            .collect::<Vec<_>>(),
        settings.margin,
        settings.seed,
        id,
    );
    // Holding means a gain on all splits but at most one: one unlucky split of a small
    // set does not sink a real gain, and two do.
    let losing: Vec<String> = split_gains
        .iter()
        .enumerate()
        .filter(|(_, g)| **g <= 0.0)
        .map(|(r, g)| format!("split {r}: {g:.4}"))
        .collect();
    if verdict.passed && losing.len() > MAY_LOSE {
        verdict.passed = false;
        verdict.reason = Some(format!(
            "the gain does not hold across the held-out splits ({})",
            losing.join(", ")
        ));
    }
    verdict.splits = split_gains.iter().map(|g| round(*g)).collect();
    report.reason.clone_from(&verdict.reason);
    let passed = verdict.passed;
    report.gate = Some(verdict);
    if !passed {
        return Ok((report, None));
    }
    report.candidate = Some(fit.model.spec.to_string());
    report.improved = true;
    let fitted: Vec<String> = (0..n)
        .filter(|&i| !held_out[i])
        .map(|i| problem.ids[i].to_owned())
        .collect();
    let abstain = abstain_rule(&after_scored);
    let learned = learned_file(
        engine,
        id,
        question,
        &fit.model,
        items.as_slice(),
        examples,
        &documents,
        settings,
        fitted,
        (report.held_out, abstain),
    )?;
    Ok((report, Some(learned)))
}

/// Correct a question without annotations ([`unsupervised`]) from the `captured` states,
/// given its current alignment (as [`align_question`] parsed it) and its base question;
/// `why` says why it was not aligned on annotations instead (when it was not asked for).
fn correct_unsupervised(
    engine: &BuiltinEngine,
    id: &str,
    (current, base): (Option<&aligned::Alignment>, &Question),
    captured: &[EmbeddedState],
    settings: &Settings,
    mut report: QuestionReport,
    why: Option<String>,
) -> Result<Aligned> {
    let explain = |reason: String| match &why {
        Some(why) => format!("{why}; {reason}"),
        None => reason,
    };
    // An alignment learned from annotations is worth more than a correction without them.
    if let Some(alignment) = current
        && (!alignment.exemplars.is_empty() || alignment.cues.iter().any(Option::is_some))
    {
        report.reason = Some(explain(
            "aligned on annotated examples already; left as it is".to_owned(),
        ));
        return Ok((report, None));
    }
    let similarities = captured
        .iter()
        .map(|state| engine.similarities(state, base))
        .collect::<Result<Vec<_>>>()?;
    let mut calibration = match unsupervised::correction(base, &similarities, MIN_EXAMPLES) {
        Ok(calibration) => calibration,
        Err(not) => {
            report.reason = Some(explain(not.to_string()));
            return Ok((report, None));
        }
    };
    calibration.seed = Some(settings.seed);
    calibration
        .weights
        .values_mut()
        .for_each(|w| *w = round(*w));
    calibration.bias.values_mut().for_each(|b| *b = round(*b));
    let states = captured.iter().filter(|s| !s.is_blank()).count() as u64;
    report.improved = true;
    report.candidate = Some(unsupervised::METHOD.to_owned());
    report.states = Some(states);
    report.reason = why.map(|why| format!("{why}: corrected without annotations instead"));
    let learned = AlignedInstructions {
        task: None,
        examples: Vec::new(),
        cues: IndexMap::new(),
        arbiter_alignment: calibration,
    };
    Ok((
        report,
        Some(Learned {
            file: learned_yaml(id, &learned),
            fit_id: None,
            fitted: Vec::new(),
            documents: Vec::new(),
        }),
    ))
}

/// The model's captured states, annotated or not: a seeded sample of at most
/// `max_examples`, in a stable order.
fn read_captured(ctx: &Context, loaded: &Loaded, settings: &Settings) -> Result<Vec<Value>> {
    let mut all: Vec<(String, Value)> = Vec::new();
    ctx.store()?.for_each_example(
        &loaded.model_id,
        &ExampleFilter::default(),
        &mut |example| {
            all.push((example.example_id.to_string(), example.state));
            Ok(())
        },
    )?;
    if all.len() > settings.max_examples {
        all.sort_by_key(|(example_id, _)| folds::key(settings.seed, "sample", example_id));
        all.truncate(settings.max_examples);
    }
    all.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(all.into_iter().map(|(_, state)| state).collect())
}

/// The error rate an aligned question's abstain threshold is chosen for.
const ABSTAIN_TARGET: f64 = 0.05;

/// The abstain rule of an aligned question: the threshold under which its held-out error is
/// at most [`ABSTAIN_TARGET`] with 95% confidence ([`metrics::bounded_coverage`]); none when
/// the held-out examples are too few, or too often wrong, to show that.
fn abstain_rule(held_out: &[Scored]) -> Option<format::Abstain> {
    let at = metrics::bounded_coverage(held_out, ABSTAIN_TARGET);
    Some(format::Abstain {
        // Down, so the examples the threshold kept are kept by the rounded one too.
        below: (at.threshold? * 1e6).floor() / 1e6,
        target_error: Some(ABSTAIN_TARGET),
        coverage: Some(round(at.coverage)),
    })
}

/// Held-out splits an alignment repeats (under seeds drawn from its own).
const SPLITS: usize = 5;
/// Splits on which a committed question's gain may be zero or less.
const MAY_LOSE: usize = 1;

/// The text cues are learned from: the state's string values, cut as an exemplar's text is.
fn cue_document(state: &Value) -> String {
    let mut text = crate::engine::builtin::text::text_values(state);
    if text.len() > aligned::EXEMPLAR_TEXT_BYTES {
        let mut end = aligned::EXEMPLAR_TEXT_BYTES;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// A question's report and, when it passed the gate, what it learned.
type Aligned = (QuestionReport, Option<Learned>);

/// What one question learned, to commit.
struct Learned {
    /// `aligned/<id>.yaml`.
    file: String,
    /// The fit ID and the examples fitted on, for the store (none for an unsupervised
    /// correction, which fits on no annotation).
    fit_id: Option<String>,
    fitted: Vec<String>,
    /// Exemplar documents' embeddings, to warm the engine's cache.
    documents: Vec<(String, Embedding)>,
}

fn examples_count(examples: &Examples, id: &str) -> usize {
    examples.items.get(id).map_or(0, |(items, _)| items.len())
}

/// Whether `question` is aligned with `example_id` among its exemplars.
pub(crate) fn has_exemplar(question: &Question, example_id: &str) -> bool {
    AlignedInstructions::has_exemplar(question.instructions.as_ref(), example_id)
}

/// An aligned question without its exemplar for `example_id` (so an example is never its
/// own neighbour when a checkpoint is scored); `None` when it has none.
pub(crate) fn without_exemplar(question: &Question, example_id: &str) -> Option<Question> {
    if !has_exemplar(question, example_id) {
        return None;
    }
    let mut instructions = question.instructions.clone()?;
    AlignedInstructions::remove_exemplar(&mut instructions, example_id);
    Some(Question {
        instructions: Some(instructions),
        kind: question.kind.clone(),
    })
}

/// `sims[i * n + j]`: state `i` against example `j`'s document, on every core.
fn similarity_matrix(states: &[&EmbeddedState], documents: &[Option<Embedding>]) -> Vec<f32> {
    let n = states.len();
    let threads = std::thread::available_parallelism().map_or(2, std::num::NonZero::get);
    let rows_per = n.div_ceil(threads).max(1);
    let mut sims = vec![0f32; n * n];
    std::thread::scope(|scope| {
        for (chunk_index, chunk) in sims.chunks_mut(rows_per * n.max(1)).enumerate() {
            scope.spawn(move || {
                for (r, row) in chunk.chunks_mut(n.max(1)).enumerate() {
                    let i = chunk_index * rows_per + r;
                    for (j, slot) in row.iter_mut().enumerate() {
                        *slot = documents[j]
                            .as_ref()
                            .map_or(0.0, |d| states[i].similarity(&d.vector) as f32);
                    }
                }
            });
        }
    });
    sims
}

/// A question's learned file (`aligned/<id>.yaml`): the chosen exemplars (their IDs,
/// answers and the text the encoder reads of them), the cues, and the calibration with the
/// split it was fitted on. The question's own instructions stay in `questions.yaml`.
#[allow(clippy::too_many_arguments)]
fn learned_file(
    engine: &BuiltinEngine,
    id: &str,
    question: &Question,
    model: &search::Model,
    items: &[&Item],
    examples: &Examples,
    documents: &[Option<Embedding>],
    settings: &Settings,
    mut fitted: Vec<String>,
    (held_out, abstain): (u64, Option<format::Abstain>),
) -> Result<Learned> {
    let keys = outcome_keys(&question.kind);
    let mut used = Vec::new();
    let mut exemplars = Vec::with_capacity(model.exemplars.len());
    for &i in &model.exemplars {
        let item = items[i];
        let text = aligned::exemplar_text(&examples.states[item.example]);
        // The first window is all the encoder reads of an exemplar: the same embedding
        // from a fraction of the state.
        let Some(window) = engine.embedder().first_window(&text)? else {
            continue;
        };
        if let Some(document) = &documents[i] {
            used.push((window.text.clone(), document.clone()));
        }
        exemplars.push(format::ExemplarEntry {
            example_id: Some(examples.ids[item.example].clone()),
            answer: item.answer.clone(),
            reasoning: item.reasoning.clone(),
            text: Some(window.text),
            state: None,
        });
    }
    let cues = keys
        .iter()
        .zip(&model.cues)
        .filter(|(_, phrases)| !phrases.is_empty())
        .map(|(key, phrases)| (key.clone(), phrases.clone()))
        .collect();
    let weights = FEATURE_NAMES
        .iter()
        .zip(model.calibration.weights)
        .filter(|(_, w)| *w != 0.0)
        .map(|(name, w)| ((*name).to_owned(), round(w)))
        .collect();
    let bias = keys
        .iter()
        .zip(&model.calibration.bias)
        .map(|(key, b)| (key.clone(), round(*b)))
        .collect();
    fitted.sort();
    let fit_id = fit_id(id, &fitted);
    let learned = AlignedInstructions {
        task: None,
        examples: exemplars,
        cues,
        // No job ID here: the same examples, seed and checkpoint give the same tree (the
        // commit message and the branch name say which job made it).
        arbiter_alignment: format::Calibration {
            version: VERSION,
            method: Some(model.spec.to_string()),
            seed: Some(settings.seed),
            weights,
            bias,
            fitted: Some(format::Fitted {
                examples: fitted.len() as u64,
                held_out,
                id: fit_id.clone(),
            }),
            abstain,
        },
    };
    Ok(Learned {
        file: learned_yaml(id, &learned),
        fit_id: Some(fit_id),
        fitted,
        documents: used,
    })
}

/// The record of a split's fitted examples: SHA-256 over the question ID and the sorted
/// example IDs, 32 hex digits.
fn fit_id(question: &str, sorted_ids: &[String]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(question.as_bytes());
    for id in sorted_ids {
        hasher.update([0]);
        hasher.update(id.as_bytes());
    }
    hex::encode(&hasher.finalize()[..16])
}

/// A learned file's text: the calibration first, then cues, then exemplars, under a header
/// that says what the file is.
fn learned_yaml(id: &str, learned: &AlignedInstructions) -> String {
    let value = learned.to_learned_value();
    let mut ordered = serde_json::Map::new();
    for key in [aligned::ALIGNMENT_KEY, "cues", "examples"] {
        if let Some(member) = value.get(key) {
            ordered.insert(key.to_owned(), member.clone());
        }
    }
    let body = serde_yaml::to_string(&Value::Object(ordered)).unwrap_or_default();
    format!(
        "# What `arbiter align` learned for question `{id}`. The engine reads it beside\n\
         # questions.yaml, which alignment leaves as it is.\n{body}"
    )
}

/// Six significant decimals: readable in a diff, far finer than the fit's precision.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}

/// Commit what the questions learned (when any passed) and say how it went.
fn finish(
    ctx: &Context,
    loaded: &Loaded,
    job_id: &str,
    stored: &StoredRequest,
    outcome: Outcome,
) -> Result<AlignmentResult> {
    let mut result = AlignmentResult {
        improved: !outcome.learned.is_empty(),
        base_checkpoint: loaded.revision.commit.clone(),
        branch: None,
        checkpoint: None,
        seed: stored.seed,
        questions: outcome.reports,
    };
    if outcome.learned.is_empty() {
        return Ok(result);
    }
    // The fitted examples are recorded before the checkpoint that names them exists.
    let store = ctx.store()?;
    for learned in outcome.learned.values() {
        if let Some(fit_id) = &learned.fit_id {
            store.record_fitted(fit_id, &learned.fitted)?;
        }
    }
    let files: Vec<(String, String)> = outcome
        .learned
        .iter()
        .map(|(id, learned)| (id.clone(), learned.file.clone()))
        .collect();
    let repo = models::open_by_id(ctx, &loaded.model_id)?;
    let branch = format!("alignments/{job_id}");
    // A run that died after committing finds its branch already there: the same files, the
    // same checkpoint.
    let checkpoint = match models::load(ctx, &loaded.model_id.to_string(), Some(&branch)) {
        Ok(found) => {
            let there = repo.read(&found.revision.commit)?;
            if !files.iter().all(|file| there.aligned.contains(file)) {
                return Err(Error::Conflict {
                    code: "already_exists",
                    detail: format!("branch {branch} exists with other learned files"),
                });
            }
            found.checkpoint
        }
        Err(_) => models::commit(
            ctx,
            &CommitRequest {
                path: loaded.path.clone(),
                branch: Some(branch.clone()),
                start: Some(loaded.revision.commit.clone()),
                questions_yaml: unaligned_inline(&repo, loaded, &files)?,
                model_yaml: None,
                aligned: files,
                message: commit_message(loaded, job_id, &result),
            },
        )?,
    };
    // The first decisions at the new checkpoint need not embed its exemplars again.
    if let Some(engine) = ctx
        .engines()
        .get(&loaded.spec.base)
        .and_then(|e| e.as_builtin())
    {
        let documents = outcome
            .learned
            .into_values()
            .flat_map(|learned| learned.documents)
            .collect();
        engine.embedder().remember_documents(documents);
    }
    result.branch = Some(branch);
    result.checkpoint = Some(checkpoint);
    Ok(result)
}

/// A checkpoint aligned before learned files kept its alignment inside `questions.yaml`;
/// re-aligning such a question puts its instructions back as they were (its `task`), so
/// the new learned file is its only alignment. `None` when no question needs it (then
/// `questions.yaml` is left exactly as it is).
fn unaligned_inline(
    repo: &crate::repo::ModelRepo,
    loaded: &Loaded,
    files: &[(String, String)],
) -> Result<Option<String>> {
    let raw = repo.read(&loaded.revision.commit)?.questions_yaml;
    let mut questions = super::checkpoint::parse_questions_yaml(&raw).map_err(|errors| {
        super::checkpoint::invalid_checkpoint(&loaded.path, &loaded.revision.commit, errors)
    })?;
    let mut changed = false;
    for (id, _) in files {
        if let Some(question) = questions.get_mut(id)
            && aligned::is_aligned(question)
            && let Some(Value::Object(mut members)) = question.instructions.take()
        {
            question.instructions = members.remove("task");
            changed = true;
        }
    }
    Ok(changed.then(|| questions_to_yaml(&questions)))
}

/// `questions.yaml` as YAML (block style), so a diff shows what alignment changed.
pub(crate) fn questions_to_yaml(questions: &Questions) -> String {
    let value = crate::wire::question::questions_to_value(questions);
    serde_yaml::to_string(&value)
        .unwrap_or_else(|_| super::checkpoint::questions_to_yaml(questions))
}

fn commit_message(loaded: &Loaded, job_id: &str, result: &AlignmentResult) -> String {
    let improved: Vec<&str> = result
        .questions
        .iter()
        .filter(|(_, r)| r.improved)
        .map(|(id, _)| id.as_str())
        .collect();
    let mut message = format!(
        "Align {} (job {job_id})\n\nPer question (figures on the held-out examples, before -> after):\n",
        improved.join(", ")
    );
    for (id, report) in &result.questions {
        let _ = match (&report.before, &report.after, report.improved) {
            (Some(before), Some(after), true) => writeln!(
                message,
                "  {id}: {} {:.4} -> {:.4}, accuracy {:.3} -> {:.3}, ECE {:.3} -> {:.3}; {} ({} fitted, {} held out)",
                before.metric,
                before.loss,
                after.loss,
                before.accuracy,
                after.accuracy,
                before.ece,
                after.ece,
                report.candidate.as_deref().unwrap_or("-"),
                report.fitted,
                report.held_out
            ),
            (_, _, true) => writeln!(
                message,
                "  {id}: {} on {} captured states, without annotations",
                report.candidate.as_deref().unwrap_or("-"),
                report.states.unwrap_or_default()
            ),
            _ => writeln!(
                message,
                "  {id}: unchanged ({})",
                report.reason.as_deref().unwrap_or("not improved")
            ),
        };
    }
    let _ = writeln!(
        message,
        "\nBase checkpoint {}, seed {}.",
        loaded.revision.commit, result.seed
    );
    message
}
