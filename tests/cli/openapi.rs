//! `GET /openapi.json` from a real server is a valid `OpenAPI 3.1` document, as judged by the
//! official meta-schema (vendored under `tests/data/openapi-3.1/`, see its README), and is
//! the committed `openapi.json`. Only Rust is needed: no Python validator.

use crate::common::TestEnv;
use crate::common::repo_root;
use serde_json::Value;

const REGENERATE: &str = "cargo run -- openapi --out openapi.json";

/// Serve the real router over a fresh home and fetch `/openapi.json`.
async fn fetch_document() -> (u16, reqwest::header::HeaderMap, String) {
    let server = TestEnv::new().serve().await;
    let reply = server.get("/openapi.json", None).await;
    let body = reply.text();
    server.stop().await;
    (reply.status, reply.headers, body)
}

/// Every error `validator` finds in `instance`, one per line with its location.
fn errors(validator: &jsonschema::Validator, instance: &Value) -> Vec<String> {
    validator
        .iter_errors(instance)
        .map(|error| format!("at {}: {error}", error.instance_path()))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_json_is_a_valid_openapi_3_1_document() {
    let (status, headers, body) = fetch_document().await;
    assert_eq!(status, 200, "{body}");
    assert!(
        headers
            .get("content-type")
            .is_some_and(|v| v.as_bytes().starts_with(b"application/json")),
        "content-type: {:?}",
        headers.get("content-type")
    );
    assert!(
        headers.contains_key("x-request-id"),
        "no x-request-id on /openapi.json"
    );
    let document: Value =
        serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    assert!(
        document["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1")),
        "openapi is {}, not 3.1",
        document["openapi"]
    );
    for path in [
        "/v1/decision",
        "/v1/models/{modelId}/examples/{exampleId}/annotations",
        "/problems/{code}",
    ] {
        assert!(
            document["paths"][path].is_object(),
            "{path} is not described"
        );
    }

    let meta: Value = serde_json::from_str(
        &std::fs::read_to_string(repo_root().join("tests/data/openapi-3.1/schema.json"))
            .expect("the vendored OpenAPI 3.1 meta-schema"),
    )
    .expect("the meta-schema is JSON");
    let validator = jsonschema::draft202012::new(&meta).expect("the meta-schema compiles");
    let found = errors(&validator, &document);
    assert!(
        found.is_empty(),
        "/openapi.json is not a valid OpenAPI 3.1 document:\n{}",
        found.join("\n")
    );

    // Each component schema is a JSON Schema 2020-12 schema (OpenAPI 3.1's default dialect).
    let schemas = document["components"]["schemas"]
        .as_object()
        .expect("component schemas");
    for (name, schema) in schemas {
        if let Err(error) = jsonschema::draft202012::meta::validate(schema) {
            panic!("schema {name} is not a valid 2020-12 schema: {error}");
        }
    }

    let committed = std::fs::read_to_string(repo_root().join("openapi.json"))
        .unwrap_or_else(|e| panic!("openapi.json is missing ({e}); run `{REGENERATE}`"));
    let committed: Value = serde_json::from_str(&committed).expect("openapi.json is JSON");
    assert!(
        committed == document,
        "openapi.json is stale; run `{REGENERATE}`"
    );
}
