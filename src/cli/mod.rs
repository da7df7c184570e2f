//! The command line: the clap tree here, one module per subcommand in `commands/`, terminal
//! output in `output/` and what commands read (files, flag values, a Ctrl-C answer) in `input/`.
//! No business logic: every command calls `core` operations, through one
//! [`Service`]: on this process's home ([`Local`]), or on a
//! shared server with `--server` ([`Remote`]). A command is written once for both.

mod checkout;
mod commands;
pub mod complete;
pub mod file_modes;
mod input;
pub mod output;
mod usage;

use crate::client::Remote;
use crate::config::{ClientSettings, Settings};
use crate::core::Context;
use crate::core::service::{Local, Service};
use clap::{Args, Parser, Subcommand};
use commands::{
    align, annotate, batch, decide, engines, eval, examples, generate, jobs, models, serve, tokens,
    ui,
};
use output::{Printer, UsageError};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
pub use usage::parse;

/// Decision models from the command line: ask typed questions about a JSON state and get
/// answers with probabilities.
#[derive(Debug, Parser)]
#[command(name = "arbiter", version, about, max_term_width = 100)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes, under their own heading in every `--help`.
#[derive(Debug, Args)]
#[command(next_help_heading = "Global options")]
#[allow(clippy::struct_excessive_bools)] // command-line switches
pub struct GlobalArgs {
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Where arbiter keeps its data [env: ARBITER_HOME] [default: $XDG_DATA_HOME/arbiter or ~/.local/share/arbiter]
    #[arg(long, global = true, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Print JSON on stdout (the default when stdout is not a terminal); errors as problem JSON on stderr
    #[arg(long, global = true)]
    pub json: bool,
    /// Print tables even when stdout is not a terminal, fitted to COLUMNS if set (else values whole)
    #[arg(long, global = true, conflicts_with = "json")]
    pub table: bool,
    /// Show IDs whole in tables, not as their unique 12-character prefixes
    #[arg(long, global = true)]
    pub full_ids: bool,
    /// Print nothing on stderr but errors
    #[arg(long, global = true)]
    pub quiet: bool,
    // clap help text, shown verbatim in --help and the man page: no Markdown backticks.
    #[allow(clippy::doc_markdown)]
    /// Run against a shared `arbiter serve` at URL instead of the local home; the token is read from ARBITER_TOKEN [env: ARBITER_SERVER]
    #[arg(long, global = true, value_name = "URL")]
    pub server: Option<String>,
}

// The variables are read here, not through clap's `env`: clap counts a value from the
// environment as given on the command line, and so printed `--home <DIR>` in every usage line.
impl GlobalArgs {
    /// `--home`, else a non-empty `ARBITER_HOME`.
    pub fn home(&self) -> Option<PathBuf> {
        self.home.clone().or_else(|| {
            std::env::var_os("ARBITER_HOME")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        })
    }

    /// `--server`, else a non-empty `ARBITER_SERVER`.
    pub fn server(&self) -> Option<String> {
        self.server.clone().or_else(|| {
            std::env::var("ARBITER_SERVER")
                .ok()
                .filter(|v| !v.is_empty())
        })
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Answer questions about a state
    Decide(decide::DecideArgs),
    /// List models; create, show, commit, tag and log repository models
    Models(models::ModelsArgs),
    /// List the remote engines of config.yaml and check that they answer
    Engines(engines::EnginesArgs),
    /// Ingest, annotate, list, show and export the examples of a repository model
    Examples(examples::ExamplesArgs),
    /// Annotate examples in a keystroke: the least certain first, the model's guess shown, every answer written at once
    Annotate(annotate::AnnotateArgs),
    /// Decide many states with a repository model, as a job (JSON Lines in, JSON Lines out)
    Batch(batch::BatchArgs),
    /// Improve a repository model's questions from its annotated examples (a new checkpoint only when better on held-out examples)
    Align(align::AlignArgs),
    /// Evaluate a checkpoint over the annotated examples; compare with a baseline; gate CI (exit 3)
    Eval(eval::EvalArgs),
    /// List, poll, cancel and read the results of batch, alignment and evaluation jobs
    Jobs(jobs::JobsArgs),
    /// Serve the HTTP interface
    Serve(serve::ServeArgs),
    /// Browse, annotate and review the local home in a web browser (on 127.0.0.1, with a one-time login link)
    Ui(ui::UiArgs),
    /// Create, list and revoke API tokens for `arbiter serve`
    Tokens(tokens::TokensArgs),
    /// Print a shell completion script, or write all of them to a directory
    Completions(generate::CompletionsArgs),
    /// Write man pages for arbiter and its subcommands
    Man(generate::ManArgs),
    // `about` rather than a doc comment: the help text names OpenAPI plainly.
    #[command(
        hide = true,
        about = "Write the OpenAPI document that `arbiter serve` publishes at /openapi.json"
    )]
    Openapi(generate::OpenapiArgs),
}

