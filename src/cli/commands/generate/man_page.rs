//! Man pages: one per command at every depth (`arbiter-models-create.1`), so every page a
//! page names exists. Each page is `clap_mangen`'s sections (name, synopsis, description,
//! options, subcommands) plus what a reader of a man page expects and clap does not know:
//! EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES (the command's `--help` examples) and SEE ALSO.

use clap_mangen::Man;
use clap_mangen::roff::{Roff, bold, italic, roman};
use std::path::{Path, PathBuf};

/// The exit codes, as `error.rs`, clap and the job commands use them.
const EXIT_STATUS: &[(&str, &str)] = &[
    ("0", "Success."),
    (
        "1",
        "An error: invalid input, a failed operation, a job that did not complete (or had more \
         failed items than --max-failed-items allows).",
    ),
    (
        "2",
        "A usage error: an unknown flag, a missing argument, a malformed or out-of-range value, \
         or a local-only command run against a server. With --json, a problem document with \
         code usage_error on stderr.",
    ),
    ("3", "An evaluation gate failed (arbiter eval)."),
    ("4", "Not found: a model, revision, example or job."),
    (
        "130",
        "Interrupted by Ctrl-C: a job run here was cancelled, what finished is kept.",
    ),
];

const ENVIRONMENT: &[(&str, &str)] = &[
    (
        "ARBITER_HOME",
        "Where arbiter keeps its data, as --home (which wins). Default: $XDG_DATA_HOME/arbiter, \
         else ~/.local/share/arbiter.",
    ),
    (
        "ARBITER_SERVER",
        "Run commands against a shared arbiter serve at this URL, as --server (which wins).",
    ),
    (
        "ARBITER_TOKEN",
        "The API token sent to ARBITER_SERVER (never read from a flag, never printed).",
    ),
    (
        "ARBITER_LOG",
        "A log filter for diagnostics on stderr, e.g. debug or arbiter=trace. Default: warn, \
         info for serve.",
    ),
    (
        "ARBITER_LOG_FORMAT",
        "How diagnostics are written on stderr: text (the default) or json (one JSON object \
         per line; a server's lines during a request carry its request_id).",
    ),
    (
        "OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
        "Export traces over OTLP/HTTP (protobuf) to this collector: every request of serve, \
         and the spans of batch, align and eval; the other OTEL_* variables apply \
         (OTEL_SERVICE_NAME, default arbiter; OTEL_SDK_DISABLED=true turns it off). Unset: \
         no traces.",
    ),
    (
        "ARBITER_RUN_ID, GITHUB_RUN_ID, CI_PIPELINE_ID",
        "The CI run a client-mode job belongs to (the first one set).",
    ),
    (
        "ARBITER_CHUNK_BYTES",
        "In client mode, the largest chunk of an upload (default 1048576).",
    ),
    (
        "ARBITER_DATABASE_URL",
        "A PostgreSQL URL (postgres://user[:password]@host:5432/database) several replicas \
         share instead of the home's arbiter.db: examples, decisions, jobs, tokens, \
         idempotency records; as database.url in config.yaml (which it overrides, and which \
         may not hold a password).",
    ),
    (
        "ARBITER_REPOS_REMOTE",
        "A git remote (file://, ssh:// or https://) the model repositories are shared through \
         by several replicas, each model at <remote>/<owner>/<model>.git; as repos.remote in \
         config.yaml (which it overrides).",
    ),
    (
        "ARBITER_REPOS_USERNAME, ARBITER_REPOS_PASSWORD, ARBITER_REPOS_SSH_KEY",
        "The credentials for ARBITER_REPOS_REMOTE: https user and password (or token); an ssh \
         private key file (else the ssh-agent).",
    ),
    (
        "NO_COLOR",
        "When set and not empty, no colour in help, usage errors and error labels.",
    ),
    (
        "The variables config.yaml names in api_key_env",
        "The API keys of remote engines, read once at start.",
    ),
];

