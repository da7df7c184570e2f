//! Writing the remote: a ref moved with a compare-and-swap on its old value, pushed from a
//! scratch ref of its own.

use std::cell::RefCell;
use std::path::Path;
use std::sync::PoisonError;

use git2::{Direction, ErrorCode, Oid, PushOptions, Repository};
use uuid::Uuid;

use super::{PUSH_REF_PREFIX, Rejected, Remote, callbacks, retry_ref_contention};
use crate::config::GitCredentials;
use crate::ids::ModelPath;
use crate::repo::error::RepoError;
use crate::telemetry::metrics::{self, GitOperation, GitResult};

impl Remote {
    /// Moves `refname` on the remote from `expected` (None: it must not exist) to `new`,
    /// a compare-and-swap, and then in the mirror `repo` (with `log`). The objects travel
    /// under a scratch ref of their own, so a concurrent fetch into the mirror cannot
    /// change what is pushed; the mirror's move is made under the lock fetches take, since
    /// libgit2 fails at once, without waiting, on a ref another writer has locked.
    #[tracing::instrument(level = "trace", name = "git.push", skip_all, fields(model = %path, refname))]
    pub(in crate::repo) fn push_ref(
        &self,
        repo: &Repository,
        path: &ModelPath,
        refname: &str,
        expected: Option<Oid>,
        new: Oid,
        log: &str,
    ) -> Result<Result<(), Rejected>, RepoError> {
        let lock = self.lock_for(path);
        let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let started = std::time::Instant::now();
        let scratch = ScratchRef::create(repo, path, new)?;
        let outcome = if let Some(remote_dir) = self.local_dir_for(path) {
            self.push_file(
                repo,
                path,
                &scratch.name,
                &remote_dir,
                refname,
                expected,
                new,
            )
        } else {
            self.push_smart(repo, path, &scratch.name, refname, expected)
        };
        drop(scratch);
        let result = match &outcome {
            Ok(Ok(())) => GitResult::Ok,
            Ok(Err(Rejected { .. })) => GitResult::Rejected,
            Err(_) => GitResult::Failed,
        };
        metrics::git(GitOperation::Push, result, started.elapsed());
        if matches!(outcome, Ok(Ok(()))) {
            let moved = match expected {
                Some(old) => repo.reference_matching(refname, new, true, old, log),
                None => repo.reference(refname, new, false, log),
            };
            // Another process on this home may have moved it (to this value, or a newer
            // one): then the next read fetches again.
            if moved.is_err() && repo.refname_to_id(refname).ok() != Some(new) {
                self.mark_stale(path);
            }
        }
        outcome
    }

    /// Deletes `refname` on the remote, where it must still be at `expected`, then in the
    /// mirror. A `file://` remote's ref is checked and deleted in the remote repository;
    /// ssh and https push the deletion (`:refname`) after the same listing as a move.
    pub(in crate::repo) fn delete_ref(
        &self,
        repo: &Repository,
        path: &ModelPath,
        refname: &str,
        expected: Oid,
    ) -> Result<Result<(), Rejected>, RepoError> {
        let lock = self.lock_for(path);
        let _guard = lock.lock().unwrap_or_else(PoisonError::into_inner);
        let outcome = if let Some(remote_dir) = self.local_dir_for(path) {
            let remote = Repository::open_bare(&remote_dir).map_err(|e| {
                self.classify(&format!("opening the remote repository of {path}"), &e)
            })?;
            match remote.find_reference(refname) {
                Ok(mut found) if found.target() == Some(expected) => found
                    .delete()
                    .map(Ok)
                    .map_err(|e| RepoError::git(format!("deleting {refname} of {path}"), &e))?,
                Ok(found) => Err(Rejected {
                    actual: found.target(),
                }),
                Err(e) if e.code() == ErrorCode::NotFound => Err(Rejected { actual: None }),
                Err(e) => return Err(RepoError::git(format!("reading {refname} of {path}"), &e)),
            }
        } else {
            if let Err(reason) = self.push_refspec(repo, path, &format!(":{refname}"))? {
                return Err(self.unavailable(format!("deleting {refname} of {path}: {reason}")));
            }
            Ok(())
        };
        if outcome.is_ok()
            && let Ok(mut mirrored) = repo.find_reference(refname)
        {
            let _ = mirrored.delete();
        }
        Ok(outcome)
    }

    /// `file://`: libgit2's local transport writes the remote ref without checking its
    /// old value, so the objects go under a scratch ref and the move itself is made in
    /// the remote repository with libgit2's own compare-and-swap (under the ref's lock
    /// file): no window at all.
    #[allow(clippy::too_many_arguments)]
    fn push_file(
        &self,
        repo: &Repository,
        path: &ModelPath,
        scratch: &str,
        remote_dir: &Path,
        refname: &str,
        expected: Option<Oid>,
        new: Oid,
    ) -> Result<Result<(), Rejected>, RepoError> {
        if !remote_dir.is_dir() {
            return Err(self.unavailable(format!(
                "there is no repository for {path} at {}",
                remote_dir.display()
            )));
        }
        self.push_refspec(repo, path, &format!("{scratch}:{scratch}"))?
            .map_err(|reason| self.unavailable(format!("pushing {path}: {reason}")))?;
        let remote = Repository::open_bare(remote_dir)
            .map_err(|e| self.classify(&format!("opening the remote repository of {path}"), &e))?;
        let result = match expected {
            Some(old) => remote.reference_matching(refname, new, true, old, "arbiter: push"),
            None => remote.reference(refname, new, false, "arbiter: push"),
        };
        // The scratch ref on the remote only carried the objects.
        if let Ok(mut r) = remote.find_reference(scratch) {
            let _ = r.delete();
        }
        match result {
            Ok(_) => Ok(Ok(())),
            Err(e)
                if matches!(
                    e.code(),
                    ErrorCode::Modified
                        | ErrorCode::Exists
                        | ErrorCode::Locked
                        | ErrorCode::NotFound
                ) =>
            {
                let actual = remote.find_reference(refname).ok().and_then(|r| r.target());
                Ok(Err(Rejected { actual }))
            }
            Err(e) => Err(RepoError::git(
                format!("moving {refname} of {path} on the remote"),
                &e,
            )),
        }
    }

