//! Hostile input (issue 37): documents nested 100,000 deep, texts past their limits, files
//! pushed with plain git that no arbiter would have committed. Each is refused with a
//! located 4xx naming the limit, at once, over HTTP and on the command line alike; never a
//! 5xx, a hang or a crash.

use crate::common::TestEnv;
use crate::http::Home;
use reqwest::Method;
use serde_json::{Value, json};
use std::path::Path;
use std::time::{Duration, Instant};

/// 100,000 objects nested in one another: 600 KB that took libyaml minutes to refuse.
fn deep_objects(depth: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

/// 100,000 arrays nested in one another (200 KB).
fn deep_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Commit `files` on top of `model`'s default branch as branch `branch`, straight into its
/// bare repository, as a plain `git push` would: arbiter validates nothing on the way in.
pub(crate) fn push_files(home: &Path, model: &str, branch: &str, files: &[(&str, &str)]) {
    let repo = git2::Repository::open_bare(home.join("repos").join(format!("{model}.git")))
        .expect("the model's bare repository");
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    let mut tree = repo.treebuilder(Some(&head.tree().unwrap())).unwrap();
    for (name, text) in files {
        let blob = repo.blob(text.as_bytes()).unwrap();
        tree.insert(name, blob, 0o100_644).unwrap();
    }
    let tree = repo.find_tree(tree.write().unwrap()).unwrap();
    let signature = git2::Signature::new("t", "t@t", &git2::Time::new(1_700_000_000, 0)).unwrap();
    repo.commit(
        Some(&format!("refs/heads/{branch}")),
        &signature,
        &signature,
        "Pushed with plain git",
        &tree,
        &[&head],
    )
    .unwrap();
}

#[test]
fn files_nested_100_000_deep_are_refused_at_once_naming_the_limit() {
    let env = TestEnv::new();
    let state = env.write("state.json", "\"my parcel never arrived\"");
    let questions = env.write("questions.yaml", crate::common::QUESTIONS);
    let cases = [
        ("--questions", env.write("q.json", &deep_objects(100_000))),
        (
            "--questions",
            env.write("q.yaml", &format!("q: {}", deep_arrays(100_000))),
        ),
        ("--state", env.write("s.json", &deep_objects(100_000))),
    ];
    for (flag, file) in &cases {
        let mut args = vec!["decide", "--model", "mo"];
        match *flag {
            "--state" => args.extend(["--questions", path(&questions)]),
            _ => args.extend(["--state", path(&state)]),
        }
        args.extend([*flag, path(file)]);
        let started = Instant::now();
        let (code, problem, stderr) = env.problem(&args);
        // The whole process, start to exit, in a debug build; the check itself is bounded
        // at 50 ms by the unit tests (src/wire/nesting.rs).
        let took = started.elapsed();
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(problem["code"], "bad_request", "{problem}");
        let detail = problem["detail"].as_str().unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            detail.contains(name)
                && detail.contains("nest deeper than 127 levels (the limit) at line 1, column"),
            "{detail}"
        );
        assert!(took < Duration::from_secs(5), "{flag} {name}: {took:?}");
    }
}

/// As the README's table says: 400 `bad_request`, as for any body the parser refuses,
/// located by line and column and naming the limit; at once (it took 0.8 s for arrays and
/// minutes for objects inside a YAML questions file; `serde_json`'s own refusal named no limit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_nested_100_000_deep_is_refused_at_once_naming_the_limit() {
    let home = Home::new(None);
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    for (body, column) in [
        (
            format!(r#"{{"model":"mo","state":{}}}"#, deep_arrays(100_000)),
            149,
        ),
        (deep_objects(100_000), 636),
    ] {
        let started = Instant::now();
        let reply = server
            .send(
                server
                    .request(Method::POST, "/v1/decision", Some(&token))
                    .header("content-type", "application/json")
                    .body(body),
            )
            .await;
        let took = started.elapsed();
        let problem = server.problem(&reply, 400, "bad_request").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!(
                "nest deeper than 127 levels (the limit) at line 1, column {column}"
            )),
            "{detail}"
        );
        assert!(took < Duration::from_secs(1), "{took:?}");
    }
}

