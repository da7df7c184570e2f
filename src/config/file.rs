//! `ARBITER_HOME/config.yaml` exactly as written: every field optional, unknown members
//! refused by serde (with their path). Nothing here is validated or defaulted beyond what
//! the syntax requires; [`super::server`], [`super::engines`] and [`super::repos`] do that.

use super::{ConfigError, Result};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// `ARBITER_HOME/config.yaml`, every field optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub server: ServerConfig,
    /// Remote engines by name.
    #[serde(default)]
    pub engines: IndexMap<String, EngineConfig>,
    /// Base model name → engine name; unrouted base models stay on the built-in engine.
    #[serde(default)]
    pub models: IndexMap<String, String>,
    /// Where the model repositories are shared between replicas.
    #[serde(default)]
    pub repos: ReposConfig,
    /// The PostgreSQL database shared between replicas.
    #[serde(default)]
    pub database: DatabaseConfig,
}

/// `database:` as written; [`super::database`] validates it.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DatabaseConfig {
    /// `postgres://user@host:5432/database`, without a password (`ARBITER_DATABASE_URL`,
    /// which wins, may carry one).
    pub url: Option<String>,
}

/// `repos:` as written; [`super::repos`] validates it and reads the credentials.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ReposConfig {
    /// Base URL of the shared remote (`file://`, `ssh://`, `https://`); each model's
    /// repository is `<remote>/<owner>/<model>.git`. `ARBITER_REPOS_REMOTE` wins.
    pub remote: Option<String>,
}

/// What speaks to a remote engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, strum::IntoStaticStr)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum EngineKind {
    /// Any System One server: `POST {url}/v1/systemone`.
    Systemone,
    /// Any OpenAI-compatible `POST {url}/chat/completions` that returns logprobs.
    ChatLogprobs,
}

impl EngineKind {
    /// Its name, as written in `config.yaml` (derived).
    pub fn as_str(self) -> &'static str {
        self.into()
    }
}

/// `engines.<name>` as written. Durations are seconds (fractions allowed).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EngineConfig {
    pub kind: EngineKind,
    /// The server's base URL: `https://api.typesafe.ai` (System One), `http://host:8000/v1`
    /// (chat).
    pub url: String,
    /// The model name sent upstream.
    pub model: String,
    /// The environment variable holding the API key (sent as a bearer token).
    #[serde(default)]
    pub api_key_env: Option<String>,
    /// Never read: a key written here is refused with a pointer to `api_key_env`.
    #[serde(default)]
    pub api_key: Option<Refused>,
    #[serde(default)]
    pub max_in_flight: Option<usize>,
    #[serde(default)]
    pub connect_timeout: Option<f64>,
    #[serde(default)]
    pub timeout: Option<f64>,
    #[serde(default)]
    pub retries: Option<u32>,
    #[serde(default)]
    pub backoff: Option<f64>,
    #[serde(default)]
    pub max_backoff: Option<f64>,
    /// chat-logprobs: how many alternatives to ask for at the answer position.
    #[serde(default)]
    pub top_logprobs: Option<u32>,
    /// chat-logprobs, `-reasoning` base models: the token budget for thinking first.
    #[serde(default)]
    pub reasoning_max_tokens: Option<u32>,
    /// When the upstream model was released, `YYYY-MM-DD`: the `release_date` that
    /// `GET /v1/models` gives the base models routed to this engine.
    #[serde(default)]
    pub release_date: Option<String>,
}

/// A member that is recognised only to be refused; its value is never kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

impl<'de> Deserialize<'de> for Refused {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Self)
    }
}

/// `server:` as written; the defaults are [`super::ServerSettings`]'s.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Public base URL, used in problem `type` URIs; default: the listen address's. Also
    /// read under its former name, `base_url`.
    #[serde(alias = "base_url")]
    pub public_url: Option<String>,
    /// Largest accepted request body, in bytes.
    pub max_body_bytes: Option<usize>,
    /// Per-token rate limit (token bucket).
    pub rate_limit: RateLimitConfig,
    /// Failed authentications per client address (token bucket).
    pub auth_failures: RateLimitConfig,
    /// Shards (and jobs run whole) a process runs at once; more wait, `queued`.
    pub max_running_jobs: Option<usize>,
    /// Items per shard of a batch or an evaluation (default 256).
    pub shard_size: Option<usize>,
    /// Decisions (`POST /v1/decision`) computed at once; default: the cores.
    pub max_concurrent_decisions: Option<usize>,
    /// Decisions that may wait for a slot; beyond them the answer is 503 `overloaded`.
    pub decision_queue: Option<usize>,
    /// Seconds a request's head may take to arrive whole.
    pub header_timeout: Option<f64>,
    /// Seconds a kept-alive connection may wait for its next request.
    pub idle_timeout: Option<f64>,
    /// Seconds a request body may stall.
    pub body_timeout: Option<f64>,
    /// Bytes a second a request body must keep arriving at, past `body_timeout`.
    pub body_min_rate: Option<u64>,
    /// Connections served at once; more wait to be accepted.
    pub max_connections: Option<usize>,
    /// Connections served at once from one client address (IP); more are refused, 503.
    pub max_connections_per_address: Option<usize>,
    /// `IP:PORT` of the listener that serves `/metrics` (Prometheus); default: none.
    pub metrics_listen: Option<String>,
    /// Whether the web app is served under `/ui/`; default: no.
    pub ui: Option<bool>,
    /// Seconds a web app session lasts from its login, however busy.
    pub ui_session_ttl: Option<f64>,
}

/// `server.rate_limit` as written: requests per second refilled, and the bucket size.
#[derive(Debug, Clone, Copy, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitConfig {
    pub per_second: Option<f64>,
    pub burst: Option<u32>,
}

/// The file at `path`; none, or an empty one, is all defaults. A syntax error or an unknown
/// member names the file and the member's path.
pub fn read(path: &Path) -> Result<ConfigFile> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(ConfigFile::default()),
        Err(source) => {
            return Err(ConfigError::Unreadable {
                path: path.to_owned(),
                source,
            });
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        ConfigError::Invalid(format!(
            "{}: {}",
            path.display(),
            not_utf8(e.as_bytes(), &e.utf8_error())
        ))
    })?;
    if text.trim().is_empty() {
        return Ok(ConfigFile::default());
    }
    crate::wire::value::from_yaml(&text)
        .map_err(|e| ConfigError::Invalid(format!("{}: {e}", path.display())))
}

/// Where `bytes` stop being UTF-8, as a person finds it: line and column (in characters).
fn not_utf8(bytes: &[u8], error: &std::str::Utf8Error) -> String {
    let valid = String::from_utf8_lossy(&bytes[..error.valid_up_to()]);
    let line = valid.matches('\n').count() + 1;
    let column = valid.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    format!("not UTF-8 text: line {line}, column {column} holds an invalid byte")
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_file_that_is_not_utf8_is_refused_at_its_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.yaml");
        std::fs::write(&path, b"server:\n  listen: \"a\xff\"\n").unwrap();
        let error = super::read(&path).unwrap_err();
        assert!(matches!(error, super::ConfigError::Invalid(_)), "{error:?}");
        assert_eq!(
            error.to_string(),
            format!(
                "{}: not UTF-8 text: line 2, column 13 holds an invalid byte",
                path.display()
            )
        );
    }
}
