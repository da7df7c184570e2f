//! Usage errors, one contract for all of them: a command line clap refuses (an unknown flag,
//! a missing argument, a malformed or out-of-range value) and a command line that cannot
//! run as given ([`UsageError`]) both exit 2; with `--json` each is a problem document on
//! stderr (`code: usage_error`, the argument at `loc`), as every other error is.

use super::Cli;
use crate::wire::problem::{Problem, status_title};
use crate::wire::validate::{FieldError, Loc, Segment};
use clap::Parser;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

/// The exit code of every usage error, as clap's own.
pub(super) const USAGE_EXIT: u8 = 2;

/// Parse the process's command line; on a usage error (or `--help`, `--version`), print it
/// and return the exit code.
pub fn parse() -> Result<Cli, ExitCode> {
    parse_from(&std::env::args_os().collect::<Vec<_>>())
}

fn parse_from(args: &[OsString]) -> Result<Cli, ExitCode> {
    let error = match Cli::try_parse_from(args) {
        Ok(cli) => return Ok(cli),
        Err(error) => error,
    };
    // `--help` and `--version` print on stdout and exit 0, whatever else is given.
    if !error.use_stderr() || !json_requested(args) {
        let _ = error.print();
        return Err(ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(1)));
    }
    let problem = problem(&error);
    let _ = writeln!(
        std::io::stderr().lock(),
        "{}",
        serde_json::to_string(&problem).unwrap_or_default()
    );
    Err(ExitCode::from(USAGE_EXIT))
}

/// `--json` anywhere before `--`: the parse may fail before clap has read it.
fn json_requested(args: &[OsString]) -> bool {
    args.iter()
        .skip(1)
        .take_while(|arg| *arg != "--")
        .any(|arg| arg == "--json")
}

/// A clap error as a problem document: clap's message as `detail`, one located detail per
/// argument it names.
fn problem(error: &clap::Error) -> Problem {
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        return missing_subcommand(error);
    }
    let detail = message(error);
    let kind = snake_case(&format!("{:?}", error.kind()));
    let named: Vec<String> = match error.get(ContextKind::InvalidArg) {
        Some(ContextValue::String(arg)) => vec![arg.clone()],
        Some(ContextValue::Strings(args)) => args.clone(),
        _ => match error.get(ContextKind::InvalidSubcommand) {
            Some(_) => vec!["<COMMAND>".to_owned()],
            None => Vec::new(),
        },
    };
    let details = named
        .iter()
        .map(|arg| {
            let msg = if error.kind() == ErrorKind::MissingRequiredArgument {
                "required".to_owned()
            } else {
                detail.clone()
            };
            FieldError::new(Loc(vec![Segment::Key(arg_name(arg))]), msg, &kind)
        })
        .collect();
    usage_problem(detail, details)
}

/// The problem document of a usage error.
pub(super) fn usage_problem(detail: String, details: Vec<FieldError>) -> Problem {
    Problem {
        kind: "/problems/usage-error".to_owned(),
        title: status_title(400).to_owned(),
        status: 400,
        detail,
        code: "usage_error".to_owned(),
        request_id: uuid::Uuid::new_v4().to_string(),
        details,
    }
}

/// A command of subcommands given none (`arbiter examples`): clap prints the help, which
/// the problem replaces with its usage line.
fn missing_subcommand(error: &clap::Error) -> Problem {
    let help = error.render().to_string();
    let usage = help
        .lines()
        .find_map(|line| line.strip_prefix("Usage: "))
        .unwrap_or("arbiter <COMMAND>");
    let detail = format!("a subcommand is required: {usage}");
    let details = vec![FieldError::new(
        Loc(vec![Segment::Key("command".to_owned())]),
        detail.clone(),
        "missing_subcommand",
    )];
    usage_problem(detail, details)
}

