//! Jobs: the resource a batch decision or an alignment is polled through, and the batch
//! request. A job's status moves `queued` → `running` → `completed` | `failed` |
//! `cancelled`, or `queued` → `cancelled`.

use super::Questions;
use super::problem::FieldError;
use super::problem::{Invalid, Validated};
use super::problem::{Loc, Problem};
use super::question::parse_questions;
use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    pub created_at: String,
    #[schema(required = true)]
    pub started_at: Option<String>,
    #[schema(required = true)]
    pub finished_at: Option<String>,
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

/// `POST /v1/models/{modelId}/batch-decisions`, as [`BatchRequest::from_value`] produces it;
/// it is written as a [`BatchRequestDoc`].
#[derive(Debug, Clone, PartialEq)]
pub struct BatchRequest {
    pub revision: Option<String>,
    pub questions: Option<Questions>,
    pub capture: bool,
    pub items: BatchItems,
}

impl BatchRequest {
    /// Check a request body: every problem at once, each with its field path.
    pub fn from_value(body: &Value) -> Validated<Self> {
        let root = Loc::body();
        let Some(object) = body.as_object() else {
            return Err(Invalid::one(
                root,
                format!("a batch request is a JSON object, not {}", kind_of(body)),
                "type",
            ));
        };
        let mut errors = Vec::new();
        for key in object.keys() {
            if !matches!(
                key.as_str(),
                "revision" | "questions" | "capture" | "items" | "examples"
            ) {
                errors.push(FieldError::new(
                    root.key(key),
                    format!(
                        "unknown member `{key}` (a batch has revision, questions, capture, and items or examples)"
                    ),
                    "unknown",
                ));
            }
        }
        let revision = crate::limits::revision_member(object, "revision", &root, &mut errors);
        let questions = match object.get("questions") {
            None | Some(Value::Null) => None,
            Some(value) => Some(parse_questions(value, &root.key("questions"), &mut errors)),
        };
        let capture = match object.get("capture") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                errors.push(FieldError::new(
                    root.key("capture"),
                    format!("capture must be a boolean, not {}", kind_of(other)),
                    "type",
                ));
                false
            }
        };
        let items = parse_items(object, &root, &mut errors);
        match items {
            Some(items) if errors.is_empty() => Ok(Self {
                revision,
                questions,
                capture,
                items,
            }),
            _ => Err(Invalid(errors)),
        }
    }
}

/// A batch as it is written: what clients send and the server's document shows
/// (`BatchRequest`): `items`, or `examples`, not both.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(untagged)]
#[schema(as = BatchRequest)]
pub enum BatchRequestDoc {
    Items(InlineBatch),
    Examples(StoredBatch),
}

/// A batch over the states it carries.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InlineBatch {
    /// Branch, tag or commit SHA [default: the default branch].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        min_length = 1,
        max_length = 255,
        pattern = "^[^\\u0000]*$",
        required = false
    )]
    pub revision: Option<String>,
    /// Question ID → question: override saved ones with the same ID and add new IDs for
    /// this batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<super::question::QuestionsSchema>, required = false)]
    pub questions: Option<Questions>,
    /// Record each decision, as the model's capture policy allows.
    #[schema(nullable = true, default = false, required = false)]
    pub capture: bool,
    /// The states, each `{example_id?, state}` (a [`BatchItem`]), checked when its turn
    /// comes, so a bad one fails only itself.
    pub items: Vec<Value>,
}

/// A batch over the model's stored examples.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StoredBatch {
    /// Branch, tag or commit SHA [default: the default branch].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        min_length = 1,
        max_length = 255,
        pattern = "^[^\\u0000]*$",
        required = false
    )]
    pub revision: Option<String>,
    /// Question ID → question: override saved ones with the same ID and add new IDs for
    /// this batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<super::question::QuestionsSchema>, required = false)]
    pub questions: Option<Questions>,
    /// Record each decision, as the model's capture policy allows.
    #[schema(nullable = true, default = false, required = false)]
    pub capture: bool,
    /// Which stored examples to run over.
    pub examples: ExampleSet,
}

/// The first line of a JSON Lines batch: what a batch says besides its states (each
/// further line is one [`BatchItem`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BatchMembers {
    /// Branch, tag or commit SHA [default: the default branch].
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(
        min_length = 1,
        max_length = 255,
        pattern = "^[^\\u0000]*$",
        required = false
    )]
    pub revision: Option<String>,
    /// Question ID → question: override saved ones with the same ID and add new IDs for
    /// this batch.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<super::question::QuestionsSchema>, required = false)]
    pub questions: Option<Questions>,
    /// Record each decision, as the model's capture policy allows.
    #[schema(nullable = true, default = false, required = false)]
    pub capture: bool,
}

