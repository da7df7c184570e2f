use std::collections::BTreeSet;

use super::super::test_support::{files, setup};
use super::*;

fn parse_oid(id: &str) -> Oid {
    Oid::from_str(id).unwrap()
}

#[test]
fn learned_files_live_under_aligned_and_a_commit_keeps_the_others() {
    let (_dir, _repos, model) = setup();
    let learned = |id: &str, text: &str| (id.to_owned(), text.to_owned());
    let first = model
        .commit_files(
            "main",
            None,
            FileChange {
                aligned: &[learned("intent", "a: 1\n"), learned("urgency", "b: 1\n")],
                ..FileChange::default()
            },
            "align",
        )
        .unwrap();
    let read = model.read(&first.id).unwrap();
    assert_eq!(
        read.aligned,
        [learned("intent", "a: 1\n"), learned("urgency", "b: 1\n")]
    );
    assert_eq!(
        read.questions_yaml, "questions: 1\n",
        "the other files stay"
    );
    let second = model
        .commit_files(
            "main",
            None,
            FileChange {
                aligned: &[learned("intent", "a: 2\n")],
                ..FileChange::default()
            },
            "again",
        )
        .unwrap();
    assert_eq!(
        model.read(&second.id).unwrap().aligned,
        [learned("intent", "a: 2\n"), learned("urgency", "b: 1\n")]
    );
    // What is not a learned file in the directory (a note, a subdirectory) is not read.
    let tree = model
        .repo
        .find_commit(parse_oid(&second.id))
        .unwrap()
        .tree()
        .unwrap();
    let dir = model
        .repo
        .find_tree(tree.get_name(ALIGNED_DIR).unwrap().id())
        .unwrap();
    let mut with_note = model.repo.treebuilder(Some(&dir)).unwrap();
    let note = model.repo.blob(b"hand-written").unwrap();
    with_note.insert("README.md", note, FILE_MODE).unwrap();
    with_note.insert(".yaml", note, FILE_MODE).unwrap();
    let dir = with_note.write().unwrap();
    let mut root = model.repo.treebuilder(Some(&tree)).unwrap();
    root.insert(ALIGNED_DIR, dir, DIR_MODE).unwrap();
    let root = model.repo.find_tree(root.write().unwrap()).unwrap();
    let parent = model.repo.find_commit(parse_oid(&second.id)).unwrap();
    let sig = signature().unwrap();
    let third = model
        .repo
        .commit(None, &sig, &sig, "note\n", &root, &[&parent])
        .unwrap();
    assert_eq!(model.read(&third.to_string()).unwrap().aligned.len(), 2);
}

#[test]
fn commit_to_existing_branch_keeps_other_file() {
    let (_dir, _repos, model) = setup();
    let root = model.resolve(None).unwrap().commit;
    let cp = model
        .commit(
            "main",
            None,
            None,
            Some("questions: 2\n"),
            "edit questions\n",
        )
        .unwrap();
    assert_eq!(
        (cp.parents.as_slice(), cp.message.as_str()),
        (&[root][..], "edit questions")
    );
    assert_eq!(
        model.read(&cp.id).unwrap(),
        files("model: 1\n", "questions: 2\n")
    );
    assert_eq!(model.resolve(Some("main")).unwrap().commit, cp.id);
    let author = model.repo.find_commit(parse_oid(&cp.id)).unwrap();
    assert_eq!(author.author().name().unwrap(), "arbiter");
    assert_eq!(author.committer().email().unwrap(), "arbiter@localhost");
}

#[test]
fn commit_creates_a_branch_from_a_tag() {
    let (_dir, _repos, model) = setup();
    let root = model.resolve(None).unwrap().commit;
    let main2 = model
        .commit("main", None, Some("model: 2\n"), None, "m2")
        .unwrap();
    model.tag("v1", &root).unwrap();
    let cp = model
        .commit("draft", Some("v1"), None, Some("questions: d\n"), "draft")
        .unwrap();
    assert_eq!(cp.parents, [root]);
    assert_eq!(
        model.read(&cp.id).unwrap(),
        files("model: 1\n", "questions: d\n")
    );
    // `start` only matters for a new branch: draft now grows from its tip.
    let cp2 = model
        .commit("draft", Some("main"), Some("model: d\n"), None, "d2")
        .unwrap();
    assert_eq!(cp2.parents, [cp.id]);
    assert_eq!(model.resolve(None).unwrap().commit, main2.id);
    let missing = model.commit("x", Some("nope"), None, Some("q"), "x");
    assert!(matches!(missing, Err(RepoError::RevisionNotFound { .. })));
}

