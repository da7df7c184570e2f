//! A model named in a URL: by `modelId`, by its path with the `/` encoded
//! (`acme%2Fsupport`), or by its path as written (`acme/support`); each answers the same.

use crate::common::TestEnv;
use crate::common::state;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_model_path_with_a_plain_slash_addresses_the_model() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let token = home.admin_token("t");
    let server = home.serve().await;
    let forms = [model_id.as_str(), "acme%2Fsupport", "acme/support"];
    for model in forms {
        let shown = server
            .get(&format!("/v1/models/{model}"), Some(&token))
            .await
            .ok();
        assert_eq!(
            (shown["path"].as_str(), shown["modelId"].as_str()),
            (Some("acme/support"), Some(model_id.as_str()))
        );
        // A query string survives.
        let log = server
            .get(
                &format!("/v1/models/{model}/checkpoints?limit=1"),
                Some(&token),
            )
            .await
            .ok();
        assert_eq!(log.as_array().map(Vec::len), Some(1), "{model}: {log}");
    }
    // Writes too, and deeper routes: ingest by the plain path, read back by every form.
    let ingest = server
        .post_json(
            "/v1/models/acme/support/examples",
            Some(&token),
            &json!([{"example_id": "e1", "state": state()}]),
        )
        .await;
    assert_eq!(ingest.ok()["created"], 1);
    for model in forms {
        let example = server
            .get(&format!("/v1/models/{model}/examples/e1"), Some(&token))
            .await
            .ok();
        assert_eq!(example["exampleId"], "e1", "{model}: {example}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_plain_form_keeps_auth_and_the_problems_of_the_encoded_one() {
    let home = TestEnv::new();
    home.model("acme/support");
    home.model("other/secret");
    let token = home.token("t", &["models:read"], &["acme/*=reader"]);
    let server = home.serve().await;
    // No token: 401, as for any /v1 route.
    let reply = server.get("/v1/models/acme/support", None).await;
    server.problem(&reply, 401, "unauthorized").await;
    // A model the token may not see is not found, named as asked, in either form.
    for model in ["other%2Fsecret", "other/secret"] {
        let reply = server
            .get(&format!("/v1/models/{model}"), Some(&token))
            .await;
        let problem = server.problem(&reply, 404, "model_not_found").await;
        assert!(
            problem["detail"].as_str().unwrap().contains("other/secret"),
            "{problem}"
        );
    }
    // A wrong method is 405 for the plain form too.
    let reply = server
        .send(server.request(
            reqwest::Method::DELETE,
            "/v1/models/acme/support",
            Some(&token),
        ))
        .await;
    server.problem(&reply, 405, "method_not_allowed").await;
    // A path that is no route says how to name a model.
    let reply = server
        .get("/v1/models/acme/support/nonsense", Some(&token))
        .await;
    let problem = server.problem(&reply, 404, "not_found").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("acme%2Fsupport") && detail.contains("modelId"),
        "{detail}"
    );
}
