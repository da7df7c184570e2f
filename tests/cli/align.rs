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
    env_with_examples(n, &["intent"])
}

/// A model on `mo` with the labelled set's questions and its first `n` examples, with only
/// the annotations of `keep`.
fn env_with_examples(n: usize, keep: &[&str]) -> TestEnv {
    let env = TestEnv::new();
    let questions = repo_root().join("benches/data/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    ingest(&env, &labelled(n, keep));
    env
}

/// Ingest JSON lines of examples into `acme/support`.
fn ingest(env: &TestEnv, lines: &str) {
    let file = env.write("examples.jsonl", lines);
    env.cmd()
        .args(["examples", "ingest", "acme/support", "--file"])
        .arg(&file)
        .assert()
        .success();
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
    let env = env_with_annotations(120);
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
    assert_eq!(intent["examples"], 120);
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

    // Held out: a quarter, stratified; the figures are on those alone.
    assert_eq!(
        (&intent["fitted"], &intent["heldOut"]),
        (&json!(90), &json!(30))
    );
    assert_eq!(intent["before"]["examples"], 30);
    assert_eq!(intent["after"]["examples"], 30);
    let splits = intent["gate"]["splits"].as_array().unwrap();
    assert_eq!(splits.len(), 5, "{intent}");
    assert!(splits.iter().all(|g| g.as_f64().unwrap() > 0.0), "{intent}");

    // The new checkpoint: parent the base, the figures in its message, and only a learned
    // file added: questions.yaml is the user's, byte for byte, comments included.
    let tip = result["checkpoint"]["checkpointId"].as_str().unwrap();
    assert_eq!(
        env.git_in(&repo(&env), &["rev-parse", &format!("{tip}^")]),
        base
    );
    let message = env.git_in(&repo(&env), &["log", "-1", "--format=%B", tip]);
    assert!(message.starts_with("Align intent"), "{message}");
    assert!(
        message.contains("log_loss") && message.contains("->") && message.contains("30 held out"),
        "{message}"
    );
    let changed = env.git_in(&repo(&env), &["diff", "--name-only", "main", &branch]);
    assert_eq!(changed, "aligned/intent.yaml");
    let questions_yaml = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    assert_eq!(
        questions_yaml,
        std::fs::read_to_string(repo_root().join("benches/data/questions.yaml"))
            .unwrap()
            .trim_end()
    );
    assert!(questions_yaml.starts_with("# Support-desk triage questions"));
    let learned_text = env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:aligned/intent.yaml")],
    );
    assert!(
        learned_text.len() < 48 * 1024,
        "exemplars are referenced compactly: {} bytes",
        learned_text.len()
    );
    let learned = arbiter::wire::value::parse_yaml(&learned_text).unwrap();
    let block = &learned["arbiter_alignment"];
    assert_eq!(block["version"], 1);
    assert_eq!(block["fitted"]["examples"], 90);
    assert_eq!(block["fitted"]["held_out"], 30);
    assert_eq!(block["fitted"]["id"].as_str().unwrap().len(), 32);
    assert!(
        learned.get("task").is_none(),
        "the task stays in questions.yaml"
    );
    for exemplar in learned["examples"].as_array().into_iter().flatten() {
        assert!(exemplar["example_id"].is_string(), "{exemplar}");
        assert!(exemplar["text"].is_string(), "{exemplar}");
        assert!(exemplar.get("state").is_none(), "{exemplar}");
    }

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

    // Selective prediction: 30 held-out examples cannot show a 5% error with 95% confidence
    // (0 wrong in 30 still bounds it at 8.3%), so no abstain threshold is learned...
    assert!(block.get("abstain").is_none(), "{block}");
    // ...and one a person sets in the learned file (plain git) marks every answer less
    // confident than it `x_abstain: true`, leaving the answer as it was.
    let below = 0.9;
    let work = env.path().join("work");
    env.git_in(
        env.path(),
        &[
            "clone",
            "-q",
            "--branch",
            &branch,
            repo(&env).to_str().unwrap(),
            "work",
        ],
    );
    let learned_path = work.join("aligned/intent.yaml");
    let edited = learned_text.replacen(
        "arbiter_alignment:\n",
        &format!("arbiter_alignment:\n  abstain: {{below: {below}}}\n"),
        1,
    );
    assert_ne!(edited, learned_text);
    std::fs::write(&learned_path, edited).unwrap();
    for args in [
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@example.com",
            "commit",
            "-qam",
            "abstain below 0.9",
        ][..],
        &["push", "-q", "origin", "HEAD:refs/heads/abstain"],
    ] {
        env.git_in(&work, args);
    }
    // `models diff` shows the learned file's change, and nothing else.
    let diff = env.json(&["models", "diff", "acme/support", &branch, "abstain"]);
    assert_eq!(
        (&diff["questions"], &diff["modelYaml"]),
        (&json!([]), &json!([]))
    );
    assert_eq!(
        diff["learned"],
        json!([{"id": "intent", "status": "changed", "changes": [
            {"path": ["arbiter_alignment", "abstain"], "to": {"below": below}}
        ]}])
    );
    let output = env.path().join("abstain.ndjson");
    env.cmd()
        .args([
            "batch",
            "acme/support",
            "--examples",
            "annotated",
            "--revision",
            "abstain",
        ])
        .arg("--output")
        .arg(&output)
        .assert()
        .success();
    let (mut abstained, mut answered) = (0, 0);
    for line in std::fs::read_to_string(&output).unwrap().lines() {
        let intent: Value =
            serde_json::from_str::<Value>(line).unwrap()["answers"]["intent"].clone();
        let top = intent["probabilities"]
            .as_object()
            .unwrap()
            .values()
            .map(|p| p.as_f64().unwrap())
            .fold(0.0, f64::max);
        if top < below {
            assert_eq!(intent["x_abstain"], true, "{top} < {below}: {intent}");
            abstained += 1;
        } else {
            assert!(
                intent.get("x_abstain").is_none(),
                "{top} ≥ {below}: {intent}"
            );
            answered += 1;
        }
        assert!(
            intent["choice"].is_string(),
            "an abstention still answers: {intent}"
        );
    }
    assert!(
        abstained > 0 && answered > 0,
        "{abstained} abstained, {answered} answered"
    );

    // Eval: both checkpoints on the 30 examples the alignment did not fit on (never the 90
    // it did), and the same figure the alignment reported for them.
    let report = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    let evaluated = &report["questions"]["intent"];
    assert_eq!(evaluated["metrics"]["examples"], 30, "{report}");
    assert_eq!(evaluated["baseline"]["examples"], 30, "{report}");
    assert_eq!(evaluated["excludedFitted"], 90, "{report}");
    for (side, figures) in [("metrics", "after"), ("baseline", "before")] {
        let (eval, align) = (
            evaluated[side]["accuracy"].as_f64().unwrap(),
            intent[figures]["accuracy"].as_f64().unwrap(),
        );
        assert!(
            (eval - align).abs() <= 0.02,
            "{side}: eval {eval} vs the alignment's held-out {align}"
        );
    }
    assert_eq!(report["gates"]["passed"], true);
    assert!(report["decided"].as_u64().unwrap() > 0);

    // How sure: 95% intervals around each side's figures, the change paired over the 30
    // examples both scored, and selective prediction at 5% and 10% error.
    let figure = |v: &Value| v.as_f64().unwrap();
    for side in ["metrics", "baseline"] {
        let metrics = &evaluated[side];
        for name in ["accuracy", "loss"] {
            let estimate = &metrics["intervals"][name];
            let (value, low, high) = (
                figure(&estimate["value"]),
                figure(&estimate["low"]),
                figure(&estimate["high"]),
            );
            assert!((value - figure(&metrics[name])).abs() < 1e-12, "{metrics}");
            assert!(low <= value && value <= high && low < high, "{metrics}");
        }
        let coverage = metrics["coverage"].as_array().unwrap();
        assert_eq!(coverage.len(), 2, "{metrics}");
        assert_eq!(coverage[0]["targetError"], 0.05);
        assert_eq!(coverage[1]["targetError"], 0.1);
        for at in coverage {
            assert!(figure(&at["error"]) <= figure(&at["targetError"]), "{at}");
            assert!((figure(&at["coverage"]) - figure(&at["kept"]) / 30.0).abs() < 1e-12);
        }
        assert!(
            figure(&coverage[0]["coverage"]) <= figure(&coverage[1]["coverage"]),
            "a looser target never answers less: {metrics}"
        );
    }
    let delta = &evaluated["delta"];
    assert_eq!(delta["examples"], 30, "{delta}");
    let change =
        figure(&evaluated["metrics"]["accuracy"]) - figure(&evaluated["baseline"]["accuracy"]);
    assert!(
        (figure(&delta["accuracy"]["value"]) - change).abs() < 1e-9,
        "{delta}"
    );
    assert!(
        figure(&delta["accuracy"]["low"]) <= change && change <= figure(&delta["accuracy"]["high"])
    );
    // --strict judges the bound: a minimum between the lower bound and the point passes
    // plainly and fails strictly.
    let accuracy = &evaluated["metrics"]["intervals"]["accuracy"];
    let between = f64::midpoint(figure(&accuracy["low"]), figure(&accuracy["value"])).to_string();
    let gate = |strict: bool| {
        let mut cmd = env.cmd();
        cmd.args([
            "eval",
            "acme/support",
            "--revision",
            &branch,
            "--min-accuracy",
            &between,
        ]);
        if strict {
            cmd.arg("--strict");
        }
        cmd.output().unwrap()
    };
    assert_eq!(
        gate(false).status.code(),
        Some(0),
        "the point estimate clears {between}"
    );
    let strict = gate(true);
    assert_eq!(strict.status.code(), Some(3));
    assert!(
        String::from_utf8_lossy(&strict.stderr).contains("accuracy's 95% lower bound"),
        "{}",
        String::from_utf8_lossy(&strict.stderr)
    );
    // A checkpoint against itself: no change, so even a strict no-regression passes.
    let itself = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--revision",
            "main",
            "--baseline",
            "main",
            "--no-regression",
            "--strict",
        ])
        .output()
        .unwrap();
    assert_eq!(
        itself.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&itself.stderr)
    );
    // The table says what was left out.
    let table = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--revision",
            &branch,
            "--baseline",
            "main",
            "--format",
            "table",
        ])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains(
            "examples an alignment was fitted on are left out at both checkpoints (intent 90)"
        ),
        "{table}"
    );
    assert!(
        table.contains("Accuracy (95%)") && table.contains("At 5% Error"),
        "{table}"
    );
    // --include-fitted scores all 120, as before held-out records.
    let everything = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--include-fitted",
    ]);
    let everything = &everything["questions"]["intent"];
    assert_eq!(everything["metrics"]["examples"], 120, "{everything}");
    assert_eq!(everything["excludedFitted"], 0, "{everything}");
    // A re-run asks the engine nothing.
    let again = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    assert_eq!(again["decided"], 0);
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

    // A checkpoint whose fitted examples this home has no record of (aligned elsewhere):
    // nothing can be left out, and the report says so rather than pass them off as held out.
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    assert_eq!(db.execute("DELETE FROM fitted_examples", []).unwrap(), 90);
    let unknown = env.json(&["eval", "acme/support"]);
    let unknown = &unknown["questions"]["intent"];
    assert_eq!(unknown["fittedUnknown"], true, "{unknown}");
    assert_eq!(unknown["metrics"]["examples"], 120, "{unknown}");
    let table = env
        .cmd()
        .args(["eval", "acme/support", "--format", "table"])
        .output()
        .unwrap();
    let table = String::from_utf8_lossy(&table.stdout);
    assert!(
        table.contains("warning: no record of what intent was fitted on here"),
        "{table}"
    );
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

