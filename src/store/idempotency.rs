//! Idempotency records: one per (token, method, route, key), holding the hash of the
//! request and, once finished, the response to replay. Records expire after 24 hours.

use super::sql::{SqlContext, params};
use super::{Store, StoreError};

/// How long a record is kept.
const TTL_HOURS: i64 = 24;

/// A finished response, replayed byte for byte.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: u16,
    /// Header name/value pairs worth replaying (content type, location, ...).
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

/// The outcome of claiming a key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The key is ours: run the request, then `finish_idempotent` or `release_idempotent`.
    Claimed,
    /// The same request finished before: replay this.
    Replay(StoredResponse),
    /// The same request is still running elsewhere.
    InProgress,
    /// The key was used with a different request.
    Mismatch,
}

/// The identity of a record.
#[derive(Debug, Clone, Copy)]
pub struct Key<'a> {
    pub token_id: &'a str,
    pub method: &'a str,
    pub route: &'a str,
    pub key: &'a str,
}

impl Store {
    /// Claim `key` for a request whose canonical hash is `request_hash`, atomically, as
    /// `owner` (a process lease). A key still in progress under an owner that is not
    /// `alive` (its process died mid-request) is taken over.
    pub fn claim_idempotent(
        &self,
        key: Key<'_>,
        request_hash: &str,
        owner: &str,
        alive: &dyn Fn(&str) -> bool,
    ) -> Result<Claim, StoreError> {
        self.write("claim idempotency key", |tx| {
            let cutoff = super::now().plus(-chrono::TimeDelta::hours(TTL_HOURS));
            tx.execute("DELETE FROM idempotency WHERE created_at < ?1", params![cutoff]).ctx("expire idempotency records")?;
            let existing = tx
                .query_opt(
                    "SELECT request_hash, status, headers, body, owner FROM idempotency
                     WHERE token_id = ?1 AND method = ?2 AND route = ?3 AND key = ?4",
                    params![key.token_id, key.method, key.route, key.key],
                    |r| Ok((r.get::<String>(0)?, r.get::<Option<u16>>(1)?, r.get::<Option<String>>(2)?, r.get::<Option<Vec<u8>>>(3)?, r.get::<Option<String>>(4)?)),
                )
                .ctx("read idempotency record")?;
            match existing {
                None => {
                    tx.execute(
                        "INSERT INTO idempotency (token_id, method, route, key, request_hash, created_at, owner) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                        params![key.token_id, key.method, key.route, key.key, request_hash, super::now(), owner],
                    )
                    .ctx("insert idempotency record")?;
                    Ok(Claim::Claimed)
                }
                Some((hash, _, _, _, _)) if hash != request_hash => Ok(Claim::Mismatch),
                Some((_, Some(status), headers, body, _)) => Ok(Claim::Replay(StoredResponse {
                    status,
                    headers: headers.and_then(|h| serde_json::from_str(&h).ok()).unwrap_or_default(),
                    body: body.unwrap_or_default(),
                })),
                Some((_, None, _, _, Some(holder))) if alive(&holder) => Ok(Claim::InProgress),
                Some(_) => {
                    // Its process died before it finished: the retry runs it.
                    tx.execute(
                        "UPDATE idempotency SET owner = ?5 WHERE token_id = ?1 AND method = ?2 AND route = ?3 AND key = ?4",
                        params![key.token_id, key.method, key.route, key.key, owner],
                    )
                    .ctx("take over idempotency record")?;
                    Ok(Claim::Claimed)
                }
            }
        })
    }

    /// Store the finished response of a claimed key.
    pub fn finish_idempotent(
        &self,
        key: Key<'_>,
        response: &StoredResponse,
    ) -> Result<(), StoreError> {
        self.write("store idempotent response", |tx| {
            tx.execute(
                "UPDATE idempotency SET status = ?5, headers = ?6, body = ?7
                 WHERE token_id = ?1 AND method = ?2 AND route = ?3 AND key = ?4",
                params![
                    key.token_id,
                    key.method,
                    key.route,
                    key.key,
                    response.status,
                    serde_json::to_string(&response.headers).unwrap_or_default(),
                    response.body
                ],
            )
            .ctx("store idempotent response")?;
            Ok(())
        })
    }

    /// Forget a claimed key whose request failed on our side, so a retry runs again.
    pub fn release_idempotent(&self, key: Key<'_>) -> Result<(), StoreError> {
        self.write("release idempotency key", |tx| {
            tx.execute(
                "DELETE FROM idempotency WHERE token_id = ?1 AND method = ?2 AND route = ?3 AND key = ?4 AND status IS NULL",
                params![key.token_id, key.method, key.route, key.key],
            )
            .ctx("release idempotency key")?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use super::*;

    #[test]
    fn claim_replay_mismatch_and_release() {
        let store = store();
        let alive = |_: &str| true;
        let key = Key {
            token_id: "t",
            method: "POST",
            route: "/v1/decision",
            key: "abcdefgh",
        };
        assert_eq!(
            store.claim_idempotent(key, "h1", "me", &alive).unwrap(),
            Claim::Claimed
        );
        assert_eq!(
            store.claim_idempotent(key, "h1", "me", &alive).unwrap(),
            Claim::InProgress
        );
        assert_eq!(
            store.claim_idempotent(key, "h2", "me", &alive).unwrap(),
            Claim::Mismatch
        );
        let response = StoredResponse {
            status: 200,
            headers: vec![("content-type".into(), "application/json".into())],
            body: b"{}".to_vec(),
        };
        store.finish_idempotent(key, &response).unwrap();
        assert_eq!(
            store.claim_idempotent(key, "h1", "me", &alive).unwrap(),
            Claim::Replay(response)
        );
        let other = Key {
            key: "other-key",
            ..key
        };
        assert_eq!(
            store.claim_idempotent(other, "h1", "me", &alive).unwrap(),
            Claim::Claimed
        );
        store.release_idempotent(other).unwrap();
        assert_eq!(
            store.claim_idempotent(other, "h1", "me", &alive).unwrap(),
            Claim::Claimed
        );
    }

    #[test]
    fn a_key_left_in_progress_by_a_dead_process_is_taken_over() {
        let store = store();
        let key = Key {
            token_id: "t",
            method: "POST",
            route: "/v1/models/m/examples",
            key: "abcdefgh",
        };
        let only_a_lives = |owner: &str| owner == "a";
        assert_eq!(
            store
                .claim_idempotent(key, "h", "a", &only_a_lives)
                .unwrap(),
            Claim::Claimed
        );
        assert_eq!(
            store
                .claim_idempotent(key, "h", "b", &only_a_lives)
                .unwrap(),
            Claim::InProgress,
            "a still works on it"
        );
        let a_died = |owner: &str| owner == "b";
        assert_eq!(
            store.claim_idempotent(key, "h2", "b", &a_died).unwrap(),
            Claim::Mismatch,
            "another body is still refused"
        );
        assert_eq!(
            store.claim_idempotent(key, "h", "b", &a_died).unwrap(),
            Claim::Claimed,
            "a died: b runs it"
        );
        assert_eq!(
            store.claim_idempotent(key, "h", "c", &a_died).unwrap(),
            Claim::InProgress,
            "now b holds it"
        );
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(
            claim_replay_mismatch_and_release,
            a_key_left_in_progress_by_a_dead_process_is_taken_over
        );
    }
}
