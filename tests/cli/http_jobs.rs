//! Batch-decision jobs over HTTP: 202 + `Location`, poll, NDJSON results, cancel, and the
//! required `Idempotency-Key`.

use crate::common::TestEnv;
use crate::common::TestServer;
use crate::common::{job_finished, wait_until_async};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::time::Duration;

/// `n` distinct states, so no two items share an embedding in the engine's cache.
pub(crate) fn items(n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            json!({"state": {"messages": [{"role": "user", "content": format!(
                "ticket {i}: my order number {i} arrived broken, I want my money back"
            )}]}})
        })
        .collect()
}

async fn create(
    server: &TestServer,
    token: &str,
    model_id: &str,
    body: &Value,
    key: &str,
) -> Value {
    let reply = server
        .post_json_with(
            &format!("/v1/models/{model_id}/batch-decisions"),
            Some(token),
            body,
            &[("idempotency-key", key)],
        )
        .await;
    assert_eq!(reply.status, 202, "{}", reply.text());
    let job = reply.json();
    let location = reply.header("location").expect("a Location header");
    assert_eq!(
        location,
        format!(
            "/v1/models/{model_id}/batch-decisions/{}",
            job["jobId"].as_str().unwrap()
        )
    );
    job
}

async fn poll(server: &TestServer, token: &str, model_id: &str, job_id: &str) -> Value {
    server
        .get(
            &format!("/v1/models/{model_id}/batch-decisions/{job_id}"),
            Some(token),
        )
        .await
        .ok()
}

/// Poll until `done(job)` holds (at most a minute).
async fn poll_until(
    server: &TestServer,
    token: &str,
    model_id: &str,
    job_id: &str,
    done: impl Fn(&Value) -> bool,
) -> Value {
    wait_until_async(
        Duration::from_mins(2),
        Duration::from_millis(50),
        || async {
            let job = poll(server, token, model_id, job_id).await;
            if done(&job) {
                Ok(job)
            } else {
                Err(format!("the job is {job}"))
            }
        },
    )
    .await
}

/// Cancel batch job `job_id`: 204, no body.
async fn cancel(server: &TestServer, token: &str, model_id: &str, job_id: &str) {
    let reply = server
        .send(server.request(
            reqwest::Method::POST,
            &format!("/v1/models/{model_id}/batch-decisions/{job_id}/cancel"),
            Some(token),
        ))
        .await;
    assert_eq!(reply.status, 204, "{}", reply.text());
    assert!(reply.body.is_empty());
}

async fn results(server: &TestServer, token: &str, model_id: &str, job_id: &str) -> Vec<Value> {
    let reply = server
        .get(
            &format!("/v1/models/{model_id}/batch-decisions/{job_id}/results"),
            Some(token),
        )
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("content-type"), Some("application/x-ndjson"));
    reply
        .text()
        .lines()
        .map(|line| serde_json::from_str(line).expect("each results line is JSON"))
        .collect()
}

