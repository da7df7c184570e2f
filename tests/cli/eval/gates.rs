//! Per-question gates: a `gates.yaml` committed with the model (`models commit --gates`,
//! or `models create --gates` in its first checkpoint),
//! read by `eval` at the revision it evaluates; the command-line gates replacing its
//! thresholds, `--gates FILE` and `--no-gates` instead of it; a bad file refused, located,
//! with nothing run.
//!
//! On a dozen labelled examples intent and escalate are measured and urgency is not
//! (`env_with_two_questions_annotated`). The thresholds are ones no figure can miss: an
//! accuracy of at least 0 always passes, and escalate's accuracy, below 0.8 on these
//! examples (the CI example's gate fails on it), cannot reach 1.

use super::env_with_two_questions_annotated;
use crate::align::labelled;
use crate::common::{TestEnv, repo_root};
use serde_json::{Value, json};
use std::process::Output;

/// A home whose `acme/support` has `gates` committed as its gates.yaml.
fn env_with_gates(gates: &str) -> TestEnv {
    let env = env_with_two_questions_annotated(12);
    let file = env.write("gates.yaml", gates);
    env.cmd()
        .args(["models", "commit", "acme/support", "--gates"])
        .arg(&file)
        .args(["-m", "Gate intent and escalate"])
        .assert()
        .success();
    env
}

const GATES: &str = "intent: {accuracy: 0.0}\nescalate: {accuracy: 1.0, max_ece: 1.0}\n";

