//! Remote engines against fake upstreams over real sockets: the System One and chat
//! protocols, validation of what they answer, the mapping of every failure to a status and
//! code, retries and their waits, the in-flight limit, routing of base and repository
//! models, `arbiter engines`, and the server's problem documents.

use crate::common::{QUESTIONS, STATE, TestEnv, assert_succeeded};
use crate::common::{base_request, questions, state};
use crate::fake_upstream::{
    FakeReply, FakeUpstream, chat_completion, refused_url, systemone_answers,
};
use arbiter::config::Settings;
use arbiter::core::Context;
use arbiter::error::Error;
use arbiter::wire::{DecisionRequest, DecisionResponse};
use serde_json::{Value, json};
use std::time::{Duration, Instant};
use tempfile::TempDir;

// ---------------------------------------------------------------------------------------
// Harness
// ---------------------------------------------------------------------------------------

/// A home whose config.yaml routes `jev-latest`, `mo` and `mo-reasoning` to one engine
/// `remote`, with a context over it and the environment given.
struct Setup {
    _dir: TempDir,
    ctx: Context,
}

fn setup(config: &str, env: &[(&str, &str)]) -> Setup {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("config.yaml"), config).unwrap();
    let env: Vec<(String, String)> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let settings = Settings::resolve_with(Some(dir.path().to_owned()), &move |name| {
        env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    })
    .expect("settings");
    Setup {
        ctx: Context::new(settings).expect("context"),
        _dir: dir,
    }
}

