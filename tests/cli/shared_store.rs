//! Two `arbiter serve` replicas, each with its own home, on one PostgreSQL database
//! (`ARBITER_DATABASE_URL`) and one bare-repository remote (`ARBITER_REPOS_REMOTE`): a
//! token made through one works on the other, decisions captured through either are seen
//! through both, one `Idempotency-Key` spread over both runs once, and `/healthz` reports
//! the store and the remote; a job started on one is cancelled through the other, and a
//! job whose replica is killed (`kill -9`) is taken over by the other and finishes with one
//! result line and one capture per item. PostgreSQL is started by the tests themselves
//! (`arbiter_testing::postgres`); without it they say how to run them and pass.

use crate::common::Served;
use crate::common::repo_request;
use crate::common::wait_until_async;
use crate::common::{QUESTIONS, TestEnv, runtime};
use serde_json::{Value, json};
use std::time::Duration;

pub(crate) const MODEL: &str = "acme/support";

pub(crate) struct Shared {
    pub(crate) database: String,
    pub(crate) remote: String,
}

impl Shared {
    pub(crate) fn configure(&self, command: &mut std::process::Command) {
        command
            .env("ARBITER_DATABASE_URL", &self.database)
            .env("ARBITER_REPOS_REMOTE", &self.remote);
    }

    /// A token made through home `env`: in the shared store, so every replica takes it.
    pub(crate) fn token(&self, env: &TestEnv, name: &str, scopes: &[&str], role: &str) -> String {
        let mut args = vec!["tokens", "create", "--name", name, "--role", role];
        for scope in scopes {
            args.extend(["--scope", scope]);
        }
        self.json(env, &args)["token"].as_str().unwrap().to_owned()
    }

    /// `arbiter --json args…` in `env` on the shared parts, which must succeed.
    fn json(&self, env: &TestEnv, args: &[&str]) -> Value {
        let mut command = env.std_cmd();
        self.configure(&mut command);
        let output = command.arg("--json").args(args).output().unwrap();
        assert!(
            output.status.success(),
            "arbiter {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).unwrap()
    }
}

/// Two homes on a fresh database and a bare remote, with the test model created through
/// the first; `None` (having said how to run the test) without PostgreSQL.
fn two_homes() -> Option<(TestEnv, TestEnv, Shared, String)> {
    Some(homes_on(arbiter_testing::postgres::database()?))
}

/// Two homes on `database` and a bare remote, with the test model created through the
/// first: the homes, the shared parts, and the model's ID.
pub(crate) fn homes_on(database: String) -> (TestEnv, TestEnv, Shared, String) {
    let (a, b) = (TestEnv::new(), TestEnv::new());
    let remote = a.path().join("remote");
    std::fs::create_dir_all(&remote).unwrap();
    let shared = Shared {
        database,
        remote: format!("file://{}", remote.display()),
    };
    let questions = a.write("questions.yaml", QUESTIONS).display().to_string();
    let created = shared.json(
        &a,
        &[
            "models",
            "create",
            MODEL,
            "--base",
            "mo",
            "--questions",
            &questions,
        ],
    );
    let model_id = created["modelId"].as_str().unwrap().to_owned();
    (a, b, shared, model_id)
}

#[test]
fn two_replicas_on_one_database_share_tokens_captures_and_idempotency_keys() {
    // Without PostgreSQL, `two_homes` has said how to run this test.
    let Some((a, b, shared, model_id)) = two_homes() else {
        return;
    };
    // A token made through home `a` is in the shared store: replica `b` takes it.
    let token = shared.token(
        &a,
        "shared",
        &["decisions", "examples:read"],
        "acme/*=reader",
    );
    let served_a = a.spawn_serve_with(|cmd| shared.configure(cmd));
    let served_b = b.spawn_serve_with(|cmd| shared.configure(cmd));
    let replicas = [&served_a, &served_b];
    let runtime = runtime();
    let client = Served::client();
    runtime.block_on(async {
        // /healthz names the shared parts and finds them up.
        for served in replicas {
            let health: Value = client
                .get(served.url("/healthz"))
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(health["status"], "ok", "{health}");
            assert_eq!(health["store"]["status"], "ok", "{health}");
            assert_eq!(health["store"]["kind"], "postgresql", "{health}");
            assert_eq!(health["remote"]["status"], "ok", "{health}");
            assert_eq!(health["remote"]["kind"], "file", "{health}");
        }

        // A decision captured through each replica is seen through the other.
        let mut examples = Vec::new();
        for (i, served) in replicas.iter().enumerate() {
            let mut body = repo_request(MODEL);
            body["state"]["replica"] = Value::from(i);
            let response = client
                .post(served.url("/v1/decision"))
                .bearer_auth(&token)
                .json(&body)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 200, "{}", response.text().await.unwrap());
            let answer: Value = response.json().await.unwrap();
            examples.push(answer["example"]["exampleId"].as_str().unwrap().to_owned());
        }
        for served in replicas {
            for example in &examples {
                let response = client
                    .get(served.url(&format!("/v1/models/{model_id}/examples/{example}")))
                    .bearer_auth(&token)
                    .send()
                    .await
                    .unwrap();
                assert_eq!(
                    response.status(),
                    200,
                    "{example} through {}",
                    served.url("")
                );
                let example: Value = response.json().await.unwrap();
                assert_eq!(
                    example["decisions"].as_array().unwrap().len(),
                    1,
                    "{example}"
                );
            }
        }

        // Twenty concurrent requests with one key, alternating replicas: one decision.
        let mut body = repo_request(MODEL);
        body["state"]["replica"] = Value::from("either");
        let requests = (0..20).map(|i| {
            let (client, token, body) = (client.clone(), token.clone(), body.clone());
            let url = replicas[i % 2].url("/v1/decision");
            async move {
                let response = client
                    .post(url)
                    .bearer_auth(&token)
                    .header("idempotency-key", "shared-0001")
                    .json(&body)
                    .send()
                    .await
                    .unwrap();
                let status = response.status().as_u16();
                (status, response.text().await.unwrap())
            }
        });
        let replies = futures_util::future::join_all(requests).await;
        let firsts: Vec<&String> = replies
            .iter()
            .filter(|(status, _)| *status == 200)
            .map(|(_, body)| body)
            .collect();
        assert!(!firsts.is_empty(), "{replies:?}");
        for (status, text) in &replies {
            // Either the one answer (computed or replayed), or 409 while it runs elsewhere.
            assert!(
                (*status == 200 && text == firsts[0]) || *status == 409,
                "{status}: {text}"
            );
        }
        let answer: Value = serde_json::from_str(firsts[0]).unwrap();
        let keyed = answer["example"]["exampleId"].as_str().unwrap();
        for served in replicas {
            let example: Value = client
                .get(served.url(&format!("/v1/models/{model_id}/examples/{keyed}")))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap()
                .json()
                .await
                .unwrap();
            assert_eq!(
                example["decisions"].as_array().unwrap().len(),
                1,
                "one key, one decision, whichever replica ran it: {example}"
            );
        }
    });
    drop(runtime);
    for served in [served_a, served_b] {
        let (exit, log) = served.stop();
        assert_eq!(exit.code(), Some(0), "{log}");
    }
}

