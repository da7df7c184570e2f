//! `Repos`: the directory of all model repositories
//! (`<root>/<owner>/<model>.git`): creating, opening, listing and finding
//! models by id. With a shared remote ([`super::remote`]) the directory is a
//! mirror: a model another replica created is cloned when it is opened (or
//! listed, on a `file://` remote), and a new model is pushed before it exists
//! here.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use git2::{ConfigLevel, Repository};
use uuid::Uuid;

use super::commit::{signature, with_trailing_newline, write_tree};
use super::error::RepoError;
use super::model::{MODEL_ID_KEY, ModelRepo};
use super::read::Files;
use super::remote::{MODEL_ID_REF, Remote, RemoteHealth};
use super::staging::{Staging, init_bare, publish};
use crate::config::{GitCredentials, RemoteSettings};
use crate::ids::{ModelId, ModelPath};

/// Move the repository at `dir` aside (a name no reader opens) and remove it; nothing to
/// do when it is not there.
fn remove_repository(dir: &Path, path: &ModelPath) -> Result<(), RepoError> {
    if !dir.is_dir() {
        return Ok(());
    }
    let aside = dir.with_file_name(format!(".deleted-{}-{}", path.name(), Uuid::new_v4()));
    fs::rename(dir, &aside)
        .map_err(|e| RepoError::io(format!("moving the repository of {path} aside"), &e))?;
    fs::remove_dir_all(&aside)
        .map_err(|e| RepoError::io(format!("removing the repository of {path}"), &e))
}

/// The root directory holding every model's bare repository.
#[derive(Debug, Clone)]
pub struct Repos {
    pub(super) root: PathBuf,
    /// The shared remote the root mirrors, if any.
    pub(super) remote: Option<Arc<Remote>>,
    /// For a model's upstream (`models import`, `push`, `pull`).
    pub(super) credentials: GitCredentials,
}

