use super::*;
use serde_json::Value;

fn parsed() -> Value {
    serde_json::from_str(&document()).expect("the document is JSON")
}

/// `(method, path, operation)` for every operation in the document.
fn operations(doc: &Value) -> Vec<(String, String, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, operation) in item.as_object().expect("path item") {
            out.push((method.clone(), path.clone(), operation.clone()));
        }
    }
    out
}

/// Every `$ref` in `value`.
fn refs<'a>(value: &'a Value, out: &mut Vec<&'a str>) {
    match value {
        Value::Object(map) => {
            for (key, value) in map {
                match (key.as_str(), value) {
                    ("$ref", Value::String(target)) => out.push(target),
                    _ => refs(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[test]
fn is_openapi_3_1() {
    let doc = parsed();
    assert!(
        doc["openapi"]
            .as_str()
            .is_some_and(|v| v.starts_with("3.1")),
        "{}",
        doc["openapi"]
    );
    assert_eq!(doc["info"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(doc["info"]["title"], "Arbiter");
}

/// The route table describes every operation of the interface, each with its own ID.
#[test]
fn lists_every_operation() {
    let doc = parsed();
    let mut described: Vec<(String, String)> = operations(&doc)
        .into_iter()
        .map(|(method, path, _)| (method, path))
        .collect();
    described.sort();
    let models = "/v1/models/{modelId}";
    let mut expected: Vec<(String, String)> = [
        ("post", "/v1/decision".to_owned()),
        ("post", "/v1/systemone".to_owned()),
        ("get", "/v1/models".to_owned()),
        ("get", models.to_owned()),
        ("get", format!("{models}/checkpoints")),
        ("get", format!("{models}/history")),
        ("get", format!("{models}/diff")),
        ("get", format!("{models}/examples")),
        ("post", format!("{models}/examples")),
        ("get", format!("{models}/examples-to-annotate")),
        ("post", format!("{models}/examples-to-annotate")),
        ("get", format!("{models}/examples/{{exampleId}}")),
        ("delete", format!("{models}/examples/{{exampleId}}")),
        (
            "patch",
            format!("{models}/examples/{{exampleId}}/annotations"),
        ),
        (
            "delete",
            format!("{models}/examples/{{exampleId}}/annotations/{{questionId}}"),
        ),
        ("post", format!("{models}/annotations")),
        ("get", format!("{models}/annotation-agreement")),
        ("post", format!("{models}/annotation-claims")),
        (
            "delete",
            format!("{models}/annotation-claims/{{exampleId}}"),
        ),
        ("get", format!("{models}/batch-decisions")),
        ("post", format!("{models}/batch-decisions")),
        ("get", format!("{models}/batch-decisions/{{jobId}}")),
        ("get", format!("{models}/batch-decisions/{{jobId}}/results")),
        ("post", format!("{models}/batch-decisions/{{jobId}}/cancel")),
        ("get", format!("{models}/alignments")),
        ("post", format!("{models}/alignments")),
        ("get", format!("{models}/alignments/{{jobId}}")),
        ("post", format!("{models}/alignments/{{jobId}}/cancel")),
        ("post", format!("{models}/promote")),
        ("post", format!("{models}/alignment-plan")),
        ("delete", format!("{models}/branches/{{branch}}")),
        ("get", format!("{models}/evaluations")),
        ("post", format!("{models}/evaluations")),
        ("get", format!("{models}/evaluations/{{jobId}}")),
        ("post", format!("{models}/evaluations/{{jobId}}/cancel")),
        ("get", "/v1/jobs".to_owned()),
        ("get", "/v1/jobs/{jobId}".to_owned()),
        ("post", "/v1/jobs/{jobId}/cancel".to_owned()),
        ("get", "/v1/jobs/{jobId}/results".to_owned()),
        ("get", "/openapi.json".to_owned()),
        ("get", "/healthz".to_owned()),
        ("get", "/problems/{code}".to_owned()),
    ]
    .into_iter()
    .map(|(method, path)| (method.to_owned(), path))
    .collect();
    expected.sort();
    assert_eq!(described, expected);
    let mut ids: Vec<String> = operations(&doc)
        .iter()
        .map(|(method, path, op)| {
            op["operationId"]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} has no operationId"))
                .to_owned()
        })
        .collect();
    ids.sort();
    let count = ids.len();
    ids.dedup();
    assert_eq!(ids.len(), count, "operation IDs repeat: {ids:?}");
}

/// Each path parameter of a path is declared once, by its name in the path.
#[test]
fn path_parameters_match_their_paths() {
    let doc = parsed();
    for (method, path, operation) in operations(&doc) {
        let mut in_path: Vec<&str> = path
            .split('/')
            .filter_map(|s| s.strip_prefix('{').and_then(|s| s.strip_suffix('}')))
            .collect();
        let mut declared: Vec<&str> = operation["parameters"]
            .as_array()
            .map(|parameters| {
                parameters
                    .iter()
                    .filter(|p| p["in"] == "path")
                    .filter_map(|p| p["name"].as_str())
                    .collect()
            })
            .unwrap_or_default();
        in_path.sort_unstable();
        declared.sort_unstable();
        assert_eq!(declared, in_path, "{method} {path}");
    }
}

#[test]
fn every_reference_resolves() {
    let doc = parsed();
    let mut targets = Vec::new();
    refs(&doc, &mut targets);
    assert!(!targets.is_empty());
    for target in targets {
        let pointer = target
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("external $ref {target}"));
        assert!(
            doc.pointer(pointer).is_some(),
            "$ref {target} does not resolve"
        );
    }
}

#[test]
fn schemas_come_from_the_contract_types() {
    let doc = parsed();
    let schemas = &doc["components"]["schemas"];
    for name in [
        "DecisionRequest",
        "Question",
        "DecisionResponse",
        "Answer",
        "Usage",
        "Problem",
        "FieldError",
        "ModelList",
        "ModelDetail",
        "Checkpoint",
        "ExamplePage",
        "ExampleDetail",
        "IngestReport",
        "Job",
        "BatchRequest",
        "BatchItem",
        "BatchResultLine",
        "AlignmentRequest",
        "EvaluationRequest",
        "PromoteRequest",
        "AnnotationsPatch",
    ] {
        assert!(schemas[name].is_object(), "schema {name} is missing");
    }
    for (schema, kind) in [
        ("NoulQuestion", "noul"),
        ("ChoiceQuestion", "choice"),
        ("ScoreQuestion", "score"),
    ] {
        let tag = schemas[schema]["properties"]["type"]["$ref"]
            .as_str()
            .unwrap();
        let tag = &schemas[tag.rsplit('/').next().unwrap()];
        assert_eq!(tag["enum"], serde_json::json!([kind]), "{schema}");
        assert!(
            schemas["Question"]["oneOf"]
                .as_array()
                .unwrap()
                .iter()
                .any(|v| v["$ref"] == format!("#/components/schemas/{schema}")),
            "{schema} is one of Question's forms"
        );
    }
    let required = schemas["DecisionRequest"]["required"]
        .as_array()
        .expect("required members");
    assert!(
        required.contains(&"model".into()) && required.contains(&"state".into()),
        "{required:?}"
    );
    assert!(schemas["Problem"]["properties"]["requestId"].is_object());
}

#[test]
fn every_response_carries_a_request_id_and_errors_are_problems() {
    let doc = parsed();
    for (method, path, operation) in operations(&doc) {
        let authenticated = path.starts_with("/v1/");
        let responses = operation["responses"].as_object().expect("responses");
        for (status, response) in responses {
            let at = format!("{method} {path} {status}");
            assert!(
                response["headers"]["x-request-id"].is_object(),
                "{at}: no x-request-id"
            );
            if !status.starts_with('2') {
                let schema = &response["content"]["application/problem+json"]["schema"]["$ref"];
                assert_eq!(schema, "#/components/schemas/Problem", "{at}");
            }
        }
        let shared: &[&str] = if authenticated {
            &["401", "403", "429", "500"]
        } else {
            &["500"]
        };
        for status in shared {
            assert!(
                responses.contains_key(*status),
                "{method} {path}: no {status}"
            );
        }
        assert_eq!(
            operation["security"].is_array(),
            authenticated,
            "{method} {path}: security"
        );
    }
}

/// An error response names the problem codes it answers with, and each is a real one (it
/// has a problem page); its example carries the first.
#[test]
fn errors_name_real_problem_codes() {
    let doc = parsed();
    let known: Vec<&str> = crate::wire::ProblemCode::VARIANTS
        .iter()
        .map(|code| code.as_str())
        .collect();
    for (method, path, operation) in operations(&doc) {
        for (status, response) in operation["responses"].as_object().expect("responses") {
            if status.starts_with('2') {
                continue;
            }
            let at = format!("{method} {path} {status}");
            let description = response["description"].as_str().expect("description");
            let (_, listed) = description
                .split_once(": ")
                .unwrap_or_else(|| panic!("{at}: {description}"));
            let (codes, _) = listed
                .split_once(": ")
                .unwrap_or_else(|| panic!("{at}: no codes in {description}"));
            let codes: Vec<&str> = codes.split(", ").map(|c| c.trim_matches('`')).collect();
            for code in &codes {
                assert!(known.iter().any(|k| k == code), "{at}: unknown code {code}");
            }
            let example = &response["content"]["application/problem+json"]["example"];
            assert_eq!(example["code"], codes[0], "{at}");
            assert_eq!(example["status"].as_u64(), status.parse().ok(), "{at}");
        }
    }
}

/// The router serves each documented operation at its documented path: without a token a
/// `/v1` operation answers 401 (not 404 "no such route" or 405), a public one 200.
#[tokio::test]
async fn the_router_serves_every_documented_operation() {
    use tower::ServiceExt;
    let (_dir, ctx) = crate::core::test_support::home();
    let app = crate::server::router(ctx, "127.0.0.1:8080".parse().unwrap());
    let doc = parsed();
    for (method, path, _) in operations(&doc) {
        let uri = path
            .replace("{modelId}", "acme%2Fsupport")
            .replace("{exampleId}", "ex_1")
            .replace("{jobId}", "0e7d7c1e-8f2a-4d59-9a55-5b0a2a6f9d11")
            .replace("{code}", "internal");
        let request = axum::http::Request::builder()
            .method(method.to_uppercase().as_str())
            .uri(&uri)
            .body(axum::body::Body::empty())
            .unwrap();
        let status = app.clone().oneshot(request).await.unwrap().status();
        let expected = if path.starts_with("/v1/") { 401 } else { 200 };
        assert_eq!(status.as_u16(), expected, "{method} {uri}");
    }
}

/// Each limit the document can state, it states where [`crate::limits::TABLE`] says, with
/// the constant's figure (the derive's attributes take only literals: this is what ties
/// them to the constants).
#[test]
fn the_document_states_each_limit_as_the_constants_say() {
    let doc = parsed();
    for limit in crate::limits::TABLE {
        for pointer in limit.in_openapi {
            assert_eq!(
                doc.pointer(pointer).and_then(Value::as_u64),
                Some(limit.value as u64),
                "{}: {pointer}",
                limit.what
            );
        }
    }
}
