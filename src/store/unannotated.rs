//! Examples still waiting for ground truth: the candidates `examples next` ranks, newest
//! first, and how many there are in all.

use crate::ids::ExampleId;
use serde_json::Value;
use std::fmt::Write as _;

use super::error::parse_json;
use super::sql::{Dialect, Param, SqlContext, params};
use super::{Store, StoreError};
use crate::ids::ModelId;

/// An example not yet annotated for some of the questions asked about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    pub example_id: ExampleId,
    pub created_at: crate::wire::time::Recorded,
    /// The questions asked about that it is annotated for already (the others are not).
    pub annotated: Vec<String>,
}

/// The asked questions (a JSON array bound as `?2`) an example `e` is annotated for.
fn annotated(dialect: Dialect) -> String {
    format!(
        "FROM annotations a WHERE a.model_id = e.model_id \
         AND a.example_id = e.example_id AND a.question_id IN (SELECT value FROM {})",
        dialect.json_texts("?2")
    )
}

/// Which examples may be candidates: all of them, or `only` some; less those `except`
/// names (a held-out set). An ID of either list that names no example is ignored here.
#[derive(Debug, Clone, Copy, Default)]
pub struct Chosen<'a> {
    pub only: Option<&'a [String]>,
    pub except: &'a [String],
}

/// `ids` as the JSON array text a query binds.
fn json_ids(ids: &[String]) -> Result<String, StoreError> {
    serde_json::to_string(ids).map_err(|e| StoreError::Corrupt {
        what: "example IDs".into(),
        reason: e.to_string(),
    })
}

