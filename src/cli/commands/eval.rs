//! `arbiter eval`: a checkpoint's figures over every annotated example (a batch job
//! underneath), beside a baseline's, as a table, JSON or `JUnit` XML; gates exit 3.

use crate::cli::commands::jobs::{
    FailedItems, Followed, finish_status, left_running, note_replayed, watch,
};
use crate::cli::input::values;
use crate::cli::output::Printer;
use crate::cli::output::table::{Column, Table};
use crate::core::metrics::Metrics;
use crate::core::service::{JobRequest, Service};
use crate::wire::align::{
    EvaluationReport, EvaluationRequest, EvaluationStatus, QuestionEvaluation,
};
use crate::wire::jobs::{Job, JobStatus};
use anyhow::{Context as _, Result};
use clap::{Args, ValueEnum};
use serde::Serialize;
use std::fmt::Write as _;
use std::process::ExitCode;

#[derive(Debug, Args)]
#[command(
    after_help = "Examples:\n  arbiter eval acme/support --revision v3 --baseline main --no-regression\n  arbiter eval acme/support --min-accuracy 0.85 --format junit > eval.xml"
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
    /// Output format [default: table on a terminal, json when piped]
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// With --server, when not on a terminal: cancel the server's job on Ctrl-C (on a terminal you are asked; without --server it is always cancelled)
    #[arg(long)]
    pub cancel_on_interrupt: bool,
    /// Score aligned questions on the examples their alignment was fitted on too (by default each question is scored, at both checkpoints, only on examples neither was fitted on)
    #[arg(long)]
    pub include_fitted: bool,
    /// Let the gates pass when a question was not evaluated (no annotated example left to score); by default a gated eval exits 3 on it
    #[arg(long)]
    pub allow_unevaluated: bool,
}

/// `--format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Table,
    Json,
    Junit,
}

pub(crate) async fn run(
    service: &dyn Service,
    args: EvalArgs,
    printer: &Printer,
) -> Result<ExitCode> {
    let request = EvaluationRequest {
        revision: args.revision.clone(),
        baseline: args.baseline.clone(),
        questions: args.questions.clone(),
        include_fitted: args.include_fitted,
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
    match format {
        Format::Json => printer.json(&Output {
            job_id: &job.job_id,
            report: &report,
            gates: Gates {
                passed: failures.is_empty(),
                failures: &failures,
            },
        })?,
        Format::Junit => printer.line(&junit(&args.model, &job, &report, &failures))?,
        Format::Table => printer.line(&table(&report, printer))?,
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
    let created = service
        .create_job(model, JobRequest::Evaluation(request))
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
    let report: EvaluationReport = serde_json::from_value(job.result.clone().unwrap_or_default())
        .context("reading the evaluation's report")?;
    Ok(Ok((job, report)))
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
        .map(|(id, e)| {
            (
                id.as_str(),
                e.reason.as_deref().unwrap_or("nothing to score"),
            )
        })
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
                        evaluation.reason.as_deref().unwrap_or("nothing to score")
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
            if let (true, Some(delta)) = (args.strict, &evaluation.delta) {
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
                continue;
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
    }
    failures
}

/// One figure of a question's metrics, if it applies to the question.
type Figure = fn(&Metrics) -> Option<f64>;

/// One row per question (and `overall`); with a baseline, three: the baseline, the
/// revision, and the change (▲ better, ▼ worse).
pub(crate) fn table(report: &EvaluationReport, printer: &Printer) -> String {
    // At 80 columns the figures a gate reads (accuracy, loss, ECE) are the last to go.
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        // Which of the baseline, the revision and the change a row is: cut, never hidden.
        Column::text("Checkpoint").always(),
        Column::number("Examples").priority(4),
        Column::whole("Metric").priority(2),
        Column::number("Loss").priority(6),
        Column::number("Accuracy").priority(7),
        Column::number("Macro-F1").priority(3),
        Column::number("Kappa").priority(2),
        Column::number("Brier").priority(3),
        Column::number("ECE").priority(5),
        Column::number("MAE").priority(1),
    ]);
    // (figure, lower is better)
    let figures: [(Figure, bool); 7] = [
        (|m| Some(m.loss), true),
        (|m| Some(m.accuracy), false),
        (|m| Some(m.macro_f1), false),
        (|m| Some(m.kappa), false),
        (|m| Some(m.brier), true),
        (|m| Some(m.ece), true),
        (|m| m.mae, true),
    ];
    let cells = |m: &Metrics| -> Vec<String> {
        figures
            .iter()
            .map(|(f, _)| f(m).map_or_else(|| "-".into(), |v| format!("{v:.3}")))
            .collect()
    };
    let rows = report
        .questions
        .iter()
        .map(|(id, e)| (id.as_str(), e))
        .chain(std::iter::once(("overall", &report.overall)));
    for (id, evaluation) in rows {
        let Some(m) = &evaluation.metrics else {
            // Nothing measured: said so where the accuracy would be (the column a gate
            // reads, the last to be hidden), with no figures; the footer says why.
            let mut row = vec![
                id.to_owned(),
                report.revision.name.clone(),
                "0".to_owned() + &failed_note(evaluation),
                "-".to_owned(),
            ];
            row.extend(figures.iter().enumerate().map(|(k, _)| {
                if k == ACCURACY_FIGURE {
                    NOT_EVALUATED.to_owned()
                } else {
                    "-".to_owned()
                }
            }));
            table.row(row);
            continue;
        };
        let examples = m.examples.to_string() + &failed_note(evaluation);
        if let (Some(base), Some(base_revision)) = (&evaluation.baseline, &report.baseline) {
            let mut row = vec![
                id.to_owned(),
                base_revision.name.clone(),
                base.examples.to_string(),
                base.metric.clone(),
            ];
            row.extend(cells(base));
            table.row(row);
            let mut row = vec![
                String::new(),
                report.revision.name.clone(),
                examples,
                m.metric.clone(),
            ];
            row.extend(cells(m));
            table.row(row);
            let mut row = vec![String::new(), "change".into(), String::new(), String::new()];
            row.extend(
                figures
                    .iter()
                    .map(|(f, lower_is_better)| change(f(m), f(base), *lower_is_better)),
            );
            table.row(row);
        } else {
            let mut row = vec![
                id.to_owned(),
                report.revision.name.clone(),
                examples,
                m.metric.clone(),
            ];
            row.extend(cells(m));
            table.row(row);
        }
    }
    let mut text = printer.render(&table);
    let _ = write!(text, "\n{}", uncertainty_table(report, printer));
    text.push_str(&footer(report));
    text
}

