use super::super::test_support::{on_postgres, store};
use super::*;
use crate::ids::ModelId;
use crate::store::{Fence, JobState, NewJob, Outcome};
use crate::wire::jobs::{JobKind, JobStatus};
use std::collections::HashSet;

/// A batch job of `shards` shards of 10 lines each.
fn sharded_job(store: &Store, shards: u64) -> JobId {
    let job_id = JobId::new_v4();
    let plan: Vec<NewShard> = (0..shards)
        .map(|i| NewShard {
            part: JobPart::Results,
            first: i * 10,
            lines: 10,
        })
        .collect();
    store
        .insert_job(&NewJob {
            job_id: &job_id,
            model_id: &ModelId::from(uuid::Uuid::from_u128(1)),
            kind: JobKind::Batch,
            request: &serde_json::json!({}),
            total: shards * 10,
            owner: None,
            shards: &plan,
        })
        .unwrap();
    job_id
}

/// Claim the next shard for lease `me`, counting every other owner as `alive`.
fn claim(store: &Store, me: &str, alive: &[&str]) -> Option<Shard> {
    let taken = store
        .claim_shard((me, &format!("worker-{me}")), None, &mut |_, _, owner| {
            owner.is_none_or(|owner| owner != me && !alive.contains(&owner))
        })
        .unwrap();
    match taken {
        Some(TakenShard::Shard(shard)) => Some(shard),
        Some(TakenShard::Cancelled(job)) => panic!("job {job} ended cancelled"),
        None => None,
    }
}

fn stats(done: u64, failed: u64) -> ShardStats {
    ShardStats {
        done,
        failed,
        ..ShardStats::default()
    }
}

#[test]
fn two_claimers_never_get_the_same_shard() {
    let store = store();
    let job_id = sharded_job(&store, 3);
    let a = claim(&store, "a", &["b"]).unwrap();
    let b = claim(&store, "b", &["a"]).unwrap();
    assert_eq!((a.index, b.index), (0, 1));
    assert_eq!((a.first, a.lines, b.first), (0, 10, 10));
    assert_eq!(a.owner.as_deref(), Some("a"));
    assert_eq!(a.worker.as_deref(), Some("worker-a"));
    let running = store.get_job(&job_id).unwrap().unwrap();
    assert_eq!(running.state.status(), JobStatus::Running);
    assert_eq!(claim(&store, "a", &["b"]).unwrap().index, 2);
    assert!(claim(&store, "b", &["a"]).is_none(), "every shard is taken");
    let shards = store.job_shards(&job_id).unwrap();
    assert!(shards.iter().all(|s| s.status == ShardStatus::Running));
    assert_eq!(store.open_shards(&job_id).unwrap(), Some(3));
}

#[test]
fn claimers_at_once_take_every_shard_exactly_once() {
    let store = std::sync::Arc::new(store());
    let job_id = sharded_job(&store, 40);
    let claimers: Vec<_> = ["a", "b", "c", "d"]
        .into_iter()
        .map(|me| {
            let store = store.clone();
            std::thread::spawn(move || {
                let mut mine = Vec::new();
                while let Some(shard) = claim(&store, me, &["a", "b", "c", "d"]) {
                    mine.push(shard.index);
                }
                mine
            })
        })
        .collect();
    let mut all = Vec::new();
    for claimer in claimers {
        all.extend(claimer.join().unwrap());
    }
    all.sort_unstable();
    assert_eq!(all, (0..40).collect::<Vec<_>>());
    let shards = store.job_shards(&job_id).unwrap();
    assert!(shards.iter().all(|s| s.attempts == 1));
}

