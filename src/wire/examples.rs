//! Examples: ingest and annotation reports, pages of examples.

use crate::store::Example;
use serde::{Deserialize, Serialize};

/// One input line (or array element, 1-based) that was not ingested, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RejectedLine {
    pub line: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example_id: Option<String>,
    pub reason: String,
}

/// What an ingest or bulk annotation did.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IngestReport {
    /// Whether the valid items were written (false with `--atomic` when any line was bad).
    pub committed: bool,
    pub created: u64,
    pub existing: u64,
    pub annotations: u64,
    pub rejected: Vec<RejectedLine>,
}

/// A page of examples; pass `nextCursor` as `after` for the next one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExamplePage {
    pub examples: Vec<Example>,
    pub next_cursor: Option<String>,
}
