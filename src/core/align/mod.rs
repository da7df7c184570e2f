//! Alignment: what each question answers with, chosen from its annotated examples, as a
//! job; committed when some question is better answered otherwise than zero-shot.
//!
//! For each question: its annotated examples (a seeded sample of at most `max_examples`)
//! are embedded once, and the question's zero-shot answers are its prior. [`select`]
//! scores the candidates (zero-shot, the majority prior, a learned head whose strength
//! [`cross_validation`] cross-validates over seeded folds) out of fold, keeps the one with
//! the least log loss (then the best accuracy), and reports the whole choice's figures,
//! nested below 100 examples. A question whose choice is not zero-shot gets its head written to `learned/`
//! (tensors and manifest, with each fitted example's out-of-fold answer for `eval`);
//! `questions.yaml` is left as it is. With a `margin`, `gate::judge` must also find the
//! gain over zero-shot beyond chance. The files go on `alignments/<jobId>`, its parent the
//! base checkpoint. Nothing is committed when every question keeps zero-shot. The same
//! examples, seed and base checkpoint give the same tree.

mod commit;
mod correction;
pub mod cross_validation;
mod fit;
pub(crate) mod folds;
mod gate;
mod inputs;
mod question;
mod select;
mod tune;

use commit::{finish, fit_id};
pub(crate) use commit::{has_exemplar, without_exemplar};
pub use gate::Verdict;
use inputs::{embed, examples_count, not_run, parallel_map, read_captured, read_examples};
use question::align_question;

use super::jobs::{Draft, Ending, JobClaim, Observer, Origin, Spec};
use super::metrics::{self, Metrics, Scored, label_of, loss, scale_of};
use super::models::{self, CommitRequest, Loaded};
use super::{Context, blocking};
use crate::engine::builtin::aligned::{
    self, AlignedInstructions, answer_outcome, format, outcome_keys, unsupervised,
};
use crate::engine::builtin::{BuiltinEngine, EmbeddedState, Embedding};
use crate::error::{Error, Result};
use crate::ids::{ExampleId, JobId, ModelRef};
use crate::store::{ExampleFilter, JobRecord};
use crate::wire::align::{AlignmentRequest, AlignmentResult, MIN_EXAMPLES, QuestionReport};
use crate::wire::decision::Revision;
use crate::wire::jobs::{Job, JobKind, JobResult, Progress};
use crate::wire::validate::Loc;
use crate::wire::{Question, QuestionKind, Questions};
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
    pub model: &'a ModelRef,
    pub request: AlignmentRequest,
}

/// What an alignment job runs from, as stored with it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct AlignmentSpec {
    /// The revision as asked, with the commit it resolved to when the job was created.
    revision: Revision,
    questions: Vec<String>,
    seed: u64,
    margin: f64,
    max_examples: usize,
    /// Absent in jobs recorded before held-out splits: the default.
    #[serde(default = "default_holdout")]
    holdout: f64,
    /// Absent in jobs recorded before cross-validated heads: the default.
    #[serde(default = "default_folds")]
    folds: usize,
    #[serde(default)]
    curve: bool,
    /// Absent in jobs recorded before unsupervised corrections: false.
    #[serde(default)]
    unsupervised: bool,
    /// Absent in jobs recorded before fine-tunes: false (they did not tune).
    #[serde(default)]
    tune: bool,
    origin: Origin,
}

impl Spec for AlignmentSpec {
    const KIND: JobKind = JobKind::Alignment;

    fn origin(&self) -> &Origin {
        &self.origin
    }
}

fn default_holdout() -> f64 {
    crate::wire::align::DEFAULT_HOLDOUT
}

fn default_folds() -> usize {
    crate::wire::align::DEFAULT_FOLDS
}

