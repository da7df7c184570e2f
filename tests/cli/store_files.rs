//! A SQLite store whose files cannot be written (issue 37, item 6): the database, its
//! `-wal` or its `-shm`. Each is 503 `store_unavailable` naming the file and the cause,
//! never a 507 (`-wal` read as a full disk) or a crash (`-shm` by SIGBUS), and the server
//! answers again once the file is writable.

use crate::common::TestEnv;
use serde_json::json;
use std::path::{Path, PathBuf};

/// Writes to a file denied for as long as this lives: by an immutable attribute when the
/// test runs as root (root writes through any mode, and CI runs as root), by mode 0444
/// otherwise. Either way the denial is checked before it is relied on.
struct Denied {
    path: PathBuf,
    root: bool,
}

impl Denied {
    fn new(path: &Path) -> Self {
        // SAFETY: geteuid has no preconditions and cannot fail.
        let root = unsafe { libc::geteuid() } == 0;
        if root {
            let chattr = std::process::Command::new("chattr")
                .arg("+i")
                .arg(path)
                .output()
                .expect("running chattr (e2fsprogs) to make a file immutable");
            assert!(
                chattr.status.success(),
                "chattr +i {}: {}",
                path.display(),
                String::from_utf8_lossy(&chattr.stderr)
            );
        } else {
            use std::os::unix::fs::PermissionsExt as _;
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o444)).unwrap();
        }
        let denied = Self {
            path: path.to_owned(),
            root,
        };
        assert!(
            std::fs::OpenOptions::new().write(true).open(path).is_err(),
            "{} is still writable",
            path.display()
        );
        denied
    }
}

impl Drop for Denied {
    fn drop(&mut self) {
        if self.root {
            let _ = std::process::Command::new("chattr")
                .arg("-i")
                .arg(&self.path)
                .status();
        } else {
            use std::os::unix::fs::PermissionsExt as _;
            let _ = std::fs::set_permissions(&self.path, std::fs::Permissions::from_mode(0o600));
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unwritable_database_file_is_503_naming_it_and_the_server_recovers() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    home.model("acme/support");
    let database = home.home().join("arbiter.db");
    let server = home.serve().await;
    let decide = |n: usize| json!({"model": "acme/support", "state": format!("state {n}"), "example_id": format!("e{n}")});
    server
        .post_json("/v1/decision", Some(&token), &decide(0))
        .await
        .ok();
    for (n, suffix) in ["-wal", "-shm", ""].into_iter().enumerate() {
        let mut name = database.as_os_str().to_owned();
        name.push(suffix);
        let file = PathBuf::from(name);
        assert!(file.exists(), "{}", file.display());
        let denied = Denied::new(&file);
        let reply = server
            .post_json("/v1/decision", Some(&token), &decide(n + 1))
            .await;
        let problem = server.problem(&reply, 503, "store_unavailable").await;
        let detail = problem["detail"].as_str().unwrap();
        let cause = if denied.root {
            "Operation not permitted"
        } else {
            "Permission denied"
        };
        assert!(
            detail.contains(&format!("{}: {cause}", file.display())),
            "{detail}"
        );
        drop(denied);
        // Writable again: answered and recorded, by the same server.
        let answer = server
            .post_json("/v1/decision", Some(&token), &decide(n + 1))
            .await
            .ok();
        assert_eq!(answer["recorded"], json!(true), "{answer}");
    }
}
