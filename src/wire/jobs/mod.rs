//! Jobs: the resource a batch decision or an alignment is polled through, and the batch
//! request. A job's status moves `queued` → `running` → `completed` | `failed` |
//! `cancelled`, or `queued` → `cancelled`.

use super::Questions;
use super::problem::Problem;
use super::validate::{self, Faults, Rules, fields};
use super::validate::{Loc, Validated};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ArrayBuilder, OneOfBuilder, Ref, Schema};

/// Where a job is in its life: `queued`, `running`, then `completed`, `failed` or
/// `cancelled`.
// Its names (serde, `Display`, `FromStr`, `as_str`) are derived, lowercase.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum JobStatus {
    Queued,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl JobStatus {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// Completed, failed or cancelled: nothing will change any more.
    pub fn is_finished(self) -> bool {
        matches!(self, Self::Completed | Self::Failed | Self::Cancelled)
    }
}

/// What a job does. Its names are derived, lowercase, as for [`JobStatus`].
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    utoipa::ToSchema,
    strum::Display,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum JobKind {
    /// Decisions over many states (`POST /v1/models/{modelId}/batch-decisions`).
    Batch,
    /// Better questions from annotated examples (`POST /v1/models/{modelId}/alignments`).
    Alignment,
    /// A checkpoint's figures over the annotated examples
    /// (`POST /v1/models/{modelId}/evaluations`).
    Evaluation,
}

impl JobKind {
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The collection a job of this kind is polled under: `/v1/models/{id}/<route>/{jobId}`.
    pub fn route(self) -> &'static str {
        match self {
            Self::Batch => "batch-decisions",
            Self::Alignment => "alignments",
            Self::Evaluation => "evaluations",
        }
    }
}

/// Items finished so far; `total` is known once the input is staged.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct Progress {
    pub total: u64,
    /// Items finished (answered or failed).
    pub done: u64,
    /// Of `done`, the items that failed.
    pub failed: u64,
}

/// A job as polled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Job {
    pub job_id: super::ids::JobId,
    pub model_id: super::ids::ModelId,
    pub kind: JobKind,
    pub status: JobStatus,
    #[schema(value_type = String, format = DateTime)]
    pub created_at: super::time::Recorded,
    #[schema(value_type = Option<String>, format = DateTime, required = true)]
    pub started_at: Option<super::time::Recorded>,
    #[schema(value_type = Option<String>, format = DateTime, required = true)]
    pub finished_at: Option<super::time::Recorded>,
    pub progress: Progress,
    /// A cancel was asked and the job has not stopped yet: it stays `queued` or `running`
    /// until it does (a running job stops at its next item), then it is `cancelled`.
    #[serde(default)]
    pub cancel_requested: bool,
    /// Why the job failed (a problem document), when `failed`.
    #[schema(required = true)]
    pub error: Option<Problem>,
    /// The job's summary, when `completed` (for a batch: [`BatchSummary`]); null until then.
    #[schema(required = true, nullable, value_type = Object)]
    pub result: Option<JobResult>,
    /// A batch's or an evaluation's shards, when it is polled by its ID (absent in lists,
    /// and for a job run whole: an alignment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shards: Option<ShardSummary>,
}

/// The shards of a job: runs of its items that the workers of every process on the
/// store claim, and who ran them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShardSummary {
    /// Shards in all (of equal size, the last fewer: about 16 a job, or
    /// `server.shard_size` items each).
    pub total: u64,
    pub done: u64,
    /// Being run now (or left by a process that died, until another takes them over); none
    /// once the job is finished.
    pub running: u64,
    /// Shards run more than once: taken over from a process that died, or given back.
    pub taken_over: u64,
    /// Shards per worker (`host:pid`) that runs or last ran them.
    pub workers: std::collections::BTreeMap<String, u64>,
}

