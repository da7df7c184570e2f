//! Alignments, evaluations and promote over HTTP: 202 + `Location`, poll, the result, the
//! required `Idempotency-Key`, cancel, roles.

use crate::common::TestEnv;
use crate::common::TestServer;
use crate::common::{job_finished, wait_until_async};
use serde_json::{Value, json};
use std::time::Duration;

/// A server whose model `acme/support` has the first `n` labelled examples, annotated for
/// intent; with an admin token.
async fn server_with_annotations(n: usize) -> (TestServer, String, String) {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let request = arbiter::core::models::CreateModel {
        path: "acme/support".parse().unwrap(),
        base: "mo".into(),
        questions_yaml: Some(
            std::fs::read_to_string(
                crate::common::repo_root().join("examples/support/questions.yaml"),
            )
            .unwrap(),
        ),
        gates_yaml: None,
        capture: arbiter::core::model_files::CapturePolicy::default(),
        message: None,
    };
    let server = home.serve().await;
    let model_id = arbiter::core::models::create(server.ctx(), &request)
        .unwrap()
        .model_id;
    let lines = crate::align::labelled(n, &["intent"]);
    let reply = server
        .post_lines(
            &format!("/v1/models/{model_id}/examples"),
            Some(&token),
            lines,
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    (server, token, model_id.to_string())
}

async fn create(
    server: &TestServer,
    token: &str,
    route: &str,
    body: &Value,
    key: &str,
) -> (Value, String) {
    let reply = server
        .post_json_with(route, Some(token), body, &[("idempotency-key", key)])
        .await;
    assert_eq!(reply.status, 202, "{}", reply.text());
    let location = reply
        .header("location")
        .expect("a Location header")
        .to_owned();
    (reply.json(), location)
}

async fn wait(server: &TestServer, token: &str, location: &str) -> Value {
    wait_until_async(
        Duration::from_mins(4),
        Duration::from_millis(100),
        || async {
            let job = server.get(location, Some(token)).await.ok();
            if job_finished(&job) {
                Ok(job)
            } else {
                Err(format!("the job is {job}"))
            }
        },
    )
    .await
}

#[tokio::test]
async fn an_alignment_is_accepted_polled_evaluated_and_promoted() {
    let (server, token, model_id) = server_with_annotations(120).await;
    let route = format!("/v1/models/{model_id}/alignments");
    let body = json!({"questions": ["intent"], "seed": 3, "tune": false});
    let (job, location) = create(&server, &token, &route, &body, "align-key-0001").await;
    assert_eq!(job["kind"], "alignment");
    assert!(matches!(job["status"].as_str(), Some("queued" | "running")));
    let job_id = job["jobId"].as_str().unwrap();
    assert_eq!(location, format!("{route}/{job_id}"));
    // The same key and body: the same job; another body: 409.
    let (again, _) = create(&server, &token, &route, &body, "align-key-0001").await;
    assert_eq!(again["jobId"], job["jobId"]);
    let reused = server
        .post_json_with(
            &route,
            Some(&token),
            &json!({"seed": 4}),
            &[("idempotency-key", "align-key-0001")],
        )
        .await;
    server.problem(&reused, 409, "idempotency_key_reused").await;

    let done = wait(&server, &token, &location).await;
    assert_eq!(done["status"], "completed", "{done}");
    let result = &done["result"];
    assert_eq!(result["improved"], true, "{result}");
    let branch = result["branch"].as_str().unwrap();
    assert_eq!(branch, format!("alignments/{job_id}"));
    assert!(
        result["questions"]["intent"]["after"]["loss"].as_f64()
            < result["questions"]["intent"]["before"]["loss"].as_f64()
    );
    let listed = server.get(&route, Some(&token)).await.ok();
    assert_eq!(listed.as_array().map(Vec::len), Some(1));
    // Cancelling a finished alignment: 204, and it stays completed.
    let cancel = server
        .post_json(&format!("{location}/cancel"), Some(&token), &json!({}))
        .await;
    assert_eq!(cancel.status, 204, "{}", cancel.text());
    assert_eq!(
        server.get(&location, Some(&token)).await.ok()["status"],
        "completed"
    );

    // Evaluate the new checkpoint against the base.
    let eval_route = format!("/v1/models/{model_id}/evaluations");
    let (eval, eval_location) = create(
        &server,
        &token,
        &eval_route,
        &json!({"revision": branch, "baseline": "main"}),
        "eval-key-00001",
    )
    .await;
    assert_eq!(eval["kind"], "evaluation");
    assert_eq!(
        eval["progress"]["total"], 240,
        "120 examples at two checkpoints"
    );
    let evaluated = wait(&server, &token, &eval_location).await;
    let report = &evaluated["result"];
    assert_eq!(report["revision"]["name"], branch);
    assert_eq!(report["baseline"]["name"], "main");
    // Every example at both checkpoints; at the aligned one, the fitted examples by their
    // out-of-fold answers.
    let intent = &report["questions"]["intent"];
    assert_eq!(intent["metrics"]["examples"], 120, "{report}");
    assert_eq!(intent["baseline"]["examples"], 120, "{report}");
    assert_eq!(intent["outOfFold"]["examples"], 120, "{report}");
    assert_eq!(intent["excludedFitted"], 0, "{report}");
    assert!(
        intent["metrics"]["loss"].as_f64() < intent["baseline"]["loss"].as_f64(),
        "{report}"
    );

    // Promote: the default branch moves to the aligned checkpoint.
    let promoted = server
        .post_json(
            &format!("/v1/models/{model_id}/promote"),
            Some(&token),
            &json!({"revision": branch}),
        )
        .await
        .ok();
    assert_eq!(
        promoted["checkpointId"],
        result["checkpoint"]["checkpointId"]
    );
    let model = server
        .get(&format!("/v1/models/{model_id}"), Some(&token))
        .await
        .ok();
    assert_eq!(
        model["latestCheckpoint"]["checkpointId"],
        result["checkpoint"]["checkpointId"]
    );
    // Promoting the old base again is not a fast-forward.
    let base = result["baseCheckpoint"].as_str().unwrap();
    let behind = server
        .post_json(
            &format!("/v1/models/{model_id}/promote"),
            Some(&token),
            &json!({"revision": base}),
        )
        .await;
    server.problem(&behind, 409, "not_fast_forward").await;
}

#[tokio::test]
async fn alignment_requests_are_checked_before_a_job_exists() {
    let (server, token, model_id) = server_with_annotations(4).await;
    let route = format!("/v1/models/{model_id}/alignments");
    let missing_key = server.post_json(&route, Some(&token), &json!({})).await;
    let problem = server.problem(&missing_key, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["header", "Idempotency-Key"])
    );
    let bad = server
        .post_json_with(
            &route,
            Some(&token),
            &json!({"questions": ["intent", 3], "seed": "x", "extra": 1}),
            &[("idempotency-key", "align-key-0002")],
        )
        .await;
    let problem = server.problem(&bad, 422, "validation_error").await;
    let locs: Vec<&Value> = problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["loc"])
        .collect();
    assert_eq!(
        locs,
        [
            &json!(["body", "questions", 1]),
            &json!(["body", "seed"]),
            &json!(["body", "extra"])
        ]
    );
    let unknown = server
        .post_json_with(
            &route,
            Some(&token),
            &json!({"questions": ["nope"]}),
            &[("idempotency-key", "align-key-0003")],
        )
        .await;
    server.problem(&unknown, 422, "validation_error").await;
    let revision = server
        .post_json_with(
            &route,
            Some(&token),
            &json!({"revision": "v9"}),
            &[("idempotency-key", "align-key-0004")],
        )
        .await;
    server.problem(&revision, 404, "revision_not_found").await;
    let evaluation = server
        .post_json_with(
            &format!("/v1/models/{model_id}/evaluations"),
            Some(&token),
            &json!({"baseline": 7}),
            &[("idempotency-key", "eval-key-00002")],
        )
        .await;
    server.problem(&evaluation, 422, "validation_error").await;
    let promote = server
        .post_json(
            &format!("/v1/models/{model_id}/promote"),
            Some(&token),
            &json!({}),
        )
        .await;
    let problem = server.problem(&promote, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", "revision"]));
    assert_eq!(server.get(&route, Some(&token)).await.ok(), json!([]));
}

