//! `server.metrics_listen`: the real binary serves `/metrics` on a listener of its own, and
//! each family moves by exactly what the requests made to the API listener should move it.

use crate::common::Served;
use crate::common::{TestEnv, wait_until_async};
use crate::common::{base_request, questions};
use crate::fake_upstream::{FakeReply, FakeUpstream, systemone_answers};
use serde_json::{Value, json};
use std::time::Duration;

/// The value of the sample `series` (name and labels, as printed) in `scrape`; 0 when absent.
pub(crate) fn sample(scrape: &str, series: &str) -> f64 {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .map_or(0.0, |value| value.trim().parse().expect("a sample value"))
}

/// Whether two sample values are the same count (every value compared here is a count).
fn same(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

pub(crate) async fn scrape(client: &reqwest::Client, url: &str) -> String {
    let response = client.get(url).send().await.unwrap();
    assert_eq!(response.status(), 200);
    response.text().await.unwrap()
}

/// `promtool check metrics` on `scrape`: when `promtool` is installed, or always when
/// `ARBITER_REQUIRE_PROMTOOL` is set (`.ci/run` sets it).
pub(crate) fn promtool_check(scrape: &str) {
    promtool(&["check", "metrics"], scrape);
}

/// `promtool ARGS` with `stdin` as its standard input, which must succeed: when `promtool`
/// is installed, or always when `ARBITER_REQUIRE_PROMTOOL` is set (`.ci/run` sets it).
#[allow(clippy::print_stderr)] // the test's own output: why a check was skipped
pub(crate) fn promtool(args: &[&str], stdin: &str) {
    use std::io::Write as _;
    let child = std::process::Command::new("promtool")
        .args(args)
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
            eprintln!("promtool {args:?} skipped ({error}): apt-get install prometheus");
            return;
        }
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "promtool {args:?}: {}{}\non\n{stdin}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A token of `env` with `scopes` and `role` (e.g. `acme/*=reader`), its secret.
fn token(env: &TestEnv, name: &str, scopes: &[&str], role: &str) -> String {
    let mut args = vec!["tokens", "create", "--name", name, "--role", role, "--json"];
    for scope in scopes {
        args.extend(["--scope", scope]);
    }
    env.json(&args)["token"].as_str().unwrap().to_owned()
}

/// The server's config: one decision slot and no queue, so a second decision while one
/// computes is overloaded; a token bucket of 5 requests; one failed authentication per
/// address, then 429; `mo-reasoning` on the fake remote engine at `remote`, `jev-latest` on
/// the one at `held`; the models shared through the `file://` remote `repos`.
fn config(remote: &str, held: &str, repos: &std::path::Path) -> String {
    format!(
        "server:\n  metrics_listen: 127.0.0.1:0\n  max_concurrent_decisions: 1\n  \
         decision_queue: 0\n  rate_limit: {{burst: 5, per_second: 0.001}}\n  \
         auth_failures: {{burst: 1, per_second: 0.001}}\n\
         engines:\n  remote: {{kind: systemone, url: '{remote}', model: jev-remote, \
         release_date: '2025-01-01', retries: 2, backoff: 0.01, max_backoff: 0.05}}\n  \
         held: {{kind: systemone, url: '{held}', model: jev-held}}\n\
         models:\n  mo-reasoning: remote\n  jev-latest: held\n\
         repos:\n  remote: 'file://{}'\n",
        repos.display()
    )
}

/// What every family moved by between two scrapes, in one server's life.
struct Moves<'a> {
    before: &'a str,
    after: &'a str,
}

impl Moves<'_> {
    fn of(&self, series: &str) -> f64 {
        sample(self.after, series) - sample(self.before, series)
    }

    #[track_caller]
    fn check(&self, series: &str, expected: f64) {
        assert!(
            same(self.of(series), expected),
            "{series} moved by {}, not {expected}:\n{}",
            self.of(series),
            self.after
        );
    }

    #[track_caller]
    fn check_more(&self, series: &str, than: f64) {
        assert!(
            self.of(series) > than,
            "{series} moved by {}, not more than {than}:\n{}",
            self.of(series),
            self.after
        );
    }
}

