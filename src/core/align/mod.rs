//! Alignment: a learned head per question from its annotated examples, as a job,
//! committed only when it is better than zero-shot on examples it was not fitted on.
//!
//! For each question: its annotated examples (a seeded sample of at most `max_examples`)
//! are embedded once, and the question's zero-shot answers are its prior. [`learn`]
//! cross-validates a head ([`crate::learned`]) over stratified seeded folds, choosing its
//! strength by out-of-fold log loss, and fits the kept head on every example (or on those
//! not held out, with `holdout`). `gate::judge` compares the out-of-fold (or held-out)
//! answers with zero-shot. A question that passes gets its head written to `learned/`
//! (tensors and manifest, with each fitted example's out-of-fold answer for `eval`);
//! `questions.yaml` is left as it is. The files go on `alignments/<jobId>`, its parent the
//! base checkpoint. Nothing is committed when no question passes. The same examples, seed
//! and base checkpoint give the same tree.

pub(crate) mod folds;
mod gate;
pub mod learn;

pub use gate::Verdict;

use super::jobs::runner::{Ending, Observer};
use super::jobs::{Draft, JobClaim, Origin};
use super::metrics::{self, Metrics, Scored, label_of, loss, scale_of};
use super::models::{self, CommitRequest, Loaded};
use super::{Context, blocking};
use crate::engine::builtin::aligned::{
    self, AlignedInstructions, answer_outcome, format, outcome_keys, unsupervised,
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
    /// Absent in jobs recorded before cross-validated heads: the default.
    #[serde(default = "default_folds")]
    folds: usize,
    #[serde(default)]
    curve: bool,
    /// Absent in jobs recorded before unsupervised corrections: false.
    #[serde(default)]
    unsupervised: bool,
    origin: Origin,
}

fn default_holdout() -> f64 {
    crate::wire::align::DEFAULT_HOLDOUT
}

