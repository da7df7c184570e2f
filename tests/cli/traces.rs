//! Traces: with `OTEL_EXPORTER_OTLP_ENDPOINT` set, `arbiter serve` and the CLI's long
//! commands export their spans over OTLP/HTTP (protobuf) to a collector, here a real one
//! on 127.0.0.1 that decodes what it is sent. Every decision is one trace: the HTTP span,
//! then the model's resolution, the admission wait, the engine's pass (its windows and
//! questions), the capture and the store; a caller's `traceparent` is honoured, and a
//! remote engine is sent the trace's, as is the server by a command in client mode; a
//! job's shards are traces of their own, linked to the request that created the job.
//! Unset, nothing is sent.

use crate::common::{Background, TestEnv, assert_succeeded, runtime};
use crate::common::{Served, decisions_token};
use crate::common::{base_request, repo_request};
use crate::fake_upstream::{FakeReply, FakeUpstream, systemone_answers};
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use opentelemetry_proto::tonic::collector::trace::v1::ExportTraceServiceRequest;
use opentelemetry_proto::tonic::common::v1::any_value::Value as AnyValue;
use prost::Message as _;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// One exported span, as the collector decoded it (IDs in hex).
#[derive(Debug, Clone)]
struct Span {
    service: String,
    trace: String,
    id: String,
    parent: String,
    name: String,
    attributes: BTreeMap<String, String>,
    /// The spans it links to: (trace, span) in hex.
    links: Vec<(String, String)>,
}

impl Span {
    fn attribute(&self, key: &str) -> Option<&str> {
        self.attributes.get(key).map(String::as_str)
    }
}

#[derive(Default)]
struct Received {
    posts: usize,
    spans: Vec<Span>,
}

/// An OTLP/HTTP trace receiver on 127.0.0.1: `POST /v1/traces` with an
/// `ExportTraceServiceRequest` in protobuf; anything it cannot decode fails the test.
struct Collector {
    server: Background,
    received: Arc<Mutex<Received>>,
}

impl Collector {
    fn start() -> Self {
        let received = Arc::new(Mutex::new(Received::default()));
        let app = Router::new()
            .route("/v1/traces", axum::routing::post(receive))
            .with_state(received.clone());
        let server = Background::router(app);
        Self { server, received }
    }

    fn posts(&self) -> usize {
        self.received.lock().unwrap().posts
    }

    fn spans(&self) -> Vec<Span> {
        self.received.lock().unwrap().spans.clone()
    }
}

async fn receive(State(received): State<Arc<Mutex<Received>>>, body: Bytes) -> StatusCode {
    let request = ExportTraceServiceRequest::decode(body).expect("an OTLP protobuf trace export");
    let mut received = received.lock().unwrap();
    received.posts += 1;
    for resource_spans in request.resource_spans {
        let service = resource_spans
            .resource
            .iter()
            .flat_map(|r| &r.attributes)
            .find(|kv| kv.key == "service.name")
            .and_then(|kv| text(kv.value.as_ref()?.value.as_ref()?))
            .unwrap_or_default();
        for span in resource_spans.scope_spans.into_iter().flat_map(|s| s.spans) {
            received.spans.push(Span {
                service: service.clone(),
                trace: hex::encode(&span.trace_id),
                id: hex::encode(&span.span_id),
                parent: hex::encode(&span.parent_span_id),
                name: span.name,
                attributes: span
                    .attributes
                    .iter()
                    .filter_map(|kv| {
                        Some((kv.key.clone(), text(kv.value.as_ref()?.value.as_ref()?)?))
                    })
                    .collect(),
                links: span
                    .links
                    .iter()
                    .map(|link| (hex::encode(&link.trace_id), hex::encode(&link.span_id)))
                    .collect(),
            });
        }
    }
    StatusCode::OK
}

fn text(value: &AnyValue) -> Option<String> {
    Some(match value {
        AnyValue::StringValue(s) => s.clone(),
        AnyValue::IntValue(i) => i.to_string(),
        AnyValue::BoolValue(b) => b.to_string(),
        AnyValue::DoubleValue(d) => d.to_string(),
        _ => return None,
    })
}

