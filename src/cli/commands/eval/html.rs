//! An evaluation report as one self-contained HTML file (`--format html`): the figures,
//! intervals and gate verdicts of the other formats with the report's charts, to keep as a
//! CI artifact. It opens with no network access and runs no script.

use super::EvalArgs;
use crate::ui::{document, evaluation};
use crate::wire::align::EvaluationReport;
use crate::wire::align::gates::Judged;

/// The document.
pub(super) fn html(args: &EvalArgs, report: &EvaluationReport, judged: &Judged) -> String {
    let body = evaluation::page(&args.model, report, &evaluation::gates_shown(judged));
    document::standalone(&evaluation::title(&args.model, report), &body)
}
