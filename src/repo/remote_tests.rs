//! Two replicas' mirrors on one real `file://` remote: what one writes, the other reads;
//! the remote arbitrates races; a remote that is down leaves reads working.

use std::collections::BTreeSet;

use git2::Oid;

use super::error::RepoError;
use super::remote::RemoteHealth;
use super::repos::Repos;
use super::test_support::{Shared, commit_by_hand, files};
use crate::ids::ModelPath;

#[test]
fn a_model_created_through_one_replica_is_opened_listed_and_found_through_the_other() {
    let shared = Shared::new();
    let a = shared.a.open(&shared.path).unwrap();
    let b = shared.b.open(&shared.path).unwrap();
    assert_eq!(a.model_id(), b.model_id());
    assert_eq!(b.default_branch().unwrap(), "main");
    assert_eq!(
        b.read(&b.resolve(None).unwrap().commit).unwrap(),
        files("model: 1\n", "questions: 1\n")
    );
    // A model B never opened by path shows in its list, and by id.
    let other = ModelPath::parse("zeta/billing").unwrap();
    let made = shared
        .a
        .create(&other, &files("m", "q"), None, "init")
        .unwrap();
    let listed: Vec<_> = shared
        .b
        .list()
        .unwrap()
        .iter()
        .map(|m| m.path().to_string())
        .collect();
    assert_eq!(listed, ["acme/support", "zeta/billing"]);
    assert_eq!(shared.b.find_by_id(made.model_id()).unwrap().path(), &other);
    // Creating it again, through either replica, is refused.
    for repos in [&shared.a, &shared.b] {
        let err = repos
            .create(&other, &files("m", "q"), None, "again")
            .unwrap_err();
        assert!(matches!(err, RepoError::AlreadyExists(_)), "{err}");
    }
    let missing = ModelPath::parse("acme/nope").unwrap();
    assert!(matches!(
        shared.b.open(&missing),
        Err(RepoError::ModelNotFound(_))
    ));
}

#[test]
fn a_commit_through_one_replica_resolves_through_the_other_after_the_throttle() {
    let shared = Shared::new();
    let a = shared.a.open(&shared.path).unwrap();
    let b = shared.b.open(&shared.path).unwrap();
    let before = b.resolve(Some("main")).unwrap().commit;
    let made = a
        .commit("main", None, None, Some("questions: 2\n"), "two")
        .unwrap();
    // B fetched a moment ago: within the interval it answers from its mirror...
    assert_eq!(b.resolve(Some("main")).unwrap().commit, before);
    // ...unless told the model changed.
    shared.b.mark_stale(&shared.path);
    assert_eq!(b.resolve(Some("main")).unwrap().commit, made.id);
    // Without being told, the next fetch comes within the interval.
    let next = a
        .commit("main", None, None, Some("questions: 3\n"), "three")
        .unwrap();
    std::thread::sleep(super::remote::FETCH_INTERVAL);
    assert_eq!(b.resolve(None).unwrap().commit, next.id);
    let branches = b.branches().unwrap();
    assert_eq!(branches, [("main".to_owned(), next.id.clone())]);
}

#[test]
fn an_unknown_full_commit_id_is_fetched_at_once() {
    let shared = Shared::new();
    let a = shared.a.open(&shared.path).unwrap();
    let b = shared.b.open(&shared.path).unwrap();
    b.resolve(None).unwrap();
    let made = a
        .commit("draft", None, None, Some("questions: d\n"), "d")
        .unwrap();
    // Within the throttle, but the id is unknown here: fetched for.
    assert_eq!(b.resolve(Some(&made.id)).unwrap().commit, made.id);
}

#[test]
fn a_plain_git_push_is_seen_and_a_commit_once_seen_always_resolves() {
    let shared = Shared::new();
    let b = shared.b.open(&shared.path).unwrap();
    let root = b.resolve(None).unwrap().commit;
    let remote = shared.remote_repo();
    let pushed = commit_by_hand(&remote, "main", "questions: by hand\n");
    shared.b.mark_stale(&shared.path);
    let seen = b.resolve(Some("main")).unwrap();
    assert_eq!(seen.commit, pushed.to_string());
    assert_eq!(
        b.read(&seen.commit).unwrap().questions_yaml,
        "questions: by hand\n"
    );
    // The branch is forced back on the remote: the branch follows, the commit stays.
    remote
        .reference(
            "refs/heads/main",
            Oid::from_str(&root).unwrap(),
            true,
            "reset",
        )
        .unwrap();
    shared.b.mark_stale(&shared.path);
    assert_eq!(b.resolve(None).unwrap().commit, root);
    assert_eq!(b.resolve(Some(&seen.commit)).unwrap().commit, seen.commit);
    assert_eq!(
        b.resolve(Some(&seen.commit[..10])).unwrap().commit,
        seen.commit
    );
    // A tag moved on the remote is seen too.
    remote
        .reference("refs/tags/v1", pushed, true, "tag")
        .unwrap();
    shared.b.mark_stale(&shared.path);
    assert_eq!(b.resolve(Some("v1")).unwrap().commit, seen.commit);
}

