//! The session of a request to the app: its cookie, found in the store ([`Viewer`]); and a
//! form posted by it ([`FormBody`]), read only from a page of this origin carrying the
//! session's form token.

use super::{UiError, UiHome};
use crate::core::web_sessions::{self, WebSession};
use crate::error::Error;
use crate::server::AppState;
use crate::server::auth::Authenticated;
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, header};
use axum::response::{IntoResponse, Redirect, Response};
use std::sync::Arc;

/// The largest form the app takes: an answer with its reason, a filter.
const MAX_FORM_BYTES: usize = 64 * 1024;

/// The session's secret from the request's cookies.
pub(super) fn cookie_secret(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|value| !value.is_empty())
}

/// The app as this server serves it (only its routes are mounted when it is on).
pub(super) fn home(state: &AppState) -> Result<&Arc<UiHome>, Error> {
    state
        .ui
        .as_ref()
        .ok_or_else(|| Error::NotFound("the web app is off: set server.ui".into()))
}

/// Set by [`Viewer`] when the request's session is live: its answer is then
/// [`Authenticated`], as an answer to a valid token is, and keeps its connection open.
#[derive(Clone, Default)]
pub(super) struct SessionSeen(Arc<std::sync::atomic::AtomicBool>);

/// Mark the answer to a request with a live session [`Authenticated`].
pub(super) async fn mark_authenticated(
    mut request: Request,
    next: axum::middleware::Next,
) -> Response {
    let seen = SessionSeen::default();
    request.extensions_mut().insert(seen.clone());
    let mut response = next.run(request).await;
    if seen.0.load(std::sync::atomic::Ordering::Relaxed) {
        response.extensions_mut().insert(Authenticated);
    }
    response
}

/// The logged-in viewer of a page, as the store has their session now.
pub(crate) struct Viewer(pub(crate) WebSession);

impl Viewer {
    pub(crate) fn principal(&self) -> &crate::core::tokens::Principal {
        &self.0.principal
    }

    pub(crate) fn csrf(&self) -> &str {
        &self.0.csrf
    }

    /// Who is logged in, as the bar shows them.
    pub(crate) fn name(&self) -> &str {
        &self.0.principal.name
    }
}

/// Without a live session: a page asked for leads to the login page (and back after it);
/// a form posted is refused.
pub(crate) struct LoginFirst {
    next: Option<String>,
    error: Error,
}

impl IntoResponse for LoginFirst {
    fn into_response(self) -> Response {
        match (&self.error, self.next) {
            (Error::Unauthorized(_), Some(next)) => Redirect::to(&crate::ui::app::with_query(
                "/ui/login",
                [("next", next.as_str())],
            ))
            .into_response(),
            _ => UiError(self.error).into_response(),
        }
    }
}

impl FromRequestParts<AppState> for Viewer {
    type Rejection = LoginFirst;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let next = (parts.method == Method::GET).then(|| {
            parts
                .uri
                .path_and_query()
                .map_or_else(|| "/ui/".to_owned(), ToString::to_string)
        });
        let refuse = |error: Error| LoginFirst {
            next: next.clone(),
            error,
        };
        let home = home(state).map_err(refuse)?;
        let secret = cookie_secret(&parts.headers, home.cookie)
            .ok_or_else(|| refuse(Error::Unauthorized("log in first".into())))?;
        let session = web_sessions::resume(&state.ctx, &secret, home.owner.as_ref())
            .await
            .map_err(refuse)?;
        // A session's requests count against its token's rate limit, as the API's do.
        if let Err(retry_after_secs) = state.limiter.check(session.principal.token_id.as_str()) {
            return Err(refuse(Error::RateLimited {
                limit: "this token's rate limit",
                retry_after_secs,
            }));
        }
        if let Some(seen) = parts.extensions.get::<SessionSeen>() {
            seen.0.store(true, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(Self(session))
    }
}

/// Whether a write comes from a page of this origin: the browser's `Sec-Fetch-Site`
/// (`same-origin`) when it sends one, else its `Origin`, which must name the host asked.
pub(super) fn same_origin(headers: &HeaderMap) -> Result<(), Error> {
    let refused = || Error::Forbidden("a form of the app posts only from its own pages".into());
    if let Some(site) = headers.get("sec-fetch-site") {
        return if site == "same-origin" {
            Ok(())
        } else {
            Err(refused())
        };
    }
    let (Some(origin), Some(host)) = (headers.get(header::ORIGIN), headers.get(header::HOST))
    else {
        // Neither header: not a browser (a browser sends `Origin` with every form post).
        return Ok(());
    };
    let origin = origin.to_str().unwrap_or_default();
    let host = host.to_str().unwrap_or_default();
    let origin_host = origin.split_once("://").map_or("", |(_, rest)| rest);
    if origin_host == host {
        Ok(())
    } else {
        Err(refused())
    }
}

/// A form posted by a logged-in viewer, from a page of this origin, with the session's form
/// token: its fields in order (a name may repeat).
pub(crate) struct FormBody {
    pub(crate) viewer: Viewer,
    /// The session cookie's secret (a logout ends that session).
    pub(crate) secret: Option<String>,
    fields: Vec<(String, String)>,
}

impl FormBody {
    /// The first value of `name`, if given.
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The first value of `name`, or 400 naming it.
    pub(crate) fn required(&self, name: &str) -> Result<&str, Error> {
        self.get(name)
            .filter(|value| !value.is_empty())
            .ok_or_else(|| {
                Error::invalid(
                    crate::wire::Loc::body().key(name),
                    format!("the form has no `{name}`"),
                    "missing",
                )
            })
    }

    /// Every field, in order (a name may repeat).
    pub(crate) fn fields(&self) -> &[(String, String)] {
        &self.fields
    }
}

impl FromRequest<AppState> for FormBody {
    type Rejection = Response;

    async fn from_request(request: Request, state: &AppState) -> Result<Self, Self::Rejection> {
        let (mut parts, body) = request.into_parts();
        let viewer = Viewer::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let refuse = |error: Error| UiError(error).into_response();
        same_origin(&parts.headers).map_err(refuse)?;
        let secret = home(state)
            .ok()
            .and_then(|home| cookie_secret(&parts.headers, home.cookie));
        let request = Request::from_parts(parts, body);
        let bytes = crate::server::extract::read_within(request, MAX_FORM_BYTES, state.body_pace)
            .await
            .map_err(|error| UiError(error.0).into_response())?;
        let fields: Vec<(String, String)> =
            url::form_urlencoded::parse(&bytes).into_owned().collect();
        let given = fields
            .iter()
            .find(|(key, _)| key == "csrf")
            .map_or("", |(_, value)| value.as_str());
        if !viewer.0.csrf_matches(given) {
            return Err(refuse(Error::Forbidden(
                "the form's token is not this session's: load the page again".into(),
            )));
        }
        Ok(Self {
            viewer,
            secret,
            fields,
        })
    }
}
