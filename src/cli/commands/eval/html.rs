//! An evaluation report as one self-contained HTML file (`--format html`): the figures,
//! intervals and gate verdicts of the other formats with the report's charts, to keep as a
//! CI artifact. It opens with no network access and runs no script.

use super::EvalArgs;
use super::gates::Judged;
use crate::ui::{document, evaluation};
use crate::wire::align::EvaluationReport;
use indexmap::IndexMap;

/// The document.
pub(super) fn html(args: &EvalArgs, report: &EvaluationReport, judged: &Judged) -> String {
    let gates: IndexMap<String, evaluation::GateShown> = judged
        .gates
        .keys()
        .map(|id| {
            let failures: Vec<String> = judged.failures_of(id).map(|f| f.message.clone()).collect();
            let shown = evaluation::GateShown {
                gate: judged.describe(id),
                passed: failures.is_empty(),
                failures,
            };
            (id.clone(), shown)
        })
        .collect();
    let body = evaluation::page(&args.model, report, &gates);
    document::standalone(&evaluation::title(&args.model, report), &body)
}
