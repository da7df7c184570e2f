//! `arbiter eval --questions-file FILE --watch`: evaluate the draft, then again each time it
//! is saved, until Ctrl-C or SIGTERM. Each run is an ordinary evaluation job (here, or on
//! the server in client mode), so what it recomputes is what the answer cache and the
//! engine's state cache do not already hold: after an edit to one question, that question
//! (and those read with it) about states already embedded.
//!
//! The file is polled, not watched through the OS: an editor that saves by writing a new
//! file and renaming it over the old one, a network file system and a plain write all look
//! the same to a read, and a save is taken once two reads agree (a burst of writes is one
//! save). A draft that does not parse or validate is reported as `eval --questions-file`
//! reports it, and the watch goes on with the last good run as "last".

use super::watch_table::{self, Last};
use super::{EvalArgs, Format};
use crate::cli::commands::jobs::{FailedItems, Followed, finish_status, note_replayed, watch};
use crate::cli::input::parse_questions_file;
use crate::cli::output::{Printer, UsageError};
use crate::core::service::{JobRequest, Service};
use crate::ids::{JobId, ModelRef};
use crate::wire::Questions;
use crate::wire::align::{EvaluationReport, EvaluationRequest};
use crate::wire::jobs::{JobResult, JobStatus};
use anyhow::{Context as _, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

/// How often the file is read to see whether it changed.
const POLL: Duration = Duration::from_millis(200);

/// Refuse what a watch cannot do, saying why (exit 2).
pub(super) fn refuse(args: &EvalArgs) -> Result<()> {
    if args.questions_file.is_none() {
        return Err(UsageError::new(
            "--watch evaluates a draft again each time it is saved: name the draft with \
             --questions-file FILE (a committed revision does not change under you)",
        )
        .into());
    }
    if let Some(format @ (Format::Junit | Format::Markdown | Format::Html)) = args.format {
        let name = clap::ValueEnum::to_possible_value(&format)
            .map(|value| value.get_name().to_owned())
            .unwrap_or_default();
        return Err(UsageError::new(format!(
            "--watch prints a table, or with --format json one JSON report per run (JSON \
             Lines); --format {name} is one document for one evaluation: drop --watch"
        ))
        .into());
    }
    if super::flag_gated(args) || args.gates.is_some() {
        return Err(UsageError::new(
            "--watch shows figures as you edit and never fails: the gates (--min-accuracy, \
             --max-ece, --no-regression, --gates) are for one evaluation in CI: drop --watch or the gate",
        )
        .into());
    }
    Ok(())
}

/// Evaluate the draft, then again at each save; exit 0 on Ctrl-C or SIGTERM.
pub(super) async fn run(
    service: &dyn Service,
    args: EvalArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    refuse(&args)?;
    let path = args.questions_file.clone().unwrap_or_default();
    let json = args.format == Some(Format::Json) || (args.format.is_none() && printer.wants_json());
    // Listened to for the watch's whole life, so that a signal between runs is not lost.
    let mut stop = Stop::new()?;
    let model = service.model_named(&args.model).await?;
    let mut seen = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
    let mut watcher = Watcher {
        service,
        args: &args,
        model,
        printer,
        json,
        path: path.clone(),
        runs: 0,
        last: None,
    };
    loop {
        if watcher.evaluate(&seen, &mut stop).await? == Run::Stopped {
            return Ok(ExitCode::SUCCESS);
        }
        printer.status(&format!(
            "watching {}: saving it evaluates it again; Ctrl-C to stop",
            path.display()
        ));
        tokio::select! {
            saved = changed(&path, &seen) => seen = saved,
            () = stop.any() => return Ok(ExitCode::SUCCESS),
        }
    }
}

/// How one run ended.
#[derive(Debug, PartialEq, Eq)]
enum Run {
    /// Its figures were shown.
    Shown,
    /// The draft was refused, or the evaluation did not complete: said, and the last good
    /// run stays the last.
    Refused,
    /// A signal ended the watch.
    Stopped,
}

struct Watcher<'a> {
    service: &'a dyn Service,
    args: &'a EvalArgs,
    model: ModelRef,
    printer: &'a Printer,
    json: bool,
    path: PathBuf,
    runs: u64,
    last: Option<Last>,
}

