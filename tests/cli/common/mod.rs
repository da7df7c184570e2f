//! The test harness, one builder for every shape a test needs: a temporary home
//! ([`TestEnv::new`], [`TestEnv::with_config`]) with a command for the real binary
//! ([`TestEnv::cmd`]) and a library [`Context`](arbiter::core::Context) over it
//! ([`TestEnv::ctx`]), tokens on it ([`TestEnv::token`]); and from it a server on that
//! home: in process ([`TestEnv::serve`], `in_process.rs`), on a thread of its own
//! ([`TestEnv::serve_on_thread`]), or `arbiter serve` as a process
//! ([`TestEnv::spawn_serve`], `served.rs`). Every test file starts from one.

mod in_process;
mod served;

pub(crate) use in_process::*;
pub(crate) use served::*;

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use tempfile::TempDir;

pub(crate) struct TestEnv {
    /// The library's view of the home, opened when first asked for (before `dir`, so it
    /// is closed before the directory goes).
    ctx: OnceLock<arbiter::core::Context>,
    dir: TempDir,
}

/// `arbiter` with a clean environment for the temp dir `dir` (a [`TestEnv`]'s, or a
/// `Home`'s): only PATH, a HOME inside it, and `ARBITER_HOME` at `dir/home`.
pub(crate) fn arbiter_command(dir: &Path) -> std::process::Command {
    let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("arbiter"));
    cmd.env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", dir)
        .env("XDG_CONFIG_HOME", dir.join("xdg-config"))
        .env("ARBITER_HOME", dir.join("home"))
        .env("RUST_BACKTRACE", "0")
        .current_dir(dir);
    cmd
}

