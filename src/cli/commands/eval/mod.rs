//! `arbiter eval`: a checkpoint's figures over every annotated example (a batch job
//! underneath), beside a baseline's, as a table, JSON, `JUnit` XML, Markdown or HTML; gates
//! exit 3.

mod html;
mod junit;
mod markdown;
mod report;
mod watch;
mod watch_table;

pub(crate) use report::table;

use crate::cli::commands::jobs::{
    FailedItems, Followed, finish_status, left_running, note_replayed, watch,
};
use crate::cli::input::{read_questions_file, read_text, values};
use crate::cli::output::{Printer, UsageError};
use crate::core::service::{JobRequest, Service};
use crate::wire::align::gates;
use crate::wire::align::{
    EvaluationReport, EvaluationRequest, EvaluationStatus, QuestionEvaluation,
};
use crate::wire::gates::Gates;
use crate::wire::jobs::{Job, JobResult, JobStatus};
use anyhow::{Context as _, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter eval acme/support --revision v3 --baseline main --no-regression\n  arbiter eval acme/support --min-accuracy 0.85 --format junit > eval.xml\n  arbiter eval acme/support --baseline main --format markdown >> \"$GITHUB_STEP_SUMMARY\""
)]
#[allow(clippy::struct_excessive_bools)] // command-line switches
pub struct EvalArgs {
    /// The model path, <owner>/<model>; or a model repository's checkout (a directory: ., ./path or /path), run on here with no home: its work tree (or --revision) over its labels file examples/annotated.jsonl
    pub model: String,
    /// The checkpoint to evaluate: branch, tag or commit SHA [default: the default branch]
    #[arg(long, value_name = "REV")]
    pub revision: Option<String>,
    /// A checkpoint to compare with (its figures and the deltas are shown)
    #[arg(long, value_name = "REV")]
    pub baseline: Option<String>,
    /// Only these questions (comma-separated IDs) [default: every saved question]
    #[arg(long, short, value_name = "IDS", value_delimiter = ',')]
    pub questions: Option<Vec<String>>,
    /// Gate: exit 3 when a question's accuracy is below this (0 to 1); replaces the accuracy gate of gates.yaml for every question
    #[arg(long, value_name = "FRACTION", value_parser = values::fraction)]
    pub min_accuracy: Option<f64>,
    /// Gate: exit 3 when a question's expected calibration error is above this (0 to 1); replaces the ECE gate of gates.yaml for every question
    #[arg(long, value_name = "FRACTION", value_parser = values::fraction)]
    pub max_ece: Option<f64>,
    /// Gate: exit 3 when a question is worse than at --baseline (lower accuracy or higher loss)
    #[arg(long, requires = "baseline")]
    pub no_regression: bool,
    /// Per-question gates from this file instead of the revision's gates.yaml (question ID, or "*" for every other, to its gates: accuracy, max ECE, no regression). --min-accuracy and --max-ece still replace that metric's gate for every question, and --no-regression adds one to every question
    #[arg(long, value_name = "FILE", conflicts_with = "no_gates")]
    pub gates: Option<PathBuf>,
    /// Ignore the revision's gates.yaml (by default eval reads it: each question's gate, exit 3 when one fails): only the command-line gates apply
    #[arg(long)]
    pub no_gates: bool,
    /// Apply the gates to the 95% interval's bound, not the point estimate: --min-accuracy to the lower bound, --no-regression to the change's bound (a worsening not ruled out fails)
    #[arg(long)]
    pub strict: bool,
    /// Output format: junit is a test report for CI, markdown a summary for a pull request or a CI job summary, html one self-contained page with charts (a CI artifact) [default: table on a terminal, json when piped or with --output]
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Write the report to FILE instead of stdout, only once there is one: on an error (exit 1, 2 or 4) FILE is neither created nor changed, unlike a shell's `> FILE` (a gate that fails, exit 3, still writes it)
    #[arg(long, short, value_name = "FILE", conflicts_with = "watch")]
    pub output: Option<PathBuf>,
    /// With --server, when not on a terminal: cancel the server's job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)
    #[arg(long)]
    pub cancel_on_interrupt: bool,
    /// Score fitted examples by the checkpoint that saw them. By default a learned head's fitted examples are scored by their out-of-fold answers (recorded by its alignment), and an older aligned question's (aligned/ID.yaml) are left out at both checkpoints; with this flag both are scored in sample
    #[arg(long)]
    pub include_fitted: bool,
    /// Let the gates pass when a question was not evaluated (no annotated example left to score); by default a gated eval exits 3 on it
    #[arg(long)]
    pub allow_unevaluated: bool,
    /// A questions file not committed (YAML or JSON), evaluated as a working copy on top of --revision: a question unchanged from the revision's keeps its learned parameters, a changed or new one is zero-shot; --baseline defaults to --revision. Nothing is committed
    #[arg(long, value_name = "FILE")]
    pub questions_file: Option<PathBuf>,
    /// With a checkout: the labels (annotated examples, JSON Lines in the ingest format) to evaluate on, instead of the checkout's examples/annotated.jsonl
    #[arg(long, value_name = "FILE")]
    pub labels: Option<PathBuf>,
    /// Evaluate --questions-file, then again each time it is saved, until Ctrl-C: per question, accuracy and loss now, at the last run and at the baseline, and the change from the baseline with its 95% interval (≈ when not beyond chance). Only what changed is decided again. A table, or with --format json one report per run (JSON Lines); a draft that does not validate is reported and the watch goes on
    #[arg(long)]
    pub watch: bool,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Junit,
    Markdown,
    Html,
}

