//! Sessions of the web app: a row per login, found by the SHA-256 of its cookie's secret
//! (the secret itself is never stored), with the token it was opened with, the form token
//! its writes carry, and an absolute expiry. Expired rows are swept at each login.

use super::sql::{SqlContext, params};
use super::{Store, StoreError, expiry};
use crate::ids::TokenId;
use crate::wire::time::Recorded;

/// A live session as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UiSession {
    /// The token it was opened with; `None`: the local home's owner (`arbiter ui`).
    pub token_id: Option<TokenId>,
    /// The form token every write of the session carries.
    pub csrf: String,
    pub expires_at: Recorded,
}

impl Store {
    /// Record a session under `session_hash`, for `ttl` from now; returns when it expires.
    /// Sessions already expired are swept on the way.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn insert_ui_session(
        &self,
        session_hash: &str,
        token_id: Option<&TokenId>,
        csrf: &str,
        ttl: std::time::Duration,
    ) -> Result<Recorded, StoreError> {
        let until = expiry(ttl);
        let token_id = token_id.map(TokenId::as_str);
        self.write("open session", |tx| {
            tx.execute(
                "DELETE FROM ui_sessions WHERE expires_at < ?1",
                params![super::now()],
            )
            .ctx("sweep expired sessions")?;
            tx.execute(
                "INSERT INTO ui_sessions (session_hash, token_id, csrf, created_at, expires_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![session_hash, token_id, csrf, super::now(), until],
            )
            .ctx("open session")?;
            Ok(until)
        })
    }

    /// The session under `session_hash`, unless it expired or never was.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure, [`StoreError::Corrupt`] for a token ID
    /// that is none.
    pub fn ui_session(&self, session_hash: &str) -> Result<Option<UiSession>, StoreError> {
        let mut conn = self.conn()?;
        let row: Option<(Option<String>, String, Recorded)> = conn
            .db()
            .query_opt(
                "SELECT token_id, csrf, expires_at FROM ui_sessions
                 WHERE session_hash = ?1 AND expires_at >= ?2",
                params![session_hash, super::now()],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .ctx("read session")?;
        row.map(|(token_id, csrf, expires_at)| {
            let token_id =
                token_id
                    .map(|id| id.parse())
                    .transpose()
                    .map_err(|e: crate::ids::InvalidId| StoreError::Corrupt {
                        what: "session token ID".into(),
                        reason: e.to_string(),
                    })?;
            Ok(UiSession {
                token_id,
                csrf,
                expires_at,
            })
        })
        .transpose()
    }

    /// End the session under `session_hash` (a logout); ending one that is gone does nothing.
    ///
    /// # Errors
    /// [`StoreError::Database`] on database failure.
    pub fn delete_ui_session(&self, session_hash: &str) -> Result<(), StoreError> {
        self.write("end session", |tx| {
            tx.execute(
                "DELETE FROM ui_sessions WHERE session_hash = ?1",
                params![session_hash],
            )
            .ctx("end session")?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_session_is_found_until_it_expires_or_ends() {
        let store = store();
        let token = TokenId::random();
        let until = store
            .insert_ui_session("h1", Some(&token), "c1", Duration::from_hours(1))
            .unwrap();
        let found = store.ui_session("h1").unwrap().unwrap();
        assert_eq!(found.token_id, Some(token));
        assert_eq!(found.csrf, "c1");
        assert_eq!(found.expires_at, until);
        assert_eq!(store.ui_session("h2").unwrap(), None);
        store
            .insert_ui_session("owner", None, "c2", Duration::from_hours(1))
            .unwrap();
        assert_eq!(store.ui_session("owner").unwrap().unwrap().token_id, None);
        store
            .insert_ui_session("gone", None, "c3", Duration::from_millis(1))
            .unwrap();
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(store.ui_session("gone").unwrap(), None, "expired");
        store.delete_ui_session("h1").unwrap();
        store.delete_ui_session("h1").unwrap();
        assert_eq!(store.ui_session("h1").unwrap(), None, "ended");
        assert!(store.ui_session("owner").unwrap().is_some());
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(a_session_is_found_until_it_expires_or_ends);
    }
}
