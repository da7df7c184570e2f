//! An evaluation as a page: a checkpoint against its baseline, per question the figures
//! with their intervals and the gate's verdict, the learning curve its alignment recorded, a
//! reliability diagram, a confusion matrix and the examples the two checkpoints answered
//! differently. It shows what the report carries and nothing else: every figure is the
//! report's, printed as `eval`'s other formats print it (three decimals).

use super::chart::{self, fixed3};
use crate::wire::align::{
    Estimate, EvaluationReport, EvaluationStatus, Metrics, QuestionEvaluation,
};
use crate::wire::decision::{Revision, short_commit};
use indexmap::IndexMap;
use maud::{Markup, html};

/// A question's gate as judged, for the page (the command line judges gates).
#[derive(Debug, Clone, Default)]
pub struct GateShown {
    /// The gate as people read it: `accuracy ≥ 0.85 (gates.yaml)`.
    pub gate: String,
    pub passed: bool,
    /// Why it failed, one line per gate failed.
    pub failures: Vec<String>,
}

/// Each gated question's gate as judged, for the page.
pub fn gates_shown(judged: &crate::wire::align::gates::Judged) -> IndexMap<String, GateShown> {
    judged
        .gates
        .keys()
        .map(|id| {
            let failures: Vec<String> = judged.failures_of(id).map(|f| f.message.clone()).collect();
            let shown = GateShown {
                gate: judged.describe(id),
                passed: failures.is_empty(),
                failures,
            };
            (id.clone(), shown)
        })
        .collect()
}

/// The page's title.
pub fn title(model: &str, report: &EvaluationReport) -> String {
    match &report.baseline {
        Some(baseline) => format!(
            "arbiter eval: {model} at {} against {}",
            report.revision.name, baseline.name
        ),
        None => format!("arbiter eval: {model} at {}", report.revision.name),
    }
}

/// The whole evaluation: a summary table, then a section per question.
pub fn page(model: &str, report: &EvaluationReport, gates: &IndexMap<String, GateShown>) -> Markup {
    let any_gate = !gates.is_empty();
    let passed = gates.values().all(|g| g.passed);
    html! {
        h1 { (title(model, report)) }
        p.muted {
            (checkpoint(&report.revision))
            @if let Some(baseline) = &report.baseline {
                "; baseline " (checkpoint(baseline))
            }
            ". " (report.decided) " decisions asked, " (report.cached) " found in the answer cache."
        }
        @if let Some(working) = &report.working_copy {
            p.note {
                "Working copy of " code { (working.of) } ", not committed: "
                @for (i, (id, origin)) in working.questions.iter().enumerate() {
                    @if i > 0 { ", " }
                    code { (id) } " " (origin.describe())
                }
            }
        }
        @if any_gate {
            p #verdict class=(if passed { "pass" } else { "fail" }) {
                @if passed { "Gates passed." } @else { "Gates failed." }
            }
        }
        (summary(report, gates))
        @for (id, evaluation) in &report.questions {
            (question(id, evaluation, report.baseline.is_some(), gates.get(id)))
        }
    }
}

/// One row per question and the overall row.
fn summary(report: &EvaluationReport, gates: &IndexMap<String, GateShown>) -> Markup {
    let with_baseline = report.baseline.is_some();
    let any_gate = !gates.is_empty();
    html! {
        table #summary {
            thead {
                tr {
                    th { "Question" }
                    th.num { "Examples" }
                    @for (name, numeric) in figure_columns(with_baseline) {
                        th class=[numeric.then_some("num")] { (name) }
                    }
                    @if any_gate { th { "Gate" } }
                }
            }
            tbody {
                @for (id, evaluation) in &report.questions {
                    tr data-question=(id) {
                        td { a href=(format!("#q-{id}")) { code { (id) } } }
                        (summary_cells(evaluation, with_baseline))
                        @if any_gate {
                            td {
                                @if let Some(gate) = gates.get(id) {
                                    (gate_verdict(gate))
                                }
                            }
                        }
                    }
                }
                tr data-question="overall" {
                    td { strong { "overall" } }
                    (summary_cells(&report.overall, with_baseline))
                    @if any_gate { td {} }
                }
            }
        }
    }
}

/// The summary's columns after a question's examples: (header, whether it is a number).
const FIGURE_COLUMNS: [(&str, bool); 5] = [
    ("Accuracy", true),
    ("95% interval", true),
    ("Metric", false),
    ("Loss", true),
    ("ECE", true),
];
/// And after them, with a baseline.
const BASELINE_COLUMNS: [(&str, bool); 2] = [
    ("Baseline accuracy", true),
    ("Change in accuracy (95%)", true),
];

fn figure_columns(with_baseline: bool) -> impl Iterator<Item = (&'static str, bool)> {
    let baseline: &[(&str, bool)] = if with_baseline {
        &BASELINE_COLUMNS
    } else {
        &[]
    };
    FIGURE_COLUMNS.into_iter().chain(baseline.iter().copied())
}

