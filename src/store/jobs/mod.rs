//! Job records: status, progress, the request to run (or resume) from, and the outcome.
//!
//! Status changes are guarded updates (`... WHERE status IN (...)`), so two processes that
//! race on one job (a cancel and a finish, say) cannot both win: a finished job stays as
//! it finished.
//!
//! A job is run by its owner: the lease (`core::lease`) of the process that claimed it.
//! The owner alone starts it, records its progress and ends it, each checked in the
//! statement that writes; a job whose owner's lease died is claimed by another process
//! ([`Store::claim_jobs`]), which resumes it.

use serde_json::Value;

use super::error::parse_json;
use super::job_state::{JobState, Outcome};
use super::sql::{DbError, Row, SqlContext, Value as SqlValue, dynamic, params};
use super::{Store, StoreError, now};
use crate::ids::{JobId, ModelId};
use crate::wire::Problem;
use crate::wire::jobs::{JobKind, JobResult, JobStatus};

/// A job to insert (status `queued`).
#[derive(Debug, Clone, Copy)]
pub struct NewJob<'a> {
    pub job_id: &'a JobId,
    pub model_id: &'a ModelId,
    pub kind: JobKind,
    pub request: &'a Value,
    pub total: u64,
    /// The lease of the process that will run it.
    pub owner: Option<&'a str>,
    /// Its shards, recorded with it; none: it runs whole.
    pub shards: &'a [super::NewShard],
}

/// A job as stored, read into types: a row that does not fit them is a corrupt store.
#[derive(Debug, Clone, PartialEq)]
pub struct JobRecord {
    pub job_id: JobId,
    pub model_id: ModelId,
    pub kind: JobKind,
    pub state: JobState,
    pub request: Value,
    pub created_at: crate::wire::time::Recorded,
    pub total: u64,
    pub done: u64,
    pub failed: u64,
    pub cancel_requested: bool,
    /// The lease of the process that runs it (or last ran it).
    pub owner: Option<String>,
}

const COLUMNS: &str = "job_id, model_id, kind, status, request, created_at, started_at, \
     finished_at, total, done, failed, cancel_requested, error, result, owner";

use super::{count, int};

/// A row's columns as SQLite has them, before they are checked into a [`JobRecord`].
struct RawJob {
    job_id: String,
    model_id: String,
    kind: String,
    status: String,
    request: String,
    created_at: String,
    started_at: Option<String>,
    finished_at: Option<String>,
    total: i64,
    done: i64,
    failed: i64,
    cancel_requested: bool,
    error: Option<String>,
    result: Option<String>,
    owner: Option<String>,
}

fn from_row(row: &Row) -> Result<RawJob, DbError> {
    Ok(RawJob {
        job_id: row.get(0)?,
        model_id: row.get(1)?,
        kind: row.get(2)?,
        status: row.get(3)?,
        request: row.get(4)?,
        created_at: row.get(5)?,
        started_at: row.get(6)?,
        finished_at: row.get(7)?,
        total: row.get(8)?,
        done: row.get(9)?,
        failed: row.get(10)?,
        cancel_requested: row.get(11)?,
        error: row.get(12)?,
        result: row.get(13)?,
        owner: row.get(14)?,
    })
}

/// The error for a column of job `id` that does not read as its type.
fn corrupt(id: &str, what: &str, reason: String) -> StoreError {
    StoreError::Corrupt {
        what: format!("{what} of job {id}"),
        reason,
    }
}

fn finish(raw: RawJob) -> Result<JobRecord, StoreError> {
    let id = raw.job_id.clone();
    let bad = |what: &str, reason: String| corrupt(&id, what, reason);
    let job_id = raw
        .job_id
        .parse()
        .map_err(|e: crate::ids::InvalidId| bad("id", e.reason))?;
    let model_id = raw
        .model_id
        .parse()
        .map_err(|e: crate::ids::InvalidId| bad("modelId", e.reason))?;
    let kind = raw
        .kind
        .parse()
        .map_err(|_| bad("kind", format!("unknown kind `{}`", raw.kind)))?;
    let status: JobStatus = raw
        .status
        .parse()
        .map_err(|_| bad("status", format!("unknown status `{}`", raw.status)))?;
    let request = parse_json(&raw.request, || format!("request of job {id}"))?;
    let state = state_of(&raw, kind, status)?;
    Ok(JobRecord {
        job_id,
        model_id,
        kind,
        state,
        request,
        created_at: time_of(&id, "createdAt", &raw.created_at)?,
        total: count(raw.total),
        done: count(raw.done),
        failed: count(raw.failed),
        cancel_requested: raw.cancel_requested,
        owner: raw.owner,
    })
}