/// What a completed job produced: one type per kind of job.
// Untagged on the wire (the job's `kind` says which). Reading it back picks the first kind
// whose required fields are all present; no two kinds share theirs, so that is the one
// that wrote it (`JobResult::parse` reads by kind where the kind is at hand).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JobResult {
    Evaluation(Box<super::align::EvaluationReport>),
    Alignment(Box<super::align::AlignmentResult>),
    Batch(BatchSummary),
}

impl JobResult {
    /// The kind of job that produces this result.
    pub fn kind(&self) -> JobKind {
        match self {
            Self::Batch(_) => JobKind::Batch,
            Self::Evaluation(_) => JobKind::Evaluation,
            Self::Alignment(_) => JobKind::Alignment,
        }
    }

    /// `value` read as the result of a job of `kind`.
    pub fn parse(kind: JobKind, value: Value) -> Result<Self, serde_json::Error> {
        Ok(match kind {
            JobKind::Batch => Self::Batch(serde_json::from_value(value)?),
            JobKind::Evaluation => Self::Evaluation(serde_json::from_value(value)?),
            JobKind::Alignment => Self::Alignment(serde_json::from_value(value)?),
        })
    }
}

impl Job {
    /// The status as people read it: `cancelling` from a cancel until the job has stopped,
    /// else [`JobStatus::as_str`].
    pub fn status_text(&self) -> &'static str {
        if self.cancel_requested && !self.status.is_finished() {
            "cancelling"
        } else {
            self.status.as_str()
        }
    }
}

/// The result of a completed batch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BatchSummary {
    pub items: u64,
    pub succeeded: u64,
    pub failed: u64,
    /// Mean wall time of one item's decision, in milliseconds, over the items this job timed.
    pub mean_latency_ms: f64,
    pub usage: super::Usage,
}

/// Which stored examples a batch runs over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ExampleSet {
    All,
    Annotated,
}

/// Where a batch's states come from.
#[derive(Debug, Clone, PartialEq)]
pub enum BatchItems {
    /// Items given in the request; each is checked when its turn comes, so one bad item
    /// fails only itself.
    Inline(Vec<Value>),
    /// The model's stored examples.
    Examples(ExampleSet),
}

/// `POST /v1/models/{modelId}/batch-decisions`: what [`BatchRequest::read`] produces, what a
/// client serializes and what the server's document shows: the [`BatchMembers`], and the
/// states as `items` or `examples`, exactly one of them ([`BatchRequest::new`] and
/// [`BatchRequest::read`] make no other).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BatchRequest {
    /// As in [`BatchMembers`]: its revision, questions, capture and working questions.
    #[serde(
        default,
        deserialize_with = "fields::revision",
        skip_serializing_if = "Option::is_none"
    )]
    pub revision: Option<String>,
    #[serde(
        default,
        deserialize_with = "super::question::nullable_questions",
        skip_serializing_if = "Option::is_none"
    )]
    pub questions: Option<Questions>,
    #[serde(default, deserialize_with = "fields::or_default")]
    pub capture: bool,
    #[serde(
        default,
        deserialize_with = "super::question::nullable_questions",
        skip_serializing_if = "Option::is_none"
    )]
    pub working_questions: Option<Questions>,
    /// The states, each `{example_id?, state}` (a [`BatchItem`]), checked when its turn
    /// comes, so a bad one fails only itself.
    #[serde(
        default,
        deserialize_with = "given",
        skip_serializing_if = "Option::is_none"
    )]
    items: Option<Vec<Value>>,
    /// Which stored examples to run over.
    #[serde(
        default,
        deserialize_with = "given",
        skip_serializing_if = "Option::is_none"
    )]
    examples: Option<ExampleSet>,
}

/// A member that, when present, is a `T` (not null).
fn given<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    deserializer: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(deserializer).map(Some)
}