/// Under the tables: the checkpoints, where the answers came from, and what was left out.
fn footer(report: &EvaluationReport) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        "\n{} is {} {}",
        report.revision.name,
        report.revision.kind.as_str(),
        &report.revision.commit[..12.min(report.revision.commit.len())],
    );
    if let Some(base) = &report.baseline {
        let _ = write!(
            text,
            "; baseline {} is {} {}",
            base.name,
            base.kind.as_str(),
            &base.commit[..12.min(base.commit.len())]
        );
    }
    let _ = write!(
        text,
        "\n{} decisions asked of the engine, {} from the cache",
        report.decided, report.cached
    );
    let _ = write!(text, "\n{}", fitted_footer(report));
    text
}

/// What a table and a `JUnit` file say of a question with nothing measured.
const NOT_EVALUATED: &str = "not evaluated";
/// Where the accuracy is among a row's figures.
const ACCURACY_FIGURE: usize = 1;

/// How sure the figures are, per question: accuracy and loss with their 95% intervals (and
/// the change's, paired, with a baseline), and how much can be answered at 5% and 10% error.
fn uncertainty_table(report: &EvaluationReport, printer: &Printer) -> String {
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::text("Checkpoint").always(),
        Column::number("Accuracy (95%)").priority(6),
        Column::number("Loss (95%)").priority(5),
        Column::whole("At 5% Error").priority(4),
        Column::whole("At 10% Error").priority(2),
    ]);
    let at = |m: &Metrics, target: f64| -> String {
        m.coverage
            .iter()
            .find(|c| (c.target_error - target).abs() < 1e-9)
            .map_or_else(
                || "-".into(),
                |c| match c.threshold {
                    Some(threshold) => format!("{:.0}% ≥ {threshold:.2}", c.coverage * 100.0),
                    None => "none".into(),
                },
            )
    };
    let row = |id: &str, name: &str, m: &Metrics| -> Vec<String> {
        let (accuracy, loss) = m.intervals.as_ref().map_or_else(
            || ("-".to_owned(), "-".to_owned()),
            |iv| (estimate(&iv.accuracy, false), estimate(&iv.loss, false)),
        );
        vec![
            id.to_owned(),
            name.to_owned(),
            accuracy,
            loss,
            at(m, 0.05),
            at(m, 0.10),
        ]
    };
    for (id, evaluation) in &report.questions {
        let Some(metrics) = &evaluation.metrics else {
            continue;
        };
        match (&evaluation.baseline, &report.baseline) {
            (Some(base), Some(base_revision)) => {
                table.row(row(id, &base_revision.name, base));
                table.row(row("", &report.revision.name, metrics));
                if let Some(delta) = &evaluation.delta {
                    table.row(vec![
                        String::new(),
                        "change".into(),
                        estimate(&delta.accuracy, true),
                        estimate(&delta.loss, true),
                        String::new(),
                        String::new(),
                    ]);
                }
            }
            _ => {
                table.row(row(id, &report.revision.name, metrics));
            }
        }
    }
    let mut text = printer.render(&table);
    text.push_str(
        "\nintervals: 95% bootstrap over the examples (a change's is paired)\
         \nat N% error: the share of examples answerable at ≥ that confidence\
         \naccuracy: the answer is the most likely outcome (a score: its most likely level,\
         \n          ties the lower, not the level nearest its mean)",
    );
    text
}

