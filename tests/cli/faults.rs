//! Faults, with real processes and real signals: `kill -9` of `arbiter serve` during
//! captured decisions, a captured batch, an alignment and an ingest; SIGTERM draining
//! in-flight requests; a full disk during capture; eight writer processes on one home.
//! Each checks that nothing acknowledged is lost and nothing is doubled, and says what it
//! saw on stderr (`cargo test --test cli faults:: -- --nocapture`).
#![allow(clippy::print_stderr)]

use crate::common::Served;
use crate::common::{
    QUESTIONS, TestEnv, assert_succeeded, job_finished, repo_root, runtime, wait_until,
    wait_until_async,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::time::Duration;

const MODEL: &str = "acme/support";

/// A home with `acme/support` on `mo` (capture on), with `questions` (a file; else the
/// common test questions), and a token with every scope, writer on it.
fn env_with_model(questions: Option<&std::path::Path>) -> (TestEnv, String) {
    let env = TestEnv::new();
    let token = model_and_token(&env, questions);
    (env, token)
}

/// [`env_with_model`] in `env`: the token's secret.
fn model_and_token(env: &TestEnv, questions: Option<&std::path::Path>) -> String {
    let written = env.write("questions.yaml", QUESTIONS);
    env.create_model(MODEL, "mo", questions.unwrap_or(&written));
    let created = env.json(&[
        "tokens",
        "create",
        "--name",
        "faults",
        "--scope",
        "decisions",
        "--scope",
        "batches",
        "--scope",
        "alignments",
        "--scope",
        "examples:read",
        "--scope",
        "examples:write",
        "--scope",
        "models:read",
        "--role",
        "acme/*=writer",
        "--json",
    ]);
    created["token"].as_str().unwrap().to_owned()
}

/// The store as the next process opens it: its integrity checked.
fn store(env: &TestEnv) -> rusqlite::Connection {
    let db = rusqlite::Connection::open(env.home().join("arbiter.db")).unwrap();
    let integrity: String = db
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok", "the database is intact");
    db
}

fn count(db: &rusqlite::Connection, sql: &str) -> usize {
    let n: i64 = db.query_row(sql, [], |r| r.get(0)).unwrap();
    usize::try_from(n).unwrap()
}

fn ticket(client: usize, i: usize) -> Value {
    json!({"messages": [{"role": "user", "content": format!(
        "client {client} ticket {i}: the parcel never came and I want a refund"
    )}]})
}

/// `GET url` as JSON, with `token` when given.
async fn get_json(client: &reqwest::Client, url: &str, token: Option<&str>) -> Value {
    let mut request = client.get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap().json().await.unwrap()
}

/// Poll `location` until the job is finished (at most four minutes).
async fn finished_job(client: &reqwest::Client, url: &str, token: &str) -> Value {
    wait_until_async(
        Duration::from_mins(4),
        Duration::from_millis(50),
        || async {
            let job = get_json(client, url, Some(token)).await;
            if job_finished(&job) {
                Ok(job)
            } else {
                Err(format!("the job is {job}"))
            }
        },
    )
    .await
}

/// Eight clients decide distinct states on a model that captures; the server is killed
/// with SIGKILL mid-stream. Every decision answered `recorded: true` is in the store, and
/// no decision is there twice.
#[test]
fn kill_9_during_captured_decisions_loses_no_acknowledged_capture() {
    let (env, token) = env_with_model(None);
    let served = env.spawn_serve();
    let url = served.url("/v1/decision");
    let rt = runtime();
    // Killed once the clients have 8 answers between them (not after a fixed time, which a
    // busy machine may spend before the first answer).
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let (acknowledged, sent) = rt.block_on(async {
        let clients: Vec<_> = (0..8)
            .map(|c| {
                let (url, token, answered) = (url.clone(), token.clone(), answered.clone());
                tokio::spawn(async move {
                    let client = Served::client();
                    let (mut acknowledged, mut sent) = (Vec::new(), 0);
                    for i in 0.. {
                        let body = json!({"model": MODEL, "state": ticket(c, i)});
                        sent += 1;
                        let Ok(reply) = client
                            .post(&url)
                            .bearer_auth(&token)
                            .json(&body)
                            .send()
                            .await
                        else {
                            break;
                        };
                        let Ok(answer) = reply.json::<Value>().await else {
                            break;
                        };
                        assert_eq!(answer["recorded"], true, "{answer}");
                        acknowledged
                            .push(answer["example"]["exampleId"].as_str().unwrap().to_owned());
                        answered.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    }
                    (acknowledged, sent)
                })
            })
            .collect();
        let deadline = std::time::Instant::now() + Duration::from_mins(1);
        while answered.load(std::sync::atomic::Ordering::SeqCst) < 8
            && std::time::Instant::now() < deadline
        {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let _ = served.kill_9();
        let mut all = (Vec::new(), 0);
        for client in clients {
            let (acknowledged, sent) = client.await.unwrap();
            all.0.extend(acknowledged);
            all.1 += sent;
        }
        all
    });
    assert!(
        acknowledged.len() >= 8,
        "the clients were answered before the kill"
    );
    let db = store(&env);
    let mut stored = db
        .prepare("SELECT example_id, count(*) FROM decisions GROUP BY example_id")
        .unwrap();
    let stored: Vec<(String, i64)> = stored
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert!(
        stored.iter().all(|(_, n)| *n == 1),
        "a decision recorded twice"
    );
    let stored: BTreeSet<String> = stored.into_iter().map(|(id, _)| id).collect();
    let lost: Vec<&String> = acknowledged
        .iter()
        .filter(|id| !stored.contains(*id))
        .collect();
    assert!(lost.is_empty(), "acknowledged but lost: {lost:?}");
    assert!(stored.len() <= sent, "more recorded than sent");
    eprintln!(
        "faults: {sent} decisions sent, {} acknowledged recorded, {} in the store, 0 lost, 0 twice",
        acknowledged.len(),
        stored.len()
    );
    // The next server starts on the same home and serves.
    let served = env.spawn_serve();
    let reply = rt.block_on(async {
        Served::client()
            .post(served.url("/v1/decision"))
            .bearer_auth(&token)
            .json(&json!({"model": MODEL, "state": ticket(99, 0)}))
            .send()
            .await
    });
    assert_eq!(reply.unwrap().status(), 200);
    let (exit, _) = served.stop();
    assert!(exit.success());
}

/// A captured batch whose server is killed with SIGKILL twice is resumed by the next start
/// and completes with one result line and one recorded decision per item.
#[test]
fn kill_9_during_a_captured_batch_resumes_with_each_item_once() {
    let (env, token) = env_with_model(None);
    let total = 400;
    let items: Vec<Value> = (0..total).map(|i| json!({"state": ticket(0, i)})).collect();
    let rt = runtime();
    let mut served = env.spawn_serve();
    let route = "/v1/models/acme%2Fsupport/batch-decisions";
    let job = rt.block_on(async {
        let reply = Served::client()
            .post(served.url(route))
            .bearer_auth(&token)
            .header("idempotency-key", "faults-batch-0001")
            .json(&json!({"items": items, "capture": true}))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), 202);
        reply.json::<Value>().await.unwrap()
    });
    let job_url = format!("{route}/{}", job["jobId"].as_str().unwrap());
    for kill in 1..=2 {
        // Wait until this run has decided some items, then kill it mid-stream.
        wait_until(Duration::from_mins(2), Duration::from_millis(20), || {
            let job: Value = rt.block_on(served.get_json(&job_url, &token));
            let done = job["progress"]["done"].as_u64().unwrap();
            assert_ne!(
                job["status"], "completed",
                "finished before kill {kill}: raise the total"
            );
            if done >= kill * 60 {
                Ok(())
            } else {
                Err(format!("too little progress: {job}"))
            }
        });
        let _ = served.kill_9();
        served = env.spawn_serve();
    }
    let job = rt.block_on(finished_job(
        &Served::client(),
        &served.url(&job_url),
        &token,
    ));
    assert_eq!(job["status"], "completed", "{job}");
    let indices = rt.block_on(served.result_indexes(&token, &job_url));
    assert_eq!(
        indices,
        (0..total as u64).collect::<Vec<_>>(),
        "one line per item, in order"
    );
    let (exit, _) = served.stop();
    assert!(exit.success());
    let db = store(&env);
    assert_eq!(
        (
            count(&db, "SELECT count(*) FROM decisions"),
            count(&db, "SELECT count(DISTINCT example_id) FROM decisions")
        ),
        (total, total),
        "one recorded decision per item, none twice"
    );
}

