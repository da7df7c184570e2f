//! The crate's one error type. Each variant maps to one [`ProblemCode`], which carries its
//! HTTP status, wire code and title, and the status to one [`ErrorKind`] and so to a CLI exit
//! code: the mapping is written once here and never re-chosen by a caller.

use crate::repo::RepoError;
use crate::store::StoreError;
use crate::wire::ProblemCode;
use crate::wire::problem::Problem;
use crate::wire::validate::FieldError;

/// Result with the crate [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Broad families of failure; each maps to one exit code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    NotFound,
    Invalid,
    Conflict,
    Unauthorized,
    Upstream,
    Internal,
}

/// Every failure an operation can report.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The request failed validation; each problem carries its location.
    #[error("{}", validation_summary(.0))]
    Validation(Vec<FieldError>),
    #[error("model `{0}` not found")]
    ModelNotFound(String),
    /// A model name that is neither a base model nor a repository path, close to a base
    /// model's name (a typo): `model_not_found`, with the name it probably meant.
    #[error("model `{model}` not found; did you mean `{suggestion}`?")]
    ModelMisspelled { model: String, suggestion: String },
    /// A base model's name where a repository model is needed (its examples, jobs,
    /// checkpoints): `model_not_found`, saying what it is and how to make one of it.
    #[error(
        "`{0}` is a base model, not a repository model <owner>/<model>: it has no \
         examples, jobs or checkpoints (make one with: arbiter models create <owner>/<model> --base {0})"
    )]
    BaseModelNamed(String),
    #[error("revision `{revision}` of {model} not found: {reason}")]
    RevisionNotFound {
        model: String,
        revision: String,
        reason: String,
    },
    #[error("example `{0}` not found")]
    ExampleNotFound(String),
    #[error("job `{0}` not found")]
    JobNotFound(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// A conflict with current state; `code` says which (each answers 409).
    #[error("{detail}")]
    Conflict { code: ConflictCode, detail: String },
    #[error("{0}")]
    Unauthorized(String),
    #[error("{0}")]
    Forbidden(String),
    /// `limit` says which: the token's requests, or failed authentications from an address.
    #[error("{limit} exceeded; retry in {retry_after_secs} s")]
    RateLimited {
        limit: &'static str,
        retry_after_secs: u64,
    },
    #[error("request body exceeds the limit of {limit} bytes")]
    PayloadTooLarge { limit: usize },
    /// A request body that stalled, or arrived slower than the server's minimum rate.
    #[error("{0}")]
    RequestTimeout(String),
    #[error("{0}")]
    UnsupportedMediaType(String),
    #[error("upstream failed: {0}")]
    UpstreamFailed(String),
    #[error("upstream unavailable: {0}")]
    UpstreamUnavailable(String),
    /// The git remote the model repositories are shared through cannot be reached for a
    /// write (reads fall back to the local mirror).
    #[error("{0}")]
    RemoteUnavailable(String),
    /// The shared database (PostgreSQL) cannot be reached.
    #[error("{0}")]
    StoreUnavailable(String),
    /// Every decision slot is busy and the queue for them is full.
    #[error(
        "the server is computing as many decisions as it takes and its queue is full; retry \
         in {retry_after_secs} s"
    )]
    Overloaded { retry_after_secs: u64 },
    /// A remote engine answered, but its response failed validation. Each detail is located
    /// in the provider's response (root segment `provider_response`), not in the request.
    #[error("engine `{engine}` gave an invalid response: {}", provider_summary(.details))]
    ProviderResponse {
        engine: String,
        details: Vec<FieldError>,
    },
    /// A checkpoint whose committed files do not form a valid model.
    #[error("{detail}")]
    InvalidCheckpoint {
        detail: String,
        details: Vec<FieldError>,
    },
    /// A state longer than the base model reads, sent without `truncate`.
    #[error("{detail}")]
    StateTooLarge {
        detail: String,
        details: Vec<FieldError>,
    },
    /// The server's storage is full (or its files at their size limit): what the request
    /// needed written was not written. An operator frees space; the request may be retried.
    #[error("{0}")]
    InsufficientStorage(String),
    /// A fault of ours (storage, git, engine): never caused by the request. `detail` says
    /// what failed; `source`, when there is one, is the error that failed it, kept for the
    /// log (`Error::source` walks to it).
    #[error("{detail}")]
    Internal {
        detail: String,
        #[source]
        source: Option<Box<dyn std::error::Error + Send + Sync>>,
    },
    /// What a shared `arbiter serve` answered in client mode: its problem document, kept
    /// whole, so the code, status, located details and request ID reach the user exactly as
    /// the server said them (the server's `detail` is the `Display` of the same error run
    /// locally).
    #[error("{}", .0.detail)]
    Remote(Box<Problem>),
}

