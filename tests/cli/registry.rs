//! A model registry's record: `models diff` between revisions (with `--eval`), and `models
//! history` of promotions and tag moves (who, when, from, to, the evaluation relied on).

use crate::common::{TestEnv, support_file};
use serde_json::{Value, json};

const MODEL: &str = "acme/support";

/// `acme/support` on `mo` with the support questions, its 40 annotated examples ingested;
/// the first checkpoint's commit.
fn create(env: &TestEnv) -> String {
    let created = env.json(&[
        "models",
        "create",
        MODEL,
        "--base",
        "mo",
        "--questions",
        &support_file("questions.yaml"),
    ]);
    env.json(&[
        "examples",
        "ingest",
        MODEL,
        "--file",
        &support_file("examples.jsonl"),
    ]);
    created["latestCheckpoint"]["checkpointId"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// The support questions with `intent`'s instructions reworded, `escalate` gone and a
/// `churn_risk` question added, committed on `draft`; its commit.
fn commit_draft(env: &TestEnv) -> String {
    let questions = std::fs::read_to_string(support_file("questions.yaml")).unwrap();
    let escalate = questions.find("escalate:").unwrap();
    let edited = questions[..escalate].replace(
        "What does the customer mainly want from this ticket?",
        "What is the ticket mainly about?",
    ) + &std::fs::read_to_string(support_file("questions-extra.yaml")).unwrap();
    let file = env.write("draft.yaml", &edited).display().to_string();
    let model_file = env
        .write(
            "model.yaml",
            "base: mo\ncapture:\n  enabled: true\n  sample_rate: 0.5\n",
        )
        .display()
        .to_string();
    env.json(&[
        "models",
        "commit",
        MODEL,
        "--questions",
        &file,
        "--model-file",
        &model_file,
        "--branch",
        "draft",
        "-m",
        "Reword intent, drop escalate, add churn risk",
    ])[0]["checkpointId"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn paths(changes: &Value) -> Vec<String> {
    changes
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            c["path"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s.as_str().unwrap())
                .collect::<Vec<_>>()
                .join(".")
        })
        .collect()
}

#[test]
fn diff_shows_the_questions_and_model_file_that_changed() {
    let env = TestEnv::new();
    let main0 = create(&env);
    let draft = commit_draft(&env);

    let diff = env.json(&["models", "diff", MODEL, "main", "draft"]);
    assert_eq!(
        (&diff["from"]["commit"], &diff["to"]["commit"]),
        (&json!(main0), &json!(draft))
    );
    assert_eq!(paths(&diff["modelYaml"]), ["capture.sample_rate"]);
    assert_eq!(
        (&diff["modelYaml"][0]["from"], &diff["modelYaml"][0]["to"]),
        (&json!(1), &json!(0.5))
    );
    let questions: Vec<(&str, &str)> = diff["questions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (q["id"].as_str().unwrap(), q["status"].as_str().unwrap()))
        .collect();
    assert_eq!(
        questions,
        [
            ("intent", "changed"),
            ("escalate", "removed"),
            ("churn_risk", "added")
        ]
    );
    assert_eq!(paths(&diff["questions"][0]["changes"]), ["instructions"]);
    assert_eq!(
        diff["questions"][0]["changes"][0]["to"],
        "What is the ticket mainly about?"
    );
    assert_eq!(diff["questions"][2]["changes"][0]["to"]["type"], "noul");
    assert_eq!(diff["learned"], json!([]));

    // A revision against itself, and by commit SHA: nothing changed.
    let same = env.json(&["models", "diff", MODEL, &main0, "main"]);
    assert_eq!(
        (&same["modelYaml"], &same["questions"], &same["learned"]),
        (&json!([]), &json!([]), &json!([]))
    );
    let (code, problem, _) = env.problem(&["models", "diff", MODEL, "main", "nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("revision_not_found"))
    );
}

#[test]
fn diff_eval_scores_both_revisions_on_the_same_examples() {
    let env = TestEnv::new();
    create(&env);
    commit_draft(&env);
    let out = env.json(&["models", "diff", MODEL, "main", "draft", "--eval"]);
    let evaluation = &out["evaluation"];
    assert!(evaluation["jobId"].is_string(), "{out}");
    assert_eq!(evaluation["revision"]["commit"], out["to"]["commit"]);
    assert_eq!(evaluation["baseline"]["commit"], out["from"]["commit"]);
    // Only the questions both revisions have are scored, side by side on the same examples.
    let intent = &evaluation["questions"]["intent"];
    let examples = intent["metrics"]["examples"].as_u64().unwrap();
    assert!(examples > 0, "{intent}");
    assert_eq!(intent["baseline"]["examples"].as_u64(), Some(examples));
    assert_eq!(intent["delta"]["examples"].as_u64(), Some(examples));
    // The diff is still there beside it.
    assert_eq!(out["questions"][0]["id"], "intent");
}

#[allow(clippy::too_many_lines)] // one story, read top to bottom
#[test]
fn promotions_and_tag_moves_are_recorded_with_who_and_on_what_evaluation() {
    let env = TestEnv::new();
    let main0 = create(&env);
    let draft = commit_draft(&env);
    assert_eq!(env.json(&["models", "history", MODEL]), json!([]));

    // A tag created, then refused without --force, then moved with it.
    let user = |cmd: &mut assert_cmd::Command| {
        cmd.env("USER", "dana");
    };
    let mut tag = env.cmd();
    user(&mut tag);
    tag.args(["models", "tag", MODEL, "stable"])
        .assert()
        .success();
    let (code, problem, _) = env.problem(&["models", "tag", MODEL, "stable", "-r", "draft"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("already_exists")),
        "{problem}"
    );
    let mut moved = env.cmd();
    user(&mut moved);
    moved
        .args(["models", "tag", MODEL, "stable", "-r", "draft", "--force"])
        .assert()
        .success();
    assert_eq!(
        env.json(&["models", "show", MODEL])["tags"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "stable")
            .map(|t| t["commit"].clone()),
        Some(json!(draft))
    );

    // An evaluation of the draft, and one of main: the promotion relies on the draft's.
    let eval = |revision: &str| {
        env.json(&["eval", MODEL, "--revision", revision])["jobId"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let of_draft = eval("draft");
    let of_main = eval("main");
    // A named evaluation of another commit is refused, and nothing moves.
    let (code, problem, _) = env.problem(&[
        "models",
        "promote",
        MODEL,
        "draft",
        "--evaluation",
        &of_main,
    ]);
    assert_eq!(code, 1, "{problem}");
    assert_eq!(problem["code"], "validation_error");
    assert_eq!(problem["details"][0]["loc"], json!(["body", "evaluation"]));
    let (_, unknown, _) =
        env.problem(&["models", "promote", MODEL, "draft", "--evaluation", "nope"]);
    assert_eq!(unknown["code"], "validation_error", "{unknown}");
    assert_eq!(
        env.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"],
        main0.as_str()
    );

    let mut promote = env.cmd();
    user(&mut promote);
    promote
        .args(["models", "promote", MODEL, "draft"])
        .assert()
        .success();
    // Promoting to where the branch is already records nothing.
    env.json(&["models", "promote", MODEL, "draft"]);

    let history = env.json(&["models", "history", MODEL]);
    let events = history.as_array().unwrap();
    let summary: Vec<_> = events
        .iter()
        .map(|e| {
            (
                e["action"].as_str().unwrap(),
                e["ref"].as_str().unwrap(),
                e["from"].clone(),
                e["to"].as_str().unwrap(),
                e["actor"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("promote", "main", json!(main0), draft.as_str(), "dana"),
            ("tag", "stable", json!(main0), draft.as_str(), "dana"),
            ("tag", "stable", Value::Null, main0.as_str(), "dana"),
        ]
    );
    // The promotion relied on the latest evaluation of its commit: the draft's.
    let relied = &events[0]["evaluation"];
    assert_eq!(relied["jobId"], of_draft.as_str(), "{relied}");
    assert_eq!(relied["commit"], draft.as_str());
    let report = env.json(&["jobs", "poll", &of_draft]);
    assert_eq!(
        relied["overall"]["accuracy"],
        report["result"]["overall"]["metrics"]["accuracy"]
    );
    let intent = &relied["questions"]["intent"];
    let interval = intent["interval"].as_array().unwrap();
    assert!(
        interval[0].as_f64() <= intent["accuracy"].as_f64(),
        "{intent}"
    );
    assert!(
        interval[1].as_f64() >= intent["accuracy"].as_f64(),
        "{intent}"
    );
    // The first tag was made before any evaluation.
    assert_eq!(events[2]["evaluation"], Value::Null);
    assert_eq!(
        env.json(&["models", "history", MODEL, "-n", "1"]),
        json!([events[0]])
    );
}

#[test]
fn an_explicit_evaluation_is_the_one_recorded() {
    let env = TestEnv::new();
    create(&env);
    let draft = commit_draft(&env);
    let first = env.json(&["eval", MODEL, "--revision", "draft"])["jobId"]
        .as_str()
        .unwrap()
        .to_owned();
    let latest = env.json(&["eval", MODEL, "--revision", &draft, "--baseline", "main"]);
    assert_ne!(latest["jobId"], first.as_str());
    env.json(&["models", "promote", MODEL, "draft", "--evaluation", &first]);
    let event = &env.json(&["models", "history", MODEL])[0];
    assert_eq!(event["evaluation"]["jobId"], first.as_str(), "{event}");
    assert_eq!(event["evaluation"]["baseline"], Value::Null);
}
