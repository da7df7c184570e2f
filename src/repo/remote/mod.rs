//! The shared git remote: when one is configured, the home's `repos/` directory is a
//! mirror of `<remote>/<owner>/<model>.git`, so several `arbiter serve` replicas (and
//! plain git users) share the model repositories.
//!
//! This module owns the transport side only: fetching into a mirror (throttled to once a
//! second per repository, or at once after [`Remote::mark_stale`]), cloning a model that is
//! not local yet, pushing a ref with a compare-and-swap on its old value, the credentials
//! callback, and the reachability check. Which refs a write moves is `commit.rs`'s business.
//! The fetch, push and listing of a URL, and the credentials callback, serve a model's
//! upstream too ([`super::travel`]): one transport for every git remote.
//!
//! Failure model: a read whose fetch fails logs a warning and answers from the mirror (the
//! commits it has stay valid: objects are never pruned); a write needs the remote and
//! fails with [`RepoError::RemoteUnavailable`] when it cannot be reached.
//!
//! Models are published under `refs/arbiter/model-id` (a root commit whose message is
//! the model's UUID), since a repository's config does not travel with git: a replica
//! that clones a model reads its id from there.

mod fetch;
mod push;

pub(in crate::repo) use fetch::{fetch_url, list_url};
pub(in crate::repo) use push::push_url;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use git2::{Cred, CredentialType, ErrorClass, ErrorCode, Oid, RemoteCallbacks};

use super::error::RepoError;
use crate::config::{GitCredentials, RemoteSettings};
use crate::ids::ModelPath;

/// Where a model's id is published on the remote.
pub(in crate::repo) const MODEL_ID_REF: &str = "refs/arbiter/model-id";
/// Local scratch refs a push is made from (never fetched, never listed).
const PUSH_REF_PREFIX: &str = "refs/arbiter-push/";
/// What a fetch mirrors: every branch and tag, forced, since the remote is the truth.
const MIRROR_REFSPECS: [&str; 2] = ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"];
/// A repository is fetched at most this often, unless marked stale.
pub(super) const FETCH_INTERVAL: Duration = Duration::from_secs(1);
/// How many times one operation answers the credentials callback before giving up
/// (libgit2 asks again after each refusal).
const CREDENTIAL_ATTEMPTS: u32 = 3;

/// The remote, shared (in an `Arc`) by `Repos` and every `ModelRepo` it opens, so the
/// throttle is per process.
#[derive(Debug)]
pub(super) struct Remote {
    settings: RemoteSettings,
    /// The last fetch of each repository (attempted, successful or not).
    fetched: Mutex<HashMap<ModelPath, Instant>>,
    /// One fetch or push at a time per repository in this process: two at once would
    /// fight over the same ref lock files.
    locks: Mutex<HashMap<ModelPath, Arc<Mutex<()>>>>,
    /// When a model was last found missing on the remote: asked again at most once per
    /// interval, so requests for unknown models do not each reach the remote.
    absent: Mutex<HashMap<ModelPath, Instant>>,
}

/// Whether the remote answers: what `/healthz` reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RemoteHealth {
    /// No remote is configured: the repositories are the home's own.
    NotConfigured,
    Reachable,
    /// The reason, without secrets.
    Unreachable(String),
    /// Nothing to ask yet: an ssh or https remote has no listing, so it is asked about a
    /// model, and this replica knows none.
    Unknown(String),
}

/// A ref move the remote refused, with the value it holds instead.
pub(super) struct Rejected {
    pub(super) actual: Option<Oid>,
}

/// What a fetch found.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Fetched {
    Updated,
    /// The remote has no repository for this model (known for `file://` remotes only).
    NoRepository,
}

impl Remote {
    pub(super) fn new(settings: RemoteSettings) -> Self {
        Self {
            settings,
            fetched: Mutex::new(HashMap::new()),
            locks: Mutex::new(HashMap::new()),
            absent: Mutex::new(HashMap::new()),
        }
    }

