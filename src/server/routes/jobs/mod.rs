//! What every job resource shares (batch decisions, alignments, evaluations): the 202
//! answer, and finding, listing and cancelling a job under the model it belongs to. Also
//! `/v1/jobs`: any job by its ID alone (what `arbiter jobs` needs in client mode), visible
//! to a token that can see the job's model and holds the scope of the job's kind.

mod all_jobs;
mod macros;

pub(crate) use all_jobs::{
    __path_cancel_job, __path_get_job, __path_get_job_results, __path_list_jobs, cancel_job,
    get_job, get_job_results, list_jobs,
};
pub(crate) use macros::{job_collection, json_job_create};

use super::params::{JobParams, ModelParams};
use crate::core;
pub(crate) use crate::core::access::scope_of;
use crate::core::access::{JobListing, Permitted};
use crate::core::jobs::Origin;
use crate::core::requests::JobRequest;
use crate::core::tokens::Principal;
use crate::error::{Error, Result};
use crate::server::error::{ApiError, ApiResult};
use crate::server::extract::{AppPath, JsonBody, ModelQuery};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::jobs::{Job, JobKind, JobStatus};
use axum::body::Body;
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;
use serde_json::Value;

/// A job collection's `POST`, its body already checked.
pub(crate) struct Creation<'a> {
    pub(crate) state: &'a AppState,
    pub(crate) principal: Principal,
    pub(crate) info: RequestInfo,
    /// The request's path, part of the idempotency record's key.
    pub(crate) path: &'a str,
    /// The model, its role for the job checked before the body was read.
    pub(crate) permitted: Permitted,
    /// The `Idempotency-Key`, checked.
    pub(crate) key: Option<String>,
    /// The hash of the request's body, as its idempotency record keeps it.
    pub(crate) hash: String,
}

