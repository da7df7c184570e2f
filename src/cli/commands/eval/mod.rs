//! `arbiter eval`: a checkpoint's figures over every annotated example (a batch job
//! underneath), beside a baseline's, as a table, JSON, `JUnit` XML or Markdown; gates exit 3.

mod junit;
mod markdown;
mod report;
mod watch;
mod watch_table;

pub(crate) use report::table;

use crate::cli::commands::jobs::{
    FailedItems, Followed, finish_status, left_running, note_replayed, watch,
};
use crate::cli::input::{read_questions_file, values};
use crate::cli::output::Printer;
use crate::core::service::{JobRequest, Service};
use crate::wire::align::{
    EvaluationReport, EvaluationRequest, EvaluationStatus, Metrics, QuestionEvaluation,
};
use crate::wire::jobs::{Job, JobResult, JobStatus};
use anyhow::Result;
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
    /// The model path, <owner>/<model>
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
    /// Gate: exit 3 when a question's accuracy is below this (0 to 1)
    #[arg(long, value_name = "FRACTION", value_parser = values::fraction)]
    pub min_accuracy: Option<f64>,
    /// Gate: exit 3 when a question's expected calibration error is above this (0 to 1)
    #[arg(long, value_name = "FRACTION", value_parser = values::fraction)]
    pub max_ece: Option<f64>,
    /// Gate: exit 3 when a question is worse than at --baseline (lower accuracy or higher loss)
    #[arg(long, requires = "baseline")]
    pub no_regression: bool,
    /// Apply the gates to the 95% interval's bound, not the point estimate: --min-accuracy to the lower bound, --no-regression to the change's bound (a worsening not ruled out fails)
    #[arg(long)]
    pub strict: bool,
    /// Output format: junit is a test report for CI, markdown a summary for a pull request or a CI job summary [default: table on a terminal, json when piped]
    #[arg(long, value_enum)]
    pub format: Option<Format>,
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
}

pub(crate) async fn run(
    service: &dyn Service,
    args: EvalArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    if args.watch {
        return watch::run(service, args, printer).await;
    }
    let working_questions = read_questions_file(args.questions_file.as_deref())?;
    let request = EvaluationRequest {
        revision: args.revision.clone(),
        baseline: args.baseline.clone(),
        questions: args.questions.clone(),
        include_fitted: args.include_fitted,
        working_questions,
    };
    let (job, report) = match evaluate(
        service,
        &args.model,
        request,
        args.cancel_on_interrupt,
        printer,
    )
    .await?
    {
        Ok(done) => done,
        Err(code) => return Ok(code),
    };
    let failures = gates(&report, &args);
    let format = args.format.unwrap_or(if printer.wants_json() {
        Format::Json
    } else {
        Format::Table
    });
    // Figures of a working copy are labelled so wherever they are shown.
    let shown = working_label(&report, args.questions_file.as_deref());
    match format {
        Format::Json => printer.json(&Output {
            job_id: &job.job_id,
            report: &report,
            gates: Gates {
                passed: failures.is_empty(),
                failures: &failures,
            },
        })?,
        Format::Junit => printer.line(&junit::junit(&args.model, &job, &shown, &failures))?,
        Format::Markdown => printer.line(&markdown::markdown(&args, &shown, &failures))?,
        Format::Table => {
            printer.line(&table(&shown, printer))?;
            for line in working_lines(&report) {
                printer.line(&line)?;
            }
        }
    }
    for failure in &failures {
        printer.status(&format!(
            "gate failed: {}: {}",
            failure.question, failure.message
        ));
    }
    if args.allow_unevaluated && gated(&args) {
        for (id, reason) in unevaluated(&report) {
            printer.status(&format!(
                "warning: {id} was not evaluated ({reason}); --allow-unevaluated let the gates pass without it"
            ));
        }
    }
    Ok(if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(3)
    })
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
struct Output<'a> {
    job_id: &'a crate::ids::JobId,
    #[serde(flatten)]
    report: &'a EvaluationReport,
    gates: Gates<'a>,
}

