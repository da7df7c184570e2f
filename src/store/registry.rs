//! The registry's record: every promotion and tag move made through arbiter, newest first.

use super::sql::{SqlContext, params};
use super::{Store, StoreError, now};
use crate::ids::ModelId;
use crate::wire::registry::{EvaluationSummary, RegistryAction, RegistryEvent};

/// A registry event to record; the store stamps its time.
#[derive(Debug, Clone)]
pub struct NewRegistryEvent<'a> {
    pub action: RegistryAction,
    pub ref_name: &'a str,
    pub from: Option<&'a str>,
    pub to: &'a str,
    pub actor: &'a str,
    pub evaluation: Option<&'a EvaluationSummary>,
}

impl Store {
    /// Append `event` to `model_id`'s history; the event as recorded.
    pub fn record_registry_event(
        &self,
        model_id: &ModelId,
        event: &NewRegistryEvent<'_>,
    ) -> Result<RegistryEvent, StoreError> {
        let at = now();
        let evaluation = event
            .evaluation
            .map(serde_json::to_string)
            .transpose()
            .map_err(|e| StoreError::Corrupt {
                what: "an evaluation summary".into(),
                reason: e.to_string(),
            })?;
        self.write("record a registry event", |tx| {
            tx.execute(
                "INSERT INTO registry_events
                     (model_id, action, ref_name, from_commit, to_commit, actor, at, evaluation)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    model_id.to_string(),
                    event.action.to_string(),
                    event.ref_name,
                    event.from,
                    event.to,
                    event.actor,
                    at,
                    evaluation,
                ],
            )
            .ctx("insert a registry event")?;
            Ok(())
        })?;
        Ok(RegistryEvent {
            action: event.action,
            ref_name: event.ref_name.to_owned(),
            from: event.from.map(str::to_owned),
            to: event.to.to_owned(),
            actor: event.actor.to_owned(),
            at,
            evaluation: event.evaluation.cloned(),
        })
    }

    /// `model_id`'s last `limit` registry events, newest first.
    pub fn registry_events(
        &self,
        model_id: &ModelId,
        limit: usize,
    ) -> Result<Vec<RegistryEvent>, StoreError> {
        let mut conn = self.conn()?;
        let rows = conn
            .db()
            .query_map(
                "SELECT action, ref_name, from_commit, to_commit, actor, at, evaluation
                 FROM registry_events WHERE model_id = ?1 ORDER BY id DESC LIMIT ?2",
                params![
                    model_id.to_string(),
                    i64::try_from(limit).unwrap_or(i64::MAX)
                ],
                |row| {
                    Ok((
                        row.get::<String>(0)?,
                        row.get::<String>(1)?,
                        row.get::<Option<String>>(2)?,
                        row.get::<String>(3)?,
                        row.get::<String>(4)?,
                        row.get::<crate::wire::time::Recorded>(5)?,
                        row.get::<Option<String>>(6)?,
                    ))
                },
            )
            .ctx("read registry events")?;
        let mut events = Vec::new();
        for row in rows {
            let (action, ref_name, from, to, actor, at, evaluation) = row;
            let corrupt = |what: &str, reason: String| StoreError::Corrupt {
                what: format!("registry event {what}"),
                reason,
            };
            events.push(RegistryEvent {
                action: action
                    .parse()
                    .map_err(|_| corrupt("action", format!("unknown action `{action}`")))?,
                ref_name,
                from,
                to,
                actor,
                at,
                evaluation: evaluation
                    .map(|text| serde_json::from_str(&text))
                    .transpose()
                    .map_err(|e| corrupt("evaluation", e.to_string()))?,
            });
        }
        Ok(events)
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::MODEL;
    use super::super::test_support::{on_postgres, store};
    use super::*;

    #[test]
    fn events_read_back_newest_first() {
        let store = store();
        let summary = EvaluationSummary {
            job_id: crate::ids::JobId::new_v4(),
            commit: "b".repeat(40),
            baseline: None,
            questions: indexmap::IndexMap::new(),
            overall: crate::wire::registry::QuestionSummary {
                examples: 3,
                accuracy: 0.5,
                interval: Some([0.1, 0.9]),
                delta: None,
            },
        };
        let first = store
            .record_registry_event(
                &MODEL,
                &NewRegistryEvent {
                    action: RegistryAction::Tag,
                    ref_name: "v1",
                    from: None,
                    to: &"a".repeat(40),
                    actor: "alice",
                    evaluation: None,
                },
            )
            .unwrap();
        let second = store
            .record_registry_event(
                &MODEL,
                &NewRegistryEvent {
                    action: RegistryAction::Promote,
                    ref_name: "main",
                    from: Some(&"a".repeat(40)),
                    to: &"b".repeat(40),
                    actor: "ci",
                    evaluation: Some(&summary),
                },
            )
            .unwrap();
        let events = store.registry_events(&MODEL, 10).unwrap();
        assert_eq!(events, [second.clone(), first]);
        assert_eq!(store.registry_events(&MODEL, 1).unwrap(), [second]);
        let other: ModelId = "1f8fad5b-d9cb-469f-a165-70867728950e".parse().unwrap();
        assert!(store.registry_events(&other, 10).unwrap().is_empty());
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(events_read_back_newest_first);
    }
}
