//! Reading checkpoints: the two model files at a commit, commit metadata,
//! and first-parent history.

use chrono::{DateTime, Utc};
use git2::{Commit, ObjectType, Tree};

use super::error::RepoError;
use super::model::ModelRepo;

pub(super) const MODEL_FILE: &str = "model.yaml";
pub(super) const QUESTIONS_FILE: &str = "questions.yaml";
pub(super) const GATES_FILE: &str = crate::wire::gates::GATES_FILE;
/// The directory of learned files, one per aligned question: `aligned/<id>.yaml`.
pub const ALIGNED_DIR: &str = "aligned";
const ALIGNED_SUFFIX: &str = ".yaml";

/// The name of a question's learned file inside [`ALIGNED_DIR`].
pub(super) fn aligned_file_name(question: &str) -> String {
    format!("{question}{ALIGNED_SUFFIX}")
}

/// The files of a checkpoint, as opaque UTF-8 text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Files {
    pub model_yaml: String,
    pub questions_yaml: String,
    /// Question ID → its learned file `aligned/<id>.yaml`, by ID. Other entries of the
    /// directory (not `.yaml`, not regular files) are not the model's and are left out.
    pub aligned: Vec<(String, String)>,
    /// The regular files under [`LEARNED_DIR`] (learned parameters: a manifest and
    /// tensors), by name, as bytes.
    pub learned: LearnedFiles,
}

/// Only regular files (0o100644 / 0o100755) are a model's: not trees, links or submodules.
fn is_regular_file(entry: &git2::TreeEntry<'_>) -> bool {
    entry.kind() == Some(ObjectType::Blob) && entry.filemode() & 0o170_000 == 0o100_000
}

/// The files of a checkpoint's `learned/`, by name.
pub type LearnedFiles = Vec<(String, Vec<u8>)>;

/// The directory of learned parameters, whose files the built-in engine reads and writes
/// (`engine::builtin::learned::file`); the repository keeps them as bytes.
pub const LEARNED_DIR: &str = "learned";

/// Metadata of one commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    /// Full 40-hex commit id.
    pub id: String,
    /// Committer time.
    pub created_at: DateTime<Utc>,
    /// Full commit message, trimmed.
    pub message: String,
    /// Parent commit ids, first parent first.
    pub parents: Vec<String>,
}

impl ModelRepo {
    /// The two files at commit `commit` (a full 40-hex id).
    pub fn read(&self, commit: &str) -> Result<Files, RepoError> {
        let commit = self.find_commit(commit)?;
        let tree = commit.tree().map_err(self.git_err("reading a tree"))?;
        Ok(Files {
            model_yaml: self.read_file(&commit, &tree, MODEL_FILE)?,
            questions_yaml: self.read_file(&commit, &tree, QUESTIONS_FILE)?,
            aligned: self.read_aligned(&commit, &tree)?,
            learned: self.read_learned(&tree)?,
        })
    }

    /// The text of `gates.yaml` at commit `commit`, if it has one (a file apart from
    /// [`Self::read`]'s: only an evaluation reads it, never a decision).
    pub fn read_gates(&self, commit: &str) -> Result<Option<String>, RepoError> {
        let commit = self.find_commit(commit)?;
        let tree = commit.tree().map_err(self.git_err("reading a tree"))?;
        let Some(entry) = tree.get_name(GATES_FILE) else {
            return Ok(None);
        };
        self.blob_text(&commit, &entry, GATES_FILE)?
            .map(Some)
            .ok_or_else(|| self.invalid(&commit, GATES_FILE, "not a regular file".into()))
    }

    /// The text of the file at `path` (`examples/annotated.jsonl`) at commit `commit`, if
    /// it has one there; a path that is not a regular file is not one.
    pub fn read_path(&self, commit: &str, path: &str) -> Result<Option<String>, RepoError> {
        let commit = self.find_commit(commit)?;
        let tree = commit.tree().map_err(self.git_err("reading a tree"))?;
        match tree.get_path(std::path::Path::new(path)) {
            Ok(entry) => self.blob_text(&commit, &entry, path),
            Err(e) if e.code() == git2::ErrorCode::NotFound => Ok(None),
            Err(e) => Err(self.git_err(&format!("reading {path}"))(e)),
        }
    }

