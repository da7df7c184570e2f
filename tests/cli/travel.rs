//! A model that travels with its labels: `examples export --annotated` writes the labels
//! file (`examples/annotated.jsonl`), `models push` and `models pull` move a model's
//! branches and tags to and from a git repository, and `models import` brings one into a
//! home, its labels ingested. Real git repositories on plain paths and `file://` URLs.

use crate::align::labelled;
use crate::common::{TestEnv, repo_root, support_file};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

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

// ---------------------------------------------------------------------------------------
// push, import, pull

/// An empty bare repository `hub/<name>.git` in `env`'s directory, as `git init --bare`
/// makes one (its HEAD at git's `master`); its `file://` URL.
fn hub(env: &TestEnv, name: &str) -> String {
    let dir = env.path().join(format!("hub/{name}.git"));
    std::fs::create_dir_all(&dir).unwrap();
    env.git_in(&dir, &["init", "-q", "--bare"]);
    format!("file://{}", dir.display())
}

/// A clone of `url` at `env`'s `dir`.
fn clone(env: &TestEnv, url: &str, dir: &str) -> PathBuf {
    env.git_in(env.path(), &["clone", "-q", url, dir]);
    env.path().join(dir)
}

/// `git add -A`, `git commit` and `git push` in the clone `work`.
fn commit_and_push(env: &TestEnv, work: &Path, message: &str) -> String {
    env.commit_all(work, message);
    env.git_in(work, &["push", "-q", "origin", "HEAD"]);
    env.git_in(work, &["rev-parse", "HEAD"])
}

/// An eval's JSON report without what names the run rather than measures it.
fn figures(env: &TestEnv) -> Value {
    let mut report = env.json(&["eval", MODEL, "--format", "json"]);
    for key in ["jobId", "decided", "cached"] {
        report.as_object_mut().unwrap().remove(key);
    }
    report
}