// One server's life, its requests and the scrape that counts them: splitting it would
// hide which request moved which family.
#[allow(clippy::too_many_lines)]
#[test]
fn each_family_moves_by_what_the_requests_did() {
    let env = TestEnv::new();
    // The remote engine fails once (503, retried), then answers.
    let fake = FakeUpstream::start(|i, body| match i {
        0 => FakeReply::json(503, &json!({"error": "busy"})),
        _ => FakeReply::ok(&systemone_answers(body)),
    });
    // The other answers only when the test lets it: it holds the one decision slot.
    let held = crate::common::HeldEngine::start();
    let repos = env.path().join("remote-repos");
    std::fs::create_dir_all(&repos).unwrap();
    env.write("home/config.yaml", &config(fake.url(), held.url(), &repos));
    let questions = env.write("questions.json", &questions().to_string());
    env.create_model("acme/triage", "mo", &questions);
    let model_id = env.json(&["models", "show", "acme/triage", "--json"])["modelId"]
        .as_str()
        .unwrap()
        .to_owned();
    // Twelve examples annotated for `escalate`, for an alignment; a branch one checkpoint
    // ahead of the default one, for a promote (pushed to the shared remote).
    env.ingest("acme/triage", &crate::align::labelled(12, &["escalate"]));
    let mut next = crate::common::questions();
    next["polite"] = json!({"type": "noul", "instructions": "The customer is polite."});
    let next = env.write("next.json", &next.to_string());
    env.json(&[
        "models",
        "commit",
        "acme/triage",
        "--branch",
        "next",
        "--questions",
        next.to_str().unwrap(),
        "--message",
        "next",
    ]);
    // Five requests in this token's bucket; another token for the rest.
    let token = token(&env, "t", &["decisions"], "acme/*=reader");
    let other = token_of(&env);
    let served = env.spawn_serve();
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
        // Two decisions on `mo` (the second state the first's: a cache hit), one on a
        // repository model built on it (captured): three answered under `mo`, the model's
        // path never a label. The state tokens `mo` read: these three's, and the batch's
        // two answered items'.
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
        // The other token's requests come before the failed authentication, past which
        // the address is refused whatever its token. The remote engine: answered after
        // one retry.
        let remote = decide(base_request("mo-reasoning"), other.clone()).await;
        assert_eq!(remote.status(), 200);
        // A batch job of three items, one of them bad: its decisions are counted as a
        // job's, its items as the job's.
        let items = json!({"items": [
            {"state": {"message": "batch item one: a refund please"}},
            {"example_id": 7, "state": "an example ID must be text"},
            {"state": {"message": "batch item three: where is my parcel"}},
        ]});
        let created = client
            .post(served.url(&format!("/v1/models/{model_id}/batch-decisions")))
            .bearer_auth(&other)
            .header("idempotency-key", "metrics-batch-0001")
            .json(&items)
            .send()
            .await
            .unwrap();
        assert_eq!(created.status(), 202);
        let job: Value = created.json().await.unwrap();
        let job_id = job["jobId"].as_str().unwrap().to_owned();
        one_completed(&client, &metrics_url, "batch").await;
        let results = client
            .get(served.url(&format!(
                "/v1/models/{model_id}/batch-decisions/{job_id}/results"
            )))
            .bearer_auth(&other)
            .send()
            .await
            .unwrap();
        assert_eq!(results.status(), 200);
        for line in results.text().await.unwrap().lines() {
            let line: Value = serde_json::from_str(line).unwrap();
            tokens_read += line["usage"]["input_tokens"].as_u64().unwrap_or(0);
        }
        // An alignment job: its items are its questions.
        let created = client
            .post(served.url(&format!("/v1/models/{model_id}/alignments")))
            .bearer_auth(&other)
            .header("idempotency-key", "metrics-align-0001")
            .json(&json!({"questions": ["escalate"], "seed": 1, "tune": false}))
            .send()
            .await
            .unwrap();
        assert_eq!(created.status(), 202);
        let location = created.headers()["location"].to_str().unwrap().to_owned();
        one_completed(&client, &metrics_url, "alignment").await;
        // Twelve labels change escalate: the alignment commits its branch, one push. (Read
        // from the home: the token's bucket holds exactly the requests counted below.)
        let job_id = location.rsplit('/').next().unwrap();
        let aligned = env.json(&["jobs", "poll", job_id]);
        assert_eq!(aligned["result"]["improved"], true, "{aligned}");
        // A promote moves the shared remote's default branch: one push.
        let promoted = client
            .post(served.url(&format!("/v1/models/{model_id}/promote")))
            .bearer_auth(&other)
            .json(&json!({"revision": "next"}))
            .send()
            .await
            .unwrap();
        assert_eq!(promoted.status(), 200);
        // A held remote decision holds the one slot; meanwhile a decision is overloaded.
        let slow = tokio::spawn(decide(base_request("jev-latest"), token.clone()));
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
        held.release();
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
        check_moves(
            &Moves {
                before: &before,
                after: &after,
            },
            tokens_read,
        );
        assert!(
            !after.contains("acme"),
            "no model path is a label:\n{after}"
        );
        assert!(!after.contains(&token), "no token is a label");
        assert!(!after.contains(&model_id), "no model ID is a label");
        check_process(&after);
        promtool_check(&after);
        // What `deploy/` names is what a real scrape has.
        crate::deploy::check_names(&after);
    });
    assert_eq!(fake.count(), 2, "one attempt, one retry");
    let (exit, _) = served.stop();
    assert_eq!(exit.code(), Some(0));
}

