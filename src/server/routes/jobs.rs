//! What every job resource shares (batch decisions, alignments, evaluations): the 202
//! answer, and finding, listing and cancelling a job under the model it belongs to.

use super::models::authorize;
use crate::core::jobs::{JobLock, Origin};
use crate::core::tokens::{Principal, Role};
use crate::core::{self, Context};
use crate::error::{Error, Result};
use crate::server::error::{ApiError, ApiResult};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::jobs::{Job, JobKind, JobStatus};
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;

/// A job collection's `POST`, its body already checked.
pub(crate) struct Creation<'a> {
    pub(crate) state: &'a AppState,
    pub(crate) principal: Principal,
    pub(crate) info: RequestInfo,
    /// The request's path, part of the idempotency record's key.
    pub(crate) path: &'a str,
    pub(crate) model_id: String,
    /// The `Idempotency-Key`, checked.
    pub(crate) key: Option<String>,
    pub(crate) body: &'a Value,
    /// The role the token needs on the model.
    pub(crate) role: Role,
}

/// Check the role, then create the job with `make` once per key and body (a retry gets the
/// same job), hand it to the server's queue and answer 202 with its `Location`.
pub(crate) async fn create<F>(creation: Creation<'_>, make: F) -> ApiResult<Response>
where
    F: FnOnce(&Context, &str, Origin) -> Result<(Job, JobLock)> + Send + 'static,
{
    let Creation {
        state,
        principal,
        info,
        path,
        model_id,
        key,
        body,
        role,
    } = creation;
    {
        let (ctx, principal, model_id) = (state.ctx.clone(), principal.clone(), model_id.clone());
        core::blocking(move || authorize(&ctx, &principal, &model_id, role)).await?;
    }
    idempotency::once(
        state,
        &principal,
        key,
        ("POST", path),
        body,
        || async move {
            let origin = Origin {
                problems_url: info.problems_url.clone(),
                request_id: info.id.clone(),
            };
            let ctx = state.ctx.clone();
            match core::blocking(move || make(&ctx, &model_id, origin)).await {
                Ok((job, lock)) => {
                    state.jobs.submit(lock);
                    accepted(&job)
                }
                Err(error) => ApiError(error).into_response(),
            }
        },
    )
    .await
}

/// `202 Accepted` with the job and its `Location`.
pub(crate) fn accepted(job: &Job) -> Response {
    let location = format!(
        "/v1/models/{}/{}/{}",
        job.model_id,
        job.kind.route(),
        job.job_id
    );
    let mut response = (StatusCode::ACCEPTED, Json(job)).into_response();
    if let Ok(value) = HeaderValue::try_from(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

/// `?status=…&limit=…` of a job listing.
#[derive(Debug, Deserialize)]
pub(crate) struct ListQuery {
    status: Option<String>,
    limit: Option<usize>,
}

/// The model's jobs of `kind`, newest first.
pub(crate) async fn list(
    state: &AppState,
    principal: Principal,
    model_id: String,
    query: &ListQuery,
    kind: JobKind,
) -> Result<Vec<Job>> {
    let statuses = match query.status.as_deref() {
        None => Vec::new(),
        Some(text) => vec![JobStatus::parse(text).ok_or_else(|| {
            Error::invalid(
                crate::wire::Loc::query().key("status"),
                format!("unknown status `{text}` (queued, running, completed, failed, cancelled)"),
                "enum",
            )
        })?],
    };
    let limit = query.limit.unwrap_or(50).clamp(1, 1000);
    let ctx = state.ctx.clone();
    core::blocking(move || {
        authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let id = core::models::open(&ctx, &model_id)?.model_id().to_string();
        let mut jobs = core::jobs::list(&ctx, Some(&id), &statuses, 0)?;
        jobs.retain(|job| job.kind == kind);
        jobs.truncate(limit);
        Ok(jobs)
    })
    .await
}

/// The job of `kind` under the model the token can see, or 404.
pub(crate) async fn find(
    state: &AppState,
    principal: Principal,
    model_id: String,
    job_id: String,
    kind: JobKind,
) -> Result<Job> {
    let ctx = state.ctx.clone();
    core::blocking(move || {
        authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let id = core::models::open(&ctx, &model_id)?.model_id().to_string();
        core::jobs::get_under(&ctx, &id, kind, &job_id)
    })
    .await
}

/// Cancel the job (idempotent; a finished job stays as it finished).
pub(crate) async fn cancel(
    state: &AppState,
    principal: Principal,
    model_id: String,
    job_id: String,
    kind: JobKind,
) -> Result<Job> {
    find(state, principal, model_id, job_id.clone(), kind).await?;
    let ctx = state.ctx.clone();
    core::blocking(move || core::jobs::cancel(&ctx, &job_id)).await
}
