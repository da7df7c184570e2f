//! The harness's in-process server: [`TestEnv::serve`] runs the real
//! `arbiter::server::serve` on `127.0.0.1:0` over a test's home, as a task of the test's own
//! runtime ([`TestServer`], its answers read whole as [`Reply`]); with the requests and the
//! held remote engine the HTTP tests share.

use super::{QUESTIONS, STATE, TestEnv};
use arbiter::core::Context;
use arbiter::core::model_files::CapturePolicy;
use arbiter::core::models::CreateModel;
use arbiter::core::tokens::NewToken;
use reqwest::header::HeaderMap;
use reqwest::{Method, RequestBuilder};
use serde_json::{Value, json};
use std::net::SocketAddr;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;
/// What a test of the server does with its home before (or while) a server runs: tokens and
/// models made through the library.
impl TestEnv {
    /// Create a token; returns its secret (`arb_<id>_<secret>`).
    pub(crate) fn token(&self, name: &str, scopes: &[&str], roles: &[&str]) -> String {
        let request = NewToken {
            name: name.to_owned(),
            scopes: scopes.iter().map(|s| (*s).to_owned()).collect(),
            roles: roles.iter().map(|s| (*s).to_owned()).collect(),
        };
        arbiter::core::tokens::create(self.ctx(), &request)
            .expect("create token")
            .1
    }

    /// A token with every scope and `admin` on every model.
    pub(crate) fn admin_token(&self, name: &str) -> String {
        let scopes: Vec<&str> = arbiter::core::tokens::Scope::names().collect();
        self.token(name, &scopes, &["*=admin"])
    }

    pub(crate) fn revoke(&self, name: &str) {
        assert!(arbiter::core::tokens::revoke(self.ctx(), name).expect("revoke"));
    }

    /// Create a repository model on base `mo` with the common questions and capture of
    /// every decision; returns its `modelId`.
    pub(crate) fn model(&self, path: &str) -> String {
        self.model_with(path, CapturePolicy::default())
    }

    pub(crate) fn model_with(&self, path: &str, capture: CapturePolicy) -> String {
        let request = CreateModel {
            path: path.parse().expect("model path"),
            base: "mo".to_owned(),
            questions_yaml: Some(QUESTIONS.to_owned()),
            gates_yaml: None,
            capture,
            message: None,
        };
        arbiter::core::models::create(self.ctx(), &request)
            .expect("create model")
            .model_id
            .to_string()
    }

    /// Bind `127.0.0.1:0` first, then spawn the server on it: the socket accepts (into its
    /// backlog) before the task even runs, so no readiness wait is needed.
    pub(crate) async fn serve(self) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let ctx = self.ctx().clone();
        let task = tokio::spawn(arbiter::server::serve(ctx, listener, async move {
            let _ = rx.await;
        }));
        let client = reqwest::Client::builder()
            .no_proxy()
            .timeout(std::time::Duration::from_mins(2))
            .build()
            .expect("client");
        TestServer {
            home: Some(self),
            addr,
            shutdown: Some(tx),
            task: Some(task),
            client,
        }
    }
}

/// A running server. Dropping it asks the server to stop.
pub(crate) struct TestServer {
    home: Option<TestEnv>,
    pub(crate) addr: SocketAddr,
    shutdown: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<std::io::Result<()>>>,
    pub(crate) client: reqwest::Client,
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// One answered request, read whole.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) headers: HeaderMap,
    pub(crate) body: Vec<u8>,
}

impl Reply {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(name)
            .map(|v| v.to_str().expect("header is ASCII"))
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub(crate) fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "body is not JSON ({e}); status {}: {}",
                self.status,
                self.text()
            )
        })
    }

    /// The `x-request-id` of the response (every response must have one).
    pub(crate) fn request_id(&self) -> String {
        self.header("x-request-id")
            .unwrap_or_else(|| {
                panic!(
                    "no x-request-id on a {} response: {:?}",
                    self.status, self.headers
                )
            })
            .to_owned()
    }

    /// Expect a 200 JSON body.
    pub(crate) fn ok(&self) -> Value {
        assert_eq!(
            self.status,
            200,
            "expected 200, got {}: {}",
            self.status,
            self.text()
        );
        self.json()
    }
}

