//! Log lines on stderr: which (`ARBITER_LOG`, a `tracing` filter) and how
//! (`ARBITER_LOG_FORMAT`: `text`, the default, or `json`, one object per line for a log
//! collector).
//!
//! Every line logged while a request is handled carries its ID: the server handles each
//! request in a span named `request` with the field `request_id` (`server::request`),
//! which the text format prints as a `request{request_id=…}:` prefix and the JSON format
//! among the span's fields (`span`, and `spans` from the outermost). Its field `trace_id`
//! is recorded when traces are exported ([`super::traces`]): the ID of the request's
//! trace, so a collector joins the lines to it.

use super::traces::Traces;
use tracing_subscriber::filter::LevelFilter;
use tracing_subscriber::layer::SubscriberExt as _;
use tracing_subscriber::util::SubscriberInitExt as _;
use tracing_subscriber::{EnvFilter, Layer as _};

/// The variable that chooses the format.
pub const FORMAT_VAR: &str = "ARBITER_LOG_FORMAT";
/// The variable that chooses which lines.
pub const FILTER_VAR: &str = "ARBITER_LOG";

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// For people: one line per event, the request's span as a prefix; colored on a
    /// terminal.
    Text,
    /// For machines: one JSON object per line (`timestamp`, `level`, `fields`, `span`,
    /// `spans`), never colored.
    Json,
}

impl Format {
    /// The format `value` names (`text` or `json`, any case); unset or blank is `text`.
    pub fn parse(value: Option<&str>) -> Result<Self, String> {
        match value.map(str::trim) {
            None | Some("") => Ok(Self::Text),
            Some(v) if v.eq_ignore_ascii_case("text") => Ok(Self::Text),
            Some(v) if v.eq_ignore_ascii_case("json") => Ok(Self::Json),
            Some(other) => Err(format!(
                "{FORMAT_VAR}: `{other}` is not a log format; use `text` or `json`"
            )),
        }
    }

    /// The format the environment asks for.
    pub fn from_env() -> Result<Self, String> {
        match std::env::var(FORMAT_VAR) {
            Ok(value) => Self::parse(Some(&value)),
            Err(std::env::VarError::NotPresent) => Ok(Self::Text),
            Err(std::env::VarError::NotUnicode(_)) => Err(format!("{FORMAT_VAR}: not UTF-8")),
        }
    }
}

/// The filter the environment asks for, else `default` (`info`, `warn`). A filter that
/// does not parse is refused, naming the variable, rather than quietly replaced.
pub fn filter_from_env(default: &str) -> Result<EnvFilter, String> {
    match std::env::var(FILTER_VAR) {
        Ok(text) if !text.trim().is_empty() => EnvFilter::try_new(&text)
            .map_err(|e| format!("{FILTER_VAR}: `{text}` is not a log filter: {e}")),
        Err(std::env::VarError::NotUnicode(_)) => Err(format!("{FILTER_VAR}: not UTF-8")),
        _ => Ok(EnvFilter::new(default)),
    }
}

/// Log to stderr from now on, lines `filter` lets through, written as `format` says; and,
/// when the environment asks for traces ([`super::traces`]), export the program's spans,
/// whatever `filter` says. Once per process: a later call (a test that runs twice)
/// changes nothing. The [`Traces`] returned must be shut down before the process exits.
pub fn init(filter: EnvFilter, format: Format) -> Result<Option<Traces>, String> {
    let Some((spans, traces)) = super::traces::layer()? else {
        // Without traces, exactly the subscriber of before: no layer, no filter per layer.
        let builder = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(std::io::stderr)
            .with_target(false);
        let _ = match format {
            Format::Text => builder
                .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
                .try_init(),
            Format::Json => builder.json().with_ansi(false).try_init(),
        };
        return Ok(None);
    };
    // What the lines can show at most; the exported spans are this crate's, never a
    // dependency's `log` records (see below).
    let most = filter.max_level_hint();
    let lines = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_target(false);
    let lines = match format {
        Format::Text => lines
            .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
            .boxed(),
        Format::Json => lines.json().with_ansi(false).boxed(),
    };
    let installed = tracing_subscriber::registry()
        .with(lines.with_filter(filter))
        .with(spans)
        .try_init();
    if installed.is_err() {
        // Already initialized (a second call): the first's layer, if any, exports.
        traces.discard();
        return Ok(None);
    }
    // The span layer takes this crate's spans at `trace`, which raises the level every
    // `log` record of a dependency is bridged at to `trace` as well (mio logs each poll):
    // each would be built and filtered out one by one, at a cost measured in per cent of
    // a decision. They are cut where they are written instead, at what the lines show.
    log::set_max_level(log_level(most));
    Ok(Some(traces.installed()))
}

/// The `log` crate's level for `tracing`'s `most` (no hint: everything).
fn log_level(most: Option<LevelFilter>) -> log::LevelFilter {
    match most {
        Some(LevelFilter::OFF) => log::LevelFilter::Off,
        Some(LevelFilter::ERROR) => log::LevelFilter::Error,
        Some(LevelFilter::WARN) => log::LevelFilter::Warn,
        Some(LevelFilter::INFO) => log::LevelFilter::Info,
        Some(LevelFilter::DEBUG) => log::LevelFilter::Debug,
        _ => log::LevelFilter::Trace,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_the_default_and_an_unknown_format_is_refused_by_name() {
        assert_eq!(Format::parse(None), Ok(Format::Text));
        assert_eq!(Format::parse(Some(" ")), Ok(Format::Text));
        assert_eq!(Format::parse(Some("JSON")), Ok(Format::Json));
        assert_eq!(Format::parse(Some("text")), Ok(Format::Text));
        let refused = Format::parse(Some("yaml")).unwrap_err();
        assert!(
            refused.contains("ARBITER_LOG_FORMAT") && refused.contains("`yaml`"),
            "{refused}"
        );
    }

    #[test]
    fn dependencies_log_records_stop_at_what_the_lines_show() {
        assert_eq!(
            log_level(EnvFilter::new("warn").max_level_hint()),
            log::LevelFilter::Warn
        );
        assert_eq!(
            log_level(EnvFilter::new("info,arbiter=debug").max_level_hint()),
            log::LevelFilter::Debug
        );
        assert_eq!(
            log_level(EnvFilter::new("off").max_level_hint()),
            log::LevelFilter::Off
        );
        assert_eq!(log_level(None), log::LevelFilter::Trace);
    }
}
