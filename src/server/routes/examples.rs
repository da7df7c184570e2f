//! Examples of a repository model: list, ingest, show, annotate, and which to annotate next.

use super::params::{ExampleParams, IdempotencyKey, ModelParams};
use crate::core::access::ModelService as _;
use crate::core::requests::{ExamplesQuery, IngestRequest};
use crate::core::tokens::Principal;
use crate::core::{self};
use crate::error::Error;
use crate::server::admission::OneAtATime;
use crate::server::error::{ApiError, ApiResult};
use crate::server::extract::{AppPath, JsonBody, ModelQuery, RawBody};
use crate::server::openapi::problems;
use crate::server::{AppState, idempotency};
use crate::store::ExampleFilter;
use crate::wire::examples::{AnnotationsPatch, ExampleDetail, ExamplePage, IngestReport};
use crate::wire::to_annotate::{ToAnnotate, ToAnnotateBody, ToAnnotateQuery};
use crate::wire::{FieldError, Loc};
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;

problems::problem_responses! {
    ToAnnotateInvalid = [ValidationError, InvalidCheckpoint]
        "a query parameter is not valid or names no question of the revision (`details` \
        locates each at `[\"query\", name]`), or the model's files at the revision do not \
        form a valid model.";
    ToAnnotateUpstreamFailed = [UpstreamFailed]
        "a remote engine answered every candidate with an error.";
    ToAnnotateUnavailable = [UpstreamUnavailable, Overloaded]
        "a remote engine could not be reached, or the server's decision slots and their queue \
        are full: retry after `Retry-After` (what was decided is cached).";
    IngestInvalid = [ValidationError, InvalidCheckpoint]
        "a query parameter is not valid; an `application/json` body is not an array; with \
        `atomic=true`, an item is bad (`details` locates each by index); or the model's files \
        at the default branch do not form a valid model.";
    AnnotationsInvalid = [ValidationError, InvalidCheckpoint]
        "a JSON body is not an array, the `Idempotency-Key` is not valid, or the model's \
        files at the default branch do not form a valid model.";
    AnnotateInvalid = [ValidationError, InvalidCheckpoint]
        "an annotation does not fit its question (or names no question), or the model's files \
        at the default branch do not form a valid model.";
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct ListQuery {
    /// `true`: only annotated examples; `false`: only the others.
    annotated: Option<bool>,
    /// Only examples annotated for this question ID.
    #[param(pattern = "^[^\\u0000]*$")]
    question: Option<String>,
    /// With `question`: only examples whose ground truth for it is this answer (`true`, a
    /// level `2`, an option `refund`).
    #[param(pattern = "^[^\\u0000]*$")]
    answer: Option<String>,
    /// Only examples whose state contains this text (letter case aside).
    #[param(pattern = "^[^\\u0000]*$")]
    text: Option<String>,
    /// The `nextCursor` of the previous page.
    #[param(pattern = "^[^\\u0000]*$")]
    after: Option<String>,
    /// Page size (1–1000; anything else is refused).
    #[param(minimum = 1, maximum = 1000, default = 50)]
    limit: Option<usize>,
}

#[utoipa::path(
    get,
    path = crate::wire::paths::EXAMPLES,
    tag = "examples",
    operation_id = "listExamples",
    summary = "List examples",
    description = "A page of examples in example ID order (role `reader`); pass `nextCursor` as \
        `after` for the next page.",
    security(("bearerAuth" = ["examples:read"])),
    params(ModelParams, ListQuery),
    responses(
        (status = 200, description = "A page of examples.", body = ExamplePage),
        problems::ModelNotFound,
        problems::BadQuery,
    ),
)]
pub(crate) async fn list_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<ListQuery>,
) -> ApiResult<Json<ExamplePage>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::LIST_EXAMPLES)
        .await?;
    let query = query.read(&authorized)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    if query.answer.is_some() && query.question.is_none() {
        return Err(Error::invalid(
            crate::wire::Loc::query().key("answer"),
            "an answer is looked for in a question: give `question` too",
            "missing",
        )
        .into());
    }
    let filter = ExampleFilter {
        annotated: query.annotated,
        question: query.question,
        answer: query
            .answer
            .as_deref()
            .map(crate::wire::examples::typed_answer),
        text: query.text,
    };
    let query = ExamplesQuery {
        filter: &filter,
        after: query.after.as_deref(),
        limit,
    };
    Ok(Json(authorized.on(&state.ctx).list_examples(query).await?))
}

