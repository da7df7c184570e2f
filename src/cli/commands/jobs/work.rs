//! `arbiter jobs work`: a worker without the HTTP API. It claims the shards of any batch
//! or evaluation on the store (this home's SQLite file, or the shared PostgreSQL
//! database), as a server's workers do, and takes up jobs whose process died, until it is
//! interrupted.

use crate::cli::output::Printer;
use crate::core::Context;
use crate::core::runner::JobQueue;
use anyhow::Result;
use clap::Args;
use std::num::NonZeroUsize;
use std::process::ExitCode;

/// How often the worker looks for jobs whose process died, as a server does.
const ORPHAN_SWEEP: std::time::Duration = std::time::Duration::from_secs(5);

#[derive(Debug, Args)]
pub struct JobsWorkArgs {
    /// Shards run at once [default: `server.max_running_jobs`, 2]
    #[arg(long, value_name = "N")]
    pub slots: Option<NonZeroUsize>,
}

pub(crate) async fn work(
    ctx: &Context,
    args: &JobsWorkArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let slots = args
        .slots
        .unwrap_or(ctx.settings().server.max_running_jobs)
        .get();
    let queue = JobQueue::new(ctx.clone(), slots);
    match queue.resume_orphans().await {
        Ok(0) => {}
        Ok(count) => tracing::info!(count, "resuming jobs left unfinished"),
        Err(error) => tracing::error!(%error, "looking for unfinished jobs failed"),
    }
    let watcher = queue.watch_orphans(ORPHAN_SWEEP);
    let workers = queue.work_shards();
    printer.status(&format!(
        "working on the shards of every job on the store, {slots} at a time, as {}; \
         Ctrl-C to stop",
        crate::core::jobs::shards::worker_name()
    ));
    super::super::serve::shutdown_signal().await;
    watcher.abort();
    for worker in workers {
        worker.abort();
    }
    // A shard interrupted here is left to this process's lease, which ends with it: any
    // worker then resumes it from its first line without a result.
    printer.status("stopped");
    Ok(ExitCode::SUCCESS)
}
