//! Which annotated examples an alignment fitted a question on, by fit ID (the learned
//! file's `fitted.id`), so `eval` can leave them out.

use crate::ids::ExampleId;
use std::collections::HashSet;

use super::sql::{SqlContext, params};
use super::{Store, StoreError};

impl Store {
    /// Record that fit `fit_id` was fitted on `example_ids` (again: no change).
    pub fn record_fitted(&self, fit_id: &str, example_ids: &[ExampleId]) -> Result<(), StoreError> {
        self.write("record fitted examples", |tx| {
            for example_id in example_ids {
                tx.execute(
                    "INSERT INTO fitted_examples (fit_id, example_id) VALUES (?1, ?2)
                     ON CONFLICT DO NOTHING",
                    params![fit_id, example_id],
                )
                .ctx("record a fitted example")?;
            }
            Ok(())
        })
    }

    /// The examples fit `fit_id` was fitted on; `None` when this store has no record of it
    /// (the checkpoint was aligned elsewhere).
    pub fn fitted_examples(&self, fit_id: &str) -> Result<Option<HashSet<String>>, StoreError> {
        let mut conn = self.conn()?;
        let ids: HashSet<String> = conn
            .db()
            .query_map(
                "SELECT example_id FROM fitted_examples WHERE fit_id = ?1",
                params![fit_id],
                |row| row.get::<String>(0),
            )
            .ctx("read fitted examples")?
            .into_iter()
            .collect();
        Ok((!ids.is_empty()).then_some(ids))
    }
}
