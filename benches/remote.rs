//! Batch throughput against a remote System One engine, and Arbiter's CPU per decision.
//!
//! The upstream is a fake System One server in a child process (this same binary, run with
//! `ARBITER_BENCH_FAKE=1`) that answers every request after a fixed 20 ms. A batch job of
//! 5,000 distinct states runs through the whole machinery (staged input, `SQLite` job record,
//! the bounded window of decisions, the engine's pooled client and in-flight semaphore,
//! in-order results file) on a repository model whose base model is routed to that engine
//! at `max_in_flight: 64`.
//!
//! Baselines: the ideal throughput 64 / 0.020 s = 3,200 decisions/s (target: ≥ 0.9 of it),
//! and the pipe's measured limit: a bare `reqwest` client sending the same bodies to the
//! same fake with the same number in flight, run after the job in the same process.
//! CPU: `getrusage(RUSAGE_SELF)` of this process around the job, so it is Arbiter's work
//! only (client, JSON, validation, job machinery, tokio), not the fake's, which runs in the
//! child and is reported apart (`RUSAGE_CHILDREN` once it has exited).
//! Run: `cargo bench --bench remote` (`REMOTE_ITEMS=N`, `REMOTE_IN_FLIGHT=N`,
//! `REMOTE_DELAY_MS=N` to change 5,000 / 64 / 20; `REMOTE_SHARD_SIZE=N` for shards of N
//! items instead of the default 256, e.g. 5,000 for a job of one shard).
#![allow(clippy::print_stdout)]
// A bench reads as one measurement from setup to its figures; the 80-line bound on
// functions (clippy.toml) is for `src/`.
#![allow(clippy::too_many_lines)]

