//! Writing: new checkpoints on a branch, tags and fast-forwards. Every ref
//! update is a compare-and-swap against the value the caller read, so
//! concurrent writers (other threads, other processes, `git push`) can
//! never silently overwrite each other.
//!
//! With a shared remote, a write first fetches (so it starts from what the
//! remote has), builds its objects in the mirror, and pushes the ref move
//! with a compare-and-swap on the remote *before* the mirror's ref moves: a
//! reader of the mirror never sees a commit the remote refused, and a
//! refused move leaves nothing to undo (the mirror is fetched again, and the
//! caller gets [`RepoError::RemoteRejected`], 409 `not_fast_forward`). A
//! rejected commit is not retried on the new tip: the caller validated the
//! files against the tip it read, so the merge is the caller's to redo.

use chrono::Utc;
use git2::{ErrorCode, Oid, Reference, Repository, Signature, Time, Tree};

use super::checkpoint::{
    ALIGNED_DIR, Checkpoint, LEARNED_DIR, MODEL_FILE, QUESTIONS_FILE, aligned_file_name,
};
use super::error::RepoError;
use super::model::ModelRepo;
use super::revision::{Resolved, RevisionKind};

/// File mode of a regular, non-executable file in a git tree.
const FILE_MODE: i32 = 0o100_644;

/// The fixed identity of commits made by arbiter; user config is never read.
pub(super) fn signature() -> Result<Signature<'static>, git2::Error> {
    Signature::new(
        "arbiter",
        "arbiter@localhost",
        &Time::new(Utc::now().timestamp(), 0),
    )
}

/// Writes a tree: `base` (if any) with the given files replaced. Starting
/// from the parent tree keeps files users added by hand.
pub(super) fn write_tree(
    repo: &Repository,
    base: Option<&Tree<'_>>,
    files: &FileChange<'_>,
) -> Result<Oid, git2::Error> {
    let mut builder = repo.treebuilder(base)?;
    for (name, content) in [
        (MODEL_FILE, files.model_yaml),
        (QUESTIONS_FILE, files.questions_yaml),
    ] {
        if let Some(content) = content {
            builder.insert(name, repo.blob(content.as_bytes())?, FILE_MODE)?;
        }
    }
    let aligned = files.aligned;
    if !aligned.is_empty() || !files.unaligned.is_empty() {
        // `aligned/` grows from the base's: the other questions' files stay.
        let existing = base
            .and_then(|tree| tree.get_name(ALIGNED_DIR))
            .filter(|entry| entry.kind() == Some(git2::ObjectType::Tree))
            .map(|entry| repo.find_tree(entry.id()))
            .transpose()?;
        let mut dir = repo.treebuilder(existing.as_ref())?;
        for (question, content) in aligned {
            dir.insert(
                aligned_file_name(question),
                repo.blob(content.as_bytes())?,
                FILE_MODE,
            )?;
        }
        for question in files.unaligned {
            if dir.get(aligned_file_name(question))?.is_some() {
                dir.remove(aligned_file_name(question))?;
            }
        }
        if dir.is_empty() {
            if builder.get(ALIGNED_DIR)?.is_some() {
                builder.remove(ALIGNED_DIR)?;
            }
        } else {
            builder.insert(ALIGNED_DIR, dir.write()?, DIR_MODE)?;
        }
    }
    if let Some(learned) = files.learned {
        // `learned/` is written whole: its manifest names every head in it (none: it goes).
        if learned.is_empty() {
            if builder.get(LEARNED_DIR)?.is_some() {
                builder.remove(LEARNED_DIR)?;
            }
        } else {
            let mut dir = repo.treebuilder(None)?;
            for (name, bytes) in learned {
                dir.insert(name, repo.blob(bytes)?, FILE_MODE)?;
            }
            builder.insert(LEARNED_DIR, dir.write()?, DIR_MODE)?;
        }
    }
    builder.write()
}

/// File mode of a directory in a git tree.
const DIR_MODE: i32 = 0o040_000;

