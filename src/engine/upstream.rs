//! The HTTP client every remote engine shares: one pooled `reqwest::Client` per engine, a
//! semaphore on requests in flight, timeouts, and retries with backoff.
//!
//! Owns the mapping of HTTP failures to [`Error`]: a connection that cannot be made or an
//! attempt that times out is `upstream_unavailable` (503) once the retries are spent; an
//! error status is `upstream_failed` (502) with the upstream's status and message. reqwest
//! types stay inside this module; when and how long to retry is [`crate::retry`]'s. The
//! API key goes only into the `Authorization` header and is redacted from anything an
//! upstream says back.

use crate::config::{ApiKey, EngineLimits, EngineSettings};
use crate::error::{Error, Result};
use crate::retry::{Next, RetryPolicy, retry_after, transport_message};
use crate::telemetry::metrics::{self, EngineResult};
use crate::wire::validate::{FieldError, Loc, Segment};
use bytes::Bytes;
use reqwest::StatusCode;
use serde::Serialize;
use serde_json::Value;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Largest response body read from an upstream.
const MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

/// Longest upstream message quoted in an error's detail.
const MAX_MESSAGE_CHARS: usize = 300;

/// The root segment of locations inside a provider's response.
pub const PROVIDER_RESPONSE: &str = "provider_response";

/// The location of a provider's response, for [`Error::ProviderResponse`] details.
pub fn response_loc() -> Loc {
    Loc(vec![Segment::Key(PROVIDER_RESPONSE.into())])
}

/// One remote engine's connection: where, with which key, how many at once.
pub struct Upstream {
    name: String,
    base_url: String,
    /// What every request is posted to: the base URL and the engine's path, parsed once
    /// (a request given a string parses it again, host and all).
    endpoint: reqwest::Url,
    /// The engine's path, as spans name the request.
    path: &'static str,
    client: reqwest::Client,
    api_key: Option<ApiKey>,
    api_key_env: Option<String>,
    limits: EngineLimits,
    permits: Arc<Semaphore>,
    release_date: Option<String>,
}

/// How one attempt ended.
enum Attempt {
    Done(Value),
    /// Not worth repeating: a client error status, an unreadable success.
    Fatal(Error),
    /// Worth another attempt; `retry_after` when the upstream said how long to wait.
    Retry {
        error: Error,
        retry_after: Option<Duration>,
    },
}

impl Upstream {
    /// The connection of the engine `settings` describe, whose requests go to `path` under
    /// its URL.
    pub fn new(settings: &EngineSettings, path: &'static str) -> Result<Self> {
        let endpoint = reqwest::Url::parse(&format!("{}{path}", settings.url))
            .map_err(|e| Error::internal(&format!("the URL of engine `{}`", settings.name), e))?;
        let client = reqwest::Client::builder()
            .connect_timeout(settings.limits.connect_timeout)
            .pool_idle_timeout(Duration::from_secs(90))
            .user_agent(concat!("arbiter/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| {
                Error::internal(
                    &format!("building the HTTP client of `{}`", settings.name),
                    e,
                )
            })?;
        Ok(Self {
            name: settings.name.clone(),
            base_url: settings.url.clone(),
            endpoint,
            path,
            client,
            api_key: settings.api_key.clone(),
            api_key_env: settings.api_key_env.clone(),
            limits: settings.limits,
            permits: Arc::new(Semaphore::new(settings.limits.max_in_flight)),
            release_date: settings.release_date.clone(),
        })
    }

    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// The upstream model's release date (`YYYY-MM-DD`), as `config.yaml` gives it.
    pub fn release_date(&self) -> Option<&str> {
        self.release_date.as_deref()
    }

    pub fn max_in_flight(&self) -> usize {
        self.limits.max_in_flight
    }

    /// POST `body` as JSON to the endpoint and return the parsed JSON of a 2xx response.
    ///
    /// These requests are pure reads (a decision has no side effect upstream), so every
    /// attempt may be repeated: on 408, 429, 500, 502, 503, 504, 529 and on connection
    /// errors and timeouts, up to `retries` times. The wait is `Retry-After` or
    /// `retry-after-ms` when given (a wait longer than `max_backoff` ends the retries),
    /// else full jitter: uniform in `[0, min(max_backoff, backoff·2ⁿ)]`. A permit is held
    /// only while an attempt is in flight, not while waiting. Each call is counted in the
    /// metrics by how it ended, each retry too.
    ///
    /// The call is a client span (`upstream`) of the current trace, and each attempt
    /// carries the trace's `traceparent` when traces are exported.
    pub async fn post<T: Serialize + ?Sized>(&self, body: &T) -> Result<Value> {
        let started = std::time::Instant::now();
        let span = tracing::trace_span!(
            "upstream",
            otel.name = %format_args!("POST {}", self.path),
            otel.kind = "client",
            otel.status_code = tracing::field::Empty,
            http.request.method = "POST",
            url.full = %self.endpoint,
            engine = %self.name,
        );
        let answered =
            tracing::Instrument::instrument(self.post_retrying(body), span.clone()).await;
        if answered.is_err() {
            span.record("otel.status_code", "error");
        }
        let result = match &answered {
            Ok(_) => EngineResult::Ok,
            Err(Error::UpstreamUnavailable(_)) => EngineResult::Unavailable,
            Err(_) => EngineResult::Failed,
        };
        metrics::engine_call(&self.name, result, started.elapsed());
        answered
    }

