//! `arbiter serve`: the HTTP interface over the same `core` operations as the CLI.
//!
//! Layers, outermost first: request ID + access log (every response carries
//! `x-request-id`), panic catcher (a bug answers 500 and the server keeps serving), then
//! per route group the bearer-token check and rate limit. Every failure is a problem
//! document (`error::ApiError`).

mod admission;
mod auth;
mod error;
mod extract;
mod idempotency;
mod openapi;
mod rate_limit;
mod request;
mod routes;

use crate::core::Context;
use crate::core::jobs::JobQueue;
use axum::Router;
use std::future::Future;
use std::sync::Arc;

pub use request::REQUEST_ID_HEADER;

/// What every handler sees.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) ctx: Context,
    pub(crate) limiter: Arc<rate_limit::RateLimiter>,
    pub(crate) max_body_bytes: usize,
    /// Batch and alignment jobs, run in this process.
    pub(crate) jobs: JobQueue,
    /// Slots for decisions computed at once, and their queue.
    pub(crate) decisions: Arc<admission::Admission>,
}

/// The whole application: routes, auth, problem documents, request IDs.
pub fn router(ctx: Context) -> Router {
    routes::router(state(ctx))
}

/// The `OpenAPI` document `/openapi.json` serves, pretty-printed (the committed
/// `openapi.json` is this text).
pub fn openapi_json() -> String {
    openapi::pretty()
}

fn state(ctx: Context) -> AppState {
    let server = ctx.settings().server.clone();
    AppState {
        limiter: Arc::new(rate_limit::RateLimiter::new(server.rate_limit)),
        max_body_bytes: server.max_body_bytes,
        jobs: JobQueue::new(ctx.clone(), server.max_running_jobs.get()),
        decisions: Arc::new(admission::Admission::new(
            server.max_concurrent_decisions.get(),
            server.decision_queue,
        )),
        ctx,
    }
}

/// Serve on `listener` until `shutdown` resolves; in-flight requests finish first. Jobs
/// left unfinished by an earlier process are taken up first, and again whenever a worker
/// dies while the server runs. Jobs still running at
/// shutdown stay `running` and are resumed by the next start.
pub async fn serve(
    ctx: Context,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = state(ctx);
    match state.jobs.resume_orphans().await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "resuming jobs left unfinished"),
        Err(error) => tracing::error!(%error, "looking for unfinished jobs failed"),
    }
    let watcher = state.jobs.watch_orphans(ORPHAN_SWEEP);
    let served = axum::serve(listener, routes::router(state))
        .with_graceful_shutdown(shutdown)
        .await;
    watcher.abort();
    served
}

/// How often a running server looks for jobs whose worker died.
const ORPHAN_SWEEP: std::time::Duration = std::time::Duration::from_secs(5);
