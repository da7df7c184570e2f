//! Hostile input (issue 37): documents nested 100,000 deep, texts past their limits, files
//! pushed with plain git that no arbiter would have committed. Each is refused with a
//! located 4xx naming the limit, at once, over HTTP and on the command line alike; never a
//! 5xx, a hang or a crash.

use crate::common::TestEnv;
use reqwest::Method;
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::path::Path;
use std::time::{Duration, Instant};

/// 100,000 objects nested in one another: 600 KB that took libyaml minutes to refuse.
fn deep_objects(depth: usize) -> String {
    format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth))
}

/// 100,000 arrays nested in one another (200 KB).
fn deep_arrays(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

fn path(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Commit `files` on top of `model`'s default branch as branch `branch`, straight into its
/// bare repository, as a plain `git push` would: arbiter validates nothing on the way in.
pub(crate) fn push_files(home: &Path, model: &str, branch: &str, files: &[(&str, &str)]) {
    let repo = git2::Repository::open_bare(home.join("repos").join(format!("{model}.git")))
        .expect("the model's bare repository");
    let head = repo.head().unwrap().peel_to_commit().unwrap();
    let mut tree = repo.treebuilder(Some(&head.tree().unwrap())).unwrap();
    for (name, text) in files {
        let blob = repo.blob(text.as_bytes()).unwrap();
        tree.insert(name, blob, 0o100_644).unwrap();
    }
    let tree = repo.find_tree(tree.write().unwrap()).unwrap();
    let signature = git2::Signature::new("t", "t@t", &git2::Time::new(1_700_000_000, 0)).unwrap();
    repo.commit(
        Some(&format!("refs/heads/{branch}")),
        &signature,
        &signature,
        "Pushed with plain git",
        &tree,
        &[&head],
    )
    .unwrap();
}

#[test]
fn files_nested_100_000_deep_are_refused_at_once_naming_the_limit() {
    let env = TestEnv::new();
    let state = env.write("state.json", "\"my parcel never arrived\"");
    let questions = env.write("questions.yaml", crate::common::QUESTIONS);
    let cases = [
        ("--questions", env.write("q.json", &deep_objects(100_000))),
        (
            "--questions",
            env.write("q.yaml", &format!("q: {}", deep_arrays(100_000))),
        ),
        ("--state", env.write("s.json", &deep_objects(100_000))),
    ];
    for (flag, file) in &cases {
        let mut args = vec!["decide", "--model", "mo"];
        match *flag {
            "--state" => args.extend(["--questions", path(&questions)]),
            _ => args.extend(["--state", path(&state)]),
        }
        args.extend([*flag, path(file)]);
        let started = Instant::now();
        let (code, problem, stderr) = env.problem(&args);
        // The whole process, start to exit, in a debug build; the check itself is bounded
        // at 50 ms by the unit tests (src/wire/validate/nesting.rs).
        let took = started.elapsed();
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(problem["code"], "bad_request", "{problem}");
        let detail = problem["detail"].as_str().unwrap();
        let name = file.file_name().unwrap().to_str().unwrap();
        assert!(
            detail.contains(name)
                && detail.contains("nest deeper than 127 levels (the limit) at line 1, column"),
            "{detail}"
        );
        assert!(took < Duration::from_secs(5), "{flag} {name}: {took:?}");
    }
}

/// As the README's table says: 400 `bad_request`, as for any body the parser refuses,
/// located by line and column and naming the limit; at once (it took 0.8 s for arrays and
/// minutes for objects inside a YAML questions file; `serde_json`'s own refusal named no limit).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_nested_100_000_deep_is_refused_at_once_naming_the_limit() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    for (body, column) in [
        (
            format!(r#"{{"model":"mo","state":{}}}"#, deep_arrays(100_000)),
            149,
        ),
        (deep_objects(100_000), 636),
    ] {
        let started = Instant::now();
        let reply = server
            .send(
                server
                    .request(Method::POST, "/v1/decision", Some(&token))
                    .header("content-type", "application/json")
                    .body(body),
            )
            .await;
        let took = started.elapsed();
        let problem = server.problem(&reply, 400, "bad_request").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(&format!(
                "nest deeper than 127 levels (the limit) at line 1, column {column}"
            )),
            "{detail}"
        );
        assert!(took < Duration::from_secs(1), "{took:?}");
    }
}

