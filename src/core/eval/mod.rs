//! Evaluation: a checkpoint's figures over every annotated example, as a job (a batch of
//! decisions underneath), optionally beside a baseline checkpoint's.
//!
//! The annotated examples are staged once; each checkpoint is one pass of decisions over
//! them (`batch::drive`), resumable like a batch. Answers are cached by what they depend
//! on (the engine, the questions asked, the state), so evaluating a checkpoint again, or
//! one that shares its questions, costs no engine calls; one that shares only some asks
//! the engine only about the others (and those read with them). An aligned question never uses an
//! example as its own exemplar here: a checkpoint is scored only on what it did not copy.

mod report;

use report::report;

use super::answer_cache::{self, Asking, Open};
use super::batch::{self, ItemResult, Pass};
use super::jobs::{Draft, Ending, JobClaim, JobPart, NoObserver, Observer, Origin, Spec};
use super::models::{self, Loaded};
use super::requests::BatchItems;
use super::working::Stored;
use super::{Context, blocking};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::ids::{ExampleId, ModelRef};
use crate::store::{JobRecord, Shard, ShardStats};
use crate::wire::align::EvaluationRequest;
use crate::wire::decision::Revision;
use crate::wire::jobs::{ExampleSet, Job, JobKind, JobResult};
use crate::wire::{Answers, Questions, Usage};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Instant;

/// An evaluation to create.
pub struct NewEvaluation<'a> {
    /// Repository path or `modelId`.
    pub model: &'a ModelRef,
    pub request: EvaluationRequest,
}

/// What an evaluation job runs from, as stored with it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct EvaluationSpec {
    revision: Revision,
    baseline: Option<Revision>,
    questions: Vec<String>,
    /// Annotated examples staged.
    examples: u64,
    /// Score fitted examples too (absent in jobs recorded before: false).
    #[serde(default)]
    include_fitted: bool,
    /// Read every state into the engine's state cache, cached answers or not.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    warm_states: bool,
    origin: Origin,
    /// A working copy evaluated at `revision` instead of its questions (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    working: Option<Stored>,
    /// The per-question gates to report: the revision's `gates.yaml` or the request's
    /// (absent: none, as in jobs recorded before gates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    gates: Option<crate::wire::gates::Gates>,
}

impl Spec for EvaluationSpec {
    const KIND: JobKind = JobKind::Evaluation;

    fn origin(&self) -> &Origin {
        &self.origin
    }

    fn sharded(&self, _total: u64) -> Vec<(JobPart, u64)> {
        let mut parts = vec![(JobPart::Results, self.examples)];
        if self.baseline.is_some() {
            parts.push((JobPart::Baseline, self.examples));
        }
        parts
    }
}

/// Check an evaluation, stage the annotated examples and record it `queued`.
pub fn create(
    ctx: &Context,
    evaluation: NewEvaluation<'_>,
    origin: Option<Origin>,
) -> Result<(Job, JobClaim)> {
    let mut request = evaluation.request;
    let mut loaded = models::load(ctx, evaluation.model, request.revision.as_deref())?;
    // The committed gates are the revision's own, checked against its own questions.
    let committed_gates = match request.gates {
        None => committed_gates(ctx, &loaded)?,
        Some(_) => None,
    };
    let mut baseline = request
        .baseline
        .as_deref()
        .map(|revision| models::load(ctx, evaluation.model, Some(revision)))
        .transpose()?;
    let mut working = None;
    if let Some(draft) = &request.working_questions {
        // The baseline defaults to the revision itself, at the same commit: draft vs committed.
        if baseline.is_none() {
            baseline = Some(loaded.clone());
        }
        let (copy, stored) = Stored::apply_new(ctx, loaded, draft)?;
        loaded = copy;
        working = Some(stored);
    }
    let questions = crate::core::question_ids::question_ids(
        &loaded,
        request.questions.as_deref(),
        crate::core::question_ids::QuestionsFor::Evaluate,
    )?;
    let gates = match request.gates.take() {
        Some(asked) => super::gates::requested(asked, &loaded.questions)?,
        None => committed_gates,
    };
    let draft = Draft::new(ctx)?;
    let (examples, _) = batch::stage(
        ctx,
        &loaded,
        BatchItems::Given(crate::wire::jobs::BatchItems::Examples(
            ExampleSet::Annotated,
        )),
        &draft,
    )?;
    let passes = 1 + u64::from(baseline.is_some());
    let stored = EvaluationSpec {
        revision: loaded.revision.clone(),
        baseline: baseline.map(|b| b.revision),
        questions,
        examples,
        include_fitted: request.include_fitted,
        warm_states: request.warm_states,
        origin: Origin::of_creation(ctx, origin, draft.job_id()),
        working,
        gates,
    };
    draft.record(ctx, &loaded.model_id, &stored, examples * passes)
}