#[test]
fn identical_tree_is_nothing_to_commit() {
    let (_dir, _repos, model) = setup();
    for (m, q) in [
        (None, None),
        (Some("model: 1\n"), None),
        (Some("model: 1\n"), Some("questions: 1\n")),
    ] {
        assert!(matches!(
            model.commit("main", None, m, q, "same"),
            Err(RepoError::NothingToCommit)
        ));
    }
    assert!(matches!(
        model.commit("new", None, None, None, "same"),
        Err(RepoError::NothingToCommit)
    ));
    assert_eq!(model.branches().unwrap().len(), 1);
}

#[test]
fn invalid_branch_and_tag_names_are_rejected() {
    let (_dir, _repos, model) = setup();
    for bad in [
        "", "a..b", "x~1", "@{-1}", "-", "-x", "a b", "x.lock", "/x", "x/", "a\0b", "HEAD^",
    ] {
        let c = model.commit(bad, None, None, Some("q"), "m");
        assert!(
            matches!(c, Err(RepoError::InvalidName { .. })),
            "{bad:?}: {c:?}"
        );
        let t = model.tag(bad, "main");
        assert!(
            matches!(t, Err(RepoError::InvalidName { .. })),
            "{bad:?}: {t:?}"
        );
    }
    let head = model.commit("HEAD", None, None, Some("q"), "m");
    assert!(
        matches!(head, Err(RepoError::InvalidName { .. })),
        "{head:?}"
    );
}

/// A name git's syntax allows but libgit2 cannot normalize (over 1024 bytes with its
/// prefix) is refused or not found by every ref operation, never a git error.
#[test]
fn over_long_ref_names_are_invalid_or_not_found_everywhere() {
    let (_dir, _repos, model) = setup();
    let long = "\u{911d8}".repeat(300);
    let c = model.commit(&long, None, None, Some("q"), "m");
    assert!(matches!(c, Err(RepoError::InvalidName { .. })), "{c:?}");
    let t = model.tag(&long, "main");
    assert!(matches!(t, Err(RepoError::InvalidName { .. })), "{t:?}");
    let d = model.delete_branch(&long);
    assert!(
        matches!(d, Err(RepoError::RevisionNotFound { .. })),
        "{d:?}"
    );
    let r = model.resolve(Some(&long));
    assert!(
        matches!(r, Err(RepoError::RevisionNotFound { .. })),
        "{r:?}"
    );
}

#[test]
fn names_clashing_with_nested_refs_are_invalid() {
    let (_dir, _repos, model) = setup();
    model
        .commit("feature/a", None, None, Some("q: a\n"), "a")
        .unwrap();
    model.tag("t/a", "main").unwrap();
    let clashes = [
        model
            .commit("feature", None, None, Some("q: b\n"), "b")
            .map(|_| ()),
        model
            .commit("main/x", None, None, Some("q: c\n"), "c")
            .map(|_| ()),
        model.tag("t", "main").map(|_| ()),
        model.tag("t/a/b", "main").map(|_| ()),
    ];
    for result in clashes {
        let err = result.unwrap_err();
        assert!(matches!(err, RepoError::InvalidName { .. }), "{err}");
        assert!(
            err.to_string().contains("clashes with the existing ref"),
            "{err}"
        );
    }
    let names: Vec<_> = model.branches().unwrap().into_iter().map(|b| b.0).collect();
    assert_eq!(names, ["feature/a", "main"]);
}

#[test]
fn stale_tip_is_a_conflict_and_leaves_the_branch_alone() {
    let (_dir, repos, model) = setup();
    let stale = model.branch_tip("main").unwrap().unwrap();
    let other = repos.open(model.path()).unwrap();
    let moved = other
        .commit("main", None, None, Some("questions: other\n"), "other")
        .unwrap();
    let change = Change {
        files: FileChange {
            model_yaml: Some("model: mine\n"),
            ..FileChange::default()
        },
        message: "mine",
    };
    let err = model
        .commit_onto("main", Some(stale), stale, &change)
        .unwrap_err();
    assert!(
        matches!(&err, RepoError::Conflict { branch, .. } if branch == "main"),
        "{err}"
    );
    assert_eq!(model.resolve(None).unwrap().commit, moved.id);
    // Creating a branch that someone else created meanwhile conflicts too.
    other
        .commit("fresh", None, None, Some("questions: f\n"), "f")
        .unwrap();
    let err = model
        .commit_onto("fresh", None, stale, &change)
        .unwrap_err();
    assert!(matches!(err, RepoError::Conflict { .. }), "{err}");
}