#[test]
fn a_dead_owners_shard_is_taken_over_alone_and_the_dead_owner_writes_nothing() {
    let store = store();
    let job_id = sharded_job(&store, 2);
    let a0 = claim(&store, "a", &[]).unwrap();
    let b1 = claim(&store, "b", &["a"]).unwrap();
    assert_eq!((a0.index, b1.index), (0, 1));
    // `a` wrote a line of its shard, then died: `c` takes its shard, and only its.
    let line = |i: u64| vec![(i, format!("{{\"index\":{i}}}").into_bytes())];
    let fence = |shard, owner| Fence::Shard { shard, owner };
    assert!(
        store
            .put_job_lines(&job_id, JobPart::Results, fence(0, "a"), &line(0))
            .unwrap()
    );
    let c0 = claim(&store, "c", &["b"]).unwrap();
    assert_eq!((c0.index, c0.attempts), (0, 2));
    assert!(claim(&store, "c", &["b"]).is_none(), "b's shard stays b's");
    assert!(
        !store
            .put_job_lines(&job_id, JobPart::Results, fence(0, "a"), &line(1))
            .unwrap(),
        "a lost its shard"
    );
    assert!(store.record_shard((&job_id, 0, "a"), &stats(2, 0)).unwrap());
    assert_eq!(
        store
            .complete_shard((&job_id, 0, "a"), &stats(10, 0))
            .unwrap(),
        ShardEnd::Lost
    );
    assert!(
        store
            .put_job_lines(&job_id, JobPart::Results, fence(0, "c"), &line(1))
            .unwrap()
    );
    assert!(!store.record_shard((&job_id, 0, "c"), &stats(2, 1)).unwrap());
    assert!(!store.record_shard((&job_id, 1, "b"), &stats(3, 0)).unwrap());
    let job = store.get_job(&job_id).unwrap().unwrap();
    assert_eq!((job.done, job.failed), (5, 1), "the sum of the shards'");
}

#[test]
fn the_last_shard_done_ends_the_job_exactly_once() {
    let store = store();
    let job_id = sharded_job(&store, 2);
    claim(&store, "a", &[]).unwrap();
    claim(&store, "b", &["a"]).unwrap();
    assert_eq!(store.open_shards(&job_id).unwrap(), Some(2));
    // Until every shard is done, the job is no orphan to claim whole.
    let orphans = store.claim_jobs("c", None, &mut |_, _| true).unwrap();
    assert!(orphans.is_empty(), "{orphans:?}");
    assert_eq!(
        store
            .complete_shard((&job_id, 1, "b"), &stats(10, 1))
            .unwrap(),
        ShardEnd::Done
    );
    assert_eq!(
        store
            .complete_shard((&job_id, 1, "b"), &stats(10, 1))
            .unwrap(),
        ShardEnd::Lost,
        "done once"
    );
    assert_eq!(
        store
            .complete_shard((&job_id, 0, "a"), &stats(10, 0))
            .unwrap(),
        ShardEnd::Last
    );
    assert_eq!(store.open_shards(&job_id).unwrap(), Some(0));
    let job = store.get_job(&job_id).unwrap().unwrap();
    assert_eq!(job.owner.as_deref(), Some("a"), "the last one ends it");
    assert_eq!((job.done, job.failed), (20, 1));
    let completed = Outcome::Completed {
        result: crate::wire::jobs::JobResult::Batch(crate::wire::jobs::BatchSummary {
            items: 20,
            ..Default::default()
        }),
    };
    assert!(store.finish_job(&job_id, "a", &completed, None).unwrap());
    assert!(!store.finish_job(&job_id, "a", &completed, None).unwrap());
    assert!(claim(&store, "c", &[]).is_none());
}

#[test]
fn an_orphan_whose_shards_are_done_is_claimed_whole_to_end_it() {
    let store = store();
    let job_id = sharded_job(&store, 1);
    claim(&store, "a", &[]).unwrap();
    assert_eq!(
        store
            .complete_shard((&job_id, 0, "a"), &stats(10, 0))
            .unwrap(),
        ShardEnd::Last
    );
    // A job with no shards recorded (run whole) has none to count.
    let whole = JobId::new_v4();
    assert_eq!(store.open_shards(&whole).unwrap(), None);
    // `a` died before ending the job: anyone claims it, as any orphan.
    let claimed = store.claim_jobs("b", None, &mut |_, _| true).unwrap();
    assert_eq!(claimed, vec![job_id]);
}

