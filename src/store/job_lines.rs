//! A job's lines: its staged input and its results, one row per line, numbered from 0.
//!
//! Lines are written in chunks (one transaction per chunk, never the whole input as one
//! value) and read back in pages. A line is written once: a line number taken is kept
//! (`ON CONFLICT DO NOTHING`), and result lines are only written by the job's owner, checked
//! in the same transaction, so a replica that lost its job (its lease expired while it
//! was cut off) can no longer add to the results the new owner writes.

use super::sql::{Db, SqlContext, params};
use super::{Store, StoreError, count, int};
use crate::ids::JobId;

/// Which lines of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobPart {
    /// The items, staged when the job is created.
    Input,
    /// One result per item, in input order (a batch; an evaluation's checkpoint).
    Results,
    /// An evaluation's results at its baseline checkpoint.
    Baseline,
}

impl JobPart {
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Self::Input => "input",
            Self::Results => "results",
            Self::Baseline => "baseline",
        }
    }

    pub(super) fn parse(text: &str) -> Option<Self> {
        [Self::Input, Self::Results, Self::Baseline]
            .into_iter()
            .find(|part| part.as_str() == text)
    }
}

/// Who may write lines, checked in the transaction that writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fence<'a> {
    /// Anyone (the input, staged before the job exists).
    None,
    /// The lease that owns the job (a job run whole).
    Job(&'a str),
    /// The lease that owns shard `shard` of the running job (a sharded job): a shard taken
    /// over, or a job that completed or failed, takes no more lines from it; a cancelled
    /// job keeps what its running shards finish before they stop.
    Shard { shard: u64, owner: &'a str },
}

impl Store {
    /// Write `lines` (line number, body without its newline) of `part`, while `fence`
    /// holds: false, and nothing written, when it no longer does.
    pub fn put_job_lines(
        &self,
        job_id: &JobId,
        part: JobPart,
        fence: Fence<'_>,
        lines: &[(u64, Vec<u8>)],
    ) -> Result<bool, StoreError> {
        self.write("write job lines", |tx| {
            let allowed = match fence {
                Fence::None => true,
                Fence::Job(owner) => owns(tx, job_id, owner)?,
                Fence::Shard { shard, owner } => owns_shard(tx, job_id, shard, owner)?,
            };
            if !allowed {
                return Ok(false);
            }
            for (index, body) in lines {
                tx.execute(
                    "INSERT INTO job_lines (job_id, part, idx, body) VALUES (?1, ?2, ?3, ?4)
                     ON CONFLICT (job_id, part, idx) DO NOTHING",
                    params![job_id.to_string(), part.as_str(), int(*index), body],
                )
                .ctx("write job line")?;
            }
            Ok(true)
        })
    }

    /// Up to `limit` lines of `part` from line number `from` on, in order.
    pub fn job_lines(
        &self,
        job_id: &JobId,
        part: JobPart,
        from: u64,
        limit: usize,
    ) -> Result<Vec<(u64, Vec<u8>)>, StoreError> {
        let mut conn = self.conn()?;
        conn.db()
            .query_map(
                "SELECT idx, body FROM job_lines WHERE job_id = ?1 AND part = ?2 AND idx >= ?3
                 ORDER BY idx LIMIT ?4",
                params![
                    job_id.to_string(),
                    part.as_str(),
                    int(from),
                    i64::try_from(limit).unwrap_or(i64::MAX)
                ],
                |row| Ok((count(row.get(0)?), row.get(1)?)),
            )
            .ctx("read job lines")
    }

    /// Remove every line of a job (a creation that failed half-way).
    pub fn delete_job_lines(&self, job_id: &JobId) -> Result<(), StoreError> {
        self.write("delete job lines", |tx| {
            tx.execute(
                "DELETE FROM job_lines WHERE job_id = ?1",
                params![job_id.to_string()],
            )
            .ctx("delete job lines")?;
            Ok(())
        })
    }
}

/// Whether a cancel has been asked for job `job_id`, read in `db` (true for a job that no
/// longer exists).
pub(super) fn cancel_requested(db: &mut Db<'_>, job_id: &JobId) -> Result<bool, StoreError> {
    let cancel: Option<bool> = db
        .query_opt(
            "SELECT cancel_requested FROM jobs WHERE job_id = ?1",
            params![job_id.to_string()],
            |r| r.get(0),
        )
        .ctx("read cancel request")?;
    Ok(cancel.unwrap_or(true))
}

/// Whether lease `owner` owns the job, read inside the caller's write transaction.
pub(super) fn owns(tx: &mut Db<'_>, job_id: &JobId, owner: &str) -> Result<bool, StoreError> {
    let current: Option<Option<String>> = tx
        .query_opt(
            "SELECT owner FROM jobs WHERE job_id = ?1",
            params![job_id.to_string()],
            |row| row.get(0),
        )
        .ctx("read job owner")?;
    Ok(current.flatten().as_deref() == Some(owner))
}

/// Whether lease `owner` runs shard `shard` of a running (or cancelled) job, read inside the caller's
/// write transaction.
fn owns_shard(
    tx: &mut Db<'_>,
    job_id: &JobId,
    shard: u64,
    owner: &str,
) -> Result<bool, StoreError> {
    tx.query_opt(
        "SELECT 1 FROM job_shards s JOIN jobs j ON j.job_id = s.job_id
         WHERE s.job_id = ?1 AND s.shard = ?2 AND s.owner = ?3 AND s.status = 'running'
           AND j.status IN ('running', 'cancelled')",
        params![job_id.to_string(), int(shard), owner],
        |_| Ok(()),
    )
    .map(|found| found.is_some())
    .ctx("read shard owner")
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use super::*;
    use crate::ids::ModelId;
    use crate::store::NewJob;
    use crate::wire::jobs::JobKind;

    fn lines(range: std::ops::Range<u64>) -> Vec<(u64, Vec<u8>)> {
        range
            .map(|i| (i, format!("{{\"i\":{i}}}").into_bytes()))
            .collect()
    }

    #[test]
    fn lines_are_read_in_pages_and_never_written_twice() {
        let store = store();
        let job = JobId::new_v4();
        assert!(
            store
                .put_job_lines(&job, JobPart::Input, Fence::None, &lines(0..5))
                .unwrap()
        );
        // A line number already taken keeps its first body.
        let again = vec![(4, b"other".to_vec()), (5, b"{\"i\":5}".to_vec())];
        assert!(
            store
                .put_job_lines(&job, JobPart::Input, Fence::None, &again)
                .unwrap()
        );
        let first = store.job_lines(&job, JobPart::Input, 0, 4).unwrap();
        assert_eq!(first, lines(0..4));
        let rest = store.job_lines(&job, JobPart::Input, 4, 100).unwrap();
        assert_eq!(rest, lines(4..6));
        assert!(
            store
                .job_lines(&job, JobPart::Results, 0, 10)
                .unwrap()
                .is_empty()
        );
        store.delete_job_lines(&job).unwrap();
        assert!(
            store
                .job_lines(&job, JobPart::Input, 0, 10)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn only_the_owner_writes_results() {
        let store = store();
        let job = JobId::new_v4();
        store
            .insert_job(&NewJob {
                job_id: &job,
                model_id: &ModelId::from(uuid::Uuid::from_u128(1)),
                kind: JobKind::Batch,
                request: &serde_json::json!({}),
                total: 2,
                owner: Some("lease-a"),
                shards: &[],
            })
            .unwrap();
        let put = |owner, range| {
            store
                .put_job_lines(&job, JobPart::Results, Fence::Job(owner), &lines(range))
                .unwrap()
        };
        assert!(put("lease-a", 0..1));
        assert!(!put("lease-b", 1..2), "not the owner");
        assert_eq!(
            store.job_lines(&job, JobPart::Results, 0, 10).unwrap(),
            lines(0..1)
        );
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            lines_are_read_in_pages_and_never_written_twice,
            only_the_owner_writes_results
        );
    }
}
