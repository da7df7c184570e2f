//! `/v1/jobs`: any job by its ID alone (what `arbiter jobs` needs in client mode), visible
//! to a token that can see the job's model and holds the scope of the job's kind.

use super::{results, scope_of, statuses};
use crate::core;
use crate::core::access::JobListing;
use crate::core::tokens::Principal;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, AppQuery, Authorized};
use crate::server::openapi::problems;
use crate::server::routes::params::JobParams;
use crate::wire::jobs::{BatchResultLine, Job, JobKind, JobStatus};
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::Response;
use axum::{Extension, Json};
use serde::Deserialize;
use strum::VariantArray as _;

/// `?model=…&status=…&limit=…` of `GET /v1/jobs`.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct AllJobsQuery {
    /// Only the jobs of this repository model: its `modelId` or its path `<owner>/<model>`.
    #[param(pattern = "^[^\\u0000]*$")]
    model: Option<String>,
    /// Only jobs with this status.
    #[param(value_type = Option<JobStatus>)]
    status: Option<String>,
    /// How many jobs (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
    /// Only jobs whose ID starts with this text (how `arbiter jobs` finds a job by a prefix
    /// of its ID; `/v1/jobs/{jobId}` takes the whole ID only).
    #[serde(rename = "idPrefix")]
    #[param(pattern = "^[^\\u0000]*$")]
    id_prefix: Option<String>,
}

/// Who sees a job through `/v1/jobs`.
const VISIBLE: &str = "Jobs on models the token has a role on, of the kinds whose scope it \
    holds (`batches` for batch jobs and evaluations, `alignments` for alignments).";

/// `GET /v1/jobs`: jobs of every kind, newest first, of one model (path or `modelId`) or of
/// every model the token can see; only kinds whose scope the token holds.
#[utoipa::path(
    get,
    path = crate::wire::paths::JOBS,
    tag = "jobs",
    operation_id = "listJobs",
    summary = "List jobs",
    description = VISIBLE,
    security(("bearerAuth" = ["batches"])),
    params(AllJobsQuery),
    responses(
        (status = 200, description = "The jobs of every kind, newest first.", body = Vec<Job>),
        problems::ModelNotFound,
        problems::BadQuery,
    ),
)]
pub(crate) async fn list_jobs(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppQuery(query): AppQuery<AllJobsQuery>,
) -> ApiResult<Json<Vec<Job>>> {
    // A token that may read no kind of job is refused, not shown an empty list.
    if !JobKind::VARIANTS
        .iter()
        .any(|kind| principal.has_scope(scope_of(*kind)))
    {
        principal.require_scope(scope_of(JobKind::Batch))?;
    }
    let statuses = statuses(query.status.as_deref())?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    // Read last: a malformed query is refused before an unknown model.
    let model = match query.model {
        Some(model) => Some(
            state
                .authorize(&principal, &model, core::access::LIST_JOBS)
                .await?,
        ),
        None => None,
    };
    let listing = JobListing {
        kinds: Vec::new(),
        statuses,
        id_prefix: query.id_prefix,
        limit,
        model: model.map(Authorized::into_permitted),
    };
    Ok(Json(state.session(&principal).jobs(listing).await?))
}

/// `GET /v1/jobs/{jobId}`: a job of any kind, by its ID alone.
#[utoipa::path(
    get,
    path = crate::wire::paths::JOB,
    tag = "jobs",
    operation_id = "getJob",
    summary = "Poll a job",
    description = VISIBLE,
    security(("bearerAuth" = ["batches"])),
    params(JobParams),
    responses(
        (status = 200, description = "The job, as its own collection's poll route shows it.",
            body = Job),
        problems::AnyJobNotFound,
    ),
)]
pub(crate) async fn get_job(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<Json<Job>> {
    let job_id = core::jobs::parse_id(&job_id)?;
    Ok(Json(state.session(&principal).job(&job_id).await?))
}

/// `POST /v1/jobs/{jobId}/cancel`: 204, also when the job had already finished.
#[utoipa::path(
    post,
    path = crate::wire::paths::JOB_CANCEL,
    tag = "jobs",
    operation_id = "cancelJob",
    summary = "Cancel a job",
    description = "As its own collection's cancel route: a queued job is cancelled at once, a \
        running one at its next item; idempotent, and a finished job stays as it finished.",
    security(("bearerAuth" = ["batches"])),
    params(JobParams),
    responses(
        (status = 204, description = "The cancel is recorded (or the job had already finished)."),
        problems::AnyJobNotFound,
    ),
)]
pub(crate) async fn cancel_job(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<StatusCode> {
    let job_id = core::jobs::parse_id(&job_id)?;
    state.session(&principal).cancel_job(&job_id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `GET /v1/jobs/{jobId}/results`: the complete result lines so far, of any kind of job.
#[utoipa::path(
    get,
    path = crate::wire::paths::JOB_RESULTS,
    tag = "jobs",
    operation_id = "getJobResults",
    summary = "Read a job's results",
    description = "The complete result lines written so far, one JSON line per finished item in \
        input order (for a batch job, `BatchResultLine`); `Arbiter-Job-Status` says whether \
        more will come. A job that writes no lines answers an empty body.",
    security(("bearerAuth" = ["batches"])),
    params(JobParams),
    responses(
        (status = 200, description = "The results so far.", body = BatchResultLine,
            content_type = "application/x-ndjson", headers(("Arbiter-Job-Status"))),
        problems::AnyJobNotFound,
    ),
)]
pub(crate) async fn get_job_results(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(JobParams { job_id }): AppPath<JobParams>,
) -> ApiResult<Response> {
    let job_id = core::jobs::parse_id(&job_id)?;
    let job = state.session(&principal).job(&job_id).await?;
    Ok(results(&state, &job).await?)
}
