use super::super::test_support::{on_postgres, store};
use serde_json::{Value, json};

use super::super::NewAnnotation;
use super::super::test_support::{MODEL, decision, file_store};
use super::*;

fn ann(q: &str, answer: Value) -> NewAnnotation {
    NewAnnotation {
        question_id: q.into(),
        answer,
        reasoning: None,
        annotator: "ann".into(),
    }
}

/// Examples `ex-00000`.. ; every 3rd annotated for "q1", every 5th for "q2".
fn items(n: usize) -> impl Iterator<Item = Result<IngestItem, StoreError>> {
    (0..n).map(|i| {
        let mut annotations = Vec::new();
        if i % 3 == 0 {
            annotations.push(ann("q1", json!(i)));
        }
        if i % 5 == 0 {
            annotations.push(ann("q2", json!({ "i": i })));
        }
        Ok(IngestItem {
            example_id: format!("ex-{i:05}").into(),
            state: json!({ "i": i }),
            annotations,
        })
    })
}

fn all() -> ExampleFilter {
    ExampleFilter::default()
}

fn ingest(
    store: &Store,
    it: &mut dyn Iterator<Item = Result<IngestItem, StoreError>>,
    atomic: bool,
) -> Result<IngestCounts, StoreError> {
    store.ingest(&MODEL, it, atomic, &mut |_| {})
}

#[test]
fn ingest_counts_batches_and_reingest() {
    let store = store();
    let mut reports = Vec::new();
    let counts = store
        .ingest(&MODEL, &mut items(4_500), false, &mut |c| reports.push(*c))
        .unwrap();
    let annotations =
        (0..4_500u64).filter(|i| i % 3 == 0).count() + (0..4_500u64).filter(|i| i % 5 == 0).count();
    assert_eq!(
        counts,
        IngestCounts {
            created: 4_500,
            existing: 0,
            annotations: annotations as u64
        }
    );
    let created: Vec<_> = reports.iter().map(|c| c.created).collect();
    assert_eq!(created, [2_000, 4_000, 4_500]);
    assert_eq!(reports.last(), Some(&counts));

    // Re-ingest with changed states and answers: no duplicates, state kept, answers replaced.
    let mut changed = (0..4_500).map(|i| {
        Ok(IngestItem {
            example_id: format!("ex-{i:05}").into(),
            state: json!("changed"),
            annotations: vec![ann("q1", json!("new"))],
        })
    });
    let again = ingest(&store, &mut changed, false).unwrap();
    assert_eq!(
        again,
        IngestCounts {
            created: 0,
            existing: 4_500,
            annotations: 4_500
        }
    );
    assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 4_500);
    let e = store
        .get_example(&MODEL, &"ex-00005".into())
        .unwrap()
        .unwrap()
        .example;
    assert_eq!(e.state, json!({ "i": 5 }));
    assert_eq!(e.annotations["q1"].answer, json!("new"));
    assert_eq!(
        e.annotations["q2"].answer,
        json!({ "i": 5 }),
        "other questions untouched"
    );
}

/// The source fails after 2,500 good items.
fn failing_items() -> impl Iterator<Item = Result<IngestItem, StoreError>> {
    let boom = StoreError::Corrupt {
        what: "input line 2501".into(),
        reason: "bad JSON".into(),
    };
    items(2_500)
        .chain(std::iter::once(Err(boom)))
        .chain(items(10))
}

#[test]
fn atomic_ingest_rolls_back_everything() {
    let store = store();
    let mut called = false;
    let err = store
        .ingest(&MODEL, &mut failing_items(), true, &mut |_| called = true)
        .unwrap_err();
    assert!(matches!(err, StoreError::Corrupt { .. }));
    assert!(!called);
    assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 0);
    let annotated = ExampleFilter {
        annotated: Some(true),
        ..Default::default()
    };
    assert_eq!(store.count_examples(&MODEL, &annotated).unwrap(), 0);
}

#[test]
fn non_atomic_ingest_keeps_committed_batches() {
    let store = store();
    let mut reports = 0;
    assert!(
        store
            .ingest(&MODEL, &mut failing_items(), false, &mut |_| reports += 1)
            .is_err()
    );
    assert_eq!(reports, 1);
    assert_eq!(store.count_examples(&MODEL, &all()).unwrap(), 2_000);
}

#[test]
fn examples_are_found_by_a_questions_answer_and_by_text_in_their_state() {
    let store = store();
    ingest(&store, &mut items(40), false).unwrap();
    let ids = |filter: &ExampleFilter| -> Vec<String> {
        store
            .list_examples(&MODEL, filter, None, 100)
            .unwrap()
            .iter()
            .map(|e| e.example_id.to_string())
            .collect()
    };
    let answered_nine = ExampleFilter {
        question: Some("q1".into()),
        answer: Some(json!(9)),
        ..Default::default()
    };
    assert_eq!(ids(&answered_nine), ["ex-00009"]);
    // States read `{"i":N}`: `"i":1` is in 1 and 10–19; LIKE's wildcards are text.
    let text = |text: &str| ExampleFilter {
        text: Some(text.into()),
        ..Default::default()
    };
    assert_eq!(ids(&text("\"I\":1")).len(), 11, "letter case aside");
    assert_eq!(
        ids(&text("\"i\":3")),
        [
            "ex-00003", "ex-00030", "ex-00031", "ex-00032", "ex-00033", "ex-00034", "ex-00035",
            "ex-00036", "ex-00037", "ex-00038", "ex-00039"
        ]
    );
    assert!(ids(&text("%")).is_empty());
    assert!(ids(&text("_")).is_empty());
}

