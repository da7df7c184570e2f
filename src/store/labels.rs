//! A model repository's labels file taken into the store: its examples and annotations
//! added where they are not there yet, and nothing changed that is, so that taking the same
//! file again adds nothing (what `models import` and `models pull` do with
//! `examples/annotated.jsonl`).

use crate::ids::ModelId;

use super::annotations::{self, Exists};
use super::{IngestCounts, IngestItem, Store, StoreError, example_rows, now, write_tx};

impl Store {
    /// Adds `items` in one transaction: each example that is not there (one that is keeps
    /// its state and counts as `existing`), and each annotation of an annotator who has
    /// not answered that question of that example (one who has keeps their answer).
    /// `annotations` counts the annotations added. The annotations of one example keep
    /// their order, as an ingest's do, so a tie among annotators resolves as it did where
    /// the file was written.
    ///
    /// # Errors
    /// The first error SQLite or PostgreSQL raises; then nothing is written.
    pub fn ingest_new(
        &self,
        model_id: &ModelId,
        items: &[IngestItem],
    ) -> Result<IngestCounts, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        let mut conn = self.conn()?;
        let at = now();
        write_tx(&mut conn, "ingest labels", |tx| {
            let mut counts = IngestCounts::default();
            for item in items {
                if example_rows::insert_if_absent(tx, model_id, &item.example_id, &item.state, at)?
                {
                    counts.created += 1;
                } else {
                    counts.existing += 1;
                }
                for a in &item.annotations {
                    if annotations::insert(tx, model_id, &item.example_id, a, at, Exists::Keep)? {
                        counts.annotations += 1;
                    }
                }
            }
            Ok(counts)
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::super::test_support::{MODEL, store};
    use super::*;
    use crate::store::{ExampleFilter, NewAnnotation};

    fn vote(annotator: &str, answer: serde_json::Value) -> NewAnnotation {
        NewAnnotation {
            question_id: "q".into(),
            answer,
            reasoning: None,
            annotator: annotator.into(),
        }
    }

    fn item(id: &str, state: serde_json::Value, annotations: Vec<NewAnnotation>) -> IngestItem {
        IngestItem {
            example_id: id.into(),
            state,
            annotations,
        }
    }

    #[test]
    fn only_what_is_not_there_is_added_and_again_nothing() {
        let store = store();
        store
            .ingest_new(
                &MODEL,
                &[item("a", json!("first"), vec![vote("ann", json!(1))])],
            )
            .unwrap();
        let file = [
            item(
                "a",
                json!("other state"),
                vec![vote("ann", json!(2)), vote("bob", json!(2))],
            ),
            item(
                "b",
                json!("b"),
                vec![vote("bob", json!(0)), vote("cat", json!(1))],
            ),
        ];
        let counts = store.ingest_new(&MODEL, &file).unwrap();
        assert_eq!(
            (counts.created, counts.existing, counts.annotations),
            (1, 1, 3)
        );
        let again = store.ingest_new(&MODEL, &file).unwrap();
        assert_eq!(
            (again.created, again.existing, again.annotations),
            (0, 2, 0)
        );
        let examples = store
            .list_examples(&MODEL, &ExampleFilter::default(), None, 10)
            .unwrap();
        // `a` keeps its state and ann's answer; bob's is added beside it.
        assert_eq!(examples[0].state, json!("first"));
        let votes: Vec<(&str, &serde_json::Value)> = examples[0].annotations["q"]
            .votes
            .iter()
            .map(|v| (v.annotator.as_str(), &v.answer))
            .collect();
        assert_eq!(votes, [("ann", &json!(1)), ("bob", &json!(2))]);
        // Written at once, `b`'s votes keep the file's order: the tie goes to the later.
        let b = &examples[1].annotations["q"];
        assert_eq!(
            (b.votes[0].annotator.as_str(), &b.answer),
            ("bob", &json!(1))
        );
    }
}
