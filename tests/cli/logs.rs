//! `ARBITER_LOG_FORMAT`: `json` writes one JSON object per line, and every line logged
//! while a request is handled carries the request's ID; text stays the default; a format
//! that is neither is refused at startup.

use crate::common::Served;
use crate::common::TestEnv;
use crate::common::base_request;
use crate::fake_upstream::{FakeReply, FakeUpstream, systemone_answers};
use serde_json::{Value, json};

/// A home whose `mo-reasoning` is a remote engine that fails once (503) and then answers:
/// a decision on it logs a line deep inside the request (the retry, at debug), besides
/// the access log's; and a token for it.
pub(crate) fn home_with_remote(fake: &FakeUpstream) -> (TestEnv, String) {
    let env = TestEnv::new();
    env.write(
        "home/config.yaml",
        &format!(
            "engines:\n  remote: {{kind: systemone, url: '{}', model: jev-remote, \
             release_date: '2025-01-01', retries: 2, backoff: 0.01, max_backoff: 0.05}}\n\
             models:\n  mo-reasoning: remote\n",
            fake.url()
        ),
    );
    let created = crate::common::decisions_token(&env);
    (env, created["token"].as_str().unwrap().to_owned())
}

/// One decision with request ID `id` against `served`.
fn decide(served: &Served, token: &str, id: &str) {
    crate::common::runtime().block_on(async {
        let answered = Served::client()
            .post(served.url("/v1/decision"))
            .bearer_auth(token)
            .header("x-request-id", id)
            .json(&base_request("mo-reasoning"))
            .send()
            .await
            .unwrap();
        assert_eq!(answered.status(), 200);
    });
}

/// The request IDs a JSON log line carries: in its own fields, or in any of its spans'.
fn request_ids(line: &Value) -> Vec<&str> {
    let spans = line["spans"].as_array().into_iter().flatten();
    std::iter::once(&line["fields"])
        .chain(spans)
        .filter_map(|fields| fields["request_id"].as_str())
        .collect()
}

#[test]
fn json_lines_carry_the_request_id_on_every_line_of_a_request() {
    let fake = FakeUpstream::start(|i, body| match i {
        0 => FakeReply::json(503, &json!({"error": "busy"})),
        _ => FakeReply::ok(&systemone_answers(body)),
    });
    let (env, token) = home_with_remote(&fake);
    let served = env.spawn_serve_with(|command| {
        command
            .env("ARBITER_LOG_FORMAT", "json")
            .env("ARBITER_LOG", "info,arbiter=debug");
    });
    let id = "0b6f1c9e-3a52-4c1e-9d7a-5f0e8a2b4c6d";
    decide(&served, &token, id);
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    let lines: Vec<Value> = log
        .lines()
        .map(|line| {
            let value: Value = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}\n{log}"));
            assert!(value.is_object() && value["level"].is_string(), "{line}");
            value
        })
        .collect();
    let message = |line: &Value| line["fields"]["message"].as_str().unwrap_or("").to_owned();
    // The request's lines: the retry, logged by the engine's client deep inside it, and
    // the access log's.
    let retry = lines
        .iter()
        .find(|line| message(line) == "retrying upstream request")
        .unwrap_or_else(|| panic!("no retry line in\n{log}"));
    let access = lines
        .iter()
        .find(|line| message(line) == "request")
        .unwrap_or_else(|| panic!("no access line in\n{log}"));
    for line in [retry, access] {
        assert_eq!(request_ids(line), [id], "{line}");
    }
    assert_eq!(retry["span"]["name"], "request", "{retry}");
    // Every line logged inside a request span is this request's: its ID on each.
    let inside: Vec<&Value> = lines
        .iter()
        .filter(|line| line["spans"].as_array().is_some_and(|s| !s.is_empty()))
        .collect();
    assert!(!inside.is_empty());
    for line in inside {
        assert_eq!(request_ids(line), [id], "{line}");
        // The trace ID is declared, and only written once a request is traced.
        assert!(line["span"].get("trace_id").is_none(), "{line}");
    }
}

#[test]
fn text_is_the_default_and_an_unknown_format_is_refused_at_startup() {
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let (env, token) = home_with_remote(&fake);
    let served = env.spawn_serve();
    let id = "6a1e2b3c-4d5e-4f60-8a7b-9c0d1e2f3a4b";
    decide(&served, &token, id);
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    let access = log
        .lines()
        .find(|line| line.contains(id))
        .unwrap_or_else(|| panic!("no line with {id} in\n{log}"));
    assert!(
        !access.trim_start().starts_with('{'),
        "text, not JSON: {access}"
    );

    let refused = env
        .cmd()
        .env("ARBITER_LOG_FORMAT", "yaml")
        .args(["serve", "--listen", "127.0.0.1:0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("ARBITER_LOG_FORMAT") && stderr.contains("`yaml`"),
        "{stderr}"
    );
}