fn default_folds() -> usize {
    crate::wire::align::DEFAULT_FOLDS
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
        folds: request.folds,
        curve: request.curve,
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
            folds: stored.folds,
            curve: stored.curve,
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
    folds: usize,
    curve: bool,
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
    let captured_states = if settings.unsupervised {
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
    // Questions are fitted at once, one thread each up to the cores, the costliest first
    // (so that none starts last and runs alone); the results are gathered in question
    // order, so the outcome does not depend on which finished first.
    let mut order: Vec<usize> = (0..settings.questions.len()).collect();
    order.sort_by_key(|&q| {
        let id = &settings.questions[q];
        let cost = examples_count(&examples, id) * learn::families_of(&loaded.questions[id].kind);
        (std::cmp::Reverse(cost), q)
    });
    let mut searched: Vec<Option<Result<Aligned>>> = parallel_map(order.len(), tracker, |at| {
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
    // Back in question order.
    let mut in_order: Vec<Option<Result<Aligned>>> = (0..order.len()).map(|_| None).collect();
    for (at, q) in order.into_iter().enumerate() {
        in_order[q] = searched[at].take();
    }
    let searched = in_order;
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
        for (example_id, answer, _) in annotated {
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
        figures: None,
        curve: None,
    };
    let outcomes = outcome_keys(&question.kind).len();
    let present: std::collections::BTreeSet<usize> = items.iter().map(|it| it.outcome).collect();
    let too_few = if items.len() < outcomes {
        Some(format!(
            "too few annotated examples ({} for {outcomes} outcomes); the zero-shot answer \
             stays",
            items.len()
        ))
    } else if present.len() < 2 {
        Some("every annotated example has the same answer; the zero-shot answer stays".to_owned())
    } else {
        None
    };
    if settings.unsupervised {
        return correct_unsupervised(
            engine,
            id,
            (current.as_ref(), &base),
            question.learned.is_some(),
            captured,
            settings,
            report,
        );
    }
    if let Some(reason) = too_few {
        report.reason = Some(reason);
        return Ok((report, None));
    }
    learn_question(
        engine, id, &base, examples, embedded, &items, settings, tracker, report,
    )
}

/// Fit a question's learned head on its annotated `items` ([`learn`]), gate it on
/// out-of-fold (or held-out) answers against zero-shot, and write it when it passes.
// One question's fit in order (features, folds, fit, gate, files), over locals every step
// shares.
#[allow(clippy::too_many_arguments, clippy::too_many_lines)]
fn learn_question(
    engine: &BuiltinEngine,
    id: &str,
    base: &Question,
    examples: &Examples,
    embedded: &[EmbeddedState],
    items: &[&Item],
    settings: &Settings,
    tracker: &Tracker,
    mut report: QuestionReport,
) -> Result<Aligned> {
    let kind = &base.kind;
    let keys = outcome_keys(kind);
    let outcomes = keys.len();
    let scale = scale_of(kind);
    let n = items.len();
    let mut priors = Vec::with_capacity(n);
    let mut pooled = Vec::with_capacity(n);
    let mut counts = Vec::with_capacity(n);
    for it in items {
        let state = &embedded[it.example];
        priors.push(engine.zero_shot(state, base)?.0);
        pooled.push(state.pooled());
        counts.push(crate::learned::words::counts(
            &crate::engine::builtin::text::render(&examples.states[it.example]),
        ));
    }
    tracker.check()?;
    let problem = learn::Problem {
        link: learn::link_of(kind),
        outcomes,
        ids: items
            .iter()
            .map(|it| examples.ids[it.example].as_str())
            .collect(),
        readings: (0..n)
            .map(|i| crate::learned::Reading {
                pooled: &pooled[i],
                counts: &counts[i],
                prior: &priors[i],
            })
            .collect(),
        labels: items.iter().map(|it| it.outcome).collect(),
    };
    let cancelled = || tracker.cancelled();
    if settings.curve {
        report.curve = Some(crate::wire::align::Curve {
            points: learn::curve(&problem, settings.folds, settings.seed, &cancelled),
            zero_shot: learn::figures(&priors, &problem.labels, outcomes),
            majority: learn::majority(&problem, settings.folds, settings.seed),
        });
    }
    let held_out = if settings.holdout > 0.0 {
        folds::hold_out(
            &problem.ids,
            &problem.labels,
            settings.holdout,
            settings.seed,
        )
    } else {
        vec![false; n]
    };
    let fitted: Vec<usize> = (0..n).filter(|&i| !held_out[i]).collect();
    let held: Vec<usize> = (0..n).filter(|&i| held_out[i]).collect();
    let mut cv =
        learn::cross_validate(&problem, &fitted, settings.folds, settings.seed, &cancelled);
    if fitted.len() < learn::NESTED_BELOW {
        cv.out_of_fold =
            learn::nested_out_of_fold(&problem, &fitted, &cv, settings.seed, &cancelled);
    }
    tracker.check()?;
    // As the manifest records them, so that `eval` scores exactly these.
    for answer in &mut cv.out_of_fold {
        for p in answer.iter_mut() {
            *p = round(*p);
        }
    }
    let fitted_head = learn::fit(&problem, &fitted, cv.link, cv.penalty);
    report.fitted = fitted.len() as u64;
    report.held_out = held.len() as u64;
    // What the gate and the figures are on: the held-out examples when some are, else
    // every fitted one, answered out of fold.
    let (on, after): (Vec<usize>, Vec<Vec<f64>>) = if held.is_empty() {
        report.figures = Some("out_of_fold".into());
        (fitted.clone(), cv.out_of_fold.clone())
    } else {
        report.figures = Some("held_out".into());
        let answers = held
            .iter()
            .map(|&i| fitted_head.probabilities(&problem.readings[i]))
            .collect();
        (held.clone(), answers)
    };
    let labels: Vec<Vec<f64>> = on.iter().map(|&i| items[i].label.clone()).collect();
    let scored = |answers: &[Vec<f64>]| -> Vec<Scored> {
        answers
            .iter()
            .zip(&labels)
            .map(|(p, label)| Scored {
                predicted: p.clone(),
                label: label.clone(),
            })
            .collect()
    };
    let before_answers: Vec<Vec<f64>> = on.iter().map(|&i| priors[i].clone()).collect();
    let (before, after_scored) = (scored(&before_answers), scored(&after));
    let metrics =
        |s: &[Scored]| Metrics::compute(scale, outcomes, s).with_uncertainty(scale, s, id);
    let before_metrics = metrics(&before);
    let after_metrics = metrics(&after_scored);
    let losses = |s: &[Scored]| -> Vec<f64> {
        s.iter()
            .map(|s| loss(scale, &s.predicted, &s.label))
            .collect()
    };
    let mut verdict = gate::judge(
        &losses(&before),
        &losses(&after_scored),
        settings.margin,
        settings.seed,
        id,
    );
    if verdict.passed && after_metrics.accuracy < before_metrics.accuracy {
        verdict.passed = false;
        verdict.reason = Some(format!(
            "the accuracy would fall from {:.3} to {:.3}",
            before_metrics.accuracy, after_metrics.accuracy
        ));
    }
    report.before = Some(before_metrics);
    report.after = Some(after_metrics);
    report.reason.clone_from(&verdict.reason);
    let passed = verdict.passed;
    report.gate = Some(verdict);
    if !passed {
        return Ok((report, None));
    }
    report.improved = true;
    report.candidate = Some(format!(
        "{} head over the pooled embedding and word 1-2-grams (penalty {} on words, {} on the \
         embedding; {} folds)",
        fitted_head.link.name(),
        round(cv.penalty.words),
        round(cv.penalty.embedding),
        cv.folds
    ));
    let out_of_fold: IndexMap<String, crate::learned::file::Fitted> = fitted
        .iter()
        .zip(cv.fold_of.iter().zip(&cv.out_of_fold))
        .map(|(&i, (&fold, answer))| {
            (
                problem.ids[i].to_owned(),
                crate::learned::file::Fitted {
                    fold,
                    answer: answer.clone(),
                },
            )
        })
        .collect();
    let tensors = crate::learned::file::tensors(&fitted_head);
    let entry = crate::learned::file::entry(
        id,
        &fitted_head,
        keys,
        cv.penalty,
        (settings.seed, cv.folds),
        abstain_rule(&after_scored),
        out_of_fold,
        &tensors,
    );
    let entry = crate::learned::file::Entry {
        curve: report.curve.as_ref().map(|curve| curve.points.clone()),
        ..entry
    };
    let mut fitted_ids: Vec<String> = fitted.iter().map(|&i| problem.ids[i].to_owned()).collect();
    fitted_ids.sort();
    Ok((
        report,
        Some(Learned {
            file: None,
            head: Some(LearnedHead { tensors, entry }),
            fit_id: Some(fit_id(id, &fitted_ids)),
            fitted: fitted_ids,
            documents: Vec::new(),
        }),
    ))
}

/// Correct a question without annotations ([`unsupervised`]) from the `captured` states,
/// given its current alignment (as [`align_question`] parsed it) and its base question;
/// `why` says why it was not aligned on annotations instead (when it was not asked for).
fn correct_unsupervised(
    engine: &BuiltinEngine,
    id: &str,
    (current, base): (Option<&aligned::Alignment>, &Question),
    has_head: bool,
    captured: &[EmbeddedState],
    settings: &Settings,
    mut report: QuestionReport,
) -> Result<Aligned> {
    // An alignment learned from annotations is worth more than a correction without them.
    if has_head
        || current.is_some_and(|alignment| {
            !alignment.exemplars.is_empty() || alignment.cues.iter().any(Option::is_some)
        })
    {
        report.reason = Some("aligned on annotated examples already; left as it is".to_owned());
        return Ok((report, None));
    }
    let similarities = captured
        .iter()
        .map(|state| engine.similarities(state, base))
        .collect::<Result<Vec<_>>>()?;
    let mut calibration = match unsupervised::correction(base, &similarities, MIN_EXAMPLES) {
        Ok(calibration) => calibration,
        Err(not) => {
            report.reason = Some(not.to_string());
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
    let learned = AlignedInstructions {
        task: None,
        examples: Vec::new(),
        cues: IndexMap::new(),
        arbiter_alignment: calibration,
    };
    Ok((
        report,
        Some(Learned {
            file: Some(learned_yaml(id, &learned)),
            head: None,
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
    fitted: Vec<String>,
    /// Exemplar documents' embeddings, to warm the engine's cache.
    documents: Vec<(String, Embedding)>,
}

/// A head's tensors and its manifest entry.
struct LearnedHead {
    tensors: Vec<u8>,
    entry: crate::learned::file::Entry,
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
        learned: question.learned.clone(),
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
        .filter_map(|(id, learned)| Some((id.clone(), learned.file.clone()?)))
        .collect();
    let repo = models::open_by_id(ctx, &loaded.model_id)?;
    let base = repo.read(&loaded.revision.commit)?;
    let heads: Vec<(&String, &LearnedHead)> = outcome
        .learned
        .iter()
        .filter_map(|(id, learned)| Some((id, learned.head.as_ref()?)))
        .collect();
    let learned_dir = learned_dir(ctx, loaded, &base.learned, &heads, &files);
    // A question with a head has no other alignment: its `aligned/` file goes.
    let unaligned: Vec<String> = heads
        .iter()
        .map(|(id, _)| (*id).clone())
        .filter(|id| base.aligned.iter().any(|(other, _)| other == id))
        .collect();
    let realigned: Vec<(String, String)> = outcome
        .learned
        .keys()
        .map(|id| (id.clone(), String::new()))
        .collect();
    let branch = format!("alignments/{job_id}");
    // A run that died after committing finds its branch already there: the same files, the
    // same checkpoint.
    let checkpoint = match models::load(ctx, &loaded.model_id.to_string(), Some(&branch)) {
        Ok(found) => {
            let there = repo.read(&found.revision.commit)?;
            let same_learned = learned_dir.as_ref().is_none_or(|dir| *dir == there.learned);
            if !files.iter().all(|file| there.aligned.contains(file)) || !same_learned {
                return Err(Error::Conflict {
                    code: crate::error::ConflictCode::AlreadyExists,
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
                questions_yaml: unaligned_inline(&repo, loaded, &realigned)?,
                model_yaml: None,
                aligned: files,
                unaligned,
                learned: learned_dir,
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

/// The new checkpoint's `learned/`: the base's heads of questions not aligned now, and
/// the new `heads`; `None` when neither changes it. A question corrected without
/// annotations now (`files`) loses its head.
fn learned_dir(
    ctx: &Context,
    loaded: &Loaded,
    base: &[(String, Vec<u8>)],
    heads: &[(&String, &LearnedHead)],
    files: &[(String, String)],
) -> Option<crate::repo::LearnedFiles> {
    use crate::learned::file::{self, Manifest};
    let replaced = |id: &str| {
        heads.iter().any(|(other, _)| *other == id) || files.iter().any(|(other, _)| other == id)
    };
    let kept: Vec<(String, &file::Entry)> = loaded
        .questions
        .iter()
        .filter_map(|(id, q)| Some((id.clone(), &q.learned.as_ref()?.entry)))
        .filter(|(id, _)| !replaced(id))
        .collect();
    let dropped = loaded
        .questions
        .iter()
        .any(|(id, q)| q.learned.is_some() && replaced(id));
    if heads.is_empty() && !dropped {
        return None;
    }
    let encoder = ctx
        .engines()
        .get(&loaded.spec.base)
        .and_then(|e| e.as_builtin())
        .map(BuiltinEngine::head_encoder)
        .unwrap_or_default();
    let mut manifest = Manifest {
        format: file::FORMAT.to_owned(),
        version: file::VERSION,
        encoder,
        questions: IndexMap::new(),
    };
    let mut dir: Vec<(String, Vec<u8>)> = Vec::new();
    for (id, entry) in kept {
        if let Some((_, bytes)) = base.iter().find(|(name, _)| *name == entry.file) {
            dir.push((entry.file.clone(), bytes.clone()));
            manifest.questions.insert(id, entry.clone());
        }
    }
    for (id, head) in heads {
        dir.push((head.entry.file.clone(), head.tensors.clone()));
        manifest.questions.insert((*id).clone(), head.entry.clone());
    }
    if manifest.questions.is_empty() {
        return Some(Vec::new());
    }
    manifest.questions.sort_keys();
    dir.push((
        file::MANIFEST.to_owned(),
        file::manifest_yaml(&manifest).into_bytes(),
    ));
    dir.sort();
    Some(dir)
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
        "Align {} (job {job_id})\n\nPer question (zero-shot -> aligned, out of fold or on the held-out examples):\n",
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
