//! The shared git remote: when one is configured, the home's `repos/` directory is a
//! mirror of `<remote>/<owner>/<model>.git`, so several `arbiter serve` replicas (and
//! plain git users) share the model repositories.
//!
//! This module owns the transport side only: fetching into a mirror (throttled to once a
//! second per repository, or at once after [`Remote::mark_stale`]), cloning a model that is
//! not local yet, pushing a ref with a compare-and-swap on its old value, the credentials
//! callback, and the reachability check. Which refs a write moves is `commit.rs`'s business.
//!
//! Failure model: a read whose fetch fails logs a warning and answers from the mirror (the
//! commits it has stay valid: objects are never pruned); a write needs the remote and
//! fails with [`RepoError::RemoteUnavailable`] when it cannot be reached.
//!
//! Models are published under `refs/arbiter/model-id` (a root commit whose message is
//! the model's UUID), since a repository's config does not travel with git: a replica
//! that clones a model reads its id from there.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use git2::{
    AutotagOption, Cred, CredentialType, Direction, ErrorClass, ErrorCode, FetchOptions,
    FetchPrune, Oid, PushOptions, RemoteCallbacks, Repository,
};
use uuid::Uuid;

use super::error::RepoError;
use crate::config::RemoteSettings;
use crate::ids::ModelPath;

