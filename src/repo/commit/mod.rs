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
use git2::{ErrorCode, Oid, Repository, Signature, Time, Tree};

use super::error::RepoError;
use super::model::ModelRepo;
use super::read::{
    ALIGNED_DIR, Checkpoint, GATES_FILE, LEARNED_DIR, MODEL_FILE, QUESTIONS_FILE, aligned_file_name,
};
use super::ref_name;
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
        (GATES_FILE, files.gates_yaml),
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
    /// `gates.yaml`, the per-question gates of `arbiter eval`.
    pub gates_yaml: Option<&'a str>,
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
        let what = format!("branch `{branch}`");
        self.swap_ref(&name, branch, &what, expected, new, log)
    }

    /// Points `refname` (`short`, described as `what`) at `new` iff it still is at
    /// `expected` (None: it must not exist), on the shared remote first when there is one
    /// ([`Self::publish`]); a lost race is a `Conflict`.
    pub(super) fn swap_ref(
        &self,
        refname: &str,
        short: &str,
        what: &str,
        expected: Option<Oid>,
        new: Oid,
        log: &str,
    ) -> Result<(), RepoError> {
        if self.remote.is_some() {
            return self.publish(refname, short, what, expected, new, log);
        }
        let result = match expected {
            Some(old) => self.repo.reference_matching(refname, new, true, old, log),
            None => self.repo.reference(refname, new, false, log),
        };
        match result {
            Ok(_) => Ok(()),
            Err(e) if is_lost_race(&e) => Err(RepoError::Conflict {
                model: self.path.to_string(),
                branch: short.to_owned(),
                reason: match (expected, e.code()) {
                    (_, ErrorCode::Locked) => "another writer is updating it right now".into(),
                    (Some(old), _) => format!("expected it at {old}, but another writer moved it"),
                    (None, _) => "another writer created it first".into(),
                },
            }),
            Err(e) => Err(self
                .name_clash(short, refname)
                .unwrap_or_else(|| self.git_err(&format!("updating {what}"))(e))),
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

    /// Deletes `branch` (never the default branch); the commit it pointed at. On a shared
    /// remote the deletion is made there first, refused if another writer moved the branch.
    pub fn delete_branch(&self, branch: &str) -> Result<String, RepoError> {
        // A name no branch can have names no branch there: not found, as any other.
        if let Err(RepoError::InvalidName { reason, .. }) =
            check_name("refs/heads/", branch, "branch")
        {
            return Err(self.not_found(branch, format!("no branch can be named so: {reason}")));
        }
        self.sync_for_write()?;
        if self.default_branch()? == branch {
            return Err(RepoError::DefaultBranch {
                model: self.path.to_string(),
                branch: branch.to_owned(),
            });
        }
        let Some(tip) = self.branch_tip(branch)? else {
            return Err(self.not_found(branch, format!("no branch named `{branch}`")));
        };
        let refname = format!("refs/heads/{branch}");
        if let Some(remote) = &self.remote {
            if let Err(rejected) = remote.delete_ref(&self.repo, &self.path, &refname, tip)? {
                remote.mark_stale(&self.path);
                return Err(RepoError::Conflict {
                    model: self.path.to_string(),
                    branch: branch.to_owned(),
                    reason: format!(
                        "the remote has it at {}, not at {tip}: another writer moved it; read \
                         it again and retry",
                        rejected
                            .actual
                            .map_or_else(|| "nowhere".to_owned(), |o| o.to_string())
                    ),
                });
            }
            return Ok(tip.to_string());
        }
        let mut found = self
            .repo
            .find_reference(&refname)
            .map_err(self.git_err(&format!("reading branch `{branch}`")))?;
        found
            .delete()
            .map_err(self.git_err(&format!("deleting branch `{branch}`")))?;
        Ok(tip.to_string())
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
    } else if let Some(problem) = ref_name::problem(prefix, name) {
        problem
    } else {
        return Ok(());
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
mod tests;