#[test]
fn a_cancel_stops_every_shard_and_is_ended_by_whoever_finds_it() {
    let store = store();
    let job_id = sharded_job(&store, 3);
    claim(&store, "a", &[]).unwrap();
    claim(&store, "b", &["a"]).unwrap();
    store.cancel_job(&job_id).unwrap();
    assert!(store.record_shard((&job_id, 0, "a"), &stats(1, 0)).unwrap());
    // `a` sees the cancel and stops; the job is not ended while `b` still runs.
    assert!(!store.end_job_from_shard((&job_id, 0, "a"), None).unwrap());
    let job = store.get_job(&job_id).unwrap().unwrap();
    assert_eq!(job.state.status(), JobStatus::Running);
    // What `b` finished before it stopped is kept and counted; the last to stop ends the
    // job, whose figures are then final.
    let fence = Fence::Shard {
        shard: 1,
        owner: "b",
    };
    let line = vec![(10, b"{\"index\":10}".to_vec())];
    assert!(
        store
            .put_job_lines(&job_id, JobPart::Results, fence, &line)
            .unwrap()
    );
    assert!(store.record_shard((&job_id, 1, "b"), &stats(1, 0)).unwrap());
    assert!(store.end_job_from_shard((&job_id, 1, "b"), None).unwrap());
    let job = store.get_job(&job_id).unwrap().unwrap();
    assert_eq!((job.state.status(), job.done), (JobStatus::Cancelled, 2));
    // Nothing is added once it is: the shards are no longer anyone's.
    let late = vec![(11, b"{\"index\":11}".to_vec())];
    assert!(
        !store
            .put_job_lines(&job_id, JobPart::Results, fence, &late)
            .unwrap()
    );
    assert!(!store.end_job_from_shard((&job_id, 1, "b"), None).unwrap());
    // A cancelled job whose workers all died is ended by the next claimer.
    let other = sharded_job(&store, 2);
    claim(&store, "a", &[]).unwrap();
    store.cancel_job(&other).unwrap();
    let taken = store
        .claim_shard(("c", "worker-c"), None, &mut |_, _, _| true)
        .unwrap();
    assert_eq!(taken, Some(TakenShard::Cancelled(other)));
    let ended = store.get_job(&other).unwrap().unwrap();
    assert!(matches!(ended.state, JobState::Finished { .. }));
}

#[test]
fn a_released_shard_is_claimed_again() {
    let store = store();
    let job_id = sharded_job(&store, 1);
    claim(&store, "a", &[]).unwrap();
    store.release_shard((&job_id, 0, "a")).unwrap();
    let again = claim(&store, "b", &["a"]).unwrap();
    assert_eq!((again.index, again.attempts), (0, 2));
    let seen: HashSet<_> = store
        .job_shards(&job_id)
        .unwrap()
        .into_iter()
        .map(|s| s.owner)
        .collect();
    assert_eq!(seen, HashSet::from([Some("b".to_owned())]));
}

#[test]
fn open_jobs_count_their_pending_shards_and_name_the_running_ones_owners() {
    let store = store();
    let job_id = sharded_job(&store, 3);
    claim(&store, "a", &[]).unwrap();
    // A later job, all of whose shards are running: none pending; the oldest comes first.
    std::thread::sleep(std::time::Duration::from_millis(5));
    let later = sharded_job(&store, 1);
    let taken = store
        .claim_shard(("b", "worker-b"), Some(&later), &mut |_, _, _| true)
        .unwrap();
    assert!(matches!(taken, Some(TakenShard::Shard(_))), "{taken:?}");
    let open = store.open_sharded_jobs().unwrap();
    assert_eq!(
        open,
        vec![
            OpenJob {
                job_id,
                pending: true,
                owners: vec![("a".to_owned(), 0)],
            },
            OpenJob {
                job_id: later,
                pending: false,
                owners: vec![("b".to_owned(), 0)],
            },
        ]
    );
    store
        .complete_shard((&later, 0, "b"), &stats(10, 0))
        .unwrap();
    for shard in 1..3 {
        claim(&store, "a", &[]).unwrap();
        store
            .complete_shard((&job_id, shard, "a"), &stats(10, 0))
            .unwrap();
    }
    store
        .complete_shard((&job_id, 0, "a"), &stats(10, 0))
        .unwrap();
    assert!(store.open_sharded_jobs().unwrap().is_empty());
}

#[test]
fn the_same_tests_on_postgres() {
    on_postgres!(
        two_claimers_never_get_the_same_shard,
        claimers_at_once_take_every_shard_exactly_once,
        a_dead_owners_shard_is_taken_over_alone_and_the_dead_owner_writes_nothing,
        the_last_shard_done_ends_the_job_exactly_once,
        an_orphan_whose_shards_are_done_is_claimed_whole_to_end_it,
        a_cancel_stops_every_shard_and_is_ended_by_whoever_finds_it,
        a_released_shard_is_claimed_again,
        open_jobs_count_their_pending_shards_and_name_the_running_ones_owners
    );
}
