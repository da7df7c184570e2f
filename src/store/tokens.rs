//! API tokens: only the SHA-256 of a secret is stored; the secret itself is shown once.

use serde::{Deserialize, Serialize};

use super::error::parse_json;
use super::sql::{DbError, Row, SqlContext, params};
use super::{Store, StoreError, now};
use crate::ids::TokenId;

/// A token as stored (never the secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenRecord {
    pub token_id: TokenId,
    pub name: String,
    #[serde(skip)]
    pub secret_hash: String,
    pub scopes: Vec<String>,
    /// `pattern=role` entries, e.g. `acme/*=reader`.
    pub roles: Vec<String>,
    pub created_at: crate::wire::time::Recorded,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revoked_at: Option<crate::wire::time::Recorded>,
}

const COLUMNS: &str = "token_id, name, secret_hash, scopes, roles, created_at, revoked_at";

/// A row as stored: the columns that need parsing still as text.
struct RawToken {
    token_id: String,
    name: String,
    secret_hash: String,
    scopes: String,
    roles: String,
    created_at: crate::wire::time::Recorded,
    revoked_at: Option<crate::wire::time::Recorded>,
}

fn from_row(row: &Row) -> Result<RawToken, DbError> {
    Ok(RawToken {
        token_id: row.get(0)?,
        name: row.get(1)?,
        secret_hash: row.get(2)?,
        scopes: row.get(3)?,
        roles: row.get(4)?,
        created_at: row.get(5)?,
        revoked_at: row.get(6)?,
    })
}

fn finish(raw: RawToken) -> Result<TokenRecord, StoreError> {
    let corrupt = |what: &str, reason: String| StoreError::Corrupt {
        what: format!("token {what}"),
        reason,
    };
    let list = |text: &str, what: &str| -> Result<Vec<String>, StoreError> {
        serde_json::from_value(parse_json(text, || format!("token {what}"))?)
            .map_err(|e| corrupt(what, e.to_string()))
    };
    Ok(TokenRecord {
        token_id: raw
            .token_id
            .parse()
            .map_err(|e: crate::ids::InvalidId| corrupt("ID", e.to_string()))?,
        name: raw.name,
        secret_hash: raw.secret_hash,
        scopes: list(&raw.scopes, "scopes")?,
        roles: list(&raw.roles, "roles")?,
        created_at: raw.created_at,
        revoked_at: raw.revoked_at,
    })
}

impl Store {
    /// Store a new token; a taken name → `StoreError::Conflict`.
    pub fn insert_token(&self, token: &TokenRecord) -> Result<(), StoreError> {
        self.write("create token", |tx| {
            let name_taken: bool = tx
                .query_value("SELECT EXISTS (SELECT 1 FROM tokens WHERE name = ?1)", params![token.name])
                .ctx("check token name")?;
            if name_taken {
                return Err(StoreError::Conflict(format!("a token named `{}` exists", token.name)));
            }
            tx.execute(
                "INSERT INTO tokens (token_id, name, secret_hash, scopes, roles, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    token.token_id.as_str(),
                    token.name,
                    token.secret_hash,
                    serde_json::to_string(&token.scopes).unwrap_or_default(),
                    serde_json::to_string(&token.roles).unwrap_or_default(),
                    token.created_at
                ],
            )
            .ctx("insert token")?;
            Ok(())
        })
    }

    /// Every token, oldest first.
    pub fn list_tokens(&self) -> Result<Vec<TokenRecord>, StoreError> {
        let mut conn = self.conn()?;
        let rows = conn
            .db()
            .query_map(
                &format!("SELECT {COLUMNS} FROM tokens ORDER BY created_at, name"),
                params![],
                from_row,
            )
            .ctx("list tokens")?;
        rows.into_iter().map(finish).collect()
    }

    /// The token with this ID, revoked or not.
    pub fn get_token(&self, token_id: &TokenId) -> Result<Option<TokenRecord>, StoreError> {
        let mut conn = self.conn()?;
        conn.db()
            .query_opt(
                &format!("SELECT {COLUMNS} FROM tokens WHERE token_id = ?1"),
                params![token_id.as_str()],
                from_row,
            )
            .ctx("get token")?
            .map(finish)
            .transpose()
    }

    /// Revoke by name; returns whether a live token was revoked (false: already revoked).
    /// Unknown name → `StoreError::NotFound`.
    pub fn revoke_token(&self, name: &str) -> Result<bool, StoreError> {
        self.write("revoke token", |tx| {
            let exists: bool = tx
                .query_value(
                    "SELECT EXISTS (SELECT 1 FROM tokens WHERE name = ?1)",
                    params![name],
                )
                .ctx("find token")?;
            if !exists {
                return Err(StoreError::NotFound(format!("no token named `{name}`")));
            }
            let changed = tx
                .execute(
                    "UPDATE tokens SET revoked_at = ?2 WHERE name = ?1 AND revoked_at IS NULL",
                    params![name, now()],
                )
                .ctx("revoke token")?;
            Ok(changed > 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{on_postgres, store};
    use super::*;

    fn token(name: &str) -> TokenRecord {
        TokenRecord {
            token_id: TokenId::random(),
            name: name.into(),
            secret_hash: "h".into(),
            scopes: vec!["decisions".into()],
            roles: vec!["acme/*=reader".into()],
            created_at: now(),
            revoked_at: None,
        }
    }

    #[test]
    fn tokens_are_stored_listed_and_revoked() {
        let store = store();
        let ci = token("ci");
        store.insert_token(&ci).unwrap();
        assert!(matches!(
            store.insert_token(&token("ci")),
            Err(StoreError::Conflict(_))
        ));
        let got = store.get_token(&ci.token_id).unwrap().unwrap();
        assert_eq!(got.scopes, ["decisions"]);
        assert_eq!(got.roles, ["acme/*=reader"]);
        assert!(store.revoke_token("ci").unwrap());
        assert!(!store.revoke_token("ci").unwrap());
        assert!(
            store
                .get_token(&ci.token_id)
                .unwrap()
                .unwrap()
                .revoked_at
                .is_some()
        );
        assert!(matches!(
            store.revoke_token("nope"),
            Err(StoreError::NotFound(_))
        ));
        assert_eq!(store.list_tokens().unwrap().len(), 1);
    }

    #[test]
    fn the_same_tests_on_postgres() {
        on_postgres!(tokens_are_stored_listed_and_revoked);
    }
}
