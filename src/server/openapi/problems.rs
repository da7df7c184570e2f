//! The problem responses of the document, built from [`ProblemCode`]: an operation declares
//! each of its error responses as a type made by [`problem_responses!`], naming the codes it
//! answers with and what they mean there. The status, title and example come from the codes,
//! so no code is ever read back out of prose.

use crate::wire::ProblemCode;
use serde_json::json;
use std::collections::BTreeMap;
use utoipa::openapi::content::ContentBuilder;
use utoipa::openapi::response::Response;
use utoipa::openapi::{Ref, RefOr};

/// Types that implement `utoipa::IntoResponses` with one problem response each:
/// `Name = [Code, …] "what the codes mean here";`. The response's status is the first
/// code's (every code of one response answers with the same status), and its example
/// carries the first code.
macro_rules! problem_responses {
    ($($(#[$attr:meta])* $name:ident = [$($code:ident),+ $(,)?] $text:expr;)+) => {$(
        $(#[$attr])*
        pub(crate) struct $name;

        impl utoipa::IntoResponses for $name {
            fn responses() -> std::collections::BTreeMap<
                String,
                utoipa::openapi::RefOr<utoipa::openapi::response::Response>,
            > {
                $crate::server::openapi::problems::responses(
                    &[$($crate::wire::ProblemCode::$code),+],
                    $text,
                )
            }
        }
    )+};
}
pub(crate) use problem_responses;

/// `codes`' problem response, keyed by its status, for a `utoipa::IntoResponses`.
pub(crate) fn responses(codes: &[ProblemCode], text: &str) -> BTreeMap<String, RefOr<Response>> {
    let (status, response) = problem_response(codes, text);
    BTreeMap::from([(status.to_string(), RefOr::T(response))])
}

/// An `application/problem+json` response answering with `codes`, and its status: the
/// description lists the codes in backticks before `text`, the example carries the first.
pub(crate) fn problem_response(codes: &[ProblemCode], text: &str) -> (u16, Response) {
    let first = codes.first().copied().unwrap_or(ProblemCode::Internal);
    let (status, title) = (first.status(), first.title());
    debug_assert!(
        codes.iter().all(|code| code.status() == status),
        "{codes:?} answer with different statuses"
    );
    let listed: Vec<String> = codes.iter().map(|code| format!("`{code}`")).collect();
    let example = json!({
        "type": format!("https://arbiter.example/problems/{}", first.slug()),
        "title": title,
        "status": status,
        "code": first.as_str(),
        "requestId": "0b5e7c1e-4f0b-4c55-9a3e-6a2f1d8c9e10",
        "details": [],
    });
    let content = ContentBuilder::new()
        .schema(Some(RefOr::Ref(Ref::from_schema_name("Problem"))))
        .example(Some(example));
    let mut response = Response::new(format!("{title}: {}: {text}", listed.join(", ")));
    response
        .content
        .insert("application/problem+json".into(), content.build().into());
    (status, response)
}

problem_responses! {
    ModelNotFound = [ModelNotFound]
        "no repository model with this `modelId` visible to this token.";
    RevisionNotFound = [ModelNotFound, RevisionNotFound]
        "no repository model with this `modelId` visible to this token, or the revision \
        cannot be read.";
    ExampleNotFound = [ModelNotFound, ExampleNotFound]
        "no repository model with this `modelId` visible to this token, or no such example \
        in it.";
    JobNotFound = [ModelNotFound, JobNotFound]
        "no repository model with this `modelId` visible to this token, or no job of this \
        collection with this `jobId` under it.";
    AnyJobNotFound = [JobNotFound]
        "no job with this `jobId` on a model visible to this token.";
    JobNotRunnable = [BadRequest] "the body is not valid JSON, or the request cannot be run.";
    JobInvalid = [ValidationError, InvalidCheckpoint]
        "the body or the `Idempotency-Key` is not valid (`details` locates each fault), or \
        the checkpoint's files do not form a valid model.";
    InvalidCheckpoint = [InvalidCheckpoint]
        "the model's files at the default branch do not form a valid model; `details` \
        locates each problem in its file.";
    DiffInvalid = [ValidationError, InvalidCheckpoint]
        "a query parameter is not valid, or a file of either revision cannot be read as a \
        model (not YAML, or past a limit); `details` locates each problem in its file.";
    BadQuery = [ValidationError] "a query parameter is not valid (e.g. `limit=abc`).";
    KeyConflict = [IdempotencyKeyReused, DecisionInProgress]
        "the `Idempotency-Key` was used with another body, or its first request is still \
        being answered (retry with the same key after a short delay).";
    NotJsonBody = [BadRequest] "the body is not valid JSON.";
    LinesNotJson = [BadRequest]
        "an `application/json` body is not valid JSON (it is refused before anything is \
        written).";
    TooLarge = [PayloadTooLarge] "the body exceeds the server's limit.";
    NotJson = [UnsupportedMediaType] "the body is not `application/json`.";
    NotJsonOrLines = [UnsupportedMediaType] "the body is neither JSON nor JSON Lines.";
    UpstreamFailed = [UpstreamFailed] "a remote engine answered with an error.";
}

// The responses every operation shares (see `share`).

pub(super) const INTERNAL: (&[ProblemCode], &str) = (
    &[ProblemCode::Internal],
    "the server failed; quote the `requestId`.",
);
pub(super) const UNAUTHORIZED: (&[ProblemCode], &str) = (
    &[ProblemCode::Unauthorized],
    "authentication is missing, invalid or revoked.",
);
pub(super) const RATE_LIMITED: (&[ProblemCode], &str) = (
    &[ProblemCode::RateLimited],
    "too many requests for this token; retry after `Retry-After`.",
);
pub(super) const HEAD_UNPARSABLE: (&[ProblemCode], &str) = (
    &[ProblemCode::BadRequest],
    "the request's head could not be parsed (a control character in a header value, a \
     malformed request line).",
);
pub(super) const URI_TOO_LONG: (&[ProblemCode], &str) = (
    &[ProblemCode::UriTooLong],
    "the request's URI is longer than the server reads.",
);
pub(super) const HEADERS_TOO_LARGE: (&[ProblemCode], &str) = (
    &[ProblemCode::HeadersTooLarge],
    "the request's head is over 65,536 bytes or 100 headers.",
);
pub(super) const REQUEST_TIMEOUT: (&[ProblemCode], &str) = (
    &[ProblemCode::RequestTimeout],
    "the body stalled longer than `server.body_timeout`, or arrived slower than \
     `server.body_min_rate`.",
);
pub(super) const PARAMETER_INVALID: (&[ProblemCode], &str) = (
    &[ProblemCode::ValidationError],
    "a path or query parameter is invalid, located at `[\"path\", name]` or \
     `[\"query\", name]`; a NUL character in one is `nul_character`.",
);
pub(super) const STORE_UNAVAILABLE: (&[ProblemCode], &str) = (
    &[ProblemCode::StoreUnavailable],
    "the store cannot be read or written (the database is down, or a file of it cannot be \
     written); the detail names which and why. Retry once an operator has fixed it.",
);
