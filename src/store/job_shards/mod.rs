//! Shards of a job: runs of its input lines (of one part: a batch's results, an
//! evaluation's checkpoint or baseline) that the workers of any process claim, one at a
//! time, and take to their end. A job is sharded when it is recorded ([`NewShard`], in the
//! transaction that inserts it); a job without shards runs whole (`jobs`).
//!
//! A shard is owned by the lease of the process running it, as a job run whole is: its
//! result lines and progress are written only while that lease owns it and the job is
//! running (or cancelled: what finished is kept), each checked in the statement that
//! writes. A shard whose owner's lease died is
//! claimed again ([`Store::claim_shard`]) and resumed from its first line without a
//! result; the others keep theirs. The worker that completes the last shard becomes the
//! job's owner in the same transaction ([`ShardEnd::Last`]), so exactly one process ends
//! the job; should it die first, the job is an ordinary orphan (`Store::claim_jobs`).

use super::job_lines::JobPart;
use super::sql::{Db, DbError, Row, SqlContext, params};
use super::{Store, StoreError, count, int, now};
use crate::ids::JobId;

/// A shard to record with its job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NewShard {
    pub part: JobPart,
    pub first: u64,
    pub lines: u64,
}

/// Where a shard is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardStatus {
    /// Never claimed.
    Pending,
    /// Claimed by `owner` (alive, or dead and claimable again).
    Running,
    /// Every line has its result.
    Done,
}

impl ShardStatus {
    fn parse(text: &str) -> Option<Self> {
        match text {
            "pending" => Some(Self::Pending),
            "running" => Some(Self::Running),
            "done" => Some(Self::Done),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Running => "running",
            Self::Done => "done",
        }
    }
}

/// What a shard's worker has done so far: what the job's progress and summary add up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ShardStats {
    pub done: u64,
    pub failed: u64,
    pub input_tokens: u64,
    pub output_tokens: u64,
    /// Items whose decision was timed, and their time added up, in microseconds.
    pub timed: u64,
    pub latency_us: u64,
}

/// A shard as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shard {
    pub job_id: JobId,
    pub index: u64,
    pub part: JobPart,
    pub first: u64,
    pub lines: u64,
    pub status: ShardStatus,
    pub owner: Option<String>,
    /// Who runs it, or ran it last, as the worker named itself (`host:pid`).
    pub worker: Option<String>,
    /// How many times it was claimed (more than once: taken over from a dead process).
    pub attempts: u64,
    pub stats: ShardStats,
}

/// A shard just claimed, and whether its job had been cancelled instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TakenShard {
    /// This shard is now the caller's to run.
    Shard(Shard),
    /// The job of a claimable shard had a cancel asked for, and nobody was left to end it:
    /// it is ended `cancelled` now (nothing to run).
    Cancelled(JobId),
}

/// An unfinished job with shards not yet done ([`Store::open_sharded_jobs`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenJob {
    pub job_id: JobId,
    /// Whether some of its shards were never claimed, or were given back (or let go of,
    /// unowned): there is one to claim.
    pub pending: bool,
    /// Its running shards' owners, with each shard's number.
    pub owners: Vec<(String, u64)>,
}

/// Open jobs by (creation time, ID): oldest first.
type ByAge = std::collections::BTreeMap<(String, String), OpenJob>;

/// The open job `id` in `open`, added when it is not there yet; `None` for an ID that is
/// not one.
fn entry(open: &mut ByAge, created: String, id: String) -> Option<&mut OpenJob> {
    let job_id = id.parse::<JobId>().ok()?;
    Some(open.entry((created, id)).or_insert_with(|| OpenJob {
        job_id,
        pending: false,
        owners: Vec::new(),
    }))
}

/// How completing a shard went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShardEnd {
    /// The shard is no longer the caller's, or its job is no longer running: nothing done.
    Lost,
    /// Done; other shards of the job are not yet.
    Done,
    /// Done, and it was the job's last: the caller now owns the job, and ends it.
    Last,
}

const COLUMNS: &str = "job_id, shard, part, first_line, lines, status, owner, worker, attempts, \
     done, failed, input_tokens, output_tokens, timed, latency_us";

/// A row's columns as stored, before they are checked into a [`Shard`].
struct RawShard {
    job_id: String,
    index: i64,
    part: String,
    status: String,
    first: i64,
    lines: i64,
    owner: Option<String>,
    worker: Option<String>,
    attempts: i64,
    stats: ShardStats,
}

