//! Alignment: zero-shot vs aligned on held-out examples, and the alignment's wall time.
//!
//! 1. The labelled support set (`examples/support/labelled.jsonl`, 600 tickets, three
//!    questions) is split 50/50 by SHA-256 of the example ID (as `benches/calibrate.rs`).
//!    A repository model on `mo` with `examples/support/questions.yaml` gets the first half as
//!    annotated examples and is aligned (seed 7) through the real job machinery (default
//!    settings: every example fitted, every figure out of fold). `eval` at the aligned
//!    checkpoint, which scores fitted examples by their recorded out-of-fold answers, must
//!    agree with the alignment's own figures within ±2 accuracy points (they are the same
//!    answers, so exactly). Both checkpoints then answer the other half, which the
//!    alignment never saw. (The learning curve against fresh examples and the baselines is
//!    `benches/learning.rs`.)
//!    Targets: aligned accuracy ≥ zero-shot + 10 points, and ECE ≤ 0.05, on held-out data.
//!    Also printed: coverage at 5% error before and after, and how each recorded abstain
//!    threshold fares on the examples the alignment never saw.
//!    Then the same with 1,500 generated annotated tickets and 2,000 fresh ones held out.
//! 3. Wall time of one alignment over 10,000 annotated examples × 3 questions (generated
//!    by `benches/data/generate.py --count 10000`; needs python3). Target: under 60 s on
//!    2 cores.
//!
//! Run: `cargo bench --bench align` (`ALIGN_PARTS=1,2` or `ALIGN_PARTS=3` for some parts;
//! `ARBITER_LOG=info` shows the alignment's phases).
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::too_many_lines)]

use arbiter::config::Settings;
use arbiter::core::metrics::{self, Metrics, Scored, label_of, predicted_of, scale_of};
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::CreateModel;
use arbiter::core::{self, Context};
use arbiter::engine::builtin::aligned::format::Abstain;
use arbiter::engine::builtin::aligned::outcome_keys;
use arbiter::wire::align::{AlignmentRequest, AlignmentResult, EvaluationRequest};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::io::Cursor;
use std::time::Instant;

#[path = "common/generated.rs"]
mod generated;
use generated::generate;

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/labelled.jsonl"
);
const QUESTIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/questions.yaml"
);

/// The model the bench aligns, as core names it.
fn model() -> arbiter::ids::ModelRef {
    "bench/support".parse().expect("model path")
}

