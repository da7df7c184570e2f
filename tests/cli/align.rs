//! `arbiter align`, `arbiter eval` and `arbiter models promote` with the real binary: a
//! better checkpoint on its own branch, nothing committed when nothing improves, the same
//! tree from the same examples and seed, the figures and the CI gates with their exit codes.

use crate::common::{TestEnv, repo_root};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The labelled support set's first `n` examples, with only the annotations of `keep`.
pub(crate) fn labelled(n: usize, keep: &[&str]) -> String {
    let text = std::fs::read_to_string(repo_root().join("benches/data/support-labelled.jsonl"))
        .expect("the labelled set");
    text.lines().take(n).fold(String::new(), |mut out, line| {
        let mut row: Value = serde_json::from_str(line).unwrap();
        let annotations = row["annotations"].as_object_mut().unwrap();
        annotations.retain(|q, _| keep.contains(&q.as_str()));
        writeln!(out, "{row}").unwrap();
        out
    })
}

/// A model on `mo` with the labelled set's questions and its first `n` examples annotated
/// for intent.
fn env_with_annotations(n: usize) -> TestEnv {
    let env = TestEnv::new();
    let questions = repo_root().join("benches/data/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    let file = env.write("examples.jsonl", &labelled(n, &["intent"]));
    env.cmd()
        .args(["examples", "ingest", "acme/support", "--file"])
        .arg(&file)
        .assert()
        .success();
    env
}

fn repo(env: &TestEnv) -> std::path::PathBuf {
    env.home().join("repos/acme/support.git")
}

fn branches(env: &TestEnv) -> Vec<String> {
    env.git_in(&repo(env), &["branch", "--format=%(refname:short)"])
        .lines()
        .map(str::to_owned)
        .collect()
}

// One scenario end to end (align, eval, promote): splitting it would hide the steps.
#[allow(clippy::too_many_lines)]
#[test]
fn align_commits_a_better_checkpoint_on_its_branch_and_eval_and_promote_use_it() {
    let env = env_with_annotations(72);
    let base = env.git_in(&repo(&env), &["rev-parse", "main"]);
    let job = env.json(&[
        "align",
        "acme/support",
        "--questions",
        "intent",
        "--seed",
        "3",
    ]);
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["kind"], "alignment");
    let result = &job["result"];
    assert_eq!(result["improved"], true, "{result}");
    assert_eq!(result["baseCheckpoint"], base);
    let branch = result["branch"].as_str().unwrap().to_owned();
    assert_eq!(
        branch,
        format!("alignments/{}", job["jobId"].as_str().unwrap())
    );
    let intent = &result["questions"]["intent"];
    assert_eq!(intent["examples"], 72);
    assert!(
        intent["after"]["loss"].as_f64() < intent["before"]["loss"].as_f64(),
        "{intent}"
    );
    assert_eq!(intent["gate"]["passed"], true);
    assert!(intent["gate"]["lowerBound"].as_f64().unwrap() > 0.0);
    assert!(
        result["questions"].get("urgency").is_none(),
        "only the asked question"
    );

    // The new checkpoint: parent the base, the figures in its message, the alignment in its
    // questions, the other questions untouched.
    let tip = result["checkpoint"]["checkpointId"].as_str().unwrap();
    assert_eq!(
        env.git_in(&repo(&env), &["rev-parse", &format!("{tip}^")]),
        base
    );
    let message = env.git_in(&repo(&env), &["log", "-1", "--format=%B", tip]);
    assert!(message.starts_with("Align intent"), "{message}");
    assert!(
        message.contains("log_loss") && message.contains("->"),
        "{message}"
    );
    let diff = env.git_in(&repo(&env), &["diff", "--stat", "main", &branch]);
    assert!(diff.contains("questions.yaml"), "{diff}");
    let questions = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    let questions = arbiter::wire::value::parse_yaml(&questions).unwrap();
    let instructions = &questions["intent"]["instructions"];
    assert_eq!(
        instructions["task"],
        "What does the customer mainly want from this ticket?"
    );
    assert!(
        instructions["examples"]
            .as_array()
            .is_some_and(|e| !e.is_empty())
    );
    assert_eq!(instructions["arbiter_alignment"]["version"], 1);
    let base_questions = env.git_in(&repo(&env), &["show", "main:questions.yaml"]);
    let base_questions = arbiter::wire::value::parse_yaml(&base_questions).unwrap();
    assert_eq!(questions["urgency"], base_questions["urgency"]);

    // The aligned checkpoint answers.
    let state = env.write(
        "state.json",
        &json!({"subject": "Refund", "body": "I was charged twice, please return one payment."})
            .to_string(),
    );
    let answer = env.json(&[
        "decide",
        "-m",
        "acme/support",
        "--revision",
        &branch,
        "-s",
        state.to_str().unwrap(),
        "--no-capture",
    ]);
    assert_eq!(answer["answers"]["intent"]["type"], "choice");
    assert_eq!(answer["revision"]["commit"], tip);

    // Eval: both checkpoints over the annotated examples, the aligned one better.
    let report = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    let intent = &report["questions"]["intent"];
    assert_eq!(intent["metrics"]["examples"], 72);
    assert!(
        intent["metrics"]["accuracy"].as_f64() > intent["baseline"]["accuracy"].as_f64(),
        "{report}"
    );
    assert_eq!(report["gates"]["passed"], true);
    assert!(report["decided"].as_u64().unwrap() > 0);
    // A re-run asks the engine nothing.
    let again = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    assert_eq!(
        (again["decided"].as_u64(), again["cached"].as_u64()),
        (
            Some(0),
            Some(report["decided"].as_u64().unwrap() + report["cached"].as_u64().unwrap())
        )
    );
    assert_eq!(again["questions"], report["questions"]);

    // Gates exit 3, with what failed on stderr.
    let failed = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--revision",
            &branch,
            "--min-accuracy",
            "0.999",
            "--max-ece",
            "0.0001",
        ])
        .output()
        .unwrap();
    assert_eq!(failed.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&failed.stderr);
    assert!(stderr.contains("gate failed: intent: accuracy"), "{stderr}");
    assert!(stderr.contains("ECE"), "{stderr}");
    let gated: Value = serde_json::from_slice(&failed.stdout).unwrap();
    assert_eq!(gated["gates"]["passed"], false);
    let regression = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--revision",
            "main",
            "--baseline",
            &branch,
            "--no-regression",
        ])
        .output()
        .unwrap();
    assert_eq!(
        regression.status.code(),
        Some(3),
        "main is worse than the aligned checkpoint"
    );

    // JUnit for CI: one test case per question, failed by its gates.
    let junit = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--revision",
            &branch,
            "--min-accuracy",
            "0.999",
            "--format",
            "junit",
        ])
        .output()
        .unwrap();
    assert_eq!(junit.status.code(), Some(3));
    let xml = String::from_utf8(junit.stdout).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(
        xml.contains("<testcase classname=\"acme/support@") && xml.contains("name=\"intent\""),
        "{xml}"
    );
    assert!(xml.contains("<failure type=\"min-accuracy\""), "{xml}");
    assert!(
        xml.contains("tests=\"1\" failures=\"1\""),
        "one annotated question, failed at 0.999: {xml}"
    );

    // Promote: main fast-forwards to the aligned checkpoint.
    env.cmd()
        .args(["models", "promote", "acme/support", &branch])
        .assert()
        .success();
    assert_eq!(env.git_in(&repo(&env), &["rev-parse", "main"]), tip);
}

