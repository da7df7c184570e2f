use super::super::test_support::{on_postgres, store};
use super::*;
use serde_json::json;

/// The lease the tests' jobs are owned by.
const ME: &str = "lease-me";

/// A fixed ID per name, so tests read like before.
fn id(name: &str) -> JobId {
    let n = name.bytes().fold(0u128, |a, b| a * 256 + u128::from(b));
    JobId::from(uuid::Uuid::from_u128(n))
}

fn model(n: u128) -> ModelId {
    ModelId::from(uuid::Uuid::from_u128(n))
}

fn job(store: &Store, name: &str) -> JobRecord {
    store
        .insert_job(&NewJob {
            job_id: &id(name),
            model_id: &model(1),
            kind: JobKind::Batch,
            request: &json!({"revision": "main"}),
            total: 3,
            owner: Some(ME),
            shards: &[],
        })
        .unwrap()
}

#[test]
fn a_job_moves_through_its_statuses_and_stays_finished() {
    let store = store();
    let j1 = id("j1");
    let queued = job(&store, "j1");
    assert_eq!(queued.state, JobState::Queued);
    assert_eq!(queued.request, json!({"revision": "main"}));
    assert!(store.start_job(&j1, ME, 3).unwrap());
    assert!(!store.set_job_progress(&j1, ME, (3, 2, 1)).unwrap());
    let running = store.get_job(&j1).unwrap().unwrap();
    assert_eq!(
        (running.state.status(), running.done, running.failed),
        (JobStatus::Running, 2, 1)
    );
    assert!(running.state.started_at().is_some());
    let completed = Outcome::Completed {
        result: JobResult::Batch(crate::wire::jobs::BatchSummary {
            items: 3,
            ..Default::default()
        }),
    };
    assert!(store.finish_job(&j1, ME, &completed, Some((3, 1))).unwrap());
    // A late cancel or a second finish changes nothing.
    let after = store.cancel_job(&j1).unwrap().unwrap();
    assert_eq!(after.state.status(), JobStatus::Completed);
    assert!(
        !store
            .finish_job(&j1, ME, &Outcome::Cancelled, None)
            .unwrap()
    );
    let done = store.get_job(&j1).unwrap().unwrap();
    assert_eq!((done.done, done.state.outcome()), (3, Some(&completed)));
    assert!(!store.start_job(&j1, ME, 3).unwrap());
}

/// What reading job `id` fails with once its `column` holds `text`.
fn read_after(store: &Store, id: &JobId, column: &str, text: &str) -> StoreError {
    store
        .conn()
        .unwrap()
        .db()
        .execute(
            &format!("UPDATE jobs SET {column} = ?1 WHERE job_id = ?2"),
            params![text, id.to_string()],
        )
        .unwrap();
    store.get_job(id).unwrap_err()
}

