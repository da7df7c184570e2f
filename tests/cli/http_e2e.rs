//! End to end with the real binary: `arbiter serve --listen 127.0.0.1:0`, a token made with
//! `arbiter tokens create`, requests over HTTP, SIGTERM, exit 0, and the access log.

use crate::common::TestEnv;
use crate::http::base_request;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Kills the child if the test fails before it stopped on its own.
struct Running(Option<Child>);

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(child) = &mut self.0
            && child.try_wait().ok().flatten().is_none()
        {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

// One server process's life, start to SIGTERM: splitting it would hide the steps.
#[allow(clippy::too_many_lines)]
#[test]
fn serve_binary_answers_logs_and_stops_on_sigterm() {
    let env = TestEnv::new();
    let created = env.json(&[
        "tokens",
        "create",
        "--name",
        "t",
        "--scope",
        "decisions",
        "--json",
    ]);
    let token = created["token"]
        .as_str()
        .expect("the secret is printed as `token`")
        .to_owned();
    let secret = token.rsplit('_').next().unwrap().to_owned();
    assert!(secret.len() >= 32, "{token}");

    let mut child = env
        .std_cmd()
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn arbiter serve");
    let stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let pid = child.id();
    let mut running = Running(Some(child));

    let (first_line_tx, first_line_rx) = mpsc::channel();
    let stdout_reader = std::thread::spawn(move || {
        let mut reader = BufReader::new(stdout);
        let mut line = String::new();
        let _ = reader.read_line(&mut line);
        let _ = first_line_tx.send(line);
        let mut rest = String::new();
        let _ = reader.read_to_string(&mut rest);
        rest
    });
    let stderr_reader = std::thread::spawn(move || {
        let mut log = String::new();
        let _ = stderr.read_to_string(&mut log);
        log
    });

    // The first stdout line says where it listens (the socket is bound before it is printed).
    let line = first_line_rx
        .recv_timeout(Duration::from_mins(2))
        .expect("a first stdout line within 120 s");
    let address = line
        .trim_end()
        .strip_prefix("listening on ")
        .unwrap_or_else(|| panic!("first stdout line: {line:?}"))
        .to_owned();
    assert!(address.starts_with("http://127.0.0.1:"), "{address}");
    assert_ne!(
        address, "http://127.0.0.1:0",
        "port 0 is replaced by the bound port"
    );

    let health_id = uuid::Uuid::new_v4().to_string();
    let decision_id = uuid::Uuid::new_v4().to_string();
    let denied_id = uuid::Uuid::new_v4().to_string();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(Duration::from_mins(2))
            .build()
            .unwrap();
        let health = client
            .get(format!("{address}/healthz"))
            .header("x-request-id", &health_id)
            .send()
            .await
            .unwrap();
        assert_eq!(health.status(), 200);
        assert_eq!(health.headers()["x-request-id"], health_id.as_str());
        let health: Value = health.json().await.unwrap();
        assert_eq!(health["status"], "ok");

        let decision = client
            .post(format!("{address}/v1/decision"))
            .bearer_auth(&token)
            .header("x-request-id", &decision_id)
            .json(&base_request("mo"))
            .send()
            .await
            .unwrap();
        assert_eq!(decision.status(), 200);
        assert_eq!(decision.headers()["x-request-id"], decision_id.as_str());
        let decision: Value = decision.json().await.unwrap();
        assert_eq!(
            decision["answers"]["intent"]["type"], "choice",
            "{decision}"
        );
        assert!(decision["usage"]["input_tokens"].is_u64(), "{decision}");

        let denied = client
            .post(format!("{address}/v1/decision"))
            .header("authorization", format!("Bearer {token}x"))
            .header("x-request-id", &denied_id)
            .json(&base_request("mo"))
            .send()
            .await
            .unwrap();
        assert_eq!(denied.status(), 401);
    });
    drop(runtime);

    // SIGTERM, then a clean exit 0 within a deadline.
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .expect("run kill");
    assert!(status.success(), "kill -TERM {pid}");
    let deadline = Instant::now() + Duration::from_secs(30);
    let exit = loop {
        if let Some(exit) = running.0.as_mut().unwrap().try_wait().expect("try_wait") {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "arbiter serve did not exit within 30 s of SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    running.0 = None;
    assert_eq!(exit.code(), Some(0), "exit status after SIGTERM: {exit:?}");
    let _ = stdout_reader.join();
    let log = stderr_reader.join().expect("stderr reader");

    // One access-log line per request, with method, path, status and request ID.
    for (method, path, status, id) in [
        ("GET", "/healthz", "200", &health_id),
        ("POST", "/v1/decision", "200", &decision_id),
        ("POST", "/v1/decision", "401", &denied_id),
    ] {
        let lines: Vec<&str> = log.lines().filter(|l| l.contains(id.as_str())).collect();
        assert_eq!(lines.len(), 1, "one log line for request {id}:\n{log}");
        let line = lines[0];
        assert!(line.contains(&format!("method={method}")), "{line}");
        assert!(line.contains(&format!("path={path}")), "{line}");
        assert!(line.contains(&format!("status={status}")), "{line}");
    }
    assert!(!log.contains(&token), "the log contains the token:\n{log}");
    assert!(
        !log.contains(&secret),
        "the log contains the token's secret:\n{log}"
    );
}
