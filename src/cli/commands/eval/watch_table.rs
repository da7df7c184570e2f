//! One run of `eval --watch` on a terminal: per question, accuracy and loss now, at the
//! watch's last run and at the baseline, and the change from the baseline with its paired
//! interval (the evaluation's own, as `eval` shows it), flagged when it is not beyond chance.

use super::report::estimate;
use crate::cli::output::Printer;
use crate::cli::output::table::{Column, Table};
use crate::core::metrics::Metrics;
use crate::wire::Questions;
use crate::wire::align::{Estimate, EvaluationReport, QuestionEvaluation, QuestionOrigin};
use std::fmt::Write as _;
use std::path::Path;

/// The last run whose figures were shown.
pub(super) struct Last {
    pub(super) report: EvaluationReport,
    pub(super) draft: Questions,
    pub(super) run: u64,
}

/// The run being shown.
pub(super) struct Now<'a> {
    pub(super) run: u64,
    pub(super) report: &'a EvaluationReport,
    pub(super) draft: &'a Questions,
    pub(super) file: &'a Path,
}

/// What marks a change whose 95% interval includes 0.
const CHANCE: &str = "≈";

/// The run's table and what it says under it.
pub(super) fn table(now: &Now<'_>, last: Option<&Last>, printer: &Printer) -> String {
    let report = now.report;
    let mut table = Table::new(vec![
        Column::whole("Question").always(),
        Column::text("Draft").priority(6),
        Column::number("Accuracy").always(),
        Column::number("Last").priority(8),
        Column::number("Baseline").priority(7),
        Column::number("Change (95%)").priority(9),
        Column::whole("Metric").priority(1),
        Column::number("Loss").priority(5),
        Column::number("Last Loss").priority(3),
        Column::number("Baseline Loss").priority(2),
        Column::number("Loss Change (95%)").priority(4),
    ]);
    let rows = report
        .questions
        .iter()
        .map(|(id, e)| (id.as_str(), e, draft_cell(id, now, last)))
        .chain(std::iter::once(("overall", &report.overall, String::new())));
    for (id, evaluation, draft) in rows {
        // A question renamed (or new) since the last run carries nothing over from it.
        let before = last
            .filter(|_| id == "overall" || now.draft.contains_key(id))
            .and_then(|l| question(&l.report, id))
            .and_then(|e| e.metrics.as_ref());
        let Some(m) = &evaluation.metrics else {
            let mut row = vec![id.to_owned(), draft, super::report::NOT_EVALUATED.into()];
            row.extend(std::iter::repeat_n("-".to_owned(), 8));
            table.row(row);
            continue;
        };
        let base = evaluation.baseline.as_ref();
        let delta = evaluation.delta.as_ref();
        table.row(vec![
            id.to_owned(),
            draft,
            figure(Some(m), |m| m.accuracy),
            figure(before, |m| m.accuracy),
            figure(base, |m| m.accuracy),
            delta.map_or_else(|| "-".into(), |d| flagged(&d.accuracy)),
            m.metric.clone(),
            figure(Some(m), |m| m.loss),
            figure(before, |m| m.loss),
            figure(base, |m| m.loss),
            delta.map_or_else(|| "-".into(), |d| flagged(&d.loss)),
        ]);
    }
    let mut text = format!("run {}: {}\n", now.run, heading(now));
    text.push_str(&printer.render(&table));
    text.push_str(&footer(report, last));
    text
}

/// `working copy of main (draft.yaml) against main, 120 examples`.
fn heading(now: &Now<'_>) -> String {
    let report = now.report;
    let of = report
        .working_copy
        .as_ref()
        .map_or(report.revision.name.as_str(), |w| w.of.as_str());
    let mut text = format!("working copy of {of} ({})", now.file.display());
    if let Some(base) = &report.baseline {
        let _ = write!(text, " against {}", base.name);
    }
    text
}

/// What the draft says of a question: `changed` or `new` from the revision (`unchanged`
/// is left blank), and `edited` when it is not as it was at the last run.
fn draft_cell(id: &str, now: &Now<'_>, last: Option<&Last>) -> String {
    let origin = now
        .report
        .working_copy
        .as_ref()
        .and_then(|w| w.questions.get(id));
    let mut words = Vec::new();
    match origin {
        Some(QuestionOrigin::Changed) => words.push("changed"),
        Some(QuestionOrigin::New) => words.push("new"),
        Some(QuestionOrigin::Unchanged) | None => {}
    }
    if let Some(last) = last {
        match last.draft.get(id) {
            None if origin != Some(&QuestionOrigin::New) => words.push("new since last run"),
            Some(before) if Some(before) != now.draft.get(id) => words.push("edited"),
            _ => {}
        }
    }
    words.join(", ")
}

/// A question's evaluation in a report (`overall` is the overall row).
fn question<'a>(report: &'a EvaluationReport, id: &str) -> Option<&'a QuestionEvaluation> {
    if id == "overall" {
        Some(&report.overall)
    } else {
        report.questions.get(id)
    }
}

/// One figure to three decimals, `-` where there is none.
fn figure(m: Option<&Metrics>, f: fn(&Metrics) -> f64) -> String {
    m.map_or_else(|| "-".into(), |m| format!("{:.3}", f(m)))
}

/// A change with its interval, flagged [`CHANCE`] when the interval includes 0.
fn flagged(change: &Estimate) -> String {
    let mut text = estimate(change, true);
    if change.low <= 0.0 && change.high >= 0.0 {
        text.push(' ');
        text.push_str(CHANCE);
    }
    text
}

/// What the columns mean and what the run cost.
fn footer(report: &EvaluationReport, last: Option<&Last>) -> String {
    let mut text = String::new();
    let _ = write!(
        text,
        "\nchange: from the baseline, 95% paired bootstrap interval; {CHANCE} not beyond chance \
         (the interval includes 0)"
    );
    match last {
        Some(last) => {
            let _ = write!(
                text,
                "\nlast: run {}; a question new or renamed since has no figures from it",
                last.run
            );
        }
        None => text.push_str("\nlast: none yet (the first run)"),
    }
    let new = report
        .working_copy
        .iter()
        .flat_map(|w| &w.questions)
        .any(|(_, origin)| *origin == QuestionOrigin::New);
    if new {
        text.push_str(
            "\nnew: not a question of the revision (a renamed question is new): no figures \
             carried over, asked zero-shot",
        );
    }
    let _ = write!(
        text,
        "\n{} examples decided by the engine, {} wholly from the cache",
        report.decided, report.cached
    );
    text
}