/// The gates committed with `loaded` (none when it has no `gates.yaml`, or an empty one).
/// A file that does not validate against the checkpoint's questions is the checkpoint's
/// fault, located in it.
fn committed_gates(ctx: &Context, loaded: &Loaded) -> Result<Option<crate::wire::gates::Gates>> {
    let repo = models::open_by_id(ctx, &loaded.model_id)?;
    let commit = &loaded.revision.commit;
    let Some(text) = repo.read_gates(commit)? else {
        return Ok(None);
    };
    super::gates::committed(&text, &loaded.questions)
        .map_err(|errors| super::model_files::invalid_checkpoint(&loaded.path, commit, errors))
}

/// One checkpoint to decide at.
struct Side {
    /// The job's lines this side's results are written to.
    results: JobPart,
    loaded: Loaded,
    /// The evaluated questions this checkpoint has.
    questions: Questions,
    engine: Arc<dyn Engine>,
    /// The groups its questions are answered and cached in.
    groups: Vec<answer_cache::Group>,
    /// Read each state into the engine's state cache even when its answers are cached.
    warm_states: bool,
}

/// Each checkpoint the evaluation decides at, loaded.
async fn sides(ctx: &Context, record: &JobRecord, stored: &EvaluationSpec) -> Result<Vec<Side>> {
    let mut sides = Vec::new();
    for (results, revision) in [
        (JobPart::Results, Some(&stored.revision)),
        (JobPart::Baseline, stored.baseline.as_ref()),
    ] {
        let Some(revision) = revision else { continue };
        let mut loaded = models::load_pinned(ctx, &record.model_id, revision).await?;
        if let (JobPart::Results, Some(working)) = (results, &stored.working) {
            loaded = working.apply(ctx, loaded).await?;
        }
        let questions: Questions = stored
            .questions
            .iter()
            .filter_map(|id| loaded.questions.get(id).map(|q| (id.clone(), q.clone())))
            .collect();
        let engine = loaded.engine(ctx)?;
        let groups =
            answer_cache::groups(engine.clone(), questions.clone(), loaded.heads.clone()).await?;
        sides.push(Side {
            results,
            loaded,
            questions,
            engine,
            groups,
            warm_states: stored.warm_states,
        });
    }
    Ok(sides)
}

/// Decide every annotated example at each checkpoint, then compute the figures (a job
/// run whole: one recorded before evaluations had shards).
pub(crate) async fn execute(
    ctx: &Context,
    record: &JobRecord,
    stored: EvaluationSpec,
    observer: &dyn Observer,
) -> Result<Ending> {
    let origin = &stored.origin;
    let sides = sides(ctx, record, &stored).await?;
    for (k, side) in sides.iter().enumerate() {
        if side.questions.is_empty() {
            continue;
        }
        let pass = Pass {
            job_id: &record.job_id,
            kind: JobKind::Evaluation,
            results: side.results,
            window: side.engine.max_in_flight(),
            first: 0,
            items: stored.examples,
            done_before: stored.examples * k as u64,
            total: record.total,
            shard: None,
            all_taken: None,
        };
        let finished = batch::drive(ctx, &pass, observer, |index, line| async move {
            decide_example(ctx, side, origin, index, &line).await
        })
        .await?;
        if finished.is_none() {
            return Ok(Ending::Cancelled);
        }
    }
    let (ctx2, job_id, model_id) = (ctx.clone(), record.job_id, record.model_id);
    let report = blocking(move || report(&ctx2, &job_id, &model_id, &stored, &sides)).await?;
    Ok(Ending::Completed(JobResult::Evaluation(Box::new(report))))
}

