//! `arbiter align`, `arbiter eval` and `arbiter models promote` with the real binary: a
//! better checkpoint on its own branch, nothing committed when nothing improves, the same
//! tree from the same examples and seed, the figures and the CI gates with their exit codes.

use crate::common::{TestEnv, assert_succeeded, repo_root};
use serde_json::{Value, json};
use std::collections::HashSet;
use std::fmt::Write as _;

/// The labelled support set's first `n` examples, with only the annotations of `keep`.
pub(crate) fn labelled(n: usize, keep: &[&str]) -> String {
    let text = std::fs::read_to_string(repo_root().join("examples/support/labelled.jsonl"))
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
/// Align `intent` of `acme/support` at seed 3 without the fine-tune: the alignment the
/// tests of what comes after one (eval, promote, diff, a working copy) start from.
pub(crate) const ALIGN_INTENT: [&str; 7] = [
    "align",
    "--no-tune",
    "acme/support",
    "-q",
    "intent",
    "--seed",
    "3",
];

fn env_with_annotations(n: usize) -> TestEnv {
    env_with_examples(n, &["intent"])
}

/// A model on `mo` with the labelled set's questions and its first `n` examples, with only
/// the annotations of `keep`.
fn env_with_examples(n: usize, keep: &[&str]) -> TestEnv {
    let env = TestEnv::new();
    let questions = repo_root().join("examples/support/questions.yaml");
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &labelled(n, keep));
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
fn align_commits_a_learned_head_on_its_branch_and_eval_and_promote_use_it() {
    let env = env_with_annotations(120);
    let base = env.git_in(&repo(&env), &["rev-parse", "main"]);
    let align = ALIGN_INTENT;
    let job = env.json(&align);
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
    // As a table at 80 columns: the outcome whole, below the table, not cut in a cell.
    let table = env
        .cmd()
        .env("COLUMNS", "80")
        .arg("--table")
        .args(align)
        .output()
        .unwrap();
    // Wrapped to the width: its continuation lines indented by two.
    let shown = String::from_utf8_lossy(&table.stdout).replace("\n  ", " ");
    let candidate = intent["candidate"].as_str().unwrap();
    let outcome = if intent["states"].is_u64() {
        "corrected"
    } else {
        "improved"
    };
    assert!(
        shown.contains(&format!("intent {outcome}: {candidate}")),
        "{shown}"
    );
    assert!(
        !shown.contains('…'),
        "the table cut something at 80 columns: {shown}"
    );
    assert!(
        intent["after"]["loss"].as_f64() < intent["before"]["loss"].as_f64(),
        "{intent}"
    );
    assert_eq!(intent["gate"]["passed"], true);
    assert!(intent["gate"]["lowerBound"].as_f64().unwrap() > 0.0);
    assert_eq!(intent["chosen"], "head", "{intent}");
    assert!(
        result["questions"].get("urgency").is_none(),
        "only the asked question"
    );
    // No label wasted: every example fitted, every figure out of fold.
    assert_eq!(
        (&intent["fitted"], &intent["heldOut"], &intent["figures"]),
        (&json!(120), &json!(0), &json!("out_of_fold"))
    );
    assert_eq!(intent["before"]["examples"], 120);
    assert_eq!(intent["after"]["examples"], 120);
    assert!(
        intent["candidate"]
            .as_str()
            .unwrap()
            .starts_with("multinomial head over the pooled embedding and word 1-2-grams"),
        "{intent}"
    );

    // The new checkpoint: parent the base, the figures in its message, and only learned
    // parameters added: questions.yaml is the user's, byte for byte, comments included.
    // The 120 states are the model's captured states too: the head's prior is zero-shot
    // corrected over them, and the correction is kept beside the head.
    let tip = result["checkpoint"]["checkpointId"].as_str().unwrap();
    assert_eq!(
        env.git_in(&repo(&env), &["rev-parse", &format!("{tip}^")]),
        base
    );
    let message = env.git_in(&repo(&env), &["log", "-1", "--format=%B", tip]);
    assert!(message.starts_with("Align intent"), "{message}");
    assert!(
        message.contains("log_loss") && message.contains("->") && message.contains("120 fitted"),
        "{message}"
    );
    assert_eq!(intent["states"], 120, "{intent}");
    let changed = env.git_in(&repo(&env), &["diff", "--name-only", "main", &branch]);
    assert_eq!(
        changed,
        "aligned/intent.yaml\nlearned/intent.safetensors\nlearned/manifest.yaml"
    );
    let correction = env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:aligned/intent.yaml")],
    );
    assert!(
        correction.contains("method: unsupervised") && !correction.contains("examples:"),
        "{correction}"
    );
    let questions_yaml = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    assert_eq!(
        questions_yaml,
        std::fs::read_to_string(repo_root().join("examples/support/questions.yaml"))
            .unwrap()
            .trim_end()
    );
    let manifest = arbiter::wire::value::parse_yaml(&env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:learned/manifest.yaml")],
    ))
    .unwrap();
    assert_eq!(
        (&manifest["format"], &manifest["version"]),
        (&json!("arbiter-learned"), &json!(1))
    );
    let entry = &manifest["questions"]["intent"];
    assert_eq!(entry["file"], "intent.safetensors");
    assert_eq!(entry["learner"], "multinomial");
    assert_eq!(entry["folds"], 5);
    assert_eq!(entry["features"]["dim"], 384);
    let fitted = entry["fitted"].as_object().unwrap();
    assert_eq!(fitted.len(), 120);
    for (id, example) in fitted {
        assert!(id.starts_with("s-"), "{id}");
        assert!(example["fold"].as_u64().unwrap() < 5, "{example}");
        let answer = example["answer"].as_array().unwrap();
        assert_eq!(answer.len(), 6, "one probability per option: {example}");
        let total: f64 = answer.iter().map(|p| p.as_f64().unwrap()).sum();
        assert!((total - 1.0).abs() < 1e-4, "{example}");
    }
    let size = env
        .git_in(
            &repo(&env),
            &[
                "cat-file",
                "-s",
                &format!("{branch}:learned/intent.safetensors"),
            ],
        )
        .parse::<u64>()
        .unwrap();
    assert!(size < 512 * 1024, "a head is small: {size} bytes");

    // The aligned checkpoint answers, with its head.
    let state = env.write(
        "state.json",
        &json!({"subject": "Refund", "body": "I was charged twice, please return one payment."})
            .to_string(),
    );
    let state_path = state.to_str().unwrap();
    let decide_at = |revision: &str| env.json(&decide_args(revision, state_path));
    let answer = decide_at(&branch);
    assert_eq!(answer["answers"]["intent"]["choice"], "refund", "{answer}");
    assert_eq!(answer["revision"]["commit"], tip);
    assert_ne!(
        answer["answers"]["intent"],
        decide_at("main")["answers"]["intent"],
        "the head changes the answer"
    );

    // Plain git round trip: cloned, pushed back as another branch, the checkpoint answers
    // every annotated example exactly as before.
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
    env.git_in(
        &work,
        &["push", "-q", "origin", "HEAD:refs/heads/roundtrip"],
    );
    let before = batch_answers(&env, &branch);
    assert_eq!(before.len(), 120);
    assert_eq!(
        before,
        batch_answers(&env, "roundtrip"),
        "the same answers after git clone and push"
    );
    // The recorded abstain rule, chosen on the out-of-fold answers, marks answers less
    // confident than it.
    if let Some(below) = entry["abstain"]["below"].as_f64() {
        for (_, answers) in &before {
            let intent = &answers["intent"];
            let top = intent["probabilities"]
                .as_object()
                .unwrap()
                .values()
                .map(|p| p.as_f64().unwrap())
                .fold(0.0, f64::max);
            assert_eq!(intent.get("x_abstain").is_some(), top < below, "{intent}");
        }
    }

    // Learned parameters changed by hand are refused at decide, located in their file:
    // a corrupt head, an unknown version, a missing head.
    let commit_and_push = |message: &str, to: &str| {
        env.git_in(
            &work,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "commit",
                "-qam",
                message,
            ],
        );
        env.git_in(
            &work,
            &["push", "-q", "origin", &format!("HEAD:refs/heads/{to}")],
        );
    };
    std::fs::write(work.join("learned/intent.safetensors"), b"not tensors").unwrap();
    commit_and_push("corrupt", "corrupt");
    let manifest_path = work.join("learned/manifest.yaml");
    let manifest_text = std::fs::read_to_string(&manifest_path).unwrap();
    env.git_in(
        &work,
        &[
            "checkout",
            "-q",
            "HEAD~1",
            "--",
            "learned/intent.safetensors",
        ],
    );
    std::fs::write(
        &manifest_path,
        manifest_text.replacen("version: 1", "version: 2", 1),
    )
    .unwrap();
    commit_and_push("from the future", "future");
    std::fs::write(&manifest_path, &manifest_text).unwrap();
    env.git_in(&work, &["rm", "-q", "learned/intent.safetensors"]);
    commit_and_push("lost", "lost");
    // A head reads only the embeddings of the encoder it was fitted on.
    env.git_in(&work, &["checkout", "-q", "HEAD~1", "--", "learned"]);
    let encoder = manifest["encoder"].as_str().unwrap();
    std::fs::write(
        &manifest_path,
        manifest_text.replacen(encoder, "another-encoder|all-windows", 1),
    )
    .unwrap();
    commit_and_push("another encoder", "other-encoder");
    assert_refused_at_decide(
        &env,
        state_path,
        &[
            (
                "other-encoder",
                "reads the embeddings of `another-encoder|all-windows`; this base model's encoder is",
            ),
            (
                "corrupt",
                "learned/intent.safetensors does not match the sha256",
            ),
            (
                "future",
                "version 2; this arbiter reads `arbiter-learned` version 1",
            ),
            ("lost", "learned/intent.safetensors is missing"),
        ],
    );

    // Eval: the 120 fitted examples by their out-of-fold answers (the alignment's own
    // figure, exactly), and 30 annotated since, fresh.
    env.ingest("acme/support", &labelled(150, &["intent"]));
    let report = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--baseline",
        "main",
    ]);
    let evaluated = &report["questions"]["intent"];
    assert_eq!(evaluated["metrics"]["examples"], 150, "{report}");
    assert_eq!(evaluated["baseline"]["examples"], 150, "{report}");
    assert_eq!(evaluated["excludedFitted"], 0, "{report}");
    assert_eq!(evaluated["outOfFold"]["examples"], 120, "{report}");
    assert_eq!(evaluated["fresh"]["examples"], 30, "{report}");
    for figure in ["accuracy", "logLoss", "loss", "ece", "brier"] {
        let (eval, align) = (
            evaluated["outOfFold"][figure].as_f64().unwrap(),
            intent["after"][figure].as_f64().unwrap(),
        );
        // The same answers and labels, summed in another order.
        assert!(
            (eval - align).abs() < 1e-9,
            "{figure}: eval's out-of-fold {eval} is the alignment's {align}"
        );
    }
    assert_eq!(report["gates"]["passed"], true);
    assert!(report["decided"].as_u64().unwrap() > 0);

    // How sure: 95% intervals around each side's figures, the change paired over the 150
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
            assert!((figure(&at["coverage"]) - figure(&at["kept"]) / 150.0).abs() < 1e-12);
        }
        assert!(
            figure(&coverage[0]["coverage"]) <= figure(&coverage[1]["coverage"]),
            "a looser target never answers less: {metrics}"
        );
    }
    let delta = &evaluated["delta"];
    assert_eq!(delta["examples"], 150, "{delta}");
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
            "--questions",
            "intent",
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
            "--questions",
            "intent",
        ])
        .output()
        .unwrap();
    assert_eq!(
        itself.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&itself.stderr)
    );
    // The table says which figures are out of fold.
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
        table.contains("intent: 120 fitted examples scored by their out-of-fold answers, 30 fresh"),
        "{table}"
    );
    assert!(
        table.contains("Accuracy (95%)") && table.contains("At 5% Error"),
        "{table}"
    );
    // --include-fitted scores the fitted examples by the head that saw them.
    let everything = env.json(&[
        "eval",
        "acme/support",
        "--revision",
        &branch,
        "--include-fitted",
    ]);
    let everything = &everything["questions"]["intent"];
    assert_eq!(everything["metrics"]["examples"], 150, "{everything}");
    assert!(everything.get("outOfFold").is_none(), "{everything}");
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
            "--questions",
            "intent",
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

