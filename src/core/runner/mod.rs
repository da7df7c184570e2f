//! Taking one claimed job to its end: read what it runs from ([`JobSpec`]), start it, do
//! its kind's work, record how it ended. The kinds of job ([`batch`], [`eval`], [`align`])
//! know nothing of this module: it calls them, never the other way round.

mod queue;
pub mod shards;
mod spec;

pub use queue::JobQueue;
pub use shards::{drive, run_shard};
pub(crate) use spec::JobSpec;

use crate::core::jobs::{Ending, JobClaim, Observer, Origin, Outcome, get};
use crate::core::{Context, align, batch, blocking, eval};
use crate::error::{Error, Result};
use crate::store::JobRecord;
use crate::wire::jobs::Job;

/// Run the job `claim` holds until it ends, resuming from its last finished item when an
/// earlier run died. A finished job is returned as it is. Errors of the work end the job
/// `failed` with a problem; only a failure to record that is an error here. A job that
/// stops being this process's (another replica claimed it after this one's lease lapsed)
/// is left to its new owner: nothing this run would record is written. A job interrupted
/// because the store cannot be reached is no failure of the job: it is left unfinished and
/// let go, for the next sweep to resume once the store is back, and the error is returned.
#[tracing::instrument(level = "trace", name = "job", skip_all, fields(job_id = %claim.job_id()))]
pub async fn run(ctx: &Context, claim: JobClaim, observer: &dyn Observer) -> Result<Job> {
    let job_id = *claim.job_id();
    let record = {
        let ctx = ctx.clone();
        blocking(move || crate::core::jobs::record(&ctx, &job_id)).await?
    };
    if record.state.is_finished() {
        return Ok(crate::core::jobs::to_wire(record));
    }
    let open_shards = {
        let ctx = ctx.clone();
        blocking(move || Ok(ctx.store()?.open_shards(&job_id)?)).await?
    };
    // Its shards are what is run, by any process; claimed whole, it is one whose shards
    // are all done, to end.
    match open_shards {
        Some(0) => return shards::conclude(ctx, claim).await,
        Some(_) => {
            drop(claim);
            return shards::drive(ctx, job_id, observer).await;
        }
        None => {}
    }
    // A request this build cannot read fails the job, with problems as a local job's.
    let (ending, origin) = match JobSpec::read(&record) {
        Err(error) => (Err(error), Origin::local(ctx, &job_id)),
        Ok(spec) => {
            let origin = spec.origin().clone();
            origin.link(&tracing::Span::current());
            let ending = if record.cancel_requested {
                Ok(Some(Ending::Cancelled))
            } else {
                start_and_work(ctx, &record, spec, observer).await
            };
            (ending, origin)
        }
    };
    let outcome = match ending {
        Ok(None) => None,
        Ok(Some(Ending::Completed(result))) => Some(Outcome::Completed { result }),
        Ok(Some(Ending::Cancelled)) => Some(Outcome::Cancelled),
        Err(error @ Error::StoreUnavailable(_)) => {
            // Even if the store is back by now, the job is not ended `failed` for it.
            tracing::warn!(job = %job_id, %error, "job interrupted; it resumes once the store is back");
            drop(claim);
            return Err(error);
        }
        Err(error) => {
            tracing::warn!(job = %job_id, %error, "job failed");
            Some(Outcome::Failed {
                problem: origin.problem(&error),
            })
        }
    };
    let ctx = ctx.clone();
    blocking(move || {
        if let Some(outcome) = outcome {
            ctx.store()?
                .finish_job(&job_id, ctx.lease()?.id(), &outcome, None)?;
        }
        // The claim goes only once the ending is recorded, so nobody resumes a finished job.
        drop(claim);
        get(&ctx, &job_id)
    })
    .await
}

/// Mark the job running and do its work; `None` when it may not start (cancelled while
/// queued).
async fn start_and_work(
    ctx: &Context,
    record: &JobRecord,
    spec: JobSpec,
    observer: &dyn Observer,
) -> Result<Option<Ending>> {
    let started = {
        let (ctx, id, total) = (ctx.clone(), record.job_id, record.total);
        blocking(move || {
            crate::core::jobs::import_legacy(&ctx, &id)?;
            Ok(ctx.store()?.start_job(&id, ctx.lease()?.id(), total)?)
        })
        .await?
    };
    if !started {
        return Ok(None);
    }
    let ending = match spec {
        JobSpec::Batch(spec) => batch::execute(ctx, record, spec, observer).await?,
        JobSpec::Alignment(spec) => align::execute(ctx, record, spec, observer).await?,
        JobSpec::Evaluation(spec) => eval::execute(ctx, record, spec, observer).await?,
    };
    Ok(Some(ending))
}

#[cfg(test)]
mod tests;