impl Watcher<'_> {
    /// Evaluate the draft `bytes` and show the run, or say why not.
    async fn evaluate(&mut self, bytes: &[u8], stop: &mut Stop) -> Result<Run> {
        let text = String::from_utf8_lossy(bytes);
        let draft = match parse_questions_file(&self.path, &text) {
            Ok(draft) => draft,
            Err(error) => return Ok(self.refused(&error)),
        };
        let request = EvaluationRequest {
            revision: self.args.revision.clone(),
            baseline: self.args.baseline.clone(),
            questions: self.args.questions.clone(),
            include_fitted: self.args.include_fitted,
            // The first run reads every state, whose answers may all be cached, so that
            // the first save decides only the questions it changed (it read them all).
            warm_states: self.runs == 0,
            working_questions: Some(draft.clone()),
            // Nothing is judged here: the revision's gates.yaml is not read.
            gates: Some(crate::wire::gates::Gates::default()),
        };
        let (job_id, report) = match self.job(request, stop).await {
            Ok(Ended::Report(job_id, report)) => (job_id, report),
            Ok(Ended::Incomplete) => return Ok(self.kept()),
            Ok(Ended::Stopped) => return Ok(Run::Stopped),
            Err(error) => return Ok(self.refused(&error)),
        };
        self.runs += 1;
        self.show(&job_id, &report, &draft)?;
        self.last = Some(Last {
            report: *report,
            draft,
            run: self.runs,
        });
        Ok(Run::Shown)
    }

    /// Run one evaluation job and follow it; a SIGTERM cancels it (a Ctrl-C is the
    /// follower's own: it cancels the job too).
    async fn job(&self, request: EvaluationRequest, stop: &mut Stop) -> Result<Ended> {
        let created = self
            .service
            .create_job(&self.model, JobRequest::Evaluation(request))
            .await?;
        note_replayed(&created, self.printer);
        let job = created.job;
        // The watch's runs are its own: a Ctrl-C cancels a run on a server too.
        let following = watch(self.service, &job, self.printer, true);
        tokio::pin!(following);
        let followed = tokio::select! {
            followed = &mut following => followed?,
            () = stop.terminated() => {
                self.service.cancel_job(&job.job_id.into()).await?;
                following.await?;
                return Ok(Ended::Stopped);
            }
        };
        let job = match followed {
            Followed::Left(_)
            | Followed::Ended {
                interrupted: true, ..
            } => {
                return Ok(Ended::Stopped);
            }
            Followed::Ended { job, .. } => job,
        };
        if job.status != JobStatus::Completed {
            finish_status(&job, FailedItems::NONE, self.printer);
            return Ok(Ended::Incomplete);
        }
        let Some(JobResult::Evaluation(report)) = job.result else {
            anyhow::bail!("the completed evaluation {} has no report", job.job_id);
        };
        Ok(Ended::Report(job.job_id, report))
    }

    /// Print one run: a table, or one line of JSON.
    fn show(&self, job_id: &JobId, report: &EvaluationReport, draft: &Questions) -> Result<()> {
        if self.json {
            let line = RunLine {
                run: self.runs,
                job_id,
                report,
                last_run: self.last.as_ref().map(|last| LastRun {
                    run: last.run,
                    report: &last.report,
                }),
            };
            self.printer.line(&serde_json::to_string(&line)?)?;
        } else {
            let now = watch_table::Now {
                run: self.runs,
                report,
                draft,
                file: &self.path,
            };
            self.printer
                .line(&watch_table::table(&now, self.last.as_ref(), self.printer))?;
        }
        Ok(())
    }

    /// Say why a draft was not evaluated, in `eval --questions-file`'s words.
    fn refused(&self, error: &anyhow::Error) -> Run {
        self.printer.error(error);
        self.kept()
    }

    /// Say what the watch goes on with.
    fn kept(&self) -> Run {
        match &self.last {
            Some(last) => self.printer.status(&format!(
                "kept: run {} (the last good version) stays the last run; fix the draft and save",
                last.run
            )),
            None => self
                .printer
                .status("nothing evaluated yet: fix the draft and save"),
        }
        Run::Refused
    }
}

/// How an evaluation job of the watch ended.
enum Ended {
    Report(JobId, Box<EvaluationReport>),
    /// Failed or cancelled by someone else: said by [`finish_status`].
    Incomplete,
    Stopped,
}

/// A run with `--format json`: the evaluation's report (as `eval --format json` has it),
/// which run it is, and the last run's report to compare with.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct RunLine<'a> {
    run: u64,
    job_id: &'a JobId,
    #[serde(flatten)]
    report: &'a EvaluationReport,
    /// Absent at the first run.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_run: Option<LastRun<'a>>,
}

#[derive(Serialize)]
struct LastRun<'a> {
    run: u64,
    #[serde(flatten)]
    report: &'a EvaluationReport,
}

/// The file's content once it differs from `seen` and two reads [`POLL`] apart agree (a
/// save in several writes is one change). A file missing for a moment (replaced by a
/// rename) is waited for.
async fn changed(path: &Path, seen: &[u8]) -> Vec<u8> {
    let mut candidate: Option<Vec<u8>> = None;
    loop {
        tokio::time::sleep(POLL).await;
        let Ok(now) = tokio::fs::read(path).await else {
            candidate = None;
            continue;
        };
        if candidate.as_deref() == Some(now.as_slice()) {
            return now;
        }
        candidate = (now != seen).then_some(now);
    }
}

/// SIGINT and SIGTERM, each one stream for the watch's whole life.
struct Stop {
    #[cfg(unix)]
    interrupt: tokio::signal::unix::Signal,
    #[cfg(unix)]
    terminate: tokio::signal::unix::Signal,
}

impl Stop {
    #[cfg(unix)]
    fn new() -> Result<Self> {
        use tokio::signal::unix::{SignalKind, signal};
        Ok(Self {
            interrupt: signal(SignalKind::interrupt()).context("listening for Ctrl-C")?,
            terminate: signal(SignalKind::terminate()).context("listening for SIGTERM")?,
        })
    }

    #[cfg(not(unix))]
    fn new() -> Result<Self> {
        Ok(Self {})
    }

    /// Either signal.
    #[cfg(unix)]
    async fn any(&mut self) {
        tokio::select! {
            _ = self.interrupt.recv() => {}
            _ = self.terminate.recv() => {}
        }
    }

    #[cfg(not(unix))]
    async fn any(&mut self) {
        let _ = tokio::signal::ctrl_c().await;
    }

    /// SIGTERM (during a run, Ctrl-C is the run's follower's to handle).
    #[cfg(unix)]
    async fn terminated(&mut self) {
        self.terminate.recv().await;
    }

    #[cfg(not(unix))]
    async fn terminated(&mut self) {
        std::future::pending::<()>().await;
    }
}
