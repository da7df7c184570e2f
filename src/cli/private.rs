//! The home is private: every file arbiter creates in it (the database and its journal,
//! repositories and their objects, job files, logs) is 0600 and every directory 0700,
//! whichever library creates it (`SQLite`, `libgit2`), because the process runs under umask
//! 077. What a user asks to be written elsewhere (`--output`, `completions --dir`) gets the
//! modes the user's own umask gives, as any other program's output would.

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

/// Give `path`, an output the user asked for, the mode their umask gives a new file (or
/// directory).
pub(crate) fn publish(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let Some(user) = USER_UMASK.get() else {
        return Ok(());
    };
    let base = if path.is_dir() { 0o777 } else { 0o666 };
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(base & !user))
}
