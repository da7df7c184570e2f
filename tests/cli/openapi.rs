//! `GET /openapi.json` from a real server is a valid `OpenAPI 3.1` document, as judged by
//! an independent validator: `openapi-spec-validator`, from the Python package index.

use serde_json::Value;
use std::process::{Command, Output};

const INSTALL: &str = "run `pip install openapi-spec-validator` (CI's .ci/run does)";

/// `python3 args…`; a missing Python or validator module fails the test with the fix.
fn python(args: &[&str]) -> Output {
    Command::new("python3")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run python3 ({e}): install Python 3, then {INSTALL}"))
}

fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// Serve the real router on `127.0.0.1:0` over a fresh home and fetch `/openapi.json`.
async fn fetch_document(
    home: std::path::PathBuf,
) -> (reqwest::StatusCode, reqwest::header::HeaderMap, String) {
    std::fs::create_dir_all(&home).unwrap();
    let settings = arbiter::config::Settings::resolve(Some(home)).expect("settings");
    let ctx = arbiter::core::Context::new(settings).expect("context");
    // Bound before the server starts, so the request below queues until it accepts.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(arbiter::server::serve(ctx, listener, async {
        let _ = stopped.await;
    }));
    let response = reqwest::get(format!("http://{addr}/openapi.json"))
        .await
        .expect("GET /openapi.json");
    let (status, headers) = (response.status(), response.headers().clone());
    let body = response.text().await.expect("body");
    let _ = stop.send(());
    server.await.expect("server task").expect("server");
    (status, headers, body)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn openapi_json_is_a_valid_openapi_3_1_document() {
    let probe = python(&["-c", "import openapi_spec_validator"]);
    assert!(
        probe.status.success(),
        "the Python module openapi_spec_validator is not installed: {INSTALL}\n{}",
        text(&probe)
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let (status, headers, body) = fetch_document(dir.path().join("home")).await;
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

    let file = dir.path().join("openapi.json");
    std::fs::write(&file, &body).unwrap();
    let file = file.to_str().expect("a UTF-8 temp path");
    let validated = python(&["-m", "openapi_spec_validator", file]);
    assert!(
        validated.status.success(),
        "openapi-spec-validator rejected /openapi.json ({}):\n{}",
        validated.status,
        text(&validated)
    );
}
