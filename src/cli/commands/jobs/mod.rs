//! `arbiter jobs`: list, poll, cancel and read the results of batch and alignment jobs.
//!
//! Every subcommand first takes up jobs that nobody runs any more (their process died),
//! each in a background worker, so a `kill -9` never leaves a job `running` forever (a
//! server does that itself). Also the one way `batch`, `align` and `eval` follow the job
//! they create, here or on a server: [`follow()`].

mod follow;
mod work;

pub(crate) use follow::{
    Followed, detach, finish_status, follow, left_running, note_replayed, watch,
};

use crate::cli::Target;
use crate::cli::input::values;
use crate::cli::output::Printer;
use crate::cli::output::failures::Failures;
use crate::cli::output::progress::{JobBar, progress_text};
use crate::cli::output::table::{Column, Table, timestamp};
use crate::core::jobs::{NoObserver, Observer};
use crate::core::service::{JobsQuery, Service};
use crate::core::{self, Context};
use crate::error::Error;
use crate::ids::JobId;
use crate::wire::jobs::{Job, JobKind, JobStatus, Progress};
use anyhow::Result;
use clap::{Args, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;
use std::process::{ExitCode, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter jobs list acme/support\n  arbiter jobs poll JOB_ID --wait\n  arbiter jobs results JOB_ID > answers.jsonl"
)]
pub struct JobsArgs {
    #[command(subcommand)]
    pub command: JobsCommand,
}

impl JobsArgs {
    /// `jobs worker` (a background process whose log is its job's `worker.log`) and
    /// `jobs work`: processes that log what they do.
    pub(crate) fn is_worker(&self) -> bool {
        matches!(self.command, JobsCommand::Worker(_) | JobsCommand::Work(_))
    }
}

#[derive(Debug, Subcommand)]
pub enum JobsCommand {
    /// List jobs, newest first
    List(JobsListArgs),
    /// Show a job; with --wait, follow it until it ends
    Poll(JobsPollArgs),
    /// Cancel a job: a queued one at once, a running one at its next item (a finished job stays as it is); its status reads cancelling until it has stopped
    Cancel(JobsCancelArgs),
    /// Print a job's results so far: JSON Lines, one per item, in input order
    Results(JobsResultsArgs),
    /// Run a job in this process (what `--detach` starts in the background)
    #[command(hide = true)]
    Worker(JobIdArg),
    /// Work on the shards of every batch and evaluation on the store until interrupted, as a server's workers do, without serving HTTP
    #[command(
        long_about = "Work on the shards of every batch and evaluation on the store until interrupted, as a server's workers do, without serving HTTP.\n\nA batch or an evaluation is split into shards (about 16 a job, of 16 to 256 items; `server.shard_size` sets their size) that every process on the store claims, one at a time per slot: `arbiter serve` replicas, `arbiter jobs work` processes, the command that created the job. On one machine, several processes share one job through the home's SQLite file; replicas share it through one PostgreSQL database (ARBITER_DATABASE_URL). A shard whose process dies is taken over by another, alone, and resumed from its first item without a result: each item gets one result line and one capture. `jobs poll JOB` shows the shards and the workers (host:pid) that ran them.",
        after_help = "Examples:\n  arbiter jobs work\n  arbiter jobs work --slots 1\n  ARBITER_DATABASE_URL=postgres://arbiter@db/arbiter arbiter jobs work"
    )]
    Work(work::JobsWorkArgs),
}

#[derive(Debug, Args)]
pub struct JobsListArgs {
    /// Only the jobs of this model, <owner>/<model>
    pub model: Option<String>,
    /// Only jobs with this status
    #[arg(long, value_enum)]
    pub status: Option<StatusArg>,
    /// At most this many jobs (1 to 1000)
    #[arg(long, short = 'n', default_value_t = 20,
          value_parser = values::listing_limit())]
    pub limit: usize,
}

#[derive(Debug, Args)]
pub struct JobsPollArgs {
    /// The job ID, or a prefix of it that starts no other job's (4 or more characters, as `jobs list` shows)
    pub job_id: String,
    /// Follow the job (a progress bar on a terminal) until it ends; exit 1 unless it completed with no more failed items than allowed
    #[arg(long)]
    pub wait: bool,
    /// With --wait: how many items may fail before the exit code is 1, a count (5) or a share of the items (2%)
    #[arg(long, value_name = "N|P%", default_value = "0", requires = "wait")]
    pub max_failed_items: FailedItems,
}

