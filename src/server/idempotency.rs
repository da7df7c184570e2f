//! `Idempotency-Key`: a retried request with the same key and body replays the finished
//! response; another body is 409 `idempotency_key_reused`; a duplicate while the first is
//! still running is 409 `decision_in_progress`. Records live in `SQLite`, so they survive a
//! restart, and expire after 24 hours.

use super::AppState;
use super::error::ApiError;
use crate::core::idempotency::{Claim, RequestKey, StoredResponse};
use crate::core::{self, tokens::Principal};
use crate::error::Error;
use crate::wire::Loc;
use crate::wire::value::canonical_hash;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use std::future::Future;

pub(crate) const HEADER: &str = "idempotency-key";

/// The key of a request, if it sent a valid one: 8 to 255 visible ASCII characters.
pub(crate) fn key(headers: &HeaderMap, required: bool) -> Result<Option<String>, ApiError> {
    let loc = Loc::header("Idempotency-Key");
    let Some(value) = headers.get(HEADER) else {
        return if required {
            Err(Error::invalid(
                loc,
                "Idempotency-Key is required (8 to 255 characters)",
                "missing",
            )
            .into())
        } else {
            Ok(None)
        };
    };
    let text = value.to_str().map_err(|_| {
        Error::invalid(
            loc.clone(),
            "Idempotency-Key must be visible ASCII",
            "invalid",
        )
    })?;
    if !(8..=255).contains(&text.len()) {
        return Err(Error::invalid(
            loc,
            format!(
                "Idempotency-Key is {} characters; it must be 8 to 255",
                text.len()
            ),
            "length",
        )
        .into());
    }
    Ok(Some(text.to_owned()))
}

/// Run `handle` at most once per (token, method, route, key) and JSON body (compared in
/// its canonical form, so key order and number spelling do not matter).
pub(crate) async fn once<Fut>(
    state: &AppState,
    principal: &Principal,
    key: Option<String>,
    route: (&str, &str),
    body: &Value,
    handle: impl FnOnce() -> Fut,
) -> Result<Response, ApiError>
where
    Fut: Future<Output = Response>,
{
    once_hashed(state, principal, key, route, canonical_hash(body), handle).await
}

/// The hash a raw (non-JSON) body is compared by: its media type, what else shapes the
/// request (e.g. a query string), and its bytes.
pub(crate) fn raw_hash(media_type: &str, qualifier: &str, bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    hasher.update(media_type.as_bytes());
    hasher.update(b"\n");
    hasher.update(qualifier.as_bytes());
    hasher.update(b"\n");
    hasher.update(bytes);
    hex::encode(hasher.finalize())
}

/// [`once`] for a body already reduced to `hash`.
pub(crate) async fn once_hashed<Fut>(
    state: &AppState,
    principal: &Principal,
    key: Option<String>,
    (method, route): (&str, &str),
    hash: String,
    handle: impl FnOnce() -> Fut,
) -> Result<Response, ApiError>
where
    Fut: Future<Output = Response>,
{
    let Some(key) = key else {
        return Ok(handle().await);
    };
    let owned = RequestKey {
        token_id: principal.token_id.to_string(),
        method: method.to_owned(),
        route: route.to_owned(),
        key,
    };
    let claim = core::idempotency::claim(&state.ctx, &owned, &hash).await?;
    match claim {
        Claim::Replay(stored) => Ok(replay(stored)),
        Claim::InProgress => Err(Error::decision_in_progress().into()),
        Claim::Mismatch => Err(Error::idempotency_key_reused().into()),
        Claim::Claimed => {
            let response = handle().await;
            let (parts, body) = response.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX)
                .await
                .unwrap_or_default();
            let stored = StoredResponse {
                status: parts.status.as_u16(),
                headers: parts
                    .headers
                    .iter()
                    .filter(|(name, _)| matches!(name.as_str(), "content-type" | "location"))
                    .filter_map(|(name, value)| {
                        Some((name.as_str().to_owned(), value.to_str().ok()?.to_owned()))
                    })
                    .collect(),
                body: bytes.to_vec(),
            };
            // Only a success is replayed: an error answer (with its own request ID) is
            // recomputed on retry, so a fault of ours never sticks to the key.
            let kept = parts.status.is_success().then_some(stored);
            let saved = core::idempotency::settle(&state.ctx, owned, kept).await;
            if let Err(error) = saved {
                tracing::error!(%error, "storing an idempotent response failed");
            }
            Ok(Response::from_parts(parts, axum::body::Body::from(bytes)))
        }
    }
}

fn replay(stored: StoredResponse) -> Response {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut response = (status, stored.body).into_response();
    let headers = response.headers_mut();
    for (name, value) in stored.headers {
        if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
            headers.insert(name, value);
        }
    }
    headers.insert("idempotent-replayed", HeaderValue::from_static("true"));
    response
}