#[tokio::test]
async fn a_batch_is_accepted_polled_and_read_with_a_bad_item_failing_alone() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let mut items = items(5);
    items.insert(2, json!({"example_id": 7, "state": {"text": "x"}}));
    items.push(json!({"example_id": "mine", "state": "a refund please"}));
    let job = create(
        &server,
        &token,
        &model_id,
        &json!({"items": items}),
        "batch-key-0001",
    )
    .await;
    assert_eq!(job["status"], "queued");
    assert_eq!(job["kind"], "batch");
    assert_eq!(job["modelId"], model_id.as_str());
    assert_eq!(job["progress"], json!({"total": 7, "done": 0, "failed": 0}));
    let job_id = job["jobId"].as_str().unwrap();

    let job = poll_until(&server, &token, &model_id, job_id, job_finished).await;
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["progress"], json!({"total": 7, "done": 7, "failed": 1}));
    for stamp in ["createdAt", "startedAt", "finishedAt"] {
        assert!(job[stamp].is_string(), "{stamp} in {job}");
    }
    let result = &job["result"];
    assert_eq!(
        (
            result["items"].as_u64(),
            result["succeeded"].as_u64(),
            result["failed"].as_u64()
        ),
        (Some(7), Some(6), Some(1))
    );
    assert!(result["meanLatencyMs"].as_f64().unwrap() > 0.0);
    assert!(result["usage"]["input_tokens"].as_u64().unwrap() > 0);

    let lines = results(&server, &token, &model_id, job_id).await;
    let indexes: Vec<u64> = lines.iter().map(|l| l["index"].as_u64().unwrap()).collect();
    assert_eq!(
        indexes,
        (0..7).collect::<Vec<_>>(),
        "one line per item, in input order"
    );
    let bad = &lines[2];
    assert_eq!(bad["example_id"], Value::Null);
    assert_eq!(bad["error"]["status"], 422);
    assert_eq!(bad["error"]["code"], "validation_error");
    assert_eq!(
        bad["error"]["details"][0]["loc"],
        json!(["body", "items", 2, "example_id"])
    );
    assert_eq!(lines[6]["example_id"], "mine");
    for line in lines.iter().filter(|l| l["index"] != 2) {
        assert_eq!(line["answers"]["intent"]["type"], "choice", "{line}");
        assert!(line["example_id"].as_str().unwrap().len() > 3);
        assert!(line["usage"]["input_tokens"].as_u64().unwrap() > 0);
    }
    // The same answers as one decision at a time.
    let single = server
        .post_json(
            "/v1/decision",
            Some(&token),
            &json!({"model": "acme/support", "state": items[0]["state"], "capture": false}),
        )
        .await
        .ok();
    assert_eq!(lines[0]["answers"], single["answers"]);
    assert_eq!(lines[0]["usage"], single["usage"]);

    // Listed under the model.
    let listed = server
        .get(
            &format!("/v1/models/{model_id}/batch-decisions?status=completed"),
            Some(&token),
        )
        .await
        .ok();
    assert_eq!(listed[0]["jobId"], job_id);
}

#[tokio::test]
async fn the_idempotency_key_is_required_and_returns_the_same_job() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let path = format!("/v1/models/{model_id}/batch-decisions");
    let body = json!({"items": items(2)});

    let missing = server.post_json(&path, Some(&token), &body).await;
    let problem = server.problem(&missing, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["header", "Idempotency-Key"])
    );
    let short = server
        .post_json_with(&path, Some(&token), &body, &[("idempotency-key", "short")])
        .await;
    server.problem(&short, 422, "validation_error").await;

    let first = create(&server, &token, &model_id, &body, "same-key-123").await;
    let again = server
        .post_json_with(
            &path,
            Some(&token),
            &body,
            &[("idempotency-key", "same-key-123")],
        )
        .await;
    assert_eq!(again.status, 202);
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(
        again.json()["jobId"],
        first["jobId"],
        "the same job, not a second one"
    );
    assert_eq!(
        again.header("location").map(str::to_owned),
        Some(format!(
            "/v1/models/{model_id}/batch-decisions/{}",
            first["jobId"].as_str().unwrap()
        ))
    );
    let other = server
        .post_json_with(
            &path,
            Some(&token),
            &json!({"items": items(3)}),
            &[("idempotency-key", "same-key-123")],
        )
        .await;
    server.problem(&other, 409, "idempotency_key_reused").await;
    let jobs = server.get(&path, Some(&token)).await.ok();
    assert_eq!(jobs.as_array().unwrap().len(), 1, "{jobs}");
}

