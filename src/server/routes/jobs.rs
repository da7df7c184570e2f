//! What every job resource shares (batch decisions, alignments, evaluations): the 202
//! answer, and finding, listing and cancelling a job under the model it belongs to.

use super::models::authorize;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::error::{Error, Result};
use crate::server::AppState;
use crate::wire::jobs::{Job, JobKind, JobStatus};
use axum::Json;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

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
