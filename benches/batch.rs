//! Batch-job throughput against the engine it drives, in one process.
//!
//! Baseline: the built-in engine's in-process decisions/s (`mo`, the three questions of
//! `examples/support/request.json`) on one thread, times the cores: what the cores could do
//! with no job machinery at all. Measured: a batch job over 10,000 distinct states through
//! the whole machinery (input staged in the store, the job record, the bounded window of
//! decisions, in-order result lines in the store, progress), on a repository model with the
//! same questions.
//! Target: batch / (engine x cores) >= 0.8.
//!
//! Also prints the engine on as many threads as cores, since the encoder does not scale
//! perfectly by itself; the batch cannot beat that.
//! Run: `cargo bench --bench batch` (`BATCH_ITEMS=N` to change the 10,000).
#![allow(clippy::print_stdout)]

use arbiter::config::Settings;
use arbiter::core::batch::NewBatch;
use arbiter::core::checkpoint::CapturePolicy;
use arbiter::core::jobs::NoObserver;
use arbiter::core::models::CreateModel;
use arbiter::core::requests::BatchItems;
use arbiter::core::runner::run;
use arbiter::core::{self, Context};
use arbiter::engine::builtin::{BuiltinEngine, Embedder, Reading};
use arbiter::wire::question::parse_questions;
use arbiter::wire::{Loc, Questions};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

const REQUEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/support/request.json");

/// State `i`: the support conversation with a distinct first message, so no two states
/// share text (the engine never caches a state's embedding, but be sure).
fn state(base: &Value, i: usize) -> Value {
    let mut state = base.clone();
    let first = &mut state["messages"][0]["content"];
    *first = Value::String(format!(
        "Ticket {i}. {}",
        first.as_str().unwrap_or_default()
    ));
    state
}

/// Single-thread engine decisions/s over `n` distinct states.
fn engine_rate(engine: &BuiltinEngine, base: &Value, questions: &Questions, n: usize) -> f64 {
    let states: Vec<Value> = (0..n).map(|i| state(base, 1_000_000 + i)).collect();
    let started = Instant::now();
    for state in &states {
        black_box(engine.decide_blocking(state, questions).expect("decide"));
    }
    n as f64 / started.elapsed().as_secs_f64()
}

/// Engine decisions/s on `threads` threads sharing one embedder, `n` states each.
fn engine_rate_threads(
    embedder: &Arc<Embedder>,
    base: &Value,
    questions: &Questions,
    threads: usize,
    n: usize,
) -> f64 {
    let started = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..threads {
            let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
            scope.spawn(move || {
                for i in 0..n {
                    let state = state(base, 2_000_000 + t * n + i);
                    black_box(engine.decide_blocking(&state, questions).expect("decide"));
                }
            });
        }
    });
    (threads * n) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    let items: usize = std::env::var("BATCH_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(REQUEST).expect("request.json"))
            .expect("json");
    let base = request["state"].clone();
    let mut errors = Vec::new();
    let questions = parse_questions(&request["questions"], &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);

    let home = tempfile::tempdir().expect("temp home");
    let ctx = Context::new(Settings::resolve(Some(home.path().to_owned())).expect("settings"))
        .expect("context");
    core::models::create(
        &ctx,
        &CreateModel {
            path: "bench/support".parse().expect("model path"),
            base: "mo".into(),
            questions_yaml: Some(serde_yaml::to_string(&request["questions"]).expect("yaml")),
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create model");

    let embedder = Arc::new(Embedder::new());
    let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
    engine_rate(&engine, &base, &questions, 50); // warm up: weights, outcome texts
    let one = engine_rate(&engine, &base, &questions, 1000);
    let threaded = engine_rate_threads(&embedder, &base, &questions, cores, 500);

    let input = (0..items).fold(String::new(), |mut out, i| {
        writeln!(out, "{}", json!({"state": state(&base, i)})).unwrap();
        out
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let (secs, job) = runtime.block_on(async {
        let started = Instant::now();
        let ctx2 = ctx.clone();
        let (_, lock) = core::blocking(move || {
            let reader = std::io::Cursor::new(input.into_bytes());
            core::batch::create(
                &ctx2,
                NewBatch {
                    model: &"bench/support".parse().expect("model path"),
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
        .expect("create");
        let job = run(&ctx, lock, &NoObserver).await.expect("run");
        (started.elapsed().as_secs_f64(), job)
    });
    assert_eq!(job.status.as_str(), "completed", "{job:?}");
    assert_eq!(job.progress.done, items as u64);
    assert_eq!(job.progress.failed, 0);
    let batch = items as f64 / secs;

    println!("engine_1_dps={one:.1} engine_threads_dps={threaded:.1} threads={cores}");
    println!("batch_dps={batch:.1} items={items} seconds={secs:.2}");
    println!(
        "ratio batch / (engine_1 x {cores} cores) = {:.3}   (target >= 0.8)",
        batch / (one * cores as f64)
    );
    println!(
        "ratio batch / engine on {cores} threads   = {:.3}",
        batch / threaded
    );
}
