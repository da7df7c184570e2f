//! Client mode: the real binary with `--server` against a real `arbiter serve` on
//! `127.0.0.1:0`, compared with the same command run locally on the server's own home.
//!
//! The server runs on its own thread and runtime ([`Shared`]), so these blocking
//! `assert_cmd` tests can call it. A small forwarding proxy ([`Proxy`]) in front of it
//! injects failures (a 503, a 429 with `Retry-After`, an answer lost after the server acted)
//! and records what the client sent.

use crate::common::wait_until;
use crate::common::{Background, TestEnv};
use crate::common::{QUESTIONS, STATE, repo_root};
use crate::terminal::Terminal;
use assert_cmd::Command;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::response::Response;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

mod older_server;

// ---------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------

/// A shared `arbiter serve` over a temporary home, with an admin token.
struct Shared {
    server: Background,
    home: TestEnv,
    admin: String,
}

impl Shared {
    /// A home with `acme/support` (base `mo`, the common questions), served.
    fn start() -> Self {
        let home = TestEnv::new();
        home.model("acme/support");
        Self::serve(home)
    }

    fn serve(home: TestEnv) -> Self {
        let admin = home.admin_token("admin");
        let server = home.serve_on_thread();
        Self {
            server,
            home,
            admin,
        }
    }

    fn url(&self) -> &str {
        self.server.url()
    }

    /// The temp dir around the home: input files go here.
    fn dir(&self) -> PathBuf {
        self.home.home().parent().unwrap().to_owned()
    }

    fn write(&self, name: &str, text: &str) -> String {
        let path = self.dir().join(name);
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    }

    /// `arbiter` with a clean environment and a HOME inside the temp dir.
    fn std_bare(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(assert_cmd::cargo::cargo_bin("arbiter"));
        cmd.env_clear()
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.dir())
            .env("RUST_BACKTRACE", "0")
            .current_dir(self.dir());
        cmd
    }

    fn bare(&self) -> Command {
        with_timeout(self.std_bare())
    }

    /// `arbiter` on the server's own home, run by a user named as the admin token, so that
    /// annotations written either way name the same annotator.
    fn local(&self) -> Command {
        let mut cmd = self.std_bare();
        cmd.env("ARBITER_HOME", self.home.home())
            .env("USER", "admin");
        with_timeout(cmd)
    }

    /// `arbiter --server` at the server with the admin token. Its `ARBITER_HOME` names a
    /// directory that must never be created: client mode does not touch a home.
    fn remote(&self) -> Command {
        self.remote_at(self.url(), Some(&self.admin))
    }

    fn remote_at(&self, url: &str, token: Option<&str>) -> Command {
        with_timeout(self.std_remote_at(url, token))
    }

    fn std_remote_at(&self, url: &str, token: Option<&str>) -> std::process::Command {
        let mut cmd = self.std_bare();
        cmd.env("ARBITER_HOME", self.unused_home())
            .arg("--server")
            .arg(url);
        if let Some(token) = token {
            cmd.env("ARBITER_TOKEN", token);
        }
        cmd
    }

    fn unused_home(&self) -> PathBuf {
        self.dir().join("unused-home")
    }

    /// The job IDs of the server's home, newest first.
    fn job_ids(&self) -> Vec<String> {
        arbiter::core::jobs::list(self.home.ctx(), None, &[], 0)
            .unwrap()
            .into_iter()
            .map(|job| job.job_id.to_string())
            .collect()
    }
}

impl Drop for Shared {
    fn drop(&mut self) {
        assert!(
            !self.unused_home().exists(),
            "a client-mode command created a local home"
        );
    }
}

/// A hang is a failure, not a CI run that never ends.
fn with_timeout(cmd: std::process::Command) -> Command {
    let mut cmd = Command::from_std(cmd);
    cmd.timeout(Duration::from_mins(5));
    cmd
}

/// Run `cmd args…`; return the exit code, stdout and stderr.
fn run(mut cmd: Command, args: &[&str]) -> (i32, String, String) {
    let output = cmd.args(args).output().unwrap();
    (
        output.status.code().expect("an exit code"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Run `cmd args…`, expect success, and parse stdout as JSON.
fn json(cmd: Command, args: &[&str]) -> Value {
    let (code, stdout, stderr) = run(cmd, args);
    assert_eq!(code, 0, "arbiter {args:?} failed: {stderr}");
    serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("arbiter {args:?}: stdout is not JSON ({e}): {stdout}"))
}

/// JSON Lines on stdout.
fn lines(cmd: Command, args: &[&str]) -> Vec<Value> {
    let (code, stdout, stderr) = run(cmd, args);
    assert_eq!(code, 0, "arbiter {args:?} failed: {stderr}");
    stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Run `cmd --json args…`, expect failure; the exit code, the problem on stderr, stderr.
fn problem(mut cmd: Command, args: &[&str]) -> (i32, Value, String) {
    cmd.arg("--json");
    let (code, stdout, stderr) = run(cmd, args);
    assert_ne!(code, 0, "arbiter {args:?} should have failed: {stdout}");
    let line = stderr
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with('{'))
        .unwrap_or_else(|| panic!("no problem JSON on stderr: {stderr}"));
    (code, serde_json::from_str(line).unwrap(), stderr)
}

/// `value` with the members named `keys` (at any depth) replaced by a placeholder: what
/// must differ between two runs (IDs, times, the server's address).
fn normalized(value: &Value, keys: &[&str]) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| {
                    let v = if keys.contains(&k.as_str()) {
                        json!("<normalized>")
                    } else {
                        normalized(v, keys)
                    };
                    (k.clone(), v)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(|v| normalized(v, keys)).collect()),
        other => other.clone(),
    }
}

/// A batch result or problem differs only in where and when it was made.
const RUN_SPECIFIC: &[&str] = &["requestId", "type", "jobId", "createdAt", "annotatedAt"];

/// `n` distinct JSON Lines states.
fn states(n: usize) -> String {
    crate::http_jobs::items(n)
        .iter()
        .fold(String::new(), |mut text, item| {
            let _ = writeln!(text, "{item}");
            text
        })
}

fn questions_file(shared: &Shared) -> String {
    shared.write("questions.yaml", QUESTIONS)
}

// ---------------------------------------------------------------------------------------
// The same output
// ---------------------------------------------------------------------------------------

#[test]
fn decide_and_models_print_what_they_print_locally() {
    let shared = Shared::start();
    let questions = questions_file(&shared);
    let state = shared.write("state.json", STATE);
    for args in [
        vec![
            "decide",
            "--model",
            "mo",
            "--questions",
            &questions,
            "--state",
            &state,
        ],
        vec![
            "decide",
            "--model",
            "acme/support",
            "--state",
            &state,
            "--no-capture",
        ],
        vec!["models"],
        vec!["models", "show", "acme/support"],
        vec!["models", "log", "acme/support", "-n", "5"],
    ] {
        let local = json(shared.local(), &args);
        let remote = json(shared.remote(), &args);
        assert_eq!(remote, local, "arbiter {args:?}");
    }
    // The model by its modelId works the same.
    let detail = json(shared.remote(), &["models", "show", "acme/support"]);
    let by_id = json(
        shared.remote(),
        &["models", "show", detail["modelId"].as_str().unwrap()],
    );
    assert_eq!(by_id, detail);
    // A captured decision differs only in the example and decision it recorded.
    let remote = json(
        shared.remote(),
        &["decide", "--model", "acme/support", "--state", &state],
    );
    assert_eq!(remote["recorded"], true, "{remote}");
    let local = json(
        shared.local(),
        &["decide", "--model", "acme/support", "--state", &state],
    );
    assert_eq!(
        remote["example"]["exampleId"],
        local["example"]["exampleId"]
    );
    assert_eq!(remote["answers"], local["answers"]);
}

