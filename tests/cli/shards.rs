//! Shards: a batch split into runs of items that every process on the store claims. Three
//! `arbiter serve` replicas on one PostgreSQL database share one captured batch, each
//! running some of its shards, and one of them is killed (`kill -9`) in the middle of a
//! shard: the others take that shard over, alone, and the job completes once, with one
//! result line per item in input order and one capture per item. On one machine, with
//! the home's SQLite file, `arbiter serve` and `arbiter jobs work` share a job the same way,
//! and a `jobs work` killed mid-shard loses nothing either.

use crate::common::Served;
use crate::common::{QUESTIONS, TestEnv, runtime, wait_until};
use crate::shared_store::{
    MODEL, StartedBatch, assert_once_per_item, homes_on, poll_until_finished, start_batch,
};
use std::collections::BTreeMap;
use std::io::Read;
use std::process::Stdio;
use std::time::Duration;

/// Small shards, so a job of a few thousand items has dozens of them.
fn shard_config(env: &TestEnv, size: usize) {
    std::fs::write(
        env.home().join("config.yaml"),
        format!("server:\n  shard_size: {size}\n"),
    )
    .unwrap();
}

/// The worker name (`host:pid`) each process gives itself: its pid after the colon.
fn pid_of(worker: &str) -> u32 {
    worker.rsplit(':').next().unwrap().parse().unwrap()
}

/// `(done, running and in their first half)` shards of `job_id` (of 100 items) that the
/// process `pid` runs or ran, read from the shared database: a process killed in the first
/// half of a shard is killed in it, not between two.
fn shards_of(database: &str, job_id: &str, pid: u32) -> (i64, i64) {
    let mut db = postgres::Client::connect(database, postgres::NoTls).unwrap();
    let row = db
        .query_one(
            "SELECT count(*) FILTER (WHERE status = 'done'),
                    count(*) FILTER (WHERE status = 'running' AND done BETWEEN 1 AND 50)
             FROM job_shards WHERE job_id = $1 AND worker LIKE $2",
            &[&job_id, &format!("%:{pid}")],
        )
        .unwrap();
    (row.get(0), row.get(1))
}

/// The pids of the processes that ran the job's shards.
fn worker_pids(job: &serde_json::Value) -> Vec<u32> {
    job["shards"]["workers"]
        .as_object()
        .unwrap()
        .keys()
        .map(|worker| pid_of(worker))
        .collect()
}

/// Ready once a process has `(done, in the first half)` shards of at least one each: it is
/// then in the middle of a shard, and killed there, not between two.
fn in_a_shard(counts: (i64, i64), who: &str) -> Result<(), String> {
    match counts {
        (done, started) if done >= 1 && started >= 1 => Ok(()),
        counts => Err(format!("{who} has (done, half-started) shards {counts:?}")),
    }
}

/// The job completed with every item done and every one of its `shards` done, one of them
/// taken over from the killed process.
fn assert_completed_with_a_takeover(job: &serde_json::Value, total: usize, shards: u64) {
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["progress"]["done"], total, "{job}");
    assert_eq!(job["shards"]["total"], shards, "{job}");
    assert_eq!(job["shards"]["done"], shards, "{job}");
    assert!(job["shards"]["takenOver"].as_u64() >= Some(1), "{job}");
}

/// The survivors' `logs`: a dead worker's shard was taken over, and the job was ended
/// once, by the worker that completed its last shard.
fn assert_taken_over_and_ended_once(logs: &str) {
    assert!(
        logs.contains("taking over a shard whose worker died"),
        "{logs}"
    );
    let ended = logs
        .matches("job ended by the worker of its last shard")
        .count();
    assert_eq!(ended, 1, "{logs}");
}

