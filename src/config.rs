//! Configuration: `config.yaml` as written ([`ConfigFile`]) and the resolved [`Settings`].
//! Resolved once, at the edge; nothing below reads the environment.

use crate::error::{Error, Result};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// `ARBITER_HOME/config.yaml`, every field optional.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    #[serde(default)]
    pub server: ServerConfig,
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

/// Everything an operation needs to know about where and how to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Settings {
    pub home: PathBuf,
    pub config: ConfigFile,
}

impl Settings {
    /// Resolve the home (flag or `ARBITER_HOME`, else `$XDG_DATA_HOME/arbiter`, else
    /// `~/.local/share/arbiter`) and read its `config.yaml` if there is one.
    pub fn resolve(home: Option<PathBuf>) -> Result<Self> {
        let home = match home {
            Some(home) => home,
            None => default_home()?,
        };
        let config = read_config(&home.join("config.yaml"))?;
        Ok(Self { home, config })
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
}
