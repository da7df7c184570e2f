//! A model repository checked out anywhere (a clone's work tree, a CI runner's checkout,
//! or a plain directory that is no git repository at all), staged into a home as one of
//! its bare repositories, so that every operation reads it as it reads a home's model.
//!
//! Nothing is copied: the staged repository borrows the checkout's objects (git's
//! alternates), and holds only the refs it needs and, when the work tree differs from
//! `HEAD`, one commit of the work tree's checkpoint files. The checkout is only read.

use std::fs;
use std::path::{Path, PathBuf};

use git2::{ConfigLevel, ErrorCode, ObjectType, Oid, Repository, Tree};
use uuid::Uuid;

use super::commit::signature;
use super::error::RepoError;
use super::model::MODEL_ID_KEY;
use super::read::{ALIGNED_DIR, GATES_FILE, LEARNED_DIR, MODEL_FILE, QUESTIONS_FILE};
use super::ref_name;
use super::remote::Remote;
use super::staging::init_bare;
use crate::ids::ModelPath;

/// The branch a work tree that differs from `HEAD` is committed on, in the staged copy.
pub const WORKING_TREE: &str = "working-tree";
/// The branch the evaluated commit is on when no name of the user's fits a branch.
const DETACHED: &str = "detached";
/// Modes of a regular file and of a directory in a git tree.
const FILE_MODE: i32 = 0o100_644;
const DIR_MODE: i32 = 0o040_000;

/// A directory holding a model repository's files at its root (`model.yaml` there).
pub struct Checkout {
    dir: PathBuf,
    /// Its git repository; `None` for a plain directory.
    repo: Option<Repository>,
}

/// What the caller asked for, as the user typed it.
#[derive(Debug, Default, Clone, Copy)]
pub struct Wanted<'a> {
    /// A revision of the checkout's repository; `None` for the work tree.
    pub revision: Option<&'a str>,
    /// A revision to compare with.
    pub baseline: Option<&'a str>,
}

/// The revisions to ask the staged copy for (`revision: None` is its default branch: the
/// work tree or the revision asked for).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Staged {
    pub revision: Option<String>,
    pub baseline: Option<String>,
    /// What is evaluated, for people: `the work tree (uncommitted changes)`, `HEAD (abc123…)`.
    pub described: String,
}

impl Checkout {
    /// Opens `dir` as a checkout: it must hold `model.yaml`; when it is in a git
    /// repository, it must be that repository's work tree root.
    pub fn open(dir: &Path) -> Result<Self, RepoError> {
        let not_model = |reason: String| RepoError::NotACheckout {
            path: dir.display().to_string(),
            reason,
        };
        if !dir.is_dir() {
            return Err(not_model("no such directory".into()));
        }
        if !dir.join(MODEL_FILE).is_file() {
            return Err(not_model(format!(
                "it has no {MODEL_FILE} (a model repository holds {MODEL_FILE} and \
                 {QUESTIONS_FILE} at its root)"
            )));
        }
        let repo = match Repository::discover(dir) {
            Ok(repo) => Some(repo),
            Err(e) if e.code() == ErrorCode::NotFound => None,
            Err(e) => return Err(RepoError::git(format!("opening {}", dir.display()), &e)),
        };
        if let Some(repo) = &repo {
            let root = repo.workdir().map(Path::to_path_buf);
            let same = |a: &Path, b: &Path| {
                fs::canonicalize(a)
                    .ok()
                    .is_some_and(|a| fs::canonicalize(b).ok() == Some(a))
            };
            match root {
                Some(root) if same(&root, dir) => {}
                Some(root) => {
                    return Err(not_model(format!(
                        "it is inside the git repository at {}, not its root: a model \
                         repository holds {MODEL_FILE} at the root of its own repository",
                        root.display()
                    )));
                }
                None => return Err(not_model("it is a bare git repository".into())),
            }
        }
        Ok(Self {
            dir: dir.to_path_buf(),
            repo,
        })
    }