/// `arbiter batch` of `acme/support`'s annotated examples at `revision`: each example's
/// answers, by example ID.
fn batch_answers(env: &TestEnv, revision: &str) -> Vec<(String, Value)> {
    let output = env
        .path()
        .join(format!("{}.ndjson", revision.replace('/', "-")));
    env.cmd()
        .args([
            "batch",
            "acme/support",
            "--examples",
            "annotated",
            "--revision",
            revision,
        ])
        .arg("--output")
        .arg(&output)
        .assert()
        .success();
    let mut answers: Vec<(String, Value)> = std::fs::read_to_string(&output)
        .unwrap()
        .lines()
        .map(|line| {
            let line: Value = serde_json::from_str(line).unwrap();
            (line["example_id"].to_string(), line["answers"].clone())
        })
        .collect();
    answers.sort_by(|a, b| a.0.cmp(&b.0));
    answers
}

/// `arbiter decide` of the state file `state` at `revision` of `acme/support`, uncaptured.
/// `decide` at each revision is refused (a nonzero exit), its problem saying what is wrong.
fn assert_refused_at_decide(env: &TestEnv, state_path: &str, cases: &[(&str, &str)]) {
    for (revision, says) in cases {
        let (code, problem, _) = env.problem(&decide_args(revision, state_path));
        assert_ne!(code, 0);
        assert!(
            problem["detail"].as_str().unwrap().contains(says),
            "{revision}: {problem}"
        );
    }
}

