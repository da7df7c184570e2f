//! `arbiter jobs`: list, poll, cancel and read the results of batch and alignment jobs.
//!
//! Every subcommand first takes up jobs that nobody runs any more (their process died),
//! each in a background worker, so a `kill -9` never leaves a job `running` forever.

use super::output::Printer;
use crate::core::jobs::NoObserver;
use crate::core::{self, Context};
use crate::wire::jobs::{Job, JobStatus, Progress};
use anyhow::{Context as _, Result};
use clap::{Args, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::time::Duration;

#[derive(Debug, Args)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: JobsCommand,
}

impl JobsArgs {
    /// `jobs worker`: a background process whose log is its job's `worker.log`.
    pub(crate) fn is_worker(&self) -> bool {
        matches!(self.command, JobsCommand::Worker(_))
    }
}

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// List jobs, newest first
    List(JobsListArgs),
    /// Show a job; with --wait, follow it until it ends
    Poll(JobsPollArgs),
    /// Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is)
    Cancel(JobIdArg),
    /// Print a job's results so far: JSON Lines, one per item, in input order
    Results(JobsResultsArgs),
    /// Run a job in this process (what `--detach` starts in the background)
    #[command(hide = true)]
    Worker(JobIdArg),
}

#[derive(Debug, Args)]
pub struct JobsListArgs {
    /// Only the jobs of this model, <owner>/<model>
    pub model: Option<String>,
    /// Only jobs with this status
    #[arg(long, value_enum)]
    pub status: Option<StatusArg>,
    /// At most this many jobs
    #[arg(long, short = 'n', default_value_t = 20)]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct JobsPollArgs {
    /// The job ID
    pub job_id: String,
    /// Follow the job (a progress bar on a terminal) until it ends; exit 1 unless it completed
    #[arg(long)]
    pub wait: bool,
}

#[derive(Debug, Args)]
pub struct JobIdArg {
    /// The job ID
    pub job_id: String,
}

#[derive(Debug, Args)]
pub struct JobsResultsArgs {
    /// The job ID
    pub job_id: String,
    /// Write the results to FILE instead of stdout
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// `--status`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StatusArg {
    Queued,
    Running,
    Completed,
    Failed,
    Cancelled,
}

impl From<StatusArg> for JobStatus {
    fn from(status: StatusArg) -> Self {
        match status {
            StatusArg::Queued => Self::Queued,
            StatusArg::Running => Self::Running,
            StatusArg::Completed => Self::Completed,
            StatusArg::Failed => Self::Failed,
            StatusArg::Cancelled => Self::Cancelled,
        }
    }
}

pub(crate) async fn run(ctx: &Context, args: JobsArgs, printer: &Printer) -> Result<ExitCode> {
    match args.command {
        JobsCommand::Worker(args) => worker(ctx, &args.job_id).await,
        JobsCommand::Cancel(args) => {
            let job = {
                let (ctx, id) = (ctx.clone(), args.job_id.clone());
                core::blocking(move || core::jobs::cancel(&ctx, &id)).await?
            };
            resume_orphans(ctx)?;
            print_job(ctx, &job, printer)?;
            Ok(ExitCode::SUCCESS)
        }
        command => {
            resume_orphans(ctx)?;
            match command {
                JobsCommand::List(args) => list(ctx, &args, printer),
                JobsCommand::Poll(args) => poll(ctx, &args, printer).await,
                JobsCommand::Results(args) => results(ctx, &args, printer),
                JobsCommand::Cancel(_) | JobsCommand::Worker(_) => unreachable!("handled above"),
            }
        }
    }
}

/// Hand every orphaned job to a background worker.
fn resume_orphans(ctx: &Context) -> Result<()> {
    for lock in core::jobs::recover(ctx)? {
        let job_id = lock.job_id().to_owned();
        // The worker takes the lock itself; should another command race us to it, the
        // loser's worker finds the lock held and exits.
        drop(lock);
        spawn_worker(ctx, &job_id)?;
    }
    Ok(())
}

