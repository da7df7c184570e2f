//! How far a model's annotators agree: Cohen's or Fleiss' kappa per question.

use super::params::ModelParams;
use crate::core::access::ModelService as _;
use crate::core::tokens::Principal;
use crate::core::{self};
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, ModelQuery};
use crate::server::openapi::problems;
use crate::wire::agreement::AgreementReport;
use axum::extract::State;
use axum::{Extension, Json};
use serde::Deserialize;

problems::problem_responses! {
    AgreementInvalid = [ValidationError, InvalidCheckpoint]
        "`question` names no question at the default branch, or the model's files there do \
        not form a valid model.";
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct AgreementQuery {
    /// Only this question (one of the default branch's); else every question.
    #[param(pattern = "^[^\\u0000]*$")]
    question: Option<String>,
}

#[utoipa::path(
    get,
    path = crate::wire::paths::ANNOTATION_AGREEMENT,
    tag = "examples",
    operation_id = "getAnnotationAgreement",
    summary = "Annotator agreement",
    description = "Per question at the default branch (role `reader`): who annotated it and \
        how many examples each, the examples two annotators or more answered, their observed \
        agreement and kappa: Cohen's when exactly two annotators answered those examples, \
        Fleiss' (for a varying number of annotators per example) when more did; `kappa` is \
        null, with a `reason`, when it cannot be computed. Answers are equal when their \
        canonical JSON is.",
    security(("bearerAuth" = ["examples:read"])),
    params(ModelParams, AgreementQuery),
    responses(
        (status = 200, description = "The agreement per question.", body = AgreementReport),
        problems::ModelNotFound,
        AgreementInvalid,
    ),
)]
pub(crate) async fn get_annotation_agreement(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<AgreementQuery>,
) -> ApiResult<Json<AgreementReport>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::ANNOTATION_AGREEMENT)
        .await?;
    let query = query.read(&authorized)?;
    let report = authorized
        .on(&state.ctx)
        .annotation_agreement(query.question.as_deref())
        .await?;
    Ok(Json(report))
}
