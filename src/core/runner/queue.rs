//! The server's jobs: run in-process, at most `server.max_running_jobs` at a time, the
//! rest waiting `queued` in submission order.

use super::run;
use crate::core::Context;
use crate::core::jobs::{JobClaim, NoObserver};
use std::sync::Arc;
use tokio::sync::Semaphore;

/// Runs submitted jobs in the background of this process.
#[derive(Clone)]
pub struct JobQueue {
    ctx: Context,
    slots: Arc<Semaphore>,
}

impl JobQueue {
    pub fn new(ctx: Context, max_running: usize) -> Self {
        Self {
            ctx,
            slots: Arc::new(Semaphore::new(max_running.max(1))),
        }
    }

    /// Run the job `claim` holds once a slot is free; returns at once. The claim is held
    /// while the job waits, so no other process takes it up as orphaned.
    pub fn submit(&self, claim: JobClaim) {
        let (ctx, slots) = (self.ctx.clone(), self.slots.clone());
        tokio::spawn(async move {
            // The semaphore is never closed, so acquiring only fails if it were.
            let Ok(_slot) = slots.acquire_owned().await else {
                return;
            };
            let job_id = claim.job_id().to_owned();
            if let Err(error) = run(&ctx, claim, &NoObserver).await {
                tracing::error!(job = %job_id, %error, "the job stopped before its end was recorded; the next sweep resumes it");
            }
        });
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