/// Where a model's id is published on the remote.
pub(super) const MODEL_ID_REF: &str = "refs/arbiter/model-id";
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

    /// Before a read: fetch if due. A failure is logged and the mirror answers.
    pub(super) fn refresh(&self, repo: &Repository, path: &ModelPath) {
        if !self.take_due(path) {
            return;
        }
        match self.fetch(repo, path) {
            Ok(Fetched::Updated) => {}
            Ok(Fetched::NoRepository) => tracing::warn!(
                model = %path,
                remote = %self.url_for(path),
                "the remote has no repository for this model; reading the local mirror"
            ),
            Err(error) => tracing::warn!(
                model = %path,
                %error,
                "fetching from the remote failed; reading the local mirror"
            ),
        }
    }

    /// Mirrors the remote's branches and tags into `repo` now (refs the remote no longer
    /// has are pruned; objects never are, so a commit once seen stays readable).
    pub(super) fn fetch(&self, repo: &Repository, path: &ModelPath) -> Result<Fetched, RepoError> {
        if let Some(missing) = self.file_remote_missing(path)? {
            return Ok(missing);
        }
        let lock = self.lock_for(path);
        let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        self.fetch_refspecs(repo, path, &MIRROR_REFSPECS)?;
        // Fresh now: the next read need not fetch again within the interval.
        self.fetched
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.clone(), Instant::now());
        Ok(Fetched::Updated)
    }

    /// For a `file://` remote: `Some(NoRepository)` when the model has no repository
    /// there, an error when the base directory itself is gone (the remote is down).
    fn file_remote_missing(&self, path: &ModelPath) -> Result<Option<Fetched>, RepoError> {
        let (Some(base), Some(dir)) = (self.local_base(), self.local_dir_for(path)) else {
            return Ok(None);
        };
        if !base.is_dir() {
            return Err(self.unavailable(format!("{} is not a directory", base.display())));
        }
        Ok((!dir.is_dir()).then_some(Fetched::NoRepository))
    }

    /// Fetches `refspecs`; also returns the remote's default branch when it says.
    fn fetch_refspecs(
        &self,
        repo: &Repository,
        path: &ModelPath,
        refspecs: &[&str],
    ) -> Result<Option<String>, RepoError> {
        let url = self.url_for(path);
        let mut remote = repo
            .remote_anonymous(&url)
            .map_err(|e| RepoError::git(format!("naming the remote of {path}"), &e))?;
        let mut options = FetchOptions::new();
        options
            .remote_callbacks(self.callbacks())
            .prune(FetchPrune::On)
            .download_tags(AutotagOption::None);
        retry_ref_contention(|| remote.fetch(refspecs, Some(&mut options), Some("arbiter: fetch")))
            .map_err(|e| self.classify(&format!("fetching {path}"), &e))?;
        let head = remote.default_branch().ok().and_then(|b| {
            b.as_str()
                .ok()
                .and_then(|name| name.strip_prefix("refs/heads/"))
                .map(str::to_owned)
        });
        Ok(head)
    }

    /// Clones `path` from the remote into the bare repository `dir` (which must not
    /// exist, and which `init` creates): every branch and tag, and the model id; also
    /// returns the remote's default branch. `None` when the remote has no arbiter
    /// repository for `path`. The caller holds [`Self::lock_model`].
    pub(super) fn clone_into(
        &self,
        path: &ModelPath,
        dir: &Path,
        init: impl FnOnce(&Path) -> Result<Repository, git2::Error>,
    ) -> Result<Option<(Repository, Option<String>)>, RepoError> {
        if self.file_remote_missing(path)?.is_some() {
            return Ok(None);
        }
        let repo =
            init(dir).map_err(|e| RepoError::git(format!("creating a mirror of {path}"), &e))?;
        let model_id_spec = format!("+{MODEL_ID_REF}:{MODEL_ID_REF}");
        let specs = [MIRROR_REFSPECS[0], MIRROR_REFSPECS[1], &model_id_spec];
        let head = match self.fetch_refspecs(&repo, path, &specs) {
            Ok(head) => head,
            Err(RepoError::RemoteUnavailable { reason, .. }) if looks_missing(&reason) => {
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        if repo.find_reference(MODEL_ID_REF).is_err() {
            // A plain git repository, not a model: as if there were none.
            return Ok(None);
        }
        Ok(Some((repo, head)))
    }

    /// The model id published on the remote, as fetched into `repo` by a clone.
    pub(super) fn published_model_id(repo: &Repository) -> Option<String> {
        let commit = repo
            .find_reference(MODEL_ID_REF)
            .ok()?
            .peel_to_commit()
            .ok()?;
        let id = commit.message().ok()?.trim().to_owned();
        (!id.is_empty()).then_some(id)
    }

    /// Makes sure the remote may receive a new model `path`: for a `file://` remote its
    /// bare repository is created when missing (an empty one); an ssh or https remote
    /// must already have it (empty). A repository that already holds branches is
    /// `AlreadyExists`.
    pub(super) fn prepare_new(&self, path: &ModelPath) -> Result<(), RepoError> {
        if let (Some(base), Some(dir)) = (self.local_base(), self.local_dir_for(path)) {
            if !base.is_dir() {
                return Err(self.unavailable(format!("{} is not a directory", base.display())));
            }
            if !dir.exists() {
                std::fs::create_dir_all(dir.parent().unwrap_or(&base)).map_err(|e| {
                    RepoError::io(
                        format!("creating the owner directory of {path} on the remote"),
                        &e,
                    )
                })?;
                let mut opts = git2::RepositoryInitOptions::new();
                opts.bare(true)
                    .mkpath(false)
                    .external_template(false)
                    .initial_head("main");
                // Two replicas creating the same model may both get here; initialising an
                // existing repository again is harmless, and the model-id push decides.
                Repository::init_opts(&dir, &opts).map_err(|e| {
                    RepoError::git(format!("creating the remote repository of {path}"), &e)
                })?;
            }
        }
        let heads = self.list_remote(path).map_err(|e| match e {
            RepoError::RemoteUnavailable { reason, .. } if self.local_base().is_none() => self
                .unavailable(format!(
                    "{reason}; on an ssh or https remote, create an empty bare repository at {} \
                     first",
                    self.url_for(path)
                )),
            other => other,
        })?;
        if heads
            .iter()
            .any(|(name, _)| name.starts_with("refs/heads/") || name == MODEL_ID_REF)
        {
            return Err(RepoError::AlreadyExists(path.to_string()));
        }
        Ok(())
    }

    /// The remote's refs for `path` (an ls-remote), by full name.
    pub(super) fn list_remote(&self, path: &ModelPath) -> Result<Vec<(String, Oid)>, RepoError> {
        let mut remote = git2::Remote::create_detached(self.url_for(path))
            .map_err(|e| RepoError::git(format!("naming the remote of {path}"), &e))?;
        let connection = remote
            .connect_auth(Direction::Fetch, Some(self.callbacks()), None)
            .map_err(|e| self.classify(&format!("connecting for {path}"), &e))?;
        let heads = connection
            .list()
            .map_err(|e| self.classify(&format!("listing the refs of {path}"), &e))?;
        Ok(heads
            .iter()
            .map(|h| (h.name().to_owned(), h.oid()))
            .collect())
    }

    /// Moves `refname` on the remote from `expected` (None: it must not exist) to `new`,
    /// a compare-and-swap, and then in the mirror `repo` (with `log`). The objects travel
    /// under a scratch ref of their own, so a concurrent fetch into the mirror cannot
    /// change what is pushed; the mirror's move is made under the lock fetches take, since
    /// libgit2 fails at once, without waiting, on a ref another writer has locked.
    pub(super) fn push_ref(
        &self,
        repo: &Repository,
        path: &ModelPath,
        refname: &str,
        expected: Option<Oid>,
        new: Oid,
        log: &str,
    ) -> Result<Result<(), Rejected>, RepoError> {
        let lock = self.lock_for(path);
        let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let scratch = ScratchRef::create(repo, path, new)?;
        let outcome = if let Some(remote_dir) = self.local_dir_for(path) {
            self.push_file(
                repo,
                path,
                &scratch.name,
                &remote_dir,
                refname,
                expected,
                new,
            )
        } else {
            self.push_smart(repo, path, &scratch.name, refname, expected)
        };
        drop(scratch);
        if matches!(outcome, Ok(Ok(()))) {
            let moved = match expected {
                Some(old) => repo.reference_matching(refname, new, true, old, log),
                None => repo.reference(refname, new, false, log),
            };
            // Another process on this home may have moved it (to this value, or a newer
            // one): then the next read fetches again.
            if moved.is_err() && repo.refname_to_id(refname).ok() != Some(new) {
                self.mark_stale(path);
            }
        }
        outcome
    }

    /// `file://`: libgit2's local transport writes the remote ref without checking its
    /// old value, so the objects go under a scratch ref and the move itself is made in
    /// the remote repository with libgit2's own compare-and-swap (under the ref's lock
    /// file): no window at all.
    #[allow(clippy::too_many_arguments)]
    fn push_file(
        &self,
        repo: &Repository,
        path: &ModelPath,
        scratch: &str,
        remote_dir: &Path,
        refname: &str,
        expected: Option<Oid>,
        new: Oid,
    ) -> Result<Result<(), Rejected>, RepoError> {
        if !remote_dir.is_dir() {
            return Err(self.unavailable(format!(
                "there is no repository for {path} at {}",
                remote_dir.display()
            )));
        }
        self.push_refspec(repo, path, &format!("{scratch}:{scratch}"))?
            .map_err(|reason| self.unavailable(format!("pushing {path}: {reason}")))?;
        let remote = Repository::open_bare(remote_dir)
            .map_err(|e| self.classify(&format!("opening the remote repository of {path}"), &e))?;
        let result = match expected {
            Some(old) => remote.reference_matching(refname, new, true, old, "arbiter: push"),
            None => remote.reference(refname, new, false, "arbiter: push"),
        };
        // The scratch ref on the remote only carried the objects.
        if let Ok(mut r) = remote.find_reference(scratch) {
            let _ = r.delete();
        }
        match result {
            Ok(_) => Ok(Ok(())),
            Err(e)
                if matches!(
                    e.code(),
                    ErrorCode::Modified
                        | ErrorCode::Exists
                        | ErrorCode::Locked
                        | ErrorCode::NotFound
                ) =>
            {
                let actual = remote.find_reference(refname).ok().and_then(|r| r.target());
                Ok(Err(Rejected { actual }))
            }
            Err(e) => Err(RepoError::git(
                format!("moving {refname} of {path} on the remote"),
                &e,
            )),
        }
    }

    /// ssh and https: the remote's current value is read (ls-remote) and compared with
    /// `expected` on the same connection the push then uses, so git-receive-pack checks
    /// the old value it was sent (the one just compared) under its ref lock. Servers that
    /// do not check it leave a small window between the listing and the update in which
    /// another writer's move could be overwritten.
    fn push_smart(
        &self,
        repo: &Repository,
        path: &ModelPath,
        scratch: &str,
        refname: &str,
        expected: Option<Oid>,
    ) -> Result<Result<(), Rejected>, RepoError> {
        let mut remote = repo
            .remote_anonymous(&self.url_for(path))
            .map_err(|e| RepoError::git(format!("naming the remote of {path}"), &e))?;
        let mut connection = remote
            .connect_auth(Direction::Push, Some(self.callbacks()), None)
            .map_err(|e| self.classify(&format!("connecting to push {path}"), &e))?;
        let actual = connection
            .list()
            .map_err(|e| self.classify(&format!("listing the refs of {path}"), &e))?
            .iter()
            .find(|h| h.name() == refname)
            .map(git2::RemoteHead::oid);
        if actual != expected {
            return Ok(Err(Rejected { actual }));
        }
        let refused = RefCell::new(None);
        let mut callbacks = self.callbacks();
        callbacks.push_update_reference(|_, status| {
            *refused.borrow_mut() = status.map(str::to_owned);
            Ok(())
        });
        let mut options = PushOptions::new();
        options.remote_callbacks(callbacks);
        // Forced: the old value was compared above, and a tag move is no fast-forward.
        let spec = format!("+{scratch}:{refname}");
        let pushed = connection
            .remote()
            .push(&[spec.as_str()], Some(&mut options));
        drop(options);
        match (pushed, refused.into_inner()) {
            (Ok(()), None) => Ok(Ok(())),
            (Ok(()), Some(_)) => Ok(Err(Rejected { actual: None })),
            (Err(e), _) if e.code() == ErrorCode::NotFastForward => {
                Ok(Err(Rejected { actual: None }))
            }
            (Err(e), _) => Err(self.classify(&format!("pushing {path}"), &e)),
        }
    }

    /// Pushes one refspec; the inner `Err` is the remote's refusal.
    fn push_refspec(
        &self,
        repo: &Repository,
        path: &ModelPath,
        spec: &str,
    ) -> Result<Result<(), String>, RepoError> {
        let mut remote = repo
            .remote_anonymous(&self.url_for(path))
            .map_err(|e| RepoError::git(format!("naming the remote of {path}"), &e))?;
        let refused = RefCell::new(None);
        let mut callbacks = self.callbacks();
        callbacks.push_update_reference(|_, status| {
            *refused.borrow_mut() = status.map(str::to_owned);
            Ok(())
        });
        let mut options = PushOptions::new();
        options.remote_callbacks(callbacks);
        let pushed = retry_ref_contention(|| remote.push(&[spec], Some(&mut options)));
        drop(options);
        match pushed {
            Ok(()) => Ok(refused.into_inner().map_or(Ok(()), Err)),
            Err(e) => Err(self.classify(&format!("pushing {path}"), &e)),
        }
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

    /// The credentials callback: ssh from `ARBITER_REPOS_SSH_KEY` or the ssh-agent, https
    /// from `ARBITER_REPOS_USERNAME` / `ARBITER_REPOS_PASSWORD`; nothing else is tried.
    fn callbacks(&self) -> RemoteCallbacks<'_> {
        let settings = &self.settings;
        let mut attempts = 0;
        let mut callbacks = RemoteCallbacks::new();
        callbacks.credentials(move |_url, url_user, allowed| {
            attempts += 1;
            if attempts > CREDENTIAL_ATTEMPTS {
                return Err(git2::Error::from_str(
                    "the remote refused the credentials from the environment",
                ));
            }
            let user = url_user.or(settings.username.as_deref()).unwrap_or("git");
            if allowed.contains(CredentialType::SSH_KEY) {
                return match &settings.ssh_key {
                    Some(key) => Cred::ssh_key(user, None, key, None),
                    None => Cred::ssh_key_from_agent(user),
                };
            }
            if allowed.contains(CredentialType::USER_PASS_PLAINTEXT)
                && let (Some(name), Some(password)) = (&settings.username, &settings.password)
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

    /// A transport failure is the remote being unavailable; anything else is a local git
    /// error.
    fn classify(&self, context: &str, e: &git2::Error) -> RepoError {
        let transport = matches!(
            e.class(),
            ErrorClass::Net
                | ErrorClass::Ssh
                | ErrorClass::Http
                | ErrorClass::Ssl
                | ErrorClass::Os
                | ErrorClass::Callback
                | ErrorClass::Repository
        ) || e.code() == ErrorCode::Auth
            || e.code() == ErrorCode::Certificate;
        if transport {
            self.unavailable(format!("{context}: {}", e.message()))
        } else {
            RepoError::git(context, e)
        }
    }
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
fn looks_missing(reason: &str) -> bool {
    let reason = reason.to_ascii_lowercase();
    [
        "not found",
        "does not exist",
        "does not appear to be a git repository",
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

/// A local ref pointing at what is being pushed, deleted on drop.
struct ScratchRef<'r> {
    repo: &'r Repository,
    name: String,
}

impl<'r> ScratchRef<'r> {
    fn create(repo: &'r Repository, path: &ModelPath, target: Oid) -> Result<Self, RepoError> {
        let name = format!("{PUSH_REF_PREFIX}{}", Uuid::new_v4());
        repo.reference(&name, target, false, "arbiter: push")
            .map_err(|e| RepoError::git(format!("preparing a push of {path}"), &e))?;
        Ok(Self { repo, name })
    }
}

impl Drop for ScratchRef<'_> {
    fn drop(&mut self) {
        if let Ok(mut r) = self.repo.find_reference(&self.name) {
            let _ = r.delete();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    fn error(code: ErrorCode, class: ErrorClass, message: &str) -> git2::Error {
        git2::Error::new(code, class, message)
    }

    #[test]
    fn only_ref_contention_is_tried_again() {
        // As libgit2 words them (the local transport passes a vanished ref up as -1).
        let vanished = error(
            ErrorCode::GenericError,
            ErrorClass::Reference,
            "reference 'refs/arbiter-push/1' not found",
        );
        let locked = error(
            ErrorCode::Locked,
            ErrorClass::Os,
            "failed to lock file '/r/refs/heads/main.lock' for writing: ",
        );
        let created = error(
            ErrorCode::GenericError,
            ErrorClass::Os,
            "failed to create locked file '/r/refs/heads/main.lock': File exists",
        );
        for contention in [&vanished, &locked, &created] {
            assert!(is_ref_contention(contention), "{contention}");
        }
        let unreachable = error(
            ErrorCode::GenericError,
            ErrorClass::Net,
            "connection refused",
        );
        let missing = error(ErrorCode::NotFound, ErrorClass::Reference, "no such remote");
        for other in [&unreachable, &missing] {
            assert!(!is_ref_contention(other), "{other}");
        }

        // A contention that clears is retried until it does; anything else is returned at once.
        let calls = Cell::new(0);
        let outcome = retry_ref_contention(|| {
            calls.set(calls.get() + 1);
            if calls.get() < 3 {
                Err(error(
                    ErrorCode::Locked,
                    ErrorClass::Os,
                    "failed to lock file 'x'",
                ))
            } else {
                Ok(())
            }
        });
        assert!(outcome.is_ok());
        assert_eq!(calls.get(), 3);
        calls.set(0);
        let outcome = retry_ref_contention(|| {
            calls.set(calls.get() + 1);
            Err(error(ErrorCode::GenericError, ErrorClass::Net, "down"))
        });
        assert!(outcome.is_err());
        assert_eq!(calls.get(), 1);
    }
}