#[test]
fn the_same_examples_seed_and_checkpoint_give_the_same_tree() {
    let env = env_with_annotations(72);
    let first = env.json(&["align", "acme/support", "-q", "intent", "--seed", "3"]);
    let second = env.json(&["align", "acme/support", "-q", "intent", "--seed", "3"]);
    let (a, b) = (
        first["result"]["branch"].as_str().expect("improved"),
        second["result"]["branch"].as_str().expect("improved"),
    );
    assert_ne!(a, b, "each job has its own branch");
    let tree =
        |branch: &str| env.git_in(&repo(&env), &["rev-parse", &format!("{branch}^{{tree}}")]);
    assert_eq!(tree(a), tree(b));
    assert_eq!(first["result"]["questions"], second["result"]["questions"]);
}

#[test]
fn when_nothing_improves_nothing_is_committed() {
    let env = TestEnv::new();
    // A noul that states nothing answers 0.5 whatever the state, and the labels are a fair
    // coin that no text predicts: no candidate can be better beyond chance.
    let questions = env.write("q.yaml", "coin: {type: noul}\n");
    env.create_model("acme/coin", "mo", &questions);
    let lines = (0..60).fold(String::new(), |mut out, i| {
        let state = format!("ticket {i}: {}", ["my order is late", "the app crashed", "I was charged twice", "please reset my password"][i % 4]);
        let heads = arbiter::core::checkpoint::sampled(&format!("coin-{i}"), 0.5);
        writeln!(out, "{}", json!({"example_id": format!("coin-{i}"), "state": state, "annotations": {"coin": {"answer": heads}}})).unwrap();
        out
    });
    let file = env.write("coin.jsonl", &lines);
    env.cmd()
        .args(["examples", "ingest", "acme/coin", "--file"])
        .arg(&file)
        .assert()
        .success();
    let job = env.json(&["align", "acme/coin", "--seed", "5"]);
    assert_eq!(job["status"], "completed", "{job}");
    let result = &job["result"];
    assert_eq!(result["improved"], false, "{result}");
    assert_eq!(result["branch"], Value::Null);
    assert_eq!(result["checkpoint"], Value::Null);
    let coin = &result["questions"]["coin"];
    assert_eq!(coin["improved"], false);
    assert_eq!(coin["gate"]["passed"], false);
    assert!(coin["reason"].as_str().is_some(), "{coin}");
    let model_repo = env.home().join("repos/acme/coin.git");
    let refs = env.git_in(&model_repo, &["for-each-ref", "--format=%(refname)"]);
    assert_eq!(refs, "refs/heads/main", "nothing but main");
}