const FILES: &[(&str, &str)] = &[
    (
        "$ARBITER_HOME/config.yaml",
        "Engines, routes and server settings; every field optional.",
    ),
    (
        "$ARBITER_HOME/arbiter.db",
        "SQLite: examples, annotations, decisions, jobs and tokens.",
    ),
    (
        "$ARBITER_HOME/repos/<owner>/<model>.git",
        "A repository model: one git repository, a commit per checkpoint.",
    ),
    (
        "$ARBITER_HOME/jobs/",
        "One directory per job: its staged input, its results, its lock.",
    ),
];

/// Write a page for `command` and each of its visible subcommands, at every depth; return
/// the paths written.
pub(crate) fn write_all(command: clap::Command, dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    // No `help` subcommand on a page: it would name pages that say nothing new.
    let mut command = without_help_subcommands(command);
    // Propagates the global options to every subcommand and names each `arbiter-a-b`.
    command.build();
    let mut written = Vec::new();
    write_tree(&command, None, dir, &mut written)?;
    Ok(written)
}

fn without_help_subcommands(command: clap::Command) -> clap::Command {
    command
        .disable_help_subcommand(true)
        .mut_subcommands(without_help_subcommands)
}

fn write_tree(
    command: &clap::Command,
    parent: Option<&str>,
    dir: &Path,
    written: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    let name = page_name(command);
    let path = dir.join(format!("{name}.1"));
    let mut page = Vec::new();
    render(command, parent, &mut page)?;
    crate::cli::file_modes::write_output_file(&path, &page)?;
    written.push(path);
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        write_tree(sub, Some(&name), dir, written)?;
    }
    Ok(())
}

fn page_name(command: &clap::Command) -> String {
    command
        .get_display_name()
        .unwrap_or_else(|| command.get_name())
        .to_owned()
}

fn render(
    command: &clap::Command,
    parent: Option<&str>,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    type Section = fn(&Man, &mut dyn std::io::Write) -> std::io::Result<()>;
    let version = command.get_version().unwrap_or(env!("CARGO_PKG_VERSION"));
    let man = Man::new(command.clone()).source(format!("arbiter {version}"));
    let mut page = Vec::new();
    for section in [Man::render_title, Man::render_name_section] {
        section(&man, &mut page)?;
    }
    let mut head = Roff::new();
    synopsis(&mut head, command);
    head.to_writer(&mut page)?;
    let mut sections: Vec<Section> = vec![Man::render_description_section];
    if command.get_arguments().any(|arg| !arg.is_hide_set()) {
        sections.push(Man::render_options_section);
    }
    if command.get_subcommands().any(|sub| !sub.is_hide_set()) {
        sections.push(Man::render_subcommands_section);
    }
    for section in sections {
        section(&man, &mut page)?;
    }
    let mut roff = Roff::new();
    definitions(&mut roff, "EXIT STATUS", EXIT_STATUS);
    definitions(&mut roff, "ENVIRONMENT", ENVIRONMENT);
    definitions(&mut roff, "FILES", FILES);
    examples(&mut roff, command);
    see_also(&mut roff, parent);
    roff.to_writer(&mut page)?;
    out.write_all(once_preamble(&String::from_utf8_lossy(&page)).as_bytes())
}

/// SYNOPSIS as `clap_mangen` writes it, but with each option's value placeholder
/// (`[-i|--input FILE]`), so that it says which options take a value and what value.
fn synopsis(roff: &mut Roff, command: &clap::Command) {
    let name = command.get_bin_name().unwrap_or_else(|| command.get_name());
    let mut line = vec![bold(name), roman(" ")];
    let options: Vec<&clap::Arg> = command
        .get_arguments()
        .filter(|arg| !arg.is_hide_set() && !arg.is_positional())
        .collect();
    let (required, optional): (Vec<&clap::Arg>, Vec<&clap::Arg>) =
        options.into_iter().partition(|arg| arg.is_required_set());
    for arg in optional.into_iter().chain(required) {
        let (open, close) = if arg.is_required_set() {
            ("", "")
        } else {
            ("[", "]")
        };
        line.push(roman(open));
        if let Some(short) = arg.get_short() {
            line.push(bold(format!("-{short}")));
            if arg.get_long().is_some() {
                line.push(roman("|"));
            }
        }
        if let Some(long) = arg.get_long() {
            line.push(bold(format!("--{long}")));
        }
        if arg.get_action().takes_values() {
            line.push(roman(" "));
            line.push(italic(placeholders(arg)));
        }
        line.push(roman(close));
        line.push(roman(" "));
    }
    for arg in command.get_positionals().filter(|arg| !arg.is_hide_set()) {
        let (open, close) = if arg.is_required_set() {
            ("<", ">")
        } else {
            ("[", "]")
        };
        line.extend([roman(open), italic(placeholders(arg)), roman(close)]);
        if arg.get_num_args().is_some_and(|n| n.max_values() > 1) {
            line.push(roman("..."));
        }
        line.push(roman(" "));
    }
    if command.has_subcommands() {
        let name = command.get_subcommand_value_name().unwrap_or("COMMAND");
        let (open, close) = if command.is_subcommand_required_set() {
            ("<", ">")
        } else {
            ("[", "]")
        };
        line.extend([roman(open), italic(name), roman(close)]);
    }
    roff.control("SH", ["SYNOPSIS"]).text(line);
}

