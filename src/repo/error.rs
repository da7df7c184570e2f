//! The error type of the repository module, plus the internal helpers that
//! turn `git2` and I/O failures into it (so no `git2` type leaks out).

use thiserror::Error;

use crate::ids::InvalidId;

/// Everything that can go wrong while reading or writing model repositories.
#[derive(Debug, Error)]
pub enum RepoError {
    #[error("invalid model path `{path}`: {reason}")]
    InvalidPath { path: String, reason: String },

    #[error("model {0} not found")]
    ModelNotFound(String),

    /// The payload names the thing, e.g. `acme/support` or `tag v1`.
    #[error("{0} already exists")]
    AlreadyExists(String),

    #[error("revision `{revision}` of {model} not found: {reason}")]
    RevisionNotFound {
        model: String,
        revision: String,
        reason: String,
    },

    #[error("checkpoint {commit} of {model} has an invalid `{file}`: {reason}")]
    InvalidCheckpoint {
        model: String,
        commit: String,
        file: String,
        reason: String,
    },

    #[error("invalid name `{name}`: {reason}")]
    InvalidName { name: String, reason: String },

    #[error("branch `{branch}` of {model} was changed concurrently: {reason}")]
    Conflict {
        model: String,
        branch: String,
        reason: String,
    },

    #[error(
        "`{branch}` is the default branch of {model}: it is never deleted (delete another branch, or the model)"
    )]
    DefaultBranch { model: String, branch: String },

    #[error("{model} cannot be deleted here: {reason}")]
    NotDeletable { model: String, reason: String },

    /// A directory named as a model repository's checkout that is not one.
    #[error("{path} is not a model repository: {reason}")]
    NotACheckout { path: String, reason: String },

    #[error("nothing to commit: the files are identical to the parent checkpoint")]
    NothingToCommit,

    #[error("cannot fast-forward branch `{branch}` of {model}: {reason}")]
    NotFastForward {
        model: String,
        branch: String,
        reason: String,
    },

    /// The shared remote refused a ref move: another replica or a `git push` moved the ref
    /// first. The local mirror then holds what the remote has.
    #[error("the remote refused to move {reference} of {model}: {reason}")]
    RemoteRejected {
        model: String,
        reference: String,
        reason: String,
    },

    /// The shared remote could not be reached (or has no repository for a model that a
    /// write needs there). `url` never holds a secret: credentials are not in URLs.
    #[error("the model repositories' remote is unavailable ({url}): {reason}")]
    RemoteUnavailable { url: String, reason: String },

    /// A model's upstream (the git repository `models import`, `push` or `pull` names)
    /// holds no repository there.
    #[error("no git repository at {url}: {reason}")]
    UpstreamNotFound { url: String, reason: String },

    /// A model's upstream cannot be reached, or refused what was asked of it.
    #[error("{url}: {reason}")]
    UpstreamUnavailable { url: String, reason: String },

    #[error("`{url}` is not a git repository's URL or path: {reason}")]
    InvalidUrl { url: String, reason: String },

    /// The repository an import reads has nothing that could be a model.
    #[error("{url} holds no model: {reason}")]
    NotAModel { url: String, reason: String },

    /// The upstream is another model's: its `refs/arbiter/model-id` names another id.
    #[error("{url} holds another model ({theirs}), not {model} ({ours})")]
    OtherModel {
        model: String,
        url: String,
        ours: String,
        theirs: String,
    },

    /// A push or pull refused, nothing moved: a branch would lose commits, or a tag move.
    #[error("{url}: {what}; {advice}")]
    Diverged {
        url: String,
        what: String,
        advice: String,
    },

    /// `models push` or `pull` without a URL, of a model that remembers none.
    #[error(
        "{model} has no upstream to {verb}: name the git repository, as in `arbiter models \
         {verb} {model} URL` (a URL or a path; it is remembered)"
    )]
    NoUpstream { model: String, verb: &'static str },

    #[error("git error while {context}: {message}")]
    Git { context: String, message: String },

    #[error("i/o error while {context}: {message}")]
    Io { context: String, message: String },
}

impl RepoError {
    /// Wraps a `git2` failure; `context` reads as "while <context>".
    pub(super) fn git(context: impl Into<String>, err: &git2::Error) -> Self {
        RepoError::Git {
            context: context.into(),
            message: err.message().to_owned(),
        }
    }

    pub(super) fn io(context: impl Into<String>, err: &std::io::Error) -> Self {
        RepoError::Io {
            context: context.into(),
            message: err.to_string(),
        }
    }
}

impl From<InvalidId> for RepoError {
    /// Only a model path is parsed on the way into a repository.
    fn from(e: InvalidId) -> Self {
        RepoError::InvalidPath {
            path: e.value,
            reason: e.reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_thing() {
        let e = RepoError::RevisionNotFound {
            model: "acme/support".into(),
            revision: "v9".into(),
            reason: "no branch, tag or commit named `v9`".into(),
        };
        assert_eq!(
            e.to_string(),
            "revision `v9` of acme/support not found: no branch, tag or commit named `v9`"
        );
        assert_eq!(
            RepoError::ModelNotFound("acme/x".into()).to_string(),
            "model acme/x not found"
        );
        assert_eq!(
            RepoError::AlreadyExists("tag v1".into()).to_string(),
            "tag v1 already exists"
        );
    }

    #[test]
    fn git_error_keeps_only_the_message() {
        let err = git2::Error::from_str("boom");
        let e = RepoError::git("opening acme/x", &err);
        assert_eq!(e.to_string(), "git error while opening acme/x: boom");
    }
}