/// Not under `…/examples/{exampleId}`: an example's ID may be anything, `next` included.
#[utoipa::path(
    get,
    path = crate::wire::paths::EXAMPLES_TO_ANNOTATE,
    tag = "examples",
    operation_id = "listExamplesToAnnotate",
    summary = "Examples to annotate next",
    description = "Examples not yet annotated (for `question`, else for any question of the \
        revision), ranked by the model's uncertainty at `revision`: the lowest margin (top \
        probability minus the second) first, with `round(picks × audit)` of the picks drawn \
        at random (by `seed`) from the other candidates and spread evenly among them; each \
        is tagged with `why`. The candidates are the `pool` most recently created \
        unannotated examples; each is decided through the answers cache evaluations use, so \
        asking again calls no engine; the engine calls are made one at a time, each in one of \
        the server's decision slots, as a decision is (role `reader`; nothing is recorded).",
    security(("bearerAuth" = ["examples:read", "decisions"])),
    params(ModelParams, ToAnnotateQuery),
    responses(
        (status = 200, description = "The examples to annotate next.", body = ToAnnotate),
        problems::RevisionNotFound,
        ToAnnotateInvalid,
        ToAnnotateUpstreamFailed,
        ToAnnotateUnavailable,
    ),
)]
pub(crate) async fn list_examples_to_annotate(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    pairs: ModelQuery<Vec<(String, String)>>,
) -> ApiResult<Json<ToAnnotate>> {
    // Authorized before the query is read: a token that may not ask learns nothing from a 422.
    let authorized = state
        .authorize(&principal, &model_id, core::access::EXAMPLES_TO_ANNOTATE)
        .await?;
    let query = ToAnnotateQuery::from_pairs(&pairs.read(&authorized)?).map_err(Error::from)?;
    let gate = OneAtATime::new(&state.decisions);
    let picked = authorized
        .on(&state.ctx)
        .gated(&gate)
        .examples_to_annotate(&query, None)
        .await?;
    Ok(Json(picked))
}

