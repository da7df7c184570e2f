//! Traces in OpenTelemetry's protocol (OTLP over HTTP, protobuf), sent to a collector only
//! when the standard variables ask for it: `OTEL_EXPORTER_OTLP_ENDPOINT` (the SDK appends
//! `/v1/traces`) or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (used as given). The SDK reads the
//! rest (`OTEL_EXPORTER_OTLP_HEADERS`, `…_TIMEOUT`, `OTEL_RESOURCE_ATTRIBUTES`,
//! `OTEL_BSP_*`); `OTEL_SERVICE_NAME` names the service, `arbiter` when unset;
//! `OTEL_SDK_DISABLED=true` turns it all off.
//!
//! The spans are the program's own `tracing` spans (a request, the model's resolution,
//! the admission wait, the engine's passes, the capture, the store's transactions, git,
//! the calls to remote engines), so the server and the CLI emit the same ones. They are at
//! level `trace`, below any log filter's default, so log lines look as they did without
//! traces. Unset, no layer is installed: those spans are never even built, and
//! [`context_headers`] and [`continue_from`] return at once.
//!
//! W3C trace context (`traceparent`, `tracestate`) is read from a request's headers
//! ([`continue_from`]) and written into a remote engine's, or the server's a command in
//! client mode calls ([`context_headers`]); this module sees headers only as names and
//! strings, never an HTTP library's types.

use opentelemetry::propagation::{Extractor, Injector, TextMapPropagator};
use opentelemetry::trace::{TraceContextExt, TracerProvider as _};
use opentelemetry_sdk::error::OTelSdkResult;
use opentelemetry_sdk::propagation::TraceContextPropagator;
use opentelemetry_sdk::trace::{SdkTracerProvider, SpanExporter};
use std::sync::atomic::{AtomicBool, Ordering};
use tracing_opentelemetry::OpenTelemetrySpanExt;
use tracing_subscriber::Layer;
use tracing_subscriber::filter::{FilterExt as _, Targets, filter_fn};
use tracing_subscriber::registry::LookupSpan;

/// The variables that turn traces on, either of them.
pub const ENDPOINT_VARS: [&str; 2] = [
    "OTEL_EXPORTER_OTLP_ENDPOINT",
    "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
];
/// `true` turns the SDK off whatever else is set, as the specification says.
pub const DISABLED_VAR: &str = "OTEL_SDK_DISABLED";
/// The service's name in the traces; [`DEFAULT_SERVICE_NAME`] when unset.
pub const SERVICE_NAME_VAR: &str = "OTEL_SERVICE_NAME";
pub const DEFAULT_SERVICE_NAME: &str = "arbiter";

/// Set once the layer is installed: the one check [`context_headers`] and [`continue_from`] make.
static ON: AtomicBool = AtomicBool::new(false);

/// Whether spans are being exported by this process.
pub fn enabled() -> bool {
    ON.load(Ordering::Relaxed)
}

/// Whether the environment `var` reads asks for traces: an endpoint set, the SDK not
/// disabled.
pub fn wanted(var: impl Fn(&str) -> Option<String>) -> bool {
    let set = |name: &str| var(name).is_some_and(|v| !v.trim().is_empty());
    let disabled = var(DISABLED_VAR).is_some_and(|v| v.trim().eq_ignore_ascii_case("true"));
    !disabled && ENDPOINT_VARS.iter().any(|name| set(name))
}

fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

/// The exporting half: flushed and shut down by [`Traces::shutdown`], so that a short
/// command's spans are sent before it exits.
pub struct Traces {
    provider: SdkTracerProvider,
}

impl Traces {
    /// Send what is queued and stop the exporter. Blocks for at most the export timeout.
    pub fn shutdown(self) {
        if let Err(error) = self.provider.shutdown() {
            tracing::warn!(%error, "traces: the last spans were not all sent");
        }
        ON.store(false, Ordering::Relaxed);
    }

    /// Its layer is installed: from now on spans are exported, and trace context read and
    /// sent.
    pub(super) fn installed(self) -> Self {
        ON.store(true, Ordering::Relaxed);
        self
    }

    /// Its layer was never installed: stop the exporter, change nothing else.
    pub(super) fn discard(self) {
        let _ = self.provider.shutdown();
    }
}

