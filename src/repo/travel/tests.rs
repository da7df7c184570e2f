//! Imports, pushes and pulls between real roots and real bare repositories on plain paths
//! and `file://` URLs.

use std::path::{Path, PathBuf};

use git2::{Oid, Repository};

use super::upstream_url;
use crate::ids::ModelPath;
use crate::repo::error::RepoError;
use crate::repo::model::ModelRepo;
use crate::repo::repos::Repos;
use crate::repo::test_support::{Shared, commit_by_hand, files, setup};
use crate::wire::travel::{RefKind, RefMove};

fn path(s: &str) -> ModelPath {
    ModelPath::parse(s).unwrap()
}

/// An empty bare repository at `dir/hub/<name>.git`, as `git init --bare` makes one.
fn hub(dir: &Path, name: &str) -> PathBuf {
    let at = dir.join(format!("hub/{name}.git"));
    Repository::init_bare(&at).unwrap();
    at
}

/// A commit on `branch` of the bare repository at `dir` that rewrites `questions.yaml`,
/// as a plain `git push` from a clone would leave it.
fn commit_there(dir: &Path, branch: &str, text: &str) -> Oid {
    commit_by_hand(&Repository::open_bare(dir).unwrap(), branch, text)
}

fn tip(dir: &Path, refname: &str) -> Option<Oid> {
    Repository::open_bare(dir)
        .unwrap()
        .refname_to_id(refname)
        .ok()
}

fn names(moved: &[RefMove]) -> Vec<String> {
    moved
        .iter()
        .map(|m| format!("{}:{}", m.kind.as_str(), m.name))
        .collect()
}

fn import(repos: &Repos, to: &str, url: &str) -> ModelRepo {
    repos
        .fetch_incoming(&path(to), url)
        .unwrap()
        .place()
        .unwrap()
}

fn no_staging_left(root: &Path) {
    for owner in std::fs::read_dir(root).unwrap() {
        for entry in std::fs::read_dir(owner.unwrap().path()).unwrap() {
            let name = entry.unwrap().file_name().into_string().unwrap();
            assert!(!name.starts_with(".tmp-"), "{name}");
        }
    }
}