/// The `GET`'s picks with the candidates decided by a working copy: a questions document
/// too large for a URL goes in the body; the query string is the `GET`'s.
#[utoipa::path(
    post,
    path = crate::wire::paths::EXAMPLES_TO_ANNOTATE,
    tag = "examples",
    operation_id = "pickExamplesToAnnotate",
    summary = "Examples to annotate next, by a working copy",
    description = "As the `GET` of this path (the same query parameters, the same answer), \
        with the candidates decided by `working_questions`, a questions document not \
        committed, as a working copy on top of `revision`: a question whose definition is the \
        revision's keeps its learned parameters, a changed or new one is zero-shot, and the \
        answer's `workingCopy` says which. Nothing is committed or recorded (role `reader`).",
    security(("bearerAuth" = ["examples:read", "decisions"])),
    params(ModelParams, ToAnnotateQuery),
    request_body(content = ToAnnotateBody, description = "The working copy's questions."),
    responses(
        (status = 200, description = "The examples to annotate next.", body = ToAnnotate),
        problems::NotJsonBody,
        problems::RevisionNotFound,
        problems::TooLarge,
        problems::NotJson,
        ToAnnotateInvalid,
        ToAnnotateUpstreamFailed,
        ToAnnotateUnavailable,
    ),
)]
pub(crate) async fn pick_examples_to_annotate(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    pairs: ModelQuery<Vec<(String, String)>>,
    request: axum::extract::Request,
) -> ApiResult<Json<ToAnnotate>> {
    // Authorized before the query or the body is read, as the `GET`.
    let authorized = state
        .authorize(&principal, &model_id, core::access::EXAMPLES_TO_ANNOTATE)
        .await?;
    let query = ToAnnotateQuery::from_pairs(&pairs.read(&authorized)?).map_err(Error::from)?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let ToAnnotateBody { working_questions } = ToAnnotateBody::read(&body)?;
    let gate = OneAtATime::new(&state.decisions);
    let working = Some(&working_questions);
    let picked = authorized
        .on(&state.ctx)
        .gated(&gate)
        .examples_to_annotate(&query, working)
        .await?;
    Ok(Json(picked))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub(crate) struct IngestQuery {
    /// Write nothing when any item is bad.
    #[serde(default)]
    #[param(required = false, default = false)]
    atomic: bool,
}

/// A bad item of an ingest (or a bulk annotation) is rejected in the report with its line
/// number while the others are written, so the document admits any element: a stricter
/// schema would declare refusals the server does not make.
///
/// A JSON array (`application/json`) or JSON Lines (`application/x-ndjson`). Bad lines are
/// reported in the result; with `?atomic=true` any bad line is a 422 and nothing is written.
/// With an `Idempotency-Key`, a retry of the same body replays the first report (a retried
/// chunk of a large upload reports its examples as created once, not as existing).
#[utoipa::path(
    post,
    path = crate::wire::paths::EXAMPLES,
    tag = "examples",
    operation_id = "ingestExamples",
    summary = "Ingest examples",
    description = "Stores examples in bulk (role `writer`). Bad items are reported in \
        `rejected` and the valid ones are written; with `atomic=true` any bad item is a 422 and \
        nothing is written. Annotations are checked against the questions at the default \
        branch; each is its `annotator`'s, else the token's name's, and replaces only that \
        annotator's earlier answer. Re-ingesting a state never duplicates its example. A large upload can be sent \
        in chunks (JSON Lines split at line ends), each with its own `Idempotency-Key`, so a \
        retried chunk replays its first report.",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, IdempotencyKey, IngestQuery),
    request_body(
        description = "The examples: a JSON array (`application/json`), or JSON Lines \
            (`application/x-ndjson`, `application/jsonl`); blank lines are skipped. Each element \
            should be an `IngestExample`; one that is not is rejected alone, in the report's \
            `rejected`.",
        content(
            (Vec<serde_json::Value> = "application/json"),
            (serde_json::Value = "application/x-ndjson"),
            (serde_json::Value = "application/jsonl"),
        ),
    ),
    responses(
        (status = 200, description = "What was written, and what was not.", body = IngestReport),
        problems::LinesNotJson,
        problems::ModelNotFound,
        problems::KeyConflict,
        problems::TooLarge,
        problems::NotJsonOrLines,
        IngestInvalid,
    ),
)]
pub(crate) async fn ingest_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    OriginalUri(uri): OriginalUri,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    query: ModelQuery<IngestQuery>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    // Authorized before the query, the key or the body is read.
    let authorized = state
        .authorize(&principal, &model_id, core::access::INGEST)
        .await?;
    let query = query.read(&authorized)?;
    let key = idempotency::key(&headers, false)?;
    let body = RawBody::read(request, &state, &authorized).await?;
    check_json_array(&body, "examples")?;
    let permitted = authorized.into_permitted();
    let hash = idempotency::raw_hash(
        &body.media_type,
        if query.atomic { "atomic" } else { "" },
        &body.bytes,
    );
    let ctx = state.ctx.clone();
    idempotency::once_hashed(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        hash,
        || async move {
            let request = IngestRequest {
                input: Box::new(std::io::Cursor::new(body.bytes)),
                atomic: query.atomic,
                annotator: None,
            };
            let ingested = core::access::OnModel::new(&ctx, permitted)
                .ingest(request, &|_| {})
                .await;
            match ingested {
                Ok(report) if report.committed => Json(report).into_response(),
                Ok(report) => ApiError(atomic_rejection(&report)).into_response(),
                Err(error) => ApiError(error).into_response(),
            }
        },
    )
    .await
}