/// A completed job's result is read as its kind's: one that does not fit is a corrupt
/// store, said where, not a result passed on for a caller to trip over.
#[test]
fn a_result_that_does_not_fit_its_kind_is_a_corrupt_store() {
    let store = store();
    let j1 = id("j1");
    job(&store, "j1");
    assert!(store.start_job(&j1, ME, 3).unwrap());
    let completed = Outcome::Completed {
        result: JobResult::Batch(crate::wire::jobs::BatchSummary::default()),
    };
    assert!(store.finish_job(&j1, ME, &completed, None).unwrap());
    let error = read_after(&store, &j1, "result", r#"{"items": 3}"#);
    assert!(
        matches!(&error, StoreError::Corrupt { what, reason }
            if *what == format!("result of job {j1}") && reason.contains("succeeded")),
        "{error}"
    );
}

/// A job's times are read as times: one that is not is a corrupt store, said where.
#[test]
fn a_time_that_is_no_time_is_a_corrupt_store() {
    let store = store();
    let j1 = id("j1");
    let queued = job(&store, "j1");
    assert_eq!(
        queued.created_at.to_string().len(),
        "2026-12-06T08:08:56.123Z".len()
    );
    let error = read_after(&store, &j1, "created_at", "yesterday");
    assert!(
        matches!(&error, StoreError::Corrupt { what, reason }
            if *what == format!("createdAt of job {j1}") && reason.contains("`yesterday`")),
        "{error}"
    );
}

#[test]
fn a_failed_job_keeps_its_problem() {
    let store = store();
    job(&store, "f");
    let problem: Problem = serde_json::from_value(json!({
        "type": "/problems/internal", "title": "Internal error", "status": 500,
        "detail": "boom", "code": "internal", "requestId": "r"
    }))
    .unwrap();
    let failed = Outcome::Failed { problem };
    assert!(store.finish_job(&id("f"), ME, &failed, None).unwrap());
    let record = store.get_job(&id("f")).unwrap().unwrap();
    assert_eq!(record.state.outcome(), Some(&failed));
    assert_eq!(record.state.started_at(), None);
}

#[test]
fn cancel_ends_a_queued_job_and_flags_a_running_one() {
    let store = store();
    let (queued_id, running_id) = (id("queued"), id("running"));
    job(&store, "queued");
    job(&store, "running");
    store.start_job(&running_id, ME, 3).unwrap();
    let queued = store.cancel_job(&queued_id).unwrap().unwrap();
    assert_eq!(queued.state.outcome(), Some(&Outcome::Cancelled));
    assert!(queued.state.finished_at().is_some());
    assert!(!store.start_job(&queued_id, ME, 3).unwrap());
    let running = store.cancel_job(&running_id).unwrap().unwrap();
    assert_eq!(running.state.status(), JobStatus::Running);
    assert!(running.cancel_requested);
    assert!(store.set_job_progress(&running_id, ME, (3, 1, 0)).unwrap());
    assert!(store.job_cancel_requested(&running_id).unwrap());
    assert!(store.cancel_job(&id("nope")).unwrap().is_none());
}

#[test]
fn jobs_are_listed_newest_first_by_model_and_status() {
    let store = store();
    job(&store, "a");
    job(&store, "b");
    store
        .insert_job(&NewJob {
            job_id: &id("c"),
            model_id: &model(2),
            kind: JobKind::Batch,
            request: &json!({}),
            total: 0,
            owner: Some(ME),
            shards: &[],
        })
        .unwrap();
    store.start_job(&id("b"), ME, 3).unwrap();
    let ids = |jobs: Vec<JobRecord>| jobs.into_iter().map(|j| j.job_id).collect::<Vec<_>>();
    let all = store.list_jobs(&JobFilter::default()).unwrap();
    assert_eq!(ids(all), [id("c"), id("b"), id("a")]);
    let m1 = store
        .list_jobs(&JobFilter {
            model_id: Some(&model(1)),
            ..JobFilter::default()
        })
        .unwrap();
    assert_eq!(ids(m1), [id("b"), id("a")]);
    let active = store
        .list_jobs(&JobFilter {
            statuses: &[JobStatus::Queued, JobStatus::Running],
            limit: 2,
            ..JobFilter::default()
        })
        .unwrap();
    assert_eq!(ids(active), [id("c"), id("b")]);
    let prefixed = |prefix: &str| {
        ids(store
            .list_jobs(&JobFilter {
                id_prefix: Some(prefix),
                ..JobFilter::default()
            })
            .unwrap())
    };
    let b = id("b").to_string();
    // The three IDs differ only in their last digit.
    assert_eq!(prefixed(&b[..35]).len(), 3);
    assert_eq!(prefixed(&b), [id("b")]);
    assert!(prefixed("%").is_empty());
    assert_eq!(prefixed("").len(), 3);
}

#[test]
fn a_job_is_claimed_from_a_dead_owner_and_then_only_the_new_owner_writes() {
    let store = store();
    let (a, b) = (id("a"), id("b"));
    job(&store, "a");
    job(&store, "b");
    assert!(store.start_job(&a, ME, 3).unwrap());
    // ME died: another lease claims what `claimable` gives it, oldest first.
    let mut asked = Vec::new();
    let claimed = store
        .claim_jobs("lease-new", None, &mut |job, owner| {
            asked.push((*job, owner.map(str::to_owned)));
            *job == a
        })
        .unwrap();
    assert_eq!(claimed, [a]);
    assert_eq!(asked, [(a, Some(ME.to_owned())), (b, Some(ME.to_owned()))]);
    assert_eq!(
        store.get_job(&a).unwrap().unwrap().owner.as_deref(),
        Some("lease-new")
    );
    // The old owner is fenced out of every write; the new one goes on.
    assert!(
        store.set_job_progress(&a, ME, (3, 1, 0)).unwrap(),
        "must stop"
    );
    assert!(!store.finish_job(&a, ME, &Outcome::Cancelled, None).unwrap());
    assert!(!store.set_job_progress(&a, "lease-new", (3, 1, 0)).unwrap());
    // Only the one job asked for, and a finished job is never claimed.
    let only_b = store
        .claim_jobs("lease-new", Some(&b), &mut |_, _| true)
        .unwrap();
    assert_eq!(only_b, [b]);
    store
        .finish_job(&b, "lease-new", &Outcome::Cancelled, None)
        .unwrap();
    assert!(
        store
            .claim_jobs("x", Some(&b), &mut |_, _| true)
            .unwrap()
            .is_empty()
    );
    // Released, a job is unowned until someone claims it.
    store.release_job(&a, "lease-new").unwrap();
    assert_eq!(store.get_job(&a).unwrap().unwrap().owner, None);
}

#[test]
fn the_same_tests_on_postgres() {
    on_postgres!(
        a_job_is_claimed_from_a_dead_owner_and_then_only_the_new_owner_writes,
        a_job_moves_through_its_statuses_and_stays_finished,
        a_failed_job_keeps_its_problem,
        cancel_ends_a_queued_job_and_flags_a_running_one,
        jobs_are_listed_newest_first_by_model_and_status
    );
}
