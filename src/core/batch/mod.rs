//! Batch decisions: one checkpoint of a repository model over many states, as a job.
//!
//! [`create`] stages the items as the job's input lines in the store (in chunks, never
//! whole in memory) and records the job with its revision pinned to a commit, so a resumed
//! job, on this replica or another, answers with the same checkpoint. `execute` reads the
//! input from the first item without a result, decides a bounded window of items at once,
//! and appends each result in input order; one bad item becomes an error line, not a
//! failed job.

mod blank_lines;

use blank_lines::{BlankRuns, LineMap};

use super::decide::{CaptureAs, asked_of, decide_and_capture};
mod drive;

pub(crate) use drive::{ItemResult, Pass, Tally, drive};

use super::Context;
use super::jobs::{Draft, Ending, JobClaim, JobPart, NoObserver, Observer, Origin, Spec};
use super::models::{self, Loaded};
use super::requests::BatchItems;
use super::working::Stored;
use crate::error::{Error, Result};
use crate::ids::ModelRef;
use crate::store::{ExampleFilter, JobRecord, Shard, ShardStats};
use crate::telemetry::metrics as telemetry;
use crate::wire::decision::{DecisionResponse, Revision};
use crate::wire::jobs::BatchItems as Given;
use crate::wire::jobs::{
    BatchItem, BatchResultLine, BatchSummary, ExampleSet, ItemOutcome, Job, JobKind, JobResult,
};
use crate::wire::question::{parse_questions, questions_to_value};
use crate::wire::validate::Loc;
use crate::wire::validate::json::{self, JsonError};
use crate::wire::value::derived_example_id;
use crate::wire::{DecisionRequest, Questions, Usage};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::io::BufRead;
use std::time::{Duration, Instant};

/// A batch to create.
pub struct NewBatch<'a> {
    /// Repository path or `modelId`.
    pub model: &'a ModelRef,
    pub revision: Option<&'a str>,
    pub questions: Option<Questions>,
    pub capture: bool,
    /// A working copy's questions ([`super::working`]), asked instead of the revision's;
    /// never with `questions` or `capture`.
    pub working_questions: Option<Questions>,
    pub items: BatchItems,
}

/// What a batch job runs from, as stored with it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BatchSpec {
    /// The revision as asked, with the commit it resolved to when the job was created.
    revision: Revision,
    questions: Option<Value>,
    capture: bool,
    /// For people: `{"items": n}`, `{"examples": "all"}`, `{"lines": n, "blank": runs}`
    /// (with [`BlankRuns`], which is also what maps an item back to its input line).
    source: Value,
    origin: Origin,
    /// A working copy asked instead of the revision's questions (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    working: Option<Stored>,
}

impl Spec for BatchSpec {
    const KIND: JobKind = JobKind::Batch;

    fn origin(&self) -> &Origin {
        &self.origin
    }

    fn sharded(&self, total: u64) -> Vec<(JobPart, u64)> {
        vec![(JobPart::Results, total)]
    }
}

/// Stage a batch and record it `queued`. The caller holds the returned claim and runs the
/// job ([`super::runner::run`]) or hands it on. Nothing is recorded when staging fails.
pub fn create(
    ctx: &Context,
    batch: NewBatch<'_>,
    origin: Option<Origin>,
) -> Result<(Job, JobClaim)> {
    let mut loaded = models::load(ctx, batch.model, batch.revision)?;
    let mut working = None;
    if let Some(draft) = &batch.working_questions {
        super::working::refuse_beside(batch.capture, batch.questions.is_some())?;
        let (copy, stored) = Stored::apply_new(ctx, loaded, draft)?;
        loaded = copy;
        working = Some(stored);
    }
    asked_of(&loaded, batch.questions.as_ref())?;
    let draft = Draft::new(ctx)?;
    let (total, source) = stage(ctx, &loaded, batch.items, &draft)?;
    let spec = BatchSpec {
        revision: loaded.revision.clone(),
        questions: batch.questions.as_ref().map(questions_to_value),
        capture: batch.capture,
        source,
        origin: Origin::of_creation(ctx, origin, draft.job_id()),
        working,
    };
    draft.record(ctx, &loaded.model_id, &spec, total)
}

