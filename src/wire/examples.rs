//! Examples: ingest and annotation reports, pages of examples.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// An example with its annotations, keyed (and thus sorted) by question ID.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Example {
    pub example_id: String,
    /// The state, as ingested or first decided on: any JSON value.
    pub state: Value,
    #[schema(format = DateTime)]
    pub created_at: String,
    /// Question ID → ground truth.
    #[serde(default)]
    pub annotations: BTreeMap<String, Annotation>,
}

/// The ground-truth answer to one question about one example.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Annotation {
    /// noul: `true`, `false` or a probability; choice: an option key; score: a level index.
    pub answer: Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub reasoning: Option<String>,
    #[schema(format = DateTime)]
    pub annotated_at: String,
}

/// One captured decision.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
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
    #[schema(format = DateTime)]
    pub created_at: String,
}

/// An example together with every decision taken on it (oldest first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExampleDetail {
    #[serde(flatten)]
    pub example: Example,
    pub decisions: Vec<Decision>,
}

/// One input line (or array element, 1-based) that was not ingested, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RejectedLine {
    #[schema(minimum = 1)]
    pub line: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, required = false)]
    pub example_id: Option<String>,
    pub reason: String,
}

/// What an ingest or bulk annotation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IngestReport {
    /// Whether the valid items were written (false with `--atomic` when any line was bad).
    pub committed: bool,
    /// Examples inserted.
    pub created: u64,
    /// Examples that already existed (their state was left untouched).
    pub existing: u64,
    /// Annotations inserted or replaced.
    pub annotations: u64,
    /// The lines that were not ingested, and why.
    pub rejected: Vec<RejectedLine>,
}

/// A page of examples; pass `nextCursor` as `after` for the next one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExamplePage {
    /// Examples in example ID order.
    pub examples: Vec<Example>,
    /// The cursor of the next page; null on the last page.
    #[schema(required = true)]
    pub next_cursor: Option<String>,
}
