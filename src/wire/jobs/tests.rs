use super::*;
use crate::wire::Invalid;
use serde_json::json;

fn locs(error: &Invalid) -> Vec<String> {
    error
        .0
        .iter()
        .map(|d| serde_json::to_string(&d.loc).unwrap())
        .collect()
}

#[test]
fn a_batch_has_items_or_examples_and_every_fault_is_reported() {
    let ok = BatchRequest::read(&json!({"items": [{"state": 1}], "capture": true})).unwrap();
    assert!(ok.capture);
    assert_eq!(
        ok.into_parts().1,
        BatchItems::Inline(vec![json!({"state": 1})])
    );
    let examples = BatchRequest::read(&json!({"examples": "annotated"})).unwrap();
    assert_eq!(
        examples.clone().into_parts().1,
        BatchItems::Examples(ExampleSet::Annotated)
    );
    assert!(!examples.capture);

    let error = BatchRequest::read(&json!({
        "revision": 3, "capture": "yes", "items": {}, "extra": 1,
        "questions": {"q": {"type": "maybe"}}
    }))
    .unwrap_err();
    let found = locs(&error);
    for expected in [
        r#"["body","revision"]"#,
        r#"["body","capture"]"#,
        r#"["body","items"]"#,
        r#"["body","extra"]"#,
        r#"["body","questions","q","type"]"#,
    ] {
        assert!(
            found.iter().any(|l| l == expected),
            "{expected} in {found:?}"
        );
    }
    let both = BatchRequest::read(&json!({"items": [], "examples": "all"})).unwrap_err();
    assert_eq!(locs(&both), [r#"["body","examples"]"#]);
    let neither = BatchRequest::read(&json!({})).unwrap_err();
    assert_eq!(locs(&neither), [r#"["body","items"]"#]);
    let bad_set = BatchRequest::read(&json!({"examples": "some"})).unwrap_err();
    assert_eq!(locs(&bad_set), [r#"["body","examples"]"#]);
    assert!(BatchRequest::read(&json!([1])).is_err());
}

#[test]
fn an_item_needs_a_state_and_points_at_its_index() {
    let item = BatchItem::read(
        &json!({"example_id": "t-1", "state": {"a": 1}, "annotations": {}}),
        0,
    )
    .unwrap();
    assert_eq!(item.example_id.as_deref(), Some("t-1"));
    let error = BatchItem::read(&json!({"example_id": 5}), 7).unwrap_err();
    assert_eq!(
        locs(&error),
        [
            r#"["body","items",7,"example_id"]"#,
            r#"["body","items",7,"state"]"#
        ]
    );
    let error = BatchItem::read(&json!("text"), 2).unwrap_err();
    assert_eq!(locs(&error), [r#"["body","items",2]"#]);
    // A null state is a state: any JSON value is.
    assert!(BatchItem::read(&json!({"state": null}), 0).is_ok());
}

#[test]
fn statuses_round_trip_and_know_when_they_are_final() {
    for &status in <JobStatus as strum::VariantArray>::VARIANTS {
        assert_eq!(status.as_str().parse::<JobStatus>(), Ok(status));
        assert_eq!(status.to_string(), status.as_str());
        assert_eq!(
            serde_json::to_value(status).unwrap(),
            json!(status.as_str())
        );
    }
    assert!(!JobStatus::Running.is_finished());
    assert!(JobStatus::Cancelled.is_finished());
}

#[test]
fn a_result_read_back_is_of_the_kind_that_wrote_it() {
    use super::super::align::{AlignmentResult, EvaluationReport, QuestionEvaluation};
    use super::super::decision::{Revision, RevisionKind};
    let revision = Revision {
        name: "main".into(),
        kind: RevisionKind::Branch,
        commit: "0".repeat(40),
    };
    let results = [
        JobResult::Batch(BatchSummary::default()),
        JobResult::Evaluation(Box::new(EvaluationReport {
            revision,
            baseline: None,
            questions: indexmap::IndexMap::default(),
            overall: QuestionEvaluation::default(),
            decided: 0,
            cached: 0,
            working_copy: None,
            question_gates: None,
        })),
        JobResult::Alignment(Box::new(AlignmentResult {
            improved: false,
            base_checkpoint: "0".repeat(40),
            branch: None,
            checkpoint: None,
            seed: 0,
            questions: indexmap::IndexMap::default(),
            engine_calls: None,
            tuning: Some(crate::wire::align::TuningReport {
                used: true,
                examples: 40,
                steps: 60,
                log_loss_tuned: Some(0.5),
                log_loss_base: None,
                reason: "kept".into(),
            }),
        })),
    ];
    for result in results {
        let value = serde_json::to_value(&result).unwrap();
        // Untagged, as a client reads a polled job, and by kind, as the store's are read.
        let untagged: JobResult = serde_json::from_value(value.clone()).unwrap();
        assert_eq!(untagged, result, "{value}");
        assert_eq!(
            JobResult::parse(result.kind(), value.clone()).unwrap(),
            result
        );
        // A result is never read as another kind's.
        for other in [JobKind::Batch, JobKind::Evaluation, JobKind::Alignment] {
            if other != result.kind() {
                assert!(
                    JobResult::parse(other, value.clone()).is_err(),
                    "{other}: {value}"
                );
            }
        }
    }
}
