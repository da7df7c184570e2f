//! Fake remote engines that speak the real protocols over real sockets: a System One server
//! and an OpenAI-style chat server with logprobs, scripted per test.
//!
//! Each fake is a tiny axum app on `127.0.0.1:0`, bound before its thread starts (so no
//! readiness wait), on its own thread and runtime, so blocking `assert_cmd` tests can use
//! it as well as async ones. It records every request (arrival time, path, authorization,
//! body) and the most requests it ever had in flight at once.

use crate::common::Background;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, Uri};
use axum::response::Response;
use serde_json::{Map, Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What the fake answers to one request.
#[derive(Debug, Clone)]
pub(crate) struct FakeReply {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: String,
    /// How long to wait before answering.
    pub(crate) delay: Duration,
    /// A gate the answer waits for, when the test decides when it goes.
    pub(crate) until: Option<Gate>,
}

/// A latch a test opens to let the replies held behind it go; it stays open.
#[derive(Debug, Clone, Default)]
pub(crate) struct Gate(Arc<tokio::sync::watch::Sender<bool>>);

impl Gate {
    pub(crate) fn open(&self) {
        self.0.send_replace(true);
    }

    async fn opened(&self) {
        // The sender lives in `self`, so the wait ends only when the gate opens.
        let _ = self.0.subscribe().wait_for(|open| *open).await;
    }
}

impl FakeReply {
    pub(crate) fn json(status: u16, body: &Value) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "application/json".into())],
            body: body.to_string(),
            delay: Duration::ZERO,
            until: None,
        }
    }

    pub(crate) fn ok(body: &Value) -> Self {
        Self::json(200, body)
    }

    pub(crate) fn text(status: u16, body: &str) -> Self {
        Self {
            status,
            headers: vec![("content-type".into(), "text/plain".into())],
            body: body.to_owned(),
            delay: Duration::ZERO,
            until: None,
        }
    }

    /// Never answers (in any test's lifetime).
    pub(crate) fn hang() -> Self {
        Self::text(200, "").after(Duration::from_hours(1))
    }

    pub(crate) fn header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.into(), value.into()));
        self
    }

    pub(crate) fn after(mut self, delay: Duration) -> Self {
        self.delay = delay;
        self
    }

    /// Answer only once `gate` is open.
    pub(crate) fn held_until(mut self, gate: &Gate) -> Self {
        self.until = Some(gate.clone());
        self
    }
}

/// One request as the fake saw it.
#[derive(Debug, Clone)]
pub(crate) struct Seen {
    pub(crate) at: Instant,
    pub(crate) path: String,
    pub(crate) authorization: Option<String>,
    /// The W3C trace context it was sent, if any.
    pub(crate) traceparent: Option<String>,
    /// The JSON body (null when it was not JSON).
    pub(crate) body: Value,
}

type Script = dyn Fn(usize, &Value) -> FakeReply + Send + Sync;

struct Shared {
    script: Box<Script>,
    seen: Mutex<Vec<Seen>>,
    in_flight: AtomicUsize,
    peak: AtomicUsize,
}

/// A running fake; dropping it stops it.
pub(crate) struct FakeUpstream {
    server: Background,
    shared: Arc<Shared>,
}

impl FakeUpstream {
    /// Serve `script(index, body)` for the `index`-th request (from 0) with body `body`.
    pub(crate) fn start(
        script: impl Fn(usize, &Value) -> FakeReply + Send + Sync + 'static,
    ) -> Self {
        let shared = Arc::new(Shared {
            script: Box::new(script),
            seen: Mutex::new(Vec::new()),
            in_flight: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        });
        let app = Router::new().fallback(handle).with_state(shared.clone());
        // Hanging handlers are dropped with it, not waited for.
        let server = Background::router(app);
        Self { server, shared }
    }

    /// `http://127.0.0.1:PORT`.
    pub(crate) fn url(&self) -> &str {
        self.server.url()
    }

    pub(crate) fn seen(&self) -> Vec<Seen> {
        self.shared.seen.lock().unwrap().clone()
    }

    pub(crate) fn count(&self) -> usize {
        self.shared.seen.lock().unwrap().len()
    }

    /// The most requests that were in flight at once.
    pub(crate) fn peak(&self) -> usize {
        self.shared.peak.load(Ordering::SeqCst)
    }

