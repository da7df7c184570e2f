use crate::common::{QUESTIONS, STATE, TestEnv, assert_succeeded, score_cell};
use serde_json::{Value, json};
use std::fmt::Write as _;

fn setup() -> (TestEnv, String, String) {
    let env = TestEnv::new();
    let questions = env.write("q.yaml", QUESTIONS).display().to_string();
    let state = env.write("s.json", STATE).display().to_string();
    (env, questions, state)
}

#[test]
fn answers_every_question_with_its_id_and_type() {
    let (env, q, s) = setup();
    let response = env.json(&["decide", "--model", "mo", "--questions", &q, "--state", &s]);
    assert_eq!(response["model"], "mo");
    let answers = response["answers"].as_object().unwrap();
    assert_eq!(
        answers.keys().collect::<Vec<_>>(),
        ["intent", "urgency", "escalate"]
    );
    assert_eq!(answers["intent"]["type"], "choice");
    assert_eq!(answers["intent"]["choice"], "refund", "{response}");
    assert_eq!(answers["urgency"]["type"], "score");
    assert_eq!(answers["escalate"]["type"], "noul");
    assert!(response["usage"]["input_tokens"].as_u64().unwrap() > 20);
    assert_eq!(response["usage"]["output_tokens"], json!(0));
    // Base models carry no repository members.
    assert!(response.get("revision").is_none() && response.get("recorded").is_none());
}

/// The table reads a score as a person does: its most likely level, with its probability,
/// beside the expected level the JSON's `score` holds.
#[test]
fn a_score_reads_as_its_most_likely_level_beside_its_mean() {
    let (env, q, s) = setup();
    let args = ["decide", "--model", "mo", "--questions", &q, "--state", &s];
    let response = env.json(&args);
    let cell = score_cell(&response["answers"]["urgency"]);
    let output = env.cmd().arg("--table").args(args).output().unwrap();
    assert!(output.status.success(), "{output:?}");
    let table = String::from_utf8_lossy(&output.stdout);
    let row = table
        .lines()
        .find(|line| line.trim_start().starts_with("urgency "))
        .unwrap_or_else(|| panic!("no urgency row:\n{table}"));
    let cells: Vec<&str> = row.split("   ").map(str::trim).collect();
    assert!(cells.contains(&cell.as_str()), "{cell:?} in {row:?}");
    assert!(cells.contains(&"score"), "{row:?}");
}

#[test]
fn same_request_same_bytes() {
    let (env, q, s) = setup();
    let args = ["decide", "-m", "mo-reasoning", "-q", &q, "-s", &s];
    let first = env.cmd().args(args).output().unwrap();
    let second = env.cmd().args(args).output().unwrap();
    assert!(first.status.success());
    assert_eq!(first.stdout, second.stdout);
}

#[test]
fn state_from_stdin() {
    let (env, q, _) = setup();
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-q", &q, "--state", "-"])
        .write_stdin(STATE)
        .output()
        .unwrap();
    assert_succeeded(&output);
    let from_file = env.json(&[
        "decide",
        "-m",
        "mo",
        "-q",
        &q,
        "-s",
        &env.path().join("s.json").display().to_string(),
    ]);
    assert_eq!(
        serde_json::from_slice::<Value>(&output.stdout).unwrap(),
        from_file
    );
}

#[test]
fn a_request_body_gives_the_same_response_as_options() {
    let (env, q, s) = setup();
    let questions = arbiter::wire::value::parse_yaml(QUESTIONS).unwrap();
    let body = json!({"model": "jev-latest", "state": serde_json::from_str::<Value>(STATE).unwrap(), "questions": questions});
    let request = env
        .write("request.json", &body.to_string())
        .display()
        .to_string();
    let via_request = env.json(&["decide", "--request", &request, "--json"]);
    let via_options = env.json(&["decide", "-m", "jev-latest", "-q", &q, "-s", &s]);
    assert_eq!(via_request, via_options);
    // Options override members of the body.
    let overridden = env.json(&["decide", "--request", &request, "--model", "mo"]);
    assert_eq!(overridden["model"], "mo");
}