/// Write the items as the draft's input lines; the item count and a description of the
/// source.
pub(crate) fn stage(
    ctx: &Context,
    loaded: &Loaded,
    items: BatchItems,
    draft: &Draft,
) -> Result<(u64, Value)> {
    let mut out = draft.input();
    let description = match items {
        BatchItems::Given(Given::Inline(items)) => {
            for item in &items {
                out.push(to_json(item)?)?;
            }
            json!({"items": out.count()})
        }
        BatchItems::Compact(items) => {
            for line in items.lines() {
                out.push(line.to_vec())?;
            }
            json!({"items": out.count()})
        }
        BatchItems::Given(Given::Examples(set)) => {
            let filter = ExampleFilter {
                annotated: (set == ExampleSet::Annotated).then_some(true),
                question: None,
                ..Default::default()
            };
            // The examples are read a page at a time, so the input is written as they come.
            let mut failed = None;
            ctx.store()?
                .for_each_example(&loaded.model_id, &filter, &mut |example| {
                    let item =
                        BatchItem::new(Some(example.example_id.into_string()), example.state);
                    if let Err(error) = to_json(&item).and_then(|line| out.push(line)) {
                        // Stop the iteration; this error is what gets reported.
                        failed = Some(error);
                        return Err(crate::store::StoreError::Conflict("staging failed".into()));
                    }
                    Ok(())
                })
                .map_err(|e| failed.take().unwrap_or_else(|| e.into()))?;
            json!({"examples": set})
        }
        BatchItems::Lines(mut reader) => {
            let mut line = Vec::new();
            let mut blank = BlankRuns::default();
            loop {
                line.clear();
                let read = reader
                    .read_until(b'\n', &mut line)
                    .map_err(|e| Error::BadRequest(format!("reading the input: {e}")))?;
                if read == 0 {
                    break;
                }
                let trimmed = line.trim_ascii();
                if trimmed.is_empty() {
                    blank.skip();
                    continue;
                }
                blank.item(out.count());
                out.push(trimmed.to_vec())?;
            }
            json!({"lines": out.count(), "blank": blank.runs})
        }
    };
    if out.count() == 0 && description.get("examples").is_none() {
        // An empty file (or one of blank lines), an empty `items`: most likely the wrong
        // input, and a job over nothing would only say "completed".
        return Err(Error::invalid(
            Loc::body().key("items"),
            "input has no items",
            "empty",
        ));
    }
    out.flush()?;
    Ok((out.count(), description))
}

fn to_json(item: &impl Serialize) -> Result<Vec<u8>> {
    serde_json::to_vec(item).map_err(|e| Error::internal("writing an item", e))
}

/// What a batch's items are decided with: the pinned checkpoint (or working copy), the
/// request every item fills in, and the engine's parallelism.
struct Prepared {
    loaded: Loaded,
    template: DecisionRequest,
    window: usize,
}

async fn prepare(ctx: &Context, record: &JobRecord, stored: &BatchSpec) -> Result<Prepared> {
    let mut loaded = models::load_pinned(ctx, &record.model_id, &stored.revision).await?;
    if let Some(working) = &stored.working {
        loaded = working.apply(ctx, loaded).await?;
    }
    let questions = match &stored.questions {
        None => None,
        Some(value) => {
            let mut errors = Vec::new();
            let parsed = parse_questions(value, &Loc::body().key("questions"), &mut errors);
            if !errors.is_empty() {
                return Err(Error::Validation(errors));
            }
            Some(parsed)
        }
    };
    let template = DecisionRequest {
        state: Value::Null,
        model: loaded.path.to_string(),
        questions,
        example_id: None,
        revision: Some(loaded.revision.commit.clone()),
        // `false` skips recording; otherwise the model's capture policy decides.
        capture: (!stored.capture).then_some(false),
        // An item longer than the model reads fails alone, with `state_too_large`.
        truncate: None,
    };
    let window = loaded.engine(ctx)?.max_in_flight();
    Ok(Prepared {
        loaded,
        template,
        window,
    })
}