#[test]
fn an_upstream_is_a_url_or_a_path_made_absolute() {
    let dir = tempfile::tempdir().unwrap();
    let at = hub(dir.path(), "acme/support");
    let absolute = upstream_url(at.to_str().unwrap()).unwrap();
    assert_eq!(Path::new(&absolute), at.canonicalize().unwrap());
    assert_eq!(
        upstream_url("file:///srv/hub/acme/support.git/").unwrap(),
        "file:///srv/hub/acme/support.git"
    );
    assert_eq!(
        upstream_url("git@example.com:acme/support.git").unwrap(),
        "git@example.com:acme/support.git"
    );
    let missing = dir.path().join("nowhere/acme/support.git");
    assert!(matches!(
        upstream_url(missing.to_str().unwrap()),
        Err(RepoError::UpstreamNotFound { .. })
    ));
    for (bad, says) in [
        ("https://bot:hunter2@git.example/a.git", "password"),
        ("ftp://git.example/a.git", "scheme"),
        ("  ", "empty"),
    ] {
        let err = upstream_url(bad).unwrap_err().to_string();
        assert!(
            err.contains(says) && !err.contains("hunter2"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn a_model_pushed_and_imported_keeps_its_refs_its_id_and_its_default_branch() {
    let (dir, repos, model) = setup();
    model
        .commit("draft", None, None, Some("questions: 2\n"), "draft")
        .unwrap();
    model.tag("v1", "main").unwrap();
    let at = hub(dir.path(), "acme/support");
    let url = format!("file://{}", at.display());
    let pushed = repos.push_upstream(&model, &url, false).unwrap();
    assert_eq!(
        names(&pushed),
        ["branch:draft", "branch:main", "tag:v1", "model-id:model-id"]
    );
    assert!(pushed.iter().all(|m| m.old.is_none()));
    // An empty repository's HEAD (libgit2's `master`, as git's) follows the model's.
    let head = Repository::open_bare(&at).unwrap();
    let head = head.find_reference("HEAD").unwrap();
    assert_eq!(head.symbolic_target().unwrap(), Some("refs/heads/main"));
    assert_eq!(model.upstream().unwrap().as_deref(), Some(url.as_str()));
    // Nothing new: nothing moves.
    assert_eq!(repos.push_upstream(&model, &url, false).unwrap(), []);

    let other = Repos::new(dir.path().join("other"));
    let incoming = other.fetch_incoming(&path("zeta/copy"), &url).unwrap();
    assert_eq!(
        names(incoming.moved()),
        ["branch:draft", "branch:main", "tag:v1", "model-id:model-id"]
    );
    assert_eq!(incoming.model().model_id(), model.model_id());
    // Not in the root until placed.
    assert!(matches!(
        other.open(&path("zeta/copy")),
        Err(RepoError::ModelNotFound(_))
    ));
    let copy = incoming.place().unwrap();
    assert_eq!(copy.model_id(), model.model_id());
    assert_eq!(copy.default_branch().unwrap(), "main");
    assert_eq!(copy.branches().unwrap(), model.branches().unwrap());
    assert_eq!(copy.tags().unwrap(), model.tags().unwrap());
    assert_eq!(copy.upstream().unwrap().as_deref(), Some(url.as_str()));
    assert_eq!(
        other.find_by_id(model.model_id()).unwrap().path(),
        &path("zeta/copy")
    );
    no_staging_left(&dir.path().join("other"));
}

#[test]
fn an_import_takes_the_upstreams_head_and_a_new_id_when_it_publishes_none() {
    let (dir, _repos, model) = setup();
    // A plain clone's repository: HEAD at `trunk`, no model id.
    let plain = dir.path().join("plain.git");
    let repo = Repository::init_bare(&plain).unwrap();
    let head = Oid::from_str(&model.resolve(None).unwrap().commit).unwrap();
    let source = Repository::open_bare(dir.path().join("repos/acme/support.git")).unwrap();
    repo.remote_anonymous(source.path().to_str().unwrap())
        .unwrap()
        .fetch(&["+refs/heads/main:refs/heads/trunk"], None, None)
        .unwrap();
    repo.set_head("refs/heads/trunk").unwrap();
    let other = Repos::new(dir.path().join("other"));
    let copy = import(&other, "acme/plain", plain.to_str().unwrap());
    assert_eq!(copy.default_branch().unwrap(), "trunk");
    assert_eq!(copy.resolve(None).unwrap().commit, head.to_string());
    assert_ne!(copy.model_id(), model.model_id());
}

#[test]
fn an_import_of_nothing_or_onto_a_model_leaves_nothing_behind() {
    let (dir, repos, model) = setup();
    let empty = hub(dir.path(), "acme/empty");
    let err = repos
        .fetch_incoming(&path("acme/empty"), empty.to_str().unwrap())
        .err()
        .unwrap();
    assert!(
        matches!(&err, RepoError::NotAModel { reason, .. } if reason == "it has no branch"),
        "{err}"
    );
    let at = hub(dir.path(), "acme/support");
    repos
        .push_upstream(&model, at.to_str().unwrap(), false)
        .unwrap();
    let err = repos
        .fetch_incoming(model.path(), at.to_str().unwrap())
        .err()
        .unwrap();
    assert!(matches!(err, RepoError::AlreadyExists(_)), "{err}");
    let missing = dir.path().join("hub/nope.git");
    let err = repos
        .fetch_incoming(&path("acme/nope"), &format!("file://{}", missing.display()))
        .err()
        .unwrap();
    assert!(matches!(err, RepoError::UpstreamNotFound { .. }), "{err}");
    // A dropped import is gone too.
    drop(
        repos
            .fetch_incoming(&path("acme/later"), at.to_str().unwrap())
            .unwrap(),
    );
    no_staging_left(&dir.path().join("repos"));
    let listed: Vec<String> = repos
        .list()
        .unwrap()
        .iter()
        .map(|m| m.path().to_string())
        .collect();
    assert_eq!(listed, ["acme/support"]);
}

#[test]
fn a_push_that_would_lose_commits_is_refused_whole_unless_forced() {
    let (dir, repos, model) = setup();
    let at = hub(dir.path(), "acme/support");
    let url = at.to_str().unwrap();
    repos.push_upstream(&model, url, false).unwrap();
    let ours = model
        .commit("main", None, None, Some("questions: ours\n"), "ours")
        .unwrap();
    model.tag("v1", "main").unwrap();
    let theirs = commit_there(&at, "main", "questions: theirs\n");
    let err = repos.push_upstream(&model, url, false).unwrap_err();
    assert!(matches!(err, RepoError::Diverged { .. }), "{err}");
    let said = err.to_string();
    assert!(
        said.contains("branch `main`") && said.contains("nothing was pushed"),
        "{said}"
    );
    assert_eq!(tip(&at, "refs/heads/main"), Some(theirs));
    assert_eq!(tip(&at, "refs/tags/v1"), None, "nothing at all was pushed");
    let forced = repos.push_upstream(&model, url, true).unwrap();
    assert_eq!(names(&forced), ["branch:main", "tag:v1"]);
    assert_eq!(forced[0].old, Some(theirs.to_string()));
    assert_eq!(
        tip(&at, "refs/heads/main"),
        Some(Oid::from_str(&ours.id).unwrap())
    );
}

#[test]
fn a_pull_fast_forwards_adds_tags_and_refuses_a_diverged_branch_moving_nothing() {
    let (dir, repos, model) = setup();
    let at = hub(dir.path(), "acme/support");
    let url = at.to_str().unwrap();
    repos.push_upstream(&model, url, false).unwrap();
    let root = model.resolve(None).unwrap().commit;
    let ahead = commit_there(&at, "main", "questions: pushed by hand\n");
    Repository::open_bare(&at)
        .unwrap()
        .reference("refs/tags/v1", ahead, false, "tag")
        .unwrap();
    let pull = repos.fetch_upstream(&model, url).unwrap();
    assert_eq!(pull.default_tip().unwrap(), ahead.to_string());
    // Planned, not moved.
    assert_eq!(model.resolve(None).unwrap().commit, root);
    let moved = pull.apply().unwrap();
    assert_eq!(names(&moved), ["branch:main", "tag:v1"]);
    assert_eq!(moved[0].old.as_deref(), Some(root.as_str()));
    assert_eq!(model.resolve(None).unwrap().commit, ahead.to_string());
    assert!(
        repos
            .fetch_upstream(&model, url)
            .unwrap()
            .moves()
            .is_empty()
    );
    // Ahead here: nothing to take.
    model
        .commit("main", None, None, Some("questions: mine\n"), "mine")
        .unwrap();
    assert!(
        repos
            .fetch_upstream(&model, url)
            .unwrap()
            .moves()
            .is_empty()
    );
    // Each side with a commit of its own: refused, naming the branch.
    Repository::open_bare(&at)
        .unwrap()
        .reference("refs/heads/draft", ahead, false, "draft")
        .unwrap();
    let before = model.resolve(None).unwrap().commit;
    commit_there(&at, "main", "questions: theirs\n");
    let err = repos.fetch_upstream(&model, url).err().unwrap();
    let said = err.to_string();
    assert!(
        said.contains("branch `main` has diverged") && said.contains("nothing was moved"),
        "{said}"
    );
    assert_eq!(model.resolve(None).unwrap().commit, before);
    assert!(model.branches().unwrap().iter().all(|(b, _)| b == "main"));
    let scratch = Repository::open_bare(dir.path().join("repos/acme/support.git"))
        .unwrap()
        .references_glob("refs/arbiter-travel/*")
        .unwrap()
        .count();
    assert_eq!(scratch, 0, "the fetched refs are gone");
}

#[test]
fn a_pull_from_another_models_repository_is_refused() {
    let (dir, repos, model) = setup();
    let other = repos
        .create(&path("acme/other"), &files("m", "q"), None, "other")
        .unwrap();
    let at = hub(dir.path(), "acme/other");
    repos
        .push_upstream(&other, at.to_str().unwrap(), false)
        .unwrap();
    let err = repos
        .fetch_upstream(&model, at.to_str().unwrap())
        .err()
        .unwrap();
    assert!(matches!(err, RepoError::OtherModel { .. }), "{err}");
    for force in [false, true] {
        let err = repos
            .push_upstream(&model, at.to_str().unwrap(), force)
            .unwrap_err();
        assert!(matches!(err, RepoError::OtherModel { .. }), "{err}");
    }
}

#[test]
fn with_a_shared_remote_an_import_is_published_and_a_pull_moves_the_remote() {
    let shared = Shared::new();
    // A model of a home without the remote, pushed to a repository of its own.
    let lone = Repos::new(shared.dir.path().join("lone"));
    let made = lone
        .create(&path("acme/lone"), &files("m", "q"), None, "lone")
        .unwrap();
    let at = hub(shared.dir.path(), "acme/lone");
    let url = at.to_str().unwrap();
    lone.push_upstream(&made, url, false).unwrap();
    let copy = import(&shared.a, "zeta/copy", url);
    assert_eq!(copy.model_id(), made.model_id());
    // The other replica sees the import, by path.
    let seen = shared.b.open(&path("zeta/copy")).unwrap();
    assert_eq!(seen.model_id(), copy.model_id());
    let ahead = commit_there(&at, "main", "questions: pushed by hand\n");
    let moved = shared
        .a
        .fetch_upstream(&copy, url)
        .unwrap()
        .apply()
        .unwrap();
    assert_eq!(moved[0].kind, RefKind::Branch);
    shared.b.mark_stale(&path("zeta/copy"));
    assert_eq!(seen.resolve(None).unwrap().commit, ahead.to_string());
    assert_eq!(
        tip(
            &shared.remote_dir().join("zeta/copy.git"),
            "refs/heads/main"
        ),
        Some(ahead)
    );
}
