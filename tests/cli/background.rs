//! Background work beside decisions: a running alignment, in a real `arbiter serve`
//! process, leaves a decision its latency (it once made a 0.03 s decision take 11 to 76 s,
//! while `/healthz` said nothing was in flight).
#![allow(clippy::print_stderr)]

use crate::common::{Served, long_ticket_text};
use crate::common::{TestEnv, repo_root, runtime};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// The median of `times`.
fn median(times: &mut [Duration]) -> Duration {
    times.sort_unstable();
    times[times.len() / 2]
}

/// One decision on `acme/support` of a state never decided before (the cache would answer it at
/// once): its time, or `None` when it was refused 503 `overloaded` with `Retry-After`.
async fn timed_decision(served: &Served, token: &str, nth: &mut usize) -> Option<Duration> {
    *nth += 1;
    let state = json!({"subject": format!("order {nth}"), "body": long_ticket_text(40)});
    let started = Instant::now();
    let reply = Served::client()
        .post(served.url("/v1/decision"))
        .bearer_auth(token)
        .json(&json!({"model": "acme/support", "state": state}))
        .send()
        .await
        .unwrap();
    let took = started.elapsed();
    match reply.status().as_u16() {
        200 => Some(took),
        503 => {
            assert!(
                reply.headers().contains_key("retry-after"),
                "a 503 says when to retry"
            );
            let problem: Value = reply.json().await.unwrap();
            assert_eq!(problem["code"], "overloaded", "{problem}");
            None
        }
        status => panic!(
            "a decision answered {status}: {}",
            reply.text().await.unwrap()
        ),
    }
}

/// Decisions on the model while an alignment of 240 examples × 3 questions runs (with the
/// default folds, then with 20): each is answered within 2 × the median time of a decision
/// alone (measured before the alignment and after it, on the same server), in median, or
/// refused 503 with `Retry-After`; and `/healthz` counts the alignment as background work.
#[test]
fn a_decision_during_an_alignment_answers_within_2x_its_time_alone_or_503() {
    for folds in [None, Some(20)] {
        let env = TestEnv::new();
        let questions = repo_root().join("examples/support/questions.yaml");
        env.create_model("acme/support", "mo", &questions);
        env.ingest(
            "acme/support",
            &crate::align::labelled(240, &["intent", "urgency", "escalate"]),
        );
        let token = env.json(&[
            "tokens",
            "create",
            "--name",
            "t",
            "--scope",
            "decisions",
            "--scope",
            "alignments",
            "--role",
            "acme/*=writer",
            "--json",
        ])["token"]
            .as_str()
            .unwrap()
            .to_owned();
        let served = env.spawn_serve();
        let mut nth = 0;
        runtime().block_on(async {
            let mut alone = Vec::new();
            for _ in 0..5 {
                alone.extend(timed_decision(&served, &token, &mut nth).await);
            }
            let mut body = json!({"seed": 1});
            if let Some(folds) = folds {
                body["folds"] = json!(folds);
            }
            let created = Served::client()
                .post(served.url("/v1/models/acme%2Fsupport/alignments"))
                .bearer_auth(&token)
                .header("idempotency-key", format!("during-{folds:?}"))
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(created.status(), 202);
            let location = created.headers()["location"].to_str().unwrap().to_owned();
            let started = Instant::now();
            while served.get_json(&location, &token).await["status"] != "running" {
                assert!(started.elapsed() < Duration::from_mins(1), "the alignment never ran");
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let health: Value = Served::client()
                .get(served.url("/healthz"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(health["background"]["running"], 1, "{health}");
            let mut during = Vec::new();
            let mut refused = 0;
            for _ in 0..5 {
                match timed_decision(&served, &token, &mut nth).await {
                    Some(took) => during.push(took),
                    None => refused += 1,
                }
            }
            // The decisions overlapped the alignment: it is still running.
            assert_eq!(
                served.get_json(&location, &token).await["status"],
                "running",
                "the alignment ended before the decisions did: nothing was measured"
            );
            Served::client()
                .post(served.url(&format!("{location}/cancel")))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            while !crate::common::job_finished(&served.get_json(&location, &token).await) {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            for _ in 0..5 {
                alone.extend(timed_decision(&served, &token, &mut nth).await);
            }
            let alone = median(&mut alone);
            eprintln!(
                "folds {folds:?}: alone {alone:?} (median); during the alignment {during:?}, {refused} refused"
            );
            if !during.is_empty() {
                let during = median(&mut during);
                assert!(
                    during <= alone * 2,
                    "folds {folds:?}: a decision took {during:?} during the alignment against \
                     {alone:?} alone"
                );
            }
        });
        let (exit, _) = served.stop();
        assert_eq!(exit.code(), Some(0));
    }
}