/// An argument's value names (`FILE`), else its ID in capitals.
fn placeholders(arg: &clap::Arg) -> String {
    arg.get_value_names().map_or_else(
        || arg.get_id().as_str().to_uppercase(),
        |names| {
            names
                .iter()
                .map(clap::builder::Str::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        },
    )
}

/// Each piece rendered starts with roff's apostrophe preamble: keep only the first.
fn once_preamble(page: &str) -> String {
    const PREAMBLE: &str = ".ie \\n(.g .ds Aq \\(aq\n.el .ds Aq '\n";
    let body = page.replace(PREAMBLE, "");
    format!("{PREAMBLE}{body}")
}

fn definitions(roff: &mut Roff, heading: &str, items: &[(&str, &str)]) {
    roff.control("SH", [heading]);
    for (term, text) in items {
        roff.control("TP", [])
            .text([bold(*term)])
            .text([roman(*text)]);
    }
}

/// The examples of the command's `--help` (its `after_help`, "Examples:" then one command
/// per line), preformatted.
fn examples(roff: &mut Roff, command: &clap::Command) {
    let Some(help) = command.get_after_help() else {
        return;
    };
    let help = help.to_string();
    let Some(lines) = help.strip_prefix("Examples:") else {
        return;
    };
    roff.control("SH", ["EXAMPLES"]).control("nf", []);
    for line in lines.lines().filter(|line| !line.trim().is_empty()) {
        roff.text([roman(line.trim())]);
    }
    roff.control("fi", []);
}

/// The parent's page (a nested command's) and the top page: pages that exist.
fn see_also(roff: &mut Roff, parent: Option<&str>) {
    let Some(parent) = parent else {
        return;
    };
    let mut pages = vec![parent];
    if parent != "arbiter" {
        pages.push("arbiter");
    }
    roff.control("SH", ["SEE ALSO"]);
    let refs: Vec<_> = pages
        .iter()
        .enumerate()
        .flat_map(|(i, page)| {
            let sep = if i == 0 { "" } else { ", " };
            [roman(sep), bold(*page), roman("(1)")]
        })
        .collect();
    roff.text(refs);
}

#[cfg(test)]
mod tests {
    use crate::cli::Cli;
    use clap::{CommandFactory, Parser};

    /// The examples of `--help` (and the man pages) are command lines that parse.
    #[test]
    fn every_example_parses() {
        let mut command = Cli::command();
        command.build();
        let mut seen = 0;
        let mut stack = vec![&command];
        while let Some(command) = stack.pop() {
            stack.extend(command.get_subcommands());
            let Some(help) = command.get_after_help() else {
                continue;
            };
            for line in help.to_string().lines().map(str::trim) {
                let Some(line) = line.strip_prefix("arbiter ") else {
                    continue;
                };
                // What the shell would pass: words up to a redirection, quotes removed.
                let words = std::iter::once("arbiter").chain(
                    line.split_whitespace()
                        .take_while(|word| !matches!(*word, ">" | ">>" | "<" | "|"))
                        .map(|word| word.trim_matches('\'')),
                );
                if let Err(error) = Cli::try_parse_from(words) {
                    panic!("`arbiter {line}` does not parse: {error}");
                }
                seen += 1;
            }
        }
        assert!(seen >= 16, "{seen} examples");
    }
}