pub(crate) async fn run(
    service: &dyn Service,
    args: EvalArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    if args.labels.is_some() {
        return Err(UsageError::new(format!(
            "--labels reads the labels of a model repository's checkout (a directory), and              {} is a model of the home or server, whose annotated examples are there",
            args.model
        ))
        .into());
    }
    if args.watch {
        return watch::run(service, args, printer).await;
    }
    let working_questions = read_questions_file(args.questions_file.as_deref())?;
    let request = EvaluationRequest {
        revision: args.revision.clone(),
        baseline: args.baseline.clone(),
        questions: args.questions.clone(),
        include_fitted: args.include_fitted,
        warm_states: false,
        working_questions,
        gates: requested_gates(&args)?,
    };
    let (job, report) = match evaluate(
        service,
        &args.model,
        request,
        args.cancel_on_interrupt,
        printer,
    )
    .await
    .map_err(|error| in_gates_file(error, args.gates.as_deref()))?
    {
        Ok(done) => done,
        Err(code) => return Ok(code),
    };
    let judged = gates::judge(&report, &args.gate_flags());
    emit(&args, printer, (&job, &report), &judged)?;
    for note in &judged.notes {
        printer.status(note);
    }
    for failure in &judged.failures {
        printer.status(&format!(
            "gate failed: {}: {}",
            failure.question, failure.message
        ));
    }
    if args.allow_unevaluated {
        let gated = unevaluated(&report).filter(|(id, _)| judged.gates.contains_key(*id));
        for (id, reason) in gated {
            printer.status(&format!(
                "warning: {id} was not evaluated ({reason}); --allow-unevaluated let the gates pass without it"
            ));
        }
    }
    Ok(if judged.failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
}

/// The report in the format asked, to `--output` or stdout.
fn emit(
    args: &EvalArgs,
    printer: &Printer,
    (job, report): (&Job, &EvaluationReport),
    judged: &gates::Judged,
) -> Result<()> {
    let format = args
        .format
        .unwrap_or(if printer.wants_json() || args.output.is_some() {
            Format::Json
        } else {
            Format::Table
        });
    // Figures of a working copy are labelled so wherever they are shown.
    let shown = working_label(report, args.questions_file.as_deref());
    let text = match format {
        Format::Json => {
            let output = Output {
                job_id: &job.job_id,
                report,
                gates: GatesOutput {
                    passed: judged.failures.is_empty(),
                    failures: &judged.failures,
                    questions: judged.shown(),
                },
            };
            if args.output.is_none() {
                printer.json(&output)?;
                None
            } else {
                Some(serde_json::to_string(&output)?)
            }
        }
        Format::Junit => Some(junit::junit(&args.model, job, &shown, judged)),
        Format::Markdown => Some(markdown::markdown(args, &shown, judged)),
        Format::Html => Some(html::html(args, &shown, judged)),
        Format::Table => {
            let mut lines = vec![table(&shown, printer)];
            if judged.gated() {
                lines.push(report::gates_table(&shown, judged, printer));
            }
            lines.extend(working_lines(report));
            Some(lines.join("\n"))
        }
    };
    match (text, &args.output) {
        (Some(text), Some(path)) => write_report(path, &text)?,
        (Some(text), None) => printer.line(&text)?,
        (None, _) => {}
    }
    Ok(())
}

/// The report to `path`: created (with the user's umask) or emptied only now, once the
/// report is in hand.
fn write_report(path: &Path, text: &str) -> Result<()> {
    use std::io::Write as _;
    let mut file = crate::cli::file_modes::create_output_file(path)?;
    writeln!(file, "{text}")
        .and_then(|()| file.flush())
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(())
}

/// Run an evaluation job and follow it to its report; the exit code instead when it did not
/// complete (interrupted, failed, cancelled, or left running on a server).
pub(crate) async fn evaluate(
    service: &dyn Service,
    model: &str,
    request: EvaluationRequest,
    cancel_on_interrupt: bool,
    printer: &Printer,
) -> Result<std::result::Result<(Job, EvaluationReport), ExitCode>> {
    let model = service.model_named(model).await?;
    let created = service
        .create_job(&model, JobRequest::Evaluation(request))
        .await?;
    note_replayed(&created, printer);
    let job = created.job;
    let (job, interrupted) = match watch(service, &job, printer, cancel_on_interrupt).await? {
        Followed::Ended { job, interrupted } => (job, interrupted),
        Followed::Left(job) => return Ok(Err(left_running(&job, printer))),
    };
    if job.status != JobStatus::Completed {
        if interrupted {
            return Ok(Err(ExitCode::from(130)));
        }
        return Ok(Err(finish_status(&job, FailedItems::NONE, printer)));
    }
    let Some(JobResult::Evaluation(report)) = job.result.clone() else {
        anyhow::bail!("the completed evaluation {} has no report", job.job_id);
    };
    Ok(Ok((job, *report)))
}

/// What `--format json` prints.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Output<'a, Q> {
    job_id: &'a crate::ids::JobId,
    #[serde(flatten)]
    report: &'a EvaluationReport,
    gates: GatesOutput<'a, Q>,
}