fn from_row(row: &Row) -> Result<RawShard, DbError> {
    Ok(RawShard {
        job_id: row.get(0)?,
        index: row.get(1)?,
        part: row.get(2)?,
        first: row.get(3)?,
        lines: row.get(4)?,
        status: row.get(5)?,
        owner: row.get(6)?,
        worker: row.get(7)?,
        attempts: row.get(8)?,
        stats: ShardStats {
            done: count(row.get(9)?),
            failed: count(row.get(10)?),
            input_tokens: count(row.get(11)?),
            output_tokens: count(row.get(12)?),
            timed: count(row.get(13)?),
            latency_us: count(row.get(14)?),
        },
    })
}

/// A row read into a [`Shard`]; a row that does not fit is a corrupt store.
fn finish(raw: RawShard) -> Result<Shard, StoreError> {
    let corrupt = |reason: String| StoreError::Corrupt {
        what: format!("shard {} of job {}", raw.index, raw.job_id),
        reason,
    };
    Ok(Shard {
        job_id: raw
            .job_id
            .parse()
            .map_err(|e: crate::ids::InvalidId| corrupt(e.reason))?,
        index: count(raw.index),
        part: JobPart::parse(&raw.part)
            .ok_or_else(|| corrupt(format!("unknown part `{}`", raw.part)))?,
        first: count(raw.first),
        lines: count(raw.lines),
        status: ShardStatus::parse(&raw.status)
            .ok_or_else(|| corrupt(format!("unknown status `{}`", raw.status)))?,
        owner: raw.owner,
        worker: raw.worker,
        attempts: count(raw.attempts),
        stats: raw.stats,
    })
}

/// Record `shards` of job `job_id`, pending, inside the transaction that inserts the job.
pub(super) fn insert(
    tx: &mut Db<'_>,
    job_id: &JobId,
    shards: &[NewShard],
) -> Result<(), StoreError> {
    for (index, shard) in shards.iter().enumerate() {
        tx.execute(
            "INSERT INTO job_shards (job_id, shard, part, first_line, lines, status)
             VALUES (?1, ?2, ?3, ?4, ?5, 'pending')",
            params![
                job_id.to_string(),
                int(index as u64),
                shard.part.as_str(),
                int(shard.first),
                int(shard.lines)
            ],
        )
        .ctx("insert job shard")?;
    }
    Ok(())
}

/// Add what a shard's figures moved by (`done`, `failed`) to its job's row, which so stays
/// the sum of its shards' without reading them: a write costs the same for a job of ten
/// shards or of thousands.
fn add_to_job(
    tx: &mut Db<'_>,
    job_id: &JobId,
    (done, failed): (i64, i64),
) -> Result<(), StoreError> {
    tx.execute(
        "UPDATE jobs SET done = done + ?2, failed = failed + ?3
         WHERE job_id = ?1 AND status IN ('running', 'cancelled')",
        params![job_id.to_string(), done, failed],
    )
    .ctx("add to job progress")?;
    Ok(())
}

