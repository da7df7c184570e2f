use super::document::standalone;
use super::evaluation::{GateShown, page};
use crate::wire::align::{
    CurvePoint, Disagreement, Disagreements, EvaluationReport, EvaluationStatus, Metrics,
    QuestionEvaluation, ReliabilityBin,
};
use crate::wire::decision::{Revision, RevisionKind};
use indexmap::IndexMap;

const HOSTILE: &str = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>&amp;";

fn revision(name: &str) -> Revision {
    Revision {
        name: name.to_owned(),
        kind: RevisionKind::Branch,
        commit: "0123456789abcdef0123456789abcdef01234567".to_owned(),
    }
}

/// A report whose every text field (question ID, outcomes, example ID, revision names,
/// gate and its failure, the reason of a question not evaluated) is markup.
fn hostile_report() -> (EvaluationReport, IndexMap<String, GateShown>) {
    let metrics = Metrics {
        examples: 2,
        metric: "log_loss".to_owned(),
        accuracy: 0.5,
        confusion: vec![vec![1, 0], vec![1, 0]],
        reliability: vec![ReliabilityBin {
            low: 0.5,
            high: 0.6,
            examples: 2,
            confidence: 0.55,
            accuracy: 0.5,
        }],
        ..Metrics::default()
    };
    let evaluated = QuestionEvaluation {
        status: EvaluationStatus::Evaluated,
        metrics: Some(metrics.clone()),
        baseline: Some(metrics),
        outcomes: vec![HOSTILE.to_owned(), "javascript:alert(3)".to_owned()],
        curve: vec![CurvePoint {
            examples: 2,
            accuracy: 0.5,
            log_loss: 0.7,
            interval: Some([0.1, 0.9]),
        }],
        disagreements: Some(Disagreements {
            count: 1,
            examples: vec![Disagreement {
                example_id: HOSTILE.to_owned(),
                label: HOSTILE.to_owned(),
                revision: HOSTILE.to_owned(),
                revision_probability: 0.6,
                baseline: "javascript:alert(3)".to_owned(),
                baseline_probability: 0.7,
            }],
        }),
        ..QuestionEvaluation::default()
    };
    let not_evaluated = QuestionEvaluation {
        status: EvaluationStatus::NotEvaluated,
        reason: Some(HOSTILE.to_owned()),
        ..QuestionEvaluation::default()
    };
    let mut questions = IndexMap::new();
    questions.insert(HOSTILE.to_owned(), evaluated);
    questions.insert(format!("{HOSTILE}2"), not_evaluated);
    let report = EvaluationReport {
        revision: revision(HOSTILE),
        baseline: Some(revision(HOSTILE)),
        questions,
        overall: QuestionEvaluation::default(),
        decided: 0,
        cached: 0,
        working_copy: None,
        question_gates: None,
    };
    let gate = GateShown {
        gate: HOSTILE.to_owned(),
        passed: false,
        failures: vec![HOSTILE.to_owned()],
    };
    let gates = [(HOSTILE.to_owned(), gate)].into_iter().collect();
    (report, gates)
}

#[test]
fn every_text_of_a_report_is_escaped() {
    let (report, gates) = hostile_report();
    let html = standalone(HOSTILE, &page(HOSTILE, &report, &gates));
    assert!(!html.contains("<script>alert"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(!html.contains("\"'>"), "{html}");
    assert!(!html.contains("href=\"javascript:"), "{html}");
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{html}"
    );
    // An entity in the text stays text: `&amp;` is shown as typed.
    assert!(html.contains("&amp;amp;"), "{html}");
}

#[test]
fn a_chart_is_drawn_from_its_data_alone() {
    let (report, gates) = hostile_report();
    let html = page("m", &report, &gates).into_string();
    // Two outcomes: a 2×2 confusion matrix; one bin; one point of the curve.
    assert_eq!(html.matches("class=\"cell\"").count(), 4, "{html}");
    assert_eq!(html.matches("class=\"bar\"").count(), 1, "{html}");
    assert_eq!(html.matches("aria-label=\"learning curve\"").count(), 1);
    // Each row is shaded by its share: annotated first, answered first, 1 of 1.
    assert!(html.contains("fill-opacity=\"1.000\""), "{html}");
}

/// Every row of the summary spans as many columns as its header: a question not evaluated
/// as much as one with every figure, with a baseline and a gate column.
#[test]
fn every_summary_row_is_as_wide_as_its_header() {
    let (report, gates) = hostile_report();
    let html = page("m", &report, &gates).into_string();
    let start = html.find("<table id=\"summary\">").expect("a summary");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let cell = regex::Regex::new(r"<t[hd]\b([^>]*)>").unwrap();
    let colspan = regex::Regex::new(r#"colspan="(\d+)""#).unwrap();
    let widths: Vec<usize> = table
        .split("<tr")
        .skip(1)
        .map(|row| {
            cell.captures_iter(row)
                .map(|c| colspan.captures(&c[1]).map_or(1, |n| n[1].parse().unwrap()))
                .sum()
        })
        .collect();
    // The header, two questions (one not evaluated) and the overall row.
    assert_eq!(widths.len(), 4, "{table}");
    assert!(
        widths.iter().all(|w| *w == widths[0]),
        "{widths:?} in {table}"
    );
    assert_eq!(widths[0], 2 + 5 + 2 + 1, "{table}");
}
