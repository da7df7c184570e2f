//! Reading the remote: fetching into a mirror, cloning a model that is not local yet,
//! listing a model's refs, and making sure the remote may receive a new model.

use std::path::Path;
use std::sync::PoisonError;
use std::time::Instant;

use git2::{AutotagOption, Direction, FetchOptions, FetchPrune, Oid, Repository};

use super::{
    Fetched, MIRROR_REFSPECS, MODEL_ID_REF, Remote, callbacks, looks_missing, retry_ref_contention,
};
use crate::config::GitCredentials;
use crate::ids::ModelPath;
use crate::repo::error::RepoError;
use crate::telemetry::metrics::{self, GitOperation, GitResult};

impl Remote {
    /// Before a read: fetch if due. A failure is logged and the mirror answers.
    pub(in crate::repo) fn refresh(&self, repo: &Repository, path: &ModelPath) {
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
    #[tracing::instrument(level = "trace", name = "git.fetch", skip_all, fields(model = %path))]
    pub(in crate::repo) fn fetch(
        &self,
        repo: &Repository,
        path: &ModelPath,
    ) -> Result<Fetched, RepoError> {
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
        fetch_url(
            repo,
            &self.url_for(path),
            refspecs,
            &self.settings.credentials,
        )
        .map_err(|e| self.classify(&format!("fetching {path}"), &e))
    }

    /// Clones `path` from the remote into the bare repository `dir` (which must not
    /// exist, and which `init` creates): every branch and tag, and the model id; also
    /// returns the remote's default branch. `None` when the remote has no arbiter
    /// repository for `path`. The caller holds [`Self::lock_model`].
    #[tracing::instrument(level = "trace", name = "git.clone", skip_all, fields(model = %path))]
    pub(in crate::repo) fn clone_into(
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
    pub(in crate::repo) fn published_model_id(repo: &Repository) -> Option<String> {
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
    pub(in crate::repo) fn prepare_new(&self, path: &ModelPath) -> Result<(), RepoError> {
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
    #[tracing::instrument(level = "trace", name = "git.ls_remote", skip_all, fields(model = %path))]
    pub(in crate::repo) fn list_remote(
        &self,
        path: &ModelPath,
    ) -> Result<Vec<(String, Oid)>, RepoError> {
        list_url(&self.url_for(path), &self.settings.credentials)
            .map_err(|e| self.classify(&format!("listing the refs of {path}"), &e))
    }
}

/// The refs of the repository at `url` (an ls-remote), by full name. Peeled entries
/// (`refs/tags/v1^{}`) are left out.
pub(in crate::repo) fn list_url(
    url: &str,
    credentials: &GitCredentials,
) -> Result<Vec<(String, Oid)>, git2::Error> {
    let mut remote = git2::Remote::create_detached(url)?;
    let connection = remote.connect_auth(Direction::Fetch, Some(callbacks(credentials)), None)?;
    Ok(connection
        .list()?
        .iter()
        .filter(|h| !h.name().ends_with("^{}"))
        .map(|h| (h.name().to_owned(), h.oid()))
        .collect())
}

/// Fetches `refspecs` from the repository at `url` into `repo` (the refs they map that the
/// remote no longer has are pruned; no tag is fetched but by a refspec); the remote's
/// default branch when it says. What every fetch of arbiter's runs: the shared remote's,
/// and a model's upstream's.
pub(in crate::repo) fn fetch_url(
    repo: &Repository,
    url: &str,
    refspecs: &[&str],
    credentials: &GitCredentials,
) -> Result<Option<String>, git2::Error> {
    let mut remote = repo.remote_anonymous(url)?;
    let mut options = FetchOptions::new();
    options
        .remote_callbacks(callbacks(credentials))
        .prune(FetchPrune::On)
        .download_tags(AutotagOption::None);
    let started = Instant::now();
    let fetched =
        retry_ref_contention(|| remote.fetch(refspecs, Some(&mut options), Some("arbiter: fetch")));
    let result = if fetched.is_ok() {
        GitResult::Ok
    } else {
        GitResult::Failed
    };
    metrics::git(GitOperation::Fetch, result, started.elapsed());
    fetched?;
    let head = remote.default_branch().ok().and_then(|b| {
        b.as_str()
            .ok()
            .and_then(|name| name.strip_prefix("refs/heads/"))
            .map(str::to_owned)
    });
    Ok(head)
}
