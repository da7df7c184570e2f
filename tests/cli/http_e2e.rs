//! End to end with the real binary: `arbiter serve --listen 127.0.0.1:0`, a token made with
//! `arbiter tokens create`, requests over HTTP, SIGTERM, exit 0, and the access log.

use crate::common::TestEnv;
use crate::common::base_request;
use crate::common::{decisions_token, raw_exchange};
use serde_json::Value;
use std::time::Duration;

// One server process's life, start to SIGTERM: splitting it would hide the steps.
#[allow(clippy::too_many_lines)]
#[test]
fn serve_binary_answers_logs_and_stops_on_sigterm() {
    let env = TestEnv::new();
    let created = decisions_token(&env);
    let token = created["token"]
        .as_str()
        .expect("the secret is printed as `token`")
        .to_owned();
    let secret = token.rsplit('_').next().unwrap().to_owned();
    assert!(secret.len() >= 32, "{token}");

    let served = env.spawn_serve();
    let (address, pid) = (served.address.clone(), served.pid);

    let health_id = uuid::Uuid::new_v4().to_string();
    let decision_id = uuid::Uuid::new_v4().to_string();
    let denied_id = uuid::Uuid::new_v4().to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_mins(2))
            .build()
            .unwrap();
        let health = client
            .get(format!("{address}/healthz"))
            .header("x-request-id", &health_id)
            .send()
            .await
            .unwrap();
        assert_eq!(health.status(), 200);
        assert_eq!(health.headers()["x-request-id"], health_id.as_str());
        let health: Value = health.json().await.unwrap();
        assert_eq!(health["status"], "ok");

        let decision = client
            .post(format!("{address}/v1/decision"))
            .bearer_auth(&token)
            .header("x-request-id", &decision_id)
            .json(&base_request("mo"))
            .send()
            .await
            .unwrap();
        assert_eq!(decision.status(), 200);
        assert_eq!(decision.headers()["x-request-id"], decision_id.as_str());
        let decision: Value = decision.json().await.unwrap();
        assert_eq!(
            decision["answers"]["intent"]["type"], "choice",
            "{decision}"
        );
        assert!(decision["usage"]["input_tokens"].is_u64(), "{decision}");

        let denied = client
            .post(format!("{address}/v1/decision"))
            .header("authorization", format!("Bearer {token}x"))
            .header("x-request-id", &denied_id)
            .json(&base_request("mo"))
            .send()
            .await
            .unwrap();
        assert_eq!(denied.status(), 401);
    });
    drop(runtime);

    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "exit status after SIGTERM: {exit:?}");
    let _ = pid;

    // One access-log line per request, with method, path, status and request ID.
    for (method, path, status, id) in [
        ("GET", "/healthz", "200", &health_id),
        ("POST", "/v1/decision", "200", &decision_id),
        ("POST", "/v1/decision", "401", &denied_id),
    ] {
        let lines: Vec<&str> = log.lines().filter(|l| l.contains(id.as_str())).collect();
        assert_eq!(lines.len(), 1, "one log line for request {id}:\n{log}");
        let line = lines[0];
        assert!(line.contains(&format!("method={method}")), "{line}");
        assert!(line.contains(&format!("path={path}")), "{line}");
        assert!(line.contains(&format!("status={status}")), "{line}");
    }
    assert!(!log.contains(&token), "the log contains the token:\n{log}");
    assert!(
        !log.contains(&secret),
        "the log contains the token's secret:\n{log}"
    );
}

/// A client that gives up on a long decision: the server stops the work at its next window
/// (its CPU time stops growing) and logs the request as 499 with its duration.
#[test]
fn a_decision_whose_client_went_away_stops_and_is_logged_499() {
    let env = TestEnv::new();
    let created = decisions_token(&env);
    let token = created["token"].as_str().unwrap().to_owned();
    let served = env.spawn_serve();
    // Many windows of varied text: seconds of encoder work on `jev-latest`.
    let text = crate::common::long_ticket_text(40_000);
    let mut body = base_request("jev-latest");
    body["state"] = serde_json::json!({ "message": text });
    // Read up to the model's limit rather than refuse the state at once.
    body["truncate"] = serde_json::json!(true);
    let id = uuid::Uuid::new_v4().to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let gave_up = runtime.block_on(async {
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_secs(2))
            .build()
            .unwrap();
        client
            .post(format!("{}/v1/decision", served.address))
            .bearer_auth(&token)
            .header("x-request-id", &id)
            .json(&body)
            .send()
            .await
    });
    assert!(
        gave_up.is_err_and(|e| e.is_timeout()),
        "the client timed out"
    );
    drop(runtime);
    // The connection is closed: the work stops at its next window or piece of text. The
    // whole decision is over a minute of CPU (341 windows), so a server that kept working
    // would still be at it 20 s on, while one that stopped spends next to nothing in 2 s
    // (however long a loaded machine took it to reach its next window).
    crate::common::wait_until(Duration::from_secs(20), Duration::ZERO, || {
        let before = served.cpu_time();
        std::thread::sleep(Duration::from_secs(2));
        let spent = served.cpu_time().saturating_sub(before);
        if spent < Duration::from_millis(500) {
            Ok(())
        } else {
            Err(format!(
                "the server kept working for nobody: {spent:?} of CPU in 2 s"
            ))
        }
    });
    let (_, log) = served.stop();
    let line = log
        .lines()
        .find(|l| l.contains(&id))
        .unwrap_or_else(|| panic!("no log line for {id}:\n{log}"));
    assert!(line.contains("status=499"), "{line}");
    assert!(line.contains("ms="), "{line}");
}

/// A head HTTP cannot parse (a control character in a header value) is answered with a
/// problem document carrying `x-request-id`, and logged, not with hyper's bare 400; and a
/// forged `Host` never reaches a problem's `type`, which names the listen address.
#[test]
fn a_bad_request_head_is_a_logged_problem_and_host_is_never_echoed() {
    let env = TestEnv::new();
    let served = env.spawn_serve();
    let (status, head, body) = raw_exchange(
        &served.address,
        b"GET /healthz HTTP/1.1\r\nhost: x\r\nx-note: a\x01b\r\n\r\n",
    );
    assert_eq!(status, 400, "{head}");
    assert!(
        head.contains("content-type: application/problem+json"),
        "{head}"
    );
    let problem: Value = serde_json::from_str(&body).expect("a JSON problem");
    assert_eq!(problem["code"], "bad_request", "{problem}");
    assert_eq!(problem["status"], 400);
    assert_eq!(
        problem["type"],
        format!("{}/problems/bad-request", served.address)
    );
    let id = problem["requestId"]
        .as_str()
        .expect("a request ID")
        .to_owned();
    assert!(head.contains(&format!("x-request-id: {id}")), "{head}");
    // The server still serves, and a forged Host changes nothing in the problem.
    let (status, _, body) = raw_exchange(
        &served.address,
        b"GET /v1/models HTTP/1.1\r\nhost: a\"b<script>\r\nconnection: close\r\n\r\n",
    );
    assert_eq!(status, 401);
    let problem: Value = serde_json::from_str(&body).expect("a JSON problem");
    assert_eq!(
        problem["type"],
        format!("{}/problems/unauthorized", served.address)
    );
    let (_, log) = served.stop();
    let line = log
        .lines()
        .find(|l| l.contains(&id))
        .unwrap_or_else(|| panic!("no log line for {id}:\n{log}"));
    assert!(line.contains("status=400"), "{line}");
}
