//! Alignments: what their `POST` body is and who may send it (creating, listing, polling
//! and cancelling are the shared handlers of [`super::jobs`]), and promoting a checkpoint
//! to the default branch.

use super::jobs::{self, Alignments, JsonCollection};
use super::params::ModelParams;
use crate::core;
use crate::core::access::ModelService as _;
use crate::core::requests::JobRequest;
use crate::core::tokens::Principal;
use crate::error::Result;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, JsonBody};
use crate::server::openapi::problems;
use crate::wire::align::AlignmentRequest;
use crate::wire::decision::Checkpoint;
use crate::wire::models::PromoteRequest;
use axum::extract::State;
use axum::{Extension, Json};
use serde_json::Value;

problems::problem_responses! {
    PromoteNotFound = [ModelNotFound, RevisionNotFound]
        "no repository model with this `modelId` visible to this token, or no such revision.";
    PromoteNotAhead = [NotFastForward]
        "the revision is not ahead of the default branch.";
    PromoteInvalid = [ValidationError]
        "the body has no `revision`, or `evaluation` names no completed evaluation of this \
        model at the revision's commit.";
}

/// An alignment commits a branch when it improves the model, so it needs a writer
/// ([`crate::core::access::Need::to_create`]).
impl JsonCollection for Alignments {
    fn parse(body: &Value) -> Result<JobRequest> {
        Ok(JobRequest::Alignment(AlignmentRequest::read(body)?))
    }
}

jobs::job_collection!(
    Alignments,
    paths: crate::wire::paths::ALIGNMENTS,
    tag: "alignments",
    scope: "alignments",
    name: "Alignment",
    noun: "alignment",
    list: list_alignments,
    get: get_alignment,
    cancel: cancel_alignment,
    poll: "The job; when completed, `result` is an `AlignmentResult`: `improved`, the new \
        branch and checkpoint, and per question the held-out figures before and after with the \
        gate's verdict.",
    cancelled: "A queued alignment is cancelled at once; a running one stops at its next step \
        and commits nothing. Idempotent.",
);

jobs::json_job_create!(
    Alignments,
    paths: crate::wire::paths::ALIGNMENTS,
    tag: "alignments",
    scope: "alignments",
    name: "Alignment",
    create: create_alignment,
    summary: "Start an alignment",
    description: "Queues a job that improves the questions of a checkpoint from the model's \
        annotated examples (role `writer`: it commits a branch). For each question the \
        candidates (zero-shot, the majority prior, a learned head) are scored by \
        cross-validation, nested below 100 examples, and the one with the best expected \
        accuracy is kept; with a `margin` above 0, a change must also improve the held-out \
        loss by it with a seeded paired bootstrap's lower bound above zero. The improved questions are committed on `alignments/<jobId>`, \
        parent the base checkpoint; when nothing improves, nothing is committed. The \
        `Idempotency-Key` is required.",
    body: AlignmentRequest,
    body_description: "The alignment.",
);

problems::problem_responses! {
    PlanInvalid = [ValidationError, InvalidCheckpoint]
        "the body is not a valid alignment (`details` locates each fault), or the model's \
        files at the revision do not form a valid model.";
}

/// `POST /v1/models/{modelId}/alignment-plan`: what the same body would ask of the engine
/// as an alignment, asking nothing (what `arbiter align --dry-run` prints).
#[utoipa::path(
    post,
    path = crate::wire::paths::ALIGNMENT_PLAN,
    tag = "alignments",
    operation_id = "planAlignment",
    summary = "Plan an alignment",
    description = "What an alignment with this body would ask of the model's engine, asking \
        nothing: for a base model routed to a remote engine, the annotated examples it reads \
        and how many of them are already in the answer cache; the rest is the number of calls \
        it would make (what `budget` counts). For the built-in engine, `engineCalls` is \
        absent: it answers here. Needs what creating the alignment needs (role `writer`).",
    security(("bearerAuth" = ["alignments"])),
    params(ModelParams),
    request_body(content = AlignmentRequest, description = "The alignment, as it would be created."),
    responses(
        (status = 200, description = "What the alignment would ask.",
            body = crate::wire::align::AlignmentPlan),
        problems::NotJsonBody,
        problems::RevisionNotFound,
        problems::TooLarge,
        problems::NotJson,
        PlanInvalid,
    ),
)]
pub(crate) async fn plan_alignment(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    request: axum::extract::Request,
) -> ApiResult<Json<crate::wire::align::AlignmentPlan>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::PLAN_ALIGNMENT)
        .await?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let alignment = AlignmentRequest::read(&body)?;
    Ok(Json(
        authorized.on(&state.ctx).plan_alignment(&alignment).await?,
    ))
}

/// `POST /v1/models/{modelId}/promote` with `{revision}`: fast-forward the default branch
/// to it (409 `not_fast_forward` when it is not ahead). Needs a writer.
#[utoipa::path(
    post,
    path = crate::wire::paths::PROMOTE,
    tag = "alignments",
    operation_id = "promoteModel",
    summary = "Promote a checkpoint",
    description = "Fast-forwards the model's default branch to the revision (role `writer`), \
        e.g. an alignment's `alignments/<jobId>` branch once its evaluation passes.",
    security(("bearerAuth" = ["alignments"])),
    params(ModelParams),
    request_body(content = PromoteRequest, description = "The revision to promote."),
    responses(
        (status = 200, description = "The checkpoint the default branch is at now.",
            body = Checkpoint),
        problems::NotJsonBody,
        PromoteNotFound,
        PromoteNotAhead,
        problems::TooLarge,
        problems::NotJson,
        PromoteInvalid,
    ),
)]
pub(crate) async fn promote(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    request: axum::extract::Request,
) -> ApiResult<Json<Checkpoint>> {
    // Authorized before the body is read: a token that may not promote learns nothing
    // about its request, not even whether it is JSON.
    let authorized = state
        .authorize(&principal, &model_id, core::access::PROMOTE)
        .await?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let PromoteRequest {
        revision,
        evaluation,
    } = PromoteRequest::read(&body)?;
    let checkpoint = authorized
        .on(&state.ctx)
        .promote(&revision, evaluation.as_deref())
        .await?;
    Ok(Json(checkpoint))
}
