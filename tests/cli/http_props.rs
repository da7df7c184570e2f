//! A property: whatever a client sends to `POST /v1/decision`, the server never answers 5xx
//! ("a bad request never gets a 5xx"). One runtime and one server for all cases; each case
//! is a real HTTP request.

use crate::common::Reply;
use crate::common::TestEnv;
use crate::common::runtime;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;
use serde_json::{Map, Value};

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter_map("finite", |f| serde_json::Number::from_f64(f)
            .map(Value::Number)),
        "[ -~]{0,12}".prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("\\PC{0,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<String, Value>>())),
        ]
    })
}

/// Something shaped like a question, often valid, often not.
fn arb_question() -> impl Strategy<Value = Value> {
    let kind = prop_oneof![
        Just(Value::from("noul")),
        Just(Value::from("choice")),
        Just(Value::from("score")),
        arb_json(),
    ];
    let criteria = prop_oneof![
        arb_json(),
        prop::collection::vec(
            prop_oneof![arb_json(), "[ -~]{0,10}".prop_map(Value::from)],
            0..5
        )
        .prop_map(Value::Array),
        prop::collection::btree_map(
            "\\PC{0,5}",
            prop_oneof![
                Just(Value::Null),
                "[ -~]{0,10}".prop_map(Value::from),
                arb_json()
            ],
            0..4
        )
        .prop_map(|m| Value::Object(m.into_iter().collect())),
    ];
    (
        kind,
        prop::option::of(arb_json()),
        prop::option::of(criteria),
        prop::option::of(("[a-z]{1,6}", arb_json())),
    )
        .prop_map(|(kind, instructions, criteria, extra)| {
            let mut question = Map::new();
            question.insert("type".into(), kind);
            if let Some(instructions) = instructions {
                question.insert("instructions".into(), instructions);
            }
            if let Some(criteria) = criteria {
                question.insert("criteria".into(), criteria);
            }
            if let Some((key, value)) = extra {
                question.insert(key, value);
            }
            Value::Object(question)
        })
}

/// Something shaped like a decision request, over base and repository models.
fn arb_decision() -> impl Strategy<Value = Value> {
    let model = prop_oneof![
        Just(Value::from("mo")),
        Just(Value::from("mo-reasoning")),
        Just(Value::from("jev-1.13.0")),
        Just(Value::from("acme/support")),
        Just(Value::from("acme/missing")),
        Just(Value::from("")),
        arb_json(),
    ];
    let questions = prop_oneof![
        prop::collection::btree_map("\\PC{0,6}", arb_question(), 0..4)
            .prop_map(|m| Value::Object(m.into_iter().collect())),
        arb_json(),
    ];
    let extras = prop::collection::btree_map(
        prop_oneof![
            Just("example_id".to_owned()),
            Just("revision".to_owned()),
            Just("capture".to_owned()),
            "[a-z_]{1,8}"
        ],
        prop_oneof![
            arb_json(),
            Just(Value::from("main")),
            Just(Value::from(false)),
            "[ -~]{1,10}".prop_map(Value::from)
        ],
        0..3,
    );
    (
        prop::option::of(model),
        prop::option::of(arb_json()),
        prop::option::of(questions),
        extras,
    )
        .prop_map(|(model, state, questions, extras)| {
            let mut body = Map::new();
            if let Some(model) = model {
                body.insert("model".into(), model);
            }
            if let Some(state) = state {
                body.insert("state".into(), state);
            }
            if let Some(questions) = questions {
                body.insert("questions".into(), questions);
            }
            for (key, value) in extras {
                body.insert(key, value);
            }
            Value::Object(body)
        })
}