/// The outcome does not hang on one seed: the held-out split is repeated, and a question is
/// committed only when its gain holds on every repeat, so seeds 1, 2 and 3 commit the same
/// questions.
#[test]
fn seeds_one_two_and_three_commit_the_same_questions() {
    let env = env_with_examples(150, &["intent", "urgency", "escalate"]);
    let improved: Vec<Vec<String>> = ["1", "2", "3"]
        .iter()
        .map(|seed| {
            let job = env.json(&["align", "acme/support", "--seed", seed]);
            let questions = job["result"]["questions"].as_object().unwrap();
            questions
                .iter()
                .filter(|(_, report)| report["improved"] == true)
                .map(|(id, _)| id.clone())
                .collect()
        })
        .collect();
    assert!(!improved[0].is_empty(), "something improves: {improved:?}");
    assert!(
        improved.iter().all(|set| *set == improved[0]),
        "seeds 1-3 committed {improved:?}"
    );
}

/// A question aligned by an earlier arbiter keeps its alignment inside questions.yaml;
/// aligning it again moves it into a learned file and gives the question back its own
/// instructions, so there is one alignment, not two.
#[test]
fn realigning_an_inline_aligned_question_moves_it_to_its_learned_file() {
    let env = TestEnv::new();
    let base = std::fs::read_to_string(repo_root().join("benches/data/questions.yaml")).unwrap();
    let inline = base.replacen(
        "  instructions: What does the customer mainly want from this ticket?",
        "  instructions:\n    task: What does the customer mainly want from this ticket?\n    \
         arbiter_alignment: {version: 1, weights: {similarity: 12.0}}",
        1,
    );
    assert_ne!(inline, base);
    let questions = env.write("questions.yaml", &inline);
    env.create_model("acme/support", "mo", &questions);
    ingest(&env, &labelled(120, &["intent"]));
    let job = env.json(&["align", "acme/support", "-q", "intent", "--seed", "3"]);
    let branch = job["result"]["branch"]
        .as_str()
        .unwrap_or_else(|| panic!("intent improves: {job}"));
    let aligned = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    let aligned = arbiter::wire::value::parse_yaml(&aligned).unwrap();
    assert_eq!(
        aligned["intent"]["instructions"],
        "What does the customer mainly want from this ticket?"
    );
    let learned = env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:aligned/intent.yaml")],
    );
    assert!(learned.contains("arbiter_alignment:"), "{learned}");
    // It loads and answers.
    let state = env.write("s.json", "\"where is my parcel?\"");
    let answer = env.json(&[
        "decide",
        "-m",
        "acme/support",
        "--revision",
        branch,
        "-s",
        state.to_str().unwrap(),
        "--no-capture",
    ]);
    assert_eq!(answer["answers"]["intent"]["type"], "choice");
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
    // Out-of-range flag values are usage errors, refused before a job is made.
    let (code, problem, _) = env.problem(&["align", "acme/support", "--margin", "1.5"]);
    assert_eq!((code, problem["code"].as_str()), (2, Some("usage_error")));
    assert_eq!(problem["details"][0]["loc"], json!(["--margin"]));
    let (code, problem, _) = env.problem(&["eval", "acme/nope"]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
    let (code, _, _) = env.problem(&["eval", "acme/support", "--baseline", "v9"]);
    assert_eq!(code, 4);
    let (code, problem, _) = env.problem(&["eval", "acme/support", "--min-accuracy", "2"]);
    assert_eq!((code, problem["code"].as_str()), (2, Some("usage_error")));
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

/// The probabilities `question` gets for each of the labelled set's first `n` states at
/// `revision`.
fn probabilities_at(env: &TestEnv, revision: &str, question: &str, n: usize) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(repo_root().join("benches/data/support-labelled.jsonl"))
        .expect("the labelled set");
    text.lines()
        .take(n)
        .map(|line| {
            let row: Value = serde_json::from_str(line).unwrap();
            let state = env.write("state.json", &row["state"].to_string());
            let answer = env.json(&[
                "decide",
                "-m",
                "acme/support",
                "--revision",
                revision,
                "-s",
                state.to_str().unwrap(),
                "--no-capture",
            ]);
            let probabilities = answer["answers"][question]["probabilities"]
                .as_object()
                .unwrap_or_else(|| panic!("{answer}"));
            probabilities
                .values()
                .map(|p| p.as_f64().unwrap())
                .collect()
        })
        .collect()
}

