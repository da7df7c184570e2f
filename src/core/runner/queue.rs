//! The jobs of a process that serves them (`arbiter serve`, `arbiter jobs work`): shards
//! of any process's batches and evaluations, claimed by this process's workers, and jobs
//! run whole (alignments), in-process; at most `server.max_running_jobs` of them at a
//! time, the rest waiting `queued`.

use super::{run, run_shard};
use crate::core::jobs::{JobClaim, NoObserver};
use crate::core::{Context, blocking};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{Notify, Semaphore};

/// How often an idle worker looks for a shard nobody runs, besides being woken when a job
/// is submitted here.
const IDLE_LOOK: Duration = Duration::from_secs(1);

/// Runs submitted jobs and claimed shards in the background of this process.
#[derive(Clone)]
pub struct JobQueue {
    ctx: Context,
    slots: Arc<Semaphore>,
    /// Wakes the idle workers: a job with shards was submitted here.
    work: Arc<Notify>,
    workers: usize,
}

impl JobQueue {
    pub fn new(ctx: Context, max_running: usize) -> Self {
        Self {
            ctx,
            slots: Arc::new(Semaphore::new(max_running.max(1))),
            work: Arc::new(Notify::new()),
            workers: max_running.max(1),
        }
    }

    /// Jobs and shards run at once at most (`server.max_running_jobs`).
    pub fn capacity(&self) -> usize {
        self.workers
    }

    /// Run the job `claim` holds once a slot is free; returns at once. The claim is held
    /// while the job waits, so no other process takes it up as orphaned. A job with shards
    /// is handed to the workers ([`Self::work_shards`]) of every process instead.
    pub fn submit(&self, claim: JobClaim) {
        let (ctx, slots, work) = (self.ctx.clone(), self.slots.clone(), self.work.clone());
        tokio::spawn(async move {
            let job_id = claim.job_id().to_owned();
            let open = {
                let ctx = ctx.clone();
                blocking(move || crate::core::jobs::shards::has_open_shards(&ctx, &job_id)).await
            };
            if matches!(open, Ok(true)) {
                drop(claim);
                work.notify_waiters();
                return;
            }
            // The semaphore is never closed, so acquiring only fails if it were.
            let Ok(_slot) = slots.acquire_owned().await else {
                return;
            };
            // Background work: it computes on the pool that yields the cores to decisions.
            let ran = crate::parallel::in_the_background(run(&ctx, claim, &NoObserver)).await;
            if let Err(error) = ran {
                tracing::error!(job = %job_id, %error, "the job stopped before its end was recorded; the next sweep resumes it");
            }
        });
    }

    /// Start this process's shard workers, one per slot: each claims the next shard that
    /// nobody alive runs, of any job on the store, runs it, and looks again; until the
    /// returned tasks are aborted.
    pub fn work_shards(&self) -> Vec<tokio::task::JoinHandle<()>> {
        (0..self.workers)
            .map(|_| {
                let queue = self.clone();
                tokio::spawn(async move { queue.shard_worker().await })
            })
            .collect()
    }

    async fn shard_worker(&self) {
        loop {
            // Registered before looking, so a submit while looking is not missed.
            let woken = self.work.notified();
            let Ok(slot) = self.slots.clone().acquire_owned().await else {
                return;
            };
            let ctx = self.ctx.clone();
            let claimed = blocking(move || crate::core::jobs::shards::claim_next(&ctx, None)).await;
            match claimed {
                Ok(Some(claim)) => {
                    let shard = claim.shard().clone();
                    let ran = crate::parallel::in_the_background(run_shard(&self.ctx, claim)).await;
                    if let Err(error) = ran {
                        tracing::error!(job = %shard.job_id, shard = shard.index, %error,
                            "the shard stopped before its end was recorded; it is resumed later");
                        drop(slot);
                        tokio::time::sleep(IDLE_LOOK).await;
                    }
                    continue;
                }
                Ok(None) => {}
                Err(error) => tracing::warn!(%error, "looking for shards to run failed"),
            }
            drop(slot);
            let _ = tokio::time::timeout(IDLE_LOOK, woken).await;
        }
    }

    /// Keep taking up orphans every `every` (a detached command-line worker killed while
    /// this server runs, a replica that died) until the returned task is aborted.
    pub fn watch_orphans(&self, every: std::time::Duration) -> tokio::task::JoinHandle<()> {
        let queue = self.clone();
        tokio::spawn(async move {
            let mut ticker = tokio::time::interval(every);
            ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            ticker.tick().await;
            loop {
                ticker.tick().await;
                match queue.resume_orphans().await {
                    Ok(0) => {}
                    Ok(count) => tracing::info!(count, "resuming jobs whose worker died"),
                    Err(error) => tracing::warn!(%error, "looking for orphaned jobs failed"),
                }
            }
        })
    }

    /// Take up the jobs that nobody runs (a restart after a crash, a worker killed).
    pub async fn resume_orphans(&self) -> crate::error::Result<usize> {
        let ctx = self.ctx.clone();
        let orphans = crate::core::blocking(move || crate::core::jobs::recover(&ctx)).await?;
        let count = orphans.len();
        for claim in orphans {
            self.submit(claim);
        }
        Ok(count)
    }
}
