//! Terminal output: data on stdout (JSON when piped or with `--json`, tables on a terminal),
//! diagnostics and progress on stderr.

pub(super) mod failures;
pub(super) mod progress;
pub(super) mod ranking;
pub(super) mod reading;
pub(super) mod table;

use crate::cli::GlobalArgs;
use crate::cli::output::table::{Table, short_ids};
pub use crate::cli::usage::UsageError;
use crate::error::Error;
use crate::wire::{Answer, ProblemCode};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::process::ExitCode;

/// How many characters an ID shows in a table (git's short hash), unless two IDs listed
/// together need more to differ.
pub const SHORT_ID: usize = 12;

/// Where output goes and in which form.
// Independent facts (flags, terminal probes), not a state in disguise.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Clone)]
pub struct Printer {
    json: bool,
    /// `--table`: tables even when stdout is not a terminal.
    table: bool,
    full_ids: bool,
    quiet: bool,
    stdout_tty: bool,
    stderr_tty: bool,
    /// What tables fit: `COLUMNS`, else the terminal's width; none on a pipe (full values).
    width: Option<usize>,
}

impl Printer {
    pub fn new(global: &GlobalArgs) -> Self {
        let stdout_tty = std::io::stdout().is_terminal();
        Self {
            json: global.json,
            table: global.table,
            full_ids: global.full_ids,
            quiet: global.quiet,
            stdout_tty,
            stderr_tty: std::io::stderr().is_terminal(),
            width: table_width(std::env::var("COLUMNS").ok().as_deref(), stdout_tty),
        }
    }

