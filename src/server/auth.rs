//! Bearer tokens and rate limits for the `/v1` routes.

use super::AppState;
use super::error::ApiError;
use crate::core::{self, tokens::Principal};
use crate::error::Error;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Authenticate the bearer token, apply its rate limit, and hand the [`Principal`] to the
/// handler as an extension. The token itself is never logged.
pub(crate) async fn require_token(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let authorization = request.headers().get(header::AUTHORIZATION).cloned();
    let principal = match principal(&state, authorization).await {
        Ok(principal) => principal,
        Err(error) => return error.into_response(),
    };
    let quota = match state.limiter.check(principal.token_id.as_str()) {
        Ok(quota) => quota,
        Err(retry_after_secs) => {
            let mut response = ApiError(Error::RateLimited { retry_after_secs }).into_response();
            set_quota_headers(&mut response, state.limiter_limit(), 0, retry_after_secs);
            return response;
        }
    };
    request.extensions_mut().insert(principal);
    let mut response = next.run(request).await;
    set_quota_headers(
        &mut response,
        quota.limit,
        quota.remaining,
        quota.reset_secs,
    );
    response
}

async fn principal(
    state: &AppState,
    authorization: Option<HeaderValue>,
) -> Result<Principal, ApiError> {
    let value = authorization.ok_or_else(|| {
        Error::Unauthorized("authentication required: send Authorization: Bearer <token>".into())
    })?;
    let bearer = value
        .to_str()
        .ok()
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, token)| token.trim().to_owned())
        .ok_or_else(|| {
            Error::Unauthorized("the Authorization header must read `Bearer <token>`".into())
        })?;
    Ok(core::tokens::authenticate(&state.ctx, &bearer).await?)
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
