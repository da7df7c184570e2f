//! Bearer tokens and rate limits for the `/v1` routes: per token, and on failed
//! authentication per client address.

use super::AppState;
use super::error::ApiError;
use super::listener::ClientAddr;
use crate::core::{self, tokens::Principal};
use crate::error::Error;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// On a response: its request carried a valid token, within its rate limit. Only such an
/// answer keeps its connection open ([`super::connections`]): a client without a token
/// cannot hold a connection past `server.idle_timeout` by sending requests that need none.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Authenticated;

/// Authenticate the bearer token, apply its rate limit, and hand the [`Principal`] to the
/// handler as an extension; mark the answer [`Authenticated`]. The token itself is never
/// logged.
pub(crate) async fn require_token(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let client = client_ip(&request);
    let authorization = request.headers().get(header::AUTHORIZATION).cloned();
    let principal = match authenticate(&state, client.as_deref(), bearer(authorization)).await {
        Ok(principal) => principal,
        Err(error) => return error.into_response(),
    };
    let quota = match state.limiter.check(principal.token_id.as_str()) {
        Ok(quota) => quota,
        Err(retry_after_secs) => {
            crate::telemetry::metrics::rate_limited(crate::telemetry::metrics::Limit::Token);
            let error = Error::RateLimited {
                limit: "this token's rate limit",
                retry_after_secs,
            };
            let mut response = ApiError(error).into_response();
            set_quota_headers(&mut response, state.limiter_limit(), 0, retry_after_secs);
            return response;
        }
    };
    request.extensions_mut().insert(principal);
    let mut response = next.run(request).await;
    response.extensions_mut().insert(Authenticated);
    set_quota_headers(
        &mut response,
        quota.limit,
        quota.remaining,
        quota.reset_secs,
    );
    response
}

/// The address a request came from, as failed authentications are counted by.
pub(crate) fn client_ip(request: &Request) -> Option<String> {
    request
        .extensions()
        .get::<ConnectInfo<ClientAddr>>()
        .map(|ConnectInfo(ClientAddr(addr))| addr.ip().to_string())
}

/// Who presents the API token `bearer` (read from a bearer header, or the web app's login
/// form; an error when the header was missing or malformed), from `client`, counted as
/// [`counted`] counts.
pub(crate) async fn authenticate(
    state: &AppState,
    client: Option<&str>,
    bearer: Result<String, Error>,
) -> Result<Principal, ApiError> {
    counted(state, client, async {
        core::tokens::authenticate(&state.ctx, &bearer?).await
    })
    .await
}

/// Who `check` finds presenting a credential from `client` (a token, `arbiter ui`'s login
/// link). Failed authentications are limited per client address: past the limit, the
/// address is answered 429 whatever it sends, before `check` even runs.
pub(crate) async fn counted(
    state: &AppState,
    client: Option<&str>,
    check: impl Future<Output = crate::error::Result<Principal>>,
) -> Result<Principal, ApiError> {
    if let Some(retry_after_secs) = client.and_then(|ip| state.auth_failures.exhausted(ip)) {
        crate::telemetry::metrics::rate_limited(crate::telemetry::metrics::Limit::AuthFailures);
        return Err(ApiError(Error::RateLimited {
            limit: "too many failed authentications from this address",
            retry_after_secs,
        }));
    }
    match check.await {
        Ok(principal) => Ok(principal),
        Err(error) => {
            // Only a failed authentication counts against the address: a store that cannot
            // be read (503) says nothing of the credential, and must not lock its callers
            // out.
            if error.status() == 401 {
                crate::telemetry::metrics::auth_failure();
                if let Some(ip) = client {
                    state.auth_failures.charge(ip);
                }
            }
            Err(ApiError(error))
        }
    }
}

/// The token of an `Authorization: Bearer <token>` header.
fn bearer(authorization: Option<HeaderValue>) -> Result<String, Error> {
    let value = authorization.ok_or_else(|| {
        Error::Unauthorized("authentication required: send Authorization: Bearer <token>".into())
    })?;
    value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned())
        .ok_or_else(|| {
            Error::Unauthorized("the Authorization header must read `Bearer <token>`".into())
        })
}

fn set_quota_headers(response: &mut Response, limit: u32, remaining: u32, reset: u64) {
    let headers = response.headers_mut();
    headers.insert("ratelimit-limit", HeaderValue::from(limit));
    headers.insert("ratelimit-remaining", HeaderValue::from(remaining));
    headers.insert("ratelimit-reset", HeaderValue::from(reset));
}

impl AppState {
    fn limiter_limit(&self) -> u32 {
        self.ctx.settings().server.rate_limit.burst.get()
    }
}
