//! The test environment: a temporary home and a command for the real binary.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use tempfile::TempDir;

pub struct TestEnv {
    dir: TempDir,
}

impl TestEnv {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Self { dir }
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// `arbiter` with a clean environment: only PATH, a HOME inside the temp dir, and
    /// ARBITER_HOME.
    pub fn cmd(&self) -> Command {
        let mut cmd = Command::cargo_bin("arbiter").expect("binary");
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.path())
            .env("XDG_CONFIG_HOME", self.path().join("xdg-config"))
            .env("ARBITER_HOME", self.home())
            .env("RUST_BACKTRACE", "0")
            .current_dir(self.path());
        cmd
    }

    /// Write a file under the temp dir and return its path.
    pub fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Run `arbiter args…`, expect success, and parse stdout as JSON.
    pub fn json(&self, args: &[&str]) -> Value {
        let output = self.cmd().args(args).output().unwrap();
        assert!(
            output.status.success(),
            "arbiter {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not JSON ({e}): {}",
                String::from_utf8_lossy(&output.stdout)
            )
        })
    }
}

/// The repository root (for the committed example files).
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub const QUESTIONS: &str = r#"
intent:
  type: choice
  instructions: What does the customer want?
  criteria:
    refund: The customer wants their money back for a purchase.
    technical: The product is broken or shows an error.
    shipping: The customer asks where their delivery is.
urgency:
  type: score
  criteria:
    - A question with no time pressure.
    - A minor inconvenience.
    - A problem blocking one user.
    - A problem blocking a team or costing money.
    - An outage affecting many users right now.
escalate:
  type: noul
  instructions: The customer is upset and asks to speak to a manager.
"#;

pub const STATE: &str = r#"{"messages":[{"role":"user","content":"my card was charged twice for the same order, I want one of them refunded"}]}"#;
