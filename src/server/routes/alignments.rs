//! Alignments: what their `POST` body is and who may send it (creating, listing, polling
//! and cancelling are the shared handlers of [`super::jobs`]), and promoting a checkpoint
//! to the default branch.

use super::jobs::{self, Alignments, JsonCollection};
use super::models::authorize;
use crate::core::align::NewAlignment;
use crate::core::jobs::{JobLock, Origin};
use crate::core::tokens::{Principal, Role};
use crate::core::{self, Context};
use crate::error::{Error, Result};
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, JsonBody};
use crate::wire::align::AlignmentRequest;
use crate::wire::decision::Checkpoint;
use crate::wire::jobs::{Job, JobKind};
use crate::wire::{FieldError, Loc};
use axum::extract::State;
use axum::{Extension, Json};
use serde_json::Value;

/// Promoting is part of aligning: it needs the alignments' scope.
const SCOPE: crate::core::tokens::Scope = jobs::scope_of(JobKind::Alignment);

/// An alignment commits a branch when it improves the model, so it needs a writer.
impl JsonCollection for Alignments {
    type Request = AlignmentRequest;
    const ROLE: Role = Role::Writer;

    fn parse(body: &Value) -> Result<AlignmentRequest> {
        Ok(AlignmentRequest::from_value(body)?)
    }

    fn create(
        ctx: &Context,
        model: &str,
        request: AlignmentRequest,
        origin: Origin,
    ) -> Result<(Job, JobLock)> {
        core::align::create(ctx, NewAlignment { model, request }, Some(origin))
    }
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
