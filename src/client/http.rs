//! The transport of client mode: one pooled HTTP client for the shared server, the bearer
//! token, a request ID per call, retries with backoff where they are safe, and the server's
//! problem documents turned back into the crate's [`Error`].
//!
//! What is retried, and why it is safe:
//! - a connection that could not be made: the request never left, whatever its method;
//! - `429`: the rate limit answers before any handler runs, so nothing was done;
//! - `502`, `503`, `504` and transport failures after sending (a reset, a timeout): only a
//!   *repeatable* request, i.e. a GET, a PATCH that writes the same values again, an
//!   idempotent cancel, or a POST that carries an `Idempotency-Key` (the server replays its
//!   first answer);
//! - `409 decision_in_progress`: a keyed request whose first attempt is still running.
//!
//! The wait is the server's `Retry-After` when it sends one (longer than a minute ends the
//! retries), else full jitter; [`POLICY`] and [`crate::retry`] say how long. reqwest types
//! stay inside this module; the token is only ever put in the `Authorization` header.

use crate::config::ApiKey;
use crate::error::{Error, Result};
use crate::retry::{Next, RetryPolicy, retry_after, transport_message};
use crate::wire::ProblemCode;
use crate::wire::problem::{Problem, status_title};
use crate::wire::validate::FieldError;
use bytes::Bytes;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// Four retries after the first attempt, the first waiting up to 250 ms and none more than
/// 8 s; a `Retry-After` longer than a minute ends them.
const POLICY: RetryPolicy = RetryPolicy {
    retries: 4,
    backoff: Duration::from_millis(250),
    max_backoff: Duration::from_secs(8),
    max_wait: Duration::from_mins(1),
};
/// Largest error body read (a problem document is small).
const MAX_ERROR_BODY: usize = 1024 * 1024;

/// The methods client mode uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Post,
    Patch,
    Delete,
}