    /// ssh and https: the remote's current value is read (ls-remote) and compared with
    /// `expected` on the same connection the push then uses, so git-receive-pack checks
    /// the old value it was sent (the one just compared) under its ref lock. Servers that
    /// do not check it leave a small window between the listing and the update in which
    /// another writer's move could be overwritten.
    fn push_smart(
        &self,
        repo: &Repository,
        path: &ModelPath,
        scratch: &str,
        refname: &str,
        expected: Option<Oid>,
    ) -> Result<Result<(), Rejected>, RepoError> {
        let mut remote = repo
            .remote_anonymous(&self.url_for(path))
            .map_err(|e| RepoError::git(format!("naming the remote of {path}"), &e))?;
        let mut connection = remote
            .connect_auth(Direction::Push, Some(self.callbacks()), None)
            .map_err(|e| self.classify(&format!("connecting to push {path}"), &e))?;
        let actual = connection
            .list()
            .map_err(|e| self.classify(&format!("listing the refs of {path}"), &e))?
            .iter()
            .find(|h| h.name() == refname)
            .map(git2::RemoteHead::oid);
        if actual != expected {
            return Ok(Err(Rejected { actual }));
        }
        let refused = RefCell::new(None);
        let mut callbacks = self.callbacks();
        callbacks.push_update_reference(|_, status| {
            *refused.borrow_mut() = status.map(str::to_owned);
            Ok(())
        });
        let mut options = PushOptions::new();
        options.remote_callbacks(callbacks);
        // Forced: the old value was compared above, and a tag move is no fast-forward.
        let spec = format!("+{scratch}:{refname}");
        let pushed = connection
            .remote()
            .push(&[spec.as_str()], Some(&mut options));
        drop(options);
        match (pushed, refused.into_inner()) {
            (Ok(()), None) => Ok(Ok(())),
            (Ok(()), Some(_)) => Ok(Err(Rejected { actual: None })),
            (Err(e), _) if e.code() == ErrorCode::NotFastForward => {
                Ok(Err(Rejected { actual: None }))
            }
            (Err(e), _) => Err(self.classify(&format!("pushing {path}"), &e)),
        }
    }

    /// Pushes one refspec; the inner `Err` is the remote's refusal.
    fn push_refspec(
        &self,
        repo: &Repository,
        path: &ModelPath,
        spec: &str,
    ) -> Result<Result<(), String>, RepoError> {
        match push_url(
            repo,
            &self.url_for(path),
            &[spec],
            &self.settings.credentials,
        ) {
            Ok(refused) => Ok(refused
                .into_iter()
                .next()
                .map_or(Ok(()), |(_, why)| Err(why))),
            Err(e) => Err(self.classify(&format!("pushing {path}"), &e)),
        }
    }
}

/// Pushes `specs` from `repo` to the repository at `url`; the refs the remote refused,
/// each with its reason. libgit2 refuses a spec without `+` that is no fast-forward of
/// what the remote had (`ErrorCode::NotFastForward`). What every push of arbiter's runs:
/// the shared remote's, and to a model's upstream.
pub(in crate::repo) fn push_url(
    repo: &Repository,
    url: &str,
    specs: &[&str],
    credentials: &GitCredentials,
) -> Result<Vec<(String, String)>, git2::Error> {
    let mut remote = repo.remote_anonymous(url)?;
    let refused = RefCell::new(Vec::new());
    let mut callbacks = callbacks(credentials);
    callbacks.push_update_reference(|name, status| {
        if let Some(why) = status {
            refused.borrow_mut().push((name.to_owned(), why.to_owned()));
        }
        Ok(())
    });
    let mut options = PushOptions::new();
    options.remote_callbacks(callbacks);
    let pushed = retry_ref_contention(|| remote.push(specs, Some(&mut options)));
    drop(options);
    pushed.map(|()| refused.into_inner())
}

/// A local ref pointing at what is being pushed, deleted on drop.
struct ScratchRef<'r> {
    repo: &'r Repository,
    name: String,
}

impl<'r> ScratchRef<'r> {
    fn create(repo: &'r Repository, path: &ModelPath, target: Oid) -> Result<Self, RepoError> {
        let name = format!("{PUSH_REF_PREFIX}{}", Uuid::new_v4());
        repo.reference(&name, target, false, "arbiter: push")
            .map_err(|e| RepoError::git(format!("preparing a push of {path}"), &e))?;
        Ok(Self { repo, name })
    }
}

impl Drop for ScratchRef<'_> {
    fn drop(&mut self) {
        if let Ok(mut r) = self.repo.find_reference(&self.name) {
            let _ = r.delete();
        }
    }
}