/// A time column of job `id`, read as a time.
fn time_of(id: &str, what: &str, text: &str) -> Result<crate::wire::time::Recorded, StoreError> {
    text.parse()
        .map_err(|e| corrupt(id, what, format!("`{text}`: {e}")))
}

/// The state of a job of `kind` that its row says is `status`, with the data that status has.
fn state_of(raw: &RawJob, kind: JobKind, status: JobStatus) -> Result<JobState, StoreError> {
    let id = raw.job_id.as_str();
    let missing = |what: &str| corrupt(id, what, format!("a {status} job has none"));
    let started = raw
        .started_at
        .as_deref()
        .map(|text| time_of(id, "startedAt", text))
        .transpose()?;
    let finished_at = || {
        let text = raw
            .finished_at
            .as_deref()
            .ok_or_else(|| missing("finishedAt"))?;
        time_of(id, "finishedAt", text)
    };
    Ok(match status {
        JobStatus::Queued => JobState::Queued,
        JobStatus::Running => JobState::Running {
            since: started.ok_or_else(|| missing("startedAt"))?,
        },
        JobStatus::Completed => {
            let result = raw.result.as_deref().ok_or_else(|| missing("result"))?;
            let result = parse_json(result, || format!("result of job {id}"))?;
            JobState::Finished {
                started,
                at: finished_at()?,
                outcome: Outcome::Completed {
                    result: JobResult::parse(kind, result)
                        .map_err(|e| corrupt(id, "result", e.to_string()))?,
                },
            }
        }
        JobStatus::Failed => {
            let error = raw.error.as_deref().ok_or_else(|| missing("error"))?;
            let problem: Problem = parse_json(error, || format!("error of job {id}"))?;
            JobState::Finished {
                started,
                at: finished_at()?,
                outcome: Outcome::Failed { problem },
            }
        }
        JobStatus::Cancelled => JobState::Finished {
            started,
            at: finished_at()?,
            outcome: Outcome::Cancelled,
        },
    })
}

/// Which jobs to list.
#[derive(Debug, Clone, Default)]
pub struct JobFilter<'a> {
    pub model_id: Option<&'a ModelId>,
    /// Any of these statuses; all when empty.
    pub statuses: &'a [JobStatus],
    /// Only jobs whose ID starts with this (compared as text, exactly).
    pub id_prefix: Option<&'a str>,
    pub limit: usize,
}

