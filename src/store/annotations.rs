//! Ground-truth annotations: single and bulk upserts, and loading them for a
//! page of examples in one query. Each annotator has their own answer per question; a
//! question's ground truth is their majority ([`super::majority`]), resolved here as
//! they are loaded.

use crate::ids::ExampleId;
use crate::ids::ModelId;
use crate::wire::time::Recorded;
use serde_json::Value;

use super::error::parse_json;
use super::sql::{Db, SqlContext, params};
use super::{
    Annotation, Example, NewAnnotation, Store, StoreError, Vote, example_rows, majority, now,
};

/// The name migration 8 gave the annotations written before annotators were recorded.
pub const UNKNOWN_ANNOTATOR: &str = "unknown";

impl Store {
    /// Sets (inserts or replaces) one annotator's answer to one question, and returns the
    /// question's ground truth as it now stands: the majority of every annotator's answer,
    /// which need not be this one.
    ///
    /// # Errors
    /// [`StoreError::ExampleNotFound`] if the example does not exist;
    /// [`StoreError::Database`] on database failure.
    pub fn annotate(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
        annotation: &NewAnnotation,
    ) -> Result<Annotation, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.write("annotate", |tx| {
            let annotated_at = now();
            annotate_one(tx, model_id, example_id, annotation, annotated_at)??;
            let votes = votes_of(tx, model_id, example_id, &annotation.question_id)?;
            majority::resolve(votes).ok_or_else(|| StoreError::Corrupt {
                what: format!("annotations of example {example_id:?}"),
                reason: "the answer just written is missing".into(),
            })
        })
    }

    /// Deletes `annotator`'s answer to `question_id` of `example_id` (an undo); whether
    /// there was one. The other annotators' answers stay.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn unannotate(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
        question_id: &str,
        annotator: &str,
    ) -> Result<bool, StoreError> {
        let model_id = model_id.to_string();
        self.write("unannotate", |tx| {
            let gone = tx
                .execute(
                    "DELETE FROM annotations WHERE model_id = ?1 AND example_id = ?2
                     AND question_id = ?3 AND annotator = ?4",
                    params![model_id, example_id, question_id, annotator],
                )
                .ctx("delete annotation")?;
            Ok(gone > 0)
        })
    }

    /// Upserts many annotations in one transaction. Each item gets its own
    /// result (`ExampleNotFound` for unknown examples); the others are applied.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the transaction fails; nothing is applied then.
    pub fn annotate_many(
        &self,
        model_id: &ModelId,
        items: &[(ExampleId, NewAnnotation)],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.write("annotate many", |tx| {
            let annotated_at = now();
            items
                .iter()
                .map(|(example_id, a)| annotate_one(tx, model_id, example_id, a, annotated_at))
                .collect()
        })
    }
}

/// Outer error: the transaction must abort; inner error: only this item failed.
fn annotate_one(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
    annotation: &NewAnnotation,
    annotated_at: Recorded,
) -> Result<Result<(), StoreError>, StoreError> {
    // Checked explicitly (rather than via the foreign key) to return a typed error.
    if !example_rows::exists(conn, model_id, example_id)? {
        return Ok(Err(StoreError::ExampleNotFound(example_id.to_string())));
    }
    upsert(conn, model_id, example_id, annotation, annotated_at)?;
    Ok(Ok(()))
}

/// Inserts or replaces one annotator's answer; the example must exist. The old row is
/// deleted and a new one inserted, so the rowid follows the order of writing: votes
/// written in the same millisecond stay in that order.
pub(super) fn upsert(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
    a: &NewAnnotation,
    annotated_at: Recorded,
) -> Result<(), StoreError> {
    conn.execute(
        "DELETE FROM annotations
         WHERE model_id = ?1 AND example_id = ?2 AND question_id = ?3 AND annotator = ?4",
        params![model_id, example_id, a.question_id, a.annotator],
    )
    .ctx("replace annotation")?;
    insert(conn, model_id, example_id, a, annotated_at, Exists::Fail)?;
    Ok(())
}

/// What [`insert`] does when the annotator has an answer to that question of that example.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Exists {
    /// The statement fails (the caller removed it first).
    Fail,
    /// The answer there is kept, and nothing is inserted.
    Keep,
}