fn eval(env: &TestEnv, args: &[&str]) -> Output {
    env.cmd()
        .args(["eval", "acme/support"])
        .args(args)
        .output()
        .unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_committed_gates_file_gates_each_question_and_exits_3_naming_the_one_that_fails() {
    let env = env_with_gates(GATES);
    let failed = eval(&env, &["--format", "json"]);
    assert_eq!(failed.status.code(), Some(3), "{}", stderr(&failed));
    let err = stderr(&failed);
    assert!(
        err.contains("gate failed: escalate: accuracy ")
            && err.contains(" is below 1 (gates.yaml)")
            && !err.contains("gate failed: intent")
            && !err.contains("gate failed: urgency"),
        "{err}"
    );
    let report: Value = serde_json::from_slice(&failed.stdout).unwrap();
    // The report carries the file's gates; the verdict is per question.
    assert_eq!(
        report["questionGates"],
        json!({"intent": {"accuracy": 0.0}, "escalate": {"accuracy": 1.0, "max_ece": 1.0}})
    );
    assert_eq!(report["gates"]["passed"], false);
    assert_eq!(
        report["gates"]["questions"],
        json!({
            "intent": {"minAccuracy": 0.0, "passed": true},
            "escalate": {"minAccuracy": 1.0, "maxEce": 1.0, "passed": false},
        }),
        "urgency has no gate, so its missing figures fail nothing"
    );
    let failures = report["gates"]["failures"].as_array().unwrap();
    assert_eq!(failures.len(), 1, "{failures:?}");
    assert_eq!(failures[0]["gate"], "min-accuracy");

    // The table names each gated question's gate and verdict.
    let table = eval(&env, &["--format", "table"]);
    let table = String::from_utf8_lossy(&table.stdout).into_owned();
    let row = |id: &str| {
        table
            .lines()
            .filter(|l| l.contains("(gates.yaml)"))
            .find(|l| {
                l.trim_start()
                    .trim_start_matches('│')
                    .trim_start()
                    .starts_with(id)
            })
            .unwrap_or_else(|| panic!("a gate row for {id}: {table}"))
            .to_owned()
    };
    assert!(
        row("intent").contains("accuracy ≥ 0 (gates.yaml)") && row("intent").contains("pass"),
        "{table}"
    );
    assert!(
        row("escalate").contains("accuracy ≥ 1 (gates.yaml)") && row("escalate").contains("FAIL"),
        "{table}"
    );

    // JUnit: escalate's test case fails with the gate in its message; intent's passes.
    let junit = eval(&env, &["--format", "junit"]);
    assert_eq!(junit.status.code(), Some(3));
    let xml = String::from_utf8(junit.stdout).unwrap();
    assert!(xml.contains("failures=\"1\""), "{xml}");
    assert!(
        xml.contains("<failure type=\"min-accuracy\" message=\"accuracy ")
            && xml.contains("is below 1 (gates.yaml)\"/>"),
        "{xml}"
    );

    // Markdown: the file is named as the gates' source, with each question's gate.
    let markdown = eval(&env, &["--format", "markdown"]);
    let markdown = String::from_utf8(markdown.stdout).unwrap();
    assert!(
        markdown.contains("❌ **Gates failed** (exit 3): 1 of 3 questions, under `gates.yaml`.")
            && markdown
                .contains("**Gates** (`gates.yaml`)\n\n- `intent`: accuracy ≥ 0 (gates.yaml)\n"),
        "{markdown}"
    );
}

#[test]
fn eval_passes_when_every_committed_gate_passes() {
    let env = env_with_gates("intent: {accuracy: 0.0}\nescalate: {max_ece: 1.0}\n");
    let passed = eval(&env, &["--format", "json"]);
    assert_eq!(passed.status.code(), Some(0), "{}", stderr(&passed));
    let report: Value = serde_json::from_slice(&passed.stdout).unwrap();
    assert_eq!(report["gates"]["passed"], true);
    assert_eq!(report["gates"]["questions"]["escalate"]["passed"], true);
}

#[test]
fn a_flag_replaces_the_files_gate_and_no_gates_or_another_file_sets_it_aside() {
    let env = env_with_gates(GATES);
    // --min-accuracy replaces escalate's 1.0 (and gates every question asked for).
    let overridden = eval(
        &env,
        &["--questions", "intent,escalate", "--min-accuracy", "0"],
    );
    assert_eq!(overridden.status.code(), Some(0), "{}", stderr(&overridden));
    // Its max_ece (1.0) still holds: the flag replaces only its own metric.
    let report: Value = serde_json::from_slice(&overridden.stdout).unwrap();
    assert_eq!(
        report["gates"]["questions"]["escalate"],
        json!({"minAccuracy": 0.0, "maxEce": 1.0, "passed": true})
    );
    // A flag applies to every question: urgency, unmeasured, then fails.
    let every = eval(&env, &["--min-accuracy", "0"]);
    assert_eq!(every.status.code(), Some(3));
    assert!(
        stderr(&every).contains("gate failed: urgency: not evaluated"),
        "{}",
        stderr(&every)
    );

    // --no-gates: the file is not read; no gate, exit 0.
    let ignored = eval(&env, &["--no-gates"]);
    assert_eq!(ignored.status.code(), Some(0), "{}", stderr(&ignored));
    let report: Value = serde_json::from_slice(&ignored.stdout).unwrap();
    assert!(report.get("questionGates").is_none(), "{report}");
    assert_eq!(
        report["gates"],
        json!({"passed": true, "failures": [], "questions": {}})
    );

    // --gates FILE: that file's gates instead, named as their source.
    let other = env.write(
        "release-gates.yaml",
        "escalate: {accuracy: 0.0}\n\"*\": {max_ece: 1.0}\n",
    );
    let output = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--questions",
            "intent,escalate",
            "--gates",
        ])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(
        report["gates"]["questions"],
        json!({
            "intent": {"maxEce": 1.0, "passed": true},
            "escalate": {"minAccuracy": 0.0, "passed": true},
        })
    );
    let tight = env.write("tight.yaml", "\"*\": {accuracy: 1.0}\n");
    let output = env
        .cmd()
        .args([
            "eval",
            "acme/support",
            "--questions",
            "escalate",
            "--format",
            "table",
            "--gates",
        ])
        .arg(&tight)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(3));
    assert!(
        stderr(&output).contains("is below 1 (") && stderr(&output).contains("tight.yaml)"),
        "{}",
        stderr(&output)
    );
}

/// A validation problem's details as (loc, type), having checked it is one (exit 1).
fn located((code, problem, stderr): (i32, Value, String)) -> Vec<(Value, String)> {
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error")),
        "{stderr}"
    );
    problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["loc"].clone(), d["type"].as_str().unwrap().to_owned()))
        .collect()
}