impl Repos {
    /// Repositories kept in `root` only (a single machine).
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Repos {
            root: root.into(),
            remote: None,
            credentials: GitCredentials::default(),
        }
    }

    /// Repositories shared through `remote`, mirrored in `root`.
    pub fn with_remote(root: impl Into<PathBuf>, remote: RemoteSettings) -> Self {
        Repos {
            root: root.into(),
            remote: Some(Arc::new(Remote::new(remote))),
            credentials: GitCredentials::default(),
        }
    }

    /// These repositories, signing in to a model's upstream with `credentials`.
    #[must_use]
    pub fn with_credentials(mut self, credentials: GitCredentials) -> Self {
        self.credentials = credentials;
        self
    }

    /// Makes the next read of `path` fetch from the remote at once, whatever the
    /// once-a-second throttle says: what a change notification from another replica
    /// calls. Without a remote, nothing to do.
    pub fn mark_stale(&self, path: &ModelPath) {
        if let Some(remote) = &self.remote {
            remote.mark_stale(path);
        }
    }

    /// Whether the shared remote answers (for `/healthz`): a `file://` remote by its base
    /// directory; an ssh or https one by listing the refs of a model this replica has
    /// (`Unknown` when it has none). Blocks for as long as the remote takes.
    pub fn check_remote(&self) -> RemoteHealth {
        let Some(remote) = &self.remote else {
            return RemoteHealth::NotConfigured;
        };
        let any = self
            .list_local()
            .ok()
            .and_then(|models| models.into_iter().next().map(|m| m.path().clone()));
        remote.check(any.as_ref())
    }

    /// Creates a model: a bare repository with branch `main`, a fresh model
    /// id and a first commit holding `files` (and `gates_yaml` as `gates.yaml`, if
    /// given). The repository is built in a
    /// staging directory next to its target and renamed into place, so a
    /// concurrent create of the same path fails with `AlreadyExists` and
    /// nobody ever sees a half-built repository.
    pub fn create(
        &self,
        path: &ModelPath,
        files: &Files,
        gates_yaml: Option<&str>,
        message: &str,
    ) -> Result<ModelRepo, RepoError> {
        let owner_dir = self.root.join(path.owner());
        fs::create_dir_all(&owner_dir)
            .map_err(|e| RepoError::io(format!("creating the owner directory for {path}"), &e))?;
        // Cheap early answer; the rename in `build_and_publish` is the real guard.
        if path.git_dir(&self.root).symlink_metadata().is_ok() {
            return Err(RepoError::AlreadyExists(path.to_string()));
        }
        self.build_and_publish(path, files, gates_yaml, message)
    }

    /// Builds the repository in a staging directory and renames it into
    /// place; losing a race to a concurrent create → `AlreadyExists`.
    fn build_and_publish(
        &self,
        path: &ModelPath,
        files: &Files,
        gates_yaml: Option<&str>,
        message: &str,
    ) -> Result<ModelRepo, RepoError> {
        let staging = Staging::beside(&self.root, path)?;
        let repo = init_model(&staging.0, files, gates_yaml, message)
            .map_err(|e| RepoError::git(format!("creating {path}"), &e))?;
        if let Some(remote) = &self.remote {
            publish(remote, path, &repo)?;
        }
        drop(repo);
        staging.move_into_place(&self.root, path)?;
        self.open_local(path, &path.git_dir(&self.root))
    }

    pub(super) fn open_local(&self, path: &ModelPath, dir: &Path) -> Result<ModelRepo, RepoError> {
        Ok(ModelRepo::open_dir(path.clone(), dir)?.with_remote(self.remote.clone()))
    }

    /// Opens an existing model. With a remote, a model this replica does not
    /// have yet is cloned from it (a model the remote lacks too is looked for
    /// there at most once a second).
    pub fn open(&self, path: &ModelPath) -> Result<ModelRepo, RepoError> {
        let dir = path.git_dir(&self.root);
        if dir.is_dir() {
            return self.open_local(path, &dir);
        }
        match &self.remote {
            Some(remote) => self.clone_model(remote, path),
            None => Err(RepoError::ModelNotFound(path.to_string())),
        }
    }

    /// Whether `path`'s repository can be deleted from here: always without a remote or
    /// with a `file://` one; an ssh or https remote's repository is its git host's to
    /// delete. Asked before anything of the model is deleted.
    pub fn check_deletable(&self, path: &ModelPath) -> Result<(), RepoError> {
        match &self.remote {
            Some(remote) if remote.local_dir_for(path).is_none() => Err(RepoError::NotDeletable {
                model: path.to_string(),
                reason: "its repository is on the shared remote's git host (ssh or https): \
                         delete it there"
                    .into(),
            }),
            _ => Ok(()),
        }
    }

    /// Deletes `path`'s repository: the remote's first (a `file://` remote: then no
    /// replica clones it again), then this root's. Each directory is moved aside within
    /// its parent, then removed, so a reader sees the model whole or not at all.
    pub fn delete(&self, path: &ModelPath) -> Result<(), RepoError> {
        self.check_deletable(path)?;
        if let Some(dir) = self.remote.as_ref().and_then(|r| r.local_dir_for(path)) {
            remove_repository(&dir, path)?;
        }
        remove_repository(&path.git_dir(&self.root), path)
    }

    /// Clones `path` from the remote into the root, through a staging
    /// directory renamed into place (as `create` does).
    fn clone_model(&self, remote: &Remote, path: &ModelPath) -> Result<ModelRepo, RepoError> {
        let target = path.git_dir(&self.root);
        let lock = remote.lock_model(path);
        let _cloning = lock.hold();
        // Another thread may have cloned it while this one waited.
        if target.is_dir() {
            return self.open_local(path, &target);
        }
        if remote.recently_absent(path) {
            return Err(RepoError::ModelNotFound(path.to_string()));
        }
        let staging = Staging::beside(&self.root, path)?;
        let Some((repo, head)) = remote.clone_into(path, &staging.0, init_bare)? else {
            remote.note_absent(path);
            return Err(RepoError::ModelNotFound(path.to_string()));
        };
        let Some(model_id) = Remote::published_model_id(&repo) else {
            remote.note_absent(path);
            return Err(RepoError::ModelNotFound(path.to_string()));
        };
        let context = || format!("mirroring {path}");
        repo.config()
            .and_then(|c| c.open_level(ConfigLevel::Local))
            .and_then(|mut c| c.set_str(MODEL_ID_KEY, &model_id))
            .map_err(|e| RepoError::git(context(), &e))?;
        if let Some(branch) = head {
            repo.set_head(&format!("refs/heads/{branch}"))
                .map_err(|e| RepoError::git(context(), &e))?;
        }
        drop(repo);
        if let Err(e) = fs::rename(&staging.0, &target) {
            // Another process cloned it first: theirs is as good.
            if !target.is_dir() {
                return Err(RepoError::io(
                    format!("moving the mirror of {path} into place"),
                    &e,
                ));
            }
        }
        remote.mark_stale(path);
        self.open_local(path, &target)
    }

    /// All models, sorted by path (owner, then model). Directories that are
    /// not arbiter repositories (bad name, not a repository, no model id)
    /// are skipped. With a `file://` remote, the models other replicas made
    /// there are cloned first; an ssh or https remote has no listing, so a
    /// replica lists the models it has (made, opened by path, or cloned).
    pub fn list(&self) -> Result<Vec<ModelRepo>, RepoError> {
        if let Some(remote) = &self.remote {
            self.mirror_new_models(remote);
        }
        self.list_local()
    }

    /// Clones the models of a `file://` remote this replica does not have yet. A remote
    /// that cannot be read is logged: the mirror still lists what it has.
    fn mirror_new_models(&self, remote: &Remote) {
        let Some(base) = remote.local_base() else {
            return;
        };
        let owners = match subdirs(&base) {
            Ok(owners) => owners,
            Err(error) => {
                tracing::warn!(%error, "listing the remote's models failed; listing the local mirror");
                return;
            }
        };
        for (owner, owner_dir) in owners {
            for (dir_name, dir) in subdirs(&owner_dir).unwrap_or_default() {
                let Some(name) = dir_name.strip_suffix(".git") else {
                    continue;
                };
                let Ok(path) = ModelPath::parse(&format!("{owner}/{name}")) else {
                    continue;
                };
                let published = Repository::open_bare(&dir)
                    .is_ok_and(|r| r.find_reference(MODEL_ID_REF).is_ok());
                if !published || path.git_dir(&self.root).is_dir() {
                    continue;
                }
                if let Err(error) = self.open(&path) {
                    tracing::warn!(%error, model = %path, "mirroring a model of the remote failed");
                }
            }
        }
    }

    /// The models in the root, as [`Self::list`] without asking the remote.
    fn list_local(&self) -> Result<Vec<ModelRepo>, RepoError> {
        let mut models = Vec::new();
        for (owner, owner_dir) in subdirs(&self.root)? {
            for (dir_name, dir) in subdirs(&owner_dir)? {
                let Some(name) = dir_name.strip_suffix(".git") else {
                    continue;
                };
                let Ok(path) = ModelPath::parse(&format!("{owner}/{name}")) else {
                    continue;
                };
                if let Ok(model) = self.open_local(&path, &dir) {
                    models.push(model);
                }
            }
        }
        models.sort_by(|a, b| a.path().cmp(b.path()));
        Ok(models)
    }

    /// The model whose `arbiter.modelid` is `model_id`.
    pub fn find_by_id(&self, model_id: ModelId) -> Result<ModelRepo, RepoError> {
        self.list()?
            .into_iter()
            .find(|m| m.model_id() == model_id)
            .ok_or_else(|| RepoError::ModelNotFound(model_id.to_string()))
    }
}

