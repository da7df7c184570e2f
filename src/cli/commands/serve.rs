//! `arbiter serve`: bind, say where, and serve until SIGINT or SIGTERM.

use crate::cli::output::Printer;
use crate::core::Context;
use anyhow::{Context as _, Result};
use clap::Args;
use std::net::SocketAddr;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter tokens create --name ci --scope decisions --role 'acme/*=reader'\n  arbiter serve --listen 127.0.0.1:8080"
)]
pub struct ServeArgs {
    /// The address to listen on (port 0 picks a free port)
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR")]
    pub listen: SocketAddr,
}

pub(crate) async fn run(ctx: Context, args: &ServeArgs, printer: &Printer) -> Result<ExitCode> {
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .with_context(|| format!("binding {}", args.listen))?;
    let address = listener.local_addr()?;
    // Warm the store before accepting traffic, so a broken home fails here, not per request.
    ctx.store()?;
    warn_undated_engines(&ctx);
    let metrics = match ctx.settings().server.metrics_listen {
        Some(at) => Some(
            tokio::net::TcpListener::bind(at)
                .await
                .with_context(|| format!("binding server.metrics_listen {at}"))?,
        ),
        None => None,
    };
    printer.line(&format!("listening on http://{address}"))?;
    if let Some(metrics) = &metrics {
        let at = metrics.local_addr()?;
        tracing::info!(address = %at, "serving /metrics");
        printer.line(&format!("metrics on http://{at}/metrics"))?;
    }
    crate::server::serve_with_metrics(ctx, listener, metrics, shutdown_signal())
        .await
        .context("serving")?;
    // Logged, as everything the server says on stderr, so `ARBITER_LOG_FORMAT=json` writes
    // nothing but JSON lines.
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// A remote engine whose `config.yaml` entry gives no `release_date` leaves the base models
/// routed to it with a null `release_date` in `GET /v1/models`: nothing is guessed, so say so.
fn warn_undated_engines(ctx: &Context) {
    for engine in ctx.engines().configured() {
        if engine.settings.release_date.is_none() && !engine.models.is_empty() {
            tracing::warn!(
                "engine `{}` has no release_date in config.yaml, so GET /v1/models gives {} a \
                 null release_date",
                engine.settings.name,
                engine.models.join(", ")
            );
        }
    }
}

pub(crate) async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