/// An ingest whose server is killed with SIGKILL before it answers leaves whole examples
/// only; sending it again with its key completes it, with each example once.
#[test]
fn kill_9_during_an_ingest_leaves_whole_examples_and_a_retry_completes_it() {
    let (env, token) = env_with_model(None);
    let total = 30_000;
    let mut body = String::new();
    for i in 0..total {
        writeln!(
            body,
            "{}",
            json!({"example_id": format!("in-{i:05}"), "state": ticket(1, i),
                   "annotations": {"escalate": {"answer": i % 2 == 0}}})
        )
        .unwrap();
    }
    let route = "/v1/models/acme%2Fsupport/examples";
    let post = |served: &Served| {
        Served::client()
            .post(served.url(route))
            .bearer_auth(&token)
            .header("content-type", "application/x-ndjson")
            .header("idempotency-key", "faults-ingest-0001")
            .body(body.clone())
            .send()
    };
    let rt = runtime();
    let served = env.spawn_serve();
    let db_path = env.home().join("arbiter.db");
    rt.block_on(async {
        let pending = tokio::spawn(post(&served));
        // Kill once the ingest has begun writing, before it answers.
        wait_until_async(Duration::from_mins(2), Duration::from_millis(2), || async {
            let written = rusqlite::Connection::open(&db_path)
                .and_then(|db| {
                    db.query_row("SELECT count(*) FROM examples", [], |r| r.get::<_, i64>(0))
                })
                .unwrap_or(0);
            assert!(
                written > 0 || !pending.is_finished(),
                "the ingest answered before any row was seen"
            );
            if written > 0 {
                Ok(())
            } else {
                Err("the ingest has not begun writing".to_owned())
            }
        })
        .await;
        assert!(
            !pending.is_finished(),
            "the ingest answered before the kill: raise the total"
        );
        let _ = served.kill_9();
        assert!(
            pending.await.unwrap().is_err(),
            "no answer from a killed server"
        );
    });
    {
        let db = store(&env);
        let written = count(&db, "SELECT count(*) FROM examples");
        assert!(written < total, "the kill came mid-ingest ({written})");
        eprintln!("faults: ingest of {total} killed with {written} examples written");
        // Every example there is whole: its state parses and its annotation is there.
        let annotated = count(&db, "SELECT count(*) FROM annotations");
        assert_eq!(annotated, written, "an example without its annotation");
    }
    let served = env.spawn_serve();
    let reply = rt.block_on(async { post(&served).await }).unwrap();
    assert_eq!(reply.status(), 200);
    let (exit, _) = served.stop();
    assert!(exit.success());
    let db = store(&env);
    assert_eq!(count(&db, "SELECT count(*) FROM examples"), total);
    assert_eq!(count(&db, "SELECT count(*) FROM annotations"), total);
}