#[tokio::test]
async fn bad_batches_are_refused_before_a_job_exists() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let decider = home.token("decider", &["decisions"], &["acme/*=reader"]);
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let path = format!("/v1/models/{model_id}/batch-decisions");
    let key = [("idempotency-key", "bad-batch-key-1")];

    let invalid = server
        .post_json_with(
            &path,
            Some(&token),
            &json!({"items": {}, "capture": 1}),
            &key,
        )
        .await;
    let problem = server.problem(&invalid, 422, "validation_error").await;
    let locs: Vec<&Value> = problem["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| &d["loc"])
        .collect();
    assert!(
        locs.contains(&&json!(["body", "items"])) && locs.contains(&&json!(["body", "capture"])),
        "{problem}"
    );
    let revision = server
        .post_json_with(
            &path,
            Some(&token),
            &json!({"items": [], "revision": "nope"}),
            &[("idempotency-key", "bad-batch-key-2")],
        )
        .await;
    server.problem(&revision, 404, "revision_not_found").await;
    let unknown = server
        .post_json_with(
            "/v1/models/0f8fad5b-d9cb-469f-a165-70867728950e/batch-decisions",
            Some(&token),
            &json!({"items": []}),
            &key,
        )
        .await;
    server.problem(&unknown, 404, "model_not_found").await;
    // Authorized before validated: without the batches scope, a bad body is still 403.
    let unscoped = server
        .post_json_with(
            &path,
            Some(&decider),
            &json!({"items": {}}),
            &[("idempotency-key", "bad-batch-key-3")],
        )
        .await;
    server.problem(&unscoped, 403, "forbidden").await;
    let jobs = server.get(&path, Some(&token)).await.ok();
    assert_eq!(jobs, json!([]), "no job was created");
    let nothing = server
        .get(
            &format!("{path}/0f8fad5b-d9cb-469f-a165-70867728950e"),
            Some(&token),
        )
        .await;
    server.problem(&nothing, 404, "job_not_found").await;
}

/// One rule for capture: a reader records decisions through a batch as it does through
/// `/v1/decision`, as the model's capture policy says.
#[tokio::test]
async fn a_reader_captures_through_a_batch_as_through_a_decision() {
    let home = TestEnv::new();
    let admin = home.admin_token("admin");
    let reader = home.token("reader", &["batches", "decisions"], &["acme/*=reader"]);
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let job = create(
        &server,
        &reader,
        &model_id,
        &json!({"items": items(3), "capture": true}),
        "reader-capture-1",
    )
    .await;
    let job_id = job["jobId"].as_str().unwrap();
    let job = poll_until(&server, &reader, &model_id, job_id, job_finished).await;
    assert_eq!(job["status"], "completed", "{job}");
    let decided = server
        .post_json(
            "/v1/decision",
            Some(&reader),
            &crate::common::repo_request("acme/support"),
        )
        .await;
    assert_eq!(decided.status, 200, "{}", decided.text());
    let examples = server
        .get(&format!("/v1/models/{model_id}/examples"), Some(&admin))
        .await
        .ok();
    assert_eq!(
        examples["examples"].as_array().map(Vec::len),
        Some(4),
        "three batch items and one decision recorded: {examples}"
    );
}