/// `--format json`'s `gates`: whether every gate passed, each failure, and per gated
/// question its gate and verdict.
#[derive(Serialize)]
struct GatesOutput<'a, Q> {
    passed: bool,
    failures: &'a [gates::Failure],
    questions: Q,
}

/// The questions that were not evaluated, with why.
fn unevaluated(report: &EvaluationReport) -> impl Iterator<Item = (&str, &str)> {
    report
        .questions
        .iter()
        .filter(|(_, e)| e.status == EvaluationStatus::NotEvaluated)
        .map(|(id, e)| (id.as_str(), reason(e)))
}

/// Why a question was not evaluated, for people (a report may not say).
fn reason(evaluation: &QuestionEvaluation) -> &str {
    evaluation.reason.as_deref().unwrap_or("nothing to score")
}

impl EvalArgs {
    /// The gates asked for beside the gates file, and how to judge them.
    fn gate_flags(&self) -> gates::Flags {
        gates::Flags {
            min_accuracy: self.min_accuracy,
            max_ece: self.max_ece,
            no_regression: self.no_regression,
            strict: self.strict,
            allow_unevaluated: self.allow_unevaluated,
            file: self.gates.as_ref().map(|path| path.display().to_string()),
        }
    }
}

/// Whether a command-line gate was asked for.
fn flag_gated(args: &EvalArgs) -> bool {
    args.min_accuracy.is_some() || args.max_ece.is_some() || args.no_regression
}

/// The request's `gates`: another file's (`--gates`), none (`--no-gates`), or the
/// revision's `gates.yaml` (`None`).
fn requested_gates(args: &EvalArgs) -> Result<Option<Gates>> {
    if args.no_gates {
        return Ok(Some(Gates::default()));
    }
    let Some(path) = &args.gates else {
        return Ok(None);
    };
    let text = read_text(path)?;
    let gates = Gates::from_yaml(&path.display().to_string(), &text)
        .map_err(crate::error::Error::Validation)?;
    Ok(Some(gates))
}

/// A fault the service found in the request's `gates` (a question the checkpoint does not
/// have) is in the `--gates` file: located there, as the file's own faults are.
fn in_gates_file(error: anyhow::Error, file: Option<&Path>) -> anyhow::Error {
    use crate::error::Error;
    use crate::wire::validate::Segment;
    let Some(file) = file else { return error };
    match error.downcast::<Error>() {
        Ok(Error::Validation(mut details)) => {
            let at = [Segment::Key("body".into()), Segment::Key("gates".into())];
            for detail in &mut details {
                if detail.loc.0.starts_with(&at) {
                    detail
                        .loc
                        .0
                        .splice(0..2, [Segment::Key(file.display().to_string())]);
                }
            }
            Error::Validation(details).into()
        }
        Ok(other) => other.into(),
        Err(error) => error,
    }
}

/// The report as shown in a table, `JUnit` or Markdown: a working copy's revision named
/// `working copy of main (draft.yaml)`, so its figures are never read as the commit's.
fn working_label(report: &EvaluationReport, file: Option<&Path>) -> EvaluationReport {
    let mut shown = report.clone();
    if let Some(working) = &report.working_copy {
        let file = file.map_or_else(String::new, |f| format!(" ({})", f.display()));
        shown.revision.name = format!("working copy of {}{file}", working.of);
    }
    shown
}

/// What a working copy says of each question, one line each (none for a commit).
fn working_lines(report: &EvaluationReport) -> Vec<String> {
    report
        .working_copy
        .iter()
        .flat_map(|working| &working.questions)
        .map(|(id, origin)| format!("{id}: {}", origin.describe()))
        .collect()
}