/// Start `arbiter jobs worker <id>` in the background, in its own process group (a Ctrl-C
/// at this terminal does not reach it), logging to the job's `worker.log`.
pub(crate) fn spawn_worker(ctx: &Context, job_id: &str) -> Result<()> {
    use std::os::unix::process::CommandExt;
    let files = core::jobs::files(ctx, job_id);
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(files.log())
        .with_context(|| format!("opening {}", files.log().display()))?;
    let exe = std::env::current_exe().context("finding the arbiter executable")?;
    std::process::Command::new(exe)
        .arg("--home")
        .arg(&ctx.settings().home)
        .args(["jobs", "worker", job_id])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
        .context("starting a background worker")?;
    Ok(())
}

async fn worker(ctx: &Context, job_id: &str) -> Result<ExitCode> {
    let files = core::jobs::files(ctx, job_id);
    let Some(lock) = files.try_lock(job_id)? else {
        tracing::info!(job = job_id, "another process runs this job");
        return Ok(ExitCode::SUCCESS);
    };
    tracing::info!(job = job_id, pid = std::process::id(), "worker started");
    let job = core::jobs::run(ctx, lock, &NoObserver).await?;
    tracing::info!(
        job = job_id,
        status = job.status.as_str(),
        "worker finished"
    );
    Ok(ExitCode::SUCCESS)
}

fn list(ctx: &Context, args: &JobsListArgs, printer: &Printer) -> Result<ExitCode> {
    let model_id = match &args.model {
        Some(model) => Some(core::models::open(ctx, model)?.model_id().to_string()),
        None => None,
    };
    let statuses: Vec<JobStatus> = args.status.map(Into::into).into_iter().collect();
    let jobs = core::jobs::list(ctx, model_id.as_deref(), &statuses, args.limit.max(1))?;
    if printer.wants_json() {
        printer.json(&jobs)?;
        return Ok(ExitCode::SUCCESS);
    }
    if jobs.is_empty() {
        printer.status("no jobs");
        return Ok(ExitCode::SUCCESS);
    }
    let paths = model_paths(ctx);
    let mut table = printer.new_table(&["JOB", "MODEL", "KIND", "STATUS", "PROGRESS", "CREATED"]);
    for job in &jobs {
        table.add_row(vec![
            job.job_id.clone(),
            paths
                .get(&job.model_id)
                .cloned()
                .unwrap_or_else(|| job.model_id.clone()),
            job.kind.as_str().to_owned(),
            job.status.as_str().to_owned(),
            progress_text(job.progress),
            job.created_at.clone(),
        ]);
    }
    printer.line(&table.to_string())?;
    Ok(ExitCode::SUCCESS)
}

async fn poll(ctx: &Context, args: &JobsPollArgs, printer: &Printer) -> Result<ExitCode> {
    let get = || {
        let (ctx, id) = (ctx.clone(), args.job_id.clone());
        core::blocking(move || core::jobs::get(&ctx, &id))
    };
    let mut job = get().await?;
    if !args.wait {
        print_job(ctx, &job, printer)?;
        return Ok(ExitCode::SUCCESS);
    }
    let bar = JobBar::new(printer, job.progress.total);
    let mut ticks = 0u32;
    while !job.status.is_finished() {
        bar.set(job.progress);
        tokio::time::sleep(Duration::from_millis(200)).await;
        // Its worker may die while we watch (or was dying when we looked, still holding
        // the lock): keep taking up orphans, or we would wait forever.
        ticks += 1;
        if ticks % 5 == 0 {
            resume_orphans(ctx)?;
        }
        job = get().await?;
    }
    bar.set(job.progress);
    bar.finish();
    if printer.wants_json() {
        printer.json(&job)?;
    }
    Ok(finish_status(&job, printer))
}