#[tokio::test]
async fn cancel_ends_a_queued_job_at_once_stops_a_running_one_and_leaves_a_finished_one() {
    let home = TestEnv::with_config("server:\n  max_running_jobs: 1\n");
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;

    // A finished job: cancel is 204 and changes nothing.
    let small = create(
        &server,
        &token,
        &model_id,
        &json!({"items": items(2)}),
        "cancel-key-small",
    )
    .await;
    let small_id = small["jobId"].as_str().unwrap();
    let small = poll_until(&server, &token, &model_id, small_id, job_finished).await;
    assert_eq!(small["status"], "completed");
    let cancel = |id: String| {
        let (server, token, model_id) = (&server, token.clone(), model_id.clone());
        async move { cancel(server, &token, &model_id, &id).await }
    };
    cancel(small_id.to_owned()).await;
    cancel(small_id.to_owned()).await;
    assert_eq!(poll(&server, &token, &model_id, small_id).await, small);

    // One slot: a long job runs, the next waits queued.
    let long = create(
        &server,
        &token,
        &model_id,
        &json!({"items": items(3000)}),
        "cancel-key-long",
    )
    .await;
    let long_id = long["jobId"].as_str().unwrap().to_owned();
    let queued = create(
        &server,
        &token,
        &model_id,
        &json!({"items": items(3)}),
        "cancel-key-queued",
    )
    .await;
    let queued_id = queued["jobId"].as_str().unwrap().to_owned();
    poll_until(&server, &token, &model_id, &long_id, |j| {
        j["progress"]["done"].as_u64() > Some(0)
    })
    .await;
    assert_eq!(
        poll(&server, &token, &model_id, &queued_id).await["status"],
        "queued"
    );

    cancel(queued_id.clone()).await;
    let queued = poll(&server, &token, &model_id, &queued_id).await;
    assert_eq!(
        queued["status"], "cancelled",
        "a queued job is cancelled at once: {queued}"
    );
    assert!(queued["finishedAt"].is_string() && queued["startedAt"].is_null());

    cancel(long_id.clone()).await;
    let long = poll_until(&server, &token, &model_id, &long_id, job_finished).await;
    assert_eq!(long["status"], "cancelled", "{long}");
    let done = long["progress"]["done"].as_u64().unwrap();
    assert!(done > 0 && done < 3000, "stopped part-way: {long}");
    let lines = results(&server, &token, &model_id, &long_id).await;
    assert_eq!(
        lines.len() as u64,
        done,
        "the finished results are kept, and only those"
    );
    assert!(
        lines
            .iter()
            .enumerate()
            .all(|(i, l)| l["index"] == i as u64)
    );
    // The queued job never ran, even once the slot was free: a job created after it is
    // taken from the queue and runs to the end (the queue takes jobs in order).
    let after = create(
        &server,
        &token,
        &model_id,
        &json!({"items": items(1)}),
        "cancel-key-after",
    )
    .await;
    let after_id = after["jobId"].as_str().unwrap().to_owned();
    let after = poll_until(&server, &token, &model_id, &after_id, job_finished).await;
    assert_eq!(after["status"], "completed", "{after}");
    let queued_after = poll(&server, &token, &model_id, &queued_id).await;
    assert_eq!(queued_after["status"], "cancelled");
    assert_eq!(queued_after["progress"]["done"], 0);
}

#[tokio::test]
async fn a_batch_over_stored_examples_answers_each_once() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let lines = items(4)
        .iter()
        .enumerate()
        .fold(String::new(), |mut out, (i, item)| {
            let mut line = json!({"example_id": format!("t-{i}"), "state": item["state"]});
            if i < 2 {
                line["annotations"] = json!({"intent": {"answer": "refund"}});
            }
            writeln!(out, "{line}").unwrap();
            out
        });
    let ingest = server
        .post_lines(
            &format!("/v1/models/{model_id}/examples"),
            Some(&token),
            lines,
        )
        .await;
    assert_eq!(ingest.status, 200, "{}", ingest.text());
    for (set, expected) in [
        ("all", vec!["t-0", "t-1", "t-2", "t-3"]),
        ("annotated", vec!["t-0", "t-1"]),
    ] {
        let job = create(
            &server,
            &token,
            &model_id,
            &json!({"examples": set}),
            &format!("examples-{set}-key"),
        )
        .await;
        let id = job["jobId"].as_str().unwrap();
        let job = poll_until(&server, &token, &model_id, id, job_finished).await;
        assert_eq!(job["status"], "completed");
        let ids: Vec<Value> = results(&server, &token, &model_id, id)
            .await
            .iter()
            .map(|l| l["example_id"].clone())
            .collect();
        assert_eq!(
            ids,
            expected.iter().map(|s| json!(s)).collect::<Vec<_>>(),
            "{set}"
        );
    }
}

