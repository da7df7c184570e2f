//! The validation passes and the derived schemas agree: each request body a validator
//! accepts is valid under its type's schema (as the server's document publishes it), and
//! each it refuses is not. A schema that drifted from its validator fails here, before a
//! client or a fuzzer finds it.

use super::align::EvaluationRequest;
use super::align::{
    AlignmentRequest, DEFAULT_MARGIN, DEFAULT_MAX_EXAMPLES, MAX_WHOLE, MIN_EXAMPLES,
};
use super::decision::DecisionRequest;
use super::jobs::BatchRequest;
use super::to_annotate::ToAnnotateBody;
use crate::limits::{
    MAX_EXAMPLE_ID_CHARS, MAX_OPTION_KEY_CHARS, MAX_OPTIONS, MAX_QUESTION_ID_CHARS, MAX_QUESTIONS,
    MAX_REVISION_CHARS, MAX_TEXT_CHARS,
};
use serde_json::{Value, json};
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

/// A JSON Schema (2020-12) validator for `T`'s schema, its components under `$defs`.
fn validator<T: utoipa::ToSchema>() -> (jsonschema::Validator, Value) {
    let mut components: Vec<(String, RefOr<Schema>)> = Vec::new();
    T::schemas(&mut components);
    let mut root = serde_json::to_value(T::schema()).unwrap();
    let defs: serde_json::Map<String, Value> = components
        .into_iter()
        .map(|(name, schema)| (name, serde_json::to_value(schema).unwrap()))
        .collect();
    root["$defs"] = Value::Object(defs);
    let text = root
        .to_string()
        .replace("#/components/schemas/", "#/$defs/");
    let root: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&root)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}\n{root:#}", T::name()));
    (validator, root)
}

/// Every body in `bodies` is accepted by `validate` exactly when `T`'s schema accepts it.
fn agree<T: utoipa::ToSchema>(bodies: &[Value], validate: impl Fn(&Value) -> bool) {
    let (schema, root) = validator::<T>();
    for body in bodies {
        let by_schema = schema.is_valid(body);
        let by_validator = validate(body);
        assert_eq!(
            by_schema,
            by_validator,
            "{}: the schema {} {body}, the validator {} it\nschema: {root:#}",
            T::name(),
            if by_schema { "accepts" } else { "refuses" },
            if by_validator { "accepts" } else { "refuses" },
        );
    }
}