/// An atomic ingest with bad lines: a 422 locating each by its index in the body.
fn atomic_rejection(report: &IngestReport) -> Error {
    let details = report
        .rejected
        .iter()
        .map(|r| {
            FieldError::new(
                Loc::body().index(r.line.saturating_sub(1) as usize),
                r.reason.clone(),
                "invalid_example",
            )
        })
        .collect();
    Error::Validation(details)
}

/// `POST /v1/models/{modelId}/annotations`: many annotations at once, one
/// `{example_id, question, answer, reasoning?}` per JSON Lines line (or a JSON array), as
/// `arbiter examples annotate --file`. Bad lines are reported in the result and the good
/// ones written. An `Idempotency-Key` makes a retry replay the first report.
#[utoipa::path(
    post,
    path = crate::wire::paths::ANNOTATIONS,
    tag = "examples",
    operation_id = "annotateExamples",
    summary = "Annotate many examples",
    description = "Writes ground truth for many examples at once (role `writer`), one \
        `{example_id, question, answer, reasoning?, annotator?}` per line (or a JSON array of \
        them), as `arbiter examples annotate --file`. Each is its `annotator`'s, else the \
        token's name's, and is checked against the questions at the default branch; bad lines (and lines naming no stored example) are reported in \
        `rejected` with their line numbers, and the good ones written. With an \
        `Idempotency-Key`, a retry replays the first report.",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, IdempotencyKey),
    request_body(
        description = "The annotations: JSON Lines (`application/x-ndjson`, \
            `application/jsonl`) of `AnnotationLine`, or a JSON array of them \
            (`application/json`); blank lines are skipped. Each element should be an \
            `AnnotationLine`; one that is not is rejected alone, in the report's `rejected`.",
        content(
            (Vec<serde_json::Value> = "application/json"),
            (serde_json::Value = "application/x-ndjson"),
            (serde_json::Value = "application/jsonl"),
        ),
    ),
    responses(
        (status = 200, description = "What was written (`annotations`), and what was not \
            (`rejected`).", body = IngestReport),
        problems::LinesNotJson,
        problems::ModelNotFound,
        problems::KeyConflict,
        problems::TooLarge,
        problems::NotJsonOrLines,
        AnnotationsInvalid,
    ),
)]
pub(crate) async fn annotate_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    OriginalUri(uri): OriginalUri,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    headers: HeaderMap,
    request: axum::extract::Request,
) -> ApiResult<Response> {
    // Authorized before the key or the body is read.
    let authorized = state
        .authorize(&principal, &model_id, core::access::ANNOTATE)
        .await?;
    let key = idempotency::key(&headers, false)?;
    let body = RawBody::read(request, &state, &authorized).await?;
    check_json_array(&body, "annotations")?;
    let permitted = authorized.into_permitted();
    let hash = idempotency::raw_hash(&body.media_type, "", &body.bytes);
    let ctx = state.ctx.clone();
    idempotency::once_hashed(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        hash,
        || async move {
            let input = Box::new(std::io::Cursor::new(body.bytes));
            let annotated = core::access::OnModel::new(&ctx, permitted)
                .annotate_lines(None, input)
                .await;
            match annotated {
                Ok(report) => Json(report).into_response(),
                Err(error) => ApiError(error).into_response(),
            }
        },
    )
    .await
}

/// A JSON body (of an ingest or a bulk annotation) is read whole first: one that is not
/// JSON (400), repeats a key (422) or is not an array (422) is refused before anything is
/// written. A JSON Lines body is read line by line, each bad line rejected alone.
fn check_json_array(body: &RawBody, items: &str) -> ApiResult<()> {
    if crate::server::extract::is_json(&body.media_type)
        && !crate::server::extract::parse_json(&body.bytes)?.is_array()
    {
        return Err(Error::invalid(
            Loc::body(),
            format!("an application/json body must be an array of {items}"),
            "array_expected",
        )
        .into());
    }
    Ok(())
}