impl Store {
    /// Insert a queued job.
    pub fn insert_job(&self, job: &NewJob<'_>) -> Result<JobRecord, StoreError> {
        self.write("insert job", |tx| {
            tx.execute(
                "INSERT INTO jobs (job_id, model_id, kind, status, request, created_at, total,
                                   owner)
                 VALUES (?1, ?2, ?3, 'queued', ?4, ?5, ?6, ?7)",
                params![
                    job.job_id.to_string(),
                    job.model_id.to_string(),
                    job.kind.as_str(),
                    job.request.to_string(),
                    now(),
                    int(job.total),
                    job.owner
                ],
            )
            .ctx("insert job")?;
            super::job_shards::insert(tx, job.job_id, job.shards)
        })?;
        self.get_job(job.job_id)?
            .ok_or_else(|| StoreError::NotFound(format!("job {} vanished", job.job_id)))
    }

    /// One job, if it exists.
    pub fn get_job(&self, job_id: &JobId) -> Result<Option<JobRecord>, StoreError> {
        let mut conn = self.conn()?;
        let raw = conn
            .db()
            .query_opt(
                &format!("SELECT {COLUMNS} FROM jobs WHERE job_id = ?1"),
                params![job_id.to_string()],
                from_row,
            )
            .ctx("get job")?;
        raw.map(finish).transpose()
    }

    /// Jobs, newest first.
    pub fn list_jobs(&self, filter: &JobFilter<'_>) -> Result<Vec<JobRecord>, StoreError> {
        let mut clauses = vec!["1 = 1".to_owned()];
        let mut args: Vec<SqlValue> = Vec::new();
        if let Some(model_id) = filter.model_id {
            args.push(SqlValue::Text(model_id.to_string()));
            clauses.push(format!("model_id = ?{}", args.len()));
        }
        if !filter.statuses.is_empty() {
            let mut marks = Vec::new();
            for status in filter.statuses {
                args.push(SqlValue::Text(status.to_string()));
                marks.push(format!("?{}", args.len()));
            }
            clauses.push(format!("status IN ({})", marks.join(", ")));
        }
        if let Some(prefix) = filter.id_prefix {
            // substr, not LIKE: no character of the prefix is a wildcard.
            args.push(SqlValue::Text(prefix.to_owned()));
            let n = args.len();
            clauses.push(format!(
                "substr(job_id, 1, length(CAST(?{n} AS TEXT))) = CAST(?{n} AS TEXT)"
            ));
        }
        let mut sql = format!(
            "SELECT {COLUMNS} FROM jobs WHERE {} ORDER BY created_at DESC, job_id DESC",
            clauses.join(" AND ")
        );
        if filter.limit > 0 {
            args.push(SqlValue::Integer(
                i64::try_from(filter.limit).unwrap_or(i64::MAX),
            ));
            sql = format!("{sql} LIMIT ?{}", args.len());
        }
        let mut conn = self.conn()?;
        let rows = conn
            .db()
            .query_map(&sql, &dynamic(&args), from_row)
            .ctx("list jobs")?;
        rows.into_iter().map(finish).collect()
    }

    /// `queued`/`running` → `running` (keeping the first start time), with the total.
    /// False when the job is finished (cancelled while queued, say) or `owner` no longer
    /// owns it: do not run it.
    pub fn start_job(&self, job_id: &JobId, owner: &str, total: u64) -> Result<bool, StoreError> {
        self.write("start job", |tx| {
            let changed = tx
                .execute(
                    "UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, ?2),
                            total = ?3
                     WHERE job_id = ?1 AND status IN ('queued', 'running') AND owner = ?4",
                    params![job_id.to_string(), now(), int(total), owner],
                )
                .ctx("start job")?;
            Ok(changed == 1)
        })
    }

    /// Record progress `(total, done, failed)` of a running job that `owner` owns (an
    /// alignment learns its total only once it runs). Returns whether the owner must stop:
    /// a cancel has been asked for, or the job is no longer its to run.
    pub fn set_job_progress(
        &self,
        job_id: &JobId,
        owner: &str,
        (total, done, failed): (u64, u64, u64),
    ) -> Result<bool, StoreError> {
        self.write("record job progress", |tx| {
            let changed = tx
                .execute(
                    "UPDATE jobs SET total = ?2, done = ?3, failed = ?4
                     WHERE job_id = ?1 AND status = 'running' AND owner = ?5",
                    params![
                        job_id.to_string(),
                        int(total),
                        int(done),
                        int(failed),
                        owner
                    ],
                )
                .ctx("record job progress")?;
            if changed == 0 {
                return Ok(true);
            }
            super::job_lines::cancel_requested(tx, job_id)
        })
    }

    /// How many jobs there are of each kind in each status; a pair with none is absent.
    pub fn count_jobs(&self) -> Result<Vec<(JobKind, JobStatus, u64)>, StoreError> {
        let mut conn = self.conn()?;
        let rows: Vec<(String, String, i64)> = conn
            .db()
            .query_map(
                "SELECT kind, status, count(*) FROM jobs GROUP BY kind, status",
                params![],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .ctx("count jobs")?;
        rows.into_iter()
            .map(|(kind, status, n)| {
                let corrupt = |what: &str, value: &str| StoreError::Corrupt {
                    what: format!("a job's {what}"),
                    reason: format!("unknown {what} `{value}`"),
                };
                Ok((
                    kind.parse().map_err(|_| corrupt("kind", &kind))?,
                    status.parse().map_err(|_| corrupt("status", &status))?,
                    count(n),
                ))
            })
            .collect()
    }

    /// Whether a cancel has been asked for (true for a job that no longer exists).
    pub fn job_cancel_requested(&self, job_id: &JobId) -> Result<bool, StoreError> {
        let mut conn = self.conn()?;
        super::job_lines::cancel_requested(&mut conn.db(), job_id)
    }

    /// End an unfinished job that `owner` owns with `outcome` and its final progress. False
    /// when it had already finished or is not `owner`'s.
    pub fn finish_job(
        &self,
        job_id: &JobId,
        owner: &str,
        outcome: &Outcome,
        progress: Option<(u64, u64)>,
    ) -> Result<bool, StoreError> {
        let (error, result) = match outcome {
            Outcome::Completed { result } => {
                let result = serde_json::to_string(result).map_err(|e| StoreError::Corrupt {
                    what: format!("result of job {job_id}"),
                    reason: e.to_string(),
                })?;
                (None, Some(result))
            }
            Outcome::Failed { problem } => {
                let problem = serde_json::to_string(problem).map_err(|e| StoreError::Corrupt {
                    what: format!("error of job {job_id}"),
                    reason: e.to_string(),
                })?;
                (Some(problem), None)
            }
            Outcome::Cancelled => (None, None),
        };
        self.write("finish job", |tx| {
            let changed = tx
                .execute(
                    "UPDATE jobs SET status = ?2, finished_at = ?3,
                            done = COALESCE(?4, done), failed = COALESCE(?5, failed),
                            error = ?6, result = ?7
                     WHERE job_id = ?1 AND status IN ('queued', 'running') AND owner = ?8",
                    params![
                        job_id.to_string(),
                        outcome.status().as_str(),
                        now(),
                        progress.map(|p| int(p.0)),
                        progress.map(|p| int(p.1)),
                        error,
                        result,
                        owner
                    ],
                )
                .ctx("finish job")?;
            Ok(changed == 1)
        })
    }

    /// Claim for lease `me` the unfinished jobs (all, or only `only`) that `claimable`
    /// lets it have, given each one's owner, oldest first; returns the claimed. A sharded
    /// job is claimed only once its shards are all done (to end it): until then its
    /// shards are what is claimed (`Store::claim_shard`). Jobs that
    /// another transaction has locked are skipped (PostgreSQL's `SKIP LOCKED`), not waited
    /// for: a job being claimed elsewhere is someone else's.
    pub fn claim_jobs(
        &self,
        me: &str,
        only: Option<&JobId>,
        claimable: &mut dyn FnMut(&JobId, Option<&str>) -> bool,
    ) -> Result<Vec<JobId>, StoreError> {
        self.write("claim jobs", |tx| {
            let skip_locked = match tx.dialect() {
                super::Dialect::Postgres => " FOR UPDATE SKIP LOCKED",
                super::Dialect::Sqlite => "",
            };
            let only = only.map(ToString::to_string);
            let candidates: Vec<(String, Option<String>)> = tx
                .query_map(
                    &format!(
                        "SELECT job_id, owner FROM jobs
                         WHERE status IN ('queued', 'running')
                           AND (CAST(?1 AS TEXT) IS NULL OR job_id = CAST(?1 AS TEXT))
                           AND NOT EXISTS (SELECT 1 FROM job_shards s
                                           WHERE s.job_id = jobs.job_id AND s.status <> 'done')
                         ORDER BY created_at, job_id{skip_locked}"
                    ),
                    params![only],
                    |row| Ok((row.get(0)?, row.get(1)?)),
                )
                .ctx("find claimable jobs")?;
            let mut claimed = Vec::new();
            for (id, owner) in candidates {
                let Ok(job_id) = id.parse::<JobId>() else {
                    continue;
                };
                if !claimable(&job_id, owner.as_deref()) {
                    continue;
                }
                tx.execute(
                    "UPDATE jobs SET owner = ?2 WHERE job_id = ?1",
                    params![id, me],
                )
                .ctx("claim job")?;
                claimed.push(job_id);
            }
            Ok(claimed)
        })
    }

    /// Give a job `me` owns back, unowned, for another process to claim (a detached worker).
    pub fn release_job(&self, job_id: &JobId, me: &str) -> Result<(), StoreError> {
        self.write("release job", |tx| {
            tx.execute(
                "UPDATE jobs SET owner = NULL WHERE job_id = ?1 AND owner = ?2",
                params![job_id.to_string(), me],
            )
            .ctx("release job")?;
            Ok(())
        })
    }

    /// Ask a job to stop: a queued job is cancelled at once, a running one is flagged and
    /// stops at its next item; a finished job is left as it is. Returns the job after.
    pub fn cancel_job(&self, job_id: &JobId) -> Result<Option<JobRecord>, StoreError> {
        self.write("cancel job", |tx| {
            tx.execute(
                "UPDATE jobs SET status = 'cancelled', finished_at = ?2, cancel_requested = 1
                 WHERE job_id = ?1 AND status = 'queued'",
                params![job_id.to_string(), now()],
            )
            .ctx("cancel queued job")?;
            tx.execute(
                "UPDATE jobs SET cancel_requested = 1 WHERE job_id = ?1 AND status = 'running'",
                params![job_id.to_string()],
            )
            .ctx("flag running job")?;
            Ok(())
        })?;
        self.get_job(job_id)
    }
}

#[cfg(test)]
mod tests;