fn questions() -> Vec<Value> {
    vec![
        json!({"q": {"type": "noul"}}),
        json!({"": {"type": "noul", "instructions": null, "criteria": null}}),
        json!({"q": {"type": "noul", "criteria": {"true": "yes", "false": null}}}),
        json!({"q": {"type": "noul", "criteria": {"true": {"a": 1}, "false": ["x"]}}}),
        json!({"q": {"type": "choice", "criteria": {}}}),
        json!({"q": {"type": "choice", "criteria": {"a": null, "b": ["x", {"y": 1}]}, "instructions": 7}}),
        json!({"q": {"type": "score", "criteria": ["low", {"level": "mid"}, ["high"]]}}),
        // Faults.
        json!({}),
        json!([]),
        json!({"q": "text"}),
        json!({"q": {"type": "maybe"}}),
        json!({"q": {"criteria": {}}}),
        json!({"q": {"type": "noul", "extra": 1}}),
        json!({"q": {"type": "noul", "criteria": {"maybe": "x"}}}),
        json!({"q": {"type": "noul", "criteria": {"true": 3}}}),
        json!({"q": {"type": "noul", "criteria": "x"}}),
        json!({"q": {"type": "choice"}}),
        json!({"q": {"type": "choice", "criteria": {"": "empty"}}}),
        json!({"q": {"type": "choice", "criteria": {"a": 3}}}),
        json!({"q": {"type": "choice", "criteria": ["a"]}}),
        json!({"q": {"type": "score", "criteria": []}}),
        json!({"q": {"type": "score", "criteria": ["a", null]}}),
        json!({"q": {"type": "score", "criteria": [true]}}),
        json!({"q": {"type": "score"}}),
        json!({"q": {"type": "noul"}, "r": {"type": "score", "criteria": [1]}}),
        // Limits: at each, and one past it.
        json!({"q": {"type": "noul", "instructions": "é".repeat(MAX_TEXT_CHARS)}}),
        json!({"q": {"type": "noul", "instructions": "é".repeat(MAX_TEXT_CHARS + 1)}}),
        json!({"q": {"type": "noul", "criteria": {"true": "x".repeat(MAX_TEXT_CHARS)}}}),
        json!({"q": {"type": "noul", "criteria": {"true": "x".repeat(MAX_TEXT_CHARS + 1)}}}),
        json!({"q": {"type": "score", "criteria": ["x".repeat(MAX_TEXT_CHARS + 1)]}}),
        json!({"q": {"type": "choice", "criteria": {"a": "x".repeat(MAX_TEXT_CHARS + 1)}}}),
        json!({"q": {"type": "choice", "criteria": keyed(1, MAX_OPTION_KEY_CHARS)}}),
        json!({"q": {"type": "choice", "criteria": keyed(1, MAX_OPTION_KEY_CHARS + 1)}}),
        json!({"q": {"type": "choice", "criteria": keyed(MAX_OPTIONS, 4)}}),
        json!({"q": {"type": "choice", "criteria": keyed(MAX_OPTIONS + 1, 4)}}),
        json!({"q": {"type": "score", "criteria": vec!["x"; MAX_OPTIONS]}}),
        json!({"q": {"type": "score", "criteria": vec!["x"; MAX_OPTIONS + 1]}}),
        noul_questions(MAX_QUESTIONS, 4),
        noul_questions(MAX_QUESTIONS + 1, 4),
        noul_questions(1, MAX_QUESTION_ID_CHARS),
        noul_questions(1, MAX_QUESTION_ID_CHARS + 1),
        // No NUL in what is stored: a question ID, an option key.
        json!({"a\u{0}b": {"type": "noul"}}),
        json!({"q": {"type": "choice", "criteria": {"a\u{0}": null}}}),
        json!({"q\u{1}": {"type": "choice", "criteria": {"a\u{1f}": null}}}),
    ]
}

