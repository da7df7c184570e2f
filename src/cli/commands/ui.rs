//! `arbiter ui`: the web app over the local home, on a loopback address only, for its
//! owner, who logs in by the one-time link printed (as Jupyter prints one).

use super::serve::shutdown_signal;
use crate::cli::output::Printer;
use crate::core::Context;
use anyhow::{Context as _, Result};
use clap::Args;
use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  arbiter ui\n  arbiter ui --port 0")]
pub struct UiArgs {
    /// The port on 127.0.0.1 to listen on (0 picks a free port); the app is never served
    /// beyond this machine: for a team, `arbiter serve` with server.ui set
    #[arg(long, default_value_t = 8787, value_name = "PORT")]
    pub port: u16,
}

pub(crate) async fn run(ctx: Context, args: &UiArgs, printer: &Printer) -> Result<ExitCode> {
    let at = SocketAddr::from((Ipv4Addr::LOCALHOST, args.port));
    let listener = tokio::net::TcpListener::bind(at)
        .await
        .with_context(|| format!("binding {at}"))?;
    let address = listener.local_addr()?;
    ctx.store()?;
    // 128 bits, single use: the link logs in once, then the session's cookie does.
    let code = uuid::Uuid::new_v4().simple().to_string();
    printer.line(&format!(
        "open http://{address}/ui/login?code={code} to log in (the link works once)"
    ))?;
    crate::server::serve_home_ui(ctx, listener, &code, shutdown_signal())
        .await
        .context("serving")?;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}