/// Check an alignment and record it `queued`. The caller holds the returned claim and runs
/// the job ([`super::runner::run`]) or hands it on.
pub fn create(
    ctx: &Context,
    alignment: NewAlignment<'_>,
    origin: Option<Origin>,
) -> Result<(Job, JobClaim)> {
    let request = alignment.request;
    let loaded = models::load(ctx, alignment.model, request.revision.as_deref())?;
    builtin_engine(ctx, &loaded)?;
    let questions = crate::core::question_ids::question_ids(
        &loaded,
        request.questions.as_deref(),
        crate::core::question_ids::QuestionsFor::Align,
    )?;
    let draft = Draft::new(ctx)?;
    let stored = AlignmentSpec {
        revision: loaded.revision.clone(),
        questions,
        seed: request.seed,
        margin: request.margin,
        max_examples: request.max_examples,
        holdout: request.holdout,
        folds: request.folds,
        curve: request.curve,
        unsupervised: request.unsupervised,
        tune: request.tune,
        origin: Origin::of_creation(ctx, origin, draft.job_id()),
    };
    draft.record(ctx, &loaded.model_id, &stored, 0)
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
            Err(Error::bug("the alignment was cancelled"))
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
    stored: AlignmentSpec,
    observer: &dyn Observer,
) -> Result<Ending> {
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
            folds: stored.folds,
            curve: stored.curve,
            unsupervised: stored.unsupervised,
            tune: stored.tune,
        };
        // On the pool of the job's task: in a server, the one that yields to decisions.
        let pool = crate::parallel::Pool::current();
        tokio::task::spawn_blocking(move || {
            let builtin = engine
                .as_builtin()
                .ok_or_else(|| Error::bug("the engine is no longer built-in"))?;
            pool.install(|| align(&ctx, &loaded, builtin, &settings, &tracker))
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
    let (ctx2, job_id) = (ctx.clone(), record.job_id);
    let result = blocking(move || finish(&ctx2, &loaded, &job_id, &stored, outcome)).await?;
    Ok(Ending::Completed(JobResult::Alignment(Box::new(result))))
}

/// What the blocking part settles.
struct Settings {
    questions: Vec<String>,
    seed: u64,
    margin: f64,
    max_examples: usize,
    holdout: f64,
    folds: usize,
    curve: bool,
    /// Every question corrected without annotations ([`unsupervised`]).
    unsupervised: bool,
    /// Fine-tune the encoder where it pays ([`tune`]).
    tune: bool,
}

/// What the blocking part found.
struct Outcome {
    reports: IndexMap<String, QuestionReport>,
    /// What the questions that passed the gate learned.
    learned: IndexMap<String, Learned>,
    /// The fine-tune tried, and its delta when the heads read it.
    tuning: Option<(
        crate::wire::align::TuningReport,
        Option<crate::engine::builtin::tuned::Delta>,
    )>,
}

/// One annotated example of one question.
struct Item {
    example: usize,
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
    // Captured states are read for the corrected prior a choice or a score starts from
    // (a noul has none), and for a correction without annotations.
    let corrects = settings.unsupervised
        || settings
            .questions
            .iter()
            .any(|id| !matches!(loaded.questions[id].kind, QuestionKind::Noul { .. }));
    let captured_states = if corrects {
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
    let refused = tune::not_tuned(engine, settings, &embedded)
        .or_else(|| tuned_elsewhere(loaded, settings))
        .filter(|_| !settings.unsupervised);
    let tuned = match refused {
        None if !settings.unsupervised => {
            let started = std::time::Instant::now();
            let tuned = tune::tune(engine, &examples, &embedded, settings, tracker)?;
            tracing::info!(
                seconds = started.elapsed().as_secs_f64(),
                "alignment: encoder fine-tuned"
            );
            Some(tuned)
        }
        _ => None,
    };
    let inputs = (&examples, &embedded[..], &captured[..]);
    let mut base = search(loaded, engine, inputs, settings, tracker, None)?;
    let Some(tuned) = tuned else {
        // Asked for and not run: say why.
        if settings.tune && !settings.unsupervised {
            base.tuning = Some((
                crate::wire::align::TuningReport {
                    used: false,
                    examples: 0,
                    steps: 0,
                    log_loss_tuned: None,
                    log_loss_base: None,
                    reason: refused.unwrap_or_default(),
                },
                None,
            ));
        }
        return Ok(base);
    };
    tracker
        .total
        .fetch_add(settings.questions.len() as u64, Ordering::Relaxed);
    let over_tuned = search(loaded, engine, inputs, settings, tracker, Some(&tuned))?;
    Ok(choose_encoder(base, over_tuned, tuned))
}

/// Why the alignment cannot fine-tune because of a question it leaves as it is: a head of
/// the base checkpoint that reads its fine-tune, which a new one would replace.
fn tuned_elsewhere(loaded: &Loaded, settings: &Settings) -> Option<String> {
    let kept: Vec<&String> = loaded
        .questions
        .keys()
        .filter(|id| {
            loaded.heads.get(id).is_some_and(|l| l.tuned.is_some())
                && !settings.questions.contains(id)
        })
        .collect();
    (!kept.is_empty()).then(|| {
        format!(
            "{} read{} the base checkpoint's fine-tune: align {} with these questions to tune \
             again",
            kept.iter()
                .map(|id| format!("`{id}`"))
                .collect::<Vec<_>>()
                .join(", "),
            if kept.len() == 1 { "s" } else { "" },
            if kept.len() == 1 { "it" } else { "them" },
        )
    })
}

/// The questions' mean out-of-fold log loss of what each chose (over those that chose).
fn chosen_loss(outcome: &Outcome) -> Option<f64> {
    let losses: Vec<f64> = outcome
        .reports
        .values()
        .filter_map(|report| {
            let chosen = report.chosen.as_ref()?;
            Some(report.candidates.as_ref()?.get(chosen)?.log_loss)
        })
        .collect();
    (!losses.is_empty()).then(|| losses.iter().sum::<f64>() / losses.len() as f64)
}

/// The alignment over the fine-tuned encoder where its choices do better out of fold than
/// over the base one (and some question's head reads it), else over the base.
fn choose_encoder(base: Outcome, over_tuned: Outcome, tuned: tune::Tuned) -> Outcome {
    let (tuned_loss, base_loss) = (chosen_loss(&over_tuned), chosen_loss(&base));
    let reads = over_tuned
        .reports
        .values()
        .any(|report| report.improved && report.chosen.as_deref() == Some("head"));
    let (used, reason) = match (tuned_loss, base_loss) {
        (Some(t), Some(b)) if t < b - 1e-9 && reads => (
            true,
            format!(
                "kept: the questions' choices score a mean out-of-fold log loss of {t:.3} over \
                 the fine-tuned encoder, {b:.3} over the base one"
            ),
        ),
        (Some(t), Some(b)) if t < b - 1e-9 => (
            false,
            "not kept: no question's head would read it".to_owned(),
        ),
        (Some(t), Some(b)) => (
            false,
            format!(
                "not kept: the questions' choices score a mean out-of-fold log loss of {t:.3} \
                 over the fine-tuned encoder, {b:.3} over the base one"
            ),
        ),
        _ => (
            false,
            "not kept: no question had a choice to make".to_owned(),
        ),
    };
    let report = crate::wire::align::TuningReport {
        used,
        examples: tuned.examples as u64,
        steps: tuned.steps as u64,
        log_loss_tuned: tuned_loss.map(round),
        log_loss_base: base_loss.map(round),
        reason,
    };
    if used {
        Outcome {
            tuning: Some((report, Some(tuned.delta))),
            ..over_tuned
        }
    } else {
        Outcome {
            tuning: Some((report, None)),
            ..base
        }
    }
}

/// Every question's alignment, over the base encoder or over `tuned`.
fn search(
    loaded: &Loaded,
    engine: &BuiltinEngine,
    (examples, embedded, captured): (&Examples, &[EmbeddedState], &[EmbeddedState]),
    settings: &Settings,
    tracker: &Tracker,
    tuned: Option<&tune::Tuned>,
) -> Result<Outcome> {
    let started = std::time::Instant::now();
    // Questions are fitted at once, one thread each up to the cores, the costliest first
    // (so that none starts last and runs alone); the results are gathered in question
    // order, so the outcome does not depend on which finished first.
    let order = costliest_first(loaded, settings, examples);
    let searched: Vec<Option<Result<Aligned>>> = parallel_map(order.len(), tracker, |at| {
        let q = order[at];
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
            (&loaded.questions[id], loaded.heads.get(id).is_some()),
            examples,
            embedded,
            captured,
            items,
            skipped,
            settings,
            tracker,
            tuned,
        );
        tracing::info!(
            question = %id,
            seconds = started.elapsed().as_secs_f64(),
            "alignment: question searched"
        );
        tracker.done.fetch_add(1, Ordering::Relaxed);
        // An alignment's items, as the metrics count them, are its questions.
        crate::telemetry::metrics::job_item(
            JobKind::Alignment.as_str(),
            if aligned.is_ok() {
                crate::telemetry::metrics::ItemResult::Succeeded
            } else {
                crate::telemetry::metrics::ItemResult::Failed
            },
        );
        aligned
    });
    tracker.check()?;
    in_question_order(settings, &order, searched)
}

/// The questions' indices, the costliest to fit first.
fn costliest_first(loaded: &Loaded, settings: &Settings, examples: &Examples) -> Vec<usize> {
    let mut order: Vec<usize> = (0..settings.questions.len()).collect();
    order.sort_by_key(|&q| {
        let id = &settings.questions[q];
        let n = examples_count(examples, id);
        let cost = n * cross_validation::families_of(&loaded.questions[id].kind, n);
        (std::cmp::Reverse(cost), q)
    });
    order
}

/// The questions' results, searched in `order`, gathered back in question order.
fn in_question_order(
    settings: &Settings,
    order: &[usize],
    mut searched: Vec<Option<Result<Aligned>>>,
) -> Result<Outcome> {
    let mut in_order: Vec<Option<Result<Aligned>>> = (0..order.len()).map(|_| None).collect();
    for (at, &q) in order.iter().enumerate() {
        in_order[q] = searched[at].take();
    }
    let mut outcome = Outcome {
        reports: IndexMap::new(),
        learned: IndexMap::new(),
        tuning: None,
    };
    for (q, aligned) in in_order.into_iter().enumerate() {
        let (report, learned) = aligned.unwrap_or_else(|| Err(not_run("a question")))?;
        let id = settings.questions[q].clone();
        if let Some(learned) = learned {
            outcome.learned.insert(id.clone(), learned);
        }
        outcome.reports.insert(id, report);
    }
    Ok(outcome)
}

/// A question's report and, when it passed the gate, what it learned.
type Aligned = (QuestionReport, Option<Learned>);

/// What one question learned, to commit.
struct Learned {
    /// `aligned/<id>.yaml` (an unsupervised correction).
    file: Option<String>,
    /// `learned/<id>.safetensors` and its manifest entry (a head fitted on annotations).
    head: Option<LearnedHead>,
    /// The fit ID and the examples fitted on, for the store (none for an unsupervised
    /// correction, which fits on no annotation).
    fit_id: Option<String>,
    fitted: Vec<ExampleId>,
    /// Exemplar documents' embeddings, to warm the engine's cache.
    documents: Vec<(String, Embedding)>,
}

/// A head's tensors and its manifest entry.
struct LearnedHead {
    tensors: Vec<u8>,
    entry: crate::engine::builtin::learned::file::Entry,
}

/// Six significant decimals: readable in a diff, far finer than the fit's precision.
fn round(x: f64) -> f64 {
    (x * 1e6).round() / 1e6
}