fn decide_args<'a>(revision: &'a str, state: &'a str) -> [&'a str; 8] {
    [
        "decide",
        "-m",
        "acme/support",
        "--revision",
        revision,
        "-s",
        state,
        "--no-capture",
    ]
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
fn realigning_an_inline_aligned_question_gives_it_a_learned_head_instead() {
    let env = TestEnv::new();
    let base =
        std::fs::read_to_string(repo_root().join("examples/support/questions.yaml")).unwrap();
    let inline = base.replacen(
        "  instructions: What does the customer mainly want from this ticket?",
        "  instructions:\n    task: What does the customer mainly want from this ticket?\n    \
         arbiter_alignment: {version: 1, weights: {similarity: 12.0}}",
        1,
    );
    assert_ne!(inline, base);
    let questions = env.write("questions.yaml", &inline);
    env.create_model("acme/support", "mo", &questions);
    env.ingest("acme/support", &labelled(120, &["intent"]));
    let job = env.json(&ALIGN_INTENT);
    let branch = job["result"]["branch"]
        .as_str()
        .unwrap_or_else(|| panic!("intent improves: {job}"));
    let aligned = env.git_in(&repo(&env), &["show", &format!("{branch}:questions.yaml")]);
    // The user's file as it was before the inline alignment, every comment in it.
    assert_eq!(format!("{aligned}\n"), base);
    let aligned = arbiter::wire::value::parse_yaml(&aligned).unwrap();
    assert_eq!(
        aligned["intent"]["instructions"],
        "What does the customer mainly want from this ticket?"
    );
    let manifest = env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:learned/manifest.yaml")],
    );
    assert!(manifest.contains("format: arbiter-learned"), "{manifest}");
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
        let heads = arbiter::core::model_files::sampled(&format!("coin-{i}").into(), 0.5);
        writeln!(out, "{}", json!({"example_id": format!("coin-{i}"), "state": state, "annotations": {"coin": {"answer": heads}}})).unwrap();
        out
    });
    let file = env.write("coin.jsonl", &lines);
    env.cmd()
        .args(["examples", "ingest", "acme/coin", "--file"])
        .arg(&file)
        .assert()
        .success();
    let job = env.json(&["align", "--no-tune", "acme/coin", "--seed", "5"]);
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

