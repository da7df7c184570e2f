//! Whether a SQLite store's files can be written: the database, its `-wal` and its `-shm`
//! (and, for those not there yet, the directory SQLite creates them in).
//!
//! SQLite maps `-shm` into memory: when it cannot be written, a connection that opens it
//! anyway can die by SIGBUS rather than report an error, and a `-wal` that cannot be
//! written is reported as a failed write, which reads as a full disk. So the store asks
//! the file system itself, before each use of a connection and at each failure of one,
//! and names the file and the cause (503 `store_unavailable`). `access(2)` answers without
//! opening the file: closing any descriptor of a database file would drop the POSIX locks
//! SQLite holds on it. It sees what denies a write to this process: the mode (not for
//! root), an immutable attribute (for root too), a read-only file system.

use std::ffi::CString;
use std::os::unix::ffi::OsStrExt as _;
use std::path::{Path, PathBuf};

/// The first of `database`'s files this process cannot write, and why:
/// `"/home/arbiter.db-shm: Operation not permitted (os error 1)"`.
pub(super) fn unwritable(database: &Path) -> Option<String> {
    let sidecar = |suffix: &str| {
        let mut name = database.as_os_str().to_owned();
        name.push(suffix);
        PathBuf::from(name)
    };
    let files = [database.to_owned(), sidecar("-wal"), sidecar("-shm")];
    for file in &files {
        match denied(file) {
            Some(Denied::Missing) => {
                // SQLite creates it beside the database.
                let dir = database.parent().filter(|d| !d.as_os_str().is_empty());
                if let Some(Denied::Cause(cause)) = denied(dir.unwrap_or(Path::new("."))) {
                    return Some(format!(
                        "{} cannot be created in {}: {cause}",
                        file.display(),
                        dir.unwrap_or(Path::new(".")).display()
                    ));
                }
            }
            Some(Denied::Cause(cause)) => return Some(format!("{}: {cause}", file.display())),
            None => {}
        }
    }
    None
}

enum Denied {
    Missing,
    Cause(std::io::Error),
}

fn denied(path: &Path) -> Option<Denied> {
    let path = CString::new(path.as_os_str().as_bytes()).ok()?;
    // SAFETY: `path` is a NUL-terminated string that outlives the call.
    if unsafe { libc::access(path.as_ptr(), libc::W_OK) } == 0 {
        return None;
    }
    let error = std::io::Error::last_os_error();
    Some(match error.kind() {
        std::io::ErrorKind::NotFound => Denied::Missing,
        _ => Denied::Cause(error),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writable_and_missing_files_pass_and_a_missing_directory_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join("arbiter.db");
        std::fs::write(&database, b"").unwrap();
        assert_eq!(unwritable(&database), None, "-wal and -shm may be created");
        let nowhere = dir.path().join("gone").join("arbiter.db");
        assert!(unwritable(&nowhere).is_none_or(|why| why.contains("gone")));
    }
}
