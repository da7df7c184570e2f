//! `arbiter batch` and `arbiter jobs` with the real binary: results in input order, jobs
//! that survive `kill -9` of their worker, cancel, and the errors.

use crate::common::{QUESTIONS, TestEnv, assert_succeeded};
use crate::common::{wait_until, wait_until_async};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::time::Duration;

fn env_with_model() -> TestEnv {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    env
}

/// JSON Lines of `n` distinct items.
fn input(n: usize) -> String {
    crate::http_jobs::items(n)
        .iter()
        .fold(String::new(), |mut out, item| {
            writeln!(out, "{item}").unwrap();
            out
        })
}

fn lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

fn indexes(lines: &[Value]) -> Vec<u64> {
    lines.iter().map(|l| l["index"].as_u64().unwrap()).collect()
}

/// Poll the job (through `arbiter jobs poll`) until `done(job)` holds.
fn poll_until(env: &TestEnv, job_id: &str, done: impl Fn(&Value) -> bool) -> Value {
    wait_until(Duration::from_mins(2), Duration::from_millis(50), || {
        let job = env.json(&["jobs", "poll", job_id]);
        if done(&job) {
            Ok(job)
        } else {
            Err(format!("the job is {job}"))
        }
    })
}

/// `arbiter jobs poll <id> --wait` (which takes up an orphaned job): the job, completed.
fn wait_completed(env: &TestEnv, job_id: &str) -> Value {
    let waited = env
        .cmd()
        .args(["jobs", "poll", job_id, "--wait"])
        .output()
        .unwrap();
    assert_succeeded(&waited);
    let job: Value = serde_json::from_slice(&waited.stdout).unwrap();
    assert_eq!(job["status"], "completed", "{job}");
    job
}

