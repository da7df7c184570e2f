//! `database:` resolved: the PostgreSQL database several replicas share, instead of the
//! home's `arbiter.db`. The URL may carry a password only when it comes from the
//! environment (`ARBITER_DATABASE_URL`); `config.yaml` is not the place for secrets.

use super::ApiKey;
use super::file::DatabaseConfig;
use super::{ConfigError, Result};
use crate::wire::validate::{FieldError, Loc, Segment};

/// The environment variable naming the database; it wins over `database.url`.
pub const URL_ENV: &str = "ARBITER_DATABASE_URL";

/// `database:`, resolved.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DatabaseSettings {
    /// A PostgreSQL URL (redacted in debug output: it may hold a password); None: the
    /// home's SQLite file.
    pub url: Option<ApiKey>,
}

/// `written` with the environment: `ARBITER_DATABASE_URL`, else `database.url`. A bad
/// `database.url` is pushed to `errors` (located in the file); a bad environment variable
/// is an error of its own.
pub(super) fn resolve(
    written: &DatabaseConfig,
    env: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<FieldError>,
) -> Result<DatabaseSettings> {
    if let Some(text) = env(URL_ENV).filter(|v| !v.trim().is_empty()) {
        let url = text.trim();
        check(url, true).map_err(|msg| ConfigError::Invalid(format!("{URL_ENV}: {msg}")))?;
        return Ok(DatabaseSettings {
            url: Some(ApiKey::new(url.to_owned())),
        });
    }
    let Some(text) = &written.url else {
        return Ok(DatabaseSettings::default());
    };
    match check(text.trim(), false) {
        Ok(()) => Ok(DatabaseSettings {
            url: Some(ApiKey::new(text.trim().to_owned())),
        }),
        Err(msg) => {
            let loc = Loc(vec![Segment::Key("database".into())]).key("url");
            errors.push(FieldError::new(loc, msg, "bad_url"));
            Ok(DatabaseSettings::default())
        }
    }
}

/// A `postgres://` (or `postgresql://`) URL; a password only where `secrets_allowed`.
/// Messages never echo the URL, which may hold one.
fn check(url: &str, secrets_allowed: bool) -> std::result::Result<(), String> {
    let parsed = url::Url::parse(url)
        .map_err(|e| format!("not a URL ({e}); write postgres://user@host:5432/database"))?;
    if !matches!(parsed.scheme(), "postgres" | "postgresql") {
        return Err(format!(
            "`{}://` is not a PostgreSQL URL; write postgres://user@host:5432/database",
            parsed.scheme()
        ));
    }
    if !secrets_allowed && parsed.password().is_some() {
        return Err(format!(
            "a password does not belong in config.yaml; set {URL_ENV} in the environment instead"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolve_with(
        file: Option<&str>,
        env: Option<&str>,
    ) -> (Result<DatabaseSettings>, Vec<FieldError>) {
        let written = DatabaseConfig {
            url: file.map(str::to_owned),
        };
        let mut errors = Vec::new();
        let env_value = env.map(str::to_owned);
        let got = resolve(
            &written,
            &|name| (name == URL_ENV).then(|| env_value.clone()).flatten(),
            &mut errors,
        );
        (got, errors)
    }

    #[test]
    fn the_environment_wins_and_may_carry_a_password() {
        let (got, errors) = resolve_with(
            Some("postgres://file@db/arbiter"),
            Some("postgres://env:secret@db/arbiter"),
        );
        assert!(errors.is_empty());
        let url = got.unwrap().url.unwrap();
        assert_eq!(url.expose(), "postgres://env:secret@db/arbiter");
        assert!(!format!("{url:?}").contains("secret"));
    }

    #[test]
    fn a_password_in_the_file_is_refused_without_echoing_it() {
        let (got, errors) = resolve_with(Some("postgres://u:hunter2@db/arbiter"), None);
        assert_eq!(got.unwrap(), DatabaseSettings::default());
        assert_eq!(errors.len(), 1);
        let text = format!("{errors:?}");
        assert!(
            text.contains(URL_ENV) && !text.contains("hunter2"),
            "{text}"
        );
    }

    #[test]
    fn only_postgres_urls_are_taken() {
        let (got, _) = resolve_with(None, Some("mysql://db/arbiter"));
        let message = got.unwrap_err().to_string();
        assert!(message.contains("not a PostgreSQL URL"), "{message}");
        let (got, errors) = resolve_with(None, None);
        assert_eq!(got.unwrap(), DatabaseSettings::default());
        assert!(errors.is_empty());
    }
}
