//! Routes without a token: the `OpenAPI` document, health, and problem pages.

use crate::core::health::{self, Component, ComponentStatus};
use crate::server::AppState;
use crate::server::error::ApiResult;
use crate::server::extract::AppPath;
use crate::server::openapi::problems;
use crate::wire::ProblemCode;
use axum::Json;
use axum::extract::State;
use axum::http::header;
use axum::response::{Html, IntoResponse, Response};
use serde::{Deserialize, Serialize};

problems::problem_responses! {
    HealthStoreUnavailable = [StoreUnavailable]
        "the store (the shared PostgreSQL database) cannot be reached; the detail says why, \
        and how the remote stands.";
    NoSuchProblem = [NotFound]
        "no problem type of that name.";
}

#[utoipa::path(
    get,
    path = crate::wire::paths::OPENAPI,
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
    background: BackgroundLoad,
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

/// Background work (alignments, evaluations, batch shards) this replica runs now. It
/// computes on threads of its own at a lower priority, so it slows decisions little; it is
/// bounded by `server.max_running_jobs`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BackgroundLoad {
    /// Jobs and shards running.
    running: usize,
    /// At most this many at once (`server.max_running_jobs`).
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
    path = crate::wire::paths::HEALTHZ,
    tag = "meta",
    operation_id = "healthz",
    summary = "Health",
    description = "Answers 200 while the server serves and its store answers, with the \
        decisions it holds now and whether the store and the repositories' git remote are \
        reachable; a 503 problem when the store is not, so a load balancer sends requests \
        to another replica.",
    responses(
        (status = 200, description = "The server is up.", body = inline(Health)),
        HealthStoreUnavailable,
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
        background: BackgroundLoad {
            running: crate::parallel::background_running(),
            capacity: state.jobs.capacity(),
        },
        store,
        remote,
    }))
}

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
    path = crate::wire::paths::PROBLEM,
    tag = "meta",
    operation_id = "getProblem",
    summary = "Describe a problem type",
    description = "The page a problem's `type` URI names: what it means and how to fix it.",
    params(ProblemParams),
    responses(
        (status = 200, description = "A short page on the problem.", body = String, content_type = "text/html"),
        NoSuchProblem,
    ),
)]
pub(crate) async fn problem_page(
    AppPath(ProblemParams { code }): AppPath<ProblemParams>,
) -> ApiResult<Response> {
    let Some(problem) = ProblemCode::from_slug(&code) else {
        return Err(crate::error::Error::NotFound(format!("no problem type `{code}`")).into());
    };
    let (status, text) = (problem.status(), problem.page());
    Ok(Html(format!(
        "<!doctype html><title>{code}</title><h1>{code}</h1><p>HTTP status {status}.</p><p>{text}</p>"
    ))
    .into_response())
}