#[test]
fn concurrent_writers_all_land_exactly_once() {
    let (_dir, repos, model) = setup();
    let path = model.path().clone();
    std::thread::scope(|s| {
        for i in 0..8 {
            let (repos, path) = (&repos, &path);
            s.spawn(move || {
                let mine = repos.open(path).unwrap();
                let q = format!("questions: writer {i}\n");
                loop {
                    match mine.commit("main", None, None, Some(&q), &format!("writer {i}")) {
                        Ok(_) => break,
                        Err(RepoError::Conflict { .. }) => std::thread::yield_now(),
                        Err(e) => panic!("writer {i}: {e}"),
                    }
                }
            });
        }
    });
    let history = model.log(None, 100).unwrap();
    assert_eq!(history.len(), 1 + 8);
    let written: BTreeSet<_> = history[..8]
        .iter()
        .map(|c| model.read(&c.id).unwrap().questions_yaml)
        .collect();
    let expected: BTreeSet<_> = (0..8).map(|i| format!("questions: writer {i}\n")).collect();
    assert_eq!(written, expected);
}

#[test]
fn existing_tag_is_already_exists() {
    let (_dir, _repos, model) = setup();
    let r = model.tag("v1", "main").unwrap();
    assert_eq!((r.name.as_str(), r.kind), ("v1", RevisionKind::Tag));
    let err = model.tag("v1", "main").unwrap_err();
    assert!(
        matches!(&err, RepoError::AlreadyExists(what) if what == "tag v1"),
        "{err}"
    );
    assert!(matches!(
        model.tag("v2", "nope"),
        Err(RepoError::RevisionNotFound { .. })
    ));
}

#[test]
fn a_forced_tag_moves_and_says_from_where() {
    let (_dir, _repos, model) = setup();
    let root = model.resolve(None).unwrap().commit;
    let (tag, before) = model.set_tag("v1", "main", true).unwrap();
    assert_eq!((tag.commit.as_str(), before), (root.as_str(), None));
    let next = model
        .commit("main", None, None, Some("questions: n\n"), "n")
        .unwrap();
    assert!(matches!(
        model.set_tag("v1", "main", false),
        Err(RepoError::AlreadyExists(_))
    ));
    assert_eq!(model.resolve(Some("v1")).unwrap().commit, root);
    let (tag, before) = model.set_tag("v1", "main", true).unwrap();
    assert_eq!((tag.commit, before), (next.id.clone(), Some(root)));
    assert_eq!(model.resolve(Some("v1")).unwrap().commit, next.id);
}

#[test]
fn fast_forward_moves_only_forward() {
    let (_dir, _repos, model) = setup();
    let root = model.resolve(None).unwrap().commit;
    model
        .commit("draft", None, None, Some("questions: d1\n"), "d1")
        .unwrap();
    let d2 = model
        .commit("draft", None, None, Some("questions: d2\n"), "d2")
        .unwrap();
    let (from, cp) = model.fast_forward("main", "draft").unwrap();
    assert_eq!(
        (from.as_str(), cp.id.as_str()),
        (root.as_str(), d2.id.as_str())
    );
    assert_eq!(model.resolve(None).unwrap().commit, d2.id);
    // Equal is a (no-op) fast-forward; going back is not.
    let (from, cp) = model.fast_forward("main", &d2.id).unwrap();
    assert_eq!((from, cp.id), (d2.id.clone(), d2.id.clone()));
    let err = model.fast_forward("main", &root).unwrap_err();
    assert!(matches!(err, RepoError::NotFastForward { .. }), "{err}");
    // Diverged: main moves on, draft gets its own commit.
    model
        .commit("main", None, Some("model: 2\n"), None, "m2")
        .unwrap();
    model
        .commit("draft", None, None, Some("questions: d3\n"), "d3")
        .unwrap();
    assert!(matches!(
        model.fast_forward("main", "draft"),
        Err(RepoError::NotFastForward { .. })
    ));
    assert!(matches!(
        model.fast_forward("nope", "draft"),
        Err(RepoError::RevisionNotFound { .. })
    ));
}

#[test]
fn fast_forward_with_stale_tip_conflicts() {
    let (_dir, repos, model) = setup();
    let stale = model.branch_tip("main").unwrap().unwrap();
    let draft = model
        .commit("draft", None, None, Some("questions: d\n"), "d")
        .unwrap();
    repos
        .open(model.path())
        .unwrap()
        .commit("main", None, Some("model: x\n"), None, "x")
        .unwrap();
    let err = model
        .fast_forward_from("main", stale, parse_oid(&draft.id))
        .unwrap_err();
    assert!(matches!(err, RepoError::Conflict { .. }), "{err}");
}
