//! Running shards: one claimed shard to its end ([`run_shard`]), a job whose shards all
//! processes share followed from here to its end ([`drive`]), and the ending of a job
//! whose shards are all done ([`conclude`]), by exactly one process.

use super::JobSpec;
use crate::core::jobs::shards::{self, ShardClaim};
use crate::core::jobs::{self, JobClaim, JobPart, Observer, Origin, Outcome};
use crate::core::{Context, batch, blocking, eval};
use crate::error::{Error, Result};
use crate::ids::JobId;
use crate::store::{JobRecord, ShardEnd, ShardStats};
use crate::wire::jobs::{Job, JobResult};
use futures_util::StreamExt;
use futures_util::stream::FuturesUnordered;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Notify;

/// How often a job followed here is looked at (its progress, its new result lines).
const TICK: Duration = Duration::from_millis(200);

/// Run the shard `claim` holds until its lines all have results, the job is cancelled or
/// fails, or the shard stops being this process's. The worker that completes a job's
/// last shard ends the job. Only a store out of reach is an error here: the shard is left
/// as it is, for this process or another to resume.
#[tracing::instrument(level = "trace", name = "shard", skip_all,
    fields(job_id = %claim.shard().job_id, shard = claim.shard().index))]
pub async fn run_shard(ctx: &Context, claim: ShardClaim) -> Result<()> {
    let shard = claim.shard().clone();
    let all_taken = claim.all_taken();
    let job_id = shard.job_id;
    let record = {
        let ctx = ctx.clone();
        blocking(move || jobs::record(&ctx, &job_id)).await?
    };
    if record.state.is_finished() {
        return Ok(());
    }
    let me = ctx.lease()?.id().to_owned();
    let at = (job_id, shard.index, me);
    let spec = match JobSpec::read(&record) {
        Ok(spec) => spec,
        Err(error) => {
            let problem = Origin::local(ctx, &job_id).problem(&error);
            return fail_from_shard(ctx, at, &error, &problem).await;
        }
    };
    spec.origin().link(&tracing::Span::current());
    let worked = match &spec {
        JobSpec::Batch(spec) => batch::work_shard(ctx, &record, spec, (&shard, &all_taken)).await,
        JobSpec::Evaluation(spec) => {
            eval::work_shard(ctx, &record, spec, (&shard, &all_taken)).await
        }
        JobSpec::Alignment(_) => Err(Error::bug(format!("alignment {job_id} has shards"))),
    };
    let stats = match worked {
        Err(error @ Error::StoreUnavailable(_)) => {
            tracing::warn!(job = %job_id, shard = shard.index, %error,
                "job interrupted; it resumes once the store is back");
            return Err(error);
        }
        Err(error) => {
            let problem = spec.origin().problem(&error);
            return fail_from_shard(ctx, at, &error, &problem).await;
        }
        Ok(None) => {
            // Stopped: a cancel (which this worker ends the job for), or the shard or the
            // job is no longer this process's.
            let cancelled = {
                let ctx = ctx.clone();
                blocking(move || Ok(ctx.store()?.job_cancel_requested(&job_id)?)).await?
            };
            if cancelled {
                end_from_shard(ctx, at, None).await?;
            }
            return Ok(());
        }
        Ok(Some(stats)) => stats,
    };
    let ended = {
        let (ctx, at) = (ctx.clone(), at.clone());
        blocking(move || Ok(ctx.store()?.complete_shard((&at.0, at.1, &at.2), &stats)?)).await?
    };
    if ended == ShardEnd::Lost {
        tracing::info!(job = %job_id, shard = shard.index, "shard no longer this process's");
    } else {
        tracing::info!(job = %job_id, shard = shard.index, first_line = shard.first,
            items = shard.lines, worker = %shards::worker_name(), "shard done");
    }
    drop(claim);
    if ended == ShardEnd::Last {
        let held = {
            let ctx = ctx.clone();
            blocking(move || jobs::claim::hold(&ctx, &job_id)).await?
        };
        if let Some(held) = held {
            conclude(ctx, held).await?;
        }
    }
    Ok(())
}

/// End the job `failed` with `problem` from its shard `at`.
async fn fail_from_shard(
    ctx: &Context,
    at: (JobId, u64, String),
    error: &Error,
    problem: &crate::wire::Problem,
) -> Result<()> {
    tracing::warn!(job = %at.0, shard = at.1, %error, "job failed");
    let problem =
        serde_json::to_string(problem).map_err(|e| Error::internal("serializing a problem", e))?;
    end_from_shard(ctx, at, Some(problem)).await
}

/// End the job from its shard `at`: `failed` with `problem`, else `cancelled`.
async fn end_from_shard(
    ctx: &Context,
    (job_id, shard, me): (JobId, u64, String),
    problem: Option<String>,
) -> Result<()> {
    let ctx = ctx.clone();
    blocking(move || {
        ctx.store()?
            .end_job_from_shard((&job_id, shard, &me), problem.as_deref())?;
        Ok(())
    })
    .await
}