/// The problem codes of a conflict with current state: the ones that answer 409.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConflictCode {
    IdempotencyKeyReused,
    DecisionInProgress,
    AlreadyExists,
    NotFastForward,
    NothingToCommit,
    Conflict,
}

impl From<ConflictCode> for ProblemCode {
    fn from(code: ConflictCode) -> Self {
        match code {
            ConflictCode::IdempotencyKeyReused => Self::IdempotencyKeyReused,
            ConflictCode::DecisionInProgress => Self::DecisionInProgress,
            ConflictCode::AlreadyExists => Self::AlreadyExists,
            ConflictCode::NotFastForward => Self::NotFastForward,
            ConflictCode::NothingToCommit => Self::NothingToCommit,
            ConflictCode::Conflict => Self::Conflict,
        }
    }
}

impl ErrorKind {
    /// The family of a problem with `status`: every [`ProblemCode`] of a status is of the
    /// same family, so a remote problem, whose code may be unknown here, maps as a local one.
    fn of_status(status: u16) -> Self {
        match status {
            404 => Self::NotFound,
            401 | 403 => Self::Unauthorized,
            409 => Self::Conflict,
            502..=504 => Self::Upstream,
            500..=599 => Self::Internal,
            _ => Self::Invalid,
        }
    }
}

fn validation_summary(details: &[FieldError]) -> String {
    match details {
        [] => "invalid request".to_owned(),
        [one] => format!("invalid request: {one}"),
        many => format!("invalid request: {} problems", many.len()),
    }
}

fn provider_summary(details: &[FieldError]) -> String {
    match details {
        [] => "unreadable".to_owned(),
        [one] => one.to_string(),
        [first, rest @ ..] => format!("{first} (and {} more)", rest.len()),
    }
}

impl Error {
    /// The error with `suffix` added to its detail: how a retried call that gave up says
    /// why. Only the errors of calls to another service (an engine, an arbiter server)
    /// take it; others are returned as they are.
    pub(crate) fn with_detail_suffix(self, suffix: &str) -> Self {
        match self {
            Self::UpstreamFailed(detail) => Self::UpstreamFailed(detail + suffix),
            Self::UpstreamUnavailable(detail) => Self::UpstreamUnavailable(detail + suffix),
            Self::Remote(mut problem) => {
                problem.detail.push_str(suffix);
                Self::Remote(problem)
            }
            other => other,
        }
    }

    /// The error with how many attempts were made, when there was more than one.
    pub(crate) fn after_attempts(self, attempts: u32) -> Self {
        if attempts == 1 {
            return self;
        }
        self.with_detail_suffix(&format!(" (after {attempts} attempts)"))
    }

    /// The problem document for this error; `problems_url` is `{public_url}/problems`.
    /// A remote error is its own problem document, as the server sent it.
    pub fn to_problem(&self, problems_url: &str, request_id: &str) -> Problem {
        let code = match self.code_or_remote() {
            Ok(code) => code,
            Err(remote) => return remote.clone(),
        };
        Problem {
            kind: format!("{problems_url}/{}", code.slug()),
            title: code.title().to_owned(),
            status: code.status(),
            detail: self.to_string(),
            code: code.as_str().to_owned(),
            request_id: request_id.to_owned(),
            details: self.details().to_vec(),
        }
    }

    /// One validation problem at `loc`.
    pub fn invalid(
        loc: crate::wire::validate::Loc,
        msg: impl Into<String>,
        kind: &'static str,
    ) -> Self {
        Self::Validation(vec![FieldError::new(loc, msg, kind)])
    }

