//! `ModelRepo`: an open handle on one model's bare repository, with its
//! identity (path, model id) and the ref-level queries (default branch,
//! branches, tags, creation time).

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use git2::{ConfigLevel, ErrorCode, Oid, Reference, Repository};

use super::error::RepoError;
use super::ref_name;
use super::remote::Remote;
use crate::ids::{ModelId, ModelPath};

/// Config key holding the model id; its presence marks an arbiter repository.
pub(super) const MODEL_ID_KEY: &str = "arbiter.modelid";

/// An open model repository. `Send` (so it can move between threads) but
/// not `Sync`: open one handle per thread.
pub struct ModelRepo {
    pub(super) path: ModelPath,
    pub(super) model_id: ModelId,
    pub(super) repo: Repository,
    /// The shared remote this repository mirrors, if one is configured.
    pub(super) remote: Option<Arc<Remote>>,
}

impl fmt::Debug for ModelRepo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelRepo")
            .field("path", &self.path)
            .field("model_id", &self.model_id)
            .finish_non_exhaustive()
    }
}

impl ModelRepo {
    /// Opens the bare repository at `dir` and reads its model id.
    pub(super) fn open_dir(path: ModelPath, dir: &Path) -> Result<Self, RepoError> {
        let context = || format!("opening {path}");
        // `open_bare` never searches parent directories nor reads GIT_DIR.
        let repo = Repository::open_bare(dir).map_err(|e| RepoError::git(context(), &e))?;
        let model_id = read_model_id(&repo).map_err(|message| RepoError::Git {
            context: context(),
            message,
        })?;
        Ok(ModelRepo {
            path,
            model_id,
            repo,
            remote: None,
        })
    }

    /// The handle, mirroring `remote` from now on.
    pub(super) fn with_remote(mut self, remote: Option<Arc<Remote>>) -> Self {
        self.remote = remote;
        self
    }

    /// Before a read of refs: fetch from the remote if due (a failure is logged, and the
    /// mirror answers).
    pub(super) fn refresh(&self) {
        if let Some(remote) = &self.remote {
            remote.refresh(&self.repo, &self.path);
        }
    }

    /// Before a write: fetch from the remote now, so the change is made on what the
    /// remote has. The remote must answer.
    pub(super) fn sync_for_write(&self) -> Result<(), RepoError> {
        let Some(remote) = &self.remote else {
            return Ok(());
        };
        match remote.fetch(&self.repo, &self.path)? {
            super::remote::Fetched::Updated => Ok(()),
            super::remote::Fetched::NoRepository => Err(remote.unavailable(format!(
                "it has no repository for {} (a model made before the remote was configured \
                 is not moved there by itself: push it with `git push --mirror` and \
                 `refs/arbiter/model-id`, a root commit whose message is the model id)",
                self.path
            ))),
        }
    }

    #[must_use]
    pub fn path(&self) -> &ModelPath {
        &self.path
    }

    #[must_use]
    pub fn model_id(&self) -> ModelId {
        self.model_id
    }

    /// Builds a `map_err` adapter for a `git2` failure while doing `action`.
    pub(super) fn git_err(&self, action: &str) -> impl FnOnce(git2::Error) -> RepoError + use<> {
        let context = format!("{action} in {}", self.path);
        move |e| RepoError::git(context, &e)
    }

    /// The branch HEAD points to, e.g. `main`.
    pub fn default_branch(&self) -> Result<String, RepoError> {
        let head = self
            .repo
            .find_reference("HEAD")
            .map_err(self.git_err("reading HEAD"))?;
        head.symbolic_target()
            .ok()
            .flatten()
            .and_then(|t| t.strip_prefix("refs/heads/"))
            .map(str::to_owned)
            .ok_or_else(|| RepoError::Git {
                context: format!("reading HEAD in {}", self.path),
                message: "HEAD does not point to a branch".into(),
            })
    }

    /// Committer time of the root commit reached by following first parents
    /// from the default branch: the moment the model was created.
    pub fn created_at(&self) -> Result<DateTime<Utc>, RepoError> {
        let tip = self.resolve(None)?.commit;
        let mut commit = self.find_commit(&tip)?;
        while let Ok(parent) = commit.parent(0) {
            commit = parent;
        }
        self.commit_time(&commit)
    }

    /// Local branches as `(name, commit)`, sorted by name. Branches whose
    /// name is not UTF-8 or which do not point at a commit are skipped.
    pub fn branches(&self) -> Result<Vec<(String, String)>, RepoError> {
        self.refresh();
        self.refs_under("refs/heads/")
    }

