//! Batch-job throughput against the engine it drives, in one process.
//!
//! Baseline: the built-in engine's in-process decisions/s (`mo`, the three questions of
//! `examples/support/request.json`) on one core, times the cores: what the cores could do
//! with no job machinery at all. One core is a child process of this bench pinned to core 0
//! (`taskset`) with `RAYON_NUM_THREADS=1`: in a process of its own, a single thread's
//! matrix products are split over every core (candle's), so its rate is not one core's.
//! Measured: a batch job over 10,000 distinct states through the whole machinery (input
//! staged in the store, the job record, the bounded window of decisions, in-order result
//! lines in the store, progress), on a repository model with the same questions.
//! Target: batch / (engine on one core x cores) >= 0.8.
//!
//! Also prints the engine on one thread with its products split over the cores, and on as
//! many tasks of rayon's pool as cores (as a job runs its decisions): the batch's ceiling.
//!
//! Then shards across processes: 600 distinct states, `arbiter batch` pinned to one core
//! (`taskset`) alone, then the same with an `arbiter jobs work` pinned to the other core
//! sharing the job through the home's `SQLite` file (the default shards: 16 of 38 items,
//! so each process takes its share). Target: two processes take <= 0.6 x the time of one.
//! And one process on both cores over another 600 against those two single-threaded
//! processes: target >= 0.95 of their items/s (printed on a 2-core machine). The three are
//! run in `BATCH_ROUNDS` rounds (default 3), each in a turned order, and compared as sums.
//! Run: `cargo bench --bench batch` (`BATCH_ITEMS=N` to change the 10,000;
//! `BATCH_PARTS=engine` or `shards` for one part).
#![allow(clippy::print_stdout)]

use arbiter::config::Settings;
use arbiter::core::batch::NewBatch;
use arbiter::core::jobs::NoObserver;
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::CreateModel;
use arbiter::core::requests::BatchItems;
use arbiter::core::runner::run;
use arbiter::core::{self, Context};
use arbiter::engine::builtin::learned::NONE;
use arbiter::engine::builtin::{BuiltinEngine, Embedder, Reading};
use arbiter::wire::question::parse_questions;
use arbiter::wire::{Loc, Questions};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

const REQUEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/support/request.json");

/// `examples/support/request.json` and its questions, parsed.
fn request() -> (Value, Questions) {
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(REQUEST).expect("request.json"))
            .expect("json");
    let mut errors = Vec::new();
    let questions = parse_questions(&request["questions"], &Loc::body(), &mut errors);
    assert!(errors.is_empty(), "{errors:?}");
    (request, questions)
}

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
        black_box(
            engine
                .decide_blocking(state, questions, &NONE)
                .expect("decide"),
        );
    }
    n as f64 / started.elapsed().as_secs_f64()
}

/// The engine's decisions/s in this process, its products not split: run by the child
/// that [`engine_rate_on_one_core`] starts.
fn one_core_rate() -> f64 {
    let (request, questions) = request();
    let engine = BuiltinEngine::new(Arc::new(Embedder::new()), Reading::FirstWindow);
    engine_rate(&engine, &request["state"], &questions, 50); // warm up
    engine_rate(&engine, &request["state"], &questions, 1000)
}

/// The engine's decisions/s on one core: this bench again, pinned to core 0 with
/// `RAYON_NUM_THREADS=1`. None (and a line saying so) without `taskset`.
fn engine_rate_on_one_core() -> Option<f64> {
    let out = std::process::Command::new("taskset")
        .args(["-c", "0"])
        .arg(std::env::current_exe().expect("this bench"))
        .env("BATCH_ENGINE_ONE_CORE", "1")
        .env("RAYON_NUM_THREADS", "1")
        .output();
    let Ok(out) = out else {
        println!(
            "engine on one core: not measured (no taskset; it is util-linux's); one thread instead"
        );
        return None;
    };
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Some(
        String::from_utf8_lossy(&out.stdout)
            .trim()
            .parse()
            .expect("the child's decisions/s"),
    )
}

/// Engine decisions/s on `threads` tasks of rayon's pool (where jobs run their decisions,
/// and the encoder splits its products) sharing one embedder, `n` states each.
fn engine_rate_threads(
    embedder: &Arc<Embedder>,
    base: &Value,
    questions: &Questions,
    threads: usize,
    n: usize,
) -> f64 {
    let started = Instant::now();
    rayon::scope(|scope| {
        for t in 0..threads {
            let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
            scope.spawn(move |_| {
                for i in 0..n {
                    let state = state(base, 2_000_000 + t * n + i);
                    black_box(
                        engine
                            .decide_blocking(&state, questions, &NONE)
                            .expect("decide"),
                    );
                }
            });
        }
    });
    (threads * n) as f64 / started.elapsed().as_secs_f64()
}

fn main() {
    if std::env::var_os("BATCH_ENGINE_ONE_CORE").is_some() {
        println!("{:.3}", one_core_rate());
        return;
    }
    let parts = std::env::var("BATCH_PARTS").unwrap_or_else(|_| "engine,shards".into());
    if parts.contains("engine") {
        in_process();
    }
    if parts.contains("shards") {
        across_processes();
    }
}