impl Rules for BatchRequest {
    /// `items` or `examples`: exactly one of them.
    fn check(&self, at: &Loc, faults: &mut Faults) {
        match (&self.items, &self.examples) {
            (Some(_), Some(_)) => faults.add(
                at.key("examples"),
                "give items or examples, not both",
                "conflict",
            ),
            (None, None) => faults.add(
                at.key("items"),
                "a batch needs items (an array of {example_id?, state}) or examples (\"all\" or \"annotated\")",
                "missing",
            ),
            _ => {}
        }
    }
}

impl BatchRequest {
    /// A batch of `members` over `items`.
    pub fn new(members: BatchMembers, items: BatchItems) -> Self {
        let BatchMembers {
            revision,
            questions,
            capture,
            working_questions,
        } = members;
        let (items, examples) = match items {
            BatchItems::Inline(items) => (Some(items), None),
            BatchItems::Examples(set) => (None, Some(set)),
        };
        Self {
            revision,
            questions,
            capture,
            working_questions,
            items,
            examples,
        }
    }

    /// Read a request body, reporting every problem at once.
    pub fn read(body: &Value) -> Validated<Self> {
        validate::read(body, &Loc::body())
    }

    /// What the request says besides its states.
    pub fn members(&self) -> BatchMembers {
        BatchMembers {
            revision: self.revision.clone(),
            questions: self.questions.clone(),
            capture: self.capture,
            working_questions: self.working_questions.clone(),
        }
    }

    /// The members and where the states come from, apart.
    pub fn into_parts(self) -> (BatchMembers, BatchItems) {
        let items = match (self.items, self.examples) {
            (_, Some(set)) => BatchItems::Examples(set),
            (items, None) => BatchItems::Inline(items.unwrap_or_default()),
        };
        let members = BatchMembers {
            revision: self.revision,
            questions: self.questions,
            capture: self.capture,
            working_questions: self.working_questions,
        };
        (members, items)
    }
}

/// The document's `BatchRequest`: `InlineBatch` (with `items`) or `StoredBatch` (with
/// `examples`), each the [`BatchMembers`] and its own member, nothing else.
impl utoipa::PartialSchema for BatchRequest {
    fn schema() -> RefOr<Schema> {
        OneOfBuilder::new()
            .item(Ref::from_schema_name("InlineBatch"))
            .item(Ref::from_schema_name("StoredBatch"))
            .description(Some(
                "A batch as it is written: what clients send and the server's document shows\n\
                 (`BatchRequest`): `items`, or `examples`, not both.",
            ))
            .into()
    }
}

impl utoipa::ToSchema for BatchRequest {
    fn schemas(schemas: &mut Vec<(String, RefOr<Schema>)>) {
        let items = ArrayBuilder::new()
            .items(<Value as utoipa::PartialSchema>::schema())
            .description(Some(
                "The states, each `{example_id?, state}` (a [`BatchItem`]), checked when its turn\n\
                 comes, so a bad one fails only itself.",
            ))
            .into();
        let mut examples = Ref::from_schema_name("ExampleSet");
        "Which stored examples to run over.".clone_into(&mut examples.description);
        schemas.extend([
            (
                "InlineBatch".to_owned(),
                members_and("A batch over the states it carries.", "items", items),
            ),
            (
                "StoredBatch".to_owned(),
                members_and(
                    "A batch over the model's stored examples.",
                    "examples",
                    examples.into(),
                ),
            ),
            (
                "ExampleSet".to_owned(),
                <ExampleSet as utoipa::PartialSchema>::schema(),
            ),
        ]);
        <BatchMembers as utoipa::ToSchema>::schemas(schemas);
    }
}

/// The schema of a batch: the [`BatchMembers`], and `member`, required.
fn members_and(description: &str, member: &str, schema: RefOr<Schema>) -> RefOr<Schema> {
    let mut batch = <BatchMembers as utoipa::PartialSchema>::schema();
    if let RefOr::T(Schema::Object(object)) = &mut batch {
        object.description = Some(description.to_owned());
        object.required.push(member.to_owned());
        object.properties.insert(member.to_owned(), schema);
    }
    batch
}