    async fn post_retrying<T: Serialize + ?Sized>(&self, body: &T) -> Result<Value> {
        if let (Some(var), None) = (&self.api_key_env, &self.api_key) {
            return Err(Error::UpstreamUnavailable(format!(
                "engine `{}` has no API key: set the environment variable {var}",
                self.name
            )));
        }
        let body = Bytes::from(
            serde_json::to_vec(body)
                .map_err(|e| Error::internal("serializing an upstream request", e))?,
        );
        let mut retry = 0u32;
        loop {
            let attempt = {
                let _permit = self
                    .permits
                    .acquire()
                    .await
                    .map_err(|e| Error::internal("the in-flight limit", e))?;
                self.attempt(body.clone()).await
            };
            let (error, retry_after) = match attempt {
                Attempt::Done(value) => return Ok(value),
                Attempt::Fatal(error) => return Err(error),
                Attempt::Retry { error, retry_after } => (error, retry_after),
            };
            let attempts = retry + 1;
            let wait = match retry_policy(&self.limits).next(retry, retry_after) {
                Next::Wait(wait) => wait,
                Next::Exhausted => return Err(error.after_attempts(attempts)),
                Next::AskedTooLong(wait) => {
                    return Err(error.with_detail_suffix(&format!(
                        " (it asked to retry after {:.1} s, longer than max_backoff {:.1} s; \
                             gave up after {attempts} attempt{})",
                        wait.as_secs_f64(),
                        self.limits.max_backoff.as_secs_f64(),
                        if attempts == 1 { "" } else { "s" }
                    )));
                }
            };
            tracing::debug!(engine = %self.name, %error, retry = retry + 1, wait_ms = wait.as_millis(), "retrying upstream request");
            metrics::engine_retry(&self.name);
            tokio::time::sleep(wait).await;
            retry += 1;
        }
    }

    async fn attempt(&self, body: Bytes) -> Attempt {
        let url = &self.endpoint;
        let mut request = self
            .client
            .post(url.clone())
            .timeout(self.limits.timeout)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(reqwest::header::ACCEPT, "application/json")
            .body(body);
        if let Some(key) = &self.api_key {
            // bearer_auth marks the header sensitive, so it is never shown by Debug.
            request = request.bearer_auth(key.expose());
        }
        // The trace's context, when traces are exported.
        for (name, value) in crate::telemetry::traces::context_headers() {
            request = request.header(name, value);
        }
        let response = match request.send().await {
            Ok(response) => response,
            Err(error) => {
                return Attempt::Retry {
                    error: self.unavailable(&error),
                    retry_after: None,
                };
            }
        };
        let status = response.status();
        let retry_after = retry_after(response.headers());
        let body = match read_body(response).await {
            Ok(body) => body,
            Err(BodyError::Transport(error)) => {
                return Attempt::Retry {
                    error: self.unavailable(&error),
                    retry_after: None,
                };
            }
            Err(BodyError::TooLarge) => {
                return Attempt::Fatal(Error::UpstreamFailed(format!(
                    "engine `{}` ({url}) sent a response larger than {} MiB",
                    self.name,
                    MAX_RESPONSE_BYTES / (1024 * 1024)
                )));
            }
        };
        if status.is_success() {
            return match serde_json::from_slice(&body) {
                Ok(value) => Attempt::Done(value),
                Err(e) => Attempt::Fatal(Error::ProviderResponse {
                    engine: self.name.clone(),
                    details: vec![FieldError::new(
                        response_loc(),
                        format!(
                            "the response is not JSON ({e}): {}",
                            self.quote(&String::from_utf8_lossy(&body))
                        ),
                        "json",
                    )],
                }),
            };
        }
        let error = Error::UpstreamFailed(format!(
            "engine `{}` ({url}) answered {}: {}",
            self.name,
            status_text(status),
            self.message(&body)
        ));
        if is_retryable(status) {
            Attempt::Retry { error, retry_after }
        } else {
            Attempt::Fatal(error)
        }
    }

    fn unavailable(&self, error: &reqwest::Error) -> Error {
        let what = if error.is_timeout() {
            format!("timed out after {:.1} s", self.limits.timeout.as_secs_f64())
        } else {
            transport_message(error)
        };
        Error::UpstreamUnavailable(format!(
            "engine `{}` ({}): {}",
            self.name,
            self.endpoint,
            self.redact(&what)
        ))
    }

    /// What an upstream said in an error body: a JSON `detail`, `message`, `error.message`
    /// or `error`, else the text; shortened and with the key redacted.
    fn message(&self, body: &[u8]) -> String {
        let text = match serde_json::from_slice::<Value>(body) {
            Ok(value) => json_message(&value).unwrap_or_else(|| value.to_string()),
            Err(_) => String::from_utf8_lossy(body).into_owned(),
        };
        let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
        if text.is_empty() {
            "(no message)".to_owned()
        } else {
            self.quote(&text)
        }
    }