#[tokio::test]
async fn aligning_and_promoting_need_a_writer_and_the_alignments_scope() {
    let (server, admin, model_id) = server_with_annotations(4).await;
    let reader = server
        .home()
        .token("reader", &["alignments", "batches"], &["acme/*=reader"]);
    let no_scope = server
        .home()
        .token("batcher", &["batches"], &["acme/*=admin"]);
    let route = format!("/v1/models/{model_id}/alignments");
    let reply = server
        .post_json_with(
            &route,
            Some(&reader),
            &json!({}),
            &[("idempotency-key", "align-key-0005")],
        )
        .await;
    server.problem(&reply, 403, "forbidden").await;
    // Authorized before validated: without the key and with a bad body, still 403.
    let reply = server
        .post_json(&route, Some(&reader), &json!({"seed": "x"}))
        .await;
    server.problem(&reply, 403, "forbidden").await;
    for body in [json!({"revision": "main"}), json!({})] {
        let reply = server
            .post_json(
                &format!("/v1/models/{model_id}/promote"),
                Some(&reader),
                &body,
            )
            .await;
        server.problem(&reply, 403, "forbidden").await;
    }
    let reply = server
        .post_json_with(
            &route,
            Some(&no_scope),
            &json!({}),
            &[("idempotency-key", "align-key-0006")],
        )
        .await;
    server.problem(&reply, 403, "forbidden").await;
    // A reader may evaluate.
    let (_, location) = create(
        &server,
        &reader,
        &format!("/v1/models/{model_id}/evaluations"),
        &json!({}),
        "eval-key-00003",
    )
    .await;
    let done = wait(&server, &reader, &location).await;
    assert_eq!(done["status"], "completed", "{done}");
    assert_eq!(
        done["result"]["questions"]["intent"]["metrics"]["examples"],
        4
    );
    let _ = admin;
}