/// `kill -9` a worker and wait until it is gone (a zombie holds no locks).
fn kill_9(pid: &str) {
    let killed = std::process::Command::new("kill")
        .args(["-9", pid])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = format!("/proc/{pid}/status");
    while std::fs::read_to_string(&status).is_ok_and(|s| !s.contains("State:\tZ")) {
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn batch_writes_one_result_per_line_in_order_and_the_job_is_kept() {
    let env = env_with_model();
    let mut text = input(6);
    text.insert(0, '\n');
    text.push_str("{not json\n");
    text.push_str("{\"example_id\": \"own-id\", \"state\": \"please refund me\"}\n");
    let file = env.write("states.jsonl", &text);
    let output = env
        .cmd()
        .args([
            "batch",
            "acme/support",
            "--max-failed-items",
            "1",
            "--input",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert_succeeded(&output);
    let results = lines(&String::from_utf8(output.stdout).unwrap());
    assert_eq!(
        indexes(&results),
        (0..8).collect::<Vec<_>>(),
        "blank lines are skipped"
    );
    assert_eq!(results[6]["error"]["code"], "validation_error");
    assert_eq!(
        results[6]["error"]["details"][0]["loc"],
        json!(["body", "items", 6])
    );
    assert_eq!(results[7]["example_id"], "own-id");
    assert!(
        results[..6]
            .iter()
            .all(|r| r["answers"]["urgency"]["type"] == "score")
    );

    // The same answers as `arbiter decide`, one at a time.
    let state = env.write(
        "one.json",
        &crate::http_jobs::items(1)[0]["state"].to_string(),
    );
    let single = env.json(&[
        "decide",
        "-m",
        "acme/support",
        "-s",
        state.to_str().unwrap(),
        "--no-capture",
    ]);
    assert_eq!(results[0]["answers"], single["answers"]);

    let jobs = env.json(&["jobs", "list", "acme/support"]);
    let job = &jobs[0];
    assert_eq!(job["status"], "completed");
    assert_eq!(job["progress"], json!({"total": 8, "done": 8, "failed": 1}));
    let job_id = job["jobId"].as_str().unwrap();
    let stored = env
        .cmd()
        .args(["jobs", "results", job_id])
        .output()
        .unwrap();
    assert_eq!(lines(&String::from_utf8(stored.stdout).unwrap()), results);
    // Nothing was captured: batch decisions are not recorded unless asked.
    let examples = env.json(&["examples", "list", "acme/support"]);
    assert_eq!(examples["examples"], json!([]));
}

/// A batch whose items failed exits 1 after saying how many (a CI script notices), unless
/// `--max-failed-items` allows that many; `jobs poll --wait` judges the same way.
#[test]
fn failed_items_make_the_exit_code_1_unless_allowed() {
    let env = env_with_model();
    let text = format!("{}{{not json\n{{\"state\": 1, \"extra\": [}}\n", input(2));
    let file = env.write("states.jsonl", &text);
    let batch = |allowed: Option<&str>| {
        let mut cmd = env.cmd();
        cmd.args(["batch", "acme/support", "--input"]).arg(&file);
        if let Some(allowed) = allowed {
            cmd.args(["--max-failed-items", allowed]);
        }
        let output = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        let results = lines(&String::from_utf8(output.stdout).unwrap());
        assert_eq!(indexes(&results), [0, 1, 2, 3], "{stderr}");
        (output.status.code().unwrap(), stderr)
    };
    let (code, stderr) = batch(None);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("completed: 4 items (2 failed)"), "{stderr}");
    assert!(
        stderr.contains("error: 2 of 4 items failed, more than the 0 allowed (--max-failed-items)"),
        "{stderr}"
    );
    for (allowed, expected) in [("2", 0), ("1", 1), ("50%", 0), ("49.9%", 1), ("100%", 0)] {
        assert_eq!(
            batch(Some(allowed)).0,
            expected,
            "--max-failed-items {allowed}"
        );
    }
    for wrong in ["x", "-1", "101%", "%"] {
        let output = env
            .cmd()
            .args([
                "batch",
                "acme/support",
                "--max-failed-items",
                wrong,
                "--input",
            ])
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2), "--max-failed-items {wrong}");
    }

    let job_id = env.json(&["jobs", "list", "acme/support"])[0]["jobId"]
        .as_str()
        .unwrap()
        .to_owned();
    let poll = |extra: &[&str]| {
        env.cmd()
            .args(["jobs", "poll", &job_id, "--wait"])
            .args(extra)
            .output()
            .unwrap()
            .status
            .code()
    };
    assert_eq!(poll(&[]), Some(1));
    assert_eq!(poll(&["--max-failed-items", "2"]), Some(0));
    // Without --wait there is nothing to judge: a usage error.
    env.cmd()
        .args(["jobs", "poll", &job_id, "--max-failed-items", "2"])
        .assert()
        .code(2);
}

#[test]
fn batch_over_examples_writes_to_a_file_and_captures_when_asked() {
    let env = env_with_model();
    let ingest =
        crate::http_jobs::items(3)
            .iter()
            .enumerate()
            .fold(String::new(), |mut out, (i, item)| {
                let line = json!({"example_id": format!("e{i}"), "state": item["state"]});
                writeln!(out, "{line}").unwrap();
                out
            });
    env.ingest("acme/support", &ingest);
    let out = env.path().join("answers.jsonl");
    let job = env.json(&[
        "batch",
        "acme/support",
        "--examples",
        "all",
        "--capture",
        "--output",
        out.to_str().unwrap(),
    ]);
    assert_eq!(job["status"], "completed");
    let results = lines(&std::fs::read_to_string(&out).unwrap());
    let ids: Vec<&str> = results
        .iter()
        .map(|r| r["example_id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["e0", "e1", "e2"]);
    let shown = env.json(&["examples", "show", "acme/support", "e1"]);
    assert_eq!(shown["decisions"].as_array().unwrap().len(), 1, "{shown}");
}

/// How many result lines job `job_id` has in the store, read straight from the database
/// (the `jobs` commands take up orphans, which these tests must not do by themselves).
fn results_written(env: &TestEnv, job_id: &str) -> usize {
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    db.busy_timeout(Duration::from_secs(5)).unwrap();
    let count: i64 = db
        .query_row(
            "SELECT count(*) FROM job_lines WHERE job_id = ?1 AND part = 'results'",
            [job_id],
            |r| r.get(0),
        )
        .unwrap();
    usize::try_from(count).unwrap()
}

/// The process ID of the last worker started for the job.
fn worker_pid(dir: &std::path::Path) -> String {
    std::fs::read_to_string(dir.join("worker.pid"))
        .unwrap()
        .trim()
        .to_owned()
}

/// Wait until the job has at least `count` result lines; the PID of its worker.
fn worker_after(env: &TestEnv, job_id: &str, count: usize) -> String {
    let dir = env.home().join("jobs").join(job_id);
    wait_until(Duration::from_mins(2), Duration::from_millis(10), || {
        let written = results_written(env, job_id);
        if written >= count {
            return Ok(worker_pid(&dir));
        }
        Err(format!(
            "{written} of {count} results; worker.log:\n{}",
            std::fs::read_to_string(dir.join("worker.log")).unwrap_or_default()
        ))
    })
}

/// A captured batch whose worker is killed three times records each item's decision once:
/// the run that died may have committed captures whose result lines it never wrote, and
/// the resumed run decides those items again.
#[test]
fn a_captured_batch_killed_mid_job_records_each_decision_once() {
    let env = env_with_model();
    let total: i64 = 600;
    let file = env.write("states.jsonl", &input(600));
    let output = env
        .cmd()
        .args(["batch", "acme/support", "--capture", "--detach", "--input"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(output.status.success());
    let job_id = String::from_utf8(output.stdout).unwrap().trim().to_owned();
    let dir = env.home().join("jobs").join(&job_id);
    for kill in 1..=3 {
        let pid = worker_after(&env, &job_id, kill * 100);
        // Between two flushes of the results: items decided (and captured) since the last
        // flush have no result line yet.
        std::thread::sleep(Duration::from_millis(120));
        kill_9(&pid);
        // `jobs list` takes up the orphan, once the dead worker's threads have all let go
        // of its lease (one may still be finishing an fsync): a new worker resumes it.
        wait_until(Duration::from_secs(30), Duration::from_millis(50), || {
            env.cmd().args(["jobs", "list"]).assert().success();
            if worker_pid(&dir) == pid {
                return Err("no worker took the job up again".into());
            }
            Ok(())
        });
    }
    wait_completed(&env, &job_id);
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    let (decisions, examples): (i64, i64) = db
        .query_row(
            "SELECT count(*), count(DISTINCT example_id) FROM decisions",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(
        (decisions, examples),
        (total, total),
        "one decision per item, none twice"
    );
}

#[test]
fn a_detached_worker_killed_mid_job_is_resumed_with_exactly_one_result_per_item() {
    let env = env_with_model();
    let total = 600;
    let file = env.write("states.jsonl", &input(total));
    let job_id = detached_batch(&env, &file);
    // `jobs poll` takes up orphans, so read the database directly here: wait for some
    // results, then kill the worker.
    let pid = worker_after(&env, &job_id, 20);
    kill_9(&pid);
    let before = results_written(&env, &job_id);
    assert!(before < total, "killed mid-job ({before} of {total})");

    // The next `arbiter jobs` command takes it up again; `--wait` follows it to its end.
    let job = wait_completed(&env, &job_id);
    assert_eq!(job["progress"]["done"], total);
    let stored = env
        .cmd()
        .args(["jobs", "results", &job_id])
        .output()
        .unwrap();
    let results = lines(&String::from_utf8(stored.stdout).unwrap());
    assert_eq!(
        indexes(&results),
        (0..total as u64).collect::<Vec<_>>(),
        "none lost, none twice"
    );
    assert!(results.iter().all(|r| r["answers"].is_object()));
    let usage: u64 = results
        .iter()
        .map(|r| r["usage"]["input_tokens"].as_u64().unwrap())
        .sum();
    assert_eq!(
        job["result"]["usage"]["input_tokens"], usage,
        "usage counts every item once"
    );
}

#[test]
fn a_server_start_resumes_a_job_whose_worker_died() {
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(300));
    let job_id = detached_batch(&env, &file);
    let pid = worker_after(&env, &job_id, 5);
    kill_9(&pid);
    // The takeover is counted (recording on in this test process; other tests running
    // at once may count theirs).
    let takeovers = || {
        let scrape = arbiter::telemetry::metrics::encode().unwrap();
        crate::metrics::sample(&scrape, "arbiter_job_takeovers_total")
    };
    arbiter::telemetry::metrics::install();
    let before = takeovers();

    let runtime = tokio::runtime::Runtime::new().unwrap();
    let env = runtime.block_on(async {
        let server = env.serve().await;
        let ctx = server.home().ctx().clone();
        let id = arbiter::core::jobs::parse_id(&job_id).unwrap();
        let job = wait_until_async(
            Duration::from_mins(2),
            Duration::from_millis(50),
            || async {
                let job = arbiter::core::jobs::get(&ctx, &id).unwrap();
                if job.status.is_finished() {
                    Ok(job)
                } else {
                    Err(format!("the server never resumed {job:?}"))
                }
            },
        )
        .await;
        assert_eq!(job.status.as_str(), "completed");
        assert_eq!(job.progress.done, 300);
        assert!(
            takeovers() - before >= 1.0,
            "the dead worker's job taken over"
        );
        server.stop().await
    });
    let stored = env
        .cmd()
        .args(["jobs", "results", &job_id])
        .output()
        .unwrap();
    let text = String::from_utf8(stored.stdout).unwrap();
    assert_eq!(indexes(&lines(&text)), (0..300).collect::<Vec<_>>());
}

#[test]
fn jobs_cancel_stops_a_detached_job_and_is_idempotent() {
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(3000));
    let job_id = detached_batch(&env, &file);
    poll_until(&env, &job_id, |job| {
        job["progress"]["done"].as_u64() > Some(0)
    });
    let cancelled = env.json(&["jobs", "cancel", &job_id]);
    assert!(
        matches!(cancelled["status"].as_str(), Some("running" | "cancelled")),
        "{cancelled}"
    );
    let job = poll_until(&env, &job_id, |job| job["status"] != "running");
    assert_eq!(job["status"], "cancelled");
    let done = job["progress"]["done"].as_u64().unwrap();
    assert!(done < 3000);
    // No shard of a cancelled job is running (it read `running: 2`), and not all are done.
    assert_eq!(job["shards"]["running"], 0, "{job}");
    assert!(
        job["shards"]["done"].as_u64() < job["shards"]["total"].as_u64(),
        "{job}"
    );
    let again = env.json(&["jobs", "cancel", &job_id]);
    assert_eq!(again, job, "cancelling again changes nothing");
    let stored = env
        .cmd()
        .args(["jobs", "results", &job_id])
        .output()
        .unwrap();
    assert_eq!(
        lines(&String::from_utf8(stored.stdout).unwrap()).len() as u64,
        done
    );
    // `--wait` on a job that did not complete exits 1.
    env.cmd()
        .args(["jobs", "poll", &job_id, "--wait"])
        .assert()
        .code(1);
}

#[test]
fn batch_and_jobs_errors_have_their_exit_codes() {
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(1));
    let (code, problem, _) =
        env.problem(&["batch", "acme/nope", "--input", file.to_str().unwrap()]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("model_not_found"))
    );
    let (code, problem, _) = env.problem(&[
        "batch",
        "acme/support",
        "--revision",
        "v9",
        "--input",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (4, Some("revision_not_found"))
    );
    let bad = env.write("bad.yaml", "q: {type: maybe}\n");
    let (code, problem, _) = env.problem(&[
        "batch",
        "acme/support",
        "-q",
        bad.to_str().unwrap(),
        "--input",
        file.to_str().unwrap(),
    ]);
    assert_eq!(
        (code, problem["code"].as_str()),
        (1, Some("validation_error"))
    );
    let (code, problem, _) = env.problem(&["jobs", "poll", "0f8fad5b-d9cb-469f-a165-70867728950e"]);
    assert_eq!((code, problem["code"].as_str()), (4, Some("job_not_found")));
    env.cmd().args(["batch", "acme/support"]).assert().code(2);
    env.cmd()
        .args([
            "batch",
            "acme/support",
            "--detach",
            "--output",
            "x",
            "--input",
        ])
        .arg(&file)
        .assert()
        .code(2);
    // None of these left a job behind.
    assert_eq!(env.json(&["jobs", "list"]), json!([]));
}

#[test]
fn a_list_limit_out_of_range_is_a_usage_error_not_clamped() {
    let env = TestEnv::new();
    for args in [
        &["jobs", "list", "-n", "0"][..],
        &["examples", "list", "acme/support", "-n", "0"],
        &["examples", "list", "acme/support", "-n", "1001"],
    ] {
        let output = env.cmd().args(args).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--limit"), "{args:?}: {stderr}");
    }
}

/// Every file and directory arbiter creates in its home is private (no access for group or
/// others: 0600/0700, or less for git's read-only objects), whichever library wrote it;
/// an `--output` file gets the modes the user's umask gives, like any program's output.
#[test]
fn the_home_is_private_and_outputs_are_not() {
    use std::os::unix::fs::PermissionsExt;
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(3));
    let out = env.path().join("answers.jsonl");
    env.cmd()
        .args(["batch", "acme/support", "--capture", "--input"])
        .arg(&file)
        .arg("--output")
        .arg(&out)
        .assert()
        .success();
    env.cmd()
        .args(["tokens", "create", "--name", "t", "--scope", "decisions"])
        .assert()
        .success();
    let mut seen = 0;
    let mut pending = vec![env.home()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let meta = entry.metadata().unwrap();
            let mode = meta.permissions().mode() & 0o777;
            assert_eq!(mode & 0o077, 0, "{} is {mode:o}", entry.path().display());
            seen += 1;
            if meta.is_dir() {
                pending.push(entry.path());
            }
        }
    }
    assert!(
        seen > 20,
        "the home holds the database (with the job) and a repository: {seen}"
    );
    for name in ["arbiter.db", "repos"] {
        assert!(env.home().join(name).exists(), "{name}");
    }
    // SAFETY: reading the umask means setting it; it is set back at once.
    let umask = unsafe {
        let mask = libc::umask(0o022);
        libc::umask(mask);
        mask
    };
    let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o666 & !umask, "{mode:o}");
}