/// A checkpoint pushed with plain git whose `questions.yaml` is nested 100,000 deep, or is
/// not YAML at all: a decision at it and a diff to it are 422 `invalid_checkpoint`, located
/// in the file, at once (the diff was a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pushed_checkpoint_deep_or_not_yaml_is_an_invalid_checkpoint_in_diff_too() {
    let home = Home::new(None);
    let token = home.admin_token("t");
    let model_id = home.model("acme/support");
    let deep = format!("q: {}", deep_objects(100_000));
    push_files(
        &home.path(),
        "acme/support",
        "deep",
        &[("questions.yaml", &deep)],
    );
    push_files(
        &home.path(),
        "acme/support",
        "broken",
        &[("questions.yaml", "q: [unclosed\n  - {")],
    );
    let server = home.serve().await;
    for (branch, says) in [
        ("deep", "127 levels (the limit)"),
        ("broken", "not valid YAML"),
    ] {
        let started = Instant::now();
        let decision = json!({"model": "acme/support", "revision": branch, "state": "hi"});
        let reply = server
            .post_json("/v1/decision", Some(&token), &decision)
            .await;
        let problem = server.problem(&reply, 422, "invalid_checkpoint").await;
        assert_eq!(problem["details"][0]["loc"], json!(["questions.yaml"]));
        assert!(
            problem["details"][0]["msg"]
                .as_str()
                .unwrap()
                .contains(says)
        );
        let reply = server
            .get(
                &format!("/v1/models/{model_id}/diff?from=main&to={branch}"),
                Some(&token),
            )
            .await;
        let problem: Value = server.problem(&reply, 422, "invalid_checkpoint").await;
        assert_eq!(problem["details"][0]["loc"], json!(["questions.yaml"]));
        assert!(
            problem["details"][0]["msg"]
                .as_str()
                .unwrap()
                .contains(says)
        );
        assert!(started.elapsed() < Duration::from_secs(2), "{branch}");
    }
}

// ---------------------------------------------------------------------------------------
// Limits on every input (docs/src/limits.md)
// ---------------------------------------------------------------------------------------

/// One text past its limit in each place a decision takes text, and each count one past
/// its limit: every one a located 422 naming the limit, never the 500 (`embedding: text
/// exceeds 64 KiB`) a text over 64 KiB was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_text_and_count_past_its_limit_is_a_located_422_naming_it() {
    // A body large enough for a state past its own limit.
    let home = Home::new(Some("server:\n  max_body_bytes: 33554432\n"));
    let token = home.admin_token("t");
    home.model("acme/support");
    let server = home.serve().await;
    let big = "refund ".repeat(10_000); // 70 KB
    let levels: Vec<&str> = vec!["x"; 257];
    let options: serde_json::Map<String, Value> =
        (0..257).map(|i| (i.to_string(), Value::Null)).collect();
    let questions: serde_json::Map<String, Value> = (0..257)
        .map(|i| (i.to_string(), json!({"type": "noul"})))
        .collect();
    let noul = |q: Value| json!({"model": "mo", "state": "hi", "questions": {"q": q}});
    let cases = [
        (
            noul(json!({"type": "noul", "instructions": big})),
            json!(["body", "questions", "q", "instructions"]),
            "16384",
        ),
        (
            noul(json!({"type": "noul", "criteria": {"true": big}})),
            json!(["body", "questions", "q", "criteria", "true"]),
            "16384",
        ),
        (
            noul(json!({"type": "choice", "criteria": {"a": {"text": big}}})),
            json!(["body", "questions", "q", "criteria", "a"]),
            "16384",
        ),
        (
            noul(json!({"type": "choice", "criteria": {big.clone(): null}})),
            json!(["body", "questions", "q", "criteria", big]),
            "255",
        ),
        (
            noul(json!({"type": "score", "criteria": ["low", big]})),
            json!(["body", "questions", "q", "criteria", 1]),
            "16384",
        ),
        (
            noul(json!({"type": "score", "criteria": levels})),
            json!(["body", "questions", "q", "criteria"]),
            "256",
        ),
        (
            noul(json!({"type": "choice", "criteria": options})),
            json!(["body", "questions", "q", "criteria"]),
            "256",
        ),
        (
            json!({"model": "mo", "state": "hi", "questions": questions}),
            json!(["body", "questions"]),
            "256",
        ),
        (
            json!({"model": "acme/support", "state": "hi", "example_id": "é".repeat(256)}),
            json!(["body", "example_id"]),
            "255",
        ),
        (
            json!({"model": "acme/support", "state": "hi", "revision": "r".repeat(256)}),
            json!(["body", "revision"]),
            "255",
        ),
        (
            json!({"model": "acme/support", "state": (0..65).fold(json!(1), |s, _| json!([s]))}),
            json!(["body", "state"]),
            "64 levels",
        ),
        (
            json!({"model": "acme/support", "state": {"text": "x".repeat(10 << 20)}}),
            json!(["body", "state"]),
            "10485760 bytes",
        ),
    ];
    for (body, loc, limit) in cases {
        let started = Instant::now();
        let reply = server.post_json("/v1/decision", Some(&token), &body).await;
        // Refused before any engine runs: quick even in a debug build on a busy machine.
        let took = started.elapsed();
        let problem = server.problem(&reply, 422, "validation_error").await;
        let details = problem["details"].as_array().unwrap();
        assert_eq!(details.len(), 1, "{problem}");
        assert_eq!(details[0]["loc"], loc, "{problem}");
        let msg = details[0]["msg"].as_str().unwrap();
        assert!(msg.contains(&format!("the limit is {limit}")), "{msg}");
        // (A 10 MiB body takes its own time to read and parse in a debug build.)
        if !limit.ends_with("bytes") {
            assert!(took < Duration::from_secs(2), "{loc}: {took:?}");
        }
    }
}

