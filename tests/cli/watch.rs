//! `arbiter eval --questions-file FILE --watch` with the real binary and the `mo` engine: a
//! run per save with the last run's figures beside the new ones, a broken draft reported
//! where it is broken while the watch goes on, a renamed question shown as new, SIGINT and
//! SIGTERM ending it with 0, and a run's figures those of a cold `eval` of the same file.

use crate::align::labelled;
use crate::common::{TestEnv, repo_root, wait_until};
use serde_json::Value;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// How long a run may take in a debug build on a loaded machine.
const WITHIN: Duration = Duration::from_secs(90);
const EVERY: Duration = Duration::from_millis(100);

const URGENCY: &str =
    "How urgently does this ticket need a response, judged by its consequences for the customer?";

/// `acme/support` on `mo` with the labelled set's first 24 examples annotated for every
/// question, and the support questions as `draft.yaml`.
fn env() -> TestEnv {
    let env = TestEnv::new();
    let questions = repo_root().join("examples/support/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    env.ingest(
        "acme/support",
        &labelled(24, &["intent", "urgency", "escalate"]),
    );
    env.write("draft.yaml", &committed());
    env
}

fn committed() -> String {
    std::fs::read_to_string(repo_root().join("examples/support/questions.yaml")).unwrap()
}

/// The committed questions with urgency reworded.
fn reworded() -> String {
    let text = committed().replace(URGENCY, "How soon must someone answer this ticket?");
    assert_ne!(text, committed());
    text
}

/// A running `eval --watch` and everything it has printed so far.
struct Watching {
    child: Child,
    stdout: Arc<Mutex<String>>,
    stderr: Arc<Mutex<String>>,
}

impl Watching {
    fn start(env: &TestEnv, format: &str) -> Self {
        let mut child = env
            .std_cmd()
            .args(["eval", "acme/support", "--questions-file", "draft.yaml"])
            .args(["--watch", "--format", format])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdout = collect(child.stdout.take().unwrap());
        let stderr = collect(child.stderr.take().unwrap());
        Self {
            child,
            stdout,
            stderr,
        }
    }

    fn stdout(&self) -> String {
        self.stdout.lock().unwrap().clone()
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    /// Wait until stdout and stderr say what `ready` looks for.
    fn wait_for(&self, what: &str, ready: impl Fn(&str, &str) -> bool) {
        wait_until(WITHIN, EVERY, || {
            let (out, err) = (self.stdout(), self.stderr());
            if ready(&out, &err) {
                Ok(())
            } else {
                Err(format!("{what}\n--- stdout:\n{out}\n--- stderr:\n{err}"))
            }
        });
    }

    /// Wait until the watch waits for a save for the `n`th time (its last run shown).
    fn wait_idle(&self, n: usize) {
        self.wait_for(&format!("waiting #{n}"), |_, err| {
            err.matches("watching draft.yaml").count() >= n
        });
    }

    /// Send `signal` and wait for the exit code.
    fn stop(mut self, signal: i32) -> i32 {
        let pid = i32::try_from(self.child.id()).unwrap();
        assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
        let status = wait_until(WITHIN, EVERY, || {
            self.child
                .try_wait()
                .unwrap()
                .ok_or_else(|| "still running".to_owned())
        });
        status.code().unwrap_or(-1)
    }
}

/// Everything `pipe` gives, as it comes.
pub(crate) fn collect(mut pipe: impl std::io::Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let shared = text.clone();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buffer) {
            if n == 0 {
                break;
            }
            shared
                .lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buffer[..n]));
        }
    });
    text
}

/// The text of run `n` on stdout (to the next run or the end).
fn run(stdout: &str, n: usize) -> String {
    let start = stdout
        .find(&format!("run {n}: "))
        .unwrap_or_else(|| panic!("no run {n} in\n{stdout}"));
    let rest = &stdout[start..];
    let end = rest[1..].find("\nrun ").map_or(rest.len(), |e| e + 1);
    rest[..end].to_owned()
}

/// The table line of question `id` in a run: the first cell is the ID.
fn row<'a>(run: &'a str, id: &str) -> &'a str {
    run.lines()
        .find(|line| {
            line.trim_start_matches(|c: char| !c.is_alphanumeric())
                .strip_prefix(id)
                .is_some_and(|rest| rest.starts_with(' '))
        })
        .unwrap_or_else(|| panic!("no row {id} in\n{run}"))
}