#[test]
fn odd_question_ids_images_and_empty_choices_are_answered() {
    let env = TestEnv::new();
    let q = env.write(
        "q.json",
        r#"{"": {"type": "noul", "instructions": "The user sent a screenshot."},
        "no options": {"type": "choice", "criteria": {}},
        "one level": {"type": "score", "criteria": [{"text": "only"}]}}"#,
    );
    let s = env.write("s.json", r#"{"messages":[{"role":"user","content":[{"type":"text","text":"here is the error"},{"type":"image_url","image_url":{"url":"https://example.com/x.png"}}]}]}"#);
    let response = env.json(&[
        "decide",
        "-m",
        "mo",
        "-q",
        q.to_str().unwrap(),
        "-s",
        s.to_str().unwrap(),
    ]);
    let answers = &response["answers"];
    assert!(answers[""]["noul"].as_f64().unwrap() > 0.0);
    assert_eq!(
        answers["no options"],
        json!({"type": "choice", "choice": null, "probabilities": {}, "confidence": 0.0})
    );
    assert_eq!(
        answers["one level"]["legend"],
        json!({"0": {"text": "only"}})
    );
    assert_eq!(answers["one level"]["confidence"], json!(1.0));
}

#[test]
fn invalid_questions_report_every_problem_with_its_path() {
    let env = TestEnv::new();
    let q = env.write("bad.yaml", "urgency:\n  type: score\n  criteria: [low, high, null]\nintent:\n  type: choice\n  criteria: {'': x}\nx:\n  type: maybe\n");
    let s = env.write("s.json", STATE);
    let output = env
        .cmd()
        .args([
            "decide",
            "-m",
            "mo",
            "-q",
            q.to_str().unwrap(),
            "-s",
            s.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: invalid request: 3 problems"),
        "{stderr}"
    );
    assert!(
        stderr.contains("questions.urgency.criteria[2]: a score level may not be null"),
        "{stderr}"
    );
    assert!(
        stderr.contains(r#"questions.intent.criteria[""]: an option key may not be empty"#),
        "{stderr}"
    );
    assert!(
        stderr.contains("questions.x.type: unknown question type"),
        "{stderr}"
    );

    let output = env
        .cmd()
        .args([
            "decide",
            "--json",
            "-m",
            "mo",
            "-q",
            q.to_str().unwrap(),
            "-s",
            s.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let problem: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(problem["code"], "validation_error");
    assert_eq!(problem["status"], 422);
    assert_eq!(problem["type"], "/problems/validation-error");
    assert_eq!(
        problem["details"][0],
        json!({"loc": ["body", "questions", "urgency", "criteria", 2], "msg": "a score level may not be null", "type": "null_level"})
    );
}

#[test]
fn unknown_model_is_not_found() {
    let (env, q, s) = setup();
    let output = env
        .cmd()
        .args(["decide", "--json", "-m", "gpt-9", "-q", &q, "-s", &s])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(4));
    let problem: Value = serde_json::from_slice(&output.stderr).unwrap();
    assert_eq!(problem["code"], "model_not_found");
    assert_eq!(problem["status"], 404);
}

#[test]
fn base_models_need_questions_and_reject_repository_options() {
    let (env, q, s) = setup();
    let output = env
        .cmd()
        .args([
            "decide",
            "-m",
            "mo",
            "-s",
            &s,
            "-q",
            &q,
            "--revision",
            "v1",
            "--no-capture",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("revision: revision applies only to repository models"),
        "{stderr}"
    );
    // `--no-capture` asks for nothing a base model would do: never its error.
    assert!(!stderr.contains("capture"), "{stderr}");
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-s", &s])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&output.stderr)
            .contains("questions are required with base model `mo`")
    );
}

#[test]
fn unreadable_inputs_are_clear_errors() {
    let (env, q, _) = setup();
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-q", &q, "-s", "missing.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).starts_with("error: reading missing.json: "));
    let bad = env.write("bad.json", "{not json");
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-q", &q, "-s", bad.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&output.stderr).contains("bad.json is not valid JSON"));
    let output = env
        .cmd()
        .args(["decide", "-m", "mo", "-q", "-", "-s", "-"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn missing_required_options_are_usage_errors() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .args(["decide", "--state", "s.json"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("--model"));
}

/// At a terminal, a decision over a state of many windows shows a spinner with the windows
/// read, then says how many input tokens it read and in how many windows; on a pipe the
/// same decision writes nothing on stderr.
#[test]
fn a_long_decision_shows_its_reading_at_a_terminal() {
    use crate::terminal::Terminal;
    let (env, q, _) = setup();
    let text = (0..1000).fold(String::new(), |mut out, i| {
        let _ = write!(out, "w{i} refund ");
        out
    });
    let long = env.write("long.json", &json!({ "text": text }).to_string());
    let long = long.display().to_string();
    let args = ["decide", "-m", "mo-reasoning", "-q", &q, "-s", &long];

    let mut cmd = env.std_cmd();
    cmd.args(args)
        .env("TERM", "xterm")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped());
    let terminal = Terminal::attach(&mut cmd);
    let output = cmd.spawn().unwrap().wait_with_output().unwrap();
    assert!(output.status.success(), "{}", terminal.seen());
    let response: Value = serde_json::from_slice(&output.stdout).unwrap();
    let tokens = response["usage"]["input_tokens"].as_u64().unwrap();
    terminal.wait_for(&format!("read {tokens} input tokens in "));
    let seen = terminal.seen();
    assert!(seen.contains("reading the state: "), "{seen}");
    let windows: usize = seen
        .split(" windows of the state)")
        .next()
        .and_then(|before| before.rsplit('(').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the windows are named: {seen}"));
    assert!(windows > 3, "{seen}");
    assert!(seen.contains(&format!("/{windows} windows")), "{seen}");

    let piped = env.cmd().args(args).output().unwrap();
    assert!(piped.status.success());
    assert!(piped.stderr.is_empty(), "{:?}", piped.stderr);
    assert_eq!(piped.stdout, output.stdout, "the same answer either way");
}

/// `--no-capture` is accepted whatever the model (nothing is recorded for a base model), so a
/// script can always pass it; asking a base model to capture (`"capture": true` in a
/// request) is still refused, located at the member.
#[test]
fn no_capture_is_accepted_for_a_base_model_and_capture_is_not() {
    let (env, q, s) = setup();
    let answered = env.json(&["decide", "-m", "mo", "-q", &q, "-s", &s, "--no-capture"]);
    assert!(answered["answers"]["intent"].is_object(), "{answered}");
    assert!(answered.get("recorded").is_none(), "{answered}");
    let request = env.write(
        "capture.json",
        &format!(r#"{{"model":"mo","capture":true,"state":{STATE}}}"#),
    );
    let (code, problem, _) = env.problem(&[
        "decide",
        "--request",
        &request.display().to_string(),
        "-q",
        &q,
    ]);
    assert_eq!(code, 1, "{problem}");
    assert_eq!(problem["details"][0]["loc"], json!(["body", "capture"]));
    assert_eq!(problem["details"][0]["type"], "repository_only");
}

/// A model with no saved questions, asked without questions of the request's own: `decide`
/// and a batch job refuse it alike, located at `questions`, and nothing is recorded.
#[test]
fn a_model_with_no_saved_questions_needs_the_request_s_own() {
    let (env, questions, state) = setup();
    env.json(&["models", "create", "acme/empty", "--base", "mo"]);
    let input = env.write("in.jsonl", "{\"state\": {\"body\": \"hello\"}}\n");
    for args in [
        vec!["decide", "--model", "acme/empty", "--state", &state],
        vec!["batch", "acme/empty", "--input", input.to_str().unwrap()],
    ] {
        let (code, problem, _) = env.problem(&args);
        assert_eq!(code, 1, "{args:?}: {problem}");
        assert_eq!(problem["code"], "validation_error", "{problem}");
        assert_eq!(
            problem["details"][0]["loc"],
            json!(["body", "questions"]),
            "{problem}"
        );
        assert_eq!(
            problem["details"][0]["msg"],
            "acme/empty has no saved questions at main; supply questions",
            "{problem}"
        );
    }
    let examples = env.json(&["examples", "list", "acme/empty"]);
    assert_eq!(examples["examples"], json!([]), "{examples}");
    // With the request's own questions it answers.
    let answered = env.json(&[
        "decide",
        "--model",
        "acme/empty",
        "--state",
        &state,
        "--questions",
        &questions,
    ]);
    assert_eq!(
        answered["answers"]["intent"]["type"], "choice",
        "{answered}"
    );
}
