//! This process's lease: what a claim the process makes (an idempotency key in progress)
//! names, so another process can tell a claim someone still works on from one left by a
//! process that died, and take the latter over instead of refusing it until it expires.
//!
//! On one machine the lease is a lock file in the home, held for the life of the process:
//! the OS frees it the moment the process dies. Replicas that share a PostgreSQL database
//! have no home in common, so there the lease is a row of the store that the process
//! renews ([`Lease::shared`]): it dies [`SHARED_TTL`] after its process stops renewing.
//!
//! Jobs are owned by a lease too (`core::jobs`). Within the process, the lease also keeps
//! which of its jobs something is running ([`Lease::hold`]): a job owned by this lease but
//! held by nothing was let go of (its runner failed) and may be claimed again.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::Duration;

use crate::ids::JobId;
use crate::store::Store;

/// How long a shared lease outlives its last renewal.
pub const SHARED_TTL: Duration = Duration::from_secs(15);

/// How often a shared lease is renewed: several times within its TTL, so one slow write
/// does not let it lapse.
const RENEW_EVERY: Duration = Duration::from_secs(3);

/// A held lease.
pub struct Lease {
    id: String,
    kind: Kind,
    /// The jobs this process runs (or has queued) under this lease.
    held: Mutex<HashSet<JobId>>,
    /// The shards this process runs under this lease.
    held_shards: Mutex<HashSet<(JobId, u64)>>,
}

enum Kind {
    /// `leases/<id>.lock`, locked until the process ends.
    Local { dir: PathBuf, _file: File },
    /// A row of the shared store, renewed by a thread until the lease is dropped.
    Shared {
        store: Arc<Store>,
        stop: Arc<(Mutex<bool>, Condvar)>,
    },
}

