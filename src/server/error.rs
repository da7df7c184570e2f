//! Problem documents: every non-2xx response is `application/problem+json`.

use super::request;
use crate::error::Error;
use crate::wire::{Problem, ProblemCode};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// An error on its way to becoming a problem response.
#[derive(Debug)]
pub(crate) struct ApiError(pub(crate) Error);

impl From<crate::wire::Invalid> for ApiError {
    fn from(invalid: crate::wire::Invalid) -> Self {
        Self(invalid.into())
    }
}

impl From<Error> for ApiError {
    fn from(error: Error) -> Self {
        Self(error)
    }
}

pub(crate) type ApiResult<T> = Result<T, ApiError>;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let info = request::current();
        let problem = self.0.to_problem(&info.problems_url, &info.id);
        problem_response(&problem, &self.0)
    }
}

/// A problem for a code that has no [`Error`] variant (405).
pub(crate) fn status_problem(code: ProblemCode, detail: &str) -> Response {
    let info = request::current();
    let status = StatusCode::from_u16(code.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let problem = Problem {
        kind: format!("{}/{}", info.problems_url, code.slug()),
        title: code.title().to_owned(),
        status: code.status(),
        detail: detail.to_owned(),
        code: code.as_str().to_owned(),
        request_id: info.id,
        details: Vec::new(),
    };
    let mut response = (status, serde_json::to_vec(&problem).unwrap_or_default()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    response
}

fn problem_response(problem: &Problem, error: &Error) -> Response {
    let status = StatusCode::from_u16(problem.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = (status, serde_json::to_vec(problem).unwrap_or_default()).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/problem+json"),
    );
    match error {
        Error::Unauthorized(_) => {
            headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
        }
        Error::RateLimited {
            retry_after_secs, ..
        }
        | Error::Overloaded { retry_after_secs } => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after_secs));
        }
        Error::Internal {
            detail,
            source: Some(source),
        } => tracing::error!(%detail, %source, "internal error"),
        Error::Internal { detail, .. } => tracing::error!(%detail, "internal error"),
        _ => {}
    }
    response
}