#[test]
fn three_replicas_share_a_captured_batch_and_one_killed_mid_shard_loses_nothing() {
    let Some(database) = arbiter_testing::postgres::database() else {
        return;
    };
    let (a, b, shared, model_id) = homes_on(database);
    let c = TestEnv::new();
    for env in [&a, &b, &c] {
        shard_config(env, 100);
    }
    let token = shared.token(&a, "shards", &["batches"], "acme/*=writer");
    let served_a = a.spawn_serve_with(|cmd| shared.configure(cmd));
    let served_b = b.spawn_serve_with(|cmd| shared.configure(cmd));
    let served_c = c.spawn_serve_with(|cmd| shared.configure(cmd));
    let runtime = runtime();
    let client = Served::client();
    let total = 3000;
    let key = "shard-0001";
    let StartedBatch { id: job_id, path } = runtime.block_on(start_batch(
        &client, &served_a, &token, &model_id, total, key,
    ));
    // Replica `c` (not the one the job was submitted to) has finished a shard and is in
    // the middle of another: it is killed there.
    let victim = served_c.pid;
    wait_until(Duration::from_mins(3), Duration::from_millis(50), || {
        in_a_shard(shards_of(&shared.database, &job_id, victim), "replica c")
    });
    let log_c = served_c.kill_9();
    let job = runtime.block_on(poll_until_finished(
        &served_b,
        &token,
        &path,
        Duration::from_mins(4),
    ));
    assert_eq!(job["status"], "completed", "{job}\nreplica c:\n{log_c}");
    assert_eq!(job["result"]["items"], total, "{job}");
    // Every replica ran shards, the killed one included (those it completed stay its),
    // and the shard it was killed in was taken over.
    assert_completed_with_a_takeover(&job, total, 30);
    let shards = &job["shards"];
    let workers: BTreeMap<u32, u64> = shards["workers"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(worker, n)| (pid_of(worker), n.as_u64().unwrap()))
        .collect();
    for served in [served_a.pid, served_b.pid, victim] {
        assert!(workers.get(&served) >= Some(&1), "{served}: {job}");
    }
    // Results once each, in input order, through either survivor; one capture per item.
    assert_once_per_item(&runtime, &served_a, &token, &path, (&shared, key, total));
    drop(runtime);
    let mut logs = String::new();
    for served in [served_a, served_b] {
        let (exit, log) = served.stop();
        assert_eq!(exit.code(), Some(0), "{log}");
        logs.push_str(&log);
    }
    assert_taken_over_and_ended_once(&logs);
}

/// A home with small shards, the model, a `batches` token for it and the model's ID.
fn local_home(shard_size: usize) -> (TestEnv, String, String) {
    let env = TestEnv::new();
    shard_config(&env, shard_size);
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model(MODEL, "mo", &questions);
    let token = env.json(&[
        "tokens",
        "create",
        "--name",
        "t",
        "--scope",
        "batches",
        "--role",
        "acme/*=writer",
    ])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let model_id = env.json(&["models", "show", MODEL])["modelId"]
        .as_str()
        .unwrap()
        .to_owned();
    (env, token, model_id)
}

/// `arbiter jobs work --slots 1` in `env`, its log piped.
fn jobs_work(env: &TestEnv) -> std::process::Child {
    env.std_cmd()
        .args(["jobs", "work", "--slots", "1"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Stop a `jobs work` process with SIGTERM: its exit status and its log.
fn stop_worker(mut worker: std::process::Child) -> (std::process::ExitStatus, String) {
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &worker.id().to_string()])
        .status();
    let exit = wait_until(Duration::from_secs(30), Duration::from_millis(50), || {
        worker
            .try_wait()
            .unwrap()
            .ok_or_else(|| "jobs work has not exited".to_owned())
    });
    let mut log = String::new();
    worker
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut log)
        .unwrap();
    (exit, log)
}