#[test]
fn the_answer_and_text_filters_on_postgres() {
    on_postgres!(examples_are_found_by_a_questions_answer_and_by_text_in_their_state);
}

// Long: one store walked through each filter and then a whole cursor pagination, each
// step reading what the one before left.
#[test]
fn list_filters_and_cursor_pagination() {
    let store = store();
    ingest(&store, &mut items(250), false).unwrap();
    let filter = |annotated: Option<bool>, question: Option<&str>| ExampleFilter {
        annotated,
        question: question.map(str::to_owned),
        ..Default::default()
    };
    let q1 = filter(None, Some("q1"));
    let annotated = filter(Some(true), None);
    let bare = filter(Some(false), None);
    let both = filter(Some(true), Some("q2"));
    let expect = |pred: &dyn Fn(usize) -> bool| {
        (0..250)
            .filter(|&i| pred(i))
            .map(|i| format!("ex-{i:05}"))
            .collect::<Vec<_>>()
    };

    for (filter, want) in [
        (all(), expect(&|_| true)),
        (q1.clone(), expect(&|i| i % 3 == 0)),
        (annotated, expect(&|i| i % 3 == 0 || i % 5 == 0)),
        (bare, expect(&|i| i % 3 != 0 && i % 5 != 0)),
        (both, expect(&|i| i % 5 == 0)),
    ] {
        let mut got = Vec::new();
        let mut after: Option<String> = None;
        loop {
            let page = store
                .list_examples(&MODEL, &filter, after.as_deref(), 30)
                .unwrap();
            assert!(page.len() <= 30);
            after = page.last().map(|e| e.example_id.to_string());
            let done = page.len() < 30;
            got.extend(page.into_iter().map(|e| e.example_id.into_string()));
            if done {
                break;
            }
        }
        assert!(want.len() > 30, "more than one page");
        assert_eq!(got, want, "{filter:?}");
        assert_eq!(
            store.count_examples(&MODEL, &filter).unwrap(),
            want.len() as u64
        );
    }

    let page = store
        .list_examples(&MODEL, &q1, Some("ex-00010"), 2)
        .unwrap();
    assert_eq!(page[0].example_id, "ex-00012");
    assert_eq!(page[0].annotations["q1"].answer, json!(12));
    assert_eq!(page[1].example_id, "ex-00015");
    assert_eq!(
        page[1].annotations.len(),
        2,
        "all annotations, not just the filtered question"
    );
    assert!(
        store
            .list_examples(
                &crate::ids::ModelId::from(uuid::Uuid::nil()),
                &all(),
                None,
                10
            )
            .unwrap()
            .is_empty()
    );
    assert!(
        store
            .list_examples(&MODEL, &all(), None, 0)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn for_each_streams_all_in_order() {
    let store = store();
    ingest(&store, &mut items(2_500), false).unwrap();
    let mut seen = Vec::new();
    let mut annotated = 0;
    store
        .for_each_example(&MODEL, &all(), &mut |e| {
            annotated += usize::from(!e.annotations.is_empty());
            seen.push(e.example_id);
            Ok(())
        })
        .unwrap();
    assert_eq!(seen.len(), 2_500);
    assert!(seen.windows(2).all(|w| w[0] < w[1]));
    assert_eq!(
        annotated,
        (0..2_500).filter(|i| i % 3 == 0 || i % 5 == 0).count()
    );

    // The callback may use the store (no connection held), and its error stops the walk.
    let mem = Store::open_in_memory().unwrap();
    ingest(&mem, &mut items(5), false).unwrap();
    let mut visits = 0;
    let err = mem
        .for_each_example(&MODEL, &all(), &mut |e| {
            visits += 1;
            mem.get_example(&MODEL, &e.example_id.as_str().into())?;
            Err(StoreError::ExampleNotFound("stop".into()))
        })
        .unwrap_err();
    assert_eq!(
        (visits, err),
        (1, StoreError::ExampleNotFound("stop".into()))
    );
}

#[test]
fn corrupt_json_is_reported() {
    let (dir, store) = file_store();
    let state = json!({});
    store
        .record_decision(&decision(&"e1".into(), &state, &state))
        .unwrap();
    let raw = rusqlite::Connection::open(dir.path().join("arbiter.db")).unwrap();
    raw.execute("UPDATE examples SET state = '{not json'", [])
        .unwrap();
    let err = store.get_example(&MODEL, &"e1".into()).unwrap_err();
    assert!(
        matches!(&err, StoreError::Corrupt { what, .. } if what.contains("e1")),
        "{err}"
    );
}

#[test]
fn the_same_tests_on_postgres() {
    on_postgres!(
        ingest_counts_batches_and_reingest,
        atomic_ingest_rolls_back_everything,
        non_atomic_ingest_keeps_committed_batches,
        list_filters_and_cursor_pagination,
        for_each_streams_all_in_order
    );
}
