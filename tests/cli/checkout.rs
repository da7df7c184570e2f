//! A model repository's checkout run on with no home and no server: `eval`, `decide` and
//! `batch` given a directory read its work tree (or a revision of its git repository) and
//! its labels file, in an ephemeral home; the user's home is never created.

use crate::common::{TestEnv, support_file};
use serde_json::Value;
use std::path::Path;

/// Each question's figures of an eval report, without its job.
fn figures(report: &Value) -> Vec<(String, Value)> {
    report["questions"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(id, q)| (id.clone(), q["metrics"].clone()))
        .collect()
}

fn eval_json(env: &TestEnv, dir: &Path, args: &[&str]) -> (i32, Value, String) {
    let output = env
        .cmd()
        .current_dir(dir)
        .args(["eval", "."])
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let report = serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("not JSON ({e}): {stderr}"));
    (output.status.code().unwrap(), report, stderr)
}

#[test]
fn a_checkout_is_evaluated_as_the_home_evaluates_the_same_model() {
    let env = TestEnv::new();
    let dir = env.support_checkout("support");
    std::fs::remove_dir_all(env.home()).unwrap();
    let (code, from_checkout, stderr) = eval_json(&env, &dir, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        !env.home().exists(),
        "a checkout's eval created the user's home"
    );
    assert!(stderr.contains("the work tree unchanged"), "{stderr}");
    let head = env.git_in(&dir, &["rev-parse", "HEAD"]);
    assert_eq!(from_checkout["revision"]["commit"], head.as_str());
    assert_eq!(from_checkout["revision"]["name"], "main");

    // The same questions and labels in a home.
    std::fs::create_dir_all(env.home()).unwrap();
    env.create_model("acme/support", "mo", &dir.join("questions.yaml"));
    env.ingest(
        "acme/support",
        &std::fs::read_to_string(dir.join("examples/annotated.jsonl")).unwrap(),
    );
    let from_home = env.json(&["eval", "acme/support"]);
    assert_eq!(figures(&from_checkout), figures(&from_home));
    assert!(
        figures(&from_home)
            .iter()
            .all(|(_, metrics)| metrics["examples"].as_u64().unwrap() > 30),
        "{from_home}"
    );
}