/// The variables that point `arbiter` at `collector`, exporting every 50 ms.
fn pointed_at(command: &mut std::process::Command, collector: &Collector) {
    command
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", collector.server.url())
        .env("OTEL_BSP_SCHEDULE_DELAY", "50");
}

/// A home with `acme/support` on `mo`, capturing its decisions, and a token for it.
fn home_with_model() -> (TestEnv, String) {
    let env = TestEnv::new();
    let questions = crate::common::repo_root().join("examples/support/questions.yaml");
    env.cmd()
        .args([
            "models",
            "create",
            "acme/support",
            "--base",
            "mo",
            "--capture",
            "true",
            "--questions",
        ])
        .arg(&questions)
        .assert()
        .success();
    let created = env.json(&[
        "tokens",
        "create",
        "--name",
        "t",
        "--scope",
        "decisions",
        "--role",
        "acme/support=reader",
        "--json",
    ]);
    (env, created["token"].as_str().unwrap().to_owned())
}

/// POST `body` to `/v1/decision` with `headers`; must answer 200.
fn decide(served: &Served, token: &str, body: &serde_json::Value, headers: &[(&str, &str)]) {
    runtime().block_on(async {
        let mut request = Served::client()
            .post(served.url("/v1/decision"))
            .bearer_auth(token)
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let answered = request.send().await.unwrap();
        let status = answered.status();
        assert_eq!(status, 200, "{}", answered.text().await.unwrap());
    });
}

/// The spans of each trace, by trace ID.
fn by_trace(spans: &[Span]) -> BTreeMap<String, Vec<Span>> {
    let mut traces: BTreeMap<String, Vec<Span>> = BTreeMap::new();
    for span in spans {
        traces
            .entry(span.trace.clone())
            .or_default()
            .push(span.clone());
    }
    traces
}

/// The span named `name` in `trace`, which must be the only one.
fn one<'a>(trace: &'a [Span], name: &str) -> &'a Span {
    let found: Vec<&Span> = trace.iter().filter(|s| s.name == name).collect();
    assert_eq!(found.len(), 1, "one `{name}` span in {trace:#?}");
    found[0]
}

/// Whether `span` descends from `ancestor` within `trace`.
fn descends(trace: &[Span], span: &Span, ancestor: &Span) -> bool {
    let mut parent = span.parent.clone();
    while let Some(up) = trace.iter().find(|s| s.id == parent) {
        if up.id == ancestor.id {
            return true;
        }
        parent = up.parent.clone();
    }
    false
}

/// Every span of `trace` but its root has its parent in the trace; the root's parent is
/// `root_parent` (all zeros' absence: empty for a new trace).
fn assert_linked(trace: &[Span], root_parent: &str) {
    let roots: Vec<&Span> = trace
        .iter()
        .filter(|s| !trace.iter().any(|p| p.id == s.parent))
        .collect();
    assert_eq!(roots.len(), 1, "one root in {trace:#?}");
    assert_eq!(roots[0].name, "POST /v1/decision", "{trace:#?}");
    assert_eq!(roots[0].parent, root_parent, "{trace:#?}");
}

/// Stop `served` and return the spans the collector has: all were sent before it exited.
fn stopped_spans(served: Served, collector: &Collector) -> Vec<Span> {
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    collector.spans()
}