fn in_process() {
    let items: usize = std::env::var("BATCH_ITEMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000);
    let (request, questions) = request();
    let base = request["state"].clone();
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
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create model");

    let embedder = Arc::new(Embedder::new());
    let engine = BuiltinEngine::new(embedder.clone(), Reading::FirstWindow);
    engine_rate(&engine, &base, &questions, 50); // warm up: weights, outcome texts
    let one = engine_rate(&engine, &base, &questions, 1000);
    let one_core = engine_rate_on_one_core().unwrap_or(one);
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

    println!(
        "engine_one_core_dps={one_core:.1} engine_1_thread_dps={one:.1} engine_threads_dps={threaded:.1} threads={cores}"
    );
    println!("batch_dps={batch:.1} items={items} seconds={secs:.2}");
    println!(
        "ratio batch / (engine on one core x {cores} cores) = {:.3}   (target >= 0.8)",
        batch / (one_core * cores as f64)
    );
    println!(
        "ratio batch / engine on {cores} threads   = {:.3}",
        batch / threaded
    );
}

/// The release binary cargo built beside this bench.
const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");
/// Items of the shards part: a job of a few hundred, in the shards the defaults cut it into.
const SHARED_ITEMS: usize = 600;

/// Seconds `arbiter batch` takes over `input` in `home` (pinned to `cores`, as `taskset -c`
/// takes them; with whatever other process works on the home's jobs), and the finished
/// job's record.
fn timed_batch(
    home: &std::path::Path,
    input: &std::path::Path,
    cores: &str,
    tag: &str,
) -> (f64, Value) {
    let output = home.join(format!("out-{tag}.jsonl"));
    let started = Instant::now();
    let out = std::process::Command::new("taskset")
        .args([
            "-c",
            cores,
            ARBITER,
            "--quiet",
            "batch",
            "bench/support",
            "--input",
        ])
        .arg(input)
        .arg("--output")
        .arg(&output)
        .env("ARBITER_HOME", home)
        .output()
        .expect("run arbiter batch");
    let secs = started.elapsed().as_secs_f64();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&output)
        .expect("results")
        .lines()
        .count();
    assert_eq!(lines, SHARED_ITEMS, "one result per item");
    let job: Value = serde_json::from_slice(&out.stdout).expect("the finished job");
    (secs, job)
}

/// A home with the bench's model and the default settings, for processes to share.
fn shared_home(request: &Value) -> tempfile::TempDir {
    let home = tempfile::tempdir().expect("temp home");
    let questions = home.path().join("questions.yaml");
    std::fs::write(
        &questions,
        serde_yaml::to_string(&request["questions"]).expect("yaml"),
    )
    .expect("questions");
    let created = std::process::Command::new(ARBITER)
        .args([
            "models",
            "create",
            "bench/support",
            "--base",
            "mo",
            "--questions",
        ])
        .arg(&questions)
        .env("ARBITER_HOME", home.path())
        .output()
        .expect("create model");
    assert!(created.status.success(), "{created:?}");
    home
}

fn across_processes() {
    if std::process::Command::new("taskset")
        .arg("-V")
        .output()
        .is_err()
    {
        println!("shards: skipped (no taskset; it is util-linux's)");
        return;
    }
    let (request, _) = request();
    let base = request["state"].clone();
    let home = shared_home(&request);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get);
    let all = format!("0-{}", cores - 1);
    let rounds = std::env::var("BATCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3_usize)
        .max(1);
    // Distinct states per run: no process finds another's in a cache.
    let mut offset = 3_000_000;
    let mut input = || {
        offset += 1_000_000;
        let path = home.path().join(format!("in-{offset}.jsonl"));
        let text = (0..SHARED_ITEMS).fold(String::new(), |mut out, i| {
            writeln!(out, "{}", json!({"state": state(&base, offset + i)})).unwrap();
            out
        });
        std::fs::write(&path, text).expect("input");
        path
    };
    // Each round runs the three ways back to back, in an order that turns each round, so
    // a machine that slows down for a while hits every way alike; the ratios are of sums.
    let (mut one, mut two, mut whole) = (0.0, 0.0, 0.0);
    for round in 0..rounds {
        let mut times = [0.0; 3];
        for way in (0..3).map(|k| (k + round) % 3) {
            let path = input();
            times[way] = match way {
                0 => timed_batch(home.path(), &path, "0", "one").0,
                1 => two_processes(home.path(), &path),
                _ => timed_batch(home.path(), &path, &all, "all").0,
            };
        }
        println!(
            "shards: round {}: {SHARED_ITEMS} items, one process on one core {:.2} s, two on one core each {:.2} s, one on {all} {:.2} s",
            round + 1,
            times[0],
            times[1],
            times[2]
        );
        one += times[0];
        two += times[1];
        whole += times[2];
    }
    println!(
        "ratio two processes / one = {:.3}   (target <= 0.6; over {rounds} rounds)",
        two / one
    );
    // One process on every core against one single-threaded process per core. With two
    // cores, the two pinned processes above are that.
    if cores == 2 {
        println!(
            "shards: one process on {all}: items/s against one single-threaded process per core = {:.3}   (target >= 0.95; over {rounds} rounds)",
            two / whole
        );
    }
}

/// `arbiter batch` pinned to core 0 and `arbiter jobs work` pinned to core 1 sharing its
/// job; the batch's seconds, once both processes are found to have run shards.
fn two_processes(home: &std::path::Path, input: &std::path::Path) -> f64 {
    let mut worker = std::process::Command::new("taskset")
        .args(["-c", "1", ARBITER, "jobs", "work", "--slots", "1"])
        .env("ARBITER_HOME", home)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("start arbiter jobs work");
    // Started and looking for work, as a worker that was waiting for it.
    std::thread::sleep(std::time::Duration::from_secs(3));
    let (secs, job) = timed_batch(home, input, "0", "two");
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &worker.id().to_string()])
        .status();
    let _ = worker.wait();
    let workers = &job["shards"]["workers"];
    assert_eq!(
        workers.as_object().map(serde_json::Map::len),
        Some(2),
        "both processes ran shards: {job}"
    );
    secs
}
