//! Captured decisions: recording one (creating its example on first sight) and
//! listing them per example.

use crate::ids::ExampleId;
use crate::ids::ModelId;
use uuid::Uuid;

use super::error::parse_json;
use super::sql::{Db, SqlContext, params};
use super::{
    Decision, NewDecision, RecordedDecision, Store, StoreError, example_rows, now, write_tx,
};

impl Store {
    /// Records a decision in one immediate transaction, first inserting its
    /// example if absent (an existing example keeps its original state).
    ///
    /// The commit is fsynced (`synchronous=FULL` for this transaction only):
    /// decisions cost model tokens to reproduce, so they must survive a power
    /// loss once this returns, while bulk ingest keeps the cheaper `NORMAL`.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the write fails (e.g. token counts above `i64::MAX`).
    pub fn record_decision(&self, d: &NewDecision<'_>) -> Result<RecordedDecision, StoreError> {
        let mut conn = self.conn()?;
        conn.fsync_commits(true)
            .ctx("raise synchronous for decision")?;
        let recorded = write_tx(&mut conn, "record decision", |tx| insert(tx, d));
        // Ignored on purpose: the decision is already committed (or failed on its
        // own); a connection left at FULL is merely slower, not wrong.
        let _ = conn.fsync_commits(false);
        recorded
    }

    /// Decisions taken on one example, oldest first.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] if a
    /// stored JSON column does not parse.
    pub fn list_decisions(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
    ) -> Result<Vec<Decision>, StoreError> {
        let model_id = model_id.to_string();
        let model_id = model_id.as_str();
        load(&mut self.conn()?.db(), model_id, example_id)
    }
}

fn insert(conn: &mut Db<'_>, d: &NewDecision<'_>) -> Result<RecordedDecision, StoreError> {
    let created_at = now();
    let model_id = d.model_id.to_string();
    let example_created =
        example_rows::insert_if_absent(conn, &model_id, d.example_id, d.state, created_at)?;
    let decision_id = d
        .decision_id
        .map_or_else(|| format!("dec_{}", Uuid::new_v4().simple()), str::to_owned);
    let inserted = conn
        .execute(
            "INSERT INTO decisions (decision_id, model_id, example_id, checkpoint, revision_name,
             revision_kind, questions, answers, input_tokens, output_tokens, request_id, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
         ON CONFLICT (decision_id) DO NOTHING",
            params![
                decision_id,
                model_id,
                d.example_id,
                d.checkpoint,
                d.revision_name,
                d.revision_kind,
                d.questions.to_string(),
                d.answers.to_string(),
                token_count(d.input_tokens)?,
                token_count(d.output_tokens)?,
                d.request_id,
                created_at,
            ],
        )
        .ctx("insert decision")?;
    if inserted == 0 {
        // Recorded before, by the run of the job that died before writing its result line:
        // it stands as it was recorded then.
        let created_at = conn
            .query_row(
                "SELECT created_at FROM decisions WHERE decision_id = ?1",
                params![&decision_id],
                |r| r.get(0),
            )
            .ctx("find decision")?;
        return Ok(RecordedDecision {
            example_created: false,
            decision_id,
            created_at,
        });
    }
    Ok(RecordedDecision {
        example_created,
        decision_id,
        created_at,
    })
}

/// SQLite integers are signed; refuse counts that would not round-trip.
fn token_count(n: u64) -> Result<i64, StoreError> {
    i64::try_from(n).map_err(|_| StoreError::Database {
        context: "record decision".into(),
        message: format!("token count {n} exceeds the storable maximum {}", i64::MAX),
    })
}