/// A home with `acme/support` (the support questions on `mo`), pushed to a new `hub`:
/// the hub's URL.
fn pushed_home() -> (TestEnv, String) {
    let env = TestEnv::new();
    env.create_model(
        MODEL,
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    let url = hub(&env, MODEL);
    env.json(&["models", "push", MODEL, &url]);
    (env, url)
}

#[test]
fn a_model_pushed_with_its_labels_and_imported_in_a_fresh_home_evaluates_the_same() {
    // Home A: 120 labelled tickets, intent aligned and promoted, a second annotator on some.
    let a = TestEnv::new();
    a.create_model(
        MODEL,
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    a.ingest(MODEL, &labelled(120, &["intent", "escalate"]));
    let votes = a.write(
        "votes.jsonl",
        concat!(
            r#"{"example_id":"s-0001","question":"intent","answer":"refund","annotator":"bob"}"#,
            "\n",
            r#"{"example_id":"s-0002","question":"intent","answer":"billing","annotator":"bob"}"#,
            "\n",
            r#"{"example_id":"s-0003","question":"intent","answer":"technical","annotator":"bob"}"#,
            "\n",
        ),
    );
    a.cmd()
        .args(["examples", "annotate", MODEL, "--file"])
        .arg(&votes)
        .assert()
        .success();
    let job = a.json(&["align", MODEL, "-q", "intent", "--seed", "3"]);
    let branch = job["result"]["branch"].as_str().unwrap().to_owned();
    a.json(&["models", "promote", MODEL, &branch]);
    let in_a = figures(&a);

    // Pushed to a bare repository: every branch, and the model's id.
    let url = hub(&a, MODEL);
    let pushed = a.json(&["models", "push", MODEL, &url]);
    let moved: Vec<(&str, &str)> = pushed["moved"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["kind"].as_str().unwrap(), m["name"].as_str().unwrap()))
        .collect();
    assert_eq!(
        moved,
        [
            ("branch", branch.as_str()),
            ("branch", "main"),
            ("model-id", "model-id")
        ]
    );
    // The labels file committed to it from a clone.
    let work = clone(&a, &url, "work");
    a.cmd()
        .args(["examples", "export", MODEL, "--annotated", "--output"])
        .arg(work.join("examples/annotated.jsonl"))
        .assert()
        .success();
    let labels = std::fs::read(work.join("examples/annotated.jsonl")).unwrap();
    let lines = String::from_utf8_lossy(&labels).lines().count() as u64;
    // Each question's annotation is one annotator's object, or a list of several.
    let votes: usize = String::from_utf8_lossy(&labels)
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .flat_map(|l| {
            l["annotations"]
                .as_object()
                .unwrap()
                .values()
                .cloned()
                .collect::<Vec<_>>()
        })
        .map(|a| a.as_array().map_or(1, Vec::len))
        .sum();
    assert_eq!(
        votes,
        2 * 120 + 3,
        "intent and escalate of each, and bob's three"
    );
    let labelled_tip = commit_and_push(&a, &work, "Labels");

    // Home B imports it: same model, same labels, same figures.
    let b = TestEnv::new();
    let imported = b.json(&["models", "import", &url]);
    assert_eq!(imported["model"], MODEL);
    assert_eq!(imported["modelId"], pushed["modelId"]);
    assert_eq!(imported["defaultBranch"], "main");
    assert_eq!(
        imported["labels"],
        json!({"created": lines, "existing": 0, "annotations": votes})
    );
    assert_eq!(
        b.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"],
        labelled_tip.as_str()
    );
    let exported = b
        .cmd()
        .args(["examples", "export", MODEL, "--annotated"])
        .output()
        .unwrap();
    assert_eq!(
        exported.stdout, labels,
        "the labels come back byte for byte"
    );

    // A pulls the labels commit: nothing new to ingest.
    let pulled = a.json(&["models", "pull", MODEL]);
    assert_eq!(pulled["moved"][0]["new"], labelled_tip.as_str());
    assert_eq!(
        pulled["labels"],
        json!({"created": 0, "existing": lines, "annotations": 0})
    );
    let (in_a_after, in_b) = (figures(&a), figures(&b));
    assert_eq!(
        in_a_after, in_b,
        "one model, one set of labels, one evaluation"
    );
    for question in ["intent", "escalate"] {
        let (before, after) = (&in_a["questions"][question], &in_b["questions"][question]);
        assert_eq!(before, after, "{question}");
        assert!(
            after["metrics"]["examples"].as_u64().unwrap() > 0,
            "{after}"
        );
        assert!(after["excludedFitted"].is_u64(), "{after}");
    }
    assert_eq!(in_a["overall"], in_b["overall"]);
}

#[test]
fn a_commit_pushed_with_git_is_pulled_and_a_diverged_branch_is_refused() {
    let (a, url) = pushed_home();
    let b = TestEnv::new();
    b.json(&["models", "import", &url]);
    // An import onto a path taken, or of a model this home has under another, is refused.
    let (code, problem, _) = b.problem(&["models", "import", &url]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("already_exists"))
    );
    let (code, problem, _) = b.problem(&["models", "import", &url, "--as", "zeta/copy"]);
    assert_eq!(code, 1);
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("which is acme/support in this home"),
        "{problem}"
    );

    // A question added in a plain clone, pushed with git, pulled into B.
    let work = clone(&a, &url, "work");
    let questions = work.join("questions.yaml");
    let mut text = std::fs::read_to_string(&questions).unwrap();
    text.push_str(
        "\nchurn_risk:\n  type: noul\n  instructions: The customer says they may leave.\n",
    );
    std::fs::write(&questions, text).unwrap();
    let by_hand = commit_and_push(&a, &work, "Add churn risk by hand");
    let before = b.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"].clone();
    let pulled = b.json(&["models", "pull", MODEL]);
    assert_eq!(
        pulled["moved"],
        json!([{"kind": "branch", "name": "main", "old": before, "new": by_hand}])
    );
    assert!(pulled.get("labels").is_none(), "no labels file: {pulled}");
    let shown = b.json(&["models", "show", MODEL]);
    assert_eq!(shown["questions"][3], "churn_risk");

    // B commits, the clone pushes another commit: diverged. Nothing moves either way.
    let mine = b.write(
        "mine.yaml",
        &std::fs::read_to_string(&questions)
            .unwrap()
            .replace("may leave", "will leave"),
    );
    b.json(&[
        "models",
        "commit",
        MODEL,
        "-q",
        mine.to_str().unwrap(),
        "-m",
        "mine",
    ]);
    let ours = b.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"].clone();
    std::fs::write(work.join("NOTES.md"), "theirs\n").unwrap();
    let theirs = commit_and_push(&a, &work, "Theirs");
    let (code, problem, _) = b.problem(&["models", "pull", MODEL]);
    let detail = problem["detail"].as_str().unwrap();
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("not_fast_forward")),
        "{detail}"
    );
    assert!(
        detail.contains("branch `main` has diverged") && detail.contains("nothing was moved"),
        "{detail}"
    );
    assert_eq!(
        b.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"],
        ours
    );
    let (code, problem, _) = b.problem(&["models", "push", MODEL]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("not_fast_forward"))
    );
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("nothing was pushed"),
        "{problem}"
    );
    assert_eq!(
        a.git_in(&work, &["ls-remote", &url, "main"])
            .split('\t')
            .next(),
        Some(theirs.as_str())
    );
    // --force replaces theirs.
    let forced = b.json(&["models", "push", MODEL, "--force"]);
    assert_eq!(forced["moved"][0]["old"], theirs.as_str());
    assert_eq!(forced["moved"][0]["new"], ours);
}