/// Until the scrape at `metrics_url` counts one completed job of `kind`; followed through
/// the scrape, which is neither rate limited nor a request to the API.
async fn one_completed(client: &reqwest::Client, metrics_url: &str, kind: &str) {
    let done = format!("arbiter_jobs{{kind=\"{kind}\",status=\"completed\"}}");
    wait_until_async(Duration::from_mins(2), Duration::from_millis(50), || {
        let (client, url, done) = (client.clone(), metrics_url.to_owned(), done.clone());
        async move {
            let text = scrape(&client, &url).await;
            if same(sample(&text, &done), 1.0) {
                Ok(())
            } else {
                Err(format!("no {kind} job has completed:\n{text}"))
            }
        }
    })
    .await;
}

/// A token for the requests past the first token's bucket (its own five: the remote
/// decision, the batch and its results, the alignment, the promote): decisions, batches,
/// alignments, a writer on `acme/*`.
fn token_of(env: &TestEnv) -> String {
    token(
        env,
        "other",
        &["decisions", "batches", "alignments"],
        "acme/*=writer",
    )
}

/// Every family's move in [`each_family_moves_by_what_the_requests_did`].
#[allow(clippy::too_many_lines)]
fn check_moves(moves: &Moves<'_>, tokens_read: u64) {
    let decision = |status: &str| {
        format!(
            "arbiter_http_requests_total{{route=\"/v1/decision\",method=\"POST\",\
             status=\"{status}\"}}"
        )
    };
    let decisions = |base: &str, source: &str, outcome: &str| {
        format!(
            "arbiter_decisions_total{{base_model=\"{base}\",source=\"{source}\",\
             outcome=\"{outcome}\"}}"
        )
    };
    let count = |family: &str, labels: &str| format!("{family}_count{{{labels}}}");
    for (series, expected) in [
        // HTTP: five answered (three `mo`, `jev-latest`, `mo-reasoning`), 401 and two
        // 429 refused, one overloaded; the batch's creation and results; the API's
        // `/metrics`.
        (decision("2xx"), 5.0),
        (decision("4xx"), 3.0),
        (decision("5xx"), 1.0),
        (
            "arbiter_http_requests_total{route=\"/v1/models/{modelId}/batch-decisions\",\
             method=\"POST\",status=\"2xx\"}"
                .to_owned(),
            1.0,
        ),
        (
            "arbiter_http_requests_total{route=\"unmatched\",method=\"GET\",status=\"4xx\"}"
                .to_owned(),
            1.0,
        ),
        (
            count(
                "arbiter_http_request_duration_seconds",
                "route=\"/v1/decision\",method=\"POST\"",
            ),
            9.0,
        ),
        // Decisions: the requests' and the job's items'.
        (decisions("mo", "request", "answered"), 3.0),
        (decisions("jev-latest", "request", "answered"), 1.0),
        (decisions("mo-reasoning", "request", "answered"), 1.0),
        (decisions("mo", "request", "overloaded"), 1.0),
        (decisions("mo", "job", "answered"), 2.0),
        (decisions("mo", "job", "refused"), 1.0),
        (
            count("arbiter_decision_engine_seconds", "base_model=\"mo\""),
            5.0,
        ),
        (
            count(
                "arbiter_decision_engine_seconds",
                "base_model=\"jev-latest\"",
            ),
            1.0,
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
        // Captures: the request on `acme/triage` recorded; the batch asked for none.
        (
            "arbiter_captures_total{result=\"recorded\"}".to_owned(),
            1.0,
        ),
        ("arbiter_captures_total{result=\"skipped\"}".to_owned(), 2.0),
        ("arbiter_captures_total{result=\"failed\"}".to_owned(), 0.0),
        // The state cache: `mo`'s second request is its first's state; every other state
        // the built-in engine read was new, the alignment's twelve too (the remote engines
        // have no cache).
        (
            "arbiter_state_cache_lookups_total{result=\"hit\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_state_cache_lookups_total{result=\"miss\"}".to_owned(),
            4.0 + 12.0,
        ),
        // The remote engines: one call each, `remote`'s answered after one retry.
        (
            "arbiter_engine_requests_total{engine=\"held\",result=\"ok\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_engine_requests_total{engine=\"remote\",result=\"ok\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_engine_retries_total{engine=\"remote\"}".to_owned(),
            1.0,
        ),
        (
            count(
                "arbiter_engine_request_duration_seconds",
                "engine=\"remote\"",
            ),
            1.0,
        ),
        // Jobs: one batch, completed, its items; nothing was taken over.
        (
            "arbiter_jobs{kind=\"batch\",status=\"completed\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_jobs{kind=\"batch\",status=\"running\"}".to_owned(),
            0.0,
        ),
        (
            "arbiter_job_items_total{kind=\"batch\",result=\"succeeded\"}".to_owned(),
            2.0,
        ),
        (
            "arbiter_job_items_total{kind=\"batch\",result=\"failed\"}".to_owned(),
            1.0,
        ),
        // One alignment, completed, its one question searched.
        (
            "arbiter_jobs{kind=\"alignment\",status=\"completed\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_job_items_total{kind=\"alignment\",result=\"succeeded\"}".to_owned(),
            1.0,
        ),
        (
            "arbiter_job_items_total{kind=\"alignment\",result=\"failed\"}".to_owned(),
            0.0,
        ),
        ("arbiter_job_takeovers_total".to_owned(), 0.0),
        // The store never failed; git pushed twice (the alignment's branch, the promote),
        // and no push was refused.
        (
            "arbiter_store_errors_total{backend=\"sqlite\"}".to_owned(),
            0.0,
        ),
        (
            "arbiter_git_operations_total{operation=\"fetch\",result=\"failed\"}".to_owned(),
            0.0,
        ),
        (
            "arbiter_git_operations_total{operation=\"push\",result=\"ok\"}".to_owned(),
            2.0,
        ),
        (
            "arbiter_git_operations_total{operation=\"push\",result=\"rejected\"}".to_owned(),
            0.0,
        ),
        (
            count("arbiter_git_duration_seconds", "operation=\"push\""),
            2.0,
        ),
    ] {
        moves.check(&series, expected);
    }
    // The requests' tokens, and the job's two answered items'.
    moves.check(
        "arbiter_decision_state_tokens_total{base_model=\"mo\"}",
        tokens_read as f64,
    );
    assert!(tokens_read > 0);
    // Counts that depend on timing: some transactions, at least one fetch (the first
    // read of `acme/triage`; later reads within the throttle fetch no more).
    moves.check_more(
        "arbiter_store_transactions_total{backend=\"sqlite\",result=\"committed\"}",
        0.0,
    );
    moves.check_more(
        "arbiter_store_transaction_duration_seconds_count{backend=\"sqlite\"}",
        0.0,
    );
    moves.check_more(
        "arbiter_git_operations_total{operation=\"fetch\",result=\"ok\"}",
        0.0,
    );
    moves.check_more(
        "arbiter_git_duration_seconds_count{operation=\"fetch\"}",
        0.0,
    );
    for gauge in ["arbiter_decisions_in_flight", "arbiter_decisions_queued"] {
        assert!(same(sample(moves.after, gauge), 0.0), "{gauge}");
    }
    // Every kind and status is a series, 0 when no job is in it.
    assert!(
        moves
            .after
            .contains("arbiter_jobs{kind=\"alignment\",status=\"queued\"} 0"),
        "{}",
        moves.after
    );
}

/// The process's own metrics, standard names, plausible values.
fn check_process(scrape: &str) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs_f64();
    let started = sample(scrape, "process_start_time_seconds");
    assert!(
        started > now - 3600.0 && started <= now + 1.0,
        "started {started}, now {now}"
    );
    for series in [
        "process_resident_memory_bytes",
        "process_virtual_memory_bytes",
        "process_open_fds",
        "process_max_fds",
        "process_threads",
        "process_cpu_seconds_total",
    ] {
        assert!(sample(scrape, series) > 0.0, "{series} in\n{scrape}");
    }
}
