//! This process's lease on the home: a lock file held for the life of the process. A claim
//! the process makes (an idempotency key in progress) names its lease, so another process
//! can tell a claim someone still works on from one left by a process that died (its lock
//! is free), and take the latter over instead of refusing it until it expires.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

/// A held lease: `leases/<id>.lock`, locked until the process ends.
pub struct Lease {
    id: String,
    dir: PathBuf,
    _file: File,
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
            dir: dir.to_owned(),
            _file: file,
        })
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// Whether the process holding lease `id` still runs. A lease whose state cannot be
    /// read counts as alive: a claim is never taken from a process that may be working.
    pub fn is_alive(&self, id: &str) -> bool {
        id == self.id || held(&self.dir, id)
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(lock_path(&self.dir, &self.id));
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