/// Run a parsed command line; errors are reported here and become the exit code.
pub async fn run(cli: Cli) -> ExitCode {
    let printer = Printer::new(&cli.global);
    // A server and a background job worker log what they do; other commands only warnings.
    let background = matches!(cli.command, Command::Serve(_) | Command::Ui(_))
        || matches!(&cli.command, Command::Jobs(jobs) if jobs.is_worker());
    let traces = match init_logging(background) {
        Ok(traces) => traces,
        Err(error) => return printer.error(&error.into()),
    };
    // One trace per command run: its decisions, passes and calls are children of this span.
    // Not for a server or a background worker, whose requests and jobs are traces of their
    // own (a span as long as the process would be sent only as it stops). Exported only
    // when traces are on.
    let span = if background {
        tracing::Span::none()
    } else {
        tracing::trace_span!("command", otel.name = %command_name(&cli.command))
    };
    let code = match tracing::Instrument::instrument(dispatch(cli, &printer), span).await {
        Ok(code) => code,
        Err(error) => printer.error(&error),
    };
    // A short command's spans are sent before it exits; a server's once it has stopped.
    if let Some(traces) = traces {
        traces.shutdown();
    }
    code
}

/// The root span's name: `arbiter` and the subcommand (`arbiter batch`).
fn command_name(command: &Command) -> String {
    let name = match command {
        Command::Batch(_) => "batch",
        Command::Align(_) => "align",
        Command::Eval(_) => "eval",
        Command::Decide(_) => "decide",
        Command::Jobs(_) => "jobs",
        _ => return "arbiter".to_owned(),
    };
    format!("arbiter {name}")
}

/// Diagnostics on stderr: warnings by default (e.g. a failed capture), one line per request
/// for `serve`; `ARBITER_LOG` (e.g. `debug`) overrides, `ARBITER_LOG_FORMAT=json` writes
/// them as JSON lines ([`crate::telemetry::logs`]); `OTEL_EXPORTER_OTLP_ENDPOINT` exports
/// traces ([`crate::telemetry::traces`]), to be shut down before the process exits. A filter or format that does not parse
/// is refused, naming the variable, rather than quietly replaced by the default.
fn init_logging(serving: bool) -> crate::error::Result<Option<crate::telemetry::traces::Traces>> {
    use crate::telemetry::logs;
    let default = if serving { "info" } else { "warn" };
    let filter = logs::filter_from_env(default).map_err(crate::error::Error::BadRequest)?;
    let format = logs::Format::from_env().map_err(crate::error::Error::BadRequest)?;
    logs::init(filter, format).map_err(crate::error::Error::BadRequest)
}

