//! The metrics listener's whole application (`server.metrics_listen`): `GET /metrics` in
//! the Prometheus text format, and 404 for anything else. The families are
//! [`crate::telemetry::metrics`]'s; this sets the gauges read at each scrape first.

use crate::core::Context;
use crate::telemetry::metrics;
use axum::http::StatusCode;
use axum::response::IntoResponse;

/// The router; `occupancy` reads the decisions in flight and queued at each scrape (the
/// admission's, which records its refusals in the metrics: it is passed in rather than
/// imported).
pub(crate) fn router(
    ctx: Context,
    occupancy: impl Fn() -> (usize, usize) + Clone + Send + Sync + 'static,
) -> axum::Router {
    axum::Router::new().route(
        "/metrics",
        axum::routing::get(move || {
            let ctx = ctx.clone();
            let in_use = occupancy();
            async move { scrape(ctx, in_use).await }
        }),
    )
}

async fn scrape(ctx: Context, occupancy: (usize, usize)) -> axum::response::Response {
    metrics::set_occupancy(occupancy);
    // The jobs by state, from the store; a store out of reach leaves the last
    // figures and is said in the log (`arbiter_store_errors_total` counts it).
    match crate::core::blocking(move || crate::core::jobs::count_by_state(&ctx)).await {
        Ok(counts) => metrics::set_jobs(&counts),
        Err(error) => tracing::warn!(%error, "counting jobs for /metrics"),
    }
    match metrics::encode() {
        Some(text) => (
            [(axum::http::header::CONTENT_TYPE, metrics::CONTENT_TYPE)],
            text,
        )
            .into_response(),
        None => StatusCode::SERVICE_UNAVAILABLE.into_response(),
    }
}
