//! Shards: a batch or an evaluation is split, when it is recorded, into runs of input
//! lines (about 16 a job, [`size_for`]; `server.shard_size` sets it) that the workers of every process on the
//! store claim one at a time ([`claim_next`]): `arbiter serve` replicas, `arbiter jobs
//! work`, the command that created the job. A shard is owned by the lease of the process
//! running it, as a job run whole is, and taken over alone when that process dies.
//! [`crate::core::runner`] runs a claimed shard; this module knows no kind of job's work.

use crate::core::Context;
use crate::error::Result;
use crate::ids::JobId;
use crate::store::{JobPart, NewShard, Shard, ShardStatus, TakenShard};
use crate::wire::jobs::ShardSummary;
use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::sync::Arc;
use tokio::sync::Notify;

/// Shards per job when `server.shard_size` is not set: enough that every slot of a few
/// replicas gets some (600 items in shards of 256 gave a second replica one of three, and
/// it cut the job's time only to 0.85).
pub const SHARDS_PER_JOB: usize = 16;
/// Items per shard, sized to the job, at least: a shard's claim, lease and progress cost a
/// few store writes, which a handful of items would not pay for.
pub const MIN_SHARD: usize = 16;
/// Items per shard, sized to the job, at most: the unit one worker holds.
pub const MAX_SHARD: usize = 256;

/// Items per shard of a job of `total` items: `configured` (`server.shard_size`) when set,
/// else about [`SHARDS_PER_JOB`] shards, within [`MIN_SHARD`] and [`MAX_SHARD`] items.
pub fn size_for(total: u64, configured: Option<NonZeroUsize>) -> NonZeroUsize {
    configured.unwrap_or_else(|| {
        let total = usize::try_from(total).unwrap_or(usize::MAX);
        let size = total.div_ceil(SHARDS_PER_JOB).clamp(MIN_SHARD, MAX_SHARD);
        NonZeroUsize::new(size).unwrap_or(NonZeroUsize::MIN)
    })
}

/// `parts` (each: the results it is, and the input lines it decides) cut into shards of
/// at most `size` lines, in order.
pub fn plan(parts: &[(JobPart, u64)], size: NonZeroUsize) -> Vec<NewShard> {
    let size = u64::try_from(size.get()).unwrap_or(u64::MAX);
    let mut shards = Vec::new();
    for &(part, lines) in parts {
        let mut first = 0;
        while first < lines {
            let run = size.min(lines - first);
            shards.push(NewShard {
                part,
                first,
                lines: run,
            });
            first += run;
        }
    }
    shards
}

/// How this process names itself in the shards it runs: `host:pid`.
pub fn worker_name() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .map(|name| name.trim().to_owned())
        .filter(|name| !name.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".to_owned());
    format!("{host}:{}", std::process::id())
}

/// This process runs shard [`ShardClaim::shard`], for as long as the value lives.
pub struct ShardClaim {
    ctx: Context,
    shard: Shard,
    all_taken: Arc<Notify>,
}

impl ShardClaim {
    pub fn shard(&self) -> &Shard {
        &self.shard
    }

    /// Notified once every item of the shard is in the engine's window, only the last few
    /// still deciding: when a process that follows a job claims its next shard, so that
    /// the window stays full across the boundary.
    pub fn all_taken(&self) -> Arc<Notify> {
        self.all_taken.clone()
    }
}

impl std::fmt::Debug for ShardClaim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ShardClaim")
            .field("job_id", &self.shard.job_id)
            .field("shard", &self.shard.index)
            .finish_non_exhaustive()
    }
}

impl Drop for ShardClaim {
    fn drop(&mut self) {
        if let Ok(lease) = self.ctx.lease() {
            lease.let_go_shard(&self.shard.job_id, self.shard.index);
        }
    }
}

/// Claim the next shard nobody alive runs, of job `only` or of any unfinished job, oldest
/// job first. A job with a cancel asked for that nobody was left to end is ended on the
/// way (and the search goes on).
pub fn claim_next(ctx: &Context, only: Option<&JobId>) -> Result<Option<ShardClaim>> {
    let lease = ctx.lease()?;
    // Read first: an idle worker looking every second costs no write transaction.
    let anything = ctx.store()?.open_sharded_jobs()?.iter().any(|job| {
        only.is_none_or(|only| *only == job.job_id)
            && (job.pending
                || job.owners.iter().any(|(owner, shard)| {
                    if owner == lease.id() {
                        !lease.holds_shard(&job.job_id, *shard)
                    } else {
                        !lease.is_alive(owner)
                    }
                }))
    });
    if !anything {
        return Ok(None);
    }
    let worker = worker_name();
    loop {
        let mut held = None;
        let mut taken_over = 0;
        let taken =
            ctx.store()?
                .claim_shard((lease.id(), &worker), only, &mut |job_id, shard, owner| {
                    // One at a time: the first one free is the one claimed.
                    if held.is_some() || !lease.take_over_shard(job_id, shard, owner) {
                        return false;
                    }
                    held = Some((*job_id, shard));
                    taken_over = u64::from(owner.is_some_and(|owner| owner != lease.id()));
                    true
                });
        let taken = match taken {
            Ok(taken) => taken,
            Err(error) => {
                if let Some((job_id, shard)) = held {
                    lease.let_go_shard(&job_id, shard);
                }
                return Err(error.into());
            }
        };
        match taken {
            None => {
                // A shard of a cancelled job a live worker still finishes: none this time.
                if let Some((job_id, shard)) = held {
                    lease.let_go_shard(&job_id, shard);
                }
                return Ok(None);
            }
            Some(TakenShard::Cancelled(job_id)) => {
                if let Some((job_id, shard)) = held {
                    lease.let_go_shard(&job_id, shard);
                }
                tracing::info!(job = %job_id, "ended a cancelled job nobody was running");
            }
            Some(TakenShard::Shard(shard)) => {
                crate::telemetry::metrics::job_takeovers(taken_over);
                if taken_over > 0 {
                    tracing::info!(job = %shard.job_id, shard = shard.index,
                        "taking over a shard whose worker died");
                }
                return Ok(Some(ShardClaim {
                    ctx: ctx.clone(),
                    shard,
                    all_taken: Arc::new(Notify::new()),
                }));
            }
        }
    }
}