/// What a commit writes; `None` keeps the parent's file.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileChange<'a> {
    pub model_yaml: Option<&'a str>,
    pub questions_yaml: Option<&'a str>,
    /// Question ID → the text of its `aligned/<id>.yaml` (other questions' files stay).
    pub aligned: &'a [(String, String)],
    /// Questions whose `aligned/<id>.yaml` goes (they have learned parameters instead).
    pub unaligned: &'a [String],
    /// The whole of `learned/`, by file name (`None`: the parent's stays).
    pub learned: Option<&'a [(String, Vec<u8>)]>,
}

/// Content to write, and the message.
struct Change<'a> {
    files: FileChange<'a>,
    message: &'a str,
}

impl ModelRepo {
    /// Commits the given files onto `branch` (None = keep the parent's
    /// file). An existing branch grows from its tip; a missing one is
    /// created from `start` (resolved as in `resolve`, None = default
    /// branch). Another writer moving the branch first → `Conflict`.
    pub fn commit(
        &self,
        branch: &str,
        start: Option<&str>,
        model_yaml: Option<&str>,
        questions_yaml: Option<&str>,
        message: &str,
    ) -> Result<Checkpoint, RepoError> {
        let files = FileChange {
            model_yaml,
            questions_yaml,
            ..FileChange::default()
        };
        self.commit_files(branch, start, files, message)
    }

    /// [`Self::commit`] with learned files under `aligned/` too.
    pub fn commit_files(
        &self,
        branch: &str,
        start: Option<&str>,
        files: FileChange<'_>,
        message: &str,
    ) -> Result<Checkpoint, RepoError> {
        check_name("refs/heads/", branch, "branch")?;
        self.sync_for_write()?;
        let expected = self.branch_tip(branch)?;
        let parent = match expected {
            Some(tip) => tip,
            None => self.resolve_oid(start)?,
        };
        let change = Change { files, message };
        self.commit_onto(branch, expected, parent, &change)
    }

    /// The write half of `commit`: `expected` is the branch tip the caller
    /// saw (None = branch must not exist yet). Split out so a stale view can
    /// be tested.
    fn commit_onto(
        &self,
        branch: &str,
        expected: Option<Oid>,
        parent: Oid,
        change: &Change<'_>,
    ) -> Result<Checkpoint, RepoError> {
        let err = |action: &str| self.git_err(&format!("{action} on branch `{branch}`"));
        let parent = self
            .repo
            .find_commit(parent)
            .map_err(err("reading the parent commit"))?;
        let parent_tree = parent.tree().map_err(err("reading the parent tree"))?;
        let tree_id = write_tree(&self.repo, Some(&parent_tree), &change.files)
            .map_err(err("writing a tree"))?;
        if tree_id == parent_tree.id() {
            return Err(RepoError::NothingToCommit);
        }
        let tree = self
            .repo
            .find_tree(tree_id)
            .map_err(err("reading the new tree"))?;
        let sig = signature().map_err(err("creating the signature"))?;
        let message = with_trailing_newline(change.message);
        // No ref is updated here: the CAS below is the only ref write.
        let id = self
            .repo
            .commit(None, &sig, &sig, &message, &tree, &[&parent])
            .map_err(err("writing a commit"))?;
        self.swap_branch(
            branch,
            expected,
            id,
            &format!("arbiter: commit {}", first_line(change.message)),
        )?;
        let commit = self
            .repo
            .find_commit(id)
            .map_err(err("reading the new commit"))?;
        self.to_checkpoint(&commit)
    }

    /// Points `refs/heads/<branch>` at `new` iff it still is at `expected`
    /// (or, for None, still does not exist). libgit2 takes the ref's lock
    /// file and checks the old value under it, so a lost race either fails
    /// cleanly or leaves the ref untouched.
    fn swap_branch(
        &self,
        branch: &str,
        expected: Option<Oid>,
        new: Oid,
        log: &str,
    ) -> Result<(), RepoError> {
        let name = format!("refs/heads/{branch}");
        if self.remote.is_some() {
            let what = format!("branch `{branch}`");
            return self.publish(&name, branch, &what, expected, new, log);
        }
        let result = match expected {
            Some(old) => self.repo.reference_matching(&name, new, true, old, log),
            None => self.repo.reference(&name, new, false, log),
        };
        match result {
            Ok(_) => Ok(()),
            Err(e) if is_lost_race(&e) => Err(RepoError::Conflict {
                model: self.path.to_string(),
                branch: branch.to_owned(),
                reason: match (expected, e.code()) {
                    (_, ErrorCode::Locked) => "another writer is updating it right now".into(),
                    (Some(old), _) => format!("expected it at {old}, but another writer moved it"),
                    (None, _) => "another writer created it first".into(),
                },
            }),
            Err(e) => Err(self
                .name_clash(branch, &name)
                .unwrap_or_else(|| self.git_err(&format!("updating branch `{branch}`"))(e))),
        }
    }