/// `(decisions, distinct examples)` captured for the batch keyed `key`, in `env`'s store.
fn captures(env: &TestEnv, key: &str) -> (i64, i64) {
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    db.query_row(
        "SELECT count(*), count(DISTINCT example_id) FROM decisions WHERE example_id LIKE ?1",
        [format!("{key}-%")],
        |row| Ok((row.get(0)?, row.get(1)?)),
    )
    .unwrap()
}

/// On one machine: `arbiter serve` and two `arbiter jobs work` share a captured batch
/// through the home's SQLite file; one worker is killed (`kill -9`) in the middle of a
/// shard. The others take that shard over once its lease lapses, and the job completes
/// once, with every item's result once, in input order, and one capture each.
#[test]
fn a_local_worker_killed_mid_shard_loses_nothing() {
    let (env, token, model_id) = local_home(30);
    let served = env.spawn_serve();
    let (victim, survivor) = (jobs_work(&env), jobs_work(&env));
    let total = 300;
    let key = "local-kill-0001";
    let runtime = runtime();
    let client = Served::client();
    let StartedBatch { id: job_id, path } =
        runtime.block_on(start_batch(&client, &served, &token, &model_id, total, key));
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    wait_until(Duration::from_mins(3), Duration::from_millis(20), || {
        let counts: (i64, i64) = db
            .query_row(
                "SELECT count(*) FILTER (WHERE status = 'done'),
                        count(*) FILTER (WHERE status = 'running' AND done BETWEEN 1 AND 15)
                 FROM job_shards WHERE job_id = ?1 AND worker LIKE ?2",
                [job_id.clone(), format!("%:{}", victim.id())],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .unwrap();
        in_a_shard(counts, "the victim")
    });
    let victim_pid = victim.id();
    let mut victim = victim;
    victim.kill().unwrap();
    victim.wait().unwrap();
    let job = runtime.block_on(poll_until_finished(
        &served,
        &token,
        &path,
        Duration::from_mins(3),
    ));
    assert_completed_with_a_takeover(&job, total, 10);
    let workers = worker_pids(&job);
    assert!(workers.contains(&victim_pid), "{job}");
    let indexes = runtime.block_on(served.result_indexes(&token, &path));
    assert_eq!(indexes, (0..total as u64).collect::<Vec<_>>());
    assert_eq!(captures(&env, key), (300, 300), "one capture per item");
    drop(runtime);
    let (exit, worker_log) = stop_worker(survivor);
    assert_eq!(exit.code(), Some(0), "{worker_log}");
    let (exit, served_log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{served_log}");
    assert_taken_over_and_ended_once(&format!("{worker_log}{served_log}"));
}

#[test]
fn serve_and_jobs_work_share_one_job_through_the_sqlite_file() {
    let (env, token, model_id) = local_home(20);
    let served = env.spawn_serve();
    let worker = jobs_work(&env);
    let total = 300;
    let key = "local-0001";
    let runtime = runtime();
    let client = Served::client();
    let StartedBatch { id: job_id, path } =
        runtime.block_on(start_batch(&client, &served, &token, &model_id, total, key));
    let job = runtime.block_on(poll_until_finished(
        &served,
        &token,
        &path,
        Duration::from_mins(3),
    ));
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["shards"]["done"], 15, "{job}");
    let workers = worker_pids(&job);
    assert!(workers.contains(&served.pid), "{job}");
    assert!(workers.contains(&worker.id()), "{job}");
    let indexes = runtime.block_on(served.result_indexes(&token, &path));
    assert_eq!(indexes, (0..total as u64).collect::<Vec<_>>());
    assert_eq!(captures(&env, key), (300, 300), "one capture per item");
    // `jobs poll` shows the shards and who ran them.
    let polled = env.json(&["jobs", "poll", &job_id]);
    assert_eq!(polled["shards"], job["shards"], "{polled}");
    drop(runtime);
    let (exit, log) = stop_worker(worker);
    assert_eq!(exit.code(), Some(0), "{log}");
    assert!(log.contains("working on the shards"), "{log}");
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
}
