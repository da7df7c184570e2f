//! `GET /v1/models`, `GET /v1/models/{modelId}`, and a model's `checkpoints`, `history` and
//! `diff`.

use super::params::{BranchParams, ModelParams};
use crate::core;
use crate::core::access::ModelService as _;
use crate::core::requests::LogQuery;
use crate::core::tokens::Principal;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, ModelQuery};
use crate::server::openapi::problems;
use crate::wire::decision::Checkpoint;
use crate::wire::models::{ModelDetail, ModelList};
use crate::wire::registry::{ModelDiff, RegistryEvent};
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;

/// Base models, and the repository models this token can see.
#[utoipa::path(
    get,
    path = crate::wire::paths::MODELS,
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
    Ok(Json(state.session(&principal).list_models().await?))
}

#[utoipa::path(
    get,
    path = crate::wire::paths::MODEL,
    tag = "models",
    operation_id = "getModel",
    summary = "Show a repository model",
    description = "Path, default branch, branches, tags, capture policy and question IDs (role \
        `reader`).",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams),
    responses(
        (status = 200, description = "The repository model.", body = ModelDetail),
        problems::ModelNotFound,
        problems::InvalidCheckpoint,
    ),
)]
pub(crate) async fn get_model(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
) -> ApiResult<Json<ModelDetail>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::SHOW_MODEL)
        .await?;
    Ok(Json(authorized.on(&state.ctx).show().await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct CheckpointQuery {
    /// Branch, tag or commit SHA [default: the default branch].
    #[param(max_length = 255, pattern = "^[^\\u0000]*$")]
    revision: Option<String>,
    /// How many checkpoints (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = crate::wire::paths::CHECKPOINTS,
    tag = "models",
    operation_id = "listCheckpoints",
    summary = "List checkpoints",
    description = "The commits of a revision, newest first (role `reader`).",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams, CheckpointQuery),
    responses(
        (status = 200, description = "The checkpoints, newest first.", body = Vec<Checkpoint>),
        problems::RevisionNotFound,
        problems::BadQuery,
    ),
)]
pub(crate) async fn list_checkpoints(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<CheckpointQuery>,
) -> ApiResult<Json<Vec<Checkpoint>>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::LOG)
        .await?;
    let query = query.read(&authorized)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    let query = LogQuery {
        revision: query.revision.as_deref(),
        limit,
    };
    Ok(Json(authorized.on(&state.ctx).log(query).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct HistoryQuery {
    /// How many events (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = crate::wire::paths::HISTORY,
    tag = "models",
    operation_id = "listModelHistory",
    summary = "List promotions and tag moves",
    description = "Every promotion and tag move made through this server or its home, newest \
        first: who (the token's name, or the local user), when, from and to which commit, and \
        the evaluation it relied on (role `reader`). Pushes made with plain git are not \
        recorded.",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams, HistoryQuery),
    responses(
        (status = 200, description = "The events, newest first.", body = Vec<RegistryEvent>),
        problems::ModelNotFound,
        problems::BadQuery,
    ),
)]
pub(crate) async fn list_history(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<HistoryQuery>,
) -> ApiResult<Json<Vec<RegistryEvent>>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::HISTORY)
        .await?;
    let query = query.read(&authorized)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    Ok(Json(authorized.on(&state.ctx).history(limit).await?))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct DiffQuery {
    /// The revision compared from: a branch, tag or commit SHA.
    #[param(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    from: String,
    /// The revision compared to.
    #[param(min_length = 1, max_length = 255, pattern = "^[^\\u0000]*$")]
    to: String,
}

#[utoipa::path(
    get,
    path = crate::wire::paths::DIFF,
    tag = "models",
    operation_id = "diffModel",
    summary = "Compare two revisions",
    description = "What changed from one revision to another: `model.yaml` field by field, \
        the questions added, removed or changed (and which fields), and the learned files \
        `aligned/<id>.yaml` (role `reader`).",
    security(("bearerAuth" = ["models:read"])),
    params(ModelParams, DiffQuery),
    responses(
        (status = 200, description = "The changes.", body = ModelDiff),
        problems::RevisionNotFound,
        problems::DiffInvalid,
    ),
)]
pub(crate) async fn diff_model(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<DiffQuery>,
) -> ApiResult<Json<ModelDiff>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::DIFF)
        .await?;
    let query = query.read(&authorized)?;
    Ok(Json(
        authorized
            .on(&state.ctx)
            .diff(&query.from, &query.to)
            .await?,
    ))
}

#[utoipa::path(
    delete,
    path = crate::wire::paths::BRANCH,
    tag = "models",
    operation_id = "deleteBranch",
    summary = "Delete a branch",
    description = "Deletes a branch of a repository model (role `writer`), never its default \
        branch (409). On a shared remote the deletion is made there, refused (409) if another \
        writer moved the branch. Recorded in the model's history (`delete`, `branches/<name>`, \
        `from` the commit it pointed at).",
    security(("bearerAuth" = ["alignments"])),
    params(ModelParams, BranchParams),
    responses(
        (status = 204, description = "The branch is deleted."),
        problems::RevisionNotFound,
    ),
)]
pub(crate) async fn delete_branch(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(BranchParams { branch }): AppPath<BranchParams>,
) -> ApiResult<axum::http::StatusCode> {
    // The scope that makes branches (alignments) and moves them (promote) deletes them.
    let authorized = state
        .authorize(&principal, &model_id, core::access::DELETE_BRANCH)
        .await?;
    authorized.on(&state.ctx).delete_branch(&branch).await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}
