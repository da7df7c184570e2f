//! Claims on examples being annotated (`arbiter annotate`): while one annotator has an
//! example on screen, the flows of the others pass it by. A claim names its annotator and
//! expires on its own (an annotator who walked away, a killed process), so a claim left
//! behind holds an example for minutes, not for ever. Times are the store's RFC 3339 UTC
//! text, which compares in time order, as the leases' (`leases.rs`).

use crate::ids::ExampleId;
use crate::wire::time::Recorded;

use super::sql::{SqlContext, params};
use super::{Store, StoreError, expiry};
use crate::ids::ModelId;

impl Store {
    /// Claim `example_id` of `model_id` for `annotator` until `ttl` from now: when it is
    /// theirs now (it was free, theirs already, or another's claim had expired), when the
    /// claim expires; `None` when another annotator holds it. Expired claims are swept on
    /// the way.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn claim_example(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
        annotator: &str,
        ttl: std::time::Duration,
    ) -> Result<Option<Recorded>, StoreError> {
        let (model_id, until) = (model_id.to_string(), expiry(ttl));
        self.write("claim example", |tx| {
            tx.execute(
                "DELETE FROM annotation_claims WHERE expires_at < ?1",
                params![super::now()],
            )
            .ctx("sweep expired claims")?;
            let holder: Option<String> = tx
                .query_opt(
                    "SELECT annotator FROM annotation_claims
                     WHERE model_id = ?1 AND example_id = ?2",
                    params![model_id, example_id],
                    |r| r.get(0),
                )
                .ctx("read claim")?;
            if holder.as_deref().is_some_and(|holder| holder != annotator) {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO annotation_claims (model_id, example_id, annotator, expires_at)
                 VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (model_id, example_id)
                 DO UPDATE SET annotator = excluded.annotator, expires_at = excluded.expires_at",
                params![model_id, example_id, annotator, until],
            )
            .ctx("claim example")?;
            Ok(Some(until))
        })
    }

    /// Extend `annotator`'s live claim on `example_id` until `ttl` from now (they answered
    /// one of its questions: still at work on it); whether they held one.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn renew_claim(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
        annotator: &str,
        ttl: std::time::Duration,
    ) -> Result<bool, StoreError> {
        let (model_id, until) = (model_id.to_string(), expiry(ttl));
        self.write("renew claim", |tx| {
            let renewed = tx
                .execute(
                    "UPDATE annotation_claims SET expires_at = ?4
                     WHERE model_id = ?1 AND example_id = ?2 AND annotator = ?3
                     AND expires_at >= ?5",
                    params![model_id, example_id, annotator, until, super::now()],
                )
                .ctx("renew claim")?;
            Ok(renewed > 0)
        })
    }

    /// Give up `annotator`'s claim on `example_id` (answered, skipped, or the flow left);
    /// whether there was one. Another's claim is left alone.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn release_claim(
        &self,
        model_id: &ModelId,
        example_id: &ExampleId,
        annotator: &str,
    ) -> Result<bool, StoreError> {
        let model_id = model_id.to_string();
        self.write("release claim", |tx| {
            let gone = tx
                .execute(
                    "DELETE FROM annotation_claims
                     WHERE model_id = ?1 AND example_id = ?2 AND annotator = ?3",
                    params![model_id, example_id, annotator],
                )
                .ctx("release claim")?;
            Ok(gone > 0)
        })
    }

    /// The examples of `model_id` that annotators other than `annotator` hold now, in
    /// example ID order.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn claimed_by_others(
        &self,
        model_id: &ModelId,
        annotator: &str,
    ) -> Result<Vec<String>, StoreError> {
        let mut conn = self.conn()?;
        conn.db()
            .query_map(
                "SELECT example_id FROM annotation_claims
                 WHERE model_id = ?1 AND annotator <> ?2 AND expires_at >= ?3
                 ORDER BY example_id",
                params![model_id.to_string(), annotator, super::now()],
                |r| r.get(0),
            )
            .ctx("read claims")
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::super::test_support::{MODEL, on_postgres, store};

    #[test]
    fn a_claim_is_its_annotators_until_released_or_expired() {
        let store = store();
        let minute = Duration::from_mins(1);
        let claim =
            |id: &str, who: &str, ttl| store.claim_example(&MODEL, &id.into(), who, ttl).unwrap();
        assert!(claim("e1", "ann", minute).is_some());
        // Again by the same annotator: renewed; by another: refused.
        assert!(claim("e1", "ann", minute).is_some());
        assert!(claim("e1", "bob", minute).is_none());
        assert!(claim("e2", "bob", minute).is_some());
        assert_eq!(store.claimed_by_others(&MODEL, "bob").unwrap(), ["e1"]);
        assert_eq!(store.claimed_by_others(&MODEL, "ann").unwrap(), ["e2"]);
        assert_eq!(store.claimed_by_others(&MODEL, "cy").unwrap(), ["e1", "e2"]);
        // Only its live holder renews a claim.
        assert!(
            store
                .renew_claim(&MODEL, &"e1".into(), "ann", minute)
                .unwrap()
        );
        assert!(
            !store
                .renew_claim(&MODEL, &"e1".into(), "bob", minute)
                .unwrap()
        );
        assert!(
            !store
                .renew_claim(&MODEL, &"e9".into(), "ann", minute)
                .unwrap()
        );
        // Only its holder releases a claim.
        assert!(!store.release_claim(&MODEL, &"e1".into(), "bob").unwrap());
        assert!(store.release_claim(&MODEL, &"e1".into(), "ann").unwrap());
        assert!(claim("e1", "bob", minute).is_some());
        // An expired claim holds nothing.
        assert!(claim("e3", "ann", Duration::from_millis(1)).is_some());
        std::thread::sleep(Duration::from_millis(20));
        let held = store.claimed_by_others(&MODEL, "bob").unwrap();
        assert!(!held.contains(&"e3".to_owned()), "{held:?}");
        assert!(claim("e3", "bob", minute).is_some());
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(a_claim_is_its_annotators_until_released_or_expired);
    }
}