    /// `context` failed because of `source`, which is kept.
    pub fn internal(
        context: &str,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> Self {
        let source = source.into();
        Self::Internal {
            detail: format!("{context}: {source}"),
            source: Some(source),
        }
    }

    /// A fault of ours with no error under it: a broken invariant, a worker that died.
    pub fn bug(detail: impl Into<String>) -> Self {
        Self::Internal {
            detail: detail.into(),
            source: None,
        }
    }

    /// `error`, itself the fault's source, said as it says itself.
    fn internal_from(error: impl std::error::Error + Send + Sync + 'static) -> Self {
        Self::Internal {
            detail: error.to_string(),
            source: Some(Box::new(error)),
        }
    }

    /// The problem code of a local error, or the problem document a server sent (client
    /// mode), whose code may be one this build does not know.
    fn code_or_remote(&self) -> Result<ProblemCode, &Problem> {
        Ok(match self {
            Self::Validation(_) | Self::ProviderResponse { .. } => ProblemCode::ValidationError,
            Self::InvalidCheckpoint { .. } => ProblemCode::InvalidCheckpoint,
            Self::StateTooLarge { .. } => ProblemCode::StateTooLarge,
            Self::ModelNotFound(_) | Self::ModelMisspelled { .. } | Self::BaseModelNamed(_) => {
                ProblemCode::ModelNotFound
            }
            Self::RevisionNotFound { .. } => ProblemCode::RevisionNotFound,
            Self::ExampleNotFound(_) => ProblemCode::ExampleNotFound,
            Self::JobNotFound(_) => ProblemCode::JobNotFound,
            Self::NotFound(_) => ProblemCode::NotFound,
            Self::BadRequest(_) => ProblemCode::BadRequest,
            Self::Conflict { code, .. } => (*code).into(),
            Self::Unauthorized(_) => ProblemCode::Unauthorized,
            Self::Forbidden(_) => ProblemCode::Forbidden,
            Self::RateLimited { .. } => ProblemCode::RateLimited,
            Self::PayloadTooLarge { .. } => ProblemCode::PayloadTooLarge,
            Self::RequestTimeout(_) => ProblemCode::RequestTimeout,
            Self::UnsupportedMediaType(_) => ProblemCode::UnsupportedMediaType,
            Self::UpstreamFailed(_) => ProblemCode::UpstreamFailed,
            Self::UpstreamUnavailable(_) => ProblemCode::UpstreamUnavailable,
            Self::RemoteUnavailable(_) => ProblemCode::RemoteUnavailable,
            Self::StoreUnavailable(_) => ProblemCode::StoreUnavailable,
            Self::Overloaded { .. } => ProblemCode::Overloaded,
            Self::InsufficientStorage(_) => ProblemCode::InsufficientStorage,
            Self::Internal { .. } => ProblemCode::Internal,
            Self::Remote(problem) => return Err(problem),
        })
    }

    /// The family of this error, from its status.
    pub fn kind(&self) -> ErrorKind {
        match self {
            // Reported as a validation error (422), but the fault is the provider's.
            Self::ProviderResponse { .. } => ErrorKind::Upstream,
            _ => ErrorKind::of_status(self.status()),
        }
    }

    /// The stable, `snake_case` problem code.
    pub fn code(&self) -> &str {
        match self.code_or_remote() {
            Ok(code) => code.as_str(),
            Err(remote) => &remote.code,
        }
    }

    /// The HTTP status of this error.
    pub fn status(&self) -> u16 {
        match self.code_or_remote() {
            Ok(code) => code.status(),
            Err(remote) => remote.status,
        }
    }

    /// The ID of the server request that failed (client mode), for the user to quote.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Self::Remote(problem) if !problem.request_id.is_empty() => Some(&problem.request_id),
            _ => None,
        }
    }

    /// The CLI exit code: 4 for anything not found, 1 otherwise (2 is clap's usage error,
    /// 3 a failed evaluation gate).
    pub fn exit_code(&self) -> u8 {
        match self.kind() {
            ErrorKind::NotFound => 4,
            _ => 1,
        }
    }

    /// The validation problems, empty for other errors.
    pub fn details(&self) -> &[FieldError] {
        match self {
            Self::Validation(details)
            | Self::InvalidCheckpoint { details, .. }
            | Self::StateTooLarge { details, .. }
            | Self::ProviderResponse { details, .. } => details,
            Self::Remote(problem) => &problem.details,
            _ => &[],
        }
    }

    pub fn idempotency_key_reused() -> Self {
        Self::Conflict {
            code: ConflictCode::IdempotencyKeyReused,
            detail: "this Idempotency-Key was used with a different request".into(),
        }
    }

    pub fn decision_in_progress() -> Self {
        Self::Conflict {
            code: ConflictCode::DecisionInProgress,
            detail: "a request with this Idempotency-Key is still in progress; retry shortly"
                .into(),
        }
    }
}

