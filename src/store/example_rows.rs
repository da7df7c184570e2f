//! The rows of the `examples` table that annotations and decisions hang on: whether one
//! exists, and writing one once. A leaf the example, annotation and decision operations all
//! use.

use serde_json::Value;

use super::StoreError;
use super::sql::{Db, SqlContext, params};
use crate::ids::ExampleId;

/// Inserts the example unless it exists; true if it was inserted.
pub(super) fn insert_if_absent(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
    state: &Value,
    created_at: crate::wire::time::Recorded,
) -> Result<bool, StoreError> {
    let inserted = conn
        .execute(
            "INSERT INTO examples (model_id, example_id, state, created_at)
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT DO NOTHING",
            params![model_id, example_id, state.to_string(), created_at],
        )
        .ctx("insert example")?;
    Ok(inserted == 1)
}

pub(super) fn exists(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
) -> Result<bool, StoreError> {
    conn.query_opt(
        "SELECT 1 FROM examples WHERE model_id = ?1 AND example_id = ?2",
        params![model_id, example_id],
        |_| Ok(()),
    )
    .map(|found| found.is_some())
    .ctx("find example")
}
