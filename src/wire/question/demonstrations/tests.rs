use super::*;
use crate::wire::QuestionKind;
use serde_json::json;

fn question(instructions: Value) -> Question {
    Question {
        instructions: Some(instructions),
        kind: QuestionKind::Choice {
            options: vec![
                ("refund".into(), Value::Null),
                ("other".into(), Value::Null),
            ],
        },
    }
}

#[test]
fn the_task_is_what_the_question_asks_without_its_demonstrations() {
    let q = question(json!({"task": "What is wanted?", "demonstrations": [
        {"example_id": "a", "excerpt": "money back please", "answer": "refund", "reason": "asks"},
        {"state": {"text": "hi"}, "answer": "other"},
        "not one",
    ]}));
    assert!(q.has_demonstrations());
    assert_eq!(q.task(), Some(&json!("What is wanted?")));
    let read = q.demonstrations();
    assert_eq!(read.len(), 2);
    assert_eq!(read[0].excerpt.as_deref(), Some("money back please"));
    assert_eq!(read[0].reason.as_deref(), Some("asks"));
    assert_eq!(read[1].state, Some(json!({"text": "hi"})));
    // Instructions of another shape are the task as they are.
    let plain = question(json!({"ask": "x"}));
    assert!(!plain.has_demonstrations());
    assert_eq!(plain.task(), Some(&json!({"ask": "x"})));
    assert!(plain.demonstrations().is_empty());
}

#[test]
fn an_example_is_never_its_own_demonstration() {
    let q = question(json!({"demonstrations": [
        {"example_id": "a", "excerpt": "x", "answer": "refund"},
        {"example_id": "b", "excerpt": "y", "answer": "other"}]}));
    assert!(q.demonstrates("a"));
    assert!(!q.demonstrates("c"));
    let without = q.without_demonstration("a").unwrap();
    assert_eq!(without.demonstrations().len(), 1);
    assert!(!without.demonstrates("a"));
    assert_eq!(q.without_demonstration("c"), None);
    assert_eq!(without.task(), None);
}

#[test]
fn malformed_demonstrations_are_located() {
    let q = question(json!({"demonstrations": [
        {"excerpt": 3, "answer": "refund"}, {"answer": "other"}, 7, {"excerpt": "z"}]}));
    let errors = check(&q, &Loc::default().key("intent"));
    let locs: Vec<String> = errors.iter().map(|e| e.loc.to_string()).collect();
    assert_eq!(
        locs,
        [
            "intent.instructions.demonstrations[0].excerpt",
            "intent.instructions.demonstrations[1]",
            "intent.instructions.demonstrations[2]",
            "intent.instructions.demonstrations[3].answer",
        ]
    );
    let not_a_list = question(json!({"demonstrations": {}}));
    assert_eq!(check(&not_a_list, &Loc::default()).len(), 1);
}