/// The layer that exports this crate's spans (the coarse ones the program opens, see
/// [`spans_only`]), and its exporter, when the environment asks for
/// traces; `Ok(None)` when it does not. An endpoint the exporter cannot use is refused,
/// naming the variable.
pub fn layer<S>() -> Result<Option<(impl Layer<S> + Send + Sync, Traces)>, String>
where
    S: tracing::Subscriber + for<'span> LookupSpan<'span> + Send + Sync,
{
    if !wanted(env_var) {
        return Ok(None);
    }
    let exporter = opentelemetry_otlp::SpanExporter::builder()
        .with_http()
        .build()
        .map_err(|e| format!("{}: {e}", ENDPOINT_VARS.join(" or ")))?;
    let mut resource = opentelemetry_sdk::Resource::builder();
    if env_var(SERVICE_NAME_VAR).is_none_or(|v| v.trim().is_empty()) {
        resource = resource.with_service_name(DEFAULT_SERVICE_NAME);
    }
    let provider = SdkTracerProvider::builder()
        .with_batch_exporter(Reported::new(exporter))
        .with_resource(resource.build())
        .build();
    let tracer = provider.tracer(DEFAULT_SERVICE_NAME);
    let layer = tracing_opentelemetry::layer()
        .with_tracer(tracer)
        .with_threads(false)
        .with_tracked_inactivity(false)
        .with_location(false)
        .with_target(false)
        .with_filter(spans_only());
    Ok(Some((layer, Traces { provider })))
}

/// An exporter that says when its exports fail: the SDK's own reports are a dependency's
/// log lines, which are filtered out, so a wrong endpoint or a collector that is down went
/// unseen. One warning when exports start failing and one line when they reach the
/// collector again: a collector down for an hour is two lines, not thousands.
#[derive(Debug)]
struct Reported<E> {
    inner: E,
    failing: AtomicBool,
}

impl<E> Reported<E> {
    fn new(inner: E) -> Self {
        Self {
            inner,
            failing: AtomicBool::new(false),
        }
    }
}

impl<E: SpanExporter> SpanExporter for Reported<E> {
    fn export(
        &self,
        batch: Vec<opentelemetry_sdk::trace::SpanData>,
    ) -> impl std::future::Future<Output = OTelSdkResult> + Send {
        let spans = batch.len();
        let exported = self.inner.export(batch);
        async move {
            let result = exported.await;
            match &result {
                Err(error) => {
                    if !self.failing.swap(true, Ordering::Relaxed) {
                        tracing::warn!(
                            %error,
                            spans,
                            "traces: spans could not be sent to the collector (further \
                             failures are not logged until an export succeeds)"
                        );
                    }
                }
                Ok(()) => {
                    if self.failing.swap(false, Ordering::Relaxed) {
                        tracing::info!("traces: spans reach the collector again");
                    }
                }
            }
            result
        }
    }

    fn shutdown_with_timeout(&self, timeout: std::time::Duration) -> OTelSdkResult {
        self.inner.shutdown_with_timeout(timeout)
    }

    fn force_flush(&self) -> OTelSdkResult {
        self.inner.force_flush()
    }

    fn set_resource(&mut self, resource: &opentelemetry_sdk::Resource) {
        self.inner.set_resource(resource);
    }
}

/// What is exported: this crate's spans, whatever their level (the program's own are at
/// `trace`, so that log lines never carry them unless asked), and its warnings and errors
/// as the events of the span they happen in; never a dependency's.
fn spans_only<S>() -> impl tracing_subscriber::layer::Filter<S> {
    let ours = Targets::new().with_target("arbiter", tracing::Level::TRACE);
    let kept = filter_fn(|meta| meta.is_span() || *meta.level() <= tracing::Level::WARN);
    ours.and(kept)
}

/// Make `span` (not yet entered, its `otel.name` and `otel.kind` recorded: they are fixed
/// from here on) the child of the trace a caller's `traceparent` names,
/// `header` reading a request header by its lowercase name, and record the trace's ID in
/// the span's `trace_id` field, so that log lines join the trace. A missing or malformed
/// `traceparent` starts a new trace. Does nothing when traces are off.
pub fn continue_from<'h>(span: &tracing::Span, header: impl Fn(&str) -> Option<&'h str>) {
    if !enabled() {
        return;
    }
    let parent =
        TraceContextPropagator::new().extract(&HeaderReader(header, std::marker::PhantomData));
    if parent.span().span_context().is_valid() {
        // Only refused when the span is already started or disabled: it then stays a root.
        let _ = span.set_parent(parent);
    }
    let trace_id = span.context().span().span_context().trace_id();
    span.record("trace_id", tracing::field::display(trace_id));
}

/// The current span's `traceparent`, to keep with work that runs later, elsewhere (a
/// job its creating request or command asked for); `None` when traces are off.
pub fn current_traceparent() -> Option<String> {
    context_headers()
        .into_iter()
        .find(|(name, _)| *name == "traceparent")
        .map(|(_, value)| value)
}

/// Link `span` to the span a kept `traceparent` names ([`current_traceparent`]): work
/// that runs apart from what asked for it (a job, each shard of it) is a trace of its own,
/// and the link leads from it to the request or command that asked. A malformed one is
/// ignored. Does nothing when traces are off.
pub fn link_to(span: &tracing::Span, traceparent: &str) {
    if !enabled() {
        return;
    }
    let header = |name: &str| (name == "traceparent").then_some(traceparent);
    let asked =
        TraceContextPropagator::new().extract(&HeaderReader(header, std::marker::PhantomData));
    let asked = asked.span().span_context().clone();
    if asked.is_valid() {
        span.add_link(asked);
    }
}

