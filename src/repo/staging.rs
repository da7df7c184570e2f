//! How a repository comes to be in the root: built (or cloned) in a staging directory
//! beside its place, published to the shared remote when there is one, and renamed into
//! place, so that nobody ever sees a half-made repository and a concurrent maker of the
//! same path loses with `AlreadyExists`. What `Repos::create`, the mirror of a shared
//! model, and an import share.

use std::fs;
use std::path::{Path, PathBuf};

use git2::{ConfigLevel, Oid, Repository, RepositoryInitOptions};
use uuid::Uuid;

use super::commit::signature;
use super::error::RepoError;
use super::model::MODEL_ID_KEY;
use super::remote::{MODEL_ID_REF, Remote};
use crate::ids::ModelPath;

/// A staging directory, removed on drop unless it was renamed away.
pub(super) struct Staging(pub(super) PathBuf);

impl Staging {
    /// A new staging directory's path for `path` in `root` (not made yet): in the owner's
    /// directory (made here), so the rename is atomic; dot-prefixed and without `.git`, so
    /// no listing picks it up.
    pub(super) fn beside(root: &Path, path: &ModelPath) -> Result<Self, RepoError> {
        let owner_dir = root.join(path.owner());
        fs::create_dir_all(&owner_dir)
            .map_err(|e| RepoError::io(format!("creating the owner directory for {path}"), &e))?;
        Ok(Staging(owner_dir.join(format!(
            ".tmp-{}-{}",
            path.name(),
            Uuid::new_v4()
        ))))
    }

    /// Renames the staging directory to `path`'s place in `root`. A repository there
    /// already (a concurrent maker won the race) is `AlreadyExists`.
    pub(super) fn move_into_place(self, root: &Path, path: &ModelPath) -> Result<(), RepoError> {
        let target = path.git_dir(root);
        if let Err(e) = fs::rename(&self.0, &target) {
            // Renaming onto an existing (non-empty) repository fails: we lost the race.
            if target.symlink_metadata().is_ok() {
                return Err(RepoError::AlreadyExists(path.to_string()));
            }
            return Err(RepoError::io(
                format!("moving the new repository for {path} into place"),
                &e,
            ));
        }
        Ok(())
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        // After a successful rename the path no longer exists: nothing to do.
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// An empty bare repository at `dir` (which must not exist) with HEAD at `main`.
pub(super) fn init_bare(dir: &Path) -> Result<Repository, git2::Error> {
    let mut opts = RepositoryInitOptions::new();
    // Explicit head and no templates: the result never depends on user config.
    opts.bare(true)
        .no_reinit(true)
        .mkpath(false)
        .external_template(false)
        .initial_head("main");
    Repository::init_opts(dir, &opts)
}

/// The commit at `refs/arbiter/model-id` that publishes `repo`'s model id (its message is
/// the id), made when `repo` has none yet. A commit, not a blob: fetch negotiation walks
/// every local ref as a commit.
pub(super) fn model_id_marker(repo: &Repository, path: &ModelPath) -> Result<Oid, RepoError> {
    let context = || format!("publishing the model id of {path}");
    if let Ok(marker) = repo.refname_to_id(MODEL_ID_REF) {
        return Ok(marker);
    }
    let id = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .and_then(|c| c.get_string(MODEL_ID_KEY))
        .map_err(|e| RepoError::git(context(), &e))?;
    let empty = repo
        .treebuilder(None)
        .and_then(|t| t.write())
        .and_then(|t| repo.find_tree(t))
        .map_err(|e| RepoError::git(context(), &e))?;
    let sig = signature().map_err(|e| RepoError::git(context(), &e))?;
    repo.commit(
        Some(MODEL_ID_REF),
        &sig,
        &sig,
        &format!("{id}\n"),
        &empty,
        &[],
    )
    .map_err(|e| RepoError::git(context(), &e))
}

/// Pushes a model made in `repo` (created, or imported) to the shared remote: its id first
/// (whoever publishes it owns the path: a concurrent maker elsewhere loses with
/// `AlreadyExists`), then every branch and tag. A `file://` remote's HEAD is set to the
/// model's default branch; an ssh or https remote's HEAD is its git host's.
pub(super) fn publish(
    remote: &Remote,
    path: &ModelPath,
    repo: &Repository,
) -> Result<(), RepoError> {
    remote.prepare_new(path)?;
    let context = || format!("publishing {path}");
    let marker = model_id_marker(repo, path)?;
    let mut refs = vec![(MODEL_ID_REF.to_owned(), marker)];
    for reference in repo
        .references()
        .map_err(|e| RepoError::git(context(), &e))?
    {
        let reference = reference.map_err(|e| RepoError::git(context(), &e))?;
        let (Ok(name), Some(target)) = (reference.name(), reference.target()) else {
            continue;
        };
        if name.starts_with("refs/heads/") || name.starts_with("refs/tags/") {
            refs.push((name.to_owned(), target));
        }
    }
    refs[1..].sort();
    for (refname, target) in refs {
        if remote
            .push_ref(repo, path, &refname, None, target, "arbiter: publish")?
            .is_err()
        {
            return Err(RepoError::AlreadyExists(path.to_string()));
        }
    }
    if let Some(dir) = remote.local_dir_for(path)
        && let Some(head) = repo
            .find_reference("HEAD")
            .ok()
            .and_then(|h| h.symbolic_target().ok().flatten().map(str::to_owned))
        && head != "refs/heads/main"
    {
        Repository::open_bare(&dir)
            .and_then(|shared| shared.set_head(&head))
            .map_err(|e| RepoError::git(context(), &e))?;
    }
    Ok(())
}
