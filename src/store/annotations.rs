//! Ground-truth annotations: single and bulk upserts, and loading them for a
//! page of examples in one query.

use crate::ids::ModelId;
use rusqlite::{Connection, params};
use serde_json::Value;

use super::error::{SqlContext, parse_json};
use super::{Annotation, Example, NewAnnotation, Store, StoreError, examples, now};

impl Store {
    /// Sets (inserts or replaces) the annotation of one question.
    ///
    /// # Errors
    /// [`StoreError::ExampleNotFound`] if the example does not exist;
    /// [`StoreError::Sqlite`] on database failure.
    pub fn annotate(
        &self,
        model_id: &ModelId,
        example_id: &str,
        annotation: &NewAnnotation,
    ) -> Result<Annotation, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.write("annotate", |tx| {
            let annotated_at = now();
            annotate_one(tx, model_id, example_id, annotation, &annotated_at)??;
            Ok(Annotation {
                answer: annotation.answer.clone(),
                reasoning: annotation.reasoning.clone(),
                annotated_at,
            })
        })
    }

    /// Upserts many annotations in one transaction. Each item gets its own
    /// result (`ExampleNotFound` for unknown examples); the others are applied.
    ///
    /// # Errors
    /// [`StoreError::Sqlite`] if the transaction fails; nothing is applied then.
    pub fn annotate_many(
        &self,
        model_id: &ModelId,
        items: &[(String, NewAnnotation)],
    ) -> Result<Vec<Result<(), StoreError>>, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        self.write("annotate many", |tx| {
            let annotated_at = now();
            items
                .iter()
                .map(|(example_id, a)| annotate_one(tx, model_id, example_id, a, &annotated_at))
                .collect()
        })
    }
}

/// Outer error: the transaction must abort; inner error: only this item failed.
fn annotate_one(
    conn: &Connection,
    model_id: &str,
    example_id: &str,
    annotation: &NewAnnotation,
    annotated_at: &str,
) -> Result<Result<(), StoreError>, StoreError> {
    // Checked explicitly (rather than via the foreign key) to return a typed error.
    if !examples::exists(conn, model_id, example_id)? {
        return Ok(Err(StoreError::ExampleNotFound(example_id.to_owned())));
    }
    upsert(conn, model_id, example_id, annotation, annotated_at)?;
    Ok(Ok(()))
}

/// Inserts or replaces one annotation; the example must exist.
pub(super) fn upsert(
    conn: &Connection,
    model_id: &str,
    example_id: &str,
    a: &NewAnnotation,
    annotated_at: &str,
) -> Result<(), StoreError> {
    conn.prepare_cached(
        "INSERT INTO annotations (model_id, example_id, question_id, answer, reasoning, annotated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT (model_id, example_id, question_id) DO UPDATE SET
             answer = excluded.answer,
             reasoning = excluded.reasoning,
             annotated_at = excluded.annotated_at",
    )
    .ctx("prepare upsert annotation")?
    .execute(params![model_id, example_id, a.question_id, a.answer.to_string(), a.reasoning, annotated_at])
    .ctx("upsert annotation")?;
    Ok(())
}

/// Fills `annotations` of every example in `page`, which must be sorted by
/// `example_id` (SQLite's BINARY order equals Rust's `str` order). One query
/// for the whole page: the ids go in as a JSON array expanded by `json_each`,
/// so each is an index lookup on the primary key.
pub(super) fn fill(
    conn: &Connection,
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
    let mut stmt = conn
        .prepare_cached(
            "SELECT example_id, question_id, answer, reasoning, annotated_at FROM annotations
             WHERE model_id = ?1 AND example_id IN (SELECT value FROM json_each(?2))",
        )
        .ctx("prepare load annotations")?;
    let rows = stmt
        .query_map(params![model_id, ids], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
            ))
        })
        .ctx("load annotations")?;
    for row in rows {
        let (example_id, question_id, answer, reasoning, annotated_at) =
            row.ctx("read annotation")?;
        let answer = parse_json(&answer, || {
            format!("answer of example {example_id:?} question {question_id:?}")
        })?;
        if let Ok(i) = page.binary_search_by(|e| e.example_id.as_str().cmp(&example_id)) {
            page[i].annotations.insert(
                question_id,
                Annotation {
                    answer,
                    reasoning,
                    annotated_at,
                },
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::test_support::{MODEL, decision};
    use super::*;

    fn ann(question_id: &str, answer: Value, reasoning: Option<&str>) -> NewAnnotation {
        NewAnnotation {
            question_id: question_id.into(),
            answer,
            reasoning: reasoning.map(Into::into),
        }
    }

    fn store_with(ids: &[&str]) -> Store {
        let store = Store::open_in_memory().unwrap();
        let state = json!({});
        for id in ids {
            store
                .record_decision(&decision(id, &state, &state))
                .unwrap();
        }
        store
    }

    #[test]
    fn annotate_missing_example_is_not_found() {
        let store = store_with(&[]);
        let err = store
            .annotate(&MODEL, "ghost", &ann("q", json!(1), None))
            .unwrap_err();
        assert_eq!(err, StoreError::ExampleNotFound("ghost".into()));
        // Another model's example does not count either.
        let other = store_with(&["e1"]);
        assert!(
            other
                .annotate(
                    &crate::ids::ModelId::from(uuid::Uuid::nil()),
                    "e1",
                    &ann("q", json!(1), None)
                )
                .is_err()
        );
    }

    #[test]
    fn annotate_upserts() {
        let store = store_with(&["e1"]);
        let first = store
            .annotate(&MODEL, "e1", &ann("q", json!("yes"), Some("because")))
            .unwrap();
        assert_eq!(first.reasoning.as_deref(), Some("because"));
        let second = store
            .annotate(&MODEL, "e1", &ann("q", json!("no"), None))
            .unwrap();
        let got = store
            .get_example(&MODEL, "e1")
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
    fn empty_and_unicode_question_ids() {
        let store = store_with(&["é✓"]);
        for q in ["", "вопрос", "問題 🙂", "q\"'; DROP TABLE x"] {
            store
                .annotate(&MODEL, "é✓", &ann(q, json!({ "q": q }), None))
                .unwrap();
        }
        let got = store
            .get_example(&MODEL, "é✓")
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
        };
        assert_eq!(store.count_examples(&MODEL, &only_empty).unwrap(), 1);
    }

    #[test]
    fn annotate_many_reports_per_item() {
        let store = store_with(&["a", "b"]);
        let items = vec![
            ("a".to_owned(), ann("q1", json!(1), None)),
            ("missing".to_owned(), ann("q1", json!(2), None)),
            ("b".to_owned(), ann("q1", json!(3), Some("r"))),
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
        let b = store.get_example(&MODEL, "b").unwrap().unwrap();
        assert_eq!(b.example.annotations["q1"].answer, json!(3));
        assert!(store.get_example(&MODEL, "missing").unwrap().is_none());
    }
}
