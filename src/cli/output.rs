//! Terminal output: data on stdout (JSON when piped or with `--json`, tables on a terminal),
//! diagnostics and progress on stderr.

pub use super::usage::UsageError;
use crate::error::Error;
use comfy_table::{ContentArrangement, Table, presets};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// Where output goes and in which form.
// Four independent facts (two flags, two terminal probes), not a state in disguise.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone)]
pub struct Printer {
    json: bool,
    quiet: bool,
    stdout_tty: bool,
    stderr_tty: bool,
}

impl Printer {
    pub fn new(json: bool, quiet: bool) -> Self {
        Self {
            json,
            quiet,
            stdout_tty: std::io::stdout().is_terminal(),
            stderr_tty: std::io::stderr().is_terminal(),
        }
    }

    /// JSON on stdout: asked for, or stdout is not a terminal.
    pub fn wants_json(&self) -> bool {
        self.json || !self.stdout_tty
    }

    /// `--json` was given: for the few outputs that are a bare value when piped (a job ID).
    pub fn json_flag(&self) -> bool {
        self.json
    }

    /// Progress bars and prompts only on a terminal, and not when quiet.
    pub fn interactive(&self) -> bool {
        self.stderr_tty && !self.quiet
    }

    /// Write a value as JSON: pretty on a terminal, one line otherwise.
    pub fn json<T: Serialize + ?Sized>(&self, value: &T) -> std::io::Result<()> {
        let text = if self.stdout_tty {
            serde_json::to_string_pretty(value)
        } else {
            serde_json::to_string(value)
        }
        .map_err(std::io::Error::other)?;
        self.line(&text)
    }

    /// A line of data on stdout.
    pub fn line(&self, text: &str) -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        writeln!(out, "{text}")?;
        out.flush()
    }

    /// A status line on stderr (suppressed by `--quiet`).
    pub fn status(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr().lock(), "{text}");
        }
    }

    /// A table in the house style.
    pub fn new_table(&self, header: &[&str]) -> Table {
        let mut table = Table::new();
        table
            .load_style(presets::UTF8_HORIZONTAL_ONLY)
            .set_content_arrangement(ContentArrangement::Dynamic)
            .set_header(header.iter().copied());
        table
    }

    /// Report an error on stderr and turn it into the exit code. A closed stdout (`| head`)
    /// is not an error.
    pub fn error(&self, error: &anyhow::Error) -> ExitCode {
        if let Some(io) = error.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::BrokenPipe
        {
            return ExitCode::SUCCESS;
        }
        if let Some(usage) = error.downcast_ref::<UsageError>() {
            let text = if self.json {
                serde_json::to_string(&super::usage::usage_problem(usage.to_string(), vec![]))
                    .unwrap_or_default()
            } else {
                format!("error: {usage}")
            };
            let _ = writeln!(std::io::stderr().lock(), "{text}");
            return ExitCode::from(super::usage::USAGE_EXIT);
        }
        let typed = error.chain().find_map(|e| e.downcast_ref::<Error>());
        let mut err = std::io::stderr().lock();
        if self.json {
            let problem = match typed {
                Some(typed) => {
                    let mut problem =
                        typed.to_problem("/problems", &uuid::Uuid::new_v4().to_string());
                    problem.detail = format!("{error:#}");
                    problem
                }
                None => Error::BadRequest(format!("{error:#}"))
                    .to_problem("/problems", &uuid::Uuid::new_v4().to_string()),
            };
            let _ = writeln!(
                err,
                "{}",
                serde_json::to_string(&problem).unwrap_or_default()
            );
        } else {
            let label = if self.stderr_tty && !no_color() {
                "\x1b[1;31merror\x1b[0m"
            } else {
                "error"
            };
            let _ = writeln!(err, "{label}: {error:#}");
            let details = match typed {
                Some(Error::Validation(details) | Error::ProviderResponse { details, .. }) => {
                    details.as_slice()
                }
                Some(remote @ Error::Remote(_)) if remote.code() == "validation_error" => {
                    remote.details()
                }
                _ => &[],
            };
            if details.len() > 1 {
                for detail in details {
                    let _ = writeln!(err, "  {detail}");
                }
            }
            // A server's error names its request, so the user can quote it.
            if let Some(request_id) = typed.and_then(Error::request_id) {
                let _ = writeln!(err, "  request ID: {request_id}");
            }
        }
        ExitCode::from(typed.map_or(1, Error::exit_code))
    }
}

/// `NO_COLOR` set and not empty (no-color.org), as clap reads it for help and usage errors.
fn no_color() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// A probability as a short fixed-width number.
pub fn prob(p: f64) -> String {
    format!("{p:.3}")
}

/// A file the user asked to be written (`--output`), with the mode their umask gives.
pub(crate) fn create_file(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    use anyhow::Context as _;
    let file =
        std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
    super::private::publish(path)?;
    Ok(file)
}
