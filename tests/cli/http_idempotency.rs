//! `Idempotency-Key` on `/v1/decision`: replay, reuse, concurrent duplicates, restarts.

use crate::common::TestEnv;
use crate::common::{Reply, TestServer, base_request, repo_request};
use serde_json::{Value, json};

const KEY: &str = "retry-0001";

/// How many decisions the example of `response` holds.
async fn decisions_of(server: &TestServer, token: &str, model_id: &str, response: &Value) -> usize {
    let example_id = response["example"]["exampleId"]
        .as_str()
        .unwrap_or_else(|| panic!("no example in {response}"));
    let example = server
        .get(
            &format!("/v1/models/{model_id}/examples/{example_id}"),
            Some(token),
        )
        .await
        .ok();
    example["decisions"].as_array().unwrap().len()
}

async fn keyed(server: &TestServer, token: &str, body: &Value, key: &str) -> Reply {
    server
        .post_json_with(
            "/v1/decision",
            Some(token),
            body,
            &[("idempotency-key", key)],
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_key_same_body_replays_the_first_response() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token("t", &["decisions", "examples:read"], &["acme/*=reader"]);
    let server = home.serve().await;
    let body = repo_request("acme/support");
    let first = keyed(&server, &token, &body, KEY).await;
    let first_json = first.ok();
    assert_eq!(
        first.header("idempotent-replayed"),
        None,
        "the first answer is not a replay"
    );
    let second = keyed(&server, &token, &body, KEY).await;
    assert_eq!(second.status, first.status);
    assert_eq!(
        second.body, first.body,
        "the replay is byte for byte the first body"
    );
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.header("content-type"), Some("application/json"));
    assert_ne!(
        second.request_id(),
        first.request_id(),
        "each response has its own request ID"
    );
    // The same logical request with its members in another order is the same request.
    let reordered: Value = serde_json::from_str(&format!(
        r#"{{"state": {}, "model": "acme/support"}}"#,
        serde_json::to_string(&body["state"]).unwrap()
    ))
    .unwrap();
    let third = keyed(&server, &token, &reordered, KEY).await;
    assert_eq!(third.status, 200, "{}", third.text());
    assert_eq!(third.body, first.body);
    assert_eq!(third.header("idempotent-replayed"), Some("true"));
    // Only one decision was captured.
    assert_eq!(
        decisions_of(&server, &token, &model_id, &first_json).await,
        1
    );
    // Without a key every call is new.
    let unkeyed = server.post_json("/v1/decision", Some(&token), &body).await;
    unkeyed.ok();
    assert_eq!(unkeyed.header("idempotent-replayed"), None);
    assert_eq!(
        decisions_of(&server, &token, &model_id, &first_json).await,
        2
    );
    // A key is per token: another token's same key is a new request.
    let other = server
        .home()
        .token("other", &["decisions"], &["acme/*=reader"]);
    let theirs = keyed(&server, &other, &body, KEY).await;
    theirs.ok();
    assert_eq!(theirs.header("idempotent-replayed"), None);
    assert_eq!(
        decisions_of(&server, &token, &model_id, &first_json).await,
        3
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn same_key_different_body_is_409_idempotency_key_reused() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    keyed(&server, &token, &base_request("mo"), KEY).await.ok();
    let mut changed = base_request("mo");
    changed["state"] = json!({"messages": [{"role": "user", "content": "something else"}]});
    let reply = keyed(&server, &token, &changed, KEY).await;
    let problem = server.problem(&reply, 409, "idempotency_key_reused").await;
    assert!(problem["detail"].as_str().is_some_and(|d| !d.is_empty()));
    assert_eq!(reply.header("idempotent-replayed"), None);
    // The original is still replayed afterwards.
    let replayed = keyed(&server, &token, &base_request("mo"), KEY).await;
    replayed.ok();
    assert_eq!(replayed.header("idempotent-replayed"), Some("true"));
    // A failed request does not burn its key: a 422 is recomputed, and the key stays free.
    let invalid = json!({"model": "mo", "state": 1});
    let other_key = "retry-0002";
    for _ in 0..2 {
        let reply = keyed(&server, &token, &invalid, other_key).await;
        server.problem(&reply, 422, "validation_error").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_duplicates_run_once() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token("t", &["decisions", "examples:read"], &["acme/*=reader"]);
    let server = std::sync::Arc::new(home.serve().await);
    // Warm the engine, so the duplicates race on the decision, not on loading weights.
    server
        .post_json(
            "/v1/decision",
            Some(&token),
            &json!({"model": "acme/support", "state": "warm-up", "capture": false}),
        )
        .await
        .ok();
    let body = json!({"model": "acme/support", "state": {"text": "concurrent duplicate"}});
    let mut tasks = Vec::new();
    for _ in 0..20 {
        let (server, token, body) = (server.clone(), token.clone(), body.clone());
        tasks.push(tokio::spawn(async move {
            keyed(&server, &token, &body, "concurrent-key").await
        }));
    }
    let mut replies = Vec::new();
    for task in tasks {
        replies.push(task.await.expect("request task"));
    }
    let ok: Vec<&Reply> = replies.iter().filter(|r| r.status == 200).collect();
    for reply in &replies {
        if reply.status != 200 {
            server.problem(reply, 409, "decision_in_progress").await;
        }
    }
    assert!(!ok.is_empty(), "at least one of the duplicates succeeds");
    for reply in &ok {
        assert_eq!(reply.body, ok[0].body, "every success is the one decision");
    }
    let originals = ok
        .iter()
        .filter(|r| r.header("idempotent-replayed").is_none())
        .count();
    assert!(
        originals <= 1,
        "{originals} responses claim to be the original"
    );
    let response = ok[0].json();
    assert_eq!(
        decisions_of(&server, &token, &model_id, &response).await,
        1,
        "exactly one decision recorded"
    );
    // Once finished, the key replays.
    let after = keyed(&server, &token, &body, "concurrent-key").await;
    assert_eq!(after.status, 200, "{}", after.text());
    assert_eq!(after.body, ok[0].body);
    assert_eq!(after.header("idempotent-replayed"), Some("true"));
    assert_eq!(decisions_of(&server, &token, &model_id, &response).await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_survives_a_restart() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token("t", &["decisions", "examples:read"], &["acme/*=reader"]);
    let server = home.serve().await;
    let body = repo_request("acme/support");
    let first = keyed(&server, &token, &body, KEY).await;
    let first_json = first.ok();
    let old_addr = server.addr;
    let home = server.stop().await;
    assert!(
        tokio::net::TcpStream::connect(old_addr).await.is_err(),
        "the first server no longer listens"
    );
    let server = home.serve().await;
    let replayed = keyed(&server, &token, &body, KEY).await;
    assert_eq!(replayed.status, 200, "{}", replayed.text());
    assert_eq!(
        replayed.body, first.body,
        "the stored body, after a restart"
    );
    assert_eq!(replayed.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        decisions_of(&server, &token, &model_id, &first_json).await,
        1
    );
    let mut changed = body.clone();
    changed["state"] = json!("changed");
    let reply = keyed(&server, &token, &changed, KEY).await;
    server.problem(&reply, 409, "idempotency_key_reused").await;
}