/// One engine entry: fast test limits, with `overrides` replacing or adding members.
fn entry(kind: &str, url: &str, overrides: &[(&str, &str)]) -> String {
    let mut fields: Vec<(String, String)> = [
        ("kind", kind.to_owned()),
        ("url", format!("'{url}'")),
        ("model", "jev-remote".to_owned()),
        ("connect_timeout", "1".to_owned()),
        ("timeout", "5".to_owned()),
        ("retries", "2".to_owned()),
        ("backoff", "0.05".to_owned()),
        ("max_backoff", "2".to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    for (name, value) in overrides {
        match fields.iter_mut().find(|(k, _)| k == name) {
            Some(field) => (*value).clone_into(&mut field.1),
            None => fields.push(((*name).to_owned(), (*value).to_owned())),
        }
    }
    let members: Vec<String> = fields.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    format!("{{{}}}", members.join(", "))
}

fn config(kind: &str, url: &str, overrides: &[(&str, &str)]) -> String {
    format!(
        "engines:\n  remote: {}\nmodels:\n  jev-latest: remote\n  mo: remote\n  mo-reasoning: remote\n",
        entry(kind, url, overrides)
    )
}

async fn decide_with(ctx: &Context, body: &Value) -> Result<DecisionResponse, Error> {
    let request = DecisionRequest::read(body).expect("a valid request");
    arbiter::core::decide::decide(ctx, &request, "00000000-0000-4000-8000-000000000000").await
}

async fn decide(ctx: &Context, model: &str) -> Result<DecisionResponse, Error> {
    decide_with(ctx, &base_request(model)).await
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn loc(error: &Error, i: usize) -> Value {
    serde_json::to_value(&error.details()[i].loc).unwrap()
}

// ---------------------------------------------------------------------------------------
// System One: the request, and validating the response
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn systemone_sends_the_contract_request_and_rebuilds_the_answers() {
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let s = setup(
        &config("systemone", fake.url(), &[("api_key_env", "REMOTE_KEY")]),
        &[("REMOTE_KEY", "sk-test-1")],
    );
    let response = decide(&s.ctx, "jev-latest").await.expect("decision");
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/systemone");
    assert_eq!(seen[0].authorization.as_deref(), Some("Bearer sk-test-1"));
    assert_eq!(
        seen[0].body,
        json!({"state": state(), "model": "jev-remote", "questions": questions()})
    );
    assert_eq!(response.model, "jev-latest");
    assert_eq!(response.usage.input_tokens, 120);
    assert_eq!(response.usage.output_tokens, 7);
    // choice, score and confidence are Arbiter's, not the provider's.
    let answers = serde_json::to_value(&response.answers).unwrap();
    assert_eq!(answers["intent"]["choice"], "refund", "{answers}");
    assert!(close(
        answers["intent"]["confidence"].as_f64().unwrap(),
        0.55
    ));
    assert!(close(answers["urgency"]["score"].as_f64().unwrap(), 3.0));
    assert_eq!(answers["escalate"], json!({"type": "noul", "noul": 0.8}));
    assert!(answers["intent"].get("x_option_mass").is_none());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_responses_are_422_located_in_the_provider_response() {
    let fake = FakeUpstream::start(|i, body| {
        let mut answer = systemone_answers(body);
        match i {
            0 => return FakeReply::text(200, "<html>oops</html>"),
            1 => {
                let intent = answer["answers"]["intent"].take();
                let answers = answer["answers"].as_object_mut().unwrap();
                answers.remove("intent");
                answers.insert("Intent".into(), intent);
            }
            2 => answer["answers"]["urgency"]["type"] = json!("choice"),
            3 => answer["answers"]["intent"]["probabilities"]["refund"] = json!(0.6),
            4 => answer["answers"]["escalate"]["noul"] = json!(1.5),
            5 => answer["answers"]["intent"]["probabilities"]["refund"] = json!(0.7008),
            _ => {}
        }
        FakeReply::ok(&answer)
    });
    let s = setup(&config("systemone", fake.url(), &[]), &[]);
    let expected: [(&[&str], &str); 5] = [
        (&["provider_response"], "json"),
        (
            &["provider_response", "answers", "intent"],
            "missing_answer",
        ),
        (
            &["provider_response", "answers", "urgency", "type"],
            "type_mismatch",
        ),
        (
            &["provider_response", "answers", "intent", "probabilities"],
            "bad_sum",
        ),
        (
            &["provider_response", "answers", "escalate", "noul"],
            "out_of_range",
        ),
    ];
    for (i, (at, kind)) in expected.iter().enumerate() {
        let error = decide(&s.ctx, "mo").await.expect_err("invalid");
        assert_eq!(error.status(), 422, "case {i}: {error}");
        assert_eq!(error.code(), "validation_error");
        assert!(
            error
                .to_string()
                .starts_with("engine `remote` gave an invalid response"),
            "{error}"
        );
        assert_eq!(loc(&error, 0), json!(at), "case {i}: {:?}", error.details());
        assert_eq!(error.details()[0].kind, *kind, "case {i}");
        if i == 1 {
            assert_eq!(
                loc(&error, 1),
                json!(["provider_response", "answers", "Intent"])
            );
        }
    }
    // A sum off by less than 1e-3 is renormalised.
    let response = decide(&s.ctx, "mo").await.expect("renormalised");
    let value = serde_json::to_value(&response.answers["intent"]).unwrap();
    let sum: f64 = value["probabilities"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_f64().unwrap())
        .sum();
    assert!(close(sum, 1.0), "{value}");
    // An invalid response is not retried: one request per decision.
    assert_eq!(fake.count(), 6);
}

// ---------------------------------------------------------------------------------------
// Failures, retries and their waits
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_in_seconds_and_milliseconds_is_honoured() {
    let fake = FakeUpstream::start(|i, body| match i {
        0 => FakeReply::json(429, &json!({"error": {"message": "slow down"}}))
            .header("retry-after", "1"),
        // retry-after-ms wins over Retry-After.
        1 => FakeReply::json(429, &json!({"error": {"message": "slow down"}}))
            .header("retry-after-ms", "300")
            .header("retry-after", "30"),
        _ => FakeReply::ok(&systemone_answers(body)),
    });
    let s = setup(
        &config(
            "systemone",
            fake.url(),
            &[("retries", "3"), ("backoff", "0.01"), ("max_backoff", "60")],
        ),
        &[],
    );
    decide(&s.ctx, "mo").await.expect("answered after two 429s");
    assert_eq!(fake.count(), 3);
    let gaps = fake.gaps();
    assert!(
        gaps[0] >= Duration::from_secs(1) && gaps[0] < Duration::from_secs(4),
        "{gaps:?}"
    );
    assert!(
        gaps[1] >= Duration::from_millis(300) && gaps[1] < Duration::from_secs(3),
        "{gaps:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn server_errors_are_retried_with_jittered_backoff_then_succeed() {
    let fake = FakeUpstream::start(|i, body| match i {
        0 => FakeReply::text(500, "boom"),
        1 => FakeReply::text(502, "bad gateway"),
        2 => FakeReply::json(529, &json!({"error": {"message": "overloaded"}})),
        _ => FakeReply::ok(&systemone_answers(body)),
    });
    let s = setup(
        &config(
            "systemone",
            fake.url(),
            &[
                ("retries", "3"),
                ("backoff", "0.1"),
                ("max_backoff", "0.15"),
            ],
        ),
        &[],
    );
    decide(&s.ctx, "mo")
        .await
        .expect("answered on the fourth try");
    assert_eq!(fake.count(), 4);
    // Full jitter: each wait is at most min(max_backoff, backoff·2ⁿ) (plus the time to
    // make a request on a busy machine).
    let ceilings = [0.1, 0.15, 0.15];
    for (gap, ceiling) in fake.gaps().iter().zip(ceilings) {
        assert!(gap.as_secs_f64() < ceiling + 0.5, "{:?}", fake.gaps());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exhausted_retries_are_502_with_the_upstream_status_and_message() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::json(503, &json!({"error": {"message": "model overloaded"}}))
    });
    let s = setup(&config("systemone", fake.url(), &[]), &[]);
    let error = decide(&s.ctx, "mo").await.expect_err("503 every time");
    assert_eq!(fake.count(), 3, "the first attempt and 2 retries");
    assert_eq!((error.status(), error.code()), (502, "upstream_failed"));
    let detail = error.to_string();
    for part in [
        "engine `remote`",
        "/v1/systemone",
        "503 Service Unavailable",
        "model overloaded",
        "after 3 attempts",
    ] {
        assert!(detail.contains(part), "{part:?} in {detail}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_errors_fail_at_once_and_never_show_the_key() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::json(
            401,
            &json!({"error": {"message": "Incorrect API key provided: sk-test-1"}}),
        )
    });
    let s = setup(
        &config("systemone", fake.url(), &[("api_key_env", "REMOTE_KEY")]),
        &[("REMOTE_KEY", "sk-test-1")],
    );
    let error = decide(&s.ctx, "mo").await.expect_err("401");
    assert_eq!(fake.count(), 1, "a 401 is not retried");
    assert_eq!((error.status(), error.code()), (502, "upstream_failed"));
    let detail = error.to_string();
    assert!(
        detail.contains("401 Unauthorized") && detail.contains("provided: <redacted>"),
        "{detail}"
    );
    assert!(!format!("{error:?}").contains("sk-test-1"));
    assert!(!format!("{:?}", s.ctx.settings()).contains("sk-test-1"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_key_is_503_without_a_request() {
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let s = setup(
        &config("systemone", fake.url(), &[("api_key_env", "REMOTE_KEY")]),
        &[],
    );
    let error = decide(&s.ctx, "mo").await.expect_err("no key");
    assert_eq!(
        (error.status(), error.code()),
        (503, "upstream_unavailable")
    );
    assert!(
        error
            .to_string()
            .contains("set the environment variable REMOTE_KEY"),
        "{error}"
    );
    assert_eq!(fake.count(), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_upstream_times_out_as_503() {
    let fake = FakeUpstream::start(|_, _| FakeReply::hang());
    let s = setup(
        &config(
            "systemone",
            fake.url(),
            &[("timeout", "0.3"), ("retries", "1")],
        ),
        &[],
    );
    let started = Instant::now();
    let error = decide(&s.ctx, "mo").await.expect_err("timeout");
    let elapsed = started.elapsed();
    assert_eq!(
        (error.status(), error.code()),
        (503, "upstream_unavailable")
    );
    assert_eq!(fake.count(), 2);
    let detail = error.to_string();
    assert!(
        detail.contains("timed out after 0.3 s") && detail.contains("after 2 attempts"),
        "{detail}"
    );
    assert!(
        elapsed >= Duration::from_millis(600) && elapsed < Duration::from_secs(5),
        "{elapsed:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_refused_is_503_after_the_retries() {
    let s = setup(&config("systemone", &refused_url(), &[]), &[]);
    let error = decide(&s.ctx, "mo").await.expect_err("refused");
    assert_eq!(
        (error.status(), error.code()),
        (503, "upstream_unavailable")
    );
    let detail = error.to_string();
    assert!(
        detail.to_lowercase().contains("connection refused") && detail.contains("after 3 attempts"),
        "{detail}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_after_beyond_max_backoff_ends_the_retries() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::text(503, "maintenance").header("retry-after", "120")
    });
    let s = setup(&config("systemone", fake.url(), &[]), &[]);
    let started = Instant::now();
    let error = decide(&s.ctx, "mo").await.expect_err("gave up");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(fake.count(), 1);
    assert_eq!(error.code(), "upstream_failed");
    assert!(
        error.to_string().contains("asked to retry after 120.0 s"),
        "{error}"
    );
}

// ---------------------------------------------------------------------------------------
// The in-flight limit
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_in_flight_limit_holds_across_concurrent_decisions() {
    let fake = FakeUpstream::start(|_, body| {
        FakeReply::ok(&systemone_answers(body)).after(Duration::from_millis(100))
    });
    let s = setup(
        &config("systemone", fake.url(), &[("max_in_flight", "3")]),
        &[],
    );
    let decisions = (0..12).map(|_| decide(&s.ctx, "mo"));
    for outcome in futures_util::future::join_all(decisions).await {
        outcome.expect("decision");
    }
    assert_eq!(fake.count(), 12);
    assert_eq!(fake.peak(), 3, "exactly the limit, and kept busy");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn batch_jobs_keep_the_in_flight_limit_busy() {
    use arbiter::core::batch::NewBatch;
    use arbiter::core::model_files::CapturePolicy;
    use arbiter::core::models::CreateModel;
    use arbiter::core::requests::BatchItems;
    let fake = FakeUpstream::start(|_, body| {
        FakeReply::ok(&systemone_answers(body)).after(Duration::from_millis(50))
    });
    let s = setup(
        &config("systemone", fake.url(), &[("max_in_flight", "4")]),
        &[],
    );
    arbiter::core::models::create(
        &s.ctx,
        &CreateModel {
            path: "acme/remote".parse().unwrap(),
            base: "jev-latest".into(),
            questions_yaml: Some(QUESTIONS.into()),
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("model");
    let input: String = (0..24)
        .map(|i| json!({"state": {"ticket": i}}).to_string() + "\n")
        .collect();
    let ctx = s.ctx.clone();
    let (_, lock) = arbiter::core::blocking(move || {
        let reader = std::io::Cursor::new(input.into_bytes());
        arbiter::core::batch::create(
            &ctx,
            NewBatch {
                model: &"acme/remote".parse().unwrap(),
                revision: None,
                questions: None,
                capture: false,
                working_questions: None,
                items: BatchItems::Lines(Box::new(reader)),
            },
            None,
        )
    })
    .await
    .expect("batch");
    let job = arbiter::core::runner::run(&s.ctx, lock, &arbiter::core::jobs::NoObserver)
        .await
        .expect("run");
    assert_eq!(job.status.as_str(), "completed", "{job:?}");
    assert_eq!((job.progress.done, job.progress.failed), (24, 0));
    assert_eq!(fake.count(), 24);
    assert_eq!(fake.peak(), 4);
}

// ---------------------------------------------------------------------------------------
// chat-logprobs
// ---------------------------------------------------------------------------------------

fn chat_config(url: &str, overrides: &[(&str, &str)]) -> String {
    let mut all = vec![("model", "Qwen/Qwen3-4B"), ("top_logprobs", "5")];
    all.extend_from_slice(overrides);
    config("chat-logprobs", url, &all)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_logprobs_reads_the_letter_distribution_per_question() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::ok(&chat_completion(&[(
            "A",
            &[("A", 0.6), ("B", 0.25), (" B", 0.05), ("Sure", 0.02)],
        )]))
    });
    let s = setup(&chat_config(fake.url(), &[]), &[]);
    let response = decide(&s.ctx, "mo").await.expect("decision");
    let seen = fake.seen();
    assert_eq!(seen.len(), 3, "one request per question");
    for request in &seen {
        assert_eq!(request.path, "/chat/completions");
        let body = &request.body;
        assert_eq!(body["model"], "Qwen/Qwen3-4B");
        assert_eq!(body["logprobs"], true);
        assert_eq!(body["top_logprobs"], 5);
        assert_eq!(body["max_tokens"], 1);
        assert_eq!(body["messages"][0]["role"], "system");
    }
    let prompts: Vec<String> = seen
        .iter()
        .map(|r| {
            r.body["messages"][1]["content"]
                .as_str()
                .unwrap()
                .to_owned()
        })
        .collect();
    assert!(
        prompts.iter().any(|p| p.contains(
            "A. refund: The customer wants their money back for a purchase.\nB. technical:"
        )),
        "{prompts:?}"
    );
    assert!(prompts.iter().any(|p| p.contains("E. Level 4: An outage")));
    assert!(prompts.iter().all(|p| p.contains("charged twice")));

    let answers = serde_json::to_value(&response.answers).unwrap();
    // A 0.6, B 0.25 + 0.05 ("B" and " B"), C absent: the floor 0.02.
    let intent = &answers["intent"];
    let total = 0.6 + 0.3 + 0.02;
    assert_eq!(intent["choice"], "refund");
    assert!(close(
        intent["probabilities"]["refund"].as_f64().unwrap(),
        0.6 / total
    ));
    assert!(close(
        intent["probabilities"]["shipping"].as_f64().unwrap(),
        0.02 / total
    ));
    assert!(close(intent["x_option_mass"].as_f64().unwrap(), 0.9));
    let escalate = &answers["escalate"];
    assert!(close(escalate["noul"].as_f64().unwrap(), 0.6 / 0.9));
    assert!(close(escalate["x_option_mass"].as_f64().unwrap(), 0.9));
    assert!(answers["urgency"]["x_option_mass"].is_number());
    assert_eq!(response.usage.input_tokens, 3 * 40);
    assert_eq!(response.usage.output_tokens, 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_questions_of_one_decision_run_at_once_within_the_limit() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::ok(&chat_completion(&[("A", &[("A", 0.9)])])).after(Duration::from_millis(100))
    });
    let s = setup(&chat_config(fake.url(), &[("max_in_flight", "2")]), &[]);
    let many: serde_json::Map<String, Value> = (0..5)
        .map(|i| {
            (
                format!("q{i}"),
                json!({"type": "noul", "instructions": "Urgent?"}),
            )
        })
        .collect();
    let started = Instant::now();
    decide_with(
        &s.ctx,
        &json!({"model": "mo", "state": state(), "questions": many}),
    )
    .await
    .expect("decision");
    assert_eq!(fake.count(), 5);
    assert_eq!(fake.peak(), 2);
    assert!(
        started.elapsed() >= Duration::from_millis(300),
        "3 rounds of 2"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_reasoning_models_answer_after_thinking() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::ok(&chat_completion(&[
            ("The", &[]),
            (" customer", &[]),
            (" is", &[]),
            (" calm", &[]),
            (".\n", &[]),
            ("Answer", &[]),
            (":", &[]),
            (" B", &[(" B", 0.75), (" A", 0.2)]),
        ]))
    });
    let s = setup(
        &chat_config(fake.url(), &[("reasoning_max_tokens", "256")]),
        &[],
    );
    let body = json!({"model": "mo-reasoning", "state": state(),
        "questions": {"escalate": {"type": "noul", "instructions": "Asks for a manager."}}});
    let response = decide_with(&s.ctx, &body).await.expect("decision");
    let request = &fake.seen()[0].body;
    assert_eq!(request["max_tokens"], 256);
    assert!(
        request["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("Answer: X")
    );
    let answer = serde_json::to_value(&response.answers["escalate"]).unwrap();
    assert!(
        close(answer["noul"].as_f64().unwrap(), 0.2 / 0.95),
        "{answer}"
    );
    assert!(close(answer["x_option_mass"].as_f64().unwrap(), 0.95));
    assert_eq!(response.usage.output_tokens, 8);
    // The plain name reads the first token, here no letter at all: uniform, no mass.
    let plain = decide(&s.ctx, "mo").await.expect("decision");
    let answer = serde_json::to_value(&plain.answers["escalate"]).unwrap();
    assert_eq!(
        answer,
        json!({"type": "noul", "noul": 0.5, "x_option_mass": 0.0})
    );
    assert_eq!(fake.seen()[1].body["max_tokens"], 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_questions_with_more_options_than_letters_are_422_at_the_question() {
    let fake = FakeUpstream::start(|_, _| FakeReply::ok(&chat_completion(&[("A", &[("A", 1.0)])])));
    let s = setup(&chat_config(fake.url(), &[]), &[]);
    let options: serde_json::Map<String, Value> =
        (0..27).map(|i| (format!("o{i}"), Value::Null)).collect();
    let body = json!({"model": "mo", "state": 1, "questions": {
        "ok": {"type": "noul"}, "big": {"type": "choice", "criteria": options}}});
    let error = decide_with(&s.ctx, &body).await.expect_err("27 options");
    assert_eq!((error.status(), error.code()), (422, "validation_error"));
    assert_eq!(
        loc(&error, 0),
        json!(["body", "questions", "big", "criteria"])
    );
    assert_eq!(error.details()[0].kind, "too_many_options");
    assert!(error.to_string().contains("at most 26"), "{error}");
    assert_eq!(fake.count(), 0, "nothing is sent");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_responses_without_logprobs_are_422() {
    let fake = FakeUpstream::start(|_, _| {
        FakeReply::ok(&json!({"choices": [{"index": 0,
            "message": {"role": "assistant", "content": "A"}, "finish_reason": "stop"}]}))
    });
    let s = setup(&chat_config(fake.url(), &[]), &[]);
    let body = json!({"model": "mo", "state": 1,
        "questions": {"escalate": {"type": "noul"}}});
    let error = decide_with(&s.ctx, &body).await.expect_err("no logprobs");
    assert_eq!((error.status(), error.code()), (422, "validation_error"));
    assert_eq!(
        loc(&error, 0),
        json!([
            "provider_response",
            "escalate",
            "choices",
            0,
            "logprobs",
            "content"
        ])
    );
}

// ---------------------------------------------------------------------------------------
// The server
// ---------------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_answers_upstream_failures_as_problem_documents() {
    let failing = FakeUpstream::start(|_, _| FakeReply::text(500, "kaput"));
    let malformed = FakeUpstream::start(|_, _| FakeReply::ok(&json!({"answers": []})));
    let good = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let config = format!(
        "engines:\n  failing: {}\n  down: {}\n  malformed: {}\n  good: {}\nmodels:\n  mo: failing\n  mo-reasoning: down\n  jev-latest: malformed\n  service/mo: good\n",
        entry("systemone", failing.url(), &[("retries", "1")]),
        entry("systemone", &refused_url(), &[("retries", "0")]),
        entry("systemone", malformed.url(), &[]),
        entry("systemone", good.url(), &[]),
    );
    let home = TestEnv::with_config(&config);
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;

    let reply = server
        .post_json("/v1/decision", Some(&token), &base_request("mo"))
        .await;
    let problem = server.problem(&reply, 502, "upstream_failed").await;
    let detail = problem["detail"].as_str().unwrap();
    assert!(
        detail.contains("500 Internal Server Error: kaput") && detail.contains("after 2 attempts"),
        "{detail}"
    );
    assert_eq!(failing.count(), 2);

    let reply = server
        .post_json("/v1/systemone", Some(&token), &base_request("mo-reasoning"))
        .await;
    server.problem(&reply, 503, "upstream_unavailable").await;

    let reply = server
        .post_json("/v1/decision", Some(&token), &base_request("jev-latest"))
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["provider_response", "answers"]),
        "{problem}"
    );

    let reply = server
        .post_json("/v1/decision", Some(&token), &base_request("service/mo"))
        .await;
    assert_eq!(reply.ok()["answers"]["escalate"]["noul"], 0.8);
    // Unrouted names stay on the built-in engine.
    let reply = server
        .post_json(
            "/v1/decision",
            Some(&token),
            &base_request("service/mo-reasoning"),
        )
        .await;
    assert_eq!(reply.ok()["answers"]["intent"]["choice"], "refund");
    assert_eq!(good.count(), 1);
}

// ---------------------------------------------------------------------------------------
// The binary
// ---------------------------------------------------------------------------------------

fn env_with(config: &str) -> (TestEnv, String, String) {
    let env = TestEnv::new();
    std::fs::write(env.home().join("config.yaml"), config).unwrap();
    let questions = env.write("q.yaml", QUESTIONS).display().to_string();
    let state = env.write("s.json", STATE).display().to_string();
    (env, questions, state)
}

#[test]
fn decide_routes_a_base_model_to_its_engine() {
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let config = format!(
        "engines:\n  remote: {}\n  down: {}\nmodels:\n  jev-latest: remote\n  mo: down\n",
        entry("systemone", fake.url(), &[("api_key_env", "REMOTE_KEY")]),
        entry("systemone", &refused_url(), &[("retries", "0")]),
    );
    let (env, q, s) = env_with(&config);
    let output = env
        .cmd()
        .env("REMOTE_KEY", "sk-cli-key")
        .args(["decide", "--model", "jev-latest", "-q", &q, "-s", &s])
        .output()
        .unwrap();
    assert_succeeded(&output);
    let response: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(response["model"], "jev-latest");
    assert_eq!(response["answers"]["escalate"]["noul"], 0.8);
    assert_eq!(
        response["usage"],
        json!({"input_tokens": 120, "output_tokens": 7})
    );
    assert_eq!(
        fake.seen()[0].authorization.as_deref(),
        Some("Bearer sk-cli-key")
    );

    let (code, problem, stderr) = env.problem(&["decide", "--model", "mo", "-q", &q, "-s", &s]);
    assert_eq!(code, 1);
    assert_eq!(problem["code"], "upstream_unavailable");
    assert_eq!(problem["status"], 503);
    assert!(stderr.contains("engine `down`"), "{stderr}");
}

#[test]
fn repository_models_on_a_routed_base_use_its_engine_and_send_the_instructions() {
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let (env, _, s) = env_with(&format!(
        "engines:\n  remote: {}\nmodels:\n  jev-latest: remote\n",
        entry("systemone", fake.url(), &[])
    ));
    // Instructions may be any JSON value; they reach the upstream as written.
    let saved = r#"
intent:
  type: choice
  instructions: {ask: "What does the customer want?", examples: [refund, {text: "money back", weight: 2}]}
  criteria: {refund: Money back., other: null}
urgency:
  type: score
  instructions: [first, 2, null, {nested: true}]
  criteria: [calm, {summary: urgent}]
escalate:
  type: noul
  instructions: 42.5
ignored:
  type: noul
  instructions: null
"#;
    let questions = env.write("saved.yaml", saved);
    env.create_model("acme/remote", "jev-latest", &questions);
    let response = env.json(&["decide", "--model", "acme/remote", "--state", &s]);
    assert_eq!(response["recorded"], true, "{response}");
    assert_eq!(response["answers"]["intent"]["choice"], "refund");
    assert_eq!(response["answers"]["escalate"]["noul"], 0.8);
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].body["model"], "jev-remote");
    assert_eq!(
        seen[0].body["questions"],
        arbiter::wire::value::parse_yaml(saved).unwrap()
    );
    assert_eq!(
        seen[0].body["state"],
        serde_json::from_str::<Value>(STATE).unwrap()
    );
}

#[test]
fn models_and_engines_show_the_routing_and_never_the_key() {
    let config = format!(
        "engines:\n  typesafe: {}\n  vllm: {}\nmodels:\n  jev-latest: typesafe\n  jev-1.13.0: typesafe\n  mo: vllm\n",
        entry(
            "systemone",
            "https://api.typesafe.ai",
            &[
                ("api_key_env", "TYPESAFE_API_KEY"),
                ("model", "jev-1.13.0"),
                ("release_date", "2025-06-01")
            ]
        ),
        entry(
            "chat-logprobs",
            "http://127.0.0.1:8000/v1",
            &[("api_key_env", "VLLM_KEY"), ("model", "Qwen/Qwen3-4B")]
        ),
    );
    let (env, _, _) = env_with(&config);
    let run = |args: &[&str]| {
        let output = env
            .cmd()
            .env("TYPESAFE_API_KEY", "ts-very-secret")
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success());
        let stdout = String::from_utf8(output.stdout).unwrap();
        assert!(!stdout.contains("ts-very-secret"), "{stdout}");
        serde_json::from_str::<Value>(&stdout).unwrap()
    };
    let models = run(&["models"]);
    let engine_of = |name: &str| {
        models["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()["engine"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    assert_eq!(
        engine_of("jev-latest"),
        "typesafe: systemone jev-1.13.0 at https://api.typesafe.ai"
    );
    assert_eq!(
        engine_of("mo"),
        "vllm: chat-logprobs Qwen/Qwen3-4B at http://127.0.0.1:8000/v1"
    );
    assert!(engine_of("mo-reasoning").starts_with("built-in"));
    // A base model's release date is its engine's: the configured one for a remote engine
    // (null when config.yaml gives none; nothing is guessed), the built-in version's.
    let released = |name: &str| {
        models["models"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .unwrap()["release_date"]
            .clone()
    };
    assert_eq!(released("jev-latest"), "2025-06-01");
    assert_eq!(released("mo"), Value::Null);
    assert_eq!(
        released("mo-reasoning"),
        arbiter::engine::builtin::RELEASE_DATE
    );

    let engines = run(&["engines"]);
    assert_eq!(engines, run(&["engines", "list"]));
    let list = engines["engines"].as_array().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0]["name"], "typesafe");
    assert_eq!(list[0]["kind"], "systemone");
    assert_eq!(list[0]["apiKeyEnv"], "TYPESAFE_API_KEY");
    assert_eq!(list[0]["apiKeySet"], true);
    assert_eq!(list[0]["models"], json!(["jev-latest", "jev-1.13.0"]));
    assert_eq!(list[1]["kind"], "chat-logprobs");
    assert_eq!(list[1]["apiKeySet"], false);
    assert_eq!(list[1]["maxInFlight"], 16);
}

#[test]
fn engines_check_reports_each_engine_and_fails_when_any_does() {
    let good = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let chat = FakeUpstream::start(|_, _| {
        FakeReply::ok(&chat_completion(&[("A", &[("A", 0.8), ("B", 0.1)])]))
    });
    let malformed = FakeUpstream::start(|_, _| FakeReply::text(200, "not json"));
    let config = format!(
        "engines:\n  good: {}\n  chat: {}\n  down: {}\n  malformed: {}\nmodels:\n  mo: good\n",
        entry("systemone", good.url(), &[]),
        entry("chat-logprobs", chat.url(), &[]),
        entry("systemone", &refused_url(), &[("retries", "0")]),
        entry("systemone", malformed.url(), &[]),
    );
    let (env, _, _) = env_with(&config);
    let output = env.cmd().args(["engines", "check"]).output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(report["ok"], false);
    let by_name = |name: &str| {
        report["engines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["name"] == name)
            .unwrap()
            .clone()
    };
    let ok = by_name("good");
    assert_eq!(ok["ok"], true, "{ok}");
    assert!(ok["latencyMs"].as_f64().unwrap() > 0.0);
    assert_eq!(ok["answers"]["intent"]["choice"], "refund");
    let chat_check = by_name("chat");
    assert_eq!(chat_check["ok"], true, "{chat_check}");
    assert!(chat_check["answers"]["intent"]["x_option_mass"].is_number());
    assert_eq!(by_name("down")["code"], "upstream_unavailable");
    let invalid = by_name("malformed");
    assert_eq!(invalid["code"], "validation_error");
    assert_eq!(invalid["details"][0]["loc"], json!(["provider_response"]));
    // One request each.
    assert_eq!((good.count(), chat.count(), malformed.count()), (1, 1, 1));

    let output = env
        .cmd()
        .args(["engines", "check", "good", "chat"])
        .output()
        .unwrap();
    assert!(output.status.success());
    let (code, problem, _) = env.problem(&["engines", "check", "nope"]);
    assert_eq!((code, problem["code"].as_str()), (4, Some("not_found")));
}

#[test]
fn config_errors_name_the_file_and_the_field() {
    let (env, _, _) = env_with(
        "engines:\n  x: {kind: systemone, url: 'http://h', model: m}\nmodels:\n  acme/support: x\n  mo: y\n",
    );
    let output = env.cmd().arg("models").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("config.yaml: 2 problems")
            && stderr.contains(r#"models["acme/support"]: `acme/support` is not a base model"#)
            && stderr.contains("models.mo: no engine `y` is defined"),
        "{stderr}"
    );
}

#[test]
fn config_values_out_of_range_are_refused_never_clamped() {
    let (env, _, _) = env_with(
        "server:\n  max_body_bytes: 0\n  max_running_jobs: 0\n  rate_limit: {per_second: 0, burst: 0}\n\
         engines:\n  x: {kind: systemone, url: 'http://h', model: m, backoff: 60}\n",
    );
    let output = env.cmd().arg("models").output().unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    for expected in [
        "config.yaml: 5 problems",
        "engines.x.backoff: backoff may not be more than max_backoff (default 30 s)",
        "server.max_body_bytes: must be at least 1",
        "server.max_running_jobs: must be at least 1",
        "server.rate_limit.per_second: per_second is 0",
        "server.rate_limit.burst: must be at least 1",
    ] {
        assert!(
            stderr.contains(expected),
            "missing {expected:?} in:\n{stderr}"
        );
    }
}

#[test]
fn env_a_bad_arbiter_log_filter_is_refused_naming_the_variable() {
    let env = TestEnv::new();
    let output = env
        .cmd()
        .env("ARBITER_LOG", "arbiter=loud")
        .arg("models")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("ARBITER_LOG: `arbiter=loud` is not a log filter"),
        "{stderr}"
    );
    // A good filter, or an empty one (unset), still runs.
    for filter in ["debug", ""] {
        let output = env
            .cmd()
            .env("ARBITER_LOG", filter)
            .arg("models")
            .output()
            .unwrap();
        assert!(output.status.success(), "{filter:?}");
    }
}

/// `arbiter serve` warns at start of a remote engine whose entry gives no `release_date`,
/// naming the base models whose `release_date` is null for it; a dated engine, and one no
/// base model is routed to, get no warning.
#[test]
fn serve_warns_of_a_routed_engine_without_a_release_date() {
    let config = format!(
        "engines:\n  dated: {}\n  undated: {}\n  unused: {}\nmodels:\n  jev-latest: dated\n  mo: undated\n  service/mo: undated\n",
        entry(
            "systemone",
            "http://127.0.0.1:9",
            &[("release_date", "2025-06-01")]
        ),
        entry("systemone", "http://127.0.0.1:9", &[]),
        entry("systemone", "http://127.0.0.1:9", &[]),
    );
    let (env, _, _) = env_with(&config);
    let (_, log) = env.spawn_serve().stop();
    let warnings: Vec<&str> = log.lines().filter(|l| l.contains(" WARN ")).collect();
    assert_eq!(warnings.len(), 1, "{log}");
    assert!(
        warnings[0].ends_with(
            " WARN engine `undated` has no release_date in config.yaml, so GET /v1/models \
             gives mo, service/mo a null release_date"
        ),
        "{log}"
    );
}