/// `count` distinct keys of `chars` characters each, to null.
fn keyed(count: usize, chars: usize) -> Value {
    (0..count)
        .map(|i| (format!("{i:0>chars$}"), Value::Null))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

/// `count` noul questions whose IDs are `chars` characters long.
fn noul_questions(count: usize, chars: usize) -> Value {
    let Value::Object(keys) = keyed(count, chars) else {
        unreachable!()
    };
    keys.into_iter()
        .map(|(id, _)| (id, json!({"type": "noul"})))
        .collect::<serde_json::Map<_, _>>()
        .into()
}

#[test]
fn decision_requests() {
    let mut bodies: Vec<Value> = questions()
        .into_iter()
        .map(|questions| json!({"model": "acme/support", "state": {"text": "x"}, "questions": questions}))
        .collect();
    bodies.extend([
        json!({"model": "acme/support", "state": null}),
        json!({"model": "acme/support", "state": 1, "example_id": "e", "revision": "main", "capture": false}),
        json!({"model": "acme/support", "state": 1, "example_id": null, "revision": null, "capture": null}),
        json!({"model": "acme/support", "state": 1, "unknown": "members are ignored"}),
        json!({"model": "", "state": 1}),
        json!({"model": 3, "state": 1}),
        json!({"state": 1}),
        json!({"model": "mo"}),
        json!({"model": "acme/support", "state": 1, "example_id": ""}),
        json!({"model": "acme/support", "state": 1, "example_id": "x".repeat(256)}),
        json!({"model": "acme/support", "state": 1, "revision": ""}),
        json!({"model": "acme/support", "state": 1, "revision": "é".repeat(MAX_REVISION_CHARS)}),
        json!({"model": "acme/support", "state": 1, "revision": "é".repeat(MAX_REVISION_CHARS + 1)}),
        json!({"model": "acme/support", "state": 1, "example_id": "é".repeat(MAX_EXAMPLE_ID_CHARS)}),
        json!({"model": "acme/support", "state": 1, "example_id": "a\u{0}b"}),
        json!({"model": "acme/support", "state": 1, "revision": "\u{0}"}),
        json!({"model": "acme/support", "state": "NUL in a state is kept: \u{0}"}),
        json!({"model": "acme/support", "state": 1, "capture": "yes"}),
        json!({"model": "acme/support", "state": 1, "questions": null}),
        json!([1]),
    ]);
    agree::<DecisionRequest>(&bodies, |body| DecisionRequest::read(body).is_ok());
}

#[test]
fn batch_requests() {
    let mut bodies: Vec<Value> = questions()
        .into_iter()
        .map(|questions| json!({"examples": "all", "questions": questions}))
        .collect();
    bodies.extend([
        json!({"items": []}),
        json!({"items": [{"state": 1}, "a bad item fails alone", 3]}),
        json!({"items": [], "capture": true, "revision": "main"}),
        json!({"items": [], "capture": null, "revision": null, "questions": null}),
        json!({"examples": "annotated"}),
        json!({"examples": "some"}),
        json!({"items": [], "examples": "all"}),
        json!({}),
        json!({"items": {}}),
        json!({"items": [], "capture": "yes"}),
        json!({"items": [], "revision": ""}),
        json!({"items": [], "revision": "x".repeat(MAX_REVISION_CHARS + 1)}),
        json!({"items": [], "revision": "ma\u{0}in"}),
        json!({"items": [], "extra": 1}),
        json!({"items": [], "working_questions": null}),
        json!({"items": [], "working_questions": []}),
        json!("text"),
    ]);
    bodies.extend(
        questions()
            .into_iter()
            .map(|questions| json!({"examples": "all", "working_questions": questions})),
    );
    agree::<BatchRequest>(&bodies, |body| BatchRequest::read(body).is_ok());
}

#[test]
fn alignment_and_evaluation_requests() {
    let bodies = [
        json!({}),
        json!({"revision": "main", "questions": ["a", ""], "seed": 7, "margin": 0.5, "max_examples": 10}),
        json!({"revision": null, "questions": null, "seed": null, "margin": null, "max_examples": null}),
        json!({"margin": 0}),
        json!({"margin": 1}),
        json!({"margin": -0.1}),
        json!({"seed": -1}),
        json!({"seed": 1.5}),
        json!({"seed": 12_135_902.0, "max_examples": 10.0}),
        json!({"max_examples": 9.0}),
        json!({"seed": 9_007_199_254_740_991_u64, "max_examples": 9_007_199_254_740_991_u64}),
        json!({"seed": 9_007_199_254_740_992_u64}),
        json!({"max_examples": 9_007_199_254_740_992_u64}),
        json!({"seed": 9_223_372_036_854_775_808_u64}),
        json!({"max_examples": 9}),
        json!({"questions": []}),
        json!({"questions": [1]}),
        json!({"revision": ""}),
        json!({"revision": 3}),
        json!({"revision": "x".repeat(MAX_REVISION_CHARS + 1)}),
        json!({"revision": "ma\u{0}in"}),
        json!({"baseline": "v1"}),
        json!({"extra": 1}),
        json!([]),
    ];
    agree::<AlignmentRequest>(&bodies, |body| AlignmentRequest::read(body).is_ok());
    agree::<EvaluationRequest>(&bodies, |body| EvaluationRequest::read(body).is_ok());
    let working: Vec<Value> = questions()
        .into_iter()
        .map(|questions| json!({"revision": "main", "working_questions": questions}))
        .chain([
            json!({"working_questions": null}),
            json!({"working_questions": 1}),
        ])
        .collect();
    agree::<EvaluationRequest>(&working, |body| EvaluationRequest::read(body).is_ok());
}

/// The body of `POST …/examples-to-annotate`: a working copy's questions, required.
#[test]
fn to_annotate_bodies() {
    let mut bodies: Vec<Value> = questions()
        .into_iter()
        .map(|questions| json!({"working_questions": questions}))
        .collect();
    bodies.extend([
        json!({}),
        json!({"working_questions": null}),
        json!({"working_questions": {}, "extra": 1}),
        json!([]),
    ]);
    agree::<ToAnnotateBody>(&bodies, |body| ToAnnotateBody::read(body).is_ok());
}

/// The defaults the document states are the ones the validators apply.
#[test]
fn documented_defaults_are_the_applied_ones() {
    let (_, root) = validator::<AlignmentRequest>();
    let properties = &root["properties"];
    assert_eq!(properties["seed"]["default"], json!(0));
    assert_eq!(properties["margin"]["default"], json!(DEFAULT_MARGIN));
    assert_eq!(
        properties["max_examples"]["default"],
        json!(DEFAULT_MAX_EXAMPLES)
    );
    assert_eq!(properties["max_examples"]["minimum"], json!(MIN_EXAMPLES));
    for member in ["seed", "max_examples"] {
        assert_eq!(properties[member]["maximum"], json!(MAX_WHOLE), "{member}");
    }
    let applied = AlignmentRequest::read(&json!({})).unwrap();
    assert_eq!(applied, AlignmentRequest::default());
}

/// A client's serialized request is what the server's validator reads back.
#[test]
fn serialized_requests_read_back_the_same() {
    let body = json!({
        "model": "acme/support", "state": {"a": [1, {"b": null}]},
        "questions": {
            "n": {"type": "noul", "instructions": null, "criteria": {"true": "yes"}},
            "c": {"type": "choice", "criteria": {"b": null, "a": "first"}},
            "s": {"type": "score", "criteria": ["0", {"k": "v"}]}
        },
        "example_id": "e-1", "revision": "main", "capture": true
    });
    let request = DecisionRequest::read(&body).unwrap();
    assert_eq!(serde_json::to_value(&request).unwrap(), body);
    for body in [
        json!({"items": [{"state": 1}], "capture": true, "revision": "v1"}),
        json!({"examples": "annotated", "questions": {"q": {"type": "noul"}}, "capture": false}),
    ] {
        let request = BatchRequest::read(&body).unwrap();
        let written = serde_json::to_value(&request).unwrap();
        assert_eq!(BatchRequest::read(&written).unwrap(), request);
    }
}

#[test]
fn promote_schema_and_validator_agree() {
    use super::models::PromoteRequest;
    let bodies = [
        json!({"revision": "main"}),
        json!({"revision": "alignments/x", "other": 1}),
        json!({"revision": "main", "evaluation": "0190a4c2-0000-7000-8000-000000000000"}),
        json!({"revision": "main", "evaluation": ""}),
        json!({"revision": "main", "evaluation": 3}),
        json!({"revision": ""}),
        json!({"revision": "x".repeat(MAX_REVISION_CHARS + 1)}),
        json!({"revision": "ma\u{0}in"}),
        json!({"revision": 7}),
        json!({"revision": null}),
        json!({}),
        json!([]),
        json!("main"),
    ];
    agree::<PromoteRequest>(&bodies, |body| PromoteRequest::read(body).is_ok());
}

/// An enum's name in a table or a stored column is its name on the wire.
#[test]
fn enum_names_are_their_serialized_names() {
    use crate::wire::decision::RevisionKind;
    use crate::wire::models::ModelKind;
    for kind in [
        RevisionKind::Branch,
        RevisionKind::Tag,
        RevisionKind::Commit,
    ] {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
    }
    for kind in [ModelKind::Base, ModelKind::Repository] {
        assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
    }
}