/// `n` distinct items with their own example IDs (`{prefix}-0000`…), so each captures its
/// own example.
fn items(prefix: &str, n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"example_id": format!("{prefix}-{i:04}"), "state": {"messages": [{"role": "user",
                "content": format!("ticket {i}: order {i} arrived broken, I want my money back")}]}})
        })
        .collect()
}

/// A batch job started over HTTP: its ID, and the path its `Location` names.
pub(crate) struct StartedBatch {
    pub(crate) id: String,
    pub(crate) path: String,
}

/// Start a captured batch of `n` items through `served` with Idempotency-Key `key` (also
/// its items' example ID prefix).
pub(crate) async fn start_batch(
    client: &reqwest::Client,
    served: &Served,
    token: &str,
    model_id: &str,
    n: usize,
    key: &str,
) -> StartedBatch {
    let response = client
        .post(served.url(&format!("/v1/models/{model_id}/batch-decisions")))
        .bearer_auth(token)
        .header("idempotency-key", key)
        .json(&json!({"items": items(key, n), "capture": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 202, "{}", response.text().await.unwrap());
    let path = response.headers()[reqwest::header::LOCATION]
        .to_str()
        .unwrap()
        .to_owned();
    let job: Value = response.json().await.unwrap();
    StartedBatch {
        id: job["jobId"].as_str().unwrap().to_owned(),
        path,
    }
}

/// Poll `path` until its job has finished: neither queued nor running.
pub(crate) async fn poll_until_finished(
    served: &Served,
    token: &str,
    path: &str,
    within: Duration,
) -> Value {
    poll_until(served, token, path, within, |job| {
        job["status"] != "running" && job["status"] != "queued"
    })
    .await
}

/// Poll job `job_id` through `served` until `done(job)` holds (at most `within`).
pub(crate) async fn poll_until(
    served: &Served,
    token: &str,
    path: &str,
    within: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    wait_until_async(within, Duration::from_millis(100), || async {
        let job = served.get_json(path, token).await;
        if done(&job) {
            Ok(job)
        } else {
            Err(format!("the job is {job}"))
        }
    })
    .await
}

/// Each of the `total` items of the captured batch at `path` (started with key `key`, see
/// [`start_batch`]) has exactly one result line, in order, read through `served`, and one
/// captured decision in the shared store: none lost, none twice.
pub(crate) fn assert_once_per_item(
    runtime: &tokio::runtime::Runtime,
    served: &Served,
    token: &str,
    path: &str,
    (shared, key, total): (&Shared, &str, usize),
) {
    let indexes = runtime.block_on(served.result_indexes(token, path));
    assert_eq!(
        indexes,
        (0..total as u64).collect::<Vec<_>>(),
        "none lost, none twice"
    );
    let mut db = postgres::Client::connect(&shared.database, postgres::NoTls).unwrap();
    let row = db
        .query_one(
            "SELECT count(*), count(DISTINCT example_id) FROM decisions
             WHERE example_id LIKE $1",
            &[&format!("{key}-%")],
        )
        .unwrap();
    let (decisions, examples): (i64, i64) = (row.get(0), row.get(1));
    let total = i64::try_from(total).unwrap();
    assert_eq!(
        (decisions, examples),
        (total, total),
        "one decision per item"
    );
}

#[test]
fn a_job_is_cancelled_through_any_replica_and_taken_over_when_its_replica_is_killed() {
    let Some((a, b, shared, model_id)) = two_homes() else {
        return;
    };
    let token = shared.token(&a, "jobs", &["batches"], "acme/*=writer");
    let served_a = a.spawn_serve_with(|cmd| shared.configure(cmd));
    let served_b = b.spawn_serve_with(|cmd| shared.configure(cmd));
    let runtime = runtime();
    let client = Served::client();
    let total = 400;
    let (path, killed_at_done) = runtime.block_on(async {
        // A job running on `a` is cancelled through `b`: `a` sees the request at its next
        // item and stops.
        let path = start_batch(&client, &served_a, &token, &model_id, 3000, "long-0001")
            .await
            .path;
        let within = Duration::from_mins(2);
        poll_until(&served_b, &token, &path, within, |job| {
            job["progress"]["done"].as_u64() > Some(0)
        })
        .await;
        let cancel = client
            .post(served_b.url(&format!("{path}/cancel")))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        assert!(
            cancel.status().is_success(),
            "{}",
            cancel.text().await.unwrap()
        );
        let cancelled = poll_until(&served_a, &token, &path, within, |job| {
            job["status"] == "cancelled"
        })
        .await;
        assert!(
            cancelled["progress"]["done"].as_u64() < Some(3000),
            "{cancelled}"
        );

        // A captured job on `a`, killed part-way.
        let path = start_batch(&client, &served_a, &token, &model_id, total, "take-0001")
            .await
            .path;
        let running = poll_until(&served_b, &token, &path, within, |job| {
            job["progress"]["done"].as_u64() >= Some(40)
        })
        .await;
        (path, running["progress"]["done"].as_u64().unwrap())
    });
    let log_a = served_a.kill_9();
    let job = runtime.block_on(poll_until_finished(
        &served_b,
        &token,
        &path,
        Duration::from_mins(3),
    ));
    assert_eq!(
        job["status"], "completed",
        "{job}\nkilled at {killed_at_done} of {total}; replica a:\n{log_a}"
    );
    assert_eq!(job["progress"]["done"], total);
    // Through the surviving replica; one capture per item, though the killed replica had
    // captured some whose result lines it never wrote.
    let batch = (&shared, "take-0001", total);
    assert_once_per_item(&runtime, &served_b, &token, &path, batch);
    drop(runtime);
    let (exit, log) = served_b.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    // The job's shard that `a` was running is what `b` took over (the job is sharded).
    assert!(
        log.contains("taking over a shard whose worker died"),
        "{log}"
    );
}

#[test]
fn a_job_interrupted_by_a_database_outage_finishes_once_the_database_is_back() {
    // A server of this test's own: taking it down must not disturb the other tests.
    let Some(database_server) = arbiter_testing::postgres::dedicated() else {
        return;
    };
    let (a, _b, shared, model_id) = homes_on(database_server.database());
    let token = shared.token(&a, "jobs", &["batches"], "acme/*=writer");
    let served = a.spawn_serve_with(|cmd| shared.configure(cmd));
    let runtime = runtime();
    let client = Served::client();
    let total = 300;
    let path = runtime.block_on(async {
        let path = start_batch(&client, &served, &token, &model_id, total, "down-0001")
            .await
            .path;
        poll_until(&served, &token, &path, Duration::from_mins(2), |job| {
            job["progress"]["done"].as_u64() >= Some(30)
        })
        .await;
        path
    });
    database_server.stop();
    // Until the job's next results flush or progress record has failed.
    served.wait_for_log(
        "job interrupted; it resumes once the store is back",
        Duration::from_mins(1),
    );
    let during = runtime.block_on(async {
        let health = client.get(served.url("/healthz")).send().await.unwrap();
        let status = health.status().as_u16();
        let body: Value = health.json().await.unwrap();
        let job = client
            .get(served.url(&path))
            .bearer_auth(&token)
            .send()
            .await
            .unwrap();
        // More requests with the valid token than the address's allowance of failed
        // authentications (20): a store that cannot be read is no failed authentication,
        // so each is 503, never 429.
        let mut statuses = Vec::new();
        for _ in 0..30 {
            let reply = client
                .get(served.url(&path))
                .bearer_auth(&token)
                .send()
                .await
                .unwrap();
            statuses.push(reply.status().as_u16());
        }
        (
            status,
            body,
            job.status().as_u16(),
            job.json::<Value>().await.unwrap(),
            statuses,
        )
    });
    database_server.start_again();
    let (health_status, health, job_status, job_problem, statuses) = during;
    assert!(statuses.iter().all(|&s| s == 503), "{statuses:?}");
    assert_eq!(health_status, 503, "{health}");
    assert_eq!(health["code"], "store_unavailable", "{health}");
    assert_eq!(job_status, 503, "{job_problem}");
    assert_eq!(job_problem["code"], "store_unavailable", "{job_problem}");

    // The replica reconnects by itself, and its next sweep resumes the job from its last
    // written result.
    let job = runtime.block_on(poll_until(
        &served,
        &token,
        &path,
        Duration::from_mins(3),
        |job| job["status"] == "completed" || job["status"] == "failed",
    ));
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["progress"]["done"], total);
    assert_once_per_item(
        &runtime,
        &served,
        &token,
        &path,
        (&shared, "down-0001", total),
    );
    drop(runtime);
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    // Interrupted, not failed; and no item was answered without its capture.
    assert!(
        log.contains("job interrupted; it resumes once the store is back"),
        "{log}"
    );
    assert!(!log.contains("answering unrecorded"), "{log}");
}

/// `examples delete` on the PostgreSQL store: the example, its annotations and its state in
/// a job's input are gone through every replica's view of the store.
#[test]
fn an_example_deleted_on_postgres_is_gone_for_every_home() {
    let Some((a, b, shared, _)) = two_homes() else {
        return;
    };
    let state = json!({"text": "Mr Aurelio Bramblecombe asks where his parcel is"});
    let line = json!({"example_id": "gone", "state": state});
    let file = a.write(
        "examples.jsonl",
        &format!("{line}\n{}\n", json!({"example_id": "kept", "state": "x"})),
    );
    shared.json(
        &a,
        &[
            "examples",
            "ingest",
            MODEL,
            "--file",
            file.to_str().unwrap(),
        ],
    );
    let input = a.write("batch.jsonl", &format!("{}\n", json!({"state": state})));
    let mut batch = a.std_cmd();
    shared.configure(&mut batch);
    let output = batch
        .args([
            "--json",
            "batch",
            MODEL,
            "--input",
            input.to_str().unwrap(),
            "--output",
        ])
        .arg(a.path().join("out.jsonl"))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // With --output, the finished job is printed.
    let job: Value = serde_json::from_slice(&output.stdout).unwrap();
    let job_id = job["jobId"].as_str().unwrap().to_owned();

    // The batch item named no ID: it holds the example's state, and goes with it.
    shared.json(&a, &["examples", "delete", MODEL, "gone"]);
    let mut show = b.std_cmd();
    shared.configure(&mut show);
    let output = show
        .args(["--json", "examples", "show", MODEL, "gone"])
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listed = shared.json(&b, &["examples", "list", MODEL]);
    assert_eq!(listed["examples"].as_array().unwrap().len(), 1, "{listed}");
    assert_eq!(listed["examples"][0]["exampleId"], "kept");
    let store = arbiter::store::Store::connect(&shared.database).unwrap();
    let job_id: arbiter::ids::JobId = job_id.parse().unwrap();
    let lines = store
        .job_lines(&job_id, arbiter::store::JobPart::Input, 0, 10)
        .unwrap();
    assert_eq!(lines.len(), 1);
    let text = String::from_utf8_lossy(&lines[0].1);
    assert!(!text.contains("Bramblecombe"), "{text}");
}
