//! Job records: status, progress, the request to run (or resume) from, and the outcome.
//!
//! Status changes are guarded updates (`... WHERE status IN (...)`), so two processes that
//! race on one job (a cancel and a finish, say) cannot both win: a finished job stays as
//! it finished.

use rusqlite::{OptionalExtension, Row, params};
use serde_json::Value;

use super::error::{SqlContext, parse_json};
use super::{Store, StoreError, now};

/// A job to insert (status `queued`).
#[derive(Debug, Clone, Copy)]
pub struct NewJob<'a> {
    pub job_id: &'a str,
    pub model_id: &'a str,
    pub kind: &'a str,
    pub request: &'a Value,
    pub total: u64,
}

/// A job as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecord {
    pub job_id: String,
    pub model_id: String,
    pub kind: String,
    pub status: String,
    pub request: Value,
    pub created_at: String,
    pub started_at: Option<String>,
    pub finished_at: Option<String>,
    pub total: u64,
    pub done: u64,
    pub failed: u64,
    pub cancel_requested: bool,
    pub error: Option<Value>,
    pub result: Option<Value>,
}

const COLUMNS: &str = "job_id, model_id, kind, status, request, created_at, started_at, \
     finished_at, total, done, failed, cancel_requested, error, result";

/// Counts are `u64` in Rust and `INTEGER` (i64) in SQLite.
fn count(value: i64) -> u64 {
    u64::try_from(value).unwrap_or(0)
}

fn int(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

type RawJob = (JobRecord, String, Option<String>, Option<String>);

fn from_row(row: &Row<'_>) -> rusqlite::Result<RawJob> {
    Ok((
        JobRecord {
            job_id: row.get(0)?,
            model_id: row.get(1)?,
            kind: row.get(2)?,
            status: row.get(3)?,
            request: Value::Null,
            created_at: row.get(5)?,
            started_at: row.get(6)?,
            finished_at: row.get(7)?,
            total: count(row.get(8)?),
            done: count(row.get(9)?),
            failed: count(row.get(10)?),
            cancel_requested: row.get(11)?,
            error: None,
            result: None,
        },
        row.get(4)?,
        row.get(12)?,
        row.get(13)?,
    ))
}

fn finish((mut job, request, error, result): RawJob) -> Result<JobRecord, StoreError> {
    let id = job.job_id.clone();
    job.request = parse_json(&request, || format!("request of job {id}"))?;
    job.error = error
        .map(|e| parse_json(&e, || format!("error of job {id}")))
        .transpose()?;
    job.result = result
        .map(|r| parse_json(&r, || format!("result of job {id}")))
        .transpose()?;
    Ok(job)
}

/// Which jobs to list.
#[derive(Debug, Clone, Default)]
pub struct JobFilter<'a> {
    pub model_id: Option<&'a str>,
    /// Any of these statuses; all when empty.
    pub statuses: &'a [&'a str],
    pub limit: usize,
}