#[test]
fn unsupervised_alignment_removes_each_outcomes_pull_over_the_captured_states() {
    let n = 20;
    let env = env_with_examples(n, &[]);
    let job = env.json(&["align", "acme/support", "--unsupervised", "--seed", "4"]);
    assert_eq!(job["status"], "completed", "{job}");
    let result = &job["result"];
    assert_eq!(result["improved"], true, "{result}");
    for id in ["intent", "urgency"] {
        let report = &result["questions"][id];
        assert_eq!(report["improved"], true, "{report}");
        assert_eq!(report["candidate"], "unsupervised", "{report}");
        assert_eq!(report["states"], n, "{report}");
        assert_eq!(report["examples"], 0, "no annotation was read: {report}");
        assert!(report.get("before").is_none() && report.get("gate").is_none());
    }
    let escalate = &result["questions"]["escalate"];
    assert_eq!(escalate["improved"], false, "{escalate}");
    assert!(
        escalate["reason"].as_str().unwrap().contains("noul"),
        "{escalate}"
    );
    let branch = result["branch"].as_str().unwrap().to_owned();
    let changed = env.git_in(&repo(&env), &["diff", "--name-only", "main", &branch]);
    assert_eq!(changed, "aligned/intent.yaml\naligned/urgency.yaml");
    let learned = arbiter::wire::value::parse_yaml(&env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:aligned/intent.yaml")],
    ))
    .unwrap();
    let block = &learned["arbiter_alignment"];
    assert_eq!(block["method"], "unsupervised", "{learned}");
    assert!(learned.get("examples").is_none(), "{learned}");
    assert!(
        block.get("fitted").is_none(),
        "fitted on no annotation: {learned}"
    );
    let message = env.git_in(&repo(&env), &["log", "-1", "--format=%B", &branch]);
    assert!(
        message.contains("intent: unsupervised on 20 captured states, without annotations"),
        "{message}"
    );

    // Zero-shot, some options pull harder than others over these states; corrected, the
    // logits average to zero for every option, so every option's mean log-probability over
    // the states it was estimated on is the same.
    let spread = |revision: &str| {
        let ps = probabilities_at(&env, revision, "intent", n);
        let means: Vec<f64> = (0..ps[0].len())
            .map(|c| ps.iter().map(|p| p[c].ln()).sum::<f64>() / ps.len() as f64)
            .collect();
        let max = means.iter().copied().fold(f64::MIN, f64::max);
        let min = means.iter().copied().fold(f64::MAX, f64::min);
        max - min
    };
    let before = spread("main");
    let after = spread(&branch);
    assert!(before > 0.5, "the zero-shot pulls differ: {before}");
    assert!(
        after < 1e-3,
        "corrected, they are equal: {after} (before {before})"
    );
}

#[test]
fn a_question_with_too_few_annotations_is_corrected_without_them() {
    let env = env_with_examples(30, &[]);
    ingest(&env, &labelled(4, &["intent"]));
    let job = env.json(&["align", "acme/support", "--questions", "intent"]);
    let intent = &job["result"]["questions"]["intent"];
    assert_eq!(intent["improved"], true, "{intent}");
    assert_eq!(intent["candidate"], "unsupervised");
    assert_eq!(intent["examples"], 4);
    assert_eq!(
        intent["states"], 30,
        "the annotated examples are captured states too"
    );
    assert_eq!(
        intent["reason"],
        "too few annotated examples (4 < 10): corrected without annotations instead"
    );
}
