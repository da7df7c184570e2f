//! An evaluation report on a terminal: its figures per question beside a baseline's, their
//! uncertainty, and what was fitted.

use super::unevaluated;
use crate::cli::output::Printer;
use crate::cli::output::table::{Column, Table};
use crate::core::metrics::Metrics;
use crate::wire::align::{EvaluationReport, QuestionEvaluation};
use crate::wire::decision::short_commit;
use std::fmt::Write as _;

/// One figure of a question's metrics, if it applies to the question.
type Figure = fn(&Metrics) -> Option<f64>;

/// A row's figures in column order: (figure, lower is better).
const FIGURES: [(Figure, bool); 7] = [
    (|m| Some(m.loss), true),
    (|m| Some(m.accuracy), false),
    (|m| Some(m.macro_f1), false),
    (|m| Some(m.kappa), false),
    (|m| Some(m.brier), true),
    (|m| Some(m.ece), true),
    (|m| m.mae, true),
];

/// A row's figures, to three decimals (`-` where one does not apply).
fn cells(m: &Metrics) -> Vec<String> {
    FIGURES
        .iter()
        .map(|(f, _)| f(m).map_or_else(|| "-".into(), |v| format!("{v:.3}")))
        .collect()
}

/// The figures table, its columns and how they give way.
fn figures_table() -> Table {
    // At 80 columns the figures a gate reads (accuracy, loss, ECE) are the last to go.
    Table::new(vec![
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
    ])
}

/// One row per question (and `overall`); with a baseline, three: the baseline, the
/// revision, and the change (▲ better, ▼ worse).
pub(crate) fn table(report: &EvaluationReport, printer: &Printer) -> String {
    let mut table = figures_table();
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
            row.extend(FIGURES.iter().enumerate().map(|(k, _)| {
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
                FIGURES
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

/// Per gated question, its gate (each threshold with what set it) and the verdict:
/// `pass`, or the gates it failed.
pub(super) fn gates_table(
    report: &EvaluationReport,
    judged: &crate::wire::align::gates::Judged,
    printer: &Printer,
) -> String {
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::text("Gate").always(),
        Column::text("Verdict").always(),
    ]);
    for id in report.questions.keys() {
        if !judged.gates.contains_key(id) {
            continue;
        }
        // The gates it failed, by name: stderr says why, one line each.
        let mut failed: Vec<&str> = judged.failures_of(id).map(|f| f.gate).collect();
        failed.dedup();
        let verdict = if failed.is_empty() {
            "pass".to_owned()
        } else {
            format!("FAIL {}", failed.join(", "))
        };
        table.row(vec![id.clone(), judged.describe(id), verdict]);
    }
    printer.render(&table)
}

/// Under the tables: the checkpoints, where the answers came from, and what was left out.
fn footer(report: &EvaluationReport) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        "\n{} is {} {}",
        report.revision.name,
        report.revision.kind.as_str(),
        short_commit(&report.revision.commit),
    );
    if let Some(base) = &report.baseline {
        let _ = write!(
            text,
            "; baseline {} is {} {}",
            base.name,
            base.kind.as_str(),
            short_commit(&base.commit)
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
pub(super) const NOT_EVALUATED: &str = "not evaluated";
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
pub(super) fn estimate(e: &crate::wire::align::Estimate, signed: bool) -> String {
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

/// ` (N failed)` after an example count, when decisions failed.
pub(super) fn failed_note(evaluation: &QuestionEvaluation) -> String {
    if evaluation.failed > 0 {
        format!(" ({} failed)", evaluation.failed)
    } else {
        String::new()
    }
}
