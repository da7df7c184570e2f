//! Configuration: `config.yaml` as written ([`ConfigFile`]) and the resolved [`Settings`].
//! Resolved once, at the edge; nothing below reads the environment.

use crate::error::{Error, Result};
use crate::wire::decision::BASE_MODELS;
use crate::wire::problem::{FieldError, Loc, Segment};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
}

/// What speaks to a remote engine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EngineKind {
    /// Any System One server: `POST {url}/v1/systemone`.
    Systemone,
    /// Any OpenAI-compatible `POST {url}/chat/completions` that returns logprobs.
    ChatLogprobs,
}

impl EngineKind {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Systemone => "systemone",
            Self::ChatLogprobs => "chat-logprobs",
        }
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
}

/// A member that is recognised only to be refused; its value is never kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refused;

impl<'de> Deserialize<'de> for Refused {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer).map(|_| Self)
    }
}

/// `server:` settings of `arbiter serve`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ServerConfig {
    /// Public base URL, used in problem `type` URIs; default: the request's own scheme and host.
    pub base_url: Option<String>,
    /// Largest accepted request body, in bytes.
    pub max_body_bytes: usize,
    /// Per-token rate limit (token bucket).
    pub rate_limit: RateLimitConfig,
    /// Jobs the server runs at once; more wait, `queued`. Each job already uses every core.
    pub max_running_jobs: usize,
}

impl Default for ServerConfig {
    fn default() -> Self {
        Self {
            base_url: None,
            max_body_bytes: 10 * 1024 * 1024,
            rate_limit: RateLimitConfig::default(),
            max_running_jobs: 2,
        }
    }
}

/// `server.rate_limit`: requests per second refilled, and the bucket size (the burst).
#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RateLimitConfig {
    pub per_second: f64,
    pub burst: u32,
}

impl Default for RateLimitConfig {
    fn default() -> Self {
        Self {
            per_second: 100.0,
            burst: 200,
        }
    }
}

/// An API key read from the environment. It is never printed: `Debug` shows only that
/// there is one, and there is no `Display`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: String) -> Self {
        Self(key)
    }

    /// The secret itself, for the `Authorization` header and for redacting it from
    /// upstream messages; nowhere else.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// How hard an engine is pushed and how long it is waited for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EngineLimits {
    /// Requests in flight at once (a semaphore per engine); batch jobs keep this many busy.
    pub max_in_flight: usize,
    pub connect_timeout: Duration,
    /// One attempt, from sending the request to the end of the response body.
    pub timeout: Duration,
    /// Retries after the first attempt, on 408/429/5xx/529 and connection errors.
    pub retries: u32,
    /// The first retry waits up to this (full jitter), doubling per retry.
    pub backoff: Duration,
    /// No wait is longer; a `Retry-After` beyond it ends the retries.
    pub max_backoff: Duration,
}

impl Default for EngineLimits {
    fn default() -> Self {
        Self {
            max_in_flight: 16,
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_mins(1),
            retries: 3,
            backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
        }
    }
}

/// A configured engine, resolved: validated URL, limits with defaults, the key from the
/// environment.
#[derive(Debug, Clone, PartialEq)]
pub struct EngineSettings {
    pub name: String,
    pub kind: EngineKind,
    /// Without a trailing `/`.
    pub url: String,
    pub model: String,
    pub api_key_env: Option<String>,
    /// `None` when no `api_key_env` is named, or the variable is unset or empty.
    pub api_key: Option<ApiKey>,
    pub limits: EngineLimits,
    pub top_logprobs: u32,
    pub reasoning_max_tokens: u32,
}

/// Defaults of the chat-logprobs engine.
pub const DEFAULT_TOP_LOGPROBS: u32 = 20;
pub const DEFAULT_REASONING_MAX_TOKENS: u32 = 2048;

/// Everything an operation needs to know about where and how to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub home: PathBuf,
    pub config: ConfigFile,
    /// `config.engines`, resolved, in file order.
    pub engines: IndexMap<String, EngineSettings>,
}