#[utoipa::path(
    get,
    path = crate::wire::paths::EXAMPLE,
    tag = "examples",
    operation_id = "getExample",
    summary = "Show an example",
    description = "One example with its annotations and every decision taken on it, oldest \
        first (role `reader`).",
    security(("bearerAuth" = ["examples:read"])),
    params(ModelParams, ExampleParams),
    responses(
        (status = 200, description = "The example.", body = ExampleDetail),
        problems::ExampleNotFound,
    ),
)]
pub(crate) async fn get_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(ExampleParams { example_id }): AppPath<ExampleParams>,
) -> ApiResult<Json<ExampleDetail>> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::SHOW_EXAMPLE)
        .await?;
    let detail = authorized.on(&state.ctx).show_example(&example_id).await?;
    Ok(Json(detail))
}

#[utoipa::path(
    delete,
    path = crate::wire::paths::EXAMPLE,
    tag = "examples",
    operation_id = "deleteExample",
    summary = "Delete an example",
    description = "Deletes an example and everything recorded of it: its state, its \
        decisions, its annotations and claims, and its state in the input of the model's \
        jobs (an item of a job still running over it then fails alone). Allowed to the \
        model's owners (role `admin`); recorded in the model's history (`delete`, \
        `examples/<id>`, who and when, never the content).",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, ExampleParams),
    responses(
        (status = 204, description = "The example is deleted."),
        problems::ExampleNotFound,
    ),
)]
pub(crate) async fn delete_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(ExampleParams { example_id }): AppPath<ExampleParams>,
) -> ApiResult<axum::http::StatusCode> {
    let authorized = state
        .authorize(&principal, &model_id, core::access::DELETE_EXAMPLES)
        .await?;
    authorized
        .on(&state.ctx)
        .delete_examples(&[example_id])
        .await?;
    Ok(axum::http::StatusCode::NO_CONTENT)
}

/// Body `{questionId: {answer, reasoning?}}`: all checked before any is written.
#[utoipa::path(
    patch,
    path = crate::wire::paths::EXAMPLE_ANNOTATIONS,
    tag = "examples",
    operation_id = "annotateExample",
    summary = "Annotate an example",
    description = "Writes the token's answers (and optional reasoning) to some questions of \
        one example (role `writer`): the annotator is the token's name, and each answer \
        replaces only that annotator's earlier one; the example's `annotations` then show \
        each question's majority answer and every annotator's in `votes`. Every answer is \
        checked against the questions at the default branch before anything is written. A `choice` answer given as a number or a boolean \
        names the option of that text (`2` names option `\"2\"`); a `noul` answer `\"yes\"` or `\"no\"` (any case) is `true` or `false`.",
    security(("bearerAuth" = ["examples:write"])),
    params(ModelParams, ExampleParams),
    request_body(content = AnnotationsPatch, description = "Question ID → annotation."),
    responses(
        (status = 200, description = "The example, annotated.", body = ExampleDetail),
        problems::NotJsonBody,
        problems::ExampleNotFound,
        problems::TooLarge,
        problems::NotJson,
        AnnotateInvalid,
    ),
)]
pub(crate) async fn annotate_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    AppPath(ModelParams { model_id }): AppPath<ModelParams>,
    AppPath(ExampleParams { example_id }): AppPath<ExampleParams>,
    request: axum::extract::Request,
) -> ApiResult<Json<ExampleDetail>> {
    // The scope and the role before the body: a token without them learns nothing of its
    // request.
    let authorized = state
        .authorize(&principal, &model_id, core::access::ANNOTATE)
        .await?;
    let JsonBody(body) = JsonBody::read(request, &state, &authorized).await?;
    let patch = AnnotationsPatch::read(&body).map_err(crate::error::Error::from)?;
    let detail = authorized
        .on(&state.ctx)
        .annotate_example(&example_id, patch)
        .await?;
    Ok(Json(detail))
}