fn write_stats(
    tx: &mut Db<'_>,
    (job_id, shard, owner): (&JobId, u64, &str),
    stats: &ShardStats,
    done: bool,
) -> Result<bool, StoreError> {
    // What the shard's row says before this write: the job's row moves by the difference.
    let before: Option<(i64, i64)> = tx
        .query_opt(
            "SELECT done, failed FROM job_shards
             WHERE job_id = ?1 AND shard = ?2 AND owner = ?3 AND status = 'running'",
            params![job_id.to_string(), int(shard), owner],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .ctx("read shard progress")?;
    let Some((done_before, failed_before)) = before else {
        return Ok(false);
    };
    let changed = tx
        .execute(
            "UPDATE job_shards SET done = ?4, failed = ?5, input_tokens = ?6,
                    output_tokens = ?7, timed = ?8, latency_us = ?9,
                    status = CAST(?10 AS TEXT),
                    finished_at = CASE WHEN CAST(?10 AS TEXT) = 'done' THEN CAST(?11 AS TEXT)
                                       ELSE finished_at END
             WHERE job_id = ?1 AND shard = ?2 AND owner = ?3 AND status = 'running'
               AND EXISTS (SELECT 1 FROM jobs j WHERE j.job_id = ?1
                           AND j.status IN ('running', 'cancelled'))",
            params![
                job_id.to_string(),
                int(shard),
                owner,
                int(stats.done),
                int(stats.failed),
                int(stats.input_tokens),
                int(stats.output_tokens),
                int(stats.timed),
                int(stats.latency_us),
                if done { "done" } else { "running" },
                now()
            ],
        )
        .ctx("record shard progress")?;
    if changed == 1 {
        add_to_job(
            tx,
            job_id,
            (
                int(stats.done) - done_before,
                int(stats.failed) - failed_before,
            ),
        )?;
    }
    Ok(changed == 1)
}

/// End job `job_id` `cancelled` when no shard of it is running under a worker (each that
/// stops lets go of its shard first): the last to stop ends it. Whether this ended it.
fn end_if_cancelled_and_idle(tx: &mut Db<'_>, job_id: &JobId) -> Result<bool, StoreError> {
    let running: i64 = tx
        .query_value(
            "SELECT count(*) FROM job_shards
             WHERE job_id = ?1 AND status = 'running' AND owner IS NOT NULL",
            params![job_id.to_string()],
        )
        .ctx("count running shards")?;
    if running > 0 {
        return Ok(false);
    }
    let ended = tx
        .execute(
            "UPDATE jobs SET status = 'cancelled', finished_at = ?2
             WHERE job_id = ?1 AND status IN ('queued', 'running')",
            params![job_id.to_string(), now()],
        )
        .ctx("end a cancelled job")?;
    Ok(ended == 1)
}

impl Store {
    /// Claim for lease `me` (a worker that names itself `worker`) a shard, of job `only` or
    /// of any unfinished job (oldest job first), that `claimable` lets it have given its
    /// owner: a running one's is the lease that runs it (or ran it and died), and these
    /// come first; else the first pending one, which has none. The job is marked running
    /// with it. Shards another transaction
    /// has locked are skipped (PostgreSQL's `SKIP LOCKED`), not waited for.
    ///
    /// A claimable shard of a job that has a cancel asked for is not run: the job is ended
    /// `cancelled` instead ([`TakenShard::Cancelled`]), since a live worker of it would have
    /// done so already.
    pub fn claim_shard(
        &self,
        (me, worker): (&str, &str),
        only: Option<&JobId>,
        claimable: &mut dyn FnMut(&JobId, u64, Option<&str>) -> bool,
    ) -> Result<Option<TakenShard>, StoreError> {
        self.write("claim shard", |tx| {
            let skip_locked = match tx.dialect() {
                super::Dialect::Postgres => " FOR UPDATE OF s SKIP LOCKED",
                super::Dialect::Sqlite => "",
            };
            let only = only.map(ToString::to_string);
            // The running shards (one per live worker at most, or left by a dead one), then
            // the first pending one: a claim reads a few rows however many shards a job has.
            let mut candidates: Vec<(String, i64, Option<String>, bool)> = Vec::new();
            for (status, limit) in [("running", ""), ("pending", " LIMIT 1")] {
                candidates.extend(
                    tx.query_map(
                        &format!(
                            "SELECT s.job_id, s.shard, s.owner, j.cancel_requested
                             FROM job_shards s JOIN jobs j ON j.job_id = s.job_id
                             WHERE s.status = '{status}'
                               AND j.status IN ('queued', 'running')
                               AND (CAST(?1 AS TEXT) IS NULL OR s.job_id = CAST(?1 AS TEXT))
                             ORDER BY j.created_at, s.job_id, s.shard{limit}{skip_locked}"
                        ),
                        params![only],
                        |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
                    )
                    .ctx("find claimable shards")?,
                );
            }
            for (id, index, owner, cancel) in candidates {
                let Ok(job_id) = id.parse::<JobId>() else {
                    continue;
                };
                if !claimable(&job_id, count(index), owner.as_deref()) {
                    continue;
                }
                if cancel {
                    // Nothing more runs: let go of it (a dead worker's), and end the job
                    // unless a live worker is still writing what its shard finished.
                    tx.execute(
                        "UPDATE job_shards SET owner = NULL WHERE job_id = ?1 AND shard = ?2",
                        params![id, index],
                    )
                    .ctx("let go of a cancelled job's shard")?;
                    return Ok(end_if_cancelled_and_idle(tx, &job_id)?
                        .then_some(TakenShard::Cancelled(job_id)));
                }
                tx.execute(
                    "UPDATE job_shards SET owner = ?3, worker = ?4, status = 'running',
                            attempts = attempts + 1, started_at = COALESCE(started_at, ?5)
                     WHERE job_id = ?1 AND shard = ?2",
                    params![id, index, me, worker, now()],
                )
                .ctx("claim shard")?;
                tx.execute(
                    "UPDATE jobs SET status = 'running', started_at = COALESCE(started_at, ?2)
                     WHERE job_id = ?1 AND status IN ('queued', 'running')",
                    params![id, now()],
                )
                .ctx("start job")?;
                let shard = tx
                    .query_row(
                        &format!(
                            "SELECT {COLUMNS} FROM job_shards WHERE job_id = ?1 AND shard = ?2"
                        ),
                        params![id, index],
                        from_row,
                    )
                    .ctx("read claimed shard")?;
                return Ok(Some(TakenShard::Shard(finish(shard)?)));
            }
            Ok(None)
        })
    }

    /// Record what the worker of a shard that `me` runs has done; the job's progress is
    /// the sum of its shards'. Returns whether the worker must stop: the shard is no longer
    /// its, the job is no longer running, or a cancel has been asked for.
    pub fn record_shard(
        &self,
        (job_id, shard, me): (&JobId, u64, &str),
        stats: &ShardStats,
    ) -> Result<bool, StoreError> {
        self.write("record shard progress", |tx| {
            if !write_stats(tx, (job_id, shard, me), stats, false)? {
                return Ok(true);
            }
            super::job_lines::cancel_requested(tx, job_id)
        })
    }

    /// Mark a shard that `me` runs done with its final figures. When it was the job's
    /// last, `me` becomes the job's owner in the same transaction ([`ShardEnd::Last`]):
    /// of several workers finishing at once, exactly one is told so.
    pub fn complete_shard(
        &self,
        (job_id, shard, me): (&JobId, u64, &str),
        stats: &ShardStats,
    ) -> Result<ShardEnd, StoreError> {
        self.write("complete shard", |tx| {
            if !write_stats(tx, (job_id, shard, me), stats, true)? {
                return Ok(ShardEnd::Lost);
            }
            let open: i64 = tx
                .query_value(
                    "SELECT count(*) FROM job_shards
                     WHERE status IN ('pending', 'running') AND job_id = ?1",
                    params![job_id.to_string()],
                )
                .ctx("count open shards")?;
            if open > 0 {
                return Ok(ShardEnd::Done);
            }
            let taken = tx
                .execute(
                    "UPDATE jobs SET owner = ?2 WHERE job_id = ?1 AND status = 'running'",
                    params![job_id.to_string(), me],
                )
                .ctx("take the job to end it")?;
            // A cancelled job keeps what its shards finished, and is ended already.
            Ok(if taken == 1 {
                ShardEnd::Last
            } else {
                ShardEnd::Done
            })
        })
    }

    /// End a running job from one of its shards, which `me` runs: `failed` with `problem`
    /// (its work cannot go on), or, without one, `cancelled` (a cancel was asked for) once
    /// no other shard of it runs, the last to stop ending it. False when the job had
    /// already ended, others still run, or the shard is no longer `me`'s.
    pub fn end_job_from_shard(
        &self,
        (job_id, shard, me): (&JobId, u64, &str),
        problem: Option<&str>,
    ) -> Result<bool, StoreError> {
        let status = if problem.is_some() {
            "failed"
        } else {
            "cancelled"
        };
        self.write("end job from a shard", |tx| {
            if problem.is_none() {
                // This shard stops; the job is cancelled once no shard runs any more, so
                // that its figures are final when it reads `cancelled`.
                let mine = tx
                    .execute(
                        "UPDATE job_shards SET owner = NULL
                         WHERE job_id = ?1 AND shard = ?2 AND owner = ?3 AND status = 'running'",
                        params![job_id.to_string(), int(shard), me],
                    )
                    .ctx("let go of a cancelled shard")?;
                return Ok(mine == 1 && end_if_cancelled_and_idle(tx, job_id)?);
            }
            let changed = tx
                .execute(
                    "UPDATE jobs SET status = ?4, finished_at = ?5, error = ?6
                     WHERE job_id = ?1 AND status = 'running'
                       AND EXISTS (SELECT 1 FROM job_shards s WHERE s.job_id = ?1
                                   AND s.shard = ?2 AND s.owner = ?3)",
                    params![job_id.to_string(), int(shard), me, status, now(), problem],
                )
                .ctx("end job from a shard")?;
            Ok(changed == 1)
        })
    }

    /// Give a shard `me` runs back, unowned, for any worker to claim (this process stops).
    pub fn release_shard(
        &self,
        (job_id, shard, me): (&JobId, u64, &str),
    ) -> Result<(), StoreError> {
        self.write("release shard", |tx| {
            tx.execute(
                "UPDATE job_shards SET owner = NULL
                 WHERE job_id = ?1 AND shard = ?2 AND owner = ?3 AND status = 'running'",
                params![job_id.to_string(), int(shard), me],
            )
            .ctx("release shard")?;
            Ok(())
        })
    }

    /// The shards of a job, in order (none: it runs whole).
    pub fn job_shards(&self, job_id: &JobId) -> Result<Vec<Shard>, StoreError> {
        let mut conn = self.conn()?;
        let rows = conn
            .db()
            .query_map(
                &format!("SELECT {COLUMNS} FROM job_shards WHERE job_id = ?1 ORDER BY shard"),
                params![job_id.to_string()],
                from_row,
            )
            .ctx("read job shards")?;
        rows.into_iter().map(finish).collect()
    }

    /// The unfinished jobs that have shards not yet done, oldest first: each with whether
    /// some are pending, and the owners of those running (alive or not). It reads the
    /// running shards (one per worker at most, or left by a dead one) and asks of each open
    /// job whether a pending shard exists, so a job of thousands of shards costs a few
    /// rows, as a claim does; every idle worker asks this once a second.
    pub fn open_sharded_jobs(&self) -> Result<Vec<OpenJob>, StoreError> {
        let mut conn = self.conn()?;
        let mut db = conn.db();
        let running: Vec<(String, String, i64, Option<String>)> = db
            .query_map(
                "SELECT j.created_at, s.job_id, s.shard, s.owner
                 FROM job_shards s JOIN jobs j ON j.job_id = s.job_id
                 WHERE s.status = 'running' AND j.status IN ('queued', 'running')",
                params![],
                |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?)),
            )
            .ctx("find running shards")?;
        let pending: Vec<(String, String)> = db
            .query_map(
                "SELECT j.created_at, j.job_id FROM jobs j
                 WHERE j.status IN ('queued', 'running')
                   AND EXISTS (SELECT 1 FROM job_shards s
                               WHERE s.status = 'pending' AND s.job_id = j.job_id)",
                params![],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .ctx("find pending shards")?;
        // By job, oldest first (creation time, then ID), then by shard.
        let mut open = ByAge::new();
        for (created, id) in pending {
            if let Some(job) = entry(&mut open, created, id) {
                job.pending = true;
            }
        }
        for (created, id, shard, owner) in running {
            if let Some(job) = entry(&mut open, created, id) {
                match owner {
                    Some(owner) => job.owners.push((owner, count(shard))),
                    // Let go of (a cancelled job's): anyone may claim it, to end the job.
                    None => job.pending = true,
                }
            }
        }
        let mut jobs: Vec<OpenJob> = open.into_values().collect();
        for job in &mut jobs {
            job.owners.sort_by_key(|(_, shard)| *shard);
        }
        Ok(jobs)
    }

    /// How many of the job's shards are not done yet; `None` when it is recorded whole,
    /// without shards. One query, however many shards the job has.
    pub fn open_shards(&self, job_id: &JobId) -> Result<Option<u64>, StoreError> {
        let mut conn = self.conn()?;
        let (any, open): (i64, i64) = conn
            .db()
            .query_row(
                // By the index on (status, job_id): the open shards alone are read.
                "SELECT (SELECT count(*) FROM (SELECT 1 FROM job_shards WHERE job_id = ?1
                                               LIMIT 1) AS any_shard),
                        (SELECT count(*) FROM job_shards
                         WHERE status IN ('pending', 'running') AND job_id = ?1)",
                params![job_id.to_string()],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .ctx("count job shards")?;
        Ok((any > 0).then(|| count(open)))
    }
}

#[cfg(test)]
mod tests;
