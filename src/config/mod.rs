//! Configuration: `config.yaml` as written ([`file`](mod@file)) resolved with the environment into
//! validated [`Settings`]: the server's ([`server`]), the engines' ([`engines`]), and client
//! mode's ([`client`]). Resolved once, at the edge; nothing below reads the environment or
//! the file. Every bad value is refused with its location, never clamped.

pub mod client;
pub mod database;
pub mod engines;
pub mod file;
pub mod repos;
pub mod server;

pub use client::ClientSettings;
pub use database::DatabaseSettings;
pub use engines::{
    DEFAULT_REASONING_MAX_TOKENS, DEFAULT_TOP_LOGPROBS, EngineLimits, EngineSettings,
};
pub use file::{ConfigFile, EngineKind};
pub use repos::{GitCredentials, RemoteSettings, ReposSettings};
pub use server::{RateLimit, ServerSettings};

use crate::wire::validate::FieldError;
use indexmap::IndexMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Why the configuration cannot be resolved: a value that is wrong (the caller's to fix)
/// or a file that cannot be read. The crate's error maps it once ([`crate::error`]).
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// What is wrong, and where: the file and member, or the flag or variable.
    #[error("{0}")]
    Invalid(String),
    #[error("reading {}: {source}", path.display())]
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
}

pub type Result<T, E = ConfigError> = std::result::Result<T, E>;

/// Everything an operation needs to know about where and how to run, validated.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub home: PathBuf,
    /// `server:`, with its defaults.
    pub server: ServerSettings,
    /// `engines:`, resolved, in file order.
    pub engines: IndexMap<String, EngineSettings>,
    /// `models:`: base model → the name of an engine in [`Self::engines`].
    pub routes: IndexMap<String, String>,
    /// `repos:` (and `ARBITER_REPOS_*`): the git remote shared by replicas, if any.
    pub repos: ReposSettings,
    /// `database:` (and `ARBITER_DATABASE_URL`): the PostgreSQL database shared by
    /// replicas, if any.
    pub database: DatabaseSettings,
}

impl Settings {
    /// Resolve the home (flag or `ARBITER_HOME`, else `$XDG_DATA_HOME/arbiter`, else
    /// `~/.local/share/arbiter`) and read its `config.yaml` if there is one; API keys come
    /// from the environment variables the engines name, the repositories' remote and its
    /// credentials from `ARBITER_REPOS_*`.
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
        let written = file::read(&path)?;
        // Every problem of the file at once: the engines' first, then the server's.
        let mut errors = Vec::new();
        let (engines, routes) = engines::resolve(&written, env, &mut errors);
        let server = server::resolve(&written.server, &mut errors);
        let repos = repos::resolve(&written.repos, env, &mut errors)?;
        let database = database::resolve(&written.database, env, &mut errors)?;
        if !errors.is_empty() {
            return Err(config_error(&path, &errors));
        }
        Ok(Self {
            home,
            server,
            engines,
            routes,
            repos,
            database,
        })
    }

    /// The engine routed to a base model, if any.
    pub fn route(&self, base_model: &str) -> Option<&EngineSettings> {
        self.routes
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

    /// One lock file per running process that holds claims (`core::lease`).
    pub fn leases_dir(&self) -> PathBuf {
        self.home.join("leases")
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

fn default_home() -> Result<PathBuf> {
    if let Some(data) = std::env::var_os("XDG_DATA_HOME").filter(|v| !v.is_empty()) {
        return Ok(PathBuf::from(data).join("arbiter"));
    }
    match std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        Some(home) => Ok(PathBuf::from(home).join(".local/share/arbiter")),
        None => Err(ConfigError::Invalid(
            "cannot find a home for arbiter: set ARBITER_HOME or pass --home".into(),
        )),
    }
}

/// An `http(s)` URL with a host and nothing after the path; returned without a trailing
/// `/`. `credentials_hint` says where a secret goes instead of the URL's user part.
fn http_url(text: &str, credentials_hint: &str) -> std::result::Result<String, String> {
    let url = url::Url::parse(text).map_err(|e| format!("`{text}` is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!("`{text}`: the scheme must be http or https"));
    }
    if url.host_str().is_none_or(str::is_empty) {
        return Err(format!("`{text}` has no host"));
    }
    if !url.username().is_empty() || url.password().is_some() {
        // Never echo the URL: its user part may be a secret.
        return Err(format!(
            "credentials in the URL are not read: {credentials_hint}"
        ));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(format!("`{text}` may not have a query or fragment"));
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
}

/// A config problem names the file, then each field path.
fn config_error(path: &Path, errors: &[FieldError]) -> ConfigError {
    match errors {
        [one] => ConfigError::Invalid(format!("{}: {one}", path.display())),
        many => ConfigError::Invalid(format!(
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_config_is_default_and_bad_config_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let settings = Settings::resolve(Some(dir.path().to_owned())).unwrap();
        assert_eq!(settings.server, ServerSettings::default());
        assert!(settings.engines.is_empty() && settings.routes.is_empty());
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
    fn server_public_url_is_read() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.yaml"),
            "server:\n  public_url: https://arbiter.example\n",
        )
        .unwrap();
        let settings = Settings::resolve(Some(dir.path().to_owned())).unwrap();
        assert_eq!(
            settings.server.public_url.as_deref(),
            Some("https://arbiter.example")
        );
    }

    #[test]
    fn a_bad_server_value_names_the_file_and_its_location() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("config.yaml"),
            "server:\n  max_body_bytes: 0\n",
        )
        .unwrap();
        let err = Settings::resolve(Some(dir.path().to_owned()))
            .unwrap_err()
            .to_string();
        assert!(
            err.ends_with("config.yaml: server.max_body_bytes: must be at least 1"),
            "{err}"
        );
        // Server and engine problems are reported together.
        std::fs::write(
            dir.path().join("config.yaml"),
            "server:\n  rate_limit: {burst: 0}\nmodels:\n  mo: missing\n",
        )
        .unwrap();
        let err = Settings::resolve(Some(dir.path().to_owned()))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("config.yaml: 2 problems:")
                && err.contains("models.mo: no engine `missing`")
                && err.contains("server.rate_limit.burst: must be at least 1"),
            "{err}"
        );
    }
}