/// A checkpoint pushed with plain git whose `questions.yaml` is nested 100,000 deep, or is
/// not YAML at all: a decision at it and a diff to it are 422 `invalid_checkpoint`, located
/// in the file, at once (the diff was a 500).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pushed_checkpoint_deep_or_not_yaml_is_an_invalid_checkpoint_in_diff_too() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let model_id = home.model("acme/support");
    let deep = format!("q: {}", deep_objects(100_000));
    push_files(
        &home.home(),
        "acme/support",
        "deep",
        &[("questions.yaml", &deep)],
    );
    push_files(
        &home.home(),
        "acme/support",
        "broken",
        &[("questions.yaml", "q: [unclosed\n  - {")],
    );
    let server = home.serve().await;
    for (branch, says) in [
        ("deep", "127 levels (the limit)"),
        ("broken", "not valid YAML"),
    ] {
        let started = Instant::now();
        // Both a decision and a diff at the revision name the file and what is wrong in it.
        let located = |problem: Value| {
            assert_eq!(problem["details"][0]["loc"], json!(["questions.yaml"]));
            let msg = problem["details"][0]["msg"].as_str().unwrap();
            assert!(msg.contains(says), "{msg}");
        };
        let decision = json!({"model": "acme/support", "revision": branch, "state": "hi"});
        let reply = server
            .post_json("/v1/decision", Some(&token), &decision)
            .await;
        located(server.problem(&reply, 422, "invalid_checkpoint").await);
        let reply = server
            .get(
                &format!("/v1/models/{model_id}/diff?from=main&to={branch}"),
                Some(&token),
            )
            .await;
        located(server.problem(&reply, 422, "invalid_checkpoint").await);
        assert!(started.elapsed() < Duration::from_secs(2), "{branch}");
    }
}

// ---------------------------------------------------------------------------------------
// Limits on every input (docs/src/limits.md)
// ---------------------------------------------------------------------------------------

