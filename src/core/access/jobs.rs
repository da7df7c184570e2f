//! Jobs as a caller may see them: listed, read and cancelled by a [`Session`] under the
//! role and scope their kind needs, and created on a model ([`OnModel::create_job`]).

use super::{LIST_JOBS, Need, OnModel, Permitted, Session, authorize, model_paths, scope_of};
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

impl Session<'_> {
    /// The job `job_id`, by its ID alone, if the caller may read it.
    pub async fn job(self, job_id: &JobId) -> Result<Job> {
        let job_id = *job_id;
        self.on_pool(move |ctx, principal| visible(ctx, principal, &job_id))
            .await
    }

    /// Cancel the job `job_id` if the caller may read it (idempotent: a finished job stays
    /// as it finished).
    pub async fn cancel_job(self, job_id: &JobId) -> Result<Job> {
        let job_id = *job_id;
        self.on_pool(move |ctx, principal| {
            let job = visible(ctx, principal, &job_id)?;
            jobs::cancel(ctx, &job.job_id)
        })
        .await
    }

    /// The jobs the caller may read, newest first: on models it can see, of kinds whose
    /// scope it holds.
    pub async fn jobs(self, listing: JobListing) -> Result<Vec<Job>> {
        let JobListing {
            model,
            kinds,
            statuses,
            id_prefix,
            limit,
        } = listing;
        let model = model
            .map(|permitted| permitted.model_for(LIST_JOBS))
            .transpose()?;
        self.on_pool(move |ctx, principal| {
            let model_id = match &model {
                Some(path) => Some(crate::core::models::open(ctx, path)?.model_id()),
                None => None,
            };
            // One model, already authorized, or the owner: every job is on a visible model.
            let paths = match model_id {
                Some(_) => None,
                None if principal.is_owner() => None,
                None => Some(model_paths(ctx)?),
            };
            // The store stops at `limit` when no job it lists can be dropped here: every
            // model is visible, every kind is wanted and its scope held, and no prefix is
            // asked for.
            let every_kind = <JobKind as strum::VariantArray>::VARIANTS
                .iter()
                .all(|kind| principal.has_scope(scope_of(*kind)));
            let every_one =
                paths.is_none() && every_kind && kinds.is_empty() && id_prefix.is_none();
            let stop = if every_one { limit } else { 0 };
            let mut jobs = jobs::list(ctx, model_id.as_ref(), &statuses, stop)?;
            jobs.retain(|job| {
                (kinds.is_empty() || kinds.contains(&job.kind))
                    && id_prefix
                        .as_deref()
                        .is_none_or(|prefix| job.job_id.to_string().starts_with(prefix))
                    && principal.has_scope(scope_of(job.kind))
                    && paths.as_ref().is_none_or(|paths| {
                        paths
                            .get(&job.model_id)
                            .is_some_and(|path| principal.role_on(path).is_some())
                    })
            });
            jobs.truncate(limit);
            Ok(jobs)
        })
        .await
    }

    /// The job of `kind` under `model`, if the caller may read the model; else not found.
    pub async fn job_under(self, model: &ModelRef, kind: JobKind, job_id: &JobId) -> Result<Job> {
        let (model, job_id) = (model.clone(), *job_id);
        self.on_pool(move |ctx, principal| {
            authorize(ctx, principal, &model, Role::Reader)?;
            let id = crate::core::models::open(ctx, &model)?.model_id();
            jobs::get_under(ctx, &id, kind, &job_id)
        })
        .await
    }
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

/// Cancel a job (idempotent; a finished job stays as it finished). The caller has found
/// it visible ([`Session::job_under`]).
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

impl OnModel<'_> {
    /// Create a job on the model (its proof checked for what the job's kind needs,
    /// [`Need::to_create`], where the caller's request came in) and claim it for running;
    /// the caller runs the returned claim. `origin` names the HTTP request that asked for
    /// it, if one did: its problems carry it.
    pub async fn create_job(
        &self,
        request: JobRequest,
        origin: Option<jobs::Origin>,
    ) -> Result<(Job, jobs::JobClaim)> {
        let kind = request.kind();
        let path = self.permitted.model_for(Need::to_create(kind))?;
        let ctx = self.ctx.clone();
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
}
