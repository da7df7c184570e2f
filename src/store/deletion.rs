//! Forgetting examples: an example's state, its decisions, annotations and claims, and the
//! copies of its state in the input lines of the model's jobs, removed in one transaction,
//! all of the examples named or none. On SQLite the connection deletes securely (freed
//! content is overwritten with zeros: `secure_delete`, set in [`super::pool`]) and the
//! write-ahead log is folded back into the database and truncated after a deletion, so the
//! deleted text is left in none of the store's files. On PostgreSQL a deleted row's bytes
//! stay in the table's pages until `VACUUM` reuses them: the guide says so.

use super::sql::{Db, SqlContext, params};
use super::{Store, StoreError};
use crate::ids::ExampleId;
use crate::ids::ModelId;
use crate::wire::value::derived_example_id;
use serde_json::Value;
use std::collections::HashSet;

/// A job input line that held a deleted example: its ID, and nothing of its state. An item
/// read from one fails alone ([`is_deleted_item`]).
fn tombstone(example_id: &str) -> Vec<u8> {
    serde_json::json!({"example_id": example_id, "deleted": true})
        .to_string()
        .into_bytes()
}

/// Whether `item` (a job's input line, parsed) is the [`tombstone`] of a deleted example.
pub fn is_deleted_item(item: &Value) -> bool {
    item.get("deleted") == Some(&Value::Bool(true)) && item.get("state").is_none()
}

/// Input lines scanned at once.
const PAGE: i64 = 1000;

impl Store {
    /// Delete `example_ids` of `model_id` with everything recorded of them (see the module
    /// documentation).
    /// All or none: `Ok(Some(id))` names the first not found, and nothing is deleted.
    pub fn delete_examples(
        &self,
        model_id: &ModelId,
        example_ids: &[ExampleId],
    ) -> Result<Option<String>, StoreError> {
        let model = model_id.to_string();
        let missing = self.write("delete examples", |tx| {
            // A job's item is the example's when it names its ID, or holds its state.
            let mut states = HashSet::new();
            for id in example_ids {
                let state: Option<String> = tx
                    .query_opt(
                        "SELECT state FROM examples WHERE model_id = ?1 AND example_id = ?2",
                        params![model, id],
                        |row| row.get(0),
                    )
                    .ctx("look for an example")?;
                let Some(state) = state else {
                    return Ok(Some(id.to_string()));
                };
                if let Ok(state) = serde_json::from_str::<Value>(&state) {
                    states.insert(derived_example_id(&state));
                }
            }
            for id in example_ids {
                for table in ["decisions", "annotations", "annotation_claims", "examples"] {
                    tx.execute(
                        &format!("DELETE FROM {table} WHERE model_id = ?1 AND example_id = ?2"),
                        params![model, id],
                    )
                    .ctx("delete an example")?;
                }
            }
            let held = Held {
                ids: example_ids.iter().map(ExampleId::as_str).collect(),
                states,
            };
            scrub_job_inputs(tx, &model, &held)?;
            Ok(None)
        })?;
        if missing.is_none() {
            self.fold_log()?;
        }
        Ok(missing)
    }

    /// Delete everything of `model_id` (a model being deleted): its examples with all
    /// recorded of them, its jobs with their lines and shards, its history. Refused with
    /// the jobs still queued or running, which are named: `Ok(Err(job IDs))`.
    pub fn delete_model_data(
        &self,
        model_id: &ModelId,
    ) -> Result<Result<(), Vec<String>>, StoreError> {
        let model = model_id.to_string();
        let outcome = self.write("delete a model's data", |tx| {
            let unfinished: Vec<String> = tx
                .query_map(
                    "SELECT job_id FROM jobs WHERE model_id = ?1
                     AND status IN ('queued', 'running') ORDER BY created_at",
                    params![model],
                    |row| row.get(0),
                )
                .ctx("list the model's unfinished jobs")?;
            if !unfinished.is_empty() {
                return Ok(Err(unfinished));
            }
            for table in ["job_lines", "job_shards"] {
                tx.execute(
                    &format!(
                        "DELETE FROM {table} WHERE job_id IN \
                         (SELECT job_id FROM jobs WHERE model_id = ?1)"
                    ),
                    params![model],
                )
                .ctx("delete the model's job lines")?;
            }
            for table in [
                "jobs",
                "decisions",
                "annotations",
                "annotation_claims",
                "examples",
                "registry_events",
            ] {
                tx.execute(
                    &format!("DELETE FROM {table} WHERE model_id = ?1"),
                    params![model],
                )
                .ctx("delete the model's rows")?;
            }
            Ok(Ok(()))
        })?;
        if outcome.is_ok() {
            self.fold_log()?;
        }
        Ok(outcome)
    }

