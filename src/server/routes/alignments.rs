//! Creating an alignment job (202 + `Location`; listing, polling and cancelling are the
//! shared handlers of [`super::jobs`]), and promoting a checkpoint to the default branch.

use super::jobs;
use super::models::authorize;
use crate::core::align::NewAlignment;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::error::Error;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, JsonBody};
use crate::server::request::RequestInfo;
use crate::server::{AppState, idempotency};
use crate::wire::align::AlignmentRequest;
use crate::wire::decision::Checkpoint;
use crate::wire::jobs::JobKind;
use crate::wire::{FieldError, Loc};
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::{Extension, Json};
use serde_json::Value;

const KIND: JobKind = JobKind::Alignment;
const SCOPE: &str = jobs::scope_of(KIND);

/// `POST /v1/models/{modelId}/alignments`: check the request, queue the job, answer 202.
/// It commits a branch when it improves the model, so it needs a writer.
pub(crate) async fn create_alignment(
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
    let request = AlignmentRequest::from_value(&body)?;
    let creation = jobs::Creation {
        state: &state,
        principal,
        info,
        path: uri.path(),
        model_id,
        key,
        hash: crate::wire::value::canonical_hash(&body),
        role: Role::Writer,
    };
    jobs::create(creation, move |ctx, model, origin| {
        core::align::create(ctx, NewAlignment { model, request }, Some(origin))
    })
    .await
}

/// `POST /v1/models/{modelId}/promote` with `{revision}`: fast-forward the default branch
/// to it (409 `not_fast_forward` when it is not ahead). Needs a writer.
pub(crate) async fn promote(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<Checkpoint>> {
    principal.require_scope(SCOPE)?;
    let revision = match &body {
        Value::Object(object) => match object.get("revision") {
            Some(Value::String(revision)) if !revision.is_empty() => revision.clone(),
            _ => {
                return Err(Error::Validation(vec![FieldError::new(
                    Loc::body().key("revision"),
                    "revision (a branch, tag or commit SHA) is required",
                    "missing",
                )])
                .into());
            }
        },
        _ => {
            return Err(Error::invalid(
                Loc::body(),
                "the request is a JSON object {revision}",
                "type",
            )
            .into());
        }
    };
    let ctx = state.ctx.clone();
    let checkpoint = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Writer)?;
        core::models::promote(&ctx, &path, &revision)
    })
    .await?;
    Ok(Json(checkpoint))
}
