//! The token budget's refusal: how long `POST /v1/decision` takes to refuse a 10 MB state
//! on a windowed base model (`jev-latest`, 32,768 state tokens) with 422
//! `state_too_large`, end to end through the server's router (reading the body, the strict
//! JSON parse, validation, the token count). The baseline, timed in the same process on
//! the same bytes, is `serde_json::from_slice` into a `Value`: the floor of any JSON API.
//! Medians of 15 runs after 2 warm-ups. Target: the refusal in under 50 ms.
//!
//! Run: `cargo bench --bench budget`.
#![allow(clippy::print_stdout)]

use arbiter::config::Settings;
use arbiter::core::Context;
use arbiter::core::tokens::{NewToken, create};
use axum::body::Body;
use axum::http::Request;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::{Duration, Instant};
use tower::ServiceExt as _;

const RUNS: usize = 15;
const WARM_UPS: usize = 2;

fn main() {
    let home = tempfile::tempdir().expect("temp home");
    let ctx = Context::new(Settings::resolve(Some(home.path().to_owned())).expect("settings"))
        .expect("context");
    let (_, secret) = create(
        &ctx,
        &NewToken {
            name: "bench".into(),
            scopes: vec!["decisions".into()],
            roles: Vec::new(),
        },
    )
    .expect("token");
    let router = arbiter::server::router(ctx, "127.0.0.1:8080".parse().unwrap());
    let body = ten_megabytes();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();

    let refusal = median(|| {
        let request = Request::post("/v1/decision")
            .header("authorization", format!("Bearer {secret}"))
            .header("content-type", "application/json")
            .body(Body::from(body.clone()))
            .unwrap();
        let router = router.clone();
        let started = Instant::now();
        let status = runtime.block_on(async move {
            let response = router.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
                .await
                .unwrap();
            let problem: Value = serde_json::from_slice(&bytes).unwrap();
            assert_eq!(problem["code"], "state_too_large", "{problem}");
            status
        });
        let elapsed = started.elapsed();
        assert_eq!(status, 422);
        elapsed
    });
    let parse = median(|| {
        let started = Instant::now();
        let value: Value = serde_json::from_slice(&body).unwrap();
        black_box(value);
        started.elapsed()
    });
    let mb = body.len() as f64 / 1e6;
    println!("state_too_large refusal of a {mb:.1} MB body, median of {RUNS}:");
    println!(
        "  refusal {:.1} ms (target < 50 ms: {}); serde_json parse of the same body {:.1} ms; refusal/parse = {:.2}",
        ms(refusal),
        if ms(refusal) < 50.0 { "met" } else { "NOT met" },
        ms(parse),
        refusal.as_secs_f64() / parse.as_secs_f64()
    );
}

/// A decision request on `jev-latest` whose state is 10 MB of ticket text.
fn ten_megabytes() -> Vec<u8> {
    let mut text = String::with_capacity(10_500_000);
    let mut i = 0u64;
    while text.len() < 10_000_000 {
        let _ = write!(
            text,
            "ticket {i} mentions refund number {} and a delay. ",
            i * 7919 % 10_007
        );
        i += 1;
    }
    let request = json!({
        "model": "jev-latest",
        "state": {"message": text},
        "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}},
    });
    serde_json::to_vec(&request).unwrap()
}

fn median(mut run: impl FnMut() -> Duration) -> Duration {
    for _ in 0..WARM_UPS {
        run();
    }
    let mut times: Vec<Duration> = (0..RUNS).map(|_| run()).collect();
    times.sort_unstable();
    times[RUNS / 2]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}