#[test]
fn every_decision_is_one_trace_of_parent_linked_spans_and_a_traceparent_is_honoured() {
    let collector = Collector::start();
    let (env, token) = home_with_model();
    let served = env.spawn_serve_with(|command| pointed_at(command, &collector));
    let sent_trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let sent_parent = "00f067aa0ba902b7";
    for n in 0..3 {
        let mut body = repo_request("acme/support");
        body["state"]["n"] = n.into();
        decide(&served, &token, &body, &[]);
    }
    let traceparent = format!("00-{sent_trace}-{sent_parent}-01");
    decide(
        &served,
        &token,
        &repo_request("acme/support"),
        &[("traceparent", &traceparent)],
    );
    let spans = stopped_spans(served, &collector);
    assert!(spans.iter().all(|s| s.service == "arbiter"), "{spans:#?}");
    // The server's own work outside requests (its startup's store transactions) are
    // traces of their own; the decisions' are those with an HTTP span.
    let traces: BTreeMap<String, Vec<Span>> = by_trace(&spans)
        .into_iter()
        .filter(|(_, trace)| trace.iter().any(|s| s.name.starts_with("POST ")))
        .collect();
    assert_eq!(traces.len(), 4, "one trace per decision: {traces:#?}");
    let passes = spans.iter().filter(|s| s.name == "decide mo").count();
    assert_eq!(passes, 4, "every pass in a decision's trace");
    assert!(
        traces.contains_key(sent_trace),
        "the caller's trace is continued"
    );
    for (trace_id, trace) in &traces {
        let http = one(trace, "POST /v1/decision");
        assert_eq!(http.attribute("http.route"), Some("/v1/decision"));
        assert_eq!(http.attribute("http.request.method"), Some("POST"));
        assert_eq!(http.attribute("http.response.status_code"), Some("200"));
        assert_eq!(http.attribute("trace_id"), Some(trace_id.as_str()));
        let root_parent = if trace_id == sent_trace {
            sent_parent
        } else {
            ""
        };
        assert_linked(trace, root_parent);
        let resolve = one(trace, "resolve_model");
        assert_eq!(
            resolve.attribute("gen_ai.request.model"),
            Some("acme/support")
        );
        let engine = one(trace, "decide mo");
        assert_eq!(engine.attribute("gen_ai.operation.name"), Some("decide"));
        assert_eq!(engine.attribute("gen_ai.request.model"), Some("mo"));
        assert_eq!(engine.attribute("questions"), Some("3"));
        assert!(
            engine
                .attribute("gen_ai.usage.input_tokens")
                .is_some_and(|t| t.parse::<u64>().unwrap() > 0),
            "{engine:?}"
        );
        let windows = one(trace, "windows");
        let questions = one(trace, "questions");
        let capture = one(trace, "capture");
        for span in [resolve, one(trace, "admission_wait"), engine, capture] {
            assert_eq!(span.parent, http.id, "{span:?} is the request's child");
        }
        for span in [windows, questions] {
            assert_eq!(span.parent, engine.id, "{span:?} is the pass's child");
        }
        assert!(
            trace
                .iter()
                .any(|s| s.name == "store" && descends(trace, s, capture)),
            "the capture's store transaction in {trace:#?}"
        );
    }
}

#[test]
fn a_remote_engine_is_sent_the_trace_context_and_log_lines_carry_the_trace_id() {
    let collector = Collector::start();
    // Busy once, then answers: the retry is logged inside the request.
    let fake = FakeUpstream::start(|i, body| match i {
        0 => FakeReply::json(503, &serde_json::json!({"error": "busy"})),
        _ => FakeReply::ok(&systemone_answers(body)),
    });
    let (env, token) = crate::logs::home_with_remote(&fake);
    let served = env.spawn_serve_with(|command| {
        pointed_at(command, &collector);
        command
            .env("ARBITER_LOG_FORMAT", "json")
            .env("ARBITER_LOG", "info,arbiter=debug");
    });
    let sent_trace = "0af7651916cd43dd8448eb211c80319c";
    let traceparent = format!("00-{sent_trace}-b7ad6b7169203331-01");
    decide(
        &served,
        &token,
        &base_request("mo-reasoning"),
        &[("traceparent", &traceparent)],
    );
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    let spans = collector.spans();
    let trace = &by_trace(&spans)[sent_trace];
    let upstream = one(trace, "POST /v1/systemone");
    assert_eq!(
        upstream.attribute("otel.kind"),
        None,
        "the kind is the span's, not an attribute"
    );
    assert!(
        upstream
            .attribute("url.full")
            .is_some_and(|u| u.starts_with(fake.url())),
        "{upstream:?}"
    );
    let engine = one(trace, "decide mo-reasoning");
    assert_eq!(engine.attribute("gen_ai.system"), Some("remote"));
    assert_eq!(engine.attribute("gen_ai.usage.input_tokens"), Some("120"));
    assert_eq!(upstream.parent, engine.id);
    // Each attempt is sent the call's span as its parent, in the caller's trace.
    let seen = fake.seen();
    assert_eq!(seen.len(), 2);
    let expected = format!("00-{sent_trace}-{}-01", upstream.id);
    for request in &seen {
        assert_eq!(request.traceparent.as_deref(), Some(expected.as_str()));
    }
    // The retry's log line, deep inside the request, names the trace.
    let retry = log
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .find(|line| line["fields"]["message"] == "retrying upstream request")
        .unwrap_or_else(|| panic!("no retry line in\n{log}"));
    let request_span = retry["spans"]
        .as_array()
        .and_then(|spans| spans.iter().find(|s| s["name"] == "request"))
        .unwrap_or_else(|| panic!("the retry line is inside the request: {retry}"));
    assert_eq!(request_span["trace_id"], sent_trace, "{retry}");
}