/// One call to the server, as many times as it is sent.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    method: Method,
    /// The route's segments, filled ([`crate::wire::paths::fill`]); the route itself when
    /// the values did not fit it (a bug, said when it is sent).
    segments: std::result::Result<Vec<String>, &'static str>,
    query: Vec<(&'static str, String)>,
    body: Option<(&'static str, Bytes)>,
    key: Option<String>,
    repeatable: bool,
}

impl Request {
    fn new(method: Method, route: &'static str, values: &[&str], repeatable: bool) -> Self {
        let segments = crate::wire::paths::fill(route, values)
            .map(|segments| segments.into_iter().map(str::to_owned).collect())
            .ok_or(route);
        Self {
            method,
            segments,
            query: Vec::new(),
            body: None,
            key: None,
            repeatable,
        }
    }

    /// A GET of `route` ([`crate::wire::paths`]) with its `{name}`s filled by `values`, in
    /// order (each one percent-encoded as one segment, `/` included).
    pub(crate) fn get(route: &'static str, values: &[&str]) -> Self {
        Self::new(Method::Get, route, values, true)
    }

    /// A POST; repeated after a failure only with a key or [`Self::repeatable`].
    pub(crate) fn post(route: &'static str, values: &[&str]) -> Self {
        Self::new(Method::Post, route, values, false)
    }

    /// A PATCH; repeated only if [`Self::repeatable`].
    pub(crate) fn patch(route: &'static str, values: &[&str]) -> Self {
        Self::new(Method::Patch, route, values, false)
    }

    /// A DELETE: deleting again what is gone changes nothing, so it is repeated.
    pub(crate) fn delete(route: &'static str, values: &[&str]) -> Self {
        Self::new(Method::Delete, route, values, true)
    }

    /// A query parameter (encoded when sent).
    #[must_use]
    pub(crate) fn query(mut self, name: &'static str, value: &impl ToString) -> Self {
        self.query.push((name, value.to_string()));
        self
    }

    /// A JSON body.
    pub(crate) fn json(self, body: &impl serde::Serialize) -> Result<Self> {
        let bytes =
            serde_json::to_vec(body).map_err(|e| Error::internal("serializing a request", e))?;
        Ok(self.body("application/json", Bytes::from(bytes)))
    }

    #[must_use]
    pub(crate) fn body(mut self, content_type: &'static str, bytes: Bytes) -> Self {
        self.body = Some((content_type, bytes));
        self
    }

    /// An `Idempotency-Key`: the server answers a repeat with its first answer, so the
    /// request may be sent again.
    #[must_use]
    pub(crate) fn key(mut self, key: String) -> Self {
        self.key = Some(key);
        self.repeatable = true;
        self
    }

    /// The `Idempotency-Key`, if the request has one.
    pub(crate) fn idempotency_key(&self) -> Option<&str> {
        self.key.as_deref()
    }

    /// Safe to send again although it may have reached the server (it does the same thing
    /// twice without harm).
    #[must_use]
    pub(crate) fn repeatable(mut self) -> Self {
        self.repeatable = true;
        self
    }

    /// `METHOD /path`, for messages.
    fn describe(&self) -> String {
        let method = match self.method {
            Method::Get => "GET",
            Method::Post => "POST",
            Method::Patch => "PATCH",
            Method::Delete => "DELETE",
        };
        match &self.segments {
            Ok(segments) => format!("{method} /{}", segments.join("/")),
            Err(route) => format!("{method} {route}"),
        }
    }
}

/// A successful answer, read whole.
#[derive(Debug)]
pub(crate) struct Reply {
    pub(crate) body: Bytes,
    /// `Idempotent-Replayed: true`: the server answered a repeat of an earlier request.
    pub(crate) replayed: bool,
}

impl Reply {
    pub(crate) fn json<T: DeserializeOwned>(&self) -> Result<T> {
        serde_json::from_slice(&self.body).map_err(|e| {
            Error::UpstreamFailed(format!(
                "the arbiter server sent a response this client cannot read ({e}); are the \
                 client and the server the same version?"
            ))
        })
    }
}

/// The connection to one server.
pub(crate) struct Http {
    base: url::Url,
    token: Option<ApiKey>,
    client: reqwest::Client,
}

/// How one attempt ended.
enum Attempt {
    Answered(reqwest::Response),
    Retry {
        error: Error,
        wait: Option<Duration>,
    },
    Fatal(Error),
}

impl Http {
    pub(crate) fn new(base: &str, token: Option<ApiKey>) -> Result<Self> {
        let base = url::Url::parse(base)
            .map_err(|e| Error::BadRequest(format!("--server `{base}` is not a URL: {e}")))?;
        let client = reqwest::Client::builder()
            .connect_timeout(Duration::from_secs(10))
            // Between reads: a decision on a slow remote engine may take minutes in all.
            .read_timeout(Duration::from_mins(5))
            .pool_idle_timeout(Duration::from_mins(1))
            .user_agent(concat!("arbiter/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| Error::internal("building the HTTP client", e))?;
        Ok(Self {
            base,
            token,
            client,
        })
    }

    /// The server's URL, for messages.
    pub(crate) fn base(&self) -> &str {
        self.base.as_str().trim_end_matches('/')
    }

    /// Send `request` (retrying where safe) and read the whole successful answer.
    pub(crate) async fn send(&self, request: &Request) -> Result<Reply> {
        let mut retry = 0;
        loop {
            let response = self.respond(request).await?;
            let replayed = header(&response, "idempotent-replayed").as_deref() == Some("true");
            match response.bytes().await {
                Ok(body) => return Ok(Reply { body, replayed }),
                Err(error) if request.repeatable && retry < POLICY.retries => {
                    tracing::debug!(%error, "reading an answer failed; asking again");
                    tokio::time::sleep(POLICY.jitter(retry)).await;
                    retry += 1;
                }
                Err(error) => return Err(self.unavailable(request, &error, true)),
            }
        }
    }

    /// Send `request` and parse its JSON answer.
    pub(crate) async fn json<T: DeserializeOwned>(&self, request: &Request) -> Result<T> {
        self.send(request).await?.json()
    }

    /// Send `request` and hand the answer's body to `sink` chunk by chunk, as it arrives.
    /// Retried only until the answer starts: what `sink` took is never sent twice.
    pub(crate) async fn stream(
        &self,
        request: &Request,
        sink: &mut (dyn FnMut(&[u8]) -> Result<()> + Send),
    ) -> Result<()> {
        let mut response = self.respond(request).await?;
        loop {
            match response.chunk().await {
                Ok(Some(chunk)) => sink(&chunk)?,
                Ok(None) => return Ok(()),
                Err(error) => return Err(self.unavailable(request, &error, true)),
            }
        }
    }

    /// A successful answer's head, after as many attempts as it takes and is safe.
    async fn respond(&self, request: &Request) -> Result<reqwest::Response> {
        if request.segments.is_err() {
            return Err(Error::bug(format!(
                "{} asked for with values that do not fit it",
                request.describe()
            )));
        }
        let Some(token) = &self.token else {
            return Err(Error::Unauthorized(format!(
                "ARBITER_TOKEN is not set: client mode (--server {}) sends it as the bearer \
                 token; create one on the server with `arbiter tokens create`",
                self.base()
            )));
        };
        // One ID for every attempt, so the server's log ties them together.
        let request_id = uuid::Uuid::new_v4().to_string();
        let mut retry = 0u32;
        loop {
            let (error, wait) = match self.attempt(request, token, &request_id).await {
                Attempt::Answered(response) => return Ok(response),
                Attempt::Fatal(error) => return Err(error.after_attempts(retry + 1)),
                Attempt::Retry { error, wait } => (error, wait),
            };
            let wait = match POLICY.next(retry, wait) {
                Next::Wait(wait) => wait,
                Next::Exhausted => return Err(error.after_attempts(retry + 1)),
                Next::AskedTooLong(wait) => {
                    return Err(error.with_detail_suffix(&format!(
                        " (the server asked to retry after {:.0} s; gave up)",
                        wait.as_secs_f64()
                    )));
                }
            };
            tracing::debug!(%error, retry = retry + 1, wait_ms = wait.as_millis(), "retrying");
            tokio::time::sleep(wait).await;
            retry += 1;
        }
    }

    async fn attempt(&self, request: &Request, token: &ApiKey, request_id: &str) -> Attempt {
        let mut url = self.base.clone();
        if let (Ok(mut segments), Ok(filled)) = (url.path_segments_mut(), &request.segments) {
            segments.pop_if_empty().extend(filled);
        }
        if !request.query.is_empty() {
            url.query_pairs_mut()
                .extend_pairs(request.query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        let method = match request.method {
            Method::Get => reqwest::Method::GET,
            Method::Post => reqwest::Method::POST,
            Method::Patch => reqwest::Method::PATCH,
            Method::Delete => reqwest::Method::DELETE,
        };
        let mut builder = self
            .client
            .request(method, url)
            // bearer_auth marks the header sensitive: Debug output never shows it.
            .bearer_auth(token.expose())
            .header("x-request-id", request_id);
        if let Some(key) = &request.key {
            builder = builder.header("idempotency-key", key);
        }
        // The command's trace goes on in the server's, when traces are exported.
        for (name, value) in crate::telemetry::traces::context_headers() {
            builder = builder.header(name, value);
        }
        if let Some((content_type, body)) = &request.body {
            builder = builder
                .header(reqwest::header::CONTENT_TYPE, *content_type)
                .body(body.clone());
        }
        let response = match builder.send().await {
            Ok(response) => response,
            // Not connected: the request never left, so any request may be sent again.
            Err(error) if error.is_connect() => {
                return Attempt::Retry {
                    error: self.unavailable(request, &error, false),
                    wait: None,
                };
            }
            Err(error) if request.repeatable => {
                return Attempt::Retry {
                    error: self.unavailable(request, &error, false),
                    wait: None,
                };
            }
            Err(error) => {
                return Attempt::Fatal(
                    self.unavailable(request, &error, false).with_detail_suffix(
                        "; it may have reached the server, so it was not sent again",
                    ),
                );
            }
        };
        let status = response.status().as_u16();
        if response.status().is_success() {
            return Attempt::Answered(response);
        }
        let wait = retry_after(response.headers());
        let answered_id = header(&response, "x-request-id");
        let body = read_bounded(response).await;
        let error = self.problem(status, &body, answered_id.as_deref().unwrap_or(request_id));
        let retryable = match status {
            429 => true,
            502..=504 => request.repeatable,
            409 => {
                request.key.is_some() && error.code() == ProblemCode::DecisionInProgress.as_str()
            }
            _ => false,
        };
        if retryable {
            let wait = wait.or_else(|| (status == 409).then_some(Duration::from_millis(500)));
            Attempt::Retry { error, wait }
        } else {
            Attempt::Fatal(error)
        }
    }

    /// The error an answer with `status` and `body` reports: its problem document as sent,
    /// or, from something that is not an arbiter server (a proxy's HTML page), one made up
    /// from the status.
    fn problem(&self, status: u16, body: &[u8], request_id: &str) -> Error {
        if let Ok(sent) = serde_json::from_slice::<SentProblem>(body)
            && let Some(code) = sent.code.filter(|c| !c.is_empty())
        {
            let status = sent.status.unwrap_or(status);
            return Error::Remote(Box::new(Problem {
                kind: sent.kind.unwrap_or_default(),
                title: sent
                    .title
                    .unwrap_or_else(|| status_title(status).to_owned()),
                status,
                detail: sent.detail.unwrap_or_else(|| code.clone()),
                code,
                request_id: sent
                    .request_id
                    .filter(|id| !id.is_empty())
                    .unwrap_or_else(|| request_id.to_owned()),
                details: sent.details,
            }));
        }
        let text = String::from_utf8_lossy(body);
        let text: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let text: String = text.chars().take(300).collect();
        let code = match status {
            401 => "unauthorized",
            403 => "forbidden",
            404 => "not_found",
            405 => "method_not_allowed",
            409 => "conflict",
            413 => "payload_too_large",
            415 => "unsupported_media_type",
            422 => "validation_error",
            429 => "rate_limited",
            502 => "upstream_failed",
            503 | 504 => "upstream_unavailable",
            500..=599 => "internal",
            _ => "bad_request",
        };
        Error::Remote(Box::new(Problem {
            kind: String::new(),
            title: status_title(status).to_owned(),
            status,
            detail: format!(
                "{} answered {status} {}{}",
                self.base(),
                status_title(status),
                if text.is_empty() {
                    String::new()
                } else {
                    format!(": {text}")
                }
            ),
            code: code.to_owned(),
            request_id: request_id.to_owned(),
            details: Vec::new(),
        }))
    }

    fn unavailable(&self, request: &Request, error: &reqwest::Error, reading: bool) -> Error {
        let what = if error.is_timeout() {
            "timed out".to_owned()
        } else {
            transport_message(error)
        };
        Error::UpstreamUnavailable(format!(
            "the arbiter server at {} ({}){}: {what}",
            self.base(),
            request.describe(),
            if reading { " broke off its answer" } else { "" }
        ))
    }
}

/// A problem document as a server (or something in front of it) may send it: every member
/// optional, so a partial one is still read.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SentProblem {
    #[serde(rename = "type")]
    kind: Option<String>,
    title: Option<String>,
    status: Option<u16>,
    detail: Option<String>,
    code: Option<String>,
    request_id: Option<String>,
    #[serde(default)]
    details: Vec<FieldError>,
}

fn header(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

async fn read_bounded(mut response: reqwest::Response) -> Vec<u8> {
    let mut body = Vec::new();
    while let Ok(Some(chunk)) = response.chunk().await {
        body.extend_from_slice(&chunk);
        if body.len() > MAX_ERROR_BODY {
            break;
        }
    }
    body
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_problem_is_read_back_whole_and_anything_else_is_made_one() {
        let http = Http::new("http://127.0.0.1:9/", None).unwrap();
        let sent = serde_json::json!({
            "type": "http://h/problems/validation-error", "title": "Unprocessable Content",
            "status": 422, "detail": "invalid request: 2 problems", "code": "validation_error",
            "requestId": "r-1",
            "details": [{"loc": ["body", "questions", "q", "type"], "msg": "bad", "type": "enum"}]
        });
        let error = http.problem(422, sent.to_string().as_bytes(), "mine");
        assert_eq!(error.code(), "validation_error");
        assert_eq!(error.exit_code(), 1);
        assert_eq!(error.request_id(), Some("r-1"));
        assert_eq!(error.details().len(), 1);
        assert_eq!(error.to_string(), "invalid request: 2 problems");

        let error = http.problem(502, b"<html>Bad Gateway</html>", "mine");
        assert_eq!(error.code(), "upstream_failed");
        assert_eq!(error.request_id(), Some("mine"));
        assert!(error.to_string().contains("502 Bad Gateway"), "{error}");
        let error = http.problem(404, b"", "mine");
        assert_eq!(error.exit_code(), 4);
    }

    #[test]
    fn jitter_stays_under_the_doubling_ceiling() {
        for _ in 0..100 {
            assert!(POLICY.jitter(0) <= POLICY.backoff);
            assert!(POLICY.jitter(2) <= POLICY.backoff * 4);
            assert!(POLICY.jitter(30) <= POLICY.max_backoff);
        }
    }

    #[test]
    fn a_route_filled_with_values_that_do_not_fit_it_is_a_bug_before_anything_is_sent() {
        let http = Http::new("http://127.0.0.1:9", None).unwrap();
        let request = Request::get(crate::wire::paths::EXAMPLE, &["acme/support"]);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let error = runtime.block_on(http.send(&request)).unwrap_err();
        assert!(
            error.to_string().contains(
                "GET /v1/models/{modelId}/examples/{exampleId} asked for with values that do not fit it"
            ),
            "{error}"
        );
    }

    #[test]
    fn path_segments_are_encoded_one_by_one() {
        let mut url = url::Url::parse("http://h:1/prefix").unwrap();
        url.path_segments_mut()
            .unwrap()
            .pop_if_empty()
            .extend(["v1", "models", "acme/support"]);
        assert_eq!(url.as_str(), "http://h:1/prefix/v1/models/acme%2Fsupport");
    }
}
