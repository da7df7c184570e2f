//! Evaluations, as jobs: create (202 + `Location`), list, poll (the report is the job's
//! `result`), cancel.

use super::jobs::{self, ListQuery};
use super::models::authorize;
use crate::core::eval::NewEvaluation;
use crate::core::jobs::Origin;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::server::error::{ApiError, ApiResult};
use crate::server::extract::{AppPath as Path, AppQuery as Query, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::align::EvaluationRequest;
use crate::wire::jobs::{Job, JobKind};
use axum::extract::{OriginalUri, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
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
    {
        let (ctx, principal, model_id) = (state.ctx.clone(), principal.clone(), model_id.clone());
        core::blocking(move || authorize(&ctx, &principal, &model_id, Role::Reader)).await?;
    }
    let route_state = state.clone();
    idempotency::once(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        &body,
        || async move {
            let origin = Origin {
                problems_url: info.problems_url.clone(),
                request_id: info.id.clone(),
            };
            let ctx = route_state.ctx.clone();
            let created = core::blocking(move || {
                core::eval::create(
                    &ctx,
                    NewEvaluation {
                        model: &model_id,
                        request,
                    },
                    Some(origin),
                )
            })
            .await;
            match created {
                Ok((job, lock)) => {
                    route_state.jobs.submit(lock);
                    jobs::accepted(&job)
                }
                Err(error) => ApiError(error).into_response(),
            }
        },
    )
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