/// A row's cells after its question, one per header of [`figure_columns`] after
/// "Examples".
fn summary_cells(evaluation: &QuestionEvaluation, with_baseline: bool) -> Markup {
    let Some(m) = evaluation
        .metrics
        .as_ref()
        .filter(|_| evaluation.status == EvaluationStatus::Evaluated)
    else {
        return html! {
            td.num { "0" }
            td colspan=(figure_columns(with_baseline).count()) .muted { "not evaluated" }
        };
    };
    html! {
        td.num data-figure="examples" { (m.examples) }
        td.num data-figure="accuracy" { (fixed3(m.accuracy)) }
        td.num { (interval(m.intervals.as_ref().map(|i| &i.accuracy))) }
        td { (m.metric) }
        td.num data-figure="loss" { (fixed3(m.loss)) }
        td.num data-figure="ece" { (fixed3(m.ece)) }
        @if with_baseline {
            td.num data-figure="baseline-accuracy" {
                (evaluation.baseline.as_ref().map_or_else(|| "—".to_owned(), |b| fixed3(b.accuracy)))
            }
            td.num data-figure="accuracy-change" {
                @match &evaluation.delta {
                    Some(delta) => { (signed(delta.accuracy.value)) " " (interval(Some(&delta.accuracy))) }
                    None => { "—" }
                }
            }
        }
    }
}

/// A question's section.
fn question(
    id: &str,
    evaluation: &QuestionEvaluation,
    with_baseline: bool,
    gate: Option<&GateShown>,
) -> Markup {
    html! {
        section id=(format!("q-{id}")) data-question=(id) {
            h2 { code { (id) } }
            @if let Some(gate) = gate {
                p { "Gate: " (gate.gate) " — " (gate_verdict(gate)) }
                @for failure in &gate.failures {
                    p.fail { (failure) }
                }
            }
            @match (&evaluation.metrics, evaluation.status) {
                (Some(metrics), EvaluationStatus::Evaluated) => {
                    (diagrams(evaluation, metrics))
                    (figures(metrics, evaluation, with_baseline))
                    (disagreements(evaluation))
                }
                _ => {
                    p.muted {
                        "Not evaluated: "
                        (evaluation.reason.as_deref().unwrap_or("no annotated example was scored"))
                    }
                }
            }
            (left_out(evaluation))
        }
    }
}

/// A figure's row: its name, its key on the page, and where a report holds it.
type FigureRow = (&'static str, &'static str, fn(&Metrics) -> Option<f64>);

/// The figures a question's table shows, in order (a row no column has is left out).
const FIGURE_ROWS: [FigureRow; 9] = [
    ("accuracy", "accuracy", |m| Some(m.accuracy)),
    ("loss", "loss", |m| Some(m.loss)),
    ("log loss", "log-loss", |m| Some(m.log_loss)),
    ("macro-F1", "macro-f1", |m| Some(m.macro_f1)),
    ("Cohen's κ", "kappa", |m| Some(m.kappa)),
    ("Brier", "brier", |m| Some(m.brier)),
    ("ECE", "ece", |m| Some(m.ece)),
    ("MAE (levels)", "mae", |m| m.mae),
    ("RPS", "rps", |m| m.rps),
];

