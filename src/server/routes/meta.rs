//! Routes without a token: the `OpenAPI` document, health, and problem pages.

use crate::core::health::{self, Component, ComponentStatus};
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::AppPath;
use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "meta",
    operation_id = "getOpenApi",
    summary = "This document",
    responses((status = 200, description = "The OpenAPI 3.1 document.", body = Object)),
)]
pub(crate) async fn openapi() -> Response {
    (
        [(header::CONTENT_TYPE, "application/json")],
        crate::server::openapi::document(),
    )
        .into_response()
}

/// The body of `GET /healthz`.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct Health {
    #[schema(inline)]
    status: Up,
    /// The server's version.
    version: &'static str,
    decisions: DecisionLoad,
    /// The example store: the home's SQLite file, or the PostgreSQL database replicas share.
    store: Component,
    /// The git remote the model repositories are shared through; `not_configured` on a
    /// single machine. A remote that is down leaves reads working (from this replica's
    /// mirror) and fails writes, so it does not make the server unhealthy.
    remote: Component,
}

/// The decisions the server holds now, against `server.max_concurrent_decisions` plus
/// `server.decision_queue`: one more than `capacity` is refused 503 `overloaded`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DecisionLoad {
    /// Computing or waiting for a slot.
    in_flight: usize,
    capacity: usize,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
enum Up {
    Ok,
}

/// How long `/healthz` waits for each shared part before calling it unreachable.
const CHECK_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// `check` run off the async workers, within [`CHECK_TIMEOUT`].
async fn checked(
    ctx: &crate::core::Context,
    check: fn(&crate::core::Context) -> Component,
) -> Component {
    let ctx = ctx.clone();
    let work = tokio::task::spawn_blocking(move || check(&ctx));
    match tokio::time::timeout(CHECK_TIMEOUT, work).await {
        Ok(Ok(component)) => component,
        Ok(Err(e)) => Component::unreachable(format!("the check failed: {e}")),
        Err(_) => Component::unreachable(format!("no answer within {} s", CHECK_TIMEOUT.as_secs())),
    }
}

#[utoipa::path(
    get,
    path = "/healthz",
    tag = "meta",
    operation_id = "healthz",
    summary = "Health",
    description = "Answers 200 while the server serves and its store answers, with the \
        decisions it holds now and whether the store and the repositories' git remote are \
        reachable; a 503 problem when the store is not, so a load balancer sends requests \
        to another replica.",
    responses(
        (status = 200, description = "The server is up.", body = inline(Health)),
        (status = 503, description = "`store_unavailable`: the store (the shared PostgreSQL \
            database) cannot be reached; the detail says why, and how the remote stands."),
    ),
)]
pub(crate) async fn healthz(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    let (in_flight, capacity) = state.decisions.load();
    let (store, remote) = tokio::join!(
        checked(&state.ctx, health::store),
        checked(&state.ctx, health::remote)
    );
    if store.status != ComponentStatus::Ok {
        return Err(crate::error::Error::StoreUnavailable(format!(
            "the store cannot be reached: {}; the repositories' remote is {}",
            store.detail.as_deref().unwrap_or("no answer"),
            serde_json::to_value(remote.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        ))
        .into());
    }
    Ok(Json(Health {
        status: Up::Ok,
        version: env!("CARGO_PKG_VERSION"),
        decisions: DecisionLoad {
            in_flight,
            capacity,
        },
        store,
        remote,
    }))
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
        "The revision is not ahead of the branch it would move (promote fast-forwards only), or the shared git remote refused the move because another replica or a `git push` moved the ref first. Merge or rebase it, or read the model again and retry.",
    ),
    (
        "nothing-to-commit",
        409,
        "The new files are the same as the branch's: a checkpoint is never empty.",
    ),
    ("conflict", 409, "The resource changed concurrently. Retry."),
    (
        "state-too-large",
        422,
        "The state has more tokens than the base model reads (the limit and the count are in `detail` and at `body.state` in `details`). Send `\"truncate\": true` to read only the first tokens, or a shorter state.",
    ),
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
        "request-timeout",
        408,
        "The request body stalled longer than the server waits (`server.body_timeout`), or arrived slower than its minimum rate (`server.body_min_rate`). Send it again, faster.",
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
        "The request is invalid outside schema validation: malformed JSON, or a request head HTTP cannot parse (a control character in a header value, a malformed request line).",
    ),
    (
        "uri-too-long",
        414,
        "The request's URI is longer than the server reads.",
    ),
    (
        "headers-too-large",
        431,
        "The request's headers are larger than the server reads.",
    ),
    (
        "upstream-failed",
        502,
        "A remote engine answered with an error.",
    ),
    (
        "overloaded",
        503,
        "The server computes as many decisions at once as it takes and as many wait as it queues (`server.max_concurrent_decisions`, `server.decision_queue`). Retry after `Retry-After` seconds.",
    ),
    (
        "upstream-unavailable",
        503,
        "A remote engine could not be reached.",
    ),
    (
        "remote-unavailable",
        503,
        "The git remote the model repositories are shared through (`ARBITER_REPOS_REMOTE`) could not be reached, or has no repository for this model, so nothing was written. Reads still answer from this server's mirror. Retry once the remote is back.",
    ),
    (
        "store-unavailable",
        503,
        "The shared database (`ARBITER_DATABASE_URL`) could not be reached, so nothing was read or written. Retry once it is back; a replica reconnects by itself.",
    ),
    (
        "insufficient-storage",
        507,
        "The server's storage is full: what the request needed written (a captured decision, examples, annotations) was not written, and nothing of it was left half-written. Retry once an operator has freed space.",
    ),
    (
        "internal",
        500,
        "The server failed. Retry only when safe; quote the requestId when reporting it.",
    ),
];

/// `{code}` of a problem page.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Path)]
pub(crate) struct ProblemParams {
    /// The kebab-case problem code, e.g. `validation-error`.
    #[param(pattern = "^[a-z0-9]+(-[a-z0-9]+)*$")]
    code: String,
}

#[utoipa::path(
    get,
    path = "/problems/{code}",
    tag = "meta",
    operation_id = "getProblem",
    summary = "Describe a problem type",
    description = "The page a problem's `type` URI names: what it means and how to fix it.",
    params(ProblemParams),
    responses(
        (status = 200, description = "A short page on the problem.", body = String, content_type = "text/html"),
        (status = 404, description = "`not_found`: no problem type of that name."),
    ),
)]
pub(crate) async fn problem_page(
    AppPath(ProblemParams { code }): AppPath<ProblemParams>,
) -> ApiResult<Response> {
    let Some((name, status, text)) = PROBLEMS.iter().find(|(name, _, _)| *name == code) else {
        return Err(crate::error::Error::NotFound(format!("no problem type `{code}`")).into());
    };
    Ok(Html(format!(
        "<!doctype html><title>{name}</title><h1>{name}</h1><p>HTTP status {status}.</p><p>{text}</p>"
    ))
    .into_response())
}

/// The problem codes a `type` URI can name, as they appear in a problem's `code`.
#[cfg(test)]
pub(crate) fn problem_codes() -> impl Iterator<Item = String> {
    PROBLEMS.iter().map(|(name, _, _)| name.replace('-', "_"))
}
