//! The home is private: every file arbiter creates in it (the database and its journal,
//! repositories and their objects, job files, logs) is 0600 and every directory 0700,
//! whichever library creates it (`SQLite`, `libgit2`), because the process runs under umask
//! 077.
//!
//! A path the user names for an output (`--output`, `completions --dir`, `man --dir`,
//! `openapi --out`) is theirs, as a shell's `>` treats it: a file arbiter creates there gets
//! exactly the mode the user's own umask gives; a path that already exists (a file they made
//! private, `/dev/null`, a FIFO, a terminal) is written as it is, and its mode and owner are
//! never touched. Nothing is renamed over a user's path.

use anyhow::Context as _;
use std::fs::{DirBuilder, File, OpenOptions, Permissions};
use std::io::ErrorKind;
use std::os::unix::fs::{DirBuilderExt as _, OpenOptionsExt as _, PermissionsExt as _};
use std::path::Path;
use std::sync::OnceLock;

/// The umask the process was started with.
static USER_UMASK: OnceLock<u32> = OnceLock::new();

/// Make files created from now on private; remember the user's umask for their outputs.
pub fn enter() {
    // SAFETY: umask only swaps the process's file-mode mask; it cannot fail.
    let user = unsafe { libc::umask(0o077) };
    #[allow(clippy::useless_conversion)] // mode_t is narrower than u32 on some platforms
    let _ = USER_UMASK.set(u32::from(user));
}

/// The mode the user's umask gives something created with `base` (0o666 a file, 0o777 a
/// directory). Without [`enter`] (the library used in-process), the process's own umask
/// already is the user's, and `None` says there is nothing to widen.
fn user_mode(base: u32) -> Option<u32> {
    USER_UMASK.get().map(|umask| base & !umask)
}

/// Open `path`, an output the user named, for writing from its start.
///
/// A new file is created with `O_EXCL`, so it is known to be arbiter's own, and gets the
/// user's mode through its descriptor: the process's private umask only ever narrows what
/// `open` gives, so the mode asked for there is widened back to exactly the user's, on this
/// file and nothing else. An existing path is opened as it is (a regular file truncated,
/// as `>` does; a device or FIFO written as it stands), and never chmodded.
pub(crate) fn create_output_file(path: &Path) -> anyhow::Result<File> {
    let creating = || format!("creating {}", path.display());
    let mode = user_mode(0o666);
    // Another process may remove the path between the two opens, or create it: a few rounds
    // settle which of them it is.
    for _ in 0..8 {
        let mut new = OpenOptions::new();
        new.write(true).create_new(true);
        if let Some(mode) = mode {
            new.mode(mode);
        }
        match new.open(path) {
            Ok(file) => {
                if let Some(mode) = mode {
                    file.set_permissions(Permissions::from_mode(mode))
                        .with_context(creating)?;
                }
                return Ok(file);
            }
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e).with_context(creating),
        }
        // O_TRUNC empties a regular file and is ignored by devices and FIFOs.
        match OpenOptions::new().write(true).truncate(true).open(path) {
            Ok(file) => return Ok(file),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("opening {}", path.display())),
        }
    }
    anyhow::bail!(
        "creating {}: the path keeps appearing and disappearing",
        path.display()
    )
}

/// Write `contents` to `path`, an output the user named, as [`create_output_file`] opens it.
pub(crate) fn write_output_file(path: &Path, contents: &[u8]) -> anyhow::Result<()> {
    use std::io::Write as _;
    create_output_file(path)?
        .write_all(contents)
        .with_context(|| format!("writing {}", path.display()))
}

/// Create the directory `path` and any missing parents, each arbiter creates with the
/// user's mode for a directory; directories that already exist are left as they are.
pub(crate) fn create_output_dir(path: &Path) -> anyhow::Result<()> {
    let creating = |dir: &Path| format!("creating {}", dir.display());
    // The missing part of the path, outermost first.
    let missing: Vec<&Path> = path
        .ancestors()
        .filter(|dir| !dir.as_os_str().is_empty())
        .take_while(|dir| !dir.is_dir())
        .collect();
    for dir in missing.into_iter().rev() {
        let mut builder = DirBuilder::new();
        if let Some(mode) = user_mode(0o777) {
            builder.mode(mode);
        }
        match builder.create(dir) {
            Ok(()) => widen_new_dir(dir).with_context(|| creating(dir))?,
            // Made meanwhile by someone else: theirs, and left as it is.
            Err(e) if e.kind() == ErrorKind::AlreadyExists && dir.is_dir() => {}
            Err(e) => return Err(e).with_context(|| creating(dir)),
        }
    }
    Ok(())
}

/// Give a directory arbiter has just made the user's mode, through a descriptor opened
/// without following a symbolic link, so a path swapped in meanwhile is never changed.
fn widen_new_dir(dir: &Path) -> std::io::Result<()> {
    let Some(mode) = user_mode(0o777) else {
        return Ok(());
    };
    let handle = OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_DIRECTORY | libc::O_NOFOLLOW)
        .open(dir)?;
    handle.set_permissions(Permissions::from_mode(mode))
}