/// The W3C trace context of the current span, as the headers (`traceparent`, and
/// `tracestate` when there is one) of a call to another service: a remote engine, or the
/// server a command in client mode talks to. None when traces are off or no span is
/// current (and then no allocation).
pub fn context_headers() -> Vec<(&'static str, String)> {
    if !enabled() {
        return Vec::new();
    }
    let context = tracing::Span::current().context();
    if !context.span().span_context().is_valid() {
        return Vec::new();
    }
    let mut headers = HeaderWriter(Vec::new());
    TraceContextPropagator::new().inject_context(&context, &mut headers);
    headers.0
}

/// The headers' lifetime is the reader's, so what it reads lives as long as it does.
struct HeaderReader<'h, F>(F, std::marker::PhantomData<&'h ()>);

impl<'h, F: Fn(&str) -> Option<&'h str>> Extractor for HeaderReader<'h, F> {
    fn get(&self, key: &str) -> Option<&str> {
        (self.0)(key)
    }

    fn keys(&self) -> Vec<&str> {
        Vec::new()
    }
}

struct HeaderWriter(Vec<(&'static str, String)>);

impl Injector for HeaderWriter {
    fn set(&mut self, key: &str, value: String) {
        // The propagator writes only the two names of the W3C trace context.
        let name = match key {
            "traceparent" => "traceparent",
            "tracestate" => "tracestate",
            _ => return,
        };
        self.0.push((name, value));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// An exporter whose exports succeed or fail as `script` says, one entry each.
    #[derive(Debug)]
    struct Scripted(Mutex<std::collections::VecDeque<bool>>);

    impl SpanExporter for Scripted {
        fn export(
            &self,
            _batch: Vec<opentelemetry_sdk::trace::SpanData>,
        ) -> impl std::future::Future<Output = OTelSdkResult> + Send {
            let ok = self.0.lock().unwrap().pop_front().unwrap_or(true);
            async move {
                if ok {
                    Ok(())
                } else {
                    Err(opentelemetry_sdk::error::OTelSdkError::InternalFailure(
                        "connection refused".into(),
                    ))
                }
            }
        }
    }

    /// What a subscriber wrote, for a test to read.
    #[derive(Clone, Default)]
    struct Written(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Written {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn failed_exports_are_said_once_until_one_succeeds() {
        let script = [false, false, false, true, true, false, false];
        let exporter = Reported::new(Scripted(Mutex::new(script.into_iter().collect())));
        let written = Written::default();
        let subscriber = tracing_subscriber::fmt()
            .with_writer({
                let written = written.clone();
                move || written.clone()
            })
            .with_ansi(false)
            .finish();
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let results: Vec<bool> = tracing::subscriber::with_default(subscriber, || {
            script
                .iter()
                .map(|_| runtime.block_on(exporter.export(Vec::new())).is_ok())
                .collect()
        });
        // Every result goes back to the SDK as it was.
        assert_eq!(results, script);
        let log = String::from_utf8(written.0.lock().unwrap().clone()).unwrap();
        let failed = log.matches("spans could not be sent").count();
        let again = log.matches("spans reach the collector again").count();
        assert_eq!((failed, again), (2, 1), "{log}");
        assert!(log.contains("connection refused"), "{log}");
    }

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |name| {
            pairs
                .iter()
                .find(|(k, _)| *k == name)
                .map(|(_, v)| (*v).to_owned())
        }
    }

    #[test]
    fn only_the_w3c_names_are_written() {
        let mut headers = HeaderWriter(Vec::new());
        headers.set("traceparent", "00-a-b-01".to_owned());
        headers.set("baggage", "k=v".to_owned());
        headers.set("tracestate", "k=v".to_owned());
        let names: Vec<_> = headers.0.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, ["traceparent", "tracestate"]);
    }

    #[test]
    fn an_endpoint_turns_traces_on_and_the_sdk_switch_off() {
        assert!(!wanted(env(&[])));
        assert!(!wanted(env(&[("OTEL_EXPORTER_OTLP_ENDPOINT", " ")])));
        assert!(wanted(env(&[(
            "OTEL_EXPORTER_OTLP_ENDPOINT",
            "http://127.0.0.1:4318"
        )])));
        assert!(wanted(env(&[(
            "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
            "http://collector:4318/v1/traces"
        )])));
        assert!(!wanted(env(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_SDK_DISABLED", "TRUE"),
        ])));
        assert!(wanted(env(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"),
            ("OTEL_SDK_DISABLED", "false"),
        ])));
    }
}
