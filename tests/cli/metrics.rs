//! `server.metrics_listen`: the real binary serves `/metrics` on a listener of its own, and
//! each family moves by exactly what the requests made to the API listener should move it.

use crate::common::{TestEnv, wait_until_async};
use crate::http::{base_request, questions};
use crate::served::Served;
use serde_json::{Value, json};
use std::time::Duration;

/// The value of the sample `series` (name and labels, as printed) in `scrape`; 0 when absent.
fn sample(scrape: &str, series: &str) -> f64 {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.trim().parse().expect("a sample value"))
}

/// Whether two sample values are the same count (every value compared here is a count).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

async fn scrape(client: &reqwest::Client, url: &str) -> String {
    let response = client.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

/// `promtool check metrics` on `scrape`: when `promtool` is installed, or always when
/// `ARBITER_REQUIRE_PROMTOOL` is set (`.ci/run` sets it).
#[allow(clippy::print_stderr)] // the test's own output: how to run it whole
fn promtool_check(scrape: &str) {
    use std::io::Write as _;
    let child = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(error) => {
            assert!(
                std::env::var_os("ARBITER_REQUIRE_PROMTOOL").is_none(),
                "ARBITER_REQUIRE_PROMTOOL is set but promtool does not run ({error}): \
                 apt-get install prometheus"
            );
            eprintln!("promtool check metrics skipped ({error}): apt-get install prometheus");
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(scrape.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "promtool check metrics: {}{}\non\n{scrape}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

// One server's life, its requests and the scrape that counts them: splitting it would
// hide which request moved which family.
#[allow(clippy::too_many_lines)]
#[test]
fn each_family_moves_by_what_the_requests_did() {
    let env = TestEnv::new();
    // One slot and no queue, so a second decision while one computes is overloaded; a
    // token bucket of 5 requests; one failed authentication per address, then 429.
    env.write(
        "home/config.yaml",
        "server:\n  metrics_listen: 127.0.0.1:0\n  max_concurrent_decisions: 1\n  \
         decision_queue: 0\n  rate_limit: {burst: 5, per_second: 0.001}\n  \
         auth_failures: {burst: 1, per_second: 0.001}\n",
    );
    let questions = env.write("questions.json", &questions().to_string());
    env.create_model("acme/triage", "mo", &questions);
    let created = env.json(&[
        "tokens",
        "create",
        "--name",
        "t",
        "--scope",
        "decisions",
        "--role",
        "acme/*=reader",
        "--json",
    ]);
    let token = created["token"].as_str().unwrap().to_owned();
    let served = Served::start(&env);
    let metrics_url = served
        .next_line()
        .trim_end()
        .strip_prefix("metrics on ")
        .expect("a `metrics on URL` line")
        .to_owned();
    assert!(
        metrics_url.starts_with("http://127.0.0.1:"),
        "{metrics_url}"
    );
    assert!(metrics_url.ends_with("/metrics"), "{metrics_url}");
    assert_ne!(metrics_url, served.url("/metrics"), "a listener of its own");

    crate::common::runtime().block_on(async {
        let client = Served::client();
        let before = scrape(&client, &metrics_url).await;
        let decide = |body: Value, token: String| {
            let (client, url) = (client.clone(), served.url("/v1/decision"));
            async move {
                client
                    .post(url)
                    .bearer_auth(token)
                    .json(&body)
                    .send()
                    .await
                    .unwrap()
            }
        };
        // Two decisions on `mo`, one on a repository model built on it: three answered
        // under `mo`, the model's path never a label.
        let mut tokens_read = 0;
        for body in [
            base_request("mo"),
            base_request("mo"),
            json!({"model": "acme/triage", "state": {"message": "my order is late"}}),
        ] {
            let answered = decide(body, token.clone()).await;
            assert_eq!(answered.status(), 200);
            let answered: Value = answered.json().await.unwrap();
            tokens_read += answered["usage"]["input_tokens"].as_u64().unwrap();
        }
        // Seconds of encoder work hold the one slot; meanwhile a decision is overloaded.
        let mut slow = base_request("jev-latest");
        let words: Vec<String> = (0..2_000).map(|i| format!("word{i}")).collect();
        slow["state"] = json!({ "message": words.join(" ") });
        let slow = tokio::spawn(decide(slow, token.clone()));
        let during = wait_until_async(Duration::from_mins(1), Duration::from_millis(20), || {
            let (client, url) = (client.clone(), metrics_url.clone());
            async move {
                let text = scrape(&client, &url).await;
                if same(sample(&text, "arbiter_decisions_in_flight"), 1.0) {
                    Ok(text)
                } else {
                    Err(format!("no decision in flight yet:\n{text}"))
                }
            }
        })
        .await;
        assert!(same(sample(&during, "arbiter_decisions_queued"), 0.0));
        let refused = decide(base_request("mo"), token.clone()).await;
        assert_eq!(refused.status(), 503);
        assert_eq!(slow.await.unwrap().status(), 200);
        // The token's sixth request is past its bucket of five.
        let limited = decide(base_request("mo"), token.clone()).await;
        assert_eq!(limited.status(), 429);
        // A bad token is a failed authentication; the next request from the address is
        // past its one allowed failure.
        let bad = format!("{token}x");
        assert_eq!(decide(base_request("mo"), bad.clone()).await.status(), 401);
        assert_eq!(decide(base_request("mo"), bad).await.status(), 429);
        // The API listener does not serve `/metrics`.
        let api = client.get(served.url("/metrics")).send().await.unwrap();
        assert_eq!(api.status(), 404);
        let after = scrape(&client, &metrics_url).await;

        let moved = |series: &str| sample(&after, series) - sample(&before, series);
        let decision = |status: &str| {
            format!(
                "arbiter_http_requests_total{{route=\"/v1/decision\",method=\"POST\",\
                 status=\"{status}\"}}"
            )
        };
        for (series, expected) in [
            (decision("2xx"), 4.0),
            (decision("4xx"), 3.0),
            (decision("5xx"), 1.0),
            (
                "arbiter_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"4xx\"}"
                    .to_owned(),
                1.0,
            ),
            (
                "arbiter_http_request_duration_seconds_count{route=\"/v1/decision\",\
                 method=\"POST\"}"
                    .to_owned(),
                8.0,
            ),
            (
                "arbiter_decisions_total{base_model=\"mo\",outcome=\"answered\"}".to_owned(),
                3.0,
            ),
            (
                "arbiter_decisions_total{base_model=\"jev-latest\",outcome=\"answered\"}"
                    .to_owned(),
                1.0,
            ),
            (
                "arbiter_decisions_total{base_model=\"mo\",outcome=\"overloaded\"}".to_owned(),
                1.0,
            ),
            (
                "arbiter_decision_engine_seconds_count{base_model=\"mo\"}".to_owned(),
                3.0,
            ),
            (
                "arbiter_decision_engine_seconds_count{base_model=\"jev-latest\"}".to_owned(),
                1.0,
            ),
            (
                "arbiter_decision_state_tokens_total{base_model=\"mo\"}".to_owned(),
                #[allow(clippy::cast_precision_loss)]
                {
                    tokens_read as f64
                },
            ),
            ("arbiter_decisions_overloaded_total".to_owned(), 1.0),
            ("arbiter_auth_failures_total".to_owned(), 1.0),
            (
                "arbiter_rate_limited_total{limit=\"token\"}".to_owned(),
                1.0,
            ),
            (
                "arbiter_rate_limited_total{limit=\"auth_failures\"}".to_owned(),
                1.0,
            ),
        ] {
            assert!(
                same(moved(&series), expected),
                "{series} moved by {}, not {expected}:\n{after}",
                moved(&series)
            );
        }
        assert!(tokens_read > 0);
        assert!(same(sample(&after, "arbiter_decisions_in_flight"), 0.0));
        assert!(same(sample(&after, "arbiter_decisions_queued"), 0.0));
        assert!(
            !after.contains("acme"),
            "no model path is a label:\n{after}"
        );
        assert!(!after.contains(&token), "no token is a label");
        promtool_check(&after);
    });
    let (exit, _) = served.stop();
    assert_eq!(exit.code(), Some(0));
}
