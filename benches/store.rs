//! Store benchmarks: the cost of capture on decisions, and bulk ingest rate and memory.
//!
//! a. Captured vs uncaptured decisions/s on a repository model (`acme/support`, base `mo`,
//!    the questions of `examples/support/questions.yaml`) over distinct ~300-byte states,
//!    200 new ones per arm and pass (none seen before, so the engine's state cache never
//!    answers), in interleaved blocks of 4 (ABBA order) so drift hits both arms alike. The
//!    baseline is the uncaptured arm. The figure judged is the median over block pairs of
//!    (uncaptured block time / captured block time), robust to bursts of load from other
//!    processes on a shared machine; the ratio of the totals is printed beside it. A breakdown
//!    times `Store::record_decision` alone and a bare fdatasync. Target: captured/uncaptured
//!    of at least 0.9.
//!    With PostgreSQL installed (the tests' server, `arbiter_testing::postgres`), the same
//!    measure runs again with the store on a fresh PostgreSQL database. Target there: at
//!    least 0.85.
//! c. Takeover (with PostgreSQL): two `arbiter serve` replicas on one database and one bare
//!    git remote; a 1,500-item batch starts on the first, which is killed (`SIGKILL`) once
//!    30 items are done; the time from the kill until the second replica owns the job (its
//!    lease in the job's row), and until the job completes, over 3 runs. Target: takeover
//!    within 2x the lease (`core::lease::SHARED_TTL`).
//! b. Ingest of 100,000 generated JSONL examples through `core::examples::ingest` with a
//!    `BufReader` over a temp file. Target: at least 20,000 examples/s; the baseline, measured
//!    in the same run, is reading and parsing the same file (the floor of any JSONL ingest).
//!    Memory: the bench re-executes itself once per size (10,000 and 100,000 examples) and
//!    each child reports its peak RSS (`VmHWM`). Target: RSS(100k)/RSS(10k) of at most 1.2.
//!
//! Run: `cargo bench --bench store`.

// A bench reads as one measurement from setup to its figures; the 80-line bound on
// functions (clippy.toml) is for `src/`.
#![allow(clippy::too_many_lines)]
#![allow(clippy::print_stdout, clippy::print_stderr)]

use arbiter::config::Settings;
use arbiter::core::Context;
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::{CreateModel, create};
use arbiter::wire::DecisionRequest;
use serde_json::{Value, json};
use std::hint::black_box;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const MODEL: &str = "acme/support";

/// [`MODEL`] as core names it.
fn model() -> arbiter::ids::ModelRef {
    MODEL.parse().expect("model path")
}
const QUESTIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/questions.yaml"
);
/// Set in a child process: ingest the JSONL file at this path, print peak RSS, exit.
const CHILD_FILE: &str = "ARBITER_BENCH_INGEST_FILE";
const CHILD_COUNT: &str = "ARBITER_BENCH_INGEST_COUNT";

const DECISION_STATES: usize = 200;
const BLOCK: usize = 4;
const DECISION_BUDGET: Duration = Duration::from_secs(30);
const INGEST_LARGE: usize = 100_000;
const INGEST_SMALL: usize = 10_000;

fn main() {
    if let (Ok(file), Ok(count)) = (std::env::var(CHILD_FILE), std::env::var(CHILD_COUNT)) {
        child_ingest(Path::new(&file), count.parse().expect("count"));
        return;
    }
    let mut summary = Vec::new();
    summary.push(capture_bench(None));
    // Without PostgreSQL, `database` says how to install it; these are left out.
    if let Some(database) = arbiter_testing::postgres::database() {
        summary.push(capture_bench(Some(&database)));
    }
    if let Some(database) = arbiter_testing::postgres::database() {
        summary.push(takeover::bench(&database));
    }
    summary.extend(ingest_bench());
    let mut out = String::from("\nstore summary:\n");
    for line in summary {
        out.push_str("  ");
        out.push_str(&line);
        out.push('\n');
    }
    print!("{out}");
}

