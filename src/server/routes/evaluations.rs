//! Evaluations, as jobs: create (202 + `Location`), list, poll (the report is the job's
//! `result`), cancel.

use super::jobs::{self, ListQuery};
use crate::core::eval::NewEvaluation;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, AppQuery as Query, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::align::EvaluationRequest;
use crate::wire::jobs::{Job, JobKind};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::{Extension, Json};

const KIND: JobKind = JobKind::Evaluation;
/// An evaluation is a batch of decisions over the annotated examples.
const SCOPE: &str = "batches";

/// `POST /v1/models/{modelId}/evaluations`: stage the annotated examples, queue, answer 202.
pub(crate) async fn create_evaluation(
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
    let request = EvaluationRequest::from_value(&body)?;
    let creation = jobs::Creation {
        state: &state,
        principal,
        info,
        path: uri.path(),
        model_id,
        key,
        hash: crate::wire::value::canonical_hash(&body),
        role: Role::Reader,
    };
    jobs::create(creation, move |ctx, model, origin| {
        core::eval::create(ctx, NewEvaluation { model, request }, Some(origin))
    })
    .await
}

/// `GET /v1/models/{modelId}/evaluations`: the model's evaluations, newest first.
pub(crate) async fn list_evaluations(
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

/// `GET /v1/models/{modelId}/evaluations/{jobId}`: the job; the report once completed.
pub(crate) async fn get_evaluation(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<Json<Job>> {
    principal.require_scope(SCOPE)?;
    Ok(Json(
        jobs::find(&state, principal, model_id, job_id, KIND).await?,
    ))
}

/// `POST /v1/models/{modelId}/evaluations/{jobId}/cancel`: 204, also when finished.
pub(crate) async fn cancel_evaluation(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, job_id)): Path<(String, String)>,
) -> ApiResult<StatusCode> {
    principal.require_scope(SCOPE)?;
    jobs::cancel(&state, principal, model_id, job_id, KIND).await?;
    Ok(StatusCode::NO_CONTENT)
}
