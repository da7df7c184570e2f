//! Examples: ingest and annotation reports, pages of examples.

use crate::store::Example;
use serde::{Deserialize, Serialize};

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
