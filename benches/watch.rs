//! `eval --watch`'s re-run against a cold run, in one process as the watch is.
//!
//! A repository model on `mo` with the support questions and 500 annotated examples (the
//! first 500 of `examples/support/labelled.jsonl`, every question annotated). Baseline: the
//! first evaluation of the questions as a working copy (`eval --questions-file`, against the
//! revision), cold: no state embedded, no answer cached. Measured: the evaluation again after
//! one question's instructions were edited, as the watch runs it at the next save: the
//! states are embedded (the engine's in-process state cache), and every other question's
//! answers are in the answer cache, so only the edited question is decided.
//! Targets: re-score ≤ 2 s, and ≤ 0.1 × the cold score.
//!
//! Then a watch started again in a new process (a new context on the same home: the
//! answers are in the store's answer cache, the engine's state cache is empty), as
//! `eval --watch` runs it: its first run from the answer cache, reading every state
//! (`warm_states`), and its first save (another edit of urgency). Target: that save, too,
//! ≤ 2 s (when the first run did not read the states, the first save read every one: 26 s
//! in the issue that found it).
//!
//! Prints `watch_cold_s=X watch_rescore_s=Y ratio=Z` for scripts, and the targets.
//! Run: `cargo bench --bench watch` (`WATCH_EXAMPLES=N` to change the 500).
#![allow(clippy::print_stdout)]

use arbiter::config::Settings;
use arbiter::core::jobs::NoObserver;
use arbiter::core::model_files::{CapturePolicy, parse_questions_yaml};
use arbiter::core::models::CreateModel;
use arbiter::core::{self, Context};
use arbiter::wire::Questions;
use arbiter::wire::align::{EvaluationReport, EvaluationRequest};
use arbiter::wire::jobs::JobResult;
use std::io::Cursor;
use std::time::Instant;

const QUESTIONS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/questions.yaml"
);
const LABELLED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/support/labelled.jsonl"
);
const URGENCY: &str =
    "How urgently does this ticket need a response, judged by its consequences for the customer?";

fn model() -> arbiter::ids::ModelRef {
    "acme/support".parse().expect("model path")
}

/// Evaluate `draft` as a working copy of the default branch: (seconds, report).
fn evaluate(
    runtime: &tokio::runtime::Runtime,
    ctx: &Context,
    draft: &Questions,
    warm_states: bool,
) -> (f64, EvaluationReport) {
    let started = Instant::now();
    let job = runtime.block_on(async {
        let (_, claim) = core::eval::create(
            ctx,
            core::eval::NewEvaluation {
                model: &model(),
                request: EvaluationRequest {
                    working_questions: Some(draft.clone()),
                    warm_states,
                    ..EvaluationRequest::default()
                },
            },
            None,
        )
        .expect("create the evaluation");
        core::runner::run(ctx, claim, &NoObserver)
            .await
            .expect("run")
    });
    let secs = started.elapsed().as_secs_f64();
    match job.result {
        Some(JobResult::Evaluation(report)) => (secs, *report),
        other => panic!("an evaluation report, not {other:?}"),
    }
}

fn main() {
    let examples: usize = std::env::var("WATCH_EXAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(500);
    let runtime = tokio::runtime::Runtime::new().expect("runtime");
    let home = tempfile::tempdir().expect("temp dir");
    let ctx = Context::new(Settings::resolve(Some(home.path().to_owned())).expect("settings"))
        .expect("context");
    let committed = std::fs::read_to_string(QUESTIONS).expect("questions.yaml");
    core::models::create(
        &ctx,
        &CreateModel {
            path: "acme/support".parse().expect("model path"),
            base: "mo".into(),
            questions_yaml: Some(committed.clone()),
            gates_yaml: None,
            capture: CapturePolicy::default(),
            message: None,
        },
    )
    .expect("create the model");
    let labelled = std::fs::read_to_string(LABELLED).expect("labelled set");
    let lines: Vec<&str> = labelled.lines().take(examples).collect();
    assert_eq!(lines.len(), examples, "the labelled set has fewer examples");
    core::examples::ingest(
        &ctx,
        &model(),
        "bench",
        &mut Cursor::new(lines.join("\n")),
        true,
        &mut |_| {},
    )
    .expect("ingest");

    let draft = parse_questions_yaml(&committed).expect("the questions");
    let edited_text = committed.replace(URGENCY, "How soon must someone answer this ticket?");
    assert_ne!(edited_text, committed);
    let edited = parse_questions_yaml(&edited_text).expect("the edited questions");

    let (cold, first) = evaluate(&runtime, &ctx, &draft, false);
    let (rescore, second) = evaluate(&runtime, &ctx, &edited, false);
    let ratio = rescore / cold;
    println!(
        "{examples} annotated examples x {} questions; the edit: urgency's instructions",
        draft.len()
    );
    println!(
        "cold score:  {cold:.3} s ({} examples decided, {} wholly from the cache)",
        first.decided, first.cached
    );
    println!(
        "re-score:    {rescore:.3} s ({} examples decided again, for the edited question; {} wholly from the cache)",
        second.decided, second.cached
    );
    println!("watch_cold_s={cold:.3} watch_rescore_s={rescore:.3} ratio={ratio:.3}");
    let fast = rescore <= 2.0;
    let relative = ratio <= 0.1;
    println!(
        "target re-score <= 2 s: {}; target re-score <= 0.1 x cold: {}",
        if fast { "met" } else { "MISSED" },
        if relative { "met" } else { "MISSED" }
    );

    // A new process on the same home: the answers cached, no state embedded.
    let restarted =
        Context::new(Settings::resolve(Some(home.path().to_owned())).expect("settings"))
            .expect("context");
    let (first_run, warmed) = evaluate(&runtime, &restarted, &edited, true);
    let again = committed.replace(URGENCY, "How fast does this ticket need an answer?");
    let again = parse_questions_yaml(&again).expect("the edited questions");
    let (first_save, saved) = evaluate(&runtime, &restarted, &again, false);
    println!(
        "restarted:   first run {first_run:.3} s ({} wholly from the cache, every state read), first save {first_save:.3} s ({} decided again)",
        warmed.cached, saved.decided
    );
    println!(
        "watch_restarted_first_run_s={first_run:.3} watch_restarted_first_save_s={first_save:.3}"
    );
    let restarted_fast = first_save <= 2.0;
    println!(
        "target first save after a restart <= 2 s: {}",
        if restarted_fast { "met" } else { "MISSED" }
    );
    assert!(fast && relative && restarted_fast, "a target was missed");
}