/// Every figure of the revision, beside the baseline's and those of a head's parts, then
/// the change from the baseline and selective prediction.
fn figures(metrics: &Metrics, evaluation: &QuestionEvaluation, with_baseline: bool) -> Markup {
    let mut columns: Vec<(&str, &Metrics)> = vec![("revision", metrics)];
    if let Some(baseline) = evaluation.baseline.as_ref().filter(|_| with_baseline) {
        columns.push(("baseline", baseline));
    }
    // A part with no example scored has no figures (not figures of zero).
    let parts = [
        ("fitted on (out of fold)", &evaluation.out_of_fold),
        ("not fitted on", &evaluation.fresh),
    ];
    for (name, part) in parts {
        if let Some(part) = part.as_ref().filter(|m| m.examples > 0) {
            columns.push((name, part));
        }
    }
    html! {
        div.question {
            table.figures {
                thead {
                    tr {
                        th { "" }
                        @for (name, _) in &columns { th.num { (name) } }
                    }
                }
                tbody {
                    tr {
                        td { "examples" }
                        @for (_, m) in &columns { td.num { (m.examples) } }
                    }
                    @for (name, key, figure) in FIGURE_ROWS {
                        @if columns.iter().any(|(_, m)| figure(m).is_some()) {
                            tr data-row=(key) {
                                td { (name) }
                                @for (_, m) in &columns {
                                    td.num {
                                        @match figure(m) {
                                            Some(value) => { (fixed3(value)) }
                                            None => { "—" }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    tr {
                        td { "accuracy, 95% interval" }
                        @for (_, m) in &columns {
                            td.num { (interval(m.intervals.as_ref().map(|i| &i.accuracy))) }
                        }
                    }
                }
            }
            (comparison(metrics, evaluation))
        }
    }
}

/// The change from the baseline, and how much can be answered at a bounded error.
fn comparison(metrics: &Metrics, evaluation: &QuestionEvaluation) -> Markup {
    html! {
        div {
            @if let Some(delta) = &evaluation.delta {
                p {
                    "Against the baseline, on the " (delta.examples) " examples both scored: accuracy "
                    (signed(delta.accuracy.value)) " " (interval(Some(&delta.accuracy)))
                    ", loss " (signed(delta.loss.value)) " " (interval(Some(&delta.loss)))
                    @if beyond_chance(&delta.accuracy) { " (beyond chance)" } @else { " (within chance)" }
                    "."
                }
            }
            @if !metrics.coverage.is_empty() {
                p.muted {
                    "Selective prediction: "
                    @for (i, c) in metrics.coverage.iter().enumerate() {
                        @if i > 0 { "; " }
                        "at ≤ " (format!("{:.0}%", c.target_error * 100.0)) " error, "
                        (format!("{:.1}%", c.coverage * 100.0)) " of the examples answered"
                        @if let Some(threshold) = c.threshold { " (probability ≥ " (fixed3(threshold)) ")" }
                    }
                    "."
                }
            }
        }
    }
}

/// The curve, the reliability diagram and the confusion matrix, those the report holds.
fn diagrams(evaluation: &QuestionEvaluation, metrics: &Metrics) -> Markup {
    html! {
        div.charts {
            @if !evaluation.curve.is_empty() {
                figure.curve {
                    h3 { "Learning curve" }
                    (chart::curve(&evaluation.curve))
                    figcaption {
                        "Out-of-fold accuracy at growing numbers of annotated examples, as the "
                        "alignment of this checkpoint measured it (align --curve)."
                    }
                }
            }
            @if !metrics.reliability.is_empty() {
                figure.reliability {
                    h3 { "Reliability" }
                    (chart::reliability(&metrics.reliability))
                    figcaption {
                        "Accuracy per bin of the most likely outcome's probability; a calibrated "
                        "model follows the diagonal. ECE " (fixed3(metrics.ece)) "."
                    }
                }
            }
            @if !metrics.confusion.is_empty() {
                figure.confusion {
                    h3 { "Confusion" }
                    (chart::confusion(&evaluation.outcomes, &metrics.confusion))
                    figcaption { "Annotated outcome against the most likely answered one." }
                }
            }
        }
    }
}

fn disagreements(evaluation: &QuestionEvaluation) -> Markup {
    let Some(found) = &evaluation.disagreements else {
        return html! {};
    };
    html! {
        h3 { "Where the revision and the baseline answer differently (" (found.count) ")" }
        @if found.examples.is_empty() {
            p.muted { "Nowhere: both give the same answer on every example both scored." }
        } @else {
            table.disagreements {
                thead {
                    tr {
                        th { "Example" } th { "Annotated" } th { "Revision" } th.num { "p" }
                        th { "Baseline" } th.num { "p" }
                    }
                }
                tbody {
                    @for d in &found.examples {
                        tr {
                            td { code { (d.example_id) } }
                            td { (d.label) }
                            td class=(if d.revision == d.label { "pass" } else { "fail" }) { (d.revision) }
                            td.num { (fixed3(d.revision_probability)) }
                            td class=(if d.baseline == d.label { "pass" } else { "fail" }) { (d.baseline) }
                            td.num { (fixed3(d.baseline_probability)) }
                        }
                    }
                }
            }
            @if found.count > found.examples.len() as u64 {
                p.muted { "The first " (found.examples.len()) " by example ID." }
            }
        }
    }
}

/// What was not scored, when anything was not.
fn left_out(evaluation: &QuestionEvaluation) -> Markup {
    html! {
        @if evaluation.failed > 0 {
            p.muted { (evaluation.failed) " decisions failed and are counted in no figure." }
        }
        @if evaluation.excluded_fitted > 0 {
            p.muted {
                (evaluation.excluded_fitted)
                " annotated examples were left out: an alignment was fitted on them."
            }
        }
        @if evaluation.fitted_unknown {
            p.muted { "Aligned where no record of its fitted examples was kept: none could be left out." }
        }
    }
}

fn gate_verdict(gate: &GateShown) -> Markup {
    html! {
        @if gate.passed { span.pass { "passed" } } @else { span.fail { "failed" } }
    }
}

fn checkpoint(revision: &Revision) -> Markup {
    html! {
        code { (revision.name) } " (" (revision.kind.as_str()) " "
        code { (short_commit(&revision.commit)) } ")"
    }
}

fn interval(estimate: Option<&Estimate>) -> String {
    estimate.map_or_else(
        || "—".to_owned(),
        |e| format!("[{}, {}]", fixed3(e.low), fixed3(e.high)),
    )
}

fn signed(value: f64) -> String {
    format!("{value:+.3}")
}

fn beyond_chance(estimate: &Estimate) -> bool {
    estimate.low > 0.0 || estimate.high < 0.0
}
