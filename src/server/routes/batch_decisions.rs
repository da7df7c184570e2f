//! Batch decisions, as jobs: create (202 + `Location`), list, poll, results (NDJSON), cancel.

use super::models::authorize;
use crate::core::batch::{NewBatch, Source};
use crate::core::jobs::Origin;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::error::Error;
use crate::server::error::{ApiError, ApiResult};
use crate::server::extract::{AppPath as Path, AppQuery as Query, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::jobs::{BatchItems, BatchRequest, Job, JobKind, JobStatus};
use axum::body::Body;
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use tokio::io::AsyncReadExt;

const KIND: JobKind = JobKind::Batch;

/// `POST /v1/models/{modelId}/batch-decisions`: stage the items, queue the job, answer 202.
/// The `Idempotency-Key` is required: a retried POST must not start a second job.
pub(crate) async fn create_batch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Extension(info): Extension<RequestInfo>,
    OriginalUri(uri): OriginalUri,
    Path(model_id): Path<String>,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> ApiResult<Response> {
    principal.require_scope("batches")?;
    let key = idempotency::key(&headers, true)?;
    let request = BatchRequest::from_value(&body)?;
    // Recording decisions writes examples: capture needs a writer.
    let role = if request.capture {
        Role::Writer
    } else {
        Role::Reader
    };
    {
        let (ctx, principal, model_id) = (state.ctx.clone(), principal.clone(), model_id.clone());
        core::blocking(move || authorize(&ctx, &principal, &model_id, role)).await?;
    }
    let route_state = state.clone();
    idempotency::once(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        &body,
        || async move {
            match create(&route_state, &model_id, request, &info).await {
                Ok(job) => accepted(&job),
                Err(error) => ApiError(error).into_response(),
            }
        },
    )
    .await
}

async fn create(
    state: &AppState,
    model_id: &str,
    request: BatchRequest,
    info: &RequestInfo,
) -> crate::error::Result<Job> {
    let origin = Origin {
        problems_url: info.problems_url.clone(),
        request_id: info.id.clone(),
    };
    let (ctx, model_id) = (state.ctx.clone(), model_id.to_owned());
    let (job, lock) = core::blocking(move || {
        let source = match request.items {
            BatchItems::Inline(items) => Source::Inline(items),
            BatchItems::Examples(set) => Source::Examples(set),
        };
        core::batch::create(
            &ctx,
            NewBatch {
                model: &model_id,
                revision: request.revision.as_deref(),
                questions: request.questions,
                capture: request.capture,
                source,
            },
            Some(origin),
        )
    })
    .await?;
    state.jobs.submit(lock);
    Ok(job)
}

fn accepted(job: &Job) -> Response {
    let location = format!(
        "/v1/models/{}/{}/{}",
        job.model_id,
        KIND.route(),
        job.job_id
    );
    let mut response = (StatusCode::ACCEPTED, Json(job)).into_response();
    if let Ok(value) = HeaderValue::try_from(location) {
        response.headers_mut().insert(header::LOCATION, value);
    }
    response
}

#[derive(Debug, Deserialize)]
pub(crate) struct ListQuery {
    status: Option<String>,
    limit: Option<usize>,
}

/// `GET /v1/models/{modelId}/batch-decisions`: the model's batch jobs, newest first.
pub(crate) async fn list_batches(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Vec<Job>>> {
    principal.require_scope("batches")?;
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
    let ctx = state.ctx.clone();
    let jobs = core::blocking(move || {
        authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let id = core::models::open(&ctx, &model_id)?.model_id().to_string();
        let mut jobs = core::jobs::list(
            &ctx,
            Some(&id),
            &statuses,
            query.limit.unwrap_or(50).clamp(1, 1000),
        )?;
        jobs.retain(|job| job.kind == KIND);
        Ok(jobs)
    })
    .await?;
    Ok(Json(jobs))
}

/// `GET /v1/models/{modelId}/batch-decisions/{jobId}`.
pub(crate) async fn get_batch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<Json<Job>> {
    principal.require_scope("batches")?;
    Ok(Json(find(&state, principal, model_id, job_id).await?))
}

/// `GET /v1/models/{modelId}/batch-decisions/{jobId}/results`: the finished lines so far,
/// in input order, as NDJSON; `Arbiter-Job-Status` says whether more will come.
pub(crate) async fn get_results(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    principal.require_scope("batches")?;
    let job = find(&state, principal, model_id, job_id.clone()).await?;
    let ctx = state.ctx.clone();
    let reader = core::blocking(move || Ok(core::jobs::results(&ctx, &job_id)?.1)).await?;
    let body = match reader {
        None => Body::empty(),
        Some(reader) => {
            let limit = reader.limit();
            let file = tokio::fs::File::from_std(reader.into_inner()).take(limit);
            Body::from_stream(chunks(file))
        }
    };
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/x-ndjson"),
    );
    headers.insert(
        "arbiter-job-status",
        HeaderValue::from_static(job.status.as_str()),
    );
    Ok(response)
}

/// A file as a stream of chunks, read as the client takes them.
fn chunks(
    file: tokio::io::Take<tokio::fs::File>,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> {
    futures_util::stream::try_unfold(file, |mut file| async move {
        let mut buffer = vec![0; 64 * 1024];
        let read = file.read(&mut buffer).await?;
        if read == 0 {
            return Ok(None);
        }
        buffer.truncate(read);
        Ok(Some((bytes::Bytes::from(buffer), file)))
    })
}

/// `POST /v1/models/{modelId}/batch-decisions/{jobId}/cancel`: 204, also when the job is
/// already finished (it stays as it finished).
pub(crate) async fn cancel_batch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    principal.require_scope("batches")?;
    find(&state, principal, model_id, job_id.clone()).await?;
    let ctx = state.ctx.clone();
    core::blocking(move || core::jobs::cancel(&ctx, &job_id)).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The job under the model the token can see, or 404.
async fn find(
    state: &AppState,
    principal: Principal,
    model_id: String,
    job_id: String,
) -> crate::error::Result<Job> {
    let ctx = state.ctx.clone();
    core::blocking(move || {
        authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let id = core::models::open(&ctx, &model_id)?.model_id().to_string();
        core::jobs::get_under(&ctx, &id, KIND, &job_id)
    })
    .await
}