/// A context on a fresh home (its store on `database` when given) with the support model,
/// capture on for every example.
fn setup(home: &Path, database: Option<&str>) -> Context {
    let mut settings = Settings::resolve(Some(home.to_owned())).expect("settings");
    settings.database.url = database.map(|url| arbiter::config::ApiKey::new(url.to_owned()));
    let ctx = Context::new(settings).expect("context");
    create(
        &ctx,
        &CreateModel {
            path: MODEL.parse().expect("path"),
            base: "mo".into(),
            questions_yaml: Some(std::fs::read_to_string(QUESTIONS).expect("questions.yaml")),
            gates_yaml: None,
            capture: CapturePolicy {
                enabled: true,
                sample_rate: 1.0,
                retain_days: None,
            },
            message: None,
        },
    )
    .expect("create model");
    ctx
}

fn met(ok: bool) -> &'static str {
    if ok { "met" } else { "NOT met" }
}

// ---------------------------------------------------------------------------------------------
// a. capture

const SUBJECTS: [&str; 8] = [
    "Charged twice this month",
    "Cannot log in after the password reset",
    "Export button fails with an error",
    "Where is my order?",
    "Idea for the reports dashboard",
    "Refund for seats we never used",
    "Invoice is missing our VAT number",
    "Whole team sees a blank page",
];
const BODIES: [&str; 8] = [
    "My card shows two identical charges for the same plan. Please put one of them back.",
    "The reset email arrived but the new password is rejected and I have a client call soon.",
    "Every time I click Export on the invoices page I get 'Something went wrong'.",
    "I ordered a headset ten days ago and the tracking page has not moved since Monday.",
    "It would be great to group the weekly report by project instead of by person.",
    "We removed four seats in March but kept paying for them. I would like the difference back.",
    "Accounting needs our VAT number on last month's invoice; could you reissue it?",
    "Since this morning nobody on our team can open the app; it just shows a blank page.",
];
const PLANS: [&str; 4] = ["starter", "pro", "pro-annual", "enterprise"];

/// Distinct ~300-byte support tickets.
fn ticket(i: usize) -> Value {
    json!({
        "subject": format!("{} (ticket {})", SUBJECTS[i % 8], 1000 + i),
        "body": format!("{} {}", BODIES[(i / 8 + i) % 8], ["Thanks.", "Regards, Sam", "Cheers!", "Best, the ops team"][i % 4]),
        "customer": {"plan": PLANS[i % 4], "tenure_months": i % 61, "seats": 1 + i % 40},
        "channel": (["email", "chat", "web form"][i % 3]),
        "received_at": format!("2025-03-{:02}T{:02}:{:02}:00Z", 1 + i % 28, i % 24, i % 60)
    })
}