impl Lease {
    /// Take a new lease in `dir`, sweeping away the files of leases whose process died.
    pub fn take(dir: &Path) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        sweep(dir);
        let id = uuid::Uuid::new_v4().to_string();
        let file = File::create(lock_path(dir, &id))?;
        file.lock()?;
        Ok(Self {
            id,
            kind: Kind::Local {
                dir: dir.to_owned(),
                _file: file,
            },
            held: Mutex::default(),
            held_shards: Mutex::default(),
        })
    }

    /// Take a new lease in the shared store and keep renewing it until dropped.
    pub fn shared(store: Arc<Store>) -> Result<Self, crate::store::StoreError> {
        let id = uuid::Uuid::new_v4().to_string();
        store.renew_lease(&id, SHARED_TTL)?;
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let (renewing, signal, lease_id) = (store.clone(), stop.clone(), id.clone());
        std::thread::Builder::new()
            .name("lease-renewal".into())
            .spawn(move || renew_until_stopped(&renewing, &lease_id, &signal))
            .map_err(|e| crate::store::StoreError::Corrupt {
                what: "the lease renewal thread".into(),
                reason: e.to_string(),
            })?;
        Ok(Self {
            id,
            kind: Kind::Shared { store, stop },
            held: Mutex::default(),
            held_shards: Mutex::default(),
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Mark job `job_id` as run by this process; false when something here already runs it.
    pub fn hold(&self, job_id: &JobId) -> bool {
        self.held_jobs().insert(*job_id)
    }

    /// The job is no longer run by this process.
    pub fn let_go(&self, job_id: &JobId) {
        self.held_jobs().remove(job_id);
    }

    fn held_jobs(&self) -> std::sync::MutexGuard<'_, HashSet<JobId>> {
        self.held.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether a job owned by lease `owner` (none: nobody) may be claimed by this process
    /// for `job_id`, and if so, hold it: unowned, owned by a dead process, or owned by this
    /// one while nothing here runs it.
    pub fn take_over(&self, job_id: &JobId, owner: Option<&str>) -> bool {
        let free = match owner {
            None => true,
            Some(owner) if owner == self.id => true,
            Some(owner) => !self.is_alive(owner),
        };
        free && self.hold(job_id)
    }

    /// Whether shard `shard` of job `job_id`, owned by lease `owner` (none: nobody), may be
    /// claimed by this process, and if so, hold it: as [`Self::take_over`] for a job.
    pub fn take_over_shard(&self, job_id: &JobId, shard: u64, owner: Option<&str>) -> bool {
        let free = match owner {
            None => true,
            Some(owner) if owner == self.id => true,
            Some(owner) => !self.is_alive(owner),
        };
        free && self.shards().insert((*job_id, shard))
    }

    /// Whether something here runs shard `shard` of job `job_id`.
    pub fn holds_shard(&self, job_id: &JobId, shard: u64) -> bool {
        self.shards().contains(&(*job_id, shard))
    }

    /// The shard is no longer run by this process.
    pub fn let_go_shard(&self, job_id: &JobId, shard: u64) {
        self.shards().remove(&(*job_id, shard));
    }

    fn shards(&self) -> std::sync::MutexGuard<'_, HashSet<(JobId, u64)>> {
        self.held_shards
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Whether the process holding lease `id` still runs. A lease whose state cannot be
    /// read counts as alive: a claim is never taken from a process that may be working.
    pub fn is_alive(&self, id: &str) -> bool {
        if id == self.id {
            return true;
        }
        match &self.kind {
            Kind::Local { dir, .. } => held(dir, id),
            Kind::Shared { store, .. } => store.lease_alive(id).unwrap_or(true),
        }
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        match &self.kind {
            Kind::Local { dir, .. } => {
                let _ = std::fs::remove_file(lock_path(dir, &self.id));
            }
            Kind::Shared { store, stop } => {
                let (stopped, wake) = &**stop;
                *stopped.lock().unwrap_or_else(PoisonError::into_inner) = true;
                wake.notify_all();
                let _ = store.drop_lease(&self.id);
            }
        }
    }
}

/// Renew lease `id` every [`RENEW_EVERY`] until `stop` is set. A failed renewal (the
/// database briefly down) is logged and tried again at the next turn.
fn renew_until_stopped(store: &Store, id: &str, stop: &(Mutex<bool>, Condvar)) {
    let (stopped, wake) = stop;
    let mut done = stopped.lock().unwrap_or_else(PoisonError::into_inner);
    while !*done {
        done = wake
            .wait_timeout(done, RENEW_EVERY)
            .unwrap_or_else(PoisonError::into_inner)
            .0;
        if *done {
            break;
        }
        if let Err(error) = store.renew_lease(id, SHARED_TTL) {
            tracing::warn!(%error, "renewing this process's lease in the store failed");
        }
    }
}

fn lock_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}.lock"))
}

fn held(dir: &Path, id: &str) -> bool {
    // Lease IDs are UUIDs: anything else names no lease, and no path.
    if uuid::Uuid::parse_str(id).is_err() {
        return false;
    }
    let Ok(file) = File::open(lock_path(dir, id)) else {
        return false;
    };
    // Locked elsewhere, or unknowable (an I/O error): alive.
    !matches!(file.try_lock(), Ok(()))
}

/// Remove the lock files of dead processes, so that the directory does not grow.
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let Some(id) = path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        if path.extension().is_some_and(|e| e == "lock") && !held(dir, id) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_is_alive_while_held_and_dead_once_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let mine = Lease::take(dir.path()).unwrap();
        let other = Lease::take(dir.path()).unwrap();
        let other_id = other.id().to_owned();
        assert!(mine.is_alive(mine.id()));
        assert!(mine.is_alive(&other_id), "held by its lock");
        drop(other);
        assert!(!mine.is_alive(&other_id), "its lock is gone");
        assert!(!mine.is_alive("../../etc/passwd"), "not a lease ID");
    }

    #[test]
    fn a_dead_process_lease_is_swept() {
        let dir = tempfile::tempdir().unwrap();
        // A lock file nobody holds: what a killed process leaves.
        let dead = uuid::Uuid::new_v4().to_string();
        File::create(lock_path(dir.path(), &dead)).unwrap();
        let lease = Lease::take(dir.path()).unwrap();
        assert!(!lock_path(dir.path(), &dead).exists());
        assert!(lock_path(dir.path(), lease.id()).exists());
    }
}
