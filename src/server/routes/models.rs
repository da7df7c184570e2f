//! `GET /v1/models`, `GET /v1/models/{modelId}`, `GET /v1/models/{modelId}/checkpoints`.

use super::params::ModelParams;
use crate::core;
use crate::core::service::LogQuery;
use crate::core::tokens::Principal;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, AppQuery};
use crate::server::openapi::{BAD_QUERY, INVALID_CHECKPOINT, MODEL_NOT_FOUND, REVISION_NOT_FOUND};
use crate::wire::decision::Checkpoint;
use crate::wire::models::{ModelDetail, ModelList};
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;

/// Base models, and the repository models this token can see.
#[utoipa::path(
    get,
    path = "/v1/models",
    tag = "models",
    operation_id = "listModels",
    summary = "List models",
    description = "The base models, and the repository models this token has a role on.",
    security(("bearerAuth" = ["models:read"])),
    responses((status = 200, description = "The models.", body = ModelList)),
)]
pub(crate) async fn list_models(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
) -> ApiResult<Json<ModelList>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    Ok(Json(
        core::access::list_models(&state.ctx, &principal).await?,
    ))
}

#[utoipa::path(
    get,
    path = "/v1/models/{modelId}",
    tag = "models",
    operation_id = "getModel",
    summary = "Show a repository model",
    description = "Path, default branch, branches, tags, capture policy and question IDs (role \
        `reader`).",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams),
    responses(
        (status = 200, description = "The repository model.", body = ModelDetail),
        (status = 404, description = MODEL_NOT_FOUND),
        (status = 422, description = INVALID_CHECKPOINT),
    ),
)]
pub(crate) async fn get_model(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
) -> ApiResult<Json<ModelDetail>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    Ok(Json(
        core::access::show_model(&state.ctx, &principal, &model_id).await?,
    ))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CheckpointQuery {
    /// Branch, tag or commit SHA [default: the default branch].
    revision: Option<String>,
    /// How many checkpoints (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = "/v1/models/{modelId}/checkpoints",
    tag = "models",
    operation_id = "listCheckpoints",
    summary = "List checkpoints",
    description = "The commits of a revision, newest first (role `reader`).",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams, CheckpointQuery),
    responses(
        (status = 200, description = "The checkpoints, newest first.", body = Vec<Checkpoint>),
        (status = 404, description = REVISION_NOT_FOUND),
        (status = 422, description = BAD_QUERY),
    ),
)]
pub(crate) async fn list_checkpoints(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppQuery(query): AppQuery<CheckpointQuery>,
) -> ApiResult<Json<Vec<Checkpoint>>> {
    principal.require_scope(crate::core::tokens::Scope::ModelsRead)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    let query = LogQuery {
        model: &model_id,
        revision: query.revision.as_deref(),
        limit,
    };
    Ok(Json(
        core::access::log(&state.ctx, &principal, query).await?,
    ))
}