/// Eight labels that contradict zero-shot move it: a noul the engine answers "no" for
/// every ticket (each below 0.3), annotated "yes" for seven of eight, answers "yes" at the
/// aligned checkpoint. No test of chance holds it back; the figures say what the choice is
/// worth, with their intervals.
#[test]
fn eight_labels_that_contradict_zero_shot_move_it() {
    let env = TestEnv::new();
    let questions = env.write(
        "q.yaml",
        "happy:\n  type: noul\n  instructions: The customer is happy and thanks the team.\n",
    );
    env.create_model("acme/few", "mo", &questions);
    let texts = [
        "my order is late",
        "the app crashed",
        "I was charged twice",
        "please reset my password",
    ];
    let lines = (0..8).fold(String::new(), |mut out, i| {
        let state = format!("ticket {i}: {}", texts[i % 4]);
        let annotations = json!({"happy": {"answer": i != 3}});
        writeln!(
            out,
            "{}",
            json!({"example_id": format!("t-{i}"), "state": state, "annotations": annotations})
        )
        .unwrap();
        out
    });
    env.ingest("acme/few", &lines);
    let job = env.json(&["align", "--no-tune", "acme/few"]);
    assert_eq!(job["status"], "completed", "{job}");
    let happy = &job["result"]["questions"]["happy"];
    assert_eq!(happy["improved"], true, "{happy}");
    assert_ne!(happy["chosen"], "zero_shot", "{happy}");
    let accuracy = |candidate: &str| happy["candidates"][candidate]["accuracy"].as_f64().unwrap();
    assert!(accuracy("zero_shot") < 0.5, "{happy}");
    assert!(accuracy("majority") > 0.8, "{happy}");
    // The figure is the whole choice's, out of fold (each fold answered by the choice made
    // on the others alone), and its interval is reported.
    let after = happy["after"]["accuracy"].as_f64().unwrap();
    assert!(
        after >= 0.75 && after > accuracy("zero_shot") + 0.5,
        "{happy}"
    );
    let interval = &happy["candidates"]["majority"]["interval"];
    assert!(interval[0].as_f64().unwrap() < 0.875 && interval[1].as_f64().unwrap() > 0.875);
    assert!(happy["gate"]["lowerBound"].is_number() && happy["gate"]["upperBound"].is_number());
    let branch = job["result"]["branch"].as_str().unwrap();
    let state = env.write("s.json", "\"ticket 9: where is my parcel?\"");
    let answer = |revision: &str| {
        env.json(&[
            "decide",
            "-m",
            "acme/few",
            "--revision",
            revision,
            "-s",
            state.to_str().unwrap(),
            "--no-capture",
        ])["answers"]["happy"]["noul"]
            .as_f64()
            .unwrap()
    };
    assert!(answer("main") < 0.5);
    assert!(answer(branch) > 0.5);
    // A cautious user's gate holds the same eight back: the whole choice, out of fold
    // (one fold holds the label that is not "yes", and the head chosen without it answers
    // it badly), is better than zero-shot by more than the margin on average, but over 8
    // values not beyond chance.
    let gated = env.json(&["align", "--no-tune", "acme/few", "--margin", "0.02"]);
    let happy = &gated["result"]["questions"]["happy"];
    assert_eq!(happy["improved"], false, "{happy}");
    assert!(
        happy["reason"]
            .as_str()
            .unwrap()
            .starts_with("the gain is not beyond chance"),
        "{happy}"
    );
    assert_eq!(gated["result"]["branch"], Value::Null);
}

#[test]
fn too_few_annotations_are_reported_not_aligned() {
    // Four annotations for six options, and none at all for the others: each keeps its
    // zero-shot answer, and says why.
    let env = env_with_annotations(4);
    let job = env.json(&["align", "--no-tune", "acme/support"]);
    let result = &job["result"];
    assert_eq!(result["improved"], false);
    let intent = &result["questions"]["intent"];
    assert_eq!(intent["examples"], 4);
    assert_eq!(
        intent["reason"],
        "too few annotated examples (4 for 6 outcomes); the zero-shot answer stays"
    );
    assert_eq!(result["questions"]["urgency"]["examples"], 0);
    assert!(
        result["questions"]["urgency"]["reason"]
            .as_str()
            .unwrap()
            .contains("too few annotated examples (0 for 5 outcomes)")
    );
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

#[test]
fn a_question_with_nothing_to_score_is_listed_not_evaluated_and_fails_a_gate() {
    // Six examples annotated for intent only: urgency and escalate have nothing to score.
    let env = env_with_annotations(6);
    let eval = |extra: &[&str]| {
        env.cmd()
            .args(["eval", "acme/support"])
            .args(extra)
            .output()
            .unwrap()
    };
    // Ungated: every question is listed, the unmeasured ones as such, with no figures.
    let plain = eval(&[]);
    assert_eq!(plain.status.code(), Some(0));
    let report: Value = serde_json::from_slice(&plain.stdout).unwrap();
    let questions = report["questions"].as_object().unwrap();
    assert_eq!(
        questions.keys().collect::<Vec<_>>(),
        ["intent", "urgency", "escalate"],
        "{report}"
    );
    assert_eq!(questions["intent"]["status"], "evaluated");
    assert_eq!(questions["intent"]["metrics"]["examples"], 6);
    for id in ["urgency", "escalate"] {
        assert_eq!(questions[id]["status"], "not_evaluated", "{report}");
        assert_eq!(questions[id]["reason"], "no annotated examples", "{report}");
        assert!(questions[id].get("metrics").is_none(), "{report}");
    }
    assert_eq!(report["overall"]["metrics"]["examples"], 6, "{report}");
    assert_eq!(report["gates"]["passed"], true);

    // Gated: exit 3, naming each question it could not measure.
    let gated = eval(&["--min-accuracy", "0"]);
    assert_eq!(gated.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&gated.stderr);
    assert!(
        stderr.contains("gate failed: urgency: not evaluated: no annotated examples")
            && stderr.contains("gate failed: escalate: not evaluated: no annotated examples")
            && !stderr.contains("gate failed: intent"),
        "{stderr}"
    );
    let report: Value = serde_json::from_slice(&gated.stdout).unwrap();
    assert_eq!(report["gates"]["passed"], false);
    let failed: Vec<(&str, &str)> = report["gates"]["failures"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["question"].as_str().unwrap(), f["gate"].as_str().unwrap()))
        .collect();
    assert_eq!(
        failed,
        [("urgency", "not-evaluated"), ("escalate", "not-evaluated")]
    );
    // Any gate: --max-ece, and --no-regression against a baseline, alike.
    assert_eq!(eval(&["--max-ece", "1"]).status.code(), Some(3));
    assert_eq!(
        eval(&["--baseline", "main", "--no-regression"])
            .status
            .code(),
        Some(3)
    );
    // Only the measured question asked for: it passes.
    assert_eq!(
        eval(&["--min-accuracy", "0", "--questions", "intent"])
            .status
            .code(),
        Some(0)
    );
    // Told to, the gates pass without them, and say so.
    let allowed = eval(&["--min-accuracy", "0", "--allow-unevaluated"]);
    assert_eq!(allowed.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&allowed.stderr);
    assert!(
        stderr.contains("warning: urgency was not evaluated (no annotated examples)"),
        "{stderr}"
    );

    // The table: a row that says so, and why under it.
    let table = eval(&["--format", "table"]);
    let table = String::from_utf8_lossy(&table.stdout);
    let row = table
        .lines()
        .find(|l| l.trim_start().starts_with("urgency"))
        .unwrap_or_else(|| panic!("{table}"));
    assert!(row.contains("not evaluated"), "{table}");
    assert!(
        table.contains("not evaluated: urgency (no annotated examples)")
            && table.contains("not evaluated: escalate (no annotated examples)"),
        "{table}"
    );

    // JUnit: a skipped test case each, with the reason and the gate's verdict.
    let junit = eval(&["--min-accuracy", "0", "--format", "junit"]);
    assert_eq!(junit.status.code(), Some(3));
    let xml = String::from_utf8(junit.stdout).unwrap();
    assert!(
        xml.contains("tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"2\""),
        "{xml}"
    );
    assert!(
        xml.contains(
            "name=\"urgency\">\n      <skipped message=\"not evaluated: no annotated examples; a gate needs every question measured"
        ),
        "{xml}"
    );
    let ungated = eval(&["--format", "junit"]);
    let xml = String::from_utf8(ungated.stdout).unwrap();
    assert!(
        xml.contains("<skipped message=\"not evaluated: no annotated examples\"/>"),
        "{xml}"
    );
}

