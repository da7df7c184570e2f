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
#[command(after_help = "Examples:\n  arbiter ui\n  arbiter ui --port 0 --no-browser")]
pub struct UiArgs {
    /// The port on 127.0.0.1 to listen on (0 picks a free port); the app is never served
    /// beyond this machine: for a team, `arbiter serve` with server.ui set
    #[arg(long, default_value_t = 8787, value_name = "PORT")]
    pub port: u16,
    /// Print the login link without opening it in the default browser
    #[arg(long)]
    pub no_browser: bool,
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
    let link = format!("http://{address}/ui/login?code={code}");
    printer.line(&format!("open {link} to log in (the link works once)"))?;
    if !args.no_browser {
        open_in_browser(&link);
    }
    crate::server::serve_home_ui(ctx, listener, &code, shutdown_signal())
        .await
        .context("serving")?;
    tracing::info!("stopped");
    Ok(ExitCode::SUCCESS)
}

/// Ask the desktop to open `link` in the default browser; when it cannot (no desktop, no
/// opener), the printed link is the way in.
fn open_in_browser(link: &str) {
    let mut command = if cfg!(target_os = "macos") {
        std::process::Command::new("open")
    } else if cfg!(windows) {
        let mut start = std::process::Command::new("cmd");
        start.args(["/C", "start", ""]);
        start
    } else {
        std::process::Command::new("xdg-open")
    };
    let opened = command
        .arg(link)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    if let Err(error) = opened {
        tracing::debug!(%error, "no browser opened");
    }
}
