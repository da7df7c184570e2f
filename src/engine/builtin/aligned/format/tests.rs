use super::*;
use crate::wire::value::parse_yaml;

/// An aligned question's instructions as `arbiter align` wrote them before this type
/// existed (member order included).
const WRITTEN: &str = r"
task: What does the customer mainly want?
examples:
- example_id: s-0001
  answer: refund
  reasoning: asks for the money back
  state:
    subject: Refund
    body: I was charged twice.
- example_id: s-0002
  answer: bug
  state: it crashes
cues:
  refund:
  - money back
  - return the payment
arbiter_alignment:
  version: 1
  method: knn(k=3)+cues
  seed: 3
  weights:
    similarity: 21.3
    nearest: 9.1
    level_distance: -0.5
  bias:
    refund: 0.12
    bug: -0.3
";

fn choice() -> QuestionKind {
    QuestionKind::Choice {
        options: vec![
            ("refund".to_owned(), Value::Null),
            ("bug".to_owned(), Value::Null),
        ],
    }
}

#[test]
fn a_checkpoint_written_before_reads_and_writes_back_the_same() {
    let written = parse_yaml(WRITTEN).unwrap();
    let read = AlignedInstructions::read(Some(&written), &choice(), &Loc::body())
        .unwrap()
        .expect("aligned");
    assert_eq!(read.examples.len(), 2);
    assert_eq!(read.arbiter_alignment.seed, Some(3));
    let again = read.to_value();
    // Order-sensitive: the same text, member for member.
    assert_eq!(
        serde_json::to_string(&again).unwrap(),
        serde_json::to_string(&written).unwrap()
    );
    assert_eq!(
        serde_yaml::to_string(&again).unwrap(),
        serde_yaml::to_string(&written).unwrap()
    );
    assert!(AlignedInstructions::has_exemplar(Some(&written), "s-0002"));
    assert!(!AlignedInstructions::has_exemplar(Some(&written), "s-0003"));
    let mut without = written.clone();
    AlignedInstructions::remove_exemplar(&mut without, "s-0001");
    assert!(!AlignedInstructions::has_exemplar(Some(&without), "s-0001"));
    assert_eq!(without["examples"].as_array().map(Vec::len), Some(1));
    // And the derived reader agrees with the member-by-member one.
    let derived: AlignedInstructions = serde_json::from_value(written).unwrap();
    assert_eq!(derived, read);
}

#[test]
fn malformed_members_are_each_located_and_nothing_panics() {
    let written = serde_json::json!({
        "task": null,
        "examples": [5, {"answer": "refund", "state": "x", "example_id": 7}],
        "cues": {"refund": "money"},
        "arbiter_alignment": {"version": "one", "seed": -1, "weights": [], "bias": {"bug": "high"}}
    });
    let errors =
        AlignedInstructions::read(Some(&written), &choice(), &Loc::body().key("q")).unwrap_err();
    let locs: Vec<String> = errors.iter().map(|e| e.loc.to_string()).collect();
    for expected in [
        "q.instructions.examples[0]",
        "q.instructions.examples[1]",
        "q.instructions.cues.refund",
        "q.instructions.arbiter_alignment.version",
        "q.instructions.arbiter_alignment.seed",
        "q.instructions.arbiter_alignment.weights",
        "q.instructions.arbiter_alignment.bias.bug",
    ] {
        assert!(
            locs.iter().any(|l| l == expected),
            "{expected} not in {locs:?}"
        );
    }
    let block_not_object = serde_json::json!({"arbiter_alignment": 1});
    assert!(AlignedInstructions::read(Some(&block_not_object), &choice(), &Loc::body()).is_err());
}

#[test]
fn an_abstain_rule_is_read_alone_and_checked() {
    let with = |abstain: Value| {
        serde_json::json!({
            "arbiter_alignment": {"version": 1, "weights": {}, "abstain": abstain}
        })
    };
    let rule = with(serde_json::json!({"below": 0.9, "target_error": 0.05}));
    assert_eq!(
        Abstain::of(Some(&rule)).map(|r| r.below.to_string()),
        Some("0.9".to_owned())
    );
    let read = AlignedInstructions::read(Some(&rule), &choice(), &Loc::body()).unwrap();
    assert_eq!(
        read.unwrap()
            .arbiter_alignment
            .abstain
            .map(|r| r.below.to_string()),
        Some("0.9".to_owned())
    );
    assert_eq!(Abstain::of(None), None);
    for bad in [
        serde_json::json!({"below": 1.5}),
        serde_json::json!({"below": "high"}),
        serde_json::json!({"below": 0.5, "above": 1}),
    ] {
        let instructions = with(bad.clone());
        assert_eq!(Abstain::of(Some(&instructions)), None, "{bad}");
        let errors =
            AlignedInstructions::read(Some(&instructions), &choice(), &Loc::body()).unwrap_err();
        assert!(
            errors.iter().any(|e| e
                .loc
                .to_string()
                .starts_with("instructions.arbiter_alignment.abstain")),
            "{bad}: {errors:?}"
        );
    }
}

#[test]
fn task_null_is_kept() {
    let written = serde_json::json!({
        "task": null,
        "arbiter_alignment": {"version": 1, "weights": {}, "bias": {}}
    });
    let read = AlignedInstructions::read(Some(&written), &choice(), &Loc::body())
        .unwrap()
        .unwrap();
    assert_eq!(read.task, Some(Value::Null));
    assert_eq!(read.to_value(), written);
}