// One scenario: each step reads what the one before left the watch with.
#[test]
fn a_watch_runs_at_each_save_and_keeps_the_last_good_draft() {
    let env = env();
    let watching = Watching::start(&env, "table");
    watching.wait_idle(1);
    let first = run(&watching.stdout(), 1);
    assert!(first.contains("last: none yet"), "{first}");
    for header in ["Accuracy", "Last", "Baseline", "Change (95%)"] {
        assert!(first.contains(header), "{header} in\n{first}");
    }

    // One question's instructions edited: a second run, urgency changed and edited, with
    // the last run's figures beside the new ones.
    env.write("draft.yaml", &reworded());
    watching.wait_idle(2);
    let second = run(&watching.stdout(), 2);
    assert!(second.contains("last: run 1"), "{second}");
    let urgency = row(&second, "urgency");
    assert!(urgency.contains("changed, edited"), "{urgency}");
    let intent = row(&second, "intent");
    assert!(!intent.contains("edited"), "{intent}");
    assert!(
        !intent.contains(" - "),
        "intent has figures at every column: {intent}"
    );

    // A broken draft: located as `eval --questions-file` locates it; the watch goes on.
    env.write(
        "draft.yaml",
        "urgency:\n  type: score\n  criteria: {not: a list}\n",
    );
    let said = env
        .cmd()
        .args(["eval", "acme/support", "--questions-file", "draft.yaml"])
        .output()
        .unwrap();
    assert_eq!(said.status.code(), Some(1));
    let said = String::from_utf8_lossy(&said.stderr).into_owned();
    let error = said
        .lines()
        .find(|l| l.starts_with("error:"))
        .unwrap()
        .to_owned();
    assert!(error.contains("draft.yaml.urgency"), "{said}");
    watching.wait_for("the located error, as eval says it", |_, err| {
        err.contains(&error) && err.contains("kept: run 2")
    });
    assert!(!watching.stdout().contains("run 3:"));

    // A good draft again, escalate renamed: a new question with nothing carried over.
    env.write(
        "draft.yaml",
        &reworded().replace("\nescalate:\n", "\nescalation:\n"),
    );
    watching.wait_idle(4);
    let third = run(&watching.stdout(), 3);
    let escalation = row(&third, "escalation");
    assert!(escalation.contains("new"), "{escalation}");
    assert!(third.contains("a renamed question is new"), "{third}");
    assert!(!third.contains("escalate "), "{third}");

    assert_eq!(watching.stop(libc::SIGINT), 0);
}

/// A run after an edit gives the figures a cold `eval --questions-file` of the edited file
/// gives (another home: nothing cached), as JSON Lines, one report per run; SIGTERM ends it.
#[test]
fn a_watch_run_after_an_edit_gives_the_figures_of_a_cold_eval() {
    let env = env();
    let watching = Watching::start(&env, "json");
    watching.wait_idle(1);
    env.write("draft.yaml", &reworded());
    watching.wait_idle(2);
    let stdout = watching.stdout();
    assert_eq!(watching.stop(libc::SIGTERM), 0);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[1]["run"], 2);
    assert_eq!(lines[1]["lastRun"]["run"], 1);
    // The edit decided urgency again, not the examples' other questions from scratch.
    assert_eq!(
        lines[1]["lastRun"]["questions"]["intent"],
        lines[1]["questions"]["intent"]
    );

    let cold = self::env();
    cold.write("draft.yaml", &reworded());
    let fresh = cold.json(&["eval", "acme/support", "--questions-file", "draft.yaml"]);
    assert_eq!(figures(&lines[1]), figures(&fresh));
}

/// A report without what names the run rather than measures it (the checkpoints' commits
/// differ from home to home).
fn figures(report: &Value) -> Value {
    let mut report = report.clone();
    for key in [
        "jobId",
        "revision",
        "baseline",
        "workingCopy",
        "decided",
        "cached",
        "gates",
        "run",
        "lastRun",
    ] {
        report.as_object_mut().unwrap().remove(key);
    }
    report
}

#[test]
fn a_watch_needs_a_draft_and_prints_no_single_document() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .args(["eval", "acme/support", "--watch"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--questions-file"), "{stderr}");
    for format in ["junit", "markdown", "html"] {
        let output = env
            .cmd()
            .args([
                "eval",
                "acme/support",
                "--questions-file",
                "q.yaml",
                "--watch",
            ])
            .args(["--format", format])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "{format}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("JSON Lines"), "{stderr}");
    }
}
