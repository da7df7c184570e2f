use super::*;
use crate::wire::validate::Invalid;
use serde_json::json;

fn locs(error: &Invalid) -> Vec<String> {
    error.0.iter().map(|d| d.loc.to_string()).collect()
}

#[test]
fn an_alignment_request_has_defaults_and_checks_every_member() {
    assert_eq!(
        AlignmentRequest::read(&json!({})).unwrap(),
        AlignmentRequest::default()
    );
    let r = AlignmentRequest::read(
        &json!({"revision": "main", "questions": ["a", ""], "seed": 7, "margin": 0.05}),
    )
    .unwrap();
    assert_eq!(r.questions, Some(vec!["a".to_owned(), String::new()]));
    assert_eq!((r.seed, r.margin, r.unsupervised), (7, 0.05, false));
    let r = AlignmentRequest::read(&json!({"unsupervised": true})).unwrap();
    assert!(r.unsupervised);
    let e = AlignmentRequest::read(&json!({
        "seed": -1, "margin": 2, "questions": [1], "max_examples": 3, "x": 1,
        "unsupervised": "yes"
    }))
    .unwrap_err();
    assert_eq!(
        locs(&e),
        [
            "questions[0]",
            "seed",
            "margin",
            "max_examples",
            "unsupervised",
            "x"
        ]
    );
    assert!(AlignmentRequest::read(&json!([])).is_err());
    assert_eq!(
        locs(&AlignmentRequest::read(&json!({"questions": []})).unwrap_err()),
        ["questions"]
    );
}

#[test]
fn a_budget_is_a_whole_number_of_calls_from_one() {
    assert_eq!(AlignmentRequest::read(&json!({})).unwrap().budget, None);
    assert_eq!(
        AlignmentRequest::read(&json!({"budget": null}))
            .unwrap()
            .budget,
        None
    );
    assert_eq!(
        AlignmentRequest::read(&json!({"budget": 40}))
            .unwrap()
            .budget,
        Some(40)
    );
    for bad in [
        json!(0),
        json!(-1),
        json!(2.5),
        json!("10"),
        json!(1u64 << 60),
    ] {
        let e = AlignmentRequest::read(&json!({ "budget": bad })).unwrap_err();
        assert_eq!(locs(&e), ["budget"], "{bad}");
    }
    let e = AlignmentRequest::read(&json!({"budget": 0})).unwrap_err();
    assert!(e.0[0].msg.contains("at least 1"), "{:?}", e.0);
}

#[test]
fn a_question_of_a_report_written_before_statuses_reads_as_evaluated() {
    let before = json!({"metrics": {"examples": 3, "metric": "log_loss", "loss": 0.5,
        "logLoss": 0.5, "accuracy": 1.0, "macroF1": 1.0, "kappa": 1.0, "brier": 0.1,
        "ece": 0.1}, "failed": 0});
    let read: QuestionEvaluation = serde_json::from_value(before).unwrap();
    assert_eq!(read.status, EvaluationStatus::Evaluated);
    assert_eq!(read.metrics.map(|m| m.examples), Some(3));
    let not = QuestionEvaluation {
        status: EvaluationStatus::NotEvaluated,
        reason: Some("no annotated examples".to_owned()),
        ..QuestionEvaluation::default()
    };
    assert_eq!(
        serde_json::to_value(&not).unwrap(),
        json!({"status": "not_evaluated", "reason": "no annotated examples", "failed": 0,
            "excludedFitted": 0})
    );
}

#[test]
fn an_evaluation_request_checks_its_members() {
    let r = EvaluationRequest::read(&json!({"revision": "v3", "baseline": "main"})).unwrap();
    assert_eq!(r.baseline.as_deref(), Some("main"));
    let e = EvaluationRequest::read(&json!({"baseline": 3})).unwrap_err();
    assert_eq!(locs(&e), ["baseline"]);
}
