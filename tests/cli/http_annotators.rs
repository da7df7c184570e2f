//! Annotators over HTTP: the annotator is the token's name (a line of a file may name its
//! own), each keeps their answer, and the annotation-agreement route measures them.

use crate::common::TestEnv;
use crate::common::state;
use crate::examples::votes;
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_annotator_is_the_tokens_name() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let writer = |name: &str| {
        home.token(
            name,
            &["examples:read", "examples:write"],
            &["acme/*=writer"],
        )
    };
    let (alice, bob) = (writer("alice"), writer("bob"));
    let reader = home.token("auditor", &["examples:read"], &["acme/*=reader"]);
    let no_scope = home.token("models-only", &["models:read"], &["acme/*=admin"]);
    let stranger = home.token("stranger", &["examples:read"], &["other/*=admin"]);
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");

    // An ingest by alice: annotations that name no annotator are hers; one names its own.
    let lines = [
        json!({"example_id": "e1", "state": state(), "annotations": {"intent": {"answer": "refund"}}}),
        json!({"example_id": "e2", "state": {"t": 2}, "annotations": {"intent": [
            {"answer": "shipping", "annotator": "vendor"}, {"answer": "shipping"}]}}),
    ]
    .map(|line| line.to_string())
    .join("\n");
    let report = server.post_lines(&examples, Some(&alice), lines).await.ok();
    assert_eq!(report["annotations"], 3, "{report}");
    let e2 = server
        .get(&format!("{examples}/e2"), Some(&alice))
        .await
        .ok();
    assert_eq!(
        votes(&e2["annotations"]["intent"]),
        [
            ("vendor".to_owned(), json!("shipping")),
            ("alice".to_owned(), json!("shipping"))
        ]
    );

    // Bob disagrees on e1: both answers kept, the tie goes to the latest (his).
    let patch = format!("{examples}/e1/annotations");
    let done = server
        .patch_json(
            &patch,
            Some(&bob),
            &json!({"intent": {"answer": "technical"}}),
        )
        .await
        .ok();
    let intent = &done["annotations"]["intent"];
    assert_eq!(
        (&intent["answer"], &intent["annotator"]),
        (&json!("technical"), &json!("bob"))
    );
    assert_eq!(
        votes(intent),
        [
            ("alice".to_owned(), json!("refund")),
            ("bob".to_owned(), json!("technical"))
        ]
    );
    // Alice answering again replaces only her own answer: now they agree.
    let done = server
        .patch_json(
            &patch,
            Some(&alice),
            &json!({"intent": {"answer": "technical"}}),
        )
        .await
        .ok();
    assert_eq!(
        votes(&done["annotations"]["intent"]),
        [
            ("bob".to_owned(), json!("technical")),
            ("alice".to_owned(), json!("technical"))
        ]
    );
    // A PATCH cannot name someone else: said where it was tried, and nothing written.
    let reply = server
        .patch_json(
            &patch,
            Some(&bob),
            &json!({"escalate": {"answer": true, "annotator": "alice"}}),
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "escalate", "annotator"])
    );
    // A bulk annotation line without an annotator is the token's.
    let report = server
        .post_lines(
            &format!("/v1/models/{model_id}/annotations"),
            Some(&bob),
            r#"{"example_id": "e1", "question": "escalate", "answer": false}"#.to_owned(),
        )
        .await
        .ok();
    assert_eq!(report["annotations"], 1, "{report}");
    let e1 = server
        .get(&format!("{examples}/e1"), Some(&reader))
        .await
        .ok();
    assert_eq!(
        votes(&e1["annotations"]["escalate"]),
        [("bob".to_owned(), json!(false))]
    );

    // Agreement: a reader may ask. Two examples have two annotators each, three
    // annotators in all: Fleiss' kappa; they agree on both, beyond the even split of chance.
    let agreement = format!("/v1/models/{model_id}/annotation-agreement");
    let report = server.get(&agreement, Some(&reader)).await.ok();
    assert_eq!(report["model"], "acme/support");
    let intent = &report["questions"]["intent"];
    assert_eq!(intent["method"], "fleiss", "{report}");
    assert_eq!(
        (&intent["examples"], &intent["sharedExamples"]),
        (&json!(2), &json!(2))
    );
    assert_eq!(
        (
            &intent["observedAgreement"],
            &intent["expectedAgreement"],
            &intent["kappa"]
        ),
        (&json!(1.0), &json!(0.5), &json!(1.0)),
        "{intent}"
    );
    assert_eq!(
        intent["annotators"],
        json!([
            {"annotator": "alice", "examples": 2},
            {"annotator": "bob", "examples": 1},
            {"annotator": "vendor", "examples": 1},
        ])
    );
    let one = server
        .get(&format!("{agreement}?question=escalate"), Some(&reader))
        .await
        .ok();
    assert_eq!(one["questions"].as_object().unwrap().len(), 1, "{one}");
    assert_eq!(
        one["questions"]["escalate"]["reason"],
        "one annotator (bob): agreement needs two"
    );
    let reply = server
        .get(&format!("{agreement}?question=nope"), Some(&reader))
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["query", "question"]));
    let reply = server.get(&agreement, Some(&no_scope)).await;
    server.problem(&reply, 403, "forbidden").await;
    let reply = server.get(&agreement, Some(&stranger)).await;
    server.problem(&reply, 404, "model_not_found").await;
    let reply = server.get(&agreement, None).await;
    server.problem(&reply, 401, "unauthorized").await;
}