/// Create the job `request` describes once per key and body (a retry gets the same job),
/// hand it to the server's queue and answer 202 with its `Location`. The role was checked
/// before the body was read (`AppState::authorize`), and is not checked again.
pub(crate) async fn create(creation: Creation<'_>, request: JobRequest) -> ApiResult<Response> {
    let Creation {
        state,
        principal,
        info,
        path,
        permitted,
        key,
        hash,
    } = creation;
    idempotency::once_hashed(
        state,
        &principal,
        key,
        ("POST", path),
        hash,
        || async move {
            let origin = Origin {
                problems_url: info.problems_url.to_string(),
                request_id: info.id.clone(),
                traceparent: None,
            };
            let on = core::access::OnModel::new(&state.ctx, permitted);
            let created = on.create_job(request, Some(origin)).await;
            match created {
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

/// A job collection whose `POST` body is one JSON request (alignments, evaluations).
pub(crate) trait JsonCollection: Collection {
    /// Check the body: the job it asks for.
    fn parse(body: &Value) -> Result<JobRequest>;
}

/// `POST /v1/models/{modelId}/<collection>` with a JSON body: check the request, queue the
/// job, answer 202. The `Idempotency-Key` is required: a retried POST must not start a
/// second job.
pub(crate) async fn create_json<C: JsonCollection>(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Extension(info): Extension<RequestInfo>,
    OriginalUri(uri): OriginalUri,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    let need = core::access::Need::to_create(C::KIND);
    let authorized = state.authorize(&principal, &model_id, need).await?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let key = idempotency::key(&headers, true)?;
    let request = C::parse(&body)?;
    let creation = Creation {
        state: &state,
        principal,
        info,
        path: uri.path(),
        permitted: authorized.into_permitted(),
        key,
        hash: crate::wire::value::canonical_hash(&body),
    };
    create(creation, request).await
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
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// Only jobs with this status.
    #[param(value_type = Option<JobStatus>)]
    status: Option<String>,
    /// How many jobs (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
}

fn statuses(status: Option<&str>) -> Result<Vec<JobStatus>> {
    match status {
        None => Ok(Vec::new()),
        Some(text) => Ok(vec![text.parse::<JobStatus>().map_err(|_| {
            Error::invalid(
                crate::wire::Loc::query().key("status"),
                format!("unknown status `{text}` (queued, running, completed, failed, cancelled)"),
                "enum",
            )
        })?]),
    }
}

/// The model's jobs of `kind`, newest first.
async fn list(
    state: &AppState,
    principal: Principal,
    model: Permitted,
    query: &ListQuery,
    kind: JobKind,
) -> Result<Vec<Job>> {
    let listing = JobListing {
        kinds: vec![kind],
        statuses: statuses(query.status.as_deref())?,
        id_prefix: None,
        limit: crate::server::extract::page_limit(query.limit)?,
        model: Some(model),
    };
    state.session(&principal).jobs(listing).await
}

/// The job of `kind` under the model the token can see, or 404.
pub(crate) async fn find(
    state: &AppState,
    principal: Principal,
    model_id: &str,
    job_id: String,
    kind: JobKind,
) -> Result<Job> {
    // The token's scope for the kind first, then the job's ID: a malformed one is refused
    // before an unknown model.
    principal.require_scope(scope_of(kind))?;
    let job_id = core::jobs::parse_id(&job_id)?;
    let model = state.model(model_id)?;
    state
        .session(&principal)
        .job_under(&model, kind, &job_id)
        .await
}

/// Cancel the job (idempotent; a finished job stays as it finished).
async fn cancel(
    state: &AppState,
    principal: Principal,
    model_id: &str,
    job_id: String,
    kind: JobKind,
) -> Result<Job> {
    let job = find(state, principal, model_id, job_id, kind).await?;
    core::access::cancel_job(&state.ctx, &job.job_id).await
}

/// A job collection under a model, `/v1/models/{modelId}/<route>`, named by its jobs' kind:
/// one set of list, poll and cancel handlers serves every kind.
pub(crate) trait Collection {
    const KIND: JobKind;
}

/// `/v1/models/{modelId}/batch-decisions`.
pub(crate) struct Batches;
/// `/v1/models/{modelId}/alignments`.
pub(crate) struct Alignments;
/// `/v1/models/{modelId}/evaluations`.
pub(crate) struct Evaluations;

impl Collection for Batches {
    const KIND: JobKind = JobKind::Batch;
}
impl Collection for Alignments {
    const KIND: JobKind = JobKind::Alignment;
}
impl Collection for Evaluations {
    const KIND: JobKind = JobKind::Evaluation;
}

/// `GET /v1/models/{modelId}/<collection>`: the model's jobs of that kind, newest first.
pub(crate) async fn list_in<C: Collection>(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<ListQuery>,
) -> ApiResult<Json<Vec<Job>>> {
    let need = core::access::Need::to_list(C::KIND);
    let authorized = state.authorize(&principal, &model_id, need).await?;
    let query = query.read(&authorized)?;
    Ok(Json(
        list(
            &state,
            principal,
            authorized.into_permitted(),
            &query,
            C::KIND,
        )
        .await?,
    ))
}

/// `GET /v1/models/{modelId}/<collection>/{jobId}`: the job; `result` once completed.
pub(crate) async fn get_in<C: Collection>(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<Json<Job>> {
    Ok(Json(
        find(&state, principal, &model_id, job_id, C::KIND).await?,
    ))
}

/// `POST /v1/models/{modelId}/<collection>/{jobId}/cancel`: 204, also when the job is
/// already finished (it stays as it finished).
pub(crate) async fn cancel_in<C: Collection>(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<StatusCode> {
    cancel(&state, principal, &model_id, job_id, C::KIND).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The complete result lines of `job` so far, streamed as NDJSON, with
/// `Arbiter-Job-Status` telling whether more will come.
pub(crate) async fn results(state: &AppState, job: &Job) -> Result<Response> {
    // The first page is read before answering, so a store that cannot be read is an error
    // response, not a body cut short.
    let first = core::access::job_results_page(&state.ctx, &job.job_id, 0).await?;
    let body = match first {
        None => Body::empty(),
        Some((bytes, next)) => {
            let rest = result_pages(state.ctx.clone(), job.job_id, next);
            let first = futures_util::stream::once(async { Ok(bytes::Bytes::from(bytes)) });
            Body::from_stream(futures_util::StreamExt::chain(first, rest))
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

/// A job's result lines from line `from` on as a stream of pages, each read from the store
/// as the client takes the one before.
fn result_pages(
    ctx: core::Context,
    job_id: crate::ids::JobId,
    from: u64,
) -> impl futures_util::Stream<Item = std::io::Result<bytes::Bytes>> {
    futures_util::stream::try_unfold(from, move |from| {
        let ctx = ctx.clone();
        async move {
            let page = core::access::job_results_page(&ctx, &job_id, from)
                .await
                .map_err(std::io::Error::other)?;
            Ok(page.map(|(bytes, next)| (bytes::Bytes::from(bytes), next)))
        }
    })
}