#[test]
fn the_work_tree_is_compared_with_a_baseline_of_the_clone() {
    let env = TestEnv::new();
    let origin = env.support_checkout("origin");
    let clone = env.path().join("clone");
    env.git_in(
        env.path(),
        &["clone", "-q", origin.to_str().unwrap(), "clone"],
    );
    // An edit not committed: the work tree is what is evaluated.
    let questions = std::fs::read_to_string(clone.join("questions.yaml")).unwrap();
    let edited = questions.replace("asks to speak to a human or a manager", "demands a manager");
    assert_ne!(questions, edited, "the edit must change the questions");
    std::fs::write(clone.join("questions.yaml"), edited).unwrap();

    let (code, report, stderr) = eval_json(&env, &clone, &["--baseline", "origin/main"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("the work tree (changes to HEAD"),
        "{stderr}"
    );
    assert_eq!(report["revision"]["name"], "working-tree");
    assert_eq!(report["baseline"]["name"], "origin/main");
    let head = env.git_in(&clone, &["rev-parse", "origin/main"]);
    assert_eq!(report["baseline"]["commit"], head.as_str());
    let escalate = &report["questions"]["escalate"];
    assert_ne!(
        escalate["metrics"]["logLoss"], escalate["baseline"]["logLoss"],
        "the edited question is decided again: {escalate}"
    );
    assert_eq!(
        report["questions"]["intent"]["metrics"]["logLoss"],
        report["questions"]["intent"]["baseline"]["logLoss"]
    );

    // A revision by git's own syntax, and a gate that fails: exit 3.
    let (code, report, _) = eval_json(
        &env,
        &clone,
        &[
            "--revision",
            "HEAD",
            "--baseline",
            "HEAD",
            "--min-accuracy",
            "0.99",
        ],
    );
    assert_eq!(code, 3);
    assert_eq!(report["gates"]["passed"], false);
    assert_eq!(report["revision"]["commit"], head.as_str());
}

#[test]
fn the_checkout_s_gates_file_and_a_labels_file_are_read() {
    let env = TestEnv::new();
    let dir = env.support_checkout("support");
    std::fs::write(dir.join("gates.yaml"), "intent: {accuracy: 0.99}\n").unwrap();
    let (code, report, stderr) = eval_json(&env, &dir, &[]);
    assert_eq!(code, 3, "the work tree's gates.yaml gates: {stderr}");
    assert_eq!(report["gates"]["failures"][0]["question"], "intent");

    // --labels instead of examples/annotated.jsonl: two examples only.
    let all = std::fs::read_to_string(dir.join("examples/annotated.jsonl")).unwrap();
    let lines: Vec<&str> = all.lines().take(2).collect();
    let labels = env.write("two.jsonl", &lines.join("\n"));
    let (_, report, _) = eval_json(
        &env,
        &dir,
        &["--no-gates", "--labels", labels.to_str().unwrap()],
    );
    assert_eq!(report["questions"]["intent"]["metrics"]["examples"], 2);
}

#[test]
fn what_is_not_a_model_repository_or_its_labels_is_refused_where_it_is_wrong() {
    let env = TestEnv::new();
    let dir = env.support_checkout("support");
    let at = |args: &[&str]| {
        let output = env.cmd().current_dir(&dir).args(args).output().unwrap();
        (
            output.status.code().unwrap(),
            String::from_utf8_lossy(&output.stderr).into_owned(),
        )
    };
    let (code, stderr) = at(&["eval", "./missing"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("./missing is not a model repository: no such directory"));

    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("sub/model.yaml"), "base: mo\n").unwrap();
    let (code, stderr) = at(&["eval", "./sub"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("inside the git repository at"), "{stderr}");

    let (code, stderr) = at(&["eval", "/"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("it has no model.yaml"), "{stderr}");

    let (code, stderr) = at(&["eval", ".", "--baseline", "origin/nope"]);
    assert_eq!(code, 4, "{stderr}");
    assert!(
        stderr.contains("revision `origin/nope` of . not found"),
        "{stderr}"
    );

    let bad = env.write(
        "bad.jsonl",
        "{\"example_id\":\"x\",\"state\":{\"a\":1},\"annotations\":{\"intnet\":{\"answer\":\"refund\"}}}\n\
         {\"example_id\":\"y\",\"state\":{\"a\":2},\"annotations\":{\"intent\":{\"answer\":\"refundx\"}}}\n",
    );
    let (code, stderr) = at(&["eval", ".", "--labels", bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("2 bad lines; nothing was read"), "{stderr}");
    let line_at = |line: usize| format!("{}:{line}", bad.display());
    assert!(
        stderr.contains(&format!("{}: annotations.intnet", line_at(1))),
        "{stderr}"
    );
    assert!(
        stderr.contains(&format!("{}: annotations.intent.answer", line_at(2))),
        "{stderr}"
    );
    // As a problem document: each bad line located in the labels file.
    let output = env
        .cmd()
        .current_dir(&dir)
        .args(["eval", ".", "--json", "--labels", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let problem: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(problem["code"], "usage_error");
    let details = problem["details"].as_array().unwrap();
    assert_eq!(details[0]["loc"], serde_json::json!([line_at(1)]));
    assert_eq!(details[1]["loc"], serde_json::json!([line_at(2)]));
    assert!(
        details[1]["msg"]
            .as_str()
            .unwrap()
            .starts_with("annotations.intent.answer: \"refundx\" is not an option"),
        "{problem}"
    );

    std::fs::remove_file(dir.join("examples/annotated.jsonl")).unwrap();
    let (code, stderr) = at(&["eval", "."]);
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("examples/annotated.jsonl: no such file"),
        "{stderr}"
    );

    let (code, stderr) = at(&["eval", ".", "--server", "http://127.0.0.1:9"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("drop --server"), "{stderr}");

    let (code, stderr) = at(&["eval", "acme/support", "--labels", "x.jsonl"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--labels reads the labels of a model repository's checkout"));
}

#[test]
fn decide_and_batch_run_on_a_plain_directory_s_files() {
    let env = TestEnv::new();
    // No git repository at all: the directory's files are the model.
    let dir = env.path().join("plain");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.yaml"), "base: mo\n").unwrap();
    std::fs::copy(support_file("questions.yaml"), dir.join("questions.yaml")).unwrap();
    let state = support_file("states/refund.json");
    let decided = env.json(&["decide", "--model", "./plain", "--state", &state]);
    let answers = decided["answers"].as_object().unwrap();
    assert_eq!(
        answers.keys().collect::<Vec<_>>(),
        ["intent", "urgency", "escalate"]
    );
    let from_base = env.json(&[
        "decide",
        "--model",
        "mo",
        "--questions",
        &support_file("questions.yaml"),
        "--state",
        &state,
    ]);
    assert_eq!(decided["answers"], from_base["answers"]);

    let input = env.write(
        "states.jsonl",
        &format!(
            "{}\n",
            serde_json::json!({
                "state": serde_json::from_str::<Value>(&std::fs::read_to_string(&state).unwrap())
                    .unwrap()
            })
        ),
    );
    let output = env
        .cmd()
        .args(["batch", "./plain", "--input"])
        .arg(&input)
        .arg("--json")
        .output()
        .unwrap();
    crate::common::assert_succeeded(&output);
    let line: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(line["answers"], decided["answers"], "{line}");

    let (code, _, stderr) = env.problem(&["eval", "./plain", "--baseline", "main"]);
    assert_eq!(code, 4, "{stderr}");
    assert!(stderr.contains("not a git repository"), "{stderr}");
}
