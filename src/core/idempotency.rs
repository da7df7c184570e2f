//! Idempotency records: a request claims its key (with the hash of its body), then settles
//! it with the response to replay, or releases it for a retry to compute again. The store
//! work runs on the blocking pool.

use super::{Context, blocking};
use crate::error::Result;
pub use crate::store::{Claim, StoredResponse};

/// Which request a key belongs to: the same key from another token or on another route is
/// another record.
#[derive(Debug, Clone)]
pub struct RequestKey {
    pub token_id: String,
    pub method: String,
    pub route: String,
    pub key: String,
}

impl RequestKey {
    fn borrow(&self) -> crate::store::IdempotencyKey<'_> {
        crate::store::IdempotencyKey {
            token_id: &self.token_id,
            method: &self.method,
            route: &self.route,
            key: &self.key,
        }
    }
}

/// Claim `key` for a request whose body hashes to `request_hash`: ours to run, a finished
/// response to replay, still running, or taken by another body. A key left in progress by
/// a process that died is ours to run again.
pub async fn claim(ctx: &Context, key: &RequestKey, request_hash: &str) -> Result<Claim> {
    let (ctx, key, hash) = (ctx.clone(), key.clone(), request_hash.to_owned());
    blocking(move || {
        let lease = ctx.lease()?;
        let alive = |owner: &str| lease.is_alive(owner);
        Ok(ctx
            .store()?
            .claim_idempotent(key.borrow(), &hash, lease.id(), &alive)?)
    })
    .await
}

/// Settle a claimed key: keep `response` to replay, or, with none, release the key.
pub async fn settle(
    ctx: &Context,
    key: RequestKey,
    response: Option<StoredResponse>,
) -> Result<()> {
    let ctx = ctx.clone();
    blocking(move || {
        let store = ctx.store()?;
        match response {
            Some(response) => store.finish_idempotent(key.borrow(), &response),
            None => store.release_idempotent(key.borrow()),
        }
        .map_err(Into::into)
    })
    .await
}
