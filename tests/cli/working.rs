//! `--questions-file`: a questions file not committed, evaluated as a working copy on top of
//! a revision, with the real binary, the `mo` engine, git and SQLite, locally and through a
//! served home. Its figures are those of the same file committed; an unchanged question
//! keeps the revision's learned head, a changed one is zero-shot; nothing is committed and
//! no evaluation of it counts as one of the commit.

use crate::align::labelled;
use crate::common::{TestEnv, assert_succeeded, repo_root};
use serde_json::{Value, json};

/// The support questions, with urgency reworded, escalate renamed and intent as it is.
fn draft() -> String {
    let committed =
        std::fs::read_to_string(repo_root().join("examples/support/questions.yaml")).unwrap();
    let reworded = committed.replace(
        "How urgently does this ticket need a response, judged by its consequences for the customer?",
        "How soon must someone answer this ticket?",
    );
    assert_ne!(reworded, committed);
    reworded.replace("\nescalate:\n", "\nescalation:\n")
}

/// `acme/support` on `mo` with 120 labelled examples annotated for intent and urgency, and
/// intent aligned: the alignment's branch.
fn aligned_env() -> (TestEnv, String) {
    let env = TestEnv::new();
    env.create_model(
        "acme/support",
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    env.ingest("acme/support", &labelled(120, &["intent", "urgency"]));
    let job = env.json(&crate::align::ALIGN_INTENT);
    assert_eq!(job["result"]["improved"], true, "{job}");
    let branch = job["result"]["branch"].as_str().unwrap().to_owned();
    (env, branch)
}

/// An eval's JSON report without what names the run rather than measures it: the job, the
/// revision evaluated, the working-copy label and how many answers came from a cache.
fn figures(report: &Value) -> Value {
    let mut report = report.clone();
    for key in [
        "jobId",
        "revision",
        "workingCopy",
        "decided",
        "cached",
        "gates",
    ] {
        report.as_object_mut().unwrap().remove(key);
    }
    report
}

/// The answers of each line of a batch's JSON Lines output, by index.
fn answers(stdout: &[u8]) -> Vec<(u64, Value)> {
    String::from_utf8_lossy(stdout)
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).unwrap();
            assert!(line.get("error").is_none(), "{line}");
            (line["index"].as_u64().unwrap(), line["answers"].clone())
        })
        .collect()
}

fn commits(env: &TestEnv) -> String {
    let repo = env.home().join("repos/acme/support.git");
    env.git_in(&repo, &["rev-list", "--all"])
}