impl From<crate::config::ConfigError> for Error {
    fn from(error: crate::config::ConfigError) -> Self {
        match error {
            crate::config::ConfigError::Invalid(detail) => Self::BadRequest(detail),
            crate::config::ConfigError::Unreadable { .. } => Self::internal_from(error),
        }
    }
}

impl From<crate::wire::Invalid> for Error {
    fn from(invalid: crate::wire::Invalid) -> Self {
        Self::Validation(invalid.0)
    }
}

/// A model path that is not one: a bad request, as the repository layer refuses it,
/// wherever the path was first read.
impl From<crate::ids::InvalidId> for Error {
    fn from(e: crate::ids::InvalidId) -> Self {
        RepoError::from(e).into()
    }
}

impl From<RepoError> for Error {
    fn from(error: RepoError) -> Self {
        match error {
            RepoError::ModelNotFound(path) => Self::ModelNotFound(path),
            RepoError::RevisionNotFound {
                model,
                revision,
                reason,
            } => Self::RevisionNotFound {
                model,
                revision,
                reason,
            },
            RepoError::AlreadyExists(what) => Self::Conflict {
                code: ConflictCode::AlreadyExists,
                detail: format!("{what} already exists"),
            },
            RepoError::Conflict { .. }
            | RepoError::DefaultBranch { .. }
            | RepoError::NotDeletable { .. }
            | RepoError::OtherModel { .. } => Self::Conflict {
                code: ConflictCode::Conflict,
                detail: error.to_string(),
            },
            RepoError::NothingToCommit => Self::Conflict {
                code: ConflictCode::NothingToCommit,
                detail: error.to_string(),
            },
            RepoError::NotFastForward { .. }
            | RepoError::RemoteRejected { .. }
            | RepoError::Diverged { .. } => Self::Conflict {
                code: ConflictCode::NotFastForward,
                detail: error.to_string(),
            },
            RepoError::RemoteUnavailable { .. } | RepoError::UpstreamUnavailable { .. } => {
                Self::RemoteUnavailable(error.to_string())
            }
            RepoError::UpstreamNotFound { .. } => Self::NotFound(error.to_string()),
            RepoError::NotAModel { .. } => Self::InvalidCheckpoint {
                detail: error.to_string(),
                details: Vec::new(),
            },
            RepoError::InvalidPath { .. }
            | RepoError::InvalidName { .. }
            | RepoError::InvalidUrl { .. }
            | RepoError::NoUpstream { .. }
            | RepoError::NotACheckout { .. } => Self::BadRequest(error.to_string()),
            RepoError::InvalidCheckpoint {
                ref file,
                ref reason,
                ..
            } => {
                let located = FieldError::new(
                    crate::wire::Loc(vec![crate::wire::validate::Segment::Key(file.clone())]),
                    reason.clone(),
                    "unreadable_file",
                );
                Self::InvalidCheckpoint {
                    detail: error.to_string(),
                    details: vec![located],
                }
            }
            RepoError::Git { .. } | RepoError::Io { .. } => Self::internal_from(error),
        }
    }
}

impl From<StoreError> for Error {
    fn from(error: StoreError) -> Self {
        match error {
            StoreError::ExampleNotFound(id) => Self::ExampleNotFound(id),
            StoreError::NotFound(what) => Self::NotFound(what),
            StoreError::Conflict(what) => Self::Conflict {
                code: ConflictCode::AlreadyExists,
                detail: what,
            },
            StoreError::Full { .. } => Self::InsufficientStorage(error.to_string()),
            StoreError::Unavailable { .. } | StoreError::Unwritable { .. } => {
                Self::StoreUnavailable(error.to_string())
            }
            other => Self::internal_from(other),
        }
    }
}

#[cfg(test)]
mod tests;