    /// Shortened and redacted, for quoting upstream text in an error.
    fn quote(&self, text: &str) -> String {
        let text = self.redact(text);
        if text.chars().count() > MAX_MESSAGE_CHARS {
            let cut: String = text.chars().take(MAX_MESSAGE_CHARS).collect();
            format!("{cut}…")
        } else {
            text
        }
    }

    /// An upstream may echo the key it was sent (some say "invalid key sk-…"): never
    /// pass it on.
    fn redact(&self, text: &str) -> String {
        match &self.api_key {
            Some(key) if !key.expose().is_empty() => text.replace(key.expose(), "<redacted>"),
            _ => text.to_owned(),
        }
    }
}

/// The statuses worth another attempt: timeouts, rate limits, server errors, overload.
fn is_retryable(status: StatusCode) -> bool {
    matches!(status.as_u16(), 408 | 429 | 500 | 502 | 503 | 504 | 529)
}

fn status_text(status: StatusCode) -> String {
    match status.canonical_reason() {
        Some(reason) => format!("{} {reason}", status.as_u16()),
        None => status.as_u16().to_string(),
    }
}

/// An engine's retries: its configured limits, and a `Retry-After` beyond `max_backoff`
/// ends them.
fn retry_policy(limits: &EngineLimits) -> RetryPolicy {
    RetryPolicy {
        retries: limits.retries,
        backoff: limits.backoff,
        max_backoff: limits.max_backoff,
        max_wait: limits.max_backoff,
    }
}

fn json_message(value: &Value) -> Option<String> {
    let text = |v: &Value| v.as_str().map(str::to_owned);
    value
        .get("detail")
        .and_then(text)
        .or_else(|| value.get("message").and_then(text))
        .or_else(|| value.pointer("/error/message").and_then(text))
        .or_else(|| value.get("error").and_then(text))
        .or_else(|| value.get("title").and_then(text))
}

enum BodyError {
    Transport(reqwest::Error),
    TooLarge,
}

/// The response body, at most [`MAX_RESPONSE_BYTES`].
async fn read_body(mut response: reqwest::Response) -> std::result::Result<Vec<u8>, BodyError> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(BodyError::Transport)? {
        if body.len() + chunk.len() > MAX_RESPONSE_BYTES {
            return Err(BodyError::TooLarge);
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_jitter_stays_under_the_doubling_ceiling_and_the_cap() {
        let limits = EngineLimits {
            backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(350),
            ..EngineLimits::default()
        };
        let policy = retry_policy(&limits);
        for _ in 0..200 {
            assert!(policy.jitter(0) <= Duration::from_millis(100));
            assert!(policy.jitter(1) <= Duration::from_millis(200));
            assert!(policy.jitter(2) <= Duration::from_millis(350));
            assert!(policy.jitter(40) <= Duration::from_millis(350));
        }
        // A wait asked beyond max_backoff ends the retries.
        assert_eq!(
            policy.next(0, Some(Duration::from_millis(400))),
            Next::AskedTooLong(Duration::from_millis(400))
        );
        assert_eq!(policy.next(limits.retries, None), Next::Exhausted);
    }

    #[test]
    fn retryable_statuses() {
        for code in [408, 429, 500, 502, 503, 504, 529] {
            assert!(is_retryable(StatusCode::from_u16(code).unwrap()), "{code}");
        }
        for code in [400, 401, 403, 404, 422, 501] {
            assert!(!is_retryable(StatusCode::from_u16(code).unwrap()), "{code}");
        }
    }

    #[test]
    fn upstream_messages_are_found_shortened_and_redacted() {
        let settings = EngineSettings {
            name: "e".into(),
            kind: crate::config::EngineKind::Systemone,
            url: "http://127.0.0.1:9".into(),
            model: "m".into(),
            api_key_env: Some("K".into()),
            api_key: Some(ApiKey::new("sk-secret-123".into())),
            limits: EngineLimits::default(),
            top_logprobs: 20,
            reasoning_max_tokens: 2048,
            release_date: None,
        };
        let upstream = Upstream::new(&settings, "/v1/systemone").unwrap();
        assert_eq!(
            upstream.message(br#"{"error": {"message": "bad key sk-secret-123", "type": "auth"}}"#),
            "bad key <redacted>"
        );
        assert_eq!(upstream.message(br#"{"detail": "slow down"}"#), "slow down");
        assert_eq!(upstream.message(b"  plain\n text  "), "plain text");
        assert_eq!(upstream.message(b""), "(no message)");
        let long = "x".repeat(1000);
        assert_eq!(
            upstream.message(long.as_bytes()).chars().count(),
            MAX_MESSAGE_CHARS + 1
        );
        // Nor in Debug output of the settings.
        assert!(!format!("{settings:?}").contains("sk-secret"));
    }
}