#[derive(Serialize)]
struct Gates<'a> {
    passed: bool,
    failures: &'a [Failure],
}

/// One gate a question failed.
#[derive(Debug, Clone, PartialEq, Serialize)]
struct Failure {
    question: String,
    /// `min-accuracy`, `max-ece`, `no-regression`, or `not-evaluated` (a gated eval that
    /// could not measure the question).
    gate: &'static str,
    message: String,
}

/// Whether any gate was asked for.
fn gated(args: &EvalArgs) -> bool {
    args.min_accuracy.is_some() || args.max_ece.is_some() || args.no_regression
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

/// The gates question `id` failed, in the order they were judged.
fn failures_of<'a>(failures: &'a [Failure], id: &'a str) -> impl Iterator<Item = &'a Failure> {
    failures.iter().filter(move |f| f.question == id)
}

/// Every gate every question fails (none when no gate was asked for). With `--strict` a
/// gate judges the bound of the figure's 95% interval that is least in its favour. A gate
/// never passes on what it did not measure: a question not evaluated fails every gated
/// run, unless `--allow-unevaluated`.
fn gates(report: &EvaluationReport, args: &EvalArgs) -> Vec<Failure> {
    let mut failures = Vec::new();
    for (id, evaluation) in &report.questions {
        let mut fail = |gate, message| {
            failures.push(Failure {
                question: id.clone(),
                gate,
                message,
            });
        };
        let Some(m) = &evaluation.metrics else {
            if gated(args) && !args.allow_unevaluated {
                fail(
                    "not-evaluated",
                    format!(
                        "not evaluated: {}; a gate needs every question measured \
                         (annotate it, leave it out with --questions, or pass --allow-unevaluated)",
                        reason(evaluation)
                    ),
                );
            }
            continue;
        };
        if let Some(min) = args.min_accuracy {
            let (accuracy, what) = match (&m.intervals, args.strict) {
                (Some(iv), true) => (iv.accuracy.low, "accuracy's 95% lower bound"),
                _ => (m.accuracy, "accuracy"),
            };
            if accuracy < min {
                fail(
                    "min-accuracy",
                    format!("{what} {accuracy:.4} is below {min}"),
                );
            }
        }
        if let Some(max) = args.max_ece
            && m.ece > max
        {
            fail("max-ece", format!("ECE {:.4} is above {max}", m.ece));
        }
        if args.no_regression
            && let Some(base) = &evaluation.baseline
        {
            regressions(evaluation, m, base, args.strict, &mut fail);
        }
    }
    failures
}

/// The `--no-regression` gate: with `--strict`, a change the 95% interval does not rule
/// out; else any figure worse than the baseline's.
fn regressions(
    evaluation: &QuestionEvaluation,
    m: &Metrics,
    base: &Metrics,
    strict: bool,
    fail: &mut impl FnMut(&'static str, String),
) {
    if let (true, Some(delta)) = (strict, &evaluation.delta) {
        if delta.accuracy.low < 0.0 {
            fail(
                "no-regression",
                format!(
                    "a drop in accuracy is not ruled out: the change's 95% interval is \
                     [{:+.4}, {:+.4}]",
                    delta.accuracy.low, delta.accuracy.high
                ),
            );
        }
        if delta.loss.high > 0.0 {
            fail(
                "no-regression",
                format!(
                    "a rise in {} is not ruled out: the change's 95% interval is \
                     [{:+.4}, {:+.4}]",
                    m.metric, delta.loss.low, delta.loss.high
                ),
            );
        }
        return;
    }
    if m.accuracy < base.accuracy {
        fail(
            "no-regression",
            format!(
                "accuracy {:.4} is below the baseline's {:.4}",
                m.accuracy, base.accuracy
            ),
        );
    }
    if m.loss > base.loss {
        fail(
            "no-regression",
            format!(
                "{} {:.4} is above the baseline's {:.4}",
                m.metric, m.loss, base.loss
            ),
        );
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