impl Settings {
    /// Resolve the home (flag or `ARBITER_HOME`, else `$XDG_DATA_HOME/arbiter`, else
    /// `~/.local/share/arbiter`) and read its `config.yaml` if there is one; API keys come
    /// from the environment variables the engines name.
    pub fn resolve(home: Option<PathBuf>) -> Result<Self> {
        Self::resolve_with(home, &|name| std::env::var(name).ok())
    }

    /// [`Settings::resolve`] with the environment given (tests).
    pub fn resolve_with(
        home: Option<PathBuf>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Self> {
        let home = match home {
            Some(home) => home,
            None => default_home()?,
        };
        let path = home.join("config.yaml");
        let config = read_config(&path)?;
        let engines =
            resolve_engines(&config, env).map_err(|errors| config_error(&path, &errors))?;
        Ok(Self {
            home,
            config,
            engines,
        })
    }

    /// The engine name routed to a base model, if any.
    pub fn route(&self, base_model: &str) -> Option<&EngineSettings> {
        self.config
            .models
            .get(base_model)
            .and_then(|name| self.engines.get(name))
    }

    pub fn repos_dir(&self) -> PathBuf {
        self.home.join("repos")
    }

    pub fn database_path(&self) -> PathBuf {
        self.home.join("arbiter.db")
    }

    /// One directory per job: its staged input, its results, its lock.
    pub fn jobs_dir(&self) -> PathBuf {
        self.home.join("jobs")
    }
}

fn default_home() -> Result<PathBuf> {
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(data).join("arbiter"));
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".local/share/arbiter")),
        None => Err(Error::BadRequest(
            "cannot find a home for arbiter: set ARBITER_HOME or pass --home".into(),
        )),
    }
}

/// Every problem of the `engines:` and `models:` sections at once, located by field path.
fn resolve_engines(
    config: &ConfigFile,
    env: &dyn Fn(&str) -> Option<String>,
) -> std::result::Result<IndexMap<String, EngineSettings>, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut engines = IndexMap::new();
    let root = Loc(vec![Segment::Key("engines".into())]);
    for (name, written) in &config.engines {
        let before = errors.len();
        let resolved = resolve_engine(name, written, &root.key(name), env, &mut errors);
        if errors.len() == before {
            engines.insert(name.clone(), resolved);
        }
    }
    let routes = Loc(vec![Segment::Key("models".into())]);
    for (model, engine) in &config.models {
        if !BASE_MODELS.contains(&model.as_str()) {
            errors.push(FieldError::new(
                routes.key(model),
                format!(
                    "`{model}` is not a base model; only base models are routed ({})",
                    BASE_MODELS.join(", ")
                ),
                "unknown_base",
            ));
        }
        if !config.engines.contains_key(engine) {
            errors.push(FieldError::new(
                routes.key(model),
                format!("no engine `{engine}` is defined under `engines`"),
                "unknown_engine",
            ));
        }
    }
    if errors.is_empty() {
        Ok(engines)
    } else {
        Err(errors)
    }
}