/// End a job whose shards are all done, which `claim` holds (its owner in the store is
/// this process): its result is computed from what the shards stored, and recorded once.
pub(super) async fn conclude(ctx: &Context, claim: JobClaim) -> Result<Job> {
    let job_id = *claim.job_id();
    let record = {
        let ctx = ctx.clone();
        blocking(move || jobs::record(&ctx, &job_id)).await?
    };
    if !record.state.is_finished() {
        let outcome = match outcome(ctx, &record).await {
            Err(error @ Error::StoreUnavailable(_)) => return Err(error),
            Err(error) => {
                tracing::warn!(job = %job_id, %error, "job failed");
                let origin = JobSpec::read(&record).map_or_else(
                    |_| Origin::local(ctx, &job_id),
                    |spec| spec.origin().clone(),
                );
                Outcome::Failed {
                    problem: origin.problem(&error),
                }
            }
            Ok(result) => Outcome::Completed { result },
        };
        let ctx = ctx.clone();
        let ended = blocking(move || {
            Ok(ctx
                .store()?
                .finish_job(&job_id, ctx.lease()?.id(), &outcome, None)?)
        })
        .await?;
        if ended {
            tracing::info!(job = %job_id, "job ended by the worker of its last shard");
        }
    }
    drop(claim);
    let ctx = ctx.clone();
    blocking(move || jobs::get(&ctx, &job_id)).await
}

/// The result of a job whose shards are all done, from what they stored.
async fn outcome(ctx: &Context, record: &JobRecord) -> Result<JobResult> {
    match JobSpec::read(record)? {
        JobSpec::Batch(_) => {
            let (ctx, job_id) = (ctx.clone(), record.job_id);
            let shards = blocking(move || Ok(ctx.store()?.job_shards(&job_id)?)).await?;
            let mut total = ShardStats::default();
            for shard in &shards {
                let s = shard.stats;
                total.done += s.done;
                total.failed += s.failed;
                total.input_tokens += s.input_tokens;
                total.output_tokens += s.output_tokens;
                total.timed += s.timed;
                total.latency_us += s.latency_us;
            }
            Ok(batch::summary(&total))
        }
        JobSpec::Evaluation(spec) => eval::conclude(ctx, record, spec).await,
        JobSpec::Alignment(_) => Err(Error::bug(format!(
            "alignment {} has shards",
            record.job_id
        ))),
    }
}

/// Follow a sharded job from here to its end: run its shards that nobody else runs, and
/// hand `observer` its progress and (when it wants them) its result lines in input order,
/// whichever process wrote them. A shard is claimed when the last one claimed here has
/// every item in the engine's window ([`ShardClaim::all_taken`]), so at most two run here
/// at once, the second only while the first finishes its last few: the window stays full
/// across a boundary, and a process does not hold a shard it is not yet deciding. Ends the
/// job should the worker of its last shard have died before doing so.
pub async fn drive(ctx: &Context, job_id: JobId, observer: &dyn Observer) -> Result<Job> {
    let mut shown = 0u64;
    let mut running = FuturesUnordered::new();
    // The notice of the last shard claimed here, until its items are all taken.
    let mut filling: Option<Arc<Notify>> = None;
    let mut ticker = tokio::time::interval(TICK);
    loop {
        if filling.is_none() {
            let claimed = {
                let ctx = ctx.clone();
                blocking(move || shards::claim_next(&ctx, Some(&job_id))).await?
            };
            if let Some(claim) = claimed {
                filling = Some(claim.all_taken());
                running.push(run_shard(ctx, claim));
            }
        }
        tokio::select! {
            Some(worked) = running.next(), if !running.is_empty() => {
                worked?;
                if running.is_empty() {
                    filling = None;
                }
            }
            () = taken(filling.clone()) => filling = None,
            _ = ticker.tick() => {}
        }
        let job = show(ctx, &job_id, observer, &mut shown).await?;
        if job.status.is_finished() {
            // A shard still running here sees the end at its next tick; wait for it.
            while let Some(worked) = running.next().await {
                worked?;
            }
            return Ok(job);
        }
        if running.is_empty() && job.shards.as_ref().is_some_and(|s| s.done == s.total) {
            // Every shard is done and the job is not ended: its last worker is ending it,
            // or died first (then it is this process's to end).
            let orphan = {
                let ctx = ctx.clone();
                blocking(move || jobs::claim(&ctx, &job_id)).await?
            };
            if let Some(claim) = orphan {
                conclude(ctx, claim).await?;
            }
        }
    }
}

/// Once `notice` is given: every item of the shard it is of is taken. Never, without one.
async fn taken(notice: Option<Arc<Notify>>) {
    match notice {
        Some(notice) => notice.notified().await,
        None => std::future::pending().await,
    }
}

/// Hand `observer` the job's progress and its result lines from `shown` on that are
/// written, up to the first not yet written; the job as it is now.
async fn show(
    ctx: &Context,
    job_id: &JobId,
    observer: &dyn Observer,
    shown: &mut u64,
) -> Result<Job> {
    let (ctx, id) = (ctx.clone(), *job_id);
    let wants = observer.wants_lines();
    let from = *shown;
    let (job, lines) = blocking(move || {
        let job = jobs::get(&ctx, &id)?;
        let mut lines = Vec::new();
        // The lines written from `from` on, up to the first one not yet written.
        let mut next = from;
        if wants {
            loop {
                let page =
                    ctx.store()?
                        .job_lines(&id, JobPart::Results, next, jobs::lines::CHUNK)?;
                let full = page.len() == jobs::lines::CHUNK;
                let mut gap = false;
                for (index, line) in page {
                    if index != next {
                        gap = true;
                        break;
                    }
                    lines.push(line);
                    next += 1;
                }
                if gap || !full {
                    break;
                }
            }
        }
        Ok((job, lines))
    })
    .await?;
    for mut line in lines {
        line.push(b'\n');
        observer.line(&line);
        *shown += 1;
    }
    observer.progress(job.progress);
    Ok(job)
}
