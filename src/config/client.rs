//! Client mode's settings: where the shared `arbiter serve` is (`--server` or
//! `ARBITER_SERVER`), the token, the CI run and the upload chunk size, read from the
//! environment once, at the edge. A bad value is refused, naming the variable.

use super::{ApiKey, http_url};
use super::{ConfigError, Result};

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
        let url = http_url(server, "set ARBITER_TOKEN")
            .map_err(|e| ConfigError::Invalid(format!("--server: {e}")))?;
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
                    ConfigError::Invalid(format!(
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