/// clap's message without its usage line and help hint, on one line; tips kept.
fn message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    text.split("\n\n")
        .filter(|block| {
            let block = block.trim_start();
            !block.starts_with("Usage:") && !block.starts_with("For more information")
        })
        .flat_map(str::split_whitespace)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A flag as typed (`--min-accuracy <FRACTION>` → `--min-accuracy`); a positional by its
/// name (`<MODEL>` → `model`).
fn arg_name(rendered: &str) -> String {
    let first = rendered.split([' ', '=']).next().unwrap_or(rendered);
    if first.starts_with('-') {
        return first.to_owned();
    }
    rendered
        .trim_end_matches("...")
        .trim_start_matches('<')
        .trim_end_matches('>')
        .to_lowercase()
}

/// `InvalidValue` → `invalid_value`.
fn snake_case(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('_');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// A command line that cannot run as given (exit code 2, as clap's own usage errors), e.g. a
/// local-only command with `--server`.
#[derive(Debug)]
pub struct UsageError {
    message: String,
    /// Where in what was named it is wrong (a file's lines), for the problem document.
    details: Vec<FieldError>,
}

impl UsageError {
    pub fn new(message: impl Into<String>) -> Self {
        Self::located(message, Vec::new())
    }

    pub fn located(message: impl Into<String>, details: Vec<FieldError>) -> Self {
        Self {
            message: message.into(),
            details,
        }
    }

    /// Where it is wrong, if it says.
    pub fn details(&self) -> &[FieldError] {
        &self.details
    }

    /// Its problem document (`usage_error`).
    pub(super) fn problem(&self) -> Problem {
        usage_problem(self.message.clone(), self.details.clone())
    }
}

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(args: &[&str]) -> Problem {
        let args: Vec<OsString> = std::iter::once("arbiter")
            .chain(args.iter().copied())
            .map(OsString::from)
            .collect();
        match Cli::try_parse_from(args) {
            Ok(cli) => panic!("parsed: {cli:?}"),
            Err(error) => problem(&error),
        }
    }

    fn locs(problem: &Problem) -> serde_json::Value {
        json!(problem.details.iter().map(|d| &d.loc).collect::<Vec<_>>())
    }

    #[test]
    fn a_bad_value_is_located_at_its_flag() {
        let problem = refused(&["eval", "a/b", "--min-accuracy", "abc"]);
        assert_eq!(problem.code, "usage_error");
        assert_eq!(locs(&problem), json!([["--min-accuracy"]]));
        assert_eq!(problem.details[0].kind, "value_validation");
        assert!(
            problem
                .detail
                .starts_with("invalid value 'abc' for '--min-accuracy"),
            "{}",
            problem.detail
        );
        assert!(!problem.detail.contains("Usage:"), "{}", problem.detail);
    }

    #[test]
    fn missing_arguments_are_each_located() {
        let problem = refused(&["decide", "--state", "s.json"]);
        assert_eq!(locs(&problem), json!([["--model"]]));
        assert_eq!(problem.details[0].msg, "required");
        let problem = refused(&["eval"]);
        assert_eq!(locs(&problem), json!([["model"]]));
        assert_eq!(problem.details[0].kind, "missing_required_argument");
    }

    #[test]
    fn unknown_flags_and_commands_are_located() {
        assert_eq!(locs(&refused(&["decide", "--bogus"])), json!([["--bogus"]]));
        assert_eq!(locs(&refused(&["decidee"])), json!([["command"]]));
        let problem = refused(&["examples"]);
        assert_eq!(locs(&problem), json!([["command"]]));
        assert_eq!(
            problem.detail,
            "a subcommand is required: arbiter examples [OPTIONS] <COMMAND>"
        );
    }

    #[test]
    fn json_is_found_anywhere_before_the_end_of_options() {
        let args = |args: &[&str]| args.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(json_requested(&args(&["arbiter", "eval", "x", "--json"])));
        assert!(!json_requested(&args(&["arbiter", "eval", "--", "--json"])));
        assert!(!json_requested(&args(&["arbiter", "eval", "--jsonx"])));
    }
}