use arbiter::config::Settings;
use arbiter::core::batch::NewBatch;
use arbiter::core::jobs::NoObserver;
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::CreateModel;
use arbiter::core::requests::BatchItems;
use arbiter::core::runner::run;
use arbiter::core::{self, Context};
use axum::Json;
use axum::routing::post;
use serde_json::{Map, Value, json};
use std::io::{BufRead, BufReader, Read};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const REQUEST: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/support/request.json");

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    if std::env::var_os("ARBITER_BENCH_FAKE").is_some() {
        fake_upstream(Duration::from_millis(env_number("REMOTE_DELAY_MS", 20)));
        return;
    }
    let items = env_number("REMOTE_ITEMS", 5_000) as usize;
    let in_flight = env_number("REMOTE_IN_FLIGHT", 64);
    let delay_ms = env_number("REMOTE_DELAY_MS", 20);

    let (mut child, url) = start_fake(delay_ms);
    let shard_size = env_number("REMOTE_SHARD_SIZE", 256);
    let (_home, ctx, input) = prepare(&url, items, (in_flight, shard_size));

    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let cpu_before = cpu_time(libc::RUSAGE_SELF);
    let started = Instant::now();
    let (job, staged_secs) = runtime.block_on(async {
        let ctx2 = ctx.clone();
        let (_, lock) = core::blocking(move || {
            let reader = std::io::Cursor::new(input.into_bytes());
            core::batch::create(
                &ctx2,
                NewBatch {
                    model: &"bench/remote".parse().expect("path"),
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
        let staged = started.elapsed().as_secs_f64();
        (run(&ctx, lock, &NoObserver).await.expect("run"), staged)
    });
    let secs = started.elapsed().as_secs_f64();
    let cpu = cpu_time(libc::RUSAGE_SELF) - cpu_before;
    assert_eq!(job.status.as_str(), "completed", "{job:?}");
    assert_eq!(job.progress.done, items as u64);
    assert_eq!(job.progress.failed, 0, "{job:?}");

    // The pipe's own limit: a bare client keeping the same number of the same requests in
    // flight against the same fake, so the fake's real service time (its timer rounds up
    // to the next millisecond) and the loopback are measured, not assumed.
    let (pipe_secs, pipe_cpu) =
        runtime.block_on(pipe_limit(&url, &request_bodies(items), in_flight));

    // Stop the fake (it exits when its stdin closes) and collect its CPU.
    drop(child.stdin.take());
    let _ = child.wait();
    let fake_cpu = cpu_time(libc::RUSAGE_CHILDREN);

    let ideal = in_flight as f64 / (delay_ms as f64 / 1000.0);
    let achieved = items as f64 / secs;
    println!(
        "items={items} in_flight={in_flight} upstream_delay_ms={delay_ms} shard_size={shard_size} seconds={secs:.2}"
    );
    println!("achieved_dps={achieved:.0} ideal_dps={ideal:.0}");
    println!(
        "ratio achieved / ideal = {:.3}   (target >= 0.9; staging the input took {staged_secs:.2} s of it)",
        achieved / ideal
    );
    let pipe = items as f64 / pipe_secs;
    println!(
        "pipe_dps={pipe:.0}   (a bare client, {in_flight} in flight, same fake; {:.3} of the ideal; {:.2} ms a request)",
        pipe / ideal,
        in_flight as f64 * 1000.0 / pipe
    );
    println!("ratio achieved / pipe = {:.3}", achieved / pipe);
    println!(
        "bare_client_cpu_per_request_us={:.0}   (the same process's CPU while the bare client ran)",
        pipe_cpu * 1e6 / items as f64
    );
    println!(
        "ratio while running (after staging) = {:.3}",
        items as f64 / (secs - staged_secs) / ideal
    );
    println!(
        "arbiter_cpu_per_decision_us={:.0}   (this process: {cpu:.2} s CPU over {secs:.2} s wall, {:.0}% of one core)",
        cpu * 1e6 / items as f64,
        100.0 * cpu / secs
    );
    println!(
        "fake_upstream_cpu_per_request_us={:.0}   (the child process, not included above; it served the job's and the bare client's requests)",
        fake_cpu * 1e6 / (2 * items) as f64
    );
}

/// The fake upstream, in a child process (its CPU is not ours), and its URL.
fn start_fake(delay_ms: u64) -> (std::process::Child, String) {
    let mut child = Command::new(std::env::current_exe().expect("this binary"))
        .env("ARBITER_BENCH_FAKE", "1")
        .env("REMOTE_DELAY_MS", delay_ms.to_string())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the fake upstream");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the fake's address");
    let url = line
        .trim()
        .strip_prefix("listening on ")
        .expect("a listening line")
        .to_owned();
    (child, url)
}

/// A home whose `mo` is routed to the fake (its jobs split in shards of `shard_size`), a
/// repository model on it, and the input lines.
fn prepare(
    url: &str,
    items: usize,
    (in_flight, shard_size): (u64, u64),
) -> (tempfile::TempDir, Context, String) {
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(REQUEST).expect("request.json"))
            .expect("json");
    let home = tempfile::tempdir().expect("temp home");
    std::fs::write(
        home.path().join("config.yaml"),
        format!(
            "engines:\n  fake: {{kind: systemone, url: '{url}', model: bench, max_in_flight: {in_flight}, timeout: 30, retries: 0}}\nmodels:\n  mo: fake\nserver:\n  shard_size: {shard_size}\n"
        ),
    )
    .expect("config");
    let ctx = Context::new(Settings::resolve(Some(home.path().to_owned())).expect("settings"))
        .expect("context");
    core::models::create(
        &ctx,
        &CreateModel {
            path: "bench/remote".parse().expect("path"),
            base: "mo".into(),
            questions_yaml: Some(serde_yaml::to_string(&request["questions"]).expect("yaml")),
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create model");
    let base = request["state"].clone();
    let input: String = (0..items)
        .map(|i| {
            let mut state = base.clone();
            state["ticket"] = json!(i);
            json!({"state": state}).to_string() + "\n"
        })
        .collect();

    (home, ctx, input)
}

/// The bodies Arbiter's System One engine sends for the bench's states, one per item.
fn request_bodies(items: usize) -> Vec<Value> {
    let request: Value =
        serde_json::from_str(&std::fs::read_to_string(REQUEST).expect("request.json"))
            .expect("json");
    (0..items)
        .map(|i| {
            let mut state = request["state"].clone();
            state["ticket"] = json!(i);
            json!({"state": state, "model": "bench", "questions": request["questions"]})
        })
        .collect()
}

/// Seconds a bare pooled client takes to send `bodies` with `in_flight` always in flight,
/// and the CPU seconds this process spent meanwhile.
async fn pipe_limit(url: &str, bodies: &[Value], in_flight: u64) -> (f64, f64) {
    use futures_util::StreamExt;
    let cpu_before = cpu_time(libc::RUSAGE_SELF);
    let client = reqwest::Client::new();
    let endpoint = format!("{url}/v1/systemone");
    let started = Instant::now();
    let answered = futures_util::stream::iter(bodies)
        .map(|body| {
            let (client, endpoint) = (&client, &endpoint);
            async move {
                let reply = client.post(endpoint).json(body).send().await.expect("send");
                assert!(reply.status().is_success(), "{}", reply.status());
                reply.bytes().await.expect("body").len()
            }
        })
        .buffer_unordered(in_flight as usize)
        .count()
        .await;
    assert_eq!(answered, bodies.len());
    (
        started.elapsed().as_secs_f64(),
        cpu_time(libc::RUSAGE_SELF) - cpu_before,
    )
}

/// User + system CPU seconds of this process (`RUSAGE_SELF`) or of its waited-for
/// children (`RUSAGE_CHILDREN`).
fn cpu_time(who: libc::c_int) -> f64 {
    // SAFETY: getrusage only writes the struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(who, &raw mut usage);
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    secs(usage.ru_utime) + secs(usage.ru_stime)
}

/// A System One server answering every question after `delay`: noul 0.5, choices and
/// scores uniform. Prints `listening on URL`, and exits when stdin closes.
fn fake_upstream(delay: Duration) {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        println!(
            "listening on http://{}",
            listener.local_addr().expect("addr")
        );
        let app = axum::Router::new().route(
            "/v1/systemone",
            post(move |Json(body): Json<Value>| async move {
                // On a thread of its own: tokio's timer rounds a sleep up to the next
                // millisecond tick, which made the fake answer in 21-22 ms, not 20.
                let _ = tokio::task::spawn_blocking(move || std::thread::sleep(delay)).await;
                Json(answers(&body))
            }),
        );
        let (closed_tx, closed_rx) = tokio::sync::oneshot::channel::<()>();
        std::thread::spawn(move || {
            let _ = std::io::stdin().read_to_end(&mut Vec::new());
            let _ = closed_tx.send(());
        });
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = closed_rx.await;
            })
            .await
            .expect("serve");
    });
}

fn answers(request: &Value) -> Value {
    let mut answers = Map::new();
    for (id, question) in request["questions"].as_object().into_iter().flatten() {
        let uniform = |keys: Vec<String>| {
            let p = 1.0 / keys.len().max(1) as f64;
            Value::Object(keys.into_iter().map(|k| (k, json!(p))).collect())
        };
        let answer = match question["type"].as_str() {
            Some("choice") => {
                let keys = question["criteria"]
                    .as_object()
                    .map(|c| c.keys().cloned().collect())
                    .unwrap_or_default();
                json!({"type": "choice", "probabilities": uniform(keys)})
            }
            Some("score") => {
                let n = question["criteria"].as_array().map_or(0, Vec::len);
                json!({"type": "score", "probabilities": uniform((0..n).map(|i| i.to_string()).collect())})
            }
            _ => json!({"type": "noul", "noul": 0.5}),
        };
        answers.insert(id.clone(), answer);
    }
    json!({"model": request["model"], "answers": answers, "usage": {"input_tokens": 100, "output_tokens": 3}})
}
