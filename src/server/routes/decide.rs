//! `POST /v1/decision` and its alias `POST /v1/systemone`.

use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::server::error::ApiResult;
use crate::server::extract::JsonBody;
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::DecisionRequest;
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};

pub(crate) async fn create_decision(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Extension(info): Extension<RequestInfo>,
    OriginalUri(uri): OriginalUri,
    headers: HeaderMap,
    JsonBody(body): JsonBody,
) -> ApiResult<Response> {
    principal.require_scope(crate::core::tokens::Scope::Decisions)?;
    let key = idempotency::key(&headers, false)?;
    let request = DecisionRequest::from_value(&body)?;
    if !state.ctx.is_base_model(&request.model) {
        principal.require_role(&request.model, Role::Reader)?;
    }
    let ctx = state.ctx.clone();
    idempotency::once(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        &body,
        || async move {
            match core::decide::decide(&ctx, &request, &info.id).await {
                Ok(response) => Json(response).into_response(),
                Err(error) => crate::server::error::ApiError(error).into_response(),
            }
        },
    )
    .await
}
