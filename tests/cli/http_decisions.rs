//! Decisions, models and examples over HTTP.

use crate::common::TestEnv;
use crate::common::{base_request, repo_request, state};
use arbiter::core::model_files::CapturePolicy;
use reqwest::Method;
use serde_json::{Value, json};

fn is_sha(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|s| s.len() == 40 && s.bytes().all(|b| b.is_ascii_hexdigit()))
}

fn is_rfc3339(value: &Value) -> bool {
    value
        .as_str()
        .is_some_and(|s| chrono::DateTime::parse_from_rfc3339(s).is_ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn decision_and_systemone_answer_identically() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &["acme/*=reader"]);
    home.model_with(
        "acme/support",
        CapturePolicy {
            enabled: false,
            sample_rate: 1.0,
            retain_days: None,
        },
    );
    let server = home.serve().await;
    for body in [
        base_request("mo"),
        base_request("jev-latest"),
        repo_request("acme/support"),
    ] {
        let decision = server.post_json("/v1/decision", Some(&token), &body).await;
        let systemone = server.post_json("/v1/systemone", Some(&token), &body).await;
        assert_eq!(decision.status, 200, "{}", decision.text());
        assert_eq!(systemone.status, decision.status);
        assert_eq!(
            systemone.header("content-type"),
            decision.header("content-type")
        );
        assert_eq!(
            systemone.text(),
            decision.text(),
            "same request, same body on both paths"
        );
    }
    // The alias takes the same errors too.
    let reply = server
        .post_json(
            "/v1/systemone",
            Some(&token),
            &json!({"model": "mo", "state": 1}),
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", "questions"]));
    let reply = server
        .post_json("/v1/systemone", None, &base_request("mo"))
        .await;
    server.problem(&reply, 401, "unauthorized").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn base_decision_response_shape() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let mut body = base_request("service/mo");
    // Question IDs are any string, the empty one included; answers come back in request order.
    body["questions"][""] = json!({"type": "choice", "criteria": {}});
    body["questions"]["is it urgent?"] =
        json!({"type": "noul", "criteria": {"true": "urgent", "false": null}});
    let response = server
        .post_json("/v1/decision", Some(&token), &body)
        .await
        .ok();
    assert_eq!(response["model"], "service/mo");
    let answers = response["answers"]
        .as_object()
        .expect("answers is an object keyed by question ID");
    assert_eq!(
        answers.keys().collect::<Vec<_>>(),
        ["intent", "urgency", "escalate", "", "is it urgent?"]
    );
    let intent = &answers["intent"];
    assert_eq!(intent["type"], "choice");
    let probabilities = intent["probabilities"].as_object().unwrap();
    assert_eq!(
        probabilities.keys().collect::<Vec<_>>(),
        ["refund", "technical", "shipping"]
    );
    let best = probabilities.iter().fold((None, -1.0), |(k, p), (key, q)| {
        let q = q.as_f64().unwrap();
        if q > p {
            (Some(key.as_str()), q)
        } else {
            (k, p)
        }
    });
    assert_eq!(
        intent["choice"].as_str(),
        best.0,
        "choice is the argmax: {response}"
    );
    let sum: f64 = probabilities.values().map(|p| p.as_f64().unwrap()).sum();
    assert!((sum - 1.0).abs() < 1e-9, "{sum}");
    assert!(
        intent["confidence"]
            .as_f64()
            .is_some_and(|c| (0.0..=1.0).contains(&c))
    );
    let urgency = &answers["urgency"];
    assert_eq!(urgency["type"], "score");
    assert!(
        urgency["score"]
            .as_f64()
            .is_some_and(|s| (0.0..=4.0).contains(&s))
    );
    assert_eq!(
        urgency["legend"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["0", "1", "2", "3", "4"]
    );
    assert_eq!(answers["escalate"]["type"], "noul");
    assert!(
        answers["escalate"]["noul"]
            .as_f64()
            .is_some_and(|p| (0.0..=1.0).contains(&p))
    );
    // A choice without options: no choice, no probabilities, confidence 0 (a JSON number).
    assert_eq!(answers[""]["type"], "choice");
    assert_eq!(answers[""]["choice"], Value::Null);
    assert_eq!(answers[""]["probabilities"], json!({}));
    assert_eq!(answers[""]["confidence"].as_f64(), Some(0.0), "{response}");
    assert_eq!(answers[""].as_object().unwrap().len(), 4, "{response}");
    assert_eq!(answers["is it urgent?"]["type"], "noul");
    assert!(
        response["usage"]["input_tokens"].is_u64(),
        "input_tokens is a JSON integer: {response}"
    );
    assert!(response["usage"]["input_tokens"].as_u64().unwrap() > 0);
    assert!(
        response["usage"]["output_tokens"].is_u64(),
        "output_tokens is a JSON integer: {response}"
    );
    for member in ["revision", "checkpoint", "recorded", "example", "decision"] {
        assert!(
            response.get(member).is_none(),
            "a base-model decision has no {member}: {response}"
        );
    }
    // Repository-only members are refused for a base model.
    let mut with_revision = base_request("mo");
    with_revision["revision"] = json!("main");
    let reply = server
        .post_json("/v1/decision", Some(&token), &with_revision)
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", "revision"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repository_decision_reports_revision_checkpoint_and_capture() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token(
        "t",
        &["decisions", "examples:read", "models:read"],
        &["acme/*=reader"],
    );
    let server = home.serve().await;
    let first = server
        .post_json("/v1/decision", Some(&token), &repo_request("acme/support"))
        .await
        .ok();
    assert_eq!(first["model"], "acme/support");
    assert_eq!(
        first["answers"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["intent", "urgency", "escalate"]
    );
    assert_eq!(first["revision"]["name"], "main");
    assert_eq!(first["revision"]["kind"], "branch");
    assert!(is_sha(&first["revision"]["commit"]), "{first}");
    assert_eq!(
        first["checkpoint"]["checkpointId"],
        first["revision"]["commit"]
    );
    assert!(is_rfc3339(&first["checkpoint"]["createdAt"]), "{first}");
    assert!(first["checkpoint"]["message"].is_string());
    assert_eq!(first["recorded"], true);
    let example_id = first["example"]["exampleId"].as_str().unwrap().to_owned();
    assert!(
        example_id.starts_with("ex_") && example_id.len() == 35,
        "{example_id}"
    );
    assert_eq!(first["example"]["created"], true);
    assert!(
        first["decision"]["decisionId"]
            .as_str()
            .is_some_and(|d| !d.is_empty())
    );
    assert!(is_rfc3339(&first["decision"]["createdAt"]), "{first}");
    assert!(first["usage"]["input_tokens"].is_u64());

    // The same state with its keys reordered is the same example.
    let reordered: Value = serde_json::from_str(
        r#"{"state": {"messages": [{"content": "my card was charged twice for the same order, I want one of them refunded", "role": "user"}]}, "model": "acme/support"}"#,
    )
    .unwrap();
    let second = server
        .post_json("/v1/decision", Some(&token), &reordered)
        .await
        .ok();
    assert_eq!(second["example"]["exampleId"], example_id.as_str());
    assert_eq!(second["example"]["created"], false);
    assert_ne!(
        second["decision"]["decisionId"],
        first["decision"]["decisionId"]
    );

    // Pinning the commit resolves as a commit.
    let commit = first["revision"]["commit"].as_str().unwrap();
    let pinned = json!({"model": "acme/support", "state": state(), "revision": &commit[..12], "example_id": "mine", "capture": true});
    let pinned = server
        .post_json("/v1/decision", Some(&token), &pinned)
        .await
        .ok();
    assert_eq!(pinned["revision"]["kind"], "commit");
    assert_eq!(pinned["revision"]["commit"], commit);
    assert_eq!(
        pinned["example"],
        json!({"exampleId": "mine", "created": true})
    );
    assert_eq!(
        pinned["answers"], first["answers"],
        "same checkpoint, same state, same answers"
    );

    // capture: false records nothing.
    let skip = json!({"model": "acme/support", "state": {"other": "state"}, "capture": false});
    let skip = server
        .post_json("/v1/decision", Some(&token), &skip)
        .await
        .ok();
    assert_eq!(skip["recorded"], false);
    assert!(
        skip.get("example").is_none() && skip.get("decision").is_none(),
        "{skip}"
    );
    assert!(
        skip.get("revision").is_some() && skip.get("checkpoint").is_some(),
        "{skip}"
    );

    // Supplied questions override and extend the saved ones for this call.
    let extended = json!({"model": "acme/support", "state": state(), "capture": false,
        "questions": {"extra": {"type": "noul"}, "intent": {"type": "choice", "criteria": {"a": null, "b": null}}}});
    let extended = server
        .post_json("/v1/decision", Some(&token), &extended)
        .await
        .ok();
    assert_eq!(
        extended["answers"]
            .as_object()
            .unwrap()
            .keys()
            .collect::<Vec<_>>(),
        ["intent", "urgency", "escalate", "extra"]
    );
    assert_eq!(
        extended["answers"]["intent"]["probabilities"]
            .as_object()
            .unwrap()
            .len(),
        2
    );

    // What was captured is visible through the examples routes.
    let example = server
        .get(
            &format!("/v1/models/{model_id}/examples/{example_id}"),
            Some(&token),
        )
        .await
        .ok();
    assert_eq!(example["exampleId"], example_id.as_str());
    assert_eq!(example["state"], state());
    let decisions = example["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 2, "{example}");
    assert_eq!(decisions[0]["decisionId"], first["decision"]["decisionId"]);
    assert_eq!(decisions[0]["answers"], first["answers"]);
    assert_eq!(
        decisions[0]["checkpoint"],
        first["checkpoint"]["checkpointId"]
    );
    let page = server
        .get(&format!("/v1/models/{model_id}/examples"), Some(&token))
        .await
        .ok();
    assert_eq!(
        page["examples"].as_array().unwrap().len(),
        2,
        "the capture: false state was not stored: {page}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_policy_off_records_nothing() {
    let home = TestEnv::new();
    let model_id = home.model_with(
        "acme/quiet",
        CapturePolicy {
            enabled: false,
            sample_rate: 1.0,
            retain_days: None,
        },
    );
    let token = home.admin_token("t");
    let server = home.serve().await;
    let response = server
        .post_json("/v1/decision", Some(&token), &repo_request("acme/quiet"))
        .await
        .ok();
    assert_eq!(response["recorded"], false);
    let page = server
        .get(&format!("/v1/models/{model_id}/examples"), Some(&token))
        .await
        .ok();
    assert_eq!(page["examples"], json!([]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn models_list_shows_base_models_and_only_visible_repository_models() {
    let home = TestEnv::new();
    let support_id = home.model("acme/support");
    let billing_id = home.model("acme/billing");
    home.model("other/hidden");
    let token = home.token("t", &["models:read"], &["acme/*=reader"]);
    let none = home.token("none", &["models:read"], &[]);
    let server = home.serve().await;
    let list = server.get("/v1/models", Some(&token)).await.ok();
    let models = list["models"].as_array().expect("models array");
    let names: Vec<&str> = models
        .iter()
        .map(|m| m["name"].as_str().expect("every model has a name"))
        .collect();
    assert_eq!(
        names,
        [
            "mo",
            "mo-reasoning",
            "service/mo",
            "service/mo-reasoning",
            "jev-latest",
            "jev-1.13.0",
            "acme/billing",
            "acme/support"
        ]
    );
    for model in &models[..6] {
        assert_eq!(model["kind"], "base", "{model}");
    }
    for (model, id) in models[6..].iter().zip([&billing_id, &support_id]) {
        assert_eq!(model["kind"], "repository", "{model}");
        assert_eq!(model["modelId"], id.as_str());
        assert_eq!(model["path"], model["name"]);
        assert_eq!(model["defaultBranch"], "main");
        assert!(is_rfc3339(&model["createdAt"]), "{model}");
        for key in model.as_object().unwrap().keys() {
            // `release_date` is the one name System One clients read as it is.
            assert!(
                !key.contains('_') || key == "release_date",
                "resource fields are camelCase: {key} in {model}"
            );
        }
        assert!(model["description"].is_null(), "{model}");
        // The date of its latest checkpoint (the commit at its default branch), in UTC.
        let detail = server
            .get(&format!("/v1/models/{id}"), Some(&token))
            .await
            .ok();
        let committed = chrono::DateTime::parse_from_rfc3339(
            detail["latestCheckpoint"]["createdAt"].as_str().unwrap(),
        )
        .unwrap()
        .with_timezone(&chrono::Utc);
        assert_eq!(
            model["release_date"],
            committed.format("%Y-%m-%d").to_string(),
            "{model}"
        );
    }
    for model in &models[..6] {
        assert!(model["description"].is_string(), "{model}");
        // Every base model is on the built-in engine here: its version's release date.
        assert_eq!(
            model["release_date"],
            arbiter::engine::builtin::RELEASE_DATE,
            "{model}"
        );
    }
    let list = server.get("/v1/models", Some(&none)).await.ok();
    assert_eq!(
        list["models"].as_array().unwrap().len(),
        6,
        "no roles, only base models: {list}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn model_detail_and_checkpoints() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token("t", &["models:read"], &["acme/support=reader"]);
    let server = home.serve().await;
    let detail = server
        .get(&format!("/v1/models/{model_id}"), Some(&token))
        .await
        .ok();
    assert_eq!(detail["modelId"], model_id.as_str());
    assert_eq!(detail["path"], "acme/support");
    assert_eq!(detail["defaultBranch"], "main");
    assert_eq!(detail["base"], "mo");
    assert_eq!(
        detail["capture"],
        json!({"enabled": true, "sampleRate": 1.0})
    );
    assert_eq!(
        detail["questions"],
        json!(["intent", "urgency", "escalate"])
    );
    assert_eq!(detail["branches"][0]["name"], "main");
    assert!(
        is_sha(&detail["latestCheckpoint"]["checkpointId"]),
        "{detail}"
    );
    let checkpoints = server
        .get(&format!("/v1/models/{model_id}/checkpoints"), Some(&token))
        .await
        .ok();
    let checkpoints = checkpoints.as_array().expect("an array of checkpoints");
    assert_eq!(checkpoints.len(), 1);
    assert_eq!(
        checkpoints[0]["checkpointId"],
        detail["latestCheckpoint"]["checkpointId"]
    );
    assert!(is_rfc3339(&checkpoints[0]["createdAt"]));
    let reply = server
        .get(
            &format!("/v1/models/{model_id}/checkpoints?revision=nope"),
            Some(&token),
        )
        .await;
    server.problem(&reply, 404, "revision_not_found").await;
    // By path instead of modelId is not a route (path has a slash); garbage IDs are not found.
    let reply = server.get("/v1/models/not-a-uuid", Some(&token)).await;
    server.problem(&reply, 404, "model_not_found").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn examples_ingest_list_show_and_annotate() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token(
        "w",
        &["examples:read", "examples:write"],
        &["acme/*=writer"],
    );
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");
    let batch = json!([
        {"example_id": "a", "state": {"text": "refund please"}, "annotations": {"intent": {"answer": "refund", "reasoning": "money back"}}},
        {"example_id": "b", "state": {"text": "where is my parcel"}},
        {"state": {"text": "derived id"}},
    ]);
    let report = server.post_json(&examples, Some(&token), &batch).await.ok();
    assert_eq!(report["committed"], true, "{report}");
    assert_eq!(report["created"], 3, "{report}");
    assert_eq!(report["annotations"], 1, "{report}");
    assert_eq!(report["rejected"], json!([]));
    // Ingesting again creates nothing new.
    let again = server.post_json(&examples, Some(&token), &batch).await.ok();
    assert_eq!(
        (again["created"].clone(), again["existing"].clone()),
        (json!(0), json!(3)),
        "{again}"
    );

    let all = server.get(&examples, Some(&token)).await.ok();
    assert_eq!(all["examples"].as_array().unwrap().len(), 3, "{all}");
    let annotated = server
        .get(&format!("{examples}?annotated=true"), Some(&token))
        .await
        .ok();
    let ids: Vec<&str> = annotated["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["exampleId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["a"], "{annotated}");
    let unannotated = server
        .get(&format!("{examples}?annotated=false"), Some(&token))
        .await
        .ok();
    assert_eq!(
        unannotated["examples"].as_array().unwrap().len(),
        2,
        "{unannotated}"
    );
    let paged = server
        .get(&format!("{examples}?limit=1"), Some(&token))
        .await
        .ok();
    assert_eq!(paged["examples"].as_array().unwrap().len(), 1);
    let cursor = paged["nextCursor"]
        .as_str()
        .expect("a next cursor")
        .to_owned();
    let next = server
        .get(&format!("{examples}?limit=1&after={cursor}"), Some(&token))
        .await
        .ok();
    assert_ne!(
        next["examples"][0]["exampleId"],
        paged["examples"][0]["exampleId"]
    );

    let one = server
        .get(&format!("{examples}/a"), Some(&token))
        .await
        .ok();
    assert_eq!(one["exampleId"], "a");
    assert_eq!(one["state"], json!({"text": "refund please"}));
    assert_eq!(one["annotations"]["intent"]["answer"], "refund");
    assert_eq!(one["annotations"]["intent"]["reasoning"], "money back");
    assert!(is_rfc3339(&one["createdAt"]));
    assert_eq!(one["decisions"], json!([]));

    // PATCH: a map of question ID to {answer, reasoning?}, all checked before any is written.
    let patched = server
        .patch_json(
            &format!("{examples}/b/annotations"),
            Some(&token),
            &json!({"intent": {"answer": "shipping", "reasoning": "parcel"}, "urgency": {"answer": 1}, "escalate": {"answer": false}}),
        )
        .await
        .ok();
    assert_eq!(patched["exampleId"], "b");
    assert_eq!(patched["annotations"]["intent"]["answer"], "shipping");
    assert_eq!(patched["annotations"]["urgency"]["answer"], 1);
    assert_eq!(patched["annotations"]["escalate"]["answer"], false);
    assert!(patched["annotations"]["urgency"].get("reasoning").is_none());
    assert!(
        is_rfc3339(&patched["annotations"]["intent"]["annotatedAt"]),
        "{patched}"
    );

    // Invalid answers: 422, and nothing written.
    for bad in [
        json!({"intent": {"answer": "not-an-option"}}),
        json!({"urgency": {"answer": 5}}),
        json!({"escalate": {"answer": 1.5}}),
        json!({"nope": {"answer": true}}),
        json!({"intent": {"reasoning": "no answer"}}),
        json!({"escalate": {"answer": true}, "intent": {"answer": 3}}),
        json!(["not", "a", "map"]),
    ] {
        let reply = server
            .patch_json(&format!("{examples}/a/annotations"), Some(&token), &bad)
            .await;
        server.problem(&reply, 422, "validation_error").await;
    }
    let unchanged = server
        .get(&format!("{examples}/a"), Some(&token))
        .await
        .ok();
    assert_eq!(
        unchanged["annotations"], one["annotations"],
        "a rejected PATCH writes nothing"
    );

    // A bad array element is reported, and with ?atomic=true nothing is written.
    let mixed = json!([{"example_id": "c", "state": 1}, {"example_id": "d"}]);
    let report = server.post_json(&examples, Some(&token), &mixed).await.ok();
    assert_eq!(report["created"], 1);
    assert_eq!(report["rejected"][0]["line"], 2, "{report}");
    let mixed = json!([{"example_id": "e", "state": 1}, {"example_id": "f"}]);
    let reply = server
        .post_json(&format!("{examples}?atomic=true"), Some(&token), &mixed)
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", 1]),
        "{problem}"
    );
    let reply = server.get(&format!("{examples}/e"), Some(&token)).await;
    server.problem(&reply, 404, "example_not_found").await;
    // A JSON body must be an array.
    let reply = server
        .post_json(
            &examples,
            Some(&token),
            &json!({"example_id": "x", "state": 1}),
        )
        .await;
    server.problem(&reply, 422, "validation_error").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn examples_ingest_ndjson() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token(
        "w",
        &["examples:read", "examples:write"],
        &["acme/*=writer"],
    );
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");
    let lines = concat!(
        r#"{"example_id": "n1", "state": {"text": "refund"}, "annotations": {"escalate": {"answer": true}}}"#,
        "\n",
        "\n",
        r#"{"example_id": "n2", "state": {"text": "parcel"}}"#,
        "\n",
        r#"not json"#,
        "\n",
    );
    for content_type in ["application/x-ndjson", "application/jsonl"] {
        let reply = server
            .send(
                server
                    .request(Method::POST, &examples, Some(&token))
                    .header("content-type", content_type)
                    .body(lines),
            )
            .await;
        let report = reply.ok();
        assert_eq!(report["committed"], true, "{content_type}: {report}");
        assert_eq!(
            report["rejected"].as_array().unwrap().len(),
            1,
            "{content_type}: {report}"
        );
        assert_eq!(
            report["rejected"][0]["line"], 4,
            "{content_type}: line numbers count blank lines: {report}"
        );
    }
    let one = server
        .get(&format!("{examples}/n1"), Some(&token))
        .await
        .ok();
    assert_eq!(one["annotations"]["escalate"]["answer"], true);
    let annotated = server
        .get(&format!("{examples}?annotated=true"), Some(&token))
        .await
        .ok();
    assert_eq!(annotated["examples"].as_array().unwrap().len(), 1);
    // Not JSON and not NDJSON: 415.
    let reply = server
        .send(
            server
                .request(Method::POST, &examples, Some(&token))
                .header("content-type", "text/csv")
                .body("a,b"),
        )
        .await;
    server.problem(&reply, 415, "unsupported_media_type").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn examples_routes_check_scopes_and_roles() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let read_only_scope = home.token("r", &["examples:read"], &["acme/*=admin"]);
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");
    server.get(&examples, Some(&read_only_scope)).await.ok();
    let reply = server
        .post_json(&examples, Some(&read_only_scope), &json!([{"state": 1}]))
        .await;
    server.problem(&reply, 403, "forbidden").await;
    let reply = server
        .get(&format!("/v1/models/{model_id}"), Some(&read_only_scope))
        .await;
    server.problem(&reply, 403, "forbidden").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_keyed_ingest_replays_its_report_and_annotations_come_in_bulk() {
    let home = TestEnv::new();
    home.model("acme/support");
    let token = home.token(
        "w",
        &["examples:read", "examples:write"],
        &["acme/*=writer"],
    );
    let server = home.serve().await;
    let examples = "/v1/models/acme%2Fsupport/examples";
    let post = |path: &str, body: &'static str, key: Option<&'static str>| {
        let mut builder = server
            .request(Method::POST, path, Some(&token))
            .header("content-type", "application/x-ndjson")
            .body(body);
        if let Some(key) = key {
            builder = builder.header("idempotency-key", key);
        }
        server.send(builder)
    };
    let lines = "{\"example_id\": \"k1\", \"state\": {\"text\": \"refund\"}}\n{\"example_id\": \"k2\", \"state\": 2}\n";
    let first = post(examples, lines, Some("chunk-key-0001")).await.ok();
    assert_eq!(first["created"], 2, "{first}");
    let replay = post(examples, lines, Some("chunk-key-0001")).await;
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        replay.ok(),
        first,
        "a retried chunk reports what it did the first time"
    );
    let unkeyed = post(examples, lines, None).await.ok();
    assert_eq!(unkeyed["existing"], 2, "{unkeyed}");

    let annotations = concat!(
        r#"{"example_id": "k1", "question": "intent", "answer": "refund", "reasoning": "money"}"#,
        "\n",
        r#"{"example_id": "k2", "question": "urgency", "answer": 9}"#,
        "\n",
        r#"{"example_id": "nope", "question": "escalate", "answer": true}"#,
        "\n",
    );
    let report = post("/v1/models/acme%2Fsupport/annotations", annotations, None)
        .await
        .ok();
    assert_eq!(report["annotations"], 1, "{report}");
    let rejected: Vec<u64> = report["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["line"].as_u64().unwrap())
        .collect();
    assert_eq!(rejected, [2, 3], "{report}");
    let k1 = server
        .get(&format!("{examples}/k1"), Some(&token))
        .await
        .ok();
    assert_eq!(k1["annotations"]["intent"]["reasoning"], "money");

    // A choice answer given as a number names the option of that text.
    home_model_with_numeric_options(&server, &token).await;
}

/// PATCH a numeric answer to a choice whose options are numbers as text.
async fn home_model_with_numeric_options(server: &crate::common::TestServer, token: &str) {
    let questions = "tier:\n  type: choice\n  criteria: {\"1\": low, \"2\": high}\n";
    arbiter::core::models::commit(
        server.ctx(),
        &arbiter::core::models::CommitRequest {
            questions_yaml: Some(questions.into()),
            ..arbiter::core::models::CommitRequest::new(
                "acme/support".parse().unwrap(),
                "numeric options",
            )
        },
    )
    .unwrap();
    let reply = server
        .patch_json(
            "/v1/models/acme%2Fsupport/examples/k1/annotations",
            Some(token),
            &json!({"tier": {"answer": 2}}),
        )
        .await;
    let detail = reply.ok();
    assert_eq!(detail["annotations"]["tier"]["answer"], "2", "{detail}");
}

/// A key repeated in one object is refused where it repeats, whatever the body: the server
/// never guesses which of two `model`s or `capture`s the caller meant.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_keys_are_refused_at_the_key() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.token(
        "w",
        &["decisions", "examples:read", "examples:write", "batches"],
        &["acme/*=writer"],
    );
    let server = home.serve().await;
    let post_text = |path: &str, content_type: &'static str, body: &'static str| {
        server
            .request(Method::POST, path, Some(&token))
            .header("content-type", content_type)
            .body(body)
    };
    for (body, loc) in [
        (
            r#"{"model":"jev-latest","model":"acme/support","state":1,"questions":{"q":{"type":"noul"}}}"#,
            json!(["body", "model"]),
        ),
        (
            r#"{"model":"acme/support","state":{"text":"x"},"capture":false,"capture":true}"#,
            json!(["body", "capture"]),
        ),
        (
            r#"{"model":"mo","state":{"a":[{"b":1,"b":2}]},"questions":{"q":{"type":"noul"}}}"#,
            json!(["body", "state", "a", 0, "b"]),
        ),
    ] {
        let reply = server
            .send(post_text("/v1/decision", "application/json", body))
            .await;
        let problem = server.problem(&reply, 422, "validation_error").await;
        assert_eq!(problem["details"][0]["loc"], loc, "{body}: {problem}");
        assert_eq!(problem["details"][0]["type"], "duplicate_key", "{problem}");
    }
    let examples = format!("/v1/models/{model_id}/examples");
    let count = || async {
        server.get(&examples, Some(&token)).await.ok()["examples"]
            .as_array()
            .unwrap()
            .len()
    };
    assert_eq!(count().await, 0, "the refused decisions recorded nothing");

    // A batch's first NDJSON line is located at line 0.
    let reply = server
        .send(
            post_text(
                &format!("/v1/models/{model_id}/batch-decisions"),
                "application/x-ndjson",
                "{\"capture\":true,\"capture\":false}\n{\"state\":1}\n",
            )
            .header("idempotency-key", "0b9e2c4e-3a55-4d7c-9d0e-2f1b7c3a9e11"),
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", 0, "capture"]));

    // An ingest line with a repeated key is rejected alone; a JSON array body whole.
    let reply = server
        .send(post_text(
            &examples,
            "application/x-ndjson",
            "{\"example_id\":\"a\",\"state\":1}\n{\"example_id\":\"b\",\"example_id\":\"c\",\"state\":2}\n",
        ))
        .await;
    let report = reply.ok();
    assert_eq!(report["rejected"].as_array().unwrap().len(), 1, "{report}");
    assert_eq!(report["rejected"][0]["line"], 2, "{report}");
    assert!(
        report["rejected"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("example_id"),
        "{report}"
    );
    let reply = server
        .send(post_text(
            &examples,
            "application/json",
            r#"[{"example_id":"d","state":1,"state":2}]"#,
        ))
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", 0, "state"]));
    assert_eq!(
        count().await,
        1,
        "only line 1 of the NDJSON body was stored"
    );
}