/// A state that is one word of 70 KB: answered on every built-in model, as `mo` always
/// answered it (the whole-state models gave `500 embedding: text exceeds 64 KiB`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_of_one_long_word_is_answered_on_every_built_in_model() {
    let home = Home::new(None);
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let state = format!("my parcel {} never arrived", "x".repeat(70_000));
    for model in ["mo", "mo-reasoning", "jev-latest", "jev-1.13.0"] {
        let body = json!({
            "model": model, "state": state,
            "questions": {"late": {"type": "noul", "instructions": "The parcel is late."}},
        });
        let reply = server.post_json("/v1/decision", Some(&token), &body).await;
        let answer = reply.ok();
        let p = answer["answers"]["late"]["noul"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{model}: {answer}");
    }
}

/// `models commit` refuses a question file past a limit (it accepted a 20 MB instruction,
/// and every decision at that checkpoint then failed); a checkpoint pushed with plain git
/// past one is refused at use, in a decision and in `diff`, 422 `invalid_checkpoint`
/// located in the file.
#[test]
fn a_question_file_past_a_limit_is_refused_by_commit_and_when_pushed() {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", crate::common::QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    let long = format!(
        "{}escalate:\n  type: noul\n  instructions: {}\n",
        crate::common::QUESTIONS.replace("escalate:\n  type: noul\n  instructions: The customer is upset and asks to speak to a manager.\n", ""),
        "upset ".repeat(5_000)
    );
    let file = env.write("long.yaml", &long);
    let (code, problem, stderr) = env.problem(&[
        "models",
        "commit",
        "acme/support",
        "--questions",
        path(&file),
        "-m",
        "Longer",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "validation_error", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"]),
        "{problem}"
    );
    assert!(
        problem["details"][0]["msg"]
            .as_str()
            .unwrap()
            .contains("29999 characters; the limit is 16384"),
        "{problem}"
    );

    push_files(
        &env.home(),
        "acme/support",
        "long",
        &[("questions.yaml", &long)],
    );
    let state = env.write("state.json", "\"my parcel never arrived\"");
    let (code, problem, stderr) = env.problem(&[
        "decide",
        "--model",
        "acme/support",
        "--revision",
        "long",
        "--state",
        path(&state),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "invalid_checkpoint", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"])
    );
    let (code, problem, stderr) = env.problem(&["models", "diff", "acme/support", "main", "long"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "invalid_checkpoint", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"])
    );
}

/// Reasoning past its limit on an annotation: a located 422, nothing written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reasoning_past_its_limit_is_a_located_422() {
    let home = Home::new(None);
    let token = home.admin_token("t");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let decision = json!({"model": "acme/support", "state": "hi", "example_id": "e1"});
    server
        .post_json("/v1/decision", Some(&token), &decision)
        .await
        .ok();
    let patch = json!({"escalate": {"answer": true, "reasoning": "why ".repeat(5_000)}});
    let reply = server
        .patch_json(
            &format!("/v1/models/{model_id}/examples/e1/annotations"),
            Some(&token),
            &patch,
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "escalate", "reasoning"])
    );
    let example = server
        .get(&format!("/v1/models/{model_id}/examples/e1"), Some(&token))
        .await
        .ok();
    assert_eq!(example["annotations"], json!({}), "{example}");
}
