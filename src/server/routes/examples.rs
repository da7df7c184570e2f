//! Examples of a repository model: list, ingest, show, annotate.

use super::models::authorize;
use crate::core::tokens::{Principal, Role};
use crate::core::{self};
use crate::error::Error;
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::{AppPath as Path, AppQuery as Query};
use crate::server::extract::{JsonBody, RawBody};
use crate::store::{ExampleDetail, ExampleFilter};
use crate::wire::examples::{ExamplePage, IngestReport};
use crate::wire::{FieldError, Loc};
use axum::extract::State;
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
    principal.require_scope("examples:read")?;
    let ctx = state.ctx.clone();
    let page = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Reader)?;
        let filter = ExampleFilter {
            annotated: query.annotated,
            question: query.question,
        };
        core::examples::list(
            &ctx,
            &path,
            &filter,
            query.after.as_deref(),
            query.limit.unwrap_or(50),
        )
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
pub(crate) async fn ingest_examples(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path(model_id): Path<String>,
    Query(query): Query<IngestQuery>,
    body: RawBody,
) -> ApiResult<Json<IngestReport>> {
    principal.require_scope("examples:write")?;
    if crate::server::extract::is_json(&body.media_type)
        && body.bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'[')
    {
        return Err(Error::invalid(
            Loc::body(),
            "an application/json body must be an array of examples",
            "array_expected",
        )
        .into());
    }
    let ctx = state.ctx.clone();
    let report = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Writer)?;
        let mut reader = std::io::Cursor::new(body.bytes);
        core::examples::ingest(&ctx, &path, &mut reader, query.atomic, &mut |_| {})
    })
    .await?;
    if !report.committed {
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
        return Err(Error::Validation(details).into());
    }
    Ok(Json(report))
}

pub(crate) async fn get_example(
    State(state): State<AppState>,
    Extension(principal): Extension<Principal>,
    Path((model_id, example_id)): Path<(String, String)>,
) -> ApiResult<Json<ExampleDetail>> {
    principal.require_scope("examples:read")?;
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
    principal.require_scope("examples:write")?;
    let ctx = state.ctx.clone();
    let detail = core::blocking(move || {
        let path = authorize(&ctx, &principal, &model_id, Role::Writer)?;
        core::examples::annotate_example(&ctx, &path, &example_id, &body)
    })
    .await?;
    Ok(Json(detail))
}
