//! Sessions of the web app (`/ui/`): a login with an API token (or, on `arbiter ui`, the
//! local home's owner) opens one; its cookie carries a random secret whose SHA-256 alone the
//! store keeps, with the token it stands for and the form token (CSRF) its writes carry.
//! Each request finds the token again, so a revoked token ends its sessions at once, and a
//! session ends at its absolute expiry however busy it is.

use super::Context;
use super::tokens::{self, Principal};
use crate::error::{Error, Result};
use crate::wire::time::Recorded;
use subtle::ConstantTimeEq;

/// A live session: who, the form token its writes must carry, and when it ends.
#[derive(Debug, Clone)]
pub struct WebSession {
    pub principal: Principal,
    pub csrf: String,
    pub expires_at: Recorded,
}

impl WebSession {
    /// Whether `given` is this session's form token (compared in constant time).
    pub fn csrf_matches(&self, given: &str) -> bool {
        self.csrf.as_bytes().ct_eq(given.as_bytes()).into()
    }
}

/// A session just opened, with the secret its cookie carries (shown this once).
#[derive(Debug)]
pub struct Opened {
    pub secret: String,
    pub session: WebSession,
}

/// A random secret of 256 bits, as hex.
fn secret() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

/// Open a session for `principal` (authenticated by its token, or the local home's owner)
/// lasting `ttl`.
pub async fn open(ctx: &Context, principal: Principal, ttl: std::time::Duration) -> Result<Opened> {
    let ctx = ctx.clone();
    super::blocking(move || {
        let (secret, csrf) = (secret(), secret());
        let token_id = (!principal.is_owner()).then_some(&principal.token_id);
        let expires_at =
            ctx.store()?
                .insert_ui_session(&tokens::hash(&secret), token_id, &csrf, ttl)?;
        Ok(Opened {
            secret,
            session: WebSession {
                principal,
                csrf,
                expires_at,
            },
        })
    })
    .await
}

/// The session whose cookie carries `secret`, with its token's principal as it is now; an
/// owner's session (`arbiter ui`) only where `owner` is given, i.e. on the home's own
/// loopback server. 401 for a session expired, ended, unknown, or whose token is revoked.
pub async fn resume(ctx: &Context, secret: &str, owner: Option<&Principal>) -> Result<WebSession> {
    let (ctx, hash, owner) = (ctx.clone(), tokens::hash(secret), owner.cloned());
    super::blocking(move || {
        let ended = || Error::Unauthorized("the session has expired or ended: log in again".into());
        let stored = ctx.store()?.ui_session(&hash)?.ok_or_else(ended)?;
        let principal = match &stored.token_id {
            Some(token_id) => tokens::principal_by_id(&ctx, token_id)?,
            None => owner,
        }
        .ok_or_else(ended)?;
        Ok(WebSession {
            principal,
            csrf: stored.csrf,
            expires_at: stored.expires_at,
        })
    })
    .await
}

/// End the session whose cookie carries `secret` (a logout).
pub async fn close(ctx: &Context, secret: &str) -> Result<()> {
    let (ctx, hash) = (ctx.clone(), tokens::hash(secret));
    super::blocking(move || Ok(ctx.store()?.delete_ui_session(&hash)?)).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::tokens::NewToken;
    use std::time::Duration;

    #[tokio::test]
    async fn a_session_stands_for_its_token_until_the_token_is_revoked() {
        let (_dir, ctx) = crate::core::test_support::home();
        let (_, bearer) = tokens::create(
            &ctx,
            &NewToken {
                name: "ana".into(),
                scopes: vec!["examples:read".into()],
                roles: vec!["acme/*=writer".into()],
            },
        )
        .unwrap();
        let principal = tokens::authenticate(&ctx, &bearer).await.unwrap();
        let opened = open(&ctx, principal, Duration::from_mins(1)).await.unwrap();
        let resumed = resume(&ctx, &opened.secret, None).await.unwrap();
        assert_eq!(resumed.principal.name, "ana");
        assert!(resumed.csrf_matches(&opened.session.csrf));
        assert!(!resumed.csrf_matches("nope"));
        assert!(!resumed.csrf_matches(""));
        assert!(matches!(
            resume(&ctx, "not-a-session", None).await,
            Err(Error::Unauthorized(_))
        ));
        tokens::revoke(&ctx, "ana").unwrap();
        assert!(matches!(
            resume(&ctx, &opened.secret, None).await,
            Err(Error::Unauthorized(_))
        ));
    }

    #[tokio::test]
    async fn an_owner_session_is_resumed_only_where_the_owner_is_at_home() {
        let (_dir, ctx) = crate::core::test_support::home();
        let owner = Principal::owner("ada".into());
        let opened = open(&ctx, owner.clone(), Duration::from_mins(1))
            .await
            .unwrap();
        assert!(matches!(
            resume(&ctx, &opened.secret, None).await,
            Err(Error::Unauthorized(_))
        ));
        let resumed = resume(&ctx, &opened.secret, Some(&owner)).await.unwrap();
        assert!(resumed.principal.is_owner());
        close(&ctx, &opened.secret).await.unwrap();
        assert!(matches!(
            resume(&ctx, &opened.secret, Some(&owner)).await,
            Err(Error::Unauthorized(_))
        ));
    }
}