/// A promotion through the server is the token's; one on the home is the local user's; both
/// land in one history, which `models history` and `models diff` print the same either way.
#[test]
fn history_and_diff_print_what_they_print_locally() {
    let shared = Shared::start();
    let extra = format!("{QUESTIONS}\nchurn:\n  type: noul\n  instructions: Will they leave?\n");
    let draft = shared.write("draft.yaml", &extra);
    json(
        shared.local(),
        &[
            "models",
            "commit",
            "acme/support",
            "--questions",
            &draft,
            "--branch",
            "draft",
            "-m",
            "churn",
        ],
    );
    json(shared.local(), &["models", "tag", "acme/support", "v1"]);
    let ci = shared
        .home
        .token("ci", &["alignments", "models:read"], &["acme/*=writer"]);
    json(
        shared.remote_at(shared.url(), Some(&ci)),
        &["models", "promote", "acme/support", "draft"],
    );
    for args in [
        vec!["models", "history", "acme/support"],
        vec!["models", "diff", "acme/support", "v1", "draft"],
    ] {
        let local = json(shared.local(), &args);
        let remote = json(shared.remote(), &args);
        assert_eq!(remote, local, "arbiter {args:?}");
    }
    let history = json(shared.remote(), &["models", "history", "acme/support"]);
    let who: Vec<(&str, &str)> = history
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["action"].as_str().unwrap(), e["actor"].as_str().unwrap()))
        .collect();
    assert_eq!(who, [("promote", "ci"), ("tag", "admin")]);
    // A reader without a role on the model sees no such model.
    let stranger = shared
        .home
        .token("stranger", &["models:read"], &["other/*=admin"]);
    let (code, problem, _) = problem(
        shared.remote_at(shared.url(), Some(&stranger)),
        &["models", "history", "acme/support"],
    );
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
}

// Every examples command, remote beside local: one list, read top to bottom.
#[allow(clippy::too_many_lines)]
#[test]
fn examples_commands_print_what_they_print_locally() {
    let shared = Shared::start();
    // Two models alike: one written locally, the other through the server.
    shared.home.model("acme/other");
    let examples = concat!(
        r#"{"example_id": "t-1", "state": {"text": "refund please"}, "annotations": {"intent": {"answer": "refund", "reasoning": "money back"}}}"#,
        "\n\n",
        r#"{"example_id": "t-2", "state": {"text": "where is my parcel"}, "annotations": {"urgency": {"answer": 9}}}"#,
        "\n",
        "{not json\n",
        r#"{"state": {"text": "derived id"}, "annotations": {"escalate": {"answer": true}}}"#,
        "\n",
    );
    let file = shared.write("examples.jsonl", examples);
    let annotations = concat!(
        r#"{"example_id": "t-1", "question": "urgency", "answer": 2}"#,
        "\n",
        r#"{"example_id": "nope", "question": "urgency", "answer": 1}"#,
        "\n",
        r#"{"question": "urgency", "answer": 1}"#,
        "\n",
    );
    let annotation_file = shared.write("annotations.jsonl", annotations);
    let compare = |args: &[&str], remote_args: &[&str]| {
        let (local_code, local_out, _) = run(shared.local(), args);
        let (remote_code, remote_out, remote_err) = run(shared.remote(), remote_args);
        assert_eq!(remote_code, local_code, "{remote_args:?}: {remote_err}");
        let parse = |text: &str| -> Vec<Value> {
            text.lines()
                .map(|l| normalized(&serde_json::from_str(l).unwrap(), RUN_SPECIFIC))
                .collect()
        };
        assert_eq!(parse(&remote_out), parse(&local_out), "{remote_args:?}");
        remote_out
    };
    let with = |args: &[&str], model: &str| -> Vec<String> {
        args.iter()
            .map(|a| {
                if *a == "MODEL" {
                    model.to_owned()
                } else {
                    (*a).to_owned()
                }
            })
            .collect()
    };
    let pair = |args: &[&str]| {
        let local = with(args, "acme/support");
        let remote = with(args, "acme/other");
        let local: Vec<&str> = local.iter().map(String::as_str).collect();
        let remote: Vec<&str> = remote.iter().map(String::as_str).collect();
        compare(&local, &remote)
    };
    // A bad line: exit 1 both ways, the same report.
    let report = pair(&["examples", "ingest", "MODEL", "--file", &file]);
    assert!(report.contains("\"line\":4"), "{report}");
    pair(&["examples", "ingest", "MODEL", "--file", &file, "--atomic"]);
    pair(&[
        "examples",
        "annotate",
        "MODEL",
        "t-1",
        "--question",
        "intent",
        "--answer",
        "technical",
        "--reasoning",
        "broken",
    ]);
    // An example that is not there: exit 4 both ways.
    pair(&[
        "examples",
        "annotate",
        "MODEL",
        "t-2",
        "--question",
        "intent",
        "--answer",
        "technical",
    ]);
    pair(&["examples", "annotate", "MODEL", "--file", &annotation_file]);
    pair(&["examples", "list", "MODEL"]);
    pair(&["examples", "list", "MODEL", "--annotated", "-n", "1"]);
    pair(&["examples", "list", "MODEL", "--question", "urgency"]);
    pair(&["examples", "show", "MODEL", "t-1"]);
    pair(&["examples", "export", "MODEL"]);
    pair(&["examples", "export", "MODEL", "--annotated"]);
    // The agreement report names its model: both ways over the same one.
    for args in [
        &["examples", "agreement", "acme/other"][..],
        &[
            "examples",
            "agreement",
            "acme/other",
            "--question",
            "urgency",
        ],
        // An unknown question: exit 1 both ways, the same problem.
        &["examples", "agreement", "acme/other", "--question", "nope"],
    ] {
        compare(args, args);
    }
    // An atomic ingest with a bad line writes nothing and says which, both ways.
    let (code, stdout, _) = run(
        shared.remote(),
        &[
            "examples",
            "ingest",
            "acme/other",
            "--file",
            &file,
            "--atomic",
        ],
    );
    assert_eq!(code, 1);
    let report: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["committed"], false, "{report}");
    // Export | ingest round-trips through the server.
    let exported = shared.write(
        "exported.jsonl",
        &run(shared.remote(), &["examples", "export", "acme/other"]).1,
    );
    let again = json(
        shared.remote(),
        &["examples", "ingest", "acme/other", "--file", &exported],
    );
    // t-1 and the derived one (t-2's annotation was refused, so it never came in).
    assert_eq!(again["created"], 0, "{again}");
    assert_eq!(again["existing"], 2, "{again}");
}

