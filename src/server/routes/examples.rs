//! Examples of a repository model: list, ingest, show, annotate.

use super::models::authorize;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::error::Error;
use crate::server::error::{ApiError, ApiResult};
use crate::server::extract::{AppPath as Path, AppQuery as Query};
use crate::server::extract::{JsonBody, RawBody};
use crate::server::{AppState, idempotency};
use crate::store::ExampleFilter;
use crate::wire::examples::ExampleDetail;
use crate::wire::examples::{ExamplePage, IngestReport};
use crate::wire::{FieldError, Loc};
use axum::extract::{OriginalUri, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub(crate) struct ListQuery {
    annotated: Option<bool>,
    question: Option<String>,
    after: Option<String>,
    limit: Option<usize>,
}

pub(crate) async fn list_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    Query(query): Query<ListQuery>,
) -> ApiResult<Json<ExamplePage>> {
    principal.require_scope(crate::core::tokens::Scope::ExamplesRead)?;
    let limit = crate::server::extract::page_limit(query.limit)?;
    let ctx = state.ctx.clone();
    let page = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let filter = ExampleFilter {
            annotated: query.annotated,
            question: query.question,
        };
        core::examples::list(&ctx, &path, &filter, query.after.as_deref(), limit)
    })
    .await?;
    Ok(Json(page))
}

#[derive(Debug, Deserialize)]
pub(crate) struct IngestQuery {
    #[serde(default)]
    atomic: bool,
}

/// A JSON array (`application/json`) or JSON Lines (`application/x-ndjson`). Bad lines are
/// reported in the result; with `?atomic=true` any bad line is a 422 and nothing is written.
/// With an `Idempotency-Key`, a retry of the same body replays the first report (a retried
/// chunk of a large upload reports its examples as created once, not as existing).
pub(crate) async fn ingest_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    OriginalUri(uri): OriginalUri,
    Path(model_id): Path<String>,
    Query(query): Query<IngestQuery>,
    headers: HeaderMap,
    body: RawBody,
) -> ApiResult<Response> {
    principal.require_scope(crate::core::tokens::Scope::ExamplesWrite)?;
    let key = idempotency::key(&headers, false)?;
    check_json_array(&body, "examples")?;
    {
        let (ctx, principal, model_id) = (state.ctx.clone(), principal.clone(), model_id.clone());
        core::blocking(move || authorize(&ctx, &principal, &model_id, Role::Writer)).await?;
    }
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
            let ingested = core::blocking(move || {
                let mut reader = std::io::Cursor::new(body.bytes);
                core::examples::ingest(&ctx, &model_id, &mut reader, query.atomic, &mut |_| {})
            })
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
pub(crate) async fn annotate_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    OriginalUri(uri): OriginalUri,
    Path(model_id): Path<String>,
    headers: HeaderMap,
    body: RawBody,
) -> ApiResult<Response> {
    principal.require_scope(crate::core::tokens::Scope::ExamplesWrite)?;
    let key = idempotency::key(&headers, false)?;
    check_json_array(&body, "annotations")?;
    {
        let (ctx, principal, model_id) = (state.ctx.clone(), principal.clone(), model_id.clone());
        core::blocking(move || authorize(&ctx, &principal, &model_id, Role::Writer)).await?;
    }
    let hash = idempotency::raw_hash(&body.media_type, "", &body.bytes);
    let ctx = state.ctx.clone();
    idempotency::once_hashed(
        &state,
        &principal,
        key,
        ("POST", uri.path()),
        hash,
        || async move {
            let annotated = core::blocking(move || {
                let mut reader = std::io::Cursor::new(body.bytes);
                core::examples::annotate_lines(&ctx, &model_id, &mut reader)
            })
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

pub(crate) async fn get_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, example_id)): Path<(String, String)>,
) -> ApiResult<Json<ExampleDetail>> {
    principal.require_scope(crate::core::tokens::Scope::ExamplesRead)?;
    let ctx = state.ctx.clone();
    let detail = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Reader)?;
        core::examples::show(&ctx, &path, &example_id)
    })
    .await?;
    Ok(Json(detail))
}

/// Body `{questionId: {answer, reasoning?}}`: all checked before any is written.
pub(crate) async fn annotate_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, example_id)): Path<(String, String)>,
    JsonBody(body): JsonBody,
) -> ApiResult<Json<ExampleDetail>> {
    principal.require_scope(crate::core::tokens::Scope::ExamplesWrite)?;
    let ctx = state.ctx.clone();
    let detail = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Writer)?;
        core::examples::annotate_example(&ctx, &path, &example_id, &body)
    })
    .await?;
    Ok(Json(detail))
}
