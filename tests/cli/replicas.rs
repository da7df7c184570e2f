//! Several replicas, each with its own home, sharing the model repositories through one
//! bare-repository remote (`ARBITER_REPOS_REMOTE=file://…`): what one home writes the other
//! reads, the remote arbitrates conflicting writes, plain git pushes are seen, and a remote
//! that is down leaves reads working and fails writes clearly.

use crate::common::Served;
use crate::common::{QUESTIONS, TestEnv};
use serde_json::Value;
use std::path::PathBuf;
use std::time::{Duration, Instant};

const MODEL: &str = "acme/support";

/// Two homes (`a`, `b`) on one `file://` remote kept in `a`'s temp dir.
struct Replicas {
    a: TestEnv,
    b: TestEnv,
    remote: PathBuf,
}

impl Replicas {
    fn new() -> Self {
        let a = TestEnv::new();
        let remote = a.path().join("remote");
        std::fs::create_dir_all(&remote).unwrap();
        Self {
            a,
            b: TestEnv::new(),
            remote,
        }
    }

    fn url(&self) -> String {
        format!("file://{}", self.remote.display())
    }

    fn cmd(&self, env: &TestEnv) -> assert_cmd::Command {
        let mut cmd = env.cmd();
        cmd.env("ARBITER_REPOS_REMOTE", self.url());
        cmd
    }