/// `--max-failed-items`: how many of a job's items may fail while it still counts as a
/// success for the exit code: a count, or a percentage of the job's items.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FailedItems {
    Count(u64),
    Percent(f64),
}

impl FailedItems {
    /// None allowed: any failed item makes the exit code 1.
    pub const NONE: Self = Self::Count(0);

    pub(crate) fn allows(self, failed: u64, total: u64) -> bool {
        match self {
            Self::Count(n) => failed <= n,
            #[allow(clippy::cast_precision_loss)] // item counts are far below 2^52
            Self::Percent(p) => failed as f64 <= p / 100.0 * total as f64,
        }
    }
}

impl std::fmt::Display for FailedItems {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Count(n) => write!(f, "{n}"),
            Self::Percent(p) => write!(f, "{p}%"),
        }
    }
}

impl std::str::FromStr for FailedItems {
    type Err = String;

    fn from_str(text: &str) -> std::result::Result<Self, Self::Err> {
        let wrong = || format!("`{text}` is neither a count of items (5) nor a percentage (2%)");
        match text.strip_suffix('%') {
            Some(number) => {
                let p: f64 = number.trim().parse().map_err(|_| wrong())?;
                if (0.0..=100.0).contains(&p) {
                    Ok(Self::Percent(p))
                } else {
                    Err(format!("`{text}`: a percentage is from 0% to 100%"))
                }
            }
            None => text.trim().parse().map(Self::Count).map_err(|_| wrong()),
        }
    }
}

#[derive(Debug, Args)]
pub struct JobIdArg {
    /// The job ID, or a prefix of it that starts no other job's (4 or more characters, as `jobs list` shows)
    pub job_id: String,
}

#[derive(Debug, Args)]
pub struct JobsCancelArgs {
    /// The job ID, or a prefix of it that starts no other job's (4 or more characters, as `jobs list` shows)
    pub job_id: String,
    /// Wait until the job has stopped (cancelled, or ended before the cancel reached it), then show it
    #[arg(long)]
    pub wait: bool,
}

