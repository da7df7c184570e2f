//! `arbiter align --instructions`: demonstrations chosen from the annotated examples and
//! written into the questions' instructions in `questions.yaml`, the user's text and
//! comments kept; each candidate scored through the engine, counted against the budget.

use crate::common::{TestEnv, repo_root};
use serde_json::{Value, json};
use std::fmt::Write as _;

/// The support set's first `n` examples annotated for intent, each with a reason.
fn with_reasons(n: usize) -> String {
    let text = std::fs::read_to_string(repo_root().join("examples/support/labelled.jsonl"))
        .expect("the labelled set");
    text.lines().take(n).fold(String::new(), |mut out, line| {
        let mut row: Value = serde_json::from_str(line).unwrap();
        let id = row["example_id"].as_str().unwrap().to_owned();
        let annotations = row["annotations"].as_object_mut().unwrap();
        annotations.retain(|q, _| q == "intent");
        annotations["intent"]["reasoning"] = json!(format!("the reason for {id}"));
        writeln!(out, "{row}").unwrap();
        out
    })
}

/// The support questions with a comment of the user's inside `intent`.
fn questions() -> String {
    std::fs::read_to_string(repo_root().join("examples/support/questions.yaml"))
        .unwrap()
        .replacen(
            "intent:\n  type: choice\n",
            "intent:\n  type: choice\n  # Keep this: we triage by intent first.\n",
            1,
        )
}

fn env_with(n: usize) -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", &questions());
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &with_reasons(n));
    env
}

const ALIGN: [&str; 5] = ["align", "acme/support", "-q", "intent", "--instructions"];

fn repo(env: &TestEnv) -> std::path::PathBuf {
    env.home().join("repos/acme/support.git")
}

// One scenario in order (plan, budget, alignment, what it wrote, what reads it).
#[allow(clippy::too_many_lines)]
#[test]
fn instructions_get_demonstrations_chosen_through_the_engine_and_the_file_stays_the_users() {
    let env = env_with(60);
    let plan = env.json(&[&ALIGN[..], &["--dry-run"]].concat());
    let calls = &plan["engineCalls"];
    assert_eq!(calls["engine"], "built-in", "{plan}");
    let answers = calls["answers"].as_u64().unwrap();
    assert!(answers > 100, "{plan}");
    assert_eq!(calls["calls"], answers);

    // Past the budget nothing is committed, and it says how far it got.
    let output = env
        .cmd()
        .arg("--json")
        .args([&ALIGN[..], &["--budget", "30"]].concat())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let job: Value = serde_json::from_slice(&output.stdout).unwrap();
    let detail = job["error"]["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("the budget of 30 engine calls is spent"),
        "{job}"
    );
    assert!(
        detail.contains(&format!("with a budget of {} or more", answers - 30)),
        "{detail}"
    );
    let branches = env.git_in(&repo(&env), &["branch", "--format=%(refname:short)"]);
    assert_eq!(branches, "main");

    let job = env.json(&ALIGN);
    assert_eq!(job["status"], "completed", "{job}");
    let result = &job["result"];
    assert_eq!(
        result["engineCalls"],
        json!({"engine": "built-in", "answers": answers, "cached": 30, "calls": answers - 30}),
        "the 30 answers the budget allowed were not asked again: {result}"
    );
    let intent = &result["questions"]["intent"];
    assert_eq!(intent["improved"], true, "{intent}");
    assert_eq!(intent["chosen"], "demonstrations");
    assert!(
        intent["after"]["accuracy"].as_f64() > intent["before"]["accuracy"].as_f64(),
        "{intent}"
    );
    assert!(
        intent["after"]["loss"].as_f64() <= intent["before"]["loss"].as_f64(),
        "{intent}"
    );
    let branch = result["branch"].as_str().unwrap().to_owned();

    // The user's file, edited in place: only intent's instructions changed.
    let written = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    let original = questions();
    let before_intent = &original[..original.find("  instructions: What does").unwrap()];
    assert!(written.starts_with(before_intent), "{written}");
    assert!(written.contains("  # Keep this: we triage by intent first.\n"));
    let after_intent = &original[original.find("\nurgency:").unwrap()..];
    assert!(written.ends_with(after_intent.trim_end()), "{written}");
    let read = arbiter::wire::value::parse_yaml(&written).unwrap();
    let instructions = &read["intent"]["instructions"];
    assert_eq!(
        instructions["task"],
        "What does the customer mainly want from this ticket?"
    );
    let shown = instructions["demonstrations"].as_array().unwrap();
    assert_eq!(shown.len() as u64, intent["fitted"].as_u64().unwrap());
    for demonstration in shown {
        let id = demonstration["example_id"].as_str().unwrap();
        assert_eq!(demonstration["reason"], format!("the reason for {id}"));
        assert!(demonstration["excerpt"].is_string());
        assert!(demonstration["answer"].is_string());
    }
    assert_eq!(
        read["urgency"],
        arbiter::wire::value::parse_yaml(&original).unwrap()["urgency"]
    );

    // `models diff` shows the new instructions.
    let diff = env.json(&["models", "diff", "acme/support", "main", &branch]);
    let text = diff.to_string();
    assert!(
        text.contains("intent") && text.contains("instructions"),
        "{diff}"
    );

    // The branch evaluates against main on every annotated example (each asked without
    // its own demonstration, by the answer cache's rule).
    let evaluation = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    let scored = &evaluation["questions"]["intent"];
    assert_eq!(scored["status"], "evaluated", "{evaluation}");
    assert_eq!(scored["metrics"]["examples"], 60, "{evaluation}");

    // Asked again, every answer is cached.
    let again = env.json(&[&ALIGN[..], &["--dry-run"]].concat());
    assert_eq!(again["engineCalls"]["calls"], 0, "{again}");
}

#[test]
fn demonstrations_written_by_hand_are_checked_where_they_are() {
    let env = TestEnv::new();
    let questions = env.write(
        "q.yaml",
        "intent:\n  type: choice\n  instructions:\n    task: What is wanted?\n    \
         demonstrations:\n      - {excerpt: money back, answer: refund}\n      - {excerpt: \
         where is it, answer: parcel}\n      - {answer: refund}\n  criteria: {refund: Money \
         back., shipping: A delivery.}\n",
    );
    let (code, problem, _) = env.problem(&[
        "models",
        "create",
        "acme/hand",
        "--base",
        "mo",
        "--questions",
        questions.to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    let locs: Vec<&Value> = problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["loc"])
        .collect();
    assert!(
        locs.contains(&&json!([
            "questions.yaml",
            "intent",
            "instructions",
            "demonstrations",
            2
        ])),
        "{problem}"
    );
    // A valid one decides, the demonstration leaning the answer.
    let questions = env.write(
        "ok.yaml",
        "intent:\n  type: choice\n  instructions:\n    task: What is wanted?\n    \
         demonstrations:\n      - {excerpt: 'I want my money back for the order', answer: \
         refund}\n      - {excerpt: 'Where is my parcel, it has not arrived', answer: \
         shipping}\n  criteria: {refund: Money back., shipping: A delivery.}\n",
    );
    env.create_model("acme/hand", "mo", &questions);
    let state = env.write("s.json", r#"{"text": "my parcel has still not arrived"}"#);
    let answer = env.json(&[
        "decide",
        "-m",
        "acme/hand",
        "-s",
        state.to_str().unwrap(),
        "--no-capture",
    ]);
    assert_eq!(
        answer["answers"]["intent"]["choice"], "shipping",
        "{answer}"
    );
}