/// Decide the items of `pass` (the whole job, or one shard); `None` when stopped.
async fn decide_pass(
    ctx: &Context,
    (record, stored, prepared): (&JobRecord, &BatchSpec, &Prepared),
    pass: &Pass<'_>,
    observer: &dyn Observer,
) -> Result<Option<Tally>> {
    let (loaded, template, origin) = (&prepared.loaded, &prepared.template, &stored.origin);
    let job_id = &record.job_id;
    let lines = LineMap::of(&stored.source);
    let lines = lines.as_ref();
    drive(ctx, pass, observer, |index, line| async move {
        let item = Item {
            job_id,
            index,
            line: &line,
            input_line: lines.map(|map| map.line(index)),
        };
        decide_item(ctx, loaded, template, origin, item).await
    })
    .await
}

/// Decide every item of a running batch job run whole that has no result yet.
pub(crate) async fn execute(
    ctx: &Context,
    record: &JobRecord,
    stored: BatchSpec,
    observer: &dyn Observer,
) -> Result<Ending> {
    let prepared = prepare(ctx, record, &stored).await?;
    let pass = Pass {
        job_id: &record.job_id,
        kind: JobKind::Batch,
        results: JobPart::Results,
        window: prepared.window,
        first: 0,
        items: record.total,
        done_before: 0,
        total: record.total,
        shard: None,
        all_taken: None,
    };
    let decided = decide_pass(ctx, (record, &stored, &prepared), &pass, observer).await?;
    let Some(tally) = decided else {
        return Ok(Ending::Cancelled);
    };
    Ok(Ending::Completed(summary(&tally.stats())))
}

/// Decide the items of one shard of a batch; its figures, `None` when stopped.
pub(crate) async fn work_shard(
    ctx: &Context,
    record: &JobRecord,
    stored: &BatchSpec,
    (shard, all_taken): (&Shard, &tokio::sync::Notify),
) -> Result<Option<ShardStats>> {
    let prepared = prepare(ctx, record, stored).await?;
    let pass = Pass::of_shard(record, JobKind::Batch, prepared.window, (shard, all_taken));
    let tally = decide_pass(ctx, (record, stored, &prepared), &pass, &NoObserver).await?;
    Ok(tally.map(|tally| tally.stats()))
}

/// A batch's summary from what its shards (or its one pass) added up.
pub(crate) fn summary(stats: &ShardStats) -> JobResult {
    JobResult::Batch(BatchSummary {
        items: stats.done,
        succeeded: stats.done - stats.failed,
        failed: stats.failed,
        mean_latency_ms: if stats.timed == 0 {
            0.0
        } else {
            stats.latency_us as f64 / 1000.0 / stats.timed as f64
        },
        usage: Usage {
            input_tokens: stats.input_tokens,
            output_tokens: stats.output_tokens,
        },
    })
}

/// One input line of a job.
struct Item<'a> {
    job_id: &'a crate::ids::JobId,
    index: u64,
    line: &'a [u8],
    /// The line of a JSON Lines input it was read from, from 1.
    input_line: Option<u64>,
}

/// The ID an item's captured decision is recorded under: the same on every run of the job,
/// so a job resumed after it died (its result line unwritten, its capture committed)
/// records the item once.
fn item_decision_id(job_id: &crate::ids::JobId, index: u64) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("{job_id}/{index}").as_bytes());
    format!("dec_{}", hex::encode(&digest[..16]))
}

