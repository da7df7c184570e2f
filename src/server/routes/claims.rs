//! Claims on examples being annotated (`arbiter annotate` in client mode): the next example
//! for the token's annotator, claimed so that no other annotator is shown it meanwhile;
//! its release; and the undo of one answer.

use super::params::{ExampleParams, ModelParams, QuestionParams};
use crate::core::access::ModelService as _;
use crate::core::requests::ClaimNext;
use crate::core::tokens::Principal;
use crate::core::{self};
use crate::error::Error;
use crate::server::AppState;
use crate::server::admission::OneAtATime;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath, JsonBody, ModelQuery};
use crate::server::openapi::problems;
use crate::store::Chosen;
use crate::wire::claims::{ClaimBody, NextToAnnotate};
use crate::wire::to_annotate::ToAnnotateQuery;
use axum::extract::State;
use axum::http::StatusCode;
use axum::{Extension, Json};

problems::problem_responses! {
    ClaimInvalid = [ValidationError, InvalidCheckpoint]
        "a query parameter or the body is not valid (`details` locates each), the query \
        names no question of the revision, or the model's files at the revision do not form \
        a valid model.";
    ClaimUpstreamFailed = [UpstreamFailed]
        "a remote engine answered every candidate with an error.";
    ClaimUnavailable = [UpstreamUnavailable, Overloaded]
        "a remote engine could not be reached, or the server's decision slots and their queue \
        are full: retry after `Retry-After` (what was decided is cached).";
}

#[utoipa::path(
    post,
    path = crate::wire::paths::ANNOTATION_CLAIMS,
    tag = "examples",
    operation_id = "claimExampleToAnnotate",
    summary = "Claim the next example to annotate",
    description = "The next example for the token's annotator (its name) to annotate, in the \
        order of `examples-to-annotate` (the same query parameters; `n` is not used): the \
        lowest margins first with the audit share spread among them, among the examples in \
        `ids` (when given) less those in `exclude` (a held-out set), passing over the \
        examples in `skip` and those other annotators hold; `unannotated` counts the chosen \
        examples only. An ID in `ids` that names no example is refused. An `uncertain` example is claimed \
        for the annotator until `expiresAt` (a few minutes; claiming it again or answering it \
        renews it) or until released, and no other annotator is offered it meanwhile; an `audit` example is \
        not held, since a second annotator answering it is how agreement is measured. With \
        the example come the model's answers to each question it is not yet annotated for. \
        `example` is null when nothing is left for this annotator (role `writer`).",
    security(("bearerAuth" = ["examples:write", "decisions"])),
    params(ModelParams, ToAnnotateQuery),
    request_body(content = ClaimBody, description = "What the annotator passed over, and which examples may be offered."),
    responses(
        (status = 200, description = "The example claimed, or none left.", body = NextToAnnotate),
        problems::NotJsonBody,
        problems::RevisionNotFound,
        problems::TooLarge,
        problems::NotJson,
        ClaimInvalid,
        ClaimUpstreamFailed,
        ClaimUnavailable,
    ),
)]
pub(crate) async fn claim_example_to_annotate(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    pairs: ModelQuery<Vec<(String, String)>>,
    request: axum::extract::Request,
) -> ApiResult<Json<NextToAnnotate>> {
    // Authorized before the query or the body is read: a token that may not claim learns
    // nothing from a 422.
    let authorized = state
        .authorize(&principal, &model_id, core::access::CLAIM_NEXT)
        .await?;
    let query = ToAnnotateQuery::from_pairs(&pairs.read(&authorized)?).map_err(Error::from)?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let ClaimBody { skip, ids, exclude } = ClaimBody::read(&body)?;
    let skip: Vec<crate::ids::ExampleId> = skip.into_iter().map(Into::into).collect();
    let gate = OneAtATime::new(&state.decisions);
    let request = ClaimNext {
        query: &query,
        skip: &skip,
        chosen: Chosen {
            only: ids.as_deref(),
            except: &exclude,
        },
        annotator: None,
        deadline: None,
    };
    let next = authorized
        .on(&state.ctx)
        .gated(&gate)
        .claim_next(request)
        .await?;
    Ok(Json(next))
}

#[utoipa::path(
    delete,
    path = crate::wire::paths::ANNOTATION_CLAIM,
    tag = "examples",
    operation_id = "releaseExampleClaim",
    summary = "Release a claim",
    description = "Gives up the token's annotator's claim on an example (answered, skipped, or \
        the annotator left), so other annotators may be offered it. Another annotator's claim \
        is left alone; releasing a claim not held does nothing (role `writer`).",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, ExampleParams),
    responses(
        (status = 204, description = "The annotator holds no claim on the example now."),
        problems::ExampleNotFound,
    ),
)]
pub(crate) async fn release_example_claim(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(ExampleParams { example_id }): AppPath<ExampleParams>,
) -> ApiResult<StatusCode> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::RELEASE_CLAIM)
        .await?;
    authorized
        .on(&state.ctx)
        .release_claim(&example_id, None)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    delete,
    path = crate::wire::paths::ANNOTATION,
    tag = "examples",
    operation_id = "deleteAnnotation",
    summary = "Delete one's answer",
    description = "Deletes the token's annotator's own answer to one question of an example \
        (an undo); the other annotators' answers stay, and the question's ground truth is \
        their majority again. Deleting an answer not given does nothing (role `writer`).",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, ExampleParams, QuestionParams),
    responses(
        (status = 204, description = "The annotator has no answer to the question now."),
        problems::ExampleNotFound,
    ),
)]
pub(crate) async fn delete_annotation(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(ExampleParams { example_id }): AppPath<ExampleParams>,
    AppPath(QuestionParams { question_id }): AppPath<QuestionParams>,
) -> ApiResult<StatusCode> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::UNANNOTATE)
        .await?;
    authorized
        .on(&state.ctx)
        .unannotate(&example_id, &question_id, None)
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