fn results(ctx: &Context, args: &JobsResultsArgs, printer: &Printer) -> Result<ExitCode> {
    let (job, reader) = core::jobs::results(ctx, &args.job_id)?;
    if !job.status.is_finished() {
        printer.status(&format!(
            "job {} is {}: {} of {} results so far",
            job.job_id,
            job.status.as_str(),
            job.progress.done,
            job.progress.total
        ));
    }
    let Some(mut reader) = reader else {
        return Ok(ExitCode::SUCCESS);
    };
    match &args.output {
        Some(path) => {
            let mut file = std::fs::File::create(path)
                .with_context(|| format!("creating {}", path.display()))?;
            std::io::copy(&mut reader, &mut file)
                .with_context(|| format!("writing {}", path.display()))?;
        }
        None => {
            std::io::copy(&mut reader, &mut std::io::stdout().lock())?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Run a job in this process until it ends, `observer` watching. A Ctrl-C cancels it (it
/// stops at its next item and keeps what finished; a second Ctrl-C kills us). Returns the
/// job as it ended and whether it was interrupted.
pub(crate) async fn run_here(
    ctx: &Context,
    lock: core::jobs::JobLock,
    observer: &dyn core::jobs::Observer,
    bar: &JobBar,
) -> Result<(Job, bool)> {
    let job_id = lock.job_id().to_owned();
    let running = core::jobs::run(ctx, lock, observer);
    tokio::pin!(running);
    tokio::select! {
        job = &mut running => Ok((job?, false)),
        _ = tokio::signal::ctrl_c() => {
            bar.println("interrupted: cancelling the job (what it finished is kept)");
            let (ctx, id) = (ctx.clone(), job_id);
            core::blocking(move || core::jobs::cancel(&ctx, &id)).await?;
            Ok((running.await?, true))
        }
    }
}

/// The exit code of a job that ended: 0 when completed, else 1 with why on stderr.
pub(crate) fn finish_status(job: &Job, printer: &Printer) -> ExitCode {
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
            ExitCode::SUCCESS
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

fn print_job(ctx: &Context, job: &Job, printer: &Printer) -> Result<()> {
    if printer.wants_json() {
        printer.json(job)?;
        return Ok(());
    }
    let model = model_paths(ctx)
        .remove(&job.model_id)
        .unwrap_or_else(|| job.model_id.clone());
    let mut lines = vec![
        format!("job       {}", job.job_id),
        format!("model     {model}"),
        format!("kind      {}", job.kind.as_str()),
        format!("status    {}", job.status.as_str()),
        format!("progress  {}", progress_text(job.progress)),
        format!("created   {}", job.created_at),
    ];
    if let Some(at) = &job.started_at {
        lines.push(format!("started   {at}"));
    }
    if let Some(at) = &job.finished_at {
        lines.push(format!("finished  {at}"));
    }
    if let Some(error) = &job.error {
        lines.push(format!("error     {} ({})", error.detail, error.code));
    }
    if let Some(result) = &job.result {
        lines.push(format!("result    {result}"));
    }
    printer.line(&lines.join("\n"))?;
    Ok(())
}

fn progress_text(progress: Progress) -> String {
    if progress.failed > 0 {
        format!(
            "{}/{} ({} failed)",
            progress.done, progress.total, progress.failed
        )
    } else {
        format!("{}/{}", progress.done, progress.total)
    }
}

/// `modelId` → path, for people.
fn model_paths(ctx: &Context) -> HashMap<String, String> {
    ctx.repos()
        .list()
        .map(|repos| {
            repos
                .into_iter()
                .map(|repo| (repo.model_id().to_string(), repo.path().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// A job's progress bar on stderr (items, items/s, ETA): drawn only on a terminal.
pub(crate) struct JobBar {
    bar: ProgressBar,
}

impl JobBar {
    pub(crate) fn new(printer: &Printer, total: u64) -> Self {
        let bar = if printer.interactive() {
            ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr())
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} [{elapsed_precise}] {wide_bar} {pos}/{len} {msg} {per_sec} ETA {eta}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        Self { bar }
    }

    pub(crate) fn set(&self, progress: Progress) {
        self.bar.set_length(progress.total);
        self.bar.set_position(progress.done);
        if progress.failed > 0 {
            self.bar
                .set_message(format!("({} failed)", progress.failed));
        }
    }

    pub(crate) fn println(&self, text: &str) {
        self.bar.println(text);
    }

    pub(crate) fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
