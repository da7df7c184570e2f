//! In-process decisions/s of the built-in engine (`mo`, first window) on the request of
//! `examples/support/request.json` (3 questions): on one thread, and on one thread per core
//! sharing one `Arc<Embedder>`. The baseline `benches/http.sh` compares the server against.
//! Every decision reads a state not seen before (the request's, numbered), as
//! `benches/http.sh` sends them, so the engine's state cache never answers.
//!
//! The one and the per-core loops run on rayon's pool, as the server and jobs run their
//! decisions (`arbiter::parallel::on_the_pool`): the encoder (candle) splits its matmuls
//! over that pool (`RAYON_NUM_THREADS`, default all cores). Also on 8 calling threads of
//! their own (the HTTP run's c=8 in flight), which hand their matmuls to the pool and wait.
//!
//! Prints `inprocess_1_dps=X`, `inprocess_n_dps=Y threads=N` and `inprocess_8_dps=Z` for
//! scripts, and the scaling ratio (N threads / (N x 1 thread)) for people.
//! Run: `cargo bench --bench inprocess`.
#![allow(clippy::print_stdout)]

use arbiter::engine::builtin::learned::NONE;
use arbiter::engine::builtin::{BuiltinEngine, Embedder, Reading};
use arbiter::wire::question::parse_questions;
use arbiter::wire::{Loc, Questions};
use serde_json::Value;
use std::hint::black_box;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const REQUEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/support/request.json");
const BUDGET: Duration = Duration::from_secs(6);

/// The numbers of the states decided so far, across threads: each decision takes a new one.
static NUMBER: AtomicU64 = AtomicU64::new(0);

/// `state` made new: numbered with `_n` (a line of its rendered text).
fn numbered(state: &Value) -> Value {
    let mut state = state.clone();
    state["_n"] = Value::from(NUMBER.fetch_add(1, Ordering::Relaxed));
    state
}

/// Decisions on one thread until `BUDGET` has passed: (count, seconds).
fn run(engine: &BuiltinEngine, state: &Value, questions: &Questions) -> (u64, f64) {
    let started = Instant::now();
    let mut count = 0u64;
    while started.elapsed() < BUDGET {
        let state = numbered(state);
        black_box(
            engine
                .decide_blocking(&state, questions, &NONE)
                .expect("decide"),
        );
        count += 1;
    }
    (count, started.elapsed().as_secs_f64())
}

/// Decisions/s of `loops` loops on rayon's pool, each a task of it, sharing one embedder.
fn run_on_pool(
    loops: usize,
    embedder: &Arc<Embedder>,
    state: &Value,
    questions: &Questions,
) -> f64 {
    let results = std::sync::Mutex::new(Vec::new());
    rayon::scope(|scope| {
        for _ in 0..loops {
            let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
            let results = &results;
            scope.spawn(move |_| {
                let ran = run(&engine, state, questions);
                results.lock().expect("results").push(ran);
            });
        }
    });
    rate(&results.into_inner().expect("results"))
}

/// Decisions/s of loops that each ran (count, seconds) at once.
fn rate(results: &[(u64, f64)]) -> f64 {
    let total: u64 = results.iter().map(|r| r.0).sum();
    let wall = results.iter().map(|r| r.1).fold(0.0, f64::max);
    total as f64 / wall
}

/// Decisions/s of `threads` calling threads, each its own loop, sharing one embedder.
fn run_threads(
    threads: usize,
    embedder: &Arc<Embedder>,
    state: &Value,
    questions: &Questions,
) -> f64 {
    let results: Vec<(u64, f64)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
                scope.spawn(move || run(&engine, state, questions))
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("thread"))
            .collect()
    });
    rate(&results)
}

fn main() {
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(REQUEST).expect("request.json"))
            .expect("json");
    let state = request["state"].clone();
    let mut errors = Vec::new();
    let questions = parse_questions(&request["questions"], &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    let threads = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let embedder = Arc::new(Embedder::new());
    let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
    for _ in 0..10 {
        black_box(
            engine
                .decide_blocking(&numbered(&state), &questions, &NONE)
                .expect("decide"),
        );
    }

    let one = run_on_pool(1, &embedder, &state, &questions);
    let many = run_on_pool(threads, &embedder, &state, &questions);
    // As many calling threads as the HTTP run's c=8 has requests in flight.
    let eight = run_threads(8, &embedder, &state, &questions);
    println!(
        "inprocess: mo, {} questions, {} bytes of state, {}s per run\n\
         1 thread:   {one:.1} decisions/s ({:.3} ms each)\n\
         {threads} threads:  {many:.1} decisions/s (scaling {:.2} of linear)\n\
         8 calling threads:  {eight:.1} decisions/s\n\
         inprocess_1_dps={one:.2}\n\
         inprocess_n_dps={many:.2} threads={threads}\n\
         inprocess_8_dps={eight:.2}",
        questions.len(),
        state.to_string().len(),
        BUDGET.as_secs(),
        1e3 / one,
        many / (one * threads as f64),
    );
}