impl TestEnv {
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir_all(dir.path().join("home")).unwrap();
        Self {
            ctx: OnceLock::new(),
            dir,
        }
    }

    /// A fresh home with `config` written to its `config.yaml`.
    pub(crate) fn with_config(config: &str) -> Self {
        let env = Self::new();
        std::fs::write(env.home().join("config.yaml"), config).unwrap();
        env
    }

    /// The library's [`Context`](arbiter::core::Context) over the home, as a process that
    /// starts now would open it (once; [`TestEnv::reopen`] forgets it).
    pub(crate) fn ctx(&self) -> &arbiter::core::Context {
        self.ctx.get_or_init(|| {
            let settings = arbiter::config::Settings::resolve(Some(self.home())).expect("settings");
            arbiter::core::Context::new(settings).expect("context")
        })
    }

    /// Forget the open [`Context`]: the next [`TestEnv::ctx`] opens the home afresh, as a
    /// new process would (after a server over it stopped).
    pub(crate) fn reopen(&mut self) {
        self.ctx = OnceLock::new();
    }

    pub(crate) fn path(&self) -> &Path {
        self.dir.path()
    }

    pub(crate) fn home(&self) -> PathBuf {
        self.dir.path().join("home")
    }

    /// `arbiter` with a clean environment: only PATH, a HOME inside the temp dir, and
    /// `ARBITER_HOME`.
    pub(crate) fn cmd(&self) -> Command {
        let mut cmd = Command::from_std(self.std_cmd());
        // A hang is a failure, not a CI run that never ends.
        cmd.timeout(std::time::Duration::from_mins(5));
        cmd
    }

    /// `arbiter models create <model> --base <base> --questions <questions>`, which must
    /// succeed.
    pub(crate) fn create_model(&self, model: &str, base: &str, questions: &Path) {
        self.cmd()
            .args(["models", "create", model, "--base", base, "--questions"])
            .arg(questions)
            .assert()
            .success();
    }

    /// Write a file under the temp dir and return its path.
    pub(crate) fn write(&self, name: &str, contents: &str) -> PathBuf {
        let path = self.path().join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, contents).unwrap();
        path
    }

    /// Ingest `lines` (JSON lines of examples) into `model` with `examples ingest`, and
    /// expect success.
    pub(crate) fn ingest(&self, model: &str, lines: &str) {
        let file = self.write("ingest.jsonl", lines);
        self.cmd()
            .args(["examples", "ingest", model, "--file"])
            .arg(&file)
            .assert()
            .success();
    }

    /// Run `arbiter args…`, expect success, and parse stdout as JSON.
    pub(crate) fn json(&self, args: &[&str]) -> Value {
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

/// Assert that a command exited 0; when it did not, its stderr says why. The failure is
/// reported at the caller's line.
#[track_caller]
pub(crate) fn assert_succeeded(output: &std::process::Output) {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A score answer's table cell, worked out here from its JSON: its most likely level (the
/// first of equals, the lower level) with that probability, beside its expected level.
pub(crate) fn score_cell(answer: &Value) -> String {
    let ps: Vec<f64> = answer["probabilities"]
        .as_object()
        .expect("a score's probabilities")
        .values()
        .map(|p| p.as_f64().unwrap())
        .collect();
    let level = (0..ps.len()).fold(0, |best, i| if ps[i] > ps[best] { i } else { best });
    let mean = answer["score"].as_f64().expect("a score");
    format!("level {level} ({:.3}) · mean {mean:.2}", ps[level])
}

/// The repository root (for the committed example files).
pub(crate) fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub(crate) const QUESTIONS: &str = r"
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
";

pub(crate) const STATE: &str = r#"{"messages":[{"role":"user","content":"my card was charged twice for the same order, I want one of them refunded"}]}"#;

/// Helpers for the repository-model and example tests.
impl TestEnv {
    /// `arbiter` as a plain `std::process::Command` (for spawning several at once), with the
    /// same environment as [`TestEnv::cmd`].
    pub(crate) fn std_cmd(&self) -> std::process::Command {
        arbiter_command(self.path())
    }

    /// Run `arbiter --json args…`, expect it to fail, and return the exit code, the problem
    /// document printed on stderr, and the whole of stderr.
    pub(crate) fn problem(&self, args: &[&str]) -> (i32, Value, String) {
        let output = self.cmd().arg("--json").args(args).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        assert!(
            !output.status.success(),
            "arbiter {args:?} should have failed; stdout: {}",
            String::from_utf8_lossy(&output.stdout)
        );
        let line = stderr
            .lines()
            .rev()
            .find(|l| l.trim_start().starts_with('{'))
            .unwrap_or_else(|| panic!("no problem JSON on stderr: {stderr}"));
        let problem = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("stderr line is not JSON ({e}): {line}"));
        (output.status.code().expect("exit code"), problem, stderr)
    }

    /// `git` isolated from the machine's configuration: no system or global config, and a
    /// HOME inside the temp dir.
    pub(crate) fn git(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new("git");
        cmd.env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("HOME", self.path())
            .env_remove("GIT_DIR")
            .env_remove("GIT_WORK_TREE")
            .env_remove("GIT_INDEX_FILE")
            .current_dir(self.path());
        cmd
    }

    /// Run `git args…` in `dir`, expect success, and return its trimmed stdout.
    pub(crate) fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        let output = self.git().current_dir(dir).args(args).output().unwrap();
        assert!(
            output.status.success(),
            "git {args:?} failed: {}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }
}

/// Model repositories checked out as plain git repositories.
impl TestEnv {
    /// A model repository in `name/` (a git repository, `main` checked out): `model.yaml`
    /// on `mo`, the support questions, and their labels in `examples/annotated.jsonl`.
    pub(crate) fn support_checkout(&self, name: &str) -> PathBuf {
        let dir = self.path().join(name);
        std::fs::create_dir_all(dir.join("examples")).unwrap();
        std::fs::write(dir.join("model.yaml"), "base: mo\n").unwrap();
        std::fs::copy(support_file("questions.yaml"), dir.join("questions.yaml")).unwrap();
        std::fs::copy(
            support_file("examples.jsonl"),
            dir.join("examples/annotated.jsonl"),
        )
        .unwrap();
        self.git_in(&dir, &["init", "-q", "-b", "main"]);
        self.commit_all(&dir, "questions and labels");
        dir
    }

    /// `git add -A` and a commit of everything in `dir`, by dana.
    pub(crate) fn commit_all(&self, dir: &Path, message: &str) {
        self.git_in(dir, &["add", "-A"]);
        self.git_in(
            dir,
            &[
                "-c",
                "user.name=dana",
                "-c",
                "user.email=dana@example.com",
                "commit",
                "-qm",
                message,
            ],
        );
    }
}

/// The path of a committed example file, `examples/support/<name>`, as a string.
pub(crate) fn support_file(name: &str) -> String {
    repo_root()
        .join("examples/support")
        .join(name)
        .display()
        .to_string()
}

/// A server on `127.0.0.1:0`, bound before its thread starts, on its own thread and
/// runtime, so that a test whose own thread runs commands can call it: the real server
/// ([`TestEnv::serve_on_thread`]) or a small axum app ([`Background::router`]: a proxy, a fake
/// upstream, a collector). Dropping it stops it.
pub(crate) struct Background {
    url: String,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl TestEnv {
    /// `arbiter serve` over this home on a thread of its own ([`Background`]), shut down
    /// gracefully when dropped.
    pub(crate) fn serve_on_thread(&self) -> Background {
        let ctx = self.ctx().clone();
        Background::start(false, move |listener, stopped| async move {
            let _ = arbiter::server::serve(ctx, listener, async move {
                let _ = stopped.await;
            })
            .await;
        })
    }
}

impl Background {
    /// `app`, until dropped; handlers still running then (a fake that hangs) are dropped,
    /// not waited for.
    pub(crate) fn router(app: axum::Router) -> Self {
        Self::start(true, move |listener, stopped| async move {
            tokio::select! {
                _ = axum::serve(listener, app) => {}
                _ = stopped => {}
            }
        })
    }

    fn start<F, Fut>(drop_hanging: bool, serve: F) -> Self
    where
        F: FnOnce(tokio::net::TcpListener, tokio::sync::oneshot::Receiver<()>) -> Fut
            + Send
            + 'static,
        Fut: std::future::Future<Output = ()>,
    {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}", listener.local_addr().unwrap());
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = runtime();
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                serve(listener, stopped).await;
            });
            if drop_hanging {
                runtime.shutdown_background();
            }
        });
        Self {
            url,
            stop: Some(stop),
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A two-thread runtime, for tests that drive a served process over HTTP.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

/// The tests' one deadline loop: call `probe` every `every` until it gives `Ok`; past
/// `within`, fail with what it gave last (its `Err`).
pub(crate) fn wait_until<T>(
    within: std::time::Duration,
    every: std::time::Duration,
    mut probe: impl FnMut() -> Result<T, String>,
) -> T {
    let deadline = std::time::Instant::now() + within;
    loop {
        match probe() {
            Ok(value) => return value,
            Err(last) => assert!(
                std::time::Instant::now() < deadline,
                "still waiting after {within:?}: {last}"
            ),
        }
        std::thread::sleep(every);
    }
}

/// [`wait_until`] for a probe that awaits.
pub(crate) async fn wait_until_async<T, F>(
    within: std::time::Duration,
    every: std::time::Duration,
    mut probe: impl FnMut() -> F,
) -> T
where
    F: std::future::Future<Output = Result<T, String>>,
{
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match probe().await {
            Ok(value) => return value,
            Err(last) => assert!(
                tokio::time::Instant::now() < deadline,
                "still waiting after {within:?}: {last}"
            ),
        }
        tokio::time::sleep(every).await;
    }
}

/// Whether a job (as `GET /v1/jobs/{id}` or `jobs poll --json` gives it) has stopped.
pub(crate) fn job_finished(job: &Value) -> bool {
    matches!(
        job["status"].as_str(),
        Some("completed" | "failed" | "cancelled")
    )
}

/// A directory of this test process's own under cargo's temporary directory for tests:
/// `target/tmp/<prefix>-<pid>`, empty. Those of earlier runs whose process is gone are
/// removed first, so a failed run's files stay until the next run, to be looked at.
pub(crate) fn process_dir(prefix: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    if let Ok(entries) = std::fs::read_dir(root) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            let over = name
                .strip_prefix(prefix)
                .and_then(|rest| rest.strip_prefix('-'))
                .and_then(|pid| pid.parse::<u32>().ok())
                .is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists());
            if over {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
    let dir = root.join(format!("{prefix}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