impl From<&BatchRequest> for BatchRequestDoc {
    fn from(request: &BatchRequest) -> Self {
        let BatchMembers {
            revision,
            questions,
            capture,
        } = request.members();
        match &request.items {
            BatchItems::Inline(items) => Self::Items(InlineBatch {
                revision,
                questions,
                capture,
                items: items.clone(),
            }),
            BatchItems::Examples(examples) => Self::Examples(StoredBatch {
                revision,
                questions,
                capture,
                examples: *examples,
            }),
        }
    }
}

impl BatchRequest {
    /// What the request says besides its states.
    pub fn members(&self) -> BatchMembers {
        BatchMembers {
            revision: self.revision.clone(),
            questions: self.questions.clone(),
            capture: self.capture,
        }
    }
}

/// `items` (inline) or `examples` (a stored set): exactly one of them.
fn parse_items(
    object: &serde_json::Map<String, Value>,
    root: &Loc,
    errors: &mut Vec<FieldError>,
) -> Option<BatchItems> {
    match (object.get("items"), object.get("examples")) {
        (Some(Value::Array(items)), None) => Some(BatchItems::Inline(items.clone())),
        (Some(other), None) => {
            errors.push(FieldError::new(
                root.key("items"),
                format!(
                    "items must be an array of {{example_id?, state}}, not {}",
                    kind_of(other)
                ),
                "type",
            ));
            None
        }
        (None, Some(Value::String(set))) if set == "all" => {
            Some(BatchItems::Examples(ExampleSet::All))
        }
        (None, Some(Value::String(set))) if set == "annotated" => {
            Some(BatchItems::Examples(ExampleSet::Annotated))
        }
        (None, Some(other)) => {
            errors.push(FieldError::new(
                root.key("examples"),
                format!("examples must be \"all\" or \"annotated\", not {other}"),
                "enum",
            ));
            None
        }
        (Some(_), Some(_)) => {
            errors.push(FieldError::new(
                root.key("examples"),
                "give items or examples, not both",
                "conflict",
            ));
            None
        }
        (None, None) => {
            errors.push(FieldError::new(
                root.key("items"),
                "a batch needs items (an array of {example_id?, state}) or examples (\"all\" or \"annotated\")",
                "missing",
            ));
            None
        }
    }
}

/// One batch item: `{example_id?, state}` (an `annotations` member, as in an ingest or
/// export line, is allowed and ignored, so exported examples can be batched as they are).
/// In a JSON Lines batch, each line after the first.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct BatchItem {
    /// [default: derived from the canonical state]
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    pub example_id: Option<String>,
    /// The state: any JSON value.
    pub state: Value,
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

impl BatchItem {
    /// Check item `index`; errors point at `body.items[index]`.
    pub fn from_value(value: Value, index: u64) -> Validated<Self> {
        let loc = Loc::body().key("items").index(index as usize);
        let Value::Object(mut object) = value else {
            return Err(Invalid::one(
                loc,
                format!(
                    "an item is an object {{example_id?, state}}, not {}",
                    kind_of(&value)
                ),
                "type",
            ));
        };
        let mut errors = Vec::new();
        for key in object.keys() {
            if !matches!(key.as_str(), "example_id" | "state" | "annotations") {
                errors.push(FieldError::new(
                    loc.key(key),
                    format!("unknown member `{key}` (an item has example_id and state)"),
                    "unknown",
                ));
            }
        }
        let max = crate::limits::MAX_EXAMPLE_ID_CHARS;
        let example_id = match object.remove("example_id") {
            None | Some(Value::Null) => None,
            Some(Value::String(id)) if id.contains('\0') => {
                errors.extend(crate::limits::stored(
                    &id,
                    &loc.key("example_id"),
                    "example_id",
                ));
                None
            }
            Some(Value::String(id)) if !id.is_empty() && id.chars().count() <= max => Some(id),
            Some(other) => {
                errors.push(FieldError::new(
                    loc.key("example_id"),
                    format!("example_id must be a string of 1 to {max} characters (the limit)"),
                    if other.is_string() { "length" } else { "type" },
                ));
                None
            }
        };
        let state = object.remove("state");
        match &state {
            None => errors.push(FieldError::new(
                loc.key("state"),
                "state is required",
                "missing",
            )),
            Some(state) => errors.extend(crate::limits::state(state, &loc.key("state"))),
        }
        match state {
            Some(state) if errors.is_empty() => Ok(Self { example_id, state }),
            _ => Err(Invalid(errors)),
        }
    }
}

fn kind_of(value: &Value) -> &'static str {
    super::question::json_type(value)
}

#[cfg(test)]
mod tests;