/// With `--server` the server names the annotator (its token's name): `--annotator` is a
/// usage error, while a line of a file may still name its own.
#[test]
fn a_servers_annotator_is_its_token() {
    let shared = Shared::start();
    let file = shared.write(
        "e.jsonl",
        concat!(
            r#"{"example_id": "e-1", "state": {"t": 1}, "annotations": {"urgency": [{"answer": 1, "annotator": "vendor"}, {"answer": 2}]}}"#,
            "\n"
        ),
    );
    for args in [
        vec![
            "examples",
            "ingest",
            "acme/support",
            "--file",
            &file,
            "--annotator",
            "me",
        ],
        vec![
            "examples",
            "annotate",
            "acme/support",
            "e-1",
            "--question",
            "urgency",
            "--answer",
            "3",
            "--annotator",
            "me",
        ],
        vec![
            "examples",
            "annotate",
            "acme/support",
            "--file",
            &file,
            "--annotator",
            "me",
        ],
    ] {
        let (code, _, stderr) = run(shared.remote(), &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains("token's name"), "{stderr}");
    }
    let report = json(
        shared.remote(),
        &["examples", "ingest", "acme/support", "--file", &file],
    );
    assert_eq!(report["annotations"], 2, "{report}");
    let annotation = json(
        shared.remote(),
        &[
            "examples",
            "annotate",
            "acme/support",
            "e-1",
            "--question",
            "urgency",
            "--answer",
            "1",
        ],
    );
    // The admin token re-answered: vendor and admin now agree on 1.
    let votes: Vec<(&str, &Value)> = annotation["votes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| (v["annotator"].as_str().unwrap(), &v["answer"]))
        .collect();
    assert_eq!(votes, [("vendor", &json!(1)), ("admin", &json!(1))]);
    assert_eq!(
        (&annotation["answer"], &annotation["annotator"]),
        (&json!(1), &json!("admin"))
    );
}

#[test]
fn ingest_in_small_chunks_reports_what_one_local_ingest_does() {
    let shared = Shared::start();
    shared.home.model("acme/other");
    let mut text = String::new();
    for i in 0..40 {
        if i % 7 == 3 {
            text.push('\n');
        }
        if i % 11 == 5 {
            text.push_str("{broken\n");
        }
        let _ = writeln!(
            text,
            "{{\"example_id\": \"c-{i}\", \"state\": {{\"text\": \"ticket {i}\"}}, \"annotations\": {{\"urgency\": {{\"answer\": {}}}}}}}",
            i % 6
        );
    }
    let file = shared.write("many.jsonl", &text);
    let array: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let array_file = shared.write("many.json", &serde_json::to_string_pretty(&array).unwrap());
    for file in [&file, &array_file] {
        let (local_code, local, _) = run(
            shared.local(),
            &["examples", "ingest", "acme/support", "--file", file],
        );
        let mut remote = shared.remote();
        // About three lines a request: the file goes up in many chunks.
        remote.env("ARBITER_CHUNK_BYTES", "300");
        let (remote_code, remote_out, stderr) = run(
            remote,
            &["examples", "ingest", "acme/other", "--file", file],
        );
        assert_eq!(remote_code, local_code, "{stderr}");
        let (local, remote): (Value, Value) = (
            serde_json::from_str(&local).unwrap(),
            serde_json::from_str(&remote_out).unwrap(),
        );
        assert_eq!(remote, local, "{file}");
        let local_rows = lines(shared.local(), &["examples", "export", "acme/support"]);
        let remote_rows = lines(shared.local(), &["examples", "export", "acme/other"]);
        assert_eq!(remote_rows, local_rows);
    }
    let report: Value = serde_json::from_str(
        &run(
            shared.local(),
            &["examples", "ingest", "acme/support", "--file", &file],
        )
        .1,
    )
    .unwrap();
    // 40 lines, 6 with a level beyond the 5 of urgency, and 4 broken lines.
    assert_eq!(report["existing"], 34, "{report}");
    assert_eq!(report["rejected"].as_array().unwrap().len(), 10, "{report}");
}

#[test]
fn examples_next_prints_what_it_prints_locally() {
    let shared = Shared::start();
    let mut text = states(12);
    text.push_str("{\"example_id\": \"done\", \"state\": \"refund me\", \"annotations\": {\"intent\": {\"answer\": \"refund\"}}}\n");
    let file = shared.write("states.jsonl", &text);
    json(
        shared.remote(),
        &["examples", "ingest", "acme/support", "--file", &file],
    );
    // The server decides (and caches) first what the local run reads back, and what every
    // later ask reads too, with or without `--question`: only `cached` differs.
    for (k, args) in [
        &["examples", "next", "acme/support", "-n", "5", "--seed", "3"][..],
        &[
            "examples",
            "next",
            "acme/support",
            "--question",
            "intent",
            "--audit",
            "0.5",
        ],
        &[
            "examples",
            "next",
            "acme/support",
            "--pool",
            "4",
            "-n",
            "2",
            "--audit",
            "1",
        ],
    ]
    .into_iter()
    .enumerate()
    {
        let remote = json(shared.remote(), args);
        let local = json(shared.local(), args);
        let cached_remotely = if k == 0 {
            json!(0)
        } else {
            remote["scored"].clone()
        };
        assert_eq!(remote["cached"], cached_remotely, "{args:?}");
        assert_eq!(local["cached"], local["scored"], "{args:?}");
        assert_eq!(
            normalized(&remote, &["cached"]),
            normalized(&local, &["cached"]),
            "{args:?}"
        );
        assert!(
            !remote["examples"].as_array().unwrap().is_empty(),
            "{args:?}"
        );
    }
    // Errors: the same codes, details and exit codes.
    for (args, exit) in [
        (
            &["examples", "next", "acme/support", "--question", "nope"][..],
            1,
        ),
        (
            &["examples", "next", "acme/support", "--revision", "nope"],
            4,
        ),
        (&["examples", "next", "acme/nope"], 4),
    ] {
        let (local_code, local, _) = problem(shared.local(), args);
        let (remote_code, remote, stderr) = problem(shared.remote(), args);
        assert_eq!(
            (remote_code, local_code),
            (exit, exit),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            normalized(&remote, RUN_SPECIFIC),
            normalized(&local, RUN_SPECIFIC),
            "{args:?}"
        );
    }
}

#[test]
fn batch_and_jobs_print_what_they_print_locally() {
    let shared = Shared::start();
    let mut text = states(4);
    text.push_str("\n{not json\n");
    text.push_str("{\"example_id\": \"own\", \"state\": \"refund me\"}\n");
    let input = shared.write("states.jsonl", &text);
    let questions = questions_file(&shared);
    let args = [
        "batch",
        "acme/support",
        "--input",
        &input,
        "--questions",
        &questions,
    ];
    // One line fails, so both exit 1 after saying so (a CI script notices), and print the
    // same results.
    let (local_code, local, _) = run(shared.local(), &args);
    let (remote_code, remote, stderr) = run(shared.remote(), &args);
    assert_eq!((local_code, remote_code), (1, 1), "{stderr}");
    assert!(
        stderr.contains("error: 1 of 6 items failed, more than the 0 allowed"),
        "{stderr}"
    );
    let parse = |text: &str| -> Vec<Value> {
        text.lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (local, remote) = (parse(&local), parse(&remote));
    let mut allowed = args.to_vec();
    allowed.extend(["--max-failed-items", "1"]);
    assert_eq!(run(shared.remote(), &allowed).0, 0);
    assert_eq!(remote.len(), 6);
    assert_eq!(
        normalized(&Value::Array(remote.clone()), RUN_SPECIFIC),
        normalized(&Value::Array(local), RUN_SPECIFIC)
    );
    assert_eq!(
        remote[4]["error"]["details"][0]["loc"],
        json!(["body", "items", 4]),
        "a line that is not JSON fails alone: {}",
        remote[4]
    );
    // --output and --examples.
    let out = shared.dir().join("out.jsonl");
    let job = json(
        shared.remote(),
        &[
            "batch",
            "acme/support",
            "--examples",
            "all",
            "--output",
            out.to_str().unwrap(),
        ],
    );
    assert_eq!(job["status"], "completed", "{job}");
    let job_id = job["jobId"].as_str().unwrap().to_owned();

    // The jobs commands read the same jobs, and print them the same.
    for args in [
        vec!["jobs", "list"],
        vec![
            "jobs",
            "list",
            "acme/support",
            "--status",
            "completed",
            "-n",
            "1",
        ],
        vec!["jobs", "poll", &job_id],
        vec!["jobs", "poll", &job_id, "--wait"],
        vec!["jobs", "cancel", &job_id],
    ] {
        assert_eq!(
            json(shared.remote(), &args),
            json(shared.local(), &args),
            "arbiter {args:?}"
        );
    }
    let (code, local_results, _) = run(shared.local(), &["jobs", "results", &job_id]);
    assert_eq!(code, 0);
    let (code, remote_results, _) = run(shared.remote(), &["jobs", "results", &job_id]);
    assert_eq!(code, 0);
    assert_eq!(remote_results, local_results);
    assert_eq!(remote_results, std::fs::read_to_string(&out).unwrap());
    prefixes_name_jobs_as_whole_ids_do(&shared, &job_id, &local_results);

    // Detached: the job ID, then the same job.
    let (code, detached, stderr) = run(
        shared.remote(),
        &["batch", "acme/support", "--input", &input, "--detach"],
    );
    assert_eq!(code, 0, "{stderr}");
    let id = detached.trim();
    assert_eq!(run(shared.remote(), &["jobs", "poll", id, "--wait"]).0, 1);
    let ended = json(
        shared.remote(),
        &["jobs", "poll", id, "--wait", "--max-failed-items", "20%"],
    );
    assert_eq!(ended["status"], "completed", "{ended}");
    assert_eq!(ended["progress"]["total"], 6);
}

/// A prefix of `job_id`, as `jobs list` shows IDs, names the job on the server too (found
/// through `GET /v1/jobs?idPrefix=`); one too short is refused as too short, as locally.
fn prefixes_name_jobs_as_whole_ids_do(shared: &Shared, job_id: &str, results: &str) {
    let short = &job_id[..12];
    for args in [vec!["jobs", "poll", short], vec!["jobs", "cancel", short]] {
        assert_eq!(
            json(shared.remote(), &args),
            json(shared.local(), &args),
            "arbiter {args:?}"
        );
    }
    assert_eq!(run(shared.remote(), &["jobs", "results", short]).1, results);
    let (code, problem, _) = problem(shared.remote(), &["jobs", "poll", &job_id[..3]]);
    assert_eq!(code, 1, "{problem}");
    assert_eq!(
        problem["detail"],
        format!(
            "job ID prefix `{}` is too short: give at least 4 characters of the ID",
            &job_id[..3]
        )
    );
}

#[test]
fn a_retried_batch_creation_yields_one_job() {
    let shared = Shared::start();
    let input = shared.write("states.jsonl", &states(3));
    let detach = |cmd: Command| {
        let (code, stdout, stderr) = run(
            cmd,
            &["batch", "acme/support", "--input", &input, "--detach"],
        );
        assert_eq!(code, 0, "{stderr}");
        (stdout.trim().to_owned(), stderr)
    };
    let (first, _) = detach(shared.remote());
    let (again, stderr) = detach(shared.remote());
    assert_eq!(again, first, "the same request is the same job");
    assert!(stderr.contains("already had this request"), "{stderr}");
    assert_eq!(shared.job_ids(), std::slice::from_ref(&first));
    // Another CI run (or another input) is another job.
    let mut next_run = shared.remote();
    next_run.env("ARBITER_RUN_ID", "nightly-2");
    let (other, _) = detach(next_run);
    assert_ne!(other, first);
    let other_input = shared.write("more.jsonl", &states(4));
    let (code, third, _) = run(
        shared.remote(),
        &["batch", "acme/support", "--input", &other_input, "--detach"],
    );
    assert_eq!(code, 0);
    assert_ne!(third.trim(), first);
    assert_eq!(shared.job_ids().len(), 3);

    // A retry after the job was cancelled (or failed) starts a new one, once.
    let big = shared.write("big.jsonl", &states(1500));
    let detach_big = || {
        let mut cmd = shared.remote();
        cmd.env("ARBITER_RUN_ID", "cancelled-run");
        let (code, stdout, stderr) =
            run(cmd, &["batch", "acme/support", "--input", &big, "--detach"]);
        assert_eq!(code, 0, "{stderr}");
        stdout.trim().to_owned()
    };
    let cancelled = detach_big();
    json(shared.remote(), &["jobs", "cancel", &cancelled]);
    let (code, _, _) = run(shared.remote(), &["jobs", "poll", &cancelled, "--wait"]);
    assert_eq!(code, 1, "a cancelled job");
    let fresh = detach_big();
    assert_ne!(fresh, cancelled);
    assert_eq!(
        detach_big(),
        fresh,
        "and retrying that lands on the new job"
    );
    json(shared.remote(), &["jobs", "cancel", &fresh]);
}

/// `examples` of the labelled support set, annotated for `intent`, on model `path` (base
/// `mo`, the support questions).
fn labelled_model(shared: &Shared, path: &str, examples: usize) {
    let questions = repo_root().join("examples/support/questions.yaml");
    let (code, _, stderr) = run(
        shared.local(),
        &[
            "models",
            "create",
            path,
            "--base",
            "mo",
            "--questions",
            questions.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let file = shared.write(
        "labelled.jsonl",
        &crate::align::labelled(examples, &["intent"]),
    );
    json(
        shared.remote(),
        &["examples", "ingest", path, "--file", &file],
    );
}

/// Every question gated: urgency and escalate, never annotated, were not measured, so the
/// gate `every` asks for fails on them (exit 3, locally and on the server alike) unless told
/// to pass without them.
fn unmeasured_questions_fail_the_gate_both_ways(shared: &Shared, every: &[&str]) {
    for target in [shared.local(), shared.remote()] {
        let (code, junit, stderr) = run(target, every);
        assert_eq!(code, 3, "{stderr}");
        assert!(
            stderr.contains("gate failed: urgency: not evaluated: no annotated examples")
                && stderr.contains("gate failed: escalate: not evaluated"),
            "{stderr}"
        );
        assert!(
            junit.contains("tests=\"3\" failures=\"0\" skipped=\"2\"")
                && junit.contains("<testcase classname=\"acme/labelled@")
                && junit.contains("name=\"urgency\">\n      <skipped message=\"not evaluated: no annotated examples"),
            "{junit}"
        );
    }
    let allowed = [every, &["--allow-unevaluated"][..]].concat();
    let (code, _, stderr) = run(shared.remote(), &allowed);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("warning: urgency was not evaluated (no annotated examples)"),
        "{stderr}"
    );
}

/// `eval --format markdown` through the server prints the summary it prints locally, with
/// the gate's exit code: the report comes through the service alike.
fn markdown_is_the_same_both_ways(shared: &Shared, gated: &[&str]) {
    let markdown = [gated, &["--format", "markdown"][..]].concat();
    let (local_code, local, _) = run(shared.local(), &markdown);
    let (remote_code, remote, stderr) = run(shared.remote(), &markdown);
    assert_eq!((remote_code, &remote), (local_code, &local));
    assert_eq!(remote_code, 3, "{stderr}");
    assert!(
        remote.starts_with("### arbiter eval: `acme/labelled` at `alignments/")
            && remote.contains(
                "❌ **Gates failed** (exit 3): 1 of 1 question, under `--min-accuracy 0.99`."
            )
            && remote.contains("\n| `intent` | 120 | ")
            && remote.contains("\n- `intent` (min-accuracy): accuracy "),
        "{remote}"
    );
}

#[test]
fn a_ci_pipeline_aligns_evaluates_and_promotes_on_the_shared_server() {
    let shared = Shared::start();
    labelled_model(&shared, "acme/labelled", 120);
    let align = [
        "align",
        "--no-tune",
        "acme/labelled",
        "--questions",
        "intent",
        "--seed",
        "3",
    ];
    let aligned = json(shared.remote(), &align);
    assert_eq!(aligned["status"], "completed", "{aligned}");
    let result = &aligned["result"];
    assert_eq!(result["improved"], true, "{result}");
    // The same figures as the same alignment run locally.
    let local = json(shared.local(), &align);
    assert_eq!(
        normalized(&local["result"]["questions"], &[]),
        normalized(&result["questions"], &[])
    );
    let branch = result["branch"].as_str().unwrap();

    // The gate against the baseline, as JUnit, on the one annotated question.
    let eval = [
        "eval",
        "acme/labelled",
        "--revision",
        branch,
        "--baseline",
        "main",
        "--no-regression",
        "--format",
        "junit",
        "--questions",
        "intent",
    ];
    let (code, junit, stderr) = run(shared.remote(), &eval);
    assert_eq!(code, 0, "{stderr}");
    assert!(junit.starts_with("<?xml"), "{junit}");
    assert!(
        junit.contains("<testcase classname=\"acme/labelled@"),
        "{junit}"
    );
    unmeasured_questions_fail_the_gate_both_ways(&shared, &eval[..eval.len() - 2]);
    // JSON: the same report as locally; only how many answers came from a cache differs.
    let eval_json = [
        "eval",
        "acme/labelled",
        "--revision",
        branch,
        "--baseline",
        "main",
        "--min-accuracy",
        "0.99",
        "--questions",
        "intent",
    ];
    let (local_code, local, _) = run(shared.local(), &eval_json);
    let (remote_code, remote, _) = run(shared.remote(), &eval_json);
    assert_eq!(
        (local_code, remote_code),
        (3, 3),
        "a failed gate exits 3 both ways"
    );
    let (local, remote): (Value, Value) = (
        serde_json::from_str(&local).unwrap(),
        serde_json::from_str(&remote).unwrap(),
    );
    let run_specific = ["jobId", "decided", "cached"];
    assert_eq!(
        normalized(&remote, &run_specific),
        normalized(&local, &run_specific)
    );
    assert_eq!(remote["gates"]["passed"], false);
    markdown_is_the_same_both_ways(&shared, &eval_json);

    let promoted = json(
        shared.remote(),
        &["models", "promote", "acme/labelled", branch],
    );
    let detail = json(shared.remote(), &["models", "show", "acme/labelled"]);
    assert_eq!(
        detail["latestCheckpoint"]["checkpointId"],
        promoted[0]["checkpointId"]
    );
    // Promoting what the default branch already is: whatever it answers, the same both ways.
    let again = ["models", "promote", "acme/labelled", branch];
    let (local_code, local, _) = run(shared.local(), &again);
    let (remote_code, remote, _) = run(shared.remote(), &again);
    assert_eq!((remote_code, remote), (local_code, local));
}

// ---------------------------------------------------------------------------------------
// Errors and exit codes
// ---------------------------------------------------------------------------------------

// Every error case, remote beside local: one list, read top to bottom.
#[allow(clippy::too_many_lines)]
#[test]
fn errors_have_the_local_codes_details_and_exit_codes_plus_a_request_id() {
    let shared = Shared::start();
    let state = shared.write("state.json", STATE);
    let questions = questions_file(&shared);
    let cases: Vec<(Vec<&str>, &str, i32)> = vec![
        (
            vec!["decide", "--model", "acme/nope", "--state", &state],
            "model_not_found",
            4,
        ),
        (
            vec![
                "decide",
                "--model",
                "nope",
                "--questions",
                &questions,
                "--state",
                &state,
            ],
            "model_not_found",
            4,
        ),
        (
            vec![
                "decide",
                "--model",
                "acme/support",
                "--revision",
                "v9",
                "--state",
                &state,
            ],
            "revision_not_found",
            4,
        ),
        (vec!["models", "show", "acme/nope"], "model_not_found", 4),
        (
            vec!["models", "log", "acme/support", "--revision", "nope"],
            "revision_not_found",
            4,
        ),
        (
            vec!["examples", "show", "acme/support", "ex_0"],
            "example_not_found",
            4,
        ),
        (vec!["jobs", "poll", "no-such-job"], "job_not_found", 4),
        (
            vec![
                "examples",
                "annotate",
                "acme/support",
                "ex_0",
                "--question",
                "intent",
                "--answer",
                "maybe",
            ],
            "validation_error",
            1,
        ),
        (
            vec!["eval", "acme/support", "--questions", "nope1,nope2"],
            "validation_error",
            1,
        ),
        (
            vec!["batch", "acme/nope", "--examples", "all"],
            "model_not_found",
            4,
        ),
    ];
    for (args, code, exit) in cases {
        let (local_exit, local, _) = problem(shared.local(), &args);
        let (remote_exit, remote, stderr) = problem(shared.remote(), &args);
        assert_eq!(
            (local_exit, remote_exit),
            (exit, exit),
            "{args:?}: {stderr}"
        );
        assert_eq!(local["code"], code, "{args:?}: {local}");
        assert_eq!(remote["code"], code, "{args:?}: {remote}");
        for member in ["status", "title", "detail", "details"] {
            assert_eq!(remote[member], local[member], "{args:?}: {member}");
        }
        assert!(
            remote["type"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{}/problems/", shared.url())),
            "the server's own problem: {remote}"
        );
    }
    // On a terminal-less stderr without --json: the error, each detail, the request ID.
    let args = ["eval", "acme/support", "--questions", "nope1,nope2"];
    let (code, _, local) = run(shared.local(), &args);
    let (remote_code, _, remote) = run(shared.remote(), &args);
    assert_eq!((code, remote_code), (1, 1));
    let request_line = remote
        .lines()
        .find(|l| l.trim_start().starts_with("request ID: "))
        .unwrap_or_else(|| panic!("no request ID: {remote}"));
    let request_id = request_line.trim_start().trim_start_matches("request ID: ");
    assert!(uuid::Uuid::parse_str(request_id).is_ok(), "{request_line}");
    let without_id: Vec<&str> = remote.lines().filter(|l| *l != request_line).collect();
    assert_eq!(without_id, local.lines().collect::<Vec<_>>());
}

#[test]
fn tokens_transport_and_local_only_commands_fail_clearly() {
    let shared = Shared::start();
    let reader = shared
        .home
        .token("reader", &["models:read"], &["acme/*=reader"]);
    // A bad token, no token, a missing scope.
    let (code, bad, _) = problem(shared.remote_at(shared.url(), Some("arb_x_y")), &["models"]);
    assert_eq!((code, bad["code"].as_str()), (1, Some("unauthorized")));
    let (code, _, stderr) = run(shared.remote_at(shared.url(), None), &["models"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("ARBITER_TOKEN is not set"), "{stderr}");
    let (code, forbidden, _) = problem(
        shared.remote_at(shared.url(), Some(&reader)),
        &["examples", "list", "acme/support"],
    );
    assert_eq!((code, forbidden["code"].as_str()), (1, Some("forbidden")));
    // A model the token has no role on is not found, as if it did not exist.
    let other = shared
        .home
        .token("other", &["models:read"], &["other/*=admin"]);
    let (code, hidden, _) = problem(
        shared.remote_at(shared.url(), Some(&other)),
        &["models", "show", "acme/support"],
    );
    assert_eq!(
        (code, hidden["code"].as_str()),
        (4, Some("model_not_found"))
    );
    // The token is never printed.
    let (_, _, stderr) = run(shared.remote_at(shared.url(), Some("arb_x_y")), &["models"]);
    assert!(!stderr.contains("arb_x_y"), "{stderr}");

    // Nobody listening: a clear error after the retries, exit 1.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let started = Instant::now();
    let (code, down, stderr) = problem(shared.remote_at(&closed, Some(&shared.admin)), &["models"]);
    assert_eq!(
        (code, down["code"].as_str()),
        (1, Some("upstream_unavailable")),
        "{stderr}"
    );
    let detail = down["detail"].as_str().unwrap();
    assert!(
        detail.contains(&closed) && detail.contains("after 5 attempts"),
        "{detail}"
    );
    assert!(started.elapsed() < Duration::from_secs(30));

    // Commands with no route say they run only locally: a usage error, exit 2.
    for args in [
        vec!["models", "create", "acme/new"],
        vec!["models", "tag", "acme/support", "v1"],
        vec![
            "models",
            "commit",
            "acme/support",
            "--questions",
            "q.yaml",
            "-m",
            "x",
        ],
        vec!["tokens", "list"],
        vec!["engines"],
        vec!["serve"],
    ] {
        let (code, _, stderr) = run(shared.remote(), &args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(
            stderr.contains("runs only on a local home"),
            "{args:?}: {stderr}"
        );
    }
    // ARBITER_SERVER is the flag's variable.
    let mut from_env = shared.bare();
    from_env
        .env("ARBITER_HOME", shared.unused_home())
        .env("ARBITER_SERVER", shared.url())
        .env("ARBITER_TOKEN", &shared.admin);
    let listed = json(from_env, &["models"]);
    assert!(listed["models"].as_array().unwrap().len() > 6, "{listed}");
}

// ---------------------------------------------------------------------------------------
// Retries, through a proxy that fails on purpose
// ---------------------------------------------------------------------------------------

/// What the proxy does with one request.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Act {
    /// Forward it and return the answer.
    Pass,
    /// Answer this status (a problem from "the proxy"), with `Retry-After` seconds if given.
    Fail(u16, Option<u64>),
    /// Forward it (the server acts) and lose the answer: answer 503 instead.
    Lose,
}

/// One request as the proxy saw it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    method: String,
    pub(crate) path: String,
    idempotency_key: Option<String>,
    request_id: Option<String>,
    at: Instant,
    body: bytes::Bytes,
}

/// What the proxy does with the `n`-th request (from 0), by method and path.
type Script = dyn Fn(usize, &str, &str) -> Act + Send + Sync;

/// The proxy's own answer to a request, by its method, path and body, instead of the
/// server's: what another server would answer it (`None`: forwarded as the script says).
type Answer = dyn Fn(&str, &str, &[u8]) -> Option<Response> + Send + Sync;

struct ProxyState {
    upstream: String,
    client: reqwest::Client,
    script: Box<Script>,
    answer: Box<Answer>,
    seen: Mutex<Vec<Seen>>,
    count: AtomicUsize,
}

/// A forwarding proxy in front of a server.
pub(crate) struct Proxy {
    server: Background,
    state: Arc<ProxyState>,
}

impl Proxy {
    /// Forward to `upstream`, acting on the `n`-th request (from 0) as `script(n, method, path)` says.
    pub(crate) fn start(
        upstream: &str,
        script: impl Fn(usize, &str, &str) -> Act + Send + Sync + 'static,
    ) -> Self {
        Self::answering(upstream, script, |_, _, _| None)
    }

    /// As [`Proxy::start`], answering itself what `answer` answers.
    fn answering(
        upstream: &str,
        script: impl Fn(usize, &str, &str) -> Act + Send + Sync + 'static,
        answer: impl Fn(&str, &str, &[u8]) -> Option<Response> + Send + Sync + 'static,
    ) -> Self {
        let state = Arc::new(ProxyState {
            upstream: upstream.to_owned(),
            client: reqwest::Client::builder().no_proxy().build().unwrap(),
            script: Box::new(script),
            answer: Box::new(answer),
            seen: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
        });
        let app = Router::new().fallback(forward).with_state(state.clone());
        let server = Background::router(app);
        Self { server, state }
    }

    pub(crate) fn url(&self) -> &str {
        self.server.url()
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.state.seen.lock().unwrap().clone()
    }
}

async fn forward(State(state): State<Arc<ProxyState>>, request: Request) -> Response {
    let index = state.count.fetch_add(1, Ordering::SeqCst);
    let (parts, body) = request.into_parts();
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let path = parts.uri.path().to_owned();
    let body = axum::body::to_bytes(body, usize::MAX).await.unwrap();
    state.seen.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        path: path.clone(),
        idempotency_key: header("idempotency-key"),
        request_id: header("x-request-id"),
        at: Instant::now(),
        body: body.clone(),
    });
    let act = (state.script)(index, parts.method.as_str(), &path);
    if let Act::Fail(status, retry_after) = act {
        return failure(status, retry_after);
    }
    if let Some(answer) = (state.answer)(parts.method.as_str(), &path, &body) {
        return answer;
    }
    let target = format!(
        "{}{}",
        state.upstream,
        parts.uri.path_and_query().map_or("", |p| p.as_str())
    );
    let mut builder = state
        .client
        .request(parts.method.clone(), target)
        .body(body);
    for (name, value) in &parts.headers {
        if !matches!(name.as_str(), "host" | "content-length") {
            builder = builder.header(name, value);
        }
    }
    let answer = builder.send().await.expect("the server answers the proxy");
    if matches!(act, Act::Lose) {
        let _ = answer.bytes().await;
        return failure(503, None);
    }
    let mut response = Response::builder().status(answer.status());
    for (name, value) in answer.headers() {
        if name.as_str() != "content-length" && name.as_str() != "transfer-encoding" {
            response = response.header(name, value);
        }
    }
    response
        .body(Body::from(answer.bytes().await.unwrap()))
        .unwrap()
}

fn failure(status: u16, retry_after: Option<u64>) -> Response {
    let mut response = Response::builder()
        .status(status)
        .header("content-type", "text/plain");
    if let Some(seconds) = retry_after {
        response = response.header("retry-after", seconds.to_string());
    }
    response.body(Body::from("the proxy says no")).unwrap()
}

#[test]
fn failures_are_retried_where_safe_and_a_lost_answer_starts_no_second_job() {
    let shared = Shared::start();
    let questions = questions_file(&shared);
    let state = shared.write("state.json", STATE);
    let input = shared.write("states.jsonl", &states(3));
    // The first request fails 503, the second 429 for a second; a batch creation is carried
    // out but its answer lost; a promote (no idempotency record) fails once.
    let proxy = Proxy::start(shared.url(), |index, method, path| match (index, method) {
        (0, _) => Act::Fail(503, None),
        (1, _) => Act::Fail(429, Some(1)),
        (_, "POST") if path.ends_with("/batch-decisions") => {
            static ONCE: AtomicUsize = AtomicUsize::new(0);
            if ONCE.fetch_add(1, Ordering::SeqCst) == 0 {
                Act::Lose
            } else {
                Act::Pass
            }
        }
        (_, "POST") if path.ends_with("/promote") => Act::Fail(503, None),
        _ => Act::Pass,
    });
    let through = || shared.remote_at(proxy.url(), Some(&shared.admin));

    let decided = json(
        through(),
        &[
            "decide",
            "--model",
            "mo",
            "--questions",
            &questions,
            "--state",
            &state,
        ],
    );
    let direct = json(
        shared.remote(),
        &[
            "decide",
            "--model",
            "mo",
            "--questions",
            &questions,
            "--state",
            &state,
        ],
    );
    assert_eq!(decided, direct);
    let seen = proxy.seen();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(seen.iter().all(|s| s.path == "/v1/decision"));
    assert!(
        seen[0].idempotency_key.is_some(),
        "a decision carries a key"
    );
    assert!(
        seen.iter()
            .all(|s| s.idempotency_key == seen[0].idempotency_key
                && s.request_id == seen[0].request_id),
        "every attempt is the same request: {seen:?}"
    );
    assert!(
        seen[2].at - seen[1].at >= Duration::from_millis(900),
        "Retry-After is honoured"
    );

    // The job is created once, although its first answer was lost.
    let (code, job_id, stderr) = run(
        through(),
        &["batch", "acme/support", "--input", &input, "--detach"],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(shared.job_ids(), [job_id.trim().to_owned()]);
    let creations: Vec<Seen> = proxy
        .seen()
        .into_iter()
        .filter(|s| s.method == "POST" && s.path.ends_with("/batch-decisions"))
        .collect();
    assert_eq!(creations.len(), 2, "{creations:?}");
    assert_eq!(creations[0].idempotency_key, creations[1].idempotency_key);
    assert_eq!(
        creations[0].path, "/v1/models/acme%2Fsupport/batch-decisions",
        "the model path is one encoded segment"
    );

    // A POST without a key is not repeated after a 503: the error, exit 1.
    let before = proxy.seen().len();
    let (code, failed, _) = problem(through(), &["models", "promote", "acme/support", "main"]);
    assert_eq!(
        (code, failed["code"].as_str()),
        (1, Some("upstream_unavailable"))
    );
    assert_eq!(proxy.seen().len(), before + 1, "not sent again");
}

// ---------------------------------------------------------------------------------------
// Ctrl-C while following a server's job
// ---------------------------------------------------------------------------------------

/// Wait until `child` polls its job through `proxy` (it is then in the loop that listens for
/// Ctrl-C), send it SIGINT, and return the job's ID.
fn interrupt_when_polling(proxy: &Proxy, child: &std::process::Child) -> String {
    let job_id = wait_until(Duration::from_mins(2), Duration::from_millis(20), || {
        proxy
            .seen()
            .into_iter()
            .find(|s| s.method == "GET" && s.path.starts_with("/v1/jobs/"))
            .map(|seen| seen.path.trim_start_matches("/v1/jobs/").to_owned())
            .ok_or_else(|| "the client has not polled its job".to_owned())
    });
    let pid = i32::try_from(child.id()).unwrap();
    // SAFETY: sending a signal to our own child process.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    job_id
}

/// Start `arbiter --server … batch` on a large input through a proxy, wait until it is
/// polling its job, send SIGINT; its exit code, stdout, stderr and the job's ID.
fn interrupt_batch(shared: &Shared, run_id: &str, extra: &[&str]) -> (i32, String, String, String) {
    let proxy = Proxy::start(shared.url(), |_, _, _| Act::Pass);
    let input = shared.write("big.jsonl", &states(1500));
    let child = shared
        .std_remote_at(proxy.url(), Some(&shared.admin))
        // A run of its own: a new job, never the replay of an earlier one.
        .env("ARBITER_RUN_ID", run_id)
        .args(["batch", "acme/support", "--input", &input])
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let job_id = interrupt_when_polling(&proxy, &child);
    let output = child.wait_with_output().unwrap();
    (
        output.status.code().expect("exited, not killed"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
        job_id,
    )
}

#[test]
fn ctrl_c_leaves_a_servers_job_running_unless_told_to_cancel_it() {
    let shared = Shared::start();
    let (code, stdout, stderr, job_id) = interrupt_batch(&shared, "interrupt-1", &[]);
    assert_eq!(code, 130, "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    assert!(
        stderr.contains(&format!("arbiter jobs poll {job_id} --wait")),
        "says how to follow it: {stderr}"
    );
    let job = json(shared.remote(), &["jobs", "poll", &job_id]);
    assert!(
        matches!(job["status"].as_str(), Some("queued" | "running")),
        "left running: {job}"
    );
    json(shared.remote(), &["jobs", "cancel", &job_id]);

    let (code, stdout, stderr, job_id) =
        interrupt_batch(&shared, "interrupt-2", &["--cancel-on-interrupt"]);
    assert_eq!(code, 130, "{stderr}");
    let job = json(shared.remote(), &["jobs", "poll", &job_id]);
    assert_eq!(job["status"], "cancelled", "{job}");
    assert!(
        stderr.contains("cancelled after"),
        "says what was kept: {stderr}"
    );
    // The results finished before the cancel are printed, in order: each once, a run of
    // items per shard that was running (not one unbroken run when shards ran side by side).
    let printed: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        printed.len() as u64,
        job["progress"]["done"].as_u64().unwrap()
    );
    assert!(printed.len() < 1500);
    let indexes: Vec<u64> = printed
        .iter()
        .map(|l| l["index"].as_u64().unwrap())
        .collect();
    assert!(
        indexes.windows(2).all(|pair| pair[0] < pair[1]),
        "in input order, each once: {indexes:?}"
    );
}

/// `interrupt_batch` at a terminal: after SIGINT, `answer` is typed when the question
/// appears (`None`: nothing is typed). The exit code, what the terminal showed, the job's
/// ID, and how long the client took to exit after the SIGINT.
fn interrupt_batch_at_terminal(
    shared: &Shared,
    run_id: &str,
    extra: &[&str],
    answer: Option<&str>,
) -> (i32, String, String, Duration) {
    let proxy = Proxy::start(shared.url(), |_, _, _| Act::Pass);
    let input = shared.write("big.jsonl", &states(1500));
    let mut cmd = shared.std_remote_at(proxy.url(), Some(&shared.admin));
    cmd.env("ARBITER_RUN_ID", run_id)
        .args(["batch", "acme/support", "--input", &input])
        .args(extra)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped());
    let terminal = Terminal::attach(&mut cmd);
    let child = cmd.spawn().unwrap();
    // The child alone holds the terminal, so that its end is seen when the child exits.
    drop(cmd);
    let job_id = interrupt_when_polling(&proxy, &child);
    let interrupted = Instant::now();
    if let Some(answer) = answer {
        terminal.wait_for("[Y/n]");
        terminal.type_line(answer);
    }
    let output = child.wait_with_output().unwrap();
    let took = interrupted.elapsed();
    (
        output.status.code().expect("exited, not killed"),
        terminal.seen_to_the_end(),
        job_id,
        took,
    )
}

#[test]
fn ctrl_c_at_a_terminal_asks_and_cancels_unless_told_no() {
    let shared = Shared::start();
    let status = |job_id: &str| {
        json(shared.remote(), &["jobs", "poll", job_id])["status"]
            .as_str()
            .unwrap()
            .to_owned()
    };

    // No: the job goes on, and the terminal says how to follow it.
    let (code, seen, job_id, _) = interrupt_batch_at_terminal(&shared, "tty-no", &[], Some("n"));
    assert_eq!(code, 130, "{seen}");
    assert!(
        seen.contains(&format!(
            "cancel job {job_id} on the server? [Y/n] (yes in 10 s)"
        )),
        "{seen}"
    );
    assert!(
        seen.contains(&format!("arbiter jobs poll {job_id} --wait")),
        "{seen}"
    );
    assert!(matches!(status(&job_id).as_str(), "queued" | "running"));
    json(shared.remote(), &["jobs", "cancel", &job_id]);

    // Enter: yes, the default.
    let (code, seen, job_id, took) =
        interrupt_batch_at_terminal(&shared, "tty-enter", &[], Some(""));
    assert_eq!(code, 130, "{seen}");
    assert!(seen.contains("interrupted: cancelling job"), "{seen}");
    assert_eq!(status(&job_id), "cancelled");
    assert!(
        took < Duration::from_secs(10),
        "no wait for the timeout: {took:?}"
    );

    // No answer: cancelled when the 10 s are up.
    let (code, seen, job_id, took) = interrupt_batch_at_terminal(&shared, "tty-silent", &[], None);
    assert_eq!(code, 130, "{seen}");
    assert!(seen.contains("no answer in 10 s"), "{seen}");
    assert_eq!(status(&job_id), "cancelled");
    assert!(took >= Duration::from_secs(10), "{took:?}");
    assert!(
        took < Duration::from_secs(40),
        "cancelled promptly after: {took:?}"
    );

    // --cancel-on-interrupt: no question.
    let (code, seen, job_id, took) =
        interrupt_batch_at_terminal(&shared, "tty-flag", &["--cancel-on-interrupt"], None);
    assert_eq!(code, 130, "{seen}");
    assert!(!seen.contains("[Y/n]"), "{seen}");
    assert_eq!(status(&job_id), "cancelled");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

// ---------------------------------------------------------------------------------------
// Shell completion in client mode
// ---------------------------------------------------------------------------------------

#[test]
fn completion_in_client_mode_asks_the_server() {
    use crate::completion::values;
    let shared = Shared::start();
    let unused = shared.unused_home().display().to_string();
    let env = |url: &str| {
        [
            ("ARBITER_SERVER", url.to_owned()),
            ("ARBITER_TOKEN", shared.admin.clone()),
            ("ARBITER_HOME", unused.clone()),
        ]
    };
    let complete = |line: &str, url: &str| {
        let env = env(url);
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        values(line, &env)
    };
    assert_eq!(
        complete("arbiter models show ", shared.url()),
        ["acme/support"]
    );
    assert_eq!(
        complete("arbiter batch acme/support --revision ", shared.url()),
        ["main"]
    );
    // A server that accepts the connection and never answers: nothing, within the budget.
    let silent = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let silent_url = format!("http://{}", silent.local_addr().unwrap());
    let started = Instant::now();
    assert!(complete("arbiter models show ", &silent_url).is_empty());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

// ---------------------------------------------------------------------------------------
// Rough edges: one rule in both modes
// ---------------------------------------------------------------------------------------

/// A failed item of a batch input file is named by the same line in both modes: the client
/// sends the file's lines as they are, and the server counts them as the CLI does.
#[test]
fn batch_item_errors_name_the_same_line_in_both_modes() {
    let shared = Shared::start();
    let input = shared.write("blank.jsonl", crate::edges::BLANK_LINES_INPUT);
    let args = ["batch", "acme/support", "--input", &input];
    let (local_code, local_out, local_err) = run(shared.local(), &args);
    let (remote_code, remote_out, remote_err) = run(shared.remote(), &args);
    assert_eq!((local_code, remote_code), (1, 1), "{local_err}{remote_err}");
    let located = |out: &str| -> Vec<Value> {
        out.lines()
            .map(|line| {
                let result: Value = serde_json::from_str(line).unwrap();
                json!([
                    result["index"],
                    result.get("line"),
                    result["error"]["details"]
                ])
            })
            .collect()
    };
    assert_eq!(located(&local_out), located(&remote_out));
    assert_eq!(located(&local_out)[1][1], 5);
    let items = |err: &str| -> Vec<String> {
        err.lines()
            .filter(|l| l.starts_with("item "))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(items(&local_err).len(), 2, "{local_err}");
    assert_eq!(items(&local_err), items(&remote_err));
    // A detached job, followed with `jobs poll --wait` against the server: the same items.
    let (_, id, _) = run(shared.remote(), &[&args[..], &["--detach"]].concat());
    let (code, _, polled) = run(shared.remote(), &["jobs", "poll", id.trim(), "--wait"]);
    assert_eq!(code, 1, "{polled}");
    assert_eq!(items(&polled), items(&local_err));
}

/// Example ID prefixes resolve alike against a server, which takes whole IDs only in its
/// routes: the client asks for the examples after the prefix.
#[test]
fn example_id_prefixes_resolve_alike_in_both_modes() {
    let shared = Shared::start();
    let input = shared.write("prefixes.jsonl", crate::edges::PREFIX_EXAMPLES);
    let args = ["examples", "ingest", "acme/support", "--file", &input];
    assert_eq!(run(shared.local(), &args).0, 0);
    crate::edges::check_prefix_cases(&|| shared.remote());
}

/// Every listing's `-n`/`--limit` takes the server's range, 1 to 1000: a value outside it
/// is the same usage error (exit 2, the range named) locally and against a server, and
/// 1000 itself is accepted by both.
#[test]
fn a_listing_limit_is_one_rule_in_both_modes() {
    let shared = Shared::start();
    let listings: [&[&str]; 4] = [
        &["jobs", "list"],
        &["examples", "list", "acme/support"],
        &["models", "log", "acme/support"],
        &["models", "history", "acme/support"],
    ];
    for listing in listings {
        for bad in ["0", "1001", "5000"] {
            let args = [listing, &["-n", bad]].concat();
            let (local, _, local_err) = run(shared.local(), &args);
            let (remote, _, remote_err) = run(shared.remote(), &args);
            assert_eq!((local, remote), (2, 2), "{args:?}: {local_err}{remote_err}");
            assert!(local_err.contains("1..=1000"), "{args:?}: {local_err}");
            assert_eq!(local_err, remote_err, "{args:?}");
        }
        let args = [listing, &["-n", "1000", "--json"]].concat();
        assert_eq!(json(shared.local(), &args), json(shared.remote(), &args));
    }
}

/// The same refusals, with the same words, locally and against a server: a misspelled base
/// model name gets "did you mean" (in a decision, and where a repository model is named:
/// the command line parses the name before it asks), an empty batch input "input has no
/// items", a job ID prefix shorter than the minimum "too short", and `--no-capture` is
/// accepted with a base model.
#[test]
fn rough_edges_are_refused_alike_in_both_modes() {
    let shared = Shared::start();
    let questions = questions_file(&shared);
    let state = shared.write("state.json", STATE);
    let empty = shared.write("empty.jsonl", "\n\n");
    let cases: [&[&str]; 5] = [
        &["decide", "-m", "moo", "-q", &questions, "-s", &state],
        &["models", "show", "moo"],
        &["examples", "list", "jev-lates"],
        &["batch", "acme/support", "--input", &empty],
        &["jobs", "poll", "abc"],
    ];
    for args in cases {
        let (local_code, local, _) = problem(shared.local(), args);
        let (remote_code, remote, _) = problem(shared.remote(), args);
        assert_eq!(local_code, remote_code, "{args:?}");
        let keys = ["code", "status", "detail", "details"];
        for key in keys {
            assert_eq!(local[key], remote[key], "{args:?}: {key}");
        }
        if args[0] != "batch" && args[0] != "jobs" {
            let detail = local["detail"].as_str().unwrap_or_default();
            assert!(detail.contains("did you mean `"), "{args:?}: {detail}");
        }
    }
    let args = [
        "decide",
        "-m",
        "mo",
        "-q",
        &questions,
        "-s",
        &state,
        "--no-capture",
    ];
    assert_eq!(json(shared.local(), &args), json(shared.remote(), &args));
}

/// `batch` over a base model: one result line per input line, in order, the same locally
/// and against a server (there, a decision per item), nothing recorded; a bad line fails
/// alone; what only a repository model has is refused at its flag; and a base model named
/// where a repository model is needed says what it is, not "did you mean" itself.
#[test]
fn batch_over_a_base_model_answers_every_line_in_both_modes() {
    let shared = Shared::start();
    let questions = questions_file(&shared);
    let mut input = String::new();
    for i in 0..12 {
        let state = json!({"messages": [{"role": "user", "content": format!("ticket {i}: my parcel is late")}]});
        input.push_str(&json!({ "state": state }).to_string());
        input.push('\n');
        if i == 4 {
            input.push_str(
                "\n{\"example_id\":\"mine\",\"state\":\"line one\\nline two\"}\nnot json\n",
            );
        }
    }
    let input = shared.write("base.jsonl", &input);
    let args = [
        "batch",
        "mo",
        "--questions",
        &questions,
        "--input",
        &input,
        "--max-failed-items",
        "1",
    ];
    let without_request_ids = |mut lines: Vec<Value>| {
        for line in &mut lines {
            if let Some(error) = line.get_mut("error") {
                error.as_object_mut().unwrap().remove("requestId");
            }
        }
        lines
    };
    let local = without_request_ids(lines(shared.local(), &args));
    let remote = without_request_ids(lines(shared.remote(), &args));
    assert_eq!(local.len(), 14, "{local:?}");
    assert_eq!(remote, local);
    for (i, line) in local.iter().enumerate() {
        assert_eq!(line["index"], i, "{line}");
    }
    assert_eq!(local[5]["example_id"], "mine");
    assert!(
        local[5]["answers"]["urgency"]["score"].is_number(),
        "{}",
        local[5]
    );
    assert_eq!(local[6]["line"], 8, "the bad line is located: {}", local[6]);
    assert_eq!(local[6]["error"]["code"], "validation_error");
    assert!(local[13]["answers"].is_object());
    assert!(shared.job_ids().is_empty(), "a base batch made a job");
    // A fault every item would share stops the batch with it, not a failed line per item.
    let reader = shared.home.token("reader", &["models:read"], &[]);
    let (code, stdout, stderr) = run(shared.remote_at(shared.url(), Some(&reader)), &args);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("lacks the scope `decisions`"), "{stderr}");
    assert!(stdout.is_empty(), "{stdout}");
    let examples = json(shared.local(), &["examples", "list", "acme/support"]);
    assert_eq!(
        examples["examples"],
        json!([]),
        "a base batch recorded: {examples}"
    );

    for mode in [shared.local(), shared.remote()] {
        let (code, refused, _) = problem(
            mode,
            &[
                "batch",
                "jev-latest",
                "--input",
                &input,
                "--capture",
                "--revision",
                "main",
            ],
        );
        assert_eq!(code, 2, "{refused}");
        assert_eq!(refused["code"], "usage_error");
        assert_eq!(
            refused["detail"],
            "`jev-latest` is a base model, with no revisions, examples to record into: \
             --revision, --capture need a repository model <owner>/<model>"
        );
    }
    let (code, refused, _) = problem(shared.local(), &["batch", "mo", "--input", &input]);
    assert_eq!(code, 2, "{refused}");
    assert_eq!(
        refused["detail"],
        "--questions FILE is required: `mo` is a base model, with no saved questions"
    );
    for mode in [shared.local(), shared.remote()] {
        let (code, refused, _) = problem(mode, &["examples", "list", "mo"]);
        assert_eq!(code, 4, "{refused}");
        let detail = refused["detail"].as_str().unwrap();
        assert!(detail.starts_with("`mo` is a base model"), "{detail}");
        assert!(!detail.contains("did you mean"), "{detail}");
    }
}

/// `models delete-branch` against a server: a branch name with a `/` travels as one path
/// segment, the branch is gone, and a token without the `alignments` scope may not.
#[test]
fn a_branch_is_deleted_through_a_server() {
    let shared = Shared::start();
    let more = shared.write(
        "more.yaml",
        "late:\n  type: noul\n  instructions: The parcel is late.\n",
    );
    json(
        shared.local(),
        &[
            "models",
            "commit",
            "acme/support",
            "--questions",
            &more,
            "--branch",
            "alignments/x",
            "-m",
            "x",
        ],
    );
    let reader = shared
        .home
        .token("reader", &["models:read"], &["acme/*=writer"]);
    let (code, _, stderr) = run(
        shared.remote_at(shared.url(), Some(&reader)),
        &["models", "delete-branch", "acme/support", "alignments/x"],
    );
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("lacks the scope `alignments`"), "{stderr}");
    let deleted = json(
        shared.remote(),
        &["models", "delete-branch", "acme/support", "alignments/x"],
    );
    assert_eq!(deleted["deleted"], "alignments/x");
    let shown = json(shared.local(), &["models", "show", "acme/support"]);
    let names: Vec<&str> = shown["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["main"]);
}