/// The reason phrase the server must use as a problem `title`.
pub(crate) fn title_of(status: u16) -> &'static str {
    match status {
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        507 => "Insufficient Storage",
        other => panic!("no title expected for {other}"),
    }
}

impl TestServer {
    pub(crate) fn home(&self) -> &TestEnv {
        self.home.as_ref().expect("home")
    }

    pub(crate) fn ctx(&self) -> &Context {
        self.home().ctx()
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn base(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub(crate) fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base())
    }

    pub(crate) fn request(
        &self,
        method: Method,
        path: &str,
        token: Option<&str>,
    ) -> RequestBuilder {
        let builder = self.client.request(method, self.url(path));
        match token {
            Some(token) => builder.bearer_auth(token),
            None => builder,
        }
    }

    pub(crate) async fn send(&self, builder: RequestBuilder) -> Reply {
        let response = builder
            .send()
            .await
            .expect("request failed at the transport level");
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response.bytes().await.expect("reading the body").to_vec();
        Reply {
            status,
            headers,
            body,
        }
    }

    pub(crate) async fn get(&self, path: &str, token: Option<&str>) -> Reply {
        self.send(self.request(Method::GET, path, token)).await
    }

    pub(crate) async fn post_json(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.post_json_with(path, token, body, &[]).await
    }

