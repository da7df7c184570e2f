//! `arbiter serve`: the HTTP interface over the same `core` operations as the CLI.
//!
//! Layers, outermost first: request ID + access log (every response carries
//! `x-request-id`), panic catcher (a bug answers 500 and the server keeps serving), then
//! per route group the bearer-token check and rate limit. Every failure is a problem
//! document (`error::ApiError`).

mod admission;
mod auth;
mod connections;
mod error;
mod extract;
mod idempotency;
mod listener;
mod memory;
mod metrics;
mod openapi;
mod rate_limit;
mod request;
mod routes;
mod ui;

use crate::core::Context;
use crate::core::runner::JobQueue;
use axum::Router;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

pub use request::REQUEST_ID_HEADER;

/// What every handler sees.
#[derive(Clone)]
pub(crate) struct AppState {
    pub(crate) ctx: Context,
    pub(crate) limiter: Arc<rate_limit::RateLimiter>,
    pub(crate) max_body_bytes: usize,
    /// How long a request body may stall, and how fast it must keep arriving.
    pub(crate) body_pace: extract::BodyPace,
    /// Batch and alignment jobs, run in this process.
    pub(crate) jobs: JobQueue,
    /// Slots for decisions computed at once, and their queue.
    pub(crate) decisions: Arc<admission::Admission>,
    /// Large request bodies read, for the trim that returns their memory ([`memory`]).
    pub(crate) large_bodies: Arc<memory::LargeBodies>,
    /// Failed authentications per client address.
    pub(crate) auth_failures: Arc<rate_limit::RateLimiter>,
    /// The base of problem `type` URIs: `{server.public_url}/problems`, else the listen
    /// address's. Never the request's `Host`, which the client chooses.
    pub(crate) problems_url: Arc<str>,
    /// The web app, when it is served (`server.ui`, or `arbiter ui`).
    pub(crate) ui: Option<Arc<ui::UiHome>>,
}

impl AppState {
    /// The repository model a route's `{modelId}` names: not found, with "did you mean"
    /// among the base models, when it names none ([`crate::core::models::named_here`]).
    pub(crate) fn model(&self, text: &str) -> crate::error::Result<crate::ids::ModelRef> {
        crate::core::models::named_here(&self.ctx, text)
    }
}

/// The whole application: routes, auth, problem documents, request IDs, as served on
/// `listen`.
pub fn router(ctx: Context, listen: SocketAddr) -> Router {
    routes::router(state(ctx, listen))
}

/// The `OpenAPI` document `/openapi.json` serves, pretty-printed (the committed
/// `openapi.json` is this text).
pub fn openapi_json() -> String {
    openapi::pretty()
}

fn state(ctx: Context, listen: SocketAddr) -> AppState {
    let server = ctx.settings().server.clone();
    let public_url = server
        .public_url
        .clone()
        .unwrap_or_else(|| format!("http://{listen}"));
    AppState {
        auth_failures: Arc::new(rate_limit::RateLimiter::new(server.auth_failures)),
        problems_url: format!("{}/problems", public_url.trim_end_matches('/')).into(),
        limiter: Arc::new(rate_limit::RateLimiter::new(server.rate_limit)),
        max_body_bytes: server.max_body_bytes,
        body_pace: extract::BodyPace {
            timeout: server.connections.body_timeout,
            min_rate: server.connections.body_min_rate,
        },
        jobs: JobQueue::new(ctx.clone(), server.max_running_jobs.get()),
        decisions: Arc::new(admission::Admission::new(
            server.max_concurrent_decisions.get(),
            server.decision_queue,
        )),
        large_bodies: Arc::default(),
        ui: server
            .ui
            .then(|| Arc::new(ui::UiHome::for_tokens(public_url.starts_with("https:")))),
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
    serve_with_metrics(ctx, listener, None, shutdown).await
}

/// [`serve`], and `/metrics` on `metrics` (`server.metrics_listen`, bound by the caller so
/// it can say where) until the server stops. Without it nothing is recorded.
pub async fn serve_with_metrics(
    ctx: Context,
    listener: tokio::net::TcpListener,
    metrics: Option<tokio::net::TcpListener>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let state = state(ctx, listener.local_addr()?);
    serve_state(state, listener, metrics, shutdown).await
}

/// `arbiter ui`: the API and the web app on `listener` (a loopback address, which the
/// caller bound), for the home's owner, who logs in once with `login_code` (the link
/// printed); until `shutdown` resolves.
pub async fn serve_home_ui(
    ctx: Context,
    listener: tokio::net::TcpListener,
    login_code: &str,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut state = state(ctx, listener.local_addr()?);
    let owner = crate::core::tokens::Principal::owner(crate::core::requests::local_user());
    state.ui = Some(Arc::new(ui::UiHome::for_owner(owner, login_code)));
    serve_state(state, listener, None, shutdown).await
}

async fn serve_state(
    state: AppState,
    listener: tokio::net::TcpListener,
    metrics: Option<tokio::net::TcpListener>,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    memory::limit_arenas(state.ctx.settings().server.max_concurrent_decisions.get());
    let exporter = metrics.map(|listener| {
        crate::telemetry::metrics::install();
        if let Ok(store) = state.ctx.store() {
            crate::telemetry::metrics::store_backend(store.dialect().backend());
        }
        let app = metrics::router(state.ctx.clone(), {
            let decisions = state.decisions.clone();
            move || decisions.occupancy()
        });
        tokio::spawn(async move {
            if let Err(error) = axum::serve(listener, app).await {
                tracing::error!(%error, "the metrics listener failed");
            }
        })
    });
    match state.jobs.resume_orphans().await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "resuming jobs left unfinished"),
        Err(error) => tracing::error!(%error, "looking for unfinished jobs failed"),
    }
    if state.ui.is_some() {
        let ctx = state.ctx.clone();
        tokio::task::spawn_blocking(move || {
            let ready = crate::core::engines::ready_builtin(&ctx);
            tracing::info!(models = ready, "the web app's models are ready");
        });
    }
    let watcher = state.jobs.watch_orphans(ORPHAN_SWEEP);
    let shard_workers = state.jobs.work_shards();
    let trimmer = memory::watch(state.decisions.clone(), state.large_bodies.clone());
    let listener = listener::ProblemListener::new(listener, state.problems_url.clone());
    let limits = state.ctx.settings().server.connections;
    connections::serve(listener, routes::router(state), limits, shutdown).await;
    watcher.abort();
    for worker in shard_workers {
        worker.abort();
    }
    trimmer.abort();
    if let Some(exporter) = exporter {
        exporter.abort();
    }
    Ok(())
}

/// How often a running server looks for jobs whose worker died.
const ORPHAN_SWEEP: std::time::Duration = std::time::Duration::from_secs(5);