#[allow(clippy::too_many_lines)]
fn capture_bench(database: Option<&str>) -> String {
    let (backend, target) = if database.is_some() {
        ("PostgreSQL", 0.85)
    } else {
        ("SQLite", 0.9)
    };
    println!("capture on {backend}:");
    let dir = tempfile::tempdir().expect("tempdir");
    let ctx = setup(dir.path(), database);
    let states: Vec<Value> = (0..DECISION_STATES).map(ticket).collect();
    let mean_bytes = states.iter().map(|s| s.to_string().len()).sum::<usize>() / states.len();
    let request = |state: &Value, captured: bool| {
        let mut body = json!({"model": MODEL, "state": state});
        if !captured {
            body["capture"] = json!(false);
        }
        DecisionRequest::read(&body).expect("valid request")
    };
    // Each arm of each pass on states of its own: pass p's arm a reads tickets from
    // (2p + a + 1) x DECISION_STATES on (the first DECISION_STATES warm up and break down).
    let fresh = |pass: usize, captured: bool| -> Vec<DecisionRequest> {
        let from = (2 * pass + usize::from(captured) + 1) * DECISION_STATES;
        (from..from + DECISION_STATES)
            .map(|i| request(&ticket(i), captured))
            .collect()
    };
    let uncaptured: Vec<DecisionRequest> = states.iter().map(|s| request(s, false)).collect();

    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let (mut time_u, mut time_c, mut count, mut passes, mut recorded) =
        (Duration::ZERO, Duration::ZERO, 0usize, 0usize, 0usize);
    // rate_c / rate_u of each pair of blocks on the same states: robust to bursts of load
    // from other processes, which hit one block of a pair but rarely both.
    let mut paired = Vec::new();
    runtime.block_on(async {
        // Warm up: load the encoder, fill the outcome cache, open the store.
        for r in uncaptured.iter().take(5) {
            black_box(
                arbiter::core::decide::decide(&ctx, r, "warmup")
                    .await
                    .expect("decide"),
            );
        }
        ctx.store().expect("store");
        let started = Instant::now();
        while passes < 2 || started.elapsed() < DECISION_BUDGET {
            let (uncaptured, captured) = (fresh(passes, false), fresh(passes, true));
            for (b, start) in (0..DECISION_STATES).step_by(BLOCK).enumerate() {
                let range = start..(start + BLOCK).min(DECISION_STATES);
                // ABBA: alternate which arm runs first.
                let order = if (b + passes) % 2 == 0 {
                    [false, true]
                } else {
                    [true, false]
                };
                let (mut block_u, mut block_c) = (Duration::ZERO, Duration::ZERO);
                for capture in order {
                    let batch = if capture {
                        &captured[range.clone()]
                    } else {
                        &uncaptured[range.clone()]
                    };
                    let t = Instant::now();
                    for (k, r) in batch.iter().enumerate() {
                        let id = format!("bench-{passes}-{}-{k}", range.start);
                        let response = arbiter::core::decide::decide(&ctx, r, &id)
                            .await
                            .expect("decide");
                        if response.recorded == Some(true) {
                            recorded += 1;
                        }
                        black_box(response);
                    }
                    let elapsed = t.elapsed();
                    if capture {
                        block_c = elapsed;
                        time_c += elapsed;
                    } else {
                        block_u = elapsed;
                        time_u += elapsed;
                    }
                }
                paired.push(block_u.as_secs_f64() / block_c.as_secs_f64());
            }
            count += DECISION_STATES;
            passes += 1;
        }
    });
    assert_eq!(
        recorded, count,
        "every captured decision must be recorded (and no uncaptured one)"
    );
    let rate_u = count as f64 / time_u.as_secs_f64();
    let rate_c = count as f64 / time_c.as_secs_f64();
    let total_ratio = rate_c / rate_u;
    paired.sort_by(f64::total_cmp);
    let ratio = paired[paired.len() / 2];
    let (q1, q3) = (paired[paired.len() / 4], paired[paired.len() * 3 / 4]);
    let extra_ms = (time_c.as_secs_f64() - time_u.as_secs_f64()) / count as f64 * 1e3;
    println!(
        "capture: {count} decisions per arm ({passes} passes, {DECISION_STATES} new states of ~{mean_bytes} bytes per arm and pass, blocks of {BLOCK}, ABBA)\n\
         uncaptured: {rate_u:.1} decisions/s ({:.3} ms each)\n\
         captured:   {rate_c:.1} decisions/s ({:.3} ms each; capture adds {extra_ms:.3} ms)\n\
         ratio of totals captured/uncaptured = {total_ratio:.3}; median of {} paired blocks = {ratio:.3} (quartiles {q1:.3}..{q3:.3})",
        1e3 / rate_u,
        1e3 / rate_c,
        paired.len(),
    );
    breakdown(&ctx, dir.path(), &states);
    format!(
        "capture ({backend}): captured/uncaptured decisions/s = {ratio:.3} (median of paired blocks; ratio of totals {total_ratio:.3})  (target >= {target}: {})",
        met(ratio >= target)
    )
}

/// Where the capture time goes: the store write alone, and the disk's fsync alone.
fn breakdown(ctx: &Context, dir: &Path, states: &[Value]) {
    let loaded = arbiter::core::models::load(ctx, &model(), None).expect("load");
    let questions = arbiter::wire::question::questions_to_value(&loaded.questions);
    let answers = json!({"intent": {"type": "choice", "answer": "refund", "confidence": 0.5},
        "urgency": {"type": "score", "answer": 2, "confidence": 0.4},
        "escalate": {"type": "noul", "answer": false, "confidence": 0.6}});
    let store = ctx.store().expect("store");
    let model_id = loaded.model_id;
    let t = Instant::now();
    for (i, state) in states.iter().enumerate() {
        let example_id =
            arbiter::ids::ExampleId::from(arbiter::wire::value::derived_example_id(state));
        let request_id = format!("breakdown-{i}");
        store
            .record_decision(&arbiter::store::NewDecision {
                decision_id: None,
                model_id: &model_id,
                example_id: &example_id,
                state,
                checkpoint: &loaded.checkpoint.checkpoint_id,
                revision_name: &loaded.revision.name,
                revision_kind: "branch",
                questions: &questions,
                answers: &answers,
                input_tokens: 300,
                output_tokens: 0,
                request_id: &request_id,
            })
            .expect("record");
    }
    let record_ms = t.elapsed().as_secs_f64() * 1e3 / states.len() as f64;
    let mut file = std::fs::File::create(dir.join("fsync-probe")).expect("probe");
    let page = [7u8; 4096];
    let t = Instant::now();
    for _ in 0..states.len() {
        file.write_all(&page).expect("write");
        file.sync_data().expect("fdatasync");
    }
    let fsync_ms = t.elapsed().as_secs_f64() * 1e3 / states.len() as f64;
    println!(
        "breakdown: Store::record_decision alone {record_ms:.3} ms; write 4 KiB + fdatasync alone {fsync_ms:.3} ms (same filesystem)"
    );
}