/// POST a JSON Lines batch: the request members on the first line, one item per line.
async fn create_ndjson(
    server: &TestServer,
    token: &str,
    model: &str,
    body: &str,
    key: &str,
) -> crate::common::Reply {
    server
        .send(
            server
                .request(
                    reqwest::Method::POST,
                    &format!("/v1/models/{model}/batch-decisions"),
                    Some(token),
                )
                .header("content-type", "application/x-ndjson")
                .header("idempotency-key", key)
                .body(body.to_owned()),
        )
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ndjson_batch_stages_its_lines_as_sent_and_replays_by_key() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let mut body = String::from("{\"capture\": false}\n");
    for item in items(3) {
        writeln!(body, "{item}\n").unwrap();
    }
    body.push_str("{not json\n");
    // The model by its path, `/` percent-encoded, as `arbiter --server` sends it.
    let reply = create_ndjson(&server, &token, "acme%2Fsupport", &body, "ndjson-key-1").await;
    assert_eq!(reply.status, 202, "{}", reply.text());
    let job = reply.json();
    assert_eq!(
        job["progress"]["total"], 4,
        "blank lines are skipped: {job}"
    );
    assert_eq!(job["modelId"], model_id);
    let again = create_ndjson(&server, &token, "acme%2Fsupport", &body, "ndjson-key-1").await;
    assert_eq!(again.header("idempotent-replayed"), Some("true"));
    assert_eq!(again.json()["jobId"], job["jobId"]);
    let job_id = job["jobId"].as_str().unwrap();
    let job = poll_until(&server, &token, &model_id, job_id, job_finished).await;
    assert_eq!(job["status"], "completed", "{job}");
    let lines = results(&server, &token, &model_id, job_id).await;
    assert_eq!(lines.len(), 4);
    assert!(lines[..3].iter().all(|l| l["answers"].is_object()));
    assert_eq!(
        lines[3]["error"]["details"][0]["loc"],
        json!(["body", "items", 3]),
        "a line that is not JSON fails alone: {}",
        lines[3]
    );
    // Its line, counted from the first line after the members' line, blank lines included;
    // answered items carry none.
    assert_eq!(lines[3]["line"], 7, "{}", lines[3]);
    assert!(lines[..3].iter().all(|l| l.get("line").is_none()));

    // The first line must be the request, not an item.
    let reply = create_ndjson(
        &server,
        &token,
        &model_id,
        "{\"items\": []}\n",
        "ndjson-key-2",
    )
    .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", 0, "items"]));
    let reply = create_ndjson(
        &server,
        &token,
        &model_id,
        "[1]\n{\"state\": 1}\n",
        "ndjson-key-3",
    )
    .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", 0]));
    let reply = create_ndjson(
        &server,
        &token,
        &model_id,
        "{\"state\": 1}\n{\"state\": 2}\n",
        "ndjson-key-4",
    )
    .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(problem["details"][0]["loc"], json!(["body", 0, "state"]));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jobs_are_found_by_id_alone_only_where_the_token_sees_them() {
    let home = TestEnv::new();
    let admin = home.admin_token("admin");
    let batches_only = home.token("b", &["batches"], &["acme/*=reader"]);
    let other_model = home.token("o", &["batches", "alignments"], &["other/*=admin"]);
    let model_id = home.model("acme/support");
    home.model("other/thing");
    let server = home.serve().await;
    let job = create(
        &server,
        &admin,
        &model_id,
        &json!({"items": items(2)}),
        "by-id-key-1",
    )
    .await;
    let job_id = job["jobId"].as_str().unwrap();
    let polled = server
        .get(&format!("/v1/jobs/{job_id}"), Some(&batches_only))
        .await
        .ok();
    assert_eq!(polled["jobId"], job["jobId"]);
    assert_eq!(polled["kind"], "batch");
    // A job on a model the token cannot see is not found, as if it did not exist.
    let reply = server
        .get(&format!("/v1/jobs/{job_id}"), Some(&other_model))
        .await;
    server.problem(&reply, 404, "job_not_found").await;
    let reply = server
        .post_json(
            &format!("/v1/jobs/{job_id}/cancel"),
            Some(&other_model),
            &json!({}),
        )
        .await;
    server.problem(&reply, 404, "job_not_found").await;
    let reply = server.get("/v1/jobs/no-such-job", Some(&admin)).await;
    server.problem(&reply, 404, "job_not_found").await;
    let listed = server.get("/v1/jobs", Some(&other_model)).await.ok();
    assert_eq!(listed, json!([]), "only jobs on visible models");
    let listed = server
        .get("/v1/jobs?model=acme%2Fsupport&limit=5", Some(&batches_only))
        .await
        .ok();
    assert_eq!(listed.as_array().unwrap().len(), 1, "{listed}");
    // The model's newest job is one this token lacks the scope for: the listing still
    // reaches the batch under it, even at `limit=1`.
    let aligned = server
        .post_json_with(
            &format!("/v1/models/{model_id}/alignments"),
            Some(&admin),
            &json!({"tune": false}),
            &[("idempotency-key", "by-id-align-1")],
        )
        .await;
    assert_eq!(aligned.status, 202, "{}", aligned.text());
    let listed = server
        .get("/v1/jobs?model=acme%2Fsupport&limit=1", Some(&batches_only))
        .await
        .ok();
    assert_eq!(listed[0]["jobId"], job["jobId"], "{listed}");
    let reply = server.get("/v1/jobs?status=done", Some(&admin)).await;
    server.problem(&reply, 422, "validation_error").await;
    let reply = server
        .get("/v1/jobs?model=other%2Fthing", Some(&batches_only))
        .await;
    server.problem(&reply, 404, "model_not_found").await;

    poll_until(&server, &admin, &model_id, job_id, job_finished).await;
    let reply = server
        .get(&format!("/v1/jobs/{job_id}/results"), Some(&batches_only))
        .await;
    assert_eq!(reply.status, 200, "{}", reply.text());
    assert_eq!(reply.header("arbiter-job-status"), Some("completed"));
    assert_eq!(reply.text().lines().count(), 2);
    let reply = server
        .post_json(
            &format!("/v1/jobs/{job_id}/cancel"),
            Some(&batches_only),
            &json!({}),
        )
        .await;
    assert_eq!(reply.status, 204, "{}", reply.text());
}

/// A JSON batch's items are read from the body one at a time (never a tree of the whole
/// body): each is staged as one line whatever the body's layout, the results come in its
/// order, a repeated key inside one is refused where it repeats, and the same batch
/// written otherwise (members reordered, spaced out) is the same request to its key.
#[tokio::test]
async fn a_json_batch_is_read_an_item_at_a_time_and_hashed_as_a_whole() {
    let home = TestEnv::new();
    let token = home.admin_token("ci");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let path = format!("/v1/models/{model_id}/batch-decisions");
    let post = |body: String, key: &'static str| {
        server
            .request(reqwest::Method::POST, &path, Some(&token))
            .header("content-type", "application/json")
            .header("idempotency-key", key)
            .body(body)
    };
    let items = json!([
        {"example_id": "first", "state": {"text": "my parcel\nnever came", "n": [1.5, null]}},
        {"state": "a refund please"},
        {"example_id": "third", "state": {"b": 1, "a": 2}},
    ]);
    let body = json!({"capture": false, "items": items});
    let first = server
        .send(post(
            serde_json::to_string_pretty(&body).unwrap(),
            "layout-key",
        ))
        .await;
    assert_eq!(first.status, 202, "{}", first.text());
    let job = first.json();
    assert_eq!(job["progress"]["total"], 3, "{job}");
    let job_id = job["jobId"].as_str().unwrap();
    let done = poll_until(&server, &token, &model_id, job_id, job_finished).await;
    assert_eq!(done["status"], "completed", "{done}");
    let lines = results(&server, &token, &model_id, job_id).await;
    let ids: Vec<&str> = lines
        .iter()
        .map(|line| line["example_id"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(ids[0], "first");
    assert!(ids[1].starts_with("ex_"), "{lines:?}");
    assert_eq!(ids[2], "third");
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["index"], i, "{line}");
        assert!(line["answers"]["escalate"]["noul"].is_number(), "{line}");
    }

    // The same batch, compact and its members in another order: a replay of the first.
    let reordered = format!(r#"{{"items":{items},"capture":false}}"#);
    let replay = server.send(post(reordered, "layout-key")).await;
    assert_eq!(replay.status, 202, "{}", replay.text());
    assert_eq!(replay.header("idempotent-replayed"), Some("true"));
    assert_eq!(replay.json()["jobId"], job["jobId"]);
    // Another item under the key: a different request.
    let other = json!({"capture": false, "items": [{"state": "x"}]}).to_string();
    let conflict = server.send(post(other, "layout-key")).await;
    server
        .problem(&conflict, 409, "idempotency_key_reused")
        .await;

    let repeated = r#"{"items":[{"state":1},{"state":{"a":1,"a":2}}]}"#.to_owned();
    let refused = server.send(post(repeated, "repeated-key")).await;
    let problem = server.problem(&refused, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "items", 1, "state", "a"]),
        "{problem}"
    );
    for (body, status) in [
        (r#"{"items":[]}"#, 422),
        (r#"{"items":"x"}"#, 422),
        (r#"{"items":[{"state":1},]}"#, 400),
    ] {
        let answer = server.send(post(body.to_owned(), "bad-key-each")).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text());
    }
}

/// `DELETE …/examples/{id}` (owners only): the example is gone from the API, and a job
/// queued over it when it was deleted fails that item alone, saying so, while the others
/// are answered.
#[tokio::test]
async fn a_deleted_example_fails_alone_in_a_job_still_to_run_over_it() {
    let home = TestEnv::with_config("server:\n  max_running_jobs: 1\n");
    let admin = home.admin_token("owner");
    let writer = home.token(
        "w",
        &["examples:read", "examples:write"],
        &["acme/*=writer"],
    );
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let examples = format!("/v1/models/{model_id}/examples");
    let state = json!({"text": "Ms Philippa Oyelaran-Brook wants her refund"});
    let ingested = server
        .post_json(
            &examples,
            Some(&admin),
            &json!([{"example_id": "gone", "state": state}]),
        )
        .await;
    assert_eq!(ingested.status, 200, "{}", ingested.text());

    // One slot: a long job runs, the one over the example waits queued.
    let long = create(
        &server,
        &admin,
        &model_id,
        &json!({"items": items(3000)}),
        "del-long",
    )
    .await;
    let long_id = long["jobId"].as_str().unwrap().to_owned();
    let body =
        json!({"items": [{"example_id": "gone", "state": state}, {"state": "a late parcel"}]});
    let queued = create(&server, &admin, &model_id, &body, "del-queued").await;
    let queued_id = queued["jobId"].as_str().unwrap().to_owned();

    let path = format!("{examples}/gone");
    let delete = |token: String| {
        let server = &server;
        let path = path.clone();
        async move {
            server
                .send(server.request(reqwest::Method::DELETE, &path, Some(&token)))
                .await
        }
    };
    let refused = delete(writer.clone()).await;
    server.problem(&refused, 403, "forbidden").await;
    let deleted = delete(admin.clone()).await;
    assert_eq!(deleted.status, 204, "{}", deleted.text());
    let again = delete(admin.clone()).await;
    server.problem(&again, 404, "example_not_found").await;
    let shown = server.get(&path, Some(&admin)).await;
    server.problem(&shown, 404, "example_not_found").await;

    cancel(&server, &admin, &model_id, &long_id).await;
    let done = poll_until(&server, &admin, &model_id, &queued_id, job_finished).await;
    assert_eq!(done["status"], "completed", "{done}");
    let lines = results(&server, &admin, &model_id, &queued_id).await;
    assert_eq!(lines.len(), 2, "{lines:?}");
    // Not read as an item (null, as any item that cannot be read); the detail names it.
    assert_eq!(lines[0]["example_id"], Value::Null, "{}", lines[0]);
    assert_eq!(lines[0]["error"]["code"], "not_found", "{}", lines[0]);
    let detail = lines[0]["error"]["detail"].as_str().unwrap();
    assert_eq!(
        detail,
        "example `gone` was deleted after the job was created"
    );
    assert!(!lines[0].to_string().contains("Oyelaran"), "{}", lines[0]);
    assert!(lines[1]["answers"].is_object(), "{}", lines[1]);
}