    /// `<base>/<owner>/<model>.git`.
    pub(super) fn url_for(&self, path: &ModelPath) -> String {
        format!("{}/{}/{}.git", self.settings.url, path.owner(), path.name())
    }

    /// For a `file://` remote, the directory of `path`'s repository.
    pub(super) fn local_dir_for(&self, path: &ModelPath) -> Option<PathBuf> {
        self.settings
            .local_dir()
            .map(|base| base.join(path.owner()).join(format!("{}.git", path.name())))
    }

    /// For a `file://` remote, its base directory.
    pub(super) fn local_base(&self) -> Option<PathBuf> {
        self.settings.local_dir()
    }

    pub(super) fn unavailable(&self, reason: impl Into<String>) -> RepoError {
        RepoError::RemoteUnavailable {
            url: self.settings.url.clone(),
            reason: reason.into(),
        }
    }

    /// Makes the next read of `path` fetch at once, whatever the throttle says (what a
    /// change notification from another replica calls).
    pub(super) fn mark_stale(&self, path: &ModelPath) {
        self.fetched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(path);
    }

    /// Whether `path` is due a fetch; if so, it counts as fetched from now on, so that
    /// concurrent readers do not all fetch (and a remote that is down is tried at most
    /// once a second per repository, not on every read).
    pub(super) fn take_due(&self, path: &ModelPath) -> bool {
        let mut fetched = self.fetched.lock().unwrap_or_else(PoisonError::into_inner);
        match fetched.get(path) {
            Some(at) if at.elapsed() < FETCH_INTERVAL => false,
            _ => {
                fetched.insert(path.clone(), Instant::now());
                true
            }
        }
    }

    /// Whether `path` was found missing on the remote within the interval.
    pub(super) fn recently_absent(&self, path: &ModelPath) -> bool {
        self.absent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(path)
            .is_some_and(|at| at.elapsed() < FETCH_INTERVAL)
    }

    pub(super) fn note_absent(&self, path: &ModelPath) {
        self.absent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.clone(), Instant::now());
    }

    /// Holds off fetches and pushes of `path` in this process while the returned guard
    /// lives (a clone holds it).
    pub(super) fn lock_model(&self, path: &ModelPath) -> ModelLock {
        ModelLock(self.lock_for(path))
    }

    fn lock_for(&self, path: &ModelPath) -> Arc<Mutex<()>> {
        self.locks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(path.clone())
            .or_default()
            .clone()
    }

    /// Whether the remote answers: `file://` remotes by their base directory; others by
    /// listing `any_model`'s refs.
    pub(super) fn check(&self, any_model: Option<&ModelPath>) -> RemoteHealth {
        if let Some(base) = self.local_base() {
            return match std::fs::read_dir(&base) {
                Ok(_) => RemoteHealth::Reachable,
                Err(e) => RemoteHealth::Unreachable(format!("{}: {e}", base.display())),
            };
        }
        let Some(path) = any_model else {
            return RemoteHealth::Unknown(
                "no model to ask the remote about yet (ssh and https remotes have no listing)"
                    .to_owned(),
            );
        };
        match self.list_remote(path) {
            Ok(_) => RemoteHealth::Reachable,
            Err(e) => RemoteHealth::Unreachable(e.to_string()),
        }
    }

    /// The credentials callback for this remote ([`callbacks`]).
    fn callbacks(&self) -> RemoteCallbacks<'_> {
        callbacks(&self.settings.credentials)
    }

    /// A transport failure is the remote being unavailable; anything else is a local git
    /// error.
    fn classify(&self, context: &str, e: &git2::Error) -> RepoError {
        if is_transport(e) {
            self.unavailable(format!("{context}: {}", e.message()))
        } else {
            RepoError::git(context, e)
        }
    }
}

