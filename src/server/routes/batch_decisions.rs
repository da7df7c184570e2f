//! Batch decisions, as jobs: create (202 + `Location`), list, poll, results (NDJSON), cancel.

use super::jobs::{self, ListQuery};
use crate::core::batch::{NewBatch, Source};
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, AppQuery as Query, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::jobs::{BatchItems, BatchRequest, Job, JobKind};
use axum::body::Body;
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use tokio::io::AsyncReadExt;

const KIND: JobKind = JobKind::Batch;
const SCOPE: &str = "batches";

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
    principal.require_scope(SCOPE)?;
    let key = idempotency::key(&headers, true)?;
    let request = BatchRequest::from_value(&body)?;
    // Recording decisions writes examples: capture needs a writer.
    let role = if request.capture {
        Role::Writer
    } else {
        Role::Reader
    };
    let creation = jobs::Creation {
        state: &state,
        principal,
        info,
        path: uri.path(),
        model_id,
        key,
        body: &body,
        role,
    };
    jobs::create(creation, move |ctx, model, origin| {
        let source = match request.items {
            BatchItems::Inline(items) => Source::Inline(items),
            BatchItems::Examples(set) => Source::Examples(set),
        };
        core::batch::create(
            ctx,
            NewBatch {
                model,
                revision: request.revision.as_deref(),
                questions: request.questions,
                capture: request.capture,
                source,
            },
            Some(origin),
        )
    })
    .await
}

/// `GET /v1/models/{modelId}/batch-decisions`: the model's batch jobs, newest first.
pub(crate) async fn list_batches(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<Vec<Job>>> {
    principal.require_scope(SCOPE)?;
    Ok(Json(
        jobs::list(&state, principal, model_id, &query, KIND).await?,
    ))
}

/// `GET /v1/models/{modelId}/batch-decisions/{jobId}`.
pub(crate) async fn get_batch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<Json<Job>> {
    principal.require_scope(SCOPE)?;
    Ok(Json(
        jobs::find(&state, principal, model_id, job_id, KIND).await?,
    ))
}

/// `GET /v1/models/{modelId}/batch-decisions/{jobId}/results`: the finished lines so far,
/// in input order, as NDJSON; `Arbiter-Job-Status` says whether more will come.
pub(crate) async fn get_results(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<Response> {
    principal.require_scope(SCOPE)?;
    let job = jobs::find(&state, principal, model_id, job_id.clone(), KIND).await?;
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
    principal.require_scope(SCOPE)?;
    jobs::cancel(&state, principal, model_id, job_id, KIND).await?;
    Ok(StatusCode::NO_CONTENT)
}