#[test]
fn unset_nothing_is_sent_and_no_traceparent_goes_upstream() {
    let collector = Collector::start();
    let fake = FakeUpstream::start(|_, body| FakeReply::ok(&systemone_answers(body)));
    let env = TestEnv::new();
    env.write(
        "home/config.yaml",
        &format!(
            "engines:\n  remote: {{kind: systemone, url: '{}', model: jev-remote, \
             release_date: '2025-01-01'}}\nmodels:\n  mo-reasoning: remote\n",
            fake.url()
        ),
    );
    let token = decisions_token(&env)["token"].as_str().unwrap().to_owned();
    // The collector's address is there, under a name that is not the variable's.
    let served = env.spawn_serve_with(|command| {
        command.env("OTEL_EXPORTER_OTLP_ENDPOINT_UNUSED", collector.server.url());
    });
    let traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    decide(
        &served,
        &token,
        &base_request("mo-reasoning"),
        &[("traceparent", traceparent)],
    );
    let (exit, log) = served.stop();
    assert_eq!(exit.code(), Some(0), "{log}");
    // The server has exited: whatever it would have sent, it has.
    assert_eq!(collector.posts(), 0);
    assert_eq!(fake.seen()[0].traceparent, None);
}

#[test]
fn a_batch_on_the_command_line_is_one_trace_with_the_same_spans() {
    let collector = Collector::start();
    let (env, _) = home_with_model();
    let items: Vec<String> = (0..3)
        .map(|n| serde_json::json!({"state": {"text": "my parcel is late", "n": n}}).to_string())
        .collect();
    let input = env.write("states.jsonl", &(items.join("\n") + "\n"));
    let mut command = env.cmd();
    // The signal's own variable, a full URL used as given, and a service name of its own.
    command
        .env(
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            format!("{}/v1/traces", collector.server.url()),
        )
        .env("OTEL_SERVICE_NAME", "arbiter-ci")
        .args(["batch", "acme/support", "--input"])
        .arg(&input);
    let output = command.output().unwrap();
    assert_succeeded(&output);
    // The command flushed its spans before it exited (the batch processor's default
    // delay, 5 s, is longer than the run): all are here.
    let spans = collector.spans();
    assert!(
        spans.iter().all(|s| s.service == "arbiter-ci"),
        "{spans:#?}"
    );
    let traces = by_trace(&spans);
    assert_eq!(traces.len(), 1, "{traces:#?}");
    let trace = traces.values().next().unwrap();
    let root = one(trace, "arbiter batch");
    assert_eq!(root.parent, "");
    let job = one(trace, "job");
    assert_eq!(job.parent, root.id);
    let passes: Vec<&Span> = trace.iter().filter(|s| s.name == "decide mo").collect();
    assert!(!passes.is_empty(), "{trace:#?}");
    for pass in passes {
        assert!(descends(trace, pass, job), "{pass:?} under the job");
        assert!(
            trace
                .iter()
                .any(|s| s.name == "questions" && s.parent == pass.id),
            "{pass:?}'s questions"
        );
    }
}