    /// The directory `name` of `tree`, if it has one.
    fn subtree(&self, tree: &Tree<'_>, name: &str) -> Result<Option<Tree<'_>>, RepoError> {
        let Some(entry) = tree
            .get_name(name)
            .filter(|e| e.kind() == Some(ObjectType::Tree))
        else {
            return Ok(None);
        };
        self.repo
            .find_tree(entry.id())
            .map(Some)
            .map_err(self.git_err("reading a tree"))
    }

    /// The regular files under [`LEARNED_DIR`] (none when there is no such directory).
    fn read_learned(&self, tree: &Tree<'_>) -> Result<Vec<(String, Vec<u8>)>, RepoError> {
        let Some(dir) = self.subtree(tree, LEARNED_DIR)? else {
            return Ok(Vec::new());
        };
        let mut files = Vec::new();
        for entry in &dir {
            let Ok(name) = entry.name() else { continue };
            if !is_regular_file(&entry) {
                continue;
            }
            let blob = self
                .repo
                .find_blob(entry.id())
                .map_err(self.git_err("reading a file"))?;
            files.push((name.to_owned(), blob.content().to_vec()));
        }
        files.sort();
        Ok(files)
    }

    /// The learned files under [`ALIGNED_DIR`] (none when there is no such directory).
    fn read_aligned(
        &self,
        commit: &Commit<'_>,
        tree: &Tree<'_>,
    ) -> Result<Vec<(String, String)>, RepoError> {
        let Some(dir) = self.subtree(tree, ALIGNED_DIR)? else {
            return Ok(Vec::new());
        };
        let mut files = Vec::new();
        for entry in &dir {
            let Some(question) = entry
                .name()
                .ok()
                .and_then(|name| name.strip_suffix(ALIGNED_SUFFIX))
                .filter(|q| !q.is_empty())
            else {
                continue;
            };
            let name = format!("{ALIGNED_DIR}/{}", aligned_file_name(question));
            if let Some(text) = self.blob_text(commit, &entry, &name)? {
                files.push((question.to_owned(), text));
            }
        }
        files.sort();
        Ok(files)
    }

    /// Metadata of commit `commit` (a full 40-hex id).
    pub fn checkpoint(&self, commit: &str) -> Result<Checkpoint, RepoError> {
        let commit = self.find_commit(commit)?;
        self.to_checkpoint(&commit)
    }

    /// First-parent history from `revision` (None = default branch),
    /// newest first, at most `limit` entries.
    pub fn log(&self, revision: Option<&str>, limit: usize) -> Result<Vec<Checkpoint>, RepoError> {
        let start = self.resolve(revision)?.commit;
        let mut next = Some(self.find_commit(&start)?);
        let mut out = Vec::new();
        while let Some(commit) = next.take().filter(|_| out.len() < limit) {
            out.push(self.to_checkpoint(&commit)?);
            next = commit.parent(0).ok();
        }
        Ok(out)
    }

    pub(super) fn to_checkpoint(&self, commit: &Commit<'_>) -> Result<Checkpoint, RepoError> {
        Ok(Checkpoint {
            id: commit.id().to_string(),
            created_at: self.commit_time(commit)?,
            // Lossy: a non-UTF-8 message pushed by a user must not break history.
            message: String::from_utf8_lossy(commit.message_bytes())
                .trim()
                .to_owned(),
            parents: commit.parent_ids().map(|p| p.to_string()).collect(),
        })
    }

    pub(super) fn commit_time(&self, commit: &Commit<'_>) -> Result<DateTime<Utc>, RepoError> {
        let secs = commit.committer().when().seconds();
        DateTime::from_timestamp(secs, 0).ok_or_else(|| {
            self.invalid(
                commit,
                "commit",
                format!("committer time {secs} is out of range"),
            )
        })
    }

    fn read_file(
        &self,
        commit: &Commit<'_>,
        tree: &Tree<'_>,
        name: &str,
    ) -> Result<String, RepoError> {
        let entry = tree
            .get_name(name)
            .ok_or_else(|| self.invalid(commit, name, "the file is missing".into()))?;
        self.blob_text(commit, &entry, name)?
            .ok_or_else(|| self.invalid(commit, name, "not a regular file".into()))
    }

    /// The UTF-8 text of a tree entry; `None` when it is not a regular file.
    fn blob_text(
        &self,
        commit: &Commit<'_>,
        entry: &git2::TreeEntry<'_>,
        name: &str,
    ) -> Result<Option<String>, RepoError> {
        if !is_regular_file(entry) {
            return Ok(None);
        }
        // A missing or damaged object (deleted, truncated: libgit2 is patched so that a
        // truncated one is an error, not a spinning thread) is the file's problem, located.
        let blob = self.repo.find_blob(entry.id()).map_err(|e| {
            self.invalid(
                commit,
                name,
                format!(
                    "its git object {} cannot be read ({}); the repository is damaged: \
                     restore it from a clone",
                    entry.id(),
                    e.message()
                ),
            )
        })?;
        String::from_utf8(blob.content().to_vec())
            .map(Some)
            .map_err(|e| self.invalid(commit, name, format!("not valid UTF-8 ({e})")))
    }

    fn invalid(&self, commit: &Commit<'_>, file: &str, reason: String) -> RepoError {
        RepoError::InvalidCheckpoint {
            model: self.path.to_string(),
            commit: commit.id().to_string(),
            file: file.to_owned(),
            reason,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;
    use std::process::Command;

    use super::super::test_support::{files, setup, sig};
    use super::*;

    #[test]
    fn reads_files_and_checkpoint_of_first_commit() {
        let (_dir, _repos, model) = setup();
        let head = model.resolve(None).unwrap().commit;
        assert_eq!(
            model.read(&head).unwrap(),
            files("model: 1\n", "questions: 1\n")
        );
        let cp = model.checkpoint(&head).unwrap();
        assert_eq!(
            (cp.id.as_str(), cp.message.as_str()),
            (head.as_str(), "initial")
        );
        assert!(cp.parents.is_empty());
        assert!(matches!(
            model.read("main"),
            Err(RepoError::RevisionNotFound { .. })
        ));
    }

    /// A loose object's file in `model`'s repository.
    fn object_file(model: &ModelRepo, id: git2::Oid) -> std::path::PathBuf {
        let hex = id.to_string();
        model
            .repo
            .path()
            .join("objects")
            .join(&hex[..2])
            .join(&hex[2..])
    }

    /// `read` on another thread, answered within `bound` (a hang fails the test instead
    /// of holding it).
    fn read_within(
        model: &ModelRepo,
        commit: &str,
        bound: std::time::Duration,
    ) -> Result<Files, RepoError> {
        let (path, commit) = (model.repo.path().to_owned(), commit.to_owned());
        let model_path = model.path.clone();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let repo = ModelRepo::open_dir(model_path, &path).expect("open");
            let _ = tx.send(repo.read(&commit));
        });
        rx.recv_timeout(bound).expect("the read answered in time")
    }

    #[test]
    fn a_truncated_or_deleted_object_is_a_located_error_within_seconds() {
        let (_dir, _repos, model) = setup();
        let head = model.resolve(None).unwrap().commit;
        let tree = model
            .repo
            .find_commit(head.parse().unwrap())
            .unwrap()
            .tree()
            .unwrap();
        let blob = tree.get_name(QUESTIONS_FILE).unwrap().id();
        let file = object_file(&model, blob);
        let bytes = std::fs::read(&file).unwrap();
        // As `head -c20` leaves it: libgit2 1.9.7 unpatched spins on this forever.
        let mut permissions = std::fs::metadata(&file).unwrap().permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        std::fs::set_permissions(&file, permissions).unwrap();
        std::fs::write(&file, &bytes[..20]).unwrap();
        let bound = std::time::Duration::from_secs(5);
        match read_within(&model, &head, bound) {
            Err(RepoError::InvalidCheckpoint { file, reason, .. }) => {
                assert_eq!(file, QUESTIONS_FILE);
                assert!(reason.contains(&blob.to_string()), "{reason}");
                assert!(reason.contains("truncated"), "{reason}");
            }
            other => panic!("a located error, not {other:?}"),
        }
        std::fs::remove_file(&file).unwrap();
        match read_within(&model, &head, bound) {
            Err(RepoError::InvalidCheckpoint { file, reason, .. }) => {
                assert_eq!(file, QUESTIONS_FILE);
                assert!(reason.contains(&blob.to_string()), "{reason}");
            }
            other => panic!("a located error, not {other:?}"),
        }
    }

    /// Tree entries as (name, content, file mode).
    type Entries<'a> = &'a [(&'a str, &'a [u8], i32)];

    /// Writes a commit with arbitrary tree entries straight through git2.
    fn raw_commit(model: &ModelRepo, entries: Entries) -> String {
        let repo = &model.repo;
        let mut tb = repo.treebuilder(None).unwrap();
        for (name, data, mode) in entries {
            tb.insert(name, repo.blob(data).unwrap(), *mode).unwrap();
        }
        let tree = repo.find_tree(tb.write().unwrap()).unwrap();
        repo.commit(None, &sig(), &sig(), "raw", &tree, &[])
            .unwrap()
            .to_string()
    }

    #[test]
    fn missing_non_utf8_or_non_regular_files_are_invalid() {
        let (_dir, _repos, model) = setup();
        let cases: [(Entries, &str, &str); 3] = [
            (&[(MODEL_FILE, b"m", 0o100_644)], QUESTIONS_FILE, "missing"),
            (
                &[
                    (MODEL_FILE, b"\xff\xfe", 0o100_644),
                    (QUESTIONS_FILE, b"q", 0o100_644),
                ],
                MODEL_FILE,
                "UTF-8",
            ),
            (
                &[
                    (MODEL_FILE, b"m", 0o100_644),
                    (QUESTIONS_FILE, b"target", 0o120_000),
                ],
                QUESTIONS_FILE,
                "regular",
            ),
        ];
        for (entries, bad_file, why) in cases {
            let id = raw_commit(&model, entries);
            match model.read(&id) {
                Err(RepoError::InvalidCheckpoint {
                    commit,
                    file,
                    reason,
                    model: m,
                }) => {
                    assert_eq!(
                        (commit.as_str(), file.as_str(), m.as_str()),
                        (id.as_str(), bad_file, "acme/support")
                    );
                    assert!(reason.contains(why), "{reason}");
                }
                other => panic!("expected InvalidCheckpoint, got {other:?}"),
            }
        }
    }

    #[test]
    fn log_is_newest_first_and_limited() {
        let (_dir, _repos, model) = setup();
        for i in 2..=5 {
            model
                .commit(
                    "main",
                    None,
                    None,
                    Some(&format!("q: {i}\n")),
                    &format!("c{i}"),
                )
                .unwrap();
        }
        let all = model.log(None, 100).unwrap();
        let messages: Vec<_> = all.iter().map(|c| c.message.as_str()).collect();
        assert_eq!(messages, ["c5", "c4", "c3", "c2", "initial"]);
        for pair in all.windows(2) {
            assert_eq!(pair[0].parents, [pair[1].id.clone()]);
        }
        assert_eq!(model.log(Some("main"), 2).unwrap(), all[..2]);
        assert_eq!(model.log(Some(&all[2].id), 10).unwrap(), all[2..]);
        assert!(model.log(None, 0).unwrap().is_empty());
    }

    fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
        let out = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", home)
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .output()
            .expect("git is installed");
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    #[test]
    fn reads_commits_pushed_by_the_git_cli() {
        let (dir, _repos, model) = setup();
        let home = dir.path();
        let bare = model.repo.path().to_str().unwrap().to_owned();
        git(home, home, &["clone", "-q", &bare, "work"]);
        let work = home.join("work");
        assert_eq!(
            std::fs::read_to_string(work.join(MODEL_FILE)).unwrap(),
            "model: 1\n"
        );
        std::fs::write(work.join(QUESTIONS_FILE), "questions: from git\n").unwrap();
        std::fs::write(work.join("README.md"), "extra file\n").unwrap();
        git(&work, home, &["add", "-A"]);
        git(
            &work,
            home,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "commit",
                "-q",
                "-m",
                "edit by hand\n\nwith a body",
            ],
        );
        git(&work, home, &["push", "-q", "origin", "main"]);
        let pushed = git(&work, home, &["rev-parse", "HEAD"]).trim().to_owned();

        // The long-lived handle sees the pushed commit.
        let r = model.resolve(None).unwrap();
        assert_eq!(r.commit, pushed);
        let got = model.read(&pushed).unwrap();
        assert_eq!(got, files("model: 1\n", "questions: from git\n"));
        let cp = model.checkpoint(&pushed).unwrap();
        assert_eq!(cp.message, "edit by hand\n\nwith a body");
        assert_eq!(model.log(None, 10).unwrap().len(), 2);

        // Our commits keep the user's extra file, and git accepts them.
        model
            .commit("main", None, Some("model: 2\n"), None, "by arbiter")
            .unwrap();
        git(&work, home, &["pull", "-q", "--ff-only"]);
        assert_eq!(
            std::fs::read_to_string(work.join("README.md")).unwrap(),
            "extra file\n"
        );
        assert_eq!(
            std::fs::read_to_string(work.join(MODEL_FILE)).unwrap(),
            "model: 2\n"
        );
        git(Path::new(&bare), home, &["fsck", "--strict"]);
    }
}
