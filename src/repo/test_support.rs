//! Shared fixtures for this module's unit tests.

use git2::{Oid, Repository, Signature, Time};
use tempfile::TempDir;

use super::model::ModelRepo;
use super::read::Files;
use super::repos::Repos;
use crate::ids::ModelPath;

pub(super) fn files(model_yaml: &str, questions_yaml: &str) -> Files {
    Files {
        model_yaml: model_yaml.to_owned(),
        questions_yaml: questions_yaml.to_owned(),
        aligned: Vec::new(),
        learned: Vec::new(),
    }
}

/// A fresh root with model `acme/support` holding one commit ("initial").
/// Keep the `TempDir` alive for as long as the repositories are used.
pub(super) fn setup() -> (TempDir, Repos, ModelRepo) {
    let dir = TempDir::new().expect("temp dir");
    let repos = Repos::new(dir.path().join("repos"));
    let path = ModelPath::parse("acme/support").expect("valid path");
    let model = repos
        .create(
            &path,
            &files("model: 1\n", "questions: 1\n"),
            None,
            "initial",
        )
        .expect("create model");
    (dir, repos, model)
}

/// A fixed signature for objects tests write directly through git2.
pub(super) fn sig() -> Signature<'static> {
    Signature::new("test", "test@localhost", &Time::new(1_700_000_000, 0)).expect("signature")
}

/// Two replicas' roots (`a/repos`, `b/repos`) sharing one `file://` remote (`remote/`),
/// the model `acme/support` created through `a`.
pub(super) struct Shared {
    pub(super) dir: TempDir,
    pub(super) a: Repos,
    pub(super) b: Repos,
    pub(super) path: ModelPath,
}

impl Shared {
    pub(super) fn new() -> Self {
        let dir = TempDir::new().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("remote")).expect("remote dir");
        let a = Repos::with_remote(dir.path().join("a/repos"), remote_settings(&dir));
        let b = Repos::with_remote(dir.path().join("b/repos"), remote_settings(&dir));
        let path = ModelPath::parse("acme/support").expect("valid path");
        a.create(
            &path,
            &files("model: 1\n", "questions: 1\n"),
            None,
            "initial",
        )
        .expect("create model");
        Self { dir, a, b, path }
    }

    /// The remote's bare repository of `acme/support`.
    pub(super) fn remote_repo(&self) -> git2::Repository {
        git2::Repository::open_bare(self.dir.path().join("remote/acme/support.git"))
            .expect("remote repository")
    }

    /// The remote's base directory.
    pub(super) fn remote_dir(&self) -> std::path::PathBuf {
        self.dir.path().join("remote")
    }
}

fn remote_settings(dir: &TempDir) -> crate::config::RemoteSettings {
    crate::config::RemoteSettings {
        url: format!("file://{}", dir.path().join("remote").display()),
        credentials: crate::config::GitCredentials::default(),
    }
}

/// A commit on `branch` of `remote` that rewrites `questions.yaml` to `text`, as a plain
/// `git push` from a clone would leave it.
pub(super) fn commit_by_hand(remote: &Repository, branch: &str, text: &str) -> Oid {
    let sig = Signature::new("plain git", "git@localhost", &Time::new(1_700_000_000, 0)).unwrap();
    let parent = remote
        .find_reference(&format!("refs/heads/{branch}"))
        .unwrap()
        .peel_to_commit()
        .unwrap();
    let mut tree = remote.treebuilder(Some(&parent.tree().unwrap())).unwrap();
    tree.insert(
        "questions.yaml",
        remote.blob(text.as_bytes()).unwrap(),
        0o100_644,
    )
    .unwrap();
    let tree = remote.find_tree(tree.write().unwrap()).unwrap();
    remote
        .commit(
            Some(&format!("refs/heads/{branch}")),
            &sig,
            &sig,
            "by hand\n",
            &tree,
            &[&parent],
        )
        .unwrap()
}
