//! Jobs as a caller may see them: listed, read, cancelled and created under the role and
//! scope their kind needs.

use super::{LIST_JOBS, Need, Permitted, authorize, model_paths, scope_of};
use crate::core::batch::NewBatch;
use crate::core::jobs;
use crate::core::requests::JobRequest;
use crate::core::tokens::{Principal, Role};
use crate::core::{Context, blocking};
use crate::error::{Error, Result};
use crate::ids::{JobId, ModelRef};
use crate::wire::jobs::{Job, JobKind, JobStatus};

/// Job `job_id` if `principal` may read it: a job on a model the token cannot see is not
/// found, exactly as if it did not exist; the scope of its kind is checked after that.
fn visible(ctx: &Context, principal: &Principal, job_id: &JobId) -> Result<Job> {
    let job = jobs::get(ctx, job_id)?;
    if principal.is_owner() {
        return Ok(job);
    }
    let not_found = || Error::JobNotFound(job_id.to_string());
    let path = crate::core::models::open_by_id(ctx, &job.model_id)
        .map_err(|_| not_found())?
        .path()
        .to_string();
    if principal.role_on(&path).is_none() {
        return Err(not_found());
    }
    principal.require_scope(scope_of(job.kind))?;
    principal.require_role(&path, Role::Reader)?;
    Ok(job)
}

/// The job `job_id`, by its ID alone, if `principal` may read it.
pub async fn visible_job(ctx: &Context, principal: &Principal, job_id: &JobId) -> Result<Job> {
    let (ctx, principal, job_id) = (ctx.clone(), principal.clone(), *job_id);
    blocking(move || visible(&ctx, &principal, &job_id)).await
}

/// Cancel the job `job_id` if `principal` may read it (idempotent: a finished job stays as
/// it finished).
pub async fn cancel_visible_job(
    ctx: &Context,
    principal: &Principal,
    job_id: &JobId,
) -> Result<Job> {
    let (ctx, principal, job_id) = (ctx.clone(), principal.clone(), *job_id);
    blocking(move || {
        let job = visible(&ctx, &principal, &job_id)?;
        jobs::cancel(&ctx, &job.job_id)
    })
    .await
}

/// Which jobs to list.
#[derive(Debug, Clone, Default)]
pub struct JobListing {
    /// One model, which the caller was permitted to read; else every model it can see.
    pub model: Option<Permitted>,
    /// Only these kinds (empty: every kind).
    pub kinds: Vec<JobKind>,
    /// Only these statuses (empty: every status).
    pub statuses: Vec<JobStatus>,
    /// Only jobs whose ID starts with this.
    pub id_prefix: Option<String>,
    /// At most this many.
    pub limit: usize,
}

/// The jobs `principal` may read, newest first: on models it can see, of kinds whose scope
/// it holds.
pub async fn visible_jobs(
    ctx: &Context,
    principal: &Principal,
    listing: JobListing,
) -> Result<Vec<Job>> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    blocking(move || {
        let model_id = match &listing.model {
            Some(permitted) => {
                let path = permitted.model_for(LIST_JOBS)?;
                Some(crate::core::models::open(&ctx, &path)?.model_id())
            }
            None => None,
        };
        // One model, already authorized, or the owner: every job is on a visible model.
        let paths = match model_id {
            Some(_) => None,
            None if principal.is_owner() => None,
            None => Some(model_paths(&ctx)?),
        };
        // The store stops at `limit` when no job it lists can be dropped here: every model
        // is visible, every kind is wanted and its scope held, and no prefix is asked for.
        let every_kind = <JobKind as strum::VariantArray>::VARIANTS
            .iter()
            .all(|kind| principal.has_scope(scope_of(*kind)));
        let every_one = paths.is_none()
            && every_kind
            && listing.kinds.is_empty()
            && listing.id_prefix.is_none();
        let stop = if every_one { listing.limit } else { 0 };
        let mut jobs = jobs::list(&ctx, model_id.as_ref(), &listing.statuses, stop)?;
        jobs.retain(|job| {
            (listing.kinds.is_empty() || listing.kinds.contains(&job.kind))
                && listing
                    .id_prefix
                    .as_deref()
                    .is_none_or(|prefix| job.job_id.to_string().starts_with(prefix))
                && principal.has_scope(scope_of(job.kind))
                && paths.as_ref().is_none_or(|paths| {
                    paths
                        .get(&job.model_id)
                        .is_some_and(|path| principal.role_on(path).is_some())
                })
        });
        jobs.truncate(listing.limit);
        Ok(jobs)
    })
    .await
}

/// The job of `kind` under `model`, if `principal` may read the model; else not found.
pub async fn job_under(
    ctx: &Context,
    principal: &Principal,
    model: &ModelRef,
    kind: JobKind,
    job_id: &JobId,
) -> Result<Job> {
    let (ctx, principal) = (ctx.clone(), principal.clone());
    let (model, job_id) = (model.clone(), *job_id);
    blocking(move || {
        authorize(&ctx, &principal, &model, Role::Reader)?;
        let id = crate::core::models::open(&ctx, &model)?.model_id();
        jobs::get_under(&ctx, &id, kind, &job_id)
    })
    .await
}

/// Cancel a job (idempotent; a finished job stays as it finished). The caller has found
/// it visible ([`job_under`]).
pub async fn cancel_job(ctx: &Context, job_id: &JobId) -> Result<Job> {
    let (ctx, job_id) = (ctx.clone(), *job_id);
    blocking(move || jobs::cancel(&ctx, &job_id)).await
}

/// A page of the job's result lines from line `from` on, and the line to read next;
/// `None` past the last so far.
pub async fn job_results_page(
    ctx: &Context,
    job_id: &JobId,
    from: u64,
) -> Result<Option<(Vec<u8>, u64)>> {
    let (ctx, job_id) = (ctx.clone(), *job_id);
    blocking(move || jobs::results_page(&ctx, &job_id, from)).await
}

/// Create a job on the model `permitted` names (checked for what its kind needs,
/// [`Need::to_create`], where the caller's request came in) and claim it for running; the caller
/// runs the returned claim. `origin` names the HTTP request that asked for it, if one did:
/// its problems carry it.
pub async fn create_job(
    ctx: &Context,
    permitted: Permitted,
    request: JobRequest,
    origin: Option<jobs::Origin>,
) -> Result<(Job, jobs::JobClaim)> {
    let kind = request.kind();
    let path = permitted.model_for(Need::to_create(kind))?;
    let ctx = ctx.clone();
    blocking(move || match request {
        JobRequest::Batch { members, items } => {
            let batch = NewBatch {
                model: &path,
                revision: members.revision.as_deref(),
                questions: members.questions,
                capture: members.capture,
                working_questions: members.working_questions,
                items,
            };
            crate::core::batch::create(&ctx, batch, origin)
        }
        JobRequest::Alignment(request) => {
            let alignment = crate::core::align::NewAlignment {
                model: &path,
                request,
            };
            crate::core::align::create(&ctx, alignment, origin)
        }
        JobRequest::Evaluation(request) => {
            let evaluation = crate::core::eval::NewEvaluation {
                model: &path,
                request,
            };
            crate::core::eval::create(&ctx, evaluation, origin)
        }
    })
    .await
}