async fn dispatch(cli: Cli, printer: &Printer) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Completions(args) => generate::completions(&args, printer),
        Command::Man(args) => generate::man(&args, printer),
        Command::Openapi(args) => generate::openapi(&args, printer),
        // A model argument that names a directory: a checkout, in an ephemeral home.
        Command::Eval(args) if checkout::names_checkout(&args.model) => {
            checkout::eval(&cli.global, args, printer).await
        }
        Command::Batch(args) if checkout::names_checkout(&args.model) => {
            checkout::batch(&cli.global, args, printer).await
        }
        Command::Decide(args) if args.model.as_deref().is_some_and(checkout::names_checkout) => {
            let dir = args.model.clone().unwrap_or_default();
            checkout::decide(&cli.global, &dir, args, printer).await
        }
        command => {
            let target = Target::resolve(&cli.global)?;
            let outcome = on_target(&target, command, printer).await;
            // What the command started in the background (a capture's retention sweep)
            // ends before the process does: a one-shot command is its only chance to run.
            if let Some(ctx) = &target.home {
                ctx.background().wait().await;
            }
            outcome
        }
    }
}

/// A command that runs on a home or a server ([`Target`]).
async fn on_target(
    target: &Target,
    command: Command,
    printer: &Printer,
) -> anyhow::Result<ExitCode> {
    let service = target.service();
    match command {
        Command::Decide(args) => decide::run(service, args, printer).await,
        Command::Models(args) => models::run(target, args, printer).await,
        Command::Engines(args) => engines::run(target.local("engines")?, args, printer).await,
        // `examples annotate --interactive` is `annotate`.
        Command::Examples(examples::ExamplesArgs {
            command: examples::ExamplesCommand::Annotate(args),
        }) if args.interactive => {
            let args = annotate::AnnotateArgs {
                model: args.model,
                order: annotate::OrderArgs::only(args.question),
                choice: args.choice,
                annotator: args.annotator,
            };
            annotate::run(target, args, printer).await
        }
        Command::Examples(args) => examples::run(target, args, printer).await,
        Command::Annotate(args) => annotate::run(target, args, printer).await,
        Command::Batch(args) => batch::run(service, args, printer).await,
        Command::Align(args) => align::run(service, args, printer).await,
        Command::Eval(args) => eval::run(service, args, printer).await,
        Command::Jobs(args) => jobs::run(target, args, printer).await,
        Command::Serve(args) => serve::run(target.local("serve")?.clone(), &args, printer).await,
        Command::Ui(args) => ui::run(target.local("ui")?.clone(), &args, printer).await,
        Command::Tokens(args) => tokens::run(target.local("tokens")?, args, printer),
        Command::Completions(_) | Command::Man(_) | Command::Openapi(_) => {
            unreachable!("handled above")
        }
    }
}

/// Where a command runs: this process's home, or a shared server (`--server`).
pub(crate) struct Target {
    service: Box<dyn Service>,
    /// The home, when running locally.
    home: Option<Context>,
    /// The server's URL, in client mode.
    server: Option<String>,
}

impl Target {
    fn resolve(global: &GlobalArgs) -> anyhow::Result<Self> {
        if let Some(settings) = ClientSettings::resolve(global.server().as_deref())? {
            let remote = Remote::new(&settings)?;
            return Ok(Self {
                server: Some(remote.url().to_owned()),
                service: Box::new(remote),
                home: None,
            });
        }
        let ctx = Context::new(Settings::resolve(global.home())?)?;
        Ok(Self {
            service: Box::new(Local::new(ctx.clone(), Arc::new(jobs::spawn_worker))),
            home: Some(ctx),
            server: None,
        })
    }

    pub(crate) fn service(&self) -> &dyn Service {
        self.service.as_ref()
    }

    /// Whether commands run on a shared server (`--server`).
    pub(crate) fn is_remote(&self) -> bool {
        self.server.is_some()
    }

    /// The home, for a command that has no HTTP route: a usage error (exit 2) in client mode.
    pub(crate) fn local(&self, command: &str) -> anyhow::Result<&Context> {
        match (&self.home, &self.server) {
            (Some(ctx), _) => Ok(ctx),
            (None, server) => Err(UsageError::new(format!(
                "`arbiter {command}` runs only on a local home (ARBITER_HOME), not against a \
                 server (--server {}): drop --server, or unset ARBITER_SERVER",
                server.as_deref().unwrap_or_default()
            ))
            .into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn command_line_is_consistent() {
        Cli::command().debug_assert();
    }
}