#[test]
fn concurrent_writers_on_two_replicas_never_lose_a_commit() {
    let shared = Shared::new();
    let results: Vec<Result<String, RepoError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..6)
            .map(|i| {
                let repos = if i % 2 == 0 { &shared.a } else { &shared.b };
                let path = &shared.path;
                s.spawn(move || {
                    let model = repos.open(path)?;
                    let q = format!("questions: writer {i}\n");
                    model
                        .commit("main", None, None, Some(&q), &format!("writer {i}"))
                        .map(|c| c.id)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let won: BTreeSet<String> = results
        .iter()
        .filter_map(|r| r.as_ref().ok().cloned())
        .collect();
    for result in &results {
        if let Err(err) = result {
            assert!(
                matches!(
                    err,
                    RepoError::RemoteRejected { .. } | RepoError::Conflict { .. }
                ),
                "{err}"
            );
        }
    }
    assert!(!won.is_empty());
    // Every reported success is on the remote's main, and nothing else is.
    let remote = shared.remote_repo();
    let mut walk = remote.revwalk().unwrap();
    walk.push_ref("refs/heads/main").unwrap();
    let history: BTreeSet<String> = walk.map(|oid| oid.unwrap().to_string()).collect();
    assert_eq!(history.len(), won.len() + 1, "{results:?}");
    assert!(won.is_subset(&history));
}

#[test]
fn a_refused_move_is_not_fast_forward_and_the_mirror_takes_the_winner() {
    let shared = Shared::new();
    let b = shared.b.open(&shared.path).unwrap();
    let root = b.resolve(None).unwrap().commit;
    let tag = |repos: &Repos, to: &str| repos.open(&shared.path).unwrap().set_tag("v1", to, true);
    tag(&shared.a, "main").unwrap();
    let winner = shared
        .a
        .open(&shared.path)
        .unwrap()
        .commit("main", None, None, Some("questions: w\n"), "w")
        .unwrap();
    // The remote moves under B's feet between its fetch and its push: push with the old
    // value B would have read.
    let remote = super::remote::Remote::new(crate::config::RemoteSettings {
        url: format!("file://{}", shared.remote_dir().display()),
        credentials: crate::config::GitCredentials::default(),
    });
    let stale = Oid::from_str(&root).unwrap();
    let rejected = "arbiter_git_operations_total{operation=\"push\",result=\"rejected\"}";
    let rejected_before = crate::telemetry::metrics::now(rejected);
    let refused = remote
        .push_ref(
            &b.repo,
            &shared.path,
            "refs/heads/main",
            Some(stale),
            stale,
            "test",
        )
        .unwrap();
    assert_eq!(
        refused.err().map(|r| r.actual.map(|o| o.to_string())),
        Some(Some(winner.id.clone()))
    );
    let refused = remote
        .push_ref(&b.repo, &shared.path, "refs/tags/v1", None, stale, "test")
        .unwrap();
    assert_eq!(refused.err().map(|r| r.actual), Some(Some(stale)));
    // Both refusals are counted (other tests running at once may add theirs).
    assert!(crate::telemetry::metrics::now(rejected) - rejected_before >= 2.0);
    let main = shared
        .remote_repo()
        .refname_to_id("refs/heads/main")
        .unwrap();
    assert_eq!(main.to_string(), winner.id, "the remote keeps the winner");
    // Through the model API: B's tag move, from a value the remote no longer has.
    shared
        .remote_repo()
        .reference("refs/tags/v1", main, true, "moved")
        .unwrap();
    let err = b.set_tag("v1", &root, true);
    // B fetched first, so it moved from the remote's value: accepted.
    assert_eq!(err.unwrap().1.as_deref(), Some(winner.id.as_str()));
    assert_eq!(
        shared
            .remote_repo()
            .refname_to_id("refs/tags/v1")
            .unwrap()
            .to_string(),
        root
    );
    let err = b.tag("v1", "main").unwrap_err();
    assert!(matches!(err, RepoError::AlreadyExists(_)), "{err}");
}

#[test]
fn with_the_remote_down_reads_use_the_mirror_and_writes_fail_clearly() {
    let shared = Shared::new();
    let b = shared.b.open(&shared.path).unwrap();
    let head = b.resolve(None).unwrap().commit;
    assert_eq!(shared.b.check_remote(), RemoteHealth::Reachable);
    let away = shared.dir.path().join("remote-away");
    std::fs::rename(shared.remote_dir(), &away).unwrap();
    assert!(matches!(
        shared.b.check_remote(),
        RemoteHealth::Unreachable(_)
    ));
    shared.b.mark_stale(&shared.path);
    assert_eq!(b.resolve(Some("main")).unwrap().commit, head);
    assert_eq!(shared.b.list().unwrap().len(), 1);
    let err = b
        .commit("main", None, None, Some("questions: x\n"), "x")
        .unwrap_err();
    assert!(matches!(err, RepoError::RemoteUnavailable { .. }), "{err}");
    assert!(
        err.to_string()
            .starts_with("the model repositories' remote is unavailable (file://"),
        "{err}"
    );
    let err = b.set_tag("v1", "main", false).unwrap_err();
    assert!(matches!(err, RepoError::RemoteUnavailable { .. }), "{err}");
    let other = ModelPath::parse("acme/new").unwrap();
    let err = shared
        .b
        .create(&other, &files("m", "q"), None, "init")
        .unwrap_err();
    assert!(matches!(err, RepoError::RemoteUnavailable { .. }), "{err}");
    assert!(!other.git_dir(&shared.dir.path().join("b/repos")).exists());
    // Nothing was written locally either; back up, writes work again.
    assert_eq!(b.resolve(None).unwrap().commit, head);
    std::fs::rename(&away, shared.remote_dir()).unwrap();
    let made = b
        .commit("main", None, None, Some("questions: x\n"), "x")
        .unwrap();
    shared.a.mark_stale(&shared.path);
    let a = shared.a.open(&shared.path).unwrap();
    assert_eq!(a.resolve(None).unwrap().commit, made.id);
}

#[test]
fn without_a_remote_there_is_nothing_to_check() {
    let dir = tempfile::TempDir::new().unwrap();
    assert_eq!(
        Repos::new(dir.path()).check_remote(),
        RemoteHealth::NotConfigured
    );
}
