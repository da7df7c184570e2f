//! The web app under `/ui/`: server-rendered pages ([`crate::ui`]) over the same core
//! operations as the API, behind a session that a login with an API token opens (or, on
//! `arbiter ui`, a one-time link for the home's owner). Off unless `server.ui` is set.
//!
//! Every response carries a strict Content-Security-Policy (no inline script or style),
//! and is never cached; every write is a form post whose form token (CSRF) is checked
//! against the session's, from a page of this origin.

mod annotate;
mod login;
mod pages;
mod session;

use super::AppState;
use crate::core::tokens::Principal;
use crate::error::Error;
use axum::Router;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use std::fmt::Write as _;
use std::sync::Mutex;

pub(crate) use session::{FormBody, Viewer};

/// Who the app is served for: a server's token holders, or the home's owner.
pub(crate) struct UiHome {
    /// The local home's owner (`arbiter ui`): sessions without a token stand for them; on
    /// `arbiter serve`, none (such a session is not resumed there).
    owner: Option<Principal>,
    /// The SHA-256 of the one-time login code `arbiter ui` printed, until it is used.
    login_code: Mutex<Option<String>>,
    /// The session cookie's name: the owner's and the server's differ, so that both on
    /// one host (cookies are not kept per port) do not log each other out.
    cookie: &'static str,
    /// Whether the cookie is sent over HTTPS only (`server.public_url` is `https:`).
    secure: bool,
    /// The models whose Annotate pool is being decided in the background now.
    warming: Mutex<std::collections::HashSet<String>>,
}

impl UiHome {
    /// The app of `arbiter serve`, for token holders.
    pub(crate) fn for_tokens(secure: bool) -> Self {
        Self {
            owner: None,
            login_code: Mutex::new(None),
            cookie: "arbiter_session",
            secure,
            warming: Mutex::default(),
        }
    }

    /// The app of `arbiter ui`, for the home's `owner`, who logs in once with `code`.
    pub(crate) fn for_owner(owner: Principal, code: &str) -> Self {
        Self {
            owner: Some(owner),
            login_code: Mutex::new(Some(crate::core::tokens::hash(code))),
            cookie: "arbiter_home_session",
            secure: false,
            warming: Mutex::default(),
        }
    }

    /// Whether `code` is the one-time login code; it is spent by the asking.
    fn spend_code(&self, code: &str) -> bool {
        let mut held = self
            .login_code
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let given = crate::core::tokens::hash(code);
        let matches = held.as_deref().is_some_and(|hash| {
            subtle::ConstantTimeEq::ct_eq(hash.as_bytes(), given.as_bytes()).into()
        });
        if matches {
            *held = None;
        }
        matches
    }
}

/// The app's routes, mounted at `/ui` when it is on.
pub(crate) fn router() -> Router<AppState> {
    Router::new()
        .route("/ui", get(|| async { Redirect::to("/ui/") }))
        .route("/ui/", get(pages::home))
        .route("/ui/login", get(login::page).post(login::login))
        .route("/ui/logout", post(login::logout))
        .route("/ui/assets/style.css", get(style))
        .route("/ui/assets/app.js", get(script))
        .route("/ui/jobs", get(pages::jobs))
        .route("/ui/jobs/{job}", get(pages::job))
        .route("/ui/jobs/{job}/cancel", post(pages::cancel_job))
        .route("/ui/models/{model}", get(pages::model))
        .route("/ui/models/{model}/promote", post(pages::promote))
        .route("/ui/models/{model}/examples", get(pages::examples))
        .route("/ui/models/{model}/example", get(pages::example))
        .route("/ui/models/{model}/annotate", get(annotate::page))
        .route("/ui/models/{model}/annotate/answer", post(annotate::answer))
        .route("/ui/models/{model}/annotate/skip", post(annotate::skip))
        .route("/ui/models/{model}/annotate/undo", post(annotate::undo))
        .route(
            "/ui/{*rest}",
            get(|| async { UiError(Error::NotFound("no page here".into())) }),
        )
        .layer(axum::middleware::from_fn(session::mark_authenticated))
        .layer(axum::middleware::from_fn(secure_headers))
}

/// The headers of every response of the app: its policy, and no caching, sniffing,
/// framing or referrer.
async fn secure_headers(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CONTENT_SECURITY_POLICY, crate::ui::app::POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
    headers.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    response
}

async fn style() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        crate::ui::document::STYLE,
    )
}

async fn script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        crate::ui::app::SCRIPT,
    )
}

/// An error on its way to becoming a page: its status, its title and what went wrong;
/// a session that ended leads to the login page.
#[derive(Debug)]
pub(crate) struct UiError(pub(crate) Error);

impl From<Error> for UiError {
    fn from(error: Error) -> Self {
        Self(error)
    }
}

impl From<super::error::ApiError> for UiError {
    fn from(error: super::error::ApiError) -> Self {
        Self(error.0)
    }
}

impl From<crate::wire::Invalid> for UiError {
    fn from(invalid: crate::wire::Invalid) -> Self {
        Self(invalid.into())
    }
}

impl IntoResponse for UiError {
    fn into_response(self) -> Response {
        let info = super::request::current();
        let problem = self.0.to_problem(&info.problems_url, &info.id);
        let status =
            StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        if let Error::Internal { detail, .. } = &self.0 {
            tracing::error!(%detail, "internal error");
        }
        let detail = located(&problem.detail, &problem.details);
        let mut response = (
            status,
            Html(crate::ui::app::error(
                problem.status,
                &problem.title,
                &detail,
            )),
        )
            .into_response();
        if let Error::RateLimited {
            retry_after_secs, ..
        }
        | Error::Overloaded { retry_after_secs } = &self.0
        {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
        }
        response
    }
}

impl UiError {
    /// What went wrong, with each field located, as one line (as its page says it).
    pub(crate) fn detail(&self) -> String {
        located(&self.0.to_string(), self.0.details())
    }
}

/// `detail`, then each of `fields` with its location: `…; body.answer: not an option`.
fn located(detail: &str, fields: &[crate::wire::validate::FieldError]) -> String {
    let mut line = detail.to_owned();
    for field in fields {
        let _ = write!(line, "; {}: {}", field.loc, field.msg);
    }
    line
}

pub(crate) type UiResult<T> = Result<T, UiError>;

/// A redirect after a form post: the browser asks for `to` with a GET.
pub(crate) fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}