#[test]
fn too_few_annotations_are_reported_not_aligned() {
    let env = env_with_annotations(6);
    let job = env.json(&["align", "acme/support"]);
    let result = &job["result"];
    assert_eq!(result["improved"], false);
    assert_eq!(result["questions"]["intent"]["examples"], 6);
    assert!(
        result["questions"]["intent"]["reason"]
            .as_str()
            .unwrap()
            .contains("too few")
    );
    assert_eq!(result["questions"]["urgency"]["examples"], 0);
    assert_eq!(branches(&env), ["main"]);
}

#[test]
fn align_and_eval_errors_have_their_exit_codes() {
    let env = env_with_annotations(6);
    let (code, problem, _) = env.problem(&["align", "acme/nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
    let (code, problem, _) = env.problem(&["align", "acme/support", "--revision", "v9"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("revision_not_found"))
    );
    let (code, problem, _) = env.problem(&["align", "acme/support", "-q", "intent,nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "questions", 1])
    );
    let (code, problem, _) = env.problem(&["align", "acme/support", "--margin", "1.5"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    let (code, problem, _) = env.problem(&["eval", "acme/nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
    let (code, _, _) = env.problem(&["eval", "acme/support", "--baseline", "v9"]);
    assert_eq!(code, 4);
    let (code, problem, _) = env.problem(&["eval", "acme/support", "--min-accuracy", "2"]);
    assert_eq!((code, problem["code"].as_str()), (1, Some("bad_request")));
    // Usage errors are clap's exit 2.
    env.cmd()
        .args(["eval", "acme/support", "--no-regression"])
        .assert()
        .code(2);
    env.cmd()
        .args(["eval", "acme/support", "--format", "xml"])
        .assert()
        .code(2);
    // None of these left a job behind.
    assert_eq!(env.json(&["jobs", "list"]), json!([]));
}