/// Inserts one annotator's answer; whether it was inserted.
pub(super) fn insert(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
    a: &NewAnnotation,
    annotated_at: Recorded,
    exists: Exists,
) -> Result<bool, StoreError> {
    let sql = match exists {
        Exists::Fail => {
            "INSERT INTO annotations
                 (model_id, example_id, question_id, annotator, answer, reasoning, annotated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"
        }
        Exists::Keep => {
            "INSERT INTO annotations
                 (model_id, example_id, question_id, annotator, answer, reasoning, annotated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING"
        }
    };
    let inserted = conn
        .execute(
            sql,
            params![
                model_id,
                example_id,
                a.question_id,
                a.annotator,
                a.answer.to_string(),
                a.reasoning,
                annotated_at
            ],
        )
        .ctx("add annotation")?;
    Ok(inserted == 1)
}

/// Every annotator's answer to one question of one example, oldest first.
fn votes_of(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
    question_id: &str,
) -> Result<Vec<Vote>, StoreError> {
    let rows = conn
        .query_map(
            "SELECT annotator, answer, reasoning, annotated_at FROM annotations
             WHERE model_id = ?1 AND example_id = ?2 AND question_id = ?3
             ORDER BY annotated_at, rowid",
            params![model_id, example_id, question_id],
            |r| {
                Ok((
                    r.get::<String>(0)?,
                    r.get::<String>(1)?,
                    r.get::<Option<String>>(2)?,
                    r.get::<Recorded>(3)?,
                ))
            },
        )
        .ctx("load votes")?;
    rows.into_iter()
        .map(|row| {
            let (annotator, answer, reasoning, annotated_at) = row;
            let answer = parse_json(&answer, || {
                format!("answer of example {example_id:?} question {question_id:?}")
            })?;
            Ok(Vote {
                annotator,
                answer,
                reasoning,
                annotated_at,
            })
        })
        .collect()
}

/// Fills `annotations` of every example in `page`, which must be sorted by
/// `example_id` (SQLite's BINARY order equals Rust's `str` order), each question's resolved
/// by majority. One query for the whole page: the ids go in as a JSON array expanded by
/// `json_each`, so each is an index lookup on the primary key.
pub(super) fn fill(
    conn: &mut Db<'_>,
    model_id: &str,
    page: &mut [Example],
) -> Result<(), StoreError> {
    if page.is_empty() {
        return Ok(());
    }
    let ids = Value::from(
        page.iter()
            .map(|e| e.example_id.as_str())
            .collect::<Vec<_>>(),
    )
    .to_string();
    let sql = format!(
        "SELECT example_id, question_id, annotator, answer, reasoning, annotated_at
         FROM annotations
         WHERE model_id = ?1 AND example_id IN (SELECT value FROM {})
         ORDER BY annotated_at, rowid",
        conn.dialect().json_texts("?2")
    );
    let rows = conn
        .query_map(&sql, params![model_id, ids], |r| {
            Ok((
                r.get::<String>(0)?,
                r.get::<String>(1)?,
                r.get::<String>(2)?,
                r.get::<String>(3)?,
                r.get::<Option<String>>(4)?,
                r.get::<Recorded>(5)?,
            ))
        })
        .ctx("load annotations")?;
    // Per example of the page: question ID -> votes, oldest first.
    let mut votes: Vec<std::collections::BTreeMap<String, Vec<Vote>>> =
        vec![std::collections::BTreeMap::new(); page.len()];
    for row in rows {
        let (example_id, question_id, annotator, answer, reasoning, annotated_at) = row;
        let answer = parse_json(&answer, || {
            format!("answer of example {example_id:?} question {question_id:?}")
        })?;
        if let Ok(i) = page.binary_search_by(|e| e.example_id.as_str().cmp(&example_id)) {
            votes[i].entry(question_id).or_default().push(Vote {
                annotator,
                answer,
                reasoning,
                annotated_at,
            });
        }
    }
    for (example, questions) in page.iter_mut().zip(votes) {
        for (question_id, votes) in questions {
            if let Some(annotation) = majority::resolve(votes) {
                example.annotations.insert(question_id, annotation);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{TestStore, on_postgres, store};
    use serde_json::json;

    use super::super::test_support::{MODEL, decision};
    use super::*;

    fn ann(question_id: &str, answer: Value, reasoning: Option<&str>) -> NewAnnotation {
        by("ann", question_id, answer, reasoning)
    }

    fn by(
        annotator: &str,
        question_id: &str,
        answer: Value,
        reasoning: Option<&str>,
    ) -> NewAnnotation {
        NewAnnotation {
            question_id: question_id.into(),
            answer,
            reasoning: reasoning.map(Into::into),
            annotator: annotator.into(),
        }
    }

    fn store_with(ids: &[&str]) -> TestStore {
        let store = store();
        let state = json!({});
        for id in ids {
            store
                .record_decision(&decision(&(*id).into(), &state, &state))
                .unwrap();
        }
        store
    }

    #[test]
    fn annotate_missing_example_is_not_found() {
        let store = store_with(&[]);
        let err = store
            .annotate(&MODEL, &"ghost".into(), &ann("q", json!(1), None))
            .unwrap_err();
        assert_eq!(err, StoreError::ExampleNotFound("ghost".into()));
        // Another model's example does not count either.
        let other = store_with(&["e1"]);
        assert!(
            other
                .annotate(
                    &crate::ids::ModelId::from(uuid::Uuid::nil()),
                    &"e1".into(),
                    &ann("q", json!(1), None)
                )
                .is_err()
        );
    }

    #[test]
    fn annotate_upserts() {
        let store = store_with(&["e1"]);
        let first = store
            .annotate(
                &MODEL,
                &"e1".into(),
                &ann("q", json!("yes"), Some("because")),
            )
            .unwrap();
        assert_eq!(first.reasoning.as_deref(), Some("because"));
        let second = store
            .annotate(&MODEL, &"e1".into(), &ann("q", json!("no"), None))
            .unwrap();
        let got = store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example
            .annotations;
        assert_eq!(got.len(), 1);
        assert_eq!(got["q"], second);
        assert_eq!(got["q"].answer, json!("no"));
        assert_eq!(got["q"].reasoning, None, "reasoning is replaced, not kept");
        let v = serde_json::to_value(&got["q"]).unwrap();
        assert!(v.get("reasoning").is_none());
        assert!(v.get("annotatedAt").is_some());
    }

    #[test]
    fn unannotate_deletes_only_its_annotators_answer() {
        let store = store_with(&["e1"]);
        store
            .annotate(&MODEL, &"e1".into(), &by("ann", "q", json!("yes"), None))
            .unwrap();
        store
            .annotate(&MODEL, &"e1".into(), &by("bob", "q", json!("no"), None))
            .unwrap();
        assert!(store.unannotate(&MODEL, &"e1".into(), "q", "bob").unwrap());
        assert!(
            !store.unannotate(&MODEL, &"e1".into(), "q", "bob").unwrap(),
            "gone already"
        );
        assert!(
            !store
                .unannotate(&MODEL, &"e1".into(), "other", "ann")
                .unwrap()
        );
        let got = store.get_example(&MODEL, &"e1".into()).unwrap().unwrap();
        let q = &got.example.annotations["q"];
        assert_eq!((q.answer.clone(), q.votes.len()), (json!("yes"), 1));
        assert!(store.unannotate(&MODEL, &"e1".into(), "q", "ann").unwrap());
        let got = store.get_example(&MODEL, &"e1".into()).unwrap().unwrap();
        assert!(got.example.annotations.is_empty());
    }

    #[test]
    fn empty_and_unicode_question_ids() {
        let store = store_with(&["é✓"]);
        for q in ["", "вопрос", "問題 🙂", "q\"'; DROP TABLE x"] {
            store
                .annotate(&MODEL, &"é✓".into(), &ann(q, json!({ "q": q }), None))
                .unwrap();
        }
        let got = store
            .get_example(&MODEL, &"é✓".into())
            .unwrap()
            .unwrap()
            .example
            .annotations;
        assert_eq!(got.len(), 4);
        assert_eq!(got[""].answer, json!({ "q": "" }));
        assert_eq!(got["問題 🙂"].answer, json!({ "q": "問題 🙂" }));
        let only_empty = super::super::ExampleFilter {
            annotated: None,
            question: Some(String::new()),
            ..Default::default()
        };
        assert_eq!(store.count_examples(&MODEL, &only_empty).unwrap(), 1);
    }

    #[test]
    fn annotate_many_reports_per_item() {
        let store = store_with(&["a", "b"]);
        let items = vec![
            ("a".into(), ann("q1", json!(1), None)),
            ("missing".into(), ann("q1", json!(2), None)),
            ("b".into(), ann("q1", json!(3), Some("r"))),
        ];
        let results = store.annotate_many(&MODEL, &items).unwrap();
        assert_eq!(
            results,
            vec![
                Ok(()),
                Err(StoreError::ExampleNotFound("missing".into())),
                Ok(())
            ]
        );
        let b = store.get_example(&MODEL, &"b".into()).unwrap().unwrap();
        assert_eq!(b.example.annotations["q1"].answer, json!(3));
        assert!(
            store
                .get_example(&MODEL, &"missing".into())
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn each_annotator_keeps_an_answer_and_the_majority_resolves() {
        let store = store_with(&["e1"]);
        let first = store
            .annotate(
                &MODEL,
                &"e1".into(),
                &by("alice", "q", json!(true), Some("a")),
            )
            .unwrap();
        assert_eq!((first.annotator.as_str(), first.votes.len()), ("alice", 1));
        store
            .annotate(&MODEL, &"e1".into(), &by("bob", "q", json!(false), None))
            .unwrap();
        // A tie: the latest answer (bob's) is the ground truth.
        let got = &store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example;
        assert_eq!(got.annotations["q"].answer, json!(false));
        assert_eq!(got.annotations["q"].annotator, "bob");
        // Carol sides with alice: true by 2 to 1, though bob's is not the latest.
        let resolved = store
            .annotate(
                &MODEL,
                &"e1".into(),
                &by("carol", "q", json!(true), Some("c")),
            )
            .unwrap();
        assert_eq!(
            (resolved.answer.clone(), resolved.annotator.as_str()),
            (json!(true), "carol")
        );
        let names: Vec<&str> = resolved
            .votes
            .iter()
            .map(|v| v.annotator.as_str())
            .collect();
        assert_eq!(names, ["alice", "bob", "carol"], "oldest first");
        // Bob re-annotating replaces his own answer: still three votes, now unanimous.
        let resolved = store
            .annotate(
                &MODEL,
                &"e1".into(),
                &by("bob", "q", json!(true), Some("changed")),
            )
            .unwrap();
        let names: Vec<&str> = resolved
            .votes
            .iter()
            .map(|v| v.annotator.as_str())
            .collect();
        assert_eq!(names, ["alice", "carol", "bob"]);
        assert!(resolved.votes.iter().all(|v| v.answer == json!(true)));
        assert_eq!(resolved.reasoning.as_deref(), Some("changed"));
        let listed = store
            .list_examples(&MODEL, &super::super::ExampleFilter::default(), None, 10)
            .unwrap();
        assert_eq!(
            listed[0].annotations["q"], resolved,
            "list resolves as show does"
        );
    }

    #[test]
    fn votes_written_at_once_keep_their_order() {
        let store = store_with(&["e1"]);
        // One transaction, one timestamp: the order of writing breaks the tie.
        let items = vec![
            ("e1".into(), by("x", "q", json!(1), None)),
            ("e1".into(), by("y", "q", json!(2), None)),
        ];
        store.annotate_many(&MODEL, &items).unwrap();
        let got = store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example;
        assert_eq!(got.annotations["q"].answer, json!(2));
        let items = vec![
            ("e1".into(), by("y", "q", json!(2), None)),
            ("e1".into(), by("x", "q", json!(1), None)),
        ];
        store.annotate_many(&MODEL, &items).unwrap();
        let got = store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example;
        assert_eq!(got.annotations["q"].answer, json!(1));
    }

    /// A database written before annotators were recorded (schema 7) keeps its annotations,
    /// each as the one answer of the annotator `unknown`.
    #[test]
    fn migration_8_names_old_annotations_unknown() {
        let dir = tempfile::TempDir::new().unwrap();
        let path = dir.path().join("old.db");
        {
            let conn = rusqlite::Connection::open(&path).unwrap();
            for sql in &super::super::MIGRATIONS[..7] {
                conn.execute_batch(sql.sqlite).unwrap();
            }
            let model = &*MODEL;
            conn.execute_batch(&format!(
                "PRAGMA user_version = 7;
                 INSERT INTO examples VALUES ('{model}', 'e1', '{{}}', '2025-01-01T00:00:00.000Z');
                 INSERT INTO annotations VALUES
                     ('{model}', 'e1', 'q', '\"yes\"', 'old', '2025-01-02T00:00:00.000Z');"
            ))
            .unwrap();
        }
        let store = Store::open(&path).unwrap();
        let got = store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example;
        let q = &got.annotations["q"];
        assert_eq!(q.answer, json!("yes"));
        assert_eq!(q.annotator, UNKNOWN_ANNOTATOR);
        assert_eq!(q.reasoning.as_deref(), Some("old"));
        assert_eq!(q.annotated_at.to_string(), "2025-01-02T00:00:00.000Z");
        // A new annotator adds theirs beside it; the question filter still finds it.
        store
            .annotate(&MODEL, &"e1".into(), &by("alice", "q", json!("no"), None))
            .unwrap();
        let got = store
            .get_example(&MODEL, &"e1".into())
            .unwrap()
            .unwrap()
            .example;
        assert_eq!(got.annotations["q"].votes.len(), 2);
        let filter = super::super::ExampleFilter {
            annotated: Some(true),
            question: Some("q".into()),
            ..Default::default()
        };
        assert_eq!(store.count_examples(&MODEL, &filter).unwrap(), 1);
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            annotate_missing_example_is_not_found,
            annotate_upserts,
            unannotate_deletes_only_its_annotators_answer,
            empty_and_unicode_question_ids,
            annotate_many_reports_per_item,
            each_annotator_keeps_an_answer_and_the_majority_resolves,
            votes_written_at_once_keep_their_order
        );
    }
}