    /// The gaps between consecutive arrivals.
    pub(crate) fn gaps(&self) -> Vec<Duration> {
        self.seen()
            .windows(2)
            .map(|w| w[1].at.duration_since(w[0].at))
            .collect()
    }
}

/// Counts a request in flight for as long as its handler lives (even if dropped).
struct InFlight(Arc<Shared>);

impl InFlight {
    fn enter(shared: &Arc<Shared>) -> Self {
        let now = shared.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        shared.peak.fetch_max(now, Ordering::SeqCst);
        Self(shared.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

async fn handle(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let _in_flight = InFlight::enter(&shared);
    let body: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    let index = {
        let mut seen = shared.seen.lock().unwrap();
        seen.push(Seen {
            at: Instant::now(),
            path: uri.path().to_owned(),
            authorization: headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            traceparent: headers
                .get("traceparent")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            body: body.clone(),
        });
        seen.len() - 1
    };
    let reply = (shared.script)(index, &body);
    if let Some(gate) = &reply.until {
        gate.opened().await;
    }
    if !reply.delay.is_zero() {
        tokio::time::sleep(reply.delay).await;
    }
    let mut response = Response::builder().status(reply.status);
    for (name, value) in &reply.headers {
        response = response.header(name, value);
    }
    response.body(Body::from(reply.body)).unwrap()
}

/// A URL nothing listens on: a port that was bound, then released.
pub(crate) fn refused_url() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    drop(listener);
    format!("http://127.0.0.1:{port}")
}

/// A valid System One response to `request`: noul 0.8; a choice puts 0.7 on its first
/// option; a score puts 0.6 on its last level; the provider's own `choice`, `score` and
/// `confidence` are deliberately wrong (Arbiter recomputes them).
pub(crate) fn systemone_answers(request: &Value) -> Value {
    let mut answers = Map::new();
    for (id, question) in request["questions"].as_object().into_iter().flatten() {
        let answer = match question["type"].as_str() {
            Some("noul") => json!({"type": "noul", "noul": 0.8}),
            Some("choice") => {
                let keys: Vec<&String> = question["criteria"]
                    .as_object()
                    .map(|c| c.keys().collect())
                    .unwrap_or_default();
                json!({"type": "choice", "choice": "wrong", "confidence": 9,
                    "probabilities": spread(&keys, 0)})
            }
            Some("score") => {
                let n = question["criteria"].as_array().map_or(0, Vec::len);
                let keys: Vec<String> = (0..n).map(|i| i.to_string()).collect();
                let keys: Vec<&String> = keys.iter().collect();
                json!({"type": "score", "score": -1, "confidence": 9,
                    "probabilities": spread(&keys, n.saturating_sub(1))})
            }
            _ => json!({}),
        };
        answers.insert(id.clone(), answer);
    }
    json!({"model": request["model"], "answers": answers,
        "usage": {"input_tokens": 120, "output_tokens": 7}})
}

/// 0.7 (0.6 for a score) on `keys[heavy]`, the rest shared equally.
fn spread(keys: &[&String], heavy: usize) -> Value {
    let main = if heavy == 0 { 0.7 } else { 0.6 };
    let rest = if keys.len() > 1 {
        (1.0 - main) / (keys.len() - 1) as f64
    } else {
        0.0
    };
    Value::Object(
        keys.iter()
            .enumerate()
            .map(|(i, k)| {
                let p = if keys.len() == 1 {
                    1.0
                } else if i == heavy {
                    main
                } else {
                    rest
                };
                ((*k).clone(), json!(p))
            })
            .collect(),
    )
}

/// An OpenAI chat completion whose output is `tokens`, each with its alternatives as
/// probabilities (sent as logprobs).
pub(crate) fn chat_completion(tokens: &[(&str, &[(&str, f64)])]) -> Value {
    let content: Vec<Value> = tokens
        .iter()
        .map(|(token, top)| {
            let logprob = top
                .iter()
                .find(|(t, _)| t == token)
                .map_or(-9.0, |(_, p)| p.ln());
            json!({"token": token, "logprob": logprob, "bytes": token.as_bytes(),
                "top_logprobs": top.iter().map(|(t, p)| json!({"token": t, "logprob": p.ln(), "bytes": t.as_bytes()})).collect::<Vec<_>>()})
        })
        .collect();
    let text: String = tokens.iter().map(|(t, _)| *t).collect();
    json!({
        "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "fake",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
            "logprobs": {"content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 40, "completion_tokens": tokens.len(), "total_tokens": 40 + tokens.len()}
    })
}