/// Decisions of one example, oldest first (rowid breaks ties within a millisecond).
pub(super) fn load(
    conn: &mut Db<'_>,
    model_id: &str,
    example_id: &ExampleId,
) -> Result<Vec<Decision>, StoreError> {
    // JSON is parsed outside the row closure so that parse errors stay `Corrupt`.
    let rows = conn
        .query_map(
            "SELECT decision_id, example_id, checkpoint, revision_name, revision_kind,
                    input_tokens, output_tokens, request_id, created_at, questions, answers
             FROM decisions WHERE model_id = ?1 AND example_id = ?2
             ORDER BY created_at, rowid",
            params![model_id, example_id],
            |r| {
                let decision = Decision {
                    decision_id: r.get(0)?,
                    example_id: r.get(1)?,
                    checkpoint: r.get(2)?,
                    revision_name: r.get(3)?,
                    revision_kind: r.get(4)?,
                    questions: serde_json::Value::Null,
                    answers: serde_json::Value::Null,
                    input_tokens: 0,
                    output_tokens: 0,
                    request_id: r.get(7)?,
                    created_at: r.get(8)?,
                };
                let tokens: (i64, i64) = (r.get(5)?, r.get(6)?);
                Ok((decision, tokens, r.get::<String>(9)?, r.get::<String>(10)?))
            },
        )
        .ctx("list decisions")?;
    rows.into_iter()
        .map(|(mut d, (input, output), questions, answers)| {
            let bad_tokens = |e: std::num::TryFromIntError| StoreError::Corrupt {
                what: format!("token counts of decision {}", d.decision_id),
                reason: e.to_string(),
            };
            d.input_tokens = u64::try_from(input).map_err(bad_tokens)?;
            d.output_tokens = u64::try_from(output).map_err(bad_tokens)?;
            d.questions = parse_json(&questions, || {
                format!("questions of decision {}", d.decision_id)
            })?;
            d.answers = parse_json(&answers, || {
                format!("answers of decision {}", d.decision_id)
            })?;
            Ok(d)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use serde_json::json;

    use super::super::test_support::{MODEL, decision};
    use super::*;

    /// A job's item recorded again (its run died after the capture, before its result
    /// line) stays one decision, as first recorded.
    #[test]
    fn a_fixed_decision_id_is_recorded_once() {
        let store = store();
        let state = json!({ "v": 1 });
        let first_answers = json!({ "q1": true });
        let example_id = crate::ids::ExampleId::from("e1");
        let mut d = decision(&example_id, &state, &first_answers);
        d.decision_id = Some("dec_job_item_0");
        let first = store.record_decision(&d).unwrap();
        let answers = json!({ "q1": false });
        d.answers = &answers;
        let again = store.record_decision(&d).unwrap();
        assert_eq!(first.decision_id, "dec_job_item_0");
        assert_eq!(again.decision_id, first.decision_id);
        assert_eq!(again.created_at, first.created_at);
        assert!(first.example_created && !again.example_created);
        let decisions = store.list_decisions(&MODEL, &"e1".into()).unwrap();
        assert_eq!(decisions.len(), 1);
        assert_eq!(
            decisions[0].answers,
            json!({ "q1": true }),
            "as first recorded"
        );
    }

    #[test]
    fn record_creates_then_reuses_example_and_keeps_first_state() {
        let store = store();
        let first = json!({ "v": 1 });
        let second = json!({ "v": 2 });
        let a = store
            .record_decision(&decision(&"e1".into(), &first, &json!({ "q1": true })))
            .unwrap();
        let b = store
            .record_decision(&decision(&"e1".into(), &second, &json!({ "q1": false })))
            .unwrap();
        assert!(a.example_created);
        assert!(!b.example_created);
        assert_ne!(a.decision_id, b.decision_id);
        assert!(a.decision_id.starts_with("dec_") && a.decision_id.len() == 4 + 32);
        assert_eq!(
            a.created_at.to_string().len(),
            "2024-01-01T00:00:00.000Z".len()
        );

        let detail = store.get_example(&MODEL, &"e1".into()).unwrap().unwrap();
        assert_eq!(detail.example.state, first);
        let ids: Vec<_> = detail
            .decisions
            .iter()
            .map(|d| d.decision_id.as_str())
            .collect();
        assert_eq!(
            ids,
            [a.decision_id.as_str(), b.decision_id.as_str()],
            "oldest first"
        );
        assert_eq!(detail.decisions[1].answers, json!({ "q1": false }));
        assert_eq!(detail.decisions[0].input_tokens, 120);
        assert_eq!(
            store.list_decisions(&MODEL, &"e1".into()).unwrap(),
            detail.decisions
        );
        assert!(
            store
                .list_decisions(&MODEL, &"nope".into())
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn decisions_are_scoped_by_model() {
        let store = store();
        let state = json!(null);
        let example_id = crate::ids::ExampleId::from("e1");
        let mut d = decision(&example_id, &state, &state);
        store.record_decision(&d).unwrap();
        let other = crate::ids::ModelId::from(uuid::Uuid::nil());
        d.model_id = &other;
        assert!(store.record_decision(&d).unwrap().example_created);
        assert_eq!(store.list_decisions(&MODEL, &"e1".into()).unwrap().len(), 1);
    }

    #[test]
    fn oversized_token_count_is_an_error_not_a_panic() {
        let store = store();
        let state = json!({});
        let example_id = crate::ids::ExampleId::from("e1");
        let mut d = decision(&example_id, &state, &state);
        d.input_tokens = u64::MAX;
        assert!(matches!(
            store.record_decision(&d),
            Err(StoreError::Database { .. })
        ));
        assert!(
            store.get_example(&MODEL, &"e1".into()).unwrap().is_none(),
            "rolled back"
        );
    }

    #[test]
    fn serialises_camel_case() {
        let store = store();
        let state = json!({ "s": 1 });
        store
            .record_decision(&decision(&"e1".into(), &state, &json!({})))
            .unwrap();
        let detail = store.get_example(&MODEL, &"e1".into()).unwrap().unwrap();
        let v = serde_json::to_value(&detail).unwrap();
        assert_eq!(v["exampleId"], "e1");
        assert_eq!(v["state"], state);
        assert!(v["createdAt"].is_string());
        assert_eq!(v["annotations"], json!({}));
        let d = &v["decisions"][0];
        for key in [
            "decisionId",
            "revisionName",
            "revisionKind",
            "inputTokens",
            "outputTokens",
            "requestId",
        ] {
            assert!(d.get(key).is_some(), "missing {key}");
        }
        let back: super::super::ExampleDetail = serde_json::from_value(v).unwrap();
        assert_eq!(back, detail);
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            a_fixed_decision_id_is_recorded_once,
            record_creates_then_reuses_example_and_keeps_first_state,
            decisions_are_scoped_by_model,
            oversized_token_count_is_an_error_not_a_panic,
            serialises_camel_case
        );
    }
}