/// An alignment whose server is killed with SIGKILL at several points, the last of them
/// possibly during its commit, completes after the restarts with one commit on its branch
/// and a repository `git fsck` finds sound.
#[test]
fn kill_9_during_an_alignment_leaves_one_sound_commit() {
    let questions = repo_root().join("examples/support/questions.yaml");
    let (env, token) = env_with_model(Some(&questions));
    let file = env.write("examples.jsonl", &crate::align::labelled(72, &["intent"]));
    env.cmd()
        .args(["examples", "ingest", MODEL, "--file"])
        .arg(&file)
        .assert()
        .success();
    let rt = runtime();
    let mut served = env.spawn_serve();
    let route = "/v1/models/acme%2Fsupport/alignments";
    let job = rt.block_on(async {
        let reply = Served::client()
            .post(served.url(route))
            .bearer_auth(&token)
            .header("idempotency-key", "faults-align-0001")
            // Without the fine-tune: the kills below are timed for the search and the commit.
            .json(&json!({"questions": ["intent"], "seed": 3, "tune": false}))
            .send()
            .await
            .unwrap();
        assert_eq!(reply.status(), 202);
        reply.json::<Value>().await.unwrap()
    });
    let job_id = job["jobId"].as_str().unwrap().to_owned();
    let job_url = format!("{route}/{job_id}");
    // Killed after 0.3 s, 0.9 s and 1.5 s of a run: early, mid-search, and late.
    for after in [300, 900, 1500] {
        std::thread::sleep(Duration::from_millis(after));
        let _ = served.kill_9();
        served = env.spawn_serve();
    }
    let job = rt.block_on(finished_job(
        &Served::client(),
        &served.url(&job_url),
        &token,
    ));
    assert_eq!(job["status"], "completed", "{job}");
    assert_eq!(job["result"]["improved"], true, "{job}");
    let (exit, _) = served.stop();
    assert!(exit.success());
    let repo = env.home().join("repos/acme/support.git");
    let fsck = env
        .git()
        .arg("-C")
        .arg(&repo)
        .args(["fsck", "--strict", "--no-dangling"])
        .output()
        .unwrap();
    assert_succeeded(&fsck);
    let branch = format!("alignments/{job_id}");
    let on_branch = env.git_in(&repo, &["rev-list", "--count", &format!("main..{branch}")]);
    assert_eq!(on_branch.trim(), "1", "one alignment commit on {branch}");
    let base = job["result"]["baseCheckpoint"].as_str().unwrap();
    let parent = env.git_in(&repo, &["rev-parse", &format!("{branch}^")]);
    assert_eq!(parent.trim(), base, "its parent is the base checkpoint");
}