    pub(crate) async fn post_json_with(
        &self,
        path: &str,
        token: Option<&str>,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> Reply {
        let mut builder = self
            .request(Method::POST, path, token)
            .header("content-type", "application/json")
            .body(serde_json::to_vec(body).unwrap());
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        self.send(builder).await
    }

    /// `POST` a JSON Lines body (`application/x-ndjson`).
    pub(crate) async fn post_lines(&self, path: &str, token: Option<&str>, body: String) -> Reply {
        self.send(
            self.request(Method::POST, path, token)
                .header("content-type", "application/x-ndjson")
                .body(body),
        )
        .await
    }

    pub(crate) async fn patch_json(&self, path: &str, token: Option<&str>, body: &Value) -> Reply {
        self.send(
            self.request(Method::PATCH, path, token)
                .header("content-type", "application/json")
                .body(serde_json::to_vec(body).unwrap()),
        )
        .await
    }

    /// Check that `reply` is a complete problem document for `status` and `code`, that its
    /// `type` URL names the code and answers 200 without a token; return the document.
    pub(crate) async fn problem(&self, reply: &Reply, status: u16, code: &str) -> Value {
        assert_eq!(
            reply.status,
            status,
            "expected a {status} {code} problem, got {}: {}",
            reply.status,
            reply.text()
        );
        assert_eq!(
            reply.header("content-type"),
            Some("application/problem+json"),
            "content type of a {status} problem"
        );
        let body = reply.json();
        let object = body
            .as_object()
            .unwrap_or_else(|| panic!("a problem is an object: {body}"));
        let mut members: Vec<&str> = object.keys().map(String::as_str).collect();
        members.sort_unstable();
        assert_eq!(
            members,
            [
                "code",
                "detail",
                "details",
                "requestId",
                "status",
                "title",
                "type"
            ],
            "{body}"
        );
        assert_eq!(body["status"], json!(status), "{body}");
        assert_eq!(body["code"], json!(code), "{body}");
        assert_eq!(body["title"], json!(title_of(status)), "{body}");
        assert!(
            body["detail"]
                .as_str()
                .is_some_and(|d| !d.trim().is_empty()),
            "{body}"
        );
        assert!(body["details"].is_array(), "{body}");
        let request_id = reply.request_id();
        assert_eq!(
            body["requestId"],
            json!(request_id),
            "requestId must equal the x-request-id header"
        );
        assert!(
            uuid::Uuid::parse_str(&request_id).is_ok(),
            "request ID {request_id} is a UUID"
        );
        let kebab = code.replace('_', "-");
        let kind = body["type"].as_str().expect("type is a string");
        assert!(
            kind.ends_with(&format!("/problems/{kebab}")),
            "type {kind} must end with /problems/{kebab}"
        );
        let configured = self.ctx().settings().server.public_url.clone();
        let expected_base =
            configured.map_or_else(|| self.base(), |b| b.trim_end_matches('/').to_owned());
        assert_eq!(
            kind,
            format!("{expected_base}/problems/{kebab}"),
            "type is {{public_url}}/problems/<code>"
        );
        // The problem page answers without a token.
        let page = self.get(&format!("/problems/{kebab}"), None).await;
        assert_eq!(page.status, 200, "GET {kind}: {}", page.text());
        assert!(
            page.text().contains(&kebab),
            "the page names its problem: {}",
            page.text()
        );
        assert!(page.header("x-request-id").is_some());
        body
    }

    /// Stop the server (graceful) and give back its home, with a fresh [`Context`] as a new
    /// process would open it.
    pub(crate) async fn stop(mut self) -> TestEnv {
        let _ = self.shutdown.take().expect("running").send(());
        let task = self.task.take().expect("running");
        let result = tokio::time::timeout(std::time::Duration::from_secs(30), task)
            .await
            .expect("the server stops within 30 s of its shutdown signal")
            .expect("the server task did not panic");
        result.expect("serve returned Ok");
        let mut home = self.home.take().expect("home");
        home.reopen();
        home
    }
}

pub(crate) fn questions() -> Value {
    arbiter::wire::value::parse_yaml(QUESTIONS).expect("questions")
}

pub(crate) fn state() -> Value {
    serde_json::from_str(STATE).unwrap()
}

/// A remote engine whose answers wait until the test lets them go: it holds a decision
/// slot for exactly as long as a test needs, where a long local decision would hold it only
/// for as long as it happens to take on a loaded machine.
pub(crate) struct HeldEngine {
    fake: crate::fake_upstream::FakeUpstream,
    gate: crate::fake_upstream::Gate,
}

impl HeldEngine {
    pub(crate) fn start() -> Self {
        use crate::fake_upstream::{FakeReply, FakeUpstream, Gate, systemone_answers};
        let gate = Gate::default();
        let held = gate.clone();
        let fake = FakeUpstream::start(move |_, body| {
            FakeReply::ok(&systemone_answers(body)).held_until(&held)
        });
        Self { fake, gate }
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn url(&self) -> &str {
        self.fake.url()
    }

    /// `config.yaml`: `server` (its YAML) plus base model `mo-reasoning` routed here.
    pub(crate) fn config(&self, server: &str) -> String {
        format!(
            "{server}engines:\n  held: {{kind: systemone, url: '{}', model: held}}\nmodels:\n  mo-reasoning: held\n",
            self.url()
        )
    }

    /// Start a decision at `mo-reasoning` and wait until it holds a slot; it answers once
    /// [`HeldEngine::release`] is called.
    pub(crate) async fn hold_a_decision_slot(
        &self,
        server: &std::sync::Arc<TestServer>,
        token: &str,
    ) -> tokio::task::JoinHandle<Reply> {
        let first = {
            let (server, token) = (server.clone(), token.to_owned());
            tokio::spawn(async move {
                server
                    .post_json("/v1/decision", Some(&token), &base_request("mo-reasoning"))
                    .await
            })
        };
        crate::common::wait_until_async(
            std::time::Duration::from_mins(1),
            std::time::Duration::from_millis(10),
            || async {
                let health = server.get("/healthz", None).await.ok();
                if health["decisions"]["inFlight"] == 1 && self.fake.count() == 1 {
                    Ok(())
                } else {
                    Err(format!("the held decision holds no slot yet: {health}"))
                }
            },
        )
        .await;
        first
    }

    pub(crate) fn release(&self) {
        self.gate.open();
    }
}

/// A base-model decision request with the common questions.
pub(crate) fn base_request(model: &str) -> Value {
    json!({"model": model, "state": state(), "questions": questions()})
}

/// A repository-model decision request using the saved questions.
pub(crate) fn repo_request(path: &str) -> Value {
    json!({"model": path, "state": state()})
}

/// A UUID string of version 4.
pub(crate) fn assert_uuid_v4(text: &str) {
    let id = uuid::Uuid::parse_str(text).unwrap_or_else(|e| panic!("{text} is not a UUID: {e}"));
    assert_eq!(id.get_version_num(), 4, "{text} is a version 4 UUID");
    assert_eq!(
        text,
        id.hyphenated().to_string(),
        "{text} is in hyphenated lowercase form"
    );
}
