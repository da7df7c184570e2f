use super::*;
use crate::core::batch::NewBatch;
use crate::core::jobs::NoObserver;
use crate::core::requests::BatchItems;
use crate::store::JobPart;
use serde_json::json;

/// A new home with the model `acme/support` (one noul question, capture on).
fn home_with_model() -> (tempfile::TempDir, Context) {
    let (home, ctx, _) = crate::core::test_support::home_with_model(
        crate::core::model_files::CapturePolicy::default(),
    );
    (home, ctx)
}

/// A batch of `items` on `acme/support`, recorded and claimed, not yet run.
fn batch_of(
    ctx: &Context,
    items: Vec<serde_json::Value>,
    capture: bool,
) -> (Job, crate::core::jobs::JobClaim) {
    crate::core::batch::create(
        ctx,
        NewBatch {
            model: &"acme/support".parse().unwrap(),
            revision: None,
            questions: None,
            capture,
            working_questions: None,
            items: BatchItems::Given(crate::wire::jobs::BatchItems::Inline(items)),
        },
        None,
    )
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_whose_staged_input_is_gone_fails_saying_so() {
    let (_home, ctx) = home_with_model();
    let items = vec![
        json!({"state": "a"}),
        json!({"state": "b"}),
        json!({"state": "c"}),
    ];
    let (job, claim) = batch_of(&ctx, items, false);
    ctx.store().unwrap().delete_job_lines(&job.job_id).unwrap();
    let ended = run(&ctx, claim, &NoObserver).await.unwrap();
    assert_eq!(ended.status.as_str(), "failed", "{ended:?}");
    let detail = ended.error.unwrap().detail;
    assert!(detail.contains("0 of its 3 staged input lines"), "{detail}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_captured_job_whose_captures_fail_stops_instead_of_answering_unrecorded() {
    let (home, ctx) = home_with_model();
    // A real fault of the real store: every capture is refused, results are not.
    let store = ctx.store().unwrap();
    rusqlite::Connection::open(home.path().join("arbiter.db"))
        .unwrap()
        .execute_batch(
            "CREATE TRIGGER refuse_captures BEFORE INSERT ON decisions
             BEGIN SELECT RAISE(ABORT, 'injected capture fault'); END;",
        )
        .unwrap();
    let items = vec![json!({"state": "a"}), json!({"state": "b"})];
    let (job, claim) = batch_of(&ctx, items, true);
    let failed = "arbiter_captures_total{result=\"failed\"}";
    let failed_before = crate::telemetry::metrics::now(failed);
    let ended = run(&ctx, claim, &NoObserver).await.unwrap();
    // Counted (other tests running at once may add theirs).
    assert!(crate::telemetry::metrics::now(failed) - failed_before >= 1.0);
    // Not `completed` with its items answered unrecorded: a captured job's item is
    // captured, or the job stops where it could not be.
    assert_eq!(ended.status.as_str(), "failed", "{ended:?}");
    let detail = ended.error.unwrap().detail;
    assert!(detail.contains("injected capture fault"), "{detail}");
    assert_eq!(ended.progress.done, 0, "{:?}", ended.progress);
    assert!(
        store
            .job_lines(&job.job_id, JobPart::Results, 0, 10)
            .unwrap()
            .is_empty()
    );
    let recorded: (i64, i64) = rusqlite::Connection::open(home.path().join("arbiter.db"))
        .unwrap()
        .query_row(
            "SELECT (SELECT count(*) FROM examples), (SELECT count(*) FROM decisions)",
            [],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )
        .unwrap();
    assert_eq!(recorded, (0, 0), "nothing of a refused capture is written");
}

/// The states `mo`'s engine of `ctx` holds embedded.
fn states_held(ctx: &Context) -> usize {
    let engine = ctx.engines().get("mo").unwrap();
    engine.as_builtin().unwrap().embedder().states().len()
}

/// An evaluation asked to warm the states (`eval --watch`'s first run) reads every state
/// into the engine's state cache even when every answer comes from the answer cache, as in
/// a process started after another evaluated: without it, none is read, and the first
/// edit after a restart read them all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warming_evaluation_reads_every_state_even_from_cached_answers() {
    let (home, ctx) = home_with_model();
    let lines: Vec<String> = (0..6)
        .map(|i| {
            json!({"example_id": format!("t{i}"), "state": format!("ticket {i}: please refund order {i}"),
                   "annotations": {"refund": {"answer": i % 2 == 0}}})
            .to_string()
        })
        .collect();
    let lines = lines.join("\n");
    crate::core::examples::ingest(
        &ctx,
        &"acme/support".parse().unwrap(),
        "test",
        &mut std::io::Cursor::new(lines),
        true,
        &mut |_| {},
    )
    .unwrap();
    let evaluate = |ctx: Context, warm_states: bool| async move {
        let (_, claim) = crate::core::eval::create(
            &ctx,
            crate::core::eval::NewEvaluation {
                model: &"acme/support".parse().unwrap(),
                request: crate::wire::align::EvaluationRequest {
                    warm_states,
                    ..Default::default()
                },
            },
            None,
        )
        .unwrap();
        let ended = run(&ctx, claim, &NoObserver).await.unwrap();
        assert_eq!(ended.status.as_str(), "completed", "{ended:?}");
        ctx
    };
    // The answers cached by a first process.
    evaluate(ctx, false).await;
    let fresh = || crate::core::test_support::context_at(home.path());
    let cold = evaluate(fresh(), false).await;
    assert_eq!(
        states_held(&cold),
        0,
        "answers from the cache read no state"
    );
    let warmed = evaluate(fresh(), true).await;
    assert_eq!(states_held(&warmed), 6, "every state read once");
}