/// Item `index` from its line: strict JSON, then a [`BatchItem`], faults located under
/// `body.items[index]`.
pub(super) fn read_item(line: &[u8], index: u64) -> Result<BatchItem> {
    let loc = Loc::body().key("items").index(index as usize);
    let value = json::from_slice(line, &loc).map_err(|error| match error {
        JsonError::Syntax(e) => {
            Error::invalid(loc.clone(), format!("the item is not JSON: {e}"), "json")
        }
        JsonError::DuplicateKey(error) | JsonError::TooDeep(error) => {
            Error::Validation(vec![error])
        }
    })?;
    if crate::store::is_deleted_item(&value) {
        let id = value["example_id"].as_str().unwrap_or_default();
        return Err(Error::NotFound(format!(
            "example `{id}` was deleted after the job was created"
        )));
    }
    Ok(BatchItem::read(&value, index)?)
}

/// Decide one input line; a fault of the item is its error line. A failed capture is no
/// fault of the item: it stops the pass (`Err`), so that no item is answered unrecorded and
/// none is recorded twice.
async fn decide_item(
    ctx: &Context,
    loaded: &Loaded,
    template: &DecisionRequest,
    origin: &Origin,
    item: Item<'_>,
) -> Result<ItemResult> {
    let Item {
        job_id,
        index,
        line,
        input_line,
    } = item;
    let started = Instant::now();
    let mut example_id = None;
    let mut captured = Ok(());
    let outcome = async {
        let item = read_item(line, index)?;
        let id = item
            .example_id
            .unwrap_or_else(|| derived_example_id(&item.state));
        example_id = Some(id.clone());
        let request = DecisionRequest {
            state: item.state,
            example_id: Some(id),
            ..template.clone()
        };
        let decision_id = item_decision_id(job_id, index);
        let capture_as = CaptureAs {
            request_id: &origin.request_id,
            decision_id: Some(&decision_id),
        };
        let (response, capture) = decide_and_capture(ctx, &request, loaded, capture_as).await?;
        captured = capture;
        Ok(response)
    }
    .await;
    captured?;
    stop_on_outage(outcome.as_ref().err())?;
    let latency = started.elapsed();
    count_decision(&loaded.spec.base, outcome.as_ref(), latency);
    let (outcome, failed, usage) = match outcome {
        Ok(response) => (
            ItemOutcome::Answered {
                answers: response.answers,
                usage: response.usage,
            },
            false,
            response.usage,
        ),
        Err(error) => (
            ItemOutcome::Failed {
                error: origin.problem(&error),
            },
            true,
            Usage::default(),
        ),
    };
    let result = BatchResultLine {
        index,
        // Where a failed item was in the input, beside its index.
        line: input_line.filter(|_| failed),
        example_id,
        outcome,
    };
    // Answers and problems always serialize; the fallback keeps one line per item.
    let line = serde_json::to_vec(&result)
        .unwrap_or_else(|_| format!(r#"{{"index":{index},"example_id":null}}"#).into_bytes());
    Ok(ItemResult {
        line,
        failed,
        usage,
        latency,
    })
}

/// Count an item's decision in the metrics, as a job's.
fn count_decision(base_model: &str, outcome: Result<&DecisionResponse, &Error>, latency: Duration) {
    match outcome {
        Ok(response) => telemetry::decision(
            base_model,
            telemetry::Source::Job,
            telemetry::Outcome::Answered,
            Some((latency, response.usage.input_tokens)),
        ),
        Err(error) => telemetry::decision(
            base_model,
            telemetry::Source::Job,
            super::decide::counted_as(error),
            None,
        ),
    }
}

/// An item's error that is no fault of the item, but the store's being out of reach, stops
/// the pass (`Err`) instead of becoming the item's error line: the job resumes from there
/// once the store is back.
pub(crate) fn stop_on_outage(error: Option<&Error>) -> Result<()> {
    match error {
        Some(Error::StoreUnavailable(detail)) => Err(Error::StoreUnavailable(detail.clone())),
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests;
