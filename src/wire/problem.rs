//! Problem documents (RFC 9457, `application/problem+json`); their `details` are the
//! validation pass's located faults ([`FieldError`]).

use super::validate::FieldError;
use serde::{Deserialize, Serialize};

/// A problem document, as served by the server and parsed by the client.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// `{public_url}/problems/<kebab-case-code>`; the server answers it with a page on the problem.
    #[serde(rename = "type")]
    #[schema(format = "uri-reference")]
    pub kind: String,
    /// The reason phrase of the status, e.g. `Unprocessable Content`.
    pub title: String,
    /// The HTTP status.
    #[schema(minimum = 400, maximum = 599)]
    pub status: u16,
    /// What went wrong, for people.
    pub detail: String,
    /// The stable machine-readable code (`snake_case`), e.g. `validation_error`, `model_not_found`.
    #[schema(pattern = "^[a-z][a-z0-9_]*$")]
    pub code: String,
    /// The request's ID, equal to its `x-request-id` response header.
    #[schema(format = Uuid)]
    pub request_id: String,
    /// Each located problem (validation errors); may be empty.
    #[serde(default)]
    pub details: Vec<FieldError>,
}

/// The reason phrase of a status, as RFC 9110 names it.
pub fn status_title(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        _ => "Internal Server Error",
    }
}