#[tokio::test]
async fn a_cancelled_alignment_commits_nothing() {
    let (server, token, model_id) = server_with_annotations(72).await;
    let route = format!("/v1/models/{model_id}/alignments");
    let (job, location) = create(
        &server,
        &token,
        &route,
        &json!({"seed": 1, "tune": false}),
        "align-key-0007",
    )
    .await;
    let cancel = server
        .post_json(&format!("{location}/cancel"), Some(&token), &json!({}))
        .await;
    assert_eq!(cancel.status, 204);
    let done = wait(&server, &token, &location).await;
    assert_eq!(done["status"], "cancelled", "{done}");
    assert_eq!(done["result"], Value::Null);
    let detail = server
        .get(&format!("/v1/models/{model_id}"), Some(&token))
        .await
        .ok();
    let branches: Vec<&str> = detail["branches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(branches, ["main"], "{}", job["jobId"]);
}

#[tokio::test]
async fn an_unsupervised_alignment_over_http_corrects_without_annotations() {
    let (server, token, model_id) = server_with_annotations(12).await;
    let route = format!("/v1/models/{model_id}/alignments");
    let refused = server
        .post_json_with(
            &route,
            Some(&token),
            &json!({"unsupervised": "yes"}),
            &[("idempotency-key", "unsup-key-0000")],
        )
        .await;
    let problem = server.problem(&refused, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "unsupervised"]),
        "{problem}"
    );
    let body = json!({"unsupervised": true, "questions": ["intent", "escalate"]});
    let (_, location) = create(&server, &token, &route, &body, "unsup-key-0001").await;
    let done = wait(&server, &token, &location).await;
    assert_eq!(done["status"], "completed", "{done}");
    let questions = &done["result"]["questions"];
    // Annotated for intent, but asked to correct without annotations: no gate, no figures.
    assert_eq!(
        questions["intent"]["candidate"], "unsupervised",
        "{questions}"
    );
    assert_eq!(questions["intent"]["states"], 12);
    assert!(questions["intent"].get("after").is_none(), "{questions}");
    assert_eq!(questions["escalate"]["improved"], false);
    assert!(done["result"]["branch"].is_string());
}

/// An evaluation's body may carry per-question gates (instead of the revision's
/// `gates.yaml`): the report carries them back as `questionGates` for the client to judge;
/// an unknown question or a value out of range is refused before any job exists.
#[tokio::test]
async fn an_evaluation_reports_the_gates_its_body_gives() {
    let (server, token, model_id) = server_with_annotations(12).await;
    let route = format!("/v1/models/{model_id}/evaluations");
    let gates = json!({"intent": {"accuracy": 0.5}, "*": {"max_ece": 0.2}});
    let body = json!({"questions": ["intent"], "gates": gates});
    let (_, location) = create(&server, &token, &route, &body, "gates-key-0001").await;
    let evaluated = wait(&server, &token, &location).await;
    assert_eq!(evaluated["status"], "completed", "{evaluated}");
    let reported = &evaluated["result"]["questionGates"];
    assert_eq!(reported["intent"]["accuracy"], 0.5, "{reported}");
    assert_eq!(reported["*"]["max_ece"], 0.2, "{reported}");
    for (key, gates, at) in [
        ("gates-key-0002", json!({"nope": {"accuracy": 0.5}}), "nope"),
        (
            "gates-key-0003",
            json!({"intent": {"accuracy": 2}}),
            "intent",
        ),
    ] {
        let reply = server
            .post_json_with(
                &route,
                Some(&token),
                &json!({"questions": ["intent"], "gates": gates}),
                &[("idempotency-key", key)],
            )
            .await;
        let problem = server.problem(&reply, 422, "validation_error").await;
        let loc = problem["details"][0]["loc"].to_string();
        assert!(loc.contains("gates") && loc.contains(at), "{problem}");
    }
}