/// SIGTERM while decisions are in flight: each is answered, then the server exits 0.
#[test]
fn sigterm_drains_in_flight_decisions() {
    let env = TestEnv::new();
    let token = crate::common::decisions_token(&env)["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let served = env.spawn_serve();
    // Six encoder windows (552 tokens): in flight while the health below finds them held,
    // yet drained in a few seconds even when the machine is busy (300 entries, 35 windows
    // each, outlasted the 30 s stop guard on CI's 2 cores).
    let text = crate::common::long_ticket_text(50);
    let body = json!({"model": "jev-latest", "state": {"message": text}, "truncate": true,
                      "questions": {"urgent": {"type": "noul", "instructions": "Is it urgent?"}}});
    let rt = runtime();
    let (answers, exit) = rt.block_on(async {
        let url = served.url("/v1/decision");
        let health = served.url("/healthz");
        let requests: Vec<_> = (0..4)
            .map(|_| {
                let (url, token, body) = (url.clone(), token.clone(), body.clone());
                tokio::spawn(async move {
                    let reply = Served::client()
                        .post(url)
                        .bearer_auth(token)
                        .json(&body)
                        .send()
                        .await;
                    reply.map(|r| r.status().as_u16())
                })
            })
            .collect();
        // In flight: the server holds all four (SIGTERM before it read them would lose
        // them, not drain them), and none is answered yet.
        wait_until_async(
            Duration::from_mins(1),
            Duration::from_millis(20),
            || async {
                let load = get_json(&Served::client(), &health, None).await;
                if load["decisions"]["inFlight"] == 4 {
                    Ok(())
                } else {
                    Err(format!("not four in flight: {load}"))
                }
            },
        )
        .await;
        assert!(
            requests.iter().all(|r| !r.is_finished()),
            "answered before SIGTERM"
        );
        let (exit, _) = tokio::task::spawn_blocking(move || served.stop())
            .await
            .unwrap();
        let mut answers = Vec::new();
        for request in requests {
            answers.push(request.await.unwrap());
        }
        (answers, exit)
    });
    assert!(
        answers.iter().all(|a| matches!(a, Ok(200))),
        "every in-flight decision answered 200: {answers:?}"
    );
    assert_eq!(exit.code(), Some(0));
}

/// A disk that fills up during capture: a small tmpfs mounted on the home where the test
/// may mount one (root), else a file size limit (`ulimit -f`) on the server. A captured
/// decision that cannot be stored answers 507 `insufficient_storage`, every decision
/// answered `recorded: true` is in the store once, nothing else is, and the database is
/// intact.
#[test]
fn a_full_disk_during_capture_answers_a_problem_and_writes_nothing_half() {
    let env = TestEnv::new();
    let tmpfs = Tmpfs::mount(&env.home(), "3m");
    let token = model_and_token(&env, None);
    let limit = match &tmpfs {
        Some(_) => None,
        // Files may grow 256 KiB past the largest there is now.
        None => Some(walk_sizes(&env.home()).into_iter().max().unwrap_or(0) + 256 * 1024),
    };
    let served = env.spawn_serve_with(|command| {
        use std::os::unix::process::CommandExt as _;
        let Some(limit) = limit else { return };
        // SAFETY: only async-signal-safe calls between fork and exec.
        unsafe {
            command.pre_exec(move || {
                let rlimit = libc::rlimit {
                    rlim_cur: limit,
                    rlim_max: limit,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &raw const rlimit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // A write past the limit fails with EFBIG rather than killing the process.
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                Ok(())
            });
        }
    });
    let rt = runtime();
    let padding = "x".repeat(16_000);
    let (acknowledged, refused) = rt.block_on(async {
        let client = Served::client();
        let (mut acknowledged, mut refused) = (Vec::new(), None);
        for i in 0..1_000 {
            let state = json!({"ticket": format!("ticket {i}"), "padding": padding});
            let reply = client
                .post(served.url("/v1/decision"))
                .bearer_auth(&token)
                .json(&json!({"model": MODEL, "state": state, "truncate": true}))
                .send()
                .await
                .unwrap();
            let status = reply.status().as_u16();
            let answer: Value = reply.json().await.unwrap();
            if status == 200 {
                assert_eq!(answer["recorded"], true, "{answer}");
                acknowledged.push(answer["example"]["exampleId"].as_str().unwrap().to_owned());
            } else {
                refused = Some((status, answer));
                break;
            }
        }
        (acknowledged, refused)
    });
    let (status, problem) = refused.expect("the disk filled within 1,000 decisions");
    eprintln!(
        "faults: full disk ({}) after {} recorded decisions: {status}",
        if tmpfs.is_some() {
            "tmpfs"
        } else {
            "ulimit -f"
        },
        acknowledged.len()
    );
    assert_eq!(status, 507, "{problem}");
    assert_eq!(problem["code"], "insufficient_storage", "{problem}");
    assert!(problem["requestId"].is_string());
    assert!(
        !acknowledged.is_empty(),
        "decisions were recorded before the disk filled"
    );
    let (exit, _) = served.stop();
    assert!(exit.success(), "{exit:?}");
    let db = store(&env);
    for id in &acknowledged {
        let n = db
            .query_row(
                "SELECT count(*) FROM decisions WHERE example_id = ?1",
                [id],
                |r| r.get::<_, i64>(0),
            )
            .unwrap();
        assert_eq!(n, 1, "acknowledged decision for {id}");
    }
    assert_eq!(
        count(&db, "SELECT count(*) FROM decisions"),
        acknowledged.len(),
        "nothing recorded that was not acknowledged"
    );
    drop(db);
    drop(tmpfs);
}

/// A tmpfs mounted for the life of the value; `None` where this process may not mount.
struct Tmpfs(std::path::PathBuf);

impl Tmpfs {
    fn mount(dir: &std::path::Path, size: &str) -> Option<Self> {
        let mounted = std::process::Command::new("mount")
            .args([
                "-t",
                "tmpfs",
                "-o",
                &format!("size={size},mode=0700"),
                "tmpfs",
            ])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| Self(dir.to_owned()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

fn walk_sizes(dir: &std::path::Path) -> Vec<u64> {
    let mut sizes = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let meta = entry.metadata().unwrap();
        if meta.is_dir() {
            sizes.extend(walk_sizes(&entry.path()));
        } else {
            sizes.push(meta.len());
        }
    }
    sizes
}

/// Eight processes write to one home at once: four decide with capture, four ingest
/// annotated examples. Every one succeeds and every write is there once.
#[test]
fn eight_writer_processes_on_one_home_all_land() {
    let (env, _) = env_with_model(None);
    let decide_files: Vec<Vec<std::path::PathBuf>> = (0..4)
        .map(|w| {
            (0..10)
                .map(|i| env.write(&format!("w{w}/s{i}.json"), &ticket(10 + w, i).to_string()))
                .collect()
        })
        .collect();
    let ingest_files: Vec<std::path::PathBuf> = (0..4)
        .map(|w| {
            let mut text = String::new();
            for i in 0..300 {
                writeln!(
                    text,
                    "{}",
                    json!({"example_id": format!("w{w}-{i:03}"), "state": ticket(20 + w, i),
                           "annotations": {"escalate": {"answer": i % 3 == 0}}})
                )
                .unwrap();
            }
            env.write(&format!("ingest{w}.jsonl"), &text)
        })
        .collect();
    let barrier = std::sync::Barrier::new(8);
    let outcomes: Vec<(String, std::process::Output)> = std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for files in &decide_files {
            let (env, barrier) = (&env, &barrier);
            handles.push(scope.spawn(move || {
                barrier.wait();
                files
                    .iter()
                    .map(|file| {
                        let output = env
                            .std_cmd()
                            .args(["decide", "--model", MODEL, "--state"])
                            .arg(file)
                            .output()
                            .unwrap();
                        (format!("decide {}", file.display()), output)
                    })
                    .collect::<Vec<_>>()
            }));
        }
        for file in &ingest_files {
            let (env, barrier) = (&env, &barrier);
            handles.push(scope.spawn(move || {
                barrier.wait();
                let output = env
                    .std_cmd()
                    .args(["examples", "ingest", MODEL, "--file"])
                    .arg(file)
                    .output()
                    .unwrap();
                vec![(format!("ingest {}", file.display()), output)]
            }));
        }
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    for (what, output) in &outcomes {
        assert!(
            output.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let db = store(&env);
    assert_eq!(count(&db, "SELECT count(*) FROM decisions"), 40);
    assert_eq!(
        count(&db, "SELECT count(DISTINCT example_id) FROM decisions"),
        40
    );
    assert_eq!(count(&db, "SELECT count(*) FROM examples"), 40 + 1_200);
    assert_eq!(count(&db, "SELECT count(*) FROM annotations"), 1_200);
}

/// Damage the loose object of `model`'s `questions.yaml` at its default branch with
/// `damage` (given the object's file); returns the object's ID.
fn damage_questions_object(
    env: &TestEnv,
    model: &str,
    damage: impl FnOnce(&std::path::Path),
) -> String {
    let repo = git2::Repository::open_bare(env.home().join(format!("repos/{model}.git"))).unwrap();
    let tree = repo.head().unwrap().peel_to_tree().unwrap();
    let blob = tree.get_name("questions.yaml").unwrap().id().to_string();
    let file = repo
        .path()
        .join("objects")
        .join(&blob[..2])
        .join(&blob[2..]);
    let mut permissions = std::fs::metadata(&file).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    permissions.set_readonly(false);
    std::fs::set_permissions(&file, permissions).unwrap();
    damage(&file);
    blob
}

/// One model's repository with an object truncated as `head -c20` leaves it (which once
/// spun a thread at 100% CPU forever per request, and hung `GET /v1/models` and SIGTERM),
/// another's with the object deleted (once a 500): every operation that reads either is a
/// located error within 5 s, no thread spins on after its request, the healthy model is
/// answered throughout, and SIGTERM stops the server.
#[test]
fn a_truncated_or_deleted_object_is_located_within_5s_and_sigterm_still_stops_the_server() {
    let (env, token) = env_with_model(None);
    let questions = env.write("questions.yaml", QUESTIONS);
    for model in ["acme/truncated", "acme/deleted"] {
        env.create_model(model, "mo", &questions);
    }
    let truncated = damage_questions_object(&env, "acme/truncated", |file| {
        let bytes = std::fs::read(file).unwrap();
        std::fs::write(file, &bytes[..20]).unwrap();
    });
    let deleted = damage_questions_object(&env, "acme/deleted", |file| {
        std::fs::remove_file(file).unwrap();
    });
    let served = env.spawn_serve();
    let client = reqwest::Client::builder()
        .no_proxy()
        .timeout(Duration::from_secs(5))
        .build()
        .unwrap();
    let send = |method: reqwest::Method, path: String, body: Option<Value>| {
        let mut request = client
            .request(method.clone(), served.url(&path))
            .bearer_auth(&token)
            .header("idempotency-key", uuid::Uuid::new_v4().to_string());
        if let Some(body) = body {
            request = request.json(&body);
        }
        async move {
            let reply = request
                .send()
                .await
                .unwrap_or_else(|e| panic!("{method} {path}: no answer within 5 s: {e}"));
            let status = reply.status().as_u16();
            (status, reply.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    runtime().block_on(async {
        for (model, object) in [("acme/truncated", &truncated), ("acme/deleted", &deleted)] {
            let at = format!("/v1/models/{}", model.replace('/', "%2F"));
            let decision = json!({"model": model, "state": "I was charged twice"});
            let (status, problem) =
                send(reqwest::Method::POST, "/v1/decision".into(), Some(decision)).await;
            assert_eq!(status, 422, "{model}: {problem}");
            assert_eq!(problem["code"], "invalid_checkpoint", "{problem}");
            let detail = problem["detail"].as_str().unwrap();
            assert!(
                detail.contains("questions.yaml") && detail.contains(object.as_str()),
                "{model}: the problem names the file and the object: {problem}"
            );
            for (method, path, body) in [
                (reqwest::Method::GET, at.clone(), None),
                (
                    reqwest::Method::GET,
                    format!("{at}/examples-to-annotate"),
                    None,
                ),
                (
                    reqwest::Method::GET,
                    format!("{at}/diff?from=main&to=main"),
                    None,
                ),
                (
                    reqwest::Method::POST,
                    format!("{at}/alignments"),
                    Some(json!({})),
                ),
                (
                    reqwest::Method::POST,
                    format!("{at}/evaluations"),
                    Some(json!({})),
                ),
                (
                    reqwest::Method::POST,
                    format!("{at}/batch-decisions"),
                    Some(json!({"items": [{"state": "hi"}]})),
                ),
            ] {
                let (status, problem) = send(method.clone(), path.clone(), body).await;
                assert!(
                    status == 422 && problem["code"] == "invalid_checkpoint",
                    "{method} {path}: a located invalid_checkpoint, not {status}: {problem}"
                );
            }
            // The listing reads no question: it answers, the damaged model in it.
            let (status, list) = send(reqwest::Method::GET, "/v1/models".into(), None).await;
            assert_eq!(status, 200, "{list}");
            // The healthy model is answered all along.
            let decision = json!({"model": MODEL, "state": "I was charged twice"});
            let (status, answer) =
                send(reqwest::Method::POST, "/v1/decision".into(), Some(decision)).await;
            assert_eq!(status, 200, "{answer}");
        }
    });
    // No thread spins on after its request: over 2 s the idle server uses under 0.5 s of
    // CPU (one spinning thread would use about 2 s).
    let before = served.cpu_time();
    std::thread::sleep(Duration::from_secs(2));
    let spent = served.cpu_time().saturating_sub(before);
    assert!(
        spent < Duration::from_millis(500),
        "the idle server spent {spent:?} of CPU in 2 s: a thread spins"
    );
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "exit after SIGTERM: {exit:?}\n{log}");
}
