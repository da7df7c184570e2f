//! `GET /v1/models`, `GET /v1/models/{modelId}`, `GET /v1/models/{modelId}/checkpoints`.

use crate::core;
use crate::core::tokens::{Principal, Role};
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, AppQuery as Query};
use crate::wire::decision::Checkpoint;
use crate::wire::models::{ModelDetail, ModelKind, ModelList};
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;

/// Base models, and the repository models this token can see.
pub(crate) async fn list_models(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
) -> ApiResult<Json<ModelList>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    let ctx = state.ctx.clone();
    let mut list = core::blocking(move || core::models::list(&ctx)).await?;
    list.models
        .retain(|m| m.kind == ModelKind::Base || principal.role_on(&m.name).is_some());
    Ok(Json(list))
}

pub(crate) use crate::core::access::authorize;

pub(crate) async fn get_model(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
) -> ApiResult<Json<ModelDetail>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    let ctx = state.ctx.clone();
    let detail = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Reader)?;
        core::models::show(&ctx, &path)
    })
    .await?;
    Ok(Json(detail))
}

#[derive(Debug, Deserialize)]
pub(crate) struct CheckpointQuery {
    revision: Option<String>,
    limit: Option<usize>,
}

pub(crate) async fn list_checkpoints(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    Query(query): Query<CheckpointQuery>,
) -> ApiResult<Json<Vec<Checkpoint>>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    let ctx = state.ctx.clone();
    let checkpoints = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Reader)?;
        core::models::log(&ctx, &path, query.revision.as_deref(), limit)
    })
    .await?;
    Ok(Json(checkpoints))
}