// One scenario: the same working copy read several ways; splitting it would align again.
#[allow(clippy::too_many_lines)]
#[test]
fn a_working_copy_scores_as_the_same_file_committed_locally_and_through_a_server() {
    let (env, branch) = aligned_env();
    let draft_file = env.write("draft.yaml", &draft());
    let before = commits(&env);
    let eval_draft = [
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--questions-file",
        "draft.yaml",
    ];
    let working = env.json(&eval_draft);
    assert_eq!(
        working["workingCopy"],
        json!({"of": branch, "questions": {
            "intent": "unchanged", "urgency": "changed", "escalation": "new"}}),
        "{working}"
    );
    // The baseline is the revision itself, at its commit.
    assert_eq!(working["baseline"], working["revision"]);
    assert_eq!(working["revision"]["name"], branch.as_str());
    assert_eq!(commits(&env), before, "nothing committed");

    // Not an evaluation of the branch's commit: promote relies on none, and refuses it.
    let (code, problem, _) = env.problem(&[
        "models",
        "promote",
        "acme/support",
        &branch,
        "--evaluation",
        working["jobId"].as_str().unwrap(),
    ]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    assert!(
        problem["details"][0]["msg"]
            .as_str()
            .unwrap()
            .contains("working copy"),
        "{problem}"
    );

    // Through a served home: the request carries the questions, the report is the same.
    let token = env.json(&[
        "tokens",
        "create",
        "--name",
        "ci",
        "--role",
        "acme/*=admin",
        "--scope",
        "models:read",
        "--scope",
        "batches",
        "--scope",
        "alignments",
        "--scope",
        "examples:read",
        "--scope",
        "decisions",
    ]);
    let served = env.spawn_serve();
    // What a command prints through the server, once it succeeded.
    let through_server = |args: &[&str]| -> Vec<u8> {
        let output = env
            .cmd()
            .env("ARBITER_TOKEN", token["token"].as_str().unwrap())
            .args(["--server", &served.address])
            .args(args)
            .output()
            .unwrap();
        assert_succeeded(&output);
        output.stdout
    };
    let remote: Value = serde_json::from_slice(&through_server(&eval_draft)).unwrap();
    assert_eq!(figures(&remote), figures(&working));
    assert_eq!(remote["workingCopy"], working["workingCopy"]);
    let batch_draft = [
        "batch",
        "acme/support",
        "--examples",
        "annotated",
        "--revision",
        &branch,
        "--questions-file",
        "draft.yaml",
    ];
    let remote_batch = answers(&through_server(&batch_draft));
    let next_draft = [
        "examples",
        "next",
        "acme/support",
        "--revision",
        &branch,
        "--questions-file",
        "draft.yaml",
        "-n",
        "10",
    ];
    let remote_next: Value =
        serde_json::from_slice(&through_server(&[&["--json"][..], &next_draft].concat())).unwrap();
    drop(served);
    let local_next = env.json(&next_draft);
    assert_eq!(local_next["workingCopy"], working["workingCopy"]);
    assert_eq!(remote_next["examples"], local_next["examples"]);
    assert_eq!(local_next["examples"].as_array().unwrap().len(), 10);
    let local_batch = answers(&env.cmd().args(batch_draft).output().unwrap().stdout);
    assert_eq!(local_batch.len(), 120);
    assert_eq!(remote_batch, local_batch);
    assert_eq!(commits(&env), before, "nothing committed");

    // The same file committed on a branch and evaluated there: the same figures.
    env.cmd()
        .args(["models", "commit", "acme/support", "-q"])
        .arg(&draft_file)
        .args(["-b", "draft", "--from", &branch, "-m", "draft"])
        .assert()
        .success();
    let committed = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        "draft",
        "--baseline",
        &branch,
    ]);
    assert_eq!(committed.get("workingCopy"), None);
    assert_eq!(figures(&committed), figures(&working));
    assert_eq!(
        committed["cached"], 240,
        "every answer the working copy's: {committed}"
    );
    let committed_batch = env
        .cmd()
        .args([
            "batch",
            "acme/support",
            "--examples",
            "annotated",
            "--revision",
            "draft",
        ])
        .output()
        .unwrap();
    assert_eq!(answers(&committed_batch.stdout), local_batch);
    let committed_next = env.json(&[
        "examples",
        "next",
        "acme/support",
        "--revision",
        "draft",
        "-n",
        "10",
    ]);
    assert_eq!(committed_next.get("workingCopy"), None);
    assert_eq!(committed_next["examples"], local_next["examples"]);
    assert_eq!(
        committed_next["cached"], 120,
        "every answer the working copy's"
    );

    // The unchanged question kept its learned head: its figures are the branch's own.
    let at_branch = env.json(&["eval", "acme/support", "--revision", &branch]);
    assert_eq!(
        working["questions"]["intent"]["metrics"],
        at_branch["questions"]["intent"]["metrics"]
    );
    let history = env.json(&["models", "history", "acme/support"]);
    assert_eq!(history, json!([]), "nothing promoted or tagged");
}

/// A reworded aligned question is zero-shot in the working copy: its figures are those of the
/// same wording committed where nothing was learned, not the aligned branch's.
#[test]
fn a_changed_aligned_question_is_zero_shot() {
    let (env, branch) = aligned_env();
    let committed =
        std::fs::read_to_string(repo_root().join("examples/support/questions.yaml")).unwrap();
    let reworded = committed.replace(
        "What does the customer mainly want from this ticket?",
        "What is this ticket about?",
    );
    let file = env.write("reworded.yaml", &reworded);
    let eval = ["eval", "acme/support", "-q", "intent", "--revision"];
    let working = env.json(&[&eval[..], &[&branch, "--questions-file", "reworded.yaml"]].concat());
    assert_eq!(working["workingCopy"]["questions"]["intent"], "changed");
    env.cmd()
        .args(["models", "commit", "acme/support", "-q"])
        .arg(&file)
        .args(["-b", "zero", "--from", "main", "-m", "reworded"])
        .assert()
        .success();
    let zero = env.json(&[&eval[..], &["zero"]].concat());
    let aligned = env.json(&[&eval[..], &[branch.as_str()]].concat());
    let intent = |report: &Value| report["questions"]["intent"]["metrics"].clone();
    assert_eq!(intent(&working), intent(&zero));
    assert_ne!(intent(&working), intent(&aligned));
}

#[test]
fn a_draft_that_does_not_validate_is_refused_where_it_is_wrong() {
    let env = TestEnv::new();
    env.create_model(
        "acme/support",
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    env.write(
        "bad.yaml",
        "intent:\n  type: score\n  criteria: [a, null]\n",
    );
    let (code, problem, stderr) =
        env.problem(&["eval", "acme/support", "--questions-file", "bad.yaml"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["bad.yaml", "intent", "criteria", 1]),
        "{stderr}"
    );
    env.write("broken.yaml", "intent: [\n");
    let (code, problem, _) =
        env.problem(&["eval", "acme/support", "--questions-file", "broken.yaml"]);
    assert_eq!(
        (code, problem["details"][0]["loc"].clone()),
        (1, json!(["broken.yaml"]))
    );
    env.cmd()
        .args(["batch", "acme/support", "--examples", "all", "--capture"])
        .args(["--questions-file", "bad.yaml"])
        .assert()
        .code(2);
    assert_eq!(env.json(&["jobs", "list"]), json!([]), "nothing ran");
}