/// A question valid by the contract, with odd but legal IDs, keys and descriptions.
fn arb_valid_question() -> impl Strategy<Value = Value> {
    let description = prop_oneof![
        "\\PC{0,16}".prop_map(Value::from),
        arb_json().prop_filter("not null", |v| !v.is_null()),
    ];
    prop_oneof![
        prop::option::of(arb_json()).prop_map(|instructions| {
            let mut q = serde_json::json!({"type": "noul"});
            if let Some(instructions) = instructions {
                q["instructions"] = instructions;
            }
            q
        }),
        prop::collection::btree_map("\\PC{1,6}", prop_oneof![Just(Value::Null), description.clone()], 0..4)
            .prop_map(|options| serde_json::json!({"type": "choice", "criteria": Value::Object(options.into_iter().collect())})),
        prop::collection::vec(description, 1..5).prop_map(|levels| serde_json::json!({"type": "score", "criteria": levels})),
    ]
}

/// A request valid by the contract (base model, or the repository model).
fn arb_valid_decision() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("mo"), Just("mo-reasoning"), Just("service/mo"), Just("jev-latest")],
        arb_json(),
        prop::collection::btree_map("\\PC{0,6}", arb_valid_question(), 1..4),
        any::<bool>(),
    )
        .prop_map(|(model, state, questions, repository)| {
            let questions = Value::Object(questions.into_iter().collect());
            if repository {
                serde_json::json!({"model": "acme/support", "state": state, "questions": questions, "capture": false})
            } else {
                serde_json::json!({"model": model, "state": state, "questions": questions})
            }
        })
}

fn arb_body() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        4 => arb_valid_decision().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        4 => arb_decision().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        2 => arb_json().prop_map(|v| serde_json::to_vec(&v).unwrap()),
        1 => prop::collection::vec(any::<u8>(), 0..300),
        1 => "[ -~\\n]{0,80}".prop_map(String::into_bytes),
    ]
}

fn arb_content_type() -> impl Strategy<Value = Option<String>> {
    prop_oneof![
        16 => Just(Some("application/json".to_owned())),
        1 => Just(Some("application/json; charset=utf-8".to_owned())),
        1 => Just(Some("application/problem+json".to_owned())),
        1 => Just(Some("text/plain".to_owned())),
        1 => Just(Some("application/x-ndjson".to_owned())),
        1 => Just(None),
        1 => "[a-z]{1,8}/[a-z+.-]{1,12}(; [a-z]{1,5}=[a-z0-9]{1,5})?".prop_map(Some),
    ]
}

#[test]
fn decision_endpoint_never_answers_5xx() {
    let runtime = runtime();
    let (server, token) = runtime.block_on(async {
        let home = TestEnv::with_config(
            "server:\n  rate_limit:\n    per_second: 1000\n    burst: 100000\n",
        );
        home.model("acme/support");
        let token = home.token("t", &["decisions"], &["acme/*=reader"]);
        (home.serve().await, token)
    });
    let config = ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(
        body in arb_body(),
        content_type in arb_content_type(),
        key in prop_oneof![4 => Just(None), 1 => "[!-~]{0,12}".prop_map(Some)],
        path in prop_oneof![3 => Just("/v1/decision"), 1 => Just("/v1/systemone")],
    )| {
        let reply: Reply = runtime.block_on(async {
            let mut builder = server.request(reqwest::Method::POST, path, Some(&token)).body(body.clone());
            if let Some(content_type) = &content_type {
                builder = builder.header("content-type", content_type.as_str());
            }
            if let Some(key) = &key {
                builder = builder.header("idempotency-key", key.as_str());
            }
            server.send(builder).await
        });
        prop_assert!(
            reply.status < 500,
            "POST {} ({:?}) {:?} answered {}: {}",
            path,
            content_type,
            String::from_utf8_lossy(&body),
            reply.status,
            reply.text()
        );
        prop_assert!(reply.header("x-request-id").is_some());
        if reply.status != 200 {
            prop_assert_eq!(reply.header("content-type"), Some("application/problem+json"), "{}", reply.text());
        }
    });
    drop(server);
}