/// One text past its limit in each place a decision takes text, and each count one past
/// its limit: every one a located 422 naming the limit, never the 500 (`embedding: text
/// exceeds 64 KiB`) a text over 64 KiB was.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_text_and_count_past_its_limit_is_a_located_422_naming_it() {
    // A body large enough for a state past its own limit.
    let home = TestEnv::with_config("server:\n  max_body_bytes: 33554432\n");
    let token = home.admin_token("t");
    home.model("acme/support");
    let server = home.serve().await;
    let big = "refund ".repeat(10_000); // 70 KB
    let levels: Vec<&str> = vec!["x"; 257];
    let options: serde_json::Map<String, Value> =
        (0..257).map(|i| (i.to_string(), Value::Null)).collect();
    let questions: serde_json::Map<String, Value> = (0..257)
        .map(|i| (i.to_string(), json!({"type": "noul"})))
        .collect();
    let noul = |q: Value| json!({"model": "mo", "state": "hi", "questions": {"q": q}});
    let cases = [
        (
            noul(json!({"type": "noul", "instructions": big})),
            json!(["body", "questions", "q", "instructions"]),
            "16384",
        ),
        (
            noul(json!({"type": "noul", "criteria": {"true": big}})),
            json!(["body", "questions", "q", "criteria", "true"]),
            "16384",
        ),
        (
            noul(json!({"type": "choice", "criteria": {"a": {"text": big}}})),
            json!(["body", "questions", "q", "criteria", "a"]),
            "16384",
        ),
        (
            noul(json!({"type": "choice", "criteria": {big.clone(): null}})),
            json!(["body", "questions", "q", "criteria", big]),
            "255",
        ),
        (
            noul(json!({"type": "score", "criteria": ["low", big]})),
            json!(["body", "questions", "q", "criteria", 1]),
            "16384",
        ),
        (
            noul(json!({"type": "score", "criteria": levels})),
            json!(["body", "questions", "q", "criteria"]),
            "256",
        ),
        (
            noul(json!({"type": "choice", "criteria": options})),
            json!(["body", "questions", "q", "criteria"]),
            "256",
        ),
        (
            json!({"model": "mo", "state": "hi", "questions": questions}),
            json!(["body", "questions"]),
            "256",
        ),
        (
            json!({"model": "acme/support", "state": "hi", "example_id": "é".repeat(256)}),
            json!(["body", "example_id"]),
            "255",
        ),
        (
            json!({"model": "acme/support", "state": "hi", "revision": "r".repeat(256)}),
            json!(["body", "revision"]),
            "255",
        ),
        (
            json!({"model": "acme/support", "state": (0..65).fold(json!(1), |s, _| json!([s]))}),
            json!(["body", "state"]),
            "64 levels",
        ),
        (
            json!({"model": "acme/support", "state": {"text": "x".repeat(10 << 20)}}),
            json!(["body", "state"]),
            "10485760 bytes",
        ),
    ];
    for (body, loc, limit) in cases {
        let started = Instant::now();
        let reply = server.post_json("/v1/decision", Some(&token), &body).await;
        // Refused before any engine runs: quick even in a debug build on a busy machine.
        let took = started.elapsed();
        let problem = server.problem(&reply, 422, "validation_error").await;
        let details = problem["details"].as_array().unwrap();
        assert_eq!(details.len(), 1, "{problem}");
        assert_eq!(details[0]["loc"], loc, "{problem}");
        let msg = details[0]["msg"].as_str().unwrap();
        assert!(msg.contains(&format!("the limit is {limit}")), "{msg}");
        // (A 10 MiB body takes its own time to read and parse in a debug build.)
        if !limit.ends_with("bytes") {
            assert!(took < Duration::from_secs(2), "{loc}: {took:?}");
        }
    }
}

/// A state that is one word of 70 KB: answered on every built-in model, as `mo` always
/// answered it (the whole-state models gave `500 embedding: text exceeds 64 KiB`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_state_of_one_long_word_is_answered_on_every_built_in_model() {
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let state = format!("my parcel {} never arrived", "x".repeat(70_000));
    for model in ["mo", "mo-reasoning", "jev-latest", "jev-1.13.0"] {
        let body = json!({
            "model": model, "state": state,
            "questions": {"late": {"type": "noul", "instructions": "The parcel is late."}},
        });
        let reply = server.post_json("/v1/decision", Some(&token), &body).await;
        let answer = reply.ok();
        let p = answer["answers"]["late"]["noul"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{model}: {answer}");
    }
}

