//! Which annotated examples an alignment fitted a question on, by fit ID (the learned
//! file's `fitted.id`), so `eval` can leave them out.

use rusqlite::params;
use std::collections::HashSet;

use super::error::SqlContext;
use super::{Store, StoreError};

impl Store {
    /// Record that fit `fit_id` was fitted on `example_ids` (again: no change).
    pub fn record_fitted(&self, fit_id: &str, example_ids: &[String]) -> Result<(), StoreError> {
        self.write("record fitted examples", |tx| {
            let mut insert = tx
                .prepare_cached(
                    "INSERT OR IGNORE INTO fitted_examples (fit_id, example_id) VALUES (?1, ?2)",
                )
                .ctx("prepare fitted examples")?;
            for example_id in example_ids {
                insert
                    .execute(params![fit_id, example_id])
                    .ctx("record a fitted example")?;
            }
            Ok(())
        })
    }

    /// The examples fit `fit_id` was fitted on; `None` when this store has no record of it
    /// (the checkpoint was aligned elsewhere).
    pub fn fitted_examples(&self, fit_id: &str) -> Result<Option<HashSet<String>>, StoreError> {
        let conn = self.conn()?;
        let mut query = conn
            .prepare_cached("SELECT example_id FROM fitted_examples WHERE fit_id = ?1")
            .ctx("prepare fitted examples")?;
        let ids = query
            .query_map([fit_id], |row| row.get::<_, String>(0))
            .ctx("read fitted examples")?
            .collect::<Result<HashSet<String>, _>>()
            .ctx("read a fitted example")?;
        Ok((!ids.is_empty()).then_some(ids))
    }
}