fn resolve_engine(
    name: &str,
    written: &EngineConfig,
    loc: &Loc,
    env: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<FieldError>,
) -> EngineSettings {
    let mut problems = Problems { loc, errors };
    if name.is_empty() {
        problems.errors.push(FieldError::new(
            loc.clone(),
            "an engine name may not be empty",
            "empty",
        ));
    }
    let url = check_url(&written.url).unwrap_or_else(|msg| {
        problems.push("url", msg, "bad_url");
        String::new()
    });
    if written.model.trim().is_empty() {
        problems.push(
            "model",
            "model may not be empty: the model name sent upstream",
            "empty",
        );
    }
    if written.api_key.is_some() {
        problems.push(
            "api_key",
            "API keys are never read from config.yaml: put the key in an environment variable \
             and name it in `api_key_env`",
            "secret_in_config",
        );
    }
    if let Some(var) = &written.api_key_env {
        let valid = var
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && var.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            problems.push(
                "api_key_env",
                format!("`{var}` is not an environment variable name (letters, digits, _)"),
                "bad_env_name",
            );
        }
    }
    let limits = resolve_limits(written, &mut problems);
    if written.kind != EngineKind::ChatLogprobs {
        for (field, given) in [
            ("top_logprobs", written.top_logprobs.is_some()),
            (
                "reasoning_max_tokens",
                written.reasoning_max_tokens.is_some(),
            ),
        ] {
            if given {
                problems.push(
                    field,
                    format!("{field} applies only to kind chat-logprobs"),
                    "not_applicable",
                );
            }
        }
    }
    let top_logprobs = written.top_logprobs.unwrap_or(DEFAULT_TOP_LOGPROBS);
    if !(1..=20).contains(&top_logprobs) {
        problems.push(
            "top_logprobs",
            format!("top_logprobs is {top_logprobs}: expected 1 to 20"),
            "out_of_range",
        );
    }
    let reasoning_max_tokens = written
        .reasoning_max_tokens
        .unwrap_or(DEFAULT_REASONING_MAX_TOKENS);
    if reasoning_max_tokens < 16 {
        problems.push(
            "reasoning_max_tokens",
            "reasoning_max_tokens must be at least 16",
            "out_of_range",
        );
    }
    let api_key = written
        .api_key_env
        .as_deref()
        .and_then(env)
        .map(|key| key.trim().to_owned())
        .filter(|key| !key.is_empty())
        .map(ApiKey::new);
    EngineSettings {
        name: name.to_owned(),
        kind: written.kind,
        url,
        model: written.model.clone(),
        api_key_env: written.api_key_env.clone(),
        api_key,
        limits,
        top_logprobs,
        reasoning_max_tokens,
    }
}

/// The limits of one engine, defaults filled in.
fn resolve_limits(written: &EngineConfig, problems: &mut Problems<'_>) -> EngineLimits {
    let defaults = EngineLimits::default();
    let connect_timeout = problems.seconds(
        "connect_timeout",
        written.connect_timeout,
        defaults.connect_timeout,
        false,
    );
    let timeout = problems.seconds("timeout", written.timeout, defaults.timeout, false);
    let backoff = problems.seconds("backoff", written.backoff, defaults.backoff, true);
    let max_backoff = problems.seconds(
        "max_backoff",
        written.max_backoff,
        defaults.max_backoff.max(backoff),
        true,
    );
    if max_backoff < backoff {
        problems.push(
            "max_backoff",
            "max_backoff may not be less than backoff",
            "out_of_range",
        );
    }
    let max_in_flight = written.max_in_flight.unwrap_or(defaults.max_in_flight);
    if !(1..=4096).contains(&max_in_flight) {
        problems.push(
            "max_in_flight",
            format!("max_in_flight is {max_in_flight}: expected 1 to 4096"),
            "out_of_range",
        );
    }
    let retries = written.retries.unwrap_or(defaults.retries);
    if retries > 20 {
        problems.push(
            "retries",
            format!("retries is {retries}: at most 20"),
            "out_of_range",
        );
    }
    EngineLimits {
        max_in_flight,
        connect_timeout,
        timeout,
        retries,
        backoff,
        max_backoff,
    }
}

/// The problems of one engine, located under its entry.
struct Problems<'a> {
    loc: &'a Loc,
    errors: &'a mut Vec<FieldError>,
}

impl Problems<'_> {
    fn push(&mut self, field: &str, msg: impl Into<String>, kind: &str) {
        self.errors
            .push(FieldError::new(self.loc.key(field), msg, kind));
    }

    /// A duration in seconds: finite, positive (or zero when `zero_ok`), at most a day.
    fn seconds(
        &mut self,
        field: &str,
        value: Option<f64>,
        default: Duration,
        zero_ok: bool,
    ) -> Duration {
        let Some(secs) = value else { return default };
        let low_ok = if zero_ok { secs >= 0.0 } else { secs > 0.0 };
        if secs.is_finite() && low_ok && secs <= 86_400.0 {
            return Duration::from_secs_f64(secs);
        }
        self.push(
            field,
            format!(
                "{field} is {secs}: expected seconds, {} and at most 86400",
                if zero_ok { "at least 0" } else { "more than 0" }
            ),
            "out_of_range",
        );
        default
    }
}