/// A collector that cannot be reached is said on stderr, once, and the command still
/// succeeds: traces never fail the work they describe.
#[test]
fn a_collector_out_of_reach_is_said_once_and_fails_nothing() {
    // A port nothing listens on any more.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let (env, _) = home_with_model();
    let input = env.write(
        "states.jsonl",
        "{\"state\": {\"text\": \"my parcel is late\"}}\n",
    );
    let output = env
        .cmd()
        .env("OTEL_EXPORTER_OTLP_ENDPOINT", format!("http://{closed}"))
        .args(["batch", "acme/support", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr
            .matches("traces: spans could not be sent to the collector")
            .count(),
        1,
        "{stderr}"
    );
}

/// A command in client mode sends its trace's context: the server's request is part of
/// the command's trace, its root a child of the command's span.
#[test]
fn a_command_in_client_mode_and_the_server_make_one_trace() {
    let collector = Collector::start();
    let (env, token) = home_with_model();
    let served = env.spawn_serve_with(|command| pointed_at(command, &collector));
    let state = env.write("state.json", r#"{"text": "my parcel is late"}"#);
    let client_home = env.path().join("client-home");
    let mut command = env.std_cmd();
    pointed_at(&mut command, &collector);
    let output = command
        .env("ARBITER_HOME", &client_home)
        .env("ARBITER_TOKEN", &token)
        .args([
            "--server",
            &served.url(""),
            "decide",
            "--model",
            "acme/support",
        ])
        .arg("--state")
        .arg(&state)
        .arg("--no-capture")
        .output()
        .unwrap();
    assert_succeeded(&output);
    let spans = stopped_spans(served, &collector);
    let command_span = spans
        .iter()
        .find(|s| s.name == "arbiter decide")
        .unwrap_or_else(|| panic!("the command's span: {spans:#?}"));
    let request = one(&spans, "POST /v1/decision");
    assert_eq!(request.trace, command_span.trace, "{spans:#?}");
    let trace: Vec<Span> = spans
        .iter()
        .filter(|s| s.trace == command_span.trace)
        .cloned()
        .collect();
    assert!(
        descends(&trace, request, command_span),
        "the server's request under the command: {trace:#?}"
    );
}

/// A job asked for over HTTP runs apart from its request, as a trace of its own (each
/// shard of it, in whichever worker), linked to the request that asked for it.
#[test]
fn a_jobs_shards_are_linked_to_the_request_that_created_it() {
    let collector = Collector::start();
    let (env, _) = home_with_model();
    let token = env.json(&[
        "tokens",
        "create",
        "--name",
        "b",
        "--scope",
        "batches",
        "--role",
        "acme/support=writer",
    ])["token"]
        .as_str()
        .unwrap()
        .to_owned();
    let model_id = env.json(&["models", "show", "acme/support"])["modelId"]
        .as_str()
        .unwrap()
        .to_owned();
    let served = env.spawn_serve_with(|command| pointed_at(command, &collector));
    let runtime = runtime();
    let client = Served::client();
    let crate::shared_store::StartedBatch { id: job_id, path } = runtime.block_on(
        crate::shared_store::start_batch(&client, &served, &token, &model_id, 3, "traced-0001"),
    );
    let job = runtime.block_on(crate::shared_store::poll_until_finished(
        &served,
        &token,
        &path,
        std::time::Duration::from_mins(2),
    ));
    assert_eq!(job["status"], "completed", "{job}");
    drop(runtime);
    let spans = stopped_spans(served, &collector);
    let created = spans
        .iter()
        .find(|s| s.name.starts_with("POST ") && s.name.ends_with("/batch-decisions"))
        .unwrap_or_else(|| panic!("the creating request's span: {spans:#?}"));
    let shard = one(&spans, "shard");
    assert_ne!(shard.trace, created.trace, "a trace of its own");
    assert_eq!(shard.attributes.get("job_id"), Some(&job_id), "{shard:?}");
    let [(trace, span)] = shard.links.as_slice() else {
        panic!("one link: {shard:?}");
    };
    assert_eq!(trace, &created.trace, "{shard:?}");
    let request: Vec<&Span> = spans.iter().filter(|s| s.trace == created.trace).collect();
    assert!(
        request.iter().any(|s| &s.id == span),
        "the link names a span of the request's trace: {request:#?}"
    );
}