#[test]
fn models_create_commits_a_gates_file_eval_reads_and_a_bad_one_creates_nothing() {
    let env = TestEnv::new();
    let questions = repo_root().join("examples/support/questions.yaml");
    let create = |model: &str, gates: &str| {
        let mut args = vec!["models", "create", model, "--base", "mo", "--questions"];
        args.push(questions.to_str().unwrap());
        args.extend(["--gates", gates]);
        args.into_iter().map(str::to_owned).collect::<Vec<_>>()
    };
    env.write("gates.yaml", GATES);
    env.cmd()
        .args(create("acme/support", "gates.yaml"))
        .assert()
        .success();
    env.ingest("acme/support", &labelled(12, &["intent", "escalate"]));
    // The first checkpoint holds the file, and eval reads it there.
    let log = env.json(&["models", "log", "acme/support"]);
    assert_eq!(log.as_array().unwrap().len(), 1, "{log}");
    let failed = eval(&env, &["--format", "json"]);
    assert_eq!(failed.status.code(), Some(3), "{}", stderr(&failed));
    assert!(
        stderr(&failed).contains("gate failed: escalate: accuracy ")
            && !stderr(&failed).contains("gate failed: intent"),
        "{}",
        stderr(&failed)
    );
    let report: Value = serde_json::from_slice(&failed.stdout).unwrap();
    assert_eq!(
        report["questionGates"],
        json!({"intent": {"accuracy": 0.0}, "escalate": {"accuracy": 1.0, "max_ece": 1.0}})
    );

    // A gate on a question the model would not have, or on a metric there is not: refused
    // as a commit refuses it (located in the checkpoint's gates.yaml), and no model is made.
    for (text, expected) in [
        (
            "intentt: {accuracy: 0.8}\n",
            (json!(["gates.yaml", "intentt"]), "unknown_question"),
        ),
        (
            "intent: {min_f1: 0.8}\n",
            (json!(["gates.yaml", "intent", "min_f1"]), "unknown_member"),
        ),
    ] {
        env.write("bad-gates.yaml", text);
        let args = create("acme/other", "bad-gates.yaml");
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        assert_eq!(
            located(env.problem(&args)),
            [(expected.0, expected.1.to_owned())],
            "{text}"
        );
        let (code, problem, _) = env.problem(&["models", "show", "acme/other"]);
        assert_eq!(
            (code, problem["code"].as_str()),
            (4, Some("model_not_found"))
        );
    }
    let models = env.json(&["models"]);
    assert!(!models.to_string().contains("acme/other"), "{models}");
}

#[test]
fn a_bad_gates_file_is_a_located_error_and_nothing_runs() {
    let env = env_with_two_questions_annotated(12);
    let commit = |text: &str| {
        env.write("gates.yaml", text);
        env.problem(&[
            "models",
            "commit",
            "acme/support",
            "--gates",
            "gates.yaml",
            "-m",
            "bad",
        ])
    };
    assert_eq!(
        located(commit("intentt: {accuracy: 0.8}\n")),
        [(
            json!(["gates.yaml", "intentt"]),
            "unknown_question".to_owned()
        )]
    );
    assert_eq!(
        located(commit("intent: {min_f1: 0.8, accuracy: 1.5}\n")),
        [
            (
                json!(["gates.yaml", "intent", "accuracy"]),
                "range".to_owned()
            ),
            (
                json!(["gates.yaml", "intent", "min_f1"]),
                "unknown_member".to_owned()
            ),
        ]
    );
    assert_eq!(
        located(commit("intent: {accuracy: [\n")),
        [(json!(["gates.yaml"]), "yaml".to_owned())]
    );
    // Nothing was committed: the model has no gates, and eval is not gated.
    assert_eq!(eval(&env, &[]).status.code(), Some(0));

    // A file given to eval is located in it, and no job is created.
    env.write("mine.yaml", "escalate: {max_ece: -1}\n");
    assert_eq!(
        located(env.problem(&["eval", "acme/support", "--gates", "mine.yaml"])),
        [(
            json!(["mine.yaml", "escalate", "max_ece"]),
            "range".to_owned()
        )]
    );
    env.write("mine.yaml", "nope: {max_ece: 0.1}\n");
    assert_eq!(
        located(env.problem(&["eval", "acme/support", "--gates", "mine.yaml"])),
        [(json!(["mine.yaml", "nope"]), "unknown_question".to_owned())]
    );
    let jobs = env.json(&["jobs", "list"]);
    assert_eq!(
        jobs.as_array().unwrap().len(),
        1,
        "only the ungated eval ran: {jobs}"
    );
}
