//! `eval --watch` in client mode against a server from before `warm_states` (4a8fb75), which
//! refused the member as it refuses any it does not know: the watch asks once, is refused,
//! evaluates without it, and never sends it again; it says nothing of it.
//!
//! The older server is the real server behind the proxy, with the proxy answering an
//! evaluation that carries `warm_states` as the older one did: the body read with the
//! server's own validation (`validate::read`) into the evaluation request as it was then
//! (the same members, without `warm_states`, unknown ones denied), and the problem made by
//! the server's own error type. Everything else is the real server's answer, so the
//! evaluations the watch shows are real ones.

use super::{Act, Proxy, Shared, labelled_model};
use crate::common::{repo_root, wait_until};
use arbiter::wire::validate::{Loc, Rules, read};
use axum::response::Response;
use serde::Deserialize;
use serde_json::Value;
use std::process::Stdio;
use std::time::Duration;

/// An evaluation request as a server before `warm_states` read it.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code)]
struct EvaluationRequestBefore {
    revision: Option<String>,
    baseline: Option<String>,
    questions: Option<Vec<String>>,
    include_fitted: bool,
    working_questions: Option<Value>,
    gates: Option<Value>,
}

impl Rules for EvaluationRequestBefore {}

/// The older server's own answer to what it could not read: an evaluation's body it refuses.
fn as_before(method: &str, path: &str, body: &[u8]) -> Option<Response> {
    if method != "POST" || !path.ends_with("/evaluations") {
        return None;
    }
    let body: Value = serde_json::from_slice(body).ok()?;
    let refused = read::<EvaluationRequestBefore>(&body, &Loc::body()).err()?;
    let request_id = uuid::Uuid::new_v4().to_string();
    let problem = arbiter::error::Error::Validation(refused.0)
        .to_problem("http://older.example/problems", &request_id);
    Some(
        Response::builder()
            .status(problem.status)
            .header("content-type", "application/problem+json")
            .header("x-request-id", &request_id)
            .body(serde_json::to_vec(&problem).unwrap().into())
            .unwrap(),
    )
}

/// The evaluations the watch asked for, in order: whether each carried `warm_states`.
fn evaluations(proxy: &Proxy) -> Vec<bool> {
    proxy
        .seen()
        .iter()
        .filter(|seen| seen.method == "POST" && seen.path.ends_with("/evaluations"))
        .map(|seen| {
            let body: Value = serde_json::from_slice(&seen.body).unwrap();
            body.get("warm_states").is_some()
        })
        .collect()
}

#[test]
fn a_watch_on_a_server_older_than_warm_states_evaluates_without_it_after_one_refusal() {
    let shared = Shared::start();
    labelled_model(&shared, "acme/watched", 12);
    let questions = repo_root().join("examples/support/questions.yaml");
    let draft = std::fs::read_to_string(&questions).unwrap();
    shared.write("draft.yaml", &draft);
    let proxy = Proxy::answering(shared.url(), |_, _, _| Act::Pass, as_before);
    // What it answers is the problem such a server sent: `warm_states` unknown, located.
    let refusal = as_before(
        "POST",
        "/v1/models/m/evaluations",
        br#"{"warm_states": true}"#,
    );
    let refusal = refusal.expect("refused");
    assert_eq!(refusal.status(), 422);
    let refusal = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(axum::body::to_bytes(refusal.into_body(), usize::MAX))
        .unwrap();
    let refusal: Value = serde_json::from_slice(&refusal).unwrap();
    assert_eq!(refusal["code"], "validation_error", "{refusal}");
    assert_eq!(
        refusal["details"],
        serde_json::json!([{
            "loc": ["body", "warm_states"],
            "msg": "unknown member `warm_states` (known: revision, baseline, questions, \
                include_fitted, working_questions, gates)",
            "type": "unknown_member",
        }])
    );

    let mut cmd = shared.std_remote_at(proxy.url(), Some(&shared.admin));
    let mut child = cmd
        .args(["eval", "acme/watched", "--questions-file", "draft.yaml"])
        .args(["--watch", "--format", "json"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = crate::watch::collect(child.stdout.take().unwrap());
    let stderr = crate::watch::collect(child.stderr.take().unwrap());
    let runs = |n: usize| {
        wait_until(Duration::from_secs(90), Duration::from_millis(100), || {
            let (out, err) = (
                stdout.lock().unwrap().clone(),
                stderr.lock().unwrap().clone(),
            );
            if err.matches("watching draft.yaml").count() >= n {
                Ok(out)
            } else {
                Err(format!("run {n}\n--- stdout:\n{out}\n--- stderr:\n{err}"))
            }
        })
    };
    let first = runs(1);
    assert_eq!(evaluations(&proxy), [true, false], "refused, then without");

    // A save: the member is not sent again.
    shared.write(
        "draft.yaml",
        &draft.replace(
            "What does the customer mainly want from this ticket?",
            "What is the ticket about?",
        ),
    );
    let second = runs(2);
    assert_eq!(evaluations(&proxy), [true, false, false]);

    let pid = i32::try_from(child.id()).unwrap();
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = wait_until(Duration::from_secs(90), Duration::from_millis(100), || {
        child
            .try_wait()
            .unwrap()
            .ok_or_else(|| "still running".to_owned())
    });
    assert_eq!(status.code(), Some(0));
    // Each run is a real evaluation of the server's; nothing alarming is said.
    let reports: Vec<Value> = second
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(reports.len(), 2, "{second}");
    assert_eq!(first.lines().count(), 1, "{first}");
    for (n, report) in reports.iter().enumerate() {
        assert_eq!(report["run"], n + 1, "{report}");
        assert!(report["questions"]["intent"].is_object(), "{report}");
    }
    let said = stderr.lock().unwrap().clone();
    assert!(
        !said.contains("warm_states") && !said.contains("error") && !said.contains("warn"),
        "{said}"
    );
}
