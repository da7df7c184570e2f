//! Logging in and out. A login takes an API token, checked as a bearer token is (and a
//! failed one counted against the address as one is), and opens a session kept in the
//! store; its cookie is `HttpOnly`, `SameSite=Strict`, for `/ui` only, and ends with it.
//! On `arbiter ui` the one-time link it printed logs the home's owner in instead.

use super::session::{FormBody, home, same_origin};
use super::{UiHome, UiResult, see_other};
use crate::core::web_sessions;
use crate::error::Error;
use crate::server::AppState;
use crate::server::auth;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
pub(super) struct LoginQuery {
    next: Option<String>,
    /// `arbiter ui`'s one-time code.
    code: Option<String>,
}

/// Where a login leads: a page of the app, else its first page (never another site).
fn next_page(next: Option<&str>) -> String {
    match next {
        Some(next) if next.starts_with("/ui/") && !next.contains("//") && !next.contains('\\') => {
            next.to_owned()
        }
        _ => "/ui/".to_owned(),
    }
}

fn set_cookie(home: &UiHome, value: &str, max_age: u64) -> HeaderValue {
    let secure = if home.secure { "; Secure" } else { "" };
    let cookie = format!(
        "{}={value}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age={max_age}{secure}",
        home.cookie
    );
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// A session opened: its cookie set, and on to `next`.
fn logged_in(
    home: &UiHome,
    opened: &web_sessions::Opened,
    ttl: std::time::Duration,
    next: &str,
) -> Response {
    let mut response = see_other(next);
    response.headers_mut().insert(
        header::SET_COOKIE,
        set_cookie(home, &opened.secret, ttl.as_secs()),
    );
    response
}

/// The login page, or `arbiter ui`'s one-time link spent.
pub(super) async fn page(
    State(state): State<AppState>,
    Query(query): Query<LoginQuery>,
    request: Request,
) -> UiResult<Response> {
    let home = home(&state)?;
    let next = next_page(query.next.as_deref());
    let Some(code) = query.code else {
        let message = home
            .owner
            .is_some()
            .then_some("Open the login link `arbiter ui` printed, or log in with a token.");
        return Ok(Html(crate::ui::app::login(message, &next)).into_response());
    };
    let client = auth::client_ip(&request);
    // A wrong or spent code counts against the address as a wrong token does.
    let owner = auth::counted(&state, client.as_deref(), async {
        home.owner
            .clone()
            .filter(|_| home.spend_code(&code))
            .ok_or_else(|| {
                Error::Unauthorized(
                    "this login link is spent or wrong: run `arbiter ui` again for a new one"
                        .into(),
                )
            })
    })
    .await?;
    let ttl = state.ctx.settings().server.ui_session_ttl;
    let opened = web_sessions::open(&state.ctx, owner, ttl).await?;
    Ok(logged_in(home, &opened, ttl, &next))
}

/// A login with an API token.
pub(super) async fn login(State(state): State<AppState>, request: Request) -> UiResult<Response> {
    let home = home(&state)?;
    same_origin(request.headers())?;
    let client = auth::client_ip(&request);
    let bytes = crate::server::extract::read_within(request, 16 * 1024, state.body_pace).await?;
    let fields: Vec<(String, String)> = url::form_urlencoded::parse(&bytes).into_owned().collect();
    let field = |name: &str| {
        fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.trim().to_owned())
    };
    let next = next_page(field("next").as_deref());
    let token = field("token").unwrap_or_default();
    let principal = match auth::authenticate(&state, client.as_deref(), Ok(token)).await {
        Ok(principal) => principal,
        Err(error) => {
            let status = StatusCode::from_u16(error.0.status()).unwrap_or(StatusCode::UNAUTHORIZED);
            let message = match &error.0 {
                Error::Unauthorized(_) => "That token is not valid, or it was revoked.".to_owned(),
                other => other.to_string(),
            };
            return Ok((status, Html(crate::ui::app::login(Some(&message), &next))).into_response());
        }
    };
    let ttl = state.ctx.settings().server.ui_session_ttl;
    let opened = web_sessions::open(&state.ctx, principal, ttl).await?;
    Ok(logged_in(home, &opened, ttl, &next))
}

/// A logout: the session ends in the store, and its cookie is dropped.
pub(super) async fn logout(State(state): State<AppState>, form: FormBody) -> UiResult<Response> {
    let home = home(&state)?;
    let _ = &form.viewer;
    if let Some(secret) = form.secret.as_deref() {
        web_sessions::close(&state.ctx, secret).await?;
    }
    let mut response = see_other("/ui/login");
    response
        .headers_mut()
        .insert(header::SET_COOKIE, set_cookie(home, "", 0));
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_login_leads_only_to_a_page_of_the_app() {
        assert_eq!(next_page(Some("/ui/jobs")), "/ui/jobs");
        assert_eq!(next_page(Some("/ui/models/m?x=1")), "/ui/models/m?x=1");
        for elsewhere in [
            "https://evil.example/",
            "//evil.example/ui/",
            "/ui//evil",
            "/v1/models",
            "/ui\\x",
            "",
        ] {
            assert_eq!(next_page(Some(elsewhere)), "/ui/", "{elsewhere}");
        }
        assert_eq!(next_page(None), "/ui/");
    }
}
