//! Two `arbiter serve` replicas, each with its own home, on one PostgreSQL database
//! (`ARBITER_DATABASE_URL`) and one bare-repository remote (`ARBITER_REPOS_REMOTE`): a
//! token made through one works on the other, decisions captured through either are seen
//! through both, one `Idempotency-Key` spread over both runs once, and `/healthz` reports
//! the store and the remote. PostgreSQL is started by the test itself
//! (`arbiter::testing::postgres`); without it the test says how to run it and passes.

use crate::common::{QUESTIONS, TestEnv};
use crate::http::repo_request;
use crate::served::Served;
use serde_json::Value;

const MODEL: &str = "acme/support";

struct Shared {
    database: String,
    remote: String,
}

impl Shared {
    fn configure(&self, command: &mut std::process::Command) {
        command
            .env("ARBITER_DATABASE_URL", &self.database)
            .env("ARBITER_REPOS_REMOTE", &self.remote);
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

#[test]
fn two_replicas_on_one_database_share_tokens_captures_and_idempotency_keys() {
    // Without PostgreSQL, `database` has said how to run this test.
    let Some(database) = arbiter::testing::postgres::database() else {
        return;
    };
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
    // A token made through home `a` is in the shared store: replica `b` takes it.
    let token = shared.json(
        &a,
        &[
            "tokens",
            "create",
            "--name",
            "shared",
            "--scope",
            "decisions",
            "--scope",
            "examples:read",
            "--role",
            "acme/*=reader",
        ],
    )["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let served_a = Served::start_with(&a, |cmd| shared.configure(cmd));
    let served_b = Served::start_with(&b, |cmd| shared.configure(cmd));
    let replicas = [&served_a, &served_b];
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
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