// ---------------------------------------------------------------------------------------------
// b. ingest

const INTENTS: [&str; 6] = [
    "refund",
    "billing",
    "technical",
    "account_access",
    "shipping",
    "feedback",
];

/// One JSONL example: a small state and one annotation valid for the support questions.
fn example_line(i: usize) -> String {
    let annotations = match i % 3 {
        0 => json!({"intent": {"answer": INTENTS[i % 6]}}),
        1 => json!({"urgency": {"answer": i % 5, "reasoning": "generated"}}),
        _ => json!({"escalate": {"answer": i.is_multiple_of(2)}}),
    };
    json!({
        "example_id": format!("ex-{i:07}"),
        "state": {"subject": SUBJECTS[i % 8], "body": format!("ticket {i}: {}", &BODIES[i % 8][..40]), "customer": {"plan": PLANS[i % 4], "tenure_months": i % 61}},
        "annotations": annotations,
    })
    .to_string()
}

fn write_jsonl(path: &Path, n: usize) -> u64 {
    let mut out = BufWriter::new(std::fs::File::create(path).expect("create jsonl"));
    for i in 0..n {
        out.write_all(example_line(i).as_bytes()).expect("write");
        out.write_all(b"\n").expect("write");
    }
    out.flush().expect("flush");
    std::fs::metadata(path).expect("metadata").len()
}

/// Ingest `path` into a fresh home; returns the seconds spent in `ingest` alone.
fn timed_ingest(path: &Path, n: usize) -> f64 {
    let dir = tempfile::tempdir().expect("tempdir");
    let ctx = setup(dir.path(), None);
    ctx.store().expect("store");
    let mut reader = BufReader::new(std::fs::File::open(path).expect("open jsonl"));
    let t = Instant::now();
    let report =
        arbiter::core::examples::ingest(&ctx, &model(), "bench", &mut reader, false, &mut |_| {})
            .expect("ingest");
    let secs = t.elapsed().as_secs_f64();
    assert!(
        report.committed && report.rejected.is_empty(),
        "rejected: {:?}",
        report.rejected.first()
    );
    assert_eq!(report.created as usize, n);
    assert_eq!(report.annotations as usize, n);
    secs
}

/// The baseline: read and parse every line of the same file, as ingest must.
fn timed_parse(path: &Path, n: usize) -> f64 {
    let mut reader = BufReader::new(std::fs::File::open(path).expect("open jsonl"));
    let mut line = String::new();
    let t = Instant::now();
    let mut parsed = 0;
    while reader.read_line(&mut line).expect("read") > 0 {
        let value: Value = serde_json::from_str(line.trim()).expect("json");
        black_box(value);
        parsed += 1;
        line.clear();
    }
    assert_eq!(parsed, n);
    t.elapsed().as_secs_f64()
}