/// `models commit` refuses a question file past a limit (it accepted a 20 MB instruction,
/// and every decision at that checkpoint then failed); a checkpoint pushed with plain git
/// past one is refused at use, in a decision and in `diff`, 422 `invalid_checkpoint`
/// located in the file.
#[test]
fn a_question_file_past_a_limit_is_refused_by_commit_and_when_pushed() {
    let env = TestEnv::new();
    let questions = env.write("questions.yaml", crate::common::QUESTIONS);
    env.create_model("acme/support", "mo", &questions);
    let long = format!(
        "{}escalate:\n  type: noul\n  instructions: {}\n",
        crate::common::QUESTIONS.replace("escalate:\n  type: noul\n  instructions: The customer is upset and asks to speak to a manager.\n", ""),
        "upset ".repeat(5_000)
    );
    let file = env.write("long.yaml", &long);
    let (code, problem, stderr) = env.problem(&[
        "models",
        "commit",
        "acme/support",
        "--questions",
        path(&file),
        "-m",
        "Longer",
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "validation_error", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"]),
        "{problem}"
    );
    assert!(
        problem["details"][0]["msg"]
            .as_str()
            .unwrap()
            .contains("29999 characters; the limit is 16384"),
        "{problem}"
    );

    push_files(
        &env.home(),
        "acme/support",
        "long",
        &[("questions.yaml", &long)],
    );
    let state = env.write("state.json", "\"my parcel never arrived\"");
    let (code, problem, stderr) = env.problem(&[
        "decide",
        "--model",
        "acme/support",
        "--revision",
        "long",
        "--state",
        path(&state),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "invalid_checkpoint", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"])
    );
    let (code, problem, stderr) = env.problem(&["models", "diff", "acme/support", "main", "long"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(problem["code"], "invalid_checkpoint", "{problem}");
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["questions.yaml", "escalate", "instructions"])
    );
}

/// Reasoning past its limit on an annotation: a located 422, nothing written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reasoning_past_its_limit_is_a_located_422() {
    let home = TestEnv::new();
    let token = home.admin_token("t");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let decision = json!({"model": "acme/support", "state": "hi", "example_id": "e1"});
    server
        .post_json("/v1/decision", Some(&token), &decision)
        .await
        .ok();
    let patch = json!({"escalate": {"answer": true, "reasoning": "why ".repeat(5_000)}});
    let reply = server
        .patch_json(
            &format!("/v1/models/{model_id}/examples/e1/annotations"),
            Some(&token),
            &patch,
        )
        .await;
    let problem = server.problem(&reply, 422, "validation_error").await;
    assert_eq!(
        problem["details"][0]["loc"],
        json!(["body", "escalate", "reasoning"])
    );
    let example = server
        .get(&format!("/v1/models/{model_id}/examples/e1"), Some(&token))
        .await
        .ok();
    assert_eq!(example["annotations"], json!({}), "{example}");
}

// ---------------------------------------------------------------------------------------
// Slow and greedy clients, over real sockets (timeouts shortened in the test config)
// ---------------------------------------------------------------------------------------

/// A home whose server cuts slow clients off quickly: half a second for a head, an idle
/// connection and a stalled body (the defaults are 10 s, 60 s and 10 s).
fn impatient(extra: &str) -> TestEnv {
    TestEnv::with_config(&format!(
        "server:\n  header_timeout: 0.5\n  idle_timeout: 0.5\n  body_timeout: 0.5\n{extra}"
    ))
}

/// Read one answer (its head, and as much body as its `content-length` says), or what
/// arrived before the server closed; the answer must begin within 5 s.
pub(crate) async fn read_answer(stream: &mut (impl tokio::io::AsyncRead + Unpin)) -> String {
    use tokio::io::AsyncReadExt as _;
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let read = tokio::time::timeout(Duration::from_secs(5), stream.read(&mut chunk))
            .await
            .expect("an answer within 5 s");
        match read {
            Ok(0) | Err(_) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
        }
        if whole_answer(&bytes) {
            break;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Whether `bytes` hold a whole answer: its head, and as much body as its
/// `content-length` says.
pub(crate) fn whole_answer(bytes: &[u8]) -> bool {
    let text = String::from_utf8_lossy(bytes).to_ascii_lowercase();
    let Some(end) = text.find("\r\n\r\n") else {
        return false;
    };
    let length = text[..end]
        .lines()
        .find_map(|line| line.strip_prefix("content-length:"))
        .and_then(|n| n.trim().parse::<usize>().ok())
        .unwrap_or(0);
    bytes.len() >= end + 4 + length
}

/// Whether the server closes `stream` within `within`, reading (and dropping) whatever it
/// sends; how long it took.
pub(crate) async fn closed_within(
    stream: &mut tokio::net::TcpStream,
    within: Duration,
) -> Option<Duration> {
    use tokio::io::AsyncReadExt as _;
    let started = Instant::now();
    let mut chunk = [0u8; 1024];
    loop {
        match tokio::time::timeout_at(
            tokio::time::Instant::from_std(started + within),
            stream.read(&mut chunk),
        )
        .await
        {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(started.elapsed()),
            Ok(Ok(_)) => {}
        }
    }
}

/// 200 slowloris connections, each sending its head a header every 100 ms: every one is
/// closed within the header timeout (plus scheduling), none before it; the server answers
/// others all the while. (They were all still open after 60 s.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slowloris_connections_are_closed_within_the_header_timeout() {
    // All from one address: its share is the whole limit here.
    let server = impatient("  max_connections_per_address: 512\n")
        .serve()
        .await;
    let addr = server.addr;
    let slow: Vec<_> = (0..200)
        .map(|_| {
            tokio::spawn(async move {
                use tokio::io::{AsyncReadExt as _, AsyncWriteExt as _};
                let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
                let started = Instant::now();
                let (mut reader, mut writer) = stream.into_split();
                let writing = async move {
                    let _ = writer
                        .write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
                        .await;
                    loop {
                        tokio::time::sleep(Duration::from_millis(100)).await;
                        if writer.write_all(b"x-slow: 1\r\n").await.is_err() {
                            std::future::pending::<()>().await;
                        }
                    }
                };
                let mut chunk = [0u8; 256];
                tokio::select! {
                    () = writing => unreachable!(),
                    _ = reader.read(&mut chunk) => started.elapsed(),
                    () = tokio::time::sleep(Duration::from_secs(10)) => Duration::MAX,
                }
            })
        })
        .collect();
    // Served meanwhile.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(server.get("/healthz", None).await.status, 200);
    let mut took = Vec::new();
    for task in slow {
        took.push(task.await.unwrap());
    }
    took.sort();
    let (first, last) = (took[0], took[took.len() - 1]);
    assert!(
        first >= Duration::from_millis(450),
        "closed too early: {first:?}"
    );
    assert!(last < Duration::from_secs(3), "still open: {last:?}");
}

/// A body that stalls is answered 408 `request_timeout` within the body timeout and its
/// connection closed (it held the connection 40 s and more); one that trickles slower than
/// the minimum rate likewise; one that keeps coming, however long it takes, is read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_and_trickling_bodies_are_cut_off_and_a_steady_one_is_read() {
    use tokio::io::AsyncWriteExt as _;
    let home = impatient("  body_min_rate: 100\n");
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let head = |length: usize| {
        format!(
            "POST /v1/decision HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\n\
             content-type: application/json\r\ncontent-length: {length}\r\n\r\n"
        )
    };
    // Stalled after 10 bytes.
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let started = Instant::now();
    stream.write_all(head(1000).as_bytes()).await.unwrap();
    stream.write_all(b"{\"model\":").await.unwrap();
    let answer = read_answer(&mut stream).await;
    let took = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(answer.contains("\"code\":\"request_timeout\""), "{answer}");
    assert!(
        took >= Duration::from_millis(450) && took < Duration::from_secs(3),
        "{took:?}"
    );
    assert!(
        closed_within(&mut stream, Duration::from_secs(3))
            .await
            .is_some()
    );

    // A byte every 100 ms: never stalled half a second, but 10 bytes a second is under the
    // 100 a second the config asks for once the first half second is past.
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let started = Instant::now();
    stream.write_all(head(1000).as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let trickle = tokio::spawn(async move {
        for _ in 0..100 {
            if writer.write_all(b" ").await.is_err() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    });
    let answer = read_answer(&mut reader).await;
    trickle.abort();
    let took = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 408 "), "{answer}");
    assert!(took < Duration::from_secs(3), "{took:?}");

    // A valid body in four parts 300 ms apart: 1.2 s in all, past every timeout of 0.5 s,
    // but never stalled and fast enough: answered.
    let body = serde_json::to_vec(&crate::common::base_request("mo")).unwrap();
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    stream.write_all(head(body.len()).as_bytes()).await.unwrap();
    for part in body.chunks(body.len().div_ceil(4)) {
        tokio::time::sleep(Duration::from_millis(300)).await;
        stream.write_all(part).await.unwrap();
    }
    let answer = read_answer(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
}

/// A declared `Content-Length` past the body limit is answered 413 at once, before any of
/// the body arrives (it took 5 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_content_length_is_refused_at_once() {
    use tokio::io::AsyncWriteExt as _;
    let home = TestEnv::new();
    let token = home.token("t", &["decisions"], &[]);
    let server = home.serve().await;
    let mut stream = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let head = format!(
        "POST /v1/decision HTTP/1.1\r\nhost: x\r\nauthorization: Bearer {token}\r\n\
         content-type: application/json\r\ncontent-length: 20000000\r\n\r\n"
    );
    let started = Instant::now();
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = read_answer(&mut stream).await;
    let took = started.elapsed();
    assert!(answer.starts_with("HTTP/1.1 413 "), "{answer}");
    assert!(
        answer.contains("\"code\":\"payload_too_large\""),
        "{answer}"
    );
    // 50 ms or less on an idle machine (see docs/src/limits.md); bounded here with room for
    // a debug build on a busy one.
    assert!(took < Duration::from_millis(500), "{took:?}");
}

/// A kept-alive connection with nothing in progress is closed the idle timeout after its
/// accept, not before, whatever it asked without a token; past the connection limit, the
/// next client waits to be accepted until the slow ones are let go, then is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_close_and_the_connection_limit_holds() {
    use tokio::io::AsyncWriteExt as _;
    let server = TestEnv::with_config(
        "server:\n  header_timeout: 0.5\n  idle_timeout: 1\n  max_connections: 2\n  \
         max_connections_per_address: 2\n",
    )
    .serve()
    .await;
    let connected = Instant::now();
    let mut kept = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let answer = read_answer(&mut kept).await;
    assert!(answer.starts_with("HTTP/1.1 200 "), "{answer}");
    closed_within(&mut kept, Duration::from_secs(4))
        .await
        .expect("closed when idle");
    let idle = connected.elapsed();
    assert!(
        idle >= Duration::from_secs(1) && idle < Duration::from_secs(3),
        "{idle:?}"
    );

    // Two connections sending their heads fill the limit (a silent or idle one would give
    // way, `connections::`); a third, from another address, is served once they are let go.
    let mut slow = Vec::new();
    for _ in 0..2 {
        let mut stream = crate::connections::connect_from("127.0.0.2", server.addr)
            .await
            .unwrap();
        stream
            .write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
            .await
            .unwrap();
        slow.push(stream);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    let reply = server.get("/healthz", None).await;
    let waited = started.elapsed();
    assert_eq!(reply.status, 200);
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
    drop(slow);
}

/// Stopping lets go at once of connections that never finished a head (a silent client, a
/// head half sent), rather than waiting out their header timeout (10 s here), and still
/// answers the request in progress.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stopping_does_not_wait_for_slow_heads() {
    use tokio::io::AsyncWriteExt as _;
    let server = TestEnv::new().serve().await;
    let _silent = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    let mut half = tokio::net::TcpStream::connect(server.addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    assert_eq!(server.get("/healthz", None).await.status, 200);
    tokio::time::sleep(Duration::from_millis(100)).await;
    let started = Instant::now();
    server.stop().await;
    let took = started.elapsed();
    assert!(took < Duration::from_secs(3), "{took:?}");
}

// ---------------------------------------------------------------------------------------
// One behaviour on both stores
// ---------------------------------------------------------------------------------------

/// What one store answered to each NUL request: which request, its status, its first
/// located detail.
type NulAnswers = Vec<(String, u16, Value)>;

/// NUL (U+0000) in each text that would be stored, on SQLite and on PostgreSQL: refused
/// alike with a located 422 at validation, nothing stored (PostgreSQL answered 500 where
/// SQLite stored it, and a decision with such an example ID was recorded on SQLite only).
/// Without a PostgreSQL server the SQLite half runs alone.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nul_in_stored_text_is_refused_alike_on_both_stores() {
    // The PostgreSQL store's client blocks: what opens it runs off the async threads.
    let postgresql = tokio::task::spawn_blocking(arbiter_testing::postgres::database)
        .await
        .unwrap();
    let sqlite = nul_answers("sqlite", None).await;
    if let Some(url) = postgresql {
        assert_eq!(
            sqlite,
            nul_answers("postgresql", Some(url)).await,
            "the same answers on both stores"
        );
    }
}

/// A home with `config`, on `database` (`None`: SQLite), an admin token and `acme/support`:
/// what the suites that run on both stores start from. The home, the token, the model's ID.
pub(crate) async fn home_with_model(
    mut config: String,
    database: Option<String>,
) -> (TestEnv, String, String) {
    tokio::task::spawn_blocking(move || {
        if let Some(url) = database {
            let _ = write!(config, "database:\n  url: {url}\n");
        }
        let home = if config.is_empty() {
            TestEnv::new()
        } else {
            TestEnv::with_config(&config)
        };
        let token = home.admin_token("t");
        let model_id = home.model("acme/support");
        (home, token, model_id)
    })
    .await
    .unwrap()
}

/// The NUL requests on a server over `database` (`None`: SQLite), each checked.
async fn nul_answers(store: &str, database: Option<String>) -> NulAnswers {
    let (home, token, model_id) = home_with_model(String::new(), database).await;
    let server = home.serve().await;
    let decide = |extra: Value| {
        let mut body = json!({"model": "acme/support", "state": "hi"});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        body
    };
    server
        .post_json(
            "/v1/decision",
            Some(&token),
            &decide(json!({"example_id": "e1"})),
        )
        .await
        .ok();
    let examples = format!("/v1/models/{model_id}/examples");
    let mut replies = Vec::new();
    for (what, extra) in [
        ("decision example_id", json!({"example_id": "a\u{0}b"})),
        ("decision revision", json!({"revision": "ma\u{0}in"})),
        (
            "question ID",
            json!({"questions": {"a\u{0}b": {"type": "noul"}}}),
        ),
    ] {
        let reply = server
            .post_json("/v1/decision", Some(&token), &decide(extra))
            .await;
        replies.push((what, reply));
    }
    let reasoning = json!({"escalate": {"answer": true, "reasoning": "a\u{0}b"}});
    let annotations = format!("{examples}/e1/annotations");
    replies.push((
        "reasoning",
        server
            .patch_json(&annotations, Some(&token), &reasoning)
            .await,
    ));
    let path = format!("{examples}/a%00b");
    replies.push(("path", server.get(&path, Some(&token)).await));
    let query = format!("{examples}?question=a%00b");
    replies.push(("query", server.get(&query, Some(&token)).await));
    let line = "{\"example_id\":\"a\\u0000b\",\"state\":1}\n".to_owned();
    let ingest = format!("{examples}?atomic=true");
    replies.push((
        "ingested example_id",
        server.post_lines(&ingest, Some(&token), line).await,
    ));
    let mut answers = Vec::new();
    for (what, reply) in replies {
        assert_eq!(reply.status, 422, "{store}, {what}: {}", reply.text());
        let detail = reply.json()["details"][0].clone();
        assert!(
            detail["msg"].as_str().is_some_and(|m| m.contains("NUL")),
            "{store}, {what}: {detail}"
        );
        answers.push((what.to_owned(), reply.status, detail));
    }
    let listed = server.get(&examples, Some(&token)).await.ok();
    assert_eq!(listed["examples"].as_array().unwrap().len(), 1, "{listed}");
    let e1 = server
        .get(&format!("{examples}/e1"), Some(&token))
        .await
        .ok();
    assert_eq!(e1["annotations"], json!({}), "{store}: nothing annotated");
    answers
}

// ---------------------------------------------------------------------------------------
// Authorization before parsing
// ---------------------------------------------------------------------------------------

/// A token without the scope gets 403 before its malformed body gets 400: it learns
/// nothing of how its request would be read (it was 400 first on these four).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_scope_is_403_before_a_malformed_body_is_400() {
    let home = TestEnv::new();
    let reader = home.token("reader", &["models:read", "examples:read"], &["*=admin"]);
    let admin = home.admin_token("admin");
    let model_id = home.model("acme/support");
    let server = home.serve().await;
    let decision = json!({"model": "acme/support", "state": "hi", "example_id": "e1"});
    server
        .post_json("/v1/decision", Some(&admin), &decision)
        .await
        .ok();
    let base = format!("/v1/models/{model_id}");
    for (method, path) in [
        (Method::POST, format!("{base}/alignments")),
        (Method::POST, format!("{base}/evaluations")),
        (Method::POST, format!("{base}/promote")),
        (Method::PATCH, format!("{base}/examples/e1/annotations")),
    ] {
        let malformed = |token: &str| {
            server
                .request(method.clone(), &path, Some(token))
                .header("content-type", "application/json")
                .header("idempotency-key", "key-0001")
                .body("{\"revision\": ")
        };
        let reply = server.send(malformed(&reader)).await;
        server.problem(&reply, 403, "forbidden").await;
        // With the scope, the same body is what is wrong.
        let reply = server.send(malformed(&admin)).await;
        server.problem(&reply, 400, "bad_request").await;
    }
}

/// Every route on a model, from the route table itself (the `OpenAPI` document): a token
/// that may not see the model gets the same 404 whatever is wrong with its query, headers
/// or body, and one that sees it without the role asked gets 403 first. Nothing of how the
/// request would be read is told to a token that may not make it (POST `…/examples` and
/// PATCH `…/annotations` parsed their bodies first, and every query was read first).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_model_route_checks_visibility_and_role_before_reading_anything() {
    let home = TestEnv::new();
    let model_id = home.model("acme/support");
    let every_scope: Vec<&str> = arbiter::core::tokens::Scope::names().collect();
    let stranger = home.token("stranger", &every_scope, &["other/*=admin"]);
    let reader = home.token("reader", &every_scope, &["acme/*=reader"]);
    let server = home.serve().await;
    let document: Value = serde_json::from_str(&arbiter::server::openapi_json()).unwrap();
    let mut checked = 0;
    for (template, operations) in document["paths"].as_object().unwrap() {
        if !template.contains("{modelId}") {
            continue;
        }
        let path = template
            .replace("{modelId}", &model_id)
            .replace("{exampleId}", "e1")
            .replace("{jobId}", &uuid::Uuid::new_v4().to_string())
            .replace("{questionId}", "intent")
            .replace("{branch}", "alignments%2Fx");
        assert!(!path.contains('{'), "a path parameter left to fill: {path}");
        for (method, operation) in operations.as_object().unwrap() {
            let Ok(method) = method.to_uppercase().parse::<Method>() else {
                continue;
            };
            // Everything wrong at once: the query, the key, the media type and the body.
            let malformed = |token: &str| {
                server
                    .request(
                        method.clone(),
                        &format!(
                            "{path}?limit=zero&status=nope&annotated=perhaps&from=&question=%00"
                        ),
                        Some(token),
                    )
                    .header("content-type", "text/csv")
                    .header("idempotency-key", "k".repeat(10_000))
                    .body("{\"not json")
            };
            let reply = server.send(malformed(&stranger)).await;
            server.problem(&reply, 404, "model_not_found").await;
            let writes = operation["description"]
                .as_str()
                .is_some_and(|d| d.contains("role `writer`"));
            if writes {
                let reply = server.send(malformed(&reader)).await;
                server.problem(&reply, 403, "forbidden").await;
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} model routes in the document");
}