/// `0.780 [0.710, 0.840]`, signed for a change.
fn estimate(e: &crate::wire::align::Estimate, signed: bool) -> String {
    if signed {
        format!("{:+.3} [{:+.3}, {:+.3}]", e.value, e.low, e.high)
    } else {
        format!("{:.3} [{:.3}, {:.3}]", e.value, e.low, e.high)
    }
}

/// What the figures leave out: the examples an alignment was fitted on.
fn fitted_footer(report: &EvaluationReport) -> String {
    let left_out: Vec<String> = report
        .questions
        .iter()
        .filter(|(_, e)| e.excluded_fitted > 0)
        .map(|(id, e)| format!("{id} {}", e.excluded_fitted))
        .collect();
    let unknown: Vec<&str> = report
        .questions
        .iter()
        .filter(|(_, e)| e.fitted_unknown)
        .map(|(id, _)| id.as_str())
        .collect();
    let mut text = if left_out.is_empty() {
        "held out: no example was left out as fitted".to_owned()
    } else {
        format!(
            "held out: examples an alignment was fitted on are left out at both checkpoints \
             ({}); --include-fitted scores them too",
            left_out.join(", ")
        )
    };
    if !unknown.is_empty() {
        let _ = write!(
            text,
            "\nwarning: no record of what {} was fitted on here: its figures may include fitted examples",
            unknown.join(", ")
        );
    }
    for (id, reason) in unevaluated(report) {
        let _ = write!(text, "\n{NOT_EVALUATED}: {id} ({reason})");
    }
    // A learned head's fitted examples are scored by the answers they got out of fold.
    for (id, e) in &report.questions {
        if let (Some(out), Some(fresh)) = (&e.out_of_fold, &e.fresh) {
            // No figure of nothing: with no fresh example, there is no fresh accuracy.
            let figures = match (out.examples, fresh.examples) {
                (0, _) => format!("fresh {:.3}", fresh.accuracy),
                (_, 0) => format!("out of fold {:.3}", out.accuracy),
                _ => format!(
                    "out of fold {:.3}, fresh {:.3}",
                    out.accuracy, fresh.accuracy
                ),
            };
            let _ = write!(
                text,
                "\n{id}: {} fitted examples scored by their out-of-fold answers, {} fresh \
                 ({figures} accuracy)",
                out.examples, fresh.examples
            );
        }
    }
    text
}

/// The change of one figure from the baseline: ▲ better, ▼ worse, no mark when it rounds
/// to nothing; `-` when either side lacks it.
fn change(now: Option<f64>, then: Option<f64>, lower_is_better: bool) -> String {
    let (Some(now), Some(then)) = (now, then) else {
        return "-".into();
    };
    let delta = now - then;
    let better = if lower_is_better {
        delta < 0.0
    } else {
        delta > 0.0
    };
    let mark = if delta.abs() < 5e-4 {
        ""
    } else if better {
        " ▲"
    } else {
        " ▼"
    };
    format!("{delta:+.3}{mark}")
}

fn failed_note(evaluation: &QuestionEvaluation) -> String {
    if evaluation.failed > 0 {
        format!(" ({} failed)", evaluation.failed)
    } else {
        String::new()
    }
}

