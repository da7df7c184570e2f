//! A model that travels with its labels: `examples export --annotated` writes the labels
//! file (`examples/annotated.jsonl`), `models push` and `models pull` move a model's
//! branches and tags to and from a git repository, and `models import` brings one into a
//! home, its labels ingested. Real git repositories on plain paths and `file://` URLs.

use crate::common::{TestEnv, repo_root, support_file};
use serde_json::Value;

const MODEL: &str = "acme/support";

/// `acme/support` on `mo` with the support desk's 40 examples, their annotations, and
/// bob's and carol's second opinions: several annotators on some questions. The lines go
/// in reversed, so that an export's order is its own.
fn annotated_home() -> TestEnv {
    let env = TestEnv::new();
    env.create_model(
        MODEL,
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    let text = std::fs::read_to_string(support_file("examples.jsonl")).unwrap();
    let reversed: Vec<&str> = text.lines().rev().collect();
    env.ingest(MODEL, &(reversed.join("\n") + "\n"));
    for file in ["annotations.jsonl", "second-opinions.jsonl"] {
        env.cmd()
            .args(["examples", "annotate", MODEL, "--file", &support_file(file)])
            .assert()
            .success();
    }
    env
}

/// `arbiter examples export MODEL --annotated` on stdout.
fn labels(env: &TestEnv) -> Vec<u8> {
    let output = env
        .cmd()
        .args(["examples", "export", MODEL, "--annotated"])
        .output()
        .unwrap();
    crate::common::assert_succeeded(&output);
    output.stdout
}

#[test]
fn the_labels_file_is_sorted_and_the_same_bytes_every_time() {
    let env = annotated_home();
    let first = labels(&env);
    assert_eq!(first, labels(&env), "two exports, two different files");
    let text = String::from_utf8(first.clone()).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 37, "the annotated examples");
    let ids: Vec<&str> = lines
        .iter()
        .map(|l| l["example_id"].as_str().unwrap())
        .collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable();
    assert_eq!(ids, sorted, "sorted by example ID");
    for line in &lines {
        // The line's keys in one order, its questions sorted, the state as ingested.
        let keys: Vec<&String> = line.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["example_id", "state", "annotations"]);
        let questions: Vec<&String> = line["annotations"].as_object().unwrap().keys().collect();
        let mut in_order = questions.clone();
        in_order.sort();
        assert_eq!(questions, in_order, "{line}");
    }
    // A state's keys stay in the order it was ingested in (not sorted).
    let t001 = lines.iter().find(|l| l["example_id"] == "t-001").unwrap();
    let state: Vec<&String> = t001["state"].as_object().unwrap().keys().collect();
    assert_eq!(state, ["subject", "body", "customer"]);
    // Several annotators of one question: oldest first, each named.
    let intent: Vec<&str> = t001["annotations"]["intent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|vote| vote["annotator"].as_str().unwrap())
        .collect();
    assert_eq!(intent[1..], ["bob", "carol"]);

    // --output writes the same bytes, its missing directories made.
    let out = env.path().join("clone/examples/annotated.jsonl");
    env.cmd()
        .args(["examples", "export", MODEL, "--annotated", "--output"])
        .arg(&out)
        .assert()
        .success()
        .stdout("");
    assert_eq!(std::fs::read(&out).unwrap(), first);
}

#[test]
fn an_export_that_fails_leaves_its_output_alone() {
    let env = annotated_home();
    let out = env.path().join("labels/annotated.jsonl");
    env.cmd()
        .args(["examples", "export", "acme/nope", "--annotated", "--output"])
        .arg(&out)
        .assert()
        .code(4);
    assert!(!out.exists() && !out.parent().unwrap().exists());
    let kept = env.write("kept.jsonl", "mine\n");
    env.cmd()
        .args(["examples", "export", "acme/nope", "--output"])
        .arg(&kept)
        .assert()
        .code(4);
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "mine\n");
}
