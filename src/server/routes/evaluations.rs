//! Creating an evaluation job (202 + `Location`); the report is the job's `result`.
//! Listing, polling and cancelling are the shared handlers of [`super::jobs`].

use super::jobs;
use crate::core::eval::NewEvaluation;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::align::EvaluationRequest;
use crate::wire::jobs::JobKind;
use axum::Extension;
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::Response;

const KIND: JobKind = JobKind::Evaluation;
const SCOPE: &str = jobs::scope_of(KIND);

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