#[test]
fn a_repository_that_holds_no_model_is_a_usage_error_and_imports_nothing() {
    let env = TestEnv::new();
    let url = hub(&env, "acme/notes");
    let work = clone(&env, &url, "notes");
    std::fs::write(work.join("README.md"), "notes\n").unwrap();
    commit_and_push(&env, &work, "Notes");
    let (code, problem, _) = env.problem(&["models", "import", &url]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (2, Some("usage_error")),
        "{problem}"
    );
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["model.yaml"]),
        "{problem}"
    );
    // Invalid questions: each mistake with its place.
    std::fs::write(work.join("model.yaml"), "base: mo\n").unwrap();
    std::fs::copy(
        repo_root().join("examples/support/questions-invalid.yaml"),
        work.join("questions.yaml"),
    )
    .unwrap();
    commit_and_push(&env, &work, "A broken model");
    let (code, problem, stderr) = env.problem(&["models", "import", &url, "--as", "acme/broken"]);
    assert_eq!(code, 2, "{stderr}");
    let locs: Vec<&Value> = problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["loc"])
        .collect();
    assert!(
        locs.len() >= 3 && locs.iter().all(|l| l[0] == "questions.yaml"),
        "{problem}"
    );
    // A name that cannot be derived: usage, with the flag that names it.
    let (code, problem, _) = env.problem(&["models", "import", "hub"]);
    assert_eq!(code, 2);
    assert!(
        problem["detail"].as_str().unwrap().contains("--as"),
        "{problem}"
    );
    // A path with no repository: not found.
    let (code, _, _) = env.problem(&["models", "import", "nowhere/acme/support.git"]);
    assert_eq!(code, 4);
    // Nothing of any of them is left.
    let models = env.json(&["models", "list"]);
    assert!(
        models["models"]
            .as_array()
            .unwrap()
            .iter()
            .all(|m| m["kind"] == "base"),
        "{models}"
    );
    let repos = env.home().join("repos");
    let left: Vec<_> = walkdir(&repos);
    assert!(left.is_empty(), "{left:?}");
    // Local only: a usage error against a server.
    for args in [
        vec!["models", "import", url.as_str()],
        vec!["models", "push", MODEL],
        vec!["models", "pull", MODEL],
    ] {
        let mut args = args;
        args.splice(0..0, ["--server", "http://127.0.0.1:9"]);
        let (code, problem, _) = env.problem(&args);
        assert_eq!(code, 2, "{args:?}");
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains("runs only on a local home"), "{detail}");
    }
}

