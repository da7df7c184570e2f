//! Checkpoints as read and parsed, by model and commit. What a commit holds never changes,
//! so a process reads and parses a checkpoint's files once, not once per decision: the
//! server resolves the revision of every request (a branch moves), then finds the commit's
//! content here; each shard of a batch loads its pinned commit from here too. Reading and
//! parsing cost ~0.4 ms of the ~0.8 ms a load took (git blobs, YAML, learned heads).

use crate::error::Result;
use crate::ids::ModelId;
use crate::wire::Questions;
use crate::wire::decision::Checkpoint;
use lru::LruCache;
use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};

use super::model_files::ModelSpec;

/// Checkpoints kept: a server's working set of models and revisions. An entry holds its
/// questions' learned heads (tens of kilobytes a question, shared with the decisions that
/// use them), so the cap bounds what a server that answered at many commits keeps.
const KEPT: NonZeroUsize = NonZeroUsize::new(64).unwrap();

/// What a commit of a repository model holds, parsed.
#[derive(Debug)]
pub(crate) struct ParsedCheckpoint {
    pub spec: ModelSpec,
    pub questions: Questions,
    pub heads: crate::engine::builtin::learned::Heads,
    pub checkpoint: Checkpoint,
}

/// The checkpoints this process has read, most recently used kept.
pub(crate) struct ParsedCheckpoints {
    kept: Mutex<LruCache<(ModelId, String), Arc<ParsedCheckpoint>>>,
}

impl ParsedCheckpoints {
    pub(crate) fn new() -> Self {
        Self {
            kept: Mutex::new(LruCache::new(KEPT)),
        }
    }

    /// The content of `commit` of `model`: kept, else `read` (whose error is not kept:
    /// a file that failed to read is read again next time).
    pub(crate) fn get_or_read(
        &self,
        model: ModelId,
        commit: &str,
        read: impl FnOnce() -> Result<ParsedCheckpoint>,
    ) -> Result<Arc<ParsedCheckpoint>> {
        let key = (model, commit.to_owned());
        if let Some(kept) = self.lock().get(&key) {
            return Ok(kept.clone());
        }
        // Read unlocked: two first readers of one commit both read it, and agree.
        let read = Arc::new(read()?);
        self.lock().put(key, read.clone());
        Ok(read)
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, LruCache<(ModelId, String), Arc<ParsedCheckpoint>>> {
        // A panic while holding the lock leaves the cache as it was: keep using it.
        self.kept
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Error;
    use std::cell::Cell;

    fn parsed_checkpoint(base: &str) -> ParsedCheckpoint {
        ParsedCheckpoint {
            spec: ModelSpec {
                base: base.to_owned(),
                capture: crate::core::model_files::CapturePolicy::default(),
            },
            questions: Questions::default(),
            heads: crate::engine::builtin::learned::Heads::default(),
            checkpoint: Checkpoint {
                checkpoint_id: "c".into(),
                created_at: crate::wire::time::Committed(chrono::DateTime::UNIX_EPOCH),
                message: String::new(),
            },
        }
    }

    /// The base model of what `parsed` gives for `commit` of `model`.
    fn base(
        parsed: &ParsedCheckpoints,
        model: ModelId,
        commit: &str,
        read: impl FnOnce() -> Result<ParsedCheckpoint>,
    ) -> String {
        parsed
            .get_or_read(model, commit, read)
            .unwrap()
            .spec
            .base
            .clone()
    }

    #[test]
    fn a_commit_is_read_once_and_an_error_is_not_kept() {
        let parsed = ParsedCheckpoints::new();
        let model = ModelId::from(uuid::Uuid::new_v4());
        let reads = Cell::new(0);
        let read = |title: &'static str| {
            let reads = &reads;
            move || {
                reads.set(reads.get() + 1);
                Ok(parsed_checkpoint(title))
            }
        };
        assert_eq!(base(&parsed, model, "c1", read("a")), "a");
        // The same commit again: the first content, not read again.
        assert_eq!(base(&parsed, model, "c1", read("b")), "a");
        assert_eq!(reads.get(), 1);
        // Another commit, or the same commit of another model: read.
        assert_eq!(base(&parsed, model, "c2", read("c")), "c");
        let other = ModelId::from(uuid::Uuid::new_v4());
        assert_eq!(base(&parsed, other, "c1", read("d")), "d");
        assert_eq!(reads.get(), 3);

        let failed = parsed.get_or_read(model, "c3", || Err(Error::bug("unreadable")));
        assert!(failed.is_err());
        assert_eq!(base(&parsed, model, "c3", read("e")), "e");
    }

    /// Through `models::load`, as every decision loads: a branch is resolved on every load,
    /// so its new commit is seen at once, and an older commit still reads as it was.
    #[test]
    fn a_branch_moved_is_seen_and_an_older_commit_is_kept_as_it_was() {
        use crate::core::model_files::CapturePolicy;
        use crate::core::models::{self, CommitRequest};
        use crate::core::test_support::{QUESTIONS, home_with_model};
        let (_home, ctx, _) = home_with_model(CapturePolicy::default());
        let path: crate::ids::ModelRef = "acme/support".parse().unwrap();
        let first = models::load(&ctx, &path, None).unwrap();
        assert_eq!(first.questions.keys().collect::<Vec<_>>(), ["refund"]);

        let mut change = CommitRequest::new(path.clone(), "ask about urgency too");
        change.questions_yaml = Some(format!(
            "{QUESTIONS}urgent:\n  type: noul\n  instructions: It is urgent.\n"
        ));
        let second = models::commit(&ctx, &change).unwrap();
        let moved = models::load(&ctx, &path, None).unwrap();
        assert_eq!(moved.checkpoint.checkpoint_id, second.checkpoint_id);
        assert_eq!(
            moved.questions.keys().collect::<Vec<_>>(),
            ["refund", "urgent"]
        );

        let old = models::load(&ctx, &path, Some(&first.checkpoint.checkpoint_id)).unwrap();
        assert_eq!(old.questions.keys().collect::<Vec<_>>(), ["refund"]);
        assert_eq!(old.checkpoint, first.checkpoint);
    }
}