/// A cancelled job that has not stopped yet reads `cancelling` (JSON: still `running`, with
/// `cancelRequested`), never plain `running`; `jobs cancel --wait` returns once it is
/// `cancelled`.
#[test]
fn jobs_cancel_says_cancelling_until_the_job_stops_and_wait_waits_for_it() {
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(3000));
    let start = || {
        let job_id = detached_batch(&env, &file);
        poll_until(&env, &job_id, |job| {
            job["progress"]["done"].as_u64() > Some(0)
        });
        job_id
    };
    let first = start();
    let output = env
        .cmd()
        .args(["--table", "jobs", "cancel", &first])
        .output()
        .unwrap();
    assert!(output.status.success());
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    let status = shown
        .lines()
        .find_map(|line| line.strip_prefix("status    "))
        .unwrap_or_else(|| panic!("{shown}"));
    assert!(matches!(status, "cancelling" | "cancelled"), "{shown}");
    let polled = env.json(&["jobs", "poll", &first]);
    match polled["status"].as_str() {
        Some("running") => assert_eq!(polled["cancelRequested"], true, "{polled}"),
        Some("cancelled") => assert_eq!(polled["cancelRequested"], false, "{polled}"),
        _ => panic!("{polled}"),
    }

    let second = start();
    let waited = env.json(&["jobs", "cancel", &second, "--wait"]);
    assert_eq!(waited["status"], "cancelled", "{waited}");
    assert_eq!(waited["cancelRequested"], false, "{waited}");
    assert!(waited["finishedAt"].is_string(), "{waited}");
}