/// The first line of a JSON Lines batch: what a batch says besides its states (each
/// further line is one [`BatchItem`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchMembers {
    /// Branch, tag or commit SHA [default: the default branch].
    #[serde(
        default,
        deserialize_with = "fields::revision",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(
        min_length = 1,
        max_length = 255,
        pattern = "^[^\\u0000]*$",
        required = false
    )]
    pub revision: Option<String>,
    /// Question ID → question: override saved ones with the same ID and add new IDs for
    /// this batch.
    #[serde(
        default,
        deserialize_with = "super::question::nullable_questions",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<super::question::QuestionsSchema>, required = false)]
    pub questions: Option<Questions>,
    /// Record each decision, as the model's capture policy allows.
    #[serde(default, deserialize_with = "fields::or_default")]
    #[schema(nullable = true, default = false, required = false)]
    pub capture: bool,
    /// Question ID → question: a questions document not committed, asked as a working
    /// copy on top of `revision` instead of its questions (a question whose definition is
    /// the revision's keeps its learned parameters; a changed or new one is zero-shot).
    /// Not with `questions`, nor with `capture`: a working copy's answers are not recorded.
    #[serde(
        default,
        deserialize_with = "super::question::nullable_questions",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(value_type = Option<super::question::QuestionsSchema>, required = false)]
    pub working_questions: Option<Questions>,
}

impl Rules for BatchMembers {}

impl BatchMembers {
    /// Read the members of a batch at `at` (the first line of a JSON Lines batch).
    pub fn read(value: &Value, at: &Loc) -> Validated<Self> {
        validate::read(value, at)
    }
}

/// One batch item: `{example_id?, state}` (an `annotations` member, as in an ingest or
/// export line, is allowed and ignored, so exported examples can be batched as they are).
/// In a JSON Lines batch, each line after the first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchItem {
    /// [default: derived from the canonical state]
    #[serde(
        default,
        deserialize_with = "fields::example_id",
        skip_serializing_if = "Option::is_none"
    )]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: Option<String>,
    /// The state: any JSON value.
    #[serde(deserialize_with = "fields::state")]
    pub state: Value,
    /// Allowed and ignored: an exported example's annotations.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value, required = false)]
    annotations: Option<Value>,
}

/// One line of a batch job's results, in input order: `answers` and `usage`, or `error`
/// (a problem whose `details` locate the fault under `body.items[index]`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct BatchResultLine {
    /// The item's position, from 0.
    pub index: u64,
    /// A failed item of a JSON Lines input (an `application/x-ndjson` body, `arbiter batch
    /// --input`): the line it was read from, counting from 1 at the first line of the items
    /// (the line after the members' line of a body), blank lines included. Absent for
    /// items given as an array or taken from stored examples, and on answered items.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(minimum = 1, required = false)]
    pub line: Option<u64>,
    /// null when the item could not be read.
    pub example_id: Option<String>,
    #[serde(flatten)]
    pub outcome: ItemOutcome,
}

/// How one batch item ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(untagged)]
pub enum ItemOutcome {
    Answered {
        /// Question ID → answer, as in a decision response.
        #[schema(value_type = HashMap<String, super::Answer>)]
        answers: super::Answers,
        usage: super::Usage,
    },
    Failed {
        error: Problem,
    },
}

impl Rules for BatchItem {}

impl BatchItem {
    /// An item of `state`, under `example_id` when given.
    pub fn new(example_id: Option<String>, state: Value) -> Self {
        Self {
            example_id,
            state,
            annotations: None,
        }
    }

    /// Read item `index`; faults point at `body.items[index]`.
    pub fn read(value: &Value, index: u64) -> Validated<Self> {
        validate::read(value, &Loc::body().key("items").index(index as usize))
    }
}

#[cfg(test)]
mod tests;