    /// `arbiter --json args…` in `env`, which must succeed.
    fn json(&self, env: &TestEnv, args: &[&str]) -> Value {
        let output = self.cmd(env).arg("--json").args(args).output().unwrap();
        assert!(
            output.status.success(),
            "arbiter {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap()
    }

    /// `arbiter --json args…` in `env`, which must fail: its exit code and problem.
    fn problem(&self, env: &TestEnv, args: &[&str]) -> (i32, Value) {
        let output = self.cmd(env).arg("--json").args(args).output().unwrap();
        assert!(!output.status.success(), "arbiter {args:?} should fail");
        let stderr = String::from_utf8_lossy(&output.stderr);
        let line = stderr
            .lines()
            .rev()
            .find(|l| l.starts_with('{'))
            .unwrap_or_else(|| panic!("no problem JSON: {stderr}"));
        (
            output.status.code().unwrap(),
            serde_json::from_str(line).unwrap(),
        )
    }

    /// `models create acme/support` through `a`.
    fn create(&self) -> Value {
        let questions = self.a.write("questions.yaml", QUESTIONS);
        let questions = questions.display().to_string();
        self.json(
            &self.a,
            &[
                "models",
                "create",
                MODEL,
                "--base",
                "mo",
                "--questions",
                &questions,
            ],
        )
    }

    /// `models commit acme/support` through `env` with `extra` appended to the questions.
    fn commit_args(env: &TestEnv, name: &str, extra: &str) -> Vec<String> {
        let file = env.write(&format!("{name}.yaml"), &format!("{QUESTIONS}{extra}"));
        [
            "models",
            "commit",
            MODEL,
            "--questions",
            &file.display().to_string(),
            "-m",
            name,
        ]
        .map(str::to_owned)
        .to_vec()
    }

    fn commit(&self, env: &TestEnv, name: &str, extra: &str) -> String {
        let args = Self::commit_args(env, name, extra);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // `models commit` prints the new checkpoint in a list.
        self.json(env, &args)[0]["checkpointId"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// The remote's `main`, read with plain git.
    fn remote_main(&self) -> String {
        self.a.git_in(
            &self.remote.join("acme/support.git"),
            &["rev-parse", "main"],
        )
    }
}

const CHURN: &str = "churn:\n  type: noul\n  instructions: The customer may leave.\n";

#[test]
fn a_model_created_through_one_home_is_listed_and_shown_through_another() {
    let replicas = Replicas::new();
    let created = replicas.create();
    let model_id = created["modelId"].as_str().unwrap();
    let listed: Vec<Value> = replicas.json(&replicas.b, &["models"])["models"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["kind"] == "repository")
        .cloned()
        .collect();
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(
        (listed[0]["path"].as_str(), listed[0]["modelId"].as_str()),
        (Some(MODEL), Some(model_id))
    );
    let shown = replicas.json(&replicas.b, &["models", "show", model_id]);
    assert_eq!(shown["latestCheckpoint"], created["latestCheckpoint"]);
    assert_eq!(shown["questions"], created["questions"]);
    // The same path through the other home is taken.
    let questions = replicas.b.write("q.yaml", QUESTIONS).display().to_string();
    let (exit, problem) = replicas.problem(
        &replicas.b,
        &[
            "models",
            "create",
            MODEL,
            "--base",
            "mo",
            "--questions",
            &questions,
        ],
    );
    assert_eq!(
        (exit, problem["code"].as_str()),
        (1, Some("already_exists"))
    );
}

#[test]
fn a_commit_through_one_home_resolves_through_a_served_replica_within_two_seconds() {
    let replicas = Replicas::new();
    replicas.create();
    let token = replicas.json(
        &replicas.b,
        &[
            "tokens",
            "create",
            "--name",
            "reader",
            "--scope",
            "models:read",
            "--role",
            "acme/*=reader",
        ],
    )["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let url = replicas.url();
    let served = replicas.b.spawn_serve_with(|cmd| {
        cmd.env("ARBITER_REPOS_REMOTE", &url);
    });
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let latest = || {
        runtime.block_on(async {
            let response = Served::client()
                .get(served.url("/v1/models/acme%2Fsupport"))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200);
            let body: Value = response.json().await.unwrap();
            body["latestCheckpoint"]["checkpointId"]
                .as_str()
                .unwrap_or_else(|| panic!("{body}"))
                .to_owned()
        })
    };
    let first = latest();
    let committed = replicas.commit(&replicas.a, "churn", CHURN);
    assert_ne!(first, committed);
    let started = Instant::now();
    loop {
        if latest() == committed {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(2),
            "the served replica still answers {first} 2 s after {committed} was pushed"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(runtime);
    let (exit, _log) = served.stop();
    assert_eq!(exit.code(), Some(0));
}

#[test]
fn conflicting_writes_through_two_homes_leave_one_winner_and_a_not_fast_forward() {
    let replicas = Replicas::new();
    replicas.create();
    // Both homes have the model before the race.
    replicas.json(&replicas.b, &["models", "show", MODEL]);
    // Each round starts one commit per home at once; a round where both read the same tip
    // and one loses the push is the case this test is about. Rounds stop at the first.
    for round in 0..30 {
        let children: Vec<_> = [&replicas.a, &replicas.b]
            .iter()
            .enumerate()
            .map(|(i, env)| {
                let extra = format!("r{round}w{i}:\n  type: noul\n");
                let args = Replicas::commit_args(env, &format!("r{round}-{i}"), &extra);
                let mut cmd = env.std_cmd();
                cmd.env("ARBITER_REPOS_REMOTE", replicas.url())
                    .arg("--json")
                    .args(&args)
                    .stdout(std::process::Stdio::piped())
                    .stderr(std::process::Stdio::piped());
                cmd.spawn().unwrap()
            })
            .collect();
        let outputs: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let won: Vec<String> = outputs
            .iter()
            .filter(|o| o.status.success())
            .map(|o| {
                let out: Value = serde_json::from_slice(&o.stdout).unwrap();
                out[0]["checkpointId"].as_str().unwrap().to_owned()
            })
            .collect();
        let lost: Vec<Value> = outputs
            .iter()
            .filter(|o| !o.status.success())
            .map(|o| {
                let stderr = String::from_utf8_lossy(&o.stderr);
                let line = stderr.lines().rev().find(|l| l.starts_with('{')).unwrap();
                serde_json::from_str(line).unwrap()
            })
            .collect();
        for problem in &lost {
            assert_eq!(problem["code"], "not_fast_forward", "{problem}");
            assert_eq!(problem["status"], 409, "{problem}");
        }
        // Whoever won is what the remote holds.
        assert!(won.contains(&replicas.remote_main()), "{won:?}");
        if let [winner] = won.as_slice() {
            assert_eq!(lost.len(), 1);
            assert_eq!(&replicas.remote_main(), winner);
            return;
        }
    }
    panic!("30 rounds of two simultaneous commits never conflicted");
}

#[test]
fn a_plain_git_push_is_seen_and_a_commit_once_seen_survives_a_forced_branch() {
    let replicas = Replicas::new();
    let created = replicas.create();
    let root = created["latestCheckpoint"]["checkpointId"]
        .as_str()
        .unwrap()
        .to_owned();
    let env = &replicas.a;
    let work = env.path().join("work");
    let cloned = env
        .git()
        .arg("clone")
        .arg(replicas.url() + "/acme/support.git")
        .arg(&work)
        .output()
        .unwrap();
    assert!(cloned.status.success(), "{cloned:?}");
    let questions = work.join("questions.yaml");
    let text = std::fs::read_to_string(&questions).unwrap() + CHURN;
    std::fs::write(&questions, text).unwrap();
    env.git_in(
        &work,
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-am",
            "By hand",
        ],
    );
    env.git_in(&work, &["push", "origin", "HEAD:main"]);
    let pushed = env.git_in(&work, &["rev-parse", "HEAD"]);

    let log = replicas.json(&replicas.b, &["models", "log", MODEL]);
    assert_eq!(log[0]["checkpointId"], pushed.as_str(), "{log}");
    assert_eq!(log[0]["message"], "By hand");
    // The branch is forced back on the remote: it follows, and the commit stays readable.
    env.git_in(
        &work,
        &["push", "--force", "origin", &format!("{root}:main")],
    );
    let log = replicas.json(&replicas.b, &["models", "log", MODEL]);
    assert_eq!(log[0]["checkpointId"], root.as_str(), "{log}");
    let at = replicas.json(
        &replicas.b,
        &["models", "log", MODEL, "--revision", &pushed, "-n", "1"],
    );
    assert_eq!(at[0]["checkpointId"], pushed.as_str(), "{at}");
}

#[test]
fn with_the_remote_down_reads_use_the_mirror_and_writes_fail_with_remote_unavailable() {
    let replicas = Replicas::new();
    let created = replicas.create();
    let head = created["latestCheckpoint"]["checkpointId"].clone();
    replicas.json(&replicas.b, &["models", "show", MODEL]);
    let away = replicas.a.path().join("remote-away");
    std::fs::rename(&replicas.remote, &away).unwrap();

    let shown = replicas.json(&replicas.b, &["models", "show", MODEL]);
    assert_eq!(shown["latestCheckpoint"]["checkpointId"], head);
    let args = Replicas::commit_args(&replicas.b, "down", CHURN);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (exit, problem) = replicas.problem(&replicas.b, &args);
    assert_eq!(exit, 1);
    assert_eq!(problem["code"], "remote_unavailable", "{problem}");
    assert_eq!(problem["status"], 503);
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.starts_with("the model repositories' remote is unavailable (file://"),
        "{detail}"
    );
    // Nothing was written to the mirror; back up, the same write lands.
    let shown = replicas.json(&replicas.b, &["models", "show", MODEL]);
    assert_eq!(shown["latestCheckpoint"]["checkpointId"], head);
    std::fs::rename(&away, &replicas.remote).unwrap();
    let committed = replicas.commit(&replicas.b, "down", CHURN);
    assert_eq!(replicas.remote_main(), committed);
}

#[test]
fn a_password_in_the_remote_url_is_refused() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .env(
            "ARBITER_REPOS_REMOTE",
            "https://bot:hunter2@git.example/arbiter",
        )
        .args(["models"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("ARBITER_REPOS_REMOTE: a password in the URL is not read"),
        "{stderr}"
    );
    assert!(!stderr.contains("hunter2"), "{stderr}");
}

/// `models delete-branch` on a shared remote: the branch is deleted there, so the other
/// home no longer sees it; the default branch is never deleted, and a branch already gone
/// is not found; the deletion is in the history with the commit the branch pointed at.
#[test]
fn a_branch_deleted_through_one_home_is_gone_for_the_other() {
    let replicas = Replicas::new();
    replicas.create();
    let (a, b) = (&replicas.a, &replicas.b);
    let questions = a.write(
        "more.yaml",
        "late:\n  type: noul\n  instructions: The parcel is late.\n",
    );
    let committed = replicas.json(
        a,
        &[
            "models",
            "commit",
            MODEL,
            "--questions",
            questions.to_str().unwrap(),
            "--branch",
            "alignments/try",
            "-m",
            "try",
        ],
    );
    let tip = committed[0]["checkpointId"].as_str().unwrap().to_owned();
    let branches = |env: &TestEnv| -> Vec<String> {
        replicas.json(env, &["models", "show", MODEL])["branches"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert!(branches(b).contains(&"alignments/try".to_owned()));

    let deleted = replicas.json(a, &["models", "delete-branch", MODEL, "alignments/try"]);
    assert_eq!(deleted["deleted"], "alignments/try");
    assert_eq!(branches(b), ["main"]);
    assert_eq!(branches(a), ["main"]);
    let (code, problem) =
        replicas.problem(b, &["models", "delete-branch", MODEL, "alignments/try"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("revision_not_found")),
        "{problem}"
    );
    let (code, problem) = replicas.problem(b, &["models", "delete-branch", MODEL, "main"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("conflict")),
        "{problem}"
    );
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("default branch"),
        "{problem}"
    );
    let history = replicas.json(a, &["models", "history", MODEL]);
    assert_eq!(history[0]["action"], "delete", "{history}");
    assert_eq!(history[0]["ref"], "branches/alignments/try");
    assert_eq!(history[0]["from"], tip.as_str());
}