    /// Up to `limit` of `model_id`'s examples recorded more than `days` days ago that no
    /// one has annotated, oldest first: what `capture.retain_days` lets go.
    pub fn expired_examples(
        &self,
        model_id: &ModelId,
        days: u32,
        limit: usize,
    ) -> Result<Vec<ExampleId>, StoreError> {
        let before = super::now().plus(-chrono::TimeDelta::days(i64::from(days)));
        let mut conn = self.conn()?;
        conn.db()
            .query_map(
                "SELECT example_id FROM examples e
                 WHERE e.model_id = ?1 AND e.created_at < ?2
                   AND NOT EXISTS (SELECT 1 FROM annotations a
                                   WHERE a.model_id = e.model_id AND a.example_id = e.example_id)
                 ORDER BY e.created_at, e.example_id LIMIT ?3",
                params![
                    model_id.to_string(),
                    before,
                    i64::try_from(limit).unwrap_or(i64::MAX)
                ],
                |row| row.get::<String>(0).map(ExampleId::from),
            )
            .ctx("find expired examples")
    }

    /// SQLite: copy the write-ahead log into the database and truncate it, so no copy of
    /// a deleted page is left in it. Nothing to do on PostgreSQL.
    fn fold_log(&self) -> Result<(), StoreError> {
        let mut conn = self.conn()?;
        conn.fold_wal().ctx("checkpoint the write-ahead log")
    }
}

/// What of the deleted examples a job's input line may hold.
struct Held<'a> {
    /// Their IDs.
    ids: HashSet<&'a str>,
    /// Their states, as the IDs derived from them.
    states: HashSet<String>,
}

impl Held<'_> {
    /// The ID to leave in the tombstone of an input line that holds a deleted example.
    fn in_line(&self, body: &[u8]) -> Option<String> {
        let item: Value = serde_json::from_slice(body).ok()?;
        let named = item.get("example_id").and_then(Value::as_str);
        let state = item.get("state").map(derived_example_id);
        if let Some(id) = named.filter(|id| self.ids.contains(id)) {
            return Some(id.to_owned());
        }
        let state = state.filter(|state| self.states.contains(state))?;
        Some(named.map_or(state, str::to_owned))
    }
}

/// Replace the input lines of `model`'s jobs that hold a deleted example by tombstones.
fn scrub_job_inputs(tx: &mut Db<'_>, model: &str, held: &Held<'_>) -> Result<(), StoreError> {
    let jobs: Vec<String> = tx
        .query_map(
            "SELECT job_id FROM jobs WHERE model_id = ?1",
            params![model],
            |row| row.get(0),
        )
        .ctx("list the model's jobs")?;
    for job in jobs {
        let mut from = 0_i64;
        loop {
            let page: Vec<(i64, Option<String>)> = tx
                .query_map(
                    "SELECT idx, body FROM job_lines WHERE job_id = ?1 AND part = 'input'
                     AND idx >= ?2 ORDER BY idx LIMIT ?3",
                    params![job, from, PAGE],
                    |row| {
                        let body: Vec<u8> = row.get(1)?;
                        Ok((row.get(0)?, held.in_line(&body)))
                    },
                )
                .ctx("read a job's input")?;
            let Some(&(last, _)) = page.last() else {
                break;
            };
            for (idx, held) in page {
                if let Some(id) = held {
                    tx.execute(
                        "UPDATE job_lines SET body = ?1
                         WHERE job_id = ?2 AND part = 'input' AND idx = ?3",
                        params![tombstone(&id), job, idx],
                    )
                    .ctx("scrub a job's input line")?;
                }
            }
            from = last + 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::NewJob;
    use super::*;
    use crate::ids::JobId;
    use crate::wire::jobs::JobKind;

    /// A model's data is not deleted while a job of it is queued or running (the job is
    /// named), and is once the job has ended.
    #[test]
    fn a_model_with_a_job_unfinished_keeps_its_data() {
        let store = Store::open_in_memory().unwrap();
        let model_id: ModelId = uuid::Uuid::new_v4().to_string().parse().unwrap();
        let job_id = JobId::new_v4();
        store
            .insert_job(&NewJob {
                job_id: &job_id,
                model_id: &model_id,
                kind: JobKind::Batch,
                request: &serde_json::json!({}),
                total: 1,
                owner: Some("me"),
                shards: &[],
            })
            .unwrap();
        let refused = store.delete_model_data(&model_id).unwrap();
        assert_eq!(refused, Err(vec![job_id.to_string()]));
        assert!(store.get_job(&job_id).unwrap().is_some());
        assert!(store.start_job(&job_id, "me", 1).unwrap());
        assert!(
            store
                .finish_job(&job_id, "me", &super::super::Outcome::Cancelled, None)
                .unwrap()
        );
        assert_eq!(store.delete_model_data(&model_id).unwrap(), Ok(()));
        assert!(store.get_job(&job_id).unwrap().is_none());
    }
}
