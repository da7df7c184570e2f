use super::*;
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
    let ok = BatchRequest::from_value(&json!({"items": [{"state": 1}], "capture": true})).unwrap();
    assert!(ok.capture);
    assert_eq!(ok.items, BatchItems::Inline(vec![json!({"state": 1})]));
    let examples = BatchRequest::from_value(&json!({"examples": "annotated"})).unwrap();
    assert_eq!(examples.items, BatchItems::Examples(ExampleSet::Annotated));
    assert!(!examples.capture);

    let error = BatchRequest::from_value(&json!({
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
    let both = BatchRequest::from_value(&json!({"items": [], "examples": "all"})).unwrap_err();
    assert_eq!(locs(&both), [r#"["body","examples"]"#]);
    let neither = BatchRequest::from_value(&json!({})).unwrap_err();
    assert_eq!(locs(&neither), [r#"["body","items"]"#]);
    let bad_set = BatchRequest::from_value(&json!({"examples": "some"})).unwrap_err();
    assert_eq!(locs(&bad_set), [r#"["body","examples"]"#]);
    assert!(BatchRequest::from_value(&json!([1])).is_err());
}

#[test]
fn an_item_needs_a_state_and_points_at_its_index() {
    let item = BatchItem::from_value(
        json!({"example_id": "t-1", "state": {"a": 1}, "annotations": {}}),
        0,
    )
    .unwrap();
    assert_eq!(item.example_id.as_deref(), Some("t-1"));
    let error = BatchItem::from_value(json!({"example_id": 5}), 7).unwrap_err();
    assert_eq!(
        locs(&error),
        [
            r#"["body","items",7,"example_id"]"#,
            r#"["body","items",7,"state"]"#
        ]
    );
    let error = BatchItem::from_value(json!("text"), 2).unwrap_err();
    assert_eq!(locs(&error), [r#"["body","items",2]"#]);
    // A null state is a state: any JSON value is.
    assert!(BatchItem::from_value(json!({"state": null}), 0).is_ok());
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
