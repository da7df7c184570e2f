use super::*;
use serde_json::json;

const FILE: &str = "\
# Support triage. Keep this comment.

intent:
  type: choice   # the main ask
  instructions: What does the customer mainly want?
  criteria:
    refund: Money back.
    billing: An invoice question.

# Urgency, rated by consequences.
urgency:
  type: score
  criteria:
    - No time pressure.
    - An outage.

escalate: {type: noul, instructions: The customer asks for a manager.}
";

fn edited(edits: &[(&str, Option<&Value>)]) -> String {
    with_instructions(FILE, edits).expect("edited in place")
}

#[test]
fn a_string_is_replaced_on_its_line_and_every_comment_stays() {
    let text = edited(&[("intent", Some(&json!("What is the ask?")))]);
    assert_eq!(
        text,
        FILE.replace(
            "instructions: What does the customer mainly want?",
            "instructions: What is the ask?"
        )
    );
}

#[test]
fn an_object_becomes_a_block_under_its_key() {
    let value = json!({"task": "What is the ask?", "demonstrations": [
        {"excerpt": "I want my money back", "answer": "refund", "reason": "asks for it"}]});
    let text = edited(&[("intent", Some(&value))]);
    assert!(
        text.starts_with("# Support triage. Keep this comment.\n"),
        "{text}"
    );
    assert!(text.contains("  type: choice   # the main ask\n  instructions:\n    task: What is the ask?\n    demonstrations:\n    - excerpt: I want my money back\n"), "{text}");
    assert!(
        text.contains("# Urgency, rated by consequences.\nurgency:"),
        "{text}"
    );
    let read = crate::wire::value::parse_yaml(&text).unwrap();
    assert_eq!(read["intent"]["instructions"], value);
    assert_eq!(
        read["intent"]["criteria"]["billing"],
        "An invoice question."
    );
}

#[test]
fn instructions_are_added_after_the_type_and_removed_with_their_line() {
    let text = edited(&[("urgency", Some(&json!("How soon?")))]);
    assert!(
        text.contains("urgency:\n  type: score\n  instructions: How soon?\n  criteria:\n"),
        "{text}"
    );
    let text = edited(&[("intent", None)]);
    assert_eq!(
        text,
        FILE.replace("  instructions: What does the customer mainly want?\n", "")
    );
}

#[test]
fn a_multi_line_string_is_a_block_scalar_indented_under_its_key() {
    let value = json!("First line.\nSecond line.");
    let text = edited(&[("intent", Some(&value))]);
    let read = crate::wire::value::parse_yaml(&text).unwrap();
    assert_eq!(read["intent"]["instructions"], value, "{text}");
    assert!(text.contains("# Urgency, rated by consequences."));
}

#[test]
fn a_flow_question_is_written_again_whole_and_the_rest_stays() {
    let text = edited(&[("escalate", Some(&json!({"task": "Manager?"})))]);
    assert!(
        text.starts_with(&FILE[..FILE.find("escalate:").unwrap()]),
        "{text}"
    );
    let read = crate::wire::value::parse_yaml(&text).unwrap();
    assert_eq!(
        read["escalate"]["instructions"],
        json!({"task": "Manager?"})
    );
    assert_eq!(read["escalate"]["type"], "noul");
}

#[test]
fn several_questions_at_once_and_a_block_value_replaced_again() {
    let first = edited(&[
        (
            "intent",
            Some(&json!({"task": "A", "demonstrations": [{"answer": "refund"}]})),
        ),
        ("urgency", Some(&json!("B"))),
    ]);
    let again = with_instructions(&first, &[("intent", Some(&json!("C")))]).unwrap();
    let read = crate::wire::value::parse_yaml(&again).unwrap();
    assert_eq!(read["intent"]["instructions"], "C");
    assert_eq!(read["urgency"]["instructions"], "B");
    assert!(
        again.contains("  instructions: C\n  criteria:\n"),
        "{again}"
    );
    assert!(
        again.starts_with("# Support triage. Keep this comment.\n"),
        "{again}"
    );
}

#[test]
fn what_cannot_be_edited_in_place_says_so() {
    assert_eq!(with_instructions(FILE, &[("nope", None)]), None);
    assert_eq!(with_instructions("[1, 2]", &[("a", None)]), None);
    assert_eq!(with_instructions("a: [", &[("a", None)]), None);
}