/// Decide the examples of one shard at its checkpoint; its figures, `None` when stopped.
pub(crate) async fn work_shard(
    ctx: &Context,
    record: &JobRecord,
    stored: &EvaluationSpec,
    (shard, all_taken): (&Shard, &tokio::sync::Notify),
) -> Result<Option<ShardStats>> {
    let sides = sides(ctx, record, stored).await?;
    let Some(side) = sides.iter().find(|side| side.results == shard.part) else {
        return Err(Error::bug(format!(
            "evaluation {} has a shard of a checkpoint it does not evaluate",
            record.job_id
        )));
    };
    if side.questions.is_empty() {
        // Nothing to ask at this checkpoint: the shard is done as it is.
        return Ok(Some(ShardStats::default()));
    }
    // `side` is the one whose results the shard is (`side.results == shard.part`).
    let window = side.engine.max_in_flight();
    let pass = Pass::of_shard(record, JobKind::Evaluation, window, (shard, all_taken));
    let origin = &stored.origin;
    let tally = batch::drive(ctx, &pass, &NoObserver, |index, line| async move {
        decide_example(ctx, side, origin, index, &line).await
    })
    .await?;
    Ok(tally.map(|tally| tally.stats()))
}

/// The figures of an evaluation whose shards are all done, from the answers they stored.
pub(crate) async fn conclude(
    ctx: &Context,
    record: &JobRecord,
    stored: EvaluationSpec,
) -> Result<JobResult> {
    let sides = sides(ctx, record, &stored).await?;
    let (ctx, job_id, model_id) = (ctx.clone(), record.job_id, record.model_id);
    let report = blocking(move || report(&ctx, &job_id, &model_id, &stored, &sides)).await?;
    Ok(JobResult::Evaluation(Box::new(report)))
}

/// Decide one staged example at one checkpoint, from the cache when it can.
async fn decide_example(
    ctx: &Context,
    side: &Side,
    origin: &Origin,
    index: u64,
    line: &[u8],
) -> Result<ItemResult> {
    let started = Instant::now();
    let parsed: Option<(ExampleId, Value)> =
        serde_json::from_slice::<Value>(line).ok().and_then(|v| {
            let id = ExampleId::from(v.get("example_id")?.as_str()?);
            Some((id, v.get("state")?.clone()))
        });
    let outcome = match &parsed {
        None => Err(Error::bug(format!("staged example {index} is unreadable"))),
        Some((example_id, state)) => answers_for(ctx, side, example_id, state).await,
    };
    batch::stop_on_outage(outcome.as_ref().err())?;
    let example_id = parsed.as_ref().map(|(id, _)| id.clone());
    let (value, failed, usage, cached) = match outcome {
        Ok((answers, usage, cached)) => (
            json!({"index": index, "example_id": example_id, "answers": answers, "usage": usage, "cached": cached}),
            false,
            usage,
            cached,
        ),
        Err(error) => (
            json!({"index": index, "example_id": example_id, "error": origin.problem(&error)}),
            true,
            Usage::default(),
            false,
        ),
    };
    let line = serde_json::to_vec(&value)
        .unwrap_or_else(|_| format!(r#"{{"index":{index}}}"#).into_bytes());
    Ok(ItemResult {
        line,
        failed,
        usage: if cached { Usage::default() } else { usage },
        latency: started.elapsed(),
    })
}

/// The answers of one example: the checkpoint's questions, an aligned question without the
/// example as its own exemplar; cached by (engine, group of questions, state).
async fn answers_for(
    ctx: &Context,
    side: &Side,
    example_id: &ExampleId,
    state: &Value,
) -> Result<(Answers, Usage, bool)> {
    let asking = Asking {
        engine: side.engine.as_ref(),
        base: &side.loaded.spec.base,
        questions: &side.questions,
        heads: &side.loaded.heads,
        groups: &side.groups,
    };
    let answered = answer_cache::answers(ctx, &asking, example_id, state, &Open).await?;
    if answered.cached
        && side.warm_states
        && let Some(engine) = side.engine.as_builtin().map(|_| side.engine.clone())
    {
        // The answers came from the cache, so the state was never read: read it now, so
        // the next run's changed questions find it embedded.
        let state = state.clone();
        blocking(move || {
            if let Some(builtin) = engine.as_builtin() {
                builtin.embed_state(&state)?;
            }
            Ok(())
        })
        .await?;
    }
    Ok((answered.answers, answered.usage, answered.cached))
}