/// `JUnit` XML: one test case per question, failed by the gates it fails; the figures in
/// `system-out` (what CI systems show beside a test).
fn junit(model: &str, job: &Job, report: &EvaluationReport, failures: &[Failure]) -> String {
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let cases = report.questions.len();
    // A question not evaluated is a skipped case (with why); the others fail by their gates.
    let skipped = unevaluated(report).count();
    let failed_cases = report
        .questions
        .iter()
        .filter(|(_, e)| e.metrics.is_some())
        .filter(|(id, _)| failures.iter().any(|f| &f.question == *id))
        .count();
    let suite = format!("{model}@{}", report.revision.name);
    let _ = writeln!(
        out,
        "<testsuites name=\"arbiter eval\" tests=\"{cases}\" failures=\"{failed_cases}\" skipped=\"{skipped}\">"
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{cases}\" failures=\"{failed_cases}\" errors=\"0\" skipped=\"{skipped}\" timestamp=\"{}\">",
        xml(&suite),
        xml(job.finished_at.as_deref().unwrap_or(&job.created_at))
    );
    let _ = writeln!(
        out,
        "    <properties><property name=\"job\" value=\"{}\"/><property name=\"commit\" value=\"{}\"/>{}</properties>",
        xml(&job.job_id.to_string()),
        xml(&report.revision.commit),
        report.baseline.as_ref().map_or(String::new(), |b| format!(
            "<property name=\"baseline\" value=\"{}\"/>",
            xml(&b.commit)
        ))
    );
    for (id, evaluation) in &report.questions {
        let _ = writeln!(
            out,
            "    <testcase classname=\"{}\" name=\"{}\">",
            xml(&suite),
            xml(id)
        );
        let Some(m) = &evaluation.metrics else {
            // The gate's verdict on it, if any, is in the message (and the exit code).
            let verdict = failures.iter().find(|f| &f.question == id).map_or_else(
                || {
                    format!(
                        "{NOT_EVALUATED}: {}",
                        evaluation.reason.as_deref().unwrap_or("nothing to score")
                    )
                },
                |f| f.message.clone(),
            );
            let _ = writeln!(out, "      <skipped message=\"{}\"/>", xml(&verdict));
            let _ = writeln!(out, "    </testcase>");
            continue;
        };
        for failure in failures.iter().filter(|f| &f.question == id) {
            let _ = writeln!(
                out,
                "      <failure type=\"{}\" message=\"{}\"/>",
                failure.gate,
                xml(&failure.message)
            );
        }
        let mut figures = format!(
            "examples={} {}={:.4} accuracy={:.4} macro_f1={:.4} kappa={:.4} brier={:.4} ece={:.4}",
            m.examples, m.metric, m.loss, m.accuracy, m.macro_f1, m.kappa, m.brier, m.ece
        );
        if let Some(iv) = &m.intervals {
            let _ = write!(
                figures,
                "\n95%: accuracy=[{:.4}, {:.4}] {}=[{:.4}, {:.4}]",
                iv.accuracy.low, iv.accuracy.high, m.metric, iv.loss.low, iv.loss.high
            );
        }
        if let Some(base) = &evaluation.baseline {
            let _ = write!(
                figures,
                "\nbaseline: {}={:.4} accuracy={:.4} ece={:.4}",
                base.metric, base.loss, base.accuracy, base.ece
            );
        }
        if let Some(delta) = &evaluation.delta {
            let _ = write!(
                figures,
                "\nchange (95%): accuracy={:+.4} [{:+.4}, {:+.4}] {}={:+.4} [{:+.4}, {:+.4}]",
                delta.accuracy.value,
                delta.accuracy.low,
                delta.accuracy.high,
                m.metric,
                delta.loss.value,
                delta.loss.low,
                delta.loss.high
            );
        }
        let _ = writeln!(out, "      <system-out>{}</system-out>", xml(&figures));
        let _ = writeln!(out, "    </testcase>");
    }
    out.push_str("  </testsuite>\n</testsuites>");
    out
}

/// Text escaped for XML attributes and content; characters XML 1.0 cannot hold are dropped.
fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_drops_control_characters() {
        assert_eq!(
            xml("a<b & \"c\" 'd'>"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;"
        );
        assert_eq!(xml("bell\u{7}\ttab"), "bell\ttab");
    }
}
