//! Routes without a token: the `OpenAPI` document, health, and problem pages.

use crate::server::AppState;
use crate::server::error::ApiResult;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};

pub(crate) async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::server::openapi::document(),
    )
        .into_response()
}

pub(crate) async fn healthz(State(_state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({"status": "ok", "version": env!("CARGO_PKG_VERSION")}))
}

/// What each problem `type` URI names.
const PROBLEMS: &[(&str, u16, &str)] = &[
    (
        "validation-error",
        422,
        "The request (a path, query, header or body member) or a provider response failed validation. `details` lists each problem with its location (`loc`), a message and a short type.",
    ),
    (
        "model-not-found",
        404,
        "No base model of that name, or no repository model this token can see.",
    ),
    (
        "revision-not-found",
        404,
        "The branch, tag or commit named by `revision` cannot be read.",
    ),
    (
        "example-not-found",
        404,
        "No example with that ID in this model.",
    ),
    ("job-not-found", 404, "No job with that ID in this model."),
    ("not-found", 404, "No such route or resource."),
    (
        "idempotency-key-reused",
        409,
        "This Idempotency-Key was used with a different request. Use a new key for a new request.",
    ),
    (
        "decision-in-progress",
        409,
        "A request with this Idempotency-Key is still running. Retry with the same key after a short delay.",
    ),
    ("already-exists", 409, "A resource with that name exists."),
    (
        "not-fast-forward",
        409,
        "The revision is not ahead of the branch it would move (promote fast-forwards only). Merge or rebase it first.",
    ),
    (
        "nothing-to-commit",
        409,
        "The new files are the same as the branch's: a checkpoint is never empty.",
    ),
    ("conflict", 409, "The resource changed concurrently. Retry."),
    (
        "invalid-checkpoint",
        422,
        "The model's committed files at that revision do not form a valid model; `details` locates each problem in its file.",
    ),
    (
        "unauthorized",
        401,
        "Authentication is missing, invalid or revoked. Send `Authorization: Bearer <token>`.",
    ),
    (
        "forbidden",
        403,
        "The token lacks a required scope or role on this model.",
    ),
    (
        "method-not-allowed",
        405,
        "The route exists but does not take this method.",
    ),
    (
        "payload-too-large",
        413,
        "The request body exceeds the server's limit.",
    ),
    (
        "unsupported-media-type",
        415,
        "The body's Content-Type is not one this route accepts (application/json).",
    ),
    (
        "rate-limited",
        429,
        "Too many requests for this token. Wait `Retry-After` seconds.",
    ),
    (
        "bad-request",
        400,
        "The request is invalid outside schema validation, e.g. malformed JSON.",
    ),
    (
        "upstream-failed",
        502,
        "A remote engine answered with an error.",
    ),
    (
        "upstream-unavailable",
        503,
        "A remote engine could not be reached.",
    ),
    (
        "internal",
        500,
        "The server failed. Retry only when safe; quote the requestId when reporting it.",
    ),
];

pub(crate) async fn problem_page(Path(code): Path<String>) -> ApiResult<Response> {
    let Some((name, status, text)) = PROBLEMS.iter().find(|(name, _, _)| *name == code) else {
        return Err(crate::error::Error::NotFound(format!("no problem type `{code}`")).into());
    };
    Ok(Html(format!(
        "<!doctype html><title>{name}</title><h1>{name}</h1><p>HTTP status {status}.</p><p>{text}</p>"
    ))
    .into_response())
}