    /// JSON on stdout: asked for, or stdout is not a terminal (unless `--table`).
    pub fn wants_json(&self) -> bool {
        self.json || !(self.stdout_tty || self.table)
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

    /// A status line on stderr (suppressed by `--quiet`), its control characters escaped
    /// ([`escape_controls`]): it may name what a caller stored.
    pub fn status(&self, text: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr().lock(), "{}", escape_controls(text));
        }
    }

    /// A footer on stderr (suppressed by `--quiet`): `parts` joined with ` · `, a part that
    /// would pass the width starting a line of its own, so that no part (an ID above all)
    /// is split across lines by the terminal.
    pub(crate) fn footer(&self, parts: &[String]) {
        self.status(&footer_lines(parts, self.width));
    }

    /// A line of text on stdout, wrapped between words to the width (continuation lines
    /// indented two spaces), so that a terminal never splits a word.
    pub(crate) fn wrapped(&self, text: &str) -> std::io::Result<()> {
        self.line(&wrap_words(&escape_controls(text), self.width))
    }

    /// A table on stdout, fitted to the width; what it had to hide is said on stderr.
    pub(crate) fn table(&self, table: &Table) -> std::io::Result<()> {
        let rendered = self.render(table);
        self.line(&rendered)
    }

    /// A table fitted to the width, as text, with what it had to hide said on stderr.
    pub(crate) fn render(&self, table: &Table) -> String {
        let rendered = table.render(self.width);
        if let (false, Some(width)) = (rendered.hidden.is_empty(), self.width) {
            self.status(&format!(
                "hidden to fit {width} columns: {} (--json shows everything)",
                rendered.hidden.join(", ")
            ));
        }
        rendered.text
    }

    /// IDs as a table shows them: unique prefixes of [`SHORT_ID`] characters or more
    /// (every command takes them), whole with `--full-ids`.
    pub fn ids(&self, ids: &[String]) -> Vec<String> {
        if self.full_ids {
            ids.to_vec()
        } else {
            short_ids(ids, SHORT_ID)
        }
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
            let mut err = std::io::stderr().lock();
            if self.json {
                let problem = serde_json::to_string(&usage.problem()).unwrap_or_default();
                let _ = writeln!(err, "{problem}");
            } else {
                let _ = writeln!(err, "error: {usage}");
                // Where it is wrong, each place its line, unless the message says it.
                let message = usage.to_string();
                for located in usage.details() {
                    if !message.contains(&located.msg) {
                        let _ = writeln!(err, "  {located}");
                    }
                }
            }
            return ExitCode::from(crate::cli::usage::USAGE_EXIT);
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
                Some(remote @ Error::Remote(_))
                    if remote.code() == ProblemCode::ValidationError.as_str() =>
                {
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

/// `text` broken between words before `width` (none: one line); continuation lines are
/// indented two spaces. A word wider than the width stands alone on its line.
fn wrap_words(text: &str, width: Option<usize>) -> String {
    let Some(width) = width else {
        return text.to_owned();
    };
    let mut out = String::new();
    let mut line = 0;
    for word in text.split(' ') {
        let word_width = table::display_width(word);
        if line > 0 && line + 1 + word_width > width {
            out.push_str("\n  ");
            line = 2;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word_width;
    }
    out
}

/// `parts` joined with ` · `, a new line before a part that would pass `width`.
fn footer_lines(parts: &[String], width: Option<usize>) -> String {
    let mut out = String::new();
    let mut line = 0;
    for (i, part) in parts.iter().enumerate() {
        let part_width = table::display_width(part);
        if i > 0 {
            if width.is_some_and(|width| line + 3 + part_width > width) {
                out.push('\n');
                line = 0;
            } else {
                out.push_str(" · ");
                line += 3;
            }
        }
        out.push_str(part);
        line += part_width;
    }
    out
}

/// The width tables fit: `COLUMNS` when it is a number (so a script or test can choose),
/// else the terminal's; `None` on a pipe, where values are shown whole.
fn table_width(columns: Option<&str>, stdout_tty: bool) -> Option<usize> {
    match columns.and_then(|c| c.trim().parse::<usize>().ok()) {
        Some(width) if width > 0 => Some(width),
        _ if stdout_tty => console::Term::stdout()
            .size_checked()
            .map(|(_, cols)| usize::from(cols)),
        _ => None,
    }
}

/// A probability as a short fixed-width number.
pub fn prob(p: f64) -> String {
    format!("{p:.3}")
}

/// A score's answer as every table shows it: the answer, its most likely level
/// ([`Answer::most_likely`]), with that level's probability, then the expected level the
/// JSON's `score` holds: `level 4 (0.370) · mean 2.53`. `None` for a noul or a choice.
pub fn score_cell(answer: &Answer) -> Option<String> {
    let Answer::Score { score, .. } = answer else {
        return None;
    };
    let (level, p) = answer.most_likely()?;
    Some(format!("level {level} ({}) · mean {score:.2}", prob(p)))
}

/// `text` with its control characters shown, not obeyed: a terminal given ESC, BEL, a
/// carriage return or a C1 control from a stored ID or text (`\u{1b}[2J` clears the
/// screen, `\u{1b}]0;…\u{7}` sets the window's title) would act on it. Each becomes its
/// escape as Rust writes it (`\u{1b}`); line breaks and tabs stay.
pub(crate) fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let shown = |c: char| c == '\n' || c == '\t' || !c.is_control();
    if text.chars().all(shown) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if shown(c) {
            out.push(c);
        } else {
            out.push_str(&c.escape_unicode().to_string());
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_footer_breaks_between_its_parts_never_inside_one() {
        let parts = [
            "model acme/support @ main (4af2929625c1)".to_owned(),
            "462 input tokens".to_owned(),
            "recorded under ex_8a7bf04d953150120bd8645d2fa47365".to_owned(),
        ];
        let whole = footer_lines(&parts, None);
        assert_eq!(whole.lines().count(), 1, "{whole}");
        for width in [80, 100] {
            let fitted = footer_lines(&parts, Some(width));
            assert!(
                fitted.lines().all(|line| line.chars().count() <= width),
                "{fitted}"
            );
            assert!(fitted.lines().any(|line| line == parts[2]), "{fitted}");
        }
    }

    #[test]
    fn a_score_cell_is_its_most_likely_level_beside_its_mean() {
        let score = |ps: &[f64]| Answer::Score {
            score: ps.iter().enumerate().map(|(i, p)| i as f64 * p).sum(),
            legend: indexmap::IndexMap::new(),
            probabilities: ps
                .iter()
                .enumerate()
                .map(|(i, p)| (i.to_string(), *p))
                .collect(),
            confidence: 0.0,
            x_option_mass: None,
            x_abstain: None,
        };
        assert_eq!(
            score_cell(&score(&[0.15, 0.127, 0.155, 0.198, 0.37])).as_deref(),
            Some("level 4 (0.370) · mean 2.51")
        );
        // Ties: the lower level.
        assert_eq!(
            score_cell(&score(&[0.125, 0.4375, 0.4375])).as_deref(),
            Some("level 1 (0.438) · mean 1.31")
        );
        assert_eq!(
            score_cell(&score(&[1.0])).as_deref(),
            Some("level 0 (1.000) · mean 0.00")
        );
        let noul = Answer::Noul {
            noul: 0.5,
            x_option_mass: None,
            x_abstain: None,
        };
        assert_eq!(score_cell(&noul), None);
    }

    #[test]
    fn columns_sets_the_table_width_and_a_pipe_has_none() {
        assert_eq!(table_width(Some("80"), false), Some(80));
        assert_eq!(table_width(Some(" 120 "), true), Some(120));
        assert_eq!(table_width(Some("0"), false), None);
        assert_eq!(table_width(Some("wide"), false), None);
        assert_eq!(table_width(None, false), None);
    }
}