impl Store {
    /// Up to `limit` of the `chosen` examples of `model_id` that lack an annotation for at
    /// least one of `questions`, most recently created first (ties: the greater example ID
    /// first), and how many such examples there are in all, read from one snapshot.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] if a stored
    /// question list does not parse.
    pub fn unannotated(
        &self,
        model_id: &ModelId,
        questions: &[String],
        chosen: Chosen<'_>,
        limit: usize,
    ) -> Result<(Vec<Candidate>, u64), StoreError> {
        let mut distinct: Vec<&String> = questions.iter().collect();
        distinct.sort();
        distinct.dedup();
        let asked = serde_json::to_string(&distinct).map_err(|e| StoreError::Corrupt {
            what: "question IDs".into(),
            reason: e.to_string(),
        })?;
        let only = chosen.only.map(json_ids).transpose()?;
        let except = (!chosen.except.is_empty())
            .then(|| json_ids(chosen.except))
            .transpose()?;
        let model_id = model_id.to_string();
        let count_of = i64::try_from(distinct.len()).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        self.read("list unannotated examples", |tx| {
            let dialect = tx.dialect();
            let annotated = annotated(dialect);
            let mut wanting = format!("e.model_id = ?1 AND (SELECT count(*) {annotated}) < ?3");
            let mut args: Vec<&dyn Param> = vec![&model_id, &asked, &count_of];
            for (ids, within) in [(&only, "IN"), (&except, "NOT IN")] {
                if let Some(ids) = ids {
                    args.push(ids);
                    let texts = dialect.json_texts(&format!("?{}", args.len()));
                    let _ = write!(
                        wanting,
                        " AND e.example_id {within} (SELECT value FROM {texts})"
                    );
                }
            }
            let counted = args.clone();
            args.push(&limit);
            let rows = tx
                .query_map(
                    &format!(
                        "SELECT e.example_id, e.created_at, \
                         (SELECT {} {annotated}) \
                         FROM examples e WHERE {wanting} \
                         ORDER BY e.created_at DESC, e.example_id DESC LIMIT ?{}",
                        dialect.json_array_agg("a.question_id"),
                        args.len()
                    ),
                    &args,
                    |r| Ok((r.get::<String>(0)?, r.get(1)?, r.get::<String>(2)?)),
                )
                .ctx("unannotated examples")?;
            let candidates = rows
                .into_iter()
                .map(|(example_id, created_at, annotated)| {
                    let annotated =
                        serde_json::from_str(&annotated).map_err(|e| StoreError::Corrupt {
                            what: format!("annotations of example {example_id:?}"),
                            reason: e.to_string(),
                        })?;
                    Ok(Candidate {
                        example_id: example_id.into(),
                        created_at,
                        annotated,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            let total: i64 = tx
                .query_row(
                    &format!("SELECT count(*) FROM examples e WHERE {wanting}"),
                    &counted,
                    |r| r.get(0),
                )
                .ctx("count unannotated")?;
            Ok((candidates, u64::try_from(total).unwrap_or_default()))
        })
    }

    /// Those of `ids` that name no example of `model_id`, in their order (once each).
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn missing_examples(
        &self,
        model_id: &ModelId,
        ids: &[String],
    ) -> Result<Vec<String>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let listed = json_ids(ids)?;
        let model_id = model_id.to_string();
        let known: std::collections::HashSet<String> = self
            .read("find examples by ID", |tx| {
                let texts = tx.dialect().json_texts("?2");
                tx.query_map(
                    &format!(
                        "SELECT e.example_id FROM examples e WHERE e.model_id = ?1 \
                         AND e.example_id IN (SELECT value FROM {texts})"
                    ),
                    params![model_id, listed],
                    |r| r.get::<String>(0),
                )
                .ctx("find examples by ID")
            })?
            .into_iter()
            .collect();
        let mut missing: Vec<String> = Vec::new();
        for id in ids {
            if !known.contains(id) && !missing.contains(id) {
                missing.push(id.clone());
            }
        }
        Ok(missing)
    }

    /// The state of one example, without its annotations and decisions.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] if the stored
    /// state does not parse.
    pub fn example_state(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
    ) -> Result<Option<Value>, StoreError> {
        let mut conn = self.conn()?;
        let state: Option<String> = conn
            .db()
            .query_opt(
                "SELECT state FROM examples WHERE model_id = ?1 AND example_id = ?2",
                params![model_id.to_string(), example_id],
                |r| r.get(0),
            )
            .ctx("read example state")?;
        state
            .map(|state| parse_json(&state, || format!("state of example {example_id:?}")))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use serde_json::json;

    use super::super::test_support::MODEL;
    use super::super::{IngestItem, NewAnnotation};
    use super::*;

    fn item(id: &str, annotated: &[&str]) -> IngestItem {
        IngestItem {
            example_id: id.into(),
            state: json!({ "id": id }),
            annotations: annotated
                .iter()
                .map(|q| NewAnnotation {
                    question_id: (*q).into(),
                    answer: json!(true),
                    reasoning: None,
                    annotator: "alice".into(),
                })
                .collect(),
        }
    }

    /// Each item its own ingest, so each gets a later `created_at` than the one before.
    fn ingest_in_turn(store: &Store, items: Vec<IngestItem>) {
        for item in items {
            std::thread::sleep(std::time::Duration::from_millis(2));
            let mut one = std::iter::once(Ok(item));
            store.ingest(&MODEL, &mut one, false, &mut |_| {}).unwrap();
        }
    }

    fn ids(candidates: &[Candidate]) -> Vec<&str> {
        candidates.iter().map(|c| c.example_id.as_str()).collect()
    }

    #[test]
    fn newest_first_wanting_any_asked_question_with_what_they_have() {
        let store = store();
        ingest_in_turn(
            &store,
            vec![
                item("old", &[]),
                item("both", &["q1", "q2"]),
                item("half", &["q1", "other"]),
                item("new", &["other"]),
                item("", &[]),
            ],
        );
        let asked = ["q1".to_owned(), "q2".to_owned(), "q1".to_owned()];
        let (all, total) = store
            .unannotated(&MODEL, &asked, Chosen::default(), 10)
            .unwrap();
        assert_eq!(ids(&all), ["", "new", "half", "old"]);
        assert_eq!(total, 4);
        assert_eq!(all[2].annotated, ["q1"]);
        assert!(all[1].annotated.is_empty(), "{:?}", all[1]);
        // The pool is the newest; the count is of all.
        let (newest, total) = store
            .unannotated(&MODEL, &asked, Chosen::default(), 2)
            .unwrap();
        assert_eq!(ids(&newest), ["", "new"]);
        assert_eq!(total, 4);
        // One question: only its annotations count.
        let (for_q2, total) = store
            .unannotated(&MODEL, &["q2".to_owned()], Chosen::default(), 10)
            .unwrap();
        assert_eq!(ids(&for_q2), ["", "new", "half", "old"]);
        assert_eq!(total, 4);
        let (for_other, _) = store
            .unannotated(&MODEL, &["other".to_owned()], Chosen::default(), 10)
            .unwrap();
        assert_eq!(ids(&for_other), ["", "both", "old"]);
    }

    #[test]
    fn only_the_chosen_less_the_held_out_and_the_ids_that_name_none() {
        let store = store();
        ingest_in_turn(
            &store,
            vec![
                item("a", &[]),
                item("b", &[]),
                item("c", &["q1"]),
                item("d", &[]),
            ],
        );
        let asked = ["q1".to_owned()];
        let owned = |list: &[&str]| list.iter().map(|id| (*id).to_owned()).collect::<Vec<_>>();
        let only = owned(&["a", "c", "d", "zz"]);
        let chosen = Chosen {
            only: Some(&only),
            except: &[],
        };
        let (found, total) = store.unannotated(&MODEL, &asked, chosen, 10).unwrap();
        assert_eq!((ids(&found), total), (vec!["d", "a"], 2));
        let held_out = owned(&["d", "b"]);
        let chosen = Chosen {
            only: None,
            except: &held_out,
        };
        let (found, total) = store.unannotated(&MODEL, &asked, chosen, 10).unwrap();
        assert_eq!((ids(&found), total), (vec!["a"], 1));
        let both = Chosen {
            only: Some(&only),
            except: &held_out,
        };
        let (found, total) = store.unannotated(&MODEL, &asked, both, 1).unwrap();
        assert_eq!((ids(&found), total), (vec!["a"], 1));
        let none = Chosen {
            only: Some(&[]),
            except: &[],
        };
        assert_eq!(store.unannotated(&MODEL, &asked, none, 10).unwrap().1, 0);
        assert_eq!(
            store
                .missing_examples(&MODEL, &owned(&["zz", "a", "yy", "zz", "c"]))
                .unwrap(),
            ["zz", "yy"]
        );
        assert!(store.missing_examples(&MODEL, &[]).unwrap().is_empty());
    }

    #[test]
    fn a_state_is_read_alone() {
        let store = store();
        ingest_in_turn(&store, vec![item("a", &["q1"])]);
        assert_eq!(
            store.example_state(&MODEL, &"a".into()).unwrap(),
            Some(json!({ "id": "a" }))
        );
        assert_eq!(store.example_state(&MODEL, &"b".into()).unwrap(), None);
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            newest_first_wanting_any_asked_question_with_what_they_have,
            only_the_chosen_less_the_held_out_and_the_ids_that_name_none,
            a_state_is_read_alone
        );
    }
}