/// The files and directories under `dir` (none when it is not there), but the owners'.
fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let Ok(owners) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    owners
        .flat_map(|owner| std::fs::read_dir(owner.unwrap().path()).unwrap())
        .map(|entry| entry.unwrap().path())
        .collect()
}

#[test]
fn a_labels_file_with_an_unknown_question_or_an_answer_outside_the_outcomes_imports_nothing() {
    let (a, url) = pushed_home();
    let work = clone(&a, &url, "work");
    let labels = [
        r#"{"example_id":"t-1","state":"Refund me","annotations":{"intent":{"answer":"refund"}}}"#,
        r#"{"example_id":"t-2","state":"Where is it","annotations":{"mood":{"answer":"angry"}}}"#,
        r#"{"example_id":"t-3","state":"Down","annotations":{"urgency":{"answer":9}}}"#,
    ];
    std::fs::create_dir_all(work.join("examples")).unwrap();
    std::fs::write(
        work.join("examples/annotated.jsonl"),
        labels.join("\n") + "\n",
    )
    .unwrap();
    let tip = commit_and_push(&a, &work, "Labels with two mistakes");

    let b = TestEnv::new();
    let (code, problem, _) = b.problem(&["models", "import", &url]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error")),
        "{problem}"
    );
    let details = problem["details"].as_array().unwrap();
    assert_eq!(details.len(), 2, "{problem}");
    assert_eq!(details[0]["loc"], json!(["examples/annotated.jsonl:2"]));
    assert!(
        details[0]["msg"]
            .as_str()
            .unwrap()
            .starts_with("annotations.mood.answer: no question `mood`"),
        "{problem}"
    );
    assert_eq!(details[1]["loc"], json!(["examples/annotated.jsonl:3"]));
    assert!(
        details[1]["msg"]
            .as_str()
            .unwrap()
            .starts_with("annotations.urgency.answer: "),
        "{problem}"
    );
    // Nothing imported: no model, no repository, no example.
    assert!(walkdir(&b.home().join("repos")).is_empty());
    let (code, _, _) = b.problem(&["examples", "list", MODEL]);
    assert_eq!(code, 4);
    // A pull of the same commit moves nothing either.
    let before = a.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"].clone();
    let (code, problem, _) = a.problem(&["models", "pull", MODEL]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    let after = a.json(&["models", "show", MODEL])["latestCheckpoint"]["checkpointId"].clone();
    assert_eq!(after, before);
    assert_ne!(after, tip.as_str());
    assert_eq!(a.json(&["examples", "list", MODEL])["examples"], json!([]));
}

#[test]
fn push_and_pull_without_a_url_need_an_upstream() {
    let env = TestEnv::new();
    env.create_model(
        MODEL,
        "mo",
        &repo_root().join("examples/support/questions.yaml"),
    );
    for verb in ["push", "pull"] {
        let (code, problem, _) = env.problem(&["models", verb, MODEL]);
        assert_eq!(code, 1);
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains("has no upstream")
                && detail.contains(&format!("arbiter models {verb} acme/support URL")),
            "{detail}"
        );
    }
    let (code, _, _) = env.problem(&["models", "push", "acme/nope", "file:///nowhere.git"]);
    assert_eq!(code, 4);
    let (code, _, _) = env.problem(&[
        "models",
        "push",
        MODEL,
        &format!("file://{}/nowhere.git", env.path().display()),
    ]);
    assert_eq!(code, 4, "no repository there");
}