#[derive(Debug, Args)]
pub struct JobsResultsArgs {
    /// The job ID, or a prefix of it that starts no other job's (4 or more characters, as `jobs list` shows)
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

pub(crate) async fn run(target: &Target, args: JobsArgs, printer: &Printer) -> Result<ExitCode> {
    let service = target.service();
    match args.command {
        JobsCommand::Worker(args) => worker(target.local("jobs worker")?, &args.job_id).await,
        JobsCommand::Work(args) => work::work(target.local("jobs work")?, &args, printer).await,
        JobsCommand::Cancel(args) => {
            let mut job = service.cancel_job(&args.job_id.as_str().into()).await?;
            service.take_up_orphans().await?;
            if args.wait && !job.status.is_finished() {
                // No bar: what is awaited is the stop, not the items.
                job = service.follow_job(&job, &NoObserver).await?;
            }
            print_job(service, &job, printer).await?;
            Ok(ExitCode::SUCCESS)
        }
        command => {
            service.take_up_orphans().await?;
            match command {
                JobsCommand::List(args) => list(service, &args, printer).await,
                JobsCommand::Poll(args) => poll(service, &args, printer).await,
                JobsCommand::Results(args) => results(service, &args, printer).await,
                JobsCommand::Cancel(_) | JobsCommand::Worker(_) | JobsCommand::Work(_) => {
                    unreachable!("handled above")
                }
            }
        }
    }
}

/// Start `arbiter jobs worker <id>` in the background, in its own process group (a Ctrl-C
/// at this terminal does not reach it), logging to the job's `worker.log`.
pub(crate) fn spawn_worker(ctx: &Context, job_id: &JobId) -> crate::error::Result<()> {
    use std::os::unix::process::CommandExt;
    let files = core::jobs::files(ctx, job_id);
    std::fs::create_dir_all(files.dir())
        .map_err(|e| Error::internal(&format!("creating {}", files.dir().display()), e))?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(files.log())
        .map_err(|e| Error::internal(&format!("opening {}", files.log().display()), e))?;
    let exe = std::env::current_exe()
        .map_err(|e| Error::internal("finding the arbiter executable", e))?;
    let worker = std::process::Command::new(exe)
        .arg("--home")
        .arg(&ctx.settings().home)
        .args(["jobs", "worker", &job_id.to_string()])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
        .map_err(|e| Error::internal("starting a background worker", e))?;
    // For people and tests: which process to look at. The claim in the store is what counts.
    let _ = std::fs::write(files.worker_pid(), worker.id().to_string());
    Ok(())
}

pub(crate) async fn worker(ctx: &Context, job_id: &str) -> Result<ExitCode> {
    let id = core::jobs::parse_id(job_id)?;
    let claimed = {
        let ctx = ctx.clone();
        core::blocking(move || core::jobs::claim(&ctx, &id)).await?
    };
    let Some(claim) = claimed else {
        let sharded = {
            let ctx = ctx.clone();
            core::blocking(move || core::jobs::shards::has_open_shards(&ctx, &id)).await?
        };
        if sharded {
            // Its shards are claimed one at a time, by this worker and any other process.
            let job = core::runner::drive(ctx, id, &NoObserver).await?;
            tracing::info!(
                job = job_id,
                status = job.status.as_str(),
                "worker finished"
            );
        } else {
            tracing::info!(job = job_id, "another process runs this job");
        }
        return Ok(ExitCode::SUCCESS);
    };
    tracing::info!(job = job_id, pid = std::process::id(), "worker started");
    let job = core::runner::run(ctx, claim, &NoObserver).await?;
    tracing::info!(
        job = job_id,
        status = job.status.as_str(),
        "worker finished"
    );
    Ok(ExitCode::SUCCESS)
}

async fn list(service: &dyn Service, args: &JobsListArgs, printer: &Printer) -> Result<ExitCode> {
    let model = match &args.model {
        Some(model) => Some(service.model_named(model).await?),
        None => None,
    };
    let jobs = service
        .list_jobs(JobsQuery {
            model: model.as_ref(),
            status: args.status.map(Into::into),
            limit: args.limit,
        })
        .await?;
    if printer.wants_json() {
        printer.json(&jobs)?;
        return Ok(ExitCode::SUCCESS);
    }
    if jobs.is_empty() {
        printer.status("no jobs");
        return Ok(ExitCode::SUCCESS);
    }
    let paths = service.model_paths().await;
    let mut table = Table::new(vec![
        Column::whole("Job").always(),
        Column::text("Model").priority(5),
        Column::whole("Kind").priority(3),
        Column::whole("Status").priority(6),
        Column::whole("Progress").priority(4),
        Column::time("Created").priority(2),
    ]);
    let ids = printer.ids(
        &jobs
            .iter()
            .map(|j| j.job_id.to_string())
            .collect::<Vec<_>>(),
    );
    for (job, id) in jobs.iter().zip(ids) {
        table.row(vec![
            id,
            paths
                .get(&job.model_id)
                .cloned()
                .unwrap_or_else(|| job.model_id.to_string()),
            job.kind.as_str().to_owned(),
            job.status_text().to_owned(),
            progress_text(job.progress),
            timestamp(job.created_at),
        ]);
    }
    printer.table(&table)?;
    Ok(ExitCode::SUCCESS)
}

async fn poll(service: &dyn Service, args: &JobsPollArgs, printer: &Printer) -> Result<ExitCode> {
    let job = service.get_job(&args.job_id.as_str().into()).await?;
    if !args.wait {
        print_job(service, &job, printer).await?;
        return Ok(ExitCode::SUCCESS);
    }
    let waiter = Waiter {
        bar: JobBar::new(printer, job.progress.total, job.kind),
        batch: job.kind == JobKind::Batch,
        failed: AtomicBool::new(false),
        failures: Mutex::new(Failures::default()),
    };
    let job = service.follow_job(&job, &waiter).await?;
    waiter.bar.finish();
    if printer.wants_json() {
        printer.json(&job)?;
    }
    waiter
        .failures
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .report(&job, printer);
    Ok(finish_status(&job, args.max_failed_items, printer))
}

/// `jobs poll --wait`'s watch: the bar and, when a batch job ends with failed items, those
/// items named as `batch` names them (its result lines are read only then).
struct Waiter {
    bar: JobBar,
    batch: bool,
    failed: AtomicBool,
    failures: Mutex<Failures>,
}

impl Observer for Waiter {
    fn progress(&self, progress: Progress) {
        self.bar.set(progress);
        self.failed.store(progress.failed > 0, Ordering::Relaxed);
    }

