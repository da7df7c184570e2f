//! Ownership of a job by this process. The store records the owner (this process's lease,
//! `core::lease`); the lease records which of its jobs something here runs. A claim is
//! both, for as long as the value lives: dropping it lets go here, and the job stays owned
//! by this process until it is claimed again here, released ([`release`]), or this
//! process dies and its lease with it, when any process may claim it.

use crate::core::Context;
use crate::error::Result;
use crate::ids::JobId;

/// This process runs job [`JobClaim::job_id`].
pub struct JobClaim {
    job_id: JobId,
    ctx: Context,
}

impl std::fmt::Debug for JobClaim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobClaim")
            .field("job_id", &self.job_id)
            .finish_non_exhaustive()
    }
}

impl JobClaim {
    /// A claim on a job this process's lease already holds (`Lease::hold`).
    pub(super) fn held(ctx: &Context, job_id: JobId) -> Self {
        Self {
            job_id,
            ctx: ctx.clone(),
        }
    }

    pub fn job_id(&self) -> &JobId {
        &self.job_id
    }
}

impl Drop for JobClaim {
    fn drop(&mut self) {
        if let Ok(lease) = self.ctx.lease() {
            lease.let_go(&self.job_id);
        }
    }
}

/// Hold job `job_id`, which this process's lease owns in the store already (it completed
/// the job's last shard), so that nothing else here takes it up meanwhile; `None` when
/// something here already holds it.
pub fn hold(ctx: &Context, job_id: &JobId) -> Result<Option<JobClaim>> {
    Ok(ctx
        .lease()?
        .hold(job_id)
        .then(|| JobClaim::held(ctx, *job_id)))
}

/// Claim job `job_id` if nobody alive runs it.
pub fn claim(ctx: &Context, job_id: &JobId) -> Result<Option<JobClaim>> {
    Ok(claim_where(ctx, Some(job_id))?.pop())
}

/// Claim every unfinished job that nobody alive runs (its process died, or the server
/// that queued it stopped), oldest first.
pub fn claim_orphans(ctx: &Context) -> Result<Vec<JobClaim>> {
    claim_where(ctx, None)
}

fn claim_where(ctx: &Context, only: Option<&JobId>) -> Result<Vec<JobClaim>> {
    let lease = ctx.lease()?;
    let mut taken = Vec::new();
    // Claimed from another process, whose lease had died (not released, not ours).
    let mut taken_over = 0u64;
    let claimed = ctx
        .store()?
        .claim_jobs(lease.id(), only, &mut |job_id, owner| {
            let free = lease.take_over(job_id, owner);
            if free {
                taken.push(*job_id);
                taken_over += u64::from(owner.is_some_and(|owner| owner != lease.id()));
            }
            free
        });
    match claimed {
        Ok(claimed) => {
            crate::telemetry::metrics::job_takeovers(taken_over);
            Ok(claimed
                .into_iter()
                .inspect(|job_id| {
                    if only.is_none() {
                        tracing::info!(job = %job_id, "taking up an orphaned job");
                    }
                })
                .map(|job_id| JobClaim::held(ctx, job_id))
                .collect())
        }
        Err(error) => {
            // Nothing was recorded: what was held for the claim is let go.
            for job_id in &taken {
                lease.let_go(job_id);
            }
            Err(error.into())
        }
    }
}

/// Give the job up, unowned, for another process to claim (a detached worker).
pub fn release(ctx: &Context, claim: JobClaim) -> Result<()> {
    ctx.store()?.release_job(&claim.job_id, ctx.lease()?.id())?;
    drop(claim);
    Ok(())
}