    /// Tags as `(name, commit)` with annotated tags peeled, sorted by name.
    /// Tags of non-commit objects are skipped: they cannot be checkpoints.
    pub fn tags(&self) -> Result<Vec<(String, String)>, RepoError> {
        self.refresh();
        self.refs_under("refs/tags/")
    }

    fn refs_under(&self, prefix: &str) -> Result<Vec<(String, String)>, RepoError> {
        let refs = self
            .repo
            .references()
            .map_err(self.git_err("listing refs"))?;
        let mut out = Vec::new();
        for reference in refs {
            let reference = reference.map_err(self.git_err("listing refs"))?;
            let Some(name) = reference.name().ok().and_then(|n| n.strip_prefix(prefix)) else {
                continue;
            };
            if let Ok(commit) = reference.peel_to_commit() {
                out.push((name.to_owned(), commit.id().to_string()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// The commit currently at `refs/heads/<branch>`, if the branch exists.
    pub(super) fn branch_tip(&self, branch: &str) -> Result<Option<Oid>, RepoError> {
        let Some(reference) = self.find_ref(&format!("refs/heads/{branch}"))? else {
            return Ok(None);
        };
        let commit = reference
            .peel_to_commit()
            .map_err(self.git_err(&format!("reading branch `{branch}`")))?;
        Ok(Some(commit.id()))
    }

    /// A reference by full name; a missing one is `None`, not an error.
    pub(super) fn find_ref(&self, name: &str) -> Result<Option<Reference<'_>>, RepoError> {
        if !ref_name::can_exist(name) {
            return Ok(None);
        }
        match self.repo.find_reference(name) {
            Ok(r) => Ok(Some(r)),
            // A name may also miss because a path component is a file or a
            // directory (`main/x`, `feature` with `feature/a`): not there.
            Err(e)
                if matches!(
                    e.code(),
                    ErrorCode::NotFound | ErrorCode::InvalidSpec | ErrorCode::Directory
                ) =>
            {
                Ok(None)
            }
            Err(e) => Err(self.git_err("looking up a reference")(e)),
        }
    }
}

/// Reads `arbiter.modelid` from the repository's own config file only, so a
/// key in a user's global config can never make a directory look valid.
fn read_model_id(repo: &Repository) -> Result<ModelId, String> {
    let config = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .map_err(|e| e.message().to_owned())?;
    let raw = config
        .get_string(MODEL_ID_KEY)
        .map_err(|_| format!("not an arbiter repository: `{MODEL_ID_KEY}` is not set"))?;
    raw.trim().parse().map_err(|e: crate::ids::InvalidId| {
        format!("invalid `{MODEL_ID_KEY}` {raw:?}: {}", e.reason)
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::setup;
    use super::*;

    #[test]
    fn model_repo_is_send() {
        fn assert_send<T: Send>() {}
        assert_send::<ModelRepo>();
    }

    #[test]
    fn default_branch_is_main() {
        let (_dir, _repos, model) = setup();
        assert_eq!(model.default_branch().unwrap(), "main");
    }

    #[test]
    fn created_at_is_root_commit_time_even_after_more_commits() {
        let (_dir, _repos, model) = setup();
        let root = model.log(None, 1).unwrap().remove(0);
        model
            .commit("main", None, None, Some("q: 2\n"), "second")
            .unwrap();
        assert_eq!(model.created_at().unwrap(), root.created_at);
        let age = Utc::now() - model.created_at().unwrap();
        assert!(age.num_seconds().abs() < 60);
    }

    #[test]
    fn branches_and_tags_are_sorted() {
        let (_dir, _repos, model) = setup();
        let root = model.resolve(None).unwrap().commit;
        for b in ["zeta", "alpha", "feature/x"] {
            model
                .commit(b, None, None, Some(&format!("q: {b}\n")), b)
                .unwrap();
        }
        let names: Vec<_> = model.branches().unwrap().into_iter().map(|b| b.0).collect();
        assert_eq!(names, ["alpha", "feature/x", "main", "zeta"]);
        model.tag("v2", "zeta").unwrap();
        model.tag("v1", "main").unwrap();
        let tags = model.tags().unwrap();
        assert_eq!(tags[0], ("v1".to_owned(), root));
        assert_eq!(tags[1].0, "v2");
    }

    #[test]
    fn open_rejects_a_repo_without_model_id() {
        let dir = tempfile::TempDir::new().unwrap();
        let git_dir = dir.path().join("acme/plain.git");
        Repository::init_bare(&git_dir).unwrap();
        let path = ModelPath::parse("acme/plain").unwrap();
        let err = ModelRepo::open_dir(path, &git_dir).unwrap_err();
        assert!(
            err.to_string().contains("not an arbiter repository"),
            "{err}"
        );
    }
}
