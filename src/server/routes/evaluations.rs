//! Evaluations: what their `POST` body is and who may send it. Creating, listing, polling
//! and cancelling are the shared handlers of [`super::jobs`]; the report is the job's
//! `result`.

use super::jobs::{self, Evaluations, JsonCollection};
use super::params::{ModelParams, RequiredIdempotencyKey};
use crate::core::service::JobRequest;
use crate::core::tokens::Principal;
use crate::core::tokens::Role;
use crate::error::Result;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, JsonBody};
use crate::server::openapi::{
    JOB_INVALID, JOB_NOT_RUNNABLE, KEY_CONFLICT, NOT_JSON, REVISION_NOT_FOUND, TOO_LARGE,
};
use crate::server::request::RequestInfo;
use crate::wire::align::EvaluationRequest;
use crate::wire::jobs::Job;
use axum::Extension;
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde_json::Value;

/// An evaluation stages the annotated examples and only reads the model.
impl JsonCollection for Evaluations {
    const ROLE: Role = Role::Reader;

    fn parse(body: &Value) -> Result<JobRequest> {
        Ok(JobRequest::Evaluation(EvaluationRequest::from_value(body)?))
    }
}

jobs::job_collection!(
    Evaluations,
    path: "/v1/models/{modelId}/evaluations",
    tag: "evaluations",
    scope: "batches",
    name: "Evaluation",
    noun: "evaluation",
    list: list_evaluations,
    get: get_evaluation,
    cancel: cancel_evaluation,
    poll: "The job; when completed, `result` is an `EvaluationReport`.",
    cancelled: "A queued evaluation is cancelled at once; a running one stops at its next \
        example. Idempotent.",
);

#[utoipa::path(
    post,
    path = "/v1/models/{modelId}/evaluations",
    tag = "evaluations",
    operation_id = "createEvaluation",
    summary = "Start an evaluation",
    description = "Queues a job that decides every annotated example at the revision (and at \
        the baseline, when given) and reports, per question and overall, log loss or RPS, \
        accuracy, macro-F1, Cohen's kappa, Brier, ECE and, for scores, MAE. An aligned question \
        never uses an example as its own exemplar. Answers are cached by engine, questions and \
        state, so a re-run calls no engine. The `Idempotency-Key` is required.",
    security(("bearerAuth" = ["batches"])),
    params(ModelParams, RequiredIdempotencyKey),
    request_body(content = EvaluationRequest, description = "The evaluation."),
    responses(
        (status = 202, description = "The job, queued.", body = Job,
            headers(("Location"), ("Idempotent-Replayed"))),
        (status = 400, description = JOB_NOT_RUNNABLE),
        (status = 404, description = REVISION_NOT_FOUND),
        (status = 409, description = KEY_CONFLICT),
        (status = 413, description = TOO_LARGE),
        (status = 415, description = NOT_JSON),
        (status = 422, description = JOB_INVALID),
    ),
)]
pub(crate) async fn create_evaluation(
    state: State<AppState>,
    principal: Extension<Principal>,
    info: Extension<RequestInfo>,
    uri: OriginalUri,
    model: AppPath<ModelParams>,
    headers: HeaderMap,
    body: JsonBody,
) -> ApiResult<Response> {
    jobs::create_json::<Evaluations>(state, principal, info, uri, model, headers, body).await
}
