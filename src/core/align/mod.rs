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
mod instructions;
mod question;
mod remote;
mod select;
mod tune;

use commit::{finish, fit_id};
pub use gate::Verdict;
use inputs::{embed, examples_count, not_run, parallel_map, read_captured, read_examples};
use question::align_question;
pub use remote::plan;
use remote::{features, over, remote_of};

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
#[allow(clippy::struct_excessive_bools)] // the request's flags, each its own
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
    /// The most remote engine calls it may make (absent: no limit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    budget: Option<u64>,
    /// Improve the instructions with demonstrations instead of fitting heads.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    instructions: bool,
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
    over(ctx, &loaded, request.unsupervised)?;
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
        budget: request.budget,
        instructions: request.instructions,
        origin: Origin::of_creation(ctx, origin, draft.job_id()),
    };
    draft.record(ctx, &loaded.model_id, &stored, 0)
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
#[allow(clippy::too_many_lines)] // the work, then its ticker, then its ending
pub(crate) async fn execute(
    ctx: &Context,
    record: &JobRecord,
    stored: AlignmentSpec,
    observer: &dyn Observer,
) -> Result<Ending> {
    let loaded = models::load_pinned(ctx, &record.model_id, &stored.revision).await?;
    let engine = over(ctx, &loaded, stored.unsupervised)?;
    let tracker = Arc::new(Tracker::default());
    let work = {
        let (ctx, loaded, tracker) = (ctx.clone(), loaded.clone(), tracker.clone());
        let mut settings = Settings {
            questions: stored.questions.clone(),
            seed: stored.seed,
            margin: stored.margin,
            max_examples: stored.max_examples,
            holdout: stored.holdout,
            folds: stored.folds,
            curve: stored.curve,
            unsupervised: stored.unsupervised,
            tune: stored.tune,
            remote: None,
        };
        let (budget, instructions) = (stored.budget, stored.instructions);
        // On the pool of the job's task: in a server, the one that yields to decisions.
        let pool = crate::parallel::Pool::current();
        async move {
            let mut examples = {
                let (ctx, loaded) = (ctx.clone(), loaded.clone());
                let settings = settings.clone();
                blocking(move || read_examples(&ctx, &loaded, &settings)).await?
            };
            if instructions {
                return instructions::search(
                    &ctx, &loaded, &engine, &examples, &settings, budget, &tracker,
                )
                .await;
            }
            let mut calls = None;
            if let Some(remote) = remote_of(&engine) {
                let (priors, made) = remote::ask(
                    &ctx,
                    &remote,
                    &loaded,
                    &settings.questions,
                    &examples,
                    budget,
                    &tracker,
                )
                .await?;
                settings.remote = Some(remote.name.to_owned());
                examples.priors = Some(priors);
                calls = Some(made);
            }
            let aligned = tokio::task::spawn_blocking(move || {
                let builtin = features(engine.as_ref())?;
                pool.install(|| align(&ctx, &loaded, builtin, &examples, &settings, &tracker))
            })
            .await
            .map_err(|e| Error::internal("the alignment task", e))?;
            aligned.map(|outcome| Outcome { calls, ..outcome })
        }
    };
    tokio::pin!(work);
    let mut ticker = tokio::time::interval(TICK);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let outcome = loop {
        tokio::select! {
            out = &mut work => break out,
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
#[derive(Clone, Default)]
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
    /// The remote engine (its name) whose answers are the heads' prior; none: the built-in
    /// engine's zero-shot answers.
    remote: Option<String>,
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
    /// The calls made to the remote engine, when the heads read its answers.
    calls: Option<crate::wire::align::EngineCalls>,
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
    /// A remote engine's answers, the heads' prior instead of the built-in engine's
    /// zero-shot answers ([`remote`]).
    priors: Option<remote::Priors>,
    /// The annotator's reason of an item, by (example index, question ID), where given.
    reasons: HashMap<(usize, String), String>,
}

fn align(
    ctx: &Context,
    loaded: &Loaded,
    engine: &BuiltinEngine,
    examples: &Examples,
    settings: &Settings,
    tracker: &Tracker,
) -> Result<Outcome> {
    // Captured states are read for the corrected prior a choice or a score starts from
    // (a noul has none), and for a correction without annotations: both the built-in
    // engine's zero-shot answers, not a remote engine's.
    let corrects = settings.remote.is_none()
        && (settings.unsupervised
            || settings
                .questions
                .iter()
                .any(|id| !matches!(loaded.questions[id].kind, QuestionKind::Noul { .. })));
    let captured_states = if corrects {
        read_captured(ctx, loaded, settings)?
    } else {
        Vec::new()
    };
    tracker.total.fetch_add(
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
    let refused = tune::remote_untuned(settings)
        .or_else(|| tune::not_tuned(engine, settings, &embedded))
        .or_else(|| tune::tuned_elsewhere(loaded, settings))
        .filter(|_| !settings.unsupervised);
    let tuned = match refused {
        None if !settings.unsupervised => {
            let started = std::time::Instant::now();
            let tuned = tune::tune(engine, examples, &embedded, settings, tracker)?;
            tracing::info!(
                seconds = started.elapsed().as_secs_f64(),
                "alignment: encoder fine-tuned"
            );
            Some(tuned)
        }
        _ => None,
    };
    let inputs = (examples, &embedded[..], &captured[..]);
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
    Ok(tune::choose_encoder(base, over_tuned, tuned))
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
        calls: None,
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
    /// New instructions for the question's `questions.yaml` entry (`--instructions`).
    instructions: Option<Value>,
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