/// Give a claimed shard back, unowned, for any worker to claim (this process stops).
pub fn release(ctx: &Context, claim: ShardClaim) -> Result<()> {
    let shard = claim.shard();
    ctx.store()?
        .release_shard((&shard.job_id, shard.index, ctx.lease()?.id()))?;
    drop(claim);
    Ok(())
}

/// The unfinished sharded jobs that no live process works on: none of their shards runs
/// under a live lease (their workers died, or none has claimed one yet), oldest first.
/// For a process without workers of its own (a command) to start one.
pub fn unattended(ctx: &Context) -> Result<Vec<JobId>> {
    let lease = ctx.lease()?;
    Ok(ctx
        .store()?
        .open_sharded_jobs()?
        .into_iter()
        .filter(|job| !job.owners.iter().any(|(owner, _)| lease.is_alive(owner)))
        .map(|job| job.job_id)
        .collect())
}

/// Whether job `job_id` has shards not yet done (then its shards are what is claimed).
pub fn has_open_shards(ctx: &Context, job_id: &JobId) -> Result<bool> {
    Ok(ctx
        .store()?
        .open_shards(job_id)?
        .is_some_and(|open| open > 0))
}

/// A sharded job's shards for people: how many, how many are done and running, and the
/// shards each worker ran (the last to run each). `None`: the job runs whole. Of a
/// `finished` job (cancelled, failed) no shard is running: one still marked so is left
/// undone, its worker stopping at its next chunk (it read `running: 2` after a cancel).
pub fn summary(ctx: &Context, job_id: &JobId, finished: bool) -> Result<Option<ShardSummary>> {
    let shards = ctx.store()?.job_shards(job_id)?;
    if shards.is_empty() {
        return Ok(None);
    }
    let mut workers: BTreeMap<String, u64> = BTreeMap::new();
    let mut summary = ShardSummary {
        total: shards.len() as u64,
        done: 0,
        running: 0,
        taken_over: 0,
        workers: BTreeMap::new(),
    };
    for shard in &shards {
        match shard.status {
            ShardStatus::Done => summary.done += 1,
            ShardStatus::Running if !finished => summary.running += 1,
            ShardStatus::Running | ShardStatus::Pending => {}
        }
        summary.taken_over += u64::from(shard.attempts > 1);
        if let Some(worker) = &shard.worker {
            *workers.entry(worker.clone()).or_default() += 1;
        }
    }
    summary.workers = workers;
    Ok(Some(summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_sized_to_the_job_unless_set() {
        let size = |total| size_for(total, None).get();
        // A few hundred items: sixteen shards, for the slots of several replicas.
        assert_eq!(size(600), 38);
        assert_eq!(600_usize.div_ceil(size(600)), SHARDS_PER_JOB);
        // Small jobs: shards of the least size (a job of 10 is one shard).
        assert_eq!(size(10), MIN_SHARD);
        assert_eq!(size(0), MIN_SHARD);
        // Large ones: shards of the most.
        assert_eq!(size(100_000), MAX_SHARD);
        assert_eq!(size(u64::MAX), MAX_SHARD);
        // A size that is set is the size.
        let set = NonZeroUsize::new(100).unwrap();
        assert_eq!(size_for(600, Some(set)), set);
    }

    #[test]
    fn parts_are_cut_into_runs_of_at_most_the_size() {
        let size = NonZeroUsize::new(4).unwrap();
        let shards = plan(&[(JobPart::Results, 10), (JobPart::Baseline, 4)], size);
        let runs: Vec<_> = shards.iter().map(|s| (s.part, s.first, s.lines)).collect();
        assert_eq!(
            runs,
            vec![
                (JobPart::Results, 0, 4),
                (JobPart::Results, 4, 4),
                (JobPart::Results, 8, 2),
                (JobPart::Baseline, 0, 4),
            ]
        );
        assert!(plan(&[(JobPart::Results, 0)], size).is_empty());
    }
}