fn context() -> (tempfile::TempDir, Context) {
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = Settings::resolve(Some(dir.path().to_owned())).expect("settings");
    let ctx = Context::new(settings).expect("context");
    core::models::create(
        &ctx,
        &CreateModel {
            path: "bench/support".parse().expect("path"),
            base: "mo".into(),
            questions_yaml: Some(std::fs::read_to_string(QUESTIONS).expect("questions")),
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create the model");
    (dir, ctx)
}

fn ingest(ctx: &Context, lines: &[&str]) {
    let text = lines.join("\n");
    core::examples::ingest(
        ctx,
        &model(),
        "bench",
        &mut Cursor::new(text),
        true,
        &mut |_| {},
    )
    .expect("ingest");
}

fn align(runtime: &tokio::runtime::Runtime, ctx: &Context, seed: u64) -> (AlignmentResult, f64) {
    let started = Instant::now();
    let job = runtime.block_on(async {
        let (_, lock) = core::align::create(
            ctx,
            core::align::NewAlignment {
                model: &model(),
                request: AlignmentRequest {
                    seed,
                    ..AlignmentRequest::default()
                },
            },
            None,
        )
        .expect("create the alignment");
        core::runner::run(ctx, lock, &core::jobs::NoObserver)
            .await
            .expect("run")
    });
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(job.status.as_str(), "completed", "{job:?}");
    (
        match job.result {
            Some(arbiter::wire::jobs::JobResult::Alignment(result)) => *result,
            other => panic!("an alignment result, not {other:?}"),
        },
        seconds,
    )
}

fn main() {
    let _ = tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("ARBITER_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .try_init();
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let text = std::fs::read_to_string(DATA).expect("labelled set");
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let fit_half = |line: &&str| {
        let value: Value = serde_json::from_str(line).expect("a row");
        let id = value["example_id"].as_str().expect("an ID").to_owned();
        Sha256::digest(id.as_bytes())[0] % 2 == 0
    };
    let (fit, held): (Vec<&str>, Vec<&str>) = rows.iter().copied().partition(fit_half);
    // `ALIGN_PARTS=3` runs only the wall-time part (and `1,2` only the quality parts).
    let parts = std::env::var("ALIGN_PARTS").unwrap_or_else(|_| "1,2,3".into());
    let runs = |part: &str| parts.split(',').any(|p| p.trim() == part);
    if runs("1") {
        println!("== 1. the labelled set, split by SHA-256 of the example ID ==");
        experiment(&runtime, &fit, &[("the labelled set's other half", &held)]);
    }
    // The same with more annotations, and a held-out set large enough that ECE is not
    // mostly sampling noise (its standard error at 274 examples is about 0.02 to 0.03).
    let dir = tempfile::tempdir().expect("temp dir");
    if runs("2") {
        let more = generate(dir.path(), 1500, 13);
        let fresh = generate(dir.path(), 2000, 12);
        let more: Vec<&str> = more.lines().collect();
        let fresh: Vec<&str> = fresh.lines().collect();
        println!(
            "\n== 2. 1,500 generated tickets (seed 13) annotated, 2,000 fresh ones (seed 12) held out =="
        );
        experiment(&runtime, &more, &[("fresh tickets", &fresh)]);
    }
    if !runs("3") {
        return;
    }
    let text = generate(dir.path(), 10_000, 11);
    let rows: Vec<&str> = text.lines().collect();
    let (_dir, ctx) = context();
    ingest(&ctx, &rows);
    let (result, seconds) = align(&runtime, &ctx, 7);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    println!(
        "\n== 3. wall time ==\nalignment of {} annotated examples x 3 questions: {seconds:.1}s on {cores} cores (target < 60 s); improved = {}",
        rows.len(),
        result.improved
    );
    for (id, report) in &result.questions {
        println!(
            "  {id}: {} examples used, {} skipped",
            report.examples, report.skipped
        );
    }
}

/// Align on `fit` (seed 7), then compare both checkpoints on each held-out set.
fn experiment(runtime: &tokio::runtime::Runtime, fit: &[&str], held_out: &[(&str, &[&str])]) {
    let (_dir, ctx) = context();
    ingest(&ctx, fit);
    let (result, seconds) = align(runtime, &ctx, 7);
    println!(
        "aligned on {} annotated examples in {seconds:.1}s: improved = {}, branch {}",
        fit.len(),
        result.improved,
        result.branch.as_deref().unwrap_or("-")
    );
    for (id, report) in &result.questions {
        println!(
            "  {id}: {} ({}); gate: {}",
            if report.improved {
                "improved"
            } else {
                "unchanged"
            },
            report.candidate.as_deref().unwrap_or("-"),
            report.reason.as_deref().unwrap_or("passed")
        );
    }
    let base = core::models::load(&ctx, &model(), Some("main")).expect("base");
    let aligned = match &result.branch {
        Some(branch) => core::models::load(&ctx, &model(), Some(branch)).expect("aligned"),
        None => base.clone(),
    };
    if let Some(branch) = &result.branch {
        learned_sizes(&ctx, branch);
        eval_held_out(runtime, &ctx, branch, &result);
    }
    let engine = ctx.engines().get("mo").expect("mo").clone();
    let builtin = engine.as_builtin().expect("built-in");
    for (name, rows) in held_out {
        println!(
            "held-out: {} examples ({name}) the alignment never saw; zero-shot -> aligned",
            rows.len()
        );
        compare(builtin, &base, &aligned, rows, Some(&result));
    }
}

/// How large the learned files are: exemplars are kept as the text the encoder reads.
fn learned_sizes(ctx: &Context, branch: &str) {
    let repo = core::models::open(ctx, &model()).expect("the model");
    let commit = repo.resolve(Some(branch)).expect("the branch").commit;
    let files = repo.read(&commit).expect("the files");
    let sizes: Vec<String> = files
        .aligned
        .iter()
        .map(|(id, text)| {
            let exemplars = text.matches("example_id:").count();
            format!(
                "{id} {:.1} KB ({exemplars} exemplars)",
                text.len() as f64 / 1024.0
            )
        })
        .collect();
    println!(
        "learned files: {}; questions.yaml unchanged ({} bytes)",
        sizes.join(", "),
        files.questions_yaml.len()
    );
}

/// `arbiter eval --revision <branch>` beside the alignment's own figures: fitted examples
/// are scored by the out-of-fold answers the alignment recorded, so they must agree.
/// Target: within ±2 accuracy points for every aligned question.
fn eval_held_out(
    runtime: &tokio::runtime::Runtime,
    ctx: &Context,
    branch: &str,
    result: &AlignmentResult,
) {
    let job = runtime.block_on(async {
        let (_, lock) = core::eval::create(
            ctx,
            core::eval::NewEvaluation {
                model: &model(),
                request: EvaluationRequest {
                    revision: Some(branch.to_owned()),
                    ..EvaluationRequest::default()
                },
            },
            None,
        )
        .expect("create the evaluation");
        core::runner::run(ctx, lock, &core::jobs::NoObserver)
            .await
            .expect("run")
    });
    let Some(arbiter::wire::jobs::JobResult::Evaluation(report)) = job.result else {
        panic!("an evaluation report, not {:?}", job.result);
    };
    println!("eval at the aligned checkpoint (fitted examples by their out-of-fold answers):");
    for (id, aligned) in result.questions.iter().filter(|(_, r)| r.improved) {
        let (Some(evaluated), Some(own)) = (report.questions.get(id), &aligned.after) else {
            continue;
        };
        let Some(metrics) = &evaluated.out_of_fold else {
            println!(
                "  {id:<9} not evaluated: {}",
                evaluated.reason.as_deref().unwrap_or("nothing to score")
            );
            continue;
        };
        let points = (metrics.accuracy - own.accuracy) * 100.0;
        println!(
            "  {id:<9} {} fitted examples, scored out of fold: accuracy {:.3} vs the alignment's own {:.3}: {points:+.1} points ({})",
            metrics.examples,
            metrics.accuracy,
            own.accuracy,
            if points.abs() <= 2.0 {
                "target within ±2: met"
            } else {
                "target within ±2: NOT met"
            }
        );
    }
}

/// Both checkpoints over `rows`: one line of figures per question and the targets.
fn compare(
    builtin: &arbiter::engine::builtin::BuiltinEngine,
    base: &arbiter::core::models::Loaded,
    aligned: &arbiter::core::models::Loaded,
    held: &[&str],
    result: Option<&AlignmentResult>,
) {
    println!(
        "  {:<9} {:>9} {:>17} {:>15} {:>15} {:>13}",
        "question", "metric", "loss", "accuracy", "ECE", "macro-F1"
    );
    let mut accuracy_gain = Vec::new();
    let mut aligned_ece = Vec::new();
    let rows: Vec<Value> = held
        .iter()
        .map(|line| serde_json::from_str(line).expect("a row"))
        .collect();
    let started = Instant::now();
    let states: Vec<_> = rows
        .iter()
        .map(|row| builtin.embed_state(&row["state"]).expect("embed"))
        .collect();
    let embedding = started.elapsed().as_secs_f64() / rows.len() as f64;
    let (mut zero_shot_time, mut aligned_time) = (0.0, 0.0);
    for (id, question) in &base.questions {
        let kind = &question.kind;
        let outcomes = outcome_keys(kind).len();
        let mut before = Vec::new();
        let mut after = Vec::new();
        for (row, state) in rows.iter().zip(&states) {
            let Some(label) = label_of(kind, &row["annotations"][id]["answer"]) else {
                continue;
            };
            let t = Instant::now();
            let (a, _) = builtin.answer(state, question).expect("answer");
            zero_shot_time += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let (b, _) = builtin
                .answer(state, &aligned.questions[id])
                .expect("answer");
            aligned_time += t.elapsed().as_secs_f64();
            before.push(Scored {
                predicted: predicted_of(&a, outcomes),
                label: label.clone(),
            });
            after.push(Scored {
                predicted: predicted_of(&b, outcomes),
                label,
            });
        }
        let (b, a) = (
            Metrics::compute(scale_of(kind), outcomes, &before),
            Metrics::compute(scale_of(kind), outcomes, &after),
        );
        println!(
            "  {id:<9} {:>9} {:>7.4} -> {:>6.4} {:>6.3} -> {:>5.3} {:>6.3} -> {:>5.3} {:>5.3} -> {:>5.3}",
            b.metric, b.loss, a.loss, b.accuracy, a.accuracy, b.ece, a.ece, b.macro_f1, a.macro_f1
        );
        let confidence = |all: &[Scored]| {
            all.iter()
                .map(|s| s.predicted.iter().copied().fold(0.0, f64::max))
                .sum::<f64>()
                / all.len().max(1) as f64
        };
        println!(
            "  {:<9} mean confidence {:.3} -> {:.3} (accuracy {:.3} -> {:.3})",
            "",
            confidence(&before),
            confidence(&after),
            b.accuracy,
            a.accuracy
        );
        // Selective prediction: how much can be answered at 5% error, and how the
        // checkpoint's own threshold (chosen on the alignment's held-out examples) fares on
        // examples it never saw.
        let (cb, ca) = (
            metrics::coverage(&before, 0.05),
            metrics::coverage(&after, 0.05),
        );
        println!(
            "  {:<9} coverage at 5% error: {:.3} -> {:.3}",
            "", cb.coverage, ca.coverage
        );
        if let Some(rule) = Abstain::of(aligned.questions[id].instructions.as_ref()) {
            let kept: Vec<&Scored> = after
                .iter()
                .filter(|s| s.confidence() >= rule.below)
                .collect();
            let wrong = kept.iter().filter(|s| !s.correct()).count();
            println!(
                "  {:<9} abstain below {:.3}: answers {:.3} of these at error {:.3} (chosen for 0.05, answering {:.3}, on its held-out examples)",
                "",
                rule.below,
                kept.len() as f64 / after.len().max(1) as f64,
                wrong as f64 / kept.len().max(1) as f64,
                rule.coverage.unwrap_or(0.0)
            );
        }
        if let Some(report) = result.and_then(|r| r.questions.get(id))
            && let (Some(rb), Some(ra)) = (&report.before, &report.after)
        {
            println!(
                "  {:<9} alignment's own held-out estimate: {:.4} -> {:.4}, accuracy {:.3} -> {:.3}, ECE {:.3} -> {:.3}",
                "", rb.loss, ra.loss, rb.accuracy, ra.accuracy, rb.ece, ra.ece
            );
        }
        accuracy_gain.push(a.accuracy - b.accuracy);
        aligned_ece.push(a.ece);
    }
    let mean_gain = accuracy_gain.iter().sum::<f64>() / accuracy_gain.len() as f64;
    let worst_ece = aligned_ece.iter().copied().fold(0.0, f64::max);
    println!(
        "accuracy gain: mean {:+.1} points (per question {}) (target >= +10)",
        mean_gain * 100.0,
        accuracy_gain
            .iter()
            .map(|g| format!("{:+.1}", g * 100.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!("aligned ECE: worst question {worst_ece:.3} (target <= 0.05)");
    let n = rows.len() as f64;
    println!(
        "cost per decision (3 questions, warm caches): state embedding {:.2} ms + answers {:.2} ms \
         zero-shot, {:.2} ms aligned; aligned / zero-shot decision = {:.3}",
        embedding * 1e3,
        zero_shot_time / n * 1e3,
        aligned_time / n * 1e3,
        (embedding + aligned_time / n) / (embedding + zero_shot_time / n)
    );
}