/// Builds a complete model repository at `dir`.
fn init_model(
    dir: &Path,
    files: &Files,
    gates_yaml: Option<&str>,
    message: &str,
) -> Result<Repository, git2::Error> {
    let repo = init_bare(dir)?;
    repo.config()?
        .open_level(ConfigLevel::Local)?
        .set_str(MODEL_ID_KEY, &Uuid::new_v4().to_string())?;
    let learned = (!files.learned.is_empty()).then_some(files.learned.as_slice());
    let tree_id = write_tree(
        &repo,
        None,
        &super::commit::FileChange {
            model_yaml: Some(&files.model_yaml),
            questions_yaml: Some(&files.questions_yaml),
            gates_yaml,
            aligned: &files.aligned,
            unaligned: &[],
            learned,
        },
    )?;
    let tree = repo.find_tree(tree_id)?;
    let sig = signature()?;
    repo.commit(
        Some("refs/heads/main"),
        &sig,
        &sig,
        &with_trailing_newline(message),
        &tree,
        &[],
    )?;
    drop(tree);
    Ok(repo)
}

/// Sub-directories of `dir` with UTF-8 names; a missing `dir` has none.
fn subdirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, RepoError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(RepoError::io(format!("listing {}", dir.display()), &e)),
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = entry.map_err(|e| RepoError::io(format!("listing {}", dir.display()), &e))?;
        let path = entry.path();
        if let (Ok(name), true) = (entry.file_name().into_string(), path.is_dir()) {
            out.push((name, path));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use std::sync::Barrier;

    use super::super::test_support::{files, setup};
    use super::*;

    fn path(s: &str) -> ModelPath {
        ModelPath::parse(s).unwrap()
    }

    #[test]
    fn create_open_list_find() {
        let (dir, repos, model) = setup();
        assert_eq!(model.path().to_string(), "acme/support");
        let other = repos
            .create(&path("zeta/a"), &files("m", "q"), None, "init")
            .unwrap();
        let third = repos
            .create(&path("acme/billing"), &files("m", "q"), None, "init")
            .unwrap();
        assert_ne!(model.model_id(), other.model_id());
        assert_eq!(model.model_id().as_uuid().get_version_num(), 4);

        let opened = repos.open(&path("acme/support")).unwrap();
        assert_eq!(opened.model_id(), model.model_id());
        assert_eq!(opened.default_branch().unwrap(), "main");
        let head = opened.resolve(None).unwrap().commit;
        assert_eq!(
            opened.read(&head).unwrap(),
            files("model: 1\n", "questions: 1\n")
        );
        assert!(dir.path().join("repos/acme/support.git/HEAD").is_file());

        let listed: Vec<_> = repos
            .list()
            .unwrap()
            .iter()
            .map(|m| m.path().to_string())
            .collect();
        assert_eq!(listed, ["acme/billing", "acme/support", "zeta/a"]);
        let found = repos.find_by_id(third.model_id()).unwrap();
        assert_eq!(found.path(), third.path());
        let missing = ModelId::from(Uuid::new_v4());
        let err = repos.find_by_id(missing).unwrap_err();
        assert!(matches!(&err, RepoError::ModelNotFound(id) if *id == missing.to_string()));
        let err = repos.open(&path("acme/nope")).unwrap_err();
        assert_eq!(err.to_string(), "model acme/nope not found");
    }

    #[test]
    fn list_skips_foreign_directories() {
        let (dir, repos, _model) = setup();
        let root = dir.path().join("repos");
        Repository::init_bare(root.join("acme/plain.git")).unwrap();
        fs::create_dir_all(root.join("acme/notes")).unwrap();
        fs::create_dir_all(root.join(".hidden/x.git")).unwrap();
        fs::create_dir_all(root.join("acme/bad name.git")).unwrap();
        fs::write(root.join("acme/file.git"), "").unwrap();
        fs::write(root.join("stray"), "").unwrap();
        let listed: Vec<_> = repos
            .list()
            .unwrap()
            .iter()
            .map(|m| m.path().to_string())
            .collect();
        assert_eq!(listed, ["acme/support"]);
        assert!(
            Repos::new(dir.path().join("missing"))
                .list()
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn create_twice_is_already_exists() {
        let (dir, repos, model) = setup();
        let err = repos
            .create(model.path(), &files("m", "q"), None, "again")
            .unwrap_err();
        assert!(
            matches!(&err, RepoError::AlreadyExists(p) if p == "acme/support"),
            "{err}"
        );
        assert_eq!(
            repos.open(model.path()).unwrap().model_id(),
            model.model_id()
        );
        assert_no_staging_left(&dir.path().join("repos/acme"));
    }

    #[test]
    fn losing_the_rename_race_is_already_exists_and_cleans_up() {
        // The state a create sees when another one renamed its repository
        // into place after our early existence check.
        let (dir, repos, model) = setup();
        let err = repos
            .build_and_publish(model.path(), &files("m", "q"), None, "late")
            .unwrap_err();
        assert!(
            matches!(&err, RepoError::AlreadyExists(p) if p == "acme/support"),
            "{err}"
        );
        assert_eq!(
            repos.open(model.path()).unwrap().model_id(),
            model.model_id()
        );
        assert_no_staging_left(&dir.path().join("repos/acme"));
    }

    #[test]
    fn concurrent_creates_of_one_path_yield_exactly_one_model() {
        let dir = tempfile::TempDir::new().unwrap();
        let repos = Repos::new(dir.path().join("repos"));
        let target = path("acme/race");
        let barrier = Barrier::new(2);
        let results: Vec<_> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..2)
                .map(|i| {
                    let (repos, target, barrier) = (&repos, &target, &barrier);
                    s.spawn(move || {
                        barrier.wait();
                        repos
                            .create(target, &files(&format!("m{i}"), "q"), None, "init")
                            .map(|m| m.model_id())
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        let ok: Vec<_> = results.iter().filter_map(|r| r.as_ref().ok()).collect();
        assert_eq!(ok.len(), 1, "{results:?}");
        assert!(
            results
                .iter()
                .any(|r| matches!(r, Err(RepoError::AlreadyExists(_))))
        );
        assert_eq!(repos.open(&target).unwrap().model_id(), *ok[0]);
        assert_no_staging_left(&dir.path().join("repos/acme"));
    }

    #[test]
    fn first_commit_is_a_root_commit_on_main() {
        let dir = tempfile::TempDir::new().unwrap();
        let repos = Repos::new(dir.path().join("repos"));
        let model = repos
            .create(&path("acme/first"), &files("m", "q"), None, "init")
            .unwrap();
        assert_eq!(model.default_branch().unwrap(), "main");
        let names: Vec<_> = model.branches().unwrap().into_iter().map(|b| b.0).collect();
        assert_eq!(names, ["main"]);
        let log = model.log(None, 5).unwrap();
        assert_eq!((log.len(), log[0].message.as_str()), (1, "init"));
        assert!(log[0].parents.is_empty());
        assert_eq!(model.created_at().unwrap(), log[0].created_at);
    }

    fn assert_no_staging_left(owner_dir: &Path) {
        let names: Vec<_> = fs::read_dir(owner_dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(!names.iter().any(|n| n.starts_with(".tmp-")), "{names:?}");
    }
}