/// An `http(s)` URL with a host and nothing after the path; returned without a trailing `/`.
fn check_url(text: &str) -> std::result::Result<String, String> {
    let url = url::Url::parse(text).map_err(|e| format!("`{text}` is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("`{text}`: the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("`{text}` has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        // Never echo the URL: its user part may be a secret.
        return Err(
            "credentials in the URL are not read: put the key in an environment variable and \
             name it in `api_key_env`"
                .into(),
        );
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!("`{text}` may not have a query or fragment"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// Client mode: where the shared `arbiter serve` is, and how to talk to it. Resolved from
/// `--server` (or `ARBITER_SERVER`) and the environment, once, at the edge.
#[derive(Debug, Clone, PartialEq)]
pub struct ClientSettings {
    /// The server's base URL, without a trailing `/` (it may have a path prefix).
    pub url: String,
    /// `ARBITER_TOKEN`: sent as the bearer token; never printed.
    pub token: Option<ApiKey>,
    /// `ARBITER_RUN_ID`, else `GITHUB_RUN_ID`, else `CI_PIPELINE_ID`: part of the
    /// idempotency keys of jobs, so a retried CI step reuses its job while the next pipeline
    /// run (or a later run at a terminal, without it) starts a new one.
    pub run_id: Option<String>,
    /// `ARBITER_CHUNK_BYTES`: how much of a large ingest or annotation file goes in one
    /// request (well under the server's `server.max_body_bytes`).
    pub chunk_bytes: usize,
}

impl ClientSettings {
    /// The largest chunk of an upload by default: a tenth of the server's default body limit.
    pub const DEFAULT_CHUNK_BYTES: usize = 1024 * 1024;

    /// Client settings for `server` (the flag or `ARBITER_SERVER`), if one is given.
    pub fn resolve(server: Option<&str>) -> Result<Option<Self>> {
        Self::resolve_with(server, &|name| std::env::var(name).ok())
    }

    /// [`ClientSettings::resolve`] with the environment given (tests).
    pub fn resolve_with(
        server: Option<&str>,
        env: &dyn Fn(&str) -> Option<String>,
    ) -> Result<Option<Self>> {
        let Some(server) = server.map(str::trim).filter(|s| !s.is_empty()) else {
            return Ok(None);
        };
        let url =
            check_server_url(server).map_err(|e| Error::BadRequest(format!("--server: {e}")))?;
        let set = |name: &str| {
            env(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let chunk_bytes = match set("ARBITER_CHUNK_BYTES") {
            None => Self::DEFAULT_CHUNK_BYTES,
            Some(text) => text
                .parse::<usize>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| {
                    Error::BadRequest(format!(
                        "ARBITER_CHUNK_BYTES must be a positive number of bytes, not `{text}`"
                    ))
                })?,
        };
        Ok(Some(Self {
            url,
            token: set("ARBITER_TOKEN").map(ApiKey::new),
            run_id: set("ARBITER_RUN_ID")
                .or_else(|| set("GITHUB_RUN_ID"))
                .or_else(|| set("CI_PIPELINE_ID")),
            chunk_bytes,
        }))
    }
}

/// A server URL: http(s), a host, no credentials, query or fragment.
fn check_server_url(text: &str) -> std::result::Result<String, String> {
    let url = url::Url::parse(text).map_err(|e| format!("`{text}` is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("`{text}`: the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("`{text}` has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        // Never echo the URL: its user part may be a secret.
        return Err("credentials in the URL are not read: set ARBITER_TOKEN".into());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!("`{text}` may not have a query or fragment"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// A config problem names the file, then each field path.
fn config_error(path: &Path, errors: &[FieldError]) -> Error {
    match errors {
        [one] => Error::BadRequest(format!("{}: {one}", path.display())),
        many => Error::BadRequest(format!(
            "{}: {} problems:\n  {}",
            path.display(),
            many.len(),
            many.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        )),
    }
}

fn read_config(path: &Path) -> Result<ConfigFile> {
    match std::fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(ConfigFile::default()),
        Ok(text) => serde_yaml::from_str(&text)
            .map_err(|e| Error::BadRequest(format!("{}: {e}", path.display()))),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(ConfigFile::default()),
        Err(e) => Err(Error::internal(&format!("reading {}", path.display()), e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_config_is_default_and_bad_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings::resolve(Some(dir.path().to_owned())).unwrap();
        assert_eq!(settings.config, ConfigFile::default());
        std::fs::write(dir.path().join("config.yaml"), "sever: {}\n").unwrap();
        let err = Settings::resolve(Some(dir.path().to_owned()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("config.yaml") && err.contains("unknown field `sever`"),
            "{err}"
        );
    }

    #[test]
    fn server_base_url_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.yaml"),
            "server:\n  base_url: https://arbiter.example\n",
        )
        .unwrap();
        let settings = Settings::resolve(Some(dir.path().to_owned())).unwrap();
        assert_eq!(
            settings.config.server.base_url.as_deref(),
            Some("https://arbiter.example")
        );
    }

    #[test]
    fn client_settings_come_from_the_flag_and_the_environment() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert_eq!(ClientSettings::resolve_with(None, &env(&[])).unwrap(), None);
        assert_eq!(
            ClientSettings::resolve_with(Some(" "), &env(&[])).unwrap(),
            None
        );
        let settings = ClientSettings::resolve_with(
            Some("https://arbiter.example/team/"),
            &env(&[
                ("ARBITER_TOKEN", "arb_x_secret"),
                ("GITHUB_RUN_ID", "77"),
                ("ARBITER_CHUNK_BYTES", "4096"),
            ]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(settings.url, "https://arbiter.example/team");
        assert_eq!(
            settings.token.as_ref().map(ApiKey::expose),
            Some("arb_x_secret")
        );
        assert_eq!(settings.run_id.as_deref(), Some("77"));
        assert_eq!(settings.chunk_bytes, 4096);
        assert!(
            !format!("{settings:?}").contains("secret"),
            "the token is never shown"
        );
        let own = ClientSettings::resolve_with(
            Some("http://127.0.0.1:8080"),
            &env(&[("ARBITER_RUN_ID", "r1"), ("GITHUB_RUN_ID", "77")]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(own.run_id.as_deref(), Some("r1"));
        assert_eq!(own.chunk_bytes, ClientSettings::DEFAULT_CHUNK_BYTES);
        for bad in ["ftp://h", "http://u:p@h", "http://h/?q=1", "nonsense"] {
            let error = ClientSettings::resolve_with(Some(bad), &env(&[])).unwrap_err();
            assert!(!error.to_string().contains("u:p"), "{error}");
        }
        assert!(
            ClientSettings::resolve_with(Some("http://h"), &env(&[("ARBITER_CHUNK_BYTES", "0")]))
                .is_err()
        );
    }

    fn write_config(text: &str) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.yaml"), text).unwrap();
        dir
    }

    fn resolve(dir: &tempfile::TempDir, env: &[(&str, &str)]) -> Result<Settings> {
        let env: Vec<(String, String)> = env
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Settings::resolve_with(Some(dir.path().to_owned()), &move |name| {
            env.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    const ENGINES: &str = "
engines:
  typesafe:   {kind: systemone, url: https://api.typesafe.ai/, api_key_env: TYPESAFE_API_KEY, model: jev-1.13.0}
  local-kev:  {kind: systemone, url: 'http://127.0.0.1:11434', model: kev, max_in_flight: 4, timeout: 2.5, retries: 0}
  vllm-qwen:  {kind: chat-logprobs, url: 'http://127.0.0.1:8000/v1', model: Qwen/Qwen3-4B, api_key_env: VLLM_KEY, top_logprobs: 10}
models:
  jev-latest: typesafe
  mo: vllm-qwen
  mo-reasoning: vllm-qwen
";

    #[test]
    fn engines_resolve_with_defaults_and_keys_from_the_environment() {
        let dir = write_config(ENGINES);
        let settings = resolve(&dir, &[("TYPESAFE_API_KEY", "ts-secret")]).unwrap();
        let names: Vec<&String> = settings.engines.keys().collect();
        assert_eq!(names, ["typesafe", "local-kev", "vllm-qwen"]);
        let typesafe = &settings.engines["typesafe"];
        assert_eq!(typesafe.url, "https://api.typesafe.ai");
        assert_eq!(
            typesafe.api_key.as_ref().map(ApiKey::expose),
            Some("ts-secret")
        );
        assert_eq!(typesafe.limits, EngineLimits::default());
        let local = &settings.engines["local-kev"];
        assert_eq!(local.limits.max_in_flight, 4);
        assert_eq!(local.limits.timeout, Duration::from_millis(2500));
        assert_eq!(local.limits.retries, 0);
        assert_eq!(local.api_key, None);
        // Named but unset: no key (the engine says so when it is used).
        assert_eq!(settings.engines["vllm-qwen"].api_key, None);
        assert_eq!(settings.engines["vllm-qwen"].top_logprobs, 10);
        assert_eq!(settings.route("mo").unwrap().name, "vllm-qwen");
        assert!(settings.route("service/mo").is_none());
        // The key never shows in Debug output.
        let debug = format!("{settings:?}");
        assert!(
            !debug.contains("ts-secret") && debug.contains("<redacted>"),
            "{debug}"
        );
    }

    #[test]
    fn every_engine_problem_is_reported_with_its_field_path() {
        let dir = write_config(
            "
engines:
  a: {kind: systemone, url: 'ftp://x', model: m, top_logprobs: 5}
  b: {kind: chat-logprobs, url: 'https://user:pw@host/v1', model: '', max_in_flight: 0, timeout: -1, api_key_env: 'NOT-A-VAR'}
  c: {kind: systemone, url: 'not a url', model: m, api_key: sk-should-not-be-here}
models:
  mo: missing
  acme/support: a
",
        );
        let err = resolve(&dir, &[]).unwrap_err().to_string();
        for expected in [
            "config.yaml: 11 problems:",
            "engines.a.url: `ftp://x`: the scheme must be http or https",
            "engines.a.top_logprobs: top_logprobs applies only to kind chat-logprobs",
            "engines.b.url: credentials in the URL are not read",
            "engines.b.model: model may not be empty",
            "engines.b.api_key_env: `NOT-A-VAR` is not an environment variable name",
            "engines.b.timeout: timeout is -1",
            "engines.b.max_in_flight: max_in_flight is 0",
            "engines.c.url: `not a url` is not a URL",
            "engines.c.api_key: API keys are never read from config.yaml",
            "models.mo: no engine `missing` is defined under `engines`",
            r#"models["acme/support"]: `acme/support` is not a base model"#,
        ] {
            assert!(err.contains(expected), "missing {expected:?} in:\n{err}");
        }
        // Neither the key written in the file nor the URL's password is echoed.
        assert!(!err.contains("sk-should") && !err.contains("pw@"), "{err}");
    }

    #[test]
    fn an_unknown_engine_kind_or_member_names_the_file_and_field() {
        let dir = write_config("engines:\n  x: {kind: grpc, url: 'http://h', model: m}\n");
        let err = resolve(&dir, &[]).unwrap_err().to_string();
        assert!(
            err.contains("config.yaml")
                && err.contains("engines.x.kind")
                && err.contains("unknown variant `grpc`"),
            "{err}"
        );
        let dir =
            write_config("engines:\n  x: {kind: systemone, url: 'http://h', model: m, key: k}\n");
        let err = resolve(&dir, &[]).unwrap_err().to_string();
        assert!(
            err.contains("engines.x") && err.contains("unknown field `key`"),
            "{err}"
        );
    }
}
