use super::*;
use serde_json::json;

fn reason_of(result: Validated<impl fmt::Debug>) -> String {
    reason(&result.unwrap_err())
}

#[test]
fn an_ingest_line_is_read_with_its_annotations() {
    let line = json!({"example_id": "e", "state": {"t": 1}, "annotations": {
        "a": {"answer": true, "annotator": "ann"},
        "b": [{"answer": 1}, {"answer": 2, "reasoning": "why", "annotator": "bob"}]}});
    let example = IngestExample::read(&line).unwrap();
    assert_eq!(example.example_id.as_deref(), Some("e"));
    assert!(
        matches!(&example.annotations["a"], IngestAnnotations::One(one)
        if one.annotator.as_deref() == Some("ann"))
    );
    assert!(
        matches!(&example.annotations["b"], IngestAnnotations::Many(many)
        if many.len() == 2 && many[1].reasoning.as_deref() == Some("why"))
    );
    let bare = IngestExample::read(&json!({"state": 1, "annotations": null})).unwrap();
    assert!(bare.example_id.is_none() && bare.annotations.is_empty());
}

#[test]
fn an_ingest_line_says_every_fault_where_it_is() {
    assert_eq!(
        reason_of(IngestExample::read(&json!([1]))),
        "an example must be an object, not an array"
    );
    assert_eq!(
        reason_of(IngestExample::read(&json!({"example_id": "", "extra": 1}))),
        "state: state is required; example_id: example_id may not be empty; \
         extra: unknown member `extra` (known: example_id, state, annotations)"
    );
    let line = json!({"state": 1, "annotations": {
        "a": [{"answer": true, "annotator": "x"}, {"answer": false, "annotator": "x"}],
        "b": {"answer": true, "annotator": 7},
        "c": [],
        "d": {"reasoning": "a\u{0}b"}}});
    assert_eq!(
        reason_of(IngestExample::read(&line)),
        "annotations.a[1].annotator: `x` answers twice; an annotator has one answer; \
         annotations.b.annotator: annotator must be a string, not a number; \
         annotations.c: an empty list; give at least one annotation, or none at all; \
         annotations.d.reasoning: reasoning contains a NUL character (U+0000), which is \
         never stored; annotations.d.answer: answer is required"
    );
}

#[test]
fn an_annotation_line_says_every_fault_where_it_is() {
    let line = AnnotationLine::read(&json!({"example_id": "e", "question": "q",
        "answer": 1, "reasoning": "r", "annotator": "ann"}))
    .unwrap();
    assert_eq!(line.annotation.reasoning.as_deref(), Some("r"));
    assert_eq!(line.annotator.as_deref(), Some("ann"));
    assert_eq!(
        reason_of(AnnotationLine::read(
            &json!({"example_id": 1, "annotator": " "})
        )),
        "question: question is required (a question ID); answer: answer is required; \
         example_id: example_id must be a string, not a number; \
         annotator: an annotator's name may not be empty"
    );
    assert_eq!(
        reason_of(AnnotationLine::read(&json!("e"))),
        "an annotation line must be an object, not a string"
    );
    // A name that only looks blank is blank: a zero-width space, a joiner, a BOM.
    for looks_blank in ["\u{200b}", " \u{200d}\u{feff} ", "\u{2060}"] {
        let read = AnnotationLine::read(&json!({"example_id": "e", "question": "q",
            "answer": 1, "annotator": looks_blank}));
        assert!(
            reason_of(read).contains("an annotator's name may not be empty"),
            "{looks_blank:?}"
        );
    }
}

#[test]
fn a_patch_says_every_fault_at_its_question() {
    let body = json!({"a": {"answer": 1, "annotator": "me", "reasoning": 2}, "b": 3,
        "c": {"reasoning": null}});
    let Err(Invalid(faults)) = AnnotationsPatch::read(&body) else {
        panic!("read");
    };
    let faults: Vec<(String, &str)> = faults
        .iter()
        .map(|f| (f.to_string(), f.kind.as_str()))
        .collect();
    assert_eq!(
        faults,
        [
            (
                "a.reasoning: reasoning must be a string, not a number".to_owned(),
                "string_expected"
            ),
            (
                "a.annotator: the annotator is the token's name; it cannot be given here \
                 (an ingest or a bulk annotation line may name its own)"
                    .to_owned(),
                "not_allowed"
            ),
            (
                "b: b must be an object, not a number".to_owned(),
                "object_expected"
            ),
            ("c.answer: answer is required".to_owned(), "missing"),
        ]
    );
    let many: serde_json::Map<String, Value> = (0..=limits::MAX_QUESTIONS)
        .map(|i| (i.to_string(), json!({"answer": 1})))
        .collect();
    assert_eq!(
        reason_of(AnnotationsPatch::read(&Value::Object(many))),
        "257 questions; the limit is 256"
    );
    let patch = AnnotationsPatch::read(&json!({"": {"answer": "x", "reasoning": "r"}}));
    assert_eq!(
        patch.unwrap().annotations[""].reasoning.as_deref(),
        Some("r")
    );
}