    /// With a remote: moves `refname` (`short`, described as `what`) from `expected` to
    /// `new` on the remote, then in the mirror.
    fn publish(
        &self,
        refname: &str,
        short: &str,
        what: &str,
        expected: Option<Oid>,
        new: Oid,
        log: &str,
    ) -> Result<(), RepoError> {
        let Some(remote) = &self.remote else {
            return Ok(());
        };
        // The mirror was just fetched, so a clash there is a clash on the remote.
        if expected.is_none()
            && let Some(clash) = self.name_clash(short, refname)
        {
            return Err(clash);
        }
        if expected == Some(new) {
            return Ok(());
        }
        match remote.push_ref(&self.repo, &self.path, refname, expected, new, log)? {
            Ok(()) => Ok(()),
            Err(rejected) => {
                // Nothing moved here; the mirror takes what the remote has now.
                remote.mark_stale(&self.path);
                if let Err(error) = remote.fetch(&self.repo, &self.path) {
                    tracing::warn!(%error, model = %self.path, "fetching after a refused push failed");
                }
                let show =
                    |oid: Option<Oid>| oid.map_or_else(|| "nowhere".to_owned(), |o| o.to_string());
                Err(RepoError::RemoteRejected {
                    model: self.path.to_string(),
                    reference: what.to_owned(),
                    reason: format!(
                        "the remote has it at {}, not at {} where this write started: another \
                         replica or a git push moved it first; read it again and retry",
                        show(rejected.actual),
                        show(expected)
                    ),
                })
            }
        }
    }

    /// Explains a failed ref creation caused by a `a` vs `a/b` clash with
    /// an existing ref: git stores refs as files, so both cannot exist.
    fn name_clash(&self, name: &str, full_name: &str) -> Option<RepoError> {
        let refs = self.repo.references().ok()?;
        let clash = refs.flatten().find_map(|r| {
            let other = r.name().ok()?;
            let nested = other.starts_with(&format!("{full_name}/"))
                || full_name.starts_with(&format!("{other}/"));
            nested.then(|| other.to_owned())
        })?;
        Some(RepoError::InvalidName {
            name: name.to_owned(),
            reason: format!("it clashes with the existing ref `{clash}`"),
        })
    }

    /// Creates the lightweight tag `name` at `revision`.
    pub fn tag(&self, name: &str, revision: &str) -> Result<Resolved, RepoError> {
        self.set_tag(name, revision, false).map(|moved| moved.0)
    }