    /// Stages the checkout as `path` in the repositories' root `root` (which must not have
    /// it): a bare repository borrowing the checkout's objects, whose default branch holds
    /// what `wanted.revision` names (the work tree when `None`), and a branch for the
    /// baseline when its name can be one.
    pub fn stage(
        &self,
        root: &Path,
        path: &ModelPath,
        wanted: Wanted<'_>,
    ) -> Result<Staged, RepoError> {
        let target = path.git_dir(root);
        let context = || format!("staging {}", self.dir.display());
        let git = |e: git2::Error| RepoError::git(context(), &e);
        fs::create_dir_all(target.parent().unwrap_or(root))
            .map_err(|e| RepoError::io(context(), &e))?;
        let staged = init_bare(&target).map_err(git)?;
        let model_id = self
            .repo
            .as_ref()
            .and_then(Remote::published_model_id)
            .unwrap_or_else(|| Uuid::new_v4().to_string());
        staged
            .config()
            .and_then(|c| c.open_level(ConfigLevel::Local))
            .and_then(|mut c| c.set_str(MODEL_ID_KEY, &model_id))
            .map_err(git)?;
        if let Some(repo) = &self.repo {
            // Written to the file, not only added to this handle: every later handle on
            // the staged repository must find the checkout's objects too.
            let objects = fs::canonicalize(repo.commondir().join("objects"))
                .map_err(|e| RepoError::io(context(), &e))?;
            fs::write(
                target.join("objects/info/alternates"),
                format!("{}\n", objects.display()),
            )
            .map_err(|e| RepoError::io(context(), &e))?;
        }
        // Reopened, so that the alternates are read.
        let staged = Repository::open_bare(&target).map_err(git)?;
        let (main, described, main_oid) = match wanted.revision {
            Some(revision) => {
                let oid = self.resolve(revision)?;
                let name = branch_name(revision).unwrap_or(DETACHED);
                (name.to_owned(), format!("{revision} ({})", short(oid)), oid)
            }
            None => self.work_tree(&staged)?,
        };
        set_branch(&staged, &main, main_oid).map_err(git)?;
        staged
            .set_head(&format!("refs/heads/{main}"))
            .map_err(git)?;
        let revision = (main == DETACHED).then(|| main_oid.to_string());
        let baseline = match wanted.baseline {
            None => None,
            Some(baseline) => {
                let oid = self.resolve(baseline)?;
                Some(match branch_name(baseline) {
                    // `--revision main --baseline main`: the same branch.
                    Some(name) if name == main && oid == main_oid => main.clone(),
                    Some(name) if name != main && set_branch(&staged, name, oid).is_ok() => {
                        name.to_owned()
                    }
                    // Not a branch's name (`HEAD~1`), or one taken: the commit itself.
                    _ => oid.to_string(),
                })
            }
        };
        Ok(Staged {
            revision,
            baseline,
            described,
        })
    }

    /// `revision` in the checkout's repository, as git reads it (`origin/main`, `HEAD~1`,
    /// a tag, a commit), peeled to its commit.
    fn resolve(&self, revision: &str) -> Result<Oid, RepoError> {
        let not_found = |reason: String| RepoError::RevisionNotFound {
            model: self.dir.display().to_string(),
            revision: revision.to_owned(),
            reason,
        };
        let Some(repo) = &self.repo else {
            return Err(not_found(
                "the directory is not a git repository: only its files can be read".into(),
            ));
        };
        let object = repo.revparse_single(revision).map_err(|e| {
            not_found(match e.code() {
                ErrorCode::NotFound => format!("no branch, tag or commit named `{revision}`"),
                _ => e.message().to_owned(),
            })
        })?;
        object
            .peel_to_commit()
            .map(|commit| commit.id())
            .map_err(|_| not_found(format!("`{revision}` does not name a commit")))
    }

    /// The work tree's checkpoint files as a commit of the staged repository: `HEAD` itself
    /// when they are the same as its, else a commit on top of it. Its branch: the checked
    /// out branch when nothing changed, [`WORKING_TREE`] when something did.
    fn work_tree(&self, staged: &Repository) -> Result<(String, String, Oid), RepoError> {
        let context = || format!("reading the work tree of {}", self.dir.display());
        let git = |e: git2::Error| RepoError::git(context(), &e);
        let head = match &self.repo {
            Some(repo) => head_commit(repo).map_err(git)?,
            None => None,
        };
        let base = match head {
            Some((oid, _)) => Some(
                staged
                    .find_commit(oid)
                    .and_then(|c| c.tree())
                    .map_err(git)?,
            ),
            None => None,
        };
        let tree = checkpoint_tree(staged, &self.dir, base.as_ref())?;
        match head {
            Some((oid, branch)) if base.as_ref().map(Tree::id) == Some(tree) => {
                let described = format!("HEAD ({}), the work tree unchanged", short(oid));
                let name = branch
                    .filter(|b| branch_name(b).is_some())
                    .unwrap_or_else(|| DETACHED.to_owned());
                Ok((name, described, oid))
            }
            _ => {
                let tree = staged.find_tree(tree).map_err(git)?;
                let signature = signature().map_err(git)?;
                let parent = match head {
                    Some((oid, _)) => Some(staged.find_commit(oid).map_err(git)?),
                    None => None,
                };
                let parents: Vec<_> = parent.iter().collect();
                let oid = staged
                    .commit(
                        None,
                        &signature,
                        &signature,
                        "The work tree's checkpoint files",
                        &tree,
                        &parents,
                    )
                    .map_err(git)?;
                let described = match head {
                    Some((head, _)) => {
                        format!("the work tree (changes to HEAD {})", short(head))
                    }
                    None => "the work tree".to_owned(),
                };
                Ok((WORKING_TREE.to_owned(), described, oid))
            }
        }
    }
}