fn ingest_bench() -> Vec<String> {
    let dir = tempfile::tempdir().expect("tempdir");
    let large = dir.path().join("large.jsonl");
    let small = dir.path().join("small.jsonl");
    let large_bytes = write_jsonl(&large, INGEST_LARGE);
    let small_bytes = write_jsonl(&small, INGEST_SMALL);

    // Rate: two rounds, parse baseline and ingest interleaved.
    let (mut parse, mut ingest) = (0.0, 0.0);
    for _ in 0..2 {
        parse += timed_parse(&large, INGEST_LARGE);
        ingest += timed_ingest(&large, INGEST_LARGE);
    }
    let rate = 2.0 * INGEST_LARGE as f64 / ingest;
    let parse_rate = 2.0 * INGEST_LARGE as f64 / parse;
    println!(
        "\ningest: {INGEST_LARGE} examples ({:.1} MB JSONL), 2 rounds each\n\
         read+parse baseline: {parse_rate:.0} lines/s\n\
         ingest:              {rate:.0} examples/s  (ingest time / parse time = {:.2})",
        large_bytes as f64 / 1e6,
        ingest / parse
    );

    // Memory: one child per size, each a fresh process.
    let exe = std::env::current_exe().expect("current_exe");
    let mut peaks = Vec::new();
    for (path, n, bytes) in [
        (&small, INGEST_SMALL, small_bytes),
        (&large, INGEST_LARGE, large_bytes),
    ] {
        let output = Command::new(&exe)
            .env(CHILD_FILE, path)
            .env(CHILD_COUNT, n.to_string())
            .output()
            .expect("run child");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "child failed: {stdout}{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let field = |name: &str| -> f64 {
            stdout
                .split_whitespace()
                .find_map(|w| w.strip_prefix(name))
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("child printed no {name}: {stdout}"))
        };
        let (before, peak, secs) = (field("hwm_before_kib="), field("hwm_kib="), field("secs="));
        println!(
            "child ingest of {n:>6} examples ({:5.1} MB): {:.0} examples/s, peak RSS {:.1} MiB (before ingest {:.1} MiB, growth {:.1} MiB)",
            bytes as f64 / 1e6,
            n as f64 / secs,
            peak / 1024.0,
            before / 1024.0,
            (peak - before) / 1024.0
        );
        peaks.push((peak, peak - before));
    }
    let ratio = peaks[1].0 / peaks[0].0;
    println!(
        "peak RSS ratio 100k/10k = {ratio:.3}; growth during ingest 10k: {:.1} MiB, 100k: {:.1} MiB",
        peaks[0].1 / 1024.0,
        peaks[1].1 / 1024.0
    );
    vec![
        format!(
            "ingest: {rate:.0} examples/s, {:.2}x the read+parse baseline time  (target >= 20,000/s: {})",
            ingest / parse,
            met(rate >= 20_000.0)
        ),
        format!(
            "ingest memory: peak RSS 100k/10k = {ratio:.3}  (target <= 1.2: {})",
            met(ratio <= 1.2)
        ),
    ]
}

fn vm_hwm_kib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM")
}

/// In a child: one ingest of the file into a fresh home, then the peak RSS on stdout.
fn child_ingest(path: &Path, n: usize) {
    let dir = tempfile::tempdir().expect("tempdir");
    let ctx = setup(dir.path(), None);
    ctx.store().expect("store");
    let before = vm_hwm_kib();
    let mut reader = BufReader::new(std::fs::File::open(path).expect("open jsonl"));
    let t = Instant::now();
    let report =
        arbiter::core::examples::ingest(&ctx, &model(), "bench", &mut reader, false, &mut |_| {})
            .expect("ingest");
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(report.created as usize, n);
    let peak = vm_hwm_kib();
    println!("hwm_before_kib={before} hwm_kib={peak} secs={secs}");
}

// ---------------------------------------------------------------------------------------------
// c. takeover

mod takeover {
    use super::{QUESTIONS, met};
    use serde_json::{Value, json};
    use std::io::{BufRead, BufReader};
    use std::path::Path;
    use std::process::{Child, Command, Stdio};
    use std::time::{Duration, Instant};

    const RUNS: usize = 3;
    const ITEMS: usize = 1500;
    const KILL_AT: u64 = 30;