/// A job ID prefix shorter than the minimum says so, instead of "not found".
#[test]
fn a_job_prefix_shorter_than_the_minimum_says_so() {
    let env = env_with_model();
    for command in ["poll", "cancel", "results"] {
        let (code, problem, _) = env.problem(&["jobs", command, "9dc"]);
        assert_eq!(code, 1, "{problem}");
        assert_eq!(
            problem["detail"],
            "job ID prefix `9dc` is too short: give at least 4 characters of the ID"
        );
    }
}

/// A job's result in `jobs poll` shows its figures to three decimals, as tables do; the
/// JSON keeps them whole.
#[test]
fn jobs_poll_rounds_the_figures_of_a_result() {
    let env = env_with_model();
    let file = env.write("states.jsonl", &input(3));
    let job_id = detached_batch(&env, &file);
    let job = wait_completed(&env, &job_id);
    let output = env
        .cmd()
        .args(["--table", "jobs", "poll", &job_id])
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&output.stdout).into_owned();
    let line = shown
        .lines()
        .find_map(|line| line.strip_prefix("result    "))
        .unwrap_or_else(|| panic!("{shown}"));
    let result: Value = serde_json::from_str(line).unwrap();
    let figure = result["meanLatencyMs"].to_string();
    let decimals = figure.split_once('.').map_or(0, |(_, d)| d.len());
    assert!(decimals <= 3, "{line}");
    let whole = job["result"]["meanLatencyMs"].as_f64().unwrap();
    let shown_figure = result["meanLatencyMs"].as_f64().unwrap();
    assert!(
        (whole - shown_figure).abs() <= 0.0005 + 1e-9,
        "{whole} shown as {line}"
    );
}

/// `batch acme/support --detach --input <file>`: the job ID it prints.
fn detached_batch(env: &TestEnv, file: &std::path::Path) -> String {
    let output = env
        .cmd()
        .args(["batch", "acme/support", "--detach", "--input"])
        .arg(file)
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout).unwrap().trim().to_owned()
}
