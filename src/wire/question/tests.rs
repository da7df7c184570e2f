use super::*;
use crate::wire::validate::{FieldError, Loc};
use serde_json::{Map, json};

fn parse(value: &Value) -> (Questions, Vec<FieldError>) {
    let mut errors = Vec::new();
    let questions = parse_questions(value, &Loc::body().key("questions"), &mut errors);
    (questions, errors)
}

#[test]
fn accepts_every_valid_shape() {
    let (questions, errors) = parse(&json!({
        "": {"type": "noul"},
        "n2": {"type": "noul", "criteria": null, "instructions": null},
        "n3": {"type": "noul", "criteria": {"true": {"a": [1]}, "false": null}},
        "c0": {"type": "choice", "criteria": {}},
        "c1": {"type": "choice", "criteria": {"a": null, "b": ["x", {"y": 1}]}, "instructions": 7},
        "s1": {"type": "score", "criteria": ["low", {"level": "mid"}, ["high"]]}
    }));
    assert_eq!(errors, vec![]);
    assert_eq!(questions.len(), 6);
    assert_eq!(questions.get_index(0).unwrap().0, "");
    assert_eq!(questions["n2"].instructions, Some(Value::Null));
    assert_eq!(questions["n2"].instructions(), None);
}

#[test]
fn reports_every_problem_with_its_location() {
    let (_, errors) = parse(&json!({
        "urgency": {"type": "score", "criteria": ["a", "b", null]},
        "intent": {"type": "choice", "criteria": {"": "empty", "ok": 3}},
        "x": {"type": "maybe"},
        "y": "not an object",
        "z": {"type": "score", "criteria": []},
        "w": {"type": "choice"}
    }));
    let located: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        located,
        vec![
            "questions.urgency.criteria[2]: a score level may not be null",
            r#"questions.intent.criteria[""]: an option key may not be empty"#,
            "questions.intent.criteria.ok: a description must be a string, object or array (or null), not a number",
            r#"questions.x.type: unknown question type "maybe": expected noul, choice or score"#,
            "questions.y: y must be an object, not a string",
            "questions.z.criteria: a score needs at least one level",
            "questions.w.criteria: choice criteria are required: an object of option key to description",
        ]
    );
}

/// Each text and count past its limit is refused at its location, naming the limit; an
/// aligned question's instructions are measured by their `task`.
#[test]
fn each_limit_is_refused_at_its_location() {
    use crate::limits::{
        MAX_OPTION_KEY_CHARS, MAX_OPTIONS, MAX_QUESTION_ID_CHARS, MAX_QUESTIONS, MAX_TEXT_CHARS,
    };
    let long = "x".repeat(MAX_TEXT_CHARS + 1);
    let mut body = json!({
        "n": {"type": "noul", "instructions": long, "criteria": {"true": {"k": [long]}}},
        "c": {"type": "choice", "criteria": {"k".repeat(MAX_OPTION_KEY_CHARS + 1): null}},
        "many": {"type": "choice", "criteria": (0..=MAX_OPTIONS)
            .map(|i| (i.to_string(), Value::Null))
            .collect::<Map<_, _>>()},
        "s": {"type": "score", "criteria": vec!["x"; MAX_OPTIONS + 1]},
        "aligned": {"type": "noul", "instructions": {
            "task": "Is it urgent?", "examples": [{"text": long}], "arbiter_alignment": {}
        }},
        "aligned_long": {"type": "noul", "instructions": {"task": long, "arbiter_alignment": {}}},
    });
    body["i".repeat(MAX_QUESTION_ID_CHARS + 1)] = json!({"type": "noul"});
    let (_, errors) = parse(&body);
    let found: Vec<(String, &str)> = errors
        .iter()
        .map(|e| (e.loc.to_string(), e.kind.as_str()))
        .collect();
    let id = "i".repeat(MAX_QUESTION_ID_CHARS + 1);
    let key = "k".repeat(MAX_OPTION_KEY_CHARS + 1);
    assert_eq!(
        found,
        vec![
            ("questions.n.instructions".to_owned(), "too_long"),
            ("questions.n.criteria.true".to_owned(), "too_long"),
            (format!("questions.c.criteria.{key}"), "too_long"),
            ("questions.many.criteria".to_owned(), "too_many"),
            ("questions.s.criteria".to_owned(), "too_many"),
            (
                "questions.aligned_long.instructions.task".to_owned(),
                "too_long"
            ),
            (format!("questions.{id}"), "too_long"),
        ]
    );
    assert_eq!(
        errors[0].msg,
        format!(
            "instructions is {} characters; the limit is {MAX_TEXT_CHARS}",
            MAX_TEXT_CHARS + 1
        )
    );
    assert!(errors[1].msg.contains("at least"), "{}", errors[1].msg);
    let many: Map<String, Value> = (0..=MAX_QUESTIONS)
        .map(|i| (i.to_string(), json!({"type": "noul"})))
        .collect();
    let (questions, errors) = parse(&Value::Object(many));
    assert!(questions.is_empty());
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].msg, "257 questions; the limit is 256");
}

#[test]
fn empty_map_and_non_object_are_rejected() {
    assert_eq!(parse(&json!({})).1[0].kind, "empty_questions");
    assert_eq!(parse(&json!([])).1[0].kind, "object_expected");
}

#[test]
fn round_trips_through_json() {
    let source = json!({
        "n": {"type": "noul", "instructions": "Is it urgent?", "criteria": {"true": "yes"}},
        "c": {"type": "choice", "criteria": {"b": null, "a": "first"}},
        "s": {"type": "score", "criteria": ["0", {"k": "v"}]}
    });
    let (questions, errors) = parse(&source);
    assert!(errors.is_empty());
    assert_eq!(questions_to_value(&questions), source);
}