    /// `arbiter` with a home of its own on the shared database and remote.
    fn arbiter(home: &Path, database: &str, remote: &str) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_arbiter"));
        command
            .arg("--home")
            .arg(home)
            .env("ARBITER_DATABASE_URL", database)
            .env("ARBITER_REPOS_REMOTE", remote)
            .env_remove("ARBITER_HOME");
        command
    }

    fn json_of(mut command: Command) -> Value {
        let output = command.arg("--json").output().expect("run arbiter");
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("JSON")
    }

    /// A replica: the process and its base URL.
    fn serve(mut command: Command) -> (Child, String) {
        let mut child = command
            .args(["serve", "--listen", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("arbiter serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("first line");
        let url = line
            .trim()
            .strip_prefix("listening on ")
            .expect("listening on …");
        (child, url.to_owned())
    }

    fn owner(db: &mut postgres::Client, job_id: &str) -> Option<String> {
        db.query_one("SELECT owner FROM jobs WHERE job_id = $1", &[&job_id])
            .expect("job row")
            .get(0)
    }

    pub(super) fn bench(database: &str) -> String {
        let dir = tempfile::tempdir().expect("tempdir");
        let remote_dir = dir.path().join("remote");
        std::fs::create_dir_all(&remote_dir).expect("remote");
        let remote = format!("file://{}", remote_dir.display());
        let (home_a, home_b) = (dir.path().join("a"), dir.path().join("b"));
        let mut create = arbiter(&home_a, database, &remote);
        create.args([
            "models",
            "create",
            "bench/support",
            "--base",
            "mo",
            "--questions",
            QUESTIONS,
        ]);
        let model_id = json_of(create)["modelId"]
            .as_str()
            .expect("modelId")
            .to_owned();
        let mut token = arbiter(&home_a, database, &remote);
        token.args([
            "tokens", "create", "--name", "bench", "--scope", "batches", "--role", "*=writer",
        ]);
        let token = json_of(token)["token"].as_str().expect("token").to_owned();
        let (mut replica_b, url_b) = serve(arbiter(&home_b, database, &remote));
        let mut db = postgres::Client::connect(database, postgres::NoTls).expect("connect");
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        let client = reqwest::Client::builder()
            .no_proxy()
            .build()
            .expect("client");

        let (mut takeovers, mut finishes) = (Vec::new(), Vec::new());
        for run in 0..RUNS {
            let (mut replica_a, url_a) = serve(arbiter(&home_a, database, &remote));
            // States of its own per run, so no replica's state cache answers them.
            let items: Vec<Value> = (0..ITEMS)
                .map(|i| json!({"state": super::ticket(100_000 + run * ITEMS + i)}))
                .collect();
            let created: Value = runtime.block_on(async {
                client
                    .post(format!("{url_a}/v1/models/{model_id}/batch-decisions"))
                    .bearer_auth(&token)
                    .header("idempotency-key", format!("takeover-{run}"))
                    .json(&json!({"items": items, "capture": false}))
                    .send()
                    .await
                    .expect("create")
                    .json()
                    .await
                    .expect("job")
            });
            let job_id = created["jobId"].as_str().expect("jobId").to_owned();
            let poll = |url: &str| -> Value {
                runtime.block_on(async {
                    client
                        .get(format!(
                            "{url}/v1/models/{model_id}/batch-decisions/{job_id}"
                        ))
                        .bearer_auth(&token)
                        .send()
                        .await
                        .expect("poll")
                        .json()
                        .await
                        .expect("job")
                })
            };
            while poll(&url_b)["progress"]["done"].as_u64() < Some(KILL_AT) {
                std::thread::sleep(Duration::from_millis(20));
            }
            let dead = owner(&mut db, &job_id);
            replica_a.kill().expect("SIGKILL");
            replica_a.wait().expect("reaped");
            let killed = Instant::now();
            while owner(&mut db, &job_id) == dead {
                std::thread::sleep(Duration::from_millis(50));
            }
            takeovers.push(killed.elapsed().as_secs_f64());
            while poll(&url_b)["status"] != "completed" {
                assert!(killed.elapsed() < Duration::from_mins(5), "never completed");
                std::thread::sleep(Duration::from_millis(50));
            }
            finishes.push(killed.elapsed().as_secs_f64());
        }
        let _ = replica_b.kill();
        let _ = replica_b.wait();
        let lease = arbiter::core::lease::SHARED_TTL.as_secs_f64();
        takeovers.sort_by(f64::total_cmp);
        let worst = takeovers[RUNS - 1];
        println!(
            "takeover: {RUNS} runs of {ITEMS} items, the first replica killed at {KILL_AT} done; lease {lease:.0} s\n\
             kill to the other replica owning the job: {takeovers:.1?} s\n\
             kill to the job completed: {finishes:.1?} s"
        );
        format!(
            "takeover: kill -9 to the job owned by the other replica, worst of {RUNS} = {worst:.1} s = {:.2}x the lease of {lease:.0} s  (target <= 2x: {})",
            worst / lease,
            met(worst <= 2.0 * lease)
        )
    }
}