    /// Points the lightweight tag `name` at `revision`: creates it, or with `force` moves an
    /// existing one (as `git tag -f`). Also returns the commit it pointed at before, if any.
    /// The move is a compare-and-swap, so a racing writer is a conflict, not lost.
    pub fn set_tag(
        &self,
        name: &str,
        revision: &str,
        force: bool,
    ) -> Result<(Resolved, Option<String>), RepoError> {
        check_name("refs/tags/", name, "tag")?;
        self.sync_for_write()?;
        let target = self.resolve_oid(Some(revision))?;
        let refname = format!("refs/tags/{name}");
        let before = match self.repo.find_reference(&refname) {
            Ok(existing) => existing.target(),
            Err(e) if e.code() == ErrorCode::NotFound => None,
            Err(e) => return Err(self.git_err(&format!("reading tag `{name}`"))(e)),
        };
        let tagged = Resolved {
            name: name.to_owned(),
            kind: RevisionKind::Tag,
            commit: target.to_string(),
        };
        if self.remote.is_some() {
            if before.is_some() && !force {
                return Err(RepoError::AlreadyExists(format!("tag {name}")));
            }
            let what = format!("tag `{name}`");
            self.publish(&refname, name, &what, before, target, "arbiter: tag")?;
            return Ok((tagged, before.map(|oid| oid.to_string())));
        }
        let result = match before {
            Some(old) if force => {
                self.repo
                    .reference_matching(&refname, target, true, old, "arbiter: tag -f")
            }
            _ => self.repo.reference(&refname, target, false, "arbiter: tag"),
        };
        match result {
            Ok(_) => Ok((tagged, before.map(|oid| oid.to_string()))),
            Err(e) if e.code() == ErrorCode::Exists && !force => {
                Err(RepoError::AlreadyExists(format!("tag {name}")))
            }
            Err(e) if is_lost_race(&e) => Err(RepoError::AlreadyExists(format!(
                "tag {name} (another writer moved it)"
            ))),
            Err(e) => Err(self
                .name_clash(name, &refname)
                .unwrap_or_else(|| self.git_err(&format!("creating tag `{name}`"))(e))),
        }
    }

    /// Moves existing `branch` to `revision`'s commit if that is a
    /// fast-forward (the tip is an ancestor of, or equal to, the target). Also returns the
    /// tip it moved from (the target itself when it was there already).
    pub fn fast_forward(
        &self,
        branch: &str,
        revision: &str,
    ) -> Result<(String, Checkpoint), RepoError> {
        check_name("refs/heads/", branch, "branch")?;
        self.sync_for_write()?;
        let Some(tip) = self.branch_tip(branch)? else {
            return Err(self.not_found(branch, format!("no branch named `{branch}`")));
        };
        let target = self.resolve_oid(Some(revision))?;
        let checkpoint = self.fast_forward_from(branch, tip, target)?;
        Ok((tip.to_string(), checkpoint))
    }

    /// The write half of `fast_forward`, given the tip the caller saw.
    fn fast_forward_from(
        &self,
        branch: &str,
        tip: Oid,
        target: Oid,
    ) -> Result<Checkpoint, RepoError> {
        if tip != target {
            let descends = self
                .repo
                .graph_descendant_of(target, tip)
                .map_err(self.git_err("comparing commits"))?;
            if !descends {
                return Err(RepoError::NotFastForward {
                    model: self.path.to_string(),
                    branch: branch.to_owned(),
                    reason: format!("its tip {tip} is not an ancestor of {target}"),
                });
            }
            self.swap_branch(branch, Some(tip), target, "arbiter: fast-forward")?;
        }
        self.checkpoint(&target.to_string())
    }
}

/// Both a moved ref (`Modified`) and a ref locked by a concurrent writer
/// (`Locked`) mean someone else got there first; `Exists` is the same for
/// a branch we meant to create, `NotFound` for one deleted under us.
fn is_lost_race(e: &git2::Error) -> bool {
    matches!(
        e.code(),
        ErrorCode::Modified | ErrorCode::Locked | ErrorCode::Exists | ErrorCode::NotFound
    )
}

/// git's own ref-name rules, plus two that `git branch`/`git tag` add: no
/// leading `-` (it would read as an option) and no branch called `HEAD`.
fn check_name(prefix: &str, name: &str, what: &str) -> Result<(), RepoError> {
    let reason = if name.starts_with('-') {
        format!("a {what} name must not start with `-`")
    } else if name == "HEAD" && what == "branch" {
        "`HEAD` is reserved".to_owned()
    } else if Reference::is_valid_name(&format!("{prefix}{name}")) {
        return Ok(());
    } else {
        format!("not a valid git {what} name")
    };
    Err(RepoError::InvalidName {
        name: name.to_owned(),
        reason,
    })
}

fn first_line(message: &str) -> &str {
    message.lines().next().unwrap_or("")
}

/// git tooling expects messages to end with a newline.
pub(super) fn with_trailing_newline(message: &str) -> String {
    let mut m = message.to_owned();
    if !m.ends_with('\n') {
        m.push('\n');
    }
    m
}

#[cfg(test)]
mod tests {
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
}