impl Store {
    /// Insert a queued job.
    pub fn insert_job(&self, job: &NewJob<'_>) -> Result<JobRecord, StoreError> {
        self.write("insert job", |tx| {
            tx.execute(
                "INSERT INTO jobs (job_id, model_id, kind, status, request, created_at, total)
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6)",
                params![
                    job.job_id,
                    job.model_id,
                    job.kind,
                    job.request.to_string(),
                    now(),
                    int(job.total)
                ],
            )
            .ctx("insert job")?;
            Ok(())
        })?;
        self.get_job(job.job_id)?
            .ok_or_else(|| StoreError::NotFound(format!("job {} vanished", job.job_id)))
    }

    /// One job, if it exists.
    pub fn get_job(&self, job_id: &str) -> Result<Option<JobRecord>, StoreError> {
        let conn = self.conn()?;
        let raw = conn
            .prepare_cached(&format!("SELECT {COLUMNS} FROM jobs WHERE job_id = ?1"))
            .ctx("prepare get job")?
            .query_row([job_id], from_row)
            .optional()
            .ctx("get job")?;
        raw.map(finish).transpose()
    }

    /// Jobs, newest first.
    pub fn list_jobs(&self, filter: &JobFilter<'_>) -> Result<Vec<JobRecord>, StoreError> {
        let mut clauses = vec!["1 = 1".to_owned()];
        let mut args: Vec<String> = Vec::new();
        if let Some(model_id) = filter.model_id {
            args.push(model_id.to_owned());
            clauses.push(format!("model_id = ?{}", args.len()));
        }
        if !filter.statuses.is_empty() {
            let mut marks = Vec::new();
            for status in filter.statuses {
                args.push((*status).to_owned());
                marks.push(format!("?{}", args.len()));
            }
            clauses.push(format!("status IN ({})", marks.join(", ")));
        }
        let limit = if filter.limit == 0 {
            -1
        } else {
            i64::try_from(filter.limit).unwrap_or(i64::MAX)
        };
        let sql = format!(
            "SELECT {COLUMNS} FROM jobs WHERE {} ORDER BY created_at DESC, job_id DESC LIMIT {limit}",
            clauses.join(" AND ")
        );
        let conn = self.conn()?;
        let mut stmt = conn.prepare_cached(&sql).ctx("prepare list jobs")?;
        let rows = stmt
            .query_map(rusqlite::params_from_iter(args), from_row)
            .ctx("list jobs")?
            .collect::<rusqlite::Result<Vec<_>>>()
            .ctx("read jobs")?;
        rows.into_iter().map(finish).collect()
    }

    /// `queued`/`running` → `running` (keeping the first start time), with the total.
    /// False when the job is finished (cancelled while queued, say): do not run it.
    pub fn start_job(&self, job_id: &str, total: u64) -> Result<bool, StoreError> {
        self.write("start job", |tx| {
            let changed = tx
                .execute(
                    "UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, ?2),
                            total = ?3
                     WHERE job_id = ?1 AND status IN ('queued', 'running')",
                    params![job_id, now(), int(total)],
                )
                .ctx("start job")?;
            Ok(changed == 1)
        })
    }

    /// Record progress `(total, done, failed)` of a running job (an alignment learns its
    /// total only once it runs). Returns whether a cancel has been asked for.
    pub fn set_job_progress(
        &self,
        job_id: &str,
        (total, done, failed): (u64, u64, u64),
    ) -> Result<bool, StoreError> {
        self.write("record job progress", |tx| {
            tx.execute(
                "UPDATE jobs SET total = ?2, done = ?3, failed = ?4
                 WHERE job_id = ?1 AND status = 'running'",
                params![job_id, int(total), int(done), int(failed)],
            )
            .ctx("record job progress")?;
            let cancel: Option<bool> = tx
                .query_row(
                    "SELECT cancel_requested FROM jobs WHERE job_id = ?1",
                    [job_id],
                    |r| r.get(0),
                )
                .optional()
                .ctx("read cancel request")?;
            Ok(cancel.unwrap_or(true))
        })
    }

    /// Whether a cancel has been asked for (true for a job that no longer exists).
    pub fn job_cancel_requested(&self, job_id: &str) -> Result<bool, StoreError> {
        let conn = self.conn()?;
        let cancel: Option<bool> = conn
            .prepare_cached("SELECT cancel_requested FROM jobs WHERE job_id = ?1")
            .ctx("prepare cancel check")?
            .query_row([job_id], |r| r.get(0))
            .optional()
            .ctx("read cancel request")?;
        Ok(cancel.unwrap_or(true))
    }

    /// End an unfinished job as `status` (completed, failed or cancelled) with its final
    /// progress. False when it had already finished.
    pub fn finish_job(
        &self,
        job_id: &str,
        status: &str,
        progress: Option<(u64, u64)>,
        error: Option<&Value>,
        result: Option<&Value>,
    ) -> Result<bool, StoreError> {
        self.write("finish job", |tx| {
            let changed = tx
                .execute(
                    "UPDATE jobs SET status = ?2, finished_at = ?3,
                            done = COALESCE(?4, done), failed = COALESCE(?5, failed),
                            error = ?6, result = ?7
                     WHERE job_id = ?1 AND status IN ('queued', 'running')",
                    params![
                        job_id,
                        status,
                        now(),
                        progress.map(|p| int(p.0)),
                        progress.map(|p| int(p.1)),
                        error.map(Value::to_string),
                        result.map(Value::to_string)
                    ],
                )
                .ctx("finish job")?;
            Ok(changed == 1)
        })
    }

    /// Ask a job to stop: a queued job is cancelled at once, a running one is flagged and
    /// stops at its next item; a finished job is left as it is. Returns the job after.
    pub fn cancel_job(&self, job_id: &str) -> Result<Option<JobRecord>, StoreError> {
        self.write("cancel job", |tx| {
            tx.execute(
                "UPDATE jobs SET status = 'cancelled', finished_at = ?2, cancel_requested = 1
                 WHERE job_id = ?1 AND status = 'queued'",
                params![job_id, now()],
            )
            .ctx("cancel queued job")?;
            tx.execute(
                "UPDATE jobs SET cancel_requested = 1 WHERE job_id = ?1 AND status = 'running'",
                [job_id],
            )
            .ctx("flag running job")?;
            Ok(())
        })?;
        self.get_job(job_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn job(store: &Store, id: &str) -> JobRecord {
        store
            .insert_job(&NewJob {
                job_id: id,
                model_id: "m1",
                kind: "batch",
                request: &json!({"revision": "main"}),
                total: 3,
            })
            .unwrap()
    }

    #[test]
    fn a_job_moves_through_its_statuses_and_stays_finished() {
        let store = Store::open_in_memory().unwrap();
        let queued = job(&store, "j1");
        assert_eq!(queued.status, "queued");
        assert_eq!(queued.request, json!({"revision": "main"}));
        assert!(store.start_job("j1", 3).unwrap());
        assert!(!store.set_job_progress("j1", (3, 2, 1)).unwrap());
        let running = store.get_job("j1").unwrap().unwrap();
        assert_eq!(
            (running.status.as_str(), running.done, running.failed),
            ("running", 2, 1)
        );
        assert!(running.started_at.is_some());
        let summary = json!({"items": 3});
        assert!(
            store
                .finish_job("j1", "completed", Some((3, 1)), None, Some(&summary))
                .unwrap()
        );
        // A late cancel or a second finish changes nothing.
        let after = store.cancel_job("j1").unwrap().unwrap();
        assert_eq!(after.status, "completed");
        assert!(!store.finish_job("j1", "failed", None, None, None).unwrap());
        let done = store.get_job("j1").unwrap().unwrap();
        assert_eq!((done.done, done.result), (3, Some(summary)));
        assert!(!store.start_job("j1", 3).unwrap());
    }

    #[test]
    fn cancel_ends_a_queued_job_and_flags_a_running_one() {
        let store = Store::open_in_memory().unwrap();
        job(&store, "queued");
        job(&store, "running");
        store.start_job("running", 3).unwrap();
        let queued = store.cancel_job("queued").unwrap().unwrap();
        assert_eq!(queued.status, "cancelled");
        assert!(queued.finished_at.is_some());
        assert!(!store.start_job("queued", 3).unwrap());
        let running = store.cancel_job("running").unwrap().unwrap();
        assert_eq!(running.status, "running");
        assert!(running.cancel_requested);
        assert!(store.set_job_progress("running", (3, 1, 0)).unwrap());
        assert!(store.job_cancel_requested("running").unwrap());
        assert!(store.cancel_job("nope").unwrap().is_none());
    }

    #[test]
    fn jobs_are_listed_newest_first_by_model_and_status() {
        let store = Store::open_in_memory().unwrap();
        job(&store, "a");
        job(&store, "b");
        store
            .insert_job(&NewJob {
                job_id: "c",
                model_id: "m2",
                kind: "batch",
                request: &json!({}),
                total: 0,
            })
            .unwrap();
        store.start_job("b", 3).unwrap();
        let ids = |jobs: Vec<JobRecord>| jobs.into_iter().map(|j| j.job_id).collect::<Vec<_>>();
        let all = store.list_jobs(&JobFilter::default()).unwrap();
        assert_eq!(ids(all), ["c", "b", "a"]);
        let m1 = store
            .list_jobs(&JobFilter {
                model_id: Some("m1"),
                ..JobFilter::default()
            })
            .unwrap();
        assert_eq!(ids(m1), ["b", "a"]);
        let active = store
            .list_jobs(&JobFilter {
                statuses: &["queued", "running"],
                limit: 2,
                ..JobFilter::default()
            })
            .unwrap();
        assert_eq!(ids(active), ["c", "b"]);
    }
}
