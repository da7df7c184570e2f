//! Record types exchanged with the store. The records it reads back (an example, its
//! annotations and votes, a decision) are the `wire` types the API serves; the others are
//! the store's own.
//!
//! JSON columns are carried as [`serde_json::Value`]; timestamps are RFC 3339 UTC
//! strings with millisecond precision, exactly as stored.

use crate::ids::ExampleId;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the store reads back is the contract's own record: one definition of each, in
/// `wire`, built directly from the rows.
pub use crate::wire::examples::{Annotation, Decision, Example, ExampleDetail, Vote};

/// Input of [`Store::record_decision`](super::Store::record_decision).
#[derive(Debug, Clone, Copy)]
pub struct NewDecision<'a> {
    /// The decision's ID when the caller fixes it (a job's item: derived from the job and
    /// the item), so that recording it again, as a resumed job does, changes nothing; else
    /// a fresh one.
    pub decision_id: Option<&'a str>,
    pub model_id: &'a crate::ids::ModelId,
    pub example_id: &'a ExampleId,
    /// Stored only if the example does not exist yet.
    pub state: &'a Value,
    pub checkpoint: &'a str,
    pub revision_name: &'a str,
    pub revision_kind: &'a str,
    pub questions: &'a Value,
    pub answers: &'a Value,
    pub input_tokens: u64,
    pub output_tokens: u64,
    pub request_id: &'a str,
}

/// Result of [`Store::record_decision`](super::Store::record_decision).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedDecision {
    /// True when this call inserted the example; false when it already existed.
    pub example_created: bool,
    pub decision_id: String,
    pub created_at: crate::wire::time::Recorded,
}

/// An annotator's answer to write for one question: it replaces that annotator's earlier
/// answer, and sits beside other annotators' answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NewAnnotation {
    pub question_id: String,
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    pub annotator: String,
}

/// One example to ingest, with annotations to upsert.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestItem {
    pub example_id: ExampleId,
    pub state: Value,
    #[serde(default)]
    pub annotations: Vec<NewAnnotation>,
}

/// Running totals of an ingest.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestCounts {
    /// Examples inserted.
    pub created: u64,
    /// Examples that already existed (their state was left untouched).
    pub existing: u64,
    /// Annotations inserted or replaced.
    pub annotations: u64,
}

/// Which examples to list or count. Conditions are combined with AND.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleFilter {
    /// `Some(true)`: at least one annotation; `Some(false)`: none.
    #[serde(default)]
    pub annotated: Option<bool>,
    /// Only examples annotated for this question id.
    #[serde(default)]
    pub question: Option<String>,
    /// With `question`: only examples whose ground truth for it is this answer (as JSON:
    /// `true`, `"billing"`, `2`).
    #[serde(default)]
    pub answer: Option<serde_json::Value>,
    /// Only examples whose state contains this text (letter case aside).
    #[serde(default)]
    pub text: Option<String>,
}
