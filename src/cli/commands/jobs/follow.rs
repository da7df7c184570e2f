//! Following the job a command created (`batch`, `align`, `eval`), here or on a server:
//! its progress, Ctrl-C, and the exit status its ending gives.

use super::FailedItems;
use crate::cli::input::interrupt;
use crate::cli::output::Printer;
use crate::cli::output::progress::JobBar;
use crate::core::jobs::Observer;
use crate::core::service::{Created, Service};
use crate::wire::jobs::{Job, JobStatus, Progress};
use anyhow::Result;
use std::process::ExitCode;

/// Progress only: a job followed for its ending.
struct Watcher {
    bar: JobBar,
}

impl Observer for Watcher {
    fn progress(&self, progress: Progress) {
        self.bar.set(progress);
    }
}

/// How following a job ended.
pub(crate) enum Followed {
    /// The job ended; `interrupted` when a Ctrl-C cancelled it.
    Ended { job: Job, interrupted: bool },
    /// A Ctrl-C left it running on the server.
    Left(Job),
}

/// Follow a job this command created until it ends ([`Service::follow_job`]), handling
/// Ctrl-C. A job that runs in this process is cancelled (it stops at its next item and keeps
/// what finished). A job on a server goes on without us unless cancelled: with
/// `cancel_on_interrupt` it is; else on a terminal we ask ([`interrupt::ask_to_cancel`]:
/// yes unless answered no); elsewhere it is left running.
pub(crate) async fn follow(
    service: &dyn Service,
    job: &Job,
    observer: &dyn Observer,
    bar: &JobBar,
    printer: &Printer,
    cancel_on_interrupt: bool,
) -> Result<Followed> {
    let following = service.follow_job(job, observer);
    tokio::pin!(following);
    tokio::select! {
        ended = &mut following => Ok(Followed::Ended { job: ended?, interrupted: false }),
        _ = tokio::signal::ctrl_c() => {
            // From here `following` is not polled until the answer: the display and the
            // polling stop at once.
            let cancel = if service.runs_jobs_here() {
                bar.println("interrupted: cancelling the job (what it finished is kept)");
                true
            } else if cancel_on_interrupt {
                true
            } else if let Some(tty) = printer.interactive().then(interrupt::terminal).flatten() {
                // The bar would redraw over the question: it is done with either way.
                bar.hide();
                interrupt::ask_to_cancel(tty, &job.job_id.to_string()).await
            } else {
                false
            };
            if !cancel {
                return Ok(Followed::Left(job.clone()));
            }
            if !service.runs_jobs_here() {
                let text = format!("interrupted: cancelling job {} on the server", job.job_id);
                bar.suspend(|| printer.status(&text));
            }
            service.cancel_job(&job.job_id.into()).await?;
            Ok(Followed::Ended { job: following.await?, interrupted: true })
        }
    }
}

/// Follow a job this command created with only a progress bar ([`follow`]).
pub(crate) async fn watch(
    service: &dyn Service,
    job: &Job,
    printer: &Printer,
    cancel_on_interrupt: bool,
) -> Result<Followed> {
    let watcher = Watcher {
        bar: JobBar::new(printer, job.progress.total, job.kind),
    };
    let followed = follow(
        service,
        job,
        &watcher,
        &watcher.bar,
        printer,
        cancel_on_interrupt,
    )
    .await;
    watcher.bar.finish();
    followed
}

/// Hand a job this command created to a background worker (or leave it to the server) and
/// say so: the bare ID on stdout even when piped (`id=$(arbiter batch … --detach)`, as
/// `docker run -d`), the job itself with `--json`, how to follow it on stderr.
pub(crate) async fn detach(
    service: &dyn Service,
    job: &Job,
    printer: &Printer,
    queued: &str,
) -> Result<ExitCode> {
    service.detach_job(job).await?;
    if printer.json_flag() {
        printer.json(job)?;
    } else {
        printer.line(&job.job_id.to_string())?;
        printer.status(&format!(
            "{queued} queued; follow with `arbiter jobs poll {} --wait`",
            job.job_id
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// What to say, and the exit code, when a Ctrl-C left a job running on the server.
pub(crate) fn left_running(job: &Job, printer: &Printer) -> ExitCode {
    printer.status(&format!(
        "job {id} goes on running on the server; follow it with `arbiter jobs poll {id} --wait`, \
         read its results with `arbiter jobs results {id}`, or stop it with `arbiter jobs cancel {id}`",
        id = job.job_id
    ));
    ExitCode::from(130)
}

/// What to say when the server already had a job's request (a retried step).
pub(crate) fn note_replayed(created: &Created, printer: &Printer) {
    if created.replayed {
        printer.status(&format!(
            "the server already had this request: following job {} (created {}), not a new one; \
             set ARBITER_RUN_ID to something new to start another",
            created.job.job_id, created.job.created_at
        ));
    }
}

/// The exit code of a job that ended: 0 when it completed with no more failed items than
/// `allowed`, else 1 with why on stderr (so a CI script notices a batch whose items failed).
pub(crate) fn finish_status(job: &Job, allowed: FailedItems, printer: &Printer) -> ExitCode {
    let progress = job.progress;
    match job.status {
        JobStatus::Completed => {
            let failed = if progress.failed > 0 {
                format!(" ({} failed)", progress.failed)
            } else {
                String::new()
            };
            printer.status(&format!(
                "completed: {} items{failed}, job {}",
                progress.done, job.job_id
            ));
            if allowed.allows(progress.failed, progress.total) {
                return ExitCode::SUCCESS;
            }
            printer.status(&format!(
                "error: {} of {} items failed, more than the {allowed} allowed \
                 (--max-failed-items); the errors: arbiter jobs results {}",
                progress.failed, progress.total, job.job_id
            ));
            ExitCode::from(1)
        }
        JobStatus::Failed => {
            let detail = job
                .error
                .as_ref()
                .map_or("no reason recorded", |p| p.detail.as_str());
            printer.status(&format!("error: job {} failed: {detail}", job.job_id));
            ExitCode::from(1)
        }
        status => {
            printer.status(&format!(
                "job {} {} after {} of {} items",
                job.job_id,
                status.as_str(),
                progress.done,
                progress.total
            ));
            ExitCode::from(1)
        }
    }
}