    fn line(&self, line: &[u8]) {
        self.failures
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .note(line);
    }

    fn wants_lines(&self) -> bool {
        self.batch && self.failed.load(Ordering::Relaxed)
    }
}

async fn results(
    service: &dyn Service,
    args: &JobsResultsArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let mut out: Capture<Box<dyn Write + Send>> = Capture::new(match &args.output {
        Some(path) => Box::new(std::io::BufWriter::new(
            crate::cli::file_modes::create_output_file(path)?,
        )),
        None => Box::new(std::io::stdout()),
    });
    let job = service
        .job_results(&args.job_id.as_str().into(), &mut out)
        .await;
    let job = out.finish(job)?;
    if !job.status.is_finished() {
        printer.status(&format!(
            "job {} is {}: {} of {} results so far",
            job.job_id,
            job.status_text(),
            job.progress.done,
            job.progress.total
        ));
    }
    Ok(ExitCode::SUCCESS)
}

/// A writer that keeps its first I/O error, so a command can report it as such (a closed
/// pipe is not an error, a full disk is) after an operation that could only say it failed.
pub(crate) struct Capture<W: Write> {
    inner: W,
    error: Option<std::io::Error>,
}

impl<W: Write> Capture<W> {
    pub(crate) fn new(inner: W) -> Self {
        Self { inner, error: None }
    }

    /// The operation's result, with a write error in its place when there was one.
    pub(crate) fn finish<T>(mut self, result: crate::error::Result<T>) -> Result<T> {
        let flushed = self.inner.flush();
        if let Some(error) = self.error.take() {
            return Err(error.into());
        }
        let value = result?;
        flushed?;
        Ok(value)
    }
}

impl<W: Write> Write for Capture<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.inner.write(buf).inspect_err(|e| {
            if self.error.is_none() {
                self.error = Some(std::io::Error::new(e.kind(), e.to_string()));
            }
        })
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

async fn print_job(service: &dyn Service, job: &Job, printer: &Printer) -> Result<()> {
    if printer.wants_json() {
        printer.json(job)?;
        return Ok(());
    }
    let model = service
        .model_paths()
        .await
        .remove(&job.model_id)
        .unwrap_or_else(|| job.model_id.to_string());
    let mut lines = vec![
        format!("job       {}", job.job_id),
        format!("model     {model}"),
        format!("kind      {}", job.kind.as_str()),
        format!("status    {}", job.status_text()),
        format!("progress  {}", progress_text(job.progress)),
        format!("created   {}", timestamp(job.created_at)),
    ];
    if let Some(at) = job.started_at {
        lines.push(format!("started   {}", timestamp(at)));
    }
    if let Some(at) = job.finished_at {
        lines.push(format!("finished  {}", timestamp(at)));
    }
    if let Some(shards) = &job.shards {
        let workers: Vec<String> = shards
            .workers
            .iter()
            .map(|(worker, n)| format!("{worker} ({n})"))
            .collect();
        lines.push(format!(
            "shards    {} of {} done, {} running, {} taken over; run by {}",
            shards.done,
            shards.total,
            shards.running,
            shards.taken_over,
            if workers.is_empty() {
                "nobody yet".to_owned()
            } else {
                workers.join(", ")
            }
        ));
    }
    if let Some(error) = &job.error {
        lines.push(format!("error     {} ({})", error.detail, error.code));
    }
    if let Some(result) = &job.result {
        let result = serde_json::to_value(result).unwrap_or_default();
        lines.push(format!("result    {}", rounded(&result)));
    }
    printer.line(&lines.join("\n"))?;
    Ok(())
}

/// A job's result for people: its fractional figures to three decimals, as every table
/// shows figures (the JSON keeps them whole).
fn rounded(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) if n.is_f64() => n
            .as_f64()
            .and_then(|x| serde_json::Number::from_f64((x * 1000.0).round() / 1000.0))
            .map_or_else(|| value.clone(), Value::Number),
        Value::Array(items) => Value::Array(items.iter().map(rounded).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), rounded(value)))
                .collect(),
        ),
        other => other.clone(),
    }
}
