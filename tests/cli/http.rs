//! HTTP integration tests: a real `arbiter::server::serve` on `127.0.0.1:0` over a temporary
//! home, driven with reqwest through the harness's in-process server
//! ([`crate::common::TestServer`]): the status-table tests; decisions, idempotency, the
//! property test and the end-to-end binary test live in `http_*.rs` beside it.

use crate::common::{
    HeldEngine, TestEnv, assert_uuid_v4, base_request, questions, repo_request, state,
};
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};

// ---------------------------------------------------------------------------------------
// The status table: each status reached by a real request
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_200_for_a_decision_with_rate_limit_headers() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let reply = server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await;
    let body = reply.ok();
    assert_eq!(reply.header("content-type"), Some("application/json"));
    assert_eq!(body["model"], "mo");
    assert_uuid_v4(&reply.request_id());
    // The default bucket: 200 burst; one request taken.
    assert_eq!(reply.header("ratelimit-limit"), Some("200"));
    assert_eq!(reply.header("ratelimit-remaining"), Some("199"));
    assert!(
        reply
            .header("ratelimit-reset")
            .is_some_and(|r| r.parse::<u64>().is_ok())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_400_for_malformed_json() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    for body in [
        &b"{\"model\": \"mo\", \"state\": "[..],
        b"",
        b"{'a': 1}",
        b"\xff\xfe",
    ] {
        let reply = server
            .send(
                server
                    .request(Method::POST, "/v1/decision", Some(&token))
                    .header("content-type", "application/json")
                    .body(body.to_vec()),
            )
            .await;
        let problem = server.problem(&reply, 400, "bad_request").await;
        assert!(
            problem["detail"].as_str().unwrap().contains("JSON"),
            "{problem}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_401_for_missing_bad_revoked_and_non_bearer_tokens() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let revoked = home.token("gone", &["decisions"], &[]);
    home.revoke("gone");
    let server = home.serve().await;
    // The real token works, so every 401 below is about the credential alone.
    server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await
        .ok();
    let (prefix, _) = token.rsplit_once('_').unwrap();
    let wrong_secret = format!("{prefix}_{}", "0".repeat(64));
    let cases: Vec<(&str, Option<String>)> = vec![
        ("no Authorization header", None),
        ("unknown token", Some("Bearer arb_000000000000_nope".into())),
        ("garbage token", Some("Bearer garbage".into())),
        (
            "right ID, wrong secret",
            Some(format!("Bearer {wrong_secret}")),
        ),
        ("revoked token", Some(format!("Bearer {revoked}"))),
        ("Basic scheme", Some(format!("Basic {token}"))),
        ("bare token without scheme", Some(token.clone())),
        ("empty bearer", Some("Bearer ".into())),
    ];
    for (what, authorization) in cases {
        let mut builder = server
            .request(Method::POST, "/v1/decision", None)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(&base_request("mo")).unwrap());
        if let Some(value) = authorization {
            builder = builder.header("authorization", value);
        }
        let reply = server.send(builder).await;
        assert_eq!(reply.status, 401, "{what}: {}", reply.text());
        server.problem(&reply, 401, "unauthorized").await;
        assert_eq!(reply.header("www-authenticate"), Some("Bearer"), "{what}");
    }
    // GET routes too.
    let reply = server.get("/v1/models", None).await;
    server.problem(&reply, 401, "unauthorized").await;
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revoking_a_token_while_the_server_runs_takes_effect_at_once() {
    let home = TestEnv::new();
    let token = home.token("t", &["models:read"], &[]);
    let server = home.serve().await;
    server.get("/v1/models", Some(&token)).await.ok();
    server.home().revoke("t");
    let reply = server.get("/v1/models", Some(&token)).await;
    server.problem(&reply, 401, "unauthorized").await;
    assert_eq!(reply.header("www-authenticate"), Some("Bearer"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_403_for_a_missing_scope() {
    let home = TestEnv::new();
    let reader = home.token("models-only", &["models:read"], &["*=admin"]);
    let server = home.serve().await;
    let reply = server
        .post_json("/v1/decision", Some(&reader), &base_request("mo"))
        .await;
    let problem = server.problem(&reply, 403, "forbidden").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("decisions"),
        "the detail names the scope: {problem}"
    );
    // The same token may do what its scope allows.
    server.get("/v1/models", Some(&reader)).await.ok();
    // A 403 is not a 401: no challenge.
    assert_eq!(reply.header("www-authenticate"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_403_for_a_reader_annotating() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let reader = home.token(
        "reader",
        &["examples:read", "examples:write"],
        &["acme/*=reader"],
    );
    let writer = home.token(
        "writer",
        &["examples:read", "examples:write"],
        &["acme/support=writer"],
    );
    let server = home.serve().await;
    let ingest = server
        .post_json(
            &format!("/v1/models/{model_id}/examples"),
            Some(&writer),
            &json!([{"example_id": "e1", "state": state()}]),
        )
        .await;
    assert_eq!(ingest.ok()["created"], 1);
    let path = format!("/v1/models/{model_id}/examples/e1/annotations");
    let annotation = json!({"intent": {"answer": "refund", "reasoning": "asks for money back"}});
    let reply = server.patch_json(&path, Some(&reader), &annotation).await;
    server.problem(&reply, 403, "forbidden").await;
    // The reader still reads; the writer writes.
    server
        .get(&format!("/v1/models/{model_id}/examples/e1"), Some(&reader))
        .await
        .ok();
    let done = server
        .patch_json(&path, Some(&writer), &annotation)
        .await
        .ok();
    assert_eq!(done["annotations"]["intent"]["answer"], "refund");
    // And the reader's attempt wrote nothing before it: only the writer's annotation exists.
    assert_eq!(done["annotations"].as_object().unwrap().len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_unknown_route_with_or_without_a_token() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    for (path, token) in [
        ("/nope", None),
        ("/v1/nope", None),
        ("/v1/nope", Some(token.as_str())),
        ("/v2/decision", Some(token.as_str())),
    ] {
        let reply = server.get(path, token).await;
        server.problem(&reply, 404, "not_found").await;
    }
    let reply = server
        .post_json("/v1/decisions", Some(&token), &base_request("mo"))
        .await;
    server.problem(&reply, 404, "not_found").await;
    // An unknown problem page is itself a problem.
    let reply = server.get("/problems/no-such-problem", None).await;
    server.problem(&reply, 404, "not_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_unknown_base_model() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    for model in ["gpt-17", "jev-9.9.9"] {
        let reply = server
            .post_json("/v1/decision", Some(&token), &base_request(model))
            .await;
        let problem = server.problem(&reply, 404, "model_not_found").await;
        assert!(
            problem["detail"].as_str().unwrap().contains(model),
            "{problem}"
        );
    }
}

/// The parts of two problems that must agree when one model is invisible and the other
/// missing: everything but the request ID, and the detail once the names are swapped.
fn same_shape(invisible: &Value, invisible_name: &str, missing: &Value, missing_name: &str) {
    for member in ["type", "title", "status", "code", "details"] {
        assert_eq!(
            invisible[member], missing[member],
            "member {member}: {invisible} vs {missing}"
        );
    }
    let detail = invisible["detail"]
        .as_str()
        .unwrap()
        .replace(invisible_name, missing_name);
    assert_eq!(
        detail,
        missing["detail"].as_str().unwrap(),
        "{invisible} vs {missing}"
    );
    let keys = |v: &Value| v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
    assert_eq!(keys(invisible), keys(missing));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_invisible_repository_model_is_the_same_as_a_missing_one() {
    let home = TestEnv::new();
    home.model("acme/secret");
    home.model("other/visible");
    let token = home.token("t", &["decisions"], &["other/*=reader"]);
    let server = home.serve().await;
    // The token works on what it can see.
    assert_eq!(
        server
            .post_json("/v1/decision", Some(&token), &repo_request("other/visible"))
            .await
            .ok()["recorded"],
        true
    );
    let invisible = server
        .post_json("/v1/decision", Some(&token), &repo_request("acme/secret"))
        .await;
    let invisible = server.problem(&invisible, 404, "model_not_found").await;
    for missing_path in ["acme/nothing", "other/nothing"] {
        let missing = server
            .post_json("/v1/decision", Some(&token), &repo_request(missing_path))
            .await;
        let missing = server.problem(&missing, 404, "model_not_found").await;
        same_shape(&invisible, "acme/secret", &missing, missing_path);
    }
    // The invisible model is never mentioned to this token by a 403 either.
    let with_questions =
        json!({"model": "acme/secret", "state": state(), "questions": questions()});
    let reply = server
        .post_json("/v1/decision", Some(&token), &with_questions)
        .await;
    server.problem(&reply, 404, "model_not_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_invisible_model_id_is_the_same_as_a_missing_one() {
    let home = TestEnv::new();
    let secret_id = home.model("acme/secret");
    let token = home.token(
        "t",
        &["models:read", "examples:read", "examples:write"],
        &["other/*=admin"],
    );
    let server = home.serve().await;
    let missing_id = uuid::Uuid::new_v4().to_string();
    for suffix in ["", "/checkpoints", "/examples", "/examples/e1"] {
        let invisible = server
            .get(&format!("/v1/models/{secret_id}{suffix}"), Some(&token))
            .await;
        let invisible = server.problem(&invisible, 404, "model_not_found").await;
        let missing = server
            .get(&format!("/v1/models/{missing_id}{suffix}"), Some(&token))
            .await;
        let missing = server.problem(&missing, 404, "model_not_found").await;
        assert!(
            !invisible["detail"]
                .as_str()
                .unwrap()
                .contains("acme/secret"),
            "GET /v1/models/{{id}}{suffix}: the 404 for an invisible model reveals its path: {invisible}"
        );
        same_shape(&invisible, &secret_id, &missing, &missing_id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_unknown_revision() {
    let home = TestEnv::new();
    home.model("acme/support");
    let token = home.token("t", &["decisions"], &["acme/*=reader"]);
    let server = home.serve().await;
    for revision in [
        "no-such-branch",
        "v9",
        "0123456789abcdef0123456789abcdef01234567",
    ] {
        let body = json!({"model": "acme/support", "state": state(), "revision": revision});
        let reply = server.post_json("/v1/decision", Some(&token), &body).await;
        let problem = server.problem(&reply, 404, "revision_not_found").await;
        assert!(
            problem["detail"].as_str().unwrap().contains(revision),
            "{problem}"
        );
    }
    // The default branch by name works.
    let body = json!({"model": "acme/support", "state": state(), "revision": "main"});
    assert_eq!(
        server
            .post_json("/v1/decision", Some(&token), &body)
            .await
            .ok()["revision"]["name"],
        "main"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_404_for_an_unknown_example() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.admin_token("t");
    let server = home.serve().await;
    let reply = server
        .get(
            &format!("/v1/models/{model_id}/examples/ex_nope"),
            Some(&token),
        )
        .await;
    let problem = server.problem(&reply, 404, "example_not_found").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("ex_nope"),
        "{problem}"
    );
    let reply = server
        .patch_json(
            &format!("/v1/models/{model_id}/examples/ex_nope/annotations"),
            Some(&token),
            &json!({"intent": {"answer": "refund"}}),
        )
        .await;
    server.problem(&reply, 404, "example_not_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_405_for_delete_decision() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    for (method, path) in [
        (Method::DELETE, "/v1/decision"),
        (Method::GET, "/v1/systemone"),
        (Method::PUT, "/v1/models"),
    ] {
        let reply = server
            .send(server.request(method.clone(), path, Some(&token)))
            .await;
        server.problem(&reply, 405, "method_not_allowed").await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_405_names_the_allowed_methods() {
    // RFC 9110 §15.5.6: a 405 response MUST carry an Allow header.
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    let reply = server
        .send(server.request(Method::DELETE, "/v1/decision", Some(&token)))
        .await;
    assert_eq!(reply.status, 405);
    let allow = reply
        .header("allow")
        .unwrap_or_else(|| panic!("no Allow header on a 405: {:?}", reply.headers));
    assert!(
        allow.split(',').any(|m| m.trim() == "POST"),
        "Allow: {allow}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_413_above_max_body_bytes() {
    let home = TestEnv::with_config("server:\n  max_body_bytes: 1000\n");
    let token = home.admin_token("t");
    let server = home.serve().await;
    let small =
        json!({"model": "mo", "state": "x".repeat(800), "questions": {"q": {"type": "noul"}}});
    assert!(serde_json::to_vec(&small).unwrap().len() < 1000);
    server
        .post_json("/v1/decision", Some(&token), &small)
        .await
        .ok();
    let big =
        json!({"model": "mo", "state": "x".repeat(1200), "questions": {"q": {"type": "noul"}}});
    let reply = server.post_json("/v1/decision", Some(&token), &big).await;
    let problem = server.problem(&reply, 413, "payload_too_large").await;
    assert!(
        problem["detail"].as_str().unwrap().contains("1000"),
        "{problem}"
    );
    // The server still answers on the next request.
    server
        .post_json("/v1/decision", Some(&token), &small)
        .await
        .ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_415_for_a_body_that_is_not_plain_json() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    let body = serde_json::to_vec(&base_request("mo")).unwrap();
    for content_type in [
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
        None,
    ] {
        let mut builder = server
            .request(Method::POST, "/v1/decision", Some(&token))
            .body(body.clone());
        if let Some(content_type) = content_type {
            builder = builder.header("content-type", content_type);
        }
        let reply = server.send(builder).await;
        server.problem(&reply, 415, "unsupported_media_type").await;
    }
    // Parameters and +json suffixes are JSON.
    for content_type in ["application/json; charset=utf-8", "Application/JSON"] {
        let reply = server
            .send(
                server
                    .request(Method::POST, "/v1/decision", Some(&token))
                    .header("content-type", content_type)
                    .body(body.clone()),
            )
            .await;
        reply.ok();
    }
    // A compressed body is refused as such (RFC 9110: 415 for a content coding the server
    // does not take), not parsed as JSON and called malformed; `identity` is no coding.
    for coding in ["gzip", "br", "identity, gzip"] {
        let reply = server
            .send(
                server
                    .request(Method::POST, "/v1/decision", Some(&token))
                    .header("content-type", "application/json")
                    .header("content-encoding", coding)
                    .body(body.clone()),
            )
            .await;
        let problem = server.problem(&reply, 415, "unsupported_media_type").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("uncompressed"), "{detail}");
        assert!(
            detail.contains(coding.trim_start_matches("identity, ")),
            "{detail}"
        );
    }
    server
        .send(
            server
                .request(Method::POST, "/v1/decision", Some(&token))
                .header("content-type", "application/json")
                .header("content-encoding", "identity")
                .body(body.clone()),
        )
        .await
        .ok();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_422_for_invalid_questions_with_locations() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    let body = json!({
        "model": "mo",
        "state": state(),
        "questions": {"urgency": {"type": "score", "criteria": ["low", "medium", null, "high"]}}
    });
    let reply = server.post_json("/v1/decision", Some(&token), &body).await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    let details = problem["details"].as_array().unwrap();
    assert_eq!(details.len(), 1, "{problem}");
    assert_eq!(
        details[0]["loc"],
        json!(["body", "questions", "urgency", "criteria", 2]),
        "{problem}"
    );
    assert!(details[0]["msg"].as_str().is_some_and(|m| !m.is_empty()));
    assert!(details[0]["type"].as_str().is_some_and(|t| !t.is_empty()));

    // Every problem at once, each located.
    let body = json!({
        "model": 7,
        "questions": {
            "": {"type": "nope"},
            "c": {"type": "choice", "criteria": {"": "empty key"}},
            "s": {"type": "score", "criteria": []}
        }
    });
    let reply = server.post_json("/v1/decision", Some(&token), &body).await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    let locs: Vec<Value> = problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["loc"].clone())
        .collect();
    for expected in [
        json!(["body", "state"]),
        json!(["body", "model"]),
        json!(["body", "questions", "", "type"]),
    ] {
        assert!(locs.contains(&expected), "{expected} missing from {locs:?}");
    }
    assert!(locs.iter().any(|l| l[2] == "c"), "{locs:?}");
    assert!(locs.iter().any(|l| l[2] == "s"), "{locs:?}");
    for detail in problem["details"].as_array().unwrap() {
        assert_eq!(
            detail.as_object().unwrap().len(),
            3,
            "details elements are {{loc, msg, type}}: {detail}"
        );
    }

    // Empty questions map, and a body that is not an object.
    let reply = server
        .post_json(
            "/v1/decision",
            Some(&token),
            &json!({"model": "mo", "state": 1, "questions": {}}),
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", "questions"]));
    let reply = server
        .post_json("/v1/decision", Some(&token), &json!([1, 2]))
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_422_for_an_idempotency_key_of_the_wrong_length() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    let short = "abcde".to_owned();
    let seven = "abcdefg".to_owned();
    let long = "k".repeat(256);
    for key in [&short, &seven, &long] {
        let reply = server
            .post_json_with(
                "/v1/decision",
                Some(&token),
                &base_request("mo"),
                &[("idempotency-key", key)],
            )
            .await;
        let problem = server.problem(&reply, 422, "validation_error").await;
        assert_eq!(problem["details"].as_array().unwrap().len(), 1, "{problem}");
        assert_eq!(
            problem["details"][0]["loc"],
            json!(["header", "Idempotency-Key"]),
            "{problem}"
        );
    }
    // The bounds themselves are accepted.
    for key in ["abcdefgh".to_owned(), "k".repeat(255)] {
        server
            .post_json_with(
                "/v1/decision",
                Some(&token),
                &base_request("mo"),
                &[("idempotency-key", &key)],
            )
            .await
            .ok();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_429_when_the_bucket_is_empty() {
    let home =
        TestEnv::with_config("server:\n  rate_limit:\n    per_second: 0.001\n    burst: 2\n");
    let token = home.token("t", &["models:read"], &[]);
    let other = home.token("other", &["models:read"], &[]);
    let server = home.serve().await;
    let first = server.get("/v1/models", Some(&token)).await;
    first.ok();
    assert_eq!(first.header("ratelimit-limit"), Some("2"));
    assert_eq!(first.header("ratelimit-remaining"), Some("1"));
    let second = server.get("/v1/models", Some(&token)).await;
    second.ok();
    assert_eq!(second.header("ratelimit-remaining"), Some("0"));
    let third = server.get("/v1/models", Some(&token)).await;
    server.problem(&third, 429, "rate_limited").await;
    let retry_after: u64 = third
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .expect("Retry-After is seconds");
    // One request's worth at 0.001/s is 1000 s.
    assert!(
        (900..=1000).contains(&retry_after),
        "Retry-After {retry_after}"
    );
    assert_eq!(third.header("ratelimit-limit"), Some("2"));
    assert_eq!(third.header("ratelimit-remaining"), Some("0"));
    let reset: u64 = third
        .header("ratelimit-reset")
        .expect("RateLimit-Reset")
        .parse()
        .unwrap();
    assert!(reset >= 1, "RateLimit-Reset {reset}");
    // Buckets are per token.
    server.get("/v1/models", Some(&other)).await.ok();
    // Unauthenticated routes are not limited.
    assert_eq!(server.get("/healthz", None).await.status, 200);
}

/// Failed authentications are limited per client address: past the burst, the address
/// gets 429 with `Retry-After` whatever token it sends; another address is not affected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_authentication_is_rate_limited_per_client_address() {
    let home = TestEnv::with_config("server:\n  auth_failures: {per_second: 0.01, burst: 3}\n");
    let token = home.admin_token("t");
    let server = home.serve().await;
    for bad in [None, Some("arb_wrong"), Some("not a token")] {
        let reply = server.get("/v1/models", bad).await;
        server.problem(&reply, 401, "unauthorized").await;
    }
    for sent in [Some("arb_wrong"), Some(token.as_str()), None] {
        let reply = server.get("/v1/models", sent).await;
        let problem = server.problem(&reply, 429, "rate_limited").await;
        assert!(
            problem["detail"]
                .as_str()
                .unwrap()
                .contains("failed authentications from this address"),
            "{problem}"
        );
        let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
        assert!((60..=100).contains(&wait), "Retry-After {wait}");
    }
    // Another address (the loopback network is all local) is not limited.
    let elsewhere = reqwest::Client::builder()
        .no_proxy()
        .local_address(std::net::IpAddr::from([127, 0, 0, 2]))
        .build()
        .unwrap();
    let reply = server
        .send(elsewhere.get(server.url("/v1/models")).bearer_auth(&token))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    let reply = server.send(elsewhere.get(server.url("/v1/models"))).await;
    server.problem(&reply, 401, "unauthorized").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn problem_type_uses_the_configured_public_url() {
    let home = TestEnv::with_config("server:\n  public_url: https://arbiter.example/\n");
    let token = home.admin_token("t");
    let server = home.serve().await;
    let reply = server
        .post_json("/v1/decision", Some(&token), &json!({"model": "mo"}))
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["type"],
        "https://arbiter.example/problems/validation-error"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_query_strings_are_problem_documents() {
    // "Every failure is a problem document", and the spec's 422 covers "a path, query,
    // header, body ... failed validation": a query string that does not parse must not fall
    // through to the framework's plain-text 400.
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.admin_token("t");
    let server = home.serve().await;
    for path in [
        format!("/v1/models/{model_id}/examples?annotated=maybe"),
        format!("/v1/models/{model_id}/examples?limit=-1"),
        format!("/v1/models/{model_id}/checkpoints?limit=lots"),
    ] {
        let reply = server.get(&path, Some(&token)).await;
        assert_eq!(
            reply.header("content-type"),
            Some("application/problem+json"),
            "GET {path} answered {} with {:?}: {}",
            reply.status,
            reply.header("content-type"),
            reply.text()
        );
        let problem = server.problem(&reply, 422, "validation_error").await;
        assert_eq!(problem["details"][0]["loc"][0], "query", "{problem}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn undecodable_path_parameters_are_problem_documents() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    for path in ["/v1/models/%FF", "/v1/models/%FF/examples/x"] {
        let reply = server.get(path, Some(&token)).await;
        assert!(
            (400..500).contains(&reply.status),
            "{path}: {}",
            reply.status
        );
        assert_eq!(
            reply.header("content-type"),
            Some("application/problem+json"),
            "GET {path} answered {} with {:?}: {}",
            reply.status,
            reply.header("content-type"),
            reply.text()
        );
        let code = reply.json()["code"].as_str().unwrap_or_default().to_owned();
        server.problem(&reply, reply.status, &code).await;
    }
}

// ---------------------------------------------------------------------------------------
// Request IDs
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_ids_are_echoed_replaced_or_generated() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let server = home.serve().await;
    let with_id = |builder: RequestBuilder, id: &str| builder.header("x-request-id", id.to_owned());

    // A valid UUID is echoed: on success, on a handler error, on the 404 fallback, on 401,
    // on 405, on a page without a token.
    let decision_body = serde_json::to_vec(&base_request("mo")).unwrap();
    let mine = uuid::Uuid::new_v4().to_string();
    let cases: Vec<(&str, RequestBuilder, u16)> = vec![
        (
            "success",
            server
                .request(Method::POST, "/v1/decision", Some(&token))
                .header("content-type", "application/json")
                .body(decision_body.clone()),
            200,
        ),
        (
            "422",
            server
                .request(Method::POST, "/v1/decision", Some(&token))
                .header("content-type", "application/json")
                .body("{}"),
            422,
        ),
        (
            "404 fallback",
            server.request(Method::GET, "/v1/nope", Some(&token)),
            404,
        ),
        ("401", server.request(Method::GET, "/v1/models", None), 401),
        (
            "405",
            server.request(Method::DELETE, "/v1/decision", Some(&token)),
            405,
        ),
        (
            "healthz",
            server.request(Method::GET, "/healthz", None),
            200,
        ),
    ];
    for (what, builder, status) in cases {
        let reply = server.send(with_id(builder, &mine)).await;
        assert_eq!(reply.status, status, "{what}: {}", reply.text());
        assert_eq!(
            reply.request_id(),
            mine,
            "{what}: a valid x-request-id is echoed"
        );
        if status >= 400 {
            assert_eq!(reply.json()["requestId"], mine.as_str(), "{what}");
        }
    }

    // An invalid one is replaced by a fresh UUID v4 (also in the problem).
    for invalid in [
        "not-a-uuid",
        "12345",
        "'; DROP TABLE",
        "g0000000-0000-4000-8000-000000000000",
    ] {
        let reply = server
            .send(with_id(
                server.request(Method::GET, "/v1/nope", None),
                invalid,
            ))
            .await;
        let id = reply.request_id();
        assert_ne!(id, invalid);
        assert_uuid_v4(&id);
        assert_eq!(reply.json()["requestId"], id.as_str());
    }

    // Absent: a new one on every response.
    let mut seen = std::collections::HashSet::new();
    for _ in 0..5 {
        for reply in [
            server.get("/healthz", None).await,
            server.get("/v1/models", Some(&token)).await,
            server.get("/v1/x", None).await,
        ] {
            let id = reply.request_id();
            assert_uuid_v4(&id);
            assert!(seen.insert(id.clone()), "request ID {id} repeated");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unauthenticated_routes_answer_without_a_token() {
    let home = TestEnv::new();
    let server = home.serve().await;
    let health = server.get("/healthz", None).await.ok();
    assert_eq!(health["status"], "ok");
    let openapi = server.get("/openapi.json", None).await.ok();
    assert!(
        openapi["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1")),
        "{openapi}"
    );
}

/// A state longer than `jev-latest` reads is refused at once with `state_too_large` at
/// `body.state` (the limit and the count in the message), read up to the limit with
/// `"truncate": true`, and a `mo` decision (which reads one window) is not limited.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_422_state_too_large_unless_truncated() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let text = "word ".repeat(40_000);
    let mut body = base_request("jev-latest");
    body["state"] = json!({ "message": text });
    let reply = server.post_json("/v1/decision", Some(&token), &body).await;
    assert_eq!(reply.status, 422, "{}", reply.text());
    let problem = reply.json();
    assert_eq!(problem["code"], "state_too_large");
    assert_eq!(problem["details"][0]["loc"], json!(["body", "state"]));
    let msg = problem["details"][0]["msg"].as_str().unwrap();
    assert!(msg.contains("32768") && msg.contains("tokens"), "{msg}");

    body["truncate"] = json!(true);
    let reply = server.post_json("/v1/decision", Some(&token), &body).await;
    let answered = reply.ok();
    let read = answered["usage"]["input_tokens"].as_u64().unwrap();
    assert!(
        read > 32_768,
        "the first 32,768 tokens, in overlapping windows: {read}"
    );

    body["model"] = json!("mo");
    body.as_object_mut().unwrap().remove("truncate");
    server
        .post_json("/v1/decision", Some(&token), &body)
        .await
        .ok();
}

/// With one decision slot and no queue, a decision that arrives while another computes is
/// refused at once: 503 `overloaded` with `Retry-After`, and the first still answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_503_overloaded_when_the_decision_queue_is_full() {
    let held = HeldEngine::start();
    let home = TestEnv::with_config(
        &held.config("server:\n  max_concurrent_decisions: 1\n  decision_queue: 0\n"),
    );
    let token = home.token("t", &["decisions"], &[]);
    let server = std::sync::Arc::new(home.serve().await);
    let first = held.hold_a_decision_slot(&server, &token).await;
    // Health says what the server holds.
    let health = server.get("/healthz", None).await.ok();
    assert_eq!(health["decisions"], json!({"inFlight": 1, "capacity": 1}));
    let refused = server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await;
    assert_eq!(refused.status, 503, "{}", refused.text());
    assert_eq!(refused.json()["code"], "overloaded");
    assert_eq!(refused.header("retry-after"), Some("1"));
    // A state past the budget is refused for what it is before it would wait for a slot:
    // 422, not 503.
    let mut huge = base_request("jev-latest");
    huge["state"] = json!({ "message": "word ".repeat(40_000) });
    let too_large = server.post_json("/v1/decision", Some(&token), &huge).await;
    assert_eq!(too_large.status, 422, "{}", too_large.text());
    assert_eq!(too_large.json()["code"], "state_too_large");
    held.release();
    first.await.unwrap().ok();
    let health = server.get("/healthz", None).await.ok();
    assert_eq!(
        health["decisions"]["inFlight"], 0,
        "the refused took no place"
    );
    // The slot is free again.
    server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await
        .ok();
}

/// `GET /v1/jobs` with a token that may read no kind of job is 403, not an empty list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_403_for_listing_jobs_without_a_jobs_scope() {
    let home = TestEnv::new();
    let decisions_only = home.token("d", &["decisions"], &["*/*=admin"]);
    let batches = home.token("b", &["batches"], &["*/*=admin"]);
    let server = home.serve().await;
    let refused = server.get("/v1/jobs", Some(&decisions_only)).await;
    assert_eq!(refused.status, 403, "{}", refused.text());
    assert_eq!(refused.json()["code"], "forbidden");
    assert_eq!(server.get("/v1/jobs", Some(&batches)).await.ok(), json!([]));
}

/// `/v1/systemone` is `/v1/decision` by another name: the same key and body sent to one
/// and then the other run once, and the second replays the first answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_decision_alias_shares_its_idempotency_record() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let key = [("idempotency-key", "alias-key-0001")];
    let body = base_request("mo");
    let first = server
        .post_json_with("/v1/decision", Some(&token), &body, &key)
        .await;
    let first_body = first.ok();
    let second = server
        .post_json_with("/v1/systemone", Some(&token), &body, &key)
        .await;
    assert_eq!(second.header("idempotent-replayed"), Some("true"));
    assert_eq!(second.ok(), first_body);
}

/// A JSON ingest or bulk annotation body that is not JSON (`[{"state":1},`) is refused
/// whole, 400 `bad_request`, and nothing is written: unlike JSON Lines, whose bad lines are
/// rejected alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn status_400_for_a_malformed_json_array_and_nothing_written() {
    let home = TestEnv::new();
    let model = home.model("acme/support");
    let token = home.admin_token("t");
    let server = home.serve().await;
    for route in ["examples", "annotations"] {
        let reply = server
            .send(
                server
                    .request(
                        Method::POST,
                        &format!("/v1/models/{model}/{route}"),
                        Some(&token),
                    )
                    .header("content-type", "application/json")
                    .body(&b"[{\"state\":1},"[..]),
            )
            .await;
        server.problem(&reply, 400, "bad_request").await;
    }
    let listed = server
        .get(&format!("/v1/models/{model}/examples"), Some(&token))
        .await
        .ok();
    assert_eq!(listed["examples"], json!([]), "{listed}");
}

/// One hostile request and the problem it must get.
struct Hostile {
    what: &'static str,
    path: String,
    content_type: &'static str,
    body: Vec<u8>,
    status: u16,
    code: &'static str,
}

/// The hostile requests of the table in `docs/src/reliability.md` (`examples` is a model's
/// examples route).
fn hostile_requests(examples: &str) -> Vec<Hostile> {
    let nested = format!(
        r#"{{"model":"mo","state":{}1{}}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    let mut invalid_utf8 = br#"{"model":"mo","state":""#.to_vec();
    invalid_utf8.extend_from_slice(&[0xff, 0xfe, 0xc3]);
    invalid_utf8.extend_from_slice(br#""}"#);
    let twenty_mb = format!(r#"{{"model":"mo","state":"{}"}}"#, "x".repeat(20 << 20));
    let huge_state = json!({
        "model": "jev-latest",
        "state": {"message": "ticket 7 wants a refund. ".repeat(400_000)},
        "questions": {"urgent": {"type": "noul"}},
    });
    let decision = |what, content_type, body: Vec<u8>, status, code| Hostile {
        what,
        path: "/v1/decision".into(),
        content_type,
        body,
        status,
        code,
    };
    let json = "application/json";
    vec![
        decision(
            "nesting 100,000 levels deep",
            json,
            nested.into_bytes(),
            400,
            "bad_request",
        ),
        decision(
            "NaN",
            json,
            br#"{"model":"mo","state":NaN}"#.to_vec(),
            400,
            "bad_request",
        ),
        decision("invalid UTF-8", json, invalid_utf8, 400, "bad_request"),
        decision(
            "a repeated key",
            json,
            br#"{"model":"mo","model":"jev-latest","state":1}"#.to_vec(),
            422,
            "validation_error",
        ),
        decision(
            "a 20 MB body",
            json,
            twenty_mb.into_bytes(),
            413,
            "payload_too_large",
        ),
        decision(
            "a wrong content type",
            "text/plain",
            br#"{"model":"mo"}"#.to_vec(),
            415,
            "unsupported_media_type",
        ),
        decision(
            "a 10 MB state past the budget",
            json,
            serde_json::to_vec(&huge_state).unwrap(),
            422,
            "state_too_large",
        ),
        Hostile {
            what: "a truncated JSON array ingest",
            path: examples.to_owned(),
            content_type: json,
            body: br#"[{"state":1},"#.to_vec(),
            status: 400,
            code: "bad_request",
        },
    ]
}

/// The table of hostile inputs in `docs/src/reliability.md`, each answered with its problem
/// document (never a 5xx, never a bare status), and the server still serving after all of
/// them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hostile_inputs_each_get_their_problem() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");
    for hostile in hostile_requests(&examples) {
        let reply = server
            .send(
                server
                    .request(Method::POST, &hostile.path, Some(&token))
                    .header("content-type", hostile.content_type)
                    .body(hostile.body),
            )
            .await;
        assert_eq!(
            reply.status,
            hostile.status,
            "{}: {}",
            hostile.what,
            reply.text()
        );
        server.problem(&reply, hostile.status, hostile.code).await;
    }
    let listed = server.get(&examples, Some(&token)).await.ok();
    assert_eq!(listed["examples"], json!([]), "nothing was written");
    let reply = server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await;
    assert_eq!(reply.status, 200, "still serving: {}", reply.text());
}