/// `HEAD`'s commit and branch name (`None` when detached); `None` before the first commit.
fn head_commit(repo: &Repository) -> Result<Option<(Oid, Option<String>)>, git2::Error> {
    let head = match repo.head() {
        Ok(head) => head,
        Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    let branch = head
        .is_branch()
        .then(|| head.shorthand().ok().map(str::to_owned))
        .flatten();
    Ok(Some((head.peel_to_commit()?.id(), branch)))
}

/// The checkpoint files of the work tree at `dir` (`model.yaml`, `questions.yaml`,
/// `gates.yaml`, `aligned/`, `learned/`) over `base`'s tree: a file the work tree lacks is
/// left out, one it has replaces the base's (whose entry, mode included, is kept when the
/// content is the same), and the base's other entries stay.
fn checkpoint_tree(
    repo: &Repository,
    dir: &Path,
    base: Option<&Tree<'_>>,
) -> Result<Oid, RepoError> {
    let reading = || format!("reading the work tree of {}", dir.display());
    let mut files = Vec::new();
    for name in [MODEL_FILE, QUESTIONS_FILE, GATES_FILE] {
        let path = dir.join(name);
        let content = match fs::read(&path) {
            Ok(content) => Some(content),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(RepoError::io(format!("reading {}", path.display()), &e)),
        };
        files.push((name, content));
    }
    let mut dirs = Vec::new();
    for name in [ALIGNED_DIR, LEARNED_DIR] {
        let sub = base
            .and_then(|tree| tree.get_name(name))
            .filter(|entry| entry.kind() == Some(ObjectType::Tree))
            .map(|entry| repo.find_tree(entry.id()))
            .transpose()
            .map_err(|e| RepoError::git(reading(), &e))?;
        dirs.push((name, directory_tree(repo, &dir.join(name), sub.as_ref())?));
    }
    overlay(repo, base, &files, &dirs).map_err(|e| RepoError::git(reading(), &e))
}

/// `base`'s tree with `files` and `dirs` put in (or taken out, when `None`); a file whose
/// content is the base's keeps the base's entry, mode included.
fn overlay(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    files: &[(&str, Option<Vec<u8>>)],
    dirs: &[(&str, Option<Oid>)],
) -> Result<Oid, git2::Error> {
    let mut builder = repo.treebuilder(base)?;
    for (name, content) in files {
        match content {
            Some(content) => {
                let oid = repo.blob(content)?;
                let kept = builder.get(name)?.is_some_and(|e| e.id() == oid);
                if !kept {
                    builder.insert(name, oid, FILE_MODE)?;
                }
            }
            None if builder.get(name)?.is_some() => builder.remove(name)?,
            None => {}
        }
    }
    for (name, tree) in dirs {
        match tree {
            Some(oid) => {
                builder.insert(name, *oid, DIR_MODE)?;
            }
            None if builder.get(name)?.is_some() => builder.remove(name)?,
            None => {}
        }
    }
    builder.write()
}

/// The tree of the directory `dir` (regular files and subdirectories, recursively), its
/// entries as `base`'s where their content is the same; `None` when it does not exist or
/// holds no file.
fn directory_tree(
    repo: &Repository,
    dir: &Path,
    base: Option<&Tree<'_>>,
) -> Result<Option<Oid>, RepoError> {
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(RepoError::io(format!("reading {}", dir.display()), &e)),
    };
    let git = |e: git2::Error| RepoError::git(format!("reading {}", dir.display()), &e);
    let mut builder = repo.treebuilder(None).map_err(git)?;
    for entry in entries {
        let entry = entry.map_err(|e| RepoError::io(format!("reading {}", dir.display()), &e))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| RepoError::io(format!("reading {}", path.display()), &e))?;
        let before = base.and_then(|tree| tree.get_name(name));
        if kind.is_dir() {
            let sub = before
                .filter(|e| e.kind() == Some(ObjectType::Tree))
                .map(|e| repo.find_tree(e.id()))
                .transpose()
                .map_err(git)?;
            if let Some(oid) = directory_tree(repo, &path, sub.as_ref())? {
                builder.insert(name, oid, DIR_MODE).map_err(git)?;
            }
        } else if kind.is_file() {
            let content = fs::read(&path)
                .map_err(|e| RepoError::io(format!("reading {}", path.display()), &e))?;
            let oid = repo.blob(&content).map_err(git)?;
            let mode = before
                .filter(|e| e.id() == oid)
                .map_or(FILE_MODE, |e| e.filemode());
            builder.insert(name, oid, mode).map_err(git)?;
        }
    }
    if builder.is_empty() {
        return Ok(None);
    }
    builder.write().map(Some).map_err(git)
}

/// `name` when it can be a branch's name.
fn branch_name(name: &str) -> Option<&str> {
    (name != "HEAD" && ref_name::is_valid("refs/heads/", name)).then_some(name)
}

fn set_branch(repo: &Repository, name: &str, oid: Oid) -> Result<(), git2::Error> {
    repo.reference(
        &format!("refs/heads/{name}"),
        oid,
        true,
        "arbiter: staged checkout",
    )
    .map(drop)
}

/// The 12-character form of a commit ID tables use.
fn short(oid: Oid) -> String {
    oid.to_string()[..12].to_owned()
}
