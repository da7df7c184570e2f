//! The closed list of problem codes: each code's wire string, HTTP status, title and the
//! page its `type` URI names. `crate::error`, the problem pages and the `OpenAPI` problem
//! responses are all derived from it, so a code is added here and nowhere else.

use super::problem::status_title;

/// A problem code, as it appears in a problem's `code` (`snake_case`) and, in kebab case,
/// at the end of its `type` URI.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, strum::IntoStaticStr, strum::VariantArray)]
#[strum(serialize_all = "snake_case")]
pub enum ProblemCode {
    ValidationError,
    ModelNotFound,
    RevisionNotFound,
    ExampleNotFound,
    JobNotFound,
    NotFound,
    IdempotencyKeyReused,
    DecisionInProgress,
    AlreadyExists,
    NotFastForward,
    NothingToCommit,
    Conflict,
    StateTooLarge,
    InvalidCheckpoint,
    Unauthorized,
    Forbidden,
    MethodNotAllowed,
    PayloadTooLarge,
    RequestTimeout,
    UnsupportedMediaType,
    RateLimited,
    BadRequest,
    UriTooLong,
    HeadersTooLarge,
    UpstreamFailed,
    Overloaded,
    UpstreamUnavailable,
    RemoteUnavailable,
    StoreUnavailable,
    InsufficientStorage,
    Internal,
}

impl ProblemCode {
    /// The stable `snake_case` code, e.g. `validation_error`.
    pub fn as_str(self) -> &'static str {
        self.into()
    }

    /// The last segment of the problem's `type` URI: the code in kebab case.
    pub fn slug(self) -> String {
        self.as_str().replace('_', "-")
    }

    /// The HTTP status a problem with this code answers with.
    pub fn status(self) -> u16 {
        self.about().0
    }

    /// The problem's `title`: the reason phrase of its status.
    pub fn title(self) -> &'static str {
        status_title(self.status())
    }

    /// What the code means and how to fix it: the text of its problem page.
    pub fn page(self) -> &'static str {
        self.about().1
    }

    /// The code whose slug is `slug`.
    pub fn from_slug(slug: &str) -> Option<Self> {
        <Self as strum::VariantArray>::VARIANTS
            .iter()
            .copied()
            .find(|code| code.slug() == slug)
    }

    /// Status and page text, one row per code.
    #[allow(clippy::too_many_lines)] // one short row per code, kept together as a table
    fn about(self) -> (u16, &'static str) {
        match self {
            Self::ValidationError => (
                422,
                "The request (a path, query, header or body member) or a provider response failed validation. `details` lists each problem with its location (`loc`), a message and a short type.",
            ),
            Self::ModelNotFound => (
                404,
                "No base model of that name, or no repository model this token can see.",
            ),
            Self::RevisionNotFound => (
                404,
                "The branch, tag or commit named by `revision` cannot be read.",
            ),
            Self::ExampleNotFound => (404, "No example with that ID in this model."),
            Self::JobNotFound => (404, "No job with that ID in this model."),
            Self::NotFound => (404, "No such route or resource."),
            Self::IdempotencyKeyReused => (
                409,
                "This Idempotency-Key was used with a different request. Use a new key for a new request.",
            ),
            Self::DecisionInProgress => (
                409,
                "A request with this Idempotency-Key is still running. Retry with the same key after a short delay.",
            ),
            Self::AlreadyExists => (409, "A resource with that name exists."),
            Self::NotFastForward => (
                409,
                "The revision is not ahead of the branch it would move (promote fast-forwards only), or the shared git remote refused the move because another replica or a `git push` moved the ref first. Merge or rebase it, or read the model again and retry.",
            ),
            Self::NothingToCommit => (
                409,
                "The new files are the same as the branch's: a checkpoint is never empty.",
            ),
            Self::Conflict => (409, "The resource changed concurrently. Retry."),
            Self::StateTooLarge => (
                422,
                "The state has more tokens than the base model reads (the limit and the count are in `detail` and at `body.state` in `details`). Send `\"truncate\": true` to read only the first tokens, or a shorter state.",
            ),
            Self::InvalidCheckpoint => (
                422,
                "The model's committed files at that revision do not form a valid model; `details` locates each problem in its file.",
            ),
            Self::Unauthorized => (
                401,
                "Authentication is missing, invalid or revoked. Send `Authorization: Bearer <token>`.",
            ),
            Self::Forbidden => (
                403,
                "The token lacks a required scope or role on this model.",
            ),
            Self::MethodNotAllowed => (405, "The route exists but does not take this method."),
            Self::PayloadTooLarge => (413, "The request body exceeds the server's limit."),
            Self::RequestTimeout => (
                408,
                "The request body stalled longer than the server waits (`server.body_timeout`), or arrived slower than its minimum rate (`server.body_min_rate`). Send it again, faster.",
            ),
            Self::UnsupportedMediaType => (
                415,
                "The body's Content-Type is not one this route accepts (application/json).",
            ),
            Self::RateLimited => (
                429,
                "Too many requests for this token. Wait `Retry-After` seconds.",
            ),
            Self::BadRequest => (
                400,
                "The request is invalid outside schema validation: malformed JSON, or a request head HTTP cannot parse (a control character in a header value, a malformed request line).",
            ),
            Self::UriTooLong => (414, "The request's URI is longer than the server reads."),
            Self::HeadersTooLarge => (
                431,
                "The request's headers are larger than the server reads.",
            ),
            Self::UpstreamFailed => (502, "A remote engine answered with an error."),
            Self::Overloaded => (
                503,
                "The server computes as many decisions at once as it takes and as many wait as it queues (`server.max_concurrent_decisions`, `server.decision_queue`); or the client's address holds as many connections as one address may (`server.max_connections_per_address`), and its next is answered so and closed: send more requests over the connections it holds. Retry after `Retry-After` seconds.",
            ),
            Self::UpstreamUnavailable => (503, "A remote engine could not be reached."),
            Self::RemoteUnavailable => (
                503,
                "The git remote the model repositories are shared through (`ARBITER_REPOS_REMOTE`) could not be reached, or has no repository for this model, so nothing was written. Reads still answer from this server's mirror. Retry once the remote is back.",
            ),
            Self::StoreUnavailable => (
                503,
                "The shared database (`ARBITER_DATABASE_URL`) could not be reached, so nothing was read or written. Retry once it is back; a replica reconnects by itself.",
            ),
            Self::InsufficientStorage => (
                507,
                "The server's storage is full: what the request needed written (a captured decision, examples, annotations) was not written, and nothing of it was left half-written. Retry once an operator has freed space.",
            ),
            Self::Internal => (
                500,
                "The server failed. Retry only when safe; quote the requestId when reporting it.",
            ),
        }
    }
}

impl std::fmt::Display for ProblemCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use strum::VariantArray as _;

    #[test]
    fn every_code_is_snake_case_and_its_slug_finds_it() {
        for &code in ProblemCode::VARIANTS {
            let text = code.as_str();
            assert!(
                text.chars().all(|c| c.is_ascii_lowercase() || c == '_'),
                "{text}"
            );
            assert_eq!(ProblemCode::from_slug(&code.slug()), Some(code));
        }
        assert_eq!(ProblemCode::StoreUnavailable.as_str(), "store_unavailable");
        assert_eq!(ProblemCode::UriTooLong.slug(), "uri-too-long");
        assert_eq!(ProblemCode::PayloadTooLarge.title(), "Content Too Large");
    }
}