/// The credentials callback of every git remote arbiter reaches: ssh from
/// `ARBITER_REPOS_SSH_KEY` or the ssh-agent, https from `ARBITER_REPOS_USERNAME` /
/// `ARBITER_REPOS_PASSWORD`; nothing else is tried.
pub(in crate::repo) fn callbacks(credentials: &GitCredentials) -> RemoteCallbacks<'_> {
    let mut attempts = 0;
    let mut callbacks = RemoteCallbacks::new();
    callbacks.credentials(move |_url, url_user, allowed| {
        attempts += 1;
        if attempts > CREDENTIAL_ATTEMPTS {
            return Err(git2::Error::from_str(
                "the remote refused the credentials from the environment",
            ));
        }
        let user = url_user
            .or(credentials.username.as_deref())
            .unwrap_or("git");
        if allowed.contains(CredentialType::SSH_KEY) {
            return match &credentials.ssh_key {
                Some(key) => Cred::ssh_key(user, None, key, None),
                None => Cred::ssh_key_from_agent(user),
            };
        }
        if allowed.contains(CredentialType::USER_PASS_PLAINTEXT)
            && let (Some(name), Some(password)) = (&credentials.username, &credentials.password)
        {
            return Cred::userpass_plaintext(name, password.expose());
        }
        if allowed.contains(CredentialType::USERNAME) {
            return Cred::username(user);
        }
        Err(git2::Error::from_str(
            "the remote wants credentials: set ARBITER_REPOS_USERNAME and \
             ARBITER_REPOS_PASSWORD (https), or ARBITER_REPOS_SSH_KEY or an ssh-agent (ssh)",
        ))
    });
    callbacks
}

/// Whether `e` is a failure to reach or talk to a remote (the network, the protocol, the
/// credentials, a path that holds no repository), not a fault of the local repository.
pub(in crate::repo) fn is_transport(e: &git2::Error) -> bool {
    matches!(
        e.class(),
        ErrorClass::Net
            | ErrorClass::Ssh
            | ErrorClass::Http
            | ErrorClass::Ssl
            | ErrorClass::Os
            | ErrorClass::Callback
            | ErrorClass::Repository
    ) || e.code() == ErrorCode::Auth
        || e.code() == ErrorCode::Certificate
}

/// Runs a fetch or push again while it fails for a moment's contention on refs, which
/// libgit2 reports at once instead of waiting:
/// - a ref of a `file://` remote vanished while it was listed (the local transport lists
///   refs one lookup at a time, so another writer deleting a branch, or another replica's
///   scratch push ref, in between fails the whole operation; a new listing lacks it);
/// - a ref of the mirror is locked by another process on this home writing it.
///
/// Both operations are idempotent. Up to about a second in all.
fn retry_ref_contention(
    mut op: impl FnMut() -> Result<(), git2::Error>,
) -> Result<(), git2::Error> {
    const ATTEMPTS: u32 = 40;
    let mut attempt = 1;
    loop {
        match op() {
            Err(e) if attempt < ATTEMPTS && is_ref_contention(&e) => {
                attempt += 1;
                std::thread::sleep(Duration::from_millis(25));
            }
            outcome => return outcome,
        }
    }
}

/// See [`retry_ref_contention`]. libgit2 passes these up with a generic code at times, so
/// its words are read too.
fn is_ref_contention(e: &git2::Error) -> bool {
    let vanished = e.class() == ErrorClass::Reference
        && e.message().starts_with("reference '")
        && e.message().ends_with("' not found");
    let locked = e.code() == ErrorCode::Locked
        || e.message().starts_with("failed to lock file")
        || e.message().starts_with("failed to create locked file");
    vanished || locked
}

/// Whether a transport failure reads as "no such repository" rather than "cannot reach
/// the server" (the protocols give no code for it, only the server's words).
pub(in crate::repo) fn looks_missing(reason: &str) -> bool {
    let reason = reason.to_ascii_lowercase();
    [
        "not found",
        "does not exist",
        "does not appear to be a git repository",
        "could not find repository",
        "no such file or directory",
        "404",
    ]
    .iter()
    .any(|words| reason.contains(words))
}

/// Held while a model is cloned: see [`Remote::lock_model`].
pub(super) struct ModelLock(Arc<Mutex<()>>);

impl ModelLock {
    /// Waits for the lock; the guard releases it.
    pub(super) fn hold(&self) -> std::sync::MutexGuard<'_, ()> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests;
