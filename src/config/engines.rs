//! The `engines:` and `models:` sections, validated: each remote engine's
//! [`EngineSettings`] (URL, limits with their defaults, the API key from the environment)
//! and the routes of base models to them. Every problem is reported at once, located by
//! field path; a bad value is refused, never clamped or replaced.

use super::file::{ConfigFile, EngineConfig, EngineKind};
use super::{ApiKey, http_url};
use crate::wire::decision::BASE_MODELS;
use crate::wire::validate::{FieldError, Loc, Segment};
use indexmap::IndexMap;
use std::time::Duration;

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
    /// When the upstream model was released (`YYYY-MM-DD`, a valid date); `None` when
    /// `config.yaml` does not say (`arbiter serve` warns).
    pub release_date: Option<String>,
}

/// Defaults of the chat-logprobs engine.
pub const DEFAULT_TOP_LOGPROBS: u32 = 20;
pub const DEFAULT_REASONING_MAX_TOKENS: u32 = 2048;

/// The engines and the routes of base models to them, valid ones only: every problem of
/// the `engines:` and `models:` sections is pushed to `errors`, located by field path.
pub(super) fn resolve(
    config: &ConfigFile,
    env: &dyn Fn(&str) -> Option<String>,
    errors: &mut Vec<FieldError>,
) -> (IndexMap<String, EngineSettings>, IndexMap<String, String>) {
    let mut engines = IndexMap::new();
    let mut routes = IndexMap::new();
    let root = Loc(vec![Segment::Key("engines".into())]);
    for (name, written) in &config.engines {
        let before = errors.len();
        let resolved = resolve_engine(name, written, &root.key(name), env, errors);
        if errors.len() == before {
            engines.insert(name.clone(), resolved);
        }
    }
    let models = Loc(vec![Segment::Key("models".into())]);
    for (model, engine) in &config.models {
        let before = errors.len();
        if !BASE_MODELS.contains(&model.as_str()) {
            errors.push(FieldError::new(
                models.key(model),
                format!(
                    "`{model}` is not a base model; only base models are routed ({})",
                    BASE_MODELS.join(", ")
                ),
                "unknown_base",
            ));
        }
        if !config.engines.contains_key(engine) {
            errors.push(FieldError::new(
                models.key(model),
                format!("no engine `{engine}` is defined under `engines`"),
                "unknown_engine",
            ));
        }
        if errors.len() == before {
            routes.insert(model.clone(), engine.clone());
        }
    }
    (engines, routes)
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
    let url = http_url(
        &written.url,
        "put the key in an environment variable and name it in `api_key_env`",
    )
    .unwrap_or_else(|msg| {
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
    check_key_names(written, &mut problems);
    let limits = resolve_limits(written, &mut problems);
    let (top_logprobs, reasoning_max_tokens) = resolve_chat_options(written, &mut problems);
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
        release_date: resolve_release_date(written, &mut problems),
    }
}

/// The key is never in the file, only the name of the environment variable holding it.
fn check_key_names(written: &EngineConfig, problems: &mut Problems<'_>) {
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
}

/// The options only a chat-logprobs engine takes: given to another kind, they are refused;
/// out of range, too.
fn resolve_chat_options(written: &EngineConfig, problems: &mut Problems<'_>) -> (u32, u32) {
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
    (top_logprobs, reasoning_max_tokens)
}

/// `release_date` as written, when it is a calendar date written `YYYY-MM-DD` (a real day:
/// not `2026-02-30`).
fn resolve_release_date(written: &EngineConfig, problems: &mut Problems<'_>) -> Option<String> {
    let date = written.release_date.as_ref()?;
    if date.len() == 10 && chrono::NaiveDate::parse_from_str(date, "%Y-%m-%d").is_ok() {
        return Some(date.clone());
    }
    problems.push(
        "release_date",
        format!("`{date}` is not a date written YYYY-MM-DD"),
        "bad_date",
    );
    None
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
        defaults.max_backoff,
        true,
    );
    if max_backoff < backoff {
        // Located where the mistake is: at max_backoff when both are written, else at the
        // one that is (the other being its default).
        let (field, msg) = match (written.backoff, written.max_backoff) {
            (Some(_), None) => (
                "backoff",
                format!(
                    "backoff may not be more than max_backoff (default {} s)",
                    defaults.max_backoff.as_secs_f64()
                ),
            ),
            (None, Some(_)) => (
                "max_backoff",
                format!(
                    "max_backoff may not be less than backoff (default {} s)",
                    defaults.backoff.as_secs_f64()
                ),
            ),
            _ => (
                "max_backoff",
                "max_backoff may not be less than backoff".to_owned(),
            ),
        };
        problems.push(field, msg, "out_of_range");
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Result;
    use crate::config::Settings;

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

    #[test]
    fn a_release_date_is_a_real_day_written_yyyy_mm_dd() {
        for date in [
            "2025-6-1",
            "2025-02-30",
            "June 2025",
            "2025-06-01T00:00:00Z",
        ] {
            let dir = write_config(&format!(
                "engines:\n  x: {{kind: systemone, url: 'http://h', model: m, release_date: '{date}'}}\n"
            ));
            let err = resolve(&dir, &[]).unwrap_err().to_string();
            assert!(
                err.ends_with(&format!(
                    "engines.x.release_date: `{date}` is not a date written YYYY-MM-DD"
                )),
                "{date}: {err}"
            );
        }
        let dir = write_config(
            "engines:\n  x: {kind: systemone, url: 'http://h', model: m, release_date: '2025-06-01'}\n",
        );
        let settings = resolve(&dir, &[]).unwrap();
        assert_eq!(
            settings.engines["x"].release_date.as_deref(),
            Some("2025-06-01")
        );
        let dir = write_config("engines:\n  x: {kind: systemone, url: 'http://h', model: m}\n");
        assert_eq!(resolve(&dir, &[]).unwrap().engines["x"].release_date, None);
    }

    #[test]
    fn a_backoff_above_max_backoff_is_refused_where_it_is_written_never_raised() {
        for (limits, expected) in [
            (
                "backoff: 60",
                "engines.x.backoff: backoff may not be more than max_backoff (default 30 s)",
            ),
            (
                "max_backoff: 0.1",
                "engines.x.max_backoff: max_backoff may not be less than backoff (default 0.5 s)",
            ),
            (
                "backoff: 2, max_backoff: 1",
                "engines.x.max_backoff: max_backoff may not be less than backoff",
            ),
        ] {
            let dir = write_config(&format!(
                "engines:\n  x: {{kind: systemone, url: 'http://h', model: m, {limits}}}\n"
            ));
            let err = resolve(&dir, &[]).unwrap_err().to_string();
            assert!(err.ends_with(expected), "{limits}: {err}");
        }
        // Equal is fine, and a larger max_backoff lets a larger backoff through.
        let dir = write_config(
            "engines:\n  x: {kind: systemone, url: 'http://h', model: m, backoff: 60, max_backoff: 60}\n",
        );
        let settings = resolve(&dir, &[]).unwrap();
        assert_eq!(
            settings.engines["x"].limits.max_backoff,
            Duration::from_mins(1)
        );
    }
}
