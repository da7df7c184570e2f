//! Record types exchanged with the store. They are not the HTTP contract: `core` maps
//! them to the `wire` types the API serves.
//!
//! JSON columns are carried as [`serde_json::Value`]; timestamps are RFC 3339 UTC
//! strings with millisecond precision, exactly as stored.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A stored example with its annotations, keyed (and thus sorted) by question id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    pub example_id: crate::ids::ExampleId,
    /// The state, as ingested or first decided on: any JSON value.
    pub state: Value,
    pub created_at: String,
    /// Question ID → ground truth.
    #[serde(default)]
    pub annotations: BTreeMap<String, Annotation>,
}

/// The ground truth of one question about one example: the answer the annotators'
/// majority gave (see [`super::majority`]), and every annotator's answer beside it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Annotation {
    /// noul: `true`, `false` or a probability; choice: an option key; score: a level index.
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    pub annotated_at: String,
    /// Who gave the resolved answer (the latest of the majority to give it).
    pub annotator: String,
    /// Every annotator's answer, oldest first.
    pub votes: Vec<Vote>,
}

/// One annotator's answer to one question about one example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Vote {
    pub annotator: String,
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
    pub annotated_at: String,
}

/// One captured model decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Decision {
    pub decision_id: String,
    pub example_id: String,
    /// The checkpoint ID (commit SHA) decided at.
    pub checkpoint: String,
    pub revision_name: String,
    /// `branch`, `tag` or `commit`.
    pub revision_kind: String,
    /// The questions asked (question ID → question).
    pub questions: Value,
    /// The answers given (question ID → answer).
    pub answers: Value,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// The `x-request-id` of the decision request.
    pub request_id: String,
    pub created_at: String,
}

/// An example together with every decision taken on it (oldest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExampleDetail {
    #[serde(flatten)]
    pub example: Example,
    pub decisions: Vec<Decision>,
}

/// Input of [`Store::record_decision`](super::Store::record_decision).
#[derive(Debug, Clone, Copy)]
pub struct NewDecision<'a> {
    /// The decision's ID when the caller fixes it (a job's item: derived from the job and
    /// the item), so that recording it again, as a resumed job does, changes nothing; else
    /// a fresh one.
    pub decision_id: Option<&'a str>,
    pub model_id: &'a crate::ids::ModelId,
    pub example_id: &'a str,
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
    pub created_at: String,
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
    pub example_id: String,
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
}