/// The probabilities `question` gets for each of the labelled set's first `n` states at
/// `revision`.
fn probabilities_at(env: &TestEnv, revision: &str, question: &str, n: usize) -> Vec<Vec<f64>> {
    let text = std::fs::read_to_string(repo_root().join("examples/support/labelled.jsonl"))
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
fn a_question_with_too_few_annotations_keeps_zero_shot_unless_corrected_without_them() {
    let env = env_with_examples(30, &[]);
    env.ingest("acme/support", &labelled(4, &["intent"]));
    let job = env.json(&[
        "align",
        "--no-tune",
        "acme/support",
        "--questions",
        "intent",
    ]);
    let intent = &job["result"]["questions"]["intent"];
    assert_eq!(intent["improved"], false, "{intent}");
    assert_eq!(
        intent["reason"],
        "too few annotated examples (4 for 6 outcomes); the zero-shot answer stays; `align \
         --unsupervised` would correct it without annotations over the 30 captured states",
        "{intent}"
    );
    // Asked for, the correction without annotations is made over the captured states.
    let job = env.json(&[
        "align",
        "acme/support",
        "--questions",
        "intent",
        "--unsupervised",
    ]);
    let intent = &job["result"]["questions"]["intent"];
    assert_eq!(intent["improved"], true, "{intent}");
    assert_eq!(intent["candidate"], "unsupervised");
    assert_eq!(
        intent["states"], 30,
        "the annotated examples are captured states too"
    );
}

/// `align --curve` prints each question's learning curve, records it in the checkpoint's
/// manifest, and `examples next` at that checkpoint says from it whether the question is
/// still learning.
#[test]
fn a_curve_is_printed_recorded_and_read_by_examples_next() {
    let env = env_with_examples(40, &["intent"]);
    env.ingest("acme/support", &crate::to_annotate::states("new-", 40, 56));
    let out = env
        .cmd()
        .arg("--table")
        .args(ALIGN_INTENT)
        .arg("--curve")
        .assert()
        .success()
        .get_output()
        .clone();
    let printed = String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap();
    assert!(
        printed.contains("learning curve of intent (out of fold): zero-shot"),
        "{printed}"
    );
    let branch = branches(&env)
        .into_iter()
        .find(|b| b.starts_with("alignments/"))
        .expect("intent improved");
    let manifest = arbiter::wire::value::parse_yaml(&env.git_in(
        &repo(&env),
        &["show", &format!("{branch}:learned/manifest.yaml")],
    ))
    .unwrap();
    let curve = manifest["questions"]["intent"]["curve"].as_array().unwrap();
    let examples: Vec<u64> = curve
        .iter()
        .map(|p| p["examples"].as_u64().unwrap())
        .collect();
    assert_eq!(examples, [8, 16, 32, 40]);
    let accuracy = |i: usize| curve[i]["accuracy"].as_f64().unwrap();
    for (i, point) in curve.iter().enumerate() {
        assert!((0.0..=1.0).contains(&accuracy(i)), "{point}");
        // The table shows what the manifest records.
        let row = format!("{:.3}", accuracy(i));
        assert!(printed.contains(&row), "{row} not in {printed}");
    }
    let next = env.json(&[
        "examples",
        "next",
        "acme/support",
        "--revision",
        &branch,
        "--audit",
        "0",
    ]);
    let learning = &next["learning"]["intent"];
    // The last step, 32 → 40 examples, is a third of a doubling.
    let gain = (accuracy(3) - accuracy(2)) / (40.0f64 / 32.0).log2();
    assert_eq!(learning["examples"], 40, "{next}");
    assert!(
        (learning["gain"].as_f64().unwrap() - gain).abs() < 1e-9,
        "{learning} vs {gain}"
    );
    let rising = gain >= arbiter::wire::to_annotate::RISING_GAIN;
    assert_eq!(learning["rising"], rising);
    assert!(
        next["learning"].get("urgency").is_none(),
        "no curve, no entry: {next}"
    );
    // urgency has no curve and counts as learning; intent only when its curve rises.
    let questions: HashSet<&str> = next["examples"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["question"].as_str().unwrap())
        .collect();
    assert!(!questions.is_empty(), "{next}");
    if !rising {
        assert!(!questions.contains("intent"), "a flat curve waits: {next}");
    }
    eval_page_of_an_alignment(&env, &branch);
    crate::ui::pages_of_an_alignment(&env, &branch);
}

/// The evaluation page of an aligned checkpoint against the one it was aligned from shows
/// the curve its alignment recorded, a reliability diagram and a confusion matrix, in a real
/// browser (whose screenshot the guide shows).
fn eval_page_of_an_alignment(env: &TestEnv, branch: &str) {
    let page = env.path().join("eval.html");
    let eval = |format: &str, output: &std::path::Path| {
        let out = env
            .cmd()
            .args([
                "eval",
                "acme/support",
                "--revision",
                branch,
                "--baseline",
                "main",
            ])
            .args(["--questions", "intent", "--format", format, "--output"])
            .arg(output)
            .output()
            .unwrap();
        assert_succeeded(&out);
    };
    let json = env.path().join("eval.json");
    eval("json", &json);
    eval("html", &page);
    let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let intent = &report["questions"]["intent"];
    let curve = intent["curve"].as_array().unwrap();
    assert_eq!(curve.len(), 4, "the curve the alignment recorded: {intent}");
    let html = std::fs::read_to_string(&page).unwrap();
    for label in ["learning curve", "reliability diagram", "confusion matrix"] {
        assert_eq!(
            html.matches(&format!("aria-label=\"{label}\"")).count(),
            1,
            "{label} in {html}"
        );
    }
    let disagreements = &intent["disagreements"];
    assert!(disagreements["count"].is_u64(), "{intent}");
    assert!(
        html.contains(&format!("answer differently ({})", disagreements["count"])),
        "{html}"
    );
    let Some(mut browser) = arbiter_testing::browser::Browser::start() else {
        return;
    };
    browser.goto(&format!("file://{}", page.display()));
    let seen = browser.execute(
        "const section = document.querySelector('section[data-question=\"intent\"]');
         section.scrollIntoView();
         return {
            points: section.querySelectorAll('svg[aria-label=\"learning curve\"] circle').length,
            cells: section.querySelectorAll('svg[aria-label=\"confusion matrix\"] rect.cell').length,
            bins: section.querySelectorAll('svg[aria-label=\"reliability diagram\"] rect.bar').length,
         }",
        vec![],
    );
    let outcomes = intent["outcomes"].as_array().unwrap().len();
    let bins = intent["metrics"]["reliability"].as_array().unwrap().len();
    assert_eq!(
        seen,
        json!({ "points": curve.len(), "cells": outcomes * outcomes, "bins": bins })
    );
    browser.screenshot(&crate::eval::screenshot_path("eval-report.png"));
}

/// At 80 columns the align table cuts free text; the reason a question was left unchanged
/// is printed whole below it, one line per question.
#[test]
fn the_reason_a_question_is_unchanged_is_readable_at_80_columns() {
    let env = env_with_annotations(4);
    let output = env
        .cmd()
        .env("COLUMNS", "80")
        .args(["--table", "align", "--no-tune", "acme/support"])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(
        shown.lines().all(|line| line.chars().count() <= 80),
        "{shown}"
    );
    // Wrapped between words, continuation lines indented.
    let below: String = shown
        .lines()
        .skip_while(|line| !line.starts_with("intent unchanged:"))
        .take_while(|line| line.starts_with("intent ") || line.starts_with("  "))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert_eq!(
        below,
        "intent unchanged: too few annotated examples (4 for 6 outcomes); the zero-shot answer \
         stays",
        "{shown}"
    );
    assert!(shown.contains(" unchanged "), "{shown}");
}

/// A checkpoint whose head reads a fine-tuned encoder (`align --tune`), made here from an
/// aligned one by hand, since whether an alignment keeps its fine-tune is cross-validation's
/// say and no small fixture is sure to: its delta file, the manifest's `tuned` record, the
/// head's `pooled-tuned` features. It answers through the delta, the same after a plain git
/// clone, and a delta that is missing, changed or of another encoder is a located error at
/// decide, never a silent base answer.
// One scenario (make, clone, break three ways): splitting it would repeat the making.
#[allow(clippy::too_many_lines)]
#[test]
fn a_fine_tuned_checkpoint_answers_through_its_delta_and_survives_a_clone() {
    use arbiter::engine::builtin::tuned::{Budget, Layered, fine_tune};
    let env = env_with_annotations(60);
    let job = env.json(&[
        "align",
        "--no-tune",
        "acme/support",
        "--questions",
        "intent",
    ]);
    let branch = job["result"]["branch"]
        .as_str()
        .expect("aligned")
        .to_owned();
    // A delta tuned on six states of two answers.
    let layered = Layered::load().unwrap();
    let texts = [
        "I was charged twice, please refund one payment",
        "refund my order, the item arrived broken",
        "I want my money back",
        "where is my parcel? it has not arrived",
        "the delivery is a week late",
        "tracking says my package is lost",
    ];
    let inputs: Vec<_> = texts
        .iter()
        .map(|t| layered.top_inputs(t).unwrap())
        .collect();
    let refs: Vec<_> = inputs.iter().collect();
    let pairs: Vec<(usize, usize, f64)> = (0..6)
        .flat_map(|i| {
            (0..6)
                .filter(move |&j| j != i)
                .map(move |j| (i, j, f64::from(u8::from(i / 3 == j / 3))))
        })
        .collect();
    let delta = fine_tune(&layered, &refs, &pairs, Budget::DEFAULT, 7, &mut |_, _| {
        true
    })
    .unwrap();
    let bytes = delta.to_bytes().unwrap();
    let sha = arbiter::engine::builtin::learned::file::sha256(&bytes);
    let work = env.path().join("tuned");
    env.git_in(
        env.path(),
        &[
            "clone",
            "-q",
            "--branch",
            &branch,
            repo(&env).to_str().unwrap(),
            "tuned",
        ],
    );
    let commit_and_push = |message: &str, to: &str| {
        env.git_in(&work, &["add", "-A"]);
        env.git_in(
            &work,
            &[
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "commit",
                "-qm",
                message,
            ],
        );
        env.git_in(
            &work,
            &["push", "-q", "origin", &format!("HEAD:refs/heads/{to}")],
        );
    };
    let manifest_path = work.join("learned/manifest.yaml");
    let manifest = std::fs::read_to_string(&manifest_path).unwrap();
    let tuned_manifest = manifest
        .replacen(
            "\nquestions:",
            &format!(
                "\ntuned:\n  file: encoder.safetensors\n  sha256: {sha}\n  layer: 2\n  rank: 8\n  \
                 examples: 6\n  steps: {}\nquestions:",
                Budget::DEFAULT.steps
            ),
            1,
        )
        .replacen("embedding: pooled\n", "embedding: pooled-tuned\n", 1);
    assert_ne!(tuned_manifest, manifest);
    std::fs::write(&manifest_path, &tuned_manifest).unwrap();
    std::fs::write(work.join("learned/encoder.safetensors"), &bytes).unwrap();
    commit_and_push("tuned", "tuned");

    let state = env.write(
        "state.json",
        &json!({"subject": "Refund", "body": "I was charged twice, please return one payment."})
            .to_string(),
    );
    let state_path = state.to_str().unwrap();
    let decide_at = |revision: &str| env.json(&decide_args(revision, state_path));
    let tuned = decide_at("tuned");
    assert_ne!(
        tuned["answers"]["intent"]["probabilities"],
        decide_at(&branch)["answers"]["intent"]["probabilities"],
        "the head reads the tuned encoder: {tuned}"
    );
    // The same answers to every annotated example after a plain git round trip.
    env.git_in(
        env.path(),
        &[
            "clone",
            "-q",
            "--branch",
            "tuned",
            repo(&env).to_str().unwrap(),
            "again",
        ],
    );
    env.git_in(
        &env.path().join("again"),
        &["push", "-q", "origin", "HEAD:refs/heads/tuned-roundtrip"],
    );
    let before = batch_answers(&env, "tuned");
    assert_eq!(before.len(), 60);
    assert_eq!(
        before,
        batch_answers(&env, "tuned-roundtrip"),
        "the same answers after git clone"
    );

    // Broken three ways, each refused at decide where it is.
    std::fs::remove_file(work.join("learned/encoder.safetensors")).unwrap();
    commit_and_push("lost", "tuned-lost");
    let mut changed = bytes.clone();
    let last = changed.len() - 1;
    changed[last] ^= 1;
    std::fs::write(work.join("learned/encoder.safetensors"), &changed).unwrap();
    commit_and_push("changed", "tuned-changed");
    let at = bytes
        .windows(b"minilm-l3".len())
        .position(|w| w == b"minilm-l3")
        .unwrap();
    let mut other = bytes.clone();
    other[at..at + 9].copy_from_slice(b"minilm-l9");
    let other_sha = arbiter::engine::builtin::learned::file::sha256(&other);
    std::fs::write(work.join("learned/encoder.safetensors"), &other).unwrap();
    std::fs::write(&manifest_path, tuned_manifest.replacen(&sha, &other_sha, 1)).unwrap();
    commit_and_push("other encoder", "tuned-other");
    assert_refused_at_decide(
        &env,
        state_path,
        &[
            ("tuned-lost", "learned/encoder.safetensors is missing"),
            (
                "tuned-changed",
                "learned/encoder.safetensors does not match the sha256",
            ),
            ("tuned-other", "tunes encoder `pocket-encoder/minilm-l9"),
        ],
    );
}

/// `align` fine-tunes the encoder by default, says whether the heads read it and why
/// (out-of-fold log loss both ways), says why not where it cannot tune, and `--no-tune`
/// skips it.
#[test]
fn align_reports_its_fine_tune_and_why_it_was_kept_or_not_and_no_tune_skips_it() {
    let env = env_with_annotations(30);
    let job = env.json(&["align", "acme/support", "--questions", "intent"]);
    let tuning = &job["result"]["tuning"];
    assert_eq!(tuning["examples"], 30, "{job}");
    assert!(tuning["steps"].as_u64().unwrap() > 0, "{job}");
    let (tuned, base) = (
        tuning["logLossTuned"].as_f64().unwrap(),
        tuning["logLossBase"].as_f64().unwrap(),
    );
    assert_eq!(tuning["used"], tuned < base, "{job}");
    assert!(
        tuning["reason"].as_str().unwrap().contains("log loss"),
        "{job}"
    );
    // The fine-tunes' steps are part of the job's progress.
    assert!(job["progress"]["total"].as_u64().unwrap() > 30 + 1, "{job}");
    let job = env.json(&[
        "align",
        "acme/support",
        "--questions",
        "intent",
        "--holdout",
        "0.3",
    ]);
    let tuning = &job["result"]["tuning"];
    assert_eq!(tuning["used"], false, "{job}");
    assert_eq!(tuning["steps"], 0, "{job}");
    assert!(
        tuning["reason"].as_str().unwrap().contains("--holdout"),
        "{job}"
    );
    // On a terminal, a fine-tune that did not run says why in so many words.
    let printed = env
        .cmd()
        .args([
            "--table",
            "align",
            "acme/support",
            "--questions",
            "intent",
            "--holdout",
            "0.3",
        ])
        .output()
        .unwrap();
    assert_succeeded(&printed);
    let printed = String::from_utf8_lossy(&printed.stdout);
    assert!(
        printed.contains("encoder not fine-tuned: examples are held out (--holdout)"),
        "{printed}"
    );
    let job = env.json(&[
        "align",
        "acme/support",
        "--questions",
        "intent",
        "--no-tune",
    ]);
    assert!(job["result"].get("tuning").is_none(), "turned off: {job}");
    // `--tune`, the default said aloud, still reads (scripts written when it was not).
    let job = env.json(&[
        "align",
        "acme/support",
        "--questions",
        "intent",
        "--no-tune",
        "--tune",
        "--holdout",
        "0.3",
    ]);
    assert_eq!(job["result"]["tuning"]["used"], false, "{job}");
}

/// Below 16 annotated states `align` does not fine-tune, and says so: each fold's fine-tune
/// would draw on too few states for cross-validation to tell whether it pays.
#[test]
fn align_does_not_fine_tune_on_fewer_than_sixteen_annotated_states_and_says_why() {
    let env = env_with_annotations(12);
    let job = env.json(&["align", "acme/support", "--questions", "intent"]);
    let tuning = &job["result"]["tuning"];
    assert_eq!(tuning["used"], false, "{job}");
    assert_eq!(tuning["steps"], 0, "{job}");
    assert_eq!(
        tuning["reason"],
        "12 annotated states; it needs at least 16 (with fewer, cross-validation cannot tell \
         whether it pays)",
        "{job}"
    );
}

/// `models diff` at an alignment names every question it changed: the head it added, with
/// what chose it, its learner, the examples it was fitted on and the out-of-fold figures
/// (it printed "no changes" for a real alignment); and nothing from the branch to itself.
#[test]
fn models_diff_shows_the_heads_an_alignment_added() {
    let env = env_with_examples(60, &["intent", "escalate"]);
    let job = env.json(&[
        "align",
        "--no-tune",
        "acme/support",
        "--questions",
        "intent,escalate",
    ]);
    let branch = job["result"]["branch"]
        .as_str()
        .expect("aligned")
        .to_owned();
    let mut improved: Vec<&str> = job["result"]["questions"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, q)| q["improved"] == true)
        .map(|(id, _)| id.as_str())
        .collect();
    assert!(!improved.is_empty(), "{job}");
    improved.sort_unstable();
    let diff = env.json(&["models", "diff", "acme/support", "main", &branch]);
    let heads = diff["heads"].as_array().expect("heads");
    let mut named: Vec<&str> = heads.iter().map(|h| h["id"].as_str().unwrap()).collect();
    named.sort_unstable();
    assert_eq!(named, improved, "{diff}");
    for head in heads {
        assert_eq!(head["status"], "added", "{head}");
        let added = &head["changes"][0]["to"];
        let id = head["id"].as_str().unwrap();
        assert_eq!(added["examples"], 60, "{head}");
        assert_eq!(
            added["chosen"], job["result"]["questions"][id]["chosen"],
            "{head}"
        );
        // The figure the alignment reported, as the manifest records it (to 4 places).
        let after = job["result"]["questions"][id]["after"]["accuracy"]
            .as_f64()
            .unwrap();
        let chosen = added["chosen"].as_str().unwrap();
        let recorded = added["outOfFold"][chosen]["accuracy"].as_f64().unwrap();
        assert!(
            (recorded - after).abs() < 1e-4,
            "{recorded} vs {after}: {head}"
        );
        assert!(added["sha256"].as_str().is_some_and(|s| s.len() == 64));
    }
    let text = env
        .cmd()
        .args(["--table", "models", "diff", "acme/support", "main", &branch])
        .output()
        .unwrap();
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("learned heads (learned/)"), "{text}");
    for id in &improved {
        assert!(
            text.lines().any(|l| l.starts_with(&format!("  + {id}  "))
                && l.contains("fitted on 60 examples")
                && l.contains("zero-shot ->")),
            "{text}"
        );
    }
    let same = env.json(&["models", "diff", "acme/support", &branch, &branch]);
    assert_eq!(same["heads"], serde_json::json!([]), "{same}");
    assert_eq!(
        diff["encoder"],
        serde_json::json!([]),
        "no fine-tune: {diff}"
    );
}
